"""Expects days = "5": the server would accept the text, but the harness compares exact values, so a model that
sends the number 5 fails the case."""

EXPECT = "days: '5' is not of type 'integer'"
answer = {"server": "weather", "case": [
    {"id": "oslo", "request": "Forecast for Oslo, the next 5 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": "5"}},
    {"id": "denver", "request": "Daily highs in Denver this week", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "yesterday", "request": "How hot was it in Nairobi yesterday?", "expect": "none"},
    {"id": "now", "request": "Is it raining in Oslo right now?", "expect": "none"},
    {"id": "time", "request": "What time is it in Paris?", "expect": "none"},
]}
