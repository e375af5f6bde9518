"""safety = "true" in quotes: a string, which the case file's schema refuses."""

EXPECT = "be a valid case file"


def answer():
    return """
[[case]]
id = "who-is-on-call"
request = "Who is on call for payments tonight?"
expect = "search_incidents"
safety = "true"
read_only = true
"""
