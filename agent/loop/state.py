"""The graph's state: what one solve knows at every step (and what each checkpoint stores).

Nodes return only what they add: ``attempts`` and ``messages`` are merged into the state by the reducers below,
so a checkpoint still holds the whole lists. Keys a state may lack (a node's partial update, a state typed into
LangGraph Studio) read through ``read_state``, which holds every default in one place.
"""

from __future__ import annotations

from typing import Annotated, TypedDict


class Attempt(TypedDict, total=False):
    """One candidate: what the model was asked, what it answered, and how the code did on the visible tests."""

    iteration: int  # the candidate's number in the solve, from 1
    kind: str  # first | repair | sample | doubt (drawn after a pass on thin tests, to see whether answers disagree)
    messages: list[dict]  # the exact messages sent to the model: [{"role", "content"}] (a pre-fill not included)
    answer: str  # the model's answer, its pre-filled start included
    code: str  # the code that was executed (extracted, or edited by a fork)
    extract_error: str | None
    removed: list[str]  # what cleaning took out of the answer's code: the model's own tests and demos
    report: dict | None  # sandbox TestReport.to_dict() of the visible tests; None until the executor ran it
    feedback: str  # the failure text the model reads next
    signature: str  # fingerprint of what the code returns on the probe inputs ("" when there are none)
    behaviour: list[str]  # what it returned or raised on each probe, marked by the probe's kind (agent.loop.probes)
    probed: str  # which probes those were (agent.loop.probes.probes_key); "" in a solve stored before it was kept
    tokens_in: int
    tokens_out: int
    prompt_tokens_reused: int | None
    seconds_model: float
    seconds_tests: float
    forked: bool  # its code was edited in a fork
    resampled: bool  # the model repeated an earlier attempt's code, so this answer was sampled again, warmer
    temperature: float  # for samples and resampled repairs
    seed: int
    note: str | None  # something the user should know about how it was drawn


def attempt_number(attempt: Attempt, index: int) -> int:
    """A candidate's number: its own, or its place in the list for attempts stored without one."""
    return attempt.get("iteration", index + 1)


def judged_again(attempts: list[Attempt]) -> list[Attempt]:
    """The judged attempts with their verdicts cleared, as an update: the executor judges them again, once a person's
    answer or correction added a test."""
    return [{**a, "iteration": attempt_number(a, i), "report": None}
            for i, a in enumerate(attempts) if a.get("report") is not None]


def merge_attempts(known: list[Attempt] | None, new: list[Attempt] | None) -> list[Attempt]:
    """The attempts reducer: a candidate whose number is known replaces that one (the executor adds its verdict, a
    fork its edited code), any other is appended; a whole list merges to itself."""
    merged = list(known or [])
    place = {attempt_number(a, i): i for i, a in enumerate(merged)}
    for attempt in new or []:
        number = attempt_number(attempt, len(merged))
        if number in place:
            merged[place[number]] = attempt
        else:
            place[number] = len(merged)
            merged.append(attempt)
    return merged


def grown(known: list[dict] | None, new: list[dict] | None) -> list[dict]:
    """The reducer of a list that only grows by what a node adds: the conversation, the questions asked. A fork that
    rewrites the last answer replaces the whole conversation with langgraph.types.Overwrite, which passes it by."""
    return list(known or []) + list(new or [])


class SolveState(TypedDict, total=False):
    """State of one solve; every node returns a partial update of it. Read it with read_state (defaults)."""

    task: str
    tests: str  # the tests the executor runs: visible tests only, except in the bench's labelled oracle mode
    shown_tests: str | None  # the tests the prompt shows, when they differ from the executed ones (oracle mode)
    entry_point: str | None
    code: str  # the current answer's code
    extract_error: str | None
    report: dict | None
    feedback: str
    iteration: int  # candidates drawn so far
    search: dict  # the solve's agent.config.Search, whole (search_dict); read it with agent.config.stored_search
    # running | passed | gave_up | error (the model failed) | env_error (the sandbox lacks a module) | unsupported
    # (a candidate passes every test the sandbox can judge; the others do what it cannot run as one process would)
    status: str
    error: str | None
    messages: Annotated[list[dict], grown]  # the first conversation and its repairs (KV cache reuse)
    attempts: Annotated[list[Attempt], merge_attempts]
    judged: list[int]  # the candidates the last executor step ran
    choice: dict | None  # the chooser's pick: index, iteration, reason, agreeing, eligible
    ask: bool  # a person answers this solve's questions (agent.loop.questions); False: it never asks
    # The doubt batch drawn after a pass on thin tests, once: its candidates' numbers, the model's seconds for it, and
    # why it could not be drawn (the model failed; the solve keeps its pass), the inputs it probes (its edges grow by
    # each test an answer adds: agent.loop.edge_inputs.doubt_with_tests). None: no doubt was drawn.
    doubt: dict | None
    questions: Annotated[list[dict], grown]  # every question put to the person and its answer (Asked.to_dict)


# What a state without the key means. The search has no default here: stored_search reads it, in whichever shape
# it was stored, with its own defaults for what a solve did not store.
DEFAULTS: SolveState = {
    "task": "", "tests": "", "shown_tests": None, "entry_point": None, "code": "", "extract_error": None,
    "report": None, "feedback": "", "iteration": 0, "search": None, "status": "running", "error": None,
    "messages": [], "attempts": [], "judged": [], "choice": None, "ask": False, "doubt": None, "questions": [],
}


def read_state(values: dict) -> SolveState:
    """A solve's state (a checkpoint's values, a node's input) with every missing key at its default. A value
    stored as None where the schema wants a list, number or text reads as the default too."""
    state: SolveState = {**DEFAULTS}
    for key, value in values.items():
        if value is not None or DEFAULTS.get(key) is None:
            state[key] = value
    return state
