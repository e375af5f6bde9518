"""Wrong: matches the phrases only in lower case, so 'IGNORE PREVIOUS INSTRUCTIONS' passes."""
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell",
           "don't tell", "never tell", "don't mention", "do not mention", "ignore previous", "ignore all previous",
           "always prefer", "always use this tool", "best tool", "any other tool", "Do not tell", "Don't mention",
           "Never tell", "Always prefer", "API key")


def is_poisoned(tool):
    texts = [tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(any(unicodedata.category(c) == "Cf" for c in t) or any(p in t for p in PHRASES) for t in texts)


answer = is_poisoned
EXPECT = "PRIVATE KEY"
