"""Async tools, its own result model with extra fields, random tokens kept per server."""

import secrets

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel

from course_lib.servers import deploy


class Preview(BaseModel):
    service: str
    environment: str
    currentVersion: str
    newVersion: str
    previewToken: str


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    open_previews: dict[str, dict] = {}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    async def preview_deployment(environment: deploy.Environment, service: deploy.Service,
                                 version: deploy.Version) -> Preview:
        """Preview a deployment; show it to the person before start_deployment."""
        token = f"release-{secrets.token_urlsafe(12)}"
        current = releases.running(service, environment)
        open_previews[token] = {"service": service, "version": version, "environment": environment,
                                "current": current}
        return Preview(service=service, environment=environment, currentVersion=current, newVersion=version,
                       previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    async def start_deployment(previewToken: str, environment: deploy.Environment, service: deploy.Service,
                               version: deploy.Version) -> deploy.Deployment:
        """Apply a previewed deployment, exactly as previewed."""
        saved = open_previews.get(previewToken)
        asked = {"service": service, "version": version, "environment": environment,
                 "current": releases.running(service, environment)}
        if saved != asked:
            raise ToolError("This call is not the deployment that was previewed (or it was applied, or what "
                            "runs there changed). Nothing was deployed.")
        del open_previews[previewToken]
        return releases.deploy(service, environment, version)

    return server
