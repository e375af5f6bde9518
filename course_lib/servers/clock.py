"""A world-clock backend and the vague `tz` tool that lesson 01's exercise 1.1 renames and describes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from course_lib.servers.base import new_server, tool

NOW_UTC = datetime(2026, 10, 2, 14, 30, tzinfo=timezone.utc)
"""The simulated current time (fixed so that lesson outputs never change)."""

_OFFSETS_MINUTES = {
    "Denver": -360, "Des Moines": -300, "Kathmandu": 345, "Nairobi": 180,
    "Oslo": 120, "Paris": 120, "Tokyo": 540,
}


class LocalTime(BaseModel):
    """The current local time in one city."""

    city: str
    local_time: str = Field(description="ISO 8601 local date and time, minutes precision")
    utc_offset: str = Field(description="Offset from UTC, e.g. +02:00")


def known_cities() -> list[str]:
    """The city names the clock knows, sorted."""
    return sorted(_OFFSETS_MINUTES)


def local_time(city: str) -> LocalTime:
    """The current local time in `city`; `ToolError` naming the known cities otherwise."""
    match = next((name for name in _OFFSETS_MINUTES if name.casefold() == " ".join(city.split()).casefold()), None)
    if match is None:
        raise ToolError(f"Unknown city {city.strip()!r}. Pass one city name in full; known: {', '.join(known_cities())}.")
    offset = timedelta(minutes=_OFFSETS_MINUTES[match])
    local = NOW_UTC.astimezone(timezone(offset))
    sign, minutes = ("-" if offset < timedelta(0) else "+"), abs(_OFFSETS_MINUTES[match])
    return LocalTime(city=match, local_time=local.strftime("%Y-%m-%dT%H:%M"),
                     utc_offset=f"{sign}{minutes // 60:02d}:{minutes % 60:02d}")


def build_server():
    """A fresh server with the vague `tz` tool: right answer, useless definition."""
    server = new_server("clock")

    @tool(server)
    def tz(x: str) -> str:
        """Time."""
        found = local_time(x)
        return f"{found.local_time} ({found.utc_offset})"

    return server
