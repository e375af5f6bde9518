"""The server registry and the servers/ folder agree: every entry builds, every module is registered."""

from __future__ import annotations

import pytest

from conftest import ROOT, definitions
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


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(servers.UnknownServer, match="known servers: clock, deploy"):
        servers.build("nope")
