"""Lesson 04's operations toolbox: four tools whose behaviour spans all four annotation hints.

`build_server()` ships them with no annotations, so a host must assume the cautious defaults;
exercise 4.1 writes honest ones and passes them as `build_server(annotations=...)`. The tool
descriptions say exactly what each tool does, so the honest hints can be read off them.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping
from typing import Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib.servers.base import new_server, tool

Service = Literal["checkout", "payments", "search"]
TOOL_NAMES = ("get_service_status", "add_runbook_step", "delete_runbook", "post_status_update")


class ServiceStatus(BaseModel):
    """The health of one service."""

    service: Service
    status: Literal["operational", "degraded", "down"]
    runbookSteps: int


class Runbook(BaseModel):
    """A service's runbook, step by step."""

    service: Service
    steps: list[str]


class StatusPost(BaseModel):
    """A message published on the public status page."""

    postId: str
    service: Service
    message: str


def build_server(annotations: Mapping[str, ToolAnnotations | dict] | None = None):
    """A fresh toolbox; `annotations` maps tool names to their hints (none by default)."""
    given = {name: ToolAnnotations.model_validate(value) if isinstance(value, dict) else value
             for name, value in (annotations or {}).items()}
    server = new_server("ops")
    health = {"checkout": "degraded", "payments": "operational", "search": "operational"}
    runbooks: dict[str, list[str]] = {"checkout": ["Check the last deploy.", "Roll back if latency > 2 s."],
                                      "payments": ["Call the bank's status line."], "search": []}
    requests: dict[str, tuple[str, str]] = {}
    posts: list[StatusPost] = []
    lock = threading.Lock()

    def register(fn):
        return tool(server, annotations=given.get(fn.__name__))(fn)

    @register
    def get_service_status(service: Service) -> ServiceStatus:
        """Current health of one service and how many runbook steps it has.

        Use it to check whether a service is healthy. It only reads this server's own status table.
        Do not use it to change anything.
        """
        return ServiceStatus(service=service, status=health[service], runbookSteps=len(runbooks[service]))

    @register
    def add_runbook_step(
        service: Service,
        step: Annotated[str, Field(min_length=1, max_length=200, description="The new step, 1-200 characters.")],
        requestId: Annotated[uuid.UUID, Field(description="A new UUID per new step; the same one to retry.")],
    ) -> Runbook:
        """Append one step to the end of a service's runbook; existing steps are never changed.

        Use it to record a procedure step. Calling it again with the same requestId adds nothing.
        Do not use it to edit or remove steps.
        """
        with lock:
            key = str(requestId)
            if key in requests:
                if requests[key] != (service, step):
                    raise ToolError("this requestId was already used for a different step; use a new UUID.")
            else:
                requests[key] = (service, step)
                runbooks[service].append(step)
            return Runbook(service=service, steps=list(runbooks[service]))

    @register
    def delete_runbook(service: Service) -> Runbook:
        """Delete every step of a service's runbook; deleted steps cannot be recovered.

        Use it only when a runbook is obsolete. Deleting an already empty runbook changes nothing.
        Do not use it to remove a single step.
        """
        runbooks[service].clear()
        return Runbook(service=service, steps=[])

    @register
    def post_status_update(
        service: Service,
        message: Annotated[str, Field(min_length=1, max_length=280, description="The post, 1-280 characters.")],
    ) -> StatusPost:
        """Publish a message on the company's public status page, where customers read it.

        Use it to tell customers about an outage. Every call publishes a new post.
        Do not use it for internal notes.
        """
        posts.append(StatusPost(postId=f"P{len(posts) + 1}", service=service, message=message))
        return posts[-1]

    return server
