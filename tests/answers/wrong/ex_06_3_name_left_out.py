"""An unseen mutant (unseen11, M7): counts each definition without its name. It keeps nothing between calls, so
its wrong figures are told as a wrong count, never as something kept from an earlier call."""

from course_lib import cost, tokens, wire

EXPECT = "found 1,982 for [weather, clock, workspace] in o200k_base (-78 tokens)"
NOT_SAID = ("nothing kept from an earlier call",)


def answer(servers, encoding="o200k_base"):
    return sum(tokens.count({key: value for key, value in cost.host_sends(tool).items() if key != "name"}, encoding)
               for server in servers for tool in wire.run_sync(wire.list_tools, server))
