"""`course release DIR` and `course autograder gradescope OUT.zip`: what leaves the instructor's course folder.

A student release holds the lessons, the exercise notebooks, the `course_lib` package, the README and what
installs it, the engine files (a GitHub Classroom workflow, Binder and a devcontainer), and in `.course/reference/`
a copy of each exercise notebook as the course built it, whose setup and check cells `course check` uses.
Never solutions/, never the kept answers or any other test. Its course_lib keeps lesson 08's held-out case sets,
which no grade needs secret (`HELD_OUT_CASES`). The Gradescope autograder holds the same package
and reference notebooks, with Gradescope's `setup.sh` and `run_autograder`.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import shutil
import stat
import zipfile
from pathlib import Path

from course_lib.errors import UsageError
from course_lib.workbook import build, runner

TEMPLATES = Path(__file__).with_name("templates")
TOP_FILES = ("LICENSE", ".gitignore")
MAINTAINERS_EXTRAS = ("test",)
"""Optional dependencies a student release leaves out of its pyproject.toml: they serve the course's own tests."""
MAINTAINERS_TABLES = ("tool.pytest.ini_options",)
"""pyproject.toml tables a student release leaves out: the course's test settings (`-n auto` needs the test
extra, so a student's `pytest` would stop on them)."""
BUILD_FILES_UNDER = ".course"
"""Where a release's install leaves setuptools' build/ and *.egg-info (set in its pyproject.toml), so neither
lands beside the student's notebooks."""
FOLDERS = ("notebooks", "exercises")
ENGINE_FOLDERS = ("binder", ".devcontainer")
CLASSROOM_WORKFLOW = Path(".github") / "workflows" / "course-check.yml"
SKIPPED = ("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info", runner.PINS.name)
SKIPPED_IN = {"exercises": ("*.ipynb", build.RECORD.name)}
"""exercises/ gives only its other files: its notebooks are built afresh from solutions/."""


def _files(top: Path, skipped: tuple[str, ...] = ()) -> list[Path]:
    """Every regular file under `top` (relative), walked without following links; a symbolic link or anything
    else that is not a regular file or a folder stops the release (`UsageError`), so nothing it points to leaves."""
    found, stack = [], [Path()]
    while stack:
        relative = stack.pop()
        for entry in sorted(os.scandir(top / relative), key=lambda e: e.name):
            if any(fnmatch.fnmatch(entry.name, pattern) for pattern in SKIPPED + skipped):
                continue
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                stack.append(relative / entry.name)
            elif stat.S_ISREG(mode):
                found.append(relative / entry.name)
            else:
                kind = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file"
                raise UsageError(f"{top.name}/{(relative / entry.name).as_posix()} is {kind}: a release copies "
                                 "only regular files (replace it with the file itself)")
    return sorted(found)


def _copy(source: Path, target: Path, skipped: tuple[str, ...] = ()) -> None:
    """`source` (a file or a folder) copied to `target` as regular files only (see `_files`)."""
    if source.is_symlink() or not (source.is_dir() or source.is_file()):
        raise UsageError(f"{source.name} is a symbolic link or not a regular file: a release copies only regular "
                         "files")
    for relative in ([Path()] if source.is_file() else _files(source, skipped)):
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / relative if relative.parts else source, destination, follow_symlinks=False)


HINTS_KEPT_DEFAULT = -1
"""`--hints`: hint levels released per exercise; negative counts from the end (-1: all but the last, which is
nearly the answer)."""


def trimmed_hints(source: str, keep: int | None = HINTS_KEPT_DEFAULT) -> str:
    """A checker module's source with its `HINTS` cut to the first `keep` levels of each exercise (negative: all
    but that many of the last); the source unchanged when it has no literal `HINTS` or `keep` is None."""
    import ast

    if keep is None:
        return source

    tree = ast.parse(source)
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "HINTS" and node.value is not None:
            hints = ast.literal_eval(node.value)
            kept = {exercise: tuple(levels[:keep] if keep >= 0 else levels[:max(1, len(levels) + keep)])
                    for exercise, levels in hints.items()}
            lines = source.splitlines(keepends=True)
            start = sum(len(line) for line in lines[:node.lineno - 1]) + node.col_offset
            end = sum(len(line) for line in lines[:node.end_lineno - 1]) + node.end_col_offset
            body = "".join(f"    {exercise!r}: (\n" + "".join(f"        {level!r},\n" for level in levels) + "    ),\n"
                           for exercise, levels in kept.items())
            return source[:start] + f"HINTS: dict[str, tuple[str, ...]] = {{\n{body}}}" + source[end:]
    return source


KERNEL_SIDE_CALLS = ("course_state",)
"""Checker helpers whose first argument (a function of the checker module) runs in the submission's kernel."""


def kernel_side(source: str) -> str:
    """A lesson's checker module as a submission's kernel gets it: its imports, its `HINTS`, and only the functions
    the checks run in the kernel (the first argument of `KERNEL_SIDE_CALLS`, with what they use of the module);
    no checker and no helper that could answer an exercise."""
    import ast

    tree = ast.parse(source)
    named: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            named[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(target, ast.Name):
                    named[target.id] = node
    wanted = [call.args[0].id for call in ast.walk(tree) if isinstance(call, ast.Call) and call.args
              and isinstance(call.func, ast.Name) and call.func.id in KERNEL_SIDE_CALLS
              and isinstance(call.args[0], ast.Name) and call.args[0].id in named]
    kept: set[int] = set()
    while wanted:
        node = named[wanted.pop()]
        if id(node) in kept:
            continue
        kept.add(id(node))
        wanted += [used.id for used in ast.walk(node) if isinstance(used, ast.Name) and used.id in named]
    body = [node for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in kept or node is named.get("HINTS")
            or (node is tree.body[0] and isinstance(node, ast.Expr))]
    return ast.unparse(ast.Module(body=body, type_ignores=[])) + "\n"


def _module_of(relative: Path) -> str:
    """The dotted name of the course_lib module at `relative` (a path inside the package)."""
    return ".".join(("course_lib", *relative.with_suffix("").parts))


_FORWARD = """from course_lib.workbook.boundary import forward_call as _course_forward_call
return _course_forward_call({path!r}, ({args}), {{{kwargs}}})
"""


def forwarding_stubs(source: str, module_name: str) -> str:
    """A course module's source as a submission's kernel gets it: each function of `boundary.FORWARDED` keeps its
    signature and docstring but its body only sends the call to the grader (`boundary.forward_call`), and the data
    only they use (`boundary.WITHHELD`) is left out. The kernel holds no body of theirs, so no reload, fresh import
    or exec of the module's file gets one back."""
    import ast

    from course_lib.workbook import boundary

    names = boundary.FORWARDED.get(module_name, ())
    tree = ast.parse(source)
    withheld = boundary.WITHHELD.get(module_name, ())
    tree.body = [node for node in tree.body if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(target, ast.Name) and target.id in withheld
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])))]
    found = set()
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name in names):
            continue
        found.add(node.name)
        spec = node.args
        positional = [arg.arg for arg in (*spec.posonlyargs, *spec.args)]
        args = "".join(f"{name}, " for name in positional) + (f"*{spec.vararg.arg}, " if spec.vararg else "")
        kwargs = "".join(f"{arg.arg!r}: {arg.arg}, " for arg in spec.kwonlyargs) + (
            f"**{spec.kwarg.arg}" if spec.kwarg else "")
        doc = [node.body[0]] if ast.get_docstring(node) is not None else []
        node.body = doc + ast.parse(_FORWARD.format(path=f"{module_name}:{node.name}", args=args,
                                                    kwargs=kwargs)).body
    if found != set(names):
        raise ValueError(f"{module_name} has no module-level function {sorted(set(names) - found)}")
    return ast.unparse(tree) + "\n"


_CUT_BODY = """from mcp.server.mcpserver.exceptions import ToolError as _CourseCut
raise _CourseCut({message!r})
"""
"""A cut body: a tool error (so a client sees why), raised however the code was reached."""


def _is_tool(node) -> bool:
    """A function registered as a tool by its decorator: `@tool(server, ...)`, `@server.tool(...)`, `@server.tool`."""
    import ast

    for decorator in node.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (isinstance(called, ast.Name) and called.id == "tool") or (
                isinstance(called, ast.Attribute) and called.attr == "tool"):
            return True
    return False


def cut_bodies(source: str, module_name: str) -> str:
    """A course module's source as a submission's kernel gets it: each lesson tool of a module under
    `boundary.LESSON_TOOLS_CUT` (not `LESSON_TOOLS_KEPT`) keeps its signature, decorators and docstring (a tool
    still lists as the course's) but its body only raises: no answer of the course's runs in a graded kernel, however
    it is reached. Each function or method of `boundary.CUT` loses its docstring too: it is an exercise's answer,
    and for 6.1's search_tickets the definition is the whole answer (red team rtgrade9 F3: its docstring read at run
    time, 5 words added, passed 6.1)."""
    import ast

    from course_lib.workbook import boundary

    wanted = set(boundary.CUT.get(module_name, ()))
    tools = module_name.startswith(boundary.LESSON_TOOLS_CUT) and module_name not in boundary.LESSON_TOOLS_KEPT
    tree = ast.parse(source)
    found: set[str] = set()

    def visit(body: list, prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{node.name}"
                if name in wanted or (tools and _is_tool(node)):
                    found.add(name)
                    short = f"{module_name.rpartition('.')[2]}.{name.split('.<locals>.')[-1]}"
                    message = f"{short} is the course's own: no body while graded"
                    doc = [node.body[0]] if ast.get_docstring(node) is not None and name not in wanted else []
                    node.body = doc + ast.parse(_CUT_BODY.format(message=message)).body
                else:
                    visit(node.body, f"{name}.<locals>.")

    visit(tree.body, "")
    if not wanted <= found:
        raise ValueError(f"{module_name} has no {sorted(wanted - found)} to cut")
    return ast.unparse(tree) + "\n"


def _kernel_module(module_name: str) -> bool:
    """Whether the kernel's copy of this course module differs from the course's (`forwarding_stubs`, `cut_bodies`)."""
    from course_lib.workbook import boundary

    return module_name in boundary.FORWARDED or module_name in boundary.WITHHELD or module_name in boundary.CUT or (
        module_name.startswith(boundary.LESSON_TOOLS_CUT) and module_name not in boundary.LESSON_TOOLS_KEPT)


HELD_OUT_CASES = ("heldout_*.toml", "tasks_heldout_*.toml")
"""The held-out case sets in course_lib/evals/cases (split "held-out" whole): a submission's kernel gets none, so no
answer to 8.1 or 8.3 can be cut from them. The graded exercise cells never load one; lesson 08's own cells do, run
from the course (or a student release), never in a graded kernel.

A student release keeps them, on purpose: lesson 08 shows held-out evaluation on them, in front of the student. So
no grade depends on a student not having seen them: 8.1 and 8.3 refuse any case that is one of them (their rule
`own`, read from the grader's copy), and 8.2 reports its held-out score (incident_notes' held-out split, in the
release too) as feedback, never as a bar. "Held out" in the course means held out from the tuning a lesson does,
not secret from the student."""


def copy_package(target: Path, hints: int | None = HINTS_KEPT_DEFAULT, kernel: bool = False) -> None:
    """The running `course_lib` copied to `target` as regular files, each checker module's hints cut to `hints`
    levels (what students get); for a submission's kernel (`kernel`) each lesson's checker module also cut to what
    the checks run there (`kernel_side`), each forwarded course function (`boundary.FORWARDED`) only a stub that
    sends its calls to the grader (`forwarding_stubs`), each lesson tool and each answer of `boundary.CUT` a body that
    only raises (`cut_bodies`), and no held-out case set (`HELD_OUT_CASES`)."""
    import re

    from course_lib.workbook import boundary

    package = _package(target)
    for relative in _files(package, HELD_OUT_CASES if kernel else ()):
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        if relative.parts[0] == "checks" and relative.suffix == ".py":
            text = trimmed_hints((package / relative).read_text(encoding="utf-8"), hints)
            if kernel and re.fullmatch(r"l\d\d\.py", relative.name):
                text = kernel_side(text)
            destination.write_text(text, encoding="utf-8")
        elif kernel and relative.suffix == ".py" and _kernel_module(_module_of(relative)):
            text = (package / relative).read_text(encoding="utf-8")
            text = forwarding_stubs(text, _module_of(relative))
            destination.write_text(cut_bodies(text, _module_of(relative)), encoding="utf-8")
        else:
            shutil.copy2(package / relative, destination, follow_symlinks=False)


def pin_text(texts: dict[str, str]) -> str:
    """The reference hashes a release pins into its course_lib (`runner.PINS`)."""
    return json.dumps({name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in sorted(texts.items())},
                      indent=1) + "\n"


def _package(root: Path) -> Path:
    import course_lib

    return Path(course_lib.__file__).resolve().parent


def references(root: Path) -> dict[str, str]:
    """Each exercise notebook's file name and its text as the course builds it from solutions/."""
    return {pair.exercise.name: build.render(build.student_version(build.read(pair.solution)))
            for pair in build.notebook_pairs(root)}


def student_pyproject(text: str) -> str:
    """The course's pyproject.toml as a release ships it: the student install only (no `MAINTAINERS_EXTRAS`, no
    `MAINTAINERS_TABLES`), its build files kept under `BUILD_FILES_UNDER`."""
    import re
    import tomllib

    kept, table, skipping = [], "", False
    for line in text.splitlines(keepends=True):
        header = re.fullmatch(r"\[([\w.-]+)\]\s*", line)
        if header:
            table, skipping = header.group(1), header.group(1) in MAINTAINERS_TABLES
        elif table == "project.optional-dependencies":
            extra = re.match(r"([\w-]+)\s*=", line)
            if extra:
                skipping = extra.group(1) in MAINTAINERS_EXTRAS
        if not skipping:
            kept.append(line)
    result = "".join(kept).rstrip("\n") + (
        "\n\n# setuptools' build files go under .course/, not beside your notebooks\n"
        f'[tool.distutils.egg_info]\negg_base = "{BUILD_FILES_UNDER}"\n\n'
        f'[tool.distutils.build]\nbuild_base = "{BUILD_FILES_UNDER}/build"\n')
    parsed = tomllib.loads(result)  # a bad cut is the course's bug, never a broken file in a release
    extras = parsed["project"].get("optional-dependencies", {})
    if set(extras) & set(MAINTAINERS_EXTRAS) or "pytest" in parsed.get("tool", {}):
        raise ValueError("pyproject.toml: the maintainers' extras or test settings survived the cut")
    return result


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


def release(root: Path, out: Path, hints: int = HINTS_KEPT_DEFAULT, force: bool = False) -> list[Path]:
    """Write the student release of the course at `root` into the new folder `out`, with `hints` hint levels per
    exercise (`trimmed_hints`); the files written.

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
        if os.path.lexists(root / name):
            _copy(root / name, out / name)
    (out / "README.md").write_text(student_readme(), encoding="utf-8")
    if os.path.lexists(root / "pyproject.toml"):
        (out / "pyproject.toml").write_text(student_pyproject(build.regular_bytes(
            root / "pyproject.toml", "pyproject.toml", 1 << 20).decode("utf-8")), encoding="utf-8")
    for folder in FOLDERS + ENGINE_FOLDERS:
        if os.path.lexists(root / folder):
            _copy(root / folder, out / folder, SKIPPED_IN.get(folder, ()))
    copy_package(out / "course_lib", hints)
    _rerun_hint_calls(out)
    kept = out / runner.REFERENCE
    kept.mkdir(parents=True)
    (out / "exercises").mkdir(exist_ok=True)
    texts = references(root)
    for name, text in texts.items():
        (kept / name).write_bytes(text.encode("utf-8"))
        (out / "exercises" / name).write_bytes(text.encode("utf-8"))
    (out / "course_lib" / "workbook" / runner.PINS.name).write_text(pin_text(texts), encoding="utf-8")
    workflow = out / CLASSROOM_WORKFLOW
    workflow.parent.mkdir(parents=True)
    shutil.copy2(TEMPLATES / "classroom.yml", workflow)
    return sorted(path for path in out.rglob("*") if path.is_file())


HINT_CALL = re.compile(r'hints\.show\("\d+\.\d+"(?:, *\d+)?\)')
"""A call that shows a hint; its saved output names the hint's level and how many there are."""


def _shows_hints(source: str) -> bool:
    """A cell that only imports `hints` and shows hints."""
    lines = [line.strip() for line in source.splitlines() if line.strip()]
    return any(HINT_CALL.fullmatch(line) for line in lines) and all(
        HINT_CALL.fullmatch(line) or line == "from course_lib import hints" for line in lines)
_SEPARATOR = "\x00 next hint cell \x00"


def _rerun_hint_calls(out: Path) -> None:
    """The saved output of every lesson cell that only calls `hints.show(...)`, printed again, in order, by the
    release's own course_lib (its hints cut to `--hints` levels): the course's output says "Hint 1 of 3" where a
    release may keep 2."""
    import subprocess
    import sys

    for path in sorted((out / "notebooks").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = [cell for cell in notebook["cells"]
                 if cell["cell_type"] == "code" and _shows_hints("".join(cell["source"]))]
        if not cells:
            continue
        script = "".join(f"{''.join(cell['source']).strip()}\nprint({_SEPARATOR!r})\n" for cell in cells)
        printed = subprocess.run([sys.executable, "-c", script], cwd=out, capture_output=True, text=True,
                                 timeout=120, env={**os.environ, "PYTHONPATH": str(out)})
        if printed.returncode != 0:
            raise UsageError(f"could not show the hints of {path.name} with the release's course_lib")
        for cell, text in zip(cells, printed.stdout.split(_SEPARATOR + "\n")):
            cell["outputs"] = [{"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}]
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


LESSONS_FILE = Path(".course") / "lessons.json"
"""In an autograder: the lessons (numbers such as "01") it grades; notebooks of other lessons are ignored."""


def lesson_numbers(given: list[str] | None) -> list[str]:
    """The lesson numbers an autograder is built for (each a lesson of the course with exercises)."""
    from course_lib.workbook import manifest

    if not given:
        raise UsageError("name the lesson this assignment grades, e.g. --lesson 01 (repeat it for a set of lessons)")
    numbers = []
    for number in given:
        lesson = manifest.lesson(number)
        if not lesson.exercises:
            raise UsageError(f"lesson {lesson.number} has no exercises to grade")
        numbers.append(lesson.number)
    return sorted(set(numbers))


def autograder_lessons(source: Path) -> set[str]:
    """The lessons the autograder in `source` grades; none when it names none (an autograder built before)."""
    try:
        data = json.loads(build.regular_bytes(source / LESSONS_FILE, LESSONS_FILE.as_posix(), 1 << 16))
    except (UsageError, build.BadFile, ValueError):
        return set()
    found = data.get("lessons") if isinstance(data, dict) else None
    return {str(number) for number in found} if isinstance(found, list) else set()


def gradescope(root: Path, out: Path, lessons: list[str] | None = None, hints: int = HINTS_KEPT_DEFAULT) -> list[str]:
    """Write Gradescope's autograder zip for lessons `lessons` of the course at `root` to `out`, the kernels'
    hints cut to `hints` levels (`trimmed_hints`); the names it holds."""
    numbers = lesson_numbers(lessons)
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
            archive.writestr(name, build.regular_bytes(root / name, name, 16 << 20))
        for relative in _files(package):
            if relative.parts[0] == "checks" and relative.suffix == ".py":
                text = trimmed_hints((package / relative).read_text(encoding="utf-8"), hints)
                archive.writestr(str(Path("course_lib") / relative), text)
            else:
                archive.write(package / relative, Path("course_lib") / relative)
        texts = {name: text for name, text in references(root).items() if name[:2] in numbers}
        for name, text in texts.items():
            archive.writestr(str(runner.REFERENCE / name), text)
        archive.writestr(str(LESSONS_FILE), json.dumps({"lessons": numbers}) + "\n")
        archive.writestr(str(Path("course_lib") / "workbook" / runner.PINS.name), pin_text(texts))
        return archive.namelist()
