"""Statistics over cases, never trials: Wilson intervals, pass^k (observed and tau-bench's estimate), the exact paired
test; repeating a deterministic run K times changes no interval and no p-value. Oracles computed here independently:
the Wilson bounds by bisection on the score equation, pass^k by enumerating subsets of trials, p by enumerating every
sign flip (and the binomial tail for McNemar)."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from statistics import NormalDist

import pytest

from course_lib import wire
from course_lib.evals import cases, offline, run, score
from course_lib.servers import incident_overloaded, incidents
from test_cli import course


def wilson_by_bisection(p_hat: float, n: int, z: float = NormalDist().inv_cdf(0.975)) -> tuple[float, float]:
    """The two p where |p_hat - p| = z * sqrt(p (1 - p) / n): the definition of the Wilson score interval."""
    def gap(p: float) -> float:
        return abs(p_hat - p) - z * math.sqrt(p * (1 - p) / n)

    def root(lo: float, hi: float) -> float:  # gap(lo) and gap(hi) differ in sign
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if (gap(mid) > 0) == (gap(lo) > 0) else (lo, mid)
        return (lo + hi) / 2

    low = 0.0 if p_hat == 0 else root(0.0, p_hat)
    high = 1.0 if p_hat == 1 else root(p_hat, 1.0)
    return low, high


@pytest.mark.parametrize("k, n", [(0, 5), (4, 9), (8, 9), (9, 9), (Fraction(7, 3), 4), (12, 27)])
def test_wilson_matches_the_score_equation(k, n):
    interval = score.wilson(float(k) if isinstance(k, Fraction) else k, n)
    low, high = wilson_by_bisection(float(k) / n, n)
    assert interval.low == pytest.approx(low, abs=1e-9) and interval.high == pytest.approx(high, abs=1e-9)


def test_accuracy_is_over_cases_each_at_its_share_of_trials():
    interval = score.over_cases({"a": [True, True, True], "b": [True, False, False], "c": [False] * 3})
    assert interval.n == 3 and interval.k == pytest.approx(4 / 3)  # 1 + 1/3 + 0, of 3 cases (not 4 of 9 trials)
    assert str(interval).startswith("1.33/3 = 44%")
    assert score.over_cases({"a": [True], "b": [False]}).k == 1 and str(score.over_cases({"a": [True]}))[:3] == "1/1"
    assert interval.method == score.METHOD == "95 % Wilson score interval"


def pass_by_enumeration(outcomes: dict[str, list[bool]], k: int) -> float:
    """pass^k by definition: per case, the share of its k-subsets of trials that all succeeded; the mean over cases."""
    shares = []
    for trials in outcomes.values():
        subsets = list(itertools.combinations(trials, k))
        shares.append(sum(all(s) for s in subsets) / len(subsets))
    return sum(shares) / len(shares)


def test_pass_hat_k_is_tau_bench_s_estimator_and_all_trials_at_k_equal_n():
    outcomes = {"a": [True, False, True, True], "b": [True] * 4, "c": [False, False, True, False], "d": [False] * 4}
    for k in (1, 2, 3, 4):
        assert score.pass_hat_k(outcomes, k).rate == pytest.approx(pass_by_enumeration(outcomes, k))
    assert score.pass_hat_k(outcomes).k == 1 and score.pass_hat_k(outcomes).n == 4  # only b: every trial right
    assert score.pass_hat_k(outcomes, 1).rate == pytest.approx(score.over_cases(outcomes).rate)
    with pytest.raises(ValueError):
        score.pass_hat_k(outcomes, 5)
    assert score.pass_hat_k_label(4, 4) == "pass^4 (the right tool (or rightly none) in every one of 4 trials)"
    assert score.pass_hat_k_label(2, 4) == \
        "pass^2 (the right tool (or rightly none); tau-bench estimate C(c,2)/C(4,2) from 4 trials)"
    assert score.pass_hat_k_label(3, 3, "success") == "pass^3 (the task succeeded in every one of 3 trials)"


def flips_by_enumeration(differences: list[float]) -> float:
    """The paired permutation p by listing all 2^m sign assignments."""
    observed = abs(sum(differences))
    sums = [abs(sum(s * d for s, d in zip(signs, differences)))
            for signs in itertools.product((1, -1), repeat=len(differences))]
    return sum(total >= observed - 1e-12 for total in sums) / len(sums)


@pytest.mark.parametrize("differences", [
    [Fraction(1)] * 5 + [Fraction(-1)],
    [Fraction(2, 3), Fraction(1, 3), Fraction(-1, 3), Fraction(1), Fraction(0), Fraction(1, 2), Fraction(-1, 2)],
    [Fraction(1, 3)] * 9,
    [Fraction(0)] * 3,
])
def test_the_sign_flip_p_matches_full_enumeration(differences):
    assert score.sign_flip_p(differences) == pytest.approx(flips_by_enumeration([float(d) for d in differences]))


def mcnemar_by_binomial(only_a: int, only_b: int) -> float:
    m = only_a + only_b
    return min(1.0, 2 * sum(math.comb(m, i) for i in range(min(only_a, only_b) + 1)) / 2 ** m) if m else 1.0


def synthetic(label: str, outcomes: dict[str, list[bool]]) -> score.Report:
    return score.Report(label, "x", [score.CaseResult(case, "tune", "r", None, None, {}, ok, None, True, False, None,
                                                      trial=t)
                                     for case, trials in outcomes.items() for t, ok in enumerate(trials, 1)])


def test_the_paired_test_is_over_cases_and_is_mcnemar_on_all_or_nothing_cases():
    a = synthetic("a", {f"c{i}": [i < 5] for i in range(9)})
    b = synthetic("b", {f"c{i}": [i in (0, 8)] for i in range(9)})
    once = score.mcnemar(a, b)
    assert (once.only_a, once.only_b, once.both, once.neither) == (4, 1, 1, 3)
    assert once.p_value == pytest.approx(mcnemar_by_binomial(4, 1)) and once.method == "exact McNemar"
    thrice = score.mcnemar(synthetic("a", {c: r * 3 for c, r in a.outcomes().items()}),
                           synthetic("b", {c: r * 3 for c, r in b.outcomes().items()}))
    assert thrice.p_value == once.p_value and (thrice.only_a, thrice.only_b) == (4, 1)
    flaky = synthetic("f", {"c0": [True, False, True], "c1": [False, False, True], "c2": [True] * 3})
    steady = synthetic("s", {"c0": [False] * 3, "c1": [True] * 3, "c2": [True] * 3})
    mixed = score.mcnemar(flaky, steady)
    assert mixed.method == "exact paired permutation" and (mixed.only_a, mixed.only_b, mixed.cases) == (1, 1, 3)
    assert mixed.p_value == pytest.approx(flips_by_enumeration([2 / 3, 1 / 3 - 1]))
    assert "equal on 1 (3 trials per case)" in str(mixed)
    with pytest.raises(ValueError):
        score.mcnemar(a, synthetic("short", {"c0": [True]}))


@pytest.fixture(scope="module")
def tool_lists():
    return (wire.dump(wire.run_sync(wire.list_tools, incidents.build_server())),
            wire.dump(wire.run_sync(wire.list_tools, incident_overloaded.build_server())))


def test_three_trials_of_a_deterministic_chooser_give_the_intervals_and_p_of_one(tool_lists):
    desk, overloaded = tool_lists
    found = cases.load("incidents")
    figures = []
    for trials in (1, 3):
        narrow = run.evaluate(found, desk, offline.OfflineChooser(), trials=trials, label="narrow")
        wide = run.evaluate(found, overloaded, offline.OfflineChooser(), variant="overloaded", trials=trials,
                            label="wide")
        assert len(narrow.results) == 9 * trials
        figures.append((narrow.accuracy, narrow.correct, narrow.validity, narrow.pass_hat_k(), wide.accuracy,
                        score.mcnemar(narrow, wide).p_value))
    assert figures[0] == figures[1]
    assert figures[0][4].n == 9  # nine cases, not 27 trials


def test_task_pass_hat_k_is_the_share_of_tasks_whose_every_trial_succeeded():
    def result(task: str, trial: int, success: bool) -> run.TaskResult:
        return run.TaskResult(task, trial, success, [], 0, 0, [], 1, 0.0, "model finished")

    report = run.TaskReport("t", "x", [result("a", t, ok) for t, ok in ((1, True), (2, False), (3, True))]
                            + [result("b", t, True) for t in (1, 2, 3)])
    assert (report.pass_hat_k().k, report.pass_hat_k().n) == (1, 2)  # only b; not 5 of 6 trials
    assert report.success.n == 2 and report.success.k == pytest.approx(5 / 3)
    assert report.pass_hat_k(2).rate == pytest.approx(pass_by_enumeration(report.outcomes(), 2))
    data = json.loads(report.to_json())
    assert data["unit"] == "task" and data["per_task"] == [{"task": "a", "trials": 3, "succeeded": 2},
                                                             {"task": "b", "trials": 3, "succeeded": 3}]


def figures(output: str) -> list[str]:
    """The summary lines of `course eval` that carry intervals and p-values (the per-trial rows left out)."""
    return [line for line in output.splitlines()
            if re.match(r"(selection accuracy|compared with|tasks: success|.* exact McNemar p|pass\^)", line)]


def test_course_eval_compare_gives_the_same_p_and_intervals_at_one_and_three_trials():
    args = ("eval", "incidents", "--compare", "incident-overloaded", "--compare-variant", "overloaded")
    once, thrice = course(*args, "--trials", "1"), course(*args, "--trials", "3")
    assert once.returncode == thrice.returncode == 0, once.stderr + thrice.stderr
    lines = figures(once.stdout)
    assert lines[0].startswith("selection accuracy 8/9 = 89% (95% CI 57%-98%)")
    assert "compared with incident-overloaded: selection accuracy 4/9 = 44% (95% CI 19%-73%)" in lines
    assert lines[-1].endswith("exact McNemar p = 0.219")
    assert [line for line in figures(thrice.stdout) if not line.startswith("pass^")] == lines
    assert "pass^3 (the right tool (or rightly none) in every one of 3 trials) over cases: 8/9 = 89% (95% CI 57%-98%)" \
        in thrice.stdout
    assert "on the right tool (or rightly none): " in lines[-1]
    assert "pass^2 (the right tool (or rightly none); tau-bench estimate C(c,2)/C(3,2) from 3 trials) over cases: 8/9" \
        in thrice.stdout


def test_course_eval_tasks_gives_the_same_interval_at_one_and_three_trials():
    once, thrice = course("eval", "tasks", "--trials", "1"), course("eval", "tasks", "--trials", "3")
    success = [line for line in once.stdout.splitlines() if line.startswith("tasks: success")]
    assert len(success) == 1 and success[0] in thrice.stdout.splitlines()
    counted = re.search(r"tasks: success (\d+)/(\d+) = \d+% \(95% CI (\d+%-\d+%)\)", success[0])
    assert counted and counted[2] == str(len(cases.load("tasks").tasks))
    assert f"pass^3 (the task succeeded in every one of 3 trials) over tasks: {counted[1]}/{counted[2]}" in thrice.stdout
    per_task = [line.split() for line in thrice.stdout.splitlines() if re.fullmatch(r"\S+\s+[0-3]/3\s*", line)]
    assert len(per_task) == int(counted[2]) and sum(row[1] == "3/3" for row in per_task) == int(counted[1])


def test_course_eval_exits_1_when_any_task_fails_safety_or_not(tmp_path):
    task = ('server = "incidents"\n[[task]]\nid = "t"\nrequest = "Close INC-103 as fixed."\nmax_steps = 6\n'
            'check = [{ tool = "get_incident", args = { incidentId = "INC-103" }, path = "status", equals = "%s" },\n'
            '         { tool = "get_incident", args = { incidentId = "INC-103" }, path = "notes", changed_by = 1 },\n'
            '         { tool = "get_incident", args = { incidentId = "INC-103" }, path = "notes.-1.text", '
            'equals = "Closed as fixed." }]\n')
    (tmp_path / "done.toml").write_text(task % "resolved")
    (tmp_path / "missed.toml").write_text(task % "open")  # not a safety task; it fails
    done, missed = course("eval", str(tmp_path / "done.toml")), course("eval", str(tmp_path / "missed.toml"))
    assert done.returncode == 0 and "tasks: success 1/1" in done.stdout, done.stderr
    assert missed.returncode == 1 and "tasks: success 0/1" in missed.stdout and "failed: t" in missed.stdout


def test_pass_hat_k_and_the_paired_test_say_what_a_right_trial_is_also_in_json():
    import dataclasses

    results = [score.CaseResult("c", "tune", "r", "t", "t", {}, True, True, True, False, None, trial=n) for n in (1, 2)]
    report = score.Report("a", "x", results)
    assert report.summary()["pass_hat_k_measure"] == "the right tool (or rightly none)"
    assert report.summary()["pass_hat_k_estimates"][-1]["figure"].startswith("pass^2 (the right tool (or rightly none)")
    paired = score.mcnemar(report, score.Report("b", "x", results))
    assert dataclasses.asdict(paired)["measure"] == "selected" and str(paired).startswith("on the right tool")
    tasks = run.TaskReport("t", "x", [run.TaskResult("t1", 1, True, [], 0, 0, [], 1, 0.0, "model finished")])
    assert json.loads(tasks.to_json())["pass_hat_k_measure"] == "the task succeeded"
