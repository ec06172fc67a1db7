"""Bench runs with a prompt-keyed fake model: background, stop, resume, concurrent writers, protocol, CLI."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest

from agent import Search, Solver
from agent.config import describe_search, search_dict
from bench.datasets.humaneval import load_problems
from bench.runs import store
from bench.runs.config import RunConfig, run_search
from bench.runs.lifecycle import create_run, resume_run, start_run, stop_run
from bench.scoring.metrics import run_metrics
from fakes import PromptKeyedModel, humaneval_answers
from polling import wait_for

PROBLEMS = load_problems()


def fake_solver(tmp_path, right=(), fix_on_attempt=None, delay=0.0) -> Solver:
    model = PromptKeyedModel(answer=humaneval_answers(PROBLEMS, right=set(right), fix_on_attempt=fix_on_attempt),
                             delay=delay)
    return Solver(model, tmp_path / "solves.sqlite")


def test_background_run_stores_every_task_and_the_repair_curve(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    solver = fake_solver(tmp_path, right={"HumanEval/0"}, fix_on_attempt={"HumanEval/1": 2, "HumanEval/2": 4})
    config = RunConfig(tasks="0-3", search=Search(budget=4, strategy="repair"), parallel=2, backend="threads")
    run_id = start_run(config, db_path, solver=solver)
    db = store.open_store(db_path)
    wait_for(lambda: store.get_run(db, run_id).status in ("finished", "failed"))
    run = store.get_run(db, run_id)
    assert run.status == "finished" and run.protocol == "honest"
    results = {r["task_id"]: r for r in store.results(db, run_id)}
    assert [results[t]["iterations"] for t in sorted(results)] == [1, 2, 4, 4]
    metrics = run_metrics(run, list(results.values()))
    assert metrics["pass_after_k_repairs"] == [0.25, 0.5, 0.5, 0.75]
    assert metrics["pass_at_1"] == 0.75 and metrics["first_attempt_pass_at_1"] == 0.25
    assert len(store.attempts(db, run_id)) == 11
    # Its tasks are solves the Debugger can open, listed apart from people's own.
    assert solver.store.solves() == []
    assert {s["origin"] for s in solver.store.solves(origin=None)} == {f"bench run {run_id}"}
    assert len(solver.store.solves(origin=f"bench run {run_id}")) == 4


def test_feedback_none_is_one_shot_and_oracle_is_labelled_leaky(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    solver = fake_solver(tmp_path, fix_on_attempt={"HumanEval/1": 2})
    one_shot = start_run(RunConfig(tasks="1", feedback="none",
                                                 backend="threads"), db_path, solver=solver, background=False)
    oracle = start_run(RunConfig(tasks="1", feedback="oracle", search=Search(strategy="repair"),
                                               backend="threads"), db_path,
                       solver=solver, background=False)
    db = store.open_store(db_path)
    assert store.get_run(db, one_shot).protocol == "honest" and store.results(db, one_shot)[0]["iterations"] == 1
    assert store.get_run(db, oracle).protocol == "leaky"
    # In oracle mode the hidden check runs in the loop: its failure report reaches the repair prompt.
    repair = json.loads(store.attempts(db, oracle)[1]["messages"])[-1]["content"]
    hidden = [line.strip() for line in PROBLEMS[1]["test"].splitlines() if line.strip().startswith("assert")]
    assert "check(separate_paren_groups)" in repair
    assert any(line in repair for line in hidden), repair


def test_stop_at_task_boundary_then_resume_without_duplicates(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    solver = fake_solver(tmp_path, right={p["task_id"] for p in PROBLEMS[:8]}, delay=0.2)
    run_id = start_run(RunConfig(tasks="0-7", parallel=1, backend="threads"), db_path, solver=solver)
    db = store.open_store(db_path)
    wait_for(lambda: len(store.finished_task_ids(db, run_id)) >= 2)
    stop_run(run_id, db_path)
    wait_for(lambda: store.get_run(db, run_id).status == "stopped")
    stopped_at = len(store.finished_task_ids(db, run_id))
    assert 2 <= stopped_at < 8
    calls_before = solver.model.calls
    resume_run(run_id, db_path, solver=solver, background=False)
    assert store.get_run(db, run_id).status == "finished"
    assert len(store.results(db, run_id)) == 8
    assert solver.model.calls - calls_before == 8 - stopped_at  # finished tasks were not redone
    pairs = [(a["task_id"], a["iteration"]) for a in store.attempts(db, run_id)]
    assert len(pairs) == len(set(pairs)) == 8


def test_a_stop_in_the_middle_of_a_task_leaves_it_at_its_next_step_and_a_resume_does_it_again(tmp_path):
    # HumanEval/1 is wrong until its fifth candidate, each drawn in a second: its whole search takes five seconds and
    # more. A stop asked during its first candidate ends the run at the next step, not after the search.
    db_path = tmp_path / "bench.sqlite"
    solver = fake_solver(tmp_path, fix_on_attempt={"HumanEval/1": 5}, delay=1.0)
    config = RunConfig(tasks="1", search=Search(budget=5, strategy="repair"), parallel=1, backend="threads")
    run_id = start_run(config, db_path, solver=solver)
    db = store.open_store(db_path)
    wait_for(lambda: solver.model.calls >= 1)
    stop_run(run_id, db_path)
    wait_for(lambda: store.get_run(db, run_id).status == "stopped")
    assert solver.model.calls < 5
    assert store.results(db, run_id) == [] and store.attempts(db, run_id) == []  # nothing of the task is kept
    resume_run(run_id, db_path, solver=solver, background=False)
    assert store.get_run(db, run_id).status == "finished"
    assert [r["iterations"] for r in store.results(db, run_id)] == [5]
    assert [a["iteration"] for a in store.attempts(db, run_id)] == [1, 2, 3, 4, 5]


def test_concurrent_writers_and_a_reader_never_see_a_locked_database(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    ids = [start_run(RunConfig(tasks="0-9", parallel=3, backend="threads"), db_path,
                     solver=fake_solver(tmp_path / str(i), right={p["task_id"] for p in PROBLEMS[:10]}))
           for i in range(2)]
    errors = []

    def read_while_writing():
        reader = store.open_store(db_path)
        deadline = time.time() + 120
        while time.time() < deadline and any(
                store.get_run(reader, i).status not in ("finished", "failed") for i in ids):
            try:
                store.list_runs(reader)
                [store.results(reader, i) for i in ids]
            except sqlite3.OperationalError as exc:
                errors.append(str(exc))
    thread = threading.Thread(target=read_while_writing)
    thread.start()
    thread.join(timeout=120)
    db = store.open_store(db_path)
    assert errors == []
    for run_id in ids:
        assert store.get_run(db, run_id).status == "finished", store.get_run(db, run_id).error
        assert len(store.results(db, run_id)) == 10


def test_model_outage_stops_the_run_and_keeps_finished_tasks(tmp_path):
    db_path = tmp_path / "bench.sqlite"

    def answer(prompt, attempt):
        if "def separate_paren_groups" in prompt:
            raise ConnectionError("Connection refused")
        return humaneval_answers(PROBLEMS, right={"HumanEval/0"})(prompt, attempt)
    solver = Solver(PromptKeyedModel(answer=answer), tmp_path / "s.sqlite")
    run_id = start_run(RunConfig(tasks="0-1", parallel=1,
                                               backend="threads"), db_path, solver=solver, background=False)
    run = store.get_run(store.open_store(db_path), run_id)
    assert run.status == "failed" and "HumanEval/1" in run.error and "stopped answering" in run.error
    assert store.finished_task_ids(store.open_store(db_path), run_id) == {"HumanEval/0"}


def test_a_run_stores_its_search_whole_and_solves_with_it_whatever_the_environment_says_later(tmp_path, monkeypatch):
    db_path = tmp_path / "bench.sqlite"
    search = Search(budget=3, strategy="repair", token_budget=700, prompt_version="v4")
    _, run_id = create_run(RunConfig(tasks="0-1", search=search, parallel=1, backend="threads"), db_path)
    monkeypatch.setenv("BUDGET", "7")  # the environment of the process that runs it: the stored search rules
    monkeypatch.setenv("STRATEGY", "sample")
    solver = fake_solver(tmp_path)
    resume_run(run_id, db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished" and run.search == search
    assert json.loads(db["runs"].get(run_id)["search"]) == search_dict(search)  # stored whole
    assert [r["iterations"] for r in store.results(db, run_id)] == [3, 3]
    assert {solver.search_of(s["thread_id"]) for s in solver.store.solves(origin=None)} == {search}
    # Every CLI says it in the same words.
    words = describe_search(search)
    assert f"search: {words}" in _cli("--db", str(db_path), "show", run_id).stdout
    assert f"[{words}]" in _cli("--db", str(db_path), "list").stdout
    # Nothing fed back: one candidate, whatever the search says.
    assert run_search(RunConfig(feedback="none", search=search,
                                              backend="threads")) == replace(search, budget=1)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args, message", [
    (["run", "--tasks", "HumanEval/999"], "unknown task"),
    (["run", "--tasks", "9-3"], "start is after the end"),
    (["show", "nope"], "no run 'nope'"),
    (["resume", "nope"], "no run 'nope'"),
    (["run", "--tasks", "0", "--budget", "0"], "--budget is the number of candidates per task, 1 or more"),
    (["run", "--tasks", "0", "--strategy", "guess"], "invalid choice: 'guess'"),
])
def test_cli_bad_input_exits_2_with_one_line_naming_the_problem(tmp_path, args, message):
    done = _cli("--db", str(tmp_path / "b.sqlite"), *args)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_cli_unreadable_database_exits_2(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    done = _cli("--db", str(bad), "list")
    assert done.returncode == 2 and "cannot use" in done.stderr


def test_cli_list_show_compare_export(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    a = start_run(RunConfig(tasks="0-1", feedback="none", backend="threads"), db_path,
                  solver=fake_solver(tmp_path / "a", right={"HumanEval/0"}), background=False)
    b = start_run(RunConfig(tasks="0-1", feedback="none", backend="threads"), db_path,
                  solver=fake_solver(tmp_path / "b", right={"HumanEval/1"}), background=False)
    listed = _cli("--db", str(db_path), "list")
    assert listed.returncode == 0 and a in listed.stdout and b in listed.stdout
    assert _cli("list", "--db", str(db_path)).stdout == listed.stdout  # --db after the subcommand works too
    shown = _cli("--db", str(db_path), "show", a, "--json")
    assert json.loads(shown.stdout)["metrics"]["pass_at_1"] == 0.5
    compared = json.loads(_cli("--db", str(db_path), "compare", a, b, "--json").stdout)
    assert compared["fixed"] == ["HumanEval/1"] and compared["regressed"] == ["HumanEval/0"]
    report = _cli("--db", str(db_path), "report")
    assert report.returncode == 0 and "Honest protocol" in report.stdout and f"`{b}`" in report.stdout
    assert f"`{a}`" not in report.stdout  # only the newest finished run of the same configuration
    out = tmp_path / "samples.jsonl"
    assert _cli("--db", str(db_path), "export", a, "--jsonl", str(out)).returncode == 0
    assert [json.loads(line)["task_id"] for line in out.read_text().splitlines()] == ["HumanEval/0", "HumanEval/1"]


def test_a_sample_run_records_every_candidate_and_the_diagnostics(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    # HumanEval/2 is right only on the first try's conversation (attempt 1), so the samples of its first
    # prompt are right too; HumanEval/3 is never right.
    solver = fake_solver(tmp_path, right={"HumanEval/2"})
    config = RunConfig(tasks="2-3", search=Search(budget=5, strategy="sample"), parallel=1, backend="threads")
    run_id = start_run(config, db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.search == Search(budget=5, strategy="sample") and run.status == "finished"
    attempts = store.attempts(db, run_id, "HumanEval/3")
    assert [a["kind"] for a in attempts] == ["first", "sample", "sample", "sample", "sample"]
    metrics = run_metrics(run, store.results(db, run_id))
    assert metrics["oracle_ceiling"] == 0.5 and metrics["visible_precision"] == 1.0
    assert metrics["candidates_per_task"] == 3.0
    shown = _cli("--db", str(db_path), "show", run_id)
    assert "oracle ceiling  50.0%" in shown.stdout and "never used to choose" in shown.stdout
    # list_runs hands back get_run's records.
    assert store.list_runs(db)[0] == run and run.task_ids == ["HumanEval/2", "HumanEval/3"]
