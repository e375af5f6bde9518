"""Right: walks every string in the whole definition (names, schemas, descriptions) recursively."""
from course_lib import host

PHRASES = ("~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key", "do not tell",
           "don't tell", "never tell", "don't mention", "do not mention", "ignore previous", "ignore all previous",
           "always prefer", "always use this tool", "best tool", "any other tool")


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
        if host.invisible(text) or any(p in text.lower() for p in PHRASES):
            return True
    return False


answer = is_poisoned
