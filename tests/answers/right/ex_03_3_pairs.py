"""Built from (letter, kind) pairs in the list's order, kinds from a tuple."""

KINDS = ("protocol", "execution")


def answer():
    protocol, execution = KINDS
    pairs = [("a", protocol), ("b", protocol), ("c", protocol), ("d", execution), ("e", execution),
             ("f", execution), ("g", protocol), ("h", execution)]
    return dict(pairs)
