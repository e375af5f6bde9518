"""A wrapper around the SDK's own tool-name validator (SEP-986), which agrees with the spec on every case the check
tries: the exercise asks for the rule written out, so calling it is the answer, not an answer."""

from mcp.shared.tool_name_validation import validate_tool_name

EXPECT = "it called tool_name_validation.validate_tool_name"


def answer(name):
    return validate_tool_name(name).is_valid
