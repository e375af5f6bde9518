"""Labels a plain forecast request a negative: the tool serves tomorrow's weather, so a model that calls it is
right and the case would mark it wrong."""

EXPECT = "the negative tomorrow-negative asks"
answer = {"server": "weather", "case": [
    {"id": "oslo", "request": "Forecast for Oslo, the next 3 days?", "expect": "get_daily_forecast",
     "args": {"city": "Oslo", "days": 3}},
    {"id": "denver", "request": "Daily highs in Denver this week", "expect": "get_daily_forecast",
     "args": {"city": "Denver"}},
    {"id": "paris", "request": "Will it be cloudy in Paris on Friday?", "expect": "get_daily_forecast",
     "args": {"city": "Paris"}},
    {"id": "yesterday", "request": "How hot was it in Nairobi yesterday?", "expect": "none"},
    {"id": "tomorrow-negative", "request": "What will the weather be in Oslo tomorrow?", "expect": "none"},
]}
