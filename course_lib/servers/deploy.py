"""Lesson 05's dangerous default: a deploy tool whose target environment silently defaults to production.

`build_risky_server()` has `environment="production"` as a default, so a call that forgets the
environment ships to customers. `build_server()` is the fix: the environment is required and has
no default, so a call that forgets it is refused and the model has to ask.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from course_lib.servers.base import new_server, tool

Service = Literal["checkout", "payments", "search"]
Environment = Literal["staging", "production"]
Version = Annotated[str, Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$", max_length=20,
                               description="Release version to deploy, e.g. 2.8.1.")]
DEPLOYS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
DESCRIPTION = """Deploy a release of one service to one environment, replacing the version running there.

Use it to ship a reviewed fix. Do not use it to roll back; deploy the earlier version explicitly."""


class Deployment(BaseModel):
    """What a deploy changed."""

    service: Service
    environment: Environment
    version: str
    previousVersion: str


def _running() -> dict[tuple[str, str], str]:
    return {(service, env): "2.8.0" for service in ("checkout", "payments", "search")
            for env in ("staging", "production")}


def _deploy(running: dict[tuple[str, str], str], service: str, version: str, environment: str) -> Deployment:
    previous, running[(service, environment)] = running[(service, environment)], version
    return Deployment(service=service, environment=environment, version=version, previousVersion=previous)


def build_risky_server():
    """A fresh deploy server whose `environment` defaults to production (the dangerous default)."""
    server = new_server("deploy")
    running = _running()

    @tool(server, description=DESCRIPTION, annotations=DEPLOYS)
    def start_deployment(service: Service, version: Version, environment: Environment = "production") -> Deployment:
        return _deploy(running, service, version, environment)

    return server


def build_server():
    """A fresh deploy server where `environment` is required: forgetting it is refused, not guessed."""
    server = new_server("deploy")
    running = _running()

    @tool(server, description=DESCRIPTION, annotations=DEPLOYS)
    def start_deployment(
        service: Service,
        version: Version,
        environment: Annotated[Environment, Field(
            description="Where to deploy. No default: if the person did not say, ask them.")],
    ) -> Deployment:
        return _deploy(running, service, version, environment)

    return server


# --- exercise 5.4: a deploy with a bound preview ------------------------------------------------------


class DeployPreview(BaseModel):
    """What a deployment would change (the text the person approves), and the token that applies it."""

    change: str
    previewToken: str


class Releases:
    """The deploy backend of exercise 5.4: which version runs where, and every deployment made.

    `running(service, environment)` reads; `deploy(service, environment, version)` changes what runs
    and returns the `Deployment`. It checks nothing: deciding what may be deployed is the tool's job.
    """

    def __init__(self) -> None:
        self._running = _running()
        self.deployments: list[Deployment] = []

    def running(self, service: str, environment: str) -> str:
        """The version of `service` running in `environment`."""
        return self._running[(service, environment)]

    def deploy(self, service: str, environment: str, version: str) -> Deployment:
        """Replace the running version; the change is recorded in `deployments`."""
        done = _deploy(self._running, service, version, environment)
        self.deployments.append(done)
        return done
