"""Lesson 01's clock: the vague `tz` tool gives right answers; its backend matches city names loosely but wholly."""

from __future__ import annotations

import pytest

from conftest import server_info

from course_lib import wire
from course_lib.servers import clock


def tz(city: str):
    return wire.run_sync(wire.call_tool, clock.build_server(), "tz", {"x": city})


@pytest.mark.parametrize("city, answer", [
    ("Tokyo", "2026-10-02T23:30 (+09:00)"),
    ("Nairobi", "2026-10-02T17:30 (+03:00)"),
    ("Denver", "2026-10-02T08:30 (-06:00)"),
    ("  des   MOINES ", "2026-10-02T09:30 (-05:00)"),  # spacing and case do not matter
])
def test_tz_answers_with_local_time_and_offset(city, answer):
    result = tz(city)
    assert result.is_error is False
    assert result.content[0].text == answer


def test_local_time_names_the_city_as_the_clock_spells_it():
    assert clock.local_time("des moines") == clock.LocalTime(
        city="Des Moines", local_time="2026-10-02T09:30", utc_offset="-05:00")
    assert clock.known_cities() == ["Denver", "Des Moines", "Kathmandu", "Nairobi", "Oslo", "Paris", "Tokyo"]


def test_an_offset_of_zero_is_written_with_a_plus(monkeypatch):
    monkeypatch.setitem(clock._OFFSETS_MINUTES, "Reykjavik", 0)
    assert clock.local_time("Reykjavik") == clock.LocalTime(
        city="Reykjavik", local_time="2026-10-02T14:30", utc_offset="+00:00")


@pytest.mark.parametrize("city", [" Atlantis ", "Des", "Paris, Oslo"])
def test_an_unknown_city_is_refused_with_the_known_ones_listed(city):
    result = tz(city)
    assert result.is_error is True
    assert result.content[0].text == (
        f"Error executing tool tz: Unknown city {city.strip()!r}. Pass one city name in full; "
        "known: Denver, Des Moines, Kathmandu, Nairobi, Oslo, Paris, Tokyo.")


def test_the_server_introduces_itself_as_clock():
    assert server_info(clock.build_server()).name == "clock"
