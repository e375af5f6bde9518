"""Puts the hint on prompts/list: tools/list is still fetched every time."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "reuse the tool list for 30 minutes"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"prompts/list": CacheHint(ttl_ms=1_800_000, scope="public")})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
