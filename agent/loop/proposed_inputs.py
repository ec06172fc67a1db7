"""Edge-case inputs the model proposes from the task's words, probed beside the mutated ones after a doubted pass.

The mutations of the visible calls (agent.loop.probes) stay near the examples: reversed, shorter, upper case, empty.
They seldom reach the cases a task states in words, such as a tab where the example has spaces, a tie in a count or
intervals that only touch, and there answers that pass thin tests differ. EvalPlus seeds its test inputs the same
way: it asks the model for "corner case" inputs and reads them back with ast.literal_eval (evalplus
gen/chatgpt_gen.py). The model sees only the task and the visible tests, and only the calls' inputs are read: a result
it writes beside one is never trusted. A probe asks what each candidate returns there; the person says what is right.
"""

from __future__ import annotations

import ast
import itertools
import re
import time

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage

from agent.loop.model_calls import configured, to_langchain
from agent.loop.probes import bare_call, literal_call, literal_calls
from agent.loop.prompts import FENCE
from sandbox.locked_parse import parse

PROPOSAL_TOKENS = 20  # tokens a proposed call, in the cap of an answer: one short line each
PROPOSAL_SAMPLES = 3  # answers drawn together where the provider decodes a batch; their calls are pooled
PROPOSAL_TEMPERATURE = 0.8  # warm, so that the samples differ, as the first round of samples is
_FENCED = re.compile(r"```[a-zA-Z]*\n(.*?)(?:```|$)", re.S)


# One worked example, a task of its own (no benchmark's): one call per rule the words state, none the test shows.
_EXAMPLE_TASK = ("Write a function initials(name) that returns the initials of a person's name in upper case, one "
                 "letter a word; words are separated by any whitespace, and the parts of a hyphenated word count as "
                 "words. An empty name gives an empty string.")
_EXAMPLE_TESTS = 'assert initials("Ada Lovelace") == "AL"'
_EXAMPLE_CALLS = "".join(f"{call}\n" for call in (
    'initials("")', 'initials("ada lovelace")', 'initials("Jean-Paul Sartre")', 'initials("  Ada   Lovelace ")',
    'initials("Ada\\tLovelace")', 'initials("Plato")'))


def _request(task: str, tests: str, entry_point: str, n: int) -> str:
    return (f"{task.strip()}\n\nThe function is tested so far with:\n```python\n{tests.strip()}\n```\n"
            f"Write {n} more calls of `{entry_point}`, each trying one rule or edge case the task states that these "
            "tests do not try. Only the calls, one a line, with literal arguments and no results, in one ```python "
            "block.")


def proposal_messages(task: str, tests: str, entry_point: str, n: int) -> list[dict]:
    """What the model is asked: n calls of the entry point that try the rules the task states, with literal
    arguments and no results, after one worked example."""
    return [
        {"role": "system", "content": "You are a careful tester of Python functions."},
        {"role": "user", "content": _request(_EXAMPLE_TASK, _EXAMPLE_TESTS, "initials", 6)},
        {"role": "assistant", "content": f"{FENCE}{_EXAMPLE_CALLS}```"},
        {"role": "user", "content": _request(task, tests, entry_point, n)},
    ]


def read_proposals(answer: str, entry_point: str, n: int) -> list[str]:
    """The distinct calls of the entry point with literal arguments (keyword ones too: a task names its options) in
    the model's answer, first n, each as agent.loop.probes.bare_call writes it. A line may be a bare call, an assert
    or a print around one; anything else is passed over."""
    blocks = _FENCED.findall(answer) or [answer]
    found: list[str] = []
    for line in "\n".join(blocks).splitlines():
        line = line.strip()
        if not line or line.startswith("#") or entry_point not in line:
            continue
        try:
            tree = parse(line)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            continue
        calls = [node for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and getattr(node.func, "id", None) == entry_point]
        read = literal_call(calls[0], entry_point) if calls else None  # the outermost call of the line
        if read is not None and bare_call(entry_point, *read) not in found:
            found.append(bare_call(entry_point, *read))
        if len(found) >= n:
            break
    return found


def _interleaved(lists: list[list[str]], n: int) -> list[str]:
    """The first n distinct items taking one from each list in turn: each sample's first calls before any's last."""
    found: list[str] = []
    for group in itertools.zip_longest(*lists):
        for call in group:
            if call is not None and call not in found:
                found.append(call)
    return found[:n]


def propose_inputs(model: BaseChatModel, task: str, tests: str, entry_point: str, n: int,
                   seed: int = 0) -> tuple[list[str], float]:
    """Ask the model for n edge-case calls of the entry point; (the distinct calls read back, the model's seconds).
    Raises what the provider raises."""
    started = time.perf_counter()
    sent = to_langchain(proposal_messages(task, tests, entry_point, n))
    if hasattr(model, "sample_many") and getattr(model, "supports_prefill", False):
        # A few samples decoded together, each begun with a visible call for the model to go on from: greedily, the
        # 0.5B wrote one call until its cap, or the function instead; begun with the bare name, it wrote numbers
        # for a text argument. The visible call itself is no probe of its own (agent.loop.probes.probe_calls).
        given = [bare_call(entry_point, c.args, c.keywords) for c in literal_calls(tests, entry_point)][:1]
        begun = FENCE + "".join(f"{call}\n" for call in given)
        drawn = configured(model, cap=PROPOSAL_TOKENS * n).sample_many(
            sent + [AIMessage(content=begun)], PROPOSAL_SAMPLES, temperature=PROPOSAL_TEMPERATURE, seed=seed,
            stop=["```"])
        calls = _interleaved([[c for c in read_proposals(answer, entry_point, 4 * n) if c not in given]
                              for answer, _, _ in drawn], n)
    else:
        response = configured(model, cap=PROPOSAL_TOKENS * n + 20).invoke(sent)
        text = response.content if isinstance(response.content, str) else str(response.content)
        calls = read_proposals(text, entry_point, n)
    return calls, round(time.perf_counter() - started, 3)
