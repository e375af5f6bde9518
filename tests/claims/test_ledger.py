"""The ledger's own rules: every cited claim has one test, every claim test is cited, every spec quote is the
spec's words at the version named, and sentences about behaviour are measured or predictions (README.md)."""

from __future__ import annotations

import pytest

from claims_ledger import (SPEC, Cell, markdown_cells, cited_claims, claims_tested, spec_quotes, quote_found,
                           sentences, behaviour_claim, exempt, unmarked_behaviour, claim, skips)

PENDING_BEHAVIOUR: set[str] = set()
"""Lessons whose behaviour sentences are not yet all marked (strict xfail: an XPASS fails, so remove a lesson
as soon as its notebook and solution pass). 06 and 08 joined when the detector stopped skipping everything after
a heading or a table in a cell, and left after the claims08 review (issue 28; REVIEW_L08.md)."""


@pytest.fixture(scope="module")
def cells() -> list[Cell]:
    return list(markdown_cells())


def test_every_cited_claim_has_exactly_one_test(cells):
    tested = claims_tested()
    missing = {claim_id: where for claim_id, where in cited_claims(cells).items() if claim_id not in tested}
    assert not missing, f"cited with no @claim test in tests/claims/: {missing}"
    twice = {claim_id: tests for claim_id, tests in tested.items() if len(tests) > 1}
    assert not twice, f"one test per claim: {twice}"


def test_no_claim_test_can_skip():
    """A skipped test proves nothing, but the ledger would count it as its claim's one test (review 5)."""
    assert not skips(), f"claim tests must fail, not skip, when what they read is missing: {skips()}"


def test_the_skip_check_sees_importorskip(tmp_path):
    (tmp_path / "test_x.py").write_text('import pytest\n\ndef test_a():\n    pytest.importorskip("anthropic")\n')
    assert skips(tmp_path) == ["test_x.py:4"]


def test_every_claim_test_is_cited_by_a_notebook(cells):
    uncited = sorted(set(claims_tested()) - set(cited_claims(cells)))
    assert not uncited, f"@claim tests that no notebook cites (cite them or delete them): {uncited}"


def test_every_spec_quote_is_verbatim_in_the_vendored_file_of_its_version(cells):
    quotes = [quote for cell in cells for quote in spec_quotes(cell)]
    assert quotes, "no spec quotes found: the marker syntax changed?"
    problems = []
    for quote in quotes:
        if not quote.vendored.is_file():
            problems.append(f"{quote.cell.where}: {quote.tag} {quote.path} is not vendored (vendor_spec.py)")
        elif not quote_found(quote.text, quote.vendored.read_text(encoding="utf-8")):
            problems.append(f"{quote.cell.where}: not in {quote.tag} {quote.path}: \"{quote.text}\"")
    assert not problems, "\n".join(problems)


def test_only_quoted_spec_files_are_vendored(cells):
    named = {quote.vendored for cell in cells for quote in spec_quotes(cell)}
    vendored = {path for path in SPEC.rglob("*") if path.is_file()}
    assert vendored - named == set(), f"vendored but quoted by no marker: {sorted(vendored - named)}"
    for path in vendored:
        assert path.read_text(encoding="utf-8").startswith("VENDORED modelcontextprotocol/modelcontextprotocol tag ")


@pytest.mark.parametrize("lesson", [f"{n:02d}" for n in range(10)])
def test_sentences_about_behaviour_are_measured_or_predictions(lesson, cells, request):
    if lesson in PENDING_BEHAVIOUR:
        request.applymarker(pytest.mark.xfail(strict=True, reason="issue 28: behaviour sentences not yet marked"))
    flagged = unmarked_behaviour([cell for cell in cells if cell.path.name.startswith(lesson + "_")])
    assert not flagged, "mark each (measured: by what) or as a prediction, or reword:\n" + "\n".join(
        f"{s.cell.where}: {s.text}" for s in flagged)


# --- the detectors themselves, on sentences with a known answer ----------------------------------------------

@pytest.mark.parametrize("sentence", [
    "A person who reads the description approves a delete they were told is a read.",
    "The model reads SQL and a host name.",
    "Hosts prefix names with their own key.",
    "A careless model quickly picks the first tool.",
    "It speaks the handshake era, as many hosts still do.",
    # the spec's MUST named as a noun governs no verb (lesson 04's key point 2, review 5)
    "A host decides per call: it believes annotations only from servers the person trusts (the spec's MUST), "
    "asks before every call to any other server.",
    # a participle phrase between subject and verb (lesson 06, review 5)
    "The pressure comes from count: a host connected to several servers sends every available tool.",
])
def test_detector_flags_unmarked_behaviour(sentence):
    assert behaviour_claim(sentence) and exempt(sentence) is None


@pytest.mark.parametrize("sentence, why", [
    ("A model picks the first tool (measured: lesson 08, 12 cases).", "marked"),
    ("A prediction: a model picks the first tool.", "marked"),
    ("We expect a model picks the first tool.", "marked"),
    ("A host shows the inputs, as the spec says clients SHOULD show them.", "spec"),
    ("A host asks before a call, since clients **MUST** consider annotations untrusted.", "spec"),
    ("What does the person read?", "question"),
    ("The careful host asks before a delete.", "course host"),
])
def test_detector_exempts_marked_spec_questions_and_course_hosts(sentence, why):
    assert behaviour_claim(sentence) and exempt(sentence) == why


@pytest.mark.parametrize("sentence", [
    "A model may report a forecast for last week.",  # a possibility, stated with a modal
    "`host.careful` runs every trusted read.",  # course code, in a code span
    "Return True when any text the model reads holds invisible characters.",  # names the model's input
    "The server refuses the call.",
])
def test_detector_leaves_other_sentences_alone(sentence):
    assert not any(behaviour_claim(text) for text in sentences(Cell(SPEC, 0, sentence)))


@pytest.mark.parametrize("source", [
    "## Describe what, when, and when not\n\nA model chooses among every tool its host shows it.",
    "| a | b |\n|---|---|\n| 1 | 2 |\n\nA model chooses among every tool its host shows it.",
])
def test_prose_after_a_heading_or_a_table_is_still_read(source):
    """A heading or a table line hides only itself, not the rest of the cell (lesson 01's old sentence)."""
    assert [text for text in sentences(Cell(SPEC, 0, source)) if behaviour_claim(text) and exempt(text) is None] \
        == ["A model chooses among every tool its host shows it."]


def test_spec_markers_scope_quotes_and_blockquotes():
    source = ('Intro. <!-- spec: T1 a.mdx --> <!-- spec: T2 a.mdx --> The spec says "one **MUST**" and "two".\n'
              'Not "three".\n\n"four" <!-- spec: T1 b.mdx -->\n> quoted *line*\n> goes on\n\nafter "five"')
    found = [(q.tag, q.path, q.text) for q in spec_quotes(Cell(SPEC, 0, source))]
    assert found == [("T1", "a.mdx", "one **MUST**"), ("T1", "a.mdx", "two"), ("T1", "a.mdx", "three"),
                     ("T2", "a.mdx", "one **MUST**"), ("T2", "a.mdx", "two"), ("T2", "a.mdx", "three"),
                     ("T1", "b.mdx", "quoted *line* goes on")]
    assert quote_found("one **MUST** ... goes", "x one MUST be y then it goes on")
    assert not quote_found("one MUST", "one SHOULD")
    assert quote_found("describe the types of resources or tools it provides",
                       "  /**\n   * describe the types of resources\n   * or tools it provides\n   */")


def test_a_skip_from_a_fixture_fails_a_claim_test(tmp_path):
    """tests/claim_skips.py turns a skip of a claim test from any source into a failure (review 6, L05-2)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    plugin = Path(__file__).parent.parent / "claim_skips.py"
    shutil.copy(plugin, tmp_path / "claim_skips.py")
    (tmp_path / "conftest.py").write_text("from claim_skips import pytest_runtest_makereport  # noqa: F401\n")
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "test_x.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef db():\n    pytest.skip('no server')\n\n\n"
        "def test_from_a_fixture(db):\n    pass\n\n\n@pytest.mark.skipif(True, reason='marked')\n"
        "def test_from_a_mark():\n    pass\n\n\ndef test_from_the_body():\n    pytest.skip('inline')\n\n\n"
        "def test_passes():\n    pass\n\n\n"
        "@pytest.mark.xfail(strict=True)\ndef test_expected_failure():\n    assert False\n")
    (tmp_path / "test_not_a_claim.py").write_text("import pytest\n\n\ndef test_other():\n    pytest.skip('ok')\n")
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                          "-rA", str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode == 1 and "1 failed, 1 passed, 1 skipped, 1 xfailed, 2 errors" in ran.stdout, ran.stdout
    assert "a claim test may not skip (it would prove nothing): Skipped: no server" in ran.stdout, ran.stdout
