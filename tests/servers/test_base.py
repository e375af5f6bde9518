"""The course servers' shared helpers: quiet servers, descriptions identical on every Python."""

from __future__ import annotations

from course_lib import docstrings, wire
from course_lib.servers import base


def test_tool_decorator_cleans_docstrings_on_every_python():
    server = base.new_server("t")

    @base.tool(server)
    def add(a: int, b: int) -> int:
        """Add two numbers.

        Returns the sum.
        """
        return a + b

    (tool,) = wire.run_sync(wire.list_tools, server)
    assert tool.description == "Add two numbers.\n\nReturns the sum."
    assert docstrings.as_written(add) == "Add two numbers.\n\n        Returns the sum.\n        "


def test_a_tool_without_a_docstring_gets_an_empty_description_not_made_up_words():
    server = base.new_server("t")

    @base.tool(server)
    def ping() -> str:
        return "pong"

    (tool,) = wire.run_sync(wire.list_tools, server)
    assert (tool.name, tool.description) == ("ping", "")
