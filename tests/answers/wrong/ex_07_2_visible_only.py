"""Wrong: every phrase class, but no look at invisible characters."""

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell",
           "don't tell", "never tell", "don't mention", "do not mention", "ignore previous", "ignore all previous",
           "always prefer", "always use this tool", "best tool", "any other tool")


def is_poisoned(tool):
    texts = [tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(p in t.lower() for t in texts for p in PHRASES)


answer = is_poisoned
EXPECT = "count_words passed"
