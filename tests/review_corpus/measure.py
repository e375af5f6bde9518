"""Precision and misses of `course review` on the corpus, per rule and per severity, from the hand verdicts.

    python tests/review_corpus/measure.py [all|held-out|tuning|fresh-2] [--unjudged]

Each NAME.verdicts.toml beside a snapshot holds every finding the review has given on it, judged by hand:
[true] a real defect the rule should report, [false] a finding that is wrong (key "RULE tool[:parameter]").
A finding is counted at the severity this review gives it; a true verdict the review does not report is a miss.
A finding with no verdict is "unjudged" and counted apart: judge it before trusting the figures.
Nothing here starts a server or reaches the network.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass
class Tally:
    """Findings, false ones, unjudged ones and misses of one rule or one severity."""

    found: int = 0
    false: int = 0
    unjudged: int = 0
    missed: int = 0
    unjudged_keys: list[str] = field(default_factory=list)

    def precision(self) -> float | None:
        judged = self.found - self.unjudged
        return (judged - self.false) / judged if judged else None


def manifest() -> dict[str, dict]:
    return tomllib.loads((HERE / "corpus.toml").read_text(encoding="utf-8"))


def names(part: str = "all") -> list[str]:
    """The snapshots of one part of the corpus: all, held-out (judged before any tuning) or tuning."""
    entries = manifest()
    if part == "all":
        return sorted(entries)
    if part not in ("held-out", "tuning"):  # a later held-out set, named by its entries' `held_out` ("fresh-2")
        return sorted(name for name, entry in entries.items() if entry.get("held_out") == part)
    held = part == "held-out"
    return sorted(name for name, entry in entries.items() if entry.get("held_out") is True and held
                  or not entry.get("held_out") and not held)


def verdicts(name: str) -> dict[str, bool]:
    data = tomllib.loads((HERE / f"{name}.verdicts.toml").read_text(encoding="utf-8"))
    return {**{key: True for key in data.get("true", {})}, **{key: False for key in data.get("false", {})}}


def findings(name: str) -> dict[str, str]:
    """This review's findings on one snapshot: "RULE tool[:parameter]" -> severity."""
    from course_lib import contract, review

    snap = contract.load_snapshot(HERE / f"{name}.json")
    return {f"{f.id} {f.tool}:{f.parameter}" if f.parameter else f"{f.id} {f.tool}": f.severity
            for f in review.review(snap["tools"], snap.get("sdk"))}


def measure(part: str = "all") -> tuple[dict[str, Tally], dict[str, Tally]]:
    """Per rule id and per severity: findings, false, unjudged, misses."""
    rules: dict[str, Tally] = {}
    levels: dict[str, Tally] = {}
    for name in names(part):
        judged, found = verdicts(name), findings(name)
        for key, severity in found.items():
            rule = key.split()[0]
            for tally in (rules.setdefault(rule, Tally()), levels.setdefault(severity, Tally())):
                tally.found += 1
                if key not in judged:
                    tally.unjudged += 1
                    tally.unjudged_keys.append(f"{name}: {key}")
                elif not judged[key]:
                    tally.false += 1
        for key, true in judged.items():
            if true and key not in found:
                rules.setdefault(key.split()[0], Tally()).missed += 1
    return rules, levels


def table(part: str = "all") -> str:
    rules, levels = measure(part)
    count = Counter(len(names(part)) for _ in (0,))
    lines = [f"{part}: {next(iter(count))} snapshot(s)", "",
             "| rule | findings | false | precision | misses | unjudged |", "|---|---|---|---|---|---|"]

    def row(label: str, tally: Tally) -> str:
        precision = tally.precision()
        shown = f"{100 * precision:.1f} %" if precision is not None else "-"
        return f"| {label} | {tally.found} | {tally.false} | {shown} | {tally.missed} | {tally.unjudged} |"

    lines += [row(rule, rules[rule]) for rule in sorted(rules)]
    lines += [row(f"**{level}**", levels[level]) for level in ("error", "warning", "info") if level in levels]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    part = next((arg for arg in sys.argv[1:] if not arg.startswith("--")), "all")
    sys.stdout.write(table(part))
    if "--unjudged" in sys.argv:
        for tally in measure(part)[0].values():
            for key in tally.unjudged_keys:
                print("unjudged:", key)
