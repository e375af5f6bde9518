"""Right: walks every string in the whole definition (names, schemas, descriptions) recursively; phrases for
secrets and pushes, one pattern for orders to conceal or to drop other instructions."""
import re

from course_lib import host

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key",
           "always prefer", "always use this tool", "best tool", "any other tool")
ORDER = re.compile(r"\b(?:(?:do not|don't|never|without)\b[^.;]*?\b(?:(?:tell|mention|reveal|inform)(?:s|ing)?|let\b[^.;]*\bknow)"
                   r"|(?:hide|conceal|keep)\b[^.;]*\bfrom|(?:ignore|disregard|forget|override)\b[^.;]*\binstructions)\b")


def strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value


def is_poisoned(tool):
    for text in strings(tool):
        if host.invisible(text) or any(p in text.lower() for p in PHRASES) or ORDER.search(text.lower()):
            return True
    return False


answer = is_poisoned
