"""Also keeps prompts/list private for a short time: harmless, the tool list is what the exercise asks about."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={
        "prompts/list": CacheHint(ttl_ms=5_000, scope="private"),
        "tools/list": CacheHint(ttl_ms=1_800_000, scope="public"),
    })
    workspace.register(server, workspace.TOOL_NAMES)
    return server
