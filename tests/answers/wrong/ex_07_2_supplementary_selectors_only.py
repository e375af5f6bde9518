"""Wrong: its own invisible test knows category Cf and the supplementary variation selectors (VS17-VS256), not
VS1-VS16: an order spelled in the BMP selectors alone gets through (a mutant of the solution that survived the
checker before it probed that run; mutation run of 2026-12-07)."""
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell", "don't tell",
           "never tell", "do not mention", "don't mention", "ignore previous", "ignore all previous", "always prefer",
           "always use this", "best tool", "any other tool")


def hidden(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cf" or 0xE0100 <= ord(ch) <= 0xE01EF for ch in text)


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(hidden(text) or any(phrase in text.lower() for phrase in PHRASES) for text in texts)


answer = is_poisoned

EXPECT = "not flagged: 'VS1-VS16 carrying an order'"
