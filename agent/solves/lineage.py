"""Where a solve comes from when a person ran it again: the earlier solve, the answer they read there, and the tests
they added after reading what that answer does beyond their tests (agent.solves.answer_behaviour,
agent.written_test). Kept with the solve (SolveStore's ``lineage`` column) so the Debugger can say which tests a
person added after which answer."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from agent.solves.answer_behaviour import BehaviourRow
from agent.written_test import write_test


@dataclass(frozen=True)
class AddedTest:
    """One row a person marked as wrong, and the test written from it."""

    call: str  # the row's call: "add(0, 0)"
    answered: str  # what the answer did there, in words: "returns 1", "raises ValueError"
    expected: str  # what the person says it should do: "returns 0", "raises ValueError"
    test: str  # the test written into the tests (agent.written_test.WrittenTest.test)


@dataclass(frozen=True)
class Lineage:
    """A solve started again from an earlier one, with the tests a person added after reading its answer."""

    from_solve: str  # the earlier solve's thread id
    after_answer: int  # the number of the earlier solve's answer (its chosen candidate) the person read
    added: tuple[AddedTest, ...]

    def to_dict(self) -> dict:
        """As stored: plain JSON values (lists, not tuples, so a stored lineage reads back equal)."""
        return {"from_solve": self.from_solve, "after_answer": self.after_answer,
                "added": [asdict(added) for added in self.added]}

    def words(self) -> str:
        """'1 test added after answer #2': the lineage in a few words, for a list of solves."""
        count = len(self.added)
        return f"{count} test{'' if count == 1 else 's'} added after answer #{self.after_answer}"


def lineage_from(stored: dict | None) -> Lineage | None:
    """The Lineage a solve stored (Lineage.to_dict), or None for a solve that was not started again from another."""
    if not stored or not stored.get("from_solve"):
        return None
    return Lineage(stored["from_solve"], int(stored.get("after_answer") or 0),
                   tuple(AddedTest(**added) for added in stored.get("added") or []))


def kept_in(lineage: Lineage, tests: str) -> Lineage | None:
    """The lineage with only the added tests these tests still hold (a person may delete one before running again),
    or None when none is left."""
    added = tuple(a for a in lineage.added if a.test.strip() and a.test.strip() in tests)
    return Lineage(lineage.from_solve, lineage.after_answer, added) if added else None


def with_test_from_row(pending: Lineage | None, from_solve: str, after_answer: int, tests: str, row: BehaviourRow, *,
                       returns: str | None = None, raises: str | None = None) -> tuple[str, Lineage]:
    """A row a person marked as wrong, made a test: tests with it written in their own style (agent.written_test;
    returns is the Python source of the value the call should return, raises the exception type it should raise),
    and the lineage a run again will keep: pending grown by the new test, or a new one when pending was for
    another solve or answer. Raises agent.inputs.BadInput, saying what to fix, for what is not Python."""
    tests, added = test_from_row(tests, row, returns=returns, raises=raises)
    same = pending is not None and (pending.from_solve, pending.after_answer) == (from_solve, after_answer)
    return tests, Lineage(from_solve, after_answer, (pending.added if same else ()) + (added,))


def test_from_row(tests: str, row: BehaviourRow, *, returns: str | None = None,
                  raises: str | None = None) -> tuple[str, AddedTest]:
    """tests with one more, written in their own style (agent.written_test), saying that row's call returns the value
    whose Python source is returns or raises the exception type raises (a row on an argument read after the call:
    that the argument then holds the value returns); and the test as added. The one way a row becomes a test: a row
    a person marked as wrong, and an answer to a solve's question (agent.loop.questions). Raises
    agent.inputs.BadInput, saying what to fix, for what is not Python or an argument said to raise."""
    written = write_test(tests, row.call, returns=returns, raises=raises, argument=row.argument)
    if row.argument is not None:
        expected = BehaviourRow(row.call, row.kind, f"= {(returns or '').strip()}", row.argument).words()
    else:
        expected = f"returns {returns.strip()}" if returns is not None else f"raises {(raises or '').strip()}"
    return written.tests, AddedTest(row.call, row.words(), expected, written.test)
