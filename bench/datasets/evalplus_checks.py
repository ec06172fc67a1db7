"""EvalPlus's rules (evalplus/eval/__init__.py, evalplus/config.py) as a program the sandbox runs: each HumanEval+
or MBPP+ task's hidden tests written as one check(candidate), and the time limits they run under.

- an output equal to the expected one passes; otherwise, where the task has an ``atol`` or the expected output is
  a float or a non-empty list or tuple of floats (then atol is 1e-6), an output of the same type (and length)
  passes when numpy's ``allclose(out, exp, rtol=1e-07, atol=atol)`` holds;
- HumanEval/32 (find_zero) passes when ``|poly(xs, x)| <= atol`` at the returned x (any root will do). The
  release's OriginFmt check for it is broken (it calls ``_poly(*x, xs)`` with the arguments swapped and no abs):
  the canonical solution fails it, so its check is written here from EvalPlus's own oracle;
- each call has a time limit, ``max(4 s, 4 x T)`` with T the canonical solution's slowest input of the task
  (EvalPlus uses each input's own T; the slowest one is never stricter), timed in-process as EvalPlus times it and
  stored in ``tasks.json`` (bench/data/make_humanevalplus.py); a call past it fails the candidate at once, as a
  timeout. The whole sandbox run has EvalPlus's budget for its two test sets, ``min(60 s, inputs x the call
  limit) + 1 s`` each, plus the time the canonical solution takes in our sandbox (starting processes, the test
  process's own work), also measured into ``tasks.json``.

A HumanEval+ check is made here from the OriginFmt one: its inputs, its expected outputs (or, for six tasks
whose outputs are too large to write out, its ``ref_func``), EvalPlus's comparison in place of the release's
``assertion`` helper (which lacks the type and length checks), and ``check(candidate)`` calling the candidate
once per input, under the call limit.

An MBPP+ check (mbpp_hidden_test) is made from MbppPlus.jsonl's inputs as EvalPlus reads them and the expected
outputs of its canonical solution (bench/data/make_mbppplus.py), judged as EvalPlus's evaluator judges MBPP:
- its base and its plus inputs are two test sets, checked in that order; in each, once an expected output is a
  float, atol stays 1e-6 for the rest of that set (EvalPlus's loop keeps the value it set);
- its special oracles (evalplus/eval/_special_oracle.py): the outputs of eight tasks compared as sets, three
  tasks whose output only has to be None or not (a ``re.Match`` is not data to compare), and two tasks where a
  second reading of the task is right too (``surface_Area``, ``digit_distance_nums``);
- the function is called by its name, as EvalPlus takes it from the program's globals.
"""

from __future__ import annotations

import ast
import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from bench.datasets.task import TIME_LIMIT_ERROR
from sandbox.locked_parse import parse

# EvalPlus's time rules (evalplus/config.py, evalplus/eval/__init__.py untrusted_check): a call gets
# max(MIN_TIME_LIMIT_S, GT_TIME_LIMIT_FACTOR x the ground truth's time); a test set min(SET_TIME_CAP_S, its calls'
# limits) + 1 s. (evalplus 0.3.1 had a minimum of 1 s; 4 s since.)
MIN_TIME_LIMIT_S = 4.0
GT_TIME_LIMIT_FACTOR = 4.0
SET_TIME_CAP_S = 60.0
FIND_ZERO = "HumanEval/32"

# Run before each task's check: the per-call time limit and EvalPlus's comparison of an output with the expected one
# (its is_floats and unsafe_execute), under names no candidate is likely to define (a plain scorer runs the program
# and the check in one file). A call past the limit raises TIME_LIMIT_ERROR, which the protocol counts as a timeout
# (bench.protocol.hidden).
_PRELUDE = f'''\
import signal

import numpy as np


class {TIME_LIMIT_ERROR}(Exception):
    pass


def _evalplus_on_alarm(signum, frame):
    raise {TIME_LIMIT_ERROR}(f"EvalPlus time limit: a call ran over {{_EVALPLUS_CALL_LIMIT_S}} s")


def _evalplus_call(candidate, inp):
    signal.signal(signal.SIGALRM, _evalplus_on_alarm)
    signal.setitimer(signal.ITIMER_REAL, _EVALPLUS_CALL_LIMIT_S)
    try:
        return candidate(*inp)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _evalplus_is_floats(x) -> bool:
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(i, float) for i in x)
    if isinstance(x, np.ndarray):
        return x.dtype == np.float64 or x.dtype == np.float32
    return False


def _evalplus_assert_output(out, exp, atol, exact_match=None):
    # exact_match: a special oracle's verdict; None for EvalPlus's own, out == exp. Returns the atol in force after
    # this output (EvalPlus's loop keeps the 1e-6 it set for a float for the rest of the test set).
    if exact_match is None:
        exact_match = out == exp
        oracle = False
    else:
        oracle = True
    if atol == 0 and _evalplus_is_floats(exp):
        atol = 1e-6
    if not exact_match and atol != 0:
        assert type(out) == type(exp)
        if isinstance(exp, (list, tuple)):
            assert len(out) == len(exp)
        assert np.allclose(out, exp, rtol=1e-07, atol=atol)
    elif oracle:
        assert exact_match, f"EvalPlus's oracle for this task rejects {{out!r:.300}} (expected {{exp!r:.300}})"
    else:
        assert out == exp  # EvalPlus asserts exact_match; the same test, written so a failure shows both values
    return atol
'''
# The release's own helpers, replaced by _PRELUDE's.
_REPLACED = {"is_floats", "assertion"}


class EvalPlusError(ValueError):
    """The vendored HumanEval+ or MBPP+ data is missing or not as expected, or the sandbox cannot run its tests."""


def read_release(path: Path) -> list[dict]:
    """The records of a vendored EvalPlus file (gzipped JSONL), in order; EvalPlusError when it cannot be read."""
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except OSError as exc:
        raise EvalPlusError(f"cannot read EvalPlus data {path}: {exc}") from None
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def read_tasks_info(path: Path) -> dict[str, dict]:
    """task_id -> what our tasks.json of a vendored EvalPlus dataset records of it (atol, input counts, the
    canonical solution's times); EvalPlusError when it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["tasks"]
    except (OSError, ValueError, KeyError) as exc:
        raise EvalPlusError(f"cannot read {path}: {exc}") from None


def call_limit(info: dict) -> float:
    """A task's limit on each call: max(4 s, 4 x the canonical solution's slowest input), EvalPlus's rule."""
    return round(max(MIN_TIME_LIMIT_S, GT_TIME_LIMIT_FACTOR * info["slowest_call_seconds"]), 1)


def run_limit(info: dict) -> float:
    """A task's limit on one sandbox run of all its inputs: EvalPlus's budget for its base and its plus test sets,
    min(60 s, inputs x the call limit) + 1 s each, plus the canonical solution's time in our sandbox (processes,
    the test process's own work: EvalPlus's budget is for the candidate alone)."""
    budget = sum(min(SET_TIME_CAP_S, info[inputs] * call_limit(info)) + 1 for inputs in ("base_inputs", "plus_inputs"))
    return round(budget + info["canonical_seconds"], 1)


def _parts(test: str) -> tuple[list[str], dict[str, str]]:
    """The release's check source cut in two: the definitions to keep (imports, ref_func, _poly; not its
    comparison helpers), and the check's assignments by name (inputs, results). The check's body is read line by
    line (each assignment is one line, however long): parsing its literals would take seconds for 164 tasks."""
    head, sep, check = test.partition("def check(candidate):\n")
    if not sep:
        raise EvalPlusError("a HumanEval+ test without def check(candidate)")
    lines = head.splitlines()
    kept = []
    for node in parse(head).body:
        if isinstance(node, ast.FunctionDef) and node.name in _REPLACED:
            continue
        if isinstance(node, ast.Import) and [alias.name for alias in node.names] == ["numpy"]:
            continue  # _PRELUDE imports it
        kept.append("\n".join(lines[node.lineno - 1:node.end_lineno]))
    assigned = {}
    for line in check.splitlines():
        name, sep, _ = line.strip().partition(" = ")
        if sep and line.startswith("    ") and name.isidentifier():
            assigned[name] = line.strip()
    return kept, assigned


def hidden_test(record: dict, info: dict) -> str:
    """A task's HumanEval+ hidden tests as a check(candidate): the release's inputs and expected outputs (or its
    ref_func), judged by EvalPlus's rules under the task's call limit (the module docstring). info: the task's
    tasks.json entry."""
    kept, assigned = _parts(record["test"])
    if "inputs" not in assigned:
        raise EvalPlusError(f"{record['task_id']}: its check assigns no inputs")
    atol = info["atol"]
    body = ["def check(candidate):", f"    {assigned['inputs']}"]
    if record["task_id"] == FIND_ZERO:
        # EvalPlus's special oracle: any x where the polynomial is within atol of zero (xs is the only input).
        body += ["    for inp in inputs:", "        out = _evalplus_call(candidate, inp)",
                 f"        assert abs(_poly(*inp, out)) <= {atol!r}"]
    elif "results" in assigned:
        body += [f"    {assigned['results']}", "    for inp, exp in zip(inputs, results):",
                 f"        _evalplus_assert_output(_evalplus_call(candidate, inp), exp, {atol!r})"]
    elif any(part.startswith("def ref_func") for part in kept):
        # The expected output computed by the release's reference function, before the candidate sees the input.
        body += ["    for inp in inputs:", "        exp = ref_func(*inp)",
                 f"        _evalplus_assert_output(_evalplus_call(candidate, inp), exp, {atol!r})"]
    else:
        raise EvalPlusError(f"{record['task_id']}: its check has neither results nor a ref_func")
    prelude = _PRELUDE + f"\n\n_EVALPLUS_CALL_LIMIT_S = {call_limit(info)!r}\n"
    return "\n\n".join([prelude, *kept, "\n".join(body)]) + "\n"


# EvalPlus's special oracles for MBPP+ (evalplus/eval/_special_oracle.py and its unsafe_execute), by entry point:
# whether an output passes before its comparison with floats, written over out, exp, inp and atol.
_SET_EQUAL = "set(out) == set(exp)"
_NOT_NONE = "out == exp if isinstance(out, bool) else exp == (out is not None)"
MBPP_ORACLES = {
    **dict.fromkeys(("similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly", "larg_nnum",
                     "intersection_array", "find_dissimilar", "Diff"), _SET_EQUAL),
    # The expected output of these is whether the canonical solution returned something (a re.Match) or None.
    **dict.fromkeys(("check_str", "text_match_three", "text_starta_endb"), _NOT_NONE),
    "surface_Area": "out == exp or abs(out - _evalplus_surface_area(*inp)) <= atol",
    "digit_distance_nums": "out == exp or out == _evalplus_digit_distance_nums(*inp)",
}
MBPP_OUTPUT_NOT_NONE = tuple(name for name, oracle in MBPP_ORACLES.items() if oracle == _NOT_NONE)
# The second readings two oracles accept (EvalPlus's _surface_Area and _digit_distance_nums), for the checks that
# use them.
_ORACLE_HELPERS = {
    "surface_Area": '''
import math


def _evalplus_surface_area(base_edge, height):
    # "height" read as the perpendicular distance from the base to the apex
    slant_height = math.sqrt((base_edge / 2) ** 2 + height**2)
    base_area = base_edge**2
    lateral_area = 4 * (base_edge * slant_height) / 2
    total_surface_area = base_area + lateral_area
    return round(total_surface_area)
''',
    "digit_distance_nums": '''
def _evalplus_digit_distance_nums(num1, num2):
    # the two numbers padded with zeros to the same length
    str_num1, str_num2 = str(num1), str(num2)
    max_length = max(len(str_num1), len(str_num2))
    str_num1, str_num2 = str_num1.zfill(max_length), str_num2.zfill(max_length)
    total_difference = 0
    for digit1, digit2 in zip(str_num1, str_num2):
        difference = abs(int(digit1) - int(digit2))
        total_difference += difference
    return total_difference
''',
}
# Names the written inputs and outputs use (repr of inf, nan and a Counter; bench/data/make_mbppplus.py checks that
# every one reads back as the value it was written from).
LITERAL_NAMES = "from collections import Counter\nfrom math import inf, nan\n"


@dataclass(frozen=True)
class MbppCheck:
    """What an MBPP+ task's check is made of: its entry point and atol, its base and plus inputs as Python literals,
    and either the expected outputs as literals or the canonical program that computes them (for outputs too large
    to write out)."""

    entry_point: str
    atol: float
    base_inputs: str
    plus_inputs: str
    base_results: str | None
    plus_results: str | None
    canonical: str | None = None


def mbpp_hidden_test(check: MbppCheck, info: dict) -> str:
    """An MBPP+ task's hidden tests as a check(candidate) (the module docstring): its base set, then its plus set,
    each input's output compared by EvalPlus's rules under the task's call limit. info: the task's tasks.json entry."""
    oracle = MBPP_ORACLES.get(check.entry_point)
    compare = f"_evalplus_assert_output(out, exp, atol{', ' + oracle if oracle else ''})"
    parts = [_PRELUDE + f"\n\n_EVALPLUS_CALL_LIMIT_S = {call_limit(info)!r}\n", LITERAL_NAMES]
    if check.entry_point in _ORACLE_HELPERS:
        parts.append(_ORACLE_HELPERS[check.entry_point])
    body = ["def check(candidate):", f"    base_inputs = {check.base_inputs}", f"    plus_inputs = {check.plus_inputs}"]
    if check.canonical is None:
        body += [f"    base_results = {check.base_results}", f"    plus_results = {check.plus_results}",
                 "    for inputs, results in ((base_inputs, base_results), (plus_inputs, plus_results)):",
                 f"        atol = {check.atol!r}  # each set starts from the task's own",
                 "        for inp, exp in zip(inputs, results):"]
    else:
        # As EvalPlus computes its ground truth: the canonical solution on a copy of each input, before the
        # candidate sees it.
        parts.append(f"import copy\n\n_evalplus_reference = {{}}\nexec({check.canonical!r}, _evalplus_reference)\n")
        expected = f"_evalplus_reference[{check.entry_point!r}](*copy.deepcopy(inp))"
        if check.entry_point in MBPP_OUTPUT_NOT_NONE:
            expected = f"{expected} is not None"
        body += ["    for inputs in (base_inputs, plus_inputs):",
                 f"        atol = {check.atol!r}  # each set starts from the task's own",
                 "        for inp in inputs:", f"            exp = {expected}"]
    body += ["            out = _evalplus_call(candidate, inp)", f"            atol = {compare}"]
    return "\n\n".join([*parts, "\n".join(body)]) + "\n"
