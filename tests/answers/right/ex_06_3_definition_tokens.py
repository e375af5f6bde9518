"""cost.definition_tokens per server, summed."""

from course_lib import cost, wire


def answer(servers, encoding="o200k_base"):
    return int(sum(cost.definition_tokens(wire.run_sync(wire.list_tools, s), encoding) for s in servers))
