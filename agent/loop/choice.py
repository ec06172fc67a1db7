"""Which candidate is the answer, from what the visible tests and the probes say of each (never hidden tests).

One rule, used by the chooser node for the solve's answer and by the bench for the answer the loop would
have given with a smaller budget (the same rule applied to the first k candidates):
1. the candidates that pass every visible test, else those that pass the most of them;
2. among them, the one that agrees with the most others on the probe inputs inside the contract the visible
   calls imply (agent.loop.probes); an input on which either candidate raises is no disagreement unless it is a
   visible call's own (a right candidate may reject an input the task never gives it);
3. then the one whose outcomes on every probe, the inputs outside that contract and exceptions included, are
   shared by the most others (exact agreement, the rule before the contract was read: it breaks ties only);
4. a tie goes to the earliest candidate, the greedy first answer before any sample, a repair before
   later samples; with no passing candidate it goes to the latest, the one that saw the most feedback.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.loop.candidates import Candidate
from agent.loop.probes import MARKS

_MUTATED, _OUTSIDE = MARKS["mutated"], MARKS["outside"]


@dataclass(frozen=True)
class Choice:
    """The chosen candidate's index and why, in words a user can check."""

    index: int
    reason: str
    agreeing: int  # candidates that behave like the chosen one (itself included)
    eligible: list[int]  # numbers of the candidates it was chosen among


def _kind(outcome: str) -> str:
    """original | mutated | outside, from an outcome's mark (agent.loop.probes.MARKS)."""
    if outcome.startswith(_OUTSIDE):
        return "outside"
    return "mutated" if outcome.startswith(_MUTATED) else "original"


def agree(a: Candidate, b: Candidate, *, strict: bool = False) -> bool:
    """Whether two candidates behave alike on the probes.

    By default, on the probes inside the contract the visible calls imply: the same value on each, where a mutated
    input on which either raises is no disagreement. strict: the same outcome on every probe, outside the contract
    and exceptions included (the tie-break). Candidates without recorded behaviours agree when their signatures are
    equal and not empty."""
    if a is b:
        return True
    if strict or not a.behaviour or not b.behaviour or len(a.behaviour) != len(b.behaviour):
        return bool(a.signature) and a.signature == b.signature
    for x, y in zip(a.behaviour, b.behaviour):
        kind = _kind(x)
        if kind == "outside":
            continue
        x_value, y_value = x[len(MARKS[kind]):], y[len(MARKS[kind]):]
        if x_value == y_value:
            continue
        if kind != "original" and (x_value.startswith("!") or y_value.startswith("!")):
            continue
        return False
    return True


def _has_outside(candidates: list[Candidate]) -> bool:
    return any(_kind(o) == "outside" for c in candidates for o in c.behaviour)


def choose(attempts: list[Candidate]) -> Choice | None:
    """The answer among the candidates that were run; None if none was."""
    ran = [i for i, a in enumerate(attempts) if a.ran]
    if not ran:
        return None
    passing = [i for i in ran if attempts[i].passed]
    if passing:
        eligible, how = passing, "pass every visible test"
    else:
        best = max(attempts[i].tests_passed for i in ran)
        eligible = [i for i in ran if attempts[i].tests_passed == best]
        how = f"pass the most visible tests ({best})"

    def agreeing(i: int, strict: bool) -> int:
        return sum(agree(attempts[i], attempts[j], strict=strict) for j in eligible)

    inside = {i: agreeing(i, False) for i in eligible}
    everywhere = {i: agreeing(i, True) for i in eligible}
    best_key = max((inside[i], everywhere[i]) for i in eligible)
    in_largest = [i for i in eligible if (inside[i], everywhere[i]) == best_key]
    index = in_largest[0] if passing else in_largest[-1]
    largest, overall = best_key
    number = attempts[index].number
    which = "first" if passing else "latest"
    if len(eligible) == 1:
        reason = (f"#{number} is the only candidate that passes every visible test" if passing else
                  f"no candidate passes every visible test; #{number} passes the most ({best})")
    elif largest > 1:
        where = ("the probe inputs the examples imply" if _has_outside([attempts[i] for i in eligible])
                 else "the probe inputs")
        reason = (f"{len(eligible)} candidates {how}; {largest} of them return the same values on {where}, "
                  f"and #{number} is the {which} of those")
        if overall < largest:
            reason += (f" (inputs outside what the examples show, such as negative numbers or empty lists, or an "
                       f"exception, split them; {overall} agree on every probe)")
    else:
        reason = f"{len(eligible)} candidates {how} and no two agree on the probe inputs; #{number} is the {which}"
    return Choice(index, reason, largest, [attempts[i].number for i in eligible])


def answers_by_budget(attempts: list[Candidate]) -> list[int]:
    """For k = 0, 1, ...: the index of the answer chosen among the first k + 1 candidates."""
    return [choose(attempts[:k + 1]).index for k in range(len(attempts))]
