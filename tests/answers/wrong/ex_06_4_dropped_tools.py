"""Caches correctly but registers only the tickets tools."""

from mcp.server import CacheHint, MCPServer

from course_lib.servers import workspace

EXPECT = "every workspace tool"


def answer():
    server = MCPServer("workspace", log_level="WARNING", cache_hints={"tools/list": CacheHint(ttl_ms=1_800_000, scope="public")})
    workspace.register(server, workspace.AREAS["tickets"])
    return server
