"""An interactive run's figures (bench run --ask N), from its stored results only: pass@1 after 0, 1, ... N questions
the simulated person answered, the precision of "passed", the time a task took and what its doubt batch added.

Each task's results row keeps the answer after each number of questions (answer_by_question: the chooser's pick
before each question, then the solve's answer), so one run gives the whole curve; a run whose simulated person then
read the answers' tables (bench run --corrections M) keeps the answer after each row it corrected
(answer_by_correction) and the rows it read. They are read apart from the
honest figures, never mixed with them: a person's answers reached the loop.
"""

from __future__ import annotations

from bench.protocol.labels import LOST_STATUSES


def answer_after_questions(result: dict, k: int, column: str = "answer_by_question") -> int | None:
    """Index of the task's answer after k questions (the last one when its solve asked fewer), or after k corrections
    (column answer_by_correction); None when the task never had an answer."""
    answers = result.get(column)
    if result.get("final_status") in LOST_STATUSES or not answers:
        return None
    return answers[min(k, len(answers) - 1)]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def interactive_metrics(results: list[dict], questions: int, corrections: int | None = None) -> dict:
    """pass@1 after 0 .. questions questions (the hidden verdict of the answer after each, a task without an answer
    failing); the precision of "passed": of the answers after them that pass the visible tests and those the answers
    added, the share that pass the hidden tests; questions asked a task; the seconds a task took and those its doubt
    batch added, on average. A run with corrections adds the same after 0 .. corrections rows corrected, the
    corrections and the rows read a task."""
    def hidden_after(result: dict, k: int, column: str) -> bool:
        index = answer_after_questions(result, k, column)
        return index is not None and bool(result["hidden_by_attempt"][index])

    def passed_then(result: dict, index: int, column: str) -> bool:
        # The visible verdicts are on the tests the solve ended with; an answer a person then corrected passed the
        # tests of its time (only a passing answer's table is read), so it counts as passed after the questions.
        # After the corrections it does not: it fails the corrected row, and the solve said "not solved".
        corrected = result.get("answer_by_correction") or []
        return bool(result["visible_by_attempt"][index]) or (
            column == "answer_by_question" and len(corrected) > 1 and index == corrected[0])

    def precision(k: int, column: str) -> list[bool]:
        finals = [(r, answer_after_questions(r, k, column)) for r in results]
        return [bool(r["hidden_by_attempt"][i]) for r, i in finals if i is not None and passed_then(r, i, column)]

    def curve(most: int, column: str) -> list[float]:
        return [_mean([hidden_after(r, k, column) for r in results]) for k in range(most + 1)]

    def steps_per_task(column: str) -> float:
        return _mean([max(0, len(r.get(column) or []) - 1) for r in results])

    passed = precision(questions, "answer_by_question")
    metrics = {
        "questions_allowed": questions,
        "pass_after_questions": curve(questions, "answer_by_question"),
        "passed_precision": _mean(passed),
        "answers_passed": len(passed),
        "questions_per_task": steps_per_task("answer_by_question"),
        "seconds_per_task": _mean([r["seconds"] or 0.0 for r in results]),
        "doubt_seconds_per_task": _mean([r.get("doubt_seconds") or 0.0 for r in results]),
    }
    if corrections:
        corrected = precision(corrections, "answer_by_correction")
        metrics.update({
            "corrections_allowed": corrections,
            "pass_after_corrections": curve(corrections, "answer_by_correction"),
            "passed_precision_corrected": _mean(corrected),
            "answers_passed_corrected": len(corrected),
            "corrections_per_task": steps_per_task("answer_by_correction"),
            "rows_read_per_task": _mean([r.get("rows_read") or 0 for r in results]),
        })
    return metrics
