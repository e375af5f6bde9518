"""A helper builds the hints; the tools are registered from the workspace's areas."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace


def shared_for(minutes: int) -> dict:
    return {"tools/list": CacheHint(ttl_ms=minutes * 60_000, scope="public")}


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints=shared_for(30))
    workspace.register(server, [name for names in workspace.AREAS.values() for name in names])
    return server
