"""Caches for half an hour but keeps the default private scope, so every user lists again."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "share between users"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=1_800_000)})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
