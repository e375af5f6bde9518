"""Guard clause on isError, then a comprehension with itemgetter; no structuredContent means no rows."""

from operator import itemgetter

get = itemgetter("order_number", "status", "expected_delivery", "items")


def answer(result):
    if not result.get("isError", False) and result.get("structuredContent"):
        return [list(get(order)) for order in result["structuredContent"]["orders"]]
    return []
