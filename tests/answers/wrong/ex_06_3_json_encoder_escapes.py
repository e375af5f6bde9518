"""Serializes each definition with json.JSONEncoder, whose ensure_ascii default writes every non-ASCII
character as a \\uXXXX escape: not the text the host receives, and more tokens."""

import json

from course_lib import cost, tokens, wire

EXPECT = "that is the total with non-ASCII characters \\u-escaped"

COMPACT = json.JSONEncoder(separators=(",", ":"))


def answer(servers, encoding="o200k_base"):
    listed = [cost.host_sends(tool) for server in servers for tool in wire.run_sync(wire.list_tools, server)]
    return sum(tokens.count(COMPACT.encode(tool), encoding) for tool in listed)
