"""Decoding throughput of the embedded model on this machine: batched samples and prompt-lookup decoding.

python -m measure batch [--model qwen2.5-coder-0.5b] [--n 2,4] [--max-tokens 160] [--rounds 2]

1. N samples of one prompt: one after another through llama-cpp-python's Llama (its prompt cache makes
   every sample after the first cost only its own tokens), against the same N decoded together in one
   context (agent.providers.llamacpp_batch). Reported as generated tokens per second and their ratio.
2. A repair (the previous answer is in the prompt, so the new one repeats much of it) with and without
   llama-cpp-python's prompt-lookup draft model, which needs the logits of every token.

All figures come from one run, interleaved; compare the ratios, not the absolute numbers.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from agent.loop import prompts
from agent.models import DEFAULT_MODEL, find_model
from agent.providers.llamacpp_batch import BatchDecoder
from agent.providers.llamacpp_model import load_llama, render_prompt
from measure.ratios import median_ratio
from sandbox.cli import CommandParser

N_CTX = 4096
TASK = ('def running_max(numbers: list) -> list:\n    """Return the list of the maxima of every prefix of numbers.\n'
        '    >>> running_max([1, 3, 2, 5])\n    [1, 3, 3, 5]\n    """\n')
TESTS = "assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]\nassert running_max([]) == []\n"


def _prompt_tokens(llm, formatter, messages: list[dict], prefill: str) -> list[int]:
    """The tokens the chat model itself would send: the same rendering, the pre-fill continued."""
    roles = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    chat = [roles[m["role"]](content=m["content"]) for m in messages] + [AIMessage(content=prefill)]
    return render_prompt(llm, formatter, chat)[0]


def _sequential(llm, prompt: list[int], n: int, max_tokens: int, stops: list[str]) -> tuple[int, float]:
    started, generated = time.perf_counter(), 0
    for i in range(n):
        for _ in llm.create_completion(prompt=prompt, max_tokens=max_tokens, temperature=0.8, seed=100 + i,
                                       stop=stops, stream=True):
            generated += 1
    return generated, time.perf_counter() - started


def _batched(decoder: BatchDecoder, prompt: list[int], n: int, max_tokens: int, stops: list[str]) -> tuple[int, float]:
    started = time.perf_counter()
    samples = decoder.sample(prompt, n, max_tokens=max_tokens, temperature=0.8, seed=100, stops=stops)
    return sum(s.tokens for s in samples), time.perf_counter() - started


def batched_vs_sequential(path: str, ns: list[int], max_tokens: int, rounds: int) -> None:
    """Print generated tokens/s of N sequential samples and of N batched ones, and the ratio."""
    llm, formatter, _ = load_llama(path, N_CTX)
    version = prompts.prompt_version("v4")
    messages = [{"role": "system", "content": version.system},
                {"role": "user", "content": version.first_message(TASK, TESTS, "running_max")}]
    prompt = _prompt_tokens(llm, formatter, messages, version.prefill(TASK))
    stops = list(version.stops)
    # No stop string: every sample runs to max_tokens, so both ways decode the same number of tokens.
    for n in ns:
        decoder = BatchDecoder(llm, n, N_CTX)
        seq_rates, bat_rates = [], []
        _sequential(llm, prompt, 1, 8, stops)  # warm both prompt caches: each way pays only for its samples
        _batched(decoder, prompt, 1, 8, stops)
        for _ in range(rounds):
            tokens, seconds = _sequential(llm, prompt, n, max_tokens, [])
            seq_rates.append(tokens / seconds)
            tokens, seconds = _batched(decoder, prompt, n, max_tokens, [])
            bat_rates.append(tokens / seconds)
        s, b = statistics.median(seq_rates), statistics.median(bat_rates)
        print(f"N={n}: {max_tokens} tokens each; sequential {s:6.1f} tokens/s, batched {b:6.1f} tokens/s, "
              f"batched/sequential {median_ratio(bat_rates, seq_rates):4.2f}  ({rounds} rounds, medians)")


def prompt_lookup(path: str, max_tokens: int, rounds: int) -> None:
    """Print the seconds of one repair answer with and without prompt-lookup decoding, and the ratio."""
    from llama_cpp import Llama
    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

    plain, formatter, _ = load_llama(path, N_CTX)
    threads = plain.context_params.n_threads
    lookup = Llama(model_path=path, n_ctx=N_CTX, verbose=False, n_threads=threads, n_threads_batch=threads,
                   logits_all=True, draft_model=LlamaPromptLookupDecoding(num_pred_tokens=2))
    version = prompts.prompt_version("v4")
    first = [{"role": "system", "content": version.system},
             {"role": "user", "content": version.first_message(TASK, TESTS, "running_max")}]
    wrong = ("```python\n" + TASK + "    result = []\n    for i, x in enumerate(numbers):\n"
             "        result.append(max(numbers[:i]))\n    return result\n```")
    report = ("status: failed (0 of 2 tests passed)\nFAILED line 1: assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]\n"
              "  ValueError: max() arg is an empty sequence")
    repair = first + [{"role": "assistant", "content": wrong},
                      {"role": "user", "content": prompts.repair_message(report)}]
    prompt = _prompt_tokens(plain, formatter, repair, version.prefill(TASK))
    timings: dict[str, list[float]] = {"plain": [], "lookup": []}
    counts: dict[str, int] = {}
    for _ in range(rounds):
        for name, llm in (("plain", plain), ("lookup", lookup)):
            llm.reset()  # both evaluate the whole prompt: lookup pays for every prompt token's logits
            started = time.perf_counter()
            out = llm.create_completion(prompt=prompt, max_tokens=max_tokens, temperature=0.0,
                                        stop=list(version.stops))
            timings[name].append(time.perf_counter() - started)
            counts[name] = out["usage"]["completion_tokens"]
    p, q = statistics.median(timings["plain"]), statistics.median(timings["lookup"])
    print(f"repair with the previous code in the prompt ({len(prompt)} prompt tokens): plain {p:5.2f}s "
          f"({counts['plain']} tokens), prompt lookup {q:5.2f}s ({counts['lookup']} tokens), "
          f"plain/lookup {median_ratio(timings['plain'], timings['lookup']):4.2f} (speed-up; below 1 is a slow-down)")


def batch_sizes(text: str) -> list[int]:
    """--n's comma-separated batch sizes ("2,4") as numbers, each at least 1."""
    sizes = [int(n) for n in text.split(",") if n.strip()]
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"batch sizes are whole numbers from 1, comma-separated: {text!r}")
    return sizes


def add_arguments(parser: CommandParser) -> None:
    """The options of `python -m measure batch`."""
    parser.add_argument("--model", default=DEFAULT_MODEL)
    parser.add_argument("--n", type=batch_sizes, default="2,4", help="batch sizes to try, comma-separated")
    parser.add_argument("--max-tokens", type=int, default=160)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-lookup", action="store_true")


def run(args: argparse.Namespace) -> None:
    """Run both measurements and print one line each."""
    path = str(find_model(args.model))
    print(f"model {Path(path).name}")
    batched_vs_sequential(path, args.n, args.max_tokens, args.rounds)
    if not args.skip_lookup:
        prompt_lookup(path, args.max_tokens, args.rounds)
