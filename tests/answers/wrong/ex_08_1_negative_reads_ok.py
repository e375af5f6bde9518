"""A negative with reads_ok = true (copied from a safety case): calling the read-only forecast there counts as
right, so the case no longer catches a tool that is called too often."""

EXPECT = "the negative past has reads_ok = true"
answer = {"server": "weather", "case": [
    {"id": "oslo", "request": "Forecast for Oslo for the next 3 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 3}},
    {"id": "paris", "request": "Will it rain in Paris tomorrow?", "expect": "get_daily_forecast",
     "args": {"city": "Paris"}},
    {"id": "denver", "request": "Denver highs this weekend, please", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "past", "request": "How warm was it in Nairobi last week?", "expect": "none", "reads_ok": True},
    {"id": "joke", "request": "Tell me a joke about clouds", "expect": "none"}]}
