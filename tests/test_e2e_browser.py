"""End to end: a real `streamlit run`, headless Chromium through Playwright, the real embedded model.

Screenshots land in test-artifacts/ (the README's pictures are copied from there).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.model
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = _free_port()
    env = {**os.environ, "DATA_DIR": str(tmp_path_factory.mktemp("data")), "LLM_PROVIDER": "llamacpp",
           "LLM_MAX_TOKENS": "256", "LLM_NUM_CTX": "4096"}
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / "streamlit.log", "w")  # a file, not a pipe nobody reads (it would fill and block)
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "ui" / "app.py"),
                             "--server.port", str(port), "--server.headless", "true",
                             "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("streamlit did not start: " + (ARTIFACTS / "streamlit.log").read_text()[-2000:])
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()  # a bench run still going in the app; the store keeps it resumable
        proc.wait(timeout=20)
    log.close()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2000})
        page.goto(server)
        yield page
        browser.close()


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


OUTCOMES = ["Passed after", "Not solved", "Stopped with an error", "The solve stopped with an error", "Cannot start",
            "The model is not available"]


@pytest.fixture(autouse=True)
def screenshot_on_failure(request, page):
    yield
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        page.screenshot(path=str(ARTIFACTS / f"failed-{request.node.name}.png"), full_page=True)


def test_playground_solves_a_typed_task_with_the_real_model(page):
    page.get_by_role("heading", name="Playground").wait_for(timeout=60_000)
    task = page.get_by_label("Task", exact=True)
    task.fill("Write a function multiply(a, b) that returns the product of a and b.")
    editor = page.frame_locator("iframe[title='streamlit_ace.streamlit_ace']")
    editor.locator(".ace_content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    # insert_text, not type: typed keys would trigger the editor's autocompletion on Enter.
    page.keyboard.insert_text("assert multiply(3, 4) == 12\nassert multiply(-2, 5) == -10\n"
                              "assert multiply(0, 7) == 0\n")
    # The editor sends its text after a short pause; the caption under it shows when the app has it
    # (three asserts: the example loaded at start has two).
    wait_or_explain(page, page.get_by_text("3 asserts, each reported on its own"), 30_000, "the typed tests")
    page.get_by_label("Entry point (optional)").fill("multiply")
    page.get_by_label("Entry point (optional)").press("Tab")
    page.get_by_role("button", name="Run", exact=True).click()
    outcome = page.get_by_text(OUTCOMES[0])
    for text in OUTCOMES[1:]:
        outcome = outcome.or_(page.get_by_text(text))
    wait_or_explain(page, outcome, 300_000, "an outcome of the solve")
    verdict = page.locator("body").inner_text()
    assert "Passed after" in verdict, verdict[-3000:]
    assert page.get_by_text("route: stop").count() >= 1
    assert "multiply(3, 4)" in page.content()
    page.screenshot(path=str(ARTIFACTS / "playground.png"), full_page=True)


def test_a_click_right_after_typing_runs_the_typed_tests(page):
    # The editor sends its text 200 ms after the last key, so this click reaches the app first. It once cut
    # the solve short (no verdict in 5 of 5 tries); the app now waits for the text and runs it.
    editor = page.frame_locator("iframe[title='streamlit_ace.streamlit_ace']")
    editor.locator(".ace_content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text("assert multiply(6, 7) == 42\n")
    page.get_by_role("button", name="Run", exact=True).click()
    # The executor card names each test it ran (the editor is an iframe: its text is not the page's).
    wait_or_explain(page, page.get_by_text("line 1: assert multiply(6, 7) == 42"), 180_000, "the typed test's result")
    outcome = page.get_by_text(OUTCOMES[0])
    for text in OUTCOMES[1:]:
        outcome = outcome.or_(page.get_by_text(text))
    wait_or_explain(page, outcome, 300_000, "an outcome of the solve")
    assert "multiply(3, 4)" not in page.locator("body").inner_text()


def test_debugger_shows_the_solve(page):
    page.get_by_role("link", name="Debugger").click()
    page.get_by_role("heading", name="Debugger").wait_for(timeout=60_000)
    wait_or_explain(page, page.get_by_text("Checkpoint", exact=False), 60_000, "the solve's checkpoint")
    page.get_by_role("tab", name="Messages sent to the model").click()
    wait_or_explain(page, page.get_by_text("system", exact=True), 60_000, "the messages sent to the model")
    page.screenshot(path=str(ARTIFACTS / "debugger.png"), full_page=True)


def test_bench_run_starts_and_progress_moves(page):
    page.get_by_role("link", name="Bench").click()
    page.get_by_role("heading", name="Bench").wait_for(timeout=60_000)
    tasks = page.get_by_label("Tasks", exact=True)
    tasks.fill("0-1")
    page.get_by_role("button", name="Start").click()
    wait_or_explain(page, page.get_by_text("0/2 tasks done").or_(page.get_by_text("1/2 tasks done")), 60_000,
                    "the run's progress")
    wait_or_explain(page, page.get_by_text("2/2 tasks done"), 400_000, "the finished run")
    wait_or_explain(page, page.get_by_text("2 tasks · wall"), 60_000, "the refreshed metrics")
    page.screenshot(path=str(ARTIFACTS / "bench.png"), full_page=True)
