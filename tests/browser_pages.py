"""Driving the app in a real browser from the tests: where the screenshots are, and waiting on a page with what the
page and the server said when it times out; the rest is measure.app_pages, shared with the load measurement."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from measure.app_pages import ACE, CHROMIUM, FLAGS, OUTCOMES, outcome, select, settle, type_task
from measure.app_server import AppDidNotStart, start_app

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
__all__ = ["ACE", "ARTIFACTS", "CHROMIUM", "FLAGS", "OUTCOMES", "ROOT", "grow_to_content", "outcome", "select",
           "serve_app", "settle", "stop_app", "type_task", "wait_or_explain"]


def wait_or_explain(page, locator, timeout_ms: int, what: str) -> None:
    """Wait for locator; on timeout fail with what the page and the server said, so a CI log alone explains it."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.first.wait_for(timeout=timeout_ms)
    except PlaywrightTimeout:
        body = page.locator("body").inner_text()[-3000:]
        log = (ARTIFACTS / "streamlit.log").read_text(errors="replace")[-3000:]
        pytest.fail(f"{what} did not appear in {timeout_ms / 1000:.0f}s.\n--- page text ---\n{body}\n"
                    f"--- streamlit log ---\n{log}", pytrace=False)


def serve_app(data: Path, log_name: str, **kwargs) -> tuple[subprocess.Popen, str]:
    """The app serving data (measure.app_server.start_app, which takes kwargs), its log in ARTIFACTS; a test fails
    with the log's end when it does not start."""
    try:
        return start_app(data, ARTIFACTS / log_name, **kwargs)
    except AppDidNotStart as exc:
        pytest.fail(str(exc))


def stop_app(proc: subprocess.Popen) -> None:
    """Stop the app and all it started (its process group): asked first, killed after 20 s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def grow_to_content(page, width: int) -> None:
    """The window grown to the page's whole height, every chart drawn: Streamlit scrolls its main area inside the
    window, so a full-page screenshot alone stops at the window's edge."""
    content = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": width, "height": max(1200, content + 40)})
    settle(page, 2.5)
