"""The SDK's own pattern, TOOL_NAME_REGEX (red team rtgrade7 c02): a pattern is the rule written down, so 1.4's rule
`own` allows it; only calling validate_tool_name or review.is_valid_name is refused."""

from mcp.shared import tool_name_validation


def answer(name):
    return tool_name_validation.TOOL_NAME_REGEX.fullmatch(name) is not None
