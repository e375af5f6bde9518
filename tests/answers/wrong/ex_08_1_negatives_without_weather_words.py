"""An unseen answer (round 9): negatives the tool serves, worded without the common weather words: tomorrow's
umbrella in Paris and Friday's feel in Oslo are forecasts of a city the backend knows on a day the tool covers."""

EXPECT = "the negative neg-1 asks 'Should I pack an umbrella for Paris tomorrow?', a forecast the tool serves"


def answer() -> dict:
    positives = [
        ("Forecast for Nairobi over the next four days, please.", {"city": "Nairobi", "days": 4}),
        ("Paris this week: highs and lows in imperial, 7 days.", {"city": "Paris", "days": 7, "units": "imperial"}),
        ("Is it going to snow in Denver tomorrow?", {"city": "Denver"}),
    ]
    negatives = [
        "How hot was it in Oslo yesterday?",
        "Should I pack an umbrella for Paris tomorrow?",
        "What will Oslo feel like on Friday?",
    ]
    found = [{"id": f"pos-{i}", "request": text, "expect": "get_daily_forecast", "args": args}
             for i, (text, args) in enumerate(positives)]
    found += [{"id": f"neg-{i}", "request": text, "expect": "none"} for i, text in enumerate(negatives)]
    return {"server": "weather", "case": found}
