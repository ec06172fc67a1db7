"""What a run asks of each of its tasks: the one value a backend hands to solve_task, wherever that runs."""

from __future__ import annotations

from dataclasses import dataclass

from agent import Search
from bench.protocol.labels import Protocol


@dataclass(frozen=True)
class Rules:
    """How every task of one run is solved and scored: its rows name run_id; feedback says what the loop repairs
    from (bench.protocol.labels.FEEDBACK_MODES); search is the run's, whole; samples (with their temperature) makes it
    a run of independent samples a task instead of the loop; ask (questions a task at most, the search's
    max_questions) makes it interactive: a simulated person answers each solve's questions from the task's
    reference, then (corrections) reads the answer's behaviour table and corrects its first wrong row, up to that
    many times."""

    run_id: str
    feedback: str
    search: Search
    samples: int | None = None
    temperature: float | None = None
    ask: int | None = None
    corrections: int | None = None

    @property
    def protocol(self) -> Protocol:
        """The protocol these rules make."""
        return Protocol.of(self.feedback, self.samples, self.ask)
