"""The graph's state: what one solve knows at every step (and what each checkpoint stores)."""

from __future__ import annotations

from typing import TypedDict


class Attempt(TypedDict, total=False):
    """One pass through coder and executor."""

    iteration: int
    messages: list[dict]  # the exact messages sent to the model: [{"role", "content"}]
    answer: str  # the model's raw answer
    code: str  # the code that was executed (extracted, or edited by a fork)
    extract_error: str | None
    report: dict | None  # sandbox TestReport.to_dict() of the visible tests
    feedback: str  # the failure text the model reads next
    tokens_in: int
    tokens_out: int
    prompt_tokens_reused: int | None
    seconds_model: float
    seconds_tests: float
    forked: bool
    resampled: bool  # the model repeated an earlier attempt's code, so this answer was sampled again, warmer


class SolveState(TypedDict, total=False):
    """State of one solve; every node returns a partial update of it."""

    task: str
    tests: str  # the tests the executor runs: visible tests only, except in the bench's labelled oracle mode
    shown_tests: str | None  # the tests the prompt shows, when they differ from the executed ones (oracle mode)
    entry_point: str | None
    code: str
    extract_error: str | None
    report: dict | None
    feedback: str
    iteration: int
    max_retries: int
    status: str  # running | passed | gave_up | error
    error: str | None
    messages: list[dict]  # the conversation so far; repairs extend it so the KV cache prefix is reused
    attempts: list[Attempt]
    prompt_version: str
    forked: bool
