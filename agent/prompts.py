"""Every prompt the model sees, in one place. PROMPT_VERSION is stored with every solve and bench run."""

from __future__ import annotations

# v3: as v1, and a repair that repeats an earlier attempt's code is asked again in a fresh conversation
# (task, tests, failure report; no code to copy) at a higher temperature. (v2 resampled in place: no gain.)
PROMPT_VERSION = "v3"

SYSTEM = (
    "You are an expert Python programmer. Write correct, self-contained Python 3 code that uses only "
    "the standard library. Answer with exactly one ```python code block holding the complete solution: "
    "imports, helper functions and the requested function. Do not include tests, example usage or "
    "explanations."
)


def first_message(task: str, tests: str, entry_point: str | None) -> str:
    """The opening request: the task and the visible tests the code must pass."""
    name = f"\nThe function must be named `{entry_point}`.\n" if entry_point else "\n"
    return f"Task:\n{task.strip()}\n{name}\nYour code must pass these tests:\n```python\n{tests.strip()}\n```"


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
