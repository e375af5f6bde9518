"""Says 'protocol error' and 'tool execution error', the lesson's names for the two kinds, where the text asks for
the words "protocol" and "execution": leniency the text does not state is not given."""

EXPECT = "'protocol error'"


def answer():
    p, e = "protocol error", "tool execution error"
    return {"a": p, "b": p, "c": p, "d": e, "e": e, "f": e, "g": p, "h": e}
