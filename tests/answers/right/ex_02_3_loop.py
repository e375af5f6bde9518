"""A loop, tuples, `is True` test."""


def answer(result):
    if result.get("isError") is True:
        return []
    rows = []
    for order in (result.get("structuredContent") or {}).get("orders", []):
        rows.append((order["order_number"], order["status"], order["expected_delivery"], order["items"]))
    return rows
