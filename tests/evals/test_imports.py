"""The eval modules import one another in one direction only, counting imports inside functions too: `run` runs and
uses `score`; `score` scores and never reaches back (no circle, deferred or not)."""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "course_lib" / "evals"


def imports() -> dict[str, set[str]]:
    """Each eval module's imports of its sibling modules, at module level or inside functions."""
    names = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    found: dict[str, set[str]] = {}
    for name in names:
        used: set[str] = set()
        for node in ast.walk(ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "course_lib.evals":
                used |= {alias.name for alias in node.names} & names
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("course_lib.evals."):
                used.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                used |= {alias.name.split(".")[2] for alias in node.names
                         if alias.name.startswith("course_lib.evals.")}
        found[name] = used - {name}
    return found


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle, as a path that returns to its start, or []."""
    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return path[path.index(node):] + [node]
        for after in sorted(graph.get(node, ())):
            found = visit(after, path + [node])
            if found:
                return found
        return []

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return []


def test_the_eval_modules_import_in_one_direction():
    graph = imports()
    assert "score" in graph["run"] and "run" not in graph["score"]
    assert cycle(graph) == []


def test_the_cycle_finder_finds_a_planted_circle():
    graph = imports()
    graph["score"] = graph["score"] | {"run"}
    assert cycle(graph)[0] == cycle(graph)[-1] and {"run", "score"} <= set(cycle(graph))
