"""How much of the solutions a student release gives away: distinctive solution lines found in the student copy.

    python tests/release_leaks.py [RELEASE] [--hints N] [--json]

Without RELEASE it writes a fresh release (`course release`, with `--hints N`) into a temporary folder. A
distinctive line is a stripped line of a solution region (`### BEGIN SOLUTION` .. `### END SOLUTION`) at least
`MIN_CHARS` long that is not in the exercise notebook's own given code (the student version of that notebook:
what the exercise hands out is no leak). It is found when some file of the release other than that exercise
notebook (and its `.course/reference` copy) holds it, whitespace collapsed, anywhere in a Python file (its lines
or its string constants, such as hint texts), a notebook cell's source or text output, or another text file.
Target: 0.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MIN_CHARS = 25
_REGION = re.compile(r"### BEGIN SOLUTION[^\n]*\n(.*?)### END SOLUTION", re.S)


def _stripped(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def _python_text(text: str) -> str:
    """A Python file's text and, after it, each of its string constants whole (a hint split over lines)."""
    import ast

    try:
        constants = [node.value for node in ast.walk(ast.parse(text))
                     if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    except SyntaxError:
        constants = []
    return "\n".join([text, *constants])


def _notebook_lines(path: Path) -> set[str]:
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return set()
    found: set[str] = set()
    for cell in notebook.get("cells", []):
        source = cell.get("source", "")
        found |= _stripped("".join(source) if isinstance(source, list) else source)
        for output in cell.get("outputs", []):
            text = output.get("text") or output.get("data", {}).get("text/plain", "")
            found |= _stripped("".join(text) if isinstance(text, list) else str(text))
    return found


def distinctive_lines() -> dict[str, set[str]]:
    """Per exercise notebook name: its distinctive solution lines (not in its own given code)."""
    found = {}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        given = _notebook_lines(ROOT / "exercises" / path.name)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        lines: set[str] = set()
        for cell in notebook["cells"]:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for region in _REGION.findall(source):
                lines |= {line for line in _stripped(region) if len(line) >= MIN_CHARS and not line.startswith("#")}
        found[path.name] = lines - given
    return found


def measure(release: Path) -> dict:
    """Distinctive solution lines, how many the release holds outside their exercise's notebook, and where."""
    files: dict[str, str] = {}
    for path in sorted(release.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        relative = path.relative_to(release).as_posix()
        if path.suffix == ".ipynb":
            files[relative] = _collapsed("\n".join(sorted(_notebook_lines(path))))
        elif path.suffix in (".py", ".md", ".toml", ".txt", ".json", ".yml", ".sh", ".cfg"):
            text = path.read_text(encoding="utf-8", errors="replace")
            files[relative] = _collapsed(_python_text(text) if path.suffix == ".py" else text)
    leaked, where = [], Counter()
    for notebook, lines in distinctive_lines().items():
        own = {f"exercises/{notebook}", f".course/reference/{notebook}"}
        for line in sorted(lines):
            wanted = _collapsed(line)
            holders = [name for name, text in files.items() if name not in own and wanted in text]
            if holders:
                leaked.append({"notebook": notebook, "line": line, "in": holders})
                where.update(holders)
    total = sum(len(lines) for lines in distinctive_lines().values())
    return {"distinctive": total, "found": len(leaked), "files": dict(where.most_common()), "lines": leaked}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", nargs="?", help="a release folder (default: write a fresh one)")
    parser.add_argument("--hints", type=int, default=-1, help="--hints for the fresh release (default -1)")
    parser.add_argument("--json", action="store_true", help="print every line found, as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        release = Path(args.release) if args.release else Path(scratch) / "release"
        if not args.release:
            subprocess.run([sys.executable, "-m", "course_lib.cli", "release", str(release), "--hints",
                            str(args.hints)], cwd=ROOT, check=True, capture_output=True)
        report = measure(release)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0
    print(f"{report['found']} of {report['distinctive']} distinctive solution lines are in the release outside "
          f"their exercise's given code (target 0)")
    for name, count in report["files"].items():
        print(f"  {count:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
