"""A pytest plugin for xdist workers: once a worker has run its tests and torn down its fixtures, make what is left
of its shutdown quick, and let a SIGINT end it quietly.

Why: when the run is over, xdist asks each worker's execnet gateway to stop, and execnet gives the worker 5 s
(`gateway_base._terminate_execution`), then sends it SIGINT (`os.kill(os.getpid(), 2)`). A worker still busy then
(pytest's last garbage collection over a large heap, on a loaded machine) gets a KeyboardInterrupt wherever its
main thread is: once it was inside hypothesis's gc callback, and the README's test command ended with a
`PytestUnraisableExceptionWarning` traceback whose last line was `KeyboardInterrupt`, after "N passed".
tests/test_quiet_worker_exit.py reproduces the SIGINT with a worker kept busy after it finished.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest


def _quiet_exit(signum, frame) -> None:
    """The worker has reported every result: stop now, without a traceback."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session) -> None:
    """In an xdist worker, after its fixtures are torn down and before it reports "finished": collect the garbage
    now and freeze the rest (pytest's collection after the report then has almost nothing to scan), and end the
    worker quietly on the SIGINT execnet sends a worker that is not done 5 s after the run is over."""
    if not hasattr(session.config, "workerinput"):
        return
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGINT, _quiet_exit)
