"""An unseen mutant (unseen11, W1): remembers each server's total by its id() and the encoding, so a server
object whose tools changed since the last call gets the old figure."""

from course_lib import cost, tokens, wire

EXPECT = "found 93 for [desk, the same server object, its tools reworded since the last call] in o200k_base"

_MEMO = {}


def answer(servers, encoding="o200k_base"):
    total = 0
    for server in servers:
        key = (id(server), encoding)
        if key not in _MEMO:
            _MEMO[key] = sum(tokens.count(cost.host_sends(tool), encoding)
                             for tool in wire.run_sync(wire.list_tools, server))
        total += _MEMO[key]
    return total
