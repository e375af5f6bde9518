"""Forgets that a failed call has no structuredContent."""

EXPECT = "return [] when isError is true"


def answer(result):
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]
