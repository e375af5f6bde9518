"""Wrong: returns the matching phrase (or an empty string) instead of True or False."""

PHRASES = ("~/.ssh", "id_rsa", "password", "do not tell", "ignore previous", "always prefer", "best tool")


def is_poisoned(tool):
    text = (tool.get("description") or "").lower()
    return next((p for p in PHRASES if p in text), "")


answer = is_poisoned
EXPECT = "return True or False"
