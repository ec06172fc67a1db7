"""The honest-protocol audit of prompts: which lines of a task's hidden tests (or of its reference solution, which only
the interactive protocol's simulated person runs) reached the model's messages, and which inputs of a behaviour table
only its hidden tests could have given.

An empty list is the protocol kept; the tests that feed hidden tests as visible ones show each check can fail."""

from __future__ import annotations

from agent.loop.probes import probe_calls


def hidden_lines(problem: dict) -> list[str]:
    """Lines of the hidden test code that the prompt does not already show (those may appear)."""
    prompt = problem["prompt"]
    return [ln.strip() for ln in problem["test"].splitlines()
            if len(ln.strip()) > 12 and ln.strip() not in prompt]


def leaks(problem: dict, messages: list[dict]) -> list[str]:
    """Lines of a HumanEval problem's hidden tests (or its check function) found in the messages."""
    text = "\n".join(m["content"] for m in messages)
    found = [ln for ln in hidden_lines(problem) if ln in text]
    return found + (["def check(candidate)"] if "def check(candidate)" in text else [])


def task_leaks(task: dict, messages: list[dict]) -> list[str]:
    """Lines of a task file's hidden tests that its prompt and visible tests do not show, found in the messages."""
    shown = task["prompt"] + "\n" + task["tests"]
    text = "\n".join(m["content"] for m in messages)
    return [ln.strip() for ln in task["hidden_tests"].splitlines()
            if ln.strip() and ln.strip() not in shown and ln.strip() in text]


def plus_leaks(task: dict, messages: list[dict]) -> list[str]:
    """Lines of a HumanEval+ check (longer than a bare `return True`) that the task's prompt and visible tests do not
    show, found in the messages; and the check itself by its name."""
    shown = task["prompt"] + "\n" + task["tests"]
    text = "\n".join(m["content"] for m in messages)
    found = [ln.strip() for ln in task["hidden_tests"].splitlines()
             if len(ln.strip()) > 12 and ln.strip() not in shown and ln.strip() in text]
    return found + (["def check(candidate)"] if "def check(candidate)" in text else [])


def behaviour_leaks(task: dict, calls: list[str], entry_point: str | None) -> list[str]:
    """Calls in a behaviour table (agent.solves.answer_behaviour) that are no probe of the task's visible tests:
    inputs that only its hidden tests could have led to."""
    allowed = {probe.call for probe in probe_calls(task["tests"], entry_point)}
    return [call for call in calls if call not in allowed]


def reference_leaks(task: dict, messages: list[dict]) -> list[str]:
    """Lines of a task's reference solution (the interactive protocol's simulated person's; longer than a bare
    `return x`) that its prompt and visible tests do not show, found in the messages. Its signature is left out: every
    answer writes the function the task names, as the reference does."""
    shown = task["prompt"] + "\n" + task["tests"]
    text = "\n".join(m["content"] for m in messages)
    return [ln.strip() for ln in task.get("reference", "").splitlines() if len(ln.strip()) > 12
            and not ln.strip().startswith("def ") and ln.strip() not in shown and ln.strip() in text]
