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


def test_every_lesson_server_reports_the_course_version_in_server_info():
    from course_lib import __version__, wire

    async def server_info(server):
        async with wire.connect(server) as client:
            return client.server_info

    for name in servers.REGISTRY:
        info = wire.run_sync(server_info, servers.build(name))
        assert (info.name, info.version) == (info.name, __version__) and info.name, name
