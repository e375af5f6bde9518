"""Plain text results, its own Literal types, a lock; a deployment voids open previews of its target."""

import secrets
import threading
from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

Service = Literal["checkout", "payments", "search"]
Env = Literal["staging", "production"]
Version = Annotated[str, Field(pattern=r"^\d+\.\d+\.\d+$")]


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    lock = threading.Lock()
    state = {"previews": {}}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def preview_deployment(service: Service, version: Version, environment: Env) -> str:
        """Say what a deployment would replace, and give the previewToken that applies it."""
        with lock:
            token = secrets.token_urlsafe(12)
            state["previews"][token] = (service, version, environment)
            now = releases.running(service, environment)
        return (f'{{"change": "{service} on {environment} goes from {now} to {version}", '
                f'"previewToken": "{token}"}}')

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True))
    def start_deployment(previewToken: str, service: Service, version: Version, environment: Env) -> str:
        """Run the deployment a preview showed."""
        with lock:
            if state["previews"].get(previewToken) != (service, version, environment):
                raise ToolError("No preview matches this token and these arguments; nothing was deployed.")
            # a deployment voids every open preview of the same target: those show an old picture
            state["previews"] = {key: value for key, value in state["previews"].items()
                                 if (value[0], value[2]) != (service, environment)}
            done = releases.deploy(service, environment, version)
        return f"Deployed {done.service} {done.version} to {done.environment} (was {done.previousVersion})."

    return server
