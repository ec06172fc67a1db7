"""Driving the app in a real browser: where Chromium and the screenshots are, and waiting on Streamlit's pages
(shared by the browser tests; Playwright is imported only when a page is driven)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ACE = "iframe[title='streamlit_ace.streamlit_ace']"
OUTCOMES = ["Passed your", "Not solved", "Stopped with an error", "The solve stopped with an error", "Cannot start",
            "The model is not available", "Stopped: the sandbox cannot run this"]


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


def settle(page, seconds: float = 1.0) -> None:
    """Let a rerun that a change started finish (Streamlit greys the page while it runs)."""
    time.sleep(seconds)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden", timeout=60_000)


def select(page, label: str, option_text: str, area: str = "stMain") -> None:
    """Pick the option holding this text in the select box with this label, in the page's main area or its
    sidebar (area="stSidebar"); a second try if the list did not open: a click that lands while the page redraws
    is lost."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    box = page.locator(f"[data-testid='{area}']").get_by_role("combobox", name=label, exact=True)
    option = page.get_by_role("option").filter(has_text=option_text).first
    for attempt in range(2):
        settle(page)
        box.scroll_into_view_if_needed()
        box.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            if attempt:
                raise
    option.click()
    settle(page)
