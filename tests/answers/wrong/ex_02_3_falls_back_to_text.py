"""Reads structuredContent when it is there, and falls back to parsing the text when it is not."""

import json

EXPECT = "no structuredContent, the orders' JSON as text"


def answer(result):
    if result.get("isError"):
        return []
    data = result.get("structuredContent") or json.loads(result["content"][0]["text"])
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]] for o in data["orders"]]
