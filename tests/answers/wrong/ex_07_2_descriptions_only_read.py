"""Catches every wording, but reads only the description and the parameters' descriptions: a zero-width space in
the tool's name (or a parameter's title, or an enum value), which the model reads too, goes through."""
import re

from course_lib import host

EXPECT = "not flagged: 'a zero-width space (in the name)'"
ORDERS = (r"\b(do not|don't|never|without)\b[^.;]{0,40}?\b((tell|mention|reveal|say|inform)(s|ing)?\b|let\b[^.;]{0,30}?\bknow)",
          r"\b(hide|conceal|keep)\b[^.;]{0,40}?\bfrom\b", r"\b(ignore|disregard|forget|override)\b[^.;]{0,40}?\binstructions\b",
          r"\balways\b[^.;]{0,20}?\b(prefer|use|call)\b", r"\bthe best tool\b", r"\bany other tool\b")
SECRETS = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key")


def answer(tool: dict) -> bool:
    texts = [tool.get("description") or ""]
    texts += [spec.get("description") or "" for spec in tool.get("inputSchema", {}).get("properties", {}).values()]
    for text in texts:
        lowered = text.lower().replace("\u2019", "'")
        if host.invisible(text) or any(secret in lowered for secret in SECRETS):
            return True
        if any(re.search(order, lowered) for order in ORDERS):
            return True
    return False
