"""Reads the rows from the text content, which a server may shape for the model."""

import json

EXPECT = "read rows from structuredContent, not from the text"


def answer(result):
    if result.get("isError"):
        return []
    data = json.loads(result["content"][0]["text"])
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]] for o in data["orders"]]
