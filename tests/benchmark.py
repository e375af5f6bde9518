"""Measure the course's speed and memory targets (COURSE_DESIGN.md, "Targets").

Run from the course folder: `python tests/benchmark.py` (add `--full` to time the whole pytest run too).
Numbers are printed, never asserted: timing belongs in a report, not in a test on a noisy machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def _python(code: str) -> str:
    return subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()


def _median_of(code: str, runs: int = 5) -> float:
    return statistics.median(float(_python(code)) for _ in range(runs))


def import_time() -> dict[str, float]:
    """Cold `import course_lib`, and of the modules a lesson's first cell imports."""
    timer = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
    return {
        "import course_lib": _median_of(timer.format("import course_lib")),
        "import show, tokens, wire, servers.weather": _median_of(
            timer.format("from course_lib import show, tokens, wire; from course_lib.servers import weather")),
    }


def token_speed() -> dict[str, float]:
    """First count in a fresh process (encoding load included), then JSON throughput."""
    first = _median_of("import time; t = time.perf_counter(); from course_lib import tokens; "
                       "tokens.count('get_daily_forecast'); print(time.perf_counter() - t)", runs=3)
    code = (
        "import time, json; from course_lib import tokens, wire; from course_lib.servers import weather;"
        "tools = wire.run_sync(wire.list_tools, weather.build_server());"
        "blob = json.dumps([wire.dump(t) for t in tools] * 700); tokens.count('warm');"
        "t = time.perf_counter(); tokens.count(blob); print(len(blob.encode()) / (time.perf_counter() - t) / 1e6)"
    )
    return {"first token count (s)": first, "JSON throughput (MB/s)": _median_of(code, runs=3)}


def mcp_call_speed() -> dict[str, float]:
    """In-process connect + one call, and calls on an open session."""
    code = (
        "import time; from course_lib import wire; from course_lib.servers import weather\n"
        "server = weather.build_server()\n"
        "async def main():\n"
        "    t = time.perf_counter()\n"
        "    for _ in range(100):\n"
        "        async with wire.connect(server) as c: await c.call_tool('get_daily_forecast', {'city': 'Oslo'})\n"
        "    setup = (time.perf_counter() - t) / 100\n"
        "    async with wire.connect(server) as c:\n"
        "        t = time.perf_counter()\n"
        "        for _ in range(200): await c.call_tool('get_daily_forecast', {'city': 'Oslo'})\n"
        "        per = (time.perf_counter() - t) / 200\n"
        "    print(setup * 1000, per * 1000)\n"
        "wire.run_sync(main)\n"
    )
    setup, per_call = map(float, _python(code).split())
    return {"connect + 1 call (ms)": setup, "call on open session (ms)": per_call}


def transport_speed(runs: int = 5) -> dict[str, float]:
    """Lesson 09's three connections to the incident desk: connect (starting the child for stdio) + 1 call."""
    code = (
        "import time; from mcp import Client; from course_lib import live, wire\n"
        "from course_lib.servers import incidents\n"
        "async def timed(connect):\n"
        "    t = time.perf_counter()\n"
        "    async with connect() as client:\n"
        "        await client.call_tool('get_incident', {'incidentId': 'INC-101'})\n"
        "    return (time.perf_counter() - t) * 1000\n"
        "async def main():\n"
        "    await timed(lambda: Client(incidents.build_server('ana')))  # imports, first use\n"
        "    local = await timed(lambda: Client(incidents.build_server('ana')))\n"
        "    stdio = await timed(lambda: Client(live.stdio('incidents', '--user', 'ana')))\n"
        "    async with live.http('incidents', '--user', 'ana') as url:\n"
        "        await timed(lambda: Client(url))  # the HTTP client's first use\n"
        "        http = await timed(lambda: Client(url))\n"
        "    print(local, stdio, http)\n"
        "wire.run_sync(main)\n"
    )
    samples = [tuple(map(float, _python(code).split())) for _ in range(runs)]
    labels = ("in process: connect + 1 call (ms)", "stdio: start the child, connect + 1 call (ms)",
              "HTTP to a running server: connect + 1 call (ms)")
    return {label: statistics.median(sample[i] for sample in samples) for i, label in enumerate(labels)}


_MEMORY_CELL = "import resource; print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def lesson_runs() -> list[tuple[str, float, float, float]]:
    """Each lesson and solution executed headless: (name, seconds, slowest cell seconds, peak MB)."""
    import nbformat
    from nbclient import NotebookClient

    rows = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        notebook.cells.append(nbformat.v4.new_code_cell(_MEMORY_CELL))
        started = time.perf_counter()
        NotebookClient(notebook, timeout=300, kernel_name="python3", record_timing=True,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        total = time.perf_counter() - started
        slowest = max(_cell_seconds(cell) for cell in notebook.cells if cell.cell_type == "code")
        peak_kb = int(notebook.cells[-1].outputs[0]["text"].split()[1])
        rows.append((f"{path.parent.name}/{path.name}", total, slowest, peak_kb / 1024))
    return rows


def _cell_seconds(cell) -> float:
    from datetime import datetime

    timing = cell.metadata.get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = lambda stamp: datetime.fromisoformat(stamp.replace("Z", "+00:00"))  # noqa: E731
    return (parse(end) - parse(start)).total_seconds()


def course_check_time() -> dict[str, float]:
    """`course check` on the unsolved and the solved lesson 01 notebook, and the floor: nbval (through pytest, from
    a fresh process, as `course check` starts) on a notebook that only imports course_lib."""
    import nbformat

    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        floor = Path(scratch) / "floor.ipynb"
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import course_lib")]), floor)
        (Path(scratch) / "pytest.ini").write_text("[pytest]\n")
        started = time.perf_counter()
        subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env",
                        str(floor)], cwd=scratch, capture_output=True)
        out["floor: nbval on an import-only notebook (s)"] = time.perf_counter() - started
    for label, target in (("unsolved exercises/01", "01"), ("solved solutions/01", "solutions/01_bad_tool_rewrite.ipynb")):
        started = time.perf_counter()
        subprocess.run([PY, "-m", "course_lib.cli", "check", target], cwd=ROOT, capture_output=True)
        out[f"course check {label} (s)"] = time.perf_counter() - started
    floor = out["floor: nbval on an import-only notebook (s)"]
    for label in ("unsolved exercises/01", "solved solutions/01"):
        out[f"  ratio to the floor, {label}"] = out[f"course check {label} (s)"] / floor
    return out


def grade_time(students: int = 30) -> dict[str, float | str]:
    """`course grade` on a class of solved lesson-01 notebooks: each in its own sandboxed kernel (where this
    machine has bubblewrap), every checker in the grader across the boundary, two at a time."""
    import shutil

    sys.path.insert(0, str(ROOT))
    from course_lib.workbook import sandbox

    with tempfile.TemporaryDirectory() as scratch:
        for index in range(students):
            (Path(scratch) / f"student{index:02d}").mkdir()
            shutil.copy(ROOT / "solutions" / "01_bad_tool_rewrite.ipynb", Path(scratch) / f"student{index:02d}")
        started = time.perf_counter()
        subprocess.run([PY, "-m", "course_lib.cli", "grade", scratch, "--root", str(ROOT)], cwd=ROOT,
                       capture_output=True, check=True)
        seconds = time.perf_counter() - started
        passed = (Path(scratch) / "grades.csv").read_text(encoding="utf-8").count(",passed,")
    return {f"course grade, {students} submissions (s)": seconds,
            "  exercises passed (of 4 per submission)": f"{passed} of {4 * students}",
            "  sandbox": sandbox.note().split(" (")[0]}


def pytest_time() -> dict[str, float]:
    """The full suite, and the notebooks' share against a floor of trivial notebooks."""
    import nbformat

    def timed(args: list[str], cwd: Path = ROOT) -> float:
        started = time.perf_counter()
        subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=cwd, capture_output=True)
        return time.perf_counter() - started

    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(len(notebooks)):
            floor = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import course_lib")])
            nbformat.write(floor, Path(scratch) / f"floor_{index}.ipynb")
        (Path(scratch) / "pytest.ini").write_text("[pytest]\n")
        floor_time = timed(["--nbval", "--nbval-current-env", "-n", "auto", "--dist", "loadfile", "."],
                           cwd=Path(scratch))  # the same parallelism as the project's own addopts
    return {
        "full pytest (s)": timed([]),
        "notebooks under nbval (s)": timed(["notebooks", "solutions"]),
        f"floor: {len(notebooks)} import-only notebooks (s)": floor_time,
    }


def incident_note_speed(postgres_url: str | None, notes: int = 2000) -> dict[str, float]:
    """Notes per second through `add_note_once` (one thread): in memory, SQLite, and PostgreSQL when it runs."""
    import uuid

    from course_lib.servers import incidents
    from course_lib.incident_store import PostgresStore, SqliteStore

    def rate(store) -> float:
        started = time.perf_counter()
        for n in range(notes):
            store.add_note_once("ana", "INC-101", f"note {n}", uuid.UUID(int=n))
        return notes / (time.perf_counter() - started)

    with tempfile.TemporaryDirectory() as scratch:
        figures = {"in-memory store (notes/s)": rate(incidents.Store()),
                   "SQLite store, WAL, synchronous=FULL (notes/s)": rate(SqliteStore(Path(scratch) / "bench.db"))}
    if postgres_url:
        figures["PostgreSQL store, Unix socket, fsync on (notes/s)"] = rate(PostgresStore(postgres_url))
    return figures


def incident_http_load(label: str, store: str, clients: int = 50, calls: int = 100) -> dict[str, float | str]:
    """The mixed load over streamable HTTP against two server processes sharing one store (a path or a URL)."""
    import anyio

    from incident_helpers import Served, check_notes_once, mixed_load, write_tokens

    with tempfile.TemporaryDirectory() as scratch:
        flags = ("--tokens", str(write_tokens(Path(scratch))), "--store", store.replace("{scratch}", scratch))
        with Served(*flags) as first, Served(*flags) as second:
            report = anyio.run(mixed_load, [first.url, second.url], clients, calls)
        duplicates = check_notes_once(flags[-1], report["notes"])
    return {f"{label}: calls": report["calls"], "  protocol errors": len(report["protocol_errors"]),
            "  wrong answers (cross-tenant, leak, retry)": len(report["wrong"]),
            "  notes not exactly once": len(duplicates), "  throughput (calls/s)": report["throughput"],
            "  latency p50 (ms)": report["p50_ms"], "  latency p99 (ms)": report["p99_ms"],
            **{f"    {kind} p50 / p99 (ms)": f"{p50:.1f} / {p99:.1f}" for kind, (p50, p99) in report["by_kind"].items()}}


def offline_eval_speed(rounds: int = 20) -> dict[str, float]:
    """Offline eval cases per second (choose + judge) on each shipped case set (lesson 08's and the held-out
    ones), after one warm-up run."""
    code = (
        "import time\n"
        "from course_lib import wire, servers\n"
        "from course_lib.evals import cases, offline, run\n"
        "chooser = offline.OfflineChooser()\n"
        "for name in cases.packaged():\n"
        "    found = cases.load(name)\n"
        "    tools = wire.dump(wire.run_sync(wire.list_tools, servers.build(found.server)))\n"
        "    plain = [c for c in found if not c.result_must_not_include]  # no server calls: the chooser's speed\n"
        "    if not plain:\n"
        "        continue  # a file of tasks only\n"
        "    run.evaluate(plain, tools, chooser)\n"
        "    started = time.perf_counter()\n"
        f"    for _ in range({rounds}): run.evaluate(plain, tools, chooser)\n"
        f"    print(name, {rounds} * len(plain) / (time.perf_counter() - started))\n"
    )
    return {f"{line.split()[0]} (cases/s)": float(line.split()[1]) for line in _python(code).splitlines()}


def print_incident_figures() -> None:
    """The incident store and HTTP load section: memory, SQLite and PostgreSQL (a throwaway local cluster)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import postgres_cluster

    print("\nincident notes (targets: durable notes/s vs in-memory; HTTP 50 x 100 on two processes, 0 errors)")
    reason = postgres_cluster.missing()
    cluster = None if reason else postgres_cluster.Cluster()
    try:
        sections = [lambda: incident_note_speed(cluster and cluster.database()),
                    lambda: incident_http_load("HTTP, SQLite store", "{scratch}/shared.db")]
        if cluster:
            sections.append(lambda: incident_http_load("HTTP, PostgreSQL store", cluster.database()))
        for section in sections:
            for label, value in section().items():
                print(f"  {label:<50} {value:>10.1f}" if isinstance(value, float | int)
                      else f"  {label:<50} {value:>16}")
    finally:
        if cluster:
            cluster.close()
    if reason:
        print(f"  PostgreSQL not measured: {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also time course grade and the full pytest run")
    parser.add_argument("--incidents", action="store_true", help="only the incident store and HTTP load figures")
    parser.add_argument("--evals", action="store_true", help="only lesson 08's offline eval speed")
    parser.add_argument("--grade", action="store_true", help="only `course grade` on 30 submissions")
    parser.add_argument("--transports", action="store_true", help="only lesson 09's three connections")
    args = parser.parse_args()
    if args.transports:
        for label, value in transport_speed().items():
            print(f"  {label:<48} {value:10.1f}")
        return
    if args.incidents:
        print_incident_figures()
        return
    if args.evals:
        for label, value in offline_eval_speed().items():
            print(f"  {label:<48} {value:10.1f}")
        return
    if args.grade:
        _show(grade_time())
        return
    print(f"Python {sys.version.split()[0]} on {sys.platform}\n")
    for title, figures in (("imports (target ≤ 1.0 s)", import_time()),
                           ("tokens (targets: first ≤ 0.6 s, ≥ 1 MB/s)", token_speed()),
                           ("in-process MCP", mcp_call_speed()),
                           ("lesson 09's connections (median of 5)", transport_speed()),
                           ("course check (target ≤ 2 × the floor)", course_check_time()),
                           ("offline eval, lesson 08 (target ≥ 1,000 cases/s)", offline_eval_speed())):
        print(title)
        for label, value in figures.items():
            print(f"  {label:<48} {value:8.3f}")
    print_incident_figures()
    print("\nlessons headless (targets: ≤ 6 s, no cell over 3 s, ≤ 400 MB peak)")
    for name, total, slowest, peak in lesson_runs():
        print(f"  {name:<48} {total:6.2f} s  slowest cell {slowest:5.2f} s  peak {peak:6.1f} MB")
    if args.full:
        print("\ngrading and pytest (targets: grade ≤ 60 s; full ≤ 180 s; notebooks ≤ 1.5 × floor)")
        _show({**grade_time(), **pytest_time()})


def _show(figures: dict) -> None:
    """One line per figure: numbers to two decimals, anything else as it is."""
    for label, value in figures.items():
        print(f"  {label:<48} {value:8.2f}" if isinstance(value, float) else f"  {label:<48} {value}")


if __name__ == "__main__":
    main()
