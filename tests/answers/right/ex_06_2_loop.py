"""A plain loop that skips names already taken."""

from mcp.server import MCPServer

from course_lib.servers import workspace


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    ordered = []
    for name in core + extras:
        if name not in ordered:
            ordered.append(name)
    workspace.register(server, ordered)
    return server
