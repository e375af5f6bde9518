"""Claims fixed after the sixth review (issue 28, review round 6): each sentence's test runs the code it
describes and reads the figures or words from the lesson itself."""

from __future__ import annotations

import json
from pathlib import Path

from claims_ledger import cited_paragraphs, claim
from course_lib import wire
from course_lib.servers import incident_overloaded, incidents

LESSON_05 = Path(__file__).resolve().parents[2] / "notebooks" / "05_safe_mutation_incidents.ipynb"


@claim("overloaded-update-overwrites-the-title")
def test_the_overloaded_update_overwrites_the_title_and_lesson_05_maps_it_to_no_desk_tool():
    (paragraph,) = cited_paragraphs("overloaded-update-overwrites-the-title")
    assert "`update` (overwrite the title)" in paragraph and "do not belong on the desk" in paragraph

    store = incidents.Store()
    title, notes = store.lookup("INC-103").title, list(store.lookup("INC-103").notes)

    async def update() -> dict:
        async with wire.connect(incident_overloaded.build_server("ben", store)) as client:
            return wire.dump(await client.call_tool("incident", {"action": "update", "id": "INC-103",
                                                                 "text": "Search index two days old"}))

    assert not wire.run_sync(update)["isError"]
    after = store.lookup("INC-103")
    assert title != after.title == "Search index two days old"
    assert list(after.notes) == notes, "update adds no note: it is not add_incident_note"

    (table,) = [cell for cell in json.loads(LESSON_05.read_text(encoding="utf-8"))["cells"]
                if cell["cell_type"] == "code" and "actions = {" in "".join(cell["source"])]
    shown = "".join(table["outputs"][-1]["data"]["text/plain"]).splitlines()
    (row,) = [line.split() for line in shown if line.startswith("update ")]
    assert row == ["update", "(none)", "-"], row
