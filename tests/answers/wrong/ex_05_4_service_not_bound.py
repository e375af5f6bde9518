"""The token binds version and environment but not the service: a preview of checkout deploys search."""

import secrets

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "another service than this token's preview"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    previews = {}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and a previewToken to apply it."""
        running = releases.running(service, environment)
        token = secrets.token_hex(8)
        previews[token] = (version, environment, running)
        return deploy.DeployPreview(change=f"{service} in {environment}: {running} -> {version}", previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Deploy exactly what a preview showed, once."""
        saved = previews.get(previewToken)
        if saved is None or saved[:2] != (version, environment):
            raise ToolError("This previewToken does not match the deployment. Preview it again.")
        if releases.running(service, environment) != saved[2]:
            raise ToolError("What runs there changed since the preview. Preview it again.")
        del previews[previewToken]
        return releases.deploy(service, environment, version)

    return server
