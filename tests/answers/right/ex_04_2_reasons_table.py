"""The three outcomes as a table of (ask, reason); the hints read with host.DEFAULTS by hand."""

from course_lib import host

OUTCOMES = {
    "untrusted": (True, "This server is not trusted, so its hints count for nothing."),
    "inside read": (False, "A trusted tool that only reads and stays inside its server."),
    "other": (True, "A trusted tool that may change data or reach outside; ask first."),
}


def answer(annotations, trusted):
    hints = {**host.DEFAULTS, **{k: v for k, v in annotations.items() if k in host.DEFAULTS and v is not None}}
    if not trusted:
        outcome = "untrusted"
    elif hints["readOnlyHint"] and not hints["openWorldHint"]:
        outcome = "inside read"
    else:
        outcome = "other"
    ask, reason = OUTCOMES[outcome]
    return host.Decision(ask, reason)
