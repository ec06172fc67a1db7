"""A row of the answer's behaviour table a person says is wrong, with the result it should give: taken by the solve as
the answer to a question the person chose (agent.loop.questions.Asked, by PERSON).

The table (agent.solves.answer_behaviour) shows what the answer does on the probe inputs; a person who reads it and
spots a wrong row knows more than any question the solve could pick: the solve asks where its candidates disagree,
and a wrong answer that every candidate shares draws no question. The correction becomes a test in the person's own
style, as an answer does, and the solve goes on from it: the candidates whose recorded outcome there agrees are kept,
every candidate is judged again with the new test, and when none passes the loop draws again (Solver.correct gives it
room for one more round when the budget is spent). Only the solve's own candidates, probes and visible tests are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from agent.inputs import BadInput
from agent.loop.candidates import candidates
from agent.loop.probes import MARKS, solve_probes
from agent.loop.questions import PERSON, Asked, Question, Reply, answered, split
from agent.loop.state import read_state
from agent.solves.answer_behaviour import BehaviourRow, answer_of


def correction(state: Mapping, call: str, reply: Reply, argument: int | None = None) -> tuple[str, Asked]:
    """The tests with the person's correction of the answer's row for call written as one more test, and the
    correction as the solve keeps it: a question on that input whose options are what the passing candidates (all
    that ran, when none passes) give there, answered with the result the person typed (reply.returns or
    reply.raises; of a row on an argument read after the call, argument is its place and the result what it should
    hold). Raises BadInput, saying what to fix, when the solve has no answer, call is not one of its table's rows,
    the reply types no result, or the result is not Python."""
    state = read_state(state)
    if reply.returns is None and reply.raises is None:
        raise BadInput("say what the call should give: a value (as in your tests) or an exception's type")
    answer = answer_of(state)
    if answer is None or not answer.ran:
        raise BadInput("the solve has no answer to correct yet")
    probes = solve_probes(state)
    index = next((i for i, p in enumerate(probes) if p.call == call and p.kind != "original"
                  and p.argument == argument), None)
    if index is None:
        raise BadInput(f"{call} is not an input of the answer's table: pick one of its rows")
    probe = probes[index]
    ran = [c for c in candidates(state) if c.ran and len(c.behaviour) == len(probes)]
    pool = [c for c in ran if c.passed] or ran
    question = Question(call, probe.kind == "outside", split(probe, index, {c.number: c.behaviour for c in pool}),
                        argument)
    mark = MARKS[probe.kind]
    outcome = answer.behaviour[index][len(mark):] if len(answer.behaviour) == len(probes) else "! not run"
    tests, asked = answered(state["tests"], question, Reply(returns=reply.returns, raises=reply.raises),
                            shown=BehaviourRow(call, probe.kind, outcome, argument))
    return tests, replace(asked, answer_before=answer.number, by=PERSON)
