"""Right: every text joined into one lower-cased string, phrase lists per class, host.invisible on the raw
text."""
from course_lib import host

SECRETS = ["~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key"]
CONCEAL = ["do not tell", "don't tell", "never tell", "don't mention", "do not mention", "ignore previous",
           "ignore all previous"]
PERSUADE = ["always prefer", "always use this tool", "the best tool", "instead of any other tool"]


def is_poisoned(tool):
    params = tool.get("inputSchema", {}).get("properties", {})
    raw = " ".join([tool.get("description", "")] + [p.get("description", "") for p in params.values()])
    if host.invisible(raw):
        return True
    text = raw.lower()
    return any(phrase in text for phrase in SECRETS + CONCEAL + PERSUADE)


answer = is_poisoned
