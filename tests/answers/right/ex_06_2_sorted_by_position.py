"""A set for membership, then sorted by first position in core + extras: a stable order."""

from mcp.server import MCPServer

from course_lib.servers import workspace


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    both = core + extras
    workspace.register(server, sorted(set(both), key=both.index))
    return server
