"""A skipped claim test proves nothing, yet the ledger would count it as its claim's one test (review 6: the
PostgreSQL claims skipped through the `cluster` fixture, where the ledger's source scan cannot see). So here
every skip of a test in a `claims` folder, from the test, a fixture or a mark, is reported as a failure; an
expected failure (xfail) is not a skip and stays as it is. A plugin module, not tests/claims/conftest.py: a second
module named `conftest` would shadow the one the other tests import from."""

from __future__ import annotations

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and "claims" in item.path.parent.parts:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"a claim test may not skip (it would prove nothing): {reason}"
