"""Any MCP server a learner can point the course at: a lesson server, their own Python code,
a stdio command or an HTTP URL.

| target | example |
|---|---|
| a lesson server | `weather` |
| a Python file or module, optionally `:attribute` | `my_server.py`, `my_server.py:build`, `pkg.app:mcp` |
| a command that speaks MCP on stdio (anything with a space) | `"python my_server.py"`, `"uvx some-server"` |
| an executable file, or a program on PATH, run with no arguments | `./bin/my-server`, `mcp-server-time` |
| a streamable HTTP endpoint | `http://127.0.0.1:8000/mcp` |

In Python code the attribute may be an `MCPServer` or a function returning one; without an
attribute, `build_server()` is called, or else the module's only `MCPServer` object is used.
A stdio server's stderr is kept, and shown (its last lines) only when listing its tools fails.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import shlex
import shutil
import sys
import tempfile
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


def command(target: str) -> list[str] | None:
    """The argv of a stdio target, or None: a string with a space, an executable file, or a program on PATH.

    A lesson server's name wins over a program of the same name; a `.py` file is imported, not run.
    """
    from course_lib import servers

    if any(ch.isspace() for ch in target.strip()):
        try:
            argv = shlex.split(target)
        except ValueError as error:
            raise TargetProblem(f"cannot read the command {target!r}: {error}") from None
        return argv or None
    if target in servers.REGISTRY or target.endswith(".py") or target.startswith(("http://", "https://")):
        return None
    path = Path(target)
    if path.is_file() and os.access(path, os.X_OK):
        return [target]
    if not any(ch in target for ch in "/:.") and shutil.which(target):
        return [target]
    return None


def is_snapshot(target: str) -> bool:
    """Whether a target names a snapshot file (`*.json`, or an existing file that is neither code nor a program)."""
    path = Path(target)
    return target.endswith(".json") or (path.is_file() and not target.endswith(".py") and command(target) is None)


_TYPESCRIPT = ("node", "nodejs", "npx", "bun", "bunx", "deno", "tsx", "ts-node")
_PYTHON_RUNNERS = ("uv", "uvx", "pipx", "poetry", "pdm", "hatch")


def sdk_of(target: str, look: bool = True) -> str | None:
    """The SDK a target's server is written with, where the target shows it: "python", "typescript" or None.

    Lesson servers and Python code are Python; a command is judged by its program (after `env` and
    VAR=value words), or, with `look`, by the `#!` line of an executable it names.
    """
    from course_lib import servers

    if target.startswith(("http://", "https://")):
        return None
    argv = command(target) if look else (shlex.split(target) if " " in target.strip() else [target])
    if argv is None:
        return "python" if target in servers.REGISTRY or target.endswith(".py") or "." in target else None
    words = [word for word in argv if word != "env" and "=" not in word.split("/")[0]] or [""]
    program = Path(words[0]).name.lower()
    if program in _TYPESCRIPT or program.endswith((".js", ".mjs", ".cjs", ".ts")):
        return "typescript"
    if program.startswith("python") or program in _PYTHON_RUNNERS or program.endswith(".py"):
        return "python"
    found = shutil.which(words[0]) if look else None
    try:
        with open(found or "", "rb") as executable:
            first = executable.readline(200).decode("utf-8", "replace")
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    return "python" if "python" in first else "typescript" if any(name in first for name in _TYPESCRIPT) else None


def resolve(target: str) -> Any:
    """Something `mcp.Client` can connect to: an `MCPServer`, a URL string or stdio parameters."""
    from course_lib import servers

    if target.startswith(("http://", "https://")):
        return target
    argv = command(target)
    if argv:
        from mcp import StdioServerParameters

        # the whole caller's environment (a CI job's API keys): without env= the SDK passes only PATH, HOME and a few
        return StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
    if target in servers.REGISTRY:
        return servers.build(target)
    spec, _, attribute = target.partition(":")
    if not (spec.endswith(".py") or "." in spec or ":" in target) or \
            not spec.endswith(".py") and not all(part.isidentifier() for part in spec.split(".")):
        raise TargetProblem(f"unknown server {target!r}; use a lesson server ({', '.join(sorted(servers.REGISTRY))}), "
                            "a .py file, module:attribute, a snapshot .json, a program on PATH, a quoted stdio "
                            "command or an http:// URL")
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
    sdk: str | None = None
    """The server's SDK where the target shows it (`sdk_of`): "python", "typescript" or None."""


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

    async def run(transport) -> Listing:
        with anyio.fail_after(timeout):
            async with Client(transport) as client:
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
                               getattr(info, "version", "") or "", probed=probed, sdk=sdk_of(target))

    # the SDK logs (with tracebacks) what a non-MCP stdout looks like; a stdio server's stderr goes to a file
    with wire.sdk_warnings() as logged, tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as stderr:
        try:
            found = wire.run_sync(run, _transport(connectable, stderr))
        except Exception as error:  # connection refused, a command that exits, a server that is not MCP
            raise TargetProblem(_failure(target, error, logged, timeout) + _tail(stderr)) from None
    return dataclasses.replace(found, notes=[STDOUT_NOTE] if any(NOT_JSON_RPC in line for line in logged) else [])


def _transport(connectable: Any, stderr) -> Any:
    """What `mcp.Client` connects through: for stdio parameters, the SDK's stdio client writing stderr to a file."""
    from mcp import StdioServerParameters

    if not isinstance(connectable, StdioServerParameters):
        return connectable
    from mcp.client.stdio import stdio_client

    return stdio_client(connectable, errlog=stderr)


def _failure(target: str, error: BaseException, logged: list[str], timeout: float) -> str:
    """One line saying why the tools of `target` could not be listed."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    if isinstance(error, TimeoutError):
        return f"{target} gave no MCP answer within {timeout:g} s"
    if any(NOT_JSON_RPC in line for line in logged):
        return f"{target} is not an MCP server: it wrote text that is not JSON-RPC on stdout and gave no answer"
    if str(error).strip() == "Connection closed" and command(target):
        return f"{target} exited during start-up, before it answered"
    detail = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"could not list the tools of {target}: {type(error).__name__}: {detail}".rstrip(": ")


STDERR_LINES = 10
"""How many of a failed server's last stderr lines a failure shows."""


def _tail(stderr) -> str:
    """The last lines a stdio server wrote on stderr, indented under our line, or "" when it wrote none."""
    stderr.flush()
    stderr.seek(0)
    lines = [line.rstrip() for line in stderr.read().splitlines() if line.strip()]
    if not lines:
        return ""
    shown = lines[-STDERR_LINES:]
    return (f"; its last {len(shown)} line(s) on stderr:\n" if len(lines) > len(shown)
            else "; what it wrote on stderr:\n") + "\n".join(f"  {line}" for line in shown)
