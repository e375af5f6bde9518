"""The right hint on tools/list, and the same on every other cacheable list: the facts are about the tools only."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "found prompts/list with ttlMs 1800000"


def answer():
    hint = CacheHint(ttl_ms=30 * 60 * 1000, scope="public")
    methods = ("tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read")
    server = MCPServer("workspace", log_level="WARNING", cache_hints={method: hint for method in methods})
    workspace.register(server, workspace.TOOL_NAMES)
    return server
