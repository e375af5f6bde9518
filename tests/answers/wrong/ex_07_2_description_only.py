"""Wrong: reads only the description, so an order in a parameter's description passes."""
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell",
           "don't tell", "never tell", "don't mention", "do not mention", "ignore previous", "ignore all previous",
           "always prefer", "always use this tool", "best tool", "any other tool")


def is_poisoned(tool):
    text = tool.get("description") or ""
    return any(unicodedata.category(c) == "Cf" for c in text) or any(p in text.lower() for p in PHRASES)


answer = is_poisoned
EXPECT = "(in a parameter)"
