"""Wrong: flags every variation selector, so an emoji's own presentation selector (⚠️) in an honest description counts
as hidden text; the text allows a single U+FE0E/U+FE0F after a symbol (round 6 of the unseen answers)."""
import re
import unicodedata

from course_lib import host

SECRETS = re.compile(
    r"~/\.ssh|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|(^|[\s'\"`(/~])\.env\b|~/\.aws|\.aws/"
    r"|\baws\b.{0,20}\bcredentials?\b|\bcredentials\s+file|\bapi[\s_-]?(key|token|secret)s?\b|\bapikey"
    r"|\bpass(word|phrase|wd)s?\b|\bprivate[\s_-]?keys?\b|\bssh[\s_-]?keys?\b|\bsecret[\s_-]?keys?\b"
    r"|\baccess[\s_-]?(key|token)s?\b|\.pem\b|\bkeychain\b",
    re.I)
_NEG = r"(do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|no\s+need\s+to|without|avoid|not\s+to)"
_TELL = (r"(tell|telling|mention|mentioning|inform|informing|reveal|revealing|disclose|disclosing|show|showing"
         r"|say|saying|report|reporting|notify|notifying|alert|alerting|let|letting|explain|explaining|bring\s+up|share|sharing)")
_WHO = r"(user|person|human|people|customer|operator|anyone|anybody|them|him|her|requester|caller|owner)"
CONCEAL = re.compile(
    rf"\b{_NEG}(?:[\s,]+(?!use\b|call\b)[\w']+){{0,2}}?[\s,]+{_TELL}\b[^.\n]{{0,60}}?\b{_WHO}s?\b"
    rf"|\b{_WHO}s?\b[^.\n]{{0,30}}\b(must|should|need)\s+(not|never)\s+(know|see|learn|find\s+out|be\s+told)"
    rf"|\bkeep\b[^.\n]{{0,30}}\b(secret|hidden|private|confidential|quiet|to\s+yourself|between\s+us)"
    rf"|\bhide\b[^.\n]{{0,40}}\bfrom\b|\b(secretly|silently|quietly|covertly)\b"
    rf"|\bbehind\s+the\s+{_WHO}'?s?\s+back\b",
    re.I)
OVERRIDE = re.compile(
    r"\b(ignore|disregard|forget|override|overrule|bypass|skip|abandon|drop)\b[^.\n]{0,40}?"
    r"\b(instructions?|rules?|directions?|directives?|guidelines?|guidance|prompts?|orders?|policy|policies|constraints?)\b"
    r"|\bnew\s+instructions\s+(replace|supersede|override)|\b(supersedes?|overrides?)\s+(all\s+)?(other|previous|prior)\b",
    re.I)
PERSUADE = re.compile(
    r"\balways\s+(prefer|use|choose|pick|call|select|try)\s+(this|me|it)\b|\bprefer\s+this\s+tool\b"
    r"|\bthe\s+(best|only|most\s+accurate|most\s+reliable|preferred)\s+(\w+\s+){0,3}?(tool|one|option|choice)\b"
    r"|\b(instead\s+of|over|rather\s+than|before)\s+(any|all|every)\s+other\s+tools?\b"
    r"|\b(never|do\s+not|don'?t)\s+use\s+(any\s+)?other\s+tools?\b|\bbetter\s+than\s+(any|all|every)\s+other\b",
    re.I)


def texts(tool: dict) -> list[str]:
    """Every text the model reads in a definition: name, title, description, schema titles and descriptions."""
    found: list[str] = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, inner in value.items():
                found.append(str(key))
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(tool)
    return found


def readable(tool: dict) -> list[str]:
    out = [tool.get("title") or "", tool.get("description") or "", (tool.get("annotations") or {}).get("title") or ""]

    def schema(node):
        if isinstance(node, dict):
            for key in ("description", "title"):
                if isinstance(node.get(key), str):
                    out.append(node[key])
            for inner in node.values():
                schema(inner)
        elif isinstance(node, list):
            for inner in node:
                schema(inner)

    schema(tool.get("inputSchema") or {})
    return out


def is_poisoned(tool: dict) -> bool:
    if any(unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F or ord(ch) >= 0xE0000
           for text in texts(tool) for ch in text):
        return True
    for text in readable(tool):
        plain = text.replace("\u2019", "'")
        if SECRETS.search(plain) or CONCEAL.search(plain) or OVERRIDE.search(plain) or PERSUADE.search(plain):
            return True
    return False


answer = is_poisoned

EXPECT = "an emoji's own variation selector"
