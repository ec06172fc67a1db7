"""Every prompt the model sees, in one place, by version. The version is stored with every solve and bench run.

v3: a long system prompt, "Task: ... Your code must pass these tests", an open answer that the extractor
    searches for code; a repair that repeats earlier code is asked again in a fresh conversation.
v4: the answer format of Qwen's own HumanEval harness (QwenLM/Qwen2.5-Coder, qwencoder-eval/instruct/eval_plus):
    a short system prompt, "Can you complete the following Python function?" for a task that is Python code,
    the assistant turn pre-filled with the opening code fence where the provider allows it, and stop strings
    at the closing fence and at top-level driver code, so the model writes code at once and stops when the
    code ends. Repairs and failure reports are worded as in v3.
v4-body: v4, with a task written as Python pre-filled after the fence, so the model writes only the body.
v5: v4-body, and the visible tests are shown only when they say more than the task: a task whose text already
    holds every call they make (HumanEval's docstring examples, a task pasted with its doctests) is asked as Qwen's
    harness asks it, which the 0.5B answers with more care: on all 164 HumanEval tasks its first answers passed
    56.7% with v5 and 59.1% with qwen, against 54.9% with v4-body. A person's own tests are new to the task: shown.
qwen: Qwen's harness exactly, for comparison: a task written as Python is asked without the visible tests (its
    docstring's examples are all the model sees, as in the harness), and generation stops at Qwen's strings,
    a top-level comment included. A task in words is asked as in v4 (the harness has no such task).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from agent.loop.asserted_calls import asserted_calls
from sandbox import TestReport
from sandbox.locked_parse import parses

# v5: on all 164 HumanEval tasks (0.5B, default search, later rounds at 1.1) the loop passed 76.2% with v5 against
# 71.3% with v4-body and one temperature; one shot alone, v5 56.7% against 54.9% at the same tokens (docs/results.md).
DEFAULT_PROMPT_VERSION = "v5"

_SYSTEM_V3 = (
    "You are an expert Python programmer. Write correct, self-contained Python 3 code that uses only "
    "the standard library. Answer with exactly one ```python code block holding the complete solution: "
    "imports, helper functions and the requested function. Do not include tests, example usage or "
    "explanations."
)
_SYSTEM_V4 = "You are an intelligent programming assistant to produce Python algorithmic solutions"
FENCE = "```python\n"
# Qwen's harness stops at these; "\nassert" is ours: small models append example asserts after the code.
_STOPS_V4 = ("\n```", "\nif __name__", "\ndef main(", "\nprint(", "\nassert ")
_STOPS_QWEN = ("\n```", "\nif __name__", "\ndef main(", "\nprint(", "\n#")


@dataclass(frozen=True)
class PromptVersion:
    """How one prompt version asks: its system text, whether it pre-fills the answer and where it stops."""

    version: str
    system: str
    fence: bool  # pre-fill the answer with an open code fence, where the provider can continue an answer
    stops: tuple[str, ...]  # generation ends at these (only with a pre-fill: a fence stop needs an open fence)
    body_only: bool = False  # a task written as Python is pre-filled too: the model writes only the body
    tests_with_code: bool = True  # a task written as Python is asked with the visible tests below it
    repeated_tests: bool = True  # tests the task's own text already holds (its examples) are shown again

    def prefill(self, task: str) -> str:
        """The start of the assistant's answer ("" for none)."""
        if not self.fence:
            return ""
        return FENCE + (task.strip("\n") + "\n" if self.body_only and is_python_code(task) else "")

    def first_message(self, task: str, tests: str, entry_point: str | None) -> str:
        """The opening request: the task and the visible tests the code must pass."""
        if not self.fence:
            name = f"\nThe function must be named `{entry_point}`.\n" if entry_point else "\n"
            return f"Task:\n{task.strip()}\n{name}\nYour code must pass these tests:\n```python\n{tests.strip()}\n```"
        tests_part = f"\n\nIt must pass these tests:\n```python\n{tests.strip()}\n```"
        if is_python_code(task):
            shown = tests_part if self.tests_with_code and (self.repeated_tests or not repeats_task(task, tests)) \
                else ""
            return f"Can you complete the following Python function?\n```python\n{task.strip()}\n```{shown}"
        name = f" Name the function `{entry_point}`." if entry_point else ""
        return f"Write a Python function for this task.{name}\n\n{task.strip()}{tests_part}"


VERSIONS = {
    "v3": PromptVersion("v3", _SYSTEM_V3, fence=False, stops=()),
    "v4": PromptVersion("v4", _SYSTEM_V4, fence=True, stops=_STOPS_V4),
    "v4-body": PromptVersion("v4-body", _SYSTEM_V4, fence=True, stops=_STOPS_V4, body_only=True),
    "v5": PromptVersion("v5", _SYSTEM_V4, fence=True, stops=_STOPS_V4, body_only=True, repeated_tests=False),
    "qwen": PromptVersion("qwen", _SYSTEM_V4, fence=True, stops=_STOPS_QWEN, tests_with_code=False),
}


def prompt_version(version: str | None) -> PromptVersion:
    """The named prompt version (the default when None); ValueError naming the known ones otherwise."""
    name = version or DEFAULT_PROMPT_VERSION
    if name not in VERSIONS:
        raise ValueError(f"unknown prompt version {name!r}: use one of {', '.join(VERSIONS)}")
    return VERSIONS[name]


def is_python_code(task: str) -> bool:
    """True for a task written as Python (a signature and docstring, as in HumanEval), not as prose."""
    stripped = task.strip()
    return stripped.startswith(("def ", "from ", "import ", "class ", "@", "async def ")) and parses(stripped)


def _flat(text: str) -> str:
    return "".join(text.split()).replace('"', "'")


def repeats_task(task: str, tests: str) -> bool:
    """Whether every call of a function the tests make is written in the task already (ignoring spaces and the kind
    of quotes), as HumanEval's visible tests are its docstring's examples: then they tell the model nothing new."""
    calls = [ast.get_source_segment(tests, call) or "" for call in asserted_calls(tests)]
    flat_task = _flat(task)
    return bool(calls) and all(call and _flat(call) in flat_task for call in calls)


def failure_report(report: TestReport) -> str:
    """The failure text the model reads when it repairs: status, failing asserts with both sides, errors."""
    return report.summary()


def repair_message(feedback: str) -> str:
    """A repair request. It follows the previous answer in the same conversation, so the model sees
    its own code just above, and llama.cpp reuses the cached prefix instead of re-reading it."""
    return (
        "Your code was run against the tests and failed.\n\n"
        f"{feedback.strip()}\n\n"
        "Find the bug and answer with the complete corrected code in one ```python block."
    )


def no_code_feedback(reason: str) -> str:
    """What the model reads when its answer had no usable code."""
    return f"Your answer could not be used: {reason}. Answer with the complete code in one ```python block."


def fresh_repair_message(first_message_text: str, feedback: str) -> str:
    """A repair asked from scratch: the opening request plus the failure report, without the failing
    code, so a model that keeps copying its previous answer has nothing to copy."""
    return (
        f"{first_message_text}\n\nA previous solution failed the tests:\n\n{feedback.strip()}\n\n"
        "Write a new solution that passes all the tests, in one ```python block."
    )
