"""The anti-pattern of lesson 05: one `incident(action=...)` tool for six operations.

It works, over the same store as the incident desk. But its one definition has to cover a search
and a page to someone's phone: one description, one set of annotations, one approval policy, and
parameters whose meaning depends on `action`. A host cannot tell its risks apart.
"""

from __future__ import annotations

import re
from typing import Literal

from mcp.server.mcpserver.exceptions import ToolError

from course_lib.servers.base import new_server, tool
from course_lib.servers.incidents import ID_PATTERN, ONCALL, Store

Action = Literal["search", "read", "update", "close", "page", "notify"]


def build_server(user: str = "ana", store: Store | None = None):
    """A fresh server with the single overloaded `incident` tool, for one signed-in user."""
    store = store if store is not None else Store()
    store.user(user)
    server = new_server("incident-desk")
    status_page: list[str] = []

    def need(value: str | None, action: str, what: str) -> str:
        if value is None or not value.strip():
            raise ToolError(f"action '{action}' needs {what}.")
        return value

    def incident_id(value: str | None, action: str) -> str:
        value = need(value, action, "id, an incident ID such as INC-101")
        if not re.fullmatch(ID_PATTERN, value):
            raise ToolError(f"action '{action}' needs id to be an incident ID such as INC-101.")
        return value

    @tool(server)
    def incident(action: Action, id: str | None = None, text: str | None = None) -> dict:
        """Manage incidents: search, read, update, close, page or notify.

        Use it for anything to do with incidents. id is an incident ID, or a service name for page;
        text is the search query, the new title, the page message or the status-page post.
        """
        if text is not None and len(text) > 500:
            raise ToolError("text is too long: use at most 500 characters.")
        if action == "search":
            return store.search(user, text or "", include_resolved=True, limit=20).model_dump()
        if action == "read":
            return store.get(user, incident_id(id, action)).model_dump()
        if action == "update":
            target = incident_id(id, action)
            return store.overwrite(user, target, title=need(text, action, "text, the new title")).model_dump()
        if action == "close":
            return store.overwrite(user, incident_id(id, action), status="resolved").model_dump()
        if action == "page":
            service, services = need(id, action, "id, a service name"), ONCALL[store.user(user).tenant]
            if service not in services:
                raise ToolError(f"action 'page' needs id to be a service: {', '.join(services)}.")
            return store.page(user, service, need(text, action, "text, the page message")).model_dump()
        status_page.append(need(text, action, "text, the post for the public status page"))
        return {"posted": status_page[-1], "public": True}

    return server
