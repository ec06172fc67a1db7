"""Which candidate is the answer, from what the visible tests and the probes say of each (never hidden tests).

One rule, used by the chooser node for the solve's answer and by the bench for the answer the loop would
have given with a smaller budget (the same rule applied to the first k candidates):
1. the candidates that pass every visible test, else those that pass the most of them;
2. among them, the largest group that behaves alike on the probe inputs (equal signatures);
3. a tie goes to the earliest candidate, the greedy first answer before any sample, a repair before
   later samples; with no passing candidate it goes to the latest, the one that saw the most feedback.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from agent.candidates import Candidate


@dataclass(frozen=True)
class Choice:
    """The chosen candidate's index and why, in words a user can check."""

    index: int
    reason: str
    agreeing: int  # candidates that behave like the chosen one (itself included)
    eligible: list[int]  # numbers of the candidates it was chosen among


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
    # A candidate without a signature (no probe inputs) is a group of its own.
    key = {i: attempts[i].signature or f"#{i}" for i in eligible}
    sizes = Counter(key.values())
    largest = max(sizes.values())
    in_largest = [i for i in eligible if sizes[key[i]] == largest]
    index = in_largest[0] if passing else in_largest[-1]
    number = attempts[index].number
    which = "first" if passing else "latest"
    if len(eligible) == 1:
        reason = (f"#{number} is the only candidate that passes every visible test" if passing else
                  f"no candidate passes every visible test; #{number} passes the most ({best})")
    elif largest > 1:
        reason = (f"{len(eligible)} candidates {how}; {largest} of them return the same values on the probe "
                  f"inputs, and #{number} is the {which} of those")
    else:
        reason = f"{len(eligible)} candidates {how} and no two agree on the probe inputs; #{number} is the {which}"
    return Choice(index, reason, largest, [attempts[i].number for i in eligible])


def answers_by_budget(attempts: list[Candidate]) -> list[int]:
    """For k = 0, 1, ...: the index of the answer chosen among the first k + 1 candidates."""
    return [choose(attempts[:k + 1]).index for k in range(len(attempts))]
