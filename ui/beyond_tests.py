"""Under a finished solve in the Playground: what its answer does on inputs the person did not test, and a row marked
as wrong made a test: either carried into this very solve ("Correct and go on": Solver.correct judges every candidate
again with it, so one that gives the right result there becomes the answer with no model time, and the loop draws
again when none does), or added to the tests box for "Run again" to solve anew with it.

The rows come from agent.solves.answer_behaviour, the test and the lineage a run again keeps from
agent.solves.lineage.with_test_from_row; this module only draws them and keeps what a person added, until the next
run, in the session (``pending_lineage``). A correction carries the solve on in the background as an answer to a
question does (ui.question_form), in its turn in the line in front of the model.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pandas as pd
import streamlit as st

from agent import BadInput, LineFull, ModelUnavailable, Settings, SolveJob, start_job
from agent.loop.corrections import correction
from agent.loop.questions import Reply
from agent.solves.answer_behaviour import AnswerBehaviour, BehaviourRow, answer_behaviour
from agent.solves.jobs import job_for
from agent.solves.lineage import Lineage, test_from_row, with_test_from_row
from ui.identity import started_by_words
from ui.session import model_solver
from ui.timeline import plain, spaces_kept

RETURNS, RAISES = "returns this value", "raises this exception"
HEADING = "What the answer does beyond your tests"
state = st.session_state


def behaviour_of(job: SolveJob, settings: Settings) -> AnswerBehaviour | None:
    """The answer's behaviour table for a finished solve (None when there is none to show), read once per solve and
    answer: the outcomes are stored with the answer, and the sandbox runs only for an answer stored without them."""
    final = job.final
    if job.running or final is None or final.paused or final.status not in ("passed", "gave_up", "unsupported"):
        return None
    cache = state.setdefault("answer_behaviours", {})
    key = (job.thread_id, final.code)
    if key not in cache:
        try:
            solver = model_solver(settings)
        except ModelUnavailable:  # the page above already says what to fix
            return None
        cache[key] = answer_behaviour(solver.state_at(job.thread_id))
    return cache[key]


def _table(rows: list[BehaviourRow]) -> pd.DataFrame:
    # A table cell collapses a run of spaces, and '  a  ' must not read as ' a '.
    table = pd.DataFrame([{"call": spaces_kept(row.call), "what the answer does": spaces_kept(row.words()),
                           "input": "outside what your tests show" if row.outside else "like your tests' inputs"}
                          for row in rows])
    table.index = range(1, len(rows) + 1)  # the row numbers the picker below names
    return table


def _add_test(job: SolveJob, answer: int, rows: list[BehaviourRow], put_tests: Callable[[str], None]) -> None:
    """The click on "Add this test": the picked row, with what the person typed, written into the tests."""
    thread = job.thread_id
    row, typed = rows[state[f"wrong-row-{thread}"] - 1], state[f"wrong-expected-{thread}"]
    returns, raises = (typed, None) if state[f"wrong-how-{thread}"] == RETURNS else (None, typed)
    try:
        tests, lineage = with_test_from_row(state.get("pending_lineage"), thread, answer, state.tests, row,
                                            returns=returns, raises=raises)
    except BadInput as exc:
        state.added_test_error = str(exc)
        return
    state.pending_lineage, state.added_test_error, state[f"wrong-expected-{thread}"] = lineage, None, ""
    put_tests(tests)


def _correct(job: SolveJob, settings: Settings, rows: list[BehaviourRow], put_tests: Callable[[str], None],
             show_solve: Callable[[SolveJob], None]) -> None:
    """The click on "Correct and go on": the picked row, with what the person typed, carried into this solve
    (Solver.correct) in its turn in the line, and its test written into the tests box, so that Run keeps it."""
    thread = job.thread_id
    row, typed = rows[state[f"wrong-row-{thread}"] - 1], state[f"wrong-expected-{thread}"] or ""
    state.added_test_error = None
    if not typed.strip():
        state.added_test_error = "type the value or exception type the call should give first"
        return
    reply = Reply(returns=typed) if state[f"wrong-how-{thread}"] == RETURNS else Reply(raises=typed)
    going = job_for(thread)
    if going is not None and going.running:  # a second click, or the same person's other tab, came first
        state.added_test_error = "the solve is already carrying on: wait for it to finish"
        return
    try:
        solver = model_solver(settings)
        if solver.paused_before(thread) is not None:  # another tab carried it on to a question or a step
            raise BadInput("the solve has gone on elsewhere (another tab or window): reload to see it as it is now")
        # Refused here, saying what to fix, before the solve waits in line: a result that is not Python, a row the
        # solve no longer shows.
        solve_tests, corrected = correction(solver.state_at(thread), row.call, reply, row.argument)
        owner = solver.store.person(thread)
        place = solver.place_in_line(owner, thread)
    except (BadInput, LineFull, ModelUnavailable) as exc:
        state.added_test_error = str(exc)
        return
    try:
        put_tests(test_from_row(state.tests, row, returns=reply.returns, raises=reply.raises)[0])
    except BadInput:  # a box edited into what takes no test: the solve has the test, Run again would not
        state.added_test_error = ("the solve took your correction, but your tests box could not: add its test by hand "
                                  f"to keep it when you run again: {' '.join(corrected.added.test.split())}")
    state[f"wrong-expected-{thread}"] = ""
    show_solve(start_job(partial(solver.correct, thread, row.call, reply, row.argument), thread_id=thread,
                         inputs={**job.inputs, "tests": solve_tests}, person=owner, place=place, before=job.events))


def _added(lineage: Lineage, request_run: Callable[[], None]) -> None:
    """The tests added since the solve on show, and Run again."""
    st.markdown(f"**Added to your tests** (after answer #{lineage.after_answer}):")
    for added in lineage.added:
        st.code(added.test, language="python")
    st.button("Run again", type="primary", on_click=request_run, key="run-again",
              help="solve again with your tests, the added ones included; the new solve records what you added")


def beyond_tests(job: SolveJob, behaviour: AnswerBehaviour, put_tests: Callable[[str], None],
                 request_run: Callable[[], None], settings: Settings, show_solve: Callable[[SolveJob], None]) -> None:
    """The table of the answer's behaviour on inputs the person did not test, the form that makes a wrong row a
    test (carried into this solve, or added for Run again), and Run again once a test was added."""
    st.subheader(HEADING)
    rows = behaviour.rows
    if not rows:
        st.caption("No other inputs to try: they are made from the calls your tests check (in an assert, a unittest "
                   "assertion or a raises block) with plain values (numbers, strings, lists): your tests make none.")
        return
    st.caption(f"Answer #{behaviour.answer} on inputs near your tests' own (empty, zero, negative, one more or less, "
               "other lengths), run in the sandbox; "
               + ("these outcomes were recorded when it was judged." if behaviour.reused else "run just now.")
               + " Inputs outside what your tests show may be ones the task rules out.")
    st.table(_table(rows))
    with st.container(border=True):
        st.markdown("**Is a row wrong? Make it a test**")
        # Keyed by the solve: a picked row number belongs to that solve's table.
        thread = job.thread_id
        st.selectbox("Row the answer gets wrong", range(1, len(rows) + 1), key=f"wrong-row-{thread}",
                     format_func=lambda i: spaces_kept(f"{i}. {rows[i - 1].call} {rows[i - 1].words()}"))
        st.radio("The right outcome", [RETURNS, RAISES], key=f"wrong-how-{thread}", horizontal=True)
        st.text_input("Expected value or exception type", key=f"wrong-expected-{thread}",
                      help="a Python value as in your tests ('abc', 0, [1, 2], None), or an exception's type "
                           "(ValueError); for a row on what a call leaves in its argument, the value it should hold")
        try:
            owner = model_solver(settings).store.person(thread)
        except ModelUnavailable:  # the page above already says what to fix
            owner = None
        if owner is not None and state.person.may_stop(owner):
            correct, add = st.columns(2)
            correct.button("Correct and go on", type="primary", on_click=_correct,
                           args=(job, settings, rows, put_tests, show_solve), width="stretch",
                           help="this solve takes the test: its candidates are judged again with it, one that gets "
                                "this row right becomes the answer with no model time, and when none does the loop "
                                "draws again; the test goes into your tests too")
        else:
            st.caption(f"Started by {started_by_words(state.person, owner)}: only they (or an admin) can carry it on; "
                       "you can add the test to your own tests.")
            add = st
        add.button("Add this test", on_click=_add_test, args=(job, behaviour.answer, rows, put_tests),
                   help="writes the test into your tests, in the style they use, for Run again", width="stretch")
        if state.get("added_test_error"):
            st.error(f"**Cannot add this test:** {plain(state.added_test_error)}")
    pending: Lineage | None = state.get("pending_lineage")
    if pending is not None and pending.from_solve == job.thread_id:
        _added(pending, request_run)
