"""`course release DIR` and `course autograder gradescope OUT.zip`: what leaves the instructor's course folder.

A student release holds the lessons, the exercise notebooks, the `course_lib` package, the README and what
installs it, the engine files (a GitHub Classroom workflow, Binder and a devcontainer), and in `.course/reference/`
a copy of each exercise notebook as the course built it, whose setup and check cells `course check` uses.
Never solutions/, never the kept answers or any other test. The Gradescope autograder holds the same package
and reference notebooks, with Gradescope's `setup.sh` and `run_autograder`.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from course_lib.errors import UsageError
from course_lib.workbook import build, runner

TEMPLATES = Path(__file__).with_name("templates")
TOP_FILES = ("pyproject.toml", "LICENSE", ".gitignore")
FOLDERS = ("notebooks", "exercises")
ENGINE_FOLDERS = ("binder", ".devcontainer")
CLASSROOM_WORKFLOW = Path(".github") / "workflows" / "course-check.yml"
_SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info")
_SKIP_IN = {folder: _SKIP for folder in FOLDERS + ENGINE_FOLDERS} | {
    "exercises": shutil.ignore_patterns("*.ipynb", build.RECORD.name, ".ipynb_checkpoints")}
"""exercises/ gives only its other files: its notebooks are built afresh from solutions/."""


def _package(root: Path) -> Path:
    import course_lib

    return Path(course_lib.__file__).resolve().parent


def references(root: Path) -> dict[str, str]:
    """Each exercise notebook's file name and its text as the course builds it from solutions/."""
    return {pair.exercise.name: build.render(build.student_version(build.read(pair.solution)))
            for pair in build.notebook_pairs(root)}


def student_readme() -> str:
    """The release's README.md: for a learner (open the course, do an exercise, check it, get a hint, what a check
    runs and where), with the lessons of the manifest; nothing about maintaining the course."""
    from course_lib.workbook import manifest

    rows = ["| lesson | title | minutes (lesson + exercises) | exercises |", "|---|---|---|---|"]
    for lesson in manifest.lessons():
        exercises = ", ".join(map(str, lesson.exercises))
        rows.append(f"| {lesson.number} | [{lesson.title}](notebooks/{lesson.stem}.ipynb) | {lesson.teaching} + "
                    f"{lesson.exercise_minutes} | "
                    + (f"[{exercises}](exercises/{lesson.stem}.ipynb) |" if exercises else "none |"))
    return (TEMPLATES / "student_README.md").read_text(encoding="utf-8").replace("{lessons}", "\n".join(rows))


def _empty_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is a file: name a new folder for the release")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not an empty folder: choose a new one")


def release(root: Path, out: Path, force: bool = False) -> list[Path]:
    """Write the student release of the course at `root` into the new folder `out`; the files written.

    Its exercise notebooks are built from solutions/ (never copied from exercises/, which may hold someone's
    work); exercises/ holding edits is refused unless `force`, since the release would leave them out.
    """
    _empty_target(out)
    if not force:
        build.refuse_edited([path for path in build.build(root, check_only=True) if build.edited(root, path)], root,
                            "a release builds exercises from solutions/ and would leave those edits out: move them "
                            "into solutions/ (or save a copy elsewhere), or pass --force to release without them")
    out.mkdir(parents=True, exist_ok=True)
    for name in TOP_FILES:
        if (root / name).is_file():
            shutil.copy2(root / name, out / name)
    (out / "README.md").write_text(student_readme(), encoding="utf-8")
    for folder in FOLDERS + ENGINE_FOLDERS:
        if (root / folder).is_dir():
            shutil.copytree(root / folder, out / folder, ignore=_SKIP_IN[folder])
    shutil.copytree(_package(root), out / "course_lib", ignore=_SKIP)
    kept = out / runner.REFERENCE
    kept.mkdir(parents=True)
    (out / "exercises").mkdir(exist_ok=True)
    for name, text in references(root).items():
        (kept / name).write_text(text, encoding="utf-8")
        (out / "exercises" / name).write_text(text, encoding="utf-8")
    workflow = out / CLASSROOM_WORKFLOW
    workflow.parent.mkdir(parents=True)
    shutil.copy2(TEMPLATES / "classroom.yml", workflow)
    return sorted(path for path in out.rglob("*") if path.is_file())


def gradescope(root: Path, out: Path) -> list[str]:
    """Write Gradescope's autograder zip for the course at `root` to `out`; the names it holds."""
    if out.suffix != ".zip":
        raise UsageError(f"{out} should end in .zip (Gradescope takes a zip file)")
    if out.exists():
        raise UsageError(f"{out} already exists: choose a new file")
    package = _package(root)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, template in (("setup.sh", "gradescope_setup.sh"), ("run_autograder", "gradescope_run_autograder")):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o100755 << 16  # executable, as Gradescope runs it
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (TEMPLATES / template).read_text(encoding="utf-8"))
        for name in ("README.md", "pyproject.toml"):
            archive.write(root / name, name)
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                archive.write(path, Path("course_lib") / path.relative_to(package))
        for name, text in references(root).items():
            archive.writestr(str(runner.REFERENCE / name), text)
        return archive.namelist()
