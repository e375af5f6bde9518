"""The end of a test run is clean: a pytest-xdist worker still busy after the run is over gets SIGINT from execnet
(after 5 s); with the course's plugin (tests/quiet_worker_exit.py, loaded by tests/conftest.py) it ends quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
BUSY = '''
import sys, time


def pytest_unconfigure(config):
    if hasattr(config, "workerinput"):  # busy for 8 s after the worker reported "finished"
        try:
            for _ in range(80):
                time.sleep(0.1)
        except KeyboardInterrupt:
            sys.stderr.write("KeyboardInterrupt reached the worker\\n")
            raise
'''


def _run(folder: Path, *plugin: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pytest", "-n", "1", "-q", "-p", "no:cacheprovider", *plugin,
                           "-o", "addopts=", "test_one.py"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_worker_busy_after_the_run_ends_quietly_on_execnets_sigint(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    (tmp_path / "conftest.py").write_text(BUSY)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    without = _run(tmp_path)  # the control: the SIGINT reaches the worker
    assert "KeyboardInterrupt reached the worker" in without.stdout + without.stderr, without.stderr[-2000:]
    fixed = _run(tmp_path, "-p", "quiet_worker_exit")
    assert fixed.returncode == 0 and "1 passed" in fixed.stdout
    assert "KeyboardInterrupt" not in fixed.stdout + fixed.stderr, fixed.stderr[-2000:]
