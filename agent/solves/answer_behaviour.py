"""What a solve's answer does beyond the person's tests: its return value or exception on each probe input the
chooser derives from the visible calls (agent.loop.probes: the calls' arguments mutated to nearby, empty, zero,
negative values and other lengths, and the edge cases a doubt had the model propose from the task's words), the
visible calls themselves left out: those the person's tests check already.

Only the visible tests are read. In the bench's labelled oracle mode a solve runs hidden tests and its prompt shows the
visible ones (``shown_tests``): the probes come from those, and the outcomes the executor stored (probed on the tests
it ran) are not reused there. Elsewhere the outcomes stored with the answer when it was judged are the ones shown, and
the sandbox runs only for an answer stored without them, under the probes' own limits (agent.loop.probes.behaviour).
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.loop.candidates import Candidate, answer_among, candidates, choice
from agent.loop.constant_values import constant
from agent.loop.probes import (
    MARKS,
    PROBE_LIMITS,
    Probe,
    argument_source,
    behaviour,
    probe_calls,
    probes_key,
    solve_probes,
    visible_calls,
)
from agent.loop.state import read_state
from sandbox import STATUSES
from sandbox.locked_parse import parse

# A whole run's status where a probe's outcome would be: what stopped it, in words.
_STOPPED = {"timeout": f"did not finish within {PROBE_LIMITS.timeout_s:g} s", "memory": "ran out of memory",
            "output_limit": "printed more than the sandbox allows", "crashed": "crashed the sandbox's run"}


def _run_status(text: str) -> str | None:
    """The sandbox run's status an outcome names instead of a value or exception: as is (lower-case) for a probe the
    run never reached, title-cased ("Timeout") for the probe it stopped at (sandbox.run.judge); None otherwise."""
    if text in STATUSES:
        return text
    return text.lower() if text.lower() in _STOPPED and text == text.lower().title() else None


def equal_values(a: str, b: str) -> bool:
    """Whether two values' sources (reprs, or what a person typed) are equal values ({'a': 1, 'b': 2} and
    {'b': 2, 'a': 1}, 800 and 800.0), else the same text."""
    try:  # parsed through the sandbox's lock, as every host parse is; read as test values are (a date typed either way)
        (read_a, value_a), (read_b, value_b) = (constant(parse(x.strip(), mode="eval").body) for x in (a, b))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return a.strip() == b.strip()
    return bool(value_a == value_b) if read_a and read_b else a.strip() == b.strip()


def argument_words(after: str, before: str, named: bool = False) -> str:
    """What a call did to an argument, from its source before the call and its repr after: 'leaves it as it was' or
    "changes it to {'a': 2}" (named: "leaves its argument {'a': 5} as it was", "changes its argument {'a': 5} to
    {'a': 2}", for a row read apart from its question)."""
    it = f"its argument {before}" if named else "it"
    return f"leaves {it} as it was" if equal_values(after, before) else f"changes {it} to {after}"


@dataclass(frozen=True)
class BehaviourRow:
    """One input a person did not test, and what the answer did on it."""

    call: str  # "add(0, 2)"
    kind: str  # mutated (like the visible calls' arguments) | outside (beyond what they show: agent.loop.probes)
    outcome: str  # "= 2" (the value's repr), "! ValueError" (an exception's type) or "! timeout" (the run's status)
    # Of an argument read after the call (agent.loop.probes.argument_probes): its place; the value is then what the
    # argument holds after the call. None: the value is the call's result.
    argument: int | None = None

    @property
    def before(self) -> str | None:
        """The source of the argument read after the call, as the call passes it; None for the call's result."""
        return argument_source(self.call, self.argument) if self.argument is not None else None

    @property
    def returned(self) -> str | None:
        """The repr of what the call returned; None when it raised or did not run."""
        return self.outcome[2:] if self.outcome.startswith("=") else None

    @property
    def raised(self) -> str | None:
        """The type of the exception the call raised; None when it returned or the run stopped."""
        if self.outcome.startswith("=") or _run_status(self.outcome[2:]) is not None:
            return None
        return self.outcome[2:]

    @property
    def finished(self) -> bool:
        """Whether the call came to an outcome a test can state: it returned or raised (not a timeout, a crash or an
        earlier input's stop)."""
        return self.returned is not None or self.raised is not None

    def words(self) -> str:
        """'returns 2', 'raises ValueError', 'did not finish within 3 s', or why the call was not run; of an argument
        read after the call, "leaves its argument {'a': 5} as it was" or "changes its argument {'a': 5} to
        {'a': 2}"."""
        if self.returned is not None and self.argument is not None:
            return argument_words(self.returned, self.before or "", named=True)
        if self.returned is not None:
            return f"returns {self.returned}"
        if self.raised is not None:
            return f"raises {self.raised}"
        text = self.outcome[2:]
        status = _run_status(text)
        if text != status:  # the call the run stopped at: the sandbox names its test by the status, title-cased
            return _STOPPED[status]
        if status in _STOPPED:
            return f"not run: the run stopped at an earlier input ({_STOPPED[status]})"
        return "could not be run" + (": the code did not load" if status == "error" else "")

    @property
    def outside(self) -> bool:
        """Beyond what the visible calls show (a negative number where they have none, an empty list, a tuple of
        another length): the task may rule such an input out."""
        return self.kind == "outside"


@dataclass(frozen=True)
class AnswerBehaviour:
    """The answer's behaviour on the inputs a person did not test."""

    answer: int  # the answer's candidate number
    rows: list[BehaviourRow]
    reused: bool  # True: the outcomes stored when the answer was judged; False: run in the sandbox now


def visible_tests(state: dict) -> str:
    """The tests a person can see: the ones the prompt shows when they differ from those run (oracle mode), else
    the tests the solve ran."""
    state = read_state(state)
    return state["shown_tests"] if state["shown_tests"] is not None else state["tests"]


def answer_of(state: dict) -> Candidate | None:
    """The solve's answer: the chooser's pick, else its last candidate (a solve that stopped at one); None before
    any candidate."""
    return answer_among(candidates(state), choice(state))


def _unmarked(outcome: str, kind: str) -> str | None:
    """The outcome without its probe kind's mark, or None when it carries another kind's mark."""
    mark = MARKS[kind]
    if mark:
        return outcome[len(mark):] if outcome.startswith(mark) else None
    return outcome if outcome[:1] in ("=", "!") else None


def _stored_outcomes(answer: Candidate, probes: list[Probe], oracle: bool) -> list[str] | None:
    """The outcomes stored with the answer, unmarked, when they were taken on these very probes; else None."""
    if oracle or len(answer.behaviour) != len(probes) or answer.probed != probes_key(probes):
        return None
    unmarked = [_unmarked(outcome, probe.kind) for outcome, probe in zip(answer.behaviour, probes)]
    return None if any(o is None for o in unmarked) else unmarked


def behaviour_rows(probes: list[Probe], outcomes: list[str], tested: set[str] = frozenset()) -> list[BehaviourRow]:
    """The table's rows from probes and their unmarked outcomes, in order, the visible calls' results left out: the
    original probes, and tested, the visible calls a mutation of another one happened to equal (agent.loop.probes).
    What a visible call leaves in an argument it is given is a row: no test of the result shows it."""
    return [BehaviourRow(p.call, p.kind, o, p.argument) for p, o in zip(probes, outcomes)
            if p.kind != "original" and (p.call not in tested or p.argument is not None)]


def answer_behaviour(state: dict) -> AnswerBehaviour | None:
    """What the answer of a solve (a checkpoint's state) does on the inputs its visible tests do not try; None when
    the solve has no answer whose code ran. Runs the sandbox only for outcomes not stored with the answer."""
    state = read_state(state)
    answer = answer_of(state)
    if answer is None or not answer.ran or answer.extract_error or not answer.code:
        return None
    visible, entry_point = visible_tests(state), state["entry_point"]
    oracle = state["shown_tests"] is not None
    probes = probe_calls(visible, entry_point) if oracle else solve_probes(state)
    tested = visible_calls(visible, entry_point)
    stored = _stored_outcomes(answer, probes, oracle=oracle)
    if stored is not None:
        return AnswerBehaviour(answer.number, behaviour_rows(probes, stored, tested), reused=True)
    untested = [p for p in probes if p.kind != "original" and (p.call not in tested or p.argument is not None)]
    if not untested:
        return AnswerBehaviour(answer.number, [], reused=False)
    outcomes = [_unmarked(o, p.kind) or o for o, p in zip(behaviour(answer.code, untested, entry_point), untested)]
    return AnswerBehaviour(answer.number, behaviour_rows(untested, outcomes), reused=False)
