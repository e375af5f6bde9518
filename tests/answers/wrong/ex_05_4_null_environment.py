"""environment defaults to null and a call without it is refused: the outcome is right, but the schema still
offers a default, so a model may leave the environment out."""

import secrets

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "environment with the default null"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    previews: dict[str, tuple[str, str, str, str]] = {}

    def needed(environment: str | None) -> str:
        if environment is None:
            raise ToolError("Say which environment: staging or production. Nothing was deployed.")
        return environment

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment | None = None) -> deploy.DeployPreview:
        """Show what deploying a version would change, and return the previewToken start_deployment needs."""
        environment = needed(environment)
        running = releases.running(service, environment)
        token = "pv-" + secrets.token_hex(8)
        previews[token] = (service, version, environment, running)
        return deploy.DeployPreview(change=f"deploy {service} {version} to {environment}, replacing {running}",
                                    previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment | None = None) -> deploy.Deployment:
        """Apply exactly the deployment a preview showed, once."""
        environment = needed(environment)
        saved = previews.get(previewToken)
        if saved is None or saved[:3] != (service, version, environment):
            raise ToolError("This token does not match a preview of that deployment; nothing was deployed.")
        if releases.running(service, environment) != saved[3]:
            raise ToolError("What runs there changed since the preview; preview it again.")
        del previews[previewToken]
        return releases.deploy(service, environment, version)

    return server
