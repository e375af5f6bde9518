"""Core tools kept in order, but the extras added through a frozenset difference: their order depends on the seed."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "PYTHONHASHSEED"


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, core + list(frozenset(extras) - frozenset(core)))
    return server
