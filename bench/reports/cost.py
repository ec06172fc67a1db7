"""What a run costs on this machine: seconds per task of a model, measured by its last run or by a one-task probe.

Measured, never guessed: a model's speed depends on the machine, and a task's time on how many candidates it
draws, so the estimate says which run or probe it comes from and with which search settings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from agent import Solver
from agent.config import describe_search
from bench.protocol.labels import Protocol
from bench.protocol.rules import Rules
from bench.protocol.solve import solve_task
from bench.reports.words import search_words
from bench.runs.config import RunConfig, run_search, selected_tasks
from bench.runs.record import Run


@dataclass(frozen=True)
class CostEstimate:
    """Seconds of wall time per task, and where the figure comes from."""

    seconds_per_task: float
    source: str  # e.g. "run 20261130-110503-2f694d: 164 tasks in 56 min (sample search, budget 9 ..., 2 at once)"

    def for_tasks(self, tasks: int) -> float:
        """Expected wall seconds for this many tasks."""
        return self.seconds_per_task * tasks


def duration(seconds: float) -> str:
    """'0.4 s', '45 s', '14 min', '2 h 05 min'."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 120 else f"{minutes // 60} h {minutes % 60:02d} min"


def estimate_from_runs(runs: list[Run], provider: str, model: str) -> CostEstimate | None:
    """From the newest run of the loop with this provider and model that has finished tasks and a measured wall
    time (runs newest first, as bench.runs.store.list_runs gives them): its wall seconds per finished task. Runs of
    independent samples are left out: N samples a task cost what N samples cost, not what a solve does, and an
    imported run's time is only our scoring of another harness's samples. A rescored run (bench.scoring.rescore) is
    left out too: it repeats its source's times, and its source speaks for itself; so is an interactive one, whose
    doubt batches and questions a solve nobody answers does not pay for."""
    for run in runs:
        if run.sampled or run.rescored_from or run.protocol == Protocol.INTERACTIVE:
            continue
        if run.provider == provider and run.model == model and run.done and run.elapsed:
            return CostEstimate(run.elapsed / run.done, f"run {run.id}: {run.done} tasks in {duration(run.elapsed)} "
                                                        f"({search_words(run)}; {run.parallel} at once)")
    return None


def probe(solver: Solver, config: RunConfig) -> CostEstimate:
    """Solve the first task of config's selection once, as a run would (visible tests, then hidden scoring),
    and time it. Nothing is stored in the bench: a probe is not a run."""
    problem = selected_tasks(config)[0]
    search = run_search(config)
    started = time.perf_counter()
    result, _, _ = solve_task(solver, problem, Rules("cost-probe", config.feedback, search))
    seconds = time.perf_counter() - started
    verdict = "passed" if result["hidden_passed"] else "failed"
    return CostEstimate(seconds, f"a probe: {problem['task_id']} took {duration(seconds)} with {result['iterations']} "
                                 f"candidate(s) ({verdict}; {describe_search(search)}); "
                                 "a task that needs more candidates takes longer")
