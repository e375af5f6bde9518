"""Encodes the compact JSON of name, description and input schema itself with the named encoding."""

import json

from course_lib import tokens, wire


def answer(servers, encoding="o200k_base"):
    enc = tokens.encoding(encoding)
    per_server = [wire.run_sync(wire.list_tools, server) for server in servers]
    sent = [{"name": tool.name, "description": tool.description or "", "input_schema": tool.input_schema}
            for tools in per_server for tool in tools]
    return sum(len(enc.encode(json.dumps(one, ensure_ascii=False, separators=(",", ":")), disallowed_special=()))
               for one in sent)
