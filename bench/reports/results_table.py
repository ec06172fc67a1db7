"""The README's results table, printed as Markdown from stored runs (never typed by hand)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlite_utils import Database

from bench.datasets.humaneval import HUMANEVAL
from bench.protocol.labels import Protocol
from bench.reports.change_table import change_rows
from bench.reports.interactive import interactive_table
from bench.reports.load_table import load_loss_rows
from bench.reports.words import search_words, tasks_words
from bench.runs import store
from bench.runs.record import Run
from bench.scoring.metrics import run_metrics
from bench.scoring.passk import PASS_AT_K
from bench.scoring.rescore import rescored_twin

SAMPLED_TITLES = {
    Protocol.SAMPLES: "Independent samples (no loop; pass@k by the unbiased estimator, hidden tests only score)",
    Protocol.IMPORTED: "Imported samples (made elsewhere, scored here in our sandbox; not runs of the loop)"}
# One-shot HumanEval pass@1 from the Qwen2.5-Coder technical report (all 164 tasks, full precision).
PUBLISHED = {"0.5b": 61.6, "1.5b": 70.7, "7b": 88.4}


@dataclass(frozen=True)
class Baseline:
    """A published one-shot pass@1 to read a run against (a reference line, not a run of ours)."""

    model: str  # e.g. "Qwen2.5-Coder-0.5B-Instruct"
    pass_at_1: float  # a fraction

    @property
    def label(self) -> str:
        return f"published: {self.model}, one shot, 164 tasks ({100 * self.pass_at_1:.1f}%)"

    @property
    def short_label(self) -> str:
        """For a chart: 'published one shot, 0.5B: 61.6%'."""
        size = self.model.removeprefix("Qwen2.5-Coder-").removesuffix("-Instruct")
        return f"published one shot, {size}: {100 * self.pass_at_1:.1f}%"


def published_baseline(model: str) -> Baseline | None:
    """The published one-shot figure for a stored run's model name (a GGUF file or an Ollama tag), if known."""
    name = model.lower()
    size = re.search(r"(?<![\d.])(0\.5b|1\.5b|7b)(?![a-z\d])", name)
    if not re.search(r"qwen2\.5-?coder", name) or size is None:
        return None
    return Baseline(f"Qwen2.5-Coder-{size.group(1).upper()}-Instruct", PUBLISHED[size.group(1)] / 100)


def has_published_baseline(run: Run) -> bool:
    """Whether a run is read against its model's published one-shot figure: a run of our model on HumanEval (the
    figures are HumanEval's), never an imported one (its file's name is not a model we ran)."""
    return run.dataset == HUMANEVAL and run.protocol != Protocol.IMPORTED


def _published(run: Run) -> str:
    baseline = published_baseline(run.model) if has_published_baseline(run) else None
    return f"{100 * baseline.pass_at_1:.1f}" if baseline else "-"


def latest_finished_runs(db: Database) -> list[Run]:
    """The newest finished run per (model, dataset, tasks, feedback, search, protocol)."""
    seen, chosen = set(), []
    for run in store.list_runs(db):  # newest first
        key = (run.provider, run.model, run.dataset, run.tasks_spec, run.feedback, run.search, run.protocol,
               run.temperature, run.samples_sha256)
        if run.status == "finished" and key not in seen:
            seen.add(key)
            chosen.append(run)
    return chosen


def _pass_at_k_cells(metrics: dict) -> str:
    return " | ".join(f"{100 * metrics['pass_at_k'][str(k)]:.1f}%" if str(k) in metrics["pass_at_k"] else "-"
                      for k in PASS_AT_K)


def _samples_a_task(metrics: dict) -> str:
    fewest, most = metrics["samples_per_task"], metrics["max_samples_per_task"]
    return f"{fewest}" if fewest == most else f"{fewest} to {most}"


def sampled_tables(runs: list[Run], db: Database) -> list[str]:
    """pass@k of independent samples: our samples runs in one table, imported samples (made elsewhere, scored
    here) in another, never in the loop's tables."""
    lines = []
    ks = " | ".join(f"pass@{k}" for k in PASS_AT_K)
    for protocol, title in SAMPLED_TITLES.items():
        chosen = [r for r in runs if r.protocol == protocol]
        if not chosen:
            continue
        ours = protocol == Protocol.SAMPLES  # an imported file's model and tokens are not ours
        what = "model | temperature" if ours else "file | sha256"
        lines += [f"**{title}**", "", f"| {what} | tasks | samples a task | {ks} | "
                  f"published one-shot (164 tasks) | tokens/sample | wall | run |",
                  "|---|---|---|---|" + "---|" * len(PASS_AT_K) + "---|---|---|---|"]
        for run in chosen:
            m = run_metrics(run, store.results(db, run.id))
            who = (f"{run.provider}: {run.model} | {run.temperature:g}" if ours
                   else f"{run.samples_file} | {(run.samples_sha256 or '')[:8]}")
            tokens = f"{m['tokens_out'] / max(1, m['samples']):.0f}" if ours else "-"
            lines.append(f"| {who} | {tasks_words(run, m['tasks'])} | {_samples_a_task(m)} | "
                         f"{_pass_at_k_cells(m)} | {_published(run)} | "
                         f"{tokens} | {m['wall_seconds'] / 60:.0f} min | "
                         f"`{run.id}` |")
        lines.append("")
    return lines


def _plus_cell(db: Database, run: Run, twins: dict[str, str]) -> str:
    """'67.1% / 52.4%': pass@1 and the first answer's pass rate of the run's rescoring on HumanEval+
    (bench.scoring.rescore),
    noted in twins (run id -> its twin's); '-' for a run with none."""
    twin = rescored_twin(db, run.id)
    if twin is None:
        return "-"
    twins[run.id] = twin.id
    m = run_metrics(twin, store.results(db, twin.id))
    return f"{100 * m['pass_at_1']:.1f}% / {100 * m['first_attempt_pass_at_1']:.1f}%"


def markdown_report(db: Database) -> str:
    """Honest runs in one table, leaky runs (if any) in another, clearly apart; then interactive runs, by their
    pass@1 after each number of questions (interactive_table); then runs of independent samples
    and imported ones, by their pass@k (sampled_tables). Tasks lost to the environment (the sandbox lacks a module)
    or to extraction (no candidate held code) are counted in their own column and as not passed."""
    lines = []
    for protocol in (Protocol.HONEST, Protocol.LEAKY):
        runs = [r for r in latest_finished_runs(db) if r.protocol == protocol]
        if not runs:
            continue
        title = "Honest protocol (repairs see visible tests only)" if protocol == Protocol.HONEST else \
            "LEAKY protocol (hidden-test failures fed back; reproduces older agents; not comparable)"
        lines += [f"**{title}**", "",
                  "| model | tasks | feedback | search | pass@1 | first answer | "
                  "HumanEval+: pass@1 / first answer | "
                  "after k more candidates (k=0..) | published one-shot (164 tasks) | oracle ceiling | "
                  "visible precision | lost: env / extraction | tokens/task | wall | model share | run |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        twins = {}
        for run in runs:
            m = run_metrics(run, store.results(db, run.id))
            curve = " / ".join(f"{100 * v:.1f}" for v in m["pass_after_k_repairs"])
            lines.append(
                f"| {run.provider}: {run.model} | {tasks_words(run, m['tasks'])} | "
                f"{run.feedback} | {search_words(run)} | "
                f"{100 * m['pass_at_1']:.1f}% | {100 * m['first_attempt_pass_at_1']:.1f}% | "
                f"{_plus_cell(db, run, twins)} | {curve} | "
                f"{_published(run)} | {100 * m['oracle_ceiling']:.1f}% | "
                f"{100 * m['visible_precision']:.1f}% | "
                f"{m['lost_to_environment'] + m['lost_to_bad_input'] + m['lost_to_unsupported']} / "
                f"{m['lost_to_extraction']} | "
                f"{m['tokens_out'] / max(1, m['tasks']):.0f} | {m['wall_seconds'] / 60:.0f} min | "
                f"{100 * m['model_time_share']:.1f}% | `{run.id}` |")
        if twins:
            lines += ["", "HumanEval+: the same run's candidates and answers scored again on EvalPlus's HumanEval+ "
                          "tests, without the model (`python -m bench rescore`; not runs of the loop): "
                      + ", ".join(f"`{twin}` (of `{run_id}`)" for run_id, twin in twins.items()) + "."]
        lines.append("")
    lines += interactive_table(db, latest_finished_runs(db))
    lines += sampled_tables(latest_finished_runs(db), db)
    lines += load_loss_rows(db, latest_finished_runs(db))
    lines += change_rows(db, latest_finished_runs(db))
    return "\n".join(lines) if lines else "No finished runs yet: `python -m bench run --tasks sample:41`."
