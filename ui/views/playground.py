"""Playground: a task and its tests in, a live timeline of candidates, their verdicts and the choice out."""

from __future__ import annotations

import time
from functools import partial

import streamlit as st

from agent import BadInput, start_job, validate_input
from sandbox import describe_tests
from ui.examples import EXAMPLES
from ui.job_view import show_job
from ui.session import sidebar_settings, solver_or_error

try:
    from streamlit_ace import st_ace
except ImportError:  # the editor is a nicety; a text area does the same job
    st_ace = None

settings = sidebar_settings()
st.title("Playground")
st.caption("The model writes Python, the sandbox runs your tests; while none passes, the model repairs its "
           "code or draws fresh samples (the sidebar's strategy), within the budget.")

state = st.session_state
state.setdefault("task", EXAMPLES["Add two numbers"]["task"])
state.setdefault("tests", EXAMPLES["Add two numbers"]["tests"])
state.setdefault("entry_point", EXAMPLES["Add two numbers"]["entry_point"])
state.setdefault("editor_version", 0)
job = state.get("solve_job")
running = job is not None and job.running


EDITOR_SETTLE_SECONDS = 0.5  # the editor sends its text 200 ms after the last key; leave room for the network


def _request_solve() -> None:
    # A callback runs before the script does, so the click survives a rerun that cuts the script short
    # (an editor change arriving just after the click, for one).
    state.solve_requested = time.monotonic()


columns = st.columns(len(EXAMPLES))
for column, (name, example) in zip(columns, EXAMPLES.items()):
    if column.button(name, use_container_width=True):
        state.task, state.tests, state.entry_point = example["task"], example["tests"], example["entry_point"]
        state.editor_version += 1  # a new key makes the editor show the loaded tests
        if not running:
            state.pop("solve_job", None)

task = st.text_area("Task", key="task", height=110)
st.markdown("**Unit tests** (asserts, `test_*` functions, or `check(candidate)`)")
if st_ace is not None:
    edited = st_ace(value=state.tests, language="python", theme="github", min_lines=6, max_lines=20,
                    auto_update=True, key=f"tests-editor-{state.editor_version}")
    if isinstance(edited, str):
        state.tests = edited
else:
    st.text_area("Unit tests", key="tests", height=160, label_visibility="collapsed")
st.caption(describe_tests(state.tests))
entry_point = st.text_input("Entry point (optional)", key="entry_point")
run_column, stop_column = st.columns([1, 9])
run_column.button("Run", type="primary", on_click=_request_solve, disabled=running)
if running:
    stop_column.button("Stop", on_click=job.cancel)

if state.get("solve_requested") and not running:
    # A click right after typing comes before the editor's text: wait for it, then give Streamlit a point
    # to cut in and rerun with that text (the request survives the rerun), so the typed tests are the ones run.
    time.sleep(max(0.0, EDITOR_SETTLE_SECONDS - (time.monotonic() - state.solve_requested)))
    st.empty()
    try:
        validate_input(task, state.tests, entry_point.strip() or None)
    except BadInput as exc:
        state.solve_requested = False
        st.error(f"**Cannot start:** {exc}")
        st.stop()
    solver = solver_or_error(settings)
    state.solve_requested = False
    if solver is None:
        st.stop()
    state.solve_job = start_job(partial(solver.start, task, state.tests, entry_point=entry_point.strip() or None,
                                        max_retries=settings.max_retries, strategy=settings.search.strategy))
    # The timeline shows this solve's budget and strategy, even after the sidebar changes.
    state.solve_search = (settings.max_retries, settings.search.strategy)
    st.rerun()  # redraw with Run disabled and Stop offered
state.solve_requested = False

if job is not None:
    show_job(job, *state.get("solve_search", (settings.max_retries, settings.search.strategy)))
    final = None if job.running else job.final
    if final is not None:
        left, right = st.columns(2)
        if final.code:
            left.download_button("Download the final code", final.code, file_name="solution.py",
                                 mime="text/x-python")
        if right.button("Open in the debugger"):
            state.debug_thread = final.thread_id
            st.switch_page("views/debugger.py")
