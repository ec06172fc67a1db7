"""The two nodes of the loop. Each is a plain function of the state returning a partial update."""

from __future__ import annotations

import time

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from agent import prompts
from agent.extract import extract_code
from agent.state import SolveState
from sandbox import TestReport, run_tests

REPEAT_TEMPERATURE = 0.7
_LC = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}


def _to_langchain(messages: list[dict]) -> list[BaseMessage]:
    return [_LC[m["role"]](content=m["content"]) for m in messages]


def describe_model_error(exc: Exception) -> str:
    """A model failure in words a user can act on (connection refused, model missing, ...)."""
    text = str(exc) or type(exc).__name__
    if "not found" in text.lower() and "model" in text.lower():
        return f"the model is not available: {text}. Pull it first (for Ollama: `ollama pull MODEL`)."
    if any(word in text.lower() for word in ("connect", "refused", "unreachable", "timed out")):
        return f"the model server stopped answering: {text}"
    return f"the model call failed: {type(exc).__name__}: {text}"


def _ask(model: BaseChatModel, messages: list[dict], state: SolveState) -> tuple:
    """One model call: the response, its text, and the code extracted from it (or why there is none)."""
    response = model.invoke(_to_langchain(messages))
    answer = response.content if isinstance(response.content, str) else str(response.content)
    return (response, answer, *extract_code(answer, entry_point=state.get("entry_point"), task=state["task"]))


def coder(state: SolveState, model: BaseChatModel) -> dict:
    """Ask the model for code: the first attempt, or a repair that extends the same conversation."""
    iteration = state.get("iteration", 0) + 1
    history = list(state.get("messages") or [])
    if not history:
        shown = state.get("shown_tests") or state["tests"]
        history = [{"role": "system", "content": prompts.SYSTEM},
                   {"role": "user", "content": prompts.first_message(state["task"], shown, state.get("entry_point"))}]
    else:
        history.append({"role": "user", "content": prompts.repair_message(state.get("feedback", ""))})
    started = time.perf_counter()
    earlier = {a.get("code") for a in state.get("attempts") or []}
    resampled, sent = False, history
    try:
        response, answer, code, extract_error = _ask(model, history, state)
        if code and code in earlier and hasattr(model, "temperature"):
            # At temperature 0 small models hand back their previous code verbatim (20 of 21 repairs of the
            # 0.5B on HumanEval sample:41), even when sampled warmer with that code in context: a repair
            # certain to fail the same way. Ask again in a fresh conversation that keeps the task, the
            # tests and the failure report but not the code to copy, warmer, with a seed of its own.
            warmer = model.model_copy(update={"temperature": REPEAT_TEMPERATURE,
                                              "seed": (getattr(model, "seed", 0) or 0) + iteration})
            fresh = history[:1] + [{"role": "user", "content": prompts.fresh_repair_message(
                history[1]["content"], state.get("feedback", ""))}]
            response, answer, code, extract_error = _ask(warmer, fresh, state)
            sent = fresh
            resampled = True
    except Exception as exc:  # the provider's own errors vary; all end the solve with a clear message
        return {"status": "error", "error": describe_model_error(exc), "iteration": iteration}
    usage = getattr(response, "usage_metadata", None) or {}
    attempt = {
        "iteration": iteration, "messages": sent, "answer": answer, "code": code or "",
        "extract_error": extract_error, "tokens_in": usage.get("input_tokens", 0),
        "tokens_out": usage.get("output_tokens", 0),
        "prompt_tokens_reused": (response.response_metadata or {}).get("prompt_tokens_reused"),
        "seconds_model": round(time.perf_counter() - started, 3), "forked": False, "resampled": resampled,
    }
    return {
        "iteration": iteration,
        "messages": history + [{"role": "assistant", "content": answer}],
        "code": code or "",
        "extract_error": extract_error,
        "attempts": list(state.get("attempts") or []) + [attempt],
        "status": "running",
    }


def executor(state: SolveState) -> dict:
    """Run the current code against the visible tests and decide whether to stop."""
    started = time.perf_counter()
    if state.get("extract_error"):
        report = TestReport(status="error", error=f"no code to run: {state['extract_error']}")
        feedback = prompts.no_code_feedback(state["extract_error"])
    else:
        report = run_tests(state.get("code", ""), state["tests"], entry_point=state.get("entry_point"))
        feedback = report.summary()
    iteration = state.get("iteration", 1)
    if report.passed:
        status = "passed"
    elif iteration > state.get("max_retries", 3):
        status = "gave_up"
    else:
        status = "running"
    attempts = list(state.get("attempts") or [])
    if attempts:
        attempts[-1] = {**attempts[-1], "code": state.get("code", ""), "report": report.to_dict(),
                        "feedback": feedback, "seconds_tests": round(time.perf_counter() - started, 3),
                        "forked": bool(state.get("forked"))}
    return {"report": report.to_dict(), "feedback": feedback, "attempts": attempts, "status": status,
            "forked": False}


def after_coder(state: SolveState) -> str:
    """A model failure ends the solve; otherwise the code is run."""
    return "end" if state.get("status") == "error" else "executor"


def after_executor(state: SolveState) -> str:
    """Repair while the tests fail and retries remain."""
    return "coder" if state.get("status") == "running" else "end"
