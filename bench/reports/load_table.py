"""bench report's table of candidates lost at load, before any test ran, with their causes, and the share the answer
cleaner removed the model's own tests or demo from: one row a run, so a prompt or a model that makes the model echo
its tests shows in one number."""

from __future__ import annotations

from sqlite_utils import Database

from bench.protocol.labels import Protocol
from bench.reports.words import cause_words, cleaning_share_words, lost_at_load_count, tasks_words
from bench.runs import store
from bench.runs.record import Run
from bench.scoring.load_losses import load_losses

# The runs the report shows, in its tables' order; a rescored run has its source's candidates and is not repeated.
_PROTOCOLS = (Protocol.HONEST, Protocol.LEAKY, Protocol.SAMPLES, Protocol.IMPORTED)


def load_loss_rows(db: Database, finished: list[Run]) -> list[str]:
    """A Markdown table of these finished runs' candidates lost at load and removed by cleaning (none: no lines)."""
    rows = []
    for protocol in _PROTOCOLS:
        for run in (r for r in finished if r.protocol == protocol):
            losses = load_losses(store.load_outcomes(db, run.id))
            rows.append(f"| {run.provider}: {run.model} | {tasks_words(run, run.done, longest=40)} | {run.protocol} | "
                        f"{losses.candidates} | {lost_at_load_count(losses)} | {cause_words(losses)} | "
                        f"{cleaning_share_words(run, losses)} | `{run.id}` |")
    if not rows:
        return []
    return ["**Candidates lost at load (before any test ran), and the share cleaning removed the model's own tests or "
            "demo from**", "",
            "| model | tasks | protocol | candidates | lost at load | causes | removed by cleaning | run |",
            "|---|---|---|---|---|---|---|---|", *rows, ""]
