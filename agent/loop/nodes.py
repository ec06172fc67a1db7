"""The loop's nodes. Each is a plain function of the state returning a partial update.

coder     asks the model for the next candidates: the first answer, a repair of the last one, or fresh
          samples of the first prompt (warmer, each with its own seed), as the strategy says.
executor  runs every new candidate against the visible tests and records how it behaves on probe inputs.
chooser   when the solve ends with more than one candidate, picks the answer (agent.loop.choice) and says why.

draw_samples, outside the loop, draws independent samples of the first prompt the same way (the bench's pass@k).
"""

from __future__ import annotations

import time
from collections import Counter

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from agent.config import Search, stored_search
from agent.inputs import offered_words, tests_lack
from agent.loop import prompts
from agent.loop.answer_cleaning import names_tests_use
from agent.loop.candidates import candidates
from agent.loop.choice import choose
from agent.loop.extract import extract_answer
from agent.loop.probes import Probe, behaviour, probe_calls, signature
from agent.loop.state import Attempt, SolveState, attempt_number, merge_attempts, read_state
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


def answer_token_cap(task: str) -> int:
    """A cap on one answer's length that fits the task: room to restate it (a HumanEval prompt is often
    re-written whole) plus a body; the configured maximum still applies. About 3 characters a token."""
    return 320 + len(task) // 3


def _fields(model: BaseChatModel) -> set[str]:
    return set(type(model).model_fields)


def _configured(model: BaseChatModel, *, temperature: float | None = None, seed: int | None = None,
                cap: int | None = None) -> BaseChatModel:
    """A copy of the model with these sampling settings, for the fields this provider has."""
    known, update = _fields(model), {}
    if temperature is not None and "temperature" in known:
        update["temperature"] = temperature
    if seed is not None and "seed" in known:
        update["seed"] = seed
    for name in ("max_tokens", "num_predict"):
        if cap is not None and name in known:
            update[name] = min(cap, getattr(model, name) or cap)
    return model.model_copy(update=update) if update else model


def _prefill(model: BaseChatModel, version: prompts.PromptVersion, task: str) -> str:
    return version.prefill(task) if getattr(model, "supports_prefill", False) else ""


def _ask(model: BaseChatModel, messages: list[dict], version: prompts.PromptVersion,
         task: str) -> tuple[str, dict, dict]:
    """One model call: (the whole answer, the pre-fill included; usage; response metadata)."""
    prefill = _prefill(model, version, task)
    sent = _to_langchain(messages) + ([AIMessage(content=prefill)] if prefill else [])
    # Stops that end at a closing fence only make sense when the fence was opened for the model.
    response = model.invoke(sent, stop=list(version.stops) if prefill else None)
    text = response.content if isinstance(response.content, str) else str(response.content)
    return prefill + text, dict(getattr(response, "usage_metadata", None) or {}), dict(response.response_metadata or {})


def _samples(model: BaseChatModel, messages: list[dict], version: prompts.PromptVersion, task: str, n: int,
             temperature: float, seed: int) -> list[tuple[str, dict, dict]]:
    """n fresh answers to the same messages: decoded together where the provider can, else one by one."""
    prefill = _prefill(model, version, task)
    if hasattr(model, "sample_many"):
        sent = _to_langchain(messages) + ([AIMessage(content=prefill)] if prefill else [])
        return [(prefill + text, usage, meta) for text, usage, meta in
                model.sample_many(sent, n, temperature=temperature, seed=seed,
                                  stop=list(version.stops) if prefill else None)]
    return [_ask(_configured(model, temperature=temperature, seed=seed + i), messages, version, task)
            for i in range(n)]


def _seed_note(model: BaseChatModel) -> str | None:
    return None if "seed" in _fields(model) or hasattr(model, "sample_many") else \
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
    capped = _configured(model, cap=answer_token_cap(task))
    state: SolveState = {"task": task, "tests": tests, "entry_point": entry_point}
    drawn: list[Attempt] = []
    for size in round_sizes(n, per_round):
        offset = len(drawn)
        started = time.perf_counter()
        answers = _samples(capped, messages, version, task, size, temperature, seed + offset)
        each = (time.perf_counter() - started) / len(answers)
        drawn += [_attempt(offset + i + 1, "sample", messages, answer, usage, meta, each, state,
                           temperature=temperature, seed=seed + offset + i, note=_seed_note(model))
                  for i, (answer, usage, meta) in enumerate(answers)]
    return drawn


def _attempt(iteration: int, kind: str, sent: list[dict], answer: str, usage: dict, meta: dict, seconds: float,
             state: SolveState, **extra: object) -> Attempt:
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


def kind_after(kinds: list[str | None], strategy: str) -> str:
    """What the coder draws after candidates of these kinds under a strategy (the solve's Search.strategy): the first
    answer, a repair of the last candidate, or fresh samples. hybrid repairs once (the report names the bug when the
    model can read it), then samples. Readers ask it through agent.solves.history.next_draw."""
    if not kinds:
        return "first"
    if strategy == "repair" or (strategy == "hybrid" and "repair" not in kinds):
        return "repair"
    return "sample"


def next_kind(state: SolveState, search: Search) -> str:
    """What the coder draws next in this state, under the solve's search (kind_after)."""
    return kind_after([a.get("kind") for a in read_state(state)["attempts"]], search.strategy)


def _repair(model: BaseChatModel, state: SolveState, version: prompts.PromptVersion, iteration: int,
            cap: int) -> tuple[list[Attempt], list[dict]]:
    history = state["messages"] + [{"role": "user", "content": prompts.repair_message(state["feedback"])}]
    earlier = {a.get("code") for a in state["attempts"]}
    started = time.perf_counter()
    capped = _configured(model, cap=cap)
    answer, usage, meta = _ask(capped, history, version, state["task"])
    attempt = _attempt(iteration, "repair", history, answer, usage, meta, time.perf_counter() - started, state)
    if attempt["code"] and attempt["code"] in earlier and "temperature" in _fields(model):
        # At temperature 0 small models hand back their previous code verbatim (20 of 21 repairs of the
        # 0.5B on HumanEval sample:41), even when sampled warmer with that code in context: a repair
        # certain to fail the same way. Ask again in a fresh conversation that keeps the task, the
        # tests and the failure report but not the code to copy, warmer, with a seed of its own.
        warmer = _configured(capped, temperature=REPEAT_TEMPERATURE, seed=(getattr(model, "seed", 0) or 0) + iteration)
        fresh = history[:1] + [{"role": "user", "content": prompts.fresh_repair_message(
            history[1]["content"], state["feedback"])}]
        answer, usage, meta = _ask(warmer, fresh, version, state["task"])
        attempt = _attempt(iteration, "repair", fresh, answer, usage, meta, time.perf_counter() - started, state,
                           resampled=True, temperature=REPEAT_TEMPERATURE)
    return [attempt], history[len(state["messages"]):] + [{"role": "assistant", "content": attempt["answer"]}]


def coder(state: SolveState, model: BaseChatModel, base: Search = Search()) -> dict:
    """Ask the model for the next candidate(s), as next_kind says; returns them and the messages they add. The
    search is the state's (agent.config.stored_search; base for what the state does not hold)."""
    state = read_state(state)
    search = stored_search(state, base)
    version = prompts.prompt_version(search.prompt_version)
    attempts = state["attempts"]
    iteration = len(attempts) + 1
    kind = next_kind(state, search)
    cap = answer_token_cap(state["task"])
    added: list[dict] = []  # samples are asked the first prompt again: the conversation stays as it is
    try:
        if kind == "first":
            sent = first_messages(version, state["task"], state["shown_tests"] or state["tests"],
                                  state["entry_point"])
            started = time.perf_counter()
            answer, usage, meta = _ask(_configured(model, cap=cap), sent, version, state["task"])
            new = [_attempt(iteration, "first", sent, answer, usage, meta, time.perf_counter() - started, state)]
            added = sent + [{"role": "assistant", "content": answer}]
        elif kind == "repair":
            new, added = _repair(model, state, version, iteration, cap)
        else:
            left = search.budget - len(attempts)
            n = max(1, min(search.samples_per_round, left))
            temperature = search.round_temperature(sum(a.get("kind") == "sample" for a in attempts))
            seed = (getattr(model, "seed", 0) or 0) + 1000 * iteration
            first = state["messages"][:2]
            started = time.perf_counter()
            drawn = _samples(_configured(model, cap=cap), first, version, state["task"], n, temperature, seed)
            each = (time.perf_counter() - started) / len(drawn)
            new = [_attempt(iteration + i, "sample", first, answer, usage, meta, each, state, temperature=temperature,
                            seed=seed + i, note=_seed_note(model)) for i, (answer, usage, meta) in enumerate(drawn)]
    except Exception as exc:  # the provider's own errors vary; all end the solve with a clear message
        return {"status": "error", "error": describe_model_error(exc), "iteration": iteration}
    last = new[-1]
    return {
        "iteration": len(attempts) + len(new),
        "messages": added,
        "code": last["code"],
        "extract_error": last["extract_error"],
        "attempts": new,
        "status": "running",
    }


def _judge(attempt: Attempt, state: SolveState, calls: list[Probe]) -> Attempt:
    """Run one candidate against the visible tests, and on the probe inputs."""
    started = time.perf_counter()
    if attempt.get("extract_error"):
        report = TestReport(status="error", error=f"no code to run: {attempt['extract_error']}")
        feedback, outcomes = prompts.no_code_feedback(attempt["extract_error"]), []
    else:
        report = run_tests(attempt["code"], state["tests"], entry_point=state["entry_point"])
        feedback = prompts.failure_report(report)
        outcomes = behaviour(attempt["code"], calls, state["entry_point"]) if calls else []
    return {**attempt, "report": report.to_dict(), "feedback": feedback, "signature": signature(outcomes),
            "behaviour": outcomes,
            "seconds_tests": round(time.perf_counter() - started, 3)}


def environment_problem(judged: list[Attempt]) -> str | None:
    """Why no model can pass these tests here, from the candidates just run, or None.

    The tests failing to import a module the sandbox lacks ends the solve at once. So does candidates' code
    importing one: at the first answer, or in at least half of a round of samples (one sample reaching for an
    odd package says little about the others, but a round that keeps doing it will not stop)."""
    reports = [a.get("report") or {} for a in judged]
    in_tests = next((r["missing_module"] for r in reports
                     if r.get("missing_module") and r.get("missing_module_in") == "tests"), None)
    if in_tests:
        return tests_lack([in_tests])
    in_code = [r["missing_module"] for r in reports if r.get("missing_module") and r.get("missing_module_in") == "code"]
    if in_code and 2 * len(in_code) >= len(reports):
        name = Counter(in_code).most_common(1)[0][0]
        return (f"the code imports {name}, which the sandbox does not offer (it offers {offered_words()}), in "
                f"{len(in_code)} of the {len(reports)} candidates just run; the model keeps reaching for it. Add "
                "the package to SANDBOX_PACKAGES (and install it), or say in the task which modules to use.")
    return None


def executor(state: SolveState, base: Search = Search()) -> dict:
    """Run the candidates not yet run (new ones, or one whose code a fork edited) against the visible tests and
    decide whether to draw more within the state's search (agent.config.stored_search; base for what the state does
    not hold); returns those candidates with their verdicts."""
    state = read_state(state)
    search = stored_search(state, base)
    calls = probe_calls(state["tests"], state["entry_point"])
    ran = [_judge({**a, "iteration": attempt_number(a, i)}, state, calls)
           for i, a in enumerate(state["attempts"]) if a.get("report") is None]
    attempts = merge_attempts(state["attempts"], ran)
    last = attempts[-1]
    spent = sum(a.get("tokens_out", 0) for a in attempts)
    tokens = search.token_budget
    lacking = environment_problem(ran)
    error = None
    if any((a.get("report") or {}).get("status") == "passed" for a in attempts):
        status = "passed"
    elif lacking:
        status, error = "env_error", lacking
    elif len(attempts) >= search.budget or (tokens and spent >= tokens):
        status = "gave_up"
    else:
        status = "running"
    return {"attempts": ran, "report": last["report"], "feedback": last["feedback"], "status": status,
            "code": last["code"], "judged": [a["iteration"] for a in ran], "error": error}


def chooser(state: SolveState) -> dict:
    """Pick the answer among the candidates by the visible tests and behaviour agreement (agent.loop.choice)."""
    attempts = read_state(state)["attempts"]
    picked = choose(candidates(state))
    chosen = attempts[picked.index]
    return {"choice": {"index": picked.index, "iteration": chosen.get("iteration", picked.index + 1),
                       "reason": picked.reason, "agreeing": picked.agreeing, "eligible": picked.eligible},
            "code": chosen["code"], "report": chosen["report"], "feedback": chosen.get("feedback", "")}


def after_coder(state: SolveState) -> str:
    """A model failure ends the solve; otherwise the code is run."""
    return "end" if read_state(state)["status"] == "error" else "executor"


def after_executor(state: SolveState) -> str:
    """Draw more while no candidate passes and budget remains; choose when several were drawn."""
    state = read_state(state)
    if state["status"] == "running":
        return "coder"
    return "chooser" if len(state["attempts"]) > 1 else "end"
