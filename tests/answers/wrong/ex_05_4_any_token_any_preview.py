"""Tokens and previewed changes are kept apart: any live token applies any change that was previewed, so a
token from the checkout preview deploys the payments change previewed a moment later."""

import secrets

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "that change has a token of its own"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    tokens, changes = set(), set()

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and a previewToken to apply it."""
        running = releases.running(service, environment)
        token = secrets.token_hex(8)
        tokens.add(token)
        changes.add((service, environment, version, running))
        return deploy.DeployPreview(change=f"{service} in {environment}: {running} -> {version}", previewToken=token)

    @server.tool(annotations=deploy.DEPLOYS)
    def start_deployment(previewToken: str, service: deploy.Service, version: deploy.Version,
                         environment: deploy.Environment) -> deploy.Deployment:
        """Deploy a previewed change with a preview's token, once."""
        change = (service, environment, version, releases.running(service, environment))
        if previewToken not in tokens:
            raise ToolError("This previewToken is unknown or used. Preview the change again.")
        if change not in changes:
            raise ToolError("This change was not previewed, or what runs there changed. Preview it again.")
        tokens.discard(previewToken)
        changes.discard(change)
        return releases.deploy(service, environment, version)

    return server
