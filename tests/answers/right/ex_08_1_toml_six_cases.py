"""TOML text, six cases, patterns for the city, a negative that is not about weather at all."""

answer = '''
server = "weather"

[[case]]
id = "nairobi-week"
request = "What will the weather be like in Nairobi over the next seven days?"
expect = "get_daily_forecast"
args = { city = "Nairobi", days = 7 }

[[case]]
id = "des-moines-weekend"
request = "Should I expect rain in Des Moines in the next two days?"
expect = "get_daily_forecast"
patterns = { city = "(?i)des moines" }

[[case]]
id = "paris-fahrenheit"
request = "Paris forecast for 4 days in Fahrenheit please"
expect = "get_daily_forecast"
args = { city = "Paris", days = 4 }

[[case]]
id = "oslo-last-winter"
request = "How much snow fell in Oslo last winter?"
expect = "none"

[[case]]
id = "taxi"
request = "Call me a taxi to the airport."
expect = "none"

[[case]]
id = "denver-current"
request = "What's the temperature in Denver right now?"
expect = "none"
'''
