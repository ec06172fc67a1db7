"""Two runs read together, on the tasks both finished: which tasks one fixed or regressed, and both pass-rate
curves measured on the same tasks."""

from __future__ import annotations

from dataclasses import dataclass

from bench.runs.record import Run
from bench.scoring.caps import curve_caps, hidden_at_cap
from bench.scoring.metrics import mean, sample_counts
from bench.scoring.passk import mean_pass_at_k


def compare_runs(a: list[dict], b: list[dict]) -> dict:
    """On the tasks both runs finished: fixed (fails in A, passes in B), regressed, passing in both, neither."""
    a_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in a}
    b_pass = {r["task_id"]: bool(r["hidden_passed"]) for r in b}
    common = [t for t in a_pass if t in b_pass]  # in A's order: its results come in dataset order, whatever the ids
    return {
        "common": len(common),
        "fixed": [t for t in common if not a_pass[t] and b_pass[t]],
        "regressed": [t for t in common if a_pass[t] and not b_pass[t]],
        "both": [t for t in common if a_pass[t] and b_pass[t]],
        "neither": [t for t in common if not a_pass[t] and not b_pass[t]],
    }


def common_tasks(diff: dict) -> set[str]:
    """The tasks both runs finished, from compare_runs' verdicts (or a Comparison's fields)."""
    return {task for key in ("fixed", "regressed", "both", "neither") for task in diff[key]}


@dataclass(frozen=True)
class Comparison:
    """Two runs on the tasks both finished: each one's pass rate after k more candidates, and the tasks that
    changed verdict (fixed: fails in A, passes in B; regressed: the other way)."""

    common: int
    curves: dict[str, list[float]]  # "A" / "B" -> pass rate with k more candidates, on the common tasks
    fixed: list[str]
    regressed: list[str]
    both: list[str]
    neither: list[str]

    @property
    def tasks(self) -> set[str]:
        """The tasks both runs finished."""
        return common_tasks(vars(self))

    def curve_rows(self, labels: dict[str, str]) -> list[dict]:
        """Long-form rows for a chart: run, candidates after the first, pass rate."""
        return [{"run": labels[key], "more candidates": k, "pass rate": value}
                for key, curve in self.curves.items() for k, value in enumerate(curve)]

    def outcome_rows(self) -> list[dict]:
        """Rows for a bar chart of how the common tasks fared: fixed, regressed, passing in both, in neither."""
        return [{"outcome": name, "tasks": len(tasks)} for name, tasks in
                (("fixed in B", self.fixed), ("regressed in B", self.regressed), ("passing in both", self.both),
                 ("failing in both", self.neither))]


def compare_run_curves(run_a: Run, results_a: list[dict], run_b: Run, results_b: list[dict]) -> Comparison:
    """compare_runs plus both pass-rate curves, measured on the same tasks so the lines can be read together."""
    diff = compare_runs(results_a, results_b)
    common = set(diff["both"] + diff["neither"] + diff["fixed"] + diff["regressed"])
    curves = {}
    for key, run, results in (("A", run_a, results_a), ("B", run_b, results_b)):
        shared = [r for r in results if r["task_id"] in common]
        if run.sampled:  # no loop, so no answer after k more: one point, its unbiased pass@1 on these tasks
            curves[key] = [mean_pass_at_k(sample_counts(shared), 1)]
        else:
            curves[key] = [mean([hidden_at_cap(r, k) for r in shared]) for k in curve_caps(run)]
    return Comparison(common=diff["common"], curves=curves, fixed=diff["fixed"], regressed=diff["regressed"],
                      both=diff["both"], neither=diff["neither"])
