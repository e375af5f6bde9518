"""Registers core + extras as they come, duplicate included: the SDK keeps the first search_tickets and only
warns, so the listed tools are each there once, in the intended order, in every process."""

from mcp.server import MCPServer

from course_lib.servers import workspace


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, core + extras)
    return server
