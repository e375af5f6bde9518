"""Registers the tools five at a time: each register call makes its own workspace, so get_ticket and
add_ticket_comment land in different ones and a comment never shows."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "after add_ticket_comment added one"


def answer():
    hints = {"tools/list": CacheHint(ttl_ms=30 * 60 * 1000, scope="public")}
    server = MCPServer("workspace", log_level="WARNING", cache_hints=hints)
    names = workspace.TOOL_NAMES
    for start in range(0, len(names), 5):
        workspace.register(server, names[start:start + 5])
    return server
