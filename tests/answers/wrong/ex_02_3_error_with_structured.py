"""Tests for structuredContent instead of isError: an error result that carries structuredContent gives rows."""

EXPECT = "an isError result that carries structuredContent"


def answer(result):
    if "structuredContent" not in result:
        return []
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]
