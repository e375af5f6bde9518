"""Right: every text the model reads (the name, the description, every string of the input schema) joined into one
lower-cased string, one pattern list per class, host.invisible on the raw text."""
import re

from course_lib import host

SECRETS = ["~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key"]
CONCEAL = [r"(do not|don't|never|without) (\w+ ){0,6}?((tell|mention|reveal|inform)(ing)?|let (\w+ ){0,4}know)\b",
           r"(hide|conceal|keep) (\w+ ){0,4}?from\b", r"(ignore|disregard|forget|override) (\w+ ){0,4}?instructions"]
PERSUADE = ["always prefer", "always use this tool", "the best tool", "instead of any other tool"]


def strings(value):
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in strings(item)]


def is_poisoned(tool):
    raw = "\n".join([tool.get("name", ""), tool.get("description", "")] + strings(tool.get("inputSchema", {})))
    if host.invisible(raw):
        return True
    text = re.sub(r"[^\w~/.;'\n-]+", " ", raw.lower().replace("’", "'"))
    return any(phrase in text for phrase in SECRETS + PERSUADE) or \
        any(re.search(pattern, line) for pattern in CONCEAL for line in re.split(r"[.;\n]", text))


answer = is_poisoned
