"""Two register calls (the core tools, then the extras not already there): each call makes its own workspace, and
nothing a caller can observe differs, so the text no longer asks for one call."""

from mcp.server import MCPServer

from course_lib.servers import workspace


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, core)
    workspace.register(server, [name for name in extras if name not in core])
    return server
