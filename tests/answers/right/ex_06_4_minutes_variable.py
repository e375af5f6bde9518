"""The duration computed from minutes, the hint kept in a variable."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace


def answer():
    half_hour_ms = 30 * 60 * 1000
    hint = CacheHint(scope="public", ttl_ms=half_hour_ms)
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": hint})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
