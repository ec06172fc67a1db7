"""The numbers of a run, computed from its stored results only: pass@1 and the pass rate at every budget, the
diagnostics the hidden tests give after the run, tokens and time, tasks lost apart, and a sampled run's pass@k."""

from __future__ import annotations

from bench.protocol.labels import BAD_INPUT, ENV_ERROR, LOST_STATUSES, UNSUPPORTED_TESTS, Protocol
from bench.runs.record import Run
from bench.scoring.caps import answer_at_cap, curve_caps, final_cap, hidden_at_cap
from bench.scoring.interactive import interactive_metrics
from bench.scoring.passk import mean_pass_at_k, reported_ks


def mean(values: list[float]) -> float:
    """The mean, 0 for no values (a run with no task done yet)."""
    return sum(values) / len(values) if values else 0.0


def lost_counts(results: list[dict]) -> dict[str, int]:
    """Tasks that never had a fair chance, counted apart (each still counts as not passed in pass@1): lost to the
    environment (the sandbox lacks a module the tests or the code import), refused as bad input, refused because the
    tests do what the sandbox cannot run as one process would, and lost to extraction (no candidate's answer held
    code to run)."""
    status = [r.get("final_status") for r in results]
    extraction = [r for r, s in zip(results, status) if s not in LOST_STATUSES and r.get("iterations")
                  and (r.get("extract_errors") or 0) >= r["iterations"]]
    return {"lost_to_environment": status.count(ENV_ERROR), "lost_to_bad_input": status.count(BAD_INPUT),
            "lost_to_unsupported": status.count(UNSUPPORTED_TESTS), "lost_to_extraction": len(extraction)}


def sample_counts(results: list[dict]) -> list[tuple[int, int]]:
    """(samples, passing the hidden tests) of each task of a sampled run; (0, 0) for a task lost before any."""
    return [(len(r["hidden_by_attempt"]), sum(bool(v) for v in r["hidden_by_attempt"])) for r in results]


def samples_per_task(results: list[dict]) -> int:
    """The fewest samples a task has (tasks lost before any sample aside): the largest k pass@k can be read at."""
    return min((n for n, _ in sample_counts(results) if n), default=0)


def pass_at_k_metrics(results: list[dict]) -> dict:
    """A sampled run's pass@k: the unbiased estimate (bench.scoring.passk) at the reported k (1, 5, 10 where every
    task has that many samples) and at every k up to there (the curve), averaged over the tasks; a task lost before any
    sample counts as 0. samples_per_task is the fewest a task has (the largest k), max_samples_per_task the most."""
    counts, most = sample_counts(results), samples_per_task(results)
    return {"samples_per_task": most, "max_samples_per_task": max((n for n, _ in counts), default=0),
            "samples": sum(n for n, _ in counts),
            "pass_at_k": {str(k): mean_pass_at_k(counts, k) for k in reported_ks(most)},
            "pass_at_k_curve": [mean_pass_at_k(counts, k) for k in range(1, most + 1)]}


def run_metrics(run: Run, results: list[dict]) -> dict:
    """pass@1 (hidden, final answer), first-attempt pass@1, pass rate after k more candidates, visible pass
    rate, mean attempts, tokens, wall time, model-time share and tasks per minute; and two diagnostics:
    the oracle ceiling (share of tasks where any candidate passes the hidden tests: the headroom, never
    used to choose) and the visible-test precision (share of visible-passing answers that pass the hidden
    tests too). Tasks lost to the environment, to bad input or to extraction are counted apart (lost_counts).

    A sampled run (Protocol.sampled) adds pass_at_k_metrics, and its pass@1 is the unbiased estimate over all
    its samples; nothing was chosen, so its one answer a task is its first sample (cap 0: 'first attempt'), and its
    visible precision is over every sample that passes the visible tests. An interactive run (Protocol.INTERACTIVE)
    adds bench.scoring.interactive's figures; its pass@1 is the answer's after its last question, and its visible
    precision that answer's precision of "passed" (on the visible tests and those the answers added)."""
    sampled = run.sampled
    caps = curve_caps(run)
    cap = caps[-1]
    after_k = [mean([hidden_at_cap(r, k) for r in results]) for k in caps]
    final = [answer_at_cap(r, cap) for r in results]
    visible_final = [r for r, i in zip(results, final) if i is not None and r["visible_by_attempt"][i]]
    seconds = sum(r["seconds"] for r in results)
    elapsed = run.elapsed or 0.0
    extra: dict = {}
    if run.protocol == Protocol.INTERACTIVE:
        # The answer after the run's last question (or correction) stands as its pass@1, and the precision is that
        # answer's, on the visible tests and those the answers added (interactive_metrics); read apart from the
        # honest figures.
        extra = interactive_metrics(results, run.ask or 0, run.corrections)
        corrected = "pass_after_corrections" in extra
        extra["pass_at_1"] = extra["pass_after_corrections" if corrected else "pass_after_questions"][-1]
        extra["visible_precision"] = extra["passed_precision_corrected" if corrected else "passed_precision"]
    if sampled:
        extra = pass_at_k_metrics(results)
        passes = [(v, h) for r in results for v, h in zip(r["visible_by_attempt"], r["hidden_by_attempt"])]
        extra["visible_precision"] = mean([bool(h) for v, h in passes if v])
        extra["pass_at_1"] = extra["pass_at_k"].get("1", 0.0)
    return {
        "tasks": len(results),
        "total_tasks": len(run.task_ids),
        "protocol": run.protocol.value,
        "pass_at_1": after_k[-1] if results else 0.0,
        "first_attempt_pass_at_1": after_k[0] if results else 0.0,
        "pass_after_k_repairs": after_k,
        "visible_pass_rate": mean([r["visible_passed"] for r in results]),
        # Diagnostics, measured with the hidden tests after the run; nothing in the loop reads them.
        "oracle_ceiling": mean([any(r["hidden_by_attempt"]) for r in results]),
        "oracle_after_k": [mean([any(r["hidden_by_attempt"][:k + 1]) for r in results]) for k in caps],
        "visible_precision": mean([r["hidden_by_attempt"][answer_at_cap(r, cap)] for r in visible_final]),
        "candidates_per_task": mean([len(r["hidden_by_attempt"]) for r in results]),
        "mean_attempts": mean([r["iterations"] for r in results]),
        "tokens_in": sum(r["tokens_in"] for r in results),
        "tokens_out": sum(r["tokens_out"] for r in results),
        "wall_seconds": elapsed,
        "model_time_share": (sum(r["model_seconds"] for r in results) / seconds) if seconds else 0.0,
        "tasks_per_minute": len(results) / (elapsed / 60) if elapsed else 0.0,
        **lost_counts(results),
        **extra,
    }


def answers_with_hidden_status(run: Run, results: list[dict], statuses: dict[str, list[str]], status: str) -> int:
    """Tasks whose final answer got this status on the hidden tests, counted apart from wrong answers: "timeout" (it
    ran out of time, as EvalPlus counts them) or "unsupported" (the hidden tests did what the sandbox cannot run as
    one process would); each still counts as not passed. statuses: each task's hidden statuses by attempt
    (bench.runs.store.hidden_statuses)."""
    count = 0
    for result in results:
        index = answer_at_cap(result, final_cap(run))
        found = statuses.get(result["task_id"], [])
        count += index is not None and index < len(found) and found[index] == status
    return count


def metrics_by_part(run: Run, results: list[dict], parts: dict[str, str]) -> dict[str, dict]:
    """A run's figures for each part of its dataset (bench.datasets.task.Offered.parts: MBPP+'s held-out and tuned-on
    tasks), part by part in the order parts names them: tasks finished and selected, pass@1, first attempt, oracle
    ceiling and visible precision, each over that part's finished tasks only."""
    by_part: dict[str, dict] = {}
    for part in dict.fromkeys(parts.values()):
        chosen = [r for r in results if parts.get(r["task_id"]) == part]
        selected = sum(parts.get(task_id) == part for task_id in run.task_ids)
        if not selected:
            continue
        figures = run_metrics(run, chosen)
        by_part[part] = {"tasks": len(chosen), "total_tasks": selected,
                         **{key: figures[key] for key in ("pass_at_1", "first_attempt_pass_at_1", "oracle_ceiling",
                                                          "visible_precision")}}
    return by_part

