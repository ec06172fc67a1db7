"""The hidden tests' side of the protocol: the limits they run under, the status stored for their verdict, and one
candidate scored on both test sets. They run after the loop, on every candidate, and decide nothing in it."""

from __future__ import annotations

import time

from bench.datasets.task import TIME_LIMIT_ERROR, Task
from sandbox import Limits, TestReport, run_tests

HIDDEN_LIMITS = Limits(timeout_s=10)


def hidden_limits(task: Task) -> Limits:
    """The limits a task's hidden tests run under: its own time limit where its dataset sets one (HumanEval+'s, from
    its canonical solution's runtime), else HIDDEN_LIMITS."""
    timeout = task.get("hidden_timeout_s")
    return Limits(timeout_s=timeout) if timeout else HIDDEN_LIMITS


def hidden_status(report: TestReport) -> str:
    """The status stored for a hidden verdict: the sandbox's, except that a call the tests stopped at their own time
    limit (TIME_LIMIT_ERROR) is a timeout like a run the sandbox stopped, and counted apart from wrong answers."""
    if report.status == "failed" and any(t.error_type == TIME_LIMIT_ERROR for t in report.tests if not t.passed):
        return "timeout"
    return report.status


def run_hidden(code: str, task: Task, entry_point: str | None) -> TestReport:
    """A candidate's code on the task's hidden tests, under the task's limits."""
    return run_tests(code, task["hidden_tests"], entry_point=entry_point, limits=hidden_limits(task))


def score_sample(code: str, task: Task, entry_point: str | None, extract_error: str | None = None
                 ) -> tuple[TestReport, TestReport, float]:
    """One sample's visible report (stored; it decides nothing) and hidden verdict, and the seconds they took. Code
    that could not be extracted fails both without running."""
    started = time.perf_counter()
    if extract_error:
        missing = TestReport(status="error", error=f"no code to run: {extract_error}")
        return missing, missing, 0.0
    visible = run_tests(code, task["tests"], entry_point=entry_point)
    return visible, run_hidden(code, task, entry_point), round(time.perf_counter() - started, 3)
