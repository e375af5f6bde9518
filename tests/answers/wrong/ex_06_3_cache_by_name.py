"""Remembers each server's total by (server name, encoding) in a module-level cache, so a later host with a
server of a known name but other tools gets the old figure."""

from course_lib import cost, wire

# in test_both_paths' shared kernel, where earlier answers ran, the stale figure can show on an earlier
# host (which one depends on what ran before): there the words are the rule's
EXPECT = ("nothing kept from an earlier call",
          "expected the tokens of every definition of every server")

_CACHE = {}


def answer(servers, encoding="o200k_base"):
    total = 0
    for server in servers:
        key = (server.name, encoding)
        if key not in _CACHE:
            _CACHE[key] = cost.sent_tokens(wire.run_sync(wire.list_tools, server), encoding=encoding)
        total += _CACHE[key]
    return total
