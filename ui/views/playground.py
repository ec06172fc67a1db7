"""Playground: a task and its tests in, a live timeline of candidates, their verdicts and the choice out.

The address names the solve on show (``?solve=<thread id>``): a reload, a second tab or a shared link finds it
again, live with its Stop button while it runs in this server (agent.solves.jobs.job_for), else from its
checkpoints (agent.solves.jobs.stored_job).
"""

from __future__ import annotations

import contextlib
import time
import uuid
from functools import partial

import streamlit as st

from agent import (
    BadInput,
    EntryPointUse,
    LineFull,
    ModelUnavailable,
    SolveJob,
    resolve_entry_point,
    start_job,
    validate_input,
)
from agent.config import search_dict, stored_search
from agent.inputs import offered_words
from agent.loop.prompts import is_python_code
from agent.solves.jobs import job_for, stored_job
from agent.solves.line import busy_now
from agent.solves.lineage import kept_in, lineage_from
from sandbox import describe_tests
from ui.beyond_tests import behaviour_of, beyond_tests
from ui.code_editor import code_editor
from ui.examples import DEFAULT_EXAMPLE, EXAMPLES
from ui.identity import started_by_words
from ui.job_view import show_job
from ui.question_form import BOX_ERROR, box_warning, question_form
from ui.session import current_settings, model_solver, solver_or_error
from ui.settings import ask_by_default

EDITOR_SETTLE_SECONDS = 0.5  # the editor sends its text 200 ms after the last key; leave room for the network
ADDRESS = "solve"  # the query parameter that names the solve on show
state = st.session_state


def _request_solve() -> None:
    # A callback runs before the script does, so the click survives a rerun that cuts the script short
    # (an editor change arriving just after the click, for one).
    state.solve_requested = time.monotonic()


def put_inputs(task: str, tests: str, entry_point: str = "") -> None:
    """Show this task, tests and entry point in the inputs (new editor keys make the editors show them)."""
    state.task, state.tests, state.entry_point = task, tests, entry_point
    state.editor_version = state.get("editor_version", 0) + 1


def load_example(name: str) -> None:
    """Put an example's task and tests in the inputs. The entry-point box is left empty: the solve infers the
    name from the task and tests, so a task typed over an example cannot run under the example's name."""
    example = EXAMPLES[name]
    put_inputs(example["task"], example["tests"])
    state.pending_lineage = None  # tests added from a row belong to the solve they were read in


def put_tests(tests: str) -> None:
    """Show these tests in the tests box, the task and entry point as they are (a test added from a row)."""
    put_inputs(state.task, tests, state.get("entry_point", ""))


def show_solve(job: SolveJob | None, *, stored: bool = False) -> None:
    """Make this the solve on show, and the address name it (or name none)."""
    if job is None:
        state.pop("solve_job", None)
        st.query_params.pop(ADDRESS, None)
        return
    state.solve_job, state.solve_stored = job, stored
    if job.inputs.get("search") is not None:
        # The timeline shows the solve's own search, even after the sidebar changes.
        state.solve_search = stored_search(job.inputs)
    if job.thread_id and st.query_params.get(ADDRESS) != job.thread_id:
        st.query_params[ADDRESS] = job.thread_id


def solve_at_address(settings) -> SolveJob | None:
    """The solve the address names, found and put on show with its task and tests; else this session's own, which
    the address then names (a page switch drops the query). An unknown id is said plainly, and the page goes on."""
    wanted = st.query_params.get(ADDRESS)
    own = state.get("solve_job")
    newer = job_for(own.thread_id) if own is not None else None
    if newer is not None and newer is not own:
        # Another tab answered this solve's question and carried it on: show that, with the tests it runs now, so
        # that this tab neither answers the next question under the old steps nor runs again without the answer.
        put_inputs(newer.inputs.get("task", ""), newer.inputs.get("tests", ""), own.inputs.get("entry_point") or "")
        show_solve(newer)
        own = newer
    # A solve told from its checkpoints that had not ended (running elsewhere, interrupted, paused) is read again:
    # it may have gone on since, in another process or in the Debugger.
    unsettled = own is not None and state.get("solve_stored") and (
        own.final is None or own.final.paused or own.final.status == "interrupted")
    if not wanted:
        if own is None:
            return None
        if not unsettled:
            show_solve(own, stored=bool(state.get("solve_stored")))
            return own
        wanted = own.thread_id
    if own is not None and own.thread_id == wanted and not unsettled:
        return own
    job, stored = job_for(wanted), False
    if job is None:
        solver = solver_or_error(settings)
        if solver is None:
            return None
        job, stored = stored_job(solver, wanted), True
    if job is None:
        st.warning(f"**No solve with id `{wanted}` on this machine.** The link may come from another machine, or "
                   "its data directory was deleted. Run a task below, or open the Debugger for past solves.",
                   icon=":material/link_off:")
        state.pop("solve_job", None)
        return None
    if own is None or own.thread_id != wanted:
        put_inputs(job.inputs.get("task", ""), job.inputs.get("tests", ""), job.inputs.get("entry_point") or "")
    show_solve(job, stored=stored)
    return job


def example_picker(running: bool) -> None:
    """Pick a built-in example and load it; loading one keeps a running solve."""
    names = list(EXAMPLES)
    pick, load = st.columns([4, 1], vertical_alignment="bottom")
    name = pick.selectbox("Example", names, key="example", help="a task with its tests, ready to run")
    if load.button("Load this example", width="stretch"):
        load_example(name)
        if not running:
            show_solve(None)


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
    """The unit tests, in the code editor, with what the sandbox will make of them and what they may import."""
    state.tests = code_editor("Unit tests (asserts, `test_*` functions, or `check(candidate)`)", state.tests,
                              key=f"tests-editor-{state.editor_version}", minimum_lines=6)
    st.caption(describe_tests(state.tests))
    st.caption(f"Code and tests may import {offered_words()}.")
    return state.tests


def entry_point_words(use: EntryPointUse) -> str:
    """The caption under the entry-point box: the name a solve will call, and where it comes from."""
    if use.how == "inferred":
        return f"Entry point: `{use.name}`, inferred from the tests"
    if use.how == "named":
        return f"Entry point: `{use.name}`, named by the task (the tests call no function by name)"
    if use.how == "typed":
        return f"Entry point: `{use.name}`, typed"
    return f"Entry point: {use.words}"


def entry_point_input(task: str, tests: str) -> str:
    """The optional entry point, and under it, recomputed as the user types, the one a solve will use (or why
    the typed one cannot be)."""
    typed = st.text_input("Entry point (optional)", key="entry_point",
                          help="the function the tests call; left empty, it is inferred from the task and "
                               "tests").strip()
    try:
        st.caption(entry_point_words(resolve_entry_point(task, tests, typed or None)))
    except BadInput as exc:
        st.caption(f":red[:material/error: Entry point: {exc}]")
    return typed


def start_requested_solve(settings, task: str, entry_point: str) -> None:
    """Start the solve a click asked for, once the editors' text has arrived; bad input is said in place."""
    # A click right after typing comes before the editor's text: wait for it, then give Streamlit a point
    # to cut in and rerun with that text (the request survives the rerun), so the typed tests are the ones run.
    time.sleep(max(0.0, EDITOR_SETTLE_SECONDS - (time.monotonic() - state.solve_requested)))
    st.empty()
    try:
        validate_input(task, state.tests, entry_point or None)
    except BadInput as exc:  # an EnvironmentProblem (tests import what the sandbox lacks) is one too
        state.solve_requested = False
        st.error(f"**Cannot start:** {exc}")
        st.stop()
    solver = solver_or_error(settings)
    state.solve_requested = False
    if solver is None:
        st.stop()
    # The id is made here, not by the solver, so that the address names the solve from its first moment.
    thread_id, person = uuid.uuid4().hex, state.person.key
    try:
        # A place in the line in front of the model, taken before anything is stored: a full line is said at once.
        place = solver.place_in_line(person, thread_id)
    except LineFull as exc:
        st.error(f"**Cannot start:** {exc}", icon=":material/group:")
        st.stop()
    search, ask = settings.search, bool(state.cfg_ask)
    try:
        solver.reserve(task, state.tests, entry_point=entry_point or None, search=search, thread_id=thread_id,
                       person=person, ask=ask)
    except BadInput as exc:  # checked above already; a place is never kept for a solve that cannot start
        place.leave()
        st.error(f"**Cannot start:** {exc}")
        st.stop()
    # Tests added from the rows of the solve on show make this run that solve's again (its lineage, kept with it).
    pending, shown = state.get("pending_lineage"), state.get("solve_job")
    lineage = kept_in(pending, state.tests) if pending and shown and pending.from_solve == shown.thread_id else None
    state.pending_lineage, state.added_test_error, state[BOX_ERROR] = None, None, None
    inputs = {"task": task, "tests": state.tests, "entry_point": entry_point or None, "search": search_dict(search),
              "lineage": lineage.to_dict() if lineage else None, "ask": ask}
    show_solve(start_job(partial(solver.start, task, state.tests, entry_point=entry_point or None, search=search,
                                 thread_id=thread_id, person=person, lineage=lineage, ask=ask),
                         thread_id=thread_id, inputs=inputs, person=person, place=place,
                         on_leaving_line=partial(solver.store.set_status, thread_id, "left_line")))
    st.rerun()  # redraw with Run disabled and Stop offered


def lineage_caption(job: SolveJob) -> None:
    """For a solve run again with tests a person added: from which answer, and which tests."""
    lineage = lineage_from(job.inputs.get("lineage"))
    if lineage is not None:
        tests = "; ".join(f"`{' '.join(added.test.split())}`" for added in lineage.added)
        st.caption(f"Run again from the solve before: {lineage.words()} — {tests}")


def ask_input(settings) -> None:
    """Whether a solve asks the person where answers that pass the tests disagree (kept under a key of its own, so
    that it survives page switches)."""
    search = settings.search
    state.setdefault("cfg_ask", ask_by_default())
    state.cfg_ask = st.checkbox(
        "Ask me when answers disagree", value=bool(state.cfg_ask), key="ask",
        help=f"When an answer passes tests that check at most {search.thin_tests} calls, {search.doubt_samples} more "
             "answers are drawn; where those that pass your tests give different results on another input, the "
             f"solve asks you which is right, one question at a time, at most {search.max_questions}. Your answer "
             "becomes a test. Off: nothing is asked, and a pass is taken as it is.")


def solve_view(job: SolveJob, settings) -> None:
    """The solve's timeline, the question it waits at, what its answer does beyond the person's tests, then what to
    do with the answer."""
    lineage_caption(job)
    behaviour = behaviour_of(job, settings)
    show_job(job, state.get("solve_search", settings.search), key="playground",
             more_below=behaviour is not None and bool(behaviour.rows))
    if job.running:
        return
    if job.final is not None and job.final.paused:
        with contextlib.suppress(ModelUnavailable):  # the page above already says what to fix
            question_form(job, model_solver(settings), put_tests, show_solve)
    box_warning()
    if behaviour is not None:
        beyond_tests(job, behaviour, put_tests, _request_solve, settings, show_solve)
    final = job.final
    if final is None and state.get("solve_stored"):
        st.info("**Running elsewhere:** another process, or a page of the debugger, runs this solve; these are its "
                "steps up to its last checkpoint.", icon=":material/hourglass_top:")
        st.button("Show its latest steps")  # a click reruns the page, which reads the checkpoints again
    left, right = st.columns(2)
    if final is not None and final.code and not final.asking:  # a solve waiting at a question has no answer yet
        left.download_button("Download the final code", final.code, file_name="solution.py", mime="text/x-python")
    interrupted = final is not None and final.status == "interrupted"
    if right.button("Carry this solve on in the debugger" if interrupted else "Open this solve in the debugger",
                    type="primary" if interrupted else "secondary", key="open-in-debugger"):
        state.debug_thread = job.thread_id
        st.switch_page("views/debugger.py")


settings = current_settings()
st.title("Playground")
st.caption("The model writes Python, the sandbox runs your tests; while none passes, the model repairs its "
           "code or draws fresh samples (the sidebar's strategy), within the budget. The first example fails at "
           "its first answer: run it to watch the loop fix it (with the repair strategy, as a diff).")
if "task" not in state:
    load_example(DEFAULT_EXAMPLE)
job = solve_at_address(settings)
running = job is not None and job.running
example_picker(running)
task = task_input()
tests = tests_input()
entry_point = entry_point_input(task, tests)
ask_input(settings)
run_column, stop_column = st.columns([1, 5])
run_column.button("Run", type="primary", on_click=_request_solve, disabled=running,
                  help="write code for the task, run the tests, and repair or resample until they pass")
if running and state.person.may_stop(job.person):
    if job.waiting:
        stop_column.button("Leave the line", on_click=job.cancel, help="the solve has not begun: nothing is lost")
    else:
        stop_column.button("Stop the solve", on_click=job.cancel,
                           help="ends at the next checkpoint; the steps are kept")
elif running:
    whose = started_by_words(state.person, job.person)
    stop_column.caption(f"Started by {whose}: only they (or an admin) can stop it.")
busy = busy_now()
if busy and not running:
    st.caption(f":material/hourglass_top: {busy}")
if state.get("solve_requested") and not running:
    start_requested_solve(settings, task, entry_point)
state.solve_requested = False
job = state.get("solve_job")  # a Load this example click may have taken it off show
if job is not None:
    solve_view(job, settings)
