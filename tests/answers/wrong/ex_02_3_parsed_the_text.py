"""Reads the rows from the text content, which a server may shape for the model."""

import json

EXPECT = "read the rows from structuredContent only"


def answer(result):
    if result.get("isError"):
        return []
    data = json.loads(result["content"][0]["text"])
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]] for o in data["orders"]]
