"""Right: one compiled regular expression per class, over every text including the title."""
import re
import unicodedata

SECRET = re.compile(r"~/\.ssh|id_rsa|\.env\b|~/\.aws|api[ _-]?key|password|private key", re.I)
HIDE = re.compile(r"\b(do not|don't|never)\s+(tell|mention)\b|ignore (all )?previous instructions", re.I)
PUSH = re.compile(r"always (prefer|use) this tool|\bbest tool\b|instead of any other tool|over any other tool", re.I)


def texts(tool):
    yield tool.get("title") or ""
    yield tool.get("description") or ""
    for schema in (tool.get("inputSchema") or {}).get("properties", {}).values():
        yield schema.get("description") or ""


def is_poisoned(tool):
    return any(any(unicodedata.category(c) == "Cf" for c in t) or SECRET.search(t) or HIDE.search(t)
               or PUSH.search(t) for t in texts(tool)) is True


answer = is_poisoned
