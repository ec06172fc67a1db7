"""Render a solve's events as a timeline of cards: coder, executor and route, one per node transition."""

from __future__ import annotations

import difflib
import time

import streamlit as st

from agent import NodeFinished, NodeStarted, RunFinished, Token
from agent.events import Event
from sandbox import TestReport


def code_diff(previous: str, current: str) -> str:
    """Unified diff between two attempts (difflib)."""
    return "".join(difflib.unified_diff(previous.splitlines(True), current.splitlines(True),
                                        "previous attempt", "this attempt"))


def render_report(report: dict) -> None:
    """Each visible test, and for failures the line, the compared values, the error and the traceback."""
    parsed = TestReport.from_dict(report)
    if parsed.error:
        st.warning(parsed.error)
    for test in parsed.tests:
        if test.passed:
            st.markdown(f":green[:material/check_circle:] `{test.name}`")
            continue
        st.markdown(f":red[:material/cancel:] `{test.name}`")
        st.code(test.describe(), language="text")
    for name, text, cut in (("stdout", parsed.stdout, parsed.stdout_truncated),
                            ("stderr", parsed.stderr, parsed.stderr_truncated)):
        if text.strip():
            with st.expander(f"{name}{' (truncated)' if cut else ''}"):
                st.code(text[-5000:], language="text")


class Timeline:
    """Feeds events into cards inside a container; works live (tokens) and on replay (stored events)."""

    def __init__(self, container, max_retries: int) -> None:
        self.container, self.max_retries = container, max_retries
        self.card = None
        self.stream = None
        self.streamed = ""
        self.last_paint = 0.0
        self.previous_code = ""

    def handle(self, event: Event) -> None:
        if isinstance(event, NodeStarted):
            self.card = self.container.container(border=True)
            icon = ":material/psychology:" if event.node == "coder" else ":material/science:"
            self.card.markdown(f"**{icon} {event.node}** · step {event.step}")
            self.stream, self.streamed = (self.card.empty(), "") if event.node == "coder" else (None, "")
        elif isinstance(event, Token) and self.stream is not None:
            self.streamed += event.text
            if time.monotonic() - self.last_paint > 0.15:  # repainting on every token would flood the browser
                self.stream.code(self.streamed, language="markdown")
                self.last_paint = time.monotonic()
        elif isinstance(event, NodeFinished):
            with self.card if self.card is not None else self.container.container(border=True):
                self._finished(event)
            self.card = None
        elif isinstance(event, RunFinished):
            self._verdict(event)

    def flush(self) -> None:
        """Paint the tokens the throttle held back (after replaying a list of events in one go)."""
        if self.stream is not None and self.streamed:
            self.stream.code(self.streamed, language="markdown")

    def _finished(self, event: NodeFinished) -> None:
        update = event.update
        if event.node == "coder":
            if self.stream is not None:
                self.stream.empty()
            if update.get("status") == "error":
                st.error(update.get("error"))
                return
            attempt = (update.get("attempts") or [{}])[-1]
            st.caption(f"attempt {update.get('iteration')} · {attempt.get('tokens_out', 0)} tokens · "
                       f"{attempt.get('seconds_model', 0):.1f}s" + (
                           f" · {attempt['prompt_tokens_reused']} prompt tokens reused from cache"
                           if attempt.get("prompt_tokens_reused") else "")
                       + (" · the model repeated earlier code, so it was asked again, warmer"
                          if attempt.get("resampled") else ""))
            if update.get("extract_error"):
                st.warning(f"No usable code: {update['extract_error']}")
                with st.expander("the model's answer"):
                    st.code(attempt.get("answer", ""), language="markdown")
                return
            code = update.get("code", "")
            st.code(code, language="python")
            if self.previous_code:
                with st.expander("diff against the previous attempt"):
                    st.code(code_diff(self.previous_code, code) or "(no change)", language="diff")
            self.previous_code = code
        else:
            report = update.get("report") or {}
            attempt = (update.get("attempts") or [{}])[-1]
            st.caption(f"sandbox: {report.get('status')} · {attempt.get('seconds_tests', 0):.2f}s · "
                       f"isolation {report.get('isolation', '?')}")
            render_report(report)
            self._route(update, attempt.get("iteration", 0))

    def _route(self, update: dict, iteration: int) -> None:
        status = update.get("status")
        with self.container.container(border=True):
            if status == "running":
                st.markdown(f"**:material/replay: route: retry {iteration} of {self.max_retries}** — the tests failed, "
                            "the report goes back to the model")
            elif status == "passed":
                st.markdown("**:material/stop_circle: route: stop** — every visible test passes")
            else:
                st.markdown(f"**:material/stop_circle: route: stop** — the retry limit is reached "
                            f"({self.max_retries} repairs)")

    def _verdict(self, event: RunFinished) -> None:
        if event.paused:
            self.container.info(f"Paused before **{event.next_node}**.")
        elif event.status == "passed":
            self.container.success(f"**Passed** after {event.iterations} attempt(s).", icon=":material/check_circle:")
        elif event.status == "gave_up":
            self.container.error(f"**Not solved**: the tests still fail after {event.iterations} attempts.",
                                 icon=":material/cancel:")
        else:
            self.container.error(f"**Stopped with an error**: {event.error}", icon=":material/error:")
