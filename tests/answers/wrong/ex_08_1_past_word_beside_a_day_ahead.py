"""A negative with a past word ("last") that still asks for tomorrow's forecast: a day ahead makes it a request
the tool serves, whatever other word it holds."""

EXPECT = "the negative match asks 'Will it rain at the last match in Oslo tomorrow?'"
answer = {"server": "weather", "case": [
    {"id": "oslo", "request": "Forecast for Oslo, the next 3 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 3}},
    {"id": "denver", "request": "Daily highs in Denver this week", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "yesterday", "request": "How hot was it in Nairobi yesterday?", "expect": "none"},
    {"id": "match", "request": "Will it rain at the last match in Oslo tomorrow?", "expect": "none"},
    {"id": "taxi", "request": "Call me a taxi to the airport.", "expect": "none"},
]}
