"""An unseen answer (round 9): counts a tool name once across servers, though each server sends its own
definition. Its message named the check's internal key ("that is the total with twice")."""

from course_lib import cost, tokens, wire

EXPECT = ("found 1,101 for [workspace (calendar), generated, workspace (calendar, mail)] in cl100k_base (-475 "
          "tokens; that is the total with a tool two servers both offer counted once, not once per server)")


def answer(servers, encoding="o200k_base"):
    seen = set()
    total = 0
    for server in servers:
        for tool in wire.run_sync(wire.list_tools, server):
            if tool.name in seen:
                continue
            seen.add(tool.name)
            total += tokens.count(cost.host_sends(tool), encoding)
    return total
