"""Only one negative: a set where every request should call the tool cannot catch a tool that grabs everything."""

EXPECT = "include at least two negatives"
answer = {"server": "weather", "case": [
    {"id": "a", "request": "Forecast for Oslo", "expect": "get_daily_forecast", "args": {"city": "Oslo"}},
    {"id": "b", "request": "Forecast for Paris", "expect": "get_daily_forecast", "args": {"city": "Paris"}},
    {"id": "c", "request": "Forecast for Denver", "expect": "get_daily_forecast", "args": {"city": "Denver"}},
    {"id": "d", "request": "Forecast for Nairobi", "expect": "get_daily_forecast", "args": {"city": "Nairobi"}},
    {"id": "e", "request": "Weather in Oslo last week", "expect": "none"},
]}
