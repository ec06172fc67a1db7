"""show's summary of one run, in text: what it ran (model, search, sandbox, backend, dataset), its scores, the
diagnostics apart from them, and what it lost. A sampled run's shows its pass@k table instead of the loop's curve."""

from __future__ import annotations

from bench.datasets import OFFERED
from bench.protocol.labels import UNJUDGED_STATUS, Protocol
from bench.reports.interactive import honest_beside, interactive_lines
from bench.reports.words import backend_words, load_loss_words, lost_words, protocol_words, search_words
from bench.runs import store
from bench.runs.record import Run
from bench.scoring.load_losses import LoadLosses, load_losses
from bench.scoring.metrics import answers_with_hidden_status, metrics_by_part, run_metrics


def loud(words: str) -> str:
    """A protocol's words as show prints them, its name in capitals: 'LEAKY (hidden-test failures fed back; ...)'."""
    name, space, rest = words.partition(" ")
    return name.upper() + space + rest


def show_metrics(db, run: Run) -> dict:
    """A run's metrics (bench.scoring.metrics.run_metrics) with the answers that ran out of time, and those whose
    hidden tests the sandbox could not judge as one process would, counted apart, and
    its candidates lost at load and removed by cleaning (bench.scoring.load_losses, as plain data)."""
    results = store.results(db, run.id)
    metrics = run_metrics(run, results)
    statuses = store.hidden_statuses(db, run.id)
    metrics["answers_timed_out"] = answers_with_hidden_status(run, results, statuses, "timeout")
    metrics["answers_unjudged"] = answers_with_hidden_status(run, results, statuses, UNJUDGED_STATUS)
    metrics["load_losses"] = load_losses(store.load_outcomes(db, run.id)).to_dict()
    by_part = part_metrics(run, results)
    if by_part:
        metrics["by_part"] = by_part
    if run.protocol == Protocol.INTERACTIVE:
        metrics["honest_beside"] = honest_beside(db, run)
    return metrics


def part_metrics(run: Run, results: list[dict]) -> dict[str, dict]:
    """A run's figures for each part of its dataset (bench.scoring.metrics.metrics_by_part), or {} when its dataset
    has no parts."""
    offered = OFFERED.get(run.dataset)
    return metrics_by_part(run, results, offered.parts()) if offered and offered.parts else {}


def _load_loss_lines(run: Run, metrics: dict) -> list[str]:
    """The line of candidates lost at load and removed by cleaning, when show_metrics counted them."""
    counted = metrics.get("load_losses")
    return [load_loss_words(run, LoadLosses.from_dict(counted))] if counted else []


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def part_lines(by_part: dict[str, dict]) -> list[str]:
    """The figures of each part of the dataset, read apart (MBPP+: held out, tuned on): part_metrics in words."""
    return [f"{part}: tasks {m['tasks']}/{m['total_tasks']}   pass@1 {_pct(m['pass_at_1'])}   first attempt "
            f"{_pct(m['first_attempt_pass_at_1'])}   oracle ceiling {_pct(m['oracle_ceiling'])}   visible precision "
            f"{_pct(m['visible_precision'])}" for part, m in by_part.items()]


def _part_lines(metrics: dict) -> list[str]:
    return [f"  {line}" for line in part_lines(metrics.get("by_part", {}))]


def _pass_at_k_lines(metrics: dict) -> list[str]:
    """The pass@k table of a sampled run."""
    fewest, most = metrics["samples_per_task"], metrics["max_samples_per_task"]
    per_task = f"{fewest}" if fewest == most else f"{fewest} to {most} (k up to {fewest})"
    lines = [f"pass@k (the unbiased estimator of Chen et al. 2021, over {per_task} samples a task; "
             f"{metrics['samples']} samples in all):"]
    lines += [f"  pass@{k:<3} {_pct(value)}" for k, value in metrics["pass_at_k"].items()]
    return lines


def _sampled_lines(run: Run, metrics: dict) -> list[str]:
    ours = run.protocol == Protocol.SAMPLES
    lines = [
        f"run {run.id}  [{loud(protocol_words(run))}]  {run.state()}",
        (f"model {run.provider}: {run.model}   prompt {run.search.prompt_version}  code {run.code_version}"
         if ours else f"scored by code {run.code_version}"),
        f"sandbox {run.isolation or 'not recorded'}",
        f"dataset {run.dataset}   selection {run.tasks_spec}",
        f"tasks {metrics['tasks']}/{metrics['total_tasks']}   first sample alone "
        f"{_pct(metrics['first_attempt_pass_at_1'])}   a sample passing the visible tests in "
        f"{_pct(metrics['visible_pass_rate'])} of tasks",
        *_pass_at_k_lines(metrics),
        f"diagnostics (hidden tests): a passing sample in {_pct(metrics['oracle_ceiling'])} of tasks; "
        f"{_pct(metrics['visible_precision'])} of the samples that pass the visible tests pass the hidden tests",
        *(["by part of the dataset (read apart; pass@1 is the first sample's here):"] + _part_lines(metrics)
          if metrics.get("by_part") else []),
    ]
    if ours:
        lines.append(f"tokens in/out {metrics['tokens_in']}/{metrics['tokens_out']}   wall "
                     f"{metrics['wall_seconds']:.0f}s   model share {_pct(metrics['model_time_share'])}   "
                     f"{metrics['tasks_per_minute']:.2f} tasks/min")
    else:
        lines.append(f"scored in {metrics['wall_seconds']:.0f}s")
    lost = lost_words(metrics)
    return lines + ([f"{lost} (counted as not passed)"] if lost else []) + _load_loss_lines(run, metrics)


def _loop_lines(run: Run, metrics: dict) -> list[str]:
    interactive = run.protocol == Protocol.INTERACTIVE
    lines = [
        f"run {run.id}  [{loud(protocol_words(run))}]  {run.state()}",
        f"model {run.provider}: {run.model}   feedback {run.feedback}   code {run.code_version}",
        f"search: {search_words(run)}",
        f"sandbox {run.isolation or 'not recorded (run made before isolation was stored)'}",
        f"backend {backend_words(run)}" + (f"  endpoints {', '.join(run.endpoints)}" if run.endpoints else ""),
        f"dataset {run.dataset}   selection {run.tasks_spec}",
        f"tasks {metrics['tasks']}/{metrics['total_tasks']}   {'interactive ' if interactive else ''}pass@1 "
        f"{_pct(metrics['pass_at_1'])}   first attempt {_pct(metrics['first_attempt_pass_at_1'])}   visible pass "
        f"{_pct(metrics['visible_pass_rate'])}",
        # An interactive run's answers at a smaller budget were judged on tests its answers wrote: its curve is by
        # questions, not candidates.
        *(interactive_lines(metrics) if interactive else [
            "pass rate after k more candidates: " + "  ".join(f"k={k}: {_pct(v)}" for k, v in
                                                              enumerate(metrics["pass_after_k_repairs"]))]),
        f"diagnostics (hidden tests, after the run; never used to choose): oracle ceiling "
        f"{_pct(metrics['oracle_ceiling'])} of tasks have a candidate that passes; visible-test precision "
        f"{_pct(metrics['visible_precision'])} of visible-passing answers pass the hidden tests",
        "  oracle ceiling after k more candidates: " + "  ".join(f"k={k}: {_pct(v)}" for k, v in
                                                               enumerate(metrics["oracle_after_k"])),
        *(["by part of the dataset (read apart):"] + _part_lines(metrics) if metrics.get("by_part") else []),
        f"mean attempts {metrics['mean_attempts']:.2f}   "
        f"tokens in/out {metrics['tokens_in']}/{metrics['tokens_out']}   "
        f"wall {metrics['wall_seconds']:.0f}s   model share {_pct(metrics['model_time_share'])}   "
        f"{metrics['tasks_per_minute']:.2f} tasks/min",
    ]
    lost = lost_words(metrics)
    lines += [f"{lost} (counted as not passed)"] if lost else []
    lines += _load_loss_lines(run, metrics)
    if metrics.get("answers_timed_out"):
        lines.append(f"answers that ran out of time on the hidden tests: {metrics['answers_timed_out']} (apart from "
                     "wrong answers; counted as not passed)")
    if metrics.get("answers_unjudged"):
        lines.append(f"answers the hidden tests could not judge (they do what the sandbox cannot run as one process "
                     f"would): {metrics['answers_unjudged']} (apart from wrong answers; counted as not passed)")
    return lines


def run_summary(run: Run, metrics: dict) -> str:
    """The text show prints for a run (metrics: show_metrics)."""
    lines = _sampled_lines(run, metrics) if run.sampled else _loop_lines(run, metrics)
    lines += [f"solver lost: {note}" for note in (run.notes or "").splitlines()]
    lines += [f"error: {run.error}"] if run.error else []
    return "\n".join(lines)
