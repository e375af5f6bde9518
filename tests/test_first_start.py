"""First start: `pip install .` ships the course's JupyterLab settings, so `jupyter lab` from the course folder opens
lesson 00 (also the URL it prints with --no-browser) and never asks about Jupyter news. The browser test
(tests/test_lab_browser.py) looks at the result in JupyterLab itself."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

from conftest import ROOT

START = "/lab/tree/notebooks/00_start_here.ipynb"


def test_the_settings_say_open_lesson_00_and_never_fetch_news():
    lab = json.loads((ROOT / "course_lib" / "jupyter" / "jupyter_lab_config.json").read_text(encoding="utf-8"))
    assert lab["LabApp"] == {"default_url": START}
    assert (ROOT / START.removeprefix("/lab/tree/")).is_file()
    overrides = json.loads((ROOT / "course_lib" / "jupyter" / "mcp-tool-design-workbook.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_the_wheel_installs_them_where_jupyter_reads_them(tmp_path):
    """Where `pip install .` puts them: sys.prefix/etc/jupyter (a config path) and JupyterLab's app settings
    overrides.d (one file per package)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]
    assert data == {"etc/jupyter": ["course_lib/jupyter/jupyter_lab_config.json"],
                    "share/jupyter/lab/settings/overrides.d": ["course_lib/jupyter/mcp-tool-design-workbook.json"]}
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-800:]
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for path in ("etc/jupyter/jupyter_lab_config.json",
                 "share/jupyter/lab/settings/overrides.d/mcp-tool-design-workbook.json"):
        assert any(name.endswith(f".data/data/{path}") for name in names), path


def test_jupyter_lab_culls_a_kernel_no_tab_uses_after_an_hour_and_never_an_open_one(tmp_path):
    """A learner who opens lesson after lesson leaves kernels behind. `jupyter lab`, with the course's config on its
    config path (where `pip install .` puts it), starts jupyter_server's idle culler: a kernel idle for an hour with
    no open tab (cull_connected false) is shut down. The server says so in its log when the first kernel starts."""
    shipped = json.loads((ROOT / "course_lib" / "jupyter" / "jupyter_lab_config.json").read_text(encoding="utf-8"))
    assert shipped["MappingKernelManager"] == {"cull_idle_timeout": 3600, "cull_interval": 300,
                                               "cull_connected": False}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token, log = "course-test", tmp_path / "lab.log"
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(ROOT / "course_lib" / "jupyter"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"))
    with log.open("w") as out:
        lab = subprocess.Popen([sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
                                "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
                                f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}"],
                               env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/kernels?token={token}", data=b"{}",
                                         method="POST", headers={"Content-Type": "application/json"})
        kernel = json.loads(urllib.request.urlopen(request, timeout=60).read())
        urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/api/kernels/{kernel['id']}?token={token}", method="DELETE"), timeout=60)
    finally:
        lab.terminate()
        lab.wait(15)
    said = log.read_text(encoding="utf-8")
    assert "Culling kernels with idle durations > 3600 seconds at 300 second intervals" in said, said[-2000:]
    assert "even with connected clients" not in said and "even if busy" not in said, said[-2000:]


def test_closing_a_notebook_stops_its_kernel_and_the_file_browser_shows_names_whole():
    """The app settings the install ships: a closed lesson's kernel stops (JupyterLab's `kernelShutdown`), and
    no Modified column takes the width lesson names need (tests/test_lab_browser.py looks at both)."""
    overrides = json.loads((ROOT / "course_lib" / "jupyter" / "mcp-tool-design-workbook.json").read_text())
    assert overrides["@jupyterlab/notebook-extension:tracker"] == {"kernelShutdown": True}
    assert overrides["@jupyterlab/filebrowser-extension:browser"] == {"showLastModifiedColumn": False}
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas" / "@jupyterlab"
    for plugin, settings in overrides.items():  # each a setting of the installed JupyterLab, of the right type
        schema = json.loads((schemas / plugin.removeprefix("@jupyterlab/").replace(":", "/")
                             ).with_suffix(".json").read_text(encoding="utf-8"))
        for key, value in settings.items():
            declared = schema["properties"][key]
            assert isinstance(value, {"boolean": bool, "string": str}[declared["type"]]), (plugin, key)
