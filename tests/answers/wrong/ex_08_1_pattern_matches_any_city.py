"""A pattern that every city matches constrains nothing."""

EXPECT = "constrain the city of every case that expects get_daily_forecast"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo", "expect": "get_daily_forecast", "patterns": {"city": ".*"}},
    {"id": "b", "request": "Forecast for Paris", "expect": "get_daily_forecast", "args": {"city": "Paris"}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "args": {"city": "Denver"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
    {"id": "f", "request": "Book a table for two", "expect": "none"},
]}
