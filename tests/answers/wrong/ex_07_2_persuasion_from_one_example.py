"""Wrong: takes its persuasion phrases from the one poisoned example (summarize_note), so "always use this tool" passes."""
import re
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key",
           "always prefer", "most accurate tool", "the only one you need")
ORDER = re.compile(r"\b(?:(?:do not|don't|never|without)\b[^.;]*?\b(?:(?:tell|mention|reveal|inform)(?:s|ing)?|let\b[^.;]*"
                   r"\bknow)|(?:hide|conceal|keep)\b[^.;]*\bfrom|(?:ignore|disregard|forget|override)\b[^.;]*\binstructions)\b")


def is_poisoned(tool):
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(any(unicodedata.category(c) == "Cf" for c in t) or any(p in t.lower() for p in PHRASES)
               or ORDER.search(t.lower()) for t in texts)


answer = is_poisoned
EXPECT = "return True when it urges the model to prefer the tool"
