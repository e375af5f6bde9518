"""course_lib: the helper package of the MCP tool-design workbook.

Import modules by name (`from course_lib import show, wire`); nothing heavy happens at import.
"""

__version__ = "0.1.0"
