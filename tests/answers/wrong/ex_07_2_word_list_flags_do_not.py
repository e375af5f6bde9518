"""An unseen answer (round 9): a word list ("do not", "always", "instead of", ...) that flags clean definitions for
their words. Its message also blamed an emoji's own variation selector, which it never flagged: the emoji probe
holds the clean text that the words flag (tests/checks/test_messages.py checks that blame is gone)."""

from course_lib import host

EXPECT = "found deploy.start_deployment flagged"


def answer(tool: dict) -> bool:
    texts = [tool.get("description") or ""]
    for spec in (tool.get("inputSchema") or {}).get("properties", {}).values():
        texts.append(spec.get("description") or "")
    words = ("do not", "don't", "ignore", "password", "api key", ".ssh", "id_rsa", ".env", ".aws",
             "private key", "always", "best tool", "instead of")
    return any(host.invisible(t) or any(w in t.lower() for w in words) for t in texts)
