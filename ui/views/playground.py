"""Playground: a task and its tests in, a live timeline of candidates, their verdicts and the choice out."""

from __future__ import annotations

import time
from functools import partial

import streamlit as st

from agent import BadInput, start_job, validate_input
from agent.prompts import is_python_code
from sandbox import describe_tests
from ui.code_editor import code_editor
from ui.examples import DEFAULT_EXAMPLE, EXAMPLES
from ui.job_view import show_job
from ui.session import current_settings, solver_or_error

EDITOR_SETTLE_SECONDS = 0.5  # the editor sends its text 200 ms after the last key; leave room for the network
state = st.session_state


def _request_solve() -> None:
    # A callback runs before the script does, so the click survives a rerun that cuts the script short
    # (an editor change arriving just after the click, for one).
    state.solve_requested = time.monotonic()


def load_example(name: str) -> None:
    """Put an example's task, tests and entry point in the inputs (new editor keys make the editors show them)."""
    example = EXAMPLES[name]
    state.task, state.tests, state.entry_point = example["task"], example["tests"], example["entry_point"]
    state.editor_version = state.get("editor_version", 0) + 1


def example_picker(running: bool) -> None:
    """Pick a built-in example and load it; loading one keeps a running solve."""
    names = list(EXAMPLES)
    pick, load = st.columns([4, 1], vertical_alignment="bottom")
    name = pick.selectbox("Example", names, key="example", help="a task with its tests, ready to run")
    if load.button("Load this example", width="stretch"):
        load_example(name)
        if not running:
            state.pop("solve_job", None)


def task_input() -> str:
    """The task: in the code editor when it is Python (a signature and docstring), else in a text box."""
    version = state.editor_version
    if is_python_code(state.task):
        state.task = code_editor("Task", state.task, key=f"task-editor-{version}",
                                 help="a signature and docstring, as in HumanEval, or a description in words")
    else:
        state.task = st.text_area("Task", value=state.task, key=f"task-area-{version}", height=110,
                                  help="a description in words, or a signature and docstring")
    return state.task


def tests_input() -> str:
    """The unit tests, in the code editor, with what the sandbox will make of them."""
    state.tests = code_editor("Unit tests (asserts, `test_*` functions, or `check(candidate)`)", state.tests,
                              key=f"tests-editor-{state.editor_version}", minimum_lines=6)
    st.caption(describe_tests(state.tests))
    return state.tests


def start_requested_solve(settings, task: str, entry_point: str) -> None:
    """Start the solve a click asked for, once the editors' text has arrived; bad input is said in place."""
    # A click right after typing comes before the editor's text: wait for it, then give Streamlit a point
    # to cut in and rerun with that text (the request survives the rerun), so the typed tests are the ones run.
    time.sleep(max(0.0, EDITOR_SETTLE_SECONDS - (time.monotonic() - state.solve_requested)))
    st.empty()
    try:
        validate_input(task, state.tests, entry_point or None)
    except BadInput as exc:
        state.solve_requested = False
        st.error(f"**Cannot start:** {exc}")
        st.stop()
    solver = solver_or_error(settings)
    state.solve_requested = False
    if solver is None:
        st.stop()
    state.solve_job = start_job(partial(solver.start, task, state.tests, entry_point=entry_point or None,
                                        max_retries=settings.max_retries, strategy=settings.search.strategy))
    # The timeline shows this solve's budget and strategy, even after the sidebar changes.
    state.solve_search = (settings.max_retries, settings.search.strategy)
    st.rerun()  # redraw with Run disabled and Stop offered


def solve_view(job, settings) -> None:
    """The solve's timeline, then what to do with its answer."""
    show_job(job, *state.get("solve_search", (settings.max_retries, settings.search.strategy)), key="playground")
    final = None if job.running else job.final
    if final is None:
        return
    left, right = st.columns(2)
    if final.code:
        left.download_button("Download the final code", final.code, file_name="solution.py", mime="text/x-python")
    if right.button("Open this solve in the debugger"):
        state.debug_thread = final.thread_id
        st.switch_page("views/debugger.py")


settings = current_settings()
st.title("Playground")
st.caption("The model writes Python, the sandbox runs your tests; while none passes, the model repairs its "
           "code or draws fresh samples (the sidebar's strategy), within the budget. The first example fails at "
           "its first answer: run it to watch the loop fix it (with the repair strategy, as a diff).")
if "task" not in state:
    load_example(DEFAULT_EXAMPLE)
job = state.get("solve_job")
running = job is not None and job.running
example_picker(running)
task = task_input()
tests_input()
entry_point = st.text_input("Entry point (optional)", key="entry_point",
                            help="the function the tests call, when the task names several").strip()
run_column, stop_column = st.columns([1, 5])
run_column.button("Run", type="primary", on_click=_request_solve, disabled=running,
                  help="write code for the task, run the tests, and repair or resample until they pass")
if running:
    stop_column.button("Stop the solve", on_click=job.cancel, help="ends at the next checkpoint; the steps are kept")
if state.get("solve_requested") and not running:
    start_requested_solve(settings, task, entry_point)
state.solve_requested = False
if job is not None:
    solve_view(job, settings)
