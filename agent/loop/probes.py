"""Behaviour of a candidate on probe inputs: the visible tests' own calls, inputs mutated from them, and, after a
doubted pass, the edge cases the model proposed from the task's words (agent.loop.proposed_inputs).

Two candidates that return the same values on every probe behave alike; the chooser groups candidates
by their behaviour (AlphaCode's clustering, MBR-exec). A mutated input that leaves the contract the visible
calls imply (a negative number where every example is non-negative, an empty list where none is empty) is
marked as outside it: right candidates may differ or raise there, so the chooser weighs it last. Only the
visible tests are read, and no expected output is needed: a probe asks what the code returns, never whether
that is right.
"""

from __future__ import annotations

import ast
import datetime
import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from agent.loop.asserted_calls import CALL_MARK, observed_calls
from agent.loop.constant_values import SPELLINGS, calendar_spellings, constant
from agent.loop.state import read_state
from agent.loop.task_words import StatedContract, stated_contract
from sandbox import Limits, run_tests
from sandbox.locked_parse import parse

MAX_PROBES = 16
MAX_CALL_CHARS = 2000  # the longest probe (a call as the visible check reads it) the sandbox is given
MAX_DOUBT_INPUTS = 24  # the inputs a doubt adds (proposed, then agent.loop.edge_inputs), probed beyond MAX_PROBES
# A doubted solve's probes (those given the task's stated contract) keep more of the mutations, beyond its inputs:
# with two visible calls of two arguments, MAX_PROBES cut every mutation of the second argument after the first two
# (k=0 of moving_average(xs, k) on held-out set D, where a right candidate and the chosen wrong one differed).
MAX_DOUBT_PROBES = 32
# A doubted solve whose task speaks of changing what it is given ("never modify stock") also reads, after each visible
# call, the list or dict arguments it passed (argument_probes): an answer that changes the dict it is given passes a
# test that reads only the result. (Where the task is silent, which answers change it is no question worth a person's
# time, and a right answer that sorts in place would be dropped for it.)
MAX_ARGUMENT_PROBES = 4
PROBE_LIMITS = Limits(timeout_s=3)
_PROBE = "__probe_value__"  # a value no candidate returns, so every probe assert fails and reports its left side
_AFTER = "__probe_argument_after__"  # the tests' helper that calls the function and gives back one of its arguments
# Defined in the probe run's tests only when an argument is read: an exception the call raises is no outcome here (the
# argument is read after it all the same), as a visible call's own value is the value probe's.
_AFTER_DEFINITION = (f"def {_AFTER}(place, function, *args, **kwargs):\n"
                     "    try:\n        function(*args, **kwargs)\n    except Exception:\n        pass\n"
                     "    return args[place]\n")


def mutations(value: object) -> list[object]:
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
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return calendar_mutations(value)
    return []


def calendar_mutations(value: datetime.date | datetime.time | datetime.timedelta) -> list[object]:
    """A day either side of a date (a boundary a count includes or not), the last day of its year and February 29 of
    its year or the next leap year; a datetime's day either side, its midnight and its last minute; a time's first
    and last minute and noon; a timedelta's zero and its negation: where code that forgets the calendar's rules
    differs."""
    day = datetime.timedelta(days=1)
    if isinstance(value, datetime.datetime):
        midnight = value.replace(hour=0, minute=0, second=0, microsecond=0)
        made = [lambda: value + day, lambda: value - day, lambda: midnight,
                lambda: midnight.replace(hour=23, minute=59)]
    elif isinstance(value, datetime.date):
        made = [lambda: value + day, lambda: value - day, lambda: value.replace(month=12, day=31),
                lambda: datetime.date(next(y for y in range(value.year, value.year + 8)
                                           if y % 4 == 0 and (y % 100 or y % 400 == 0)), 2, 29)]
    elif isinstance(value, datetime.time):
        made = [lambda: datetime.time(0, 0), lambda: datetime.time(12, 0), lambda: datetime.time(23, 59)]
    else:
        made = [lambda: datetime.timedelta(0), lambda: -value]
    found: list[object] = []
    for make in made:
        try:
            found.append(make())
        except (OverflowError, ValueError, StopIteration):  # past the calendar's first or last day
            continue
    return [v for v in dict.fromkeys(found) if v != value]


@dataclass(frozen=True)
class Probe:
    """One probe call and where it stands: a visible test's own call, or a mutated input inside or outside the
    contract the visible calls imply (see within_contract)."""

    call: str
    kind: str  # original | mutated | outside
    # The place of a list or dict argument whose value after the call is the outcome (argument_probes), or None:
    # the call's result is.
    argument: int | None = None

    @property
    def key(self) -> str:
        """What tells the probe apart: its call, and the argument read after it if any (a question is never put on
        the same one twice)."""
        return self.call if self.argument is None else f"{self.call} [argument {self.argument + 1}]"


# How a probe's outcome is marked in a behaviour, so that the chooser can tell the kinds apart (agent.loop.choice).
MARKS = {"original": "", "mutated": "~", "outside": "?"}


def _same_kind(value: object, seen: list[object]) -> bool:
    """Whether an added input's argument has a type some visible call's argument there has (an int where a float is
    seen, or the reverse, counts): a number where every example passes text is no input of the task's."""
    numbers = (int, float)
    return any(type(v) is type(value) or (type(v) in numbers and type(value) in numbers) for v in seen)


def within_contract(value: object, seen: list[object], stated: StatedContract | None = None,
                    place: int = -1) -> bool:
    """Whether a mutated argument keeps to what every visible call's argument at that place shows: its type, its sign
    (no negative number where the examples have none, nor in a list), a non-empty string, list or dict where every
    example is non-empty, a tuple's length, a dict's key and value types. Inputs outside it may be ones the task rules
    out (a negative N where the docstring says 0 <= N), where right candidates may differ or raise. What the task states
    in words (agent.loop.task_words.stated_contract; a doubted solve's) settles what the examples leave open: empty or
    negative inputs it speaks of are inside (an empty text where it decides a text without letters), a number beyond the
    bounds it gives the parameter at this place is not, nor a string, list or dict shorter than the least length it
    gives (unless an example's is too: then the words were misread); a number with a fraction where the examples pass
    whole ones is inside when the task speaks of part of a unit the parameter at this place measures in ("each kilogram
    or part of a kilogram"), or calls that parameter a float ("`bill` ... (int or float)")."""
    doubted, stated = stated is not None, stated or StatedContract()
    part = place in stated.parts and type(value) is float and math.isfinite(value) and all(
        type(v) is int for v in seen)
    # Examples that pass 3 and 3.2 at one place take both kinds of number (a question's answer adds 3.2 beside the
    # person's 3); read so in a doubted solve, where every probe would otherwise be outside.
    numbers = doubted and type(value) in {type(v) for v in seen} and all(type(v) in (int, float) for v in seen)
    if not seen or (any(type(v) is not type(value) for v in seen) and not part and not numbers):
        return False
    if isinstance(value, datetime.timedelta):  # a span's sign, as a number's
        return value >= datetime.timedelta(0) or stated.negative or any(v < datetime.timedelta(0) for v in seen)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        bound = stated.bounds.get(place)
        if bound and all(bound[0] <= v <= bound[1] for v in seen):
            return bound[0] <= value <= bound[1]
        return value >= 0 or stated.negative or any(v < 0 for v in seen)
    least = stated.least_lengths.get(place)
    if isinstance(value, (str, list, tuple, dict)) and least and all(len(v) >= least for v in seen) and (
            len(value) < least):
        return False
    if isinstance(value, (str, list, tuple, dict)) and not value and all(len(v) for v in seen):
        return stated.empty or bool(stated.unlettered and isinstance(value, str) and any(lettered(v) for v in seen))
    if isinstance(value, (list, tuple)) and not stated.negative and _negatives(value) and not any(
            _negatives(v) for v in seen):
        return False  # a negative element where no example list holds one, and the task speaks of none
    if isinstance(value, dict):
        if not stated.negative and _dict_negatives(value) and not any(_dict_negatives(v) for v in seen):
            return False  # a negative count or score where no example dict holds one, as in a list
        # A key or value of a type no example's dict has (an int where every value is text) may be one the task
        # rules out, as a number where every example passes text is.
        keys, values = [k for v in seen for k in v], [x for v in seen for x in v.values()]
        return all(_same_kind(k, keys) for k in value) and all(_same_kind(x, values) for x in value.values())
    return not isinstance(value, tuple) or len(value) in {len(v) for v in seen}


def lettered(value: object) -> bool:
    """Whether value is a text with a letter or a digit in it (not a separator, a mark, or empty)."""
    return isinstance(value, str) and re.search(r"[^\W_]", value) is not None


def _negatives(items: Sequence) -> bool:
    return any(isinstance(x, (int, float)) and not isinstance(x, bool) and x < 0 for x in items)


def _dict_negatives(value: dict) -> bool:
    """Whether a dict holds a negative number as a value or in a list value."""
    return _negatives(list(value.values())) or any(
        _negatives(v) for v in value.values() if isinstance(v, (list, tuple)))


class VisibleCall(NamedTuple):
    """A call of the function in a visible test's check: its name, its literal positional arguments, how the check
    reads the result (``set(CALL_MARK)`` where the test compares set(f(x)), CALL_MARK where it compares f(x)), and
    its literal keyword arguments (``top_words(text, n=2)``: what a keyword means is the task's, so a keyword stays a
    keyword in every probe and edge made from the call)."""

    name: str
    args: list
    observer: str
    keywords: dict


def literal_calls(tests: str, entry_point: str | None) -> list[VisibleCall]:
    """Each call of the function in the visible tests' checks whose arguments are literals, or values built from
    them (agent.loop.constant_values: ``list(range(1, 26))``)."""
    calls: list[VisibleCall] = []
    try:
        spellings = calendar_spellings(parse(tests))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        spellings = SPELLINGS
    for call, observer in observed_calls(tests, {entry_point, "candidate"} if entry_point else None):
        found = literal_call(call, call.func.id, spellings)
        if found is not None:
            calls.append(VisibleCall(entry_point or call.func.id, found[0], observer, found[1]))
    return calls


def argument_places(calls: list[VisibleCall]) -> dict[tuple[str, int, int | str], list[object]]:
    """What the visible calls (literal_calls) show at each argument place, by (function name, number of positional
    arguments, place or keyword): the contract a mutated input keeps to (within_contract)."""
    seen: dict[tuple[str, int, int | str], list[object]] = {}
    for name, args, _, keywords in calls:
        for place, a in [*enumerate(args), *keywords.items()]:
            seen.setdefault((name, len(args), place), []).append(a)
    return seen


def each_changed(call: VisibleCall, change: Callable[[object], list]) -> list[tuple[list, dict, int | str, object]]:
    """The call with one argument moved to each value change(argument) gives, positional ones first: (positional
    arguments, keyword arguments, the changed argument's place or keyword, its new value)."""
    found = [(call.args[:i] + [v] + call.args[i + 1:], call.keywords, i, v)
             for i, a in enumerate(call.args) for v in change(a)]
    return found + [(call.args, {**call.keywords, k: v}, k, v) for k, a in call.keywords.items() for v in change(a)]


def keeps_contract(value: object, call: VisibleCall, place: int | str, seen: Mapping,
                   stated: StatedContract | None) -> bool:
    """Whether value at place (an index or a keyword) of a call like this one keeps to the contract
    (within_contract); what the task states of a parameter is read by place, so a keyword's is read as unstated."""
    return within_contract(value, seen[(call.name, len(call.args), place)], stated,
                           place if isinstance(place, int) else -1)


def _source(name: str, args: list, observer: str = CALL_MARK, keywords: Mapping[str, object] | None = None) -> str:
    written = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in (keywords or {}).items()]
    return observer.replace(CALL_MARK, f"{name}({', '.join(written)})")


def bare_call(name: str, args: list, keywords: Mapping[str, object] | None = None) -> str:
    """A call of the function with these arguments (positional, then keyword), as source: how a proposed input is
    stored (call_arguments)."""
    return _source(name, args, keywords=keywords)


def call_arguments(call: str, entry_point: str | None) -> tuple[list, dict] | None:
    """The literal positional and keyword arguments of a call of the entry point written as source
    ("f(1, 'a', strict=True)"); None for anything else."""
    try:
        node = parse(call, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return literal_call(node, entry_point)


def literal_call(node: ast.AST, entry_point: str | None,
                 spellings: Mapping[str, type] = SPELLINGS) -> tuple[list, dict] | None:
    """The literal positional and keyword arguments of a call node of the entry point (values built from literals
    too: agent.loop.constant_values, the calendar's types named as spellings has them); None for any other node, or
    one that unpacks (*args, **kwargs)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == entry_point):
        return None
    if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    values = [constant(a, spellings) for a in node.args]
    keywords = {k.arg: constant(k.value, spellings) for k in node.keywords}
    if not all(ok for ok, _ in [*values, *keywords.values()]):
        return None
    return [v for _, v in values], {k: v for k, (_, v) in keywords.items()}


def visible_calls(tests: str, entry_point: str | None) -> set[str]:
    """The visible tests' own calls, written as probe_calls writes a call. A mutation of one call can equal another
    visible call (add(1, 2) less one is add(0, 2)); probe_calls then keeps it as a mutated probe."""
    return {_source(*call) for call in literal_calls(tests, entry_point)}


def probe_calls(tests: str, entry_point: str | None, added: Sequence[str] = (),
                stated: StatedContract | None = None) -> list[Probe]:
    """The calls to probe: each call of the function in the visible tests, then the inputs a doubt added (calls of
    the entry point, as bare_call writes them: edge cases the model proposed from the task's words and those of
    agent.loop.edge_inputs) that take as many arguments as a visible call, then mutated ones, each marked by the
    contract (within_contract; with what the task states, when given: a doubted solve's, which keeps up to
    MAX_DOUBT_PROBES of them rather than MAX_PROBES). A probe reads the result as its visible call's check does
    (``sorted(f(x))`` where the test sorts)."""
    calls = literal_calls(tests, entry_point)
    seen = argument_places(calls)
    originals, mutated, done = [], [], set()  # mutated: one list per call
    inputs = set()  # the mutated calls' inputs: one input read through two observers is probed once, as first read
    for call in calls:
        source = _source(call.name, call.args, call.observer, call.keywords)
        if source not in done and len(source) < MAX_CALL_CHARS:
            done.add(source)
            originals.append(Probe(source, "original"))
        variants = []
        for args, keywords, place, m in each_changed(call, mutations):
            probed = _source(call.name, args, call.observer, keywords)
            bare = _source(call.name, args, keywords=keywords)
            if probed not in done and bare not in inputs and len(probed) < MAX_CALL_CHARS:
                done.add(probed)
                inputs.add(bare)
                variants.append(Probe(probed, "mutated" if keeps_contract(m, call, place, seen, stated) else "outside"))
        mutated.append(variants)
    # Every original call, then mutations taken in turn from each call, up to the cap.
    spread = [p for group in itertools.zip_longest(*mutated) for p in group if p is not None]
    # A doubt's inputs go before the mutations and beyond their cap: they aim at what tasks state, mutations at what
    # is near the examples. Each is read as the first visible call of its arity reads its result.
    observers = {(name, len(args)): observer for name, args, observer, _ in reversed(calls)}
    tried = {p.call for p in originals} | {_source(name, args, keywords=keywords) for name, args, _, keywords in calls}
    chosen: list[Probe] = []
    for text in added[:MAX_DOUBT_INPUTS]:
        parsed = call_arguments(text, entry_point)
        if parsed is None:
            continue
        # Keyword arguments name a parameter the task states (its signature, or the model's reading of its words);
        # the positional ones must fit a visible call (or leave out what has a default), and they alone say whether
        # the call keeps to the contract.
        args, keywords = parsed
        arity = _arity(len(args), [n for name, n in observers if name == entry_point], stated)
        if arity is None or not all(_same_kind(a, seen[(entry_point, arity, i)]) for i, a in enumerate(args)):
            continue
        call = _source(entry_point, args, observers[(entry_point, arity)], keywords)
        bare = bare_call(entry_point, args, keywords)
        if call in tried or bare in tried or len(call) >= MAX_CALL_CHARS:
            continue
        tried |= {call, bare}
        inside = all(within_contract(a, seen[(entry_point, arity, i)], stated, i) for i, a in enumerate(args))
        chosen.append(Probe(call, "mutated" if inside else "outside"))
    spread = [p for p in spread if p.call not in {q.call for q in chosen}]
    kept = argument_probes(calls) if stated is not None and stated.changes else []
    cap = (MAX_PROBES if stated is None else MAX_DOUBT_PROBES) + len(chosen) + len(kept)
    return (originals + chosen + kept + spread)[:cap]


def argument_probes(calls: list[VisibleCall]) -> list[Probe]:
    """For each visible call (literal_calls) and each list or dict it passes, a probe that reads that argument after
    the call, up to MAX_ARGUMENT_PROBES: where an answer that changes what it is given and one that leaves it alone
    differ, which no test of the result alone shows. Inside the contract: it is the person's own input. (A set is
    left out: its repr's order of strings changes from one process to the next.)"""
    found: list[Probe] = []
    for name, args, _, keywords in calls:
        for place, value in enumerate(args):
            probe = Probe(_source(name, args, keywords=keywords), "mutated", place)
            if isinstance(value, (list, dict)) and probe not in found and len(probe.call) < MAX_CALL_CHARS:
                found.append(probe)
    return found[:MAX_ARGUMENT_PROBES]


def argument_source(call: str, place: int) -> str | None:
    """The source of the call's argument at place ("{'a': 1}" of "f({'a': 1}, 2)" at 0); None when there is none."""
    try:
        node = parse(call, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call) or not 0 <= place < len(node.args):
        return None
    return ast.unparse(node.args[place])


def _arity(given: int, visible: list[int], stated: StatedContract | None) -> int | None:
    """The number of arguments of the visible calls an added call of given positional arguments is read beside: its
    own, or, when the task's signature gives the rest defaults, the fewest of a visible call that passes more (its
    places and its check); None when it fits none."""
    if given in visible:
        return given
    longer = [n for n in visible if n > given]
    optional = stated.optional_from if stated else None
    return min(longer) if longer and optional is not None and optional <= given else None


def doubt_inputs(doubt: Mapping | None) -> list[str]:
    """The inputs a doubt record adds to the probes: the model's proposals, then the edge inputs."""
    doubt = doubt or {}
    return list(doubt.get("proposed") or []) + list(doubt.get("edges") or [])


def solve_probes(state: Mapping) -> list[Probe]:
    """The probes of a solve (a checkpoint's state): its tests' probes with the inputs its doubt added, marked by the
    contract its task states too once it was doubted (a solve nobody doubts is probed as it always was)."""
    state = read_state(state)
    stated = stated_contract(state["task"], state["entry_point"]) if state["doubt"] is not None else None
    return probe_calls(state["tests"], state["entry_point"], doubt_inputs(state["doubt"]), stated)


def behaviour(code: str, probes: list[Probe], entry_point: str | None) -> list[str]:
    """What the code returns (its repr, "= ...") or raises (the exception's type, "! ...") on each probe, in the
    sandbox, each outcome marked with its probe's kind (MARKS)."""
    if not probes:
        return []
    helper = _AFTER_DEFINITION if any(p.argument is not None for p in probes) else ""
    if any("datetime." in p.call for p in probes):
        helper = "import datetime\n" + helper  # a probe writes a date as its repr: datetime.date(2024, 3, 4)
    tests = helper + "\n".join(f"assert ({_observed(probe)}) == {_PROBE!r}" for probe in probes) + "\n"
    report = run_tests(code, tests, entry_point=entry_point, limits=PROBE_LIMITS)
    outcomes = []
    for test in report.tests[:len(probes)]:
        if test.op is not None:
            outcomes.append(f"= {test.left}")
        else:
            outcomes.append(f"! {test.error_type or report.status}")
    outcomes += [f"! {report.status}"] * (len(probes) - len(outcomes))
    return [MARKS[probe.kind] + outcome for probe, outcome in zip(probes, outcomes)]


def _observed(probe: Probe) -> str:
    """The expression a probe's assert reads: its call, or the helper that makes the call and gives back the argument
    read after it (f(x, y) becomes __probe_argument_after__(0, f, x, y))."""
    if probe.argument is None:
        return probe.call
    name, rest = probe.call.split("(", 1)
    return f"{_AFTER}({probe.argument}, {name}, {rest}"


def probes_key(probes: list[Probe]) -> str:
    """A short fingerprint of which probes a behaviour was taken on: stored with it, so that outcomes stored by an
    earlier version, whose probes read the result otherwise (agent.loop.asserted_calls), are never read as these."""
    # A probe that reads an argument adds its place; the others are keyed as before, so stored behaviours still match.
    keyed = [[p.call, p.kind] + ([p.argument] if p.argument is not None else []) for p in probes]
    return hashlib.sha1(json.dumps(keyed).encode()).hexdigest()[:12] if probes else ""


def signature(outcomes: list[str]) -> str:
    """A short fingerprint of a behaviour; equal behaviours have equal signatures."""
    return hashlib.sha1(json.dumps(outcomes).encode()).hexdigest()[:12] if outcomes else ""
