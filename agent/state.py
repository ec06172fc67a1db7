"""The graph's state: what one solve knows at every step (and what each checkpoint stores)."""

from __future__ import annotations

from typing import TypedDict


class Attempt(TypedDict, total=False):
    """One candidate: what the model was asked, what it answered, and how the code did on the visible tests."""

    iteration: int  # the candidate's number in the solve, from 1
    kind: str  # first | repair | sample
    messages: list[dict]  # the exact messages sent to the model: [{"role", "content"}] (a pre-fill not included)
    answer: str  # the model's answer, its pre-filled start included
    code: str  # the code that was executed (extracted, or edited by a fork)
    extract_error: str | None
    report: dict | None  # sandbox TestReport.to_dict() of the visible tests; None until the executor ran it
    feedback: str  # the failure text the model reads next
    signature: str  # fingerprint of what the code returns on the probe inputs ("" when there are none)
    behaviour: list[str]  # what it returned or raised on each probe, marked by the probe's kind (agent.probes)
    tokens_in: int
    tokens_out: int
    prompt_tokens_reused: int | None
    seconds_model: float
    seconds_tests: float
    forked: bool
    resampled: bool  # the model repeated an earlier attempt's code, so this answer was sampled again, warmer
    temperature: float  # for samples and resampled repairs
    seed: int
    note: str | None  # something the user should know about how it was drawn


class SolveState(TypedDict, total=False):
    """State of one solve; every node returns a partial update of it."""

    task: str
    tests: str  # the tests the executor runs: visible tests only, except in the bench's labelled oracle mode
    shown_tests: str | None  # the tests the prompt shows, when they differ from the executed ones (oracle mode)
    entry_point: str | None
    code: str  # the current answer's code
    extract_error: str | None
    report: dict | None
    feedback: str
    iteration: int  # candidates drawn so far
    max_retries: int  # the budget: candidates after the first
    strategy: str  # repair | sample | hybrid
    samples_per_round: int
    sample_temperature: float
    token_budget: int  # generated tokens per solve; 0 for no limit beyond the candidates
    status: str  # running | passed | gave_up | error (the model failed) | env_error (the sandbox lacks a module)
    error: str | None
    messages: list[dict]  # the first conversation and its repairs, extended so the KV cache prefix is reused
    attempts: list[Attempt]
    judged: list[int]  # the candidates the last executor step ran
    choice: dict | None  # the chooser's pick: index, iteration, reason, agreeing, eligible
    prompt_version: str
    forked: bool
