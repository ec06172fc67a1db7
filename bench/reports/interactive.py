"""What the CLI and the Bench page say of an interactive run (bench run --ask N), written once: its figures after 0,
1, ... questions, the precision of "passed", the time a task took and its doubt batch's share, the honest run of the
same tasks beside it (never mixed in), and the questions its solves put with the simulated person's answers."""

from __future__ import annotations

from sqlite_utils import Database

from agent.loop.questions import Question
from bench.protocol.labels import Protocol
from bench.reports.words import search_words, tasks_words
from bench.runs import store
from bench.runs.record import Run
from bench.scoring.metrics import run_metrics

INTERACTIVE_TITLE = ("INTERACTIVE protocol (a simulated person answers the solves' questions from each task's "
                     "reference solution; labelled, never mixed with the honest figures)")


def _pct(fraction: float) -> str:
    return f"{100 * fraction:.1f}%"


def after_questions_words(metrics: dict) -> str:
    """'k=0: 33.3%  k=1: 66.7%  k=2: 66.7%': pass@1 after k questions."""
    return "  ".join(f"k={k}: {_pct(v)}" for k, v in enumerate(metrics["pass_after_questions"]))


def honest_beside(db: Database, run: Run) -> dict | None:
    """The newest finished honest run of the same model on the very same tasks, the figure an interactive run is read
    beside: {"run": its id, "pass_at_1": its pass@1}; None when there is none."""
    twin = next((other for other in store.list_runs(db)
                 if other.protocol == Protocol.HONEST and other.status == "finished"
                 and (other.provider, other.model, other.dataset, other.task_ids)
                 == (run.provider, run.model, run.dataset, run.task_ids)), None)
    return {"run": twin.id, "pass_at_1": run_metrics(twin, store.results(db, twin.id))["pass_at_1"]} if twin else None


def interactive_lines(metrics: dict) -> list[str]:
    """show's and the page's lines on an interactive run (metrics: show_metrics, with honest_beside)."""
    twin = metrics.get("honest_beside")
    honest = (f"beside it, honest run {twin['run']} of this model on the same tasks: pass@1 {_pct(twin['pass_at_1'])}"
              if twin else "no finished honest run of this model on the same tasks to read it beside")
    doubt, seconds = metrics["doubt_seconds_per_task"], metrics["seconds_per_task"]
    return [*_question_lines(metrics, doubt, seconds), *_correction_lines(metrics), honest]


def _question_lines(metrics: dict, doubt: float, seconds: float) -> list[str]:
    return [
        f"interactive pass@1 after k questions (at most {metrics['questions_allowed']} a task): "
        + after_questions_words(metrics),
        f"precision of \"passed\": {_pct(metrics['passed_precision'])} of the {metrics['answers_passed']} answers that "
        "pass the visible tests and those the answers added pass the hidden tests",
        f"questions asked: {metrics['questions_per_task']:.2f} a task   time a task {seconds:.1f}s, of which the doubt "
        f"batch {doubt:.1f}s ({_pct(doubt / seconds if seconds else 0.0)})",
    ]


def after_corrections_words(metrics: dict) -> str:
    """'k=0: 33.3%  k=1: 50.0%': pass@1 after k rows of the answer's table corrected."""
    return "  ".join(f"k={k}: {_pct(v)}" for k, v in enumerate(metrics["pass_after_corrections"]))


def _correction_lines(metrics: dict) -> list[str]:
    """The lines of a run whose simulated person read the answers' tables after the questions; none for another."""
    if "pass_after_corrections" not in metrics:
        return []
    return [
        f"then reading the answer's table, pass@1 after k rows corrected (at most {metrics['corrections_allowed']} a "
        "task): " + after_corrections_words(metrics),
        f"precision of \"passed\" after them: {_pct(metrics['passed_precision_corrected'])} of "
        f"{metrics['answers_passed_corrected']}   rows read: {metrics['rows_read_per_task']:.2f} a task   corrections: "
        f"{metrics['corrections_per_task']:.2f} a task",
    ]


def question_table(db: Database, run_id: str, task_id: str | None = None) -> list[dict]:
    """The questions an interactive run's solves put (of one task, when given) and the simulated person's answers,
    one row each, as the page and a report show them."""
    return [{"task": q["task_id"], "question": q["number"],
             "call": Question(q["call"], False, (), q.get("argument")).subject(),
             "choices": " | ".join(f"{o['outcome']} (#{', #'.join(map(str, o['candidates']))})" for o in q["options"]),
             "answer": q["answer"], "test added": q["added_test"] or "", "outside the contract": bool(q["outside"]),
             "answer before": q["answer_before"], "by": q.get("by") or "solve"}
            for q in store.questions(db, run_id, task_id)]


def interactive_table(db: Database, runs: list[Run]) -> list[str]:
    """The interactive runs among these, as a Markdown table of their own under INTERACTIVE_TITLE (bench report): pass@1
    after each number of questions, the precision of "passed", questions and seconds a task, and the honest run of the
    same tasks in a column apart."""
    chosen = [r for r in runs if r.protocol == Protocol.INTERACTIVE]
    if not chosen:
        return []
    lines = [f"**{INTERACTIVE_TITLE}**", "",
             "| model | tasks | search | pass@1 after k questions (k=0..) | precision of \"passed\" | questions/task | "
             "time/task | doubt batch/task | honest pass@1, same tasks | run |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in chosen:
        m = run_metrics(run, store.results(db, run.id))
        twin = honest_beside(db, run)
        curve = " / ".join(f"{100 * v:.1f}" for v in m["pass_after_questions"])
        if "pass_after_corrections" in m:  # the rows a person corrected after the questions, apart from them
            curve += ("; after k rows corrected: " + " / ".join(f"{100 * v:.1f}" for v in m["pass_after_corrections"])
                      + f" ({m['rows_read_per_task']:.1f} rows read a task)")
        lines.append(f"| {run.provider}: {run.model} | {tasks_words(run, m['tasks'])} | {search_words(run)}, up to "
                     f"{run.ask} questions | {curve} | {_pct(m['passed_precision'])} | "
                     f"{m['questions_per_task']:.2f} | {m['seconds_per_task']:.1f}s | "
                     f"{m['doubt_seconds_per_task']:.1f}s | "
                     f"{_pct(twin['pass_at_1']) + ' (`' + twin['run'] + '`)' if twin else '-'} | `{run.id}` |")
    return lines + [""]
