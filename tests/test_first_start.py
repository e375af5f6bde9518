"""First start: `pip install .` ships the course's JupyterLab settings, so `jupyter lab` from the course folder opens
lesson 00 (also the URL it prints with --no-browser) and never asks about Jupyter news. The browser test
(tests/test_lab_browser.py) looks at the result in JupyterLab itself."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import zipfile

from conftest import ROOT

START = "/lab/tree/notebooks/00_start_here.ipynb"


def test_the_settings_say_open_lesson_00_and_never_fetch_news():
    lab = json.loads((ROOT / "course_lib" / "jupyter" / "jupyter_lab_config.json").read_text(encoding="utf-8"))
    assert lab == {"LabApp": {"default_url": START}}
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
