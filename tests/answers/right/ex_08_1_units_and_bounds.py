"""Dict with boundary values the server accepts (1 and 7 days, metric) and must_not_include constraints."""

answer = {"server": "weather", "case": [
    {"id": "one-day", "request": "Oslo weather today and only today", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 1, "units": "metric"}},
    {"id": "seven-days", "request": "A full week of forecasts for Paris", "expect": "get_daily_forecast",
     "args": {"city": "Paris", "days": 7}, "must_not_include": ["Oslo"]},
    {"id": "two-cities", "request": "Weather in Denver over the next 3 days", "expect": "get_daily_forecast",
     "patterns": {"city": "^Denver$"}},
    {"id": "history", "request": "What was the record low in Oslo in 1987?", "expect": "none"},
    {"id": "stock", "request": "What is the share price of an umbrella company?", "expect": "none"},
]}
