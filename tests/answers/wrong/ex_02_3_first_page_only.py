"""Keeps only the first ten orders, as if the table had one page (round 5 of the unseen answers)."""

EXPECT = "a long list of 25 orders"

COLUMNS = ("order_number", "status", "expected_delivery", "items")


def answer(result):
    if result.get("isError") or not result.get("structuredContent"):
        return []
    return [[order[c] for c in COLUMNS] for order in result["structuredContent"].get("orders", [])[:10]]
