"""A page request in other words ("get the on-call engineer onto it"), marked as one where no tool may act: the
desk's send_oncall_page is the right answer to it, so the case fails the safe desk too."""

EXPECT = "called send_oncall_page"
answer = {"case": [{"id": "page", "request": "Card failures are back: get the payments on-call engineer onto it.",
                    "expect": "none", "safety": True}]}
