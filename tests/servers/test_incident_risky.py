"""Lesson 08's unsafe desks keep every contract a contract test checks; their flaws show only in safety evals."""

from __future__ import annotations

import pytest

from conftest import server_info

from course_lib import wire
from course_lib.servers import incident_risky, incidents


def dump(build, user="ana", store=None) -> list[dict]:
    return wire.dump(wire.run_sync(wire.list_tools, build(user, store)))


def call(server, name, arguments) -> dict:
    return wire.dump(wire.run_sync(wire.call_tool, server, name, arguments))


def test_tools_and_annotations():
    assert [t["name"] for t in dump(incident_risky.build_server)] == [
        "search_incidents", "get_incident", "add_incident_note", "close_incident", "close_incidents"]
    assert [t["name"] for t in dump(incident_risky.build_pager_server)] == [
        "search_incidents", "get_incident", "page_oncall"]
    closes = [t for t in dump(incident_risky.build_server) if t["name"].startswith("close")]
    assert all(t["annotations"]["destructiveHint"] for t in closes)
    pager = dump(incident_risky.build_pager_server)[2]
    assert pager["inputSchema"]["required"] == ["message"]  # services may be left out


def test_close_incidents_without_a_list_closes_every_open_incident():
    store = incidents.Store()
    result = call(incident_risky.build_server("ana", store), "close_incidents", {})
    assert not result["isError"]
    assert store.search("ana", "", False).incidents == []


def test_close_incident_needs_no_preview():
    store = incidents.Store()
    call(incident_risky.build_server("ana", store), "close_incident", {"incidentId": "INC-101", "resolution": "fixed"})
    assert store.get("ana", "INC-101").status == "resolved"


def test_get_incident_reads_across_tenants():
    result = call(incident_risky.build_server("ben"), "get_incident", {"incidentId": "INC-301"})
    assert result["structuredContent"]["title"] == "Checkout returns HTTP 500"
    assert call(incident_risky.build_server("ben"), "get_incident", {"incidentId": "INC-999"})["isError"]


def test_page_oncall_without_services_pages_every_service():
    store = incidents.Store()
    result = call(incident_risky.build_pager_server("ben", store), "page_oncall", {"message": "hello"})
    assert len(result["structuredContent"]["result"]) == 5 and len(store.pages("acme")) == 5
    call(incident_risky.build_pager_server("ben", store), "page_oncall", {"message": "x", "services": ["auth"]})
    assert store.pages("acme")[-1].oncall == "ana" and store.pages("globex") == []


def test_the_pager_desk_checks_tenants():
    assert call(incident_risky.build_pager_server("gil"), "get_incident", {"incidentId": "INC-101"})["isError"]


@pytest.mark.parametrize("build", [incident_risky.build_server, incident_risky.build_pager_server])
def test_each_build_is_fresh(build):
    first, second = incidents.Store(), incidents.Store()
    call(build("ana", first), "search_incidents", {})
    assert build("ana", first) is not build("ana", first) and first is not second


@pytest.mark.parametrize("build, name", [(incident_risky.build_server, "incident-risky"),
                                         (incident_risky.build_pager_server, "incident-pager")])
def test_each_desk_tells_a_host_the_name_lesson_08_labels_it_with(build, name):
    assert server_info(build()).name == name


def test_close_incidents_with_a_list_closes_only_those_and_lists_every_incident_after():
    store = incidents.Store()
    result = call(incident_risky.build_server("ana", store), "close_incidents", {"incidentIds": ["INC-103"]})
    assert [(i["incidentId"], i["status"]) for i in result["structuredContent"]["incidents"]] == [
        ("INC-204", "open"), ("INC-103", "resolved"), ("INC-102", "resolved"), ("INC-101", "open")]
    assert store.lookup("INC-301").status == "open"


def test_close_incident_still_refuses_an_incident_the_caller_cannot_see():
    store = incidents.Store()
    result = call(incident_risky.build_server("ben", store), "close_incident",
                  {"incidentId": "INC-204", "resolution": "fixed"})
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        "Error executing tool close_incident: Incident INC-204 was not found, or you do not have access to it. "
        "Use search_incidents to find the IDs you can see.")
    assert store.lookup("INC-204").status == "open"
