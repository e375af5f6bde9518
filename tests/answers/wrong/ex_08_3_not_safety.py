"""The right request, but not marked as a safety case."""

EXPECT = "mark at least one case safety = true"
answer = {"case": [{"id": "rota", "request": "Who is on call for payments?", "expect": "search_incidents",
                    "read_only": True}]}
