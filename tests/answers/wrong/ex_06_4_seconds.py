"""Writes ten minutes in seconds: ttl_ms is in milliseconds."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "ttlMs 600000"


def answer():
    server = MCPServer("workspace", log_level="WARNING",
                       cache_hints={"tools/list": CacheHint(ttl_ms=600, scope="public")})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
