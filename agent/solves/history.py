"""Reading a solve's history: its steps, what changed between two checkpoints, its branches (forks) with their
outcome, and what the loop draws next.

Pure functions of checkpoints the Solver returns (Solver.steps, Solver.state_at), so the Debugger, a CLI or a
test read the same answers, and none of them re-runs the loop's own rules.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from agent.loop.candidates import Candidate, candidates
from agent.loop.nodes import kind_after
from sandbox import TestReport


@dataclass
class Step:
    """One checkpoint of a solve's history (Solver.steps)."""

    checkpoint_id: str
    parent_id: str | None
    step: int
    next_node: str | None
    iteration: int
    status: str | None
    created_at: str
    source: str = ""  # LangGraph's: input, loop (a node ran) or update (a fork's edit)


def next_draw(drawn: list[Candidate], strategy: str) -> str:
    """What the loop draws after these candidates with this strategy (the solve's, agent.config.stored_search):
    first | repair | sample, by the coder's own rule."""
    return kind_after([c.kind for c in drawn], strategy)


def code_diff(before: str, after: str, before_name: str = "before", after_name: str = "after") -> str:
    """Unified diff of two texts (difflib); "" when they are equal."""
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), before_name, after_name))


@dataclass(frozen=True)
class TestChange:
    """One visible test's verdict at two checkpoints: 'passed', 'failed' or None (not run there)."""

    name: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class StepChanges:
    """What differs from one checkpoint to another of the same solve."""

    code_diff: str  # the current answer's code
    report_diff: str  # the failure report the model reads next
    tests: list[TestChange]  # every visible test whose verdict differs
    messages_added: list[dict]  # the later conversation's messages after what both share
    candidates_added: list[int]  # numbers of candidates drawn in between
    status_before: str | None
    status_after: str | None
    notes: list[str] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        return not (self.code_diff or self.report_diff or self.tests or self.messages_added or self.candidates_added
                    or self.status_before != self.status_after)


def _verdicts(values: dict) -> dict[str, str]:
    raw = values.get("report")
    if not raw:
        return {}
    return {t.name: "passed" if t.passed else "failed" for t in TestReport.from_dict(raw).tests}


def _shared_prefix(a: list[dict], b: list[dict]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def step_changes(before: dict, after: dict, before_name: str = "before", after_name: str = "after") -> StepChanges:
    """Compare two states of a solve (Solver.state_at): code, failure report, test verdicts, messages, candidates."""
    old, new = _verdicts(before), _verdicts(after)
    tests = [TestChange(name, old.get(name), new.get(name)) for name in dict.fromkeys([*old, *new])
             if old.get(name) != new.get(name)]
    old_messages, new_messages = list(before.get("messages") or []), list(after.get("messages") or [])
    shared = _shared_prefix(old_messages, new_messages)
    old_numbers = {c.number for c in candidates(before)}
    notes = []
    if shared < len(old_messages):
        notes.append("the checkpoints are on different branches: the later conversation does not extend the earlier "
                     f"one after message {shared}")
    return StepChanges(
        code_diff=code_diff(before.get("code") or "", after.get("code") or "", before_name, after_name),
        report_diff=code_diff(before.get("feedback") or "", after.get("feedback") or "", before_name, after_name),
        tests=tests, messages_added=new_messages[shared:],
        candidates_added=[c.number for c in candidates(after) if c.number not in old_numbers],
        status_before=before.get("status"), status_after=after.get("status"), notes=notes)


@dataclass(frozen=True)
class Branch:
    """A line of checkpoints: the solve as first run, or a fork from one of its checkpoints."""

    number: int  # 0 for the solve as first run, then forks in the order they were made
    checkpoints: list[str]  # its own checkpoints, oldest first (a fork's start at its fork point excluded)
    fork_of: str | None  # the checkpoint it branches off, None for the original
    fork_step: int | None
    how: str  # "the solve as run", "edited code", "edited failure report", "resumed"
    outcome: str  # passed | gave_up | error | paused | running | interrupted ... (the last checkpoint's)
    next_node: str | None  # where it is paused, if it is
    candidates: int  # candidates drawn by its last checkpoint

    @property
    def head(self) -> str:
        return self.checkpoints[-1]


def _how(first: Step) -> str:
    if first.source != "update":
        return "resumed"
    # Solver.fork writes as the coder for edited code (the tests run next) and as the executor for an edited
    # report (the model repairs next).
    return "edited code" if first.next_node == "executor" else "edited failure report"


def branches(steps: list[Step]) -> list[Branch]:
    """Split a solve's checkpoints (Solver.steps, oldest first) into branches: a checkpoint continues its parent's
    branch when it is the parent's first child and not an edit; an edit (a fork) or a second child starts one."""
    by_id = {s.checkpoint_id: s for s in steps}
    branch_of: dict[str, int] = {}
    members: list[list[Step]] = []
    parents_seen: set[str] = set()
    for step in steps:
        parent = step.parent_id if step.parent_id in by_id else None
        continues = parent is not None and parent not in parents_seen and step.source != "update"
        if parent is not None:
            parents_seen.add(parent)
        if continues:
            index = branch_of[parent]
            members[index].append(step)
        else:
            index = len(members)
            members.append([step])
        branch_of[step.checkpoint_id] = index
    found = []
    for number, own in enumerate(members):
        first, last = own[0], own[-1]
        fork_of = first.parent_id if first.parent_id in by_id else None
        outcome = "paused" if last.next_node else (last.status or "running")
        found.append(Branch(number=number, checkpoints=[s.checkpoint_id for s in own], fork_of=fork_of,
                            fork_step=by_id[fork_of].step if fork_of else None,
                            how="the solve as run" if fork_of is None else _how(first),
                            outcome=outcome, next_node=last.next_node, candidates=last.iteration))
    return found
