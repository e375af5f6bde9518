"""Wrong: flags every text with the word 'key' in it, an order or not: an honest description ('the lookup key is its
service name') counts as poisoned; the text asks for what attacks say, not for words that honest descriptions use
too (a mutant of the solution that survived the checker before it tried that description; mutation run of
2026-12-07)."""
from course_lib import host

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "key", "password", "private key", "do not tell", "don't tell",
           "never tell", "do not mention", "don't mention", "ignore previous", "ignore all previous", "always prefer",
           "always use this", "best tool", "any other tool")


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("title") or "", tool.get("description") or ""]
    texts += [p.get("description") or "" for p in tool.get("inputSchema", {}).get("properties", {}).values()]
    return any(bool(host.invisible(text)) or any(phrase in text.lower() for phrase in PHRASES) for text in texts)


answer = is_poisoned

EXPECT = "a clean description flagged: 'Read one runbook; the lookup key"
