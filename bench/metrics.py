"""Numbers of a run and comparisons of two, computed from stored results only."""

from __future__ import annotations

from dataclasses import dataclass

from bench.passk import mean_pass_at_k, reported_ks
from bench.task_protocol import BAD_INPUT, ENV_ERROR, answer_at_cap, curve_caps, final_cap, hidden_at_cap, is_sampled


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def lost_counts(results: list[dict]) -> dict[str, int]:
    """Tasks that never had a fair chance, counted apart (each still counts as not passed in pass@1): lost to the
    environment (the sandbox lacks a module the tests or the code import), refused as bad input, and lost to
    extraction (no candidate's answer held code to run)."""
    status = [r.get("final_status") for r in results]
    extraction = [r for r, s in zip(results, status) if s not in (ENV_ERROR, BAD_INPUT) and r.get("iterations")
                  and (r.get("extract_errors") or 0) >= r["iterations"]]
    return {"lost_to_environment": status.count(ENV_ERROR), "lost_to_bad_input": status.count(BAD_INPUT),
            "lost_to_extraction": len(extraction)}


def lost_words(metrics: dict) -> str:
    """'lost to environment errors: 2 · lost to extraction errors: 1', or '' when no task was lost."""
    parts = [(metrics.get("lost_to_environment", 0), "environment errors"),
             (metrics.get("lost_to_bad_input", 0), "bad input"),
             (metrics.get("lost_to_extraction", 0), "extraction errors")]
    return " · ".join(f"lost to {what}: {count}" for count, what in parts if count)


def sample_counts(results: list[dict]) -> list[tuple[int, int]]:
    """(samples, passing the hidden tests) of each task of a sampled run; (0, 0) for a task lost before any."""
    return [(len(r["hidden_by_attempt"]), sum(bool(v) for v in r["hidden_by_attempt"])) for r in results]


def samples_per_task(results: list[dict]) -> int:
    """The fewest samples a task has (tasks lost before any sample aside): the largest k pass@k can be read at."""
    return min((n for n, _ in sample_counts(results) if n), default=0)


def pass_at_k_metrics(results: list[dict]) -> dict:
    """A sampled run's pass@k: the unbiased estimate (bench.passk) at the reported k (1, 5, 10 where every task has
    that many samples) and at every k up to there (the curve), averaged over the tasks; a task lost before any
    sample counts as 0. samples_per_task is the fewest a task has (the largest k), max_samples_per_task the most."""
    counts, most = sample_counts(results), samples_per_task(results)
    return {"samples_per_task": most, "max_samples_per_task": max((n for n, _ in counts), default=0),
            "samples": sum(n for n, _ in counts),
            "pass_at_k": {str(k): mean_pass_at_k(counts, k) for k in reported_ks(most)},
            "pass_at_k_curve": [mean_pass_at_k(counts, k) for k in range(1, most + 1)]}


def run_metrics(run: dict, results: list[dict]) -> dict:
    """pass@1 (hidden, final answer), first-attempt pass@1, pass rate after k more candidates, visible pass
    rate, mean attempts, tokens, wall time, model-time share and tasks per minute; and two diagnostics:
    the oracle ceiling (share of tasks where any candidate passes the hidden tests: the headroom, never
    used to choose) and the visible-test precision (share of visible-passing answers that pass the hidden
    tests too). Tasks lost to the environment, to bad input or to extraction are counted apart (lost_counts).

    A sampled run (bench.task_protocol.SAMPLED) adds pass_at_k_metrics, and its pass@1 is the unbiased estimate over all
    its samples; nothing was chosen, so its one answer a task is its first sample (cap 0: 'first attempt'), and its
    visible precision is over every sample that passes the visible tests."""
    sampled = is_sampled(run)
    caps = curve_caps(run)
    cap = caps[-1]
    after_k = [_mean([hidden_at_cap(r, k) for r in results]) for k in caps]
    final = [answer_at_cap(r, cap) for r in results]
    visible_final = [r for r, i in zip(results, final) if i is not None and r["visible_by_attempt"][i]]
    seconds = sum(r["seconds"] for r in results)
    elapsed = run.get("elapsed") or 0.0
    extra: dict = {}
    if sampled:
        extra = pass_at_k_metrics(results)
        passes = [(v, h) for r in results for v, h in zip(r["visible_by_attempt"], r["hidden_by_attempt"])]
        extra["visible_precision"] = _mean([bool(h) for v, h in passes if v])
        extra["pass_at_1"] = extra["pass_at_k"].get("1", 0.0)
    return {
        "tasks": len(results),
        "total_tasks": len(run["task_ids"]),
        "protocol": run["protocol"],
        "pass_at_1": after_k[-1] if results else 0.0,
        "first_attempt_pass_at_1": after_k[0] if results else 0.0,
        "pass_after_k_repairs": after_k,
        "visible_pass_rate": _mean([r["visible_passed"] for r in results]),
        # Diagnostics, measured with the hidden tests after the run; nothing in the loop reads them.
        "oracle_ceiling": _mean([any(r["hidden_by_attempt"]) for r in results]),
        "oracle_after_k": [_mean([any(r["hidden_by_attempt"][:k + 1]) for r in results]) for k in caps],
        "visible_precision": _mean([r["hidden_by_attempt"][answer_at_cap(r, cap)] for r in visible_final]),
        "candidates_per_task": _mean([len(r["hidden_by_attempt"]) for r in results]),
        "mean_attempts": _mean([r["iterations"] for r in results]),
        "tokens_in": sum(r["tokens_in"] for r in results),
        "tokens_out": sum(r["tokens_out"] for r in results),
        "wall_seconds": elapsed,
        "model_time_share": (sum(r["model_seconds"] for r in results) / seconds) if seconds else 0.0,
        "tasks_per_minute": len(results) / (elapsed / 60) if elapsed else 0.0,
        **lost_counts(results),
        **extra,
    }


def compare_runs(a: list[dict], b: list[dict]) -> dict:
    """On the tasks both runs finished: fixed (fails in A, passes in B), regressed, passing in both, neither."""
    a_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in a}
    b_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in b}
    common = [t for t in a_pass if t in b_pass]  # in A's order: its results come in dataset order, whatever the ids
    return {
        "common": len(common),
        "fixed": [t for t in common if not a_pass[t] and b_pass[t]],
        "regressed": [t for t in common if a_pass[t] and not b_pass[t]],
        "both": [t for t in common if a_pass[t] and b_pass[t]],
        "neither": [t for t in common if not a_pass[t] and not b_pass[t]],
    }


@dataclass(frozen=True)
class RunProgress:
    """How far a run is: tasks done of its total, how many pass, and an ETA while it runs."""

    done: int
    total: int
    passing: int
    phase: str  # the run's state (bench.runner.run_state): running, finished, stopped, interrupted ...
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


def run_progress(run: dict, results: list[dict], phase: str) -> RunProgress:
    """Progress of a run from its stored results; phase is its state as bench.runner.run_state gives it."""
    total, done = len(run["task_ids"]), len(results)
    spent = sum(r["seconds"] for r in results) / max(1, run.get("parallel") or 1)
    eta = spent / done * (total - done) if phase == "running" and done else None
    return RunProgress(done=done, total=total, passing=sum(bool(r["hidden_passed"]) for r in results), phase=phase,
                       eta_seconds=eta)


@dataclass(frozen=True)
class Comparison:
    """Two runs on the tasks both finished: each one's pass rate after k more candidates, and the tasks that
    changed verdict (fixed: fails in A, passes in B; regressed: the other way)."""

    common: int
    curves: dict[str, list[float]]  # "A" / "B" -> pass rate with k more candidates, on the common tasks
    fixed: list[str]
    regressed: list[str]
    both: list[str]
    neither: list[str]

    def curve_rows(self, labels: dict[str, str]) -> list[dict]:
        """Long-form rows for a chart: run, candidates after the first, pass rate."""
        return [{"run": labels[key], "more candidates": k, "pass rate": value}
                for key, curve in self.curves.items() for k, value in enumerate(curve)]

    def outcome_rows(self) -> list[dict]:
        """Rows for a bar chart of how the common tasks fared: fixed, regressed, passing in both, in neither."""
        return [{"outcome": name, "tasks": len(tasks)} for name, tasks in
                (("fixed in B", self.fixed), ("regressed in B", self.regressed), ("passing in both", self.both),
                 ("failing in both", self.neither))]


def compare_run_curves(run_a: dict, results_a: list[dict], run_b: dict, results_b: list[dict]) -> Comparison:
    """compare_runs plus both pass-rate curves, measured on the same tasks so the lines can be read together."""
    diff = compare_runs(results_a, results_b)
    common = set(diff["both"] + diff["neither"] + diff["fixed"] + diff["regressed"])
    curves = {}
    for key, run, results in (("A", run_a, results_a), ("B", run_b, results_b)):
        shared = [r for r in results if r["task_id"] in common]
        if is_sampled(run):  # no loop, so no answer after k more: one point, its unbiased pass@1 on these tasks
            curves[key] = [mean_pass_at_k(sample_counts(shared), 1)]
        else:
            curves[key] = [_mean([hidden_at_cap(r, k) for r in shared]) for k in curve_caps(run)]
    return Comparison(common=diff["common"], curves=curves, fixed=diff["fixed"], regressed=diff["regressed"],
                      both=diff["both"], neither=diff["neither"])


def timed_out_answers(run: dict, results: list[dict], statuses: dict[str, list[str]]) -> int:
    """Tasks whose final answer ran out of time on the hidden tests (its attempt's hidden_status is 'timeout'),
    counted apart from wrong answers as EvalPlus counts them; each still counts as not passed. statuses: each
    task's hidden statuses by attempt (bench.store.hidden_statuses)."""
    count = 0
    for result in results:
        index = answer_at_cap(result, final_cap(run))
        found = statuses.get(result["task_id"], [])
        count += index is not None and index < len(found) and found[index] == "timeout"
    return count
