"""The OpenAI-compatible provider against a real server: llama-cpp-python's own (`python -m llama_cpp.server`,
the `[server]` extras of requirements-dev.txt) serving the embedded Qwen2.5-Coder-0.5B.

This server streams no token usage (it ignores stream_options), so these tests also show that its answers are
counted all the same: a solve, and a bench run over it and a dead endpoint."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from agent import RunFinished, Search, Settings, make_chat_model, make_solver
from agent.models import find_model, pull
from agent.models.weights import ModelNotPulledError
from bench.runs import store
from ports import free_port

pytestmark = pytest.mark.model

MODEL = "qwen2.5-coder-0.5b"  # the name the server serves the embedded GGUF under (--model_alias)
TASK = "Write a function add(a, b) that returns the sum of a and b."
TESTS = "assert add(1, 2) == 3\nassert add(-4, 4) == 0\n"
START_TIMEOUT_S = 120


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=2) as response:  # noqa: S310 (loopback)
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    """llama-cpp-python's OpenAI-compatible server on the embedded GGUF, on a free loopback port: its /v1 URL."""
    try:
        path = find_model(MODEL)
    except ModelNotPulledError:
        path = pull(MODEL)
    port, log = free_port(), tmp_path_factory.mktemp("openai-server") / "server.log"
    threads = str(min(2, os.cpu_count() or 1))  # a CI machine has 2 cores; the sandbox needs some too
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--model_alias", MODEL,
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", threads,
           "--n_threads_batch", threads, "--verbose", "False"]
    url = f"http://127.0.0.1:{port}/v1"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _answers(url):
            assert proc.poll() is None, f"the server exited ({proc.returncode}):\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"the server did not answer in {START_TIMEOUT_S} s:\n" \
                                                f"{log.read_text()[-3000:]}"
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_solve_through_the_server_counts_every_candidates_tokens(server_url, tmp_path):
    settings = Settings(provider="openai", model=MODEL, openai_base_url=server_url, data_dir=tmp_path,
                        max_tokens=128)
    solver = make_solver(settings)
    assert "not streamed" in solver.model_spec.reason  # this server streams no usage: it is asked without streaming
    events = list(solver.start(TASK, TESTS, search=Search(budget=2, strategy="repair")))
    final = events[-1]
    assert isinstance(final, RunFinished) and final.status == "passed", solver.state_at(final.thread_id)
    made = solver.candidates(final.thread_id)
    assert made and all(c.tokens_in > 20 and 0 < c.tokens_out <= 128 for c in made), \
        [(c.tokens_in, c.tokens_out) for c in made]
    assert all(c.tokens_per_second for c in made)


def test_the_answer_cap_reaches_the_server(server_url):
    # llama-cpp-python's server reads max_tokens only (not max_completion_tokens, ChatOpenAI's name for it).
    model, _ = make_chat_model(Settings(provider="openai", model=MODEL, openai_base_url=server_url, max_tokens=6))
    answer = model.invoke("Write a long story about a dragon.")
    assert 0 < answer.usage_metadata["output_tokens"] <= 6


def test_a_bench_run_over_the_server_and_a_dead_endpoint_counts_every_attempts_tokens(server_url, tmp_path):
    dead = f"http://127.0.0.1:{free_port()}/v1"
    db_path = tmp_path / "bench.sqlite"
    done = subprocess.run([sys.executable, "-m", "bench", "--db", str(db_path), "run", "--provider", "openai",
                           "--model", MODEL, "--endpoints", f"{server_url},{dead}", "--tasks", "2,7",
                           "--budget", "1", "--max-tokens", "96", "--json"],
                          env={**os.environ, "DATA_DIR": str(tmp_path)}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.strip().splitlines()[-1])["run"]
    assert dead in run["notes"] and server_url not in run["notes"]  # the dead endpoint is named, the live one not
    db = store.open_store(db_path)
    assert [r["task_id"] for r in store.results(db, run["id"])] == ["HumanEval/2", "HumanEval/7"]
    rows = store.attempts(db, run["id"])
    assert len(rows) == 2 and all(r["tokens_in"] > 20 and 0 < r["tokens_out"] <= 96 for r in rows), \
        [(r["task_id"], r["tokens_in"], r["tokens_out"]) for r in rows]
