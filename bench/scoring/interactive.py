"""An interactive run's figures (bench run --ask N), from its stored results only: pass@1 after 0, 1, ... N questions
the simulated person answered, the precision of "passed", the time a task took and what its doubt batch added.

Each task's results row keeps the answer after each number of questions (answer_by_question: the chooser's pick
before each question, then the solve's answer), so one run gives the whole curve. They are read apart from the
honest figures, never mixed with them: a person's answers reached the loop.
"""

from __future__ import annotations

from bench.protocol.labels import LOST_STATUSES


def answer_after_questions(result: dict, k: int) -> int | None:
    """Index of the task's answer after k questions (the last one when its solve asked fewer); None when the task
    never had an answer."""
    by_question = result.get("answer_by_question")
    if result.get("final_status") in LOST_STATUSES or not by_question:
        return None
    return by_question[min(k, len(by_question) - 1)]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def interactive_metrics(results: list[dict], questions: int) -> dict:
    """pass@1 after 0 .. questions questions (the hidden verdict of the answer after each, a task without an answer
    failing); the precision of "passed": of the final answers that pass the visible tests and those the answers added,
    the share that pass the hidden tests; questions asked a task; the seconds a task took and those its doubt batch
    added, on average."""
    def hidden_after(result: dict, k: int) -> bool:
        index = answer_after_questions(result, k)
        return index is not None and bool(result["hidden_by_attempt"][index])

    finals = [(r, answer_after_questions(r, questions)) for r in results]
    passed = [bool(r["hidden_by_attempt"][i]) for r, i in finals if i is not None and r["visible_by_attempt"][i]]
    return {
        "questions_allowed": questions,
        "pass_after_questions": [_mean([hidden_after(r, k) for r in results]) for k in range(questions + 1)],
        "passed_precision": _mean(passed),
        "answers_passed": len(passed),
        "questions_per_task": _mean([max(0, len(r.get("answer_by_question") or []) - 1) for r in results]),
        "seconds_per_task": _mean([r["seconds"] or 0.0 for r in results]),
        "doubt_seconds_per_task": _mean([r.get("doubt_seconds") or 0.0 for r in results]),
    }
