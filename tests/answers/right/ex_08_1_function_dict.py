"""A function returning a dict built in a loop; splits and reasons included."""


def answer():
    positives = [("Forecast for Oslo tomorrow?", "Oslo"), ("Give me Denver's weather for the next 5 days", "Denver")]
    cases = [{"id": f"pos-{i}", "request": r, "expect": "get_daily_forecast", "args": {"city": c}, "split": "tune"}
             for i, (r, c) in enumerate(positives)]
    cases += [{"id": "past", "request": "What was the high in Paris on Monday last week?", "expect": "none",
               "why": "past weather"},
              {"id": "now", "request": "Is it snowing in Denver at the moment?", "expect": "none", "split": "held-out"},
              {"id": "climate", "request": "What is the average July temperature in Nairobi?", "expect": "none"}]
    return {"server": "weather", "title": "my forecast cases", "case": cases}
