"""Right: one compiled regular expression per class, over every text including the title (the name, each
parameter's description, title and enum values); its own test for
invisible characters (Cf, or Unicode's Default_Ignorable ranges, which hold the variation selectors), after
dropping the one U+FE0E/U+FE0F an emoji may carry after its symbol."""
import re
import unicodedata

SECRET = re.compile(r"~/\.ssh|id_rsa|\.env\b|~/\.aws|api[ _-]?key|password|private key", re.I)
HIDE = re.compile(r"\b(do not|don't|never|without)\s+(\w+\s+){0,4}?((tell|mention|inform|reveal)(ing)?\b|let\s+"
                  r"(\w+\s+){1,3}know)|\b(hide|conceal|keep)\s+(\w+\s+){1,5}from\b|"
                  r"\b(ignore|disregard|forget|override)\s+(\w+\s+){0,3}instructions", re.I)
IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
                       "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")
EMOJI_STYLE = re.compile("(?<=[\u2000-\u2bff\U0001f000-\U0001faff])[\ufe0e\ufe0f](?![\ufe00-\ufe0f])")
PUSH = re.compile(r"always (prefer|use) this tool|\bbest tool\b|instead of any other tool|over any other tool", re.I)


def texts(tool):
    found = [tool.get("name") or "", tool.get("title") or "", tool.get("description") or ""]
    for schema in (tool.get("inputSchema") or {}).get("properties", {}).values():
        found += [schema.get("description") or "", schema.get("title") or "", *map(str, schema.get("enum") or [])]
    return [EMOJI_STYLE.sub("", text) for text in found]


def is_poisoned(tool):
    return any(any(unicodedata.category(c) == "Cf" for c in t) or IGNORABLE.search(t) or SECRET.search(t) or HIDE.search(t)
               or PUSH.search(t) for t in texts(tool)) is True


answer = is_poisoned
