"""The code as found: a set union removes the duplicate, and the hash seed picks the order."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "the same tools/list in fresh processes"


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, set(core) | set(extras))
    return server
