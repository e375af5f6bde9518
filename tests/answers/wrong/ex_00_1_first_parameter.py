"""Reads the first parameter instead of the one asked for."""

EXPECT = "bounds(<get_daily_forecast>, 'days') should be (1, 7)"


def answer(definition, parameter):
    schema = next(iter(definition["inputSchema"]["properties"].values()))
    return schema.get("minimum"), schema.get("maximum")
