"""Lesson 05's deploy servers and exercise 5.4's backend: what runs where, and what each deploy replaced."""

from __future__ import annotations

import pytest

from conftest import server_info

from course_lib import wire
from course_lib.servers import deploy


def deploy_all(server, calls: list[dict]) -> list:
    """Several start_deployment calls on one connection; the results in wire form, in order."""

    async def run():
        async with wire.connect(server) as client:
            return [wire.dump(await client.call_tool("start_deployment", arguments)) for arguments in calls]

    return wire.run_sync(run)


@pytest.mark.parametrize("build", [deploy.build_server, deploy.build_risky_server])
def test_every_service_starts_at_2_8_0_in_both_environments_and_a_redeploy_replaces_the_last_one(build):
    calls = [{"service": service, "version": "3.0.0", "environment": env}
             for service in ("checkout", "payments", "search") for env in ("staging", "production")]
    results = deploy_all(build(), [*calls, {"service": "payments", "version": "3.0.1", "environment": "staging"}])
    assert [r["isError"] for r in results] == [False] * 7
    assert [r["structuredContent"] for r in results] == [
        {"service": "checkout", "environment": "staging", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "checkout", "environment": "production", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "payments", "environment": "staging", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "payments", "environment": "production", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "search", "environment": "staging", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "search", "environment": "production", "version": "3.0.0", "previousVersion": "2.8.0"},
        {"service": "payments", "environment": "staging", "version": "3.0.1", "previousVersion": "3.0.0"},
    ]


def test_each_build_starts_from_what_runs_before_any_deploy():
    first = deploy.build_server()
    deploy_all(first, [{"service": "search", "version": "2.9.0", "environment": "production"}])
    again = deploy_all(deploy.build_server(), [{"service": "search", "version": "2.9.0", "environment": "production"}])
    assert again[0]["structuredContent"]["previousVersion"] == "2.8.0"


def test_releases_reads_what_runs_and_records_each_deployment():
    releases = deploy.Releases()
    assert [releases.running(s, e) for s in ("checkout", "payments", "search") for e in ("staging", "production")] \
        == ["2.8.0"] * 6
    done = releases.deploy("payments", "production", "2.8.1")
    assert done == deploy.Deployment(service="payments", environment="production", version="2.8.1",
                                     previousVersion="2.8.0")
    assert (releases.running("payments", "production"), releases.running("payments", "staging")) == ("2.8.1", "2.8.0")
    releases.deploy("search", "staging", "2.9.0")
    assert [(d.service, d.environment, d.version) for d in releases.deployments] == [
        ("payments", "production", "2.8.1"), ("search", "staging", "2.9.0")]


@pytest.mark.parametrize("build", [deploy.build_server, deploy.build_risky_server])
def test_both_servers_call_themselves_deploy(build):
    assert server_info(build()).name == "deploy"
