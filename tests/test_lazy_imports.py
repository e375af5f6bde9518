"""course_lib.lazy_imports: the IRI grammar is compiled only when an "iri" format is checked, and the checks
answer exactly as with the package imported as usual (compared in a process where nothing is deferred)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from course_lib import lazy_imports

pytest.importorskip(lazy_imports.SLOW)

SAMPLES = ["http://example.com/ü", "http://exa mple", "not an iri at all", "urn:isbn:0451450523", "//x", ""]
CHECKS = f"""
from jsonschema import FormatChecker
checker = FormatChecker()
answers = [[checker.conforms(value, kind) for value in {SAMPLES!r}] for kind in ("iri", "iri-reference")]
"""


def in_fresh_python(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_validating_mcp_client_never_compiles_the_grammar_and_format_checks_still_agree():
    deferred = in_fresh_python(textwrap.dedent("""
        import json, sys
        from course_lib import wire
        from course_lib.servers import weather
        result = wire.run_sync(wire.call_tool, weather.build_server(), "get_daily_forecast", {"city": "Oslo", "days": 1})
        validated = "jsonschema" in sys.modules and not result.is_error
        compiled_by_the_call = "rfc3987_syntax.syntax_helpers" in sys.modules
    """) + CHECKS + 'print(json.dumps({"validated": validated, "compiled": compiled_by_the_call, "answers": answers}))')
    usual = in_fresh_python("import json\n" + CHECKS + "print(json.dumps({'answers': answers}))")
    assert deferred["validated"] and deferred["compiled"] is False
    assert deferred["answers"] == usual["answers"]
    assert usual["answers"][0][:3] == [True, False, False]


def test_the_command_line_does_not_compile_it_and_the_package_still_imports_whole():
    found = in_fresh_python("""
        import contextlib, io, json, sys
        from course_lib import cli
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["lessons"])
        import nbformat
        quiet = "rfc3987_syntax.syntax_helpers" not in sys.modules
        from rfc3987_syntax import parse, is_valid_syntax
        import rfc3987_syntax
        try:
            rfc3987_syntax.no_such_name
        except AttributeError as error:
            missing = str(error)
        print(json.dumps({"quiet": quiet, "parse": parse.__module__, "valid": is_valid_syntax("iri", "http://a.b/c"),
                          "missing": missing}))
    """)
    assert found == {"quiet": True, "parse": "rfc3987_syntax.syntax_helpers", "valid": True,
                     "missing": "module 'rfc3987_syntax' has no attribute 'no_such_name'"}


def test_nothing_is_deferred_once_jsonschema_is_imported(monkeypatch):
    import jsonschema  # noqa: F401  (this process: already imported by nbformat)

    before = sys.modules.get(lazy_imports.SLOW)
    lazy_imports.defer_iri_grammar()
    assert sys.modules.get(lazy_imports.SLOW) is before
