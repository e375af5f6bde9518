"""Right in every call, but its token is a hash of the change and what runs: made from the change alone, so
anyone can compute it, and a second server issues the same token for the same change."""

import hashlib
import threading

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from course_lib.servers import deploy

EXPECT = "tokens no one can guess"


def answer(releases):
    server = MCPServer("release", log_level="WARNING")
    previews = {}
    lock = threading.Lock()

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def preview_deployment(service: deploy.Service, version: deploy.Version,
                           environment: deploy.Environment) -> deploy.DeployPreview:
        """Show what deploying a version would change, and return the previewToken start_deployment needs."""
        running = releases.running(service, environment)
        token = "pv-" + hashlib.sha256(f"{service}|{version}|{environment}|{running}".encode()).hexdigest()[:16]
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
                raise ToolError("previewToken is not a preview you can apply (unknown or already used).")
            if saved[:3] != (service, version, environment):
                raise ToolError("This preview was for another deployment; nothing was deployed.")
            if releases.running(service, environment) != saved[3]:
                raise ToolError("What runs there changed since this preview; nothing was deployed.")
            del previews[previewToken]
            return releases.deploy(service, environment, version)

    return server
