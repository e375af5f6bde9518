"""The code's shape: private SDK modules only behind the seam, one id grammar, no upward imports, no star imports."""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from conftest import ROOT

SEAM = ROOT / "course_lib" / "wire.py"
PYTHON = sorted([*(ROOT / "course_lib").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])
NOTEBOOKS = sorted(path for folder in ("notebooks", "exercises", "solutions") for path in (ROOT / folder).glob("*.ipynb"))


def parse_cell(source: str) -> ast.AST:
    """A notebook cell as Python: magics dropped, top-level await allowed."""
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    return compile(code, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def trees() -> list[tuple[str, ast.AST]]:
    found = [(str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))) for path in PYTHON]
    for path in NOTEBOOKS:
        for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "code":
                found.append((f"{path.relative_to(ROOT)} cell {number}", parse_cell(cell.source)))
    return found


def imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, imported names) for every import statement."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def is_private_sdk(module: str, names: list[str]) -> bool:
    parts = module.split(".")
    return parts[0] in ("mcp", "mcp_types") and (any(p.startswith("_") for p in parts)
                                                 or any(n.startswith("_") for n in names))


def test_private_sdk_modules_are_imported_only_by_the_seam():
    offenders = [(where, module) for where, tree in trees() if where != str(SEAM.relative_to(ROOT))
                 for module, names in imports(tree) if is_private_sdk(module, names)]
    assert offenders == []


def test_the_shape_test_sees_a_private_import():
    tree = parse_cell("from mcp.client._memory import InMemoryTransport\nawait x()")
    assert [m for m, n in imports(tree) if is_private_sdk(m, n)] == ["mcp.client._memory"]


def test_no_star_imports():
    assert [where for where, tree in trees() for _, names in imports(tree) if "*" in names] == []


GRAMMAR = re.compile(r"ex_\(\\d|\(\\d\{1,2\}\)\\\.|\\d\+\)\\\.\(\\d|f\"ex_\{|f'ex_\{")


def test_the_exercise_id_grammar_lives_in_one_module():
    owner = ROOT / "course_lib" / "workbook" / "ids.py"
    spelled = [str(path.relative_to(ROOT)) for path in (ROOT / "course_lib").rglob("*.py")
               if path != owner and GRAMMAR.search(path.read_text(encoding="utf-8"))]
    assert spelled == []
    assert GRAMMAR.search(owner.read_text(encoding="utf-8"))  # the pattern does find the grammar


LAYERS = {
    "course_lib.errors": set(),
    "course_lib.wire": {"course_lib.lazy_imports"},
    "course_lib.lazy_imports": set(),
    "course_lib.workbook.ids": {"course_lib.errors"},
    "course_lib.servers.base": {"course_lib", "course_lib.__version__"},  # the package's version, nothing more
}
NEVER_IMPORTED_BY_LIBRARY = "course_lib.cli"


@pytest.mark.parametrize("module, allowed", sorted(LAYERS.items()))
def test_the_ground_floor_imports_nothing_above_it(module, allowed):
    path = ROOT / (module.replace(".", "/") + ".py")
    used = {m for m, _ in imports(ast.parse(path.read_text(encoding="utf-8"))) if m.startswith("course_lib")}
    used |= {f"course_lib.{n}" for m, names in imports(ast.parse(path.read_text(encoding="utf-8")))
             if m == "course_lib" for n in names}
    assert used <= allowed


def test_no_library_module_imports_or_starts_the_cli():
    for path in (ROOT / "course_lib").rglob("*.py"):
        if path.name == "cli.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert NEVER_IMPORTED_BY_LIBRARY not in text and "from course_lib import cli" not in text, path


def test_lesson_cells_build_servers_with_the_sdk_api_a_learner_can_paste():
    course_only = [(where, module, names) for where, tree in trees() if " cell " in where
                   for module, names in imports(tree) if module == "course_lib.servers.base"
                   or (module == "course_lib.servers" and "base" in names)]
    assert course_only == []
    for path in NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        assert "new_server(" not in text and "wire.tool(" not in text, path.name
