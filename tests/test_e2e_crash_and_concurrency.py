"""A real `streamlit run` on the embedded model, two browser sessions and a bench run at once, then SIGKILL.

Concurrency: two Playground sessions solve different tasks while a bench run goes on in the same app, each taking
its turn in the line in front of the one model; all finish, no "database is locked", each page shows its own task
only, and the model is mapped once.
Crash: the app is killed mid-solve, with a run waiting for the model; both show as interrupted (their owner's token
is dead), and after a restart the Debugger carries the solve on from its last checkpoint with one click.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from agent import Solver
from bench.runs import store
from browser_pages import ARTIFACTS, outcome, select, settle, type_task, wait_or_explain
from fakes import PromptKeyedModel
from measure.app_server import AppDidNotStart, start_app

pytestmark = [pytest.mark.model, pytest.mark.browser]

FUNCTIONS = {"A": "triple", "B": "shout"}
TASKS = {
    "A": ("Write a function triple(n) that returns n times 3.", "assert triple(2) == 6\nassert triple(0) == 0\n"),
    "B": ("Write a function shout(s) that returns s in upper case.", "assert shout('ab') == 'AB'\n"),
}


def _start_app(data: Path, log_name: str) -> tuple[subprocess.Popen, str]:
    # A budget of two candidates, and no doubt batch (APP_ASK=off), keep the solves and the run within minutes on
    # two cores.
    try:
        return start_app(data, ARTIFACTS / log_name, env={"LLM_PROVIDER": "llamacpp", "LLM_MAX_TOKENS": "128",
                                                          "LLM_NUM_CTX": "4096", "BUDGET": "2", "APP_ASK": "off"})
    except AppDidNotStart as exc:
        pytest.fail(str(exc))


def _model_mappings(pid: int) -> int:
    """How many GGUF mappings the process holds: llama.cpp maps a model's tensor data once per loaded copy."""
    return sum(1 for line in Path(f"/proc/{pid}/maps").read_text().splitlines() if line.endswith(".gguf"))


@pytest.mark.timeout(1800)  # three model workloads share two cores, then a restart and a carried-on solve
def test_two_sessions_and_a_run_then_a_crash_and_carry_on(browser, tmp_path):
    data = tmp_path / "data"
    proc, url = _start_app(data, "streamlit-concurrency.log")
    try:
        pages = {name: browser.new_page(viewport={"width": 1400, "height": 1600}) for name in ("A", "B", "bench")}
        for page in pages.values():
            page.goto(url)
        bench = pages["bench"]
        bench.get_by_role("link", name="Bench").click()
        bench.get_by_role("heading", name="Bench").wait_for(timeout=60_000)
        bench.get_by_role("textbox", name="Tasks", exact=True).fill("0")
        # Threads: the run shares the app's one model with both sessions, which is what this test is about (a
        # run's default backend, processes, loads models of its own: the other browser test runs that).
        bench.get_by_text("Where tasks run").click()
        select(bench, "Backend", "threads")  # with a second try: three pages loading at once lost a bare click
        bench.get_by_role("button", name="Start the run").click()
        for name in ("A", "B"):
            type_task(pages[name], *TASKS[name])
        for name in ("A", "B"):
            pages[name].get_by_role("button", name="Run", exact=True).click()
            settle(pages[name])
        for name in ("A", "B"):
            wait_or_explain(pages[name], outcome(pages[name]), 600_000, f"session {name}'s outcome")
        wait_or_explain(bench, bench.get_by_text("1/1 tasks done"), 900_000, "the finished bench run")
        # Each session keeps its own task, and nothing of the other's solve shows in its timeline (closed steps
        # hide their code, so the check is on what leaked, not on what is drawn).
        for name, other in (("A", "B"), ("B", "A")):
            assert pages[name].get_by_role("textbox", name="Task", exact=True).input_value() == TASKS[name][0]
            body = pages[name].locator("body").inner_text()
            assert TASKS[other][0] not in body and FUNCTIONS[other] not in body, (name, body[-2000:])
        log = (ARTIFACTS / "streamlit-concurrency.log").read_text(errors="replace")
        assert "database is locked" not in log, log[-3000:]
        assert _model_mappings(proc.pid) == 1  # one model in memory, shared by both sessions and the run

        # Now a solve and a run that are still going when the app is killed: the solve holds the model and the
        # run waits for it in the line (a threads run on the app's model takes its turn like a solve).
        solves_db = Solver(PromptKeyedModel(answer=lambda p, a: ""), data / "solves.sqlite")

        def playground_solves() -> list[dict]:  # the run's tasks are solves too: only task A's are counted
            return [s for s in solves_db.store.solves() if s["task"] == TASKS["A"][0]]

        before = len(playground_solves())
        pages["A"].get_by_role("button", name="Run", exact=True).click()
        deadline = time.time() + 60
        while len(playground_solves()) == before and time.time() < deadline:
            time.sleep(0.2)
        newest = playground_solves()[0]
        assert newest["status"] in ("running", "waiting"), newest
        bench.get_by_role("textbox", name="Tasks", exact=True).fill("2-9")
        bench.get_by_role("button", name="Start the run").click()
        wait_or_explain(bench, bench.get_by_text("0/8 tasks done"), 60_000, "the second run's progress")
        wait_or_explain(pages["A"], pages["A"].get_by_text("holds the model").or_(pages["A"].get_by_text("Stop the "
                        "solve")), 60_000, "A's solve running")
        # Killed inside the first node: once its checkpoint says the coder is next, the model writes for
        # seconds more. (A solve killed before that checkpoint starts again instead: see test_ui_pages.)
        thread = newest["thread_id"]
        deadline = time.time() + 120
        while not any(s.next_node == "coder" for s in solves_db.steps(thread)) and time.time() < deadline:
            time.sleep(0.2)
        assert any(s.next_node == "coder" for s in solves_db.steps(thread)), solves_db.steps(thread)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    # The bench run's tasks are solves too (the Debugger opens them), and the newest may be one of them: the
    # Playground's solve is followed by its thread id.
    killed = Solver(PromptKeyedModel(answer=lambda p, a: ""), data / "solves.sqlite")
    assert killed.store.status(thread) == "interrupted", killed.store.solves()[:3]
    db = store.open_store(data / "bench.sqlite")
    newest = store.list_runs(db)[0]
    assert newest.state() == "interrupted"

    proc, url = _start_app(data, "streamlit-restarted.log")
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.goto(url + f"/debugger?thread={thread}")
        page.get_by_role("heading", name="Debugger").wait_for(timeout=60_000)
        wait_or_explain(page, page.get_by_text("Interrupted:"), 60_000, "the interrupted solve's notice")
        page.get_by_role("button", name="Carry on from the last checkpoint").click()
        wait_or_explain(page, outcome(page), 600_000, "the carried-on solve's outcome")
        assert killed.store.status(thread) not in ("interrupted", "running")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
