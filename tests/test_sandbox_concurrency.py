"""Many threads share the sandbox's worker pool: every run must still get its own correct verdict."""

from __future__ import annotations

import ast
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from sandbox import Limits, locked_parse, run_tests
from sandbox.pool import default_pool


def _job(i: int) -> tuple[int, str, int]:
    # Half the programs are right, half are wrong by i, so a mixed-up result would show.
    code = f"def f(x):\n    return x * x + {0 if i % 2 == 0 else i}\n"
    report = run_tests(code, f"assert f({i}) == {i * i}\nassert f(2) == 4\n")
    return i, report.status, report.n_passed


def test_sixteen_runs_from_eight_threads():
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = sorted(pool.map(_job, range(16)))
    for i, status, n_passed in results:
        assert status == ("passed" if i % 2 == 0 else "failed"), (i, status)
        assert n_passed == (2 if i % 2 == 0 else 0)



@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to choose")
def test_a_runs_two_processes_share_one_cpu_while_calls_cross_fast_and_not_while_each_computes():
    # Each crossing wakes the other process; across two CPUs of an idle machine that costs 2-3 times as much
    # (one_cpu.py). Calls that compute a while gain nothing from one CPU, and another run pinned there would halve both.
    code = ("import os, time\ndef cpus(work=0.0):\n    end = time.perf_counter() + work\n"
            "    while time.perf_counter() < end:\n        pass\n    return sorted(os.sched_getaffinity(0))\n"
            "def each(items, fn):\n    [fn(x) for x in items]\n    return sorted(os.sched_getaffinity(0))\n")
    tests = ("import os\ndef test_one_cpu():\n    everything = sorted(os.sched_getaffinity(0))\n"
             "    assert cpus() == everything\n"  # a few calls: the two start up side by side
             "    for _ in range(200):\n        theirs = cpus()\n"
             "    assert len(theirs) == 1 and theirs == sorted(os.sched_getaffinity(0))\n"
             "    for _ in range(200):\n        theirs = cpus(0.003)\n"
             "    assert theirs == everything == sorted(os.sched_getaffinity(0))\n"
             "    theirs = each(range(200), lambda x: x)\n"  # the code's calls back into the tests cross too
             "    assert len(theirs) == 1 and theirs == sorted(os.sched_getaffinity(0))\n")
    report = run_tests(code, tests, limits=Limits(timeout_s=30))
    assert report.status == "passed", report


def test_workers_outlive_the_threads_that_started_them():
    # A death signal tied to the starting *thread* (bwrap's --die-with-parent) once killed idle workers.
    slow = "import time\ndef f(x):\n    time.sleep(0.3)\n    return x * x\n"
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert all(r.passed for r in pool.map(lambda i: run_tests(slow, "assert f(2) == 4"), range(4)))
    time.sleep(0.2)
    workers = list(default_pool()._all.values())
    assert len(workers) >= 4
    assert all(w.proc.poll() is None for w in workers), "idle workers died with their starting threads"
    for i in range(6):
        assert _job(i)[1] == ("passed" if i % 2 == 0 else "failed")


def _most_parses_at_once(parse_source: Callable[[str], object], monkeypatch) -> int:
    """Parse from 6 threads with a slow stand-in for ast.parse; how many parses overlapped at most."""
    inside, most, count = 0, 0, threading.Lock()

    def slow_parse(source: str, mode: str = "exec") -> ast.AST:
        nonlocal inside, most
        with count:
            inside += 1
            most = max(most, inside)
        time.sleep(0.02)  # a parse long enough that unserialized threads surely overlap
        with count:
            inside -= 1
        return ast.Module(body=[], type_ignores=[])

    monkeypatch.setattr(locked_parse, "ast", SimpleNamespace(parse=slow_parse, AST=ast.AST))
    threads = [threading.Thread(target=lambda: [parse_source("x = 1") for _ in range(5)]) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return most


def test_parses_on_the_host_never_overlap(monkeypatch):
    # CPython 3.11 keeps the AST conversion's recursion depth in one global (gh-106905): two threads parsing at
    # once can fail with "SystemError: AST constructor recursion depth mismatch". The lock's contract: one at a time.
    assert _most_parses_at_once(lambda src: locked_parse.ast.parse(src), monkeypatch) > 1  # unlocked: they overlap
    assert _most_parses_at_once(locked_parse.parse, monkeypatch) == 1


def test_every_host_parse_goes_through_the_lock():
    root = Path(__file__).resolve().parent.parent
    unlocked = [f"{path.relative_to(root)}:{n}" for folder in ("agent", "bench", "sandbox", "ui")
                for path in (root / folder).rglob("*.py")
                if "inside" not in path.parts and path.name != "locked_parse.py"
                for n, line in enumerate(path.read_text().splitlines(), 1) if "ast.parse(" in line]
    assert unlocked == [], "parse through sandbox.locked_parse.parse (see its docstring)"
