"""Hints come one level at a time and never run past the last one."""

from __future__ import annotations

import re

import pytest

from course_lib import hints
from course_lib.errors import UnknownName


def test_each_call_reveals_the_next_level_then_says_there_are_no_more(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    levels = len(hints.levels("1.3"))
    for _ in range(levels + 2):
        hints.show("1.3")
    out = capsys.readouterr().out.strip()
    shown = [" ".join(block.split()) for block in re.split(r"\n(?=Hint |No more)", out)]
    assert all(len(line) <= 100 for line in out.splitlines())
    assert [line.split(" for ")[0] for line in shown[:levels]] == (
        ["Hint 1 of 3 (the idea)", "Hint 2 of 3 (the API)", "Hint 3 of 3 (the last hint)"])
    assert shown[0].endswith('Run hints.show("1.3") again for hint 2 of 3 (the API).')
    assert shown[levels - 1].endswith("That was the last hint for this exercise.")
    assert shown[levels:] == [f"No more hints for exercise 1.3: hint {levels} of {levels} was the last. Read the "
                              "check's message again (what it expected, what it found), compare it with your code, "
                              "or ask your instructor."] * 2


def test_every_exercise_climbs_from_idea_to_api_to_a_last_hint_that_says_so():
    from course_lib import checks
    from course_lib.workbook import manifest

    for exercise in manifest.exercise_ids():
        total = len(hints.levels(exercise))
        assert total >= 2, exercise
        kinds = [hints.render(exercise, level).split(")")[0].split("(")[1] for level in range(1, total + 1)]
        assert kinds[0] == "the idea" and kinds[-1] == "the last hint" and (total < 3 or kinds[1] == "the API")
        first = hints.levels(exercise)[0]
        for rule in getattr(checks.registered(exercise), "rules", ()):  # never the failure message again
            assert rule.states not in first, (exercise, rule.name)


def test_a_level_can_be_asked_for_directly(capsys, monkeypatch):
    monkeypatch.setattr(hints, "_revealed", {})
    hints.show("1.2", level=3)
    assert capsys.readouterr().out.startswith("Hint 3 of 3 (the last hint) for exercise 1.2: ")


@pytest.mark.parametrize("exercise_id, says", [("1.9", "there is no exercise 1.9"), ("x", "not an exercise id"),
                                                ("42.1", "there is no lesson 42")])
def test_unknown_ids_are_clear_errors(exercise_id, says):
    with pytest.raises(UnknownName, match=says):
        hints.show(exercise_id)


# --- level 1 after a failed check: the idea behind the rule that failed ---------------------------------------


def _every_rule():
    from course_lib import checks
    from course_lib.workbook import manifest

    return [(exercise, rule) for exercise in manifest.exercise_ids()
            for rule in getattr(checks.registered(exercise), "rules", ())]


def _sections(lesson: str) -> set[str]:
    """The `## ` section titles of a lesson notebook."""
    import json
    from pathlib import Path

    from course_lib.workbook import manifest

    path = Path(__file__).resolve().parents[1] / "notebooks" / f"{manifest.lesson(lesson).stem}.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {line[3:].strip() for cell in cells if cell["cell_type"] == "markdown"
            for line in "".join(cell["source"]).splitlines() if line.startswith("## ")}


def test_every_rule_a_checker_can_report_has_its_idea_naming_a_real_lesson_section():
    from course_lib.checks.concepts import CONCEPTS, concept

    rules = _every_rule()
    assert len(rules) > 150
    missing = [f"{exercise} {rule.name}" for exercise, rule in rules if concept(str(exercise), rule.name) is None]
    assert missing == [], missing
    known = {(str(exercise), rule.name) for exercise, rule in rules}
    stale = [f"{exercise} {name}" for exercise, groups in CONCEPTS.items() for names in groups
             for name in names.split() if (exercise, name) not in known]
    assert stale == [], f"ideas for rules no checker has: {stale}"
    for exercise, groups in CONCEPTS.items():
        for text in groups.values():
            found = re.match(r"Lesson (\d\d), «([^»]+)»: \S", text)
            assert found and found.group(2) in _sections(found.group(1)), (exercise, text[:80])
            assert len(text.split()) <= 60, (exercise, text)


def _solution_lines() -> set[str]:
    """Every distinctive line of the solutions' answer regions (what a hint's level 1 must never hold)."""
    from pathlib import Path

    from course_lib.workbook import build

    found = set()
    for path in sorted((Path(__file__).resolve().parents[1] / "solutions").glob("*.ipynb")):
        for cell in build.read(path).cells:
            for body in re.findall(r"### BEGIN SOLUTION[^\n]*\n(.*?)### END SOLUTION", cell.source, re.S):
                found |= {line.strip() for line in body.splitlines()
                          if len(line.strip()) >= 12 and not line.strip().startswith("#")}
    return found


def test_a_rules_idea_holds_no_solution_code_and_is_not_the_failure_message_again():
    from course_lib.checks.concepts import concept

    lines = _solution_lines()
    assert len(lines) > 100
    for exercise, rule in _every_rule():
        text = concept(str(exercise), rule.name)
        leaked = [line for line in lines if line in text]
        assert leaked == [], (exercise, rule.name, leaked)
        assert rule.states.rstrip(" .;") not in text and rule.expected not in text, (exercise, rule.name)
        assert not re.search(r"\w\(|=|`[^`]*\(", text), (exercise, rule.name, text)  # no calls, no assignments


def test_after_a_check_fails_on_a_rule_level_1_is_that_rules_idea_until_the_check_passes(capsys, monkeypatch):
    import importlib.util
    from pathlib import Path

    from course_lib import checks
    from course_lib.checks.concepts import concept
    from course_lib.errors import CheckFailed

    monkeypatch.setattr(hints, "_revealed", {})
    path = Path(__file__).resolve().parent / "answers" / "wrong" / "ex_01_2_renamed_tool.py"
    spec = importlib.util.spec_from_file_location("wrong_1_2", path)
    wrong = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wrong)
    with pytest.raises(CheckFailed) as failed:
        checks.ex_01_2(wrong.answer)
    assert failed.value.rule == "tool"
    hints.show("1.2")
    said = " ".join(capsys.readouterr().out.split())
    idea = concept("1.2", "tool")
    assert said.startswith(f"Hint 1 of 3 (the idea) for exercise 1.2: {idea}"), said
    assert hints.levels("1.2")[0] not in said
    hints.show("1.2", level=2)  # the levels above stay as they were
    assert hints.levels("1.2")[1] in " ".join(capsys.readouterr().out.split())
    with pytest.raises(CheckFailed):  # a stub's failure names no rule: level 1 is the exercise's own idea again
        checks.ex_01_2(lambda: None)
    hints.show("1.2", level=1)
    assert " ".join(hints.levels("1.2")[0].split()) in " ".join(capsys.readouterr().out.split())


def test_course_check_names_the_failed_rule_and_course_hint_gives_its_idea():
    from course_lib import cli
    from course_lib.checks.concepts import concept
    from course_lib.workbook.outcomes import Outcome

    table = "\n".join(cli.check_table([Outcome("1.2", "failed", "Exercise 1.2: expected x; found y.",
                                               'hints.show("1.2")', "days-schema"),
                                       Outcome("1.3", "not done", "Exercise 1.3 is not done yet: do it.")], 200))
    assert "(.venv/bin/course hint 1.2 --rule days-schema)" in table and "(.venv/bin/course hint 1.3)" in table
    text = " ".join(hints.render("1.2", 1, "days-schema").split())
    assert concept("1.2", "days-schema") in text and hints.levels("1.2")[0] not in text


def test_course_hint_refuses_a_rule_the_exercise_does_not_have_in_one_line():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "course_lib.cli", "hint", "1.2", "--rule", "dayz"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("course: exercise 1.2 has no rule 'dayz'; its rules: tool, days-schema, "), line


def test_in_a_learners_jupyterlab_kernel_a_hint_is_a_box_like_the_checks_and_plain_text_elsewhere(capsys,
                                                                                                     monkeypatch):
    """Walkthrough 3, N-K6: a hint beside a styled check status was wrapped stream text. In a learner's kernel it is
    the checks' box (blue, 💡, its lead in bold, what comes next on its own line); in any other kernel (nbval, the
    runner that stores a notebook's outputs, a script) the same words print as before, so stored outputs hold."""
    from course_lib.checks import core
    from course_lib.workbook import outcomes

    bundles: list[dict] = []
    monkeypatch.setattr(core, "_display", bundles.append)
    monkeypatch.setattr(hints, "_revealed", {})
    monkeypatch.delenv(outcomes.ENV, raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    hints.show("1.3")
    printed = capsys.readouterr().out
    assert not bundles and printed.startswith("Hint 1 of 3 (the idea) for exercise 1.3: ")
    monkeypatch.setenv("JPY_SESSION_NAME", "exercises/01_bad_tool_rewrite.ipynb")
    hints.show("1.3", level=1)
    assert capsys.readouterr().out == "" and len(bundles) == 1
    assert bundles[0]["text/plain"] == printed.rstrip("\n")  # the same words as the plain print
    page = bundles[0]["text/html"]
    assert page.startswith('<div style="border-left:4px solid #1d4ed8') and "word-break:normal" in page
    assert "💡 <b>Hint 1 of 3 (the idea) for exercise 1.3:</b> " in page
    assert page.endswith('<br><span style="color:#4b5563">Run hints.show(&quot;1.3&quot;) again for hint 2 of 3 '
                         "(the API).</span></div>"), page
    check = core.status_bundle("❌", "failed", "Exercise 1.3: expected x; found 'y'.")["text/html"]
    style = re.compile(r'^<div style="([^"]*)"')
    assert style.match(check)[1] == style.match(page)[1].replace("#1d4ed8", "#b91c1c").replace("#eff6ff", "#fef2f2")
    hints.show("1.3", level=9)
    assert "<b>" not in bundles[-1]["text/html"] and "No more hints for exercise 1.3" in bundles[-1]["text/html"]
