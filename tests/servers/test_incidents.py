"""Lesson 05's servers: the incident desk's contract, and its reliability and security targets.

Reliability: 200 concurrent retries with one requestId leave exactly one note; a conflicting retry
changes nothing; no tool returns another organization's data for any ID; no error text leaks
internals. Also the overloaded `incident` tool and the deploy tool with and without its
dangerous default.
"""

from __future__ import annotations

import functools
import os
import re

import pytest

from course_lib import incident_model, review, wire
from course_lib.errors import UnknownName
from course_lib.servers import deploy, incident_overloaded, incidents
from conftest import call, definitions, text, server_info

ERAS = pytest.mark.parametrize("era", wire.ERAS)
REQUEST = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
OTHER_REQUEST = "c2a4f1e8-3b6d-4e0a-9f5c-8d7e6b5a4c31"
TOOLS = ["search_incidents", "get_incident", "add_incident_note", "preview_close_incident", "close_incident",
         "send_oncall_page"]


def note_args(note="Rolled back checkout to 2.7.9.", request=REQUEST, incident="INC-101") -> dict:
    return {"incidentId": incident, "note": note, "requestId": request}


# --- contract ---------------------------------------------------------------------------------------


@ERAS
def test_tools_are_listed_in_a_fixed_order(era):
    assert list(definitions(incidents.build_server(), era)) == TOOLS


def test_input_schemas_constrain_ids_notes_and_request_ids():
    tools = definitions(incidents.build_server())
    get = tools["get_incident"]["inputSchema"]
    assert get["required"] == ["incidentId"] and get["properties"]["incidentId"]["pattern"] == "^INC-[0-9]+$"
    note = tools["add_incident_note"]["inputSchema"]
    assert note["required"] == ["incidentId", "note", "requestId"]
    assert (note["properties"]["note"]["minLength"], note["properties"]["note"]["maxLength"]) == (1, 500)
    assert note["properties"]["requestId"]["format"] == "uuid"
    search = tools["search_incidents"]["inputSchema"]["properties"]
    assert search["includeResolved"]["default"] is False
    assert (search["limit"]["minimum"], search["limit"]["maximum"]) == (1, 20)
    close = tools["close_incident"]["inputSchema"]
    assert close["required"] == ["incidentId", "resolution", "previewToken"]


def test_annotations_are_honest_and_the_review_has_no_findings():
    tools = definitions(incidents.build_server())
    reads = {"readOnlyHint": True, "openWorldHint": False}
    assert tools["search_incidents"]["annotations"] == reads == tools["get_incident"]["annotations"]
    assert tools["add_incident_note"]["annotations"] == {
        "readOnlyHint": False, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
    assert tools["close_incident"]["annotations"]["destructiveHint"] is True
    assert tools["send_oncall_page"]["annotations"]["openWorldHint"] is True
    assert tools["send_oncall_page"]["annotations"]["idempotentHint"] is False
    assert review.review(list(tools.values())) == []
    assert all("\n    " not in tool["description"] for tool in tools.values())


def test_output_schemas_keep_backend_fields_out():
    incident = definitions(incidents.build_server())["get_incident"]["outputSchema"]
    assert set(incident["properties"]) == {"incidentId", "title", "service", "severity", "status", "notes"}
    data = call(incidents.build_server(), "get_incident", {"incidentId": "INC-204"})["structuredContent"]
    assert set(data) == set(incident["properties"]), "no tenant, access list or version in the result"


@ERAS
def test_get_incident_returns_the_record(era):
    result = call(incidents.build_server("ana"), "get_incident", {"incidentId": "INC-101"}, era)
    assert result["isError"] is False
    assert result["structuredContent"]["title"] == "Checkout latency above 2 s"
    assert result["structuredContent"]["notes"][0]["noteId"] == "N1"


def test_search_leaves_resolved_incidents_out_unless_asked():
    server = incidents.build_server("ana")
    ids = lambda result: [i["incidentId"] for i in result["structuredContent"]["incidents"]]  # noqa: E731
    assert ids(call(server, "search_incidents", {})) == ["INC-204", "INC-103", "INC-101"]
    assert ids(call(server, "search_incidents", {"includeResolved": True})) == ["INC-204", "INC-103", "INC-102",
                                                                               "INC-101"]
    assert ids(call(server, "search_incidents", {"query": "CHECKOUT latency"})) == ["INC-101"]
    assert ids(call(server, "search_incidents", {"includeResolved": True, "limit": 1})) == ["INC-204"]


@pytest.mark.parametrize("arguments, says", [
    ({"incidentId": "inc-101"}, "should match pattern '^INC-[0-9]+$'"),
    ({"incidentId": "INC-1 OR 1=1"}, "should match pattern"),
    ({}, "Field required"),
])
def test_bad_ids_are_refused_before_the_body_runs(arguments, says):
    result = call(incidents.build_server(), "get_incident", arguments)
    assert result["isError"] is True and says in text(result)


def test_bad_notes_and_request_ids_are_refused():
    server = incidents.build_server()
    assert "at least 1 character" in text(call(server, "add_incident_note", note_args(note="")))
    assert "at most 500 characters" in text(call(server, "add_incident_note", note_args(note="x" * 501)))
    assert "valid UUID" in text(call(server, "add_incident_note", note_args(request="retry-1")))
    assert call(server, "add_incident_note", note_args(note="x" * 500))["isError"] is False


def test_unknown_user_is_a_setup_error():
    with pytest.raises(UnknownName, match="unknown user 'eve'"):
        incidents.build_server("eve")


def test_each_build_starts_from_the_same_fresh_data():
    first = incidents.build_server()
    call(first, "add_incident_note", note_args())
    second = call(incidents.build_server(), "get_incident", {"incidentId": "INC-101"})
    assert len(second["structuredContent"]["notes"]) == 1


# --- authorization and existence --------------------------------------------------------------------

NOT_FOUND = ("Incident {id} was not found, or you do not have access to it. "
             "Use search_incidents to find the IDs you can see.")


@ERAS
def test_forbidden_missing_and_other_tenant_give_the_same_answer(era):
    server = incidents.build_server("ben")
    answers = {incident_id: call(server, "get_incident", {"incidentId": incident_id}, era)
               for incident_id in ("INC-204", "INC-999", "INC-301")}
    for incident_id, result in answers.items():
        assert result["isError"] is True and "structuredContent" not in result
        assert text(result) == "Error executing tool get_incident: " + NOT_FOUND.format(id=incident_id)


def test_a_user_allowed_to_call_get_incident_may_still_not_read_inc_204():
    store = incidents.Store()
    assert call(incidents.build_server("ana", store), "get_incident", {"incidentId": "INC-204"})["isError"] is False
    ben = incidents.build_server("ben", store)
    assert "get_incident" in definitions(ben)
    assert call(ben, "get_incident", {"incidentId": "INC-204"})["isError"] is True
    assert call(ben, "add_incident_note", note_args(incident="INC-204"))["isError"] is True
    assert call(ben, "preview_close_incident", {"incidentId": "INC-204", "resolution": "fixed"})["isError"] is True
    assert len(store.notes("INC-204")) == 1
    listed = call(ben, "search_incidents", {"includeResolved": True})["structuredContent"]["incidents"]
    assert "INC-204" not in [i["incidentId"] for i in listed]


def test_pages_go_to_the_callers_own_organization():
    store = incidents.Store()
    ana = call(incidents.build_server("ana", store), "send_oncall_page", {"service": "checkout", "message": "p99 up"})
    gil = call(incidents.build_server("gil", store), "send_oncall_page", {"service": "checkout", "message": "500s"})
    assert ana["structuredContent"] == {"pageId": "PG-1", "service": "checkout", "oncall": "ana", "message": "p99 up"}
    assert gil["structuredContent"]["oncall"] == "gil" and gil["structuredContent"]["pageId"] == "PG-1"
    assert [page.message for page in store.pages("acme")] == ["p99 up"]


# --- idempotency --------------------------------------------------------------------------------------


def test_a_retry_returns_the_first_result_and_adds_nothing():
    store = incidents.Store()
    server = incidents.build_server("ana", store)
    first, again = call(server, "add_incident_note", note_args()), call(server, "add_incident_note", note_args())
    assert first == again and first["structuredContent"]["noteId"] == "N2"
    assert len(store.notes("INC-101")) == 2
    other = call(server, "add_incident_note", note_args(request=OTHER_REQUEST))
    assert other["structuredContent"]["noteId"] == "N3", "a new requestId is a new note, even with the same text"


@pytest.mark.parametrize("change", [{"note": "A different note."}, {"incident": "INC-103"}])
def test_same_request_id_with_different_inputs_is_a_conflict_and_changes_nothing(change):
    store = incidents.Store()
    server = incidents.build_server("ana", store)
    call(server, "add_incident_note", note_args())
    before = {i: store.notes(i) for i in ("INC-101", "INC-103")}
    result = call(server, "add_incident_note", note_args(**change))
    assert result["isError"] is True
    assert "already used for a different note, so nothing was changed" in text(result)
    assert {i: store.notes(i) for i in ("INC-101", "INC-103")} == before


def test_request_ids_are_per_user():
    store = incidents.Store()
    call(incidents.build_server("ana", store), "add_incident_note", note_args(note="Ana's note."))
    ben = call(incidents.build_server("ben", store), "add_incident_note", note_args(note="Ben's note."))
    assert ben["isError"] is False and ben["structuredContent"]["author"] == "ben"


# --- the reliability targets --------------------------------------------------------------------------


@pytest.mark.parametrize("era, clients", [(wire.MODERN, 200), (wire.MODERN, 1), (wire.HANDSHAKE, 20)])
def test_200_concurrent_retries_with_one_request_id_leave_exactly_one_note(era, clients):
    store = incidents.Store(write_delay=0.02)  # a slow write widens any race window
    server = incidents.build_server("ana", store)
    results = wire.run_sync(wire.call_concurrently, server, [("add_incident_note", note_args())] * 200, clients, era)
    assert [n.text for n in store.notes("INC-101")].count("Rolled back checkout to 2.7.9.") == 1
    assert len(store.notes("INC-101")) == 2
    assert all(r["isError"] is False for r in results)
    assert len({r["structuredContent"]["noteId"] for r in results}) == 1


def test_concurrent_conflicting_retries_change_nothing_beyond_the_first_note():
    store = incidents.Store(write_delay=0.002)
    server = incidents.build_server("ana", store)
    calls = [("add_incident_note", note_args(note=f"Version {i % 2}")) for i in range(200)]
    results = wire.run_sync(wire.call_concurrently, server, calls, 20, wire.MODERN)
    added = store.notes("INC-101")[1:]
    assert len(added) == 1
    winner = added[0].text
    for (_, arguments), result in zip(calls, results):
        assert result["isError"] is (arguments["note"] != winner)


ALL_IDS = [f"INC-{n}" for n in range(0, 401)]


@functools.cache
def _probe_every_id(user: str) -> tuple[incidents.Store, list[tuple[str, str, dict]]]:
    """Every incident-taking tool and action, called for every ID: the store, and (id, call label, result)."""
    store = incidents.Store()
    server, overloaded = incidents.build_server(user, store), incident_overloaded.build_server(user, store)

    async def run():
        seen = []
        async with wire.connect(server) as client, wire.connect(overloaded) as desk:
            for incident_id in ALL_IDS:
                request = f"{REQUEST[:-3]}{incident_id[4:]:0>3}"  # one new note per incident
                for name, arguments in [
                    ("get_incident", {"incidentId": incident_id}),
                    ("preview_close_incident", {"incidentId": incident_id, "resolution": "fixed"}),
                    ("add_incident_note", note_args(incident=incident_id, request=request)),
                    ("close_incident", {"incidentId": incident_id, "resolution": "fixed", "previewToken": "pv-0"}),
                ]:
                    seen.append((incident_id, name, wire.dump(await client.call_tool(name, arguments))))
                for action in ("read", "update", "close"):
                    result = await desk.call_tool("incident", {"action": action, "id": incident_id, "text": "x"})
                    seen.append((incident_id, action, wire.dump(result)))
            search = await client.call_tool("search_incidents", {"includeResolved": True})
            seen.append(("-", "search_incidents", wire.dump(search)))
            seen.append(("-", "search", wire.dump(await desk.call_tool("incident", {"action": "search"}))))
        return seen

    return store, wire.run_sync(run)


@pytest.mark.parametrize("user", sorted(incidents.USERS))
def test_no_tool_returns_another_tenants_data_for_any_id(user):
    store, seen = _probe_every_id(user)
    person = incidents.USERS[user]
    foreign = [r for r in (store.lookup(i) for i in ALL_IDS) if r and r.tenant != person.tenant]
    secrets = [r.title for r in foreign] + [note.text for r in foreign for note in r.notes]
    restricted = [r for r in (store.lookup(i) for i in ALL_IDS)
                  if r and r.restricted_to and r.restricted_to not in person.teams]
    secrets += [r.title for r in restricted] + [n.text for r in restricted for n in r.notes]
    hidden_ids = {r.incident_id for r in foreign + restricted}
    assert secrets and (hidden_ids or user == "ana")
    missing = {label: text(result).replace("INC-0", "<id>") for incident_id, label, result in seen
               if incident_id == "INC-0"}
    for incident_id, label, result in seen:
        body = text(result) + str(result.get("structuredContent", ""))
        assert not any(secret in body for secret in secrets), (user, incident_id, body[:200])
        if incident_id in hidden_ids:  # exactly what a missing ID gets: existence does not leak
            assert result["isError"] is True
            assert text(result).replace(incident_id, "<id>") == missing[label], (user, incident_id, label)
    for record in foreign + restricted:
        assert store.lookup(record.incident_id) == incident_model.seed()[record.incident_id], "a hidden record changed"


def test_every_error_text_is_free_of_internals():
    store, seen = _probe_every_id("ben")
    texts = [text(r) for _, _, r in seen if r["isError"]]
    server = incidents.build_server("ben", store)
    for name, arguments in [
        ("add_incident_note", note_args(note="")), ("add_incident_note", note_args(request="nope")),
        ("add_incident_note", note_args(note="Changed.", request=REQUEST[:-3] + "101")),
        ("close_incident", {"incidentId": "INC-101", "resolution": "fixed", "previewToken": "x"}),
        ("preview_close_incident", {"incidentId": "INC-102", "resolution": "fixed"}),
        ("send_oncall_page", {"service": "billing", "message": "x"}), ("search_incidents", {"limit": 99}),
    ]:
        result = call(server, name, arguments)
        assert result["isError"] is True, name
        texts.append(text(result))
    assert len(texts) > 1000
    echoed = re.compile(r"input_value=.*?, input_type=\w+")
    for message in texts:
        assert review.leaks(echoed.sub("", message)) == [], message
        assert not re.fullmatch(r"Error executing tool \w+", message), "a hidden crash"


# --- the preview bound to the final inputs ------------------------------------------------------------


def _preview(server, incident_id="INC-101", resolution="fixed") -> str:
    result = call(server, "preview_close_incident", {"incidentId": incident_id, "resolution": resolution})
    assert result["isError"] is False, text(result)
    return result["structuredContent"]["previewToken"]


def _close(server, token, incident_id="INC-101", resolution="fixed") -> dict:
    return call(server, "close_incident", {"incidentId": incident_id, "resolution": resolution, "previewToken": token})


def test_a_preview_applies_only_the_exact_change_and_only_once():
    store = incidents.Store()
    server = incidents.build_server("ana", store)
    token = _preview(server)
    assert token != _preview(server), "each preview gets a fresh random token, even for the same change"
    other_incident, other_resolution = _close(server, token, "INC-103"), _close(server, token, resolution="duplicate")
    assert other_incident["isError"]
    assert "the call asks to close INC-103 as fixed. Nothing was changed" in text(other_incident)
    assert other_resolution["isError"] and "as duplicate" in text(other_resolution)
    assert store.lookup("INC-103").status == "open" and store.lookup("INC-101").status == "open"
    closed = _close(server, token)
    assert closed["isError"] is False and closed["structuredContent"]["status"] == "resolved"
    assert _close(server, token)["isError"] is True, "a token is single use"


def test_a_preview_is_stale_after_a_change_and_is_bound_to_its_user():
    store = incidents.Store()
    ana, ben = incidents.build_server("ana", store), incidents.build_server("ben", store)
    token = _preview(ana)
    assert "not a preview you can apply" in text(_close(ben, token))
    call(ben, "add_incident_note", note_args())
    stale = _close(ana, token)
    assert stale["isError"] and "changed after this preview" in text(stale)
    assert store.lookup("INC-101").status == "open"
    resolved = call(ana, "preview_close_incident", {"incidentId": "INC-102", "resolution": "fixed"})
    assert "already resolved" in text(resolved)


# --- the overloaded tool and the dangerous default ----------------------------------------------------


def test_overloaded_tool_is_one_unannotated_definition_that_does_everything():
    tools = definitions(incident_overloaded.build_server())
    assert list(tools) == ["incident"]
    assert "annotations" not in tools["incident"] and "outputSchema" not in tools["incident"]
    assert tools["incident"]["inputSchema"]["properties"]["action"]["enum"] == [
        "search", "read", "update", "close", "page", "notify"]
    store = incidents.Store()
    desk = incident_overloaded.build_server("ana", store)
    assert '"INC-102"' in text(call(desk, "incident", {"action": "search"})), "search includes resolved incidents"
    assert call(desk, "incident", {"action": "close", "id": "INC-103"})["isError"] is False
    assert store.lookup("INC-103").status == "resolved", "closed at once, no preview"
    assert call(desk, "incident", {"action": "update", "id": "INC-101", "text": "New title"})["isError"] is False
    assert store.lookup("INC-101").title == "New title", "update overwrites"
    assert '"oncall": "ben"' in text(call(desk, "incident", {"action": "page", "id": "payments", "text": "help"}))
    assert '"public": true' in text(call(desk, "incident", {"action": "notify", "text": "We are down."}))
    assert "needs id" in text(call(desk, "incident", {"action": "read"}))
    assert NOT_FOUND.format(id="INC-301") in text(call(desk, "incident", {"action": "read", "id": "INC-301"}))


def test_risky_deploy_silently_targets_production_and_the_fix_requires_a_choice():
    forgot = {"service": "checkout", "version": "2.8.1"}
    risky = call(deploy.build_risky_server(), "start_deployment", forgot)
    assert risky["structuredContent"] == {"service": "checkout", "environment": "production", "version": "2.8.1",
                                         "previousVersion": "2.8.0"}
    refused = call(deploy.build_server(), "start_deployment", forgot)
    assert refused["isError"] is True and "environment\n  Field required" in text(refused)
    environment = definitions(deploy.build_server())["start_deployment"]["inputSchema"]
    assert "environment" in environment["required"] and "default" not in environment["properties"]["environment"]
    risky_schema = definitions(deploy.build_risky_server())["start_deployment"]["inputSchema"]
    assert risky_schema["properties"]["environment"]["default"] == "production"
    staged = call(deploy.build_server(), "start_deployment", {**forgot, "environment": "staging"})
    assert staged["structuredContent"]["environment"] == "staging"


# --- the exact answers a model reads (lesson 05 shows them) --------------------------------------------

CLOSED_101 = {"incidentId": "INC-101", "title": "Checkout latency above 2 s", "service": "checkout",
              "severity": "sev2", "status": "resolved",
              "notes": [{"noteId": "N1", "author": "ana", "text": "Latency rose after the 14:05 deploy of checkout 2.8.0."},
                        {"noteId": "N2", "author": "ana", "text": "Closed as fixed."}]}
UNUSABLE = ("Error executing tool close_incident: previewToken is not a preview you can apply (unknown, expired, "
            "already used, or issued to someone else). Call preview_close_incident for the change you want, show it to the "
            "person, then call close_incident with its previewToken.")


def session(server, planned: list[tuple[str, dict]]) -> list[dict]:
    """Several calls on one server in one client session; each result in wire form."""

    async def run() -> list[dict]:
        async with wire.connect(server) as client:
            return [wire.dump(await client.call_tool(name, arguments)) for name, arguments in planned]

    return wire.run_sync(run)


def preview_call(incident_id="INC-101", resolution="fixed") -> tuple[str, dict]:
    return "preview_close_incident", {"incidentId": incident_id, "resolution": resolution}


def close_call(token: str, incident_id="INC-101", resolution="fixed") -> tuple[str, dict]:
    return "close_incident", {"incidentId": incident_id, "resolution": resolution, "previewToken": token}


def test_the_preview_of_closing_inc_101_is_the_one_lesson_05_shows():
    (preview,) = session(incidents.build_server("ana"), [preview_call()])
    assert preview["structuredContent"] == {
        "incidentId": "INC-101", "resolution": "fixed",
        "change": "status open -> resolved, resolution fixed; title 'Checkout latency above 2 s', 1 note(s) kept",
        "previewToken": preview["structuredContent"]["previewToken"]}
    assert re.fullmatch(r"pv-[A-Za-z0-9_-]{22}", preview["structuredContent"]["previewToken"])
    (other,) = session(incidents.build_server("ben"), [preview_call("INC-103", "duplicate")])
    assert other["structuredContent"]["change"] == ("status open -> resolved, resolution duplicate; "
                                                    "title 'Search results are stale', 0 note(s) kept")


def test_closing_with_a_preview_answers_exactly_as_lesson_05_shows():
    server = incidents.build_server("ana")
    (preview,) = session(server, [preview_call()])
    token = preview["structuredContent"]["previewToken"]
    other_incident, other_resolution, exact, again = session(server, [
        close_call(token, "INC-103"), close_call(token, resolution="duplicate"), close_call(token), close_call(token)])
    assert text(other_incident) == (
        "Error executing tool close_incident: This preview was for closing INC-101 as fixed, but the call asks to "
        "close INC-103 as fixed. Nothing was changed. Preview the exact change you want, then apply it with that "
        "preview's token.")
    assert text(other_resolution) == (
        "Error executing tool close_incident: This preview was for closing INC-101 as fixed, but the call asks to "
        "close INC-101 as duplicate. Nothing was changed. Preview the exact change you want, then apply it with "
        "that preview's token.")
    assert exact["isError"] is False and exact["structuredContent"] == CLOSED_101
    assert again["isError"] is True and text(again) == UNUSABLE


def test_a_stale_preview_and_a_resolved_incident_are_refused_naming_the_incident():
    store = incidents.Store()
    ana, ben = incidents.build_server("ana", store), incidents.build_server("ben", store)
    (preview,) = session(ana, [preview_call("INC-103")])
    session(ben, [("add_incident_note", note_args(incident="INC-103"))])
    stale, resolved = session(ana, [close_call(preview["structuredContent"]["previewToken"], "INC-103"),
                                    preview_call("INC-102")])
    assert text(stale) == ("Error executing tool close_incident: INC-103 changed after this preview, so nothing "
                           "was changed. Preview again so that the person sees the current state.")
    assert text(resolved) == ("Error executing tool preview_close_incident: INC-102 is already resolved; there is "
                              "nothing to close.")
    assert [store.lookup(i).status for i in ("INC-102", "INC-103")] == ["resolved", "open"]


def test_a_request_id_reused_for_another_note_is_named_in_the_refusal():
    first, reused = session(incidents.build_server("ana"), [
        ("add_incident_note", note_args()), ("add_incident_note", note_args(note="A different note."))])
    assert first["structuredContent"] == {"incidentId": "INC-101", "noteId": "N2", "author": "ana",
                                          "text": "Rolled back checkout to 2.7.9."}
    assert text(reused) == (
        f"Error executing tool add_incident_note: requestId {REQUEST} was already used for a different note, so "
        f"nothing was changed. Use a new UUID for a new note; reuse a requestId only to retry exactly the same call.")


# --- a preview token is bound to its caller, incident, resolution and the incident's state ---------------


def test_each_previewed_change_gets_its_own_token_and_applies_only_itself():
    store = incidents.Store()
    ana, ben = incidents.build_server("ana", store), incidents.build_server("ben", store)
    (fixed,) = session(ana, [preview_call()])
    (by_ben,) = session(ben, [preview_call()])
    duplicate, other_incident = session(ana, [preview_call(resolution="duplicate"), preview_call("INC-103")])
    tokens = [r["structuredContent"]["previewToken"] for r in (fixed, by_ben, duplicate, other_incident)]
    assert len(set(tokens)) == 4, tokens
    closed_103, closed_101 = session(ana, [close_call(tokens[3], "INC-103"), close_call(tokens[0])])
    assert closed_103["isError"] is False and closed_103["structuredContent"]["status"] == "resolved"
    assert closed_101["isError"] is False and closed_101["structuredContent"] == CLOSED_101


def test_a_preview_made_before_a_note_is_stale_and_a_fresh_preview_applies():
    server = incidents.build_server("ana")
    before, _, after = session(server, [preview_call(), ("add_incident_note", note_args()), preview_call()])
    old, new = before["structuredContent"]["previewToken"], after["structuredContent"]["previewToken"]
    assert old != new
    assert after["structuredContent"]["change"].endswith("2 note(s) kept")
    stale, closed = session(server, [close_call(old), close_call(new)])
    assert "INC-101 changed after this preview" in text(stale)
    assert closed["isError"] is False
    assert [n["text"] for n in closed["structuredContent"]["notes"]] == [
        "Latency rose after the 14:05 deploy of checkout 2.8.0.", "Rolled back checkout to 2.7.9.", "Closed as fixed."]


@pytest.mark.parametrize("changes", [
    [("update", "Checkout p99 above 2 s")],
    [("note", "Rolled back."), ("update", "Checkout p99 above 2 s")],
    [("note", "Rolled back."), ("note", "Scaled out."), ("update", "Checkout p99 above 2 s")],
])
def test_any_change_after_a_preview_voids_it(changes):
    """A note through the desk or a new title through the overloaded tool on the same store: the person's
    preview no longer shows the incident as it is."""
    store = incidents.Store()
    desk, overloaded = incidents.build_server("ana", store), incident_overloaded.build_server("ana", store)
    (preview,) = session(desk, [preview_call()])
    for n, (kind, value) in enumerate(changes):
        if kind == "note":
            session(desk, [("add_incident_note", note_args(note=value, request=f"{REQUEST[:-2]}{n:02}"))])
        else:
            session(overloaded, [("incident", {"action": "update", "id": "INC-101", "text": value})])
    (stale,) = session(desk, [close_call(preview["structuredContent"]["previewToken"])])
    assert stale["isError"] is True and "INC-101 changed after this preview" in text(stale)
    assert store.lookup("INC-101").status == "open"


def test_once_an_incident_is_closed_its_other_previews_stay_void():
    server = incidents.build_server("ana")
    fixed, duplicate = session(server, [preview_call(), preview_call(resolution="duplicate")])
    closed, _, second = session(server, [
        close_call(fixed["structuredContent"]["previewToken"]),
        ("add_incident_note", note_args(note="Post-mortem scheduled.")),
        close_call(duplicate["structuredContent"]["previewToken"], resolution="duplicate")])
    assert closed["isError"] is False
    assert second["isError"] is True and "INC-101 changed after this preview" in text(second)
    (read,) = session(server, [("get_incident", {"incidentId": "INC-101"})])
    assert [n["text"] for n in read["structuredContent"]["notes"]] == [
        "Latency rose after the 14:05 deploy of checkout 2.8.0.", "Closed as fixed.", "Post-mortem scheduled."]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_preview_tokens_are_random_so_no_one_can_recompute_another_callers(backend, tmp_path):
    """The token is 128 random bits: the same change previewed twice, by the same or a fresh server, never
    gets the same token, and the old derivable token (sha256 of user|incident|resolution|version) is refused."""
    import hashlib

    from course_lib.incident_store import SqliteStore

    def fresh():
        return incidents.Store() if backend == "memory" else SqliteStore(tmp_path / f"desk{len(os.listdir(tmp_path))}.db")

    tokens = []
    for store in (fresh(), fresh()):
        ana = incidents.build_server("ana", store)
        tokens += [r["structuredContent"]["previewToken"] for r in session(ana, [preview_call(), preview_call()])]
    assert len(set(tokens)) == 4 and all(re.fullmatch(r"pv-[A-Za-z0-9_-]{22}", t) for t in tokens)
    derived = "pv-" + hashlib.sha256(b"ana|INC-101|fixed|1").hexdigest()[:12]
    server = incidents.build_server("ana", fresh())
    session(server, [preview_call()])
    (guess,) = session(server, [close_call(derived)])
    assert guess["isError"] is True and "not a preview you can apply" in text(guess)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
@pytest.mark.parametrize("age, usable", [(incident_model.PREVIEW_TTL - 1, True), (incident_model.PREVIEW_TTL + 1, False)])
def test_a_preview_expires_after_its_time_and_is_purged(backend, age, usable, tmp_path):
    from course_lib.incident_store import SqliteStore

    clock = Clock()
    store = incidents.Store(clock=clock) if backend == "memory" else SqliteStore(tmp_path / "d.db", clock=clock)
    server = incidents.build_server("ana", store)
    (preview,) = session(server, [preview_call()])
    clock.now += age
    (closed,) = session(server, [close_call(preview["structuredContent"]["previewToken"])])
    assert closed["isError"] is not usable
    if not usable:
        assert "expired" in text(closed)
        (read,) = session(server, [("get_incident", {"incidentId": "INC-101"})])
        assert read["structuredContent"]["status"] == "open"
        session(server, [preview_call(resolution="duplicate")])  # a new preview purges the expired one
        if backend == "memory":
            assert len(store._previews) == 1
        else:
            import sqlite3

            with sqlite3.connect(tmp_path / "d.db") as db:
                assert db.execute("SELECT COUNT(*) FROM close_previews").fetchone()[0] == 1


# --- the store itself -----------------------------------------------------------------------------------


def test_a_store_search_defaults_to_the_ten_newest_open_incidents_by_number():
    store = incidents.Store()
    for number in (7, 99, 1000, 1500, 2000, 2500, 3000, 3500, 4000):  # INC-99 is older than INC-1000
        store._records[f"INC-{number}"] = incidents.Record(f"INC-{number}", "acme", f"Queue backlog {number}",
                                                           "inventory", "sev4", "open")
    assert [i.incidentId for i in store.search("ana").incidents] == [
        "INC-4000", "INC-3500", "INC-3000", "INC-2500", "INC-2000", "INC-1500", "INC-1000", "INC-204", "INC-103",
        "INC-101"]
    assert [i.incidentId for i in store.search("ben", "backlog", True, 20).incidents] == [
        "INC-4000", "INC-3500", "INC-3000", "INC-2500", "INC-2000", "INC-1500", "INC-1000", "INC-99", "INC-7"]
    assert store.search("gil").incidents == [incidents.IncidentSummary(
        incidentId="INC-301", title="Checkout returns HTTP 500", service="checkout", severity="sev2", status="open")]


def test_the_notes_of_an_unknown_incident_are_empty():
    store = incidents.Store()
    assert store.notes("INC-999") == []
    assert store.notes("INC-204") == [incidents.Note(noteId="N1", author="ana", text="Key revoked; reviewing access logs.")]


def test_an_unknown_user_is_refused_listing_the_users():
    with pytest.raises(UnknownName) as refused:
        incidents.Store().user("eve")
    assert str(refused.value) == "unknown user 'eve'; users: ana, ben, gil"


def test_a_slow_store_waits_once_per_note_write_and_a_fast_one_never(monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(incidents.time, "sleep", waits.append)  # no real waiting
    fast = incidents.Store()
    assert fast.write_delay == 0.0
    fast.add_note_once("ana", "INC-101", "Checked the pods.", REQUEST)
    assert waits == []
    slow = incidents.Store(write_delay=0.25)
    slow.add_note_once("ana", "INC-101", "Checked the pods.", REQUEST)
    slow.add_note_once("ana", "INC-101", "Checked the pods.", REQUEST)  # a retry never reaches the database
    slow.add_note_once("ana", "INC-103", "Restarted the indexer.", OTHER_REQUEST)
    assert waits == [0.25, 0.25]


def test_pages_are_numbered_within_each_organization():
    store = incidents.Store()
    sent = [(user, store.page(user, service, message)) for user, service, message in [
        ("ana", "checkout", "p99 up"), ("gil", "search", "index stale"), ("ben", "auth", "logins failing"),
        ("ana", "payments", "bank down")]]
    assert [(user, page.pageId, page.oncall) for user, page in sent] == [
        ("ana", "PG-1", "ana"), ("gil", "PG-1", "gil"), ("ben", "PG-2", "ana"), ("ana", "PG-3", "ben")]
    assert [page.message for page in store.pages("acme")] == ["p99 up", "logins failing", "bank down"]
    assert [page.message for page in store.pages("globex")] == ["index stale"]


# --- how the server is built: a store file, tokens, its name -------------------------------------------


@pytest.mark.parametrize("as_text", [False, True])
def test_a_store_path_keeps_the_desk_in_a_sqlite_file(tmp_path, as_text):
    from course_lib.incident_store import SqliteStore

    path = tmp_path / "desk.db"
    session(incidents.build_server("ana", str(path) if as_text else path), [("add_incident_note", note_args())])
    assert [n.text for n in SqliteStore(path).notes("INC-101")] == [
        "Latency rose after the 14:05 deploy of checkout 2.8.0.", "Rolled back checkout to 2.7.9."]


TOKENS = {"nIBSgHVUkB-MVuW4nG7ePEkdV5aow-9MhjwnX6XUhHQ": "ana", "d1W4gqpsS6dwA4mUP8l5pbxEpPMMK70zY8AZfAy0K9I": "ben"}


def test_with_tokens_a_call_that_carries_none_is_refused_saying_how_to_connect(tmp_path):
    token_file = tmp_path / "tokens.txt"
    token_file.write_text("".join(f"{token} {user}\n" for token, user in TOKENS.items()))
    for tokens in (TOKENS, token_file):
        (result,) = session(incidents.build_server("ana", tokens=tokens), [("get_incident", {"incidentId": "INC-101"})])
        assert result["isError"] is True and "structuredContent" not in result
        assert text(result) == ("Error executing tool get_incident: This server needs a bearer token: connect over "
                                "HTTP with an Authorization: Bearer <token> header.")


def test_a_token_for_an_unknown_user_is_a_setup_error():
    with pytest.raises(UnknownName, match=r"^unknown user 'eve'; users: ana, ben, gil$"):
        incidents.build_server("ana", tokens={**TOKENS, "tok-eve-000000000000000": "eve"})


def test_over_http_each_request_acts_as_its_tokens_user_and_one_without_a_token_gets_401():
    """In process (an ASGI transport, no socket): the SDK's token check, then the tools as the token's user."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    store = incidents.Store()
    server = incidents.build_server("ana", store, tokens=TOKENS)  # `user` is not used with tokens
    url = "http://127.0.0.1:8000/mcp"

    async def run():
        app = server.streamable_http_app()
        async with server.session_manager.run():
            transport = httpx2.ASGITransport(app=app)
            async with httpx2.AsyncClient(transport=transport) as http:
                refused = await http.post(url, headers={"Accept": "application/json, text/event-stream"}, json={
                    "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "get_incident", "arguments": {"incidentId": "INC-101"}}})
            async with httpx2.AsyncClient(transport=transport,
                                          headers={"Authorization": "Bearer d1W4gqpsS6dwA4mUP8l5pbxEpPMMK70zY8AZfAy0K9I"}) as http:
                async with wire.connect(streamable_http_client(url, http_client=http)) as client:
                    name = client.server_info.name
                    answers = [wire.dump(await client.call_tool(tool, arguments)) for tool, arguments in [
                        ("search_incidents", {}), ("get_incident", {"incidentId": "INC-204"}),
                        ("add_incident_note", note_args(incident="INC-103"))]]
        return refused, name, answers

    refused, name, (search, secret, note) = wire.run_sync(run)
    assert refused.status_code == 401
    assert refused.json() == {"error": "invalid_token", "error_description": "Authentication required"}
    assert name == "incidents"
    assert [i["incidentId"] for i in search["structuredContent"]["incidents"]] == ["INC-103", "INC-101"]
    assert text(secret) == "Error executing tool get_incident: " + NOT_FOUND.format(id="INC-204")
    assert note["structuredContent"]["author"] == "ben" and store.notes("INC-103")[-1].author == "ben"


def test_the_desk_tells_a_host_its_name():
    assert server_info(incidents.build_server("gil")).name == "incidents"


def test_every_write_moves_the_version_on_by_exactly_one():
    """A preview is bound to the version it saw; the version counts writes, one each."""
    store = incidents.Store()
    start = store.lookup("INC-101").version
    store.overwrite("ana", "INC-101", title="Renamed")
    store.append_note("ana", "INC-101", "A note.")
    preview = store.preview_close("ana", "INC-101", "fixed")
    store.close("ana", "INC-101", "fixed", preview.previewToken)
    assert store.lookup("INC-101").version == start + 3
    store.overwrite("ana", "INC-101", status="open")
    assert store.lookup("INC-101").version == start + 4
