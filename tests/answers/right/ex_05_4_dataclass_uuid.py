"""A dataclass per preview, uuid4 tokens, description= instead of docstrings, a helper for the comparison."""

import uuid
from dataclasses import dataclass

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy


@dataclass(frozen=True)
class Pending:
    service: str
    version: str
    environment: str
    running: str


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    pending: dict[str, Pending] = {}

    def matches(saved: Pending, service: str, version: str, environment: str) -> bool:
        return (saved.service, saved.version, saved.environment) == (service, version, environment)

    @server.tool(description="Preview a deployment: what runs now and what would run. Returns a previewToken.",
                 annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        running = releases.running(service, environment)
        token = str(uuid.uuid4())
        pending[token] = Pending(service, version, environment, running)
        return deploy.DeployPreview(change=f"{environment}: {service} {running} -> {version}", previewToken=token)

    @server.tool(description="Apply a previewed deployment with its previewToken.",
                 annotations=ToolAnnotations(read_only_hint=False, open_world_hint=False))
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        saved = pending.pop(previewToken, None)  # a mismatch uses the token up too: preview again
        if saved is None or not matches(saved, service, version, environment):
            raise ToolError("That previewToken does not match this deployment, or was already used. "
                            "Nothing was deployed; preview the deployment you want.")
        if releases.running(service, environment) != saved.running:
            raise ToolError("What runs there changed after the preview. Nothing was deployed; preview again.")
        return releases.deploy(service, environment, version)

    return server
