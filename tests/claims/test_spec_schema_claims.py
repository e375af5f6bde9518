"""Facts the lessons state about the spec's TypeScript schema, read from the vendored `schema.ts` of each version
(tests/claims/spec, copied from the spec repository at its tag)."""

from __future__ import annotations

import re

from claims_ledger import SPEC, claim


def tool_fields(tag: str) -> tuple[list[str], set[str]]:
    """(the interfaces `Tool` extends, the fields it declares itself) in that version's schema.ts."""
    source = (SPEC / tag / "schema" / tag / "schema.ts").read_text(encoding="utf-8")
    head, body = re.search(r"^export interface Tool extends ([^{]+)\{\n(.*?)^\}", source, re.S | re.M).groups()
    return [name.strip() for name in head.split(",")], set(re.findall(r"^  (\w+)\??:", body, re.M))


@claim("spec-tool-icons-meta-and-execution")
def test_the_spec_tool_has_icons_and_meta_in_both_versions_and_execution_only_in_2025_11_25():
    for tag in ("2025-11-25", "2026-07-28"):
        extends, fields = tool_fields(tag)
        assert "Icons" in extends and "_meta" in fields, tag  # `icons` comes from Icons
        assert {"inputSchema", "outputSchema", "annotations", "description"} <= fields, tag
        assert ("execution" in fields) == (tag == "2025-11-25"), tag
    icons = (SPEC / "2025-11-25" / "schema" / "2025-11-25" / "schema.ts").read_text(encoding="utf-8")
    assert re.search(r"^export interface Icons \{.*?^  icons\?: Icon\[\];", icons, re.S | re.M)
