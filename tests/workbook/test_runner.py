"""`runner.check`: the notebook runs in a confined kernel, the course's checkers run here, and each exercise's
outcome is computed and kept only here; setup and check cells come from the course."""

from __future__ import annotations

import copy

import nbformat
import pytest

from conftest import ROOT
from course_lib.workbook import build, outcomes, runner

SOLVED = ROOT / "solutions" / "00_start_here.ipynb"


def reference(stem: str = "00_start_here"):
    return build.student_version(build.read(ROOT / "solutions" / f"{stem}.ipynb"))


def _variant(tmp_path, edit, source=SOLVED):
    notebook = nbformat.read(source, as_version=4)
    edit(notebook)
    path = tmp_path / source.name
    nbformat.write(notebook, path)
    return path


def _cell(notebook, tag=None, exercise=None):
    for cell in notebook.cells:
        if tag and tag in cell.metadata.get("tags", []):
            return cell
        if exercise and cell.metadata.get("exercise", {}).get("id") == exercise:
            return cell
    raise LookupError(tag or exercise)


def test_a_solved_notebook_reports_the_checks_own_pass_line():
    (outcome,) = runner.check(SOLVED, reference=reference())
    assert (outcome.exercise, outcome.status) == ("0.1", "passed")
    assert outcome.message.startswith("bounds() reads minimum and maximum")


def test_an_unsolved_notebook_reports_not_done_with_the_hint():
    (outcome,) = runner.check(ROOT / "exercises" / "00_start_here.ipynb", reference=reference())
    assert (outcome.exercise, outcome.status, outcome.hint) == ("0.1", "not done", 'hints.show("0.1")')
    assert outcome.message.startswith("Exercise 0.1 is not done yet: return (minimum, maximum)")


def test_a_wrong_answer_reports_the_failed_rule(tmp_path):
    def wrong(notebook):
        _cell(notebook, exercise="0.1").source = "def bounds(definition, parameter):\n    return (None, None)\n"

    (outcome,) = runner.check(_variant(tmp_path, wrong), reference=reference())
    assert outcome.status == "failed" and outcome.rule and outcome.message.startswith("Exercise 0.1: expected ")


def test_an_answer_whose_cell_raised_says_which_error_left_it_undefined(tmp_path):
    def broken(notebook):
        _cell(notebook, exercise="0.1").source = "def bounds(definition, parameter)\n    return None\n"  # no colon

    (outcome,) = runner.check(_variant(tmp_path, broken), reference=reference())
    assert (outcome.status, outcome.message) == ("failed", (
        "Exercise 0.1: the cell above the check raised SyntaxError: expected ':' (line 1), so bounds is "
        "not defined: fix that cell, run it, then run the check again."))


def test_a_check_whose_exercise_cell_never_ran_says_to_run_it_first(tmp_path):
    """The exercise cell moved below its check: the check is "not done", with what to run, never a NameError."""
    def moved(notebook):
        exercise = _cell(notebook, exercise="0.1")
        notebook.cells.remove(exercise)
        notebook.cells.append(exercise)

    (outcome,) = runner.check(_variant(tmp_path, moved), reference=reference())
    assert (outcome.status, outcome.message) == (
        "not done", "Exercise 0.1: run the exercise cell above first (bounds is not defined yet).")


def test_setup_and_check_cells_come_from_the_course(tmp_path):
    def tampered(notebook):
        _cell(notebook, tag="setup").source = "raise SystemExit('no setup for you')"
        _cell(notebook, tag="check").source = "print('✅ Exercise 0.1 passed: trust me')"

    (outcome,) = runner.check(_variant(tmp_path, tampered), reference=reference())
    assert outcome.status == "edited"
    assert outcome.message.startswith("the check cell was changed, so the course's check ran in its place (passed: "
                                      "bounds() reads minimum and maximum")


def test_an_edited_check_cells_message_ends_its_inner_sentence_once(tmp_path):
    """Walkthrough 5, N1: "(not done: … was not defined when the check ran.)." The status the course's check gave
    stands in the parenthesis without its own full stop."""
    def tampered(notebook):
        _cell(notebook, tag="check").source = "print('done')"

    (outcome,) = runner.check(_variant(tmp_path, tampered, ROOT / "exercises" / "00_start_here.ipynb"),
                              reference=reference())
    assert outcome.status == "edited" and "(not done: " in outcome.message, outcome.message
    assert ".)." not in outcome.message and outcome.message.count(". An edited check cell") == 1, outcome.message


def test_a_check_cell_edited_in_its_comments_only_keeps_its_credit_and_says_the_edit_was_ignored(tmp_path):
    """The same code (comments and spacing aside) runs the same check: the exercise keeps its status, and the
    report says the check cell was edited and that the edit was ignored. A change of code is still `edited`,
    which earns nothing, and says so."""
    from course_lib.workbook import grading

    def commented(notebook):
        check = _cell(notebook, tag="check")
        check.source = check.source.replace("# CHECK: do not edit", "# CHECK: do not edit (noted!)") + "  # mine\n\n"

    def recoded(notebook):
        _cell(notebook, tag="check").source += "\nprint('extra')"

    (outcome,) = runner.check(_variant(tmp_path, commented), reference=reference())
    assert outcome.status == "passed"
    assert outcome.message.startswith("bounds() reads minimum and maximum")
    assert outcome.message.endswith(runner.COMMENTS_IGNORED)
    assert "check cell's comments or spacing were edited" in runner.COMMENTS_IGNORED
    row = grading.Row("ada", "00_start_here.ipynb", outcome)
    grading.write_csv([row], tmp_path / "grades.csv")
    assert "the edit was ignored" in (tmp_path / "grades.csv").read_text(encoding="utf-8")
    assert grading.scores([row]) == {"ada": (1, 1)}
    (other,) = runner.check(_variant(tmp_path, recoded), reference=reference())
    assert other.status == "edited" and other.message.endswith(runner.EDITED_EARNS_NOTHING)
    assert grading.scores([grading.Row("ada", "00_start_here.ipynb", other)]) == {"ada": (0, 1)}


def test_a_removed_check_cell_is_reported_for_its_exercise_and_the_others_still_count(tmp_path):
    source = ROOT / "solutions" / "01_bad_tool_rewrite.ipynb"

    def removed(notebook):
        check = next(c for c in notebook.cells if "checks.ex_01_2(" in c.source)
        notebook.cells.remove(check)

    found = runner.check(_variant(tmp_path, removed, source), reference=reference("01_bad_tool_rewrite"))
    assert [(o.exercise, o.status) for o in found] == [("1.1", "passed"), ("1.2", "edited"), ("1.3", "passed"),
                                                       ("1.4", "passed")]
    assert found[1].message.startswith("the check cell was removed, so the course's check ran in its place (passed")


def test_the_plan_keeps_the_learners_cells_and_finds_each_check(tmp_path):
    notebook = nbformat.read(ROOT / "exercises" / "01_bad_tool_rewrite.ipynb", as_version=4)
    helper = nbformat.v4.new_code_cell("def helper():\n    return 1")
    inline = _cell(notebook, exercise="1.4")
    inline.source += "\nchecks.ex_01_4(is_valid_tool_name)  # the learner's own extra call"
    untagged = next(c for c in notebook.cells if "checks.ex_01_1(" in c.source)
    untagged.metadata["tags"] = []
    notebook.cells.insert(2, helper)
    steps = runner.plan(notebook, reference("01_bad_tool_rewrite")).steps
    code = [step for step in steps if isinstance(step, str)]
    checks = [step for step in steps if isinstance(step, runner.Check)]
    assert [str(check.exercise) for check in checks] == ["1.1", "1.2", "1.3", "1.4"]
    assert [check.changed for check in checks] == ["", "", "", ""]  # 1.1's lost tag: its source says what it is
    assert helper.source in code and inline.source in code  # a learner's cell with a checker call still runs
    assert code[0] == _cell(reference("01_bad_tool_rewrite"), tag="setup").source
    assert not any("# CHECK: do not edit" in step for step in code)


def _order(steps) -> list[str]:
    """The plan's steps as a learner reads them: each check as "check 9.1" (with "moved"), each cell by its first
    line."""
    return [f"check {step.exercise}{' moved' if step.moved else ''}" if isinstance(step, runner.Check)
            else step.splitlines()[0] for step in steps]


def test_checks_run_in_the_course_order_wherever_their_check_cells_stand():
    """Red team 8: 9.2's check cell moved above 9.1's answer ran 9.2's check first (its calls of contract.diff were
    9.2's, then 9.1's answer returned them: F3), and 9.1's check cell moved to the end counted the lesson's own
    draft cell against 9.1 (L2). Each check runs after its answer and the learner's own cells below it, and
    after the checks of earlier exercises; moved, it says so. A check cell above its answer still runs there."""
    solved = nbformat.read(ROOT / "solutions" / "09_live_and_evolving.ipynb", as_version=4)
    ref = reference("09_live_and_evolving")
    plain = _order(runner.plan(solved, ref).steps)
    assert [step for step in plain if step.startswith("check")] == ["check 9.1", "check 9.2", "check 9.3"]
    cells = solved.cells
    answer_92 = _cell(solved, exercise="9.2")
    check_92 = cells[cells.index(answer_92) + 1]
    helper = nbformat.v4.new_code_cell("LIMIT = 3  # my own cell, below my answer")
    cells.insert(cells.index(_cell(solved, exercise="9.1")) + 1, helper)
    check_91 = cells.pop(cells.index(helper) + 1)
    cells.insert(cells.index(_cell(solved, tag="summary")), check_91)  # L2: 9.1's check cell at the end
    cells.remove(answer_92)
    cells.remove(check_92)
    cells.insert(cells.index(_cell(solved, tag="setup")) + 1, check_92)  # F3: 9.2 answered and checked first
    cells.insert(cells.index(check_92), answer_92)
    order = _order(runner.plan(solved, ref).steps)
    assert order.index("check 9.1 moved") == order.index(helper.source) + 1  # after the learner's own cell
    assert order.index("check 9.2 moved") == order.index("check 9.1 moved") + 1
    assert order.index("check 9.1 moved") < order.index('Priority = Literal["low", "normal", "high", "urgent"]')
    assert [step for step in order if step.startswith("check")] == ["check 9.1 moved", "check 9.2 moved", "check 9.3"]


@pytest.mark.parametrize("kept", ["def classify() -> dict[str, str]:\n    raise NotImplementedError('my turn')\n",
                                  "def classify() -> dict[str, str]:\n    return {'a': 'protocol'}  # first try\n"],
                         ids=["stub_kept", "first_try_kept"])
def test_a_pasted_copy_of_an_exercise_cell_is_checked_as_run_all_would(kept):
    """Red team 9, L4: a copy of 3.3's cell (Jupyter's copy/paste keeps its exercise id) kept above the answer, the
    stub (m1) or a first try (m2): the check ran after the first copy and said the cells were in another order. The
    copy checked is the last one above the check cell, as Run All's check sees it; the order note only when moved."""
    solved = nbformat.read(ROOT / "solutions" / "03_two_kinds_of_failure.ipynb", as_version=4)
    answer = _cell(solved, exercise="3.3")
    first = nbformat.from_dict(copy.deepcopy(dict(answer)))
    first.source = kept
    solved.cells.insert(solved.cells.index(answer), first)
    order = _order(runner.plan(solved, reference("03_two_kinds_of_failure")).steps)
    assert order.index("check 3.3") == order.index(answer.source.splitlines()[0], order.index(kept.splitlines()[0]) + 1) + 1
    assert not [step for step in order if step.endswith("moved")]


def _copy_of(cell, source: str):
    """A pasted copy of `cell` (Jupyter's copy/paste keeps its metadata, the exercise id too) holding `source`."""
    found = nbformat.from_dict(copy.deepcopy(dict(cell)))
    found.source = source
    return found


_ROW = 'def _row(order: dict) -> list:\n    return [order["order_number"], order["status"], order["expected_delivery"], ' \
       'order["items"]]\n'


def test_a_pasted_cell_of_an_earlier_exercise_or_of_the_course_keeps_the_check_where_it_stands():
    """Red team 10, L4': 2.1's answer cell copied as the start of 2.2's (it keeps id 2.1) below 2.2's stub (l5),
    and a copy of the course's example cell pasted between 2.3's answer and its helper (l7): the check ran before
    the learner's cells that follow, with an untrue "another order" note. It runs where its check cell stands; a
    copy of a later exercise's cell, or a course cell of a later section, still ends the cells before a check."""
    ref = reference("02_results_host_can_use")
    solved = nbformat.read(ROOT / "solutions" / "02_results_host_can_use.ipynb", as_version=4)
    stub = _cell(nbformat.read(ROOT / "exercises" / "02_results_host_can_use.ipynb", as_version=4), exercise="2.2")
    answer_22, answer_23 = _cell(solved, exercise="2.2"), _cell(solved, exercise="2.3")
    example = solved.cells[solved.cells.index(answer_23) - 2]
    assert example.cell_type == "code" and "exercise" not in example.metadata
    template = _copy_of(_cell(solved, exercise="2.1"), answer_22.source)  # l5
    answer_22.source = stub.source
    solved.cells.insert(solved.cells.index(answer_22) + 1, template)
    helper = nbformat.v4.new_code_cell(_ROW)  # l7
    answer_23.source = ('def order_rows(result: dict) -> list[list]:\n    if result.get("isError") or not '
                        'result.get("structuredContent"):\n        return []\n    return [_row(o) for o in '
                        'result["structuredContent"]["orders"]]\n')
    at = solved.cells.index(answer_23) + 1
    solved.cells[at:at] = [_copy_of(example, example.source), helper]
    steps = runner.plan(solved, ref).steps
    order = _order(steps)
    assert order.index("check 2.2") == steps.index(template.source) + 1 > steps.index(stub.source) + 1
    assert order.index("check 2.3") == steps.index(helper.source) + 1
    assert not [step for step in order if step.endswith("moved")]
    later = _copy_of(answer_23, answer_23.source)  # a later exercise's cell below 2.2's answer ends its cells
    solved.cells.insert(solved.cells.index(template) + 1, later)
    steps = runner.plan(solved, ref).steps
    assert _order(steps).index("check 2.2 moved") == steps.index(template.source) + 1


def test_a_kernel_that_dies_is_reported_at_once_with_its_exit_code(tmp_path):
    def dies(notebook):
        notebook.cells.insert(2, nbformat.v4.new_code_cell("import os\nos._exit(3)"))

    # the cell limit is ten minutes: a death noticed only by a timeout would be reported as `timeout`
    (outcome,) = runner.check(_variant(tmp_path, dies), timeout=600, reference=reference())
    assert (outcome.status, outcome.message) == (
        "kernel died", "the kernel died (exit code 3) while running a cell before the check of exercise 0.1 (it starts `import "
        "os`)")


def test_a_cell_that_does_not_finish_is_a_timeout_for_what_follows(tmp_path):
    source = ROOT / "solutions" / "01_bad_tool_rewrite.ipynb"

    def hangs(notebook):
        index = notebook.cells.index(_cell(notebook, exercise="1.2"))
        notebook.cells.insert(index, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))

    found = runner.check(_variant(tmp_path, hangs, source), timeout=5, reference=reference("01_bad_tool_rewrite"))
    assert [(o.exercise, o.status) for o in found] == [("1.1", "passed"), ("1.2", "timeout"), ("1.3", "timeout"),
                                                       ("1.4", "timeout")]
    said = "a cell before the check of exercise 1.2 (it starts `import time`) did not finish within 5 s: look for " \
           "a loop that never " \
           "ends, a call that waits, or one output over 32 MB (the grader drops such a message unread, and the " \
           "cell's end with it)"
    assert found[1].message == said and found[2].message == f"not checked: {said}"
    from course_lib import cli

    table = "\n".join(cli.check_table(found, width=200))
    assert "hint" not in table.split("\n", 1)[1]  # a timeout's rows point to no hint


def test_a_check_that_does_not_finish_stops_the_kernel_and_is_a_timeout(tmp_path):
    def loops(notebook):
        _cell(notebook, exercise="0.1").source = "def bounds(definition, parameter):\n    while True:\n        pass\n"

    (outcome,) = runner.check(_variant(tmp_path, loops), timeout=5, reference=reference())
    assert (outcome.status, outcome.message) == ("timeout", "the check did not finish within 5 s")


def test_outcomes_are_kept_only_where_a_runner_collects_them(tmp_path, monkeypatch):
    monkeypatch.delenv(outcomes.ENV, raising=False)
    outcomes.record(outcomes.Outcome("1.1", "passed", "ok"))  # nobody asked: nothing kept, no error
    assert not outcomes.recording()
    with outcomes.collecting() as found:
        assert outcomes.recording()
        outcomes.record(outcomes.Outcome("1.1", "failed", "no", "hints.show(\"1.1\")", "when"))
        outcomes.record(outcomes.Outcome("1.2", "passed", "yes"))
    assert [(o.exercise, o.status, o.rule) for o in found] == [("1.1", "failed", "when"), ("1.2", "passed", "")]
    path = tmp_path / "outcomes.jsonl"
    monkeypatch.setenv(outcomes.ENV, str(path))  # a script of its own may ask for a file instead
    outcomes.record(outcomes.Outcome("1.3", "passed", "yes"))
    assert [o.exercise for o in outcomes.read(path)] == ["1.3"]


@pytest.mark.parametrize("name, stem", [("01_bad_tool_rewrite.ipynb", "01_bad_tool_rewrite"),
                                        ("01_bad_tool_rewrite (1).ipynb", "01_bad_tool_rewrite"),
                                        ("homework.ipynb", None)])
def test_a_submission_is_matched_to_its_lesson_by_name_then_metadata(name, stem, tmp_path):
    from pathlib import Path

    assert runner.lesson_stem(Path(name)) == stem
    assert runner.lesson_stem(Path("homework.ipynb"), nbformat.v4.new_notebook(metadata={"course": {"lesson": "05"}})) \
        == "05_safe_mutation_incidents"


def test_without_unix_sockets_the_boundary_runs_over_loopback_tcp(tmp_path, monkeypatch):
    """What Windows gets (no Unix sockets, no sandbox): the same checks, the kernel and the bridge on 127.0.0.1."""
    from course_lib.workbook import boundary, sandbox

    monkeypatch.setenv(sandbox.ENV, "none")
    monkeypatch.setenv(sandbox.UNSAFE_ENV, "1")  # a root grader whose Python no other user may reach: runs as root
    monkeypatch.setattr(boundary, "TCP", True)
    listened, original = [], boundary.GraderBridge.__init__

    def recorded(self, *args, **kwargs):
        original(self, *args, **kwargs)
        listened.append(self.address)

    monkeypatch.setattr(boundary.GraderBridge, "__init__", recorded)
    found = runner.check(ROOT / "solutions" / "01_bad_tool_rewrite.ipynb", reference=reference("01_bad_tool_rewrite"))
    assert [(o.exercise, o.status) for o in found] == [(f"1.{n}", "passed") for n in range(1, 5)]
    assert len(listened) == 1 and listened[0][0] == "127.0.0.1" and isinstance(listened[0][1], int)


def test_execute_saves_each_run_of_printed_text_as_one_output(tmp_path):
    """Printed text reaches the kernel's client in as many messages as timing makes; the saved file has one."""
    source = ("import sys, time\n"
              "for n in range(3):\n"
              "    print('out', n, flush=True); time.sleep(0.05)\n"
              "print('err', file=sys.stderr, flush=True)\n"
              "for n in range(2):\n"
              "    print('more', n, flush=True); time.sleep(0.05)")
    path = tmp_path / "printing.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), path)
    runner.execute(path)
    outputs = nbformat.read(path, as_version=4).cells[0].outputs
    assert [(o.output_type, o.name, o.text) for o in outputs] == [
        ("stream", "stdout", "out 0\nout 1\nout 2\n"), ("stream", "stderr", "err\n"),
        ("stream", "stdout", "more 0\nmore 1\n")]


def _lesson_tool(module, name: str, *args) -> dict:
    from course_lib.checks import core

    return next(t for t in core.probe(module.build_server(*args)).tools if t["name"] == name)


@pytest.mark.parametrize("edit", [lambda text: text + "\u200b", lambda text: "\u2060" + text.replace(" ", "  ", 1),
                                  lambda text: text.replace("a", "\uff41", 1), lambda text: text.upper() + "\n"])
def test_a_lesson_tool_retouched_invisibly_is_still_the_lessons(edit):
    """Red team 2, c05: the lesson's weather tool with one zero-width space in its description was no longer 'the
    lesson's' (definitions compared word for word). Invisible characters, NFKC forms, case and spacing do not make
    another tool."""
    from course_lib.servers import weather

    tool = _lesson_tool(weather, "get_daily_forecast")
    retouched = {**tool, "description": edit(tool["description"])}
    assert retouched["description"] != tool["description"]
    assert "the course's weather server's tool" in runner.lessons_copy(retouched, "1.2")


@pytest.mark.parametrize("edit, copy", [
    (lambda tool: {**tool, "description": tool["description"] + " One city only."}, True),  # rtgrade6 a4 (1.2)
    (lambda tool: {**tool, "description": tool["description"] + " Lean."}, True),  # rtgrade6 h1 (6.1)
    (lambda tool: {**tool, "description": tool["description"] + " (v2)"}, True),  # rtgrade5 i5 (5.3)
    (lambda tool: {**tool, "description": tool["description"].replace(".", "!") + "."}, True),  # rtgrade5 i6
    (lambda tool: {**tool, "description": "Please " + tool["description"] + " Nothing else, ever."}, True),
    (lambda tool: {**tool, "inputSchema": _reworded(tool["inputSchema"], " Any.")}, True),  # one word per parameter
    (lambda tool: {**tool, "description": tool["description"] + " Use it for one city at a time."}, False),
    (lambda tool: {**tool, "description": "Read the forecast."}, False),
    (lambda tool: {**tool, "name": "get_forecast"}, False),
    (lambda tool: {**tool, "inputSchema": {**tool["inputSchema"], "required": []}}, False),
])
def test_a_tool_a_few_words_from_a_lessons_is_the_lessons_whatever_built_it(edit, copy):
    """Red team rtgrade6 a1-a4 and h1: a lesson's server reached by a computed name (`servers.build`, a reversed
    string, a vars() walk, `workspace.register`) with one tool added or a few words appended passed 1.2, 5.3 and 6.1:
    the guard read names in the learner's cells and compared whole listings word for word. Each tool the grader lists
    is compared instead: the same name and input schema and prose within NEAR_COPY_WORDS words is the lesson's tool;
    five words more, another name or another schema is not."""
    from course_lib.servers import weather

    edited = edit(_lesson_tool(weather, "get_daily_forecast"))
    said = runner.lessons_copy(edited, "1.2")
    assert ("get_daily_forecast is the course's weather" in said) if copy else said == "", said


def _reworded(schema: dict, words: str) -> dict:
    properties = {name: {**value, "description": value.get("description", "") + words} if name != "units" else value
                  for name, value in schema["properties"].items()}
    return {**schema, "properties": properties}


def test_the_workspace_tool_and_the_incident_tools_are_found_and_9_2_keeps_v1s():
    """6.1's search_tickets (rtgrade6 h1) and 5.3's incident tools (rtgrade6 a1-a3) are lesson tools; 9.2 keeps v1's
    tools word for word by design and 5.2 the pager's get_incident, so there they are not copies (elsewhere they
    are)."""
    from course_lib.checks import core
    from course_lib.servers import evolving, incident_risky, incidents, workspace

    lean = _lesson_tool(workspace, "search_tickets")
    assert "workspace server's tool" in runner.lessons_copy({**lean, "description": lean["description"] + " Lean."})
    for tool in core.probe(incidents.build_server()).tools:
        assert runner.lessons_copy({**tool, "description": tool["description"] + " Here."}, "5.3"), tool["name"]
    pager = next(t for t in core.probe(incident_risky.build_pager_server()).tools if t["name"] == "get_incident")
    assert runner.lessons_copy(pager, "5.2") == ""  # solutions/05 writes 5.2's get_incident as the lesson does
    assert runner.lessons_copy(pager, "5.3")  # 5.3's get_incident is the exercise's own
    v1 = core.probe(evolving.build_v1()).tools
    assert all(runner.lessons_copy(tool, "9.2") == "" for tool in v1)
    assert all(runner.lessons_copy(tool, "5.3") for tool in v1)


def test_word_distance_is_bounded_and_exact():
    assert runner._within(("a", "b", "c"), ("a", "x", "c", "d"), 2)
    assert not runner._within(("a", "b", "c"), ("a", "x", "c", "d"), 1)
    assert not runner._within(("a",) * 3, ("a",) * 10_000, 4)  # lengths apart: not compared word by word
    assert runner._words("Get_daily, forecast (v2)!") == ("get", "daily", "forecast", "v2")


@pytest.mark.parametrize("code, name, course", [
    ("fingerprint = host.fingerprint\n", "fingerprint", "course_lib.host.fingerprint"),
    ("is_valid_tool_name = review.SPEC_NAME.fullmatch\n", "is_valid_tool_name", "course_lib.review.SPEC_NAME.fullmatch"),
    ("from course_lib.review import is_valid_name as is_valid_tool_name\n", "is_valid_tool_name",
     "course_lib.review.is_valid_name"),
    ("_x = review.is_valid_name\nis_valid_tool_name = _x\n", "is_valid_tool_name", "course_lib.review.is_valid_name"),
    ("def fingerprint(tool):\n    return host.fingerprint(tool)\n", "fingerprint", ""),
    ("fingerprint = host.fingerprint\n\ndef fingerprint(tool):\n    return 'mine'\n", "fingerprint", ""),
    ("fingerprint = json.dumps\n", "fingerprint", ""),
    ("for fingerprint in [host.fingerprint]:\n    pass\n", "fingerprint", ""),
])
def test_an_answer_bound_to_a_course_object_is_found_in_the_code_the_grader_sent(code, name, course):
    """Whether an answer is the course's own is read from the cells the grader ran, not only from the kernel (whose
    `boundary._of_the_course` a cell can replace, red team 2's c09 class)."""
    setup = "import json\nfrom course_lib import host, review\nfrom course_lib.servers import weather\n"
    assert runner.course_binding(name, [setup, code]) == course


def test_a_lesson_server_with_a_tool_of_its_own_is_still_the_lessons():
    """Red team rtgrade6 a1-a3: the lesson's incidents server plus a `ping` tool of the learner's passed 5.3 (only a
    listing of lesson tools alone was refused). One lesson tool among the learner's is enough."""
    from course_lib.servers import incidents

    server = incidents.build_server("ben")

    @server.tool()
    def ping() -> str:
        """Answer pong; for a health check only."""
        return "pong"

    said = runner._lessons_tools([server], "5.3")
    assert "get_incident is the course's" in said and "ping" not in said
