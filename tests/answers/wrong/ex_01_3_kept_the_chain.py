"""Adds the merged tool but keeps the three step tools too."""

from course_lib.servers import weather

EXPECT = "register one tool only, get_daily_forecast"


def answer():
    server = weather.build_chain_server()

    @server.tool()
    def get_daily_forecast(city: str, days: int = 3, units: str = "metric") -> weather.Forecast:
        """Daily forecast for one city."""
        return weather.daily_forecast(city, days, units)

    return server
