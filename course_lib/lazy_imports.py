"""A slow third-party import deferred until it is used, measured in `tests/benchmark.py`.

`jsonschema` checks the "iri" string format with the package `rfc3987_syntax` when it is installed (JupyterLab's
`jupyter-events` installs it), and importing that package compiles a grammar: about 0.7 s of CPU. jsonschema is
imported by the MCP client the first time it validates a result against an outputSchema, and by `nbformat`, so
every lesson kernel, every `course check` and every graded submission paid it, for a format no course schema
uses (a format is only checked when a validator is given a format checker).

`defer_iri_grammar()` registers the package so that its real code runs on first use instead: the functions
behave exactly as before (tests/test_lazy_imports.py compares them with the package loaded as usual).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

SLOW = "rfc3987_syntax"


def defer_iri_grammar() -> None:
    """Make importing `rfc3987_syntax` cheap in this process; its grammar is compiled on first use.

    Does nothing when the package is absent or already imported (also by jsonschema, which holds its function).
    """
    if SLOW in sys.modules or "jsonschema" in sys.modules:
        return
    spec = importlib.util.find_spec(SLOW)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    loaded = []

    def load() -> None:
        if not loaded:
            loaded.append(True)
            del module.is_valid_syntax, module.__getattr__  # the real names replace the stand-ins
            spec.loader.exec_module(module)

    def is_valid_syntax(term: str, value: str) -> bool:
        """Stand-in for the function jsonschema imports by name; loads the package on the first call."""
        load()
        return module.is_valid_syntax(term, value)

    def __getattr__(name: str) -> Any:  # noqa: N807 - a module-level __getattr__ (PEP 562)
        load()
        if name in vars(module):
            return vars(module)[name]
        raise AttributeError(f"module {SLOW!r} has no attribute {name!r}")

    module.is_valid_syntax = is_valid_syntax
    module.__getattr__ = __getattr__
    sys.modules[SLOW] = module
