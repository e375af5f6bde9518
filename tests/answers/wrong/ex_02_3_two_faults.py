"""Two faults at once: rows from an isError result that still carries structuredContent, and rows from the JSON
text when structuredContent is missing. One run of the check names both."""

import json

EXPECT = "• Expected your answer to return [] for a result without structuredContent"


def answer(result):
    data = result.get("structuredContent")
    if data is None:
        try:
            data = json.loads(result["content"][0]["text"])
        except (KeyError, IndexError, ValueError):
            return []
    return [[o["order_number"], o["status"], o["expected_delivery"], o["items"]] for o in data.get("orders", [])]
