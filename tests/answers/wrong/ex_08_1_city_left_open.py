"""A positive case that does not say which city: any city would count as right."""

EXPECT = "constrain the city of every case that expects get_daily_forecast"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo", "expect": "get_daily_forecast", "args": {"city": "Oslo"}},
    {"id": "b", "request": "Forecast for Paris for 3 days", "expect": "get_daily_forecast", "args": {"days": 3}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "patterns": {"city": "Denver"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
    {"id": "f", "request": "Book a table for two", "expect": "none"},
]}
