"""Expects a tool the weather server does not have."""

EXPECT = "name only tools the weather server has"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo", "expect": "weather_forecast", "args": {"city": "Oslo"}},
    {"id": "b", "request": "Forecast for Paris", "expect": "get_daily_forecast", "args": {"city": "Paris"}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "args": {"city": "Denver"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
    {"id": "f", "request": "Book a table for two", "expect": "none"},
]}
