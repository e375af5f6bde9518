"""Stable, but the extras come first."""

from mcp.server import MCPServer

from course_lib.servers import workspace

EXPECT = "the core tools first"


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, dict.fromkeys(extras + core))
    return server
