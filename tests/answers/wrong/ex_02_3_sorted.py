"""Sorts the rows by order number: the server's order (newest first) is lost."""

EXPECT = "in the order structuredContent lists them"


def answer(result):
    if result.get("isError"):
        return []
    rows = [[o["order_number"], o["status"], o["expected_delivery"], o["items"]]
            for o in result["structuredContent"]["orders"]]
    return sorted(rows)
