"""Also keeps prompts/list private for five seconds: a freshness promise the facts do not make (they are about the
tool list alone, and the text says every other list keeps the SDK's default)."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "found prompts/list with ttlMs 5000"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={
        "prompts/list": CacheHint(ttl_ms=5_000, scope="private"),
        "tools/list": CacheHint(ttl_ms=1_800_000, scope="public"),
    })
    workspace.register(server, workspace.TOOL_NAMES)
    return server
