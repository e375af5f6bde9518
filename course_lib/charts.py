"""matplotlib figures for lesson 06, drawn from the data that `course_lib.cost` computes.

Every function returns a `matplotlib.figure.Figure` (not managed by pyplot, so nothing is shown
twice and nothing piles up in tests). In a notebook, put the figure as a cell's last expression:
its text form is the deterministic `<Figure size WxH with N Axes>`. Colours are the Okabe-Ito
palette, which stays distinguishable for the common kinds of colour blindness.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

OKABE_ITO = {
    "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "black": "#000000", "grey": "#999999",
}
WIDTH = 8.5  # inches at 100 dpi: about the width of a notebook's output area


def _figure(height: float = 3.6, width: float = WIDTH):
    """A new Figure with an Agg canvas; in IPython, make sure it displays as PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    _display_as_png(Figure)
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _display_as_png(figure_type: type) -> None:
    """In an IPython shell, give `figure_type` a PNG form unless it has one.

    The inline backend registers one only when it is matplotlib's backend, and a kernel started with
    MPLBACKEND set (say `Agg`, in a CI or a shell profile) never makes it so: without this, the saved
    notebook kept only the text form `<Figure size ...>` of every chart.
    """
    if "IPython" not in sys.modules:
        return
    shell = sys.modules["IPython"].get_ipython()
    if shell is None:
        return
    formatter = shell.display_formatter.formatters["image/png"]
    try:
        formatter.lookup_by_type(figure_type)
    except KeyError:
        from IPython.core.pylabtools import print_figure

        formatter.for_type(figure_type, lambda fig: print_figure(fig, "png", bbox_inches="tight"))


def _style(ax, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title, fontsize=12, loc="left")
    ax.set_xlabel(xlabel, fontsize=10)
    ax.set_ylabel(ylabel, fontsize=10)
    ax.tick_params(labelsize=9)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _tokens_label(value: float) -> str:
    return f"{value / 1000:.1f}k" if value >= 1000 else f"{value:.0f}"


# --- 1. where a definition's tokens go --------------------------------------------------------------

_FIELD_COLOURS = {"name": "grey", "title": "grey", "description": "blue", "schema frame": "sky",
                  "output schema": "green", "annotations": "purple", "other fields": "black"}
_PARAM_COLOURS = ("orange", "yellow", "vermillion")
_DARK = {OKABE_ITO[c] for c in ("blue", "green", "vermillion", "black", "purple")}


def field_colour(field: str, param_index: int = 0) -> str:
    """The colour (hex) of a definition part; parameters ("param x") alternate through warm colours."""
    if field.startswith("param "):
        return OKABE_ITO[_PARAM_COLOURS[param_index % len(_PARAM_COLOURS)]]
    return OKABE_ITO[_FIELD_COLOURS.get(field, "black")]


def field_breakdown(definitions: Mapping[str, Sequence[tuple[str, int]]], encoding: str):
    """Horizontal stacked bars: one bar per definition, one segment per part (from `cost.field_tokens`)."""
    fig = _figure(height=1.9 + 0.8 * len(definitions))
    ax = fig.subplots()
    labels = list(definitions)
    widest = max(sum(count for _, count in parts) for parts in definitions.values())
    legend: dict[str, Any] = {}
    for row, label in enumerate(labels):
        left, param_index = 0, 0
        for field, count in definitions[label]:
            is_param = field.startswith("param ")
            colour = field_colour(field, param_index)
            bar = ax.barh(row, count, left=left, color=colour, edgecolor="white", linewidth=1, height=0.62)
            legend.setdefault("parameters (one segment each)" if is_param else field, bar)
            if count >= widest * 0.045:
                shown = field.removeprefix("param ") if is_param else {"description": "descr.", "output schema": "output",
                                                                        "schema frame": "frame"}.get(field, field)
                ax.text(left + count / 2, row, f"{shown}\n{count}" if count >= widest * 0.06 else f"{count}",
                        ha="center", va="center", fontsize=8, color="white" if colour in _DARK else "black")
            left += count
            param_index += is_param
        ax.text(left + widest * 0.01, row, f"{left} tokens", va="center", fontsize=9)
    ax.set_yticks(range(len(labels)), labels, fontsize=9)
    ax.invert_yaxis()
    _style(ax, f"Where a definition's tokens go ({encoding}, compact JSON)", f"tokens ({encoding})", "")
    ax.set_xlim(0, widest * 1.13)
    fig.legend(legend.values(), legend.keys(), loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    return fig


# --- 2. count pressure ------------------------------------------------------------------------------

_LINE_COLOURS = ("vermillion", "orange", "blue", "green", "purple", "sky", "black")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def _window_label(window: int) -> str:
    from course_lib import cost

    if window in cost.CONTEXT_WINDOWS:
        return f"{cost.CONTEXT_WINDOWS[window]} ({window:,})"
    return f"{window // 1_000_000}M window" if window >= 1_000_000 else f"{window // 1000}k window"


def context_pressure(rows: Sequence[Any], tokens_per_tool: float):
    """Lines: share of each context window spent on definitions, by number of servers connected.

    A line stops where its window is full.
    """
    fig = _figure(height=3.9)
    ax = fig.subplots()
    servers = [row.servers for row in rows]
    windows = list(rows[0].share)
    for index, window in enumerate(windows):
        xs, ys = [], []
        for row in rows:
            xs.append(row.servers)
            ys.append(min(row.share[window], 1.0) * 100)
            if row.share[window] >= 1.0:
                break
        colour = OKABE_ITO[_LINE_COLOURS[index % len(_LINE_COLOURS)]]
        ax.plot(xs, ys, marker=_MARKERS[index % len(_MARKERS)], markersize=5, color=colour,
                label=_window_label(window))
        if ys[-1] >= 100:
            ax.annotate("full", (xs[-1], 100), xytext=(4, -12), textcoords="offset points", fontsize=8, color=colour)
    ax.axhline(100, color=OKABE_ITO["grey"], linewidth=1, linestyle="--", zorder=0)
    tools = rows[0].tools_per_server
    _style(ax, f"Definitions fill the window ({tools} tools per server, ~{tokens_per_tool:.0f} tokens each)",
           "servers connected (definition tokens sent on every turn)", "share of the window (%)")
    ax.set_xticks(servers, [f"{row.servers}\n{_tokens_label(row.tokens)}" for row in rows])
    ax.set_ylim(0, 108)
    fig.legend(loc="outside right upper", fontsize=8, frameon=False)
    return fig


# --- 3. one large server vs focused servers -------------------------------------------------------


def split_savings(rows: Sequence[Any]):
    """Grouped horizontal bars: definition tokens per turn, one large server vs the focused ones a task needs."""
    fig = _figure(height=1.5 + 0.7 * len(rows))
    ax = fig.subplots()
    height = 0.36
    for index, row in enumerate(rows):
        for offset, value, tools, colour, label in (
            (-height / 2, row.one_server, row.tools_one, "vermillion", "one server with every tool"),
            (height / 2, row.focused, row.tools_focused, "blue", "only the focused servers the task needs"),
        ):
            ax.barh(index + offset, value, height=height, color=OKABE_ITO[colour], label=label if index == 0 else None)
            ax.text(value + 20, index + offset, f"{value:,} tokens, {tools} tools", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [f"{row.task}\n({' + '.join(row.areas)})" for row in rows], fontsize=9)
    ax.invert_yaxis()
    _style(ax, "Split a large server: a host enables only what the task needs", "definition tokens per turn", "")
    ax.set_xlim(0, max(row.one_server for row in rows) * 1.3)
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    return fig


# --- 4. results cost too ----------------------------------------------------------------------------

_FORM_COLOURS = {"text only": "orange", "structured only": "sky", "both": "vermillion"}


def result_forms(rows: Mapping[str, Mapping[str, int]], encoding: str, xlabel: str = "result"):
    """Grouped bars: result tokens as text only, structured only and both, per result size."""
    fig = _figure(height=3.6)
    ax = fig.subplots()
    groups = list(rows)
    forms = list(next(iter(rows.values())))
    width = 0.8 / len(forms)
    for index, form in enumerate(forms):
        xs = [g + (index - (len(forms) - 1) / 2) * width for g in range(len(groups))]
        values = [rows[group][form] for group in groups]
        ax.bar(xs, values, width=width * 0.95, color=OKABE_ITO[_FORM_COLOURS.get(form, "grey")], label=form)
        for x, value in zip(xs, values):
            ax.text(x, value, f"{value}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(groups)), groups)
    _style(ax, "The same result in three forms: 'both' carries the data twice", xlabel,
           f"tokens ({encoding})")
    ax.set_ylim(0, max(max(v.values()) for v in rows.values()) * 1.15)
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    return fig


# --- 5. prefix caching ------------------------------------------------------------------------------


def cache_share(series: Mapping[str, Sequence[Any]]):
    """Lines: share of each turn's input tokens served from a prefix cache, per tools/list behaviour."""
    fig = _figure(height=3.6)
    ax = fig.subplots()
    colours, markers = ("blue", "vermillion", "green", "orange"), ("o", "s", "^", "D")
    for index, (label, turns) in enumerate(series.items()):
        ax.plot([t.turn for t in turns], [t.share * 100 for t in turns], marker=markers[index % 4], markersize=5,
                color=OKABE_ITO[colours[index % 4]], label=label)
    turns = next(iter(series.values()))
    _style(ax, "Prompt-cache reuse over one conversation (simulated)", "turn", "input tokens served from cache (%)")
    ax.set_xticks([t.turn for t in turns])
    ax.set_ylim(-3, 105)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    return fig
