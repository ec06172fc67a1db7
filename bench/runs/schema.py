"""The bench store's tables and their columns, and the write transaction every change to them takes.

Tables: runs (one row a run), results (one a finished task), attempts (one a candidate), tasks (a task file's
tasks, for the runs made from one, so they resume and read without the file) and questions (one a question an
interactive run's solve put, with the simulated person's answer). Older databases reach these columns
through bench.runs.migration, once, when they are opened.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlite_utils import Database

RUN_COLUMNS = {
    "id": str, "created": float, "started": float, "finished": float, "status": str, "protocol": str,
    "provider": str, "model": str, "feedback": str, "tasks_spec": str, "task_ids": str, "parallel": int,
    "code_version": str, "pid": int, "heartbeat": float, "error": str, "elapsed": float, "model_arg": str,
    "max_tokens": int, "owner": str, "isolation": str, "backend": str, "ray_address": str, "actors": int,
    "cpus_per_actor": float, "endpoints": str, "notes": str, "dataset": str, "tasks_file": str, "tasks_sha256": str,
    "rescored_from": str,  # a rescored run (bench.scoring.rescore): the run whose candidates it scored again
    # runs of independent samples: samples a task and their temperature, or the file imported samples came from
    "samples": int, "temperature": float, "samples_file": str, "samples_sha256": str,
    "search": str,  # JSON: the run's agent.config.Search, whole (search_dict); NULL for imported samples
    "person": str,  # who started it, on a server people sign in to ("" for the one person of one without)
    "ask": int,  # an interactive run: questions a task a simulated person answers, at most; NULL for the others
    "corrections": int,  # and rows of each answer's table it corrects after them, at most; NULL: it reads none
}
JSON_RUN_COLUMNS = ("task_ids", "endpoints")  # lists, stored as JSON text, read decoded (bench.runs.record)
RESULT_COLUMNS = {
    "run_id": str, "task_id": str, "task_index": int, "final_status": str, "visible_passed": int,
    "hidden_passed": int, "iterations": int, "tokens_in": int, "tokens_out": int, "seconds": float,
    "model_seconds": float, "hidden_by_attempt": str, "visible_by_attempt": str, "thread_id": str, "error": str,
    "visible_tests": int, "finished": float, "answer_by_cap": str, "choice": str, "worker": str, "extract_errors": int,
    "pass_at_1": float,  # a sampled run's task: its share of passing samples, c / n
    # An interactive run's task: the answer's index after 0, 1, ... questions (agent.loop.questions.
    # answers_after_questions), and the seconds its doubt batch added (drawing it, and its tests).
    "answer_by_question": str, "doubt_seconds": float,
    # An interactive run's task: the inputs its candidates were probed on ([call, kind] each, agent.loop.probes, and
    # the place of an argument read after the call, for a probe that reads one), the
    # doubt's added ones included, in the order of each attempt's behaviour; NULL for the others and before it.
    "probes": str,
    # An interactive run with corrections: the answer's index after 0, 1, ... rows of its table the simulated person
    # corrected (agent.loop.questions.answers_after_corrections; the first is the answer after the questions), and
    # the rows it read to find them (up to each wrong one; all, when none looked wrong).
    "answer_by_correction": str, "rows_read": int,
}
JSON_RESULT_COLUMNS = ("hidden_by_attempt", "visible_by_attempt", "answer_by_cap", "answer_by_question", "probes",
                       "answer_by_correction")
ATTEMPT_COLUMNS = {
    "run_id": str, "task_id": str, "iteration": int, "code": str, "answer": str, "visible_status": str,
    "visible_report": str, "hidden_passed": int, "hidden_status": str, "hidden_report": str, "messages": str,
    "tokens_in": int, "tokens_out": int, "prompt_tokens_reused": int, "seconds_model": float,
    "seconds_tests": float, "kind": str, "signature": str, "temperature": float, "seed": int, "extract_error": str,
    "behaviour": str,  # JSON: the outcome on each probe (agent.loop.probes), so a chooser can be re-run on stored runs
    "removed": str,  # JSON: what cleaning took out of the answer's code (agent.loop.answer_cleaning); NULL before it
}
# A task file's tasks, as bench.datasets.task.Task, for the runs made from one (a packaged dataset's come with it).
TASK_COLUMNS = {
    "run_id": str, "task_id": str, "task_index": int, "prompt": str, "tests": str, "hidden_tests": str,
    "entry_point": str, "visible_count": int,
    "reference": str,  # a right answer, for the interactive protocol's simulated person only; NULL: the task has none
}
# The questions an interactive run's solves put and the simulated person's answers (agent.loop.questions.Asked), one
# row a question, in the order asked (number, from 1).
QUESTION_COLUMNS = {
    "run_id": str, "task_id": str, "number": int, "call": str, "outside": int,
    "options": str,  # JSON: [{"outcome": "= 8", "candidates": [2, 4]}, ...], largest group first
    "reply": str,  # JSON: agent.loop.questions.Reply (choice, returns, raises; all None: skipped)
    "answer": str,  # the reply in words: "returns 8", "raises ValueError", "skipped"
    "added_test": str,  # the test the answer added, in the tests' own style; NULL for a skip
    "kept": str, "dropped": str,  # JSON: the candidates' numbers that agree with the answer, and those that do not
    "answer_before": int,  # the candidate the chooser would have answered with had the solve not asked
    "by": str,  # who chose the input: "solve" (a question it put) or "person" (a row of the answer's table corrected)
    "argument": int,  # the place of the argument asked about after the call (from 0); NULL: the call's result
}
TABLES = {"runs": (RUN_COLUMNS, "id"), "results": (RESULT_COLUMNS, ("run_id", "task_id")),
          "attempts": (ATTEMPT_COLUMNS, ("run_id", "task_id", "iteration")),
          "tasks": (TASK_COLUMNS, ("run_id", "task_id")),
          "questions": (QUESTION_COLUMNS, ("run_id", "task_id", "number"))}


@contextlib.contextmanager
def writing(db: Database) -> Iterator[None]:
    """A write transaction that takes the write lock up front (BEGIN IMMEDIATE).

    sqlite-utils' atomic() starts with a plain BEGIN; its helpers read before they write, and a
    read transaction that must then become a writer fails at once with "database is locked"
    when another connection wrote meanwhile: the busy timeout does not apply to that upgrade.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
