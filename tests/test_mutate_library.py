"""The maintainer's mutation command: its list of equivalent mutants stays readable and points at real code."""

from __future__ import annotations

import importlib
import tomllib

import pytest

import mutate_library


def entries() -> list[tuple[str, dict]]:
    return [(path.name, entry) for path in sorted(mutate_library.EQUIVALENT.glob("*.toml"))
            for entry in tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])]


def test_equivalents_are_listed_once_each_with_a_reason():
    seen = [(entry["function"], entry["mutant"]) for _, entry in entries()]
    assert len(seen) == len(set(seen)) == len(mutate_library.equivalents())
    assert all(set(entry) == {"function", "mutant", "reason"} and len(entry["reason"]) > 20 for _, entry in entries())


@pytest.mark.parametrize("file, entry", entries(), ids=lambda value: value if isinstance(value, str) else "")
def test_each_equivalent_names_a_function_of_its_groups_modules(file, entry):
    """mutmut names a function `module.x_name` or a method `module.xǁClassǁname`."""
    module_name, _, mangled = entry["function"].rpartition(".")
    module = importlib.import_module(module_name)
    owner, name = (mangled[1:].split("ǁ")[1:3] if "ǁ" in mangled else (None, mangled[2:]))
    target = getattr(getattr(module, owner), name) if owner else getattr(module, name)
    assert callable(target)
    sources = mutate_library.GROUPS[file.removesuffix(".toml")][0]
    where = module_name.replace(".", "/") + ("/__init__" if hasattr(module, "__path__") else "")  # a package's own code
    assert any(where.startswith(source.removesuffix(".py").rstrip("/")) for source in sources)
