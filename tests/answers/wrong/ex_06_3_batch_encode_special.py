"""Encodes every definition at once with encode_batch, whose default refuses special-token text: a
definition that quotes <|endoftext|> makes it raise instead of being counted."""

from course_lib import cost, tokens, wire

EXPECT = "disallowed special token '<|endoftext|>'"


def answer(servers, encoding="o200k_base"):
    texts = [cost.serialize(cost.host_sends(tool)) for server in servers for tool in wire.run_sync(wire.list_tools, server)]
    return sum(len(ids) for ids in tokens.encoding(encoding).encode_batch(texts))
