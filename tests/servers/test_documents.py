"""Lesson 07's document desk: small results, pages with a continuation handle, no other tenant's documents."""

from __future__ import annotations

import dataclasses

import pytest

from course_lib import review, tokens, wire
from course_lib.errors import UnknownName
from course_lib.servers import documents
from conftest import call, definitions, text

ERAS = pytest.mark.parametrize("era", wire.ERAS)


@ERAS
def test_one_read_only_tool_with_a_constrained_id_and_an_optional_cursor(era):
    tools = definitions(documents.build_server(), era)
    assert list(tools) == ["read_document"]
    tool = tools["read_document"]
    assert tool["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    schema = tool["inputSchema"]
    assert schema["required"] == ["documentId"]
    assert schema["properties"]["documentId"]["pattern"] == "^DOC-[0-9]+$"
    assert schema["properties"]["cursor"]["default"] is None


def test_the_output_schema_leaves_out_every_internal_field():
    output = definitions(documents.build_server())["read_document"]["outputSchema"]
    assert set(output["properties"]) == {"documentId", "title", "text", "nextCursor"}
    internal = {f.name for f in dataclasses.fields(documents.Record)} - {"document_id", "title", "text"}
    assert internal == {"tenant", "editor_ip", "storage_key", "revisions"}
    for name in ("DOC-1", "DOC-5"):
        sent = text(call(documents.build_server(), "read_document", {"documentId": name}))
        row = documents.records()[name]
        assert row.editor_ip not in sent and row.storage_key not in sent and "revisions" not in sent


def test_the_review_has_no_findings():
    assert review.review(list(definitions(documents.build_server()).values())) == []


@ERAS
def test_a_long_document_comes_in_pages_of_at_most_page_tokens_that_add_up_to_the_whole(era):
    server = documents.build_server("ben")
    whole = documents.records()["DOC-5"].text
    assert 45_000 <= len(whole.encode()) <= 55_000
    pages, cursor = [], None

    async def read_all():
        nonlocal cursor
        async with wire.connect(server, era) as client:
            while True:
                arguments = {"documentId": "DOC-5", **({"cursor": cursor} if cursor else {})}
                result = (await client.call_tool("read_document", arguments)).structured_content
                pages.append(result["text"])
                cursor = result["nextCursor"]
                if cursor is None:
                    return

    wire.run_sync(read_all)
    assert len(pages) == -(-tokens.count(whole) // documents.PAGE_TOKENS)
    assert all(tokens.count(page) <= documents.PAGE_TOKENS + 1 for page in pages)
    assert "".join(pages) == whole


def test_a_short_document_is_one_page_with_no_cursor():
    result = call(documents.build_server(), "read_document", {"documentId": "DOC-1"})
    assert result["structuredContent"]["text"] == documents.RUNBOOK
    assert result["structuredContent"]["nextCursor"] is None


@pytest.mark.parametrize("user, forbidden", [("ana", "DOC-9"), ("ben", "DOC-9"), ("gil", "DOC-1"), ("gil", "DOC-5")])
def test_another_tenants_document_gets_the_answer_of_a_missing_one(user, forbidden):
    refused = call(documents.build_server(user), "read_document", {"documentId": forbidden})
    missing = call(documents.build_server(user), "read_document", {"documentId": "DOC-404"})
    assert refused["isError"] and missing["isError"]
    assert text(refused).replace(forbidden, "X") == text(missing).replace("DOC-404", "X")
    assert "structuredContent" not in refused


def test_a_cursor_is_a_position_not_a_permission():
    first = call(documents.build_server("ana"), "read_document", {"documentId": "DOC-5"})
    cursor = first["structuredContent"]["nextCursor"]
    for user, doc in (("gil", "DOC-5"), ("ana", "DOC-1"), ("ana", "DOC-9")):
        refused = call(documents.build_server(user), "read_document", {"documentId": doc, "cursor": cursor})
        assert refused["isError"], (user, doc)
    foreign = documents._cursor("DOC-9", 0)
    assert call(documents.build_server("ana"), "read_document", {"documentId": "DOC-9", "cursor": foreign})["isError"]
    for bad in ("zzz", "!!!", documents._cursor("DOC-5", -3), ""):
        result = call(documents.build_server("ana"), "read_document", {"documentId": "DOC-5", "cursor": bad})
        assert result["isError"] or bad == "", bad


def test_unknown_users_are_a_setup_mistake():
    with pytest.raises(UnknownName, match="unknown user 'eve'"):
        documents.build_server("eve")


def test_injected_documents_carry_what_the_lesson_says():
    rows = documents.records()
    assert "Restart the worker, then check the queue." in rows["DOC-1"].text
    assert "</untrusted-data>" in rows["DOC-2"].text and "[system]" in rows["DOC-2"].text
    assert "<tool_call>" in rows["DOC-3"].text
    visible = "".join(c for c in rows["DOC-4"].text if not 0xE0000 <= ord(c) <= 0xE007F)
    assert visible == "Thanks for the quick fix, checkout is fast again!"
    assert documents.hide("ab") == "\U000E0061\U000E0062"
