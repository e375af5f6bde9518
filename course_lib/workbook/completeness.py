"""Is the course whole? The manifest compared with the course folder, the checkers and the hints.

It sits above `manifest`, `checks` and `hints` (each imports the manifest; none imports this), so
the manifest never imports what imports it. `missing_parts(root)` names every file, checker, hint or
kept answer the manifest promises that the course folder lacks.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from course_lib import checks, hints, servers
from course_lib.workbook import build, manifest
from course_lib.workbook.manifest import ANSWERS, FOLDERS, Lesson, readme_row

MIN_ANSWERS = {"right": 3, "wrong": 3}
"""Kept answers each exercise needs at least, per verdict."""


def missing_parts(root: Path) -> list[str]:
    """Every part the manifest promises that the course at `root` lacks, one line each (empty when whole)."""
    problems: list[str] = []
    listed = {found.stem for found in manifest.lessons()}
    for folder in FOLDERS:
        for path in sorted((root / folder).glob("*.ipynb")):
            if path.stem not in listed:
                problems.append(f"{folder}/{path.name} is not in the manifest (course_lib/workbook/lessons.toml)")
    readme = (root / "README.md").read_text(encoding="utf-8") if (root / "README.md").is_file() else ""
    for found in manifest.lessons():
        problems.extend(_lesson_problems(root, found))
        if readme_row(found) not in readme:
            problems.append(f"lesson {found.number}: README.md lacks the lesson-table row {readme_row(found)!r}")
    return problems


def _lesson_problems(root: Path, found: Lesson) -> list[str]:
    problems = []
    for folder in ["notebooks"] + (["exercises", "solutions"] if found.exercises else []):
        if not found.notebook(root, folder).is_file():
            problems.append(f"lesson {found.number}: {folder}/{found.stem}.ipynb is missing")
    problems += [f"lesson {found.number}: server {name!r} is not in course_lib.servers.REGISTRY"
                 for name in found.servers if name not in servers.REGISTRY]
    problems += [f"lesson {found.number}: helper module {module} does not exist"
                 for module in found.helpers if importlib.util.find_spec(module) is None]
    if not found.exercises:
        return problems
    if importlib.util.find_spec(found.checker_module) is None:
        return problems + [f"lesson {found.number}: checker module {found.checker_module} is missing"]
    for exercise in found.exercises:
        if checks.registered(exercise) is None:
            problems.append(f"exercise {exercise}: no checker registered in {found.checker_module}")
        if len(hints.levels(exercise)) < 2:
            problems.append(f"exercise {exercise}: fewer than two hint levels in {found.checker_module}.HINTS")
        for verdict, least in MIN_ANSWERS.items():
            kept = sorted((root / ANSWERS / verdict).glob(f"{exercise.checker_name}_*.py"))
            if len(kept) < least:
                problems.append(f"exercise {exercise}: {len(kept)} kept {verdict} answer(s) in "
                                f"{ANSWERS / verdict}, at least {least} needed")
    solution = found.notebook(root, "solutions")
    if solution.is_file():
        defined = [pair.exercise.id for pair in build.exercise_pairs(build.read(solution))]
        if defined != list(found.exercises):
            problems.append(f"lesson {found.number}: solutions/{solution.name} defines exercises "
                            f"{', '.join(map(str, defined)) or 'none'}, the manifest lists "
                            f"{', '.join(map(str, found.exercises))}")
    return problems
