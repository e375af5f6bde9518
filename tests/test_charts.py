"""course_lib.charts: each figure draws exactly the data it was given, titled, labelled, colour-blind-safe."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest

from course_lib import charts, cost

ROOT = Path(__file__).resolve().parent.parent

PALETTE = {colour.lower() for colour in charts.OKABE_ITO.values()}


def hex_colour(artist) -> str:
    from matplotlib.colors import to_hex

    return to_hex(artist.get_facecolor() if hasattr(artist, "get_facecolor") else artist.get_color())


def png_bytes(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def assert_readable(fig, title_part: str, xlabel_part: str, ylabel_part: str = "") -> None:
    from matplotlib.figure import Figure

    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert title_part in ax.get_title(loc="left")
    assert xlabel_part in ax.get_xlabel() and ylabel_part in ax.get_ylabel()
    assert 7.5 <= fig.get_figwidth() <= 9 and png_bytes(fig).startswith(b"\x89PNG")


BREAKDOWN = {
    "bad": [("name", 4), ("description", 5), ("param q", 10), ("schema frame", 22), ("output schema", 30)],
    "good": [("name", 7), ("description", 54), ("param city", 27), ("param days", 31), ("param units", 22),
             ("schema frame", 28), ("output schema", 170), ("annotations", 14)],
}


def test_field_breakdown_stacks_every_part_in_order():
    fig = charts.field_breakdown(BREAKDOWN, "o200k_base")
    assert_readable(fig, "Where a definition's tokens go", "tokens (o200k_base)")
    bars = fig.axes[0].patches
    expected = [count for parts in BREAKDOWN.values() for _, count in parts]
    assert [round(bar.get_width()) for bar in bars] == expected
    lefts = [round(bar.get_x()) for bar in bars[:5]]
    assert lefts == [0, 4, 9, 19, 41]
    assert {hex_colour(bar) for bar in bars} <= PALETTE
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "71 tokens" in texts and "353 tokens" in texts
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "name", "description", "parameters (one segment each)", "schema frame", "output schema", "annotations"]


def test_field_colours_alternate_for_parameters():
    assert charts.field_colour("param a", 0) != charts.field_colour("param b", 1)
    assert charts.field_colour("description") == charts.OKABE_ITO["blue"]


def test_context_pressure_lines_stop_where_the_window_is_full():
    rows = cost.pressure(250, range(1, 6), 20, windows=(8_000, 32_000, 1_000_000))
    fig = charts.context_pressure(rows, 250)
    assert_readable(fig, "Definitions fill the window", "servers connected", "share of the window (%)")
    lines = [line for line in fig.axes[0].lines if line.get_label().endswith("window")]
    assert [line.get_label() for line in lines] == ["8k window", "32k window", "1M window"]
    assert list(lines[0].get_ydata()) == [62.5, 100.0]
    assert list(lines[1].get_xdata()) == [1, 2, 3, 4, 5] and lines[1].get_ydata()[-1] == pytest.approx(78.125)
    assert list(lines[2].get_ydata()) == pytest.approx([0.5, 1.0, 1.5, 2.0, 2.5])
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()][:2] == ["1\n5.0k", "2\n10.0k"]
    assert {hex_colour(line) for line in lines} <= PALETTE


def test_context_pressure_names_the_model_whose_window_each_line_is():
    rows = cost.pressure(150, range(1, 3), 20)
    labels = [line.get_label() for line in charts.context_pressure(rows, 150).axes[0].lines][:4]
    assert labels == ["GPT-4 (8,192)", "GPT-4-32k (32,768)", "GPT-4o (128,000)", "Claude Sonnet 4.5 (200,000)"]
    assert rows[1].share[32_768] == 6_000 / 32_768


def test_split_savings_draws_both_bars_per_task():
    rows = [cost.SplitRow("Meet", ("calendar",), 3000, 900, 12, 3),
            cost.SplitRow("Mail", ("mail", "tickets"), 3000, 1600, 12, 6)]
    fig = charts.split_savings(rows)
    assert_readable(fig, "Split a large server", "definition tokens per turn")
    assert [round(bar.get_width()) for bar in fig.axes[0].patches] == [3000, 900, 3000, 1600]
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["Meet\n(calendar)", "Mail\n(mail + tickets)"]
    assert "900 tokens, 3 tools" in [t.get_text() for t in fig.axes[0].texts]


def test_result_forms_groups_the_three_forms():
    rows = {"1 day": {"text only": 90, "structured only": 43, "both": 132},
            "7 days": {"text only": 382, "structured only": 197, "both": 578}}
    fig = charts.result_forms(rows, "o200k_base", xlabel="forecast length")
    assert_readable(fig, "three forms", "forecast length", "tokens (o200k_base)")
    heights = [round(bar.get_height()) for bar in fig.axes[0].patches]
    assert heights == [90, 382, 43, 197, 132, 578]
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["text only", "structured only", "both"]


def test_cache_share_plots_one_line_per_series_in_percent():
    stable = cost.simulate_prefix_cache([[1] * 2000, [1] * 2100, [1] * 2300])
    unstable = cost.simulate_prefix_cache([[1] * 2000, [2] * 2100, [3] * 2300])
    fig = charts.cache_share({"stable": stable, "unstable": unstable})
    assert_readable(fig, "Prompt-cache reuse", "turn", "served from cache (%)")
    first, second = fig.axes[0].lines
    assert list(first.get_xdata()) == [1, 2, 3]
    assert list(first.get_ydata()) == pytest.approx([0, 1920 / 2100 * 100, 2048 / 2300 * 100])
    assert list(second.get_ydata()) == [0, 0, 0]
    assert hex_colour(first) != hex_colour(second)


def test_figures_are_not_managed_by_pyplot():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    charts.result_forms({"a": {"text only": 1, "structured only": 1, "both": 2}}, "o200k_base")
    assert plt.get_fignums() == before


FIGURE_TEXT = re.compile(r"^<Figure size \d+x\d+ with \d+ Axes>$")
COMMITTED = sorted(path for folder in ("notebooks", "solutions", "exercises") for path in (ROOT / folder).glob("*.ipynb"))


def figures_without_image(notebook: dict) -> list[int]:
    """The cells with an output whose text is a Figure's repr and that carries no PNG."""
    return [index for index, cell in enumerate(notebook["cells"]) for output in cell.get("outputs", [])
            if FIGURE_TEXT.match("".join(output.get("data", {}).get("text/plain", "")).strip())
            and "image/png" not in output["data"]]


def test_figures_without_image_names_a_figure_stored_as_text_only():
    figure = {"output_type": "execute_result", "data": {"text/plain": ["<Figure size 850x350 with 1 Axes>"]}}
    with_png = {"output_type": "display_data", "data": {**figure["data"], "image/png": "iVBOR"}}
    other = {"output_type": "execute_result", "data": {"text/plain": ["<Figure is a word>"]}}
    cells = [{"outputs": [with_png]}, {"outputs": [other]}, {}, {"outputs": [figure]}]
    assert figures_without_image({"cells": cells}) == [3]


@pytest.mark.parametrize("path", COMMITTED, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_stored_figure_carries_its_image(path):
    """nbval never compares images, so a re-run that lost its charts (lesson 06 at 849e0d3) passes there."""
    assert figures_without_image(json.loads(path.read_text(encoding="utf-8"))) == []


def test_a_kernel_started_with_another_backend_still_stores_the_chart(tmp_path, monkeypatch):
    """MPLBACKEND=Agg keeps the inline backend off, the reason lesson 06 was once saved without its charts."""
    import nbformat

    from course_lib.workbook import runner

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        "from course_lib import charts\n"
        "charts.result_forms({'a': {'text only': 1, 'structured only': 1, 'both': 2}}, 'o200k_base')")]
    path = tmp_path / "chart.ipynb"
    nbformat.write(notebook, path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    runner.execute(path)
    (output,) = nbformat.read(path, as_version=4).cells[0].outputs
    assert FIGURE_TEXT.match(output["data"]["text/plain"])
    assert base64.b64decode(output["data"]["image/png"]).startswith(b"\x89PNG")
