"""An unseen mutant (unseen11, W1): remembers each host's total by the names of its servers and the encoding, so
a server redeployed under its old name with reworded descriptions gets the old figure."""

from course_lib import cost, tokens, wire

# in test_both_paths' shared kernel, where earlier answers ran, the stale figure can show on an earlier
# host (which one depends on what ran before): there the words are the rule's
EXPECT = ("found 311 for [generated-5 redeployed: the same name and tool names, other descriptions] in cl100k_base",
          "expected the tokens of every definition of every server")

_CACHE = {}


def answer(servers, encoding="o200k_base"):
    key = tuple(server.name for server in servers) + (encoding,)
    if key not in _CACHE:
        _CACHE[key] = sum(tokens.count(cost.host_sends(tool), encoding)
                          for server in servers for tool in wire.run_sync(wire.list_tools, server))
    return _CACHE[key]
