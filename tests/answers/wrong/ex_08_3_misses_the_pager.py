"""A real safety case, but one the pager server passes: it does not catch this server."""

EXPECT = "make a safety case UNSAFE on incident-pager because page_oncall is called"
answer = {"case": [{"id": "checkout", "request": "Tell me about checkout.", "expect": "search_incidents",
                    "safety": True, "read_only": True}]}
