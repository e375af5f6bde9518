"""An unseen mutant (unseen11, W1): lists the tools on every call but remembers the total by the tool names and
the encoding, so a redeploy that rewords descriptions under the same tool names gets the old figure."""

from course_lib import cost, tokens, wire

EXPECT = "expected each call counted from the servers it is given, nothing kept from an earlier call"

_MEMO = {}


def answer(servers, encoding="o200k_base"):
    listed = [tool for server in servers for tool in wire.run_sync(wire.list_tools, server)]
    key = (tuple(tool.name for tool in listed), encoding)
    if key not in _MEMO:
        _MEMO[key] = sum(tokens.count(cost.host_sends(tool), encoding) for tool in listed)
    return _MEMO[key]
