"""Background solve jobs: what the pages start so that a rerun cannot cut a solve short."""

from __future__ import annotations

import threading

from agent import NodeStarted, RunFinished, Token, start_job
from test_agent_loop import RIGHT, TASK, TESTS, WRONG, solver_for


def test_a_job_collects_the_same_events_as_the_stream(tmp_path):
    job = start_job(lambda: solver_for(tmp_path, WRONG, RIGHT).start(TASK, TESTS))
    assert job.wait(60)
    assert not job.running and job.error is None and not job.cancelled
    assert job.final is not None and job.final.status == "passed" and job.final.iterations == 2
    assert any(isinstance(e, Token) for e in job.snapshot())
    assert not any(isinstance(e, Token) for e in job.snapshot(tokens=False))


def test_cancel_stops_at_the_next_event_and_closes_the_stream():
    gate, closed = threading.Event(), threading.Event()

    def slow_events():
        try:
            yield NodeStarted("t", 1, "coder")
            gate.wait(10)
            yield Token("t", 1, "coder", "def")
            yield Token("t", 1, "coder", " never")
        finally:
            closed.set()

    job = start_job(slow_events)
    job.cancel()
    gate.set()
    assert job.wait(10)
    assert job.cancelled and closed.is_set()
    assert len(job.events) <= 2 and job.final is None


def test_an_exception_in_the_stream_becomes_the_jobs_error():
    def failing():
        yield NodeStarted("t", 1, "coder")
        raise ConnectionError("http://127.0.0.1:9 refused the connection")

    job = start_job(failing)
    assert job.wait(10)
    assert job.error == "ConnectionError: http://127.0.0.1:9 refused the connection"
    assert len(job.events) == 1


def test_a_stopped_solve_keeps_its_steps_and_resumes_to_the_end(tmp_path):
    solver = solver_for(tmp_path, WRONG, RIGHT)
    first_token = threading.Event()
    thread_id = "stopped-solve"

    def events():
        for event in solver.start(TASK, TESTS, thread_id=thread_id):
            if isinstance(event, Token):
                first_token.set()
            yield event

    job = start_job(events)
    assert first_token.wait(30)
    job.cancel()
    assert job.wait(30) and job.cancelled
    assert solver.steps(thread_id), "the steps before the stop are kept"
    final = [e for e in solver.resume(thread_id) if isinstance(e, RunFinished)][-1]
    assert final.status == "passed"
