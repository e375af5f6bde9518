"""Wrong: counts category Cf and the variation selectors (a lone U+FE0E/U+FE0F after a symbol allowed) but not the
other Default_Ignorable characters the text names, so a Hangul filler (U+3164, drawn as nothing) passes (a mutant of
the solution that survived the checker before it probed one; mutation run of 2026-12-07)."""
import unicodedata

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell", "don't tell",
           "never tell", "do not mention", "don't mention", "ignore previous", "ignore all previous", "always prefer",
           "always use this", "best tool", "any other tool")


def selector(ch: str) -> bool:
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


def hidden(text: str) -> bool:
    for i, ch in enumerate(text):
        if unicodedata.category(ch) != "Cf" and not selector(ch):
            continue
        after = text[i + 1:i + 2]
        if (ch in "\ufe0e\ufe0f" and i and unicodedata.category(text[i - 1]).startswith("S")
                and not (after and selector(after))):
            continue
        return True
    return False


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(hidden(text) or any(phrase in text.lower() for phrase in PHRASES) for text in texts)


answer = is_poisoned

EXPECT = "not flagged: 'a Hangul filler'"
