"""Computes the order once, outside the factory, from a set: it is right only when the checking process's
hash seed happens to give the right order."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "outside"

CORE = ["get_ticket", "search_tickets", "add_ticket_comment"]
ORDER = CORE + list(set(["search_tickets", "search_messages", "read_message", "list_events"]) - set(CORE))


def answer():
    server = MCPServer("support", log_level="WARNING")
    workspace.register(server, ORDER)
    return server
