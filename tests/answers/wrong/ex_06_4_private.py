"""Caches for ten minutes but keeps the default private scope, so every user lists again."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "cacheScope 'public'"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=600_000)})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
