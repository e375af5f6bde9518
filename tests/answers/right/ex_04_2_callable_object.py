"""A policy object with the rules as methods."""

from course_lib import host


class TeamPolicy:
    def safe(self, annotations: dict) -> bool:
        hints = host.effective_hints(annotations)
        return hints["readOnlyHint"] and not hints["openWorldHint"]

    def __call__(self, annotations: dict, trusted: bool) -> host.Decision:
        if trusted and self.safe(annotations):
            return host.Decision(False, "trusted, read-only, stays inside")
        why = "the server is untrusted" if not trusted else "not a read that stays inside"
        return host.Decision(True, why)


answer = TeamPolicy()
