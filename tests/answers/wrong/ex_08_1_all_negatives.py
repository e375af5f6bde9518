"""Only negatives: a tool that is never called would pass every case."""

EXPECT = "include at least two cases that expect get_daily_forecast"
answer = {"server": "weather", "case": [{"id": f"n{i}", "request": r, "expect": "none"} for i, r in enumerate(
    ["Weather last week in Oslo", "Paris temperature now", "Book a hotel", "Convert 5 C to F", "Tell a joke"])]}
