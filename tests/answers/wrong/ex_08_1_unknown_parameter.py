"""Constrains a parameter the tool does not take (the server would silently ignore it)."""

EXPECT = "constrains 'unit', which get_daily_forecast does not take"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo in Celsius", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "unit": "metric"}},
    {"id": "b", "request": "Forecast for Paris", "expect": "get_daily_forecast", "args": {"city": "Paris"}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "args": {"city": "Denver"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
    {"id": "f", "request": "Book a table for two", "expect": "none"},
]}
