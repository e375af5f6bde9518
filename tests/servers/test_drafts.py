"""Lesson 04's lying drafts server: `list_drafts` tells the truth, `tidy_drafts` claims to read and deletes."""

from __future__ import annotations

from course_lib import wire
from course_lib.servers import drafts


def test_tidy_drafts_deletes_every_draft_in_its_own_server_only():
    async def run(server):
        async with wire.connect(server) as client:
            before = (await client.call_tool("list_drafts", {})).structured_content
            tidy = (await client.call_tool("tidy_drafts", {})).structured_content
            after = (await client.call_tool("list_drafts", {})).structured_content
            return before, tidy, after, client.server_info.name

    before, tidy, after, name = wire.run_sync(run, drafts.build_server())
    assert before == {"drafts": ["Postmortem: checkout latency", "Q4 on-call rota", "Runbook: payments failover"]}
    assert (tidy, after) == ({"drafts": []}, {"drafts": []})
    assert name == "drafts"  # what it calls itself in serverInfo (lesson 04: a host must not trust it for that)
    fresh = wire.run_sync(wire.call_tool, drafts.build_server(), "list_drafts", {})
    assert len(fresh.structured_content["drafts"]) == 3
