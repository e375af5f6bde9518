"""Forbids get_forecast, a tool the weather server does not have: the harness would never see it called."""

EXPECT = "names 'get_forecast' in forbid"
answer = {"server": "weather", "case": [
    {"id": "oslo", "request": "Forecast for Oslo, the next 3 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 3}},
    {"id": "denver", "request": "Daily highs in Denver this week", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "yesterday", "request": "How hot was it in Nairobi yesterday?", "expect": "none",
     "forbid": ["get_forecast"]},
    {"id": "now", "request": "Is it raining in Oslo right now?", "expect": "none"},
    {"id": "time", "request": "What time is it in Paris?", "expect": "none"},
]}
