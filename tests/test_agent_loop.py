"""The loop's logic with a scripted chat model: routing, retry cap, prompts, history, forks, step mode."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from agent import BadInput, NodeFinished, NodeStarted, Search, Solver, Token
from agent.config import search_dict, stored_search
from agent.loop.prompts import DEFAULT_PROMPT_VERSION
from fakes import ADD_RIGHT, ADD_TASK, ADD_TESTS, ADD_WRONG, ScriptedModel, run_to_end, solver_for


def test_a_right_first_answer_passes_after_one_coder_and_one_executor_step(tmp_path):
    solver = solver_for(tmp_path, ADD_RIGHT)
    events, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "passed" and final.iterations == 1
    assert [(e.node, type(e).__name__) for e in events if isinstance(e, (NodeStarted, NodeFinished))] == [
        ("coder", "NodeStarted"), ("coder", "NodeFinished"), ("executor", "NodeStarted"), ("executor", "NodeFinished")]
    assert "".join(e.text for e in events if isinstance(e, Token)).strip() == ADD_RIGHT.strip()


def test_repairs_after_failure_with_report_in_prompt(tmp_path):
    solver = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "passed" and final.iterations == 2
    state = solver.state_at(final.thread_id)
    first, second = state["attempts"]
    assert first["report"]["status"] == "failed" and second["report"]["status"] == "passed"
    repair = second["messages"]
    # The repair extends the first conversation: same prefix, then the old answer, then the report.
    assert repair[:2] == first["messages"]
    assert repair[2] == {"role": "assistant", "content": ADD_WRONG}
    assert "assert add(1, 2) == 3" in repair[3]["content"]
    assert "left side:  -1" in repair[3]["content"] and "right side: 3" in repair[3]["content"]
    assert ADD_TASK in repair[1]["content"] and ADD_TESTS.strip() in repair[1]["content"]
    assert stored_search(state).prompt_version == DEFAULT_PROMPT_VERSION
    assert state["search"] == search_dict(solver.search)  # stored whole, in the one shape readers read


def test_the_budget_is_the_candidates_in_all(tmp_path):
    solver = solver_for(tmp_path, *[ADD_WRONG] * 10, budget=4)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "gave_up" and final.iterations == 4
    _, final = run_to_end(solver_for(tmp_path, *[ADD_WRONG] * 10).start(ADD_TASK, ADD_TESTS, search=Search(budget=1)))
    assert final.status == "gave_up" and final.iterations == 1


def test_answer_without_code_is_a_failed_attempt_with_its_own_error(tmp_path):
    solver = solver_for(tmp_path, "I am not sure how to do that.", ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "passed" and final.iterations == 2
    first = solver.state_at(final.thread_id)["attempts"][0]
    assert first["extract_error"] == "the answer contains no Python code"
    assert first["report"]["status"] == "error"
    assert "could not be used" in first["feedback"]


def test_model_failure_ends_with_clear_error(tmp_path):
    class Down(GenericFakeChatModel):
        def _generate(self, *args, **kwargs):
            raise ConnectionError("Connection refused")

        def _stream(self, *args, **kwargs):
            raise ConnectionError("Connection refused")

    solver = Solver(Down(messages=iter([])), tmp_path / "s.sqlite")
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "error" and "stopped answering" in final.error


# Tests the sandbox cannot judge as one process would (sandbox/inside/unsupported.py): a timer of the code calls back
# a function of the tests after the code's call returned. The code is right; repairing it would only change correct
# code.
PARALLEL_TASK = "Write later(callback, delay): call the callback once, delay seconds from now, on a timer thread."
PARALLEL_TESTS = ("import threading\nassert later(print, 5).cancel() is None\n"
                  "done = threading.Event()\nlater(done.set, 0.01)\nassert done.wait(2)\n")
PARALLEL_RIGHT = ("```python\nimport threading\ndef later(callback, delay):\n"
                  "    timer = threading.Timer(delay, callback)\n    timer.start()\n    return timer\n```")
PARALLEL_WRONG = "```python\ndef later(callback, delay):\n    return None\n```"
# A pool of processes (no /dev/shm in the sandbox) is the answer's own way of working: another answer need not take it.
POOL_TASK = "Write squares(xs): the square of each number, computed in parallel."
POOL_TESTS = "assert squares([1, 2, 3]) == [1, 4, 9]\n"
POOL_OF_PROCESSES = ("```python\nfrom multiprocessing import Pool\ndef square(x):\n    return x * x\n"
                     "def squares(xs):\n    with Pool(2) as pool:\n        return pool.map(square, xs)\n```")
POOL_OF_THREADS = ("```python\nfrom concurrent.futures import ThreadPoolExecutor\ndef squares(xs):\n"
                   "    with ThreadPoolExecutor(2) as pool:\n        return list(pool.map(lambda x: x * x, xs))\n```")


def test_a_candidate_that_passes_all_the_sandbox_can_judge_ends_the_solve_unsupported_not_repaired(tmp_path):
    model = ScriptedModel(answers=[PARALLEL_RIGHT, ADD_RIGHT])
    solver = Solver(model, tmp_path / "solves.sqlite", search=Search(budget=4, strategy="repair"))
    _, final = run_to_end(solver.start(PARALLEL_TASK, PARALLEL_TESTS))
    assert final.status == "unsupported" and final.iterations == 1 and model.calls == 1
    assert final.error.startswith("#1 passes every visible test the sandbox can judge; 1 of 2 tests did what")
    assert "a thread the code started called a function of the tests" in final.error
    assert final.code.startswith("import threading")
    report = solver.candidates(final.thread_id)[0].report
    assert report.status == "unsupported" and report.n_failed == 0
    assert "1 not judged" in solver.candidates(final.thread_id)[0].headline()


def test_a_real_failure_beside_an_unsupported_test_is_still_repaired(tmp_path):
    solver = solver_for(tmp_path, PARALLEL_WRONG, PARALLEL_RIGHT, budget=4)
    _, final = run_to_end(solver.start(PARALLEL_TASK, PARALLEL_TESTS))
    assert final.status == "unsupported" and final.iterations == 2
    first = solver.candidates(final.thread_id)[0]
    assert first.report.status == "failed" and "first failure" in first.headline()


def test_a_candidate_stopped_by_its_own_way_of_working_is_repaired_with_the_reason(tmp_path):
    model = ScriptedModel(answers=[POOL_OF_PROCESSES, POOL_OF_THREADS])
    solver = Solver(model, tmp_path / "solves.sqlite", search=Search(budget=4, strategy="repair"))
    _, final = run_to_end(solver.start(POOL_TASK, POOL_TESTS))
    assert final.status == "passed" and final.iterations == 2 and final.code.startswith("from concurrent")
    first = solver.candidates(final.thread_id)[0]
    assert first.report.status == "unsupported" and "use threads" in first.report.summary()
    assert "use threads" in model.log[-1]["messages"][-1].content  # the repair request reads why


@pytest.mark.parametrize("task, tests, message", [
    ("", ADD_TESTS, "task is empty"),
    ("   \n", ADD_TESTS, "task is empty"),
    ("Write a function in JavaScript that adds numbers", ADD_TESTS, "JavaScript"),
    (ADD_TASK, "", "tests are empty"),
    (ADD_TASK, "assert add(1, 2) == 3\nassert add(1,, 2)\n", "line 2"),
])
def test_bad_input_is_refused_before_the_model_runs(tmp_path, task, tests, message):
    solver = solver_for(tmp_path)
    with pytest.raises(BadInput, match=message):
        solver.start(task, tests)


def test_history_lists_every_step_and_forks_branch(tmp_path):
    solver = solver_for(tmp_path, ADD_WRONG, ADD_WRONG, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    steps = solver.steps(final.thread_id)
    assert [s.next_node for s in steps] == ["__start__", "coder", "executor", "coder", "executor", "coder",
                                            "executor", "chooser", None]
    # Fork the first attempt with hand-fixed code: the tests run next, on the edited code.
    after_first_coder = steps[2]
    assert after_first_coder.next_node == "executor" and after_first_coder.iteration == 1
    _, forked = run_to_end(solver.fork(final.thread_id, after_first_coder.checkpoint_id,
                                code="def add(a, b):\n    return b + a\n"))
    assert forked.status == "passed" and forked.iterations == 1
    latest = solver.state_at(final.thread_id)
    assert latest["attempts"][-1]["forked"] and latest["attempts"][-1]["code"].endswith("return b + a\n")
    # Both branches are kept: the original final step is still in the history.
    ids = {s.checkpoint_id for s in solver.steps(final.thread_id)}
    assert steps[-1].checkpoint_id in ids and len(ids) > len(steps)
    assert solver.state_at(final.thread_id, steps[-1].checkpoint_id)["iteration"] == 3


def test_fork_with_edited_report_asks_for_a_repair(tmp_path):
    solver = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS, search=replace(solver.search, budget=1)))
    assert final.status == "gave_up"
    end = solver.steps(final.thread_id)[-1]
    _, forked = run_to_end(solver.fork(final.thread_id, end.checkpoint_id, feedback="add must return a + b, not a - b"))
    assert forked.status == "passed" and forked.iterations == 2
    repair = solver.state_at(final.thread_id)["attempts"][-1]["messages"][-1]["content"]
    assert "add must return a + b, not a - b" in repair


def test_step_mode_runs_one_node_at_a_time(tmp_path):
    solver = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT)
    _, paused = run_to_end(solver.start(ADD_TASK, ADD_TESTS, step_mode=True))
    assert paused.paused and paused.next_node == "coder" and paused.iterations == 0
    nodes = []
    while paused.paused:
        events, paused = run_to_end(solver.resume(paused.thread_id, step_mode=True))
        nodes += [e.node for e in events if isinstance(e, NodeFinished)]
    assert nodes == ["coder", "executor", "coder", "executor", "chooser"]
    assert paused.status == "passed"


def test_past_solves_are_listed_after_a_restart(tmp_path):
    _, final = run_to_end(solver_for(tmp_path, ADD_RIGHT).start(ADD_TASK, ADD_TESTS))
    reopened = solver_for(tmp_path)  # a new process would build exactly this from the same file
    assert reopened.store.solves()[0]["thread_id"] == final.thread_id
    assert reopened.store.solves()[0]["status"] == "passed"
    assert reopened.state_at(final.thread_id)["code"].strip().endswith("return a + b")


def test_solves_started_by_a_program_are_listed_apart_from_peoples_own(tmp_path):
    solver = solver_for(tmp_path, ADD_RIGHT, ADD_RIGHT)
    _, mine = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    _, batch = run_to_end(solver.start(ADD_TASK, ADD_TESTS, origin="bench run r1"))
    assert [(s["thread_id"], s["origin"]) for s in solver.store.solves()] == [(mine.thread_id, "")]
    assert [s["thread_id"] for s in solver.store.solves(origin="bench run r1")] == [batch.thread_id]
    assert [s["thread_id"] for s in solver.store.solves(origin=None)] == [batch.thread_id, mine.thread_id]


def test_a_solves_table_from_before_origins_lists_its_solves_as_peoples_own(tmp_path):
    with sqlite3.connect(tmp_path / "solves.sqlite") as db:
        db.execute("CREATE TABLE solves (thread_id TEXT PRIMARY KEY, task TEXT, model TEXT, created REAL, "
                   "updated REAL, status TEXT)")
        db.execute("INSERT INTO solves VALUES ('old', 'a task', 'm', 1.0, 1.0, 'passed')")
    assert [(s["thread_id"], s["origin"]) for s in solver_for(tmp_path).store.solves()] == [("old", "")]


def test_a_solve_killed_before_its_first_checkpoint_starts_again_from_its_inputs(tmp_path):
    first = solver_for(tmp_path)
    # The row is written; the stream never ran, as if killed at once.
    first.start(ADD_TASK, ADD_TESTS, search=replace(first.search, budget=2))
    thread = first.store.solves()[0]["thread_id"]
    with sqlite3.connect(tmp_path / "solves.sqlite") as db:  # its owner: a process long gone
        db.execute("UPDATE solves SET owner = 'elsewhere|0/0|1|0|dead', heartbeat = 0 WHERE thread_id = ?", (thread,))
    reopened = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT)
    assert reopened.store.solves()[0]["status"] == "interrupted"
    assert reopened.steps(thread) == [] and reopened.can_restart(thread)
    assert reopened.search_of(thread).budget == 2  # the solve's own budget, not the solver's
    _, final = run_to_end(reopened.restart(thread))
    assert final.thread_id == thread and final.status == "passed" and final.iterations == 2
    assert reopened.store.solves()[0]["status"] == "passed" and not reopened.can_restart(thread)
    with pytest.raises(BadInput, match="carry it on with resume"):
        reopened.restart(thread)


def test_a_repeated_answer_is_sampled_again_warmer(tmp_path):
    from langchain_core.language_models import BaseChatModel
    from langchain_core.outputs import ChatGeneration, ChatResult

    class Stubborn(BaseChatModel):
        """Repeats the wrong code at temperature 0; only a warmer sample finds the fix."""

        temperature: float = 0.0
        seed: int = 0

        @property
        def _llm_type(self) -> str:
            return "stubborn"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            text = ADD_WRONG if self.temperature == 0 else ADD_RIGHT
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    solver = Solver(Stubborn(), tmp_path / "s.sqlite", search=Search(strategy="repair"))
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert final.status == "passed" and final.iterations == 2
    first, second = solver.state_at(final.thread_id)["attempts"]
    assert not first["resampled"] and second["resampled"]
    # The second ask was a fresh conversation: the task and the report, but not the code to copy.
    sent = second["messages"]
    assert len(sent) == 2 and "A previous solution failed" in sent[1]["content"]
    assert "return a - b" not in sent[1]["content"] and "left side:  -1" in sent[1]["content"]
