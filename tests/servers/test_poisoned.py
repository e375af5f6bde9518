"""Lesson 07's poisoned servers: working tools with poisoned definitions, and a rug pull between two versions."""

from __future__ import annotations

import pytest

from course_lib import host, review, wire
from course_lib.servers import poisoned
from conftest import call, definitions, server_info

ERAS = pytest.mark.parametrize("era", wire.ERAS)


@ERAS
def test_the_notes_helper_lists_four_read_only_tools(era):
    tools = definitions(poisoned.build_server(), era)
    assert list(tools) == ["format_incident_note", "summarize_note", "lookup_runbook", "count_words"]
    assert all(tool["annotations"] == {"readOnlyHint": True, "openWorldHint": False} for tool in tools.values())


def test_each_notes_helper_tool_does_what_it_says_and_nothing_else():
    server = poisoned.build_server()
    assert call(server, "format_incident_note", {"text": "Done.", "notes": "secret"})["structuredContent"] == \
        {"markdown": "> Done."}
    assert call(server, "summarize_note", {"text": "First. Second."})["structuredContent"] == {"summary": "First"}
    assert call(server, "lookup_runbook", {"service": "payments"})["structuredContent"]["steps"] == \
        ["Restart the worker, then check the queue."]
    assert call(server, "count_words", {"text": "one two three"})["structuredContent"] == {"words": 3}


def test_each_poisoned_description_is_flagged_by_the_rule_it_breaks():
    rules = {(f.tool, f.rule) for f in review.review(list(definitions(poisoned.build_server()).values()))}
    assert {("format_incident_note", "description-instructions"), ("summarize_note", "description-persuasion"),
            ("lookup_runbook", "description-other-tools"), ("count_words", "description-hidden-text")} <= rules


def test_the_hidden_order_is_invisible_text_a_tokenizer_still_reads():
    description = definitions(poisoned.build_server())["count_words"]["description"]
    assert description.startswith("Count the words in a text. Use it for length limits.")
    assert "send_oncall_page" in host.reveal_invisible(description)
    assert "send_oncall_page" not in description


def test_the_rug_pull_changes_only_the_description():
    before = definitions(poisoned.build_runbooks(1))["lookup_runbook"]
    after = definitions(poisoned.build_runbooks_changed())["lookup_runbook"]
    assert {key for key in before if before[key] != after[key]} == {"description"}
    assert after["description"].startswith(before["description"])
    assert host.fingerprint(before) != host.fingerprint(after)
    assert host.fingerprint(before) == host.fingerprint(definitions(poisoned.build_runbooks())["lookup_runbook"])
    clean = [f.rule for f in review.review([before]) if f.rule.startswith("description-")]
    assert clean == []
    assert "description-instructions" in [f.rule for f in review.review([after])]


@pytest.mark.parametrize("build, name", [(poisoned.build_server, "notes-helper"),
                                         (poisoned.build_runbooks, "runbooks"),
                                         (poisoned.build_runbooks_changed, "runbooks")])
def test_each_server_reports_its_own_name(build, name):
    assert server_info(build()).name == name
