"""Numbers of a run and comparisons of two, computed from stored results only."""

from __future__ import annotations

from bench.protocol import answer_at_cap, hidden_at_cap


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def run_metrics(run: dict, results: list[dict]) -> dict:
    """pass@1 (hidden, final answer), first-attempt pass@1, pass rate after k more candidates, visible pass
    rate, mean attempts, tokens, wall time, model-time share and tasks per minute; and two diagnostics:
    the oracle ceiling (share of tasks where any candidate passes the hidden tests: the headroom, never
    used to choose) and the visible-test precision (share of visible-passing answers that pass the hidden
    tests too)."""
    cap = run["max_retries"]
    after_k = [_mean([hidden_at_cap(r, k) for r in results]) for k in range(cap + 1)]
    final = [answer_at_cap(r, cap) for r in results]
    visible_final = [r for r, i in zip(results, final) if i is not None and r["visible_by_attempt"][i]]
    seconds = sum(r["seconds"] for r in results)
    elapsed = run.get("elapsed") or 0.0
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
        "oracle_after_k": [_mean([any(r["hidden_by_attempt"][:k + 1]) for r in results]) for k in range(cap + 1)],
        "visible_precision": _mean([r["hidden_by_attempt"][answer_at_cap(r, cap)] for r in visible_final]),
        "candidates_per_task": _mean([len(r["hidden_by_attempt"]) for r in results]),
        "mean_attempts": _mean([r["iterations"] for r in results]),
        "tokens_in": sum(r["tokens_in"] for r in results),
        "tokens_out": sum(r["tokens_out"] for r in results),
        "wall_seconds": elapsed,
        "model_time_share": (sum(r["model_seconds"] for r in results) / seconds) if seconds else 0.0,
        "tasks_per_minute": len(results) / (elapsed / 60) if elapsed else 0.0,
    }


def compare_runs(a: list[dict], b: list[dict]) -> dict:
    """On the tasks both runs finished: fixed (fails in A, passes in B), regressed, passing in both, neither."""
    a_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in a}
    b_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in b}
    common = sorted(a_pass.keys() & b_pass.keys(), key=lambda t: int(t.split("/")[1]))
    return {
        "common": len(common),
        "fixed": [t for t in common if not a_pass[t] and b_pass[t]],
        "regressed": [t for t in common if a_pass[t] and not b_pass[t]],
        "both": [t for t in common if a_pass[t] and b_pass[t]],
        "neither": [t for t in common if not a_pass[t] and not b_pass[t]],
    }
