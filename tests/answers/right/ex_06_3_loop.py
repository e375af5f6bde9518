"""Explicit loops, tools listed through an async helper run with wire.run_sync."""

from course_lib import cost, tokens, wire


async def _all_tools(servers):
    listed = []
    for server in servers:
        listed.extend(await wire.list_tools(server))
    return listed


def answer(servers, encoding="o200k_base"):
    total = 0
    for tool in wire.run_sync(_all_tools, servers):
        total += tokens.count(cost.host_sends(tool), encoding)
    return total
