"""Reading a solve's history with a scripted model: changes between checkpoints, the first failing step, branches."""

from __future__ import annotations

from agent import Solver
from agent.loop.candidates import candidates
from agent.solves.history import branches, code_diff, step_changes
from fakes import ADD_RIGHT, ADD_TASK, ADD_TESTS, ADD_WRONG, run_to_end, solver_for


def repaired_solve(tmp_path) -> tuple[Solver, str]:
    solver = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT, ADD_WRONG, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    return solver, final.thread_id


def test_first_failing_step_is_the_checkpoint_after_the_first_failing_verdict(tmp_path):
    solver, thread = repaired_solve(tmp_path)
    first = solver.first_failing_step(thread)
    assert first is not None and first.next_node == "coder" and first.iteration == 1
    drawn = solver.candidates(thread, first.checkpoint_id)
    assert [(c.number, c.passed) for c in drawn] == [(1, False)]
    earlier = [s for s in solver.steps(thread) if s.step < first.step]
    assert all(not any(c.ran for c in solver.candidates(thread, s.checkpoint_id)) for s in earlier)


def test_a_solve_that_never_fails_has_no_failing_step(tmp_path):
    solver = solver_for(tmp_path, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    assert solver.first_failing_step(final.thread_id) is None


def test_changes_between_the_failing_step_and_the_end_show_the_repair(tmp_path):
    solver, thread = repaired_solve(tmp_path)
    first = solver.first_failing_step(thread)
    last = solver.steps(thread)[-1]
    changes = step_changes(solver.state_at(thread, first.checkpoint_id), solver.state_at(thread, last.checkpoint_id),
                           "step 2", "step 4")
    assert "-    return a - b" in changes.code_diff and "+    return a + b" in changes.code_diff
    assert changes.code_diff.startswith("--- step 2\n+++ step 4\n")
    assert "-status: failed (0 of 2 tests passed)" in changes.report_diff
    assert "+status: passed (2 of 2 tests passed)" in changes.report_diff
    assert [(t.before, t.after) for t in changes.tests] == [("failed", "passed"), ("failed", "passed")]
    # The repair added the model's first answer, the repair request with the report, and the repair's answer.
    assert [m["role"] for m in changes.messages_added] == ["user", "assistant"]
    assert "left side:  -1" in changes.messages_added[0]["content"]
    assert changes.candidates_added == [2]
    assert (changes.status_before, changes.status_after) == ("running", "passed")
    assert not changes.unchanged and not changes.notes


def test_a_checkpoint_compared_with_itself_is_unchanged(tmp_path):
    solver, thread = repaired_solve(tmp_path)
    values = solver.state_at(thread)
    assert step_changes(values, values).unchanged


def test_code_diff_is_empty_for_equal_code_and_names_both_sides():
    assert code_diff("a\n", "a\n") == ""
    assert code_diff("a\n", "b\n", "#1", "#2").splitlines()[:2] == ["--- #1", "+++ #2"]


def test_forks_are_branches_with_their_own_outcome(tmp_path):
    # the report fork's repairs all fail
    solver = solver_for(tmp_path, ADD_WRONG, ADD_RIGHT, ADD_WRONG, ADD_WRONG, ADD_WRONG)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS))
    thread = final.thread_id
    assert [(b.number, b.how, b.outcome, b.fork_of) for b in branches(solver.steps(thread))] == [
        (0, "the solve as run", "passed", None)]
    first = solver.first_failing_step(thread)
    run_to_end(solver.fork(thread, first.checkpoint_id, code="def add(a, b):\n    return a + b\n"))
    run_to_end(solver.fork(thread, first.checkpoint_id, feedback="status: failed\nreturn the sum, not the difference"))
    found = branches(solver.steps(thread))
    assert [(b.how, b.fork_of, b.fork_step) for b in found] == [
        ("the solve as run", None, None), ("edited code", first.checkpoint_id, first.step),
        ("edited failure report", first.checkpoint_id, first.step)]
    assert [b.outcome for b in found] == ["passed", "passed", "gave_up"]
    assert [b.candidates for b in found] == [2, 1, 4]
    # Every checkpoint belongs to exactly one branch; a branch's head is its last checkpoint.
    ids = [c for b in found for c in b.checkpoints]
    assert sorted(ids) == sorted(s.checkpoint_id for s in solver.steps(thread))
    assert candidates(solver.state_at(thread, found[1].head))[-1].forked


def test_a_paused_step_mode_solve_is_one_paused_branch(tmp_path):
    solver = solver_for(tmp_path, ADD_RIGHT)
    _, final = run_to_end(solver.start(ADD_TASK, ADD_TESTS, step_mode=True))
    run_to_end(solver.resume(final.thread_id, step_mode=True))
    (branch,) = branches(solver.steps(final.thread_id))
    assert (branch.outcome, branch.next_node) == ("paused", "executor")


def test_tokens_per_second_only_where_the_time_is_the_tokens_own():
    raw = {"iteration": 2, "kind": "repair", "tokens_out": 40, "seconds_model": 4.0}
    assert candidates({"attempts": [{"iteration": 1}, raw]})[1].tokens_per_second == 10.0
    # A resampled repair's seconds include the repeated answer it replaced; an edited fork has no model time.
    assert candidates({"attempts": [{"iteration": 1}, {**raw, "resampled": True}]})[1].tokens_per_second is None
    assert candidates({"attempts": [{"iteration": 1}, {**raw, "seconds_model": 0.0}]})[1].tokens_per_second is None
    assert candidates({"attempts": [{"iteration": 1}, raw]})[1].repairs == 1
