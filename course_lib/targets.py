"""Any MCP server a learner can point the course at: a lesson server, their own Python code,
a stdio command or an HTTP URL.

| target | example |
|---|---|
| a lesson server | `weather` |
| a Python file or module, optionally `:attribute` | `my_server.py`, `my_server.py:build`, `pkg.app:mcp` |
| a command that speaks MCP on stdio (anything with a space) | `"python my_server.py"`, `"uvx some-server"` |
| a streamable HTTP endpoint | `http://127.0.0.1:8000/mcp` |

In Python code the attribute may be an `MCPServer` or a function returning one; without an
attribute, `build_server()` is called, or else the module's only `MCPServer` object is used.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course_lib.errors import TargetProblem


def _module(spec: str):
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_file():
            raise TargetProblem(f"no such file: {spec}")
        loader = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(loader)
        sys.path.insert(0, str(path.resolve().parent))  # so the file can import its neighbours
        try:
            loader.loader.exec_module(module)
        finally:
            sys.path.pop(0)
        return module
    return importlib.import_module(spec)


def _server_in(module, attribute: str | None):
    from mcp.server import MCPServer

    if attribute:
        if not hasattr(module, attribute):
            raise TargetProblem(f"{module.__name__} has no attribute {attribute!r}")
        found = getattr(module, attribute)
    elif callable(getattr(module, "build_server", None)):
        found = module.build_server
    else:
        servers = [value for value in vars(module).values() if isinstance(value, MCPServer)]
        if len(servers) != 1:
            raise TargetProblem(f"{module.__name__} has {len(servers)} MCPServer objects; name one as FILE:ATTRIBUTE")
        found = servers[0]
    server = found() if callable(found) and not isinstance(found, MCPServer) else found
    if not isinstance(server, MCPServer):
        raise TargetProblem(f"{module.__name__}: {attribute or 'build_server'} gave {type(server).__name__}, not an MCPServer")
    return server


def resolve(target: str) -> Any:
    """Something `mcp.Client` can connect to: an `MCPServer`, a URL string or stdio parameters."""
    from course_lib import servers

    if target.startswith(("http://", "https://")):
        return target
    if any(ch.isspace() for ch in target.strip()):
        from mcp import StdioServerParameters

        command, *args = shlex.split(target)
        return StdioServerParameters(command=command, args=args)
    if target in servers.REGISTRY:
        return servers.build(target)
    spec, _, attribute = target.partition(":")
    if not (spec.endswith(".py") or "." in spec or ":" in target):
        raise TargetProblem(f"unknown server {target!r}; use a lesson server ({', '.join(sorted(servers.REGISTRY))}), "
                            "a .py file, module:attribute, a quoted stdio command or an http:// URL")
    try:
        module = _module(spec)
    except TargetProblem:
        raise
    except Exception as error:  # the learner's code failed to import: say how, in one line
        raise TargetProblem(f"could not import {spec}: {type(error).__name__}: {error}") from None
    return _server_in(module, attribute or None)


@dataclass(frozen=True)
class Listing:
    """What a client learns from one connection: the tools, the protocol version and the server's name and version."""

    tools: list
    protocol_version: str
    server_name: str
    server_version: str
    notes: list[str] = field(default_factory=list)
    probed: dict[str, tuple[bool, str]] = field(default_factory=dict)
    """With probing: tool name -> (isError, text) of one call with schema-invalid arguments."""


def list_tools(target: str, timeout: float = 30.0) -> list:
    """The tools a client sees from the target (any protocol era the server speaks), within `timeout` s."""
    return listing(target, timeout).tools


NOT_JSON_RPC = "Failed to parse JSONRPC message"
"""What SDK 2.3 logs for a stdout line that is not a JSON-RPC message (a banner, a print)."""
STDOUT_NOTE = ("the server wrote text that is not JSON-RPC on stdout (a banner or a print?); over stdio, stdout "
               "carries only MCP messages, so some clients fail on it: log to stderr instead")


def invalid_arguments(tool: Any) -> dict[str, Any]:
    """Arguments the tool's input schema refuses: each required parameter with a value of the wrong type."""
    from course_lib import wire

    schema = wire.dump(tool).get("inputSchema", {})
    wrong = {"string": 12345, "integer": "not a number", "number": "not a number", "boolean": "not a boolean",
             "array": "not a list", "object": "not an object"}
    properties = schema.get("properties", {})
    required = schema.get("required", []) or list(properties)[:1]
    return {name: wrong.get(properties.get(name, {}).get("type"), {"unexpected": True}) for name in required}


def listing(target: str, timeout: float = 30.0, probe: bool = False) -> Listing:
    """The target's tools with the protocol version and server info of that connection, within `timeout` s.

    With `probe`, each tool is also called once with arguments its schema refuses (`invalid_arguments`),
    and each error text is kept in `Listing.probed` for the review to judge.
    """
    import anyio
    from mcp import Client

    from course_lib import wire

    connectable = resolve(target)

    async def run() -> Listing:
        with anyio.fail_after(timeout):
            async with Client(connectable) as client:
                tools = list((await client.list_tools()).tools)
                info = client.server_info
                probed = {}
                for tool in tools if probe else []:
                    if not wire.dump(tool).get("inputSchema", {}).get("properties"):
                        continue  # nothing to get wrong: the SDK ignores argument names it does not know
                    result = wire.dump(await client.call_tool(tool.name, invalid_arguments(tool)))
                    probed[tool.name] = (bool(result.get("isError")), "\n".join(
                        block.get("text", "") for block in result.get("content", [])))
                return Listing(tools, str(client.protocol_version or ""), getattr(info, "name", "") or "",
                               getattr(info, "version", "") or "", probed=probed)

    with wire.sdk_warnings() as logged:  # the SDK logs (with tracebacks) what a non-MCP stdout looks like
        try:
            found = wire.run_sync(run)
        except Exception as error:  # connection refused, a command that exits, a server that is not MCP
            while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                error = error.exceptions[0]
            if isinstance(error, TimeoutError):
                raise TargetProblem(f"{target} gave no MCP answer within {timeout:g} s") from None
            if any(NOT_JSON_RPC in line for line in logged):
                raise TargetProblem(f"{target} is not an MCP server: it wrote text that is not JSON-RPC on stdout "
                                    "and gave no answer") from None
            detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise TargetProblem(f"could not list the tools of {target}: {type(error).__name__}: {detail}"
                                .rstrip(": ")) from None
    return dataclasses.replace(found, notes=[STDOUT_NOTE] if any(NOT_JSON_RPC in line for line in logged) else [])
