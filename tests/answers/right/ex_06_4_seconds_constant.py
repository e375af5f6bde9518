"""The half hour from a seconds constant, the hints in a variable, the hint's arguments by position."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

ANNOUNCED_SECONDS = 30 * 60


def answer():
    hints = {"tools/list": CacheHint(ANNOUNCED_SECONDS * 1000, "public")}
    server = MCPServer("workspace", log_level="WARNING", cache_hints=hints)
    workspace.register(server, workspace.TOOL_NAMES)
    return server
