"""Show a background solve job: live while it runs (redrawn twice a second), then as a finished timeline."""

from __future__ import annotations

import streamlit as st

from agent import Search, SolveJob
from agent.loop.candidates import Candidate
from agent.solves.line import wait_words
from ui.timeline import draw_timeline

REFRESH_SECONDS = 0.5


def show_job(job: SolveJob, search: Search, *, key: str, known: list[Candidate] | None = None,
             more_below: bool = False) -> None:
    """Draw the job's timeline where this is called; when a running job ends, rerun the page.

    search is the solve's own; known are its candidates from before the job began; key
    prefixes the timeline's widget keys (unique on the page); more_below: the page shows what the answer does on
    other inputs under it (ui.timeline.draw_timeline)."""
    if job.running:
        _live(job, search, key, known)
    else:
        _draw(job, search, key, known, tokens=False, more_below=more_below)


@st.fragment(run_every=REFRESH_SECONDS)
def _live(job: SolveJob, search: Search, key: str, known: list[Candidate] | None) -> None:
    if not job.running:
        st.rerun()  # the whole page: what it offers next (download, debugger, the checkpoint tree) depends on it
    _draw(job, search, key, known, tokens=True)


def _draw(job: SolveJob, search: Search, key: str, known: list[Candidate] | None, *, tokens: bool,
          more_below: bool = False) -> None:
    if job.waiting:
        st.info(wait_words(job.place), icon=":material/hourglass_top:")
    draw_timeline(job.snapshot(tokens=tokens), search=search, key=key, known=known, more_below=more_below)
    if job.left_line and job.final is not None:  # it was to carry on a paused solve, which stays as it was
        st.warning("**Left the line.** The solve did not go on: it is where it was.", icon=":material/logout:")
    elif job.left_line:
        st.warning("**Left the line.** The solve never began; run it again whenever you like.",
                   icon=":material/logout:")
    elif job.error:
        st.error(f"**The solve stopped with an error:** {job.error}", icon=":material/error:")
    elif job.cancelled:
        st.warning("**Stopped.** The steps so far are kept: the debugger shows them and can go on from the last one.",
                   icon=":material/pause_circle:")
