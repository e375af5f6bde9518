"""Expects days = 10, which the tool's schema refuses: the case can never be passed."""

EXPECT = "and values the weather server accepts"
answer = '''
server = "weather"

[[case]]
id = "long"
request = "Ten day forecast for Oslo"
expect = "get_daily_forecast"
args = { city = "Oslo", days = 10 }

[[case]]
id = "short"
request = "Forecast for Paris"
expect = "get_daily_forecast"
args = { city = "Paris" }

[[case]]
id = "x1"
request = "Weather in Oslo last week"
expect = "none"

[[case]]
id = "x2"
request = "Temperature in Paris now"
expect = "none"

[[case]]
id = "x3"
request = "Order a pizza"
expect = "none"
'''
