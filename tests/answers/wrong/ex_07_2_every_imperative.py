"""Wrong: flags every description that tells the model what not to do, which every honest description does."""


def is_poisoned(tool):
    text = (tool.get("description") or "").lower()
    return "do not" in text or "~/" in text or "always" in text or "best" in text


answer = is_poisoned
EXPECT = "return False for every tool of every course server"
