"""Lesson servers: each module exposes factories that return a fresh server with fresh state.

`REGISTRY` maps the names `course serve` and `course review` accept to `module:factory` paths;
modules are imported only when a server is built.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from course_lib.errors import UnknownName

REGISTRY: dict[str, str] = {
    "clock": "course_lib.servers.clock:build_server",
    "order-desk": "course_lib.servers.failures:build_server",
    "orders": "course_lib.servers.orders:build_server",
    "weather": "course_lib.servers.weather:build_server",
    "weather-chain": "course_lib.servers.weather:build_chain_server",
    "deploy": "course_lib.servers.deploy:build_server",
    "deploy-risky": "course_lib.servers.deploy:build_risky_server",
    "drafts": "course_lib.servers.drafts:build_server",
    "evolving-v1": "course_lib.servers.evolving:build_v1",
    "evolving-v2-breaking": "course_lib.servers.evolving:build_v2_breaking",
    "evolving-v2-safe": "course_lib.servers.evolving:build_v2_safe",
    "evolving-v2-transition": "course_lib.servers.evolving:build_v2_transition",
    "incident-overloaded": "course_lib.servers.incident_overloaded:build_server",
    "incidents": "course_lib.servers.incidents:build_server",
    "incident-pager": "course_lib.servers.incident_risky:build_pager_server",
    "incident-risky": "course_lib.servers.incident_risky:build_server",
    "ops": "course_lib.servers.ops:build_server",
    "documents": "course_lib.servers.documents:build_server",
    "notes-helper": "course_lib.servers.poisoned:build_server",
    "runbooks": "course_lib.servers.poisoned:build_runbooks",
    "runbooks-changed": "course_lib.servers.poisoned:build_runbooks_changed",
    "workspace": "course_lib.servers.workspace:build_server",
}


class UnknownServer(UnknownName):
    """A server name that is not in the registry."""


def factory(name: str) -> Callable[..., Any]:
    """The factory registered under `name`."""
    try:
        path = REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY))
        raise UnknownServer(f"unknown server {name!r}; known servers: {known}") from None
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def build(name: str, **kwargs: Any):
    """A fresh server registered under `name`."""
    return factory(name)(**kwargs)
