"""Embedded-model speed through the agent and directly, and what prefix reuse saves on a repair.

python -m measure model [--model qwen2.5-coder-0.5b] [--rounds 3] [--max-tokens 128]

All figures come from one run on this machine; compare the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from agent.loop import prompts
from agent.models import DEFAULT_MODEL, find_model
from agent.providers.llamacpp_chat import LlamaCppChat
from agent.providers.llamacpp_model import load_llama
from agent.solves.solver import Solver
from measure.ratios import median_ratio
from sandbox.cli import CommandParser

TASKS = [
    ("Write a function is_palindrome(s) that tells whether the string s reads the same backwards.",
     "assert is_palindrome('abba') is True\nassert is_palindrome('abc') is False\n"),
    ("Write a function fizzbuzz(n) returning 'Fizz', 'Buzz', 'FizzBuzz' or str(n) as usual.",
     "assert fizzbuzz(3) == 'Fizz'\nassert fizzbuzz(10) == 'Buzz'\nassert fizzbuzz(7) == '7'\n"),
    ("Write a function running_max(xs) returning the list of maxima of every prefix of xs.",
     "assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]\nassert running_max([]) == []\n"),
]


def _direct_tokens_per_second(path: str, n_ctx: int, task: str, tests: str, max_tokens: int) -> float:
    """llama-cpp-python alone: the same rendered prompt, a cold cache, streamed like the agent does."""
    llm, formatter, lock = load_llama(path, n_ctx)
    version = prompts.prompt_version(None)
    chat = [{"role": "system", "content": version.system},
            {"role": "user", "content": version.first_message(task, tests, None)}]
    rendered = formatter(messages=chat)
    tokens = llm.tokenize(rendered.prompt.encode(), add_bos=not rendered.added_special, special=True)
    with lock:
        llm.reset()
        started, generated = time.perf_counter(), 0
        for _ in llm.create_completion(prompt=tokens, max_tokens=max_tokens, temperature=0.0, seed=0,
                                       stop=list(rendered.stop or []) if not isinstance(rendered.stop, str)
                                       else [rendered.stop], stream=True):
            generated += 1
        return generated / (time.perf_counter() - started)


def _agent_tokens_per_second(solver: Solver, model: LlamaCppChat, task: str, tests: str) -> float:
    """Through the whole agent: graph, checkpoints, streaming callbacks; first attempt only."""
    llm, _, lock = load_llama(model.model_path, model.n_ctx)
    with lock:
        llm.reset()
    events = list(solver.start(task, tests, search=replace(solver.search, budget=1)))
    attempt = solver.state_at(events[-1].thread_id)["attempts"][0]
    return attempt["tokens_out"] / attempt["seconds_model"]


def _repair_prompt_cost(model: LlamaCppChat, reuse: bool) -> tuple[int, int, float]:
    """(prompt tokens, tokens evaluated, seconds) of one repair call after a first answer."""
    task, tests = TASKS[2]
    version = prompts.prompt_version(None)
    first = [SystemMessage(content=version.system), HumanMessage(content=version.first_message(task, tests, None))]
    llm, _, lock = load_llama(model.model_path, model.n_ctx)
    with lock:
        llm.reset()
    answer = model.invoke(first)
    report = ("status: failed (1 of 2 tests passed)\nFAILED line 1: assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]\n"
              "  left side:  [1, 3, 2, 5]\n  right side: [1, 3, 3, 5]")
    repair = first + [AIMessage(content=answer.content), HumanMessage(content=prompts.repair_message(report))]
    measured = model.model_copy(update={"prefix_reuse": reuse})
    started = time.perf_counter()
    result = measured.invoke(repair)
    meta = result.response_metadata
    return result.usage_metadata["input_tokens"], meta["prompt_tokens_evaluated"], time.perf_counter() - started


def add_arguments(parser: CommandParser) -> None:
    """The options of `python -m measure model`."""
    parser.add_argument("--model", default=DEFAULT_MODEL)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)


def run(args: argparse.Namespace) -> None:
    """Print tokens per second (agent vs direct) and the repair's prompt evaluation with and without reuse."""
    path = str(find_model(args.model))
    model = LlamaCppChat(model_path=path, n_ctx=4096, max_tokens=args.max_tokens)
    with tempfile.TemporaryDirectory() as tmp:
        solver = Solver(model, Path(tmp) / "bench.sqlite")
        direct, agent = [], []
        for _ in range(args.rounds):
            for task, tests in TASKS:
                direct.append(_direct_tokens_per_second(path, 4096, task, tests, args.max_tokens))
                agent.append(_agent_tokens_per_second(solver, model, task, tests))
    print(f"model {Path(path).name}; {len(direct)} generations each way, interleaved, cold KV cache")
    d, a = statistics.median(direct), statistics.median(agent)
    print(f"tokens/s  direct llama-cpp-python {d:6.1f}   through the agent {a:6.1f}   "
          f"agent/direct {median_ratio(agent, direct):5.2f}")
    costs = {}
    for reuse in (True, False):
        total, evaluated, seconds = costs[reuse] = _repair_prompt_cost(model, reuse)
        print(f"repair prompt, prefix reuse {'on ' if reuse else 'off'}: {total} tokens, {evaluated} evaluated, "
              f"{seconds:.2f}s for the call")
    print(f"repair call, reuse on/off: {costs[True][2] / costs[False][2]:4.2f} of the time, "
          f"{costs[True][1] / max(1, costs[False][1]):4.2f} of the prompt tokens evaluated")
