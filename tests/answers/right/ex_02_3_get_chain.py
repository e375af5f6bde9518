"""dict.get everywhere, a generator turned into a list."""


def answer(result: dict) -> list[list]:
    if result.get("isError", False):
        return []
    orders = (result.get("structuredContent") or {}).get("orders") or []
    return list([o.get("order_number"), o.get("status"), o.get("expected_delivery"), o.get("items")] for o in orders)
