"""The loop's nodes. Each is a plain function of the state returning a partial update.

coder     asks the model for the next candidates: the first answer, a repair of the last one, or fresh
          samples of the first prompt (warmer, each with its own seed), as the strategy says.
executor  runs every new candidate against the visible tests and records how it behaves on probe inputs.
doubt     after a pass on thin tests, draws one more batch of samples, so that answers which disagree are seen.
ask       when passing candidates disagree and the solve asks, puts the question (agent.loop.questions) to the person
          and writes the answer as a test; the executor then judges every candidate with it.
chooser   when the solve ends with more than one candidate, picks the answer (agent.loop.choice) and says why.

The model calls themselves (an answer, a round of samples, the candidate each makes) are agent.loop.model_calls.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

from langchain_core.language_models import BaseChatModel
from langgraph.types import interrupt

from agent.config import Search, stored_search
from agent.inputs import BadInput, offered_words, tests_lack
from agent.loop import prompts
from agent.loop.candidates import candidates, passes_what_can_be_judged
from agent.loop.choice import choose
from agent.loop.edge_inputs import doubt_with_tests, edge_calls
from agent.loop.model_calls import (
    answer_token_cap,
    ask,
    ask_many,
    attempt_of,
    configured,
    describe_model_error,
    fields_of,
    first_messages,
    seed_note,
)
from agent.loop.probes import Probe, behaviour, probe_calls, probes_key, signature, solve_probes
from agent.loop.proposed_inputs import proposal_messages, propose_inputs
from agent.loop.questions import Reply, answered, next_question, questions_put, thin
from agent.loop.state import Attempt, SolveState, attempt_number, judged_again, merge_attempts, read_state
from sandbox import TestReport, run_tests

REPEAT_TEMPERATURE = 0.7


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
    capped = configured(model, cap=cap)
    answer, usage, meta = ask(capped, history, version, state["task"])
    attempt = attempt_of(iteration, "repair", history, answer, usage, meta, time.perf_counter() - started, state)
    if attempt["code"] and attempt["code"] in earlier and "temperature" in fields_of(model):
        # At temperature 0 small models hand back their previous code verbatim (20 of 21 repairs of the
        # 0.5B on HumanEval sample:41), even when sampled warmer with that code in context: a repair
        # certain to fail the same way. Ask again in a fresh conversation that keeps the task, the
        # tests and the failure report but not the code to copy, warmer, with a seed of its own.
        warmer = configured(capped, temperature=REPEAT_TEMPERATURE, seed=(getattr(model, "seed", 0) or 0) + iteration)
        fresh = history[:1] + [{"role": "user", "content": prompts.fresh_repair_message(
            history[1]["content"], state["feedback"])}]
        answer, usage, meta = ask(warmer, fresh, version, state["task"])
        attempt = attempt_of(iteration, "repair", fresh, answer, usage, meta, time.perf_counter() - started, state,
                           resampled=True, temperature=REPEAT_TEMPERATURE)
    return [attempt], history[len(state["messages"]):] + [{"role": "assistant", "content": attempt["answer"]}]


def _round(model: BaseChatModel, state: SolveState, version: prompts.PromptVersion, kind: str, n: int,
           temperature: float) -> list[Attempt]:
    """n fresh answers to the first prompt, decoded together (a round of samples, or the doubt batch), each with its
    own seed. Once answers have added tests (agent.loop.questions), the first prompt shows the tests as they are now."""
    iteration = len(state["attempts"]) + 1
    seed = (getattr(model, "seed", 0) or 0) + 1000 * iteration
    first = state["messages"][:2]
    if state["questions"] and state["shown_tests"] is None:
        first = first_messages(version, state["task"], state["tests"], state["entry_point"])
    started = time.perf_counter()
    drawn = ask_many(configured(model, cap=answer_token_cap(state["task"])), first, version, state["task"], n,
                     temperature, seed)
    each = (time.perf_counter() - started) / len(drawn)
    return [attempt_of(iteration + i, kind, first, answer, usage, meta, each, state, temperature=temperature,
                       seed=seed + i, note=seed_note(model)) for i, (answer, usage, meta) in enumerate(drawn)]


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
            answer, usage, meta = ask(configured(model, cap=cap), sent, version, state["task"])
            new = [attempt_of(iteration, "first", sent, answer, usage, meta, time.perf_counter() - started, state)]
            added = sent + [{"role": "assistant", "content": answer}]
        elif kind == "repair":
            new, added = _repair(model, state, version, iteration, cap)
        else:
            left = search.budget - len(attempts)
            n = max(1, min(search.samples_per_round, left))
            temperature = search.round_temperature(sum(a.get("kind") == "sample" for a in attempts))
            new = _round(model, state, version, "sample", n, temperature)
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
            "behaviour": outcomes, "probed": probes_key(calls) if outcomes else "",
            "seconds_tests": round(time.perf_counter() - started, 3)}


def _reprobe(attempt: Attempt, state: SolveState, calls: list[Probe]) -> Attempt:
    """A candidate already judged, its behaviour taken again on these probes; its verdict stands."""
    started = time.perf_counter()
    outcomes = behaviour(attempt["code"], calls, state["entry_point"]) if calls else []
    return {**attempt, "signature": signature(outcomes), "behaviour": outcomes,
            "probed": probes_key(calls) if outcomes else "",
            "seconds_tests": round(attempt.get("seconds_tests", 0.0) + time.perf_counter() - started, 3)}


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


def unsupported_problem(judged: list[Attempt]) -> str | None:
    """Why the loop stops without a pass, from the candidates just run, or None: one of them passes every visible
    test the sandbox can judge, and the others do what the sandbox cannot run as one process would (its report's
    status is unsupported). Repairing it would change correct code for a verdict the sandbox cannot give. Not where
    the limit is the candidate's own way of working (a pool of processes: sandbox.code_could_avoid): another answer
    to the same tests need not meet it, and the reason reaches the model with the failure."""
    for attempt in judged:
        report = attempt.get("report") or {}
        if passes_what_can_be_judged(report.get("status"), report.get("unsupported")):
            return (f"#{attempt.get('iteration')} passes every visible test the sandbox can judge; "
                    f"{report.get('error') or report.get('unsupported')}")
    return None


def executor(state: SolveState, base: Search = Search()) -> dict:
    """Run the candidates not yet run (new ones, or one whose code a fork edited) against the visible tests and
    decide whether to draw more within the state's search (agent.config.stored_search; base for what the state does
    not hold); returns those candidates with their verdicts."""
    state = read_state(state)
    search = stored_search(state, base)
    calls = solve_probes(state)
    ran = [_judge({**a, "iteration": attempt_number(a, i)}, state, calls)
           for i, a in enumerate(state["attempts"]) if a.get("report") is None]
    # Candidates judged before the probes changed (a doubt proposed inputs) are probed again; their verdicts stand.
    key = probes_key(calls)
    reprobed = [_reprobe({**a, "iteration": attempt_number(a, i)}, state, calls)
                for i, a in enumerate(state["attempts"])
                if a.get("report") is not None and a.get("code") and not a.get("extract_error")
                and a.get("probed") and a.get("probed") != key]
    attempts = merge_attempts(state["attempts"], reprobed + ran)
    # The candidate the conversation holds last: a doubt batch is drawn beside the conversation, as samples are, so a
    # repair after an answer dropped every candidate reads the failure of the code it wrote, not a doubt sample's.
    last = next((a for a in reversed(attempts) if a.get("kind") != "doubt"), attempts[-1])
    spent = sum(a.get("tokens_out", 0) for a in attempts)
    tokens = search.token_budget
    lacking = environment_problem(ran)
    beyond = unsupported_problem(ran)
    error = None
    if any((a.get("report") or {}).get("status") == "passed" for a in attempts):
        status = "passed"
    elif lacking:
        status, error = "env_error", lacking
    elif beyond:
        status, error = "unsupported", beyond
    elif len(attempts) >= search.budget or (tokens and spent >= tokens):
        status = "gave_up"
    else:
        status = "running"
    return {"attempts": reprobed + ran, "report": last["report"], "feedback": last["feedback"], "status": status,
            "code": last["code"], "judged": [a["iteration"] for a in ran], "error": error}


def doubt_due(state: SolveState, search: Search) -> bool:
    """Whether a pass is doubted now: the search doubts this solve (Search.doubt: always, or asking and the solve
    asks; never one shot), the pass is on thin visible tests (agent.loop.questions.thin) whose calls give probe inputs
    to tell answers apart (their mutations or edge inputs), and no doubt batch was drawn yet. Never in the bench's
    leaky oracle mode, where the executed tests are hidden ones."""
    state = read_state(state)
    doubting = search.doubt == "always" or (search.doubt == "asking" and state["ask"] and search.max_questions > 0)
    if not doubting or search.budget == 1 or state["doubt"] is not None or state["shown_tests"] is not None:
        return False
    tests, entry_point = state["tests"], state["entry_point"]
    # Inputs to tell answers apart: the mutations, or (dict arguments have none) the edge inputs the doubt adds.
    return thin(tests, entry_point, search) and (any(p.kind != "original" for p in probe_calls(tests, entry_point))
                                                 or bool(edge_calls(tests, entry_point, state["task"])))


def doubt(state: SolveState, model: BaseChatModel, base: Search = Search()) -> dict:
    """Draw the doubt batch: doubt_samples fresh answers to the first prompt, decoded together as a round of samples
    is, at the first round's temperature; the executor runs them as any other. Then ask the model for
    proposed_inputs edge-case calls from the task's words (agent.loop.proposed_inputs), and add the edge inputs of the
    visible calls (agent.loop.edge_inputs): the executor probes every candidate on them too. A model failure while
    drawing keeps the pass (the doubt record says why nothing was drawn); one while proposing keeps the batch."""
    state = read_state(state)
    search = stored_search(state, base)
    version = prompts.prompt_version(search.prompt_version)
    started = time.perf_counter()
    try:
        new = _round(model, state, version, "doubt", search.doubt_samples, search.sample_temperature)
    except Exception as exc:  # the provider's own errors vary; the solve's pass stands
        return {"doubt": {"numbers": [], "seconds_model": round(time.perf_counter() - started, 3),
                          "error": describe_model_error(exc)}}
    proposed, seconds_proposing, missing, asked = [], 0.0, None, None
    if search.proposed_inputs and state["entry_point"]:
        # Kept with the record: what the model was asked (after the fixed worked example), for the Debugger and audits.
        asked = proposal_messages(state["task"], state["tests"], state["entry_point"], search.proposed_inputs)[-1]
        try:
            proposed, seconds_proposing = propose_inputs(
                model, state["task"], state["tests"], state["entry_point"], search.proposed_inputs,
                seed=(getattr(model, "seed", 0) or 0) + 1000 * (len(state["attempts"]) + len(new) + 1))
        except Exception as exc:  # the batch stands; the probes are the tests' own, their mutations and edges
            missing = describe_model_error(exc)
    seconds = round(time.perf_counter() - started, 3)
    return {"attempts": new, "iteration": len(state["attempts"]) + len(new),
            "doubt": {"numbers": [a["iteration"] for a in new], "seconds_model": seconds, "error": None,
                      "proposed": proposed, "seconds_proposing": seconds_proposing, "proposing_error": missing,
                      "proposal_request": asked["content"] if asked else None,
                      "edges": edge_calls(state["tests"], state["entry_point"], state["task"])}}


def question_due(state: SolveState, search: Search) -> bool:
    """Whether the solve asks the person now: it asks, has questions left, and passing candidates disagree."""
    state = read_state(state)
    return state["ask"] and questions_put(state) < search.max_questions and next_question(state) is not None


def put_question(state: SolveState) -> dict:
    """Put the next question to the person (a LangGraph interrupt: the solve pauses until Solver.answer resumes it
    with a Reply), then write the answer as a test in the person's style and have every candidate judged again
    with it (a doubted solve then probes the added call's edge inputs too); a skipped question adds nothing. The
    question and its answer are kept in the state."""
    state = read_state(state)
    question = next_question(state)
    if question is None:  # the route asked for it, so only a state edited in between gets here
        return {}
    reply = Reply.from_dict(interrupt(question.to_dict()))
    try:
        tests, asked = answered(state["tests"], question, reply)
    except BadInput:  # Solver.answer refuses such a reply before resuming; one typed into Studio is a skip
        tests, asked = answered(state["tests"], question, Reply())
    before = choose(candidates(state))
    asked = replace(asked, answer_before=state["attempts"][before.index].get("iteration", before.index + 1))
    update: dict = {"questions": [asked.to_dict()]}
    if asked.added is not None:
        update["tests"] = tests
        update["attempts"] = judged_again(state["attempts"])
        if state["doubt"] is not None:
            update["doubt"] = doubt_with_tests(state["doubt"], tests, state["entry_point"], state["task"])
    return update


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


def _settle(state: SolveState) -> str:
    return "chooser" if len(state["attempts"]) > 1 else "end"


def after_pass(state: SolveState, search: Search) -> str:
    """Once a candidate passes: doubt a pass on thin tests, ask while passing candidates disagree, then choose."""
    if doubt_due(state, search):
        return "doubt"
    return "ask" if question_due(state, search) else _settle(state)


def after_executor(state: SolveState, base: Search = Search()) -> str:
    """Draw more while no candidate passes and budget remains; after a pass, doubt and ask (after_pass); choose when
    several were drawn."""
    state = read_state(state)
    if state["status"] == "running":
        return "coder"
    if state["status"] == "passed":
        return after_pass(state, stored_search(state, base))
    return _settle(state)


def after_doubt(state: SolveState, base: Search = Search()) -> str:
    """Run the doubt batch; when none could be drawn, go on as after any pass."""
    state = read_state(state)
    return "executor" if (state["doubt"] or {}).get("numbers") else after_pass(state, stored_search(state, base))


def after_ask(state: SolveState, base: Search = Search()) -> str:
    """Judge every candidate again once an answer added a test; after a skip, the next question or the choice."""
    state = read_state(state)
    last = state["questions"][-1] if state["questions"] else {}
    return "executor" if last.get("added") else after_pass(state, stored_search(state, base))
