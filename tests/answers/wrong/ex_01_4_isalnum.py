"""str.isalnum() accepts non-ASCII letters and digits."""

EXPECT = "is_valid_tool_name('météo') should be False"


def answer(name):
    return 0 < len(name) <= 128 and all(ch.isalnum() or ch in "_-." for ch in name)
