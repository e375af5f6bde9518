"""A case without expect: the harness refuses the file, naming line and field."""

EXPECT = "line 7, case 2 ('b'), field expect: is required"
answer = '''
[[case]]
id = "a"
request = "Forecast for Oslo"
expect = "get_daily_forecast"

[[case]]
id = "b"
request = "Forecast for Paris"
args = { city = "Paris" }
'''
