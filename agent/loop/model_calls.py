"""Asking the model: one answer, a round of samples decoded together, and the candidate each answer makes.

The loop's coder (agent.loop.nodes) asks through these for the first answer, repairs and rounds of samples;
draw_samples draws independent samples of the first prompt the same way, outside the loop (the bench's pass@k).
"""

from __future__ import annotations

import time

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from agent.config import Search
from agent.loop import prompts
from agent.loop.answer_cleaning import names_tests_use
from agent.loop.extract import extract_answer
from agent.loop.state import Attempt, SolveState, read_state

_LC = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}


def to_langchain(messages: list[dict]) -> list[BaseMessage]:
    """Messages as {"role", "content"} dicts (as stored) in LangChain's classes (as sent)."""
    return [_LC[m["role"]](content=m["content"]) for m in messages]


def describe_model_error(exc: Exception) -> str:
    """A model failure in words a user can act on (connection refused, model missing, ...)."""
    text = str(exc) or type(exc).__name__
    if "not found" in text.lower() and "model" in text.lower():
        return f"the model is not available: {text}. Pull it first (for Ollama: `ollama pull MODEL`)."
    if any(word in text.lower() for word in ("connect", "refused", "unreachable", "timed out")):
        return f"the model server stopped answering: {text}"
    return f"the model call failed: {type(exc).__name__}: {text}"


def answer_token_cap(task: str) -> int:
    """A cap on one answer's length that fits the task: room to restate it (a HumanEval prompt is often
    re-written whole) plus a body; the configured maximum still applies. About 3 characters a token."""
    return 320 + len(task) // 3


def fields_of(model: BaseChatModel) -> set[str]:
    """The settings this provider's chat model has (temperature, seed, max_tokens ...)."""
    return set(type(model).model_fields)


def configured(model: BaseChatModel, *, temperature: float | None = None, seed: int | None = None,
                cap: int | None = None) -> BaseChatModel:
    """A copy of the model with these sampling settings, for the fields this provider has."""
    known, update = fields_of(model), {}
    if temperature is not None and "temperature" in known:
        update["temperature"] = temperature
    if seed is not None and "seed" in known:
        update["seed"] = seed
    for name in ("max_tokens", "num_predict"):
        if cap is not None and name in known:
            update[name] = min(cap, getattr(model, name) or cap)
    return model.model_copy(update=update) if update else model


def prefill_of(model: BaseChatModel, version: prompts.PromptVersion, task: str) -> str:
    """The start of the answer written for the model (the prompt version's pre-fill), where the provider takes one."""
    return version.prefill(task) if getattr(model, "supports_prefill", False) else ""


def ask(model: BaseChatModel, messages: list[dict], version: prompts.PromptVersion,
         task: str) -> tuple[str, dict, dict]:
    """One model call: (the whole answer, the pre-fill included; usage; response metadata)."""
    prefill = prefill_of(model, version, task)
    sent = to_langchain(messages) + ([AIMessage(content=prefill)] if prefill else [])
    # Stops that end at a closing fence only make sense when the fence was opened for the model.
    response = model.invoke(sent, stop=list(version.stops) if prefill else None)
    text = response.content if isinstance(response.content, str) else str(response.content)
    return prefill + text, dict(getattr(response, "usage_metadata", None) or {}), dict(response.response_metadata or {})


def ask_many(model: BaseChatModel, messages: list[dict], version: prompts.PromptVersion, task: str, n: int,
             temperature: float, seed: int) -> list[tuple[str, dict, dict]]:
    """n fresh answers to the same messages: decoded together where the provider can, else one by one."""
    prefill = prefill_of(model, version, task)
    if hasattr(model, "sample_many"):
        sent = to_langchain(messages) + ([AIMessage(content=prefill)] if prefill else [])
        return [(prefill + text, usage, meta) for text, usage, meta in
                model.sample_many(sent, n, temperature=temperature, seed=seed,
                                  stop=list(version.stops) if prefill else None)]
    return [ask(configured(model, temperature=temperature, seed=seed + i), messages, version, task)
            for i in range(n)]


def seed_note(model: BaseChatModel) -> str | None:
    """What to note on samples of a provider that takes no seed (they may repeat), else None."""
    return None if "seed" in fields_of(model) or hasattr(model, "sample_many") else \
        "this provider takes no seed, so samples may repeat"


def first_messages(version: prompts.PromptVersion, task: str, shown_tests: str,
                   entry_point: str | None) -> list[dict]:
    """The first prompt of a solve: the version's system text, then the task with the tests it shows."""
    return [{"role": "system", "content": version.system},
            {"role": "user", "content": version.first_message(task, shown_tests, entry_point)}]


def round_sizes(n: int, per_round: int) -> list[int]:
    """n samples in as few rounds of at most per_round as can hold them, as even as possible (10 by 4: 4, 3, 3):
    a round is one batch, and a round of one or two gains little from batching."""
    rounds = -(-n // max(1, per_round))
    return [n // rounds + (1 if i < n % rounds else 0) for i in range(rounds)] if n > 0 else []


def draw_samples(model: BaseChatModel, task: str, tests: str, entry_point: str | None, *, n: int,
                 temperature: float, seed: int, prompt_version: str | None = None,
                 per_round: int = Search.samples_per_round) -> list[Attempt]:
    """n independent answers to the first prompt (the task and its visible tests) at temperature, sample i with
    seed + i, drawn as a sample round of the loop draws them (decoded per_round together where the provider can).
    No loop and no choice: the candidates of a pass@k measurement, not yet run. Raises what the provider raises."""
    version = prompts.prompt_version(prompt_version)
    messages = first_messages(version, task, tests, entry_point)
    capped = configured(model, cap=answer_token_cap(task))
    state: SolveState = {"task": task, "tests": tests, "entry_point": entry_point}
    drawn: list[Attempt] = []
    for size in round_sizes(n, per_round):
        offset = len(drawn)
        started = time.perf_counter()
        answers = ask_many(capped, messages, version, task, size, temperature, seed + offset)
        each = (time.perf_counter() - started) / len(answers)
        drawn += [attempt_of(offset + i + 1, "sample", messages, answer, usage, meta, each, state,
                           temperature=temperature, seed=seed + offset + i, note=seed_note(model))
                  for i, (answer, usage, meta) in enumerate(answers)]
    return drawn


def attempt_of(iteration: int, kind: str, sent: list[dict], answer: str, usage: dict, meta: dict, seconds: float,
               state: SolveState, **extra: object) -> Attempt:
    """One answer as a candidate, not yet run: its code extracted for the state's task and entry point, with what the
    model was sent, its usage and the seconds it took."""
    state = read_state(state)
    # The cleaner reads the names of the tests the prompt shows: in the bench's oracle mode the executed tests are
    # the hidden ones, and they reach nothing the model's code is made of.
    extracted = extract_answer(answer, entry_point=state["entry_point"], task=state["task"],
                               test_names=names_tests_use(state["shown_tests"] or state["tests"]))
    return {
        "iteration": iteration, "kind": kind, "messages": sent, "answer": answer, "code": extracted.code or "",
        "extract_error": extracted.error, "removed": extracted.removed, "report": None,
        "tokens_in": usage.get("input_tokens", 0), "tokens_out": usage.get("output_tokens", 0),
        "prompt_tokens_reused": meta.get("prompt_tokens_reused"),
        "seconds_model": round(seconds, 3), "forked": False, "resampled": False, **extra,
    }
