"""The server registry and the servers/ folder agree: every entry builds, every module is registered."""

from __future__ import annotations

import pytest

from conftest import ROOT, definitions, server_info
from course_lib import servers


@pytest.mark.parametrize("name", sorted(servers.REGISTRY))
def test_every_entry_builds_a_fresh_server_with_tools(name):
    first, second = servers.build(name), servers.build(name)
    assert first is not second
    assert definitions(first)


def test_every_server_module_is_registered():
    shared = {"__init__", "base"}  # the registry itself and the helpers every server uses
    modules = {path.stem for path in (ROOT / "course_lib" / "servers").glob("*.py") if path.stem not in shared}
    registered = {path.split(":")[0].rsplit(".", 1)[-1] for path in servers.REGISTRY.values()}
    assert modules == registered


def test_every_entry_is_a_dotted_module_a_colon_and_a_factory_name():
    for name, path in servers.REGISTRY.items():
        module_name, factory_name = path.split(":")  # exactly one colon
        assert module_name.startswith("course_lib.servers.") and all(
            part.isidentifier() for part in module_name.split(".")) and factory_name.isidentifier(), name


def test_factory_returns_the_registered_function_itself():
    from course_lib.servers import evolving, weather

    assert servers.factory("evolving-v2-safe") is evolving.build_v2_safe
    assert servers.factory("weather-chain") is weather.build_chain_server


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(servers.UnknownServer, match="known servers: clock, deploy"):
        servers.build("nope")


def test_every_lesson_server_reports_its_name_and_the_course_version_in_server_info():
    """The names are the ones committed with each server's contract (tests/servers/contracts/NAME.json)."""
    import json
    from pathlib import Path

    from course_lib import __version__

    contracts = Path(__file__).with_name("contracts")
    for name in servers.REGISTRY:
        info = server_info(servers.build(name))
        committed = json.loads((contracts / f"{name}.json").read_text(encoding="utf-8"))["server"]["name"]
        assert (info.name, info.version) == (committed, __version__), name
