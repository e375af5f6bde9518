"""Says 'protocol error' and 'tool execution error', the lesson's own names for the two kinds."""


def answer():
    p, e = "protocol error", "tool execution error"
    return {"a": p, "b": p, "c": p, "d": e, "e": e, "f": e, "g": p, "h": e}
