"""Refuses a stale preview with the internal record, a file path included."""

import secrets

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "reveal nothing the caller did not send"
PREVIEWS_MODULE = {}


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    previews = {}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and return the previewToken start_deployment needs."""
        running = releases.running(service, environment)
        token = "pv-" + secrets.token_hex(8)
        previews[token] = (service, version, environment, running)
        return deploy.DeployPreview(change=f"deploy {service} {version} to {environment}, replacing {running}",
                                    previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Apply exactly the deployment a preview showed, once."""
        saved = previews.get(previewToken)
        if saved is None:
            raise ToolError("previewToken is not a preview you can apply (unknown or already used).")
        if saved[:3] != (service, version, environment):
            raise ToolError("This preview was for another deployment; nothing was deployed.")
        if releases.running(service, environment) != saved[3]:
            raise ToolError(f"stale preview {saved!r} in /srv/release/previews.db; nothing was deployed.")
        del previews[previewToken]
        return releases.deploy(service, environment, version)

    return server
