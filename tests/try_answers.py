"""Try a folder of answers nobody on the project has seen against the checkers, and report what they decide.

    python tests/try_answers.py DIR [--show]

DIR holds one folder per exercise, `ex_NN_M/`, each with `right_*.py` and `wrong_*.py` files that define
`answer` (the object the exercise's check cell passes). A right answer must pass its checker and a wrong
one must be rejected; a maintainer tool, not part of the default test run.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def verdicts(folder: Path) -> list[tuple[str, str, bool, str]]:
    """(exercise, file, decided as its name says?, the check's line) for every answer file."""
    from course_lib import checks
    from course_lib.checks.core import STRICT_ENV
    from course_lib.workbook.ids import ExerciseId

    os.environ[STRICT_ENV] = "1"
    found = []
    for directory in sorted(path for path in folder.iterdir() if path.is_dir()):
        exercise = ExerciseId.from_checker(directory.name)
        if exercise is None:
            continue
        check = checks.registered(exercise)
        for path in sorted(directory.glob("*.py")):
            right = path.stem.startswith("right_")
            out = io.StringIO()
            try:
                with redirect_stdout(out), redirect_stderr(io.StringIO()):
                    spec = importlib.util.spec_from_file_location(f"tried_{directory.name}_{path.stem}", path)
                    module = importlib.util.module_from_spec(spec)
                    sys.path.insert(0, str(directory))
                    try:
                        spec.loader.exec_module(module)
                    finally:
                        sys.path.pop(0)
                    check(module.answer)
                accepted, line = True, out.getvalue().strip().splitlines()[-1] if out.getvalue().strip() else ""
            except AssertionError as error:
                accepted, line = False, str(error)
            except Exception as error:  # the answer file itself is broken: say so, count it as undecided
                accepted, line = (not right), f"answer file broke: {type(error).__name__}: {error}"
            found.append((str(exercise), path.name, accepted == right, line))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", action="store_true", help="print every misjudged answer with the check's line")
    args = parser.parse_args(argv)
    results = verdicts(args.folder)
    exercises = sorted({r[0] for r in results}, key=lambda e: tuple(map(int, e.split("."))))
    print(f"{'exercise':<9}{'right ok':>10}{'wrong caught':>14}")
    totals = {"right": [0, 0], "wrong": [0, 0]}
    for exercise in exercises:
        mine = [r for r in results if r[0] == exercise]
        cells = []
        for kind in ("right", "wrong"):
            group = [r for r in mine if r[1].startswith(kind)]
            ok = sum(r[2] for r in group)
            totals[kind][0] += ok
            totals[kind][1] += len(group)
            cells.append(f"{ok}/{len(group)}")
        print(f"{exercise:<9}{cells[0]:>10}{cells[1]:>14}")
        if args.show:
            for r in mine:
                if not r[2]:
                    print(f"    {'REJECTED' if r[1].startswith('right') else 'ACCEPTED'} {r[1]}: {r[3][:300]}")
    right, wrong = totals["right"], totals["wrong"]
    print(f"right answers accepted: {right[0]}/{right[1]} ({right[0] / max(1, right[1]):.0%}); "
          f"wrong answers rejected: {wrong[0]}/{wrong[1]} ({wrong[0] / max(1, wrong[1]):.0%})")
    return 0 if right[0] == right[1] and wrong[0] >= 0.97 * wrong[1] else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
