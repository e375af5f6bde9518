"""Lesson 00: the SDK's `Client`, given the server object, runs it in this process, with no subprocess and no
network. The test forbids both (a process start or a socket connection raises) and the real client still lists
and calls the real weather server."""

from __future__ import annotations

import os
import socket
import subprocess

import anyio
import pytest
from mcp import Client

from course_lib.servers import weather
from claims_ledger import claim


class Forbidden(AssertionError):
    pass


def forbid(what: str):
    def refuse(*args, **kwargs):
        raise Forbidden(f"the client tried to {what}")
    return refuse


@claim("sdk-client-in-process-no-subprocess-no-network")
def test_client_given_the_server_object_needs_no_subprocess_and_no_network(monkeypatch):
    for module, name, what in ((subprocess.Popen, "__init__", "start a process"),
                               (os, "fork", "fork"), (os, "posix_spawn", "spawn a process"),
                               (os, "posix_spawnp", "spawn a process"),
                               (socket.socket, "connect", "open a connection"),
                               (socket.socket, "connect_ex", "open a connection"),
                               (socket.socket, "bind", "listen on a socket")):
        monkeypatch.setattr(module, name, forbid(what))

    async def use() -> tuple[list[str], bool]:
        async with Client(weather.build_server()) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            result = await client.call_tool("get_daily_forecast", {"city": "Oslo", "days": 1})
        return names, result.is_error

    assert anyio.run(use) == (["weather", "get_daily_forecast"], False)
    with pytest.raises(Forbidden):  # the guard works: starting a process is refused
        subprocess.run(["true"])
