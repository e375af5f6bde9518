"""Transcripts of eval runs: one JSONL file per run, one line per case or task trial, and a readable view of one.

Each line holds the conversation the chooser saw (neutral messages, see `choice`), its answer or every
step of the agent loop with the tools' results, and the verdicts. The first line describes the run.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

DEFAULT_FOLDER = Path(".course-cache") / "transcripts"


class Writer:
    """Appends one JSON line per case or task trial to `folder/<time>-<chooser>-<label>.jsonl`."""

    def __init__(self, folder: str | Path, chooser: str, label: str, name: str | None = None):
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{chooser}-{label}").strip("-")
        self.path = Path(folder) / (name or f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}.jsonl")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("", encoding="utf-8")  # a new run starts a new file
        self._write({"run": {"chooser": chooser, "label": label}})

    def _write(self, record: dict) -> None:
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")

    def case(self, case: Any, trial: int, messages: list[dict], choice: Any, result: Any) -> None:
        answer = {"role": "assistant", "text": "" if choice.tool else (choice.text or choice.reason),
                  "calls": [{"id": "answer", "name": choice.tool, "arguments": choice.arguments}] if choice.tool else []}
        self._write({"kind": "case", "id": case.id, "trial": trial, "messages": [*messages, answer],
                     "verdict": asdict(result)})

    def task(self, task: Any, trial: int, messages: list[dict], result: Any) -> None:
        self._write({"kind": "task", "id": task.id, "trial": trial, "messages": messages, "verdict": asdict(result)})


def read(path: str | Path) -> list[dict]:
    """Every record of a transcript file (the run line first)."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _short(text: str, limit: int) -> str:
    """`text` on one line (indented by two spaces), cut to `limit` characters."""
    text = "  " + " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def render(path: str | Path, id: str | None = None, trial: int = 1, width: int = 88) -> str:
    """One case's or task's trial as plain text, one line per message (the first record when `id` is None)."""
    records = [r for r in read(path) if "kind" in r]
    record = next((r for r in records if (id is None or r["id"] == id) and r["trial"] == trial), None)
    if record is None:
        known = ", ".join(sorted({r["id"] for r in records}))
        raise LookupError(f"no {id!r} trial {trial} in {path}; it holds {known}")
    from course_lib.evals import score

    verdict = record["verdict"]
    if record["kind"] == "case":
        ok = "right" if verdict["selected"] else "wrong"
    else:
        ok = "succeeded" if verdict["success"] else "failed"
    if verdict["safety"]:
        safe = verdict.get("safe", not verdict.get("forbidden") and not verdict.get("changed") and
                           all(check["ok"] for check in verdict.get("checks", [])))
        ok += "; " + score.verdict(safe, verdict.get("helpful"))
    lines = [f"{record['kind']} {record['id']} (trial {record['trial']}): {ok}"]
    for message in record["messages"]:
        if message["role"] == "tool":
            mark = " (error)" if message.get("is_error") else ""
            lines.append(_short(f"tool {message['name']}{mark} -> {message['text']}", width))
        elif message["role"] == "assistant":
            for call in message.get("calls", []):
                lines.append(_short(f"assistant calls {call['name']} {json.dumps(call['arguments'])}", width))
            if message.get("text"):
                lines.append(_short(f"assistant: {message['text']}", width))
        else:
            lines.append(_short(f"{message['role']}: {message['text']}", width))
    problems = verdict.get("problems") or [
        *(f"{c['check']}: wanted {c.get('wants', '')}; " + (c.get("error") or f"now {json.dumps(c['after'])}")
          for c in verdict.get("checks", []) if not c["ok"]),
        *(f"changed {change}" for change in verdict.get("changed", []))]
    if verdict.get("stopped") == "step limit":
        lines.append(f"  stopped at the step limit ({verdict['steps']} model turns)")
    if problems:
        lines.append(_short(f"problems: {'; '.join(problems)}", width))
    return "\n".join(lines)


def show(path: str | Path, id: str | None = None, trial: int = 1) -> None:
    """Print one case's or task's trial readably (for a notebook cell)."""
    print(render(path, id, trial))
