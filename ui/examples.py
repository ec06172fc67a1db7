"""Built-in examples for the playground: a task and its tests.

No entry point: a solve infers it from the task and tests (agent.inputs.infer_entry_point), as it does for a
task a person types, so an example loaded and then edited leaves no stale name behind.
"""

from __future__ import annotations

from bench.datasets.humaneval import load_problems
from bench.datasets.visible_tests import visible_tests_for


def _humaneval(task_id: str) -> dict[str, str]:
    problem = next(p for p in load_problems() if p["task_id"] == task_id)
    # HumanEval prompts open with blank lines; the model's prompt strips them anyway, the editor should not show them.
    return {"task": problem["prompt"].lstrip("\n"), "tests": visible_tests_for(problem)[0]}


DEFAULT_EXAMPLE = "HumanEval/84: solve (the first answer fails)"
EXAMPLES: dict[str, dict[str, str]] = {
    # Measured (2 cores, the embedded 0.5B, defaults): the first answer returns bin(N) and fails every visible test;
    # with the repair strategy the second candidate passes (the repair repeats the code, so it is asked again,
    # warmer), with the sample strategy the first round of samples holds two that pass. About 20 s either way.
    DEFAULT_EXAMPLE: _humaneval("HumanEval/84"),
    # Measured: the 0.5B needs six candidates with repairs here, five with samples.
    "HumanEval/68: pluck (several candidates)": _humaneval("HumanEval/68"),
    "Run-length encoding (hard for 0.5B)": {
        "task": "Write a function compress(s) that run-length encodes a string: every run of a repeated "
                "character becomes the character followed by the length of the run, but a run of length 1 "
                "is written as the character alone.",
        "tests": "assert compress('aaabcc') == 'a3bc2'\nassert compress('abc') == 'abc'\n"
                 "assert compress('') == ''\nassert compress('zzzz') == 'z4'\n",
    },
    "Second largest": {
        "task": "Write a function second_largest(nums) that returns the second largest distinct value in the "
                "list nums, or None when there is no such value.",
        "tests": "assert second_largest([1, 3, 3, 2]) == 2\nassert second_largest([5]) is None\n"
                 "assert second_largest([2, 2]) is None\nassert second_largest([-1, -5, 0]) == -1\n",
    },
    "Add two numbers": {
        "task": "Write a function add(a, b) that returns the sum of a and b.",
        "tests": "assert add(1, 2) == 3\nassert add(-4, 4) == 0\n",
    },
    "Pytest style: word counts": {
        "task": "Write a function word_counts(text) returning a dict from each lower-cased word to how many "
                "times it occurs; words are separated by whitespace and punctuation .,!? is ignored.",
        "tests": "def test_simple():\n    assert word_counts('a b a') == {'a': 2, 'b': 1}\n\n"
                 "def test_case_and_punctuation():\n    assert word_counts('Hi, hi!') == {'hi': 2}\n",
    },
}
