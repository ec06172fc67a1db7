"""Under the verdict of a solve paused at a question (agent.loop.questions): the question in words, one button per
choice, a result typed in when none of them is right, and Skip; one question at a time.

An answer carries the solve on in the background as Run started it (agent.solves.jobs.start_job, in its turn in the
line in front of the model, with the events so far so that the timeline tells the whole solve) through
Solver.answer, and writes the same test into the tests box, so that Run keeps it. The question lives in the solve's
checkpoint, not in the page: a reload, a second tab or a restarted server shows it again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from agent import BadInput, LineFull, SolveJob, Solver, start_job
from agent.loop.questions import Question, Reply, answered
from agent.solves.jobs import job_for
from agent.solves.story import answer_so_far
from ui.identity import started_by_words
from ui.timeline import plain, question_markdown

NONE_LABEL = "None of these: the right result is ..."
NONE_LABEL_ARGUMENT = "None of these: after the call it should hold ..."  # a question on an argument after the call
TYPED_HELP = ("a Python value as in your tests ('abc', 0, [1, 2], None), or `raises` and an exception's type "
              "(raises ValueError)")
TYPED_MAX_CHARS = 2000  # a result, not a page: the test it becomes is one line of the tests box
state = st.session_state


def pending_question(job: SolveJob, solver: Solver) -> Question | None:
    """The question the solve on show waits at (None when it does not wait, or is running)."""
    final = job.final
    if job.running or final is None or not final.paused or final.next_node != "ask":
        return None
    return solver.question(job.thread_id)


def _error_key(thread: str) -> str:
    return f"answer-error-{thread}"


def _box_key(thread: str) -> str:
    return f"answer-box-{thread}"


BOX_ERROR = "question_box_error"  # an answer's test the tests box could not take, to copy by hand


def _answer(solver: Solver, job: SolveJob, question: Question, reply: Reply | None,
            put_tests: Callable[[str], None], show_solve: Callable[[SolveJob], None]) -> None:
    """A click on a choice, on "Use this result" (reply None: the typed text) or on Skip: carry the solve on."""
    thread = job.thread_id
    state[_error_key(thread)] = None
    if reply is None:
        reply = Reply.typed(state.get(f"answer-typed-{thread}") or "")
        if reply.returns == "":
            state[_error_key(thread)] = "type the right result first, or pick a choice, or skip"
            return
    going = job_for(thread)
    if going is not None and going.running:  # a second click, or the same person's other tab, came first
        state[_error_key(thread)] = "the solve is already carrying on with an answer: wait for its next step"
        return
    if going not in (None, job):  # another tab answered and carried the solve on: this page shows it as it was
        state[_error_key(thread)] = ("this question was answered in another tab or window; reload the page to see "
                                     "the solve as it is now")
        return
    try:
        # Refuses, saying what to fix, a reply that cannot be a test or was made for another question than the one
        # the solve waits at now; the stream it returns is not started here.
        solve_tests = solver.tests_after(thread, reply, question=question)
    except BadInput as exc:
        state[_error_key(thread)] = str(exc)
        return
    owner = solver.store.person(thread)
    try:
        place = solver.place_in_line(owner, thread)
    except LineFull as exc:
        state[_error_key(thread)] = str(exc)
        return
    _put_answer_in_box(thread, question, reply, put_tests)
    state[f"answer-typed-{thread}"] = ""
    # The job answers only this question: if another tab's answer comes first while it waits in line, it refuses.
    show_solve(start_job(partial(solver.answer, thread, reply, question=question), thread_id=thread,
                         inputs={**job.inputs, "tests": solve_tests}, person=owner, place=place, before=job.events,
                         on_leaving_line=partial(solver.store.set_status, thread, "paused")))


def _put_answer_in_box(thread: str, question: Question, reply: Reply, put_tests: Callable[[str], None]) -> None:
    """The answer's test goes into the tests box now, so that Run keeps it; what the box held before is kept until
    the solve has gone past the question (restore_box_if_unanswered), since an answer that leaves the line was never
    given. A box edited since into what takes no test keeps its text, and the page says which test to add by hand."""
    before = state.tests
    state[BOX_ERROR] = None
    try:
        after = answered(before, question, reply)[0]
    except BadInput as exc:
        try:
            added = answered("", question, reply)[1].added
        except BadInput:
            added = None
        test = added.test if added is not None else ""
        state[BOX_ERROR] = (f"the solve took your answer, but your tests box could not ({exc}); add its test by hand "
                            f"to keep it when you run again: `{' '.join(test.split())}`")
        return
    put_tests(after)
    state[_box_key(thread)] = (question, before, after)


def box_warning() -> None:
    """Under the verdict, until the next Run: the test of an answer the tests box could not take, to add by hand."""
    if state.get(BOX_ERROR):
        st.warning(f"**Your tests box did not take the answer's test:** {plain(state[BOX_ERROR])}",
                   icon=":material/warning:")


def restore_box_if_unanswered(thread: str, waiting: Question | None, put_tests: Callable[[str], None]) -> None:
    """An answer whose job left the line before it began was never given: the solve still waits at that question,
    so the test it put in the tests box comes out again (unless the person has edited the box since)."""
    record = state.pop(_box_key(thread), None)
    if record is None:
        return
    question, before, after = record
    if waiting == question and state.tests == after:
        put_tests(before)


def question_form(job: SolveJob, solver: Solver, put_tests: Callable[[str], None],
                  show_solve: Callable[[SolveJob], None]) -> None:
    """The question the solve waits at, under its verdict, and the ways to answer it (only its owner, or an admin,
    may answer: a shared link shows it to others without them)."""
    question = pending_question(job, solver)
    thread = job.thread_id
    if not job.running:
        restore_box_if_unanswered(thread, question, put_tests)
    if question is None:
        return
    with st.container(border=True, key=f"question-{thread}"):
        # The call in a code span: an input such as '   hello' must read exactly as the answer's test will hold it.
        st.markdown(f"**{question_markdown(question)}**")
        owner = solver.store.person(thread)
        if not state.person.may_stop(owner):
            st.caption(f"Started by {started_by_words(state.person, owner)}: only they (or an admin) can answer.")
            return
        answer = partial(_answer, solver, job, question, put_tests=put_tests, show_solve=show_solve)
        what = "it should give" if question.argument is None else "the argument should hold after the call"
        st.caption(f"Pick what {what}: your answer becomes a test in your tests, the answers that disagree drop out, "
                   "and the solve goes on.")
        so_far = answer_so_far(solver.candidates(thread))
        for i, option in enumerate(question.options):
            pick, given = st.columns([1, 3], vertical_alignment="center")
            pick.button(plain(option.words()), key=f"answer-{thread}-{i}", on_click=answer, args=(Reply(choice=i),),
                        width="stretch")
            given.caption("given by " + ", ".join(f"#{n}" for n in option.candidates)
                          + (" — the answer so far" if so_far is not None and so_far.number in option.candidates
                             else ""))
        typed, use = st.columns([4, 1], vertical_alignment="bottom")
        typed.text_input(NONE_LABEL if question.argument is None else NONE_LABEL_ARGUMENT, key=f"answer-typed-{thread}",
                         help=TYPED_HELP if question.argument is None else "a Python value as in your tests",
                         max_chars=TYPED_MAX_CHARS)
        use.button("Use this result", key=f"answer-use-{thread}", on_click=answer, args=(None,), width="stretch")
        st.button("Skip", key=f"answer-skip-{thread}", on_click=answer, args=(Reply(),),
                  help="no test is added; the solve asks about another input, if any, or picks its answer")
        if state.get(_error_key(thread)):
            st.error(f"**Cannot take this answer:** {plain(state[_error_key(thread)])}")
