"""How many of a run's candidates were lost when their code was loaded, before any test ran, and why; and how many
the answer cleaner took the model's own tests or demo out of. One number each, so a prompt or a model that makes the
model echo its tests shows in the runs it made.

Computed from the stored candidates only (bench.runs.store.load_outcomes): the cause from each candidate's visible
report (agent.loop.load_failure). A slim dump (bench.runs.transfer) keeps no reports: there a candidate whose visible
status is 'error' still counts as lost at load, with the cause its code alone can tell (it does not parse: a syntax
error) or else NOT_RECORDED. Runs stored before the cleaner kept what it removed have no cleaning share (None), never 0.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field, fields

from agent.loop.load_failure import LOAD_FAILURES, SYNTAX, load_failure
from sandbox.locked_parse import parses  # through the lock: a run's threads parse too

NOT_RECORDED = "not recorded"  # a candidate lost at load whose report was not kept (a slim dump)
CAUSES = (*LOAD_FAILURES, NOT_RECORDED)  # the order causes are listed in


@dataclass(frozen=True)
class LoadLosses:
    """A run's candidates lost at load, by cause, and those cleaning changed."""

    candidates: int
    causes: dict[str, int] = field(default_factory=dict)  # cause (CAUSES) -> candidates, only causes seen, in order
    cleaned: int = 0  # candidates from which cleaning removed something
    cleaning_recorded: int = 0  # candidates stored with what cleaning removed (0: a run from before the cleaner)

    @property
    def lost(self) -> int:
        """Candidates lost at load, whatever the cause."""
        return sum(self.causes.values())

    @property
    def lost_share(self) -> float:
        """Lost at load, as a share of all candidates (0 for a run with none)."""
        return self.lost / self.candidates if self.candidates else 0.0

    @property
    def cleaned_share(self) -> float | None:
        """Candidates cleaning removed something from, as a share of those stored with what it removed; None when
        no candidate was (the run was made before cleaning was stored)."""
        return self.cleaned / self.cleaning_recorded if self.cleaning_recorded else None

    def to_dict(self) -> dict:
        """Plain data, as show --json prints it: the stored counts and the shares read from them."""
        return {**asdict(self), "lost": self.lost, "lost_share": self.lost_share, "cleaned_share": self.cleaned_share}

    @classmethod
    def from_dict(cls, data: dict) -> LoadLosses:
        """Inverse of to_dict."""
        return cls(**{f.name: data[f.name] for f in fields(cls)})


def stored_load_failure(candidate: dict) -> str | None:
    """Why a stored candidate was lost at load (one of CAUSES), or None when it was not. candidate: an attempts row
    with visible_status, visible_report (None in a slim dump), code and extract_error. A candidate with no code
    (an extraction error) was never loaded: it counts with the extraction errors, not here."""
    if candidate.get("extract_error"):
        return None
    report = candidate.get("visible_report")
    if report:
        return load_failure(json.loads(report))
    if candidate.get("visible_status") != "error":
        return None
    # The report was not kept: its status says the code never reached a test; the code alone can tell a syntax error.
    return SYNTAX if not parses(candidate.get("code") or "") else NOT_RECORDED


def load_losses(candidates: list[dict]) -> LoadLosses:
    """The candidates lost at load (stored_load_failure) and those cleaning changed, among these attempts rows (also
    read: removed, the JSON list of what cleaning took out, NULL in runs made before it)."""
    found = Counter(cause for cause in map(stored_load_failure, candidates) if cause)
    removed = [json.loads(c["removed"]) for c in candidates if c.get("removed") is not None]
    return LoadLosses(candidates=len(candidates), causes={cause: found[cause] for cause in CAUSES if found[cause]},
                      cleaned=sum(bool(r) for r in removed), cleaning_recorded=len(removed))
