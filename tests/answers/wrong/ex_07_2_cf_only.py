"""Wrong: every text joined into one lower-cased string, but only category Cf counted as invisible: a run of
variation selectors (category Mn, Default_Ignorable) carrying an order passes."""
import unicodedata

SECRETS = ["~/.ssh", "id_rsa", ".env", "~/.aws", "api key", "password", "private key"]
CONCEAL = ["do not tell", "don't tell", "never tell", "don't mention", "do not mention", "ignore previous",
           "ignore all previous"]
PERSUADE = ["always prefer", "always use this tool", "the best tool", "instead of any other tool"]


def is_poisoned(tool):
    params = tool.get("inputSchema", {}).get("properties", {})
    raw = " ".join([tool.get("description", "")] + [p.get("description", "") for p in params.values()])
    if any(unicodedata.category(c) == "Cf" for c in raw):
        return True
    text = raw.lower()
    return any(phrase in text for phrase in SECRETS + CONCEAL + PERSUADE)


answer = is_poisoned
EXPECT = "not flagged: 'variation selectors carrying an order'"
