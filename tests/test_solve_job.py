"""Background solve jobs: what the pages start so that a rerun cannot cut a solve short."""

from __future__ import annotations

import threading
import time
from functools import partial

from agent import NodeFinished, NodeStarted, RunFinished, Search, Solver, Token, start_job
from agent.config import search_dict
from agent.solves.jobs import job_for, stored_job
from fakes import ADD_RIGHT, ADD_TASK, ADD_TESTS, ADD_WRONG, PromptKeyedModel, solver_for


def test_a_job_collects_the_same_events_as_the_stream(tmp_path):
    job = start_job(partial(solver_for(tmp_path, ADD_WRONG, ADD_RIGHT).start, ADD_TASK, ADD_TESTS))
    assert job.wait(60)
    assert not job.running and job.error is None and not job.cancelled
    assert job.final is not None and job.final.status == "passed" and job.final.iterations == 2
    assert any(isinstance(e, Token) for e in job.snapshot())
    assert not any(isinstance(e, Token) for e in job.snapshot(tokens=False))


def test_an_exception_in_the_stream_becomes_the_jobs_error():
    def failing(stop):
        yield NodeStarted("t", 1, "coder")
        raise ConnectionError("http://127.0.0.1:9 refused the connection")

    job = start_job(failing)
    assert job.wait(10)
    assert job.error == "ConnectionError: http://127.0.0.1:9 refused the connection"
    assert len(job.events) == 1


def test_stop_ends_the_solve_between_nodes_and_it_resumes_from_there(tmp_path):
    gate = threading.Event()  # the second answer waits here, so the stop surely lands inside the coder

    def answer(prompt: str, attempt: int) -> str:
        if attempt >= 2:
            gate.wait(30)
        return ADD_WRONG

    # repair: every later answer reads the earlier one (attempt >= 2), so the gate holds the second coder
    solver = Solver(PromptKeyedModel(answer=answer), tmp_path / "solves.sqlite",
                    search=Search(budget=4, strategy="repair"))
    job = start_job(partial(solver.start, ADD_TASK, ADD_TESTS, thread_id="stopped"))
    deadline = time.time() + 30
    while not any(isinstance(e, NodeStarted) and e.step == 3 for e in job.snapshot()) and time.time() < deadline:
        time.sleep(0.01)
    job.cancel()
    gate.set()
    assert job.wait(30) and job.cancelled
    assert job.final.paused and job.final.next_node == "executor"  # the coder's answer is kept, tests run next
    assert solver.paused_before("stopped") == "executor"
    final = [e for e in solver.resume("stopped") if isinstance(e, RunFinished)][-1]
    assert final.status == "gave_up" and final.iterations == 4


def test_a_job_started_with_a_thread_id_is_found_from_anywhere_in_the_process(tmp_path, monkeypatch):
    import agent.solves.jobs as solve_job

    monkeypatch.setattr(solve_job, "_jobs", {})
    gate = threading.Event()

    def held(stop):
        gate.wait(30)
        yield NodeStarted("held", 1, "coder")

    job = start_job(held, thread_id="held", inputs={"task": ADD_TASK})
    try:
        assert job_for("held") is job and job.running and job.inputs == {"task": ADD_TASK}
        assert job_for("other") is None
        assert start_job(held).thread_id is None and list(solve_job._jobs) == ["held"]  # no id: not recorded
        # Finished jobs are forgotten oldest first beyond KEEP_FINISHED; a running one never is.
        monkeypatch.setattr(solve_job, "KEEP_FINISHED", 2)
        for n in range(4):
            start_job(lambda stop: iter(()), thread_id=f"done-{n}").wait(10)
        start_job(lambda stop: iter(()), thread_id="done-4")
    finally:
        gate.set()
    assert job.wait(10)
    assert job_for("held") is job and job_for("done-0") is None and job_for("done-1") is None
    assert job_for("done-3") is not None


def test_a_stored_solve_is_told_as_the_job_that_streamed_it(tmp_path):
    solver = Solver(PromptKeyedModel(answer=lambda prompt, attempt: ADD_WRONG if attempt == 1 else ADD_RIGHT),
                    tmp_path / "solves.sqlite", search=Search(budget=4, strategy="repair"))
    live = list(solver.start(ADD_TASK, ADD_TESTS, thread_id="done"))
    told = stored_job(solver, "done")
    assert not told.running and told.thread_id == "done"
    nodes = [(type(e).__name__, e.node) for e in live if isinstance(e, NodeStarted | NodeFinished)]
    assert [(type(e).__name__, e.node) for e in told.events if not isinstance(e, RunFinished)] == nodes
    assert told.final == live[-1]
    assert told.inputs == {"task": ADD_TASK, "tests": ADD_TESTS,
                           "search": search_dict(Search(budget=4, strategy="repair")), "lineage": None}
    assert stored_job(solver, "unknown") is None
