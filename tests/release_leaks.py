"""How much of the solutions a student release gives away: distinctive solution lines found in the student copy.

    python tests/release_leaks.py [RELEASE] [--hints N] [--json] [--kernel]

Without RELEASE it writes a fresh release (`course release`, with `--hints N`) into a temporary folder. A
distinctive line is a stripped line of a solution region (`### BEGIN SOLUTION` .. `### END SOLUTION`) at least
`MIN_CHARS` long that is not in the exercise notebook's own given code (the student version of that notebook:
what the exercise hands out is no leak). It is found when some file of the release other than that exercise
notebook (and its `.course/reference` copy) holds it, whitespace collapsed, anywhere in a Python file (its lines
or its string constants, such as hint texts), a notebook cell's source or text output, or another text file.
Target: 0 not listed in `ALLOWED` (lines a release must keep, each with its reason); tests/workbook/test_release.py
asserts it.
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

_CHECKER = ("the checker's own code: a release ships the checkers so that a learner's check cells run in process "
            "(`course check`, `course grade` and the autograder run them in the grader, and the kernel's cut "
            "course_lib has none)")
_LESSON = "the lesson teaches this code in its own notebook; the exercise asks the learner to apply it"
_SERVER = ("a lesson server that the lesson's notebook (and an exercise's setup) runs, shipped in course_lib; a server "
           "made of its tools is refused as an answer ('it returned the lesson's')")
_HINT = "a released hint level (`course release --hints` decides how many levels leave; the last never does by default)"
_GIVEN_08 = ("exercise 08's given code (the vague desk it evaluates) wires the lesson-05 store the same way; exercise "
             "5.3 is judged on what the tools do around these calls (permissions, errors), not on the calls")
_GENERIC = "a generic line any answer of this shape has (syntax, or data the course's own files hold)"
ALLOWED: dict[tuple[str, str], str] = {
    ("00", 'return schema.get("minimum"), schema.get("maximum")'): _CHECKER,
    ("01", "city_id = weather.lookup_city_id(city)"): f"{_HINT} (1.3, level 2 of 3)",
    ("01", 'units: Literal["metric", "imperial"] = "metric",'): _LESSON,
    ("02", 'description="None until the order ships")'): f"{_LESSON}; {_SERVER}",
    ("02", "expected_delivery=row.expected_delivery,"): f"{_LESSON}; {_SERVER}",
    ("02", 'if result.get("isError") or not result.get("structuredContent"):'): _CHECKER,
    ("02", "tracking_code: str | None = Field(default=None,"): f"{_LESSON}; {_SERVER}",
    ("03", ") -> orders.OrderSummary:"): _GENERIC,
    ("03", "def get_order(order_number: str) -> orders.OrderSummary:"): f"{_LESSON} (lesson 02's get_order)",
    ("03", "return orders.summary(row)"): f"{_SERVER}; {_HINT} (3.1)",
    ("04", "hints = host.effective_hints(annotations)"): f"{_HINT} (4.2, level 2 of 3)",
    ("04", 'if hints["readOnlyHint"] and not hints["openWorldHint"]:'): _CHECKER,
    ("04", 'if hints["readOnlyHint"]:'): f"{_LESSON}; the course's host (course_lib/host.py) the lesson runs",
    ("04", 'retry=hints["idempotentHint"])'): f"{_LESSON}; the course's host (course_lib/host.py) the lesson runs",
    ("05", '"""Read one incident by its ID, with its most recent notes."""'): _SERVER,
    ("05", 'def search_incidents(query: str = "",'): _GIVEN_08,
    ("05", "if incident is None or not store.can_read(user, incident):"): f"{_HINT} (5.3, level 2 of 3)",
    ("05", "includeResolved: bool = False) -> incidents.IncidentList:"): _GIVEN_08,
    ("05", "return store.add_note_once(user, incidentId, note, requestId)"): f"{_GIVEN_08}; {_SERVER}",
    ("05", "return store.get(user, incidentId)"): f"{_GIVEN_08}; {_SERVER}; {_CHECKER}",
    ("05", "return store.search(user, query, includeResolved)"): f"{_GIVEN_08}; {_SERVER}; {_CHECKER}",
    ("06", '"""Support tickets whose title contains every word of the query.'): _LESSON,
    ("06", "Do not use it to read one ticket whose id you know; call get_ticket."): f"{_LESSON}; {_SERVER}",
    ("06", "Use it to find tickets about a problem a customer reported."): f"{_LESSON}; {_SERVER}",
    ("06", "from mcp.server import CacheHint"): _GENERIC,
    ("07", "encoding = tokens.encoding()"): _GENERIC,
    ("07", "if isinstance(value, dict):"): _GENERIC,
    ("07", "if isinstance(value, list):"): _GENERIC,
    ("07", "for origin, text in results:"): _CHECKER,
    ("07", "return hashlib.sha256(canonical.encode()).hexdigest()"): (
        "lesson 07's own answer, host.fingerprint, which the lesson runs; 7.3 refuses an answer that calls it (rule "
        "'own'), but one that copies its source passes: a known limit of shipping the lesson's host"),
    ("08", "@server.tool(description=("): _GENERIC,
    ("08", 'expect = "search_incidents"'): _GENERIC,
    ("09", "answer = person(params.message)"): f"{_HINT} (9.3, level 1 of 3)",
    ("09", "async def on_elicit(ctx, params: mcp_types.ElicitRequestFormParams):"): _LESSON,
    ("09", "if query.casefold() in t.title.casefold()"): _SERVER,
}
"""Solution lines a release must keep, and why (the lesson notebook number and the line as `distinctive_lines` finds
it). Every other line found is a leak; an entry no longer found is stale (`unlisted_and_stale`)."""
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


def unlisted_and_stale(report: dict) -> tuple[list[dict], list[tuple[str, str]]]:
    """The lines found that `ALLOWED` does not list, and the entries of `ALLOWED` no longer found."""
    found = {(item["notebook"][:2], item["line"]): item for item in report["lines"]}
    return ([item for key, item in found.items() if key not in ALLOWED],
            sorted(key for key in ALLOWED if key not in found))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", nargs="?", help="a release folder (default: write a fresh one)")
    parser.add_argument("--hints", type=int, default=-1, help="--hints for the fresh release (default -1)")
    parser.add_argument("--json", action="store_true", help="print every line found, as JSON")
    parser.add_argument("--kernel", action="store_true",
                        help="measure instead the course_lib a graded submission's kernel gets (no checkers)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        release = Path(args.release) if args.release else Path(scratch) / "release"
        if args.kernel:
            sys.path.insert(0, str(ROOT))
            from course_lib.workbook import release as releasing

            releasing.copy_package(release / "course_lib", args.hints, kernel=True)
        elif not args.release:
            subprocess.run([sys.executable, "-m", "course_lib.cli", "release", str(release), "--hints",
                            str(args.hints)], cwd=ROOT, check=True, capture_output=True)
        report = measure(release)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0
    unlisted, stale = unlisted_and_stale(report)
    print(f"{report['found']} of {report['distinctive']} distinctive solution lines are in the release outside "
          f"their exercise's given code, {len(unlisted)} of them not allowed (target 0; {len(ALLOWED)} allowed, "
          f"each with its reason{'' if args.kernel else f', {len(stale)} stale'})")
    for item in unlisted:
        print(f"  leak: {item['notebook']}: {item['line']!r} in {', '.join(item['in'])}")
    for name, count in report["files"].items():
        print(f"  {count:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
