"""Checks a token it knows against its preview, but an unknown token falls back to any waiting preview of the
same arguments: whatever token a call brings, a previewed change goes through."""

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "a token no preview issued"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    by_token: dict[str, tuple[str, str, str, str]] = {}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and return the previewToken start_deployment needs."""
        running = releases.running(service, environment)
        token = f"pv-{len(by_token) + 100}"
        by_token[token] = (service, version, environment, running)
        return deploy.DeployPreview(change=f"deploy {service} {version} to {environment}, replacing {running}",
                                    previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Apply a previewed deployment."""
        running = releases.running(service, environment)
        if previewToken not in by_token:  # a lost token: find the preview by its change instead
            previewToken = next((token for token, saved in by_token.items()
                                 if saved == (service, version, environment, running)), previewToken)
        if by_token.get(previewToken) != (service, version, environment, running):
            raise ToolError("Preview this deployment first; nothing was deployed.")
        del by_token[previewToken]
        return releases.deploy(service, environment, version)

    return server
