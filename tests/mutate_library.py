"""Mutation testing of `course_lib` with mutmut: how much of the library's behaviour the test suite pins down.

A maintainer command, not part of the default test run (minutes per module on 2 cores):

    pip install mutmut            # not a course dependency
    python tests/mutate_library.py                 # every module group below
    python tests/mutate_library.py review tokens   # some of them

Each group mutates some modules and runs only the tests that cover them (test selection keeps it fast). The
run happens in a scratch copy of the course (mutmut writes a `mutants/` folder), so the working tree is never
touched. The score is killed / (killed + survivors + mutants no selected test reaches); a survivor that no test
could ever kill (it behaves exactly like the original) is listed with its reason in
`tests/mutants_equivalent/course_lib/<group>.toml` and left out; every other survivor is printed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.80
MUTMUT = str(Path(sys.executable).with_name("mutmut"))
"""mutmut's command, from the same environment as this Python (it has no `python -m mutmut`)."""
EQUIVALENT = Path(__file__).with_name("mutants_equivalent") / "course_lib"
"""One TOML file per group (`<group>.toml`) listing its equivalent mutants, each with its reason."""
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "review": (["course_lib/review.py"], ["tests/test_review.py", "tests/test_review_poisoning.py"]),
    "tokens": (["course_lib/tokens.py"], ["tests/test_tokens.py"]),
    "wire": (["course_lib/wire.py"], ["tests/test_wire.py", "tests/test_protocol.py", "tests/test_lazy_imports.py"]),
    "checks-core": (["course_lib/checks/core.py", "course_lib/checks/schemas.py"],
                    ["tests/checks/test_core.py", "tests/checks/test_l01_helpers.py"]),
    "servers": (["course_lib/servers/"], ["tests/servers/"]),
    "incidents-data": (["course_lib/incident_model.py", "course_lib/incident_store.py"],
                       ["tests/servers/test_incidents.py", "tests/test_incident_store.py"]),
}
GROUPS.update({f"servers.{path.stem}": ([f"course_lib/servers/{path.name}"], ["tests/servers/"])
               for path in sorted((ROOT / "course_lib" / "servers").glob("*.py"))})
"""One server module at a time (`servers.workspace`), for working through a module's survivors; not run by default."""
MAIN_GROUPS = ["review", "tokens", "wire", "checks-core", "servers"]


@dataclass(frozen=True)
class Survivor:
    """A mutant no selected test killed: mutmut's name, its function, the mutated line(s) and the whole diff."""

    name: str
    function: str
    mutated: str
    diff: str


def run_group(name: str, sources: list[str], tests: list[str], keep: Path | None = None) -> tuple[dict, list[Survivor]]:
    """mutmut on one group in a scratch copy: its statistics (killed, survived, no_tests, ...) and its survivors.

    With `keep`, the copy stays in keep/<name> (for `mutmut show`, `mutmut browse`).
    """
    with tempfile.TemporaryDirectory() as scratch:
        copy = (keep / name) if keep else Path(scratch) / "course"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "mutants", "__pycache__"))
        chosen = {path for source in sources
                  for path in ([copy / source] if source.endswith(".py") else (copy / source).rglob("*.py"))}
        others = sorted(str(path.relative_to(copy)) for path in (copy / "course_lib").rglob("*.py")
                        if path not in chosen)
        config = "\n".join([
            "", "[tool.mutmut]",  # the whole package is copied (so it imports as one), only `sources` mutated
            'source_paths = ["course_lib"]',
            f"do_not_mutate = {json.dumps(others)}",
            f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
            'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts="]',
            'also_copy = ["tests", "notebooks", "solutions", "exercises", "README.md"]', ""])
        with (copy / "pyproject.toml").open("a", encoding="utf-8") as file:
            file.write(config)
        subprocess.run([MUTMUT, "run"], cwd=copy, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=7200)
        subprocess.run([MUTMUT, "export-cicd-stats"], cwd=copy, capture_output=True, timeout=600)
        stats = copy / "mutants" / "mutmut-cicd-stats.json"
        if not stats.is_file():
            raise SystemExit(f"mutmut produced no statistics for {name}; run it by hand in a copy to see why")
        return json.loads(stats.read_text(encoding="utf-8")), survivors(copy)


def survivors(copy: Path) -> list[Survivor]:
    """Every surviving mutant of a finished run, with its diff."""
    listing = subprocess.run([MUTMUT, "results"], cwd=copy, capture_output=True, text=True, timeout=600).stdout
    names = [line.split(":")[0].strip() for line in listing.splitlines() if line.strip().endswith("survived")]
    found = []
    for name in names:
        diff = subprocess.run([MUTMUT, "show", name], cwd=copy, capture_output=True, text=True, timeout=600).stdout
        mutated = " | ".join(line[1:].strip() for line in diff.splitlines()
                             if line.startswith("+") and not line.startswith("+++"))
        found.append(Survivor(name, name.rsplit("__mutmut_", 1)[0], mutated, diff))
    return found


def equivalents() -> dict[tuple[str, str], str]:
    """(function, mutated line) -> why that surviving mutant cannot be told apart from the original."""
    entries = [entry for path in sorted(EQUIVALENT.glob("*.toml"))
               for entry in tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])]
    return {(entry["function"], entry["mutant"]): entry["reason"] for entry in entries}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help=f"module groups (default: {', '.join(MAIN_GROUPS)}; "
                                                  "or one server module, e.g. servers.workspace)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep each group's copy in DIR and write DIR/<group>.survivors.diff")
    args = parser.parse_args(argv)
    unknown = [name for name in args.groups if name not in GROUPS]
    if unknown:
        print(f"unknown group(s) {', '.join(unknown)}; groups: {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    if not Path(MUTMUT).is_file():
        print("mutmut is not installed: pip install mutmut", file=sys.stderr)
        return 2
    known, used = equivalents(), set()
    print(f"{'group':<13}{'mutants':>8}{'killed':>8}{'equiv':>6}{'survived':>9}{'no test':>8}{'timeout':>8}"
          f"{'score':>7}", flush=True)
    below = []
    for name in args.groups or MAIN_GROUPS:
        keep = args.keep.resolve() if args.keep else None
        stats, left = run_group(name, *GROUPS[name], keep=keep)
        equivalent = [s for s in left if (s.function, s.mutated) in known]
        used |= {(s.function, s.mutated) for s in equivalent}
        unexplained = [s for s in left if s not in equivalent]
        if keep:
            (keep / f"{name}.survivors.diff").write_text(
                "".join(f"### {s.name}\n{s.diff}\n" for s in unexplained), encoding="utf-8")
        killed = stats["killed"] + stats.get("timeout", 0)
        judged = killed + len(unexplained) + stats["no_tests"]  # a mutant no selected test reaches is not killed
        score = killed / judged if judged else 1.0
        below += [name] if score < TARGET else []
        print(f"{name:<13}{stats['total']:>8}{stats['killed']:>8}{len(equivalent):>6}{len(unexplained):>9}"
              f"{stats['no_tests']:>8}{stats.get('timeout', 0):>8}{score:>7.0%}", flush=True)
        for s in unexplained:
            print(f"    survived {s.function}: {s.mutated}")
    print(f"score = killed / (killed + no test + survivors not listed in {EQUIVALENT.relative_to(ROOT)}); "
          f"target ≥ {TARGET:.0%} per group: {'met' if not below else 'NOT met for ' + ', '.join(below)}")
    if not args.groups:
        for function, mutant in sorted(set(known) - used):
            print(f"listed as equivalent but no longer surviving (remove it): {function}: {mutant}")
    return 0 if not below else 1


if __name__ == "__main__":
    sys.exit(main())
