"""Wrong: drops every U+FE0E/U+FE0F before host.invisible, to let emoji through: a run of them after a letter,
one per bit, then carries an order unseen; the text allows a single one after a symbol only (a mutant of the
solution that survived the checker before it probed that run; mutation run of 2026-12-07)."""
from course_lib import host

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell", "don't tell",
           "never tell", "do not mention", "don't mention", "ignore previous", "ignore all previous", "always prefer",
           "always use this", "best tool", "any other tool")


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    for text in texts:
        if host.invisible(text.replace("\ufe0e", "").replace("\ufe0f", "")):
            return True
        if any(phrase in text.lower() for phrase in PHRASES):
            return True
    return False


answer = is_poisoned

EXPECT = "not flagged: 'presentation selectors carrying an order'"
