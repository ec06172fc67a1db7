"""Behaviour of a candidate on probe inputs: the visible tests' own calls and inputs mutated from them.

Two candidates that return the same values on every probe behave alike; the chooser groups candidates
by this signature (AlphaCode's clustering, MBR-exec). Only the visible tests are read, and no expected
output is needed: a probe asks what the code returns, never whether that is right.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import itertools
import json

from sandbox import Limits, run_tests
from sandbox.syntax import parse

MAX_PROBES = 16
PROBE_LIMITS = Limits(timeout_s=3)
_PROBE = "__probe_value__"  # a value no candidate returns, so every probe assert fails and reports its left side


def _mutations(value: object) -> list[object]:
    """Nearby inputs of the same type: the edge cases a docstring example does not show."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, 0, -value, value * 3]
    if isinstance(value, float):
        return [value + 0.5, -value, 0.0]
    if isinstance(value, str):
        return [value[::-1], value + value[:1], value[1:], value.upper(), ""]
    if isinstance(value, (list, tuple)):
        kind = type(value)
        return [kind(reversed(value)), kind(value[:-1]), kind(list(value) + list(value[:1])), kind()]
    return []


def _literal(node: ast.expr) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def probe_calls(tests: str, entry_point: str | None) -> list[str]:
    """Source of the calls to probe: each call of the function in the visible tests, then mutated ones."""
    try:
        module = parse(tests)
    except SyntaxError:
        return []
    names = {entry_point, "candidate"} if entry_point else None
    originals, mutated, seen = [], [], set()  # mutated: one list per call
    for assert_node in (n for n in ast.walk(module) if isinstance(n, ast.Assert)):
        for call in (n for n in ast.walk(assert_node.test) if isinstance(n, ast.Call)):
            if not isinstance(call.func, ast.Name) or call.keywords:
                continue
            if names is not None and call.func.id not in names:
                continue
            if names is None and call.func.id in dir(builtins):
                continue
            values = [_literal(a) for a in call.args]
            if not all(ok for ok, _ in values):
                continue
            args = [v for _, v in values]
            name = entry_point or call.func.id
            variants = [args] + [args[:i] + [m] + args[i + 1:] for i, a in enumerate(args) for m in _mutations(a)]
            sources = [f"{name}({', '.join(repr(a) for a in v)})" for v in variants]
            fresh = [s for s in dict.fromkeys(sources) if s not in seen and len(s) < 2000]
            seen.update(fresh)
            if fresh and fresh[0] == sources[0]:
                originals.append(fresh.pop(0))
            mutated.append(fresh)
    # Every original call, then mutations taken in turn from each call, up to the cap.
    spread = [s for group in itertools.zip_longest(*mutated) for s in group if s is not None]
    return (originals + spread)[:MAX_PROBES]


def behaviour(code: str, calls: list[str], entry_point: str | None) -> list[str]:
    """What the code returns (its repr) or raises (the exception's type) on each probe call, in the sandbox."""
    if not calls:
        return []
    tests = "\n".join(f"assert ({call}) == {_PROBE!r}" for call in calls) + "\n"
    report = run_tests(code, tests, entry_point=entry_point, limits=PROBE_LIMITS)
    outcomes = []
    for test in report.tests[:len(calls)]:
        if test.op is not None:
            outcomes.append(f"= {test.left}")
        else:
            outcomes.append(f"! {test.error_type or report.status}")
    outcomes += [f"! {report.status}"] * (len(calls) - len(outcomes))
    return outcomes


def signature(outcomes: list[str]) -> str:
    """A short fingerprint of a behaviour; equal behaviours have equal signatures."""
    return hashlib.sha1(json.dumps(outcomes).encode()).hexdigest()[:12] if outcomes else ""
