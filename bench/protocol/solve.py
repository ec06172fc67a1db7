"""Solving and scoring one task honestly: one agent solve on the visible tests, then every candidate scored on the
hidden tests; or, for a samples run, N independent samples of the first prompt, each scored the same way.

A task the environment cannot run (its tests import a module the sandbox does not offer, or the solve ends on one)
is recorded as lost to the environment, not as a model outage: no model can fix it; so is one whose visible tests do
what the sandbox cannot run as one process would (lost apart, as unsupported tests). A samples run has no loop: the
visible tests run on each sample and are stored, deciding nothing; pass@k reads the hidden verdicts
(bench.scoring.passk).
"""

from __future__ import annotations

import threading
import time
import uuid

from agent import BadInput, RunFinished, Solver, validate_input
from agent.inputs import EnvironmentProblem, UnsupportedTests
from agent.loop.candidates import doubt_of
from agent.loop.choice import answers_by_budget
from agent.loop.model_calls import describe_model_error, draw_samples
from agent.loop.probes import solve_probes
from agent.loop.questions import Question, Reply, answers_after_corrections, answers_after_questions
from agent.solves.answer_behaviour import answer_behaviour
from agent.solves.asking import answering
from agent.solves.events import Event
from agent.solves.reference_person import read_table, reference_reply
from bench.datasets.task import Task
from bench.protocol.hidden import run_hidden, score_sample
from bench.protocol.labels import BAD_INPUT, ENV_ERROR, UNSUPPORTED_TESTS
from bench.protocol.rows import attempt_row, lost_result, question_row, result_row, sampled_result
from bench.protocol.rules import Rules
from sandbox import run_tests


class ModelOutage(Exception):
    """The model stopped answering: the solver that met it retires, the task goes back to the others; a run that has
    no solver left stops, keeps what it finished, and can be resumed."""


class TaskStopped(Exception):
    """The run was asked to stop in the middle of this task: nothing of it is kept, and a resume does it again."""


def _unless_stopped(events: list[Event], stop: threading.Event | None) -> list[Event]:
    """The solve's events, or TaskStopped when stop ended it (Solver.start(stop=...) pauses a solve at its next
    checkpoint: a stop waits for the candidate being drawn or run, not for the task's whole search)."""
    if stop is not None and stop.is_set() and events[-1].paused:
        raise TaskStopped
    return events


def _lost_status(exc: BadInput) -> str:
    if isinstance(exc, UnsupportedTests):
        return UNSUPPORTED_TESTS
    return ENV_ERROR if isinstance(exc, EnvironmentProblem) else BAD_INPUT


def _events(solver: Solver, task: Task, rules: Rules, executed: str, shown: str | None,
            stop: threading.Event | None = None) -> tuple[list[Event], int]:
    """The events of the task's solve, run to its end, and the rows of its answer's table the simulated person read.
    In an interactive run (rules.ask), that person answers each question the solve puts from the task's reference;
    then (rules.corrections), while the answer passes, reads its behaviour table and corrects the first wrong row,
    up to that many times. The reference reaches nothing but those answers: the person runs it in the sandbox on the
    question's or the rows' inputs only (agent.solves.reference_person); the solve, its prompts and its chooser get
    the task, its visible tests and the tests the answers wrote."""
    thread_id = uuid.uuid4().hex
    solve = solver.start(task["prompt"], executed, entry_point=task["entry_point"], search=rules.search,
                         shown_tests=shown, origin=f"bench run {rules.run_id}", thread_id=thread_id,
                         ask=bool(rules.ask), stop=stop)
    if not rules.ask:
        return _unless_stopped(list(solve), stop), 0

    def person(question: Question) -> Reply:
        # The solve's entry point (typed, or inferred when the task named none) is the function the reference defines.
        return reference_reply(task["reference"], solver.state_at(thread_id)["entry_point"], question)
    events = list(answering(solver, solve, person, stop))
    rows_read = 0
    for _ in range(rules.corrections or 0):
        final, state = events[-1], solver.state_at(thread_id)
        table = answer_behaviour(state) if final.status == "passed" and not final.paused else None
        if table is None:
            break
        reading = read_table(task["reference"], state["entry_point"], table.rows)
        rows_read += reading.rows_read
        if reading.wrong is None:
            break
        try:
            going_on = solver.correct(thread_id, reading.wrong.call, reading.reply, reading.wrong.argument, stop=stop)
        except BadInput:  # a correction the solve cannot take as a test: the person's reading ends, the answer stands
            break
        # The solve goes on from the correction as after an answer, and may ask again: the person answers as before.
        events += list(answering(solver, going_on, person, stop))
    return _unless_stopped(events, stop), rows_read


def solve_task(solver: Solver, task: Task, rules: Rules, stop: threading.Event | None = None
               ) -> tuple[dict, list[dict], list[dict]]:
    """One agent solve on one task, then every attempt scored on the hidden tests: the task's results row, its
    attempts rows and (an interactive run's) its questions rows.

    A task without an entry point is solved with None (the agent infers it from the tests); its hidden tests run
    with the entry point the solve used. A task the agent refuses (agent.BadInput, or EnvironmentProblem when the
    tests need what the sandbox lacks) or a solve that ends in env_error is a result with no answer, not an
    outage: the solver goes on. ModelOutage is raised only when the model gave no answer. A samples run
    (rules.samples) draws its samples instead (sample_task). An interactive run's results row keeps the answer after
    0, 1, ... questions (answer_by_question) and the seconds its doubt batch added. TaskStopped when stop is set
    before the solve ends (the solver ends it at its next checkpoint, paused)."""
    if rules.samples:
        return sample_task(solver, task, rules)
    visible, oracle = task["tests"], rules.feedback == "oracle"
    executed, shown = (task["hidden_tests"], visible) if oracle else (visible, None)
    started = time.perf_counter()
    try:
        # The run's search, whole (a run without feedback stored a budget of one candidate).
        events, rows_read = _events(solver, task, rules, executed, shown, stop)
    except BadInput as exc:  # raised before any model call: nothing was drawn, nothing to score
        return lost_result(task, rules.run_id, started, _lost_status(exc), str(exc)), [], []
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
        hidden = run_hidden(candidate.code, task, entry_point)
        vis.append(run_tests(candidate.code, visible, entry_point=entry_point).passed if oracle else candidate.passed)
        hid.append(hidden.passed)
        rows.append(attempt_row(
            rules.run_id, task["task_id"], candidate.number, code=candidate.code, answer=candidate.answer,
            visible=candidate.report, hidden=hidden, messages=candidate.messages, tokens_in=candidate.tokens_in,
            tokens_out=candidate.tokens_out, prompt_tokens_reused=candidate.prompt_tokens_reused,
            seconds_model=candidate.seconds_model, seconds_tests=candidate.seconds_tests, kind=candidate.kind,
            signature=candidate.signature, temperature=candidate.temperature, seed=candidate.seed,
            extract_error=candidate.extract_error, behaviour=candidate.behaviour, removed=candidate.removed))
    picked = None if lost else solver.chosen(final.thread_id)
    asked, by_question, doubt_seconds, probes, by_correction = [], None, None, None, None
    if rules.ask:
        state = solver.state_at(final.thread_id)
        index_of = {candidate.number: index for index, candidate in enumerate(made)}
        by_question = [] if lost else [index_of[n] for n in answers_after_questions(state) if n in index_of]
        if rules.corrections:
            by_correction = [] if lost else [index_of[n] for n in answers_after_corrections(state) if n in index_of]
        doubt = doubt_of(state)
        doubt_seconds = round(doubt.seconds, 3) if doubt else 0.0
        # The inputs each candidate's behaviour was taken on, those the doubt added (the model's proposals are drawn
        # once) included: what a stored run's behaviours are read against afterwards. A probe that reads an argument
        # after the call adds its place, as agent.loop.probes.probes_key keys it.
        probes = [[probe.call, probe.kind] + ([probe.argument] if probe.argument is not None else [])
                  for probe in solve_probes(state)]
        asked = [question_row(rules.run_id, task["task_id"], number, one)
                 for number, one in enumerate(solver.asked(final.thread_id), start=1)]
    return result_row(task, rules.run_id, started, status=final.status, error=final.error if lost else None,
                      thread_id=final.thread_id, rows=rows, vis=vis, hid=hid,
                      by_cap=[] if lost else answers_by_budget(made), choice=picked.reason if picked else "",
                      by_question=by_question, doubt_seconds=doubt_seconds, probes=probes,
                      by_correction=by_correction, rows_read=rows_read if rules.corrections else None), rows, asked


def sample_task(solver: Solver, task: Task, rules: Rules) -> tuple[dict, list[dict], list[dict]]:
    """A samples run's task: rules.samples independent samples of the first prompt (the task and its visible tests)
    at rules.temperature, each with its own seed, decoded together where the model can
    (agent.loop.model_calls.draw_samples); the hidden tests score every one. Input the agent refuses is a lost task,
    as in solve_task; a model that fails is a ModelOutage."""
    started = time.perf_counter()
    try:
        entry_point = validate_input(task["prompt"], task["tests"], task["entry_point"]).name
    except BadInput as exc:
        return lost_result(task, rules.run_id, started, _lost_status(exc), str(exc)), [], []
    model = solver.model
    try:
        drawn = draw_samples(model, task["prompt"], task["tests"], entry_point, n=rules.samples,
                             temperature=rules.temperature, seed=getattr(model, "seed", 0) or 0,
                             prompt_version=rules.search.prompt_version, per_round=rules.search.samples_per_round)
    except Exception as exc:  # the provider's own errors vary, as in the loop's coder
        raise ModelOutage(describe_model_error(exc)) from exc
    rows = []
    for attempt in drawn:
        visible, hidden, seconds = score_sample(attempt["code"], task, entry_point, attempt["extract_error"])
        rows.append(attempt_row(
            rules.run_id, task["task_id"], attempt["iteration"], code=attempt["code"], answer=attempt["answer"],
            visible=visible, hidden=hidden, messages=attempt["messages"], tokens_in=attempt["tokens_in"],
            tokens_out=attempt["tokens_out"], prompt_tokens_reused=attempt["prompt_tokens_reused"],
            seconds_model=attempt["seconds_model"], seconds_tests=seconds, kind="sample",
            temperature=attempt.get("temperature"), seed=attempt.get("seed"), extract_error=attempt["extract_error"],
            removed=attempt.get("removed")))
    return sampled_result(task, rules.run_id, started, rows), rows, []
