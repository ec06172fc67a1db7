"""The README's results table, printed as Markdown from stored runs (never typed by hand)."""

from __future__ import annotations

from sqlite_utils import Database

from bench import store
from bench.metrics import run_metrics

# One-shot HumanEval pass@1 from the Qwen2.5-Coder technical report (all 164 tasks, full precision).
PUBLISHED = {"0.5b": 61.6, "1.5b": 70.7, "7b": 88.4}


def _published(model: str) -> str:
    name = model.lower()
    size = next((s for s in ("0.5b", "1.5b", "7b") if s in name), None)
    return f"{PUBLISHED[size]:.1f}" if size and "qwen2.5-coder" in name else "-"


def latest_finished_runs(db: Database) -> list[dict]:
    """The newest finished run per (model, tasks, feedback, strategy, budget, prompt version, protocol)."""
    seen, chosen = set(), []
    for run in store.list_runs(db):  # newest first
        key = (run["provider"], run["model"], run["tasks_spec"], run["feedback"], run.get("strategy"),
               run["max_retries"], run["prompt_version"], run["protocol"])
        if run["status"] == "finished" and key not in seen:
            seen.add(key)
            chosen.append(run)
    return chosen


def markdown_report(db: Database) -> str:
    """Honest runs in one table, leaky runs (if any) in another, clearly apart."""
    lines = []
    for protocol in ("honest", "leaky"):
        runs = [r for r in latest_finished_runs(db) if r["protocol"] == protocol]
        if not runs:
            continue
        title = "Honest protocol (repairs see visible tests only)" if protocol == "honest" else \
            "LEAKY protocol (hidden-test failures fed back; reproduces older agents; not comparable)"
        lines += [f"**{title}**", "",
                  "| model | tasks | prompt | feedback | strategy | budget | pass@1 | first answer | "
                  "after k more candidates (k=0..) | published one-shot (164 tasks) | oracle ceiling | "
                  "visible precision | tokens/task | wall | model share | run |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for run in runs:
            m = run_metrics(run, store.results(db, run["id"]))
            curve = " / ".join(f"{100 * v:.1f}" for v in m["pass_after_k_repairs"])
            strategy = run.get("strategy") or "repair"
            lines.append(
                f"| {run['provider']}: {run['model']} | {run['tasks_spec']} ({m['tasks']}) | {run['prompt_version']} | "
                f"{run['feedback']} | {strategy if run['max_retries'] else '-'} | {run['max_retries'] + 1} | "
                f"{100 * m['pass_at_1']:.1f}% | {100 * m['first_attempt_pass_at_1']:.1f}% | {curve} | "
                f"{_published(run['model'])} | {100 * m['oracle_ceiling']:.1f}% | "
                f"{100 * m['visible_precision']:.1f}% | "
                f"{m['tokens_out'] / max(1, m['tasks']):.0f} | {m['wall_seconds'] / 60:.0f} min | "
                f"{100 * m['model_time_share']:.1f}% | `{run['id']}` |")
        lines.append("")
    return "\n".join(lines) if lines else "No finished runs yet: `python -m bench run --tasks sample:41`."
