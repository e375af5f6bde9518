"""Answers checked across the grading boundary: defined in a confined kernel, judged by the checker here."""

from __future__ import annotations

from pathlib import Path

from course_lib.workbook.ids import ExerciseId


def define(running, name: str, path: Path) -> None:
    """Run the answer file `path` as a module in the kernel and bind its `answer` there as `name`.

    The file's text is sent (the kernel cannot read tests/), and registered with linecache so that
    `inspect.getsource` works on it there as it does here; like a module loaded from its file here, it is
    not in `sys.modules`.
    """
    module = f"answer_{path.stem}"
    code = (
        "import linecache as _lc, types as _types\n"
        f"_text = {path.read_text(encoding='utf-8')!r}\n"
        f"_module = _types.ModuleType({module!r})\n"
        f"_module.__file__ = {str(path)!r}\n"
        f"_lc.cache[{str(path)!r}] = (len(_text), None, _text.splitlines(True), {str(path)!r})\n"
        f"exec(compile(_text, {str(path)!r}, 'exec'), _module.__dict__)\n"
        f"{name} = _module.answer\n"
    )
    result = running.run(code, 120)
    assert result.status == "ok", (path.name, result)


def check_across(running, bridge, path: Path, timeout: float = 120):
    """The outcome of the checker of the exercise `path` answers, on that answer across the boundary."""
    from course_lib.workbook import runner

    exercise, _ = ExerciseId.from_answer_file(path.stem)
    define(running, f"kept_{path.stem}", path)
    bridge.ran.append(path.read_text(encoding="utf-8"))  # the code the grader sent the kernel, as a run records it
    return runner.check_answer(exercise, [f"kept_{path.stem}"], running, bridge, timeout)
