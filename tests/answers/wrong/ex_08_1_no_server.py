"""Good cases, but no server: the harness cannot tell which tools they are about."""

EXPECT = "found no server field"
answer = {"case": [
    {"id": "oslo", "request": "Forecast for Oslo, the next 3 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 3}},
    {"id": "paris", "request": "Will it be cloudy in Paris tomorrow?", "expect": "get_daily_forecast",
     "patterns": {"city": "(?i)^paris$"}},
    {"id": "denver", "request": "Daily highs in Denver this week", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "yesterday", "request": "How hot was it in Nairobi yesterday?", "expect": "none"},
    {"id": "now", "request": "Is it raining in Oslo right now?", "expect": "none"},
]}
