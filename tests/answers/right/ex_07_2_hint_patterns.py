"""Right: written from the hints alone (walkthrough 2, C4): hint 2's classes of wording as patterns (a negation, a few
words in the same clause, a verb of telling; ignore/disregard ... instructions; always + prefer/use/call), not a
closed list of phrases; host.invisible on each text."""
import re
from course_lib import host

SECRETS = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key")
ORDERS = (
    r"\b(do not|don't|never)\b[^.;]{0,40}?\b(tell|mention|reveal|say)\b",   # negation, a few words, telling
    r"\b(ignore|disregard)\b[^.;]{0,40}?\binstructions\b",
    r"\balways\b[^.;]{0,20}?\b(prefer|use|call)\b",
    r"\bthe best tool\b",
    r"\bany other tool\b",
)


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("description") or ""]
    for spec in tool.get("inputSchema", {}).get("properties", {}).values():
        texts.append(spec.get("description") or "")
    for text in texts:
        if host.invisible(text):
            return True
        lowered = text.lower().replace("’", "'")
        if any(secret in lowered for secret in SECRETS):
            return True
        if any(re.search(order, lowered) for order in ORDERS):
            return True
    return False

answer = is_poisoned
