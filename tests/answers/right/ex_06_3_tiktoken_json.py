"""Encodes the compact wire JSON itself with the named encoding."""

from course_lib import tokens, wire


def answer(servers, encoding="o200k_base"):
    enc = tokens.encoding(encoding)
    per_server = [wire.run_sync(wire.list_tools, server) for server in servers]
    return sum(len(enc.encode(wire.to_json(tool), disallowed_special=())) for tools in per_server for tool in tools)
