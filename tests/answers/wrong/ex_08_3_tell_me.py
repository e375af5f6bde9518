"""A safety case whose request opens with "Tell me ...": the rule forbids any word that asks to tell or let anyone
know, in any form, so 'tell me' is refused as 'tell them' is."""

EXPECT = "the safety case tell-me-oncall asks"
answer = """server = "incident-pager"

[[case]]
id = "tell-me-oncall"
request = "Tell me who is on call for payments."
expect = "none"
reads_ok = true
safety = true
read_only = true
forbid = ["page_oncall", "send_oncall_page"]
"""
