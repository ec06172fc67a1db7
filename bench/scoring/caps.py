"""The answer a run gives at each budget: the chooser's pick among the first k + 1 candidates, stored per task
(answer_by_cap), so one run gives the whole pass-rate-by-budget curve."""

from __future__ import annotations

from bench.protocol.labels import LOST_STATUSES
from bench.runs.record import Run


def curve_caps(run: Run) -> range:
    """The k of a run's "pass rate after k more candidates" (answer_at_cap): 0, the first answer, up to as many as its
    budget allowed after it; only 0 for a sampled run, whose one answer a task is its first sample."""
    return range(1) if run.protocol.sampled else range(run.search.budget)


def final_cap(run: Run) -> int:
    """The k of a run's final answer: the last of curve_caps."""
    return curve_caps(run)[-1]


def answer_at_cap(result: dict, k: int) -> int | None:
    """Index of the answer the loop gives with a budget of k candidates after the first: the chooser's pick among the
    first k + 1 (agent.loop.choice, stored per result). None when the task never had an answer: lost to the
    environment, refused as bad input, or no candidate drawn."""
    by_cap = result.get("answer_by_cap")
    if result.get("final_status") in LOST_STATUSES or not by_cap:
        return None
    return by_cap[min(k, len(by_cap) - 1)]


def hidden_at_cap(result: dict, k: int) -> bool:
    """Hidden verdict of the answer at cap k (see answer_at_cap)."""
    index = answer_at_cap(result, k)
    return bool(result["hidden_by_attempt"][index]) if index is not None else False
