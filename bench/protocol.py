"""The honest protocol of one HumanEval task, apart from where it runs (see bench.executors).

The loop repairs against visible tests only (the docstring's examples). The hidden tests run
afterwards, on every attempt's code, in the sandbox: their text and verdicts never reach the model.
One run therefore gives the pass rate the loop would have had after 0, 1, 2 ... more candidates.
Nothing here knows of threads, processes or clusters: an executor calls solve_task where it likes.
"""

from __future__ import annotations

import ast
import json
import time

from agent import RunFinished, Solver
from agent.choice import answers_by_budget
from bench.humaneval import Problem
from bench.visible_tests import visible_test_source
from sandbox import Limits, run_tests
from sandbox.syntax import parse

FEEDBACK_MODES = ("visible", "none", "oracle")
HIDDEN_LIMITS = Limits(timeout_s=10)


def protocol_label(feedback: str) -> str:
    """'leaky' when hidden-test failures reach the model (oracle), else 'honest'."""
    return "leaky" if feedback == "oracle" else "honest"


class ModelOutage(Exception):
    """The model stopped answering: the worker that met it retires, the task goes back to the others; a run
    that has no worker left stops, keeps what it finished, and can be resumed."""


def visible_tests_for(problem: Problem) -> tuple[str, int]:
    """The docstring's examples as asserts; where there are none, only that the function exists."""
    source = visible_test_source(problem)
    count = sum(isinstance(node, ast.Assert) for node in parse(source).body) if source.strip() else 0
    return (source if count else f"assert callable({problem['entry_point']})\n"), count


def answer_at_cap(result: dict, k: int) -> int | None:
    """Index of the answer the loop gives with a budget of k candidates after the first: the chooser's
    pick among the first k + 1 (agent.choice, stored per result); None if no attempt was made.
    Results stored before the chooser existed: the first visible pass within k + 1, else attempt k + 1."""
    by_cap = result.get("answer_by_cap")
    if by_cap:
        return by_cap[min(k, len(by_cap) - 1)]
    visible = result["visible_by_attempt"]
    limit = min(k + 1, len(visible))
    return next((i for i in range(limit) if visible[i]), limit - 1) if limit else None


def hidden_at_cap(result: dict, k: int) -> bool:
    """Hidden verdict of the answer at cap k (see answer_at_cap)."""
    index = answer_at_cap(result, k)
    return bool(result["hidden_by_attempt"][index]) if index is not None else False


def solve_task(solver: Solver, problem: Problem, run: dict) -> tuple[dict, list[dict]]:
    """One agent solve on one problem, then every attempt scored on the hidden tests."""
    visible, count = visible_tests_for(problem)
    feedback, retries = run["feedback"], (0 if run["feedback"] == "none" else run["max_retries"])
    executed, shown = (problem["test"], visible) if feedback == "oracle" else (visible, None)
    started = time.perf_counter()
    events = list(solver.start(problem["prompt"], executed, entry_point=problem["entry_point"],
                               max_retries=retries, strategy=run["strategy"] or None,
                               prompt_version=run["prompt_version"], shown_tests=shown,
                               origin=f"bench run {run['id']}"))
    final = events[-1]
    assert isinstance(final, RunFinished)
    made = [c for c in solver.candidates(final.thread_id) if c.ran]
    if final.status == "error" or not made:
        raise ModelOutage(final.error or "the model gave no answer")
    rows, vis, hid = [], [], []
    for candidate in made:
        hidden = run_tests(candidate.code, problem["test"], entry_point=problem["entry_point"], limits=HIDDEN_LIMITS)
        if feedback == "oracle":
            visible_ok = run_tests(candidate.code, visible, entry_point=problem["entry_point"]).passed
        else:
            visible_ok = candidate.passed
        vis.append(visible_ok)
        hid.append(hidden.passed)
        rows.append({
            "run_id": run["id"], "task_id": problem["task_id"], "iteration": candidate.number,
            "code": candidate.code, "answer": candidate.answer, "visible_status": candidate.report.status,
            "visible_report": json.dumps(candidate.report.to_dict()), "hidden_passed": int(hidden.passed),
            "hidden_status": hidden.status, "hidden_report": json.dumps(hidden.to_dict()),
            "messages": json.dumps(candidate.messages), "tokens_in": candidate.tokens_in,
            "tokens_out": candidate.tokens_out, "prompt_tokens_reused": candidate.prompt_tokens_reused,
            "seconds_model": candidate.seconds_model, "seconds_tests": candidate.seconds_tests,
            "kind": candidate.kind, "signature": candidate.signature, "temperature": candidate.temperature,
            "seed": candidate.seed,
        })
    by_cap = answers_by_budget(made)
    picked = solver.chosen(final.thread_id)
    result = {
        "run_id": run["id"], "task_id": problem["task_id"], "task_index": int(problem["task_id"].split("/")[1]),
        "final_status": final.status, "visible_passed": int(any(vis)),
        "hidden_passed": int(hid[by_cap[-1]]), "answer_by_cap": json.dumps(by_cap),
        "choice": picked.reason if picked else "",
        "iterations": len(made), "tokens_in": sum(r["tokens_in"] for r in rows),
        "tokens_out": sum(r["tokens_out"] for r in rows), "seconds": round(time.perf_counter() - started, 3),
        "model_seconds": round(sum(r["seconds_model"] for r in rows), 3), "hidden_by_attempt": json.dumps(hid),
        "visible_by_attempt": json.dumps(vis), "thread_id": final.thread_id, "error": None, "visible_tests": count,
        "finished": time.time(),
    }
    return result, rows
