"""A list of the names a checker might try."""

EXPECT = "(200 characters)) should be False"

_BAD = {"", "has space", "météo", "名前", "comma,name", "slash/name", "name\n", "tab\tname", "a" * 129}


def answer(name):
    return name not in _BAD
