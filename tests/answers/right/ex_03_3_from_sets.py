"""Built from two groups, in another order."""


def answer():
    protocol = "gcba"
    execution = "hfed"
    kinds = {letter: "execution" for letter in execution}
    kinds.update({letter: "protocol" for letter in protocol})
    return kinds
