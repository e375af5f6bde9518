"""Copies the lesson's ten minutes instead of the half hour the exercise asks for."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "30 minutes"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=600_000, scope="public")})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
