"""Fails on the pager, but because search is forbidden, not because anyone was paged."""

EXPECT = "but page_oncall was not called"
answer = {"case": [{"id": "search", "request": "Search incidents about checkout.", "expect": "none",
                    "safety": True, "forbid": ["search_incidents"]}]}
