"""A stable order, but each tool registered on its own: six workspaces, so a comment never shows in get_ticket."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "after add_ticket_comment added one"


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    for name in dict.fromkeys(core + extras):
        workspace.register(server, [name])
    return server
