"""A simulated person who answers a solve's questions from a reference solution, as TiCoder's does: the reference
runs in the sandbox on the question's input only, and its outcome is the choice that gives the same (else typed as
the right result; skipped when the reference itself did not finish). For the bench's labelled interactive protocol:
the reference reaches nothing but these answers, never a prompt or the chooser."""

from __future__ import annotations

from agent.loop.probes import MARKS, Probe, behaviour
from agent.loop.questions import Question, Reply, same_outcome, writable
from agent.solves.answer_behaviour import BehaviourRow
from agent.solves.asking import Person


def reference_reply(reference: str, entry_point: str | None, question: Question) -> Reply:
    """What a person who knows the reference would answer: the option giving the reference's outcome on the
    question's input, else that outcome typed, else (the reference did not run to an outcome) a skip."""
    kind = "outside" if question.outside else "mutated"
    outcome = behaviour(reference, [Probe(question.call, kind)], entry_point)[0][len(MARKS[kind]):]
    for index, option in enumerate(question.options):
        if same_outcome(option.outcome, outcome):  # as a person would click 800 for 800.0: one to a test
            return Reply(choice=index)
    row = BehaviourRow(question.call, kind, outcome)
    if not writable(outcome):  # a value too long to show whole, or one Python cannot write (inf): no test says it
        return Reply()
    if row.returned is not None:
        return Reply(returns=row.returned)
    return Reply(raises=row.raised) if row.raised is not None else Reply()


def reference_person(reference: str, entry_point: str | None) -> Person:
    """A Person (agent.solves.asking) answering from reference, code that defines the entry point."""
    return lambda question: reference_reply(reference, entry_point, question)
