"""Every checker can fail: unsolved notebooks fail at each check cell, kept wrong answers are rejected, kept
right answers pass; checkers are registered by id and reachable by name and tab completion."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from conftest import ROOT, errors_of, run_notebook
from course_lib import checks
from course_lib.errors import CheckFailed, ExerciseNotDone, plain
from course_lib.workbook import build, manifest
from course_lib.workbook.ids import ExerciseId

UNSOLVED = [found.notebook(ROOT, "exercises") for found in manifest.lessons() if found.exercises]
ANSWERS = ROOT / manifest.ANSWERS


def kept(verdict: str) -> list[Path]:
    return sorted((ANSWERS / verdict).glob("ex_*.py"))


def load(path: Path):
    """A kept answer's module and the exercise its file name says it answers."""
    exercise, _ = ExerciseId.from_answer_file(path.stem)
    spec = importlib.util.spec_from_file_location(f"answer_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, exercise


@pytest.mark.parametrize("path", UNSOLVED, ids=lambda p: p.name)
def test_unsolved_notebook_fails_at_every_check_cell_and_nowhere_else(path):
    notebook = run_notebook(path)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    check_cells = {pair.check_cell: pair.exercise.id for pair in build.exercise_pairs(notebook)}
    for index, cell in enumerate(code):
        errors = errors_of(cell)
        if index in check_cells:
            assert errors and errors[0].ename == "ExerciseNotDone", cell.source
            assert f"Exercise {check_cells[index]} is not done yet" in errors[0].evalue
            assert "NotImplementedError" in errors[0].evalue
            assert_status_not_traceback(errors[0], "⏳", check_cells[index])
        else:
            assert not errors, f"{cell.source[:80]!r} raised {errors[0].ename if errors else ''}"
    assert check_cells
    summary = code[-1]  # the closing summary cell counts what passed in this kernel: nothing yet
    assert "summary" in summary.metadata.get("tags", [])
    first = check_cells[min(check_cells)]
    said = "".join(output.get("text", "") for output in summary.outputs)
    assert said.startswith(f"⏳ 0 of {len(check_cells)} done; next: {first} "), said


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def assert_status_not_traceback(error, symbol: str, exercise) -> list[str]:
    """An error output of a check cell shows the check's status (symbol, message, hint line), not a traceback;
    its ename and evalue stay what nbval and a reader of the output expect. The status lines, colours removed."""
    lines = [ANSI.sub("", line) for line in error.traceback]
    joined = "\n".join(lines)
    assert lines[0].startswith(f"{symbol} Exercise {exercise}"), lines
    assert lines[-1] == f'   Stuck? hints.show("{exercise}") (in a terminal: .venv/bin/course hint {exercise})', lines
    assert not any(word in joined for word in ("Traceback", "File ", "site-packages", "course_lib", "----")), joined
    assert all(len(line) <= 100 for line in lines), lines  # wrapped at spaces: JupyterLab breaks words anywhere
    said = " ".join(line.strip() for line in lines[:-1])[len(symbol) + 1:]
    told = error.evalue.replace(f' Open hints.show("{exercise}") for a hint.', "").replace("\n", " ")
    assert said == plain(told), (said, error.evalue)  # the plain-text status quotes `code` as 'code'
    return lines


def test_a_failed_check_in_a_notebook_shows_its_status_not_a_traceback(tmp_path):
    """A kept wrong answer to 1.2 in a notebook run by nbclient (as nbval runs it): the check cell fails with an
    error output whose shown lines are the ❌ status, what to change and where the hint is."""
    import nbformat

    exercise = ExerciseId.parse("1.2")
    source = nbformat.read(ROOT / "exercises" / "01_bad_tool_rewrite.ipynb", as_version=4)
    setup = next(cell for cell in source.cells if "setup" in cell.metadata.get("tags", []))
    check = next(cell for cell in source.cells if cell.source.startswith("# CHECK") and "ex_01_2" in cell.source)
    wrong = (ANSWERS / "wrong" / "ex_01_2_renamed_tool.py").read_text(encoding="utf-8")
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(setup.source),
        nbformat.v4.new_code_cell(wrong + "\nbuild_bounded_forecast_server = answer\n"),
        nbformat.v4.new_code_cell(check.source)])
    path = tmp_path / "wrong.ipynb"
    nbformat.write(notebook, path)
    ran = run_notebook(path)
    assert [len(errors_of(cell)) for cell in ran.cells] == [0, 0, 1]
    error = errors_of(ran.cells[2])[0]
    assert error.ename == "CheckFailed" and error.evalue.startswith("Exercise 1.2: expected ")
    lines = assert_status_not_traceback(error, "❌", exercise)
    assert "keep one tool named get_daily_forecast" in " ".join(lines)
    assert error.traceback[0].startswith("\x1b[1m❌ ")  # the status in bold, as the ⏳ and ✅ boxes stand out


def test_every_kept_answer_answers_an_exercise_of_the_course():
    known = set(manifest.exercise_ids())
    assert [path.name for path in kept("wrong") + kept("right")
            if (ExerciseId.from_answer_file(path.stem) or (None,))[0] not in known] == []


@pytest.mark.parametrize("path", kept("right"), ids=lambda p: p.stem)
def test_kept_right_answer_passes(path, capsys):
    module, exercise = load(path)
    checks.registered(exercise)(module.answer)
    assert capsys.readouterr().out.startswith(f"✅ Exercise {exercise} passed: ")


def test_checkers_are_registered_by_id_and_listed_for_tab_completion():
    names = [exercise.checker_name for exercise in manifest.exercise_ids()]
    assert set(names) <= set(dir(checks))
    for exercise in manifest.exercise_ids():
        assert getattr(checks, exercise.checker_name).exercise == exercise
    with pytest.raises(AttributeError, match="there is no exercise 1.9"):
        checks.ex_01_9
    with pytest.raises(AttributeError):
        checks.not_a_checker


def test_a_stub_is_reported_as_not_done():
    def stub():
        raise NotImplementedError("Exercise 1.1: register one tool")

    with pytest.raises(ExerciseNotDone, match=r"Exercise 1.1 is not done yet: register one tool\.") as raised:
        checks.ex_01_1(stub)
    assert raised.value.exercise == "1.1"


def test_a_non_function_or_missing_return_is_a_clear_failure():
    with pytest.raises(CheckFailed, match="pass the function itself"):
        checks.ex_01_4("not a function")
    with pytest.raises(CheckFailed, match="forget `return server`"):
        checks.ex_01_1(lambda: None)


def test_in_a_learners_jupyterlab_kernel_a_failed_check_shows_its_status_instead_of_raising(monkeypatch, capsys):
    from course_lib.checks import core
    from course_lib.workbook import outcomes

    shown_bundles: list[dict] = []
    monkeypatch.setattr(core, "_display", shown_bundles.append)
    monkeypatch.setenv("JPY_SESSION_NAME", "exercises/01_bad_tool_rewrite.ipynb")
    monkeypatch.delenv(outcomes.ENV, raising=False)
    checks.ex_01_4(lambda name: True)  # wrong, but Run All goes on
    printed = capsys.readouterr()
    assert printed.out == printed.err == ""
    assert shown_bundles[0]["text/plain"].startswith("❌ Exercise 1.4: expected ")
    monkeypatch.setenv(outcomes.ENV, str(ROOT / "no-such-dir" / "x"))  # a runner collecting outcomes: strict
    monkeypatch.setattr(outcomes, "record", lambda outcome: None)
    with pytest.raises(CheckFailed):
        checks.ex_01_4(lambda name: True)


def test_in_a_learners_jupyterlab_kernel_a_pass_is_styled_and_wraps_at_spaces(monkeypatch, capsys):
    """JupyterLab breaks printed lines inside words; a pass line, often long, is shown as a styled status."""
    from course_lib.checks import core
    from course_lib.workbook import outcomes

    shown_bundles: list[dict] = []
    monkeypatch.setattr(core, "_display", shown_bundles.append)
    monkeypatch.setenv("JPY_SESSION_NAME", "exercises/01_bad_tool_rewrite.ipynb")
    monkeypatch.delenv(outcomes.ENV, raising=False)
    checks.ex_01_4(lambda name: re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", name) is not None)
    assert capsys.readouterr().out == ""
    assert shown_bundles[0]["text/plain"].startswith("✅ Exercise 1.4 passed: ")
    assert "word-break:normal" in shown_bundles[0]["text/html"] and "break-all" not in shown_bundles[0]["text/html"]
    monkeypatch.delenv("JPY_SESSION_NAME")  # any other kernel (nbval, a script): the plain line, as stored
    checks.ex_01_4(lambda name: re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", name) is not None)
    assert capsys.readouterr().out.startswith("✅ Exercise 1.4 passed: ")


def test_a_notebook_kernel_completes_checks_dot_tab_to_every_checker():
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        client.execute_interactive("from course_lib import checks", timeout=60)
        client.complete("checks.ex_0", len("checks.ex_0"))
        matches = client.get_shell_msg(timeout=60)["content"]["matches"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert {name.rsplit(".", 1)[-1] for name in matches} >= {e.checker_name for e in manifest.exercise_ids()}


def _exercise_text(exercise: ExerciseId) -> str:
    """The markdown a learner reads for an exercise: from the previous check cell up to its exercise cell."""
    notebook = build.read(manifest.lesson_of(exercise).notebook(ROOT, "solutions"))
    text, collecting = [], False
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and f"Exercise {exercise} " in cell.source:
            collecting = True
        if collecting and cell.cell_type == "markdown":
            text.append(cell.source)
        if collecting and build.exercise_of(cell) is not None:
            break
    return "\n".join(text)


def _normal(text: str) -> str:
    return " ".join(text.replace("`", "").split())


VERIFIES = "The check verifies:"
REQUIREMENT = re.compile(r"\b(?:must|only|never|same|exactly|always|should|required?|needs? to|do not|don't)\b",
                         re.I)
"""Words that state a requirement: in an exercise text they belong in the check's list, where a rule covers them."""


def _split_text(text: str) -> tuple[list[str], str]:
    """(the bullets of the "The check verifies:" list, the prose around it, headings left out)."""
    before, found, after = text.partition(VERIFIES)
    assert found, "no 'The check verifies:' list"
    lines = after.splitlines()[1:]
    ends = next((i for i, line in enumerate(lines) if not line.startswith("* ")), len(lines))
    bullets = [line[2:].rstrip(";.") for line in lines[:ends]]
    prose = [line for line in (before + "\n" + "\n".join(lines[ends:])).splitlines() if not line.startswith("#")]
    return bullets, "\n".join(prose)


def requirements_in_prose(prose: str) -> list[str]:
    """Sentences of prose that state a requirement; quoted words (`code`, "text", 'text') are examples, not it."""
    plain = re.sub(r"`[^`]*`", "", prose)
    plain = re.sub(r'"[^"]*"', "", plain)
    plain = re.sub(r"(?<![\w])'[^']*'(?![\w])", "", plain)
    return [sentence for sentence in re.split(r"(?<=[.:!?])\s+", " ".join(plain.split()))
            if REQUIREMENT.search(sentence)]


def test_requirements_in_prose_finds_a_requirement_and_leaves_examples_alone():
    assert requirements_in_prose("Write f(). It must return a list. Say 'do not' or `never`.") == \
        ["It must return a list."]
    bullets, prose = _split_text("Intro.\n\nThe check verifies:\n* a;\n* b.\n\nAfter it.")
    assert bullets == ["a", "b"] and prose.split() == ["Intro.", "After", "it."]


@pytest.mark.parametrize("exercise", manifest.exercise_ids(), ids=str)
def test_every_rule_of_an_exercise_is_stated_to_the_learner(exercise):
    """The check's list is the spec, rule for rule, and the prose around it states no requirement of its own."""
    rules = checks.registered(exercise).rules
    assert rules, f"exercise {exercise} has no specification"
    bullets, prose = _split_text(_exercise_text(exercise))
    stated = [_normal(bullet) for bullet in bullets]
    missing = [rule.name for rule in rules if _normal(rule.states) not in stated]
    assert missing == [], f"exercise {exercise}: the check's list does not state {missing}"
    uncovered = [bullet for bullet in stated if bullet not in {_normal(rule.states) for rule in rules}]
    assert uncovered == [], f"exercise {exercise}: bullets no rule checks: {uncovered}"
    assert requirements_in_prose(prose) == [], f"exercise {exercise}: a requirement outside the check's list"


UNREACHED_FIRST = {
    ("9.3", "eras"): "a callback can tell the eras apart only through ctx or a form title, and the direct first "
                     "call (no ctx, no title) fails such a callback under its callback rule first",
}
"""Rules kept in a spec (they are stated to the learner) that no answer can fail first, and why."""


@pytest.mark.parametrize("exercise", manifest.exercise_ids(), ids=str)
def test_kept_wrong_answers_are_rejected_with_their_hint_and_reach_every_rule(exercise):
    """Each kept wrong answer fails with its expected words (and without its NOT_SAID words: a rule it keeps,
    which a message must not blame); together they fail every rule of the spec first (except the rules in
    UNREACHED_FIRST). Each answer runs once, for both claims."""
    reached = set()
    for path in kept("wrong"):
        if ExerciseId.from_answer_file(path.stem)[0] != exercise:
            continue
        module, _ = load(path)
        with pytest.raises(CheckFailed) as failure:
            checks.registered(exercise)(module.answer)
        message = str(failure.value)
        assert message.startswith(f"Exercise {exercise}: "), path.stem
        expected = module.EXPECT if isinstance(module.EXPECT, tuple) else (module.EXPECT,)  # a tuple: any of them
        assert any(words in message for words in expected) and exercise.hint_call in message, (path.stem, message)
        assert [words for words in getattr(module, "NOT_SAID", ()) if words in message] == [], (path.stem, message)
        lines = message.split("\n")  # one line, or a lead line and one "• " line per broken rule
        assert len(lines) == 1 + len(getattr(failure.value, "failures", ())), path.stem
        assert all(line.startswith("• Expected ") for line in lines[1:]), path.stem
        assert failure.value.exercise == str(exercise) and failure.value.hint == exercise.hint_call, path.stem
        reached.add(failure.value.rule)
    unreached = {rule.name for rule in checks.registered(exercise).rules} - reached
    allowed = {rule for known, rule in UNREACHED_FIRST if known == str(exercise)}
    assert unreached == allowed, f"rules of {exercise} no kept wrong answer fails first: add one, or say why here"


@pytest.mark.parametrize("lesson", [found for found in manifest.lessons() if found.exercises], ids=lambda l: l.number)
def test_every_rule_a_checker_names_is_in_its_spec(lesson):
    """A rule name that is not in the spec would silently become its own text; each must be a real rule."""
    import ast
    import importlib
    import inspect

    from course_lib.checks import core

    module = importlib.import_module(lesson.checker_module)
    tree = ast.parse(inspect.getsource(module))
    position = {"require": 1, "require_deliberate": 2, "fail": 0}
    named = {node.args[position[node.func.id]].value for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") in position
             and len(node.args) > position[node.func.id]
             and isinstance(node.args[position[node.func.id]], ast.Constant)
             and isinstance(node.args[position[node.func.id]].value, str)}
    known = {rule.name for exercise, rules in core.SPECS.items() if exercise.lesson == int(lesson.number)
             for rule in rules.values()}
    assert named - known == set(), f"lesson {lesson.number} names rules its specs lack"
