"""An unseen answer (unseen11 wrongC, M8): reads structuredContent only and handles errors, but returns each row
as a dict of the four fields, not a list. Its message also said it read the text content, with the same dict row
as the found value; the rule it breaks is the row's shape."""

EXPECT = "found row 0 {'order_number': 'ORD-1045'"
NOT_SAID = ("never from the text content",)


def answer(result):
    if result.get("isError"):
        return []
    data = result.get("structuredContent")
    if not data:
        return []
    keys = ("order_number", "status", "expected_delivery", "items")
    return [{k: entry[k] for k in keys} for entry in data.get("orders", [])]
