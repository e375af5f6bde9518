"""Counts pretty-printed JSON, which the host does not send."""

import json

from course_lib import cost, tokens, wire

EXPECT = "tokens"


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count(json.dumps(cost.host_sends(tool), indent=2), encoding)
               for server in servers for tool in wire.run_sync(wire.list_tools, server))
