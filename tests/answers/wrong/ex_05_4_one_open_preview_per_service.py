"""Keeps one open preview per service: a newer preview of a service replaces the older one's token, so the
older preview cannot be applied even though nothing was deployed since it was shown."""

import secrets
import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "applying the first of two previews of checkout in production"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    open_preview = {}  # service -> (token, version, environment)
    lock = threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, with the previewToken that applies it."""
        with lock:
            token = secrets.token_hex(16)
            open_preview[service] = (token, version, environment)
            running = releases.running(service, environment)
        return deploy.DeployPreview(change=f"{service} in {environment}: {running} -> {version}", previewToken=token)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False))
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Deploy exactly what the latest preview of this service showed, once."""
        with lock:
            if open_preview.get(service) != (previewToken, version, environment):
                raise ToolError("This token is not the open preview of that exact change. Nothing was deployed; "
                                "call preview_deployment and apply its token.")
            del open_preview[service]
            return releases.deploy(service, environment, version)

    return server
