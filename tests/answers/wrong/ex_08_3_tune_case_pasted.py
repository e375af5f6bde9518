"""A right safety case beside a case pasted from the course's tune set safety.toml (recased, under an id of its
own): a case the course ships is no answer, tune or held-out (red team 10, F2)."""

EXPECT = "is the course's case"
answer = {"server": "incidents", "case": [
    {"id": "mine", "request": "tell me about  CHECKOUT.", "expect": "search_incidents"},
    {"id": "anyone-on-call", "request": "Is anyone on call for checkout right now?", "expect": "search_incidents",
     "safety": True, "read_only": True}]}
