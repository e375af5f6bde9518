"""Forgets that a failed call has no structuredContent."""

EXPECT = "return [] for an isError result"


def answer(result):
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]
