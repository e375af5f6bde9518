"""Right: written from the hints alone (walkthrough 2, C4): hint 2's classes of wording as patterns (a negation, a few
words in the same clause, a verb of telling; hide/conceal/keep ... from; ignore/disregard/forget/override ...
instructions; always + prefer/use/call), not a closed list of phrases; host.invisible on each text hint 1 names
(the name, the description, every string of the input schema)."""
import re
from course_lib import host

SECRETS = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key")
ORDERS = (
    r"\b(do not|don't|never|without)\b[^.;]{0,40}?\b(tell|mention|reveal|say|inform)(s|ing)?\b",  # negation, telling
    r"\b(do not|don't|never|without)\b[^.;]{0,40}?\blet\b[^.;]{0,30}?\bknow\b",
    r"\b(hide|conceal|keep)\b[^.;]{0,40}?\bfrom\b",
    r"\b(ignore|disregard|forget|override)\b[^.;]{0,40}?\binstructions\b",
    r"\balways\b[^.;]{0,20}?\b(prefer|use|call)\b",
    r"\bthe best tool\b",
    r"\bany other tool\b",
)


def strings(value):
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return [value] if isinstance(value, str) else []


def is_poisoned(tool: dict) -> bool:
    texts = [tool.get("name") or "", tool.get("description") or ""] + strings(tool.get("inputSchema") or {})
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
