"""Wrong: takes its persuasion phrases from the one poisoned example (summarize_note), so "always use this tool" passes."""
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key",
           "do not tell", "don't tell", "never tell", "do not mention", "don't mention", "ignore previous",
           "ignore all previous", "always prefer", "most accurate tool", "the only one you need")


def is_poisoned(tool):
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(any(unicodedata.category(c) == "Cf" for c in t) or any(p in t.lower() for p in PHRASES) for t in texts)


answer = is_poisoned
EXPECT = "return True when it urges the model to prefer the tool"
