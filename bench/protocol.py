"""The honest protocol of one task, apart from where it runs (see bench.executors).

The loop repairs against visible tests only (HumanEval's docstring examples, or a task file's ``tests``). The
hidden tests run afterwards, on every attempt's code, in the sandbox: their text and verdicts never reach the
model. One run therefore gives the pass rate the loop would have had after 0, 1, 2 ... more candidates.
A task the environment cannot run (its tests import a module the sandbox does not offer, or the solve ends on
one) is recorded as lost to the environment, not as a model outage: no model can fix it.
Nothing here knows of threads, processes or clusters: an executor calls solve_task where it likes.
"""

from __future__ import annotations

import json
import time

from agent import BadInput, RunFinished, Solver
from agent.choice import answers_by_budget
from agent.inputs import EnvironmentProblem
from bench.tasks import Task
from bench.visible_tests import visible_tests_for
from sandbox import Limits, run_tests

__all__ = ["ENV_ERROR", "FEEDBACK_MODES", "LOST_STATUSES", "ModelOutage", "answer_at_cap", "hidden_at_cap",
           "protocol_label", "solve_task", "visible_tests_for"]
FEEDBACK_MODES = ("visible", "none", "oracle")
HIDDEN_LIMITS = Limits(timeout_s=10)
ENV_ERROR = "env_error"  # the solve's status when the sandbox lacks what the code or tests import
BAD_INPUT = "bad_input"  # the agent refused the task before any model call
LOST_STATUSES = (ENV_ERROR, BAD_INPUT)  # tasks that never had an answer: counted apart, and as not passed


def protocol_label(feedback: str) -> str:
    """'leaky' when hidden-test failures reach the model (oracle), else 'honest'."""
    return "leaky" if feedback == "oracle" else "honest"


class ModelOutage(Exception):
    """The model stopped answering: the worker that met it retires, the task goes back to the others; a run
    that has no worker left stops, keeps what it finished, and can be resumed."""


def answer_at_cap(result: dict, k: int) -> int | None:
    """Index of the answer the loop gives with a budget of k candidates after the first: the chooser's
    pick among the first k + 1 (agent.choice, stored per result); None if no attempt was made.
    Results stored before the chooser existed: the first visible pass within k + 1, else attempt k + 1.
    A task lost to the environment or refused as bad input has no answer at any budget."""
    if result.get("final_status") in LOST_STATUSES:
        return None
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


def _lost_status(exc: BadInput) -> str:
    return ENV_ERROR if isinstance(exc, EnvironmentProblem) else BAD_INPUT


def solve_task(solver: Solver, task: Task, run: dict) -> tuple[dict, list[dict]]:
    """One agent solve on one task, then every attempt scored on the hidden tests.

    A task without an entry point is solved with None (the agent infers it from the tests); its hidden tests run
    with the entry point the solve used. A task the agent refuses (agent.BadInput, or EnvironmentProblem when the
    tests need what the sandbox lacks) or a solve that ends in env_error is a result with no answer, not an
    outage: the worker goes on. ModelOutage is raised only when the model gave no answer."""
    visible = task["tests"]
    feedback, retries = run["feedback"], (0 if run["feedback"] == "none" else run["max_retries"])
    executed, shown = (task["hidden_tests"], visible) if feedback == "oracle" else (visible, None)
    started = time.perf_counter()
    try:
        events = list(solver.start(task["prompt"], executed, entry_point=task["entry_point"],
                                   max_retries=retries, strategy=run["strategy"] or None,
                                   prompt_version=run["prompt_version"], shown_tests=shown,
                                   origin=f"bench run {run['id']}"))
    except BadInput as exc:  # raised before any model call: nothing was drawn, nothing to score
        return _result(task, run, started, status=_lost_status(exc), error=str(exc), thread_id=None, rows=[],
                       vis=[], hid=[], by_cap=[], choice=""), []
    final = events[-1]
    assert isinstance(final, RunFinished)
    made = [c for c in solver.candidates(final.thread_id) if c.ran]
    lost = final.status == ENV_ERROR
    if not lost and (final.status == "error" or not made):
        raise ModelOutage(final.error or "the model gave no answer")
    # The solve's own entry point (typed, or inferred when the task named none) is the one the hidden tests call.
    entry_point = solver.state_at(final.thread_id).get("entry_point") or task["entry_point"]
    rows, vis, hid = [], [], []
    for candidate in made:
        hidden = run_tests(candidate.code, task["hidden_tests"], entry_point=entry_point, limits=HIDDEN_LIMITS)
        if feedback == "oracle":
            visible_ok = run_tests(candidate.code, visible, entry_point=entry_point).passed
        else:
            visible_ok = candidate.passed
        vis.append(visible_ok)
        hid.append(hidden.passed)
        rows.append({
            "run_id": run["id"], "task_id": task["task_id"], "iteration": candidate.number,
            "code": candidate.code, "answer": candidate.answer, "visible_status": candidate.report.status,
            "visible_report": json.dumps(candidate.report.to_dict()), "hidden_passed": int(hidden.passed),
            "hidden_status": hidden.status, "hidden_report": json.dumps(hidden.to_dict()),
            "messages": json.dumps(candidate.messages), "tokens_in": candidate.tokens_in,
            "tokens_out": candidate.tokens_out, "prompt_tokens_reused": candidate.prompt_tokens_reused,
            "seconds_model": candidate.seconds_model, "seconds_tests": candidate.seconds_tests,
            "kind": candidate.kind, "signature": candidate.signature, "temperature": candidate.temperature,
            "seed": candidate.seed, "extract_error": candidate.extract_error,
            "behaviour": json.dumps(candidate.behaviour),
        })
    picked = None if lost else solver.chosen(final.thread_id)
    return _result(task, run, started, status=final.status, error=final.error if lost else None,
                   thread_id=final.thread_id, rows=rows, vis=vis, hid=hid,
                   by_cap=[] if lost else answers_by_budget(made), choice=picked.reason if picked else ""), rows


def _result(task: Task, run: dict, started: float, *, status: str, error: str | None, thread_id: str | None,
            rows: list[dict], vis: list[bool], hid: list[bool], by_cap: list[int], choice: str) -> dict:
    """The results row of a task; a lost task (no answer: by_cap empty) never counts as a hidden pass."""
    return {
        "run_id": run["id"], "task_id": task["task_id"], "task_index": task["index"],
        "final_status": status, "visible_passed": int(any(vis)),
        "hidden_passed": int(hid[by_cap[-1]]) if by_cap else 0, "answer_by_cap": json.dumps(by_cap),
        "choice": choice, "iterations": len(rows), "tokens_in": sum(r["tokens_in"] for r in rows),
        "tokens_out": sum(r["tokens_out"] for r in rows), "seconds": round(time.perf_counter() - started, 3),
        "model_seconds": round(sum(r["seconds_model"] for r in rows), 3), "hidden_by_attempt": json.dumps(hid),
        "visible_by_attempt": json.dumps(vis), "thread_id": thread_id, "error": error,
        "visible_tests": task["visible_count"], "extract_errors": sum(bool(r["extract_error"]) for r in rows),
        "finished": time.time(),
    }
