"""Right but for one refusal: an unknown token is answered with every open preview and its token, "to help",
so a caller with a made-up token learns tokens that apply changes someone else previewed."""

import secrets
import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "another preview's token"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    previews = {}
    lock = threading.Lock()

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
        with lock:
            saved = previews.get(previewToken)
            if saved is None:
                waiting = "; ".join(f"{token} for {s} {v} in {e}" for token, (s, v, e, _) in previews.items())
                raise ToolError(f"previewToken is unknown or used. Open previews: {waiting}.")
            if saved[:3] != (service, version, environment):
                raise ToolError("This preview was for another deployment; nothing was deployed.")
            if releases.running(service, environment) != saved[3]:
                raise ToolError("What runs there changed since this preview; nothing was deployed.")
            del previews[previewToken]
            return releases.deploy(service, environment, version)

    return server
