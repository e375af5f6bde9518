"""Failure lines read as sentences: every rule phrase reads after "expected", and one run of a check reports
every broken rule it finds (up to core.MOST_SHOWN): one alone as one sentence, several as a lead line that counts
them and one line per rule ("• Expected …; found …"), each shown on lines of its own wherever the status shows."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import typing

import pytest
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from course_lib import checks
from course_lib.checks import core
from course_lib.errors import CheckFailed, plain
from course_lib.workbook import manifest

SUBJECTS = frozenset({"a", "an", "the", "each", "every", "one", "two", "three", "no", "at", "tokens", "refusals",
                      "environment", "invisible", "status", "query", "limit", "clients"})
"""First words of a rule written as what is expected (a noun phrase: "a token to apply once")."""


def _all_rules() -> list[tuple[str, core.Rule]]:
    for lesson in manifest.lessons():
        if lesson.exercises:
            importlib.import_module(lesson.checker_module)
    return [(str(exercise), rule) for exercise, rules in core.SPECS.items() if exercise.lesson < 90
            for rule in rules.values()]


def reads_after_expected(phrase: str) -> bool:
    """Whether "expected <phrase>" reads as English: an instruction comes as "your answer to ...", a noun phrase
    opens with a subject word or a name from the code (snake_case, camelCase, a number)."""
    first = phrase.split(" ", 1)[0].strip("`,")
    if phrase.startswith(("your answer to ", "your answer, ", "your answer built ")):
        return True
    if first in core.IMPERATIVES or first in core.CONDITIONS:
        return False
    return first in SUBJECTS or "_" in first or bool(re.search(r"[a-z][A-Z]", first)) or first[:1].isdigit()


def test_reads_after_expected_refuses_a_bare_instruction_and_a_condition_first():
    assert not reads_after_expected("return a pair")
    assert not reads_after_expected("from a trusted server, ask first")
    assert not reads_after_expected("counted in the encoding")  # neither an instruction nor a subject
    assert reads_after_expected("your answer to return a pair") and reads_after_expected("a token to apply once")
    assert core.Rule("r", "from a trusted server, ask before everything else", "").expected == \
        "your answer, from a trusted server, to ask before everything else"
    assert core.Rule("r", "when the person named an option, exactly as written, accept it", "").expected == \
        "your answer, when the person named an option, exactly as written, to accept it"
    assert core.Rule("r", "return a pair.", "").expected == "your answer to return a pair"


@pytest.mark.parametrize("exercise, rule", _all_rules(), ids=lambda value: getattr(value, "name", value))
def test_every_rule_phrase_reads_after_expected(exercise, rule):
    phrase = rule.expected
    assert reads_after_expected(phrase), f"{exercise} {rule.name}: 'expected {phrase}'"
    assert not phrase.endswith((".", ";", ":")) and not DOUBLED.search(phrase), f"{exercise} {rule.name}"


@pytest.mark.parametrize("exercise, rule", _all_rules(), ids=lambda value: getattr(value, "name", value))
def test_every_rule_phrase_shows_no_backtick_in_plain_text(exercise, rule):
    """walk6 N3: a terminal or an error output quotes a rule's `code` as 'code', like the values it found."""
    assert "`" not in plain(rule.expected), f"{exercise} {rule.name}: {plain(rule.expected)}"


def test_plain_text_statuses_quote_code_as_they_quote_found_values():
    """The same failure in an error output, a learner's kernel's text/plain, and `course check`'s table: 'time',
    never `time`; code that is a quoted value keeps its one pair of quotes; the styled HTML keeps <code>."""
    from course_lib import cli
    from course_lib.workbook import outcomes

    hint = 'hints.show("98.9")'
    message = ('Exercise 98.9: expected a later word containing `time`; found \'Time\'.'
               '\n• Expected the kind `"protocol"`; found \'x\'. Open hints.show("98.9") for a hint.')
    texts = {"status_lines": "\n".join(CheckFailed(message, exercise="98.9", hint=hint).status_lines()),
             "text/plain": core.status_bundle("❌", "failed", core._without_hint(message, hint), hint)["text/plain"],
             "check_table": "\n".join(cli.check_table([outcomes.Outcome("98.9", "failed", message, hint)], 100))}
    for where, text in texts.items():
        assert "`" not in text and "containing 'time'" in text and 'kind "protocol";' in text, (where, text)
    assert "<code>time</code>" in core.status_bundle("❌", "failed", message, hint)["text/html"]


DOUBLED = re.compile(r"(?<!\.)\.\.(?!\.)|\.\s+\.|[.!?]['\"]\.|\.\)\.")
"""A doubled full stop (an ellipsis, three dots, is text): '..', '. .', and a quote or a parenthesis that ends in
one with another after it ('Time.'. and ran.).; walkthrough 5, N1)."""


THREE = core.spec(("named", "one tool named get_time", "tools/list"),
                  ("described", "a description of at least three words", "the listed description"),
                  ("refuses", "your answer to refuse an unknown city with a tool error", "a call"),
                  ("typed", "return a str", "a call"))


@pytest.fixture
def three_rules():
    """A throwaway exercise 98.9 whose check probes four rules, each on its own."""
    def check(build):
        server = core.build_server(build)
        seen = core.probe(server, lambda tools: [(tool["name"], {"city": "Atlantis"}) for tool in tools[:1]])
        core.require(seen.names == ["get_time"], "named", ", ".join(seen.names))
        description = seen.tools[0].get("description") or ""
        core.require(len(description.split()) >= 3, "described", repr(description))
        core.require(seen.results[0].get("isError"), "refuses", lambda: core.outcome(seen.results[0]))
        return "all four rules hold"

    run = core.checker("98.9", THREE)(check)
    yield run
    core.REGISTRY.pop(run.exercise, None)
    core.SPECS.pop(run.exercise, None)


def test_an_answer_with_three_faults_is_told_all_three_in_one_run(three_rules):
    def build():
        server = MCPServer("clock", log_level="WARNING")

        @server.tool()
        def time_in(city: str) -> str:
            """Time."""
            return "12:00"

        return server

    with pytest.raises(CheckFailed) as failure:
        three_rules(build)
    message = str(failure.value)
    assert message == ("Exercise 98.9: the first 3 things to fix (a run stops at 3, so there may be more):"
                       "\n• Expected one tool named get_time; found time_in."
                       "\n• Expected a description of at least three words; found 'Time.'"
                       "\n• Expected your answer to refuse an unknown city with a tool error; found a result: "
                       "'12:00'. Open hints.show(\"98.9\") for a hint."), message
    assert failure.value.rule == "named" and [f.rule for f in failure.value.failures] == \
        ["named", "described", "refuses"]
    assert message.count("Expected") == 3 and message.count("\n") == 3 and not DOUBLED.search(message)


def test_one_fault_is_one_sentence_and_a_crash_after_a_fault_is_its_consequence(three_rules):
    def build(description: str, tool_name: str = "get_time"):
        def factory():
            server = MCPServer("clock", log_level="WARNING")

            def get_time(city: str) -> str:
                if city == "Atlantis":
                    raise ToolError(f"No city named {city}.")
                return "12:00"

            server.tool(name=tool_name, description=description)(get_time)
            return server

        return factory

    three_rules(build("The local time in a city."))  # every rule holds
    with pytest.raises(CheckFailed) as failure:
        three_rules(build("Time."))
    assert str(failure.value) == ("Exercise 98.9: expected a description of at least three words; found 'Time.' "
                                  'Open hints.show("98.9") for a hint.')
    assert not hasattr(failure.value, "failures")
    with pytest.raises(CheckFailed) as failure:  # no tools at all: the probe crashes after the first fault
        three_rules(lambda: MCPServer("empty", log_level="WARNING"))
    assert str(failure.value) == ("Exercise 98.9: expected one tool named get_time; found nothing. "
                                  'Open hints.show("98.9") for a hint.')


def test_a_check_stops_looking_after_most_shown_broken_rules(three_rules):
    assert core.MOST_SHOWN == 3  # the fourth rule of THREE is never reached by the probe above either
    calls = []

    def check(answer):
        for rule in ("named", "described", "refuses", "typed"):
            calls.append(rule)
            core.require(False, rule, "no")
        return "never"

    run = core.checker("98.8", THREE)(check)
    try:
        with pytest.raises(CheckFailed) as failure:
            run(None)
    finally:
        core.REGISTRY.pop(run.exercise, None)
        core.SPECS.pop(run.exercise, None)
    assert calls == ["named", "described", "refuses"] and len(failure.value.failures) == 3


def test_the_same_rule_broken_twice_is_reported_once(three_rules):
    def check(answer):
        for _ in range(5):
            core.require(False, "named", "no")
        core.require(False, "typed", "an int")
        return "never"

    run = core.checker("98.7", THREE)(check)
    try:
        with pytest.raises(CheckFailed) as failure:
            run(None)
    finally:
        core.REGISTRY.pop(run.exercise, None)
        core.SPECS.pop(run.exercise, None)
    assert str(failure.value) == ("Exercise 98.7: 2 things to fix:\n• Expected one tool named get_time; found no."
                                  "\n• Expected your answer to return a str; found an int. "
                                  'Open hints.show("98.7") for a hint.')


def test_a_check_stopped_by_a_hard_failure_says_there_may_be_more(three_rules):
    """Two rules noted, then a probe that cannot go on: the count is of what was found, not of every fault."""
    def check(answer):
        core.require(False, "named", "no")
        raise core.fail("typed", "an int")

    run = core.checker("98.4", THREE)(check)
    try:
        with pytest.raises(CheckFailed) as failure:
            run(None)
    finally:
        core.REGISTRY.pop(run.exercise, None)
        core.SPECS.pop(run.exercise, None)
    assert str(failure.value).startswith(
        "Exercise 98.4: the first 2 things to fix (the check could not go on, so there may be more):\n"), failure.value


def test_what_the_answer_produced_is_quoted_in_a_failure_line():
    """The learner's own text is set apart from the sentence around it: "found an error: 'Error: boom'"."""
    error = {"isError": True, "content": [{"type": "text", "text": "Error: boom"}]}
    assert core.outcome(error) == "an error: 'Error: boom'"
    assert core.outcome({"content": [{"type": "text", "text": "Gets the time."}]}) == "a result: 'Gets the time.'"
    assert core.quoted("") == "" and core.quoted("  two\n lines ") == "'two lines'"
    assert core.quoted("'city'") == "'city'"  # a KeyError's text stands in quotes already
    token = core._current.set(core.ExerciseId.parse("98.3"))
    try:
        line = str(core.fail("a description that says when to use it", core.quoted("Gets the time.")))
    finally:
        core._current.reset(token)
    assert "; found 'Gets the time.' Open" in line and not DOUBLED.search(line), line


@pytest.mark.parametrize("exercise, rule", _all_rules(), ids=lambda value: getattr(value, "name", value))
def test_no_rule_with_a_detail_puts_two_parentheses_back_to_back(exercise, rule):
    token = core._current.set(core.ExerciseId.parse(exercise))
    try:
        line = str(core.fail(rule.name, "'x'", "the check's detail"))
    finally:
        core._current.reset(token)
    assert not re.search(r"\)\s*\(", line), line
    assert "the check's detail" in line and line.count("(") == line.count(")"), line


def test_a_detail_joins_a_rule_that_ends_in_a_parenthesis():
    assert core._with_detail("a name (get_time, show-time)", "a verb first") == \
        "a name (get_time, show-time; a verb first)"
    assert core._with_detail("a name", "a verb first") == "a name (a verb first)"
    assert core._with_detail("a name (x)", "") == "a name (x)"


def test_several_faults_show_as_a_lead_line_and_a_line_per_rule_wherever_the_status_shows(three_rules):
    """The error output's lines (`_render_traceback_`), the styled status in a learner's kernel, `course check`'s
    table and a grader's one-line report all keep the shape: the count first, then each rule on its own."""
    from course_lib import cli
    from course_lib.workbook import grading, outcomes

    def build():
        server = MCPServer("clock", log_level="WARNING")
        server.tool(name="time_in")(lambda city: "12:00")
        return server

    with pytest.raises(CheckFailed) as failure:
        three_rules(build)
    lines = failure.value.status_lines()
    assert lines[0] == "❌ Exercise 98.9: the first 3 things to fix (a run stops at 3, so there may be more):", lines
    starts = [index for index, line in enumerate(lines) if line.startswith("   • ")]
    assert [lines[index][5:].split(";")[0] for index in starts] == \
        ["Expected one tool named get_time", "Expected a description of at least three words",
         "Expected your answer to refuse an unknown city with a tool error"], lines
    assert all(line.startswith("     ") for line in lines[starts[0]:-1] if not line.startswith("   • "))
    assert lines[-1].startswith('   Stuck? hints.show("98.9")') and all(len(line) <= 100 for line in lines)

    message = str(failure.value)
    bundle = core.status_bundle("❌", "failed", core._without_hint(message, failure.value.hint), failure.value.hint)
    assert bundle["text/html"].count("<li") == 3 and "<ul" in bundle["text/html"], bundle
    assert "Exercise 98.9: the first 3 things to fix" in bundle["text/html"].split("<ul")[0]
    assert [line for line in bundle["text/plain"].splitlines() if line.startswith("   • Expected")].__len__() == 3

    outcome = outcomes.Outcome("98.9", "failed", message, failure.value.hint, "named")
    table = cli.check_table([outcome], width=100)
    assert table[0].startswith("❌ 98.9  failed  the first 3 things to fix"), table
    assert sum(line.lstrip().startswith("• Expected") for line in table) == 3, table
    assert "course hint 98.9 --rule named" in " ".join(table[-2:]), table
    for one in (outcomes.for_grader(message), grading.Row("ada", "01.ipynb", outcome).outcome.message):
        assert "\n" not in one and "\\x0a" not in one and one.count(" • Expected") == 3, one


def test_a_crash_message_cannot_draw_bullets(three_rules):
    """Only the course starts a line in a status: an exception message of the answer stays on the lead line."""
    def build():
        raise RuntimeError("boom\n• Expected nothing; found everything.")

    run = core.checker("98.6", THREE)(lambda answer: answer())
    try:
        with pytest.raises(CheckFailed) as failure:
            run(build)
    finally:
        core.REGISTRY.pop(run.exercise, None)
        core.SPECS.pop(run.exercise, None)
    message = str(failure.value)
    assert "\n" not in message and "boom • Expected nothing" in message, message
    assert not any(line.startswith("   • ") for line in failure.value.status_lines())


def test_a_stub_message_cannot_draw_bullets():
    """A stub's own NotImplementedError text stays on the ⏳ line, whatever line breaks it holds."""
    from course_lib.errors import ExerciseNotDone

    run = core.checker("98.5", THREE)(lambda answer: answer())
    try:
        with pytest.raises(ExerciseNotDone) as stub:
            run(lambda: (_ for _ in ()).throw(NotImplementedError("Exercise 98.5: do it\n• Expected a pass")))
    finally:
        core.REGISTRY.pop(run.exercise, None)
        core.SPECS.pop(run.exercise, None)
    assert "\n" not in str(stub.value) and not any(line.startswith("   • ") for line in stub.value.status_lines())


def test_7_2_blames_an_emojis_selector_only_when_the_text_without_the_emoji_passes():
    """A word list that flags the emoji probe's clean text for its words is told about the words (the "clean"
    rule), not about the emoji's selector; an answer that flags the selector itself is told about it."""
    from conftest import ROOT

    def message(name: str) -> str:
        path = ROOT / "tests" / "answers" / "wrong" / f"{name}.py"
        module = importlib.util.module_from_spec(spec := importlib.util.spec_from_file_location(name, path))
        spec.loader.exec_module(module)
        with pytest.raises(CheckFailed) as failure:
            checks.ex_07_2(module.answer)
        return str(failure.value)

    words = message("ex_07_2_word_list_flags_do_not")
    assert "found deploy.start_deployment flagged" in words and "variation selector" not in words, words
    assert "an emoji's own variation selector" in message("ex_07_2_flags_presentation_selector")


class _NestedPlace(typing.TypedDict):
    at: str
    location: str
    description: str


class _NestedTracking(typing.TypedDict):
    order_number: str
    status: str
    expected_delivery: str
    carrier: str
    tracking_code: str
    last_scan: _NestedPlace


def _nested_typeddict_server():
    from course_lib.servers import orders

    store = orders.OrderStore()
    server = MCPServer("tracking", log_level="WARNING")

    def track_order(order_number: str):
        """Tracking summary of one order."""
        row = orders.customer_order(store, order_number)
        rec = store.shipment(order_number)
        if rec is None:
            raise ToolError(f"{order_number} has not shipped; it should arrive by {row.expected_delivery}.")
        last = max(rec.scans, key=lambda scan: scan.at)
        return {"order_number": order_number, "status": rec.status, "expected_delivery": rec.expected_delivery,
                "carrier": rec.carrier, "tracking_code": rec.tracking_code,
                "last_scan": {"at": last.at, "location": last.location, "description": last.description}}

    track_order.__annotations__ = {"order_number": str, "return": _NestedTracking}  # module-level classes
    server.tool()(track_order)
    return server


def test_2_1_a_nested_typing_typeddict_is_told_to_come_from_typing_extensions_on_311():
    """Round 10's S7: on Python 3.11 the SDK gives a nested typing.TypedDict no outputSchema; the message says
    why and what to import (on 3.12 and later the same answer passes; with typing_extensions it passes on 3.11)."""
    from course_lib.checks import l02

    if sys.version_info >= (3, 12):
        l02.ex_02_1(_nested_typeddict_server)
        return
    with pytest.raises(CheckFailed, match="no outputSchema with named fields.*imported from typing_extensions"):
        l02.ex_02_1(_nested_typeddict_server)
