"""What a task's words say about the entry point's inputs beyond the examples: its signature as the task writes it,
whether inputs may be empty or negative, bounds a parameter keeps to ("base from 2 to 36"), and the separator
characters it names ("spaces and/or hyphens").

The contract a doubt's probes keep to (agent.loop.probes.within_contract) is read from the visible calls: an empty
list where every example's is not, a negative number where none is, is "outside", asked about last and never
corrected by the simulated person. The task's words often settle it: "an empty input gives an empty list" puts the
empty list inside, "the given base from 2 to 36" puts base 0 outside. Read only for a doubted solve, so a solve
nobody doubts probes and chooses as before. The words are read, never run.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from sandbox.locked_parse import parse

_SIGNATURE_CHARS = 500  # the longest parameter list task_signature reads
_BOUND_REACH = 60  # how far before "from 2 to 36" the bounded parameter's name may stand, in characters
_MAX_SEPARATORS = 2  # named separator characters an edge input tries, of a text argument

# Characters a task names in words, as tasks state where words or fields split.
_NAMED = {"hyphen": "-", "dash": "-", "comma": ",", "underscore": "_", "semicolon": ";", "colon": ":",
          "slash": "/", "period": ".", "dot": ".", "pipe": "|"}
_BOUNDS = (re.compile(r"\b(?:from|between)\s+(-?\d+)\s+(?:to|and)\s+(-?\d+)\b"),
           re.compile(r"\b(-?\d+)\s*(?:<=|≤)\s*\w+\s*(?:<=|≤)\s*(-?\d+)\b"))


def task_signature(task: str, entry_point: str) -> ast.arguments | None:
    """The entry point's parameters as the task writes them ("digit_sum(n, repeat=False)" in words, or a def's
    header): of the call-like mentions that parse as a parameter list, the one with the most parameters (a task may
    name f(n) before it states f(n, repeat=False)). None when none parses."""
    best: ast.arguments | None = None
    for found in re.finditer(rf"\b{re.escape(entry_point)}\s*\(", task):
        # A signature is short: the scan stops within _SIGNATURE_CHARS, so a long pasted task costs no more.
        depth, end, stop = 1, found.end(), min(len(task), found.end() + _SIGNATURE_CHARS)
        while end < stop and depth:
            depth += {"(": 1, ")": -1}.get(task[end], 0)
            end += 1
        if depth:
            continue
        try:
            header = parse(f"def _({task[found.end():end - 1]}):\n    pass\n").body[0]
        except (SyntaxError, ValueError, MemoryError, RecursionError, IndexError):
            continue  # a call in an example, or words in brackets
        if best is None or _count(header.args) > _count(best):
            best = header.args
    return best


def _count(params: ast.arguments) -> int:
    return len(params.posonlyargs) + len(params.args) + len(params.kwonlyargs)


@dataclass(frozen=True)
class StatedContract:
    """What the task's words add to the contract the visible calls imply: empty and negative inputs it speaks of
    (inside, though no example shows one), and the bounds of a positional parameter (by place) it states."""

    empty: bool = False
    negative: bool = False
    bounds: dict[int, tuple[int, int]] = field(default_factory=dict)


def stated_contract(task: str, entry_point: str | None) -> StatedContract:
    """The contract the task states in words: "empty" anywhere lets empty inputs in; "negative" (not "non-negative")
    lets negative numbers in; "PARAM ... from A to B", "between A and B" or "A <= PARAM <= B" bounds the positional
    parameter named within _BOUND_REACH characters before it (the task's signature gives the names)."""
    words = task.lower()
    empty = re.search(r"\bempty\b", words) is not None
    negative = re.search(r"(?<!non-)(?<!non )(?<!non)\bnegative\b", words) is not None
    header = task_signature(task, entry_point) if entry_point else None
    names = [a.arg for a in header.posonlyargs + header.args] if header else []
    bounds: dict[int, tuple[int, int]] = {}
    for pattern in _BOUNDS:
        for found in pattern.finditer(task):
            low, high = sorted((int(found.group(1)), int(found.group(2))))
            before = re.split(r"[.;:]\s", task[max(0, found.start() - _BOUND_REACH):found.end()])[-1]
            mentioned = [(m.start(), names.index(m.group())) for m in re.finditer(r"\w+", before)
                         if m.group() in names]
            if mentioned:
                bounds.setdefault(max(mentioned)[1], (low, high))
    return StatedContract(empty, negative, bounds)


def named_separators(task: str) -> list[str]:
    """Separator characters the task names, in words ("hyphens", "a comma") or quoted alone ('-', "="), in the order
    it names them, up to _MAX_SEPARATORS."""
    found: list[tuple[int, str]] = [(m.start(), _NAMED[m.group(1)])
                                    for m in re.finditer(rf"\b({'|'.join(_NAMED)})(?:es|s)?\b", task.lower())]
    found += [(m.start(), m.group(2)) for m in re.finditer(r"(['\"])([^\w\s'\"])\1", task)]
    return list(dict.fromkeys(char for _, char in sorted(found)))[:_MAX_SEPARATORS]
