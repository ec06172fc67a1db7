"""How far a run is: the Bench page's bar from the stored results (RunProgress), and the CLI's on stderr as tasks
finish (TerminalProgress) or candidates are scored (scoring_counter)."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.runs.record import Run


@dataclass(frozen=True)
class RunProgress:
    """How far a run is: tasks done of its total, how many pass, and an ETA while it runs."""

    done: int
    total: int
    passing: int
    phase: str  # the run's state (Run.state()): running, finished, stopped, interrupted ...
    eta_seconds: float | None

    @property
    def fraction(self) -> float:
        """Share of the bar to fill: full for a finished run, whatever its count says."""
        if self.phase == "finished" or not self.total:
            return 1.0 if self.phase == "finished" else 0.0
        return min(1.0, self.done / self.total)

    def text(self) -> str:
        """'3/41 tasks done · 2 passing · running · ETA 4m05s'."""
        eta = (f" · ETA {int(self.eta_seconds // 60)}m{int(self.eta_seconds % 60):02d}s"
               if self.eta_seconds is not None else "")
        return f"{self.done}/{self.total} tasks done · {self.passing} passing · {self.phase}{eta}"


def run_progress(run: Run, results: list[dict], phase: str) -> RunProgress:
    """Progress of a run from its stored results; phase is its state (Run.state())."""
    total, done = len(run.task_ids), len(results)
    spent = sum(r["seconds"] for r in results) / max(1, run.parallel or 1)
    eta = spent / done * (total - done) if phase == "running" and done else None
    return RunProgress(done=done, total=total, passing=sum(bool(r["hidden_passed"]) for r in results), phase=phase,
                       eta_seconds=eta)


class TerminalProgress:
    """The CLI's one-line progress bar on stderr, called with each task's result: tasks done, passing so far, ETA."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.total, self.done, self.passing, self.enabled = total, done, 0, enabled
        self.started, self.lock, self.new = time.time(), threading.Lock(), 0

    def __call__(self, result: dict) -> None:
        with self.lock:
            self.done, self.new = self.done + 1, self.new + 1
            self.passing += result["hidden_passed"]
            if self.enabled:
                rate = (time.time() - self.started) / self.new
                eta = rate * (self.total - self.done)
                bar = "#" * int(30 * self.done / self.total)
                print(f"\r[{bar:<30}] {self.done}/{self.total} done, {self.passing} passing, "
                      f"ETA {int(eta // 60)}m{int(eta % 60):02d}s  ", end="", file=sys.stderr, flush=True)


def scoring_counter(args: argparse.Namespace, what: str) -> Callable[[int, int], None]:
    """The CLI's 'scored 12/40 samples' on stderr as scoring goes, unless the output is JSON (args.json)."""
    def progress(done: int, total: int) -> None:
        if not args.json:
            print(f"\rscored {done}/{total} {what}  ", end="", file=sys.stderr, flush=True)
    return progress
