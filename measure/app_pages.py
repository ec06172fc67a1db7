"""Driving the app's pages in Chromium with Playwright: where Chromium is and how it starts here, waiting on
Streamlit's reruns, picking from a select box, typing a task and its tests, and a solve's outcome. Shared by the load
measurement (measure.app_load) and the browser tests (tests/browser_pages.py); Playwright is imported only when a
page is driven."""

from __future__ import annotations

import shutil
import time

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ACE = "iframe[title='streamlit_ace.streamlit_ace']"
OUTCOMES = ["Passed your", "Not solved", "Stopped with an error", "The solve stopped with an error", "Cannot start",
            "The model is not available", "Stopped: the sandbox cannot run this", "Stopped, not judged"]


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


def type_task(page, task: str, tests: str) -> None:
    """On the Playground: load the words example, then type this task (a text box) and its tests (the code editor)."""
    page.get_by_role("heading", name="Playground").wait_for(timeout=120_000)
    select(page, "Example", "Add two numbers")
    page.get_by_role("button", name="Load this example").click()
    settle(page)
    page.get_by_role("textbox", name="Task", exact=True).fill(task)
    page.frame_locator(ACE).locator(".ace_content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(tests)
    settle(page, 1.5)


def outcome(page):
    """A locator of the words a finished solve (or a refused start) shows."""
    found = page.get_by_text(OUTCOMES[0])
    for text in OUTCOMES[1:]:
        found = found.or_(page.get_by_text(text))
    return found
