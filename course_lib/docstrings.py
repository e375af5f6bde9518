"""What a docstring becomes on the wire, on each Python version (lessons 01 and 06).

`@server.tool()` sends `fn.__doc__` as the description. CPython 3.13 dedents docstrings when it
compiles them; 3.11 and 3.12 keep the indentation, so the same source sends different text.
These helpers give either form on any Python version, so a lesson can show both.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def as_written(fn: Callable[..., Any]) -> str:
    """A function's docstring exactly as typed in its source, indentation included.

    This is what `fn.__doc__` holds on Python 3.11 and 3.12 (3.13 dedents it when compiling),
    recovered from the source so that it is the same on every Python version.
    """
    import ast

    source = inspect.getsource(fn)
    if source[:1].isspace():  # a nested def: parse it inside a block so its indentation is kept
        source = "if True:\n" + source
        node = ast.parse(source).body[0].body[0]
    else:
        node = ast.parse(source).body[0]
    return ast.get_docstring(node, clean=False) or ""


def dedent_like_python313(docstring: str) -> str:
    """A docstring as CPython 3.13+ compiles it: tabs expanded, the first line's leading spaces and the
    common indentation of the other lines removed, everything else (blank lines, final newline) kept.

    Unlike `inspect.cleandoc`, this keeps leading and trailing blank lines, so a closing `\"\"\"` on its
    own line leaves a trailing newline.
    """
    lines = docstring.expandtabs().split("\n")
    rest = lines[1:]
    margin = min((len(line) - len(line.lstrip(" ")) for line in rest if line.strip(" ")), default=0)
    return "\n".join([lines[0].lstrip(" ")] + [line[min(margin, len(line) - len(line.lstrip(" "))):] for line in rest])


def as_python313(fn: Callable[..., Any]) -> str:
    """`fn.__doc__` as Python 3.13+ holds it (and `@server.tool()` sends it), on every Python version."""
    return dedent_like_python313(as_written(fn))
