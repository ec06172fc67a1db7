"""A simulated person who answers a solve's questions from a reference solution, as TiCoder's does: the reference
runs in the sandbox on the question's input only, and its outcome is the choice that gives the same (else typed as
the right result; skipped when the reference itself did not finish). The same person can read a finished answer's
behaviour table and name its first wrong row (read_table), the reference run on the rows' inputs only. For the bench's
labelled interactive protocol: the reference reaches nothing but these answers, never a prompt or the chooser."""

from __future__ import annotations

from dataclasses import dataclass

from agent.loop.probes import MARKS, Probe, behaviour
from agent.loop.questions import Question, Reply, same_outcome, writable
from agent.solves.answer_behaviour import BehaviourRow
from agent.solves.asking import Person


def reference_reply(reference: str, entry_point: str | None, question: Question) -> Reply:
    """What a person who knows the reference would answer: the option giving the reference's outcome on the
    question's input, else that outcome typed, else (the reference did not run to an outcome) a skip."""
    kind = "outside" if question.outside else "mutated"
    outcome = behaviour(reference, [Probe(question.call, kind, question.argument)], entry_point)[0][len(MARKS[kind]):]
    for index, option in enumerate(question.options):
        if same_outcome(option.outcome, outcome):  # as a person would click 800 for 800.0: one to a test
            return Reply(choice=index)
    row = BehaviourRow(question.call, kind, outcome)  # of an argument, its value after the call: typed as such
    if not writable(outcome):  # a value too long to show whole, or one Python cannot write (inf): no test says it
        return Reply()
    if row.returned is not None:
        return Reply(returns=row.returned)
    return Reply(raises=row.raised) if row.raised is not None else Reply()


@dataclass(frozen=True)
class TableReading:
    """What a person who knows the reference finds reading an answer's behaviour table from the top: the rows read
    (up to the first wrong one, else all), and that row with the right result (None: every row read looks right)."""

    rows_read: int
    wrong: BehaviourRow | None = None
    reply: Reply | None = None


def _outcomes(reference: str, entry_point: str | None, probes: list[Probe]) -> list[str]:
    """The reference's unmarked outcome on each probe. One run takes them all, but a probe the reference does not
    finish stops it; the probes after that one run again without it, as a person would read on past a row they
    cannot judge."""
    outcomes: list[str] = []
    while len(outcomes) < len(probes):
        rest = probes[len(outcomes):]
        got = [o[len(MARKS[p.kind]):] for o, p in zip(behaviour(reference, rest, entry_point), rest)]
        rows = [BehaviourRow("", p.kind, o) for p, o in zip(rest, got)]
        stopped = next((i for i, row in enumerate(rows) if not row.finished), None)
        outcomes += got if stopped is None else got[:stopped + 1]
    return outcomes


def read_table(reference: str, entry_point: str | None, rows: list[BehaviourRow]) -> TableReading:
    """The rows inside the contract (outside it the task may rule the input out, and a reference's outcome there may
    be an accident no person would defend) read in order against the reference, run in the sandbox on their inputs
    only: the first whose outcome the reference does not give is the wrong one, and the reference's outcome (a value
    or an exception's type that can be a test) is the correction. A row the reference gives no such outcome on (it
    did not finish, or its value cannot be written whole) is read and passed over, as a person unsure would."""
    inside = [row for row in rows if not row.outside]
    outcomes = _outcomes(reference, entry_point, [Probe(row.call, row.kind, row.argument) for row in inside])
    for read, (row, outcome) in enumerate(zip(inside, outcomes), start=1):
        right = BehaviourRow(row.call, row.kind, outcome, row.argument)
        if not writable(outcome) or not right.finished:
            continue
        if not same_outcome(row.outcome, outcome):
            return TableReading(read, row, Reply(returns=right.returned, raises=right.raised))
    return TableReading(len(inside))


def reference_person(reference: str, entry_point: str | None) -> Person:
    """A Person (agent.solves.asking) answering from reference, code that defines the entry point."""
    return lambda question: reference_reply(reference, entry_point, question)
