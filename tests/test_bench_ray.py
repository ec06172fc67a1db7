"""Bench runs on a real local Ray cluster (one per test session): the same rows as threads, an actor killed
mid-run, a driver killed with SIGKILL, bad addresses and endpoints, the honest-prompt audit, a real model."""

from __future__ import annotations

import http.server
import json
import os
import signal
import socket
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from agent import Search
from backend_runs import EIGHT, assert_a_dead_endpoint_is_named, assert_each_task_once, assert_same_rows, start_driver
from bench.__main__ import main as bench_cli
from bench.datasets.humaneval import load_problems
from bench.reports.words import backend_words
from bench.runs import store
from bench.runs.code_version import code_version
from bench.runs.config import RunConfig
from bench.runs.lifecycle import resume_run, start_run
from bench.runs.record import Run
from fakes import ScriptedRecipe
from polling import wait_for
from ports import free_port
from prompt_audit import leaks

ray = pytest.importorskip("ray")
PROBLEMS = {p["task_id"]: p for p in load_problems()}


def _ray_config(address: str, **changes) -> RunConfig:
    base = {"tasks": "0-7", "search": Search(budget=3, strategy="repair"), "backend": "ray", "ray_address": address,
            "actors": 2, "cpus_per_actor": 1.0}
    return RunConfig(**{**base, **changes})


def _audit(db_path: Path, run_id: str) -> list[str]:
    rows = store.attempts(store.open_store(db_path), run_id)
    assert rows
    return [row["task_id"] for row in rows if leaks(PROBLEMS[row["task_id"]], json.loads(row["messages"]))]


@pytest.mark.ray
def test_a_ray_run_gives_the_threads_rows_and_keeps_the_protocol_honest(tmp_path, ray_cluster):
    db_path = tmp_path / "bench.sqlite"
    threads = start_run(RunConfig(tasks="0-7", search=Search(budget=3, strategy="repair"), parallel=2,
                                                backend="threads"), db_path, solver=EIGHT(), background=False)
    on_ray = start_run(_ray_config(ray_cluster), db_path, recipe=EIGHT, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, on_ray)
    assert run.status == "finished", run.error
    assert (run.backend, run.actors, run.cpus_per_actor, run.ray_address) == ("ray", 2, 1.0, ray_cluster)
    assert run.model == "scripted" and run.code_version == code_version()
    ours = assert_same_rows(db, on_ray, threads)
    assert [r["task_id"] for r in ours] == [f"HumanEval/{i}" for i in range(8)]
    theirs = store.results(db, threads)
    host = socket.gethostname()
    assert {r["worker"] for r in ours} == {f"actor-1@{host}", f"actor-2@{host}"}  # both actors took tasks
    assert {r["worker"] for r in theirs} <= {"thread-1", "thread-2"}
    assert _audit(db_path, on_ray) == []


@pytest.mark.ray
def test_the_prompt_audit_catches_a_leak_on_ray_too(tmp_path, ray_cluster):
    # Oracle feedback puts hidden-test failures in the repair prompt: the audit must see them, or it proves nothing.
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(_ray_config(ray_cluster, tasks="1", feedback="oracle", actors=None), db_path,
                       recipe=ScriptedRecipe(), background=False)
    run = store.get_run(store.open_store(db_path), run_id)
    assert run.status == "finished" and run.actors == 2  # no count given: as many as the 2 CPUs hold
    assert _audit(db_path, run_id) == ["HumanEval/1", "HumanEval/1"]  # both repairs read the hidden check


def _actors_of(run_id: str) -> list[str]:
    named = ray.util.list_named_actors(all_namespaces=True)
    return [a["name"] for a in named if a["name"].startswith(f"bench-{run_id}")]


@pytest.mark.ray
@pytest.mark.parametrize("restart", [True, False], ids=["ray-restarts-it", "dead-for-good"])
def test_an_actor_killed_mid_run_leaves_the_run_complete_with_each_task_once(tmp_path, ray_cluster, restart):
    db_path = tmp_path / "bench.sqlite"
    # Tasks long enough that, on a loaded machine, the run is still going when its second actor is up.
    recipe = ScriptedRecipe(right=frozenset(PROBLEMS), delay=1.0)
    run_id = start_run(_ray_config(ray_cluster, tasks="0-7"), db_path, recipe=recipe)
    db = store.open_store(db_path)
    wait_for(lambda: len(store.finished_task_ids(db, run_id)) >= 1 and len(_actors_of(run_id)) == 2, timeout=180)
    victim = ray.get_actor(_actors_of(run_id)[0], namespace="self-healing-agent")
    assert len(store.finished_task_ids(db, run_id)) < 8, "the run ended before an actor could be killed"
    ray.kill(victim, no_restart=not restart)  # in the middle of a task: each takes at least 1 s
    wait_for(lambda: store.get_run(db, run_id).status in ("finished", "failed", "stopped"), timeout=180)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    assert sorted(r["task_id"] for r in store.results(db, run_id)) == [f"HumanEval/{i}" for i in range(8)]
    pairs = [(a["task_id"], a["iteration"]) for a in store.attempts(db, run_id)]
    assert len(pairs) == len(set(pairs)) == 8  # each task once, one right answer each
    if not restart:
        assert "the actor died" in (run.notes or "")


@pytest.mark.ray
def test_a_driver_killed_with_sigkill_resumes_with_nothing_lost(tmp_path, ray_cluster):
    db_path = tmp_path / "bench.sqlite"
    proc = start_driver(db_path, f'tasks="0-5", backend="ray", ray_address={ray_cluster!r}, actors=2',
                        "ScriptedRecipe(delay=0.4)")
    run_id = None
    deadline = time.time() + 180
    while time.time() < deadline and proc.poll() is None and run_id is None:
        time.sleep(0.2)
        runs = store.list_runs(store.open_store(db_path)) if db_path.exists() else []
        run_id = runs[0].id if runs and runs[0].done >= 1 else None
    assert run_id, proc.stderr.read().decode() if proc.poll() is not None else "no task finished"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    db = store.open_store(db_path)
    assert store.get_run(db, run_id).state() == "interrupted"
    before = store.finished_task_ids(db, run_id)
    assert 1 <= len(before) < 6
    resume_run(run_id, db_path, recipe=ScriptedRecipe(), background=False)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    results = assert_each_task_once(db, run_id, 6)
    assert before <= {r["task_id"] for r in results}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def not_ray():
    """A plain HTTP server on a loopback port: something answers there, and it is not Ray."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_no_ray_at_the_address_and_an_address_that_is_not_ray_say_so(tmp_path, not_ray, capsys):
    nothing = f"127.0.0.1:{free_port()}"
    with pytest.raises(ValueError, match=f"no Ray cluster at {nothing}"):
        start_run(_ray_config(nothing), tmp_path / "b.sqlite", recipe=ScriptedRecipe())
    with pytest.raises(ValueError, match=f"{not_ray} answers but is not a Ray cluster"):
        start_run(_ray_config(not_ray), tmp_path / "b.sqlite", recipe=ScriptedRecipe())
    assert not (tmp_path / "b.sqlite").exists() or not store.list_runs(store.open_store(tmp_path / "b.sqlite"))
    code = bench_cli(["--db", str(tmp_path / "c.sqlite"), "run", "--tasks", "0", "--backend", "ray",
                      "--ray-address", nothing])
    err = capsys.readouterr().err
    assert code == 2 and f"no Ray cluster at {nothing}" in err and len(err.strip().splitlines()) == 1


@pytest.mark.ray
def test_more_cpus_per_actor_than_the_cluster_has_is_a_clear_failure(tmp_path, ray_cluster):
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(_ray_config(ray_cluster, tasks="0", actors=1, cpus_per_actor=4), db_path,
                       recipe=ScriptedRecipe(), background=False)
    run = store.get_run(store.open_store(db_path), run_id)
    assert run.status == "failed"
    assert "each actor asks for 4 CPUs, but the largest node of the cluster has 2" in run.error
    run_id = start_run(_ray_config(ray_cluster, tasks="0", actors=3, cpus_per_actor=1), db_path,
                       recipe=ScriptedRecipe(), background=False)
    assert "3 actors of 1 CPUs do not fit: the cluster holds 2" in store.get_run(store.open_store(db_path),
                                                                                   run_id).error


@pytest.mark.ray
@pytest.mark.parametrize("backend", ["threads", "ray"])
def test_an_endpoint_that_does_not_answer_is_named_and_the_others_carry_on(tmp_path, ray_cluster, backend):
    assert_a_dead_endpoint_is_named(tmp_path / "bench.sqlite", backend=backend,
                                    ray_address=ray_cluster if backend == "ray" else None)


def test_bad_backend_options_exit_2_with_one_line(tmp_path, capsys):
    for args, message in ((["--backend", "ray", "--cpus-per-actor", "0"], "CPUs per actor must be above 0"),
                          (["--actors", "0", "--backend", "ray"], "actors must be 1 or more"),
                          (["--endpoints", "localhost:11434"], "is not a URL"),
                          (["--provider", "llamacpp", "--endpoints", "http://a:1"], "endpoints are model servers"),
                          (["--backend", "dask"], "invalid choice: 'dask'"),
                          # the flags' old names are gone with the old columns (bench.runs.migration)
                          (["--executor", "ray"], "unrecognized arguments: --executor"),
                          (["--workers", "2"], "unrecognized arguments: --workers")):
        try:
            code = bench_cli(["--db", str(tmp_path / "b.sqlite"), "run", "--tasks", "0", *args])
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (args, err)


def test_backend_labels_name_the_threads_cpus_cluster_and_endpoints():
    base = Run("r", backend="threads", parallel=2, ray_address="")
    assert backend_words(base) == "threads x2"
    assert backend_words(replace(base, backend="ray", actors=2, cpus_per_actor=1.0)) == \
        "ray 2 actors x 1 CPU (local Ray)"
    assert backend_words(replace(base, backend="ray", actors=0, cpus_per_actor=2.0, ray_address="10.0.0.5:6379",
                                 endpoints=["http://a:1", "http://b:1"])) == \
        "ray actors filling the cluster x 2 CPU at 10.0.0.5:6379 on 2 endpoints"


@pytest.mark.ray
@pytest.mark.model
def test_a_real_model_ray_run_of_two_tasks(tmp_path, ray_cluster):
    db_path = tmp_path / "bench.sqlite"
    config = RunConfig(tasks="0,2", provider="llamacpp", search=Search(budget=2), max_tokens=256, backend="ray",
                       ray_address=ray_cluster, actors=1, cpus_per_actor=2)
    run_id = start_run(config, db_path, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    assert run.provider == "llamacpp" and "0.5b" in run.model
    results = store.results(db, run_id)
    assert [r["task_id"] for r in results] == ["HumanEval/0", "HumanEval/2"]
    assert {r["worker"] for r in results} == {f"actor-1@{socket.gethostname()}"}
    assert all(r["tokens_out"] > 0 for r in results)
    assert _audit(db_path, run_id) == []
