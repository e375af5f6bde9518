"""Claims fixed after review claims13a (issue 28): each test runs what its sentence describes and reads the words
it asserts from the lesson (`cited_paragraphs`)."""

from __future__ import annotations

import re

from claims_ledger import cited_paragraphs, claim
from course_lib import show, wire

FIELDS = {  # a definition's field as the lesson names it -> (the card's mark of it, Anthropic's key, OpenAI's key)
    "name": ("tool weather", "name", "name"),
    "description": ("Weather tool.", "description", "description"),
    "input schema": ("parameter", "input_schema", "parameters"),
    "output schema": ("output:", "output_schema", "output_schema"),
    "annotations": ("annotations:", "annotations", "annotations"),
}


def _named(words: str) -> list[str]:
    return [part.strip() for part in re.split(r",| and ", words) if part.strip()]


@claim("first-card-shows-more-than-provider-slots")
def test_lesson_01s_first_card_shows_the_provider_slots_and_the_fields_they_lack():
    """Lesson 01 c2: the card shows the whole tools/list entry, of which the Anthropic and OpenAI request types
    have slots for the fields the sentence names first and none for those it names second."""
    import anthropic.types as anthropic
    import openai.types.shared_params as openai
    from course_lib.servers import weather

    (paragraph,) = cited_paragraphs("first-card-shows-more-than-provider-slots")
    stated = re.search(r"The card shows the whole `tools/list` entry: the ([\w ,]+?), which the Anthropic and "
                       r"OpenAI request formats have slots for \(lesson 00\), and the ([\w ,]+?), which they do "
                       r"not:", paragraph)
    assert stated, paragraph
    slots, lacking = _named(stated.group(1)), _named(stated.group(2))
    assert set(slots) | set(lacking) == set(FIELDS), (slots, lacking)  # every field the card shows, each once
    anthropic_keys, openai_keys = set(anthropic.ToolParam.__annotations__), set(openai.FunctionDefinition.__annotations__)
    for field in slots:
        assert FIELDS[field][1] in anthropic_keys and FIELDS[field][2] in openai_keys, field
    for field in lacking:
        assert not {FIELDS[field][1], FIELDS[field][2], re.sub(r"_(\w)", lambda m: m[1].upper(), FIELDS[field][1])} \
            & (anthropic_keys | openai_keys), field
    bad_tool, _ = wire.run_sync(wire.list_tools, weather.build_server())
    card = show.tool_card(bad_tool).text
    for field in FIELDS:
        assert FIELDS[field][0] in card, (field, card)
