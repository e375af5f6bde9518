"""Writes half an hour in seconds: ttl_ms is in milliseconds."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "30 minutes"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=1800, scope="public")})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
