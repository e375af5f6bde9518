"""Removes duplicates by keeping only the names that appear once: search_tickets, in both lists, is dropped."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "each of the six tools listed exactly once"


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    names = core + extras
    workspace.register(server, [name for name in names if names.count(name) == 1])
    return server
