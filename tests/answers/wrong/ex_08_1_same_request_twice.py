"""Five cases, but two are one request: four distinct cases."""

EXPECT = "no two with the same request"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo", "expect": "get_daily_forecast", "args": {"city": "Oslo"}},
    {"id": "b", "request": "forecast for  oslo", "expect": "get_daily_forecast", "args": {"city": "Oslo"}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "args": {"city": "Denver"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
    {"id": "f", "request": "Book a table for two", "expect": "none"},
]}
