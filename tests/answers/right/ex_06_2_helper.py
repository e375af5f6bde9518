"""A helper function defined next to the factory does the deduplication."""

from mcp.server import MCPServer

from course_lib.servers import workspace


def unique_in_order(*lists):
    seen = set()
    return [name for names in lists for name in names if not (name in seen or seen.add(name))]


def answer():
    server = MCPServer("support", log_level="WARNING")
    core = ["get_ticket", "search_tickets", "add_ticket_comment"]
    extras = ["search_tickets", "search_messages", "read_message", "list_events"]
    workspace.register(server, unique_in_order(core, extras))
    return server
