"""Applies any call that matches a waiting preview's arguments, whatever token it brings."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "a token no preview issued"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    waiting: dict[tuple[str, str, str], tuple[str, str]] = {}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and return the previewToken start_deployment needs."""
        running = releases.running(service, environment)
        token = f"pv-{len(waiting) + 100}"
        waiting[(service, version, environment)] = (token, running)
        return deploy.DeployPreview(change=f"deploy {service} {version} to {environment}, replacing {running}",
                                    previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Apply a previewed deployment."""
        saved = waiting.get((service, version, environment))
        if saved is None or releases.running(service, environment) != saved[1]:
            raise ToolError("Preview this deployment first; nothing was deployed.")
        del waiting[(service, version, environment)]
        return releases.deploy(service, environment, version)

    return server
