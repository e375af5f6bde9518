"""Student notebooks are generated from solutions, stay in sync, and every exercise is wired to its check."""

from __future__ import annotations

import pytest

from conftest import ROOT
from course_lib.errors import BadFile
from course_lib.workbook import build, manifest
from course_lib.workbook.ids import ExerciseId


def test_exercises_are_in_sync_with_solutions():
    assert build.build(ROOT, check_only=True) == [], "run `course build` and commit exercises/"
    assert not any(build.edited(ROOT, pair.exercise) for pair in build.notebook_pairs(ROOT)), (
        f"{build.RECORD} does not match exercises/: run `course build` and commit both")


@pytest.fixture
def clone(tmp_path):
    """A copy of the course's solutions/ and exercises/ (with the record of the last build)."""
    import shutil

    for folder in ("solutions", "exercises"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def _touch_solution(root, name: str) -> None:
    """Change the text of a solution notebook, so its exercise notebook is out of date."""
    path = root / "solutions" / name
    path.write_text(path.read_text(encoding="utf-8").replace("Exercise ", "Exercise  ", 1), encoding="utf-8")


def _work_in(path) -> None:
    """What a learner does: replace the stub of the first exercise with an answer (and save, as JupyterLab does)."""
    import json

    notebook = json.loads(path.read_text(encoding="utf-8"))
    cell = next(cell for cell in notebook["cells"] if cell["metadata"].get("exercise"))
    cell["source"] = "".join(cell["source"]).replace("raise NotImplementedError(", "return 42  # mine\n    (", 1)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


LESSON = "01_bad_tool_rewrite.ipynb"


def test_build_overwrites_a_stale_notebook_and_refuses_an_edited_one_naming_it(clone):
    from course_lib.errors import UsageError

    _touch_solution(clone, LESSON)
    _touch_solution(clone, "02_results_host_can_use.ipynb")
    _work_in(clone / "exercises" / LESSON)
    mine = (clone / "exercises" / LESSON).read_text(encoding="utf-8")
    with pytest.raises(UsageError) as refused:
        build.build(clone)
    assert str(refused.value).startswith(f"exercises/{LESSON} has edits") and "--force" in str(refused.value)
    assert "02_" not in str(refused.value)  # only out of date: not named
    assert (clone / "exercises" / LESSON).read_text(encoding="utf-8") == mine  # nothing written
    assert build.build(clone, force=True) == [clone / "exercises" / LESSON,
                                              clone / "exercises" / "02_results_host_can_use.ipynb"]
    assert "# mine" not in (clone / "exercises" / LESSON).read_text(encoding="utf-8")
    _touch_solution(clone, LESSON)
    assert build.build(clone) == [clone / "exercises" / LESSON]  # the record now knows the forced copy


def test_without_a_record_a_notebook_that_was_run_or_answered_counts_as_edited(clone):
    import json

    (clone / build.RECORD).unlink()
    path = clone / "exercises" / LESSON
    assert not build.edited(clone, path)
    notebook = json.loads(path.read_text(encoding="utf-8"))
    next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")["execution_count"] = 1
    path.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")
    assert build.edited(clone, path)
    shutil_copy = (ROOT / "exercises" / LESSON).read_text(encoding="utf-8")
    path.write_text(shutil_copy, encoding="utf-8")
    _work_in(path)
    assert build.edited(clone, path)


def test_every_exercise_has_metadata_and_a_check_cell():
    for found in manifest.lessons():
        if not found.exercises:
            continue
        pairs = build.exercise_pairs(build.read(found.notebook(ROOT, "solutions")))
        assert [pair.exercise.id for pair in pairs] == list(found.exercises)
        for pair in pairs:
            exercise = pair.exercise
            assert exercise.kind and exercise.tier in (1, 2, 3) and exercise.minutes > 0 and exercise.todo


def test_stub_replaces_each_region_at_its_indentation():
    exercise = build.Exercise(ExerciseId(9, 9), "kind", 1, 1, 'say "hi"')
    source = "def f():\n    x = 1\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION\n"
    assert build.stub(source, exercise) == (
        "def f():\n    x = 1\n    raise NotImplementedError(\"Exercise 9.9: say \\\"hi\\\"\")\n")


def test_a_long_stub_is_wrapped_at_word_boundaries_and_keeps_its_message():
    todo = "write the tool with a bounded argument, an enum and a description that says when not to use it"
    exercise = build.Exercise(ExerciseId(9, 9), "kind", 1, 1, todo)
    source = build.stub("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n", exercise)
    assert all(len(line) <= build.STUB_WIDTH for line in source.splitlines())
    namespace: dict = {}
    exec(source, namespace)
    with pytest.raises(NotImplementedError, match=f"^Exercise 9.9: {todo}$"):
        namespace["f"]()


@pytest.mark.parametrize("source, problem", [
    ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n", "inside a function body"),
    ("def f():\n    ### BEGIN SOLUTION\n    return 1\n", "unbalanced"),
])
def test_stub_refuses_regions_it_cannot_turn_into_a_stub(source, problem):
    with pytest.raises(BadFile, match=problem):
        build.stub(source, build.Exercise(ExerciseId(9, 9), "", 1, 1, "x"))


def test_an_exercise_without_its_check_cell_is_refused():
    import nbformat

    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n")
    cell.metadata["exercise"] = {"id": "9.9", "todo": "x"}
    check = nbformat.v4.new_code_cell("checks.ex_09_8(f)")
    check.metadata["tags"] = ["check"]
    notebook.cells = [cell, check]
    with pytest.raises(BadFile, match=r"exercise 9.9: the next check cell must call checks.ex_09_9"):
        build.student_version(notebook)


def test_a_line_of_given_code_between_two_solution_regions_survives_course_build(tmp_path):
    """A greedy region pattern would swallow everything from the first BEGIN to the last END."""
    import nbformat

    from course_lib.workbook import build as building

    source = ("def f(x):\n    ### BEGIN SOLUTION\n    y = x + 1\n    ### END SOLUTION\n"
              "    given = 'this line is the exercise text'\n"
              "    ### BEGIN SOLUTION\n    return y * 2\n    ### END SOLUTION\n")
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["exercise"] = {"id": "0.1", "todo": "double it"}
    check = nbformat.v4.new_code_cell("# CHECK: do not edit\nchecks.ex_00_1(f)")
    check.metadata["tags"] = ["check"]
    for folder in ("solutions", "exercises"):
        (tmp_path / folder).mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[cell, check]), tmp_path / "solutions" / "00_start_here.ipynb")
    assert building.build(tmp_path) == [tmp_path / "exercises" / "00_start_here.ipynb"]
    stubbed = nbformat.read(tmp_path / "exercises" / "00_start_here.ipynb", as_version=4).cells[0].source
    stub = '    raise NotImplementedError("Exercise 0.1: double it")'
    assert stubbed == f"def f(x):\n{stub}\n    given = 'this line is the exercise text'\n{stub}\n"


def test_every_stub_message_says_what_its_check_wants_and_cites_no_rules_the_notebook_does_not_list():
    import json
    import re

    from course_lib import checks
    from course_lib.workbook.ids import ExerciseId

    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        prose = " ".join(" ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")
        for cell in cells:
            meta = cell.get("metadata", {}).get("exercise")
            if not meta:
                continue
            todo = meta["todo"]
            for counted in re.findall(r"\b(?:two|three|four|five|six|seven) (?:rules|steps|cases)\b", todo):
                assert counted in prose, (meta["id"], counted)  # "the team's four rules" must be listed somewhere
            rules = " ".join(rule.states for rule in checks.registered(ExerciseId.parse(meta["id"])).rules)
            if "any casing" in rules:  # the check accepts any casing: the stub must not ask for one
                assert "any casing" in todo and not re.search(r"verb_object|snake_case|camelCase", todo), meta["id"]
