"""Playground: a task and its tests in, a live repair timeline out."""

from __future__ import annotations

import streamlit as st

from agent import BadInput, RunFinished, Token, validate_input
from ui.examples import EXAMPLES
from ui.session import sidebar_settings, solver_or_error
from ui.timeline import Timeline

try:
    from streamlit_ace import st_ace
except ImportError:  # the editor is a nicety; a text area does the same job
    st_ace = None

settings = sidebar_settings()
st.title("Playground")
st.caption("The model writes Python, the sandbox runs your tests, failures go back to the model until they pass.")

state = st.session_state
state.setdefault("task", EXAMPLES["Add two numbers"]["task"])
state.setdefault("tests", EXAMPLES["Add two numbers"]["tests"])
state.setdefault("entry_point", EXAMPLES["Add two numbers"]["entry_point"])
state.setdefault("editor_version", 0)

columns = st.columns(len(EXAMPLES))
for column, (name, example) in zip(columns, EXAMPLES.items()):
    if column.button(name, use_container_width=True):
        state.task, state.tests, state.entry_point = example["task"], example["tests"], example["entry_point"]
        state.editor_version += 1  # a new key makes the editor show the loaded tests
        state.pop("events", None)

task = st.text_area("Task", key="task", height=110)
st.markdown("**Unit tests** (asserts, `test_*` functions, or `check(candidate)`)")
if st_ace is not None:
    edited = st_ace(value=state.tests, language="python", theme="github", min_lines=6, max_lines=20,
                    auto_update=True, key=f"tests-editor-{state.editor_version}")
    if isinstance(edited, str):
        state.tests = edited
else:
    st.text_area("Unit tests", key="tests", height=160, label_visibility="collapsed")
entry_point = st.text_input("Entry point (optional)", key="entry_point")
run = st.button("Run", type="primary")

timeline_area = st.container()
if run:
    state.pop("events", None)
    try:
        validate_input(task, state.tests, entry_point.strip() or None)
    except BadInput as exc:
        st.error(f"**Cannot start:** {exc}")
        st.stop()
    solver = solver_or_error(settings)
    if solver is None:
        st.stop()
    timeline = Timeline(timeline_area, settings.max_retries)
    events = []
    for event in solver.start(task, state.tests, entry_point=entry_point.strip() or None,
                              max_retries=settings.max_retries):
        timeline.handle(event)
        if not isinstance(event, Token):
            events.append(event)
    state.events, state.events_retries = events, settings.max_retries
elif state.get("events"):
    timeline = Timeline(timeline_area, state.get("events_retries", settings.max_retries))
    for event in state.events:
        timeline.handle(event)

final = next((e for e in reversed(state.get("events", [])) if isinstance(e, RunFinished)), None)
if final is not None:
    left, right = st.columns(2)
    if final.code:
        left.download_button("Download the final code", final.code, file_name="solution.py", mime="text/x-python")
    if right.button("Open in the debugger"):
        state.debug_thread = final.thread_id
        st.switch_page("views/debugger.py")
