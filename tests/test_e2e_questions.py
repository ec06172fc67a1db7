"""End to end: a real `streamlit run` on the embedded model, headless Chromium. A task in words with one assert: the
answers that pass it disagree where it does not look, so the solve asks; one click on the choice that is not the
answer so far adds the test to the tests box and changes the answer; Run keeps the test in the next solve."""

from __future__ import annotations

import re

import pytest

from browser_pages import ACE, ARTIFACTS, outcome, serve_app, settle, stop_app, type_task, wait_or_explain

pytestmark = [pytest.mark.model, pytest.mark.browser]

# What the mean of no numbers is, one assert leaves open; the 0.5B's first answer raises ZeroDivisionError there, and
# one of its doubt batch returns 0 (so the question is about an input the task may rule out: nothing else splits them).
TASK = "Write a function average(nums) that returns the mean of a list of numbers."
TESTS = "assert average([1, 2, 3]) == 2\n"
# Tokens capped, two candidates of budget: the doubt batch is drawn beyond it, and nothing more after the answer.
SMALL_MODEL = {"LLM_PROVIDER": "llamacpp", "LLM_MAX_TOKENS": "128", "LLM_NUM_CTX": "4096", "BUDGET": "2",
               # Pinned, so that a change of these defaults does not change what this test sees.
               "DOUBT": "asking", "THIN_TESTS": "3", "DOUBT_SAMPLES": "4", "MAX_QUESTIONS": "3",
               "PROPOSED_INPUTS": "8"}
QUESTION = "What should it give?"


def _body(page) -> str:
    return page.locator("[data-testid='stMain']").inner_text()


def _until_the_outcome(page, skips: int = 2) -> None:
    """Wait for the solve's outcome, skipping the questions that come after the first (at most skips)."""
    for _ in range(skips + 1):
        settle(page)
        skip = page.get_by_role("button", name="Skip", exact=True)
        wait_or_explain(page, outcome(page).or_(skip), 600_000, "the outcome, or another question")
        if outcome(page).count():
            return
        skip.click()
    wait_or_explain(page, outcome(page), 600_000, "the outcome")


def _in_the_tests_box(page, text: str) -> None:
    """Wait for a line holding text in the tests box (the code editor draws its lines a moment after the page)."""
    line = page.frame_locator(ACE).first.locator(".ace_line").filter(has_text=text)
    wait_or_explain(page, line, 30_000, f"{text} in the tests box")


@pytest.mark.timeout(1200)
def test_a_question_adds_a_test_in_one_click_that_changes_the_answer_and_run_keeps_it(browser, tmp_path):
    (tmp_path / "data").mkdir()
    proc, url = serve_app(tmp_path / "data", "streamlit-questions.log", env=SMALL_MODEL)
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    try:
        page.goto(url)
        type_task(page, TASK, TESTS)
        assert page.get_by_role("checkbox", name="Ask me when answers disagree").is_checked()  # on by default
        page.get_by_role("button", name="Run", exact=True).click()
        wait_or_explain(page, page.get_by_text(QUESTION).or_(outcome(page)), 600_000, "the question")
        assert page.get_by_text(QUESTION).count() == 1, f"no question: the answers agreed\n{_body(page)[-3000:]}"
        # docs/screenshots/question.png is copied from here.
        page.locator("[class*='st-key-question-']").screenshot(path=str(ARTIFACTS / "question.png"))
        call = re.search(r"disagree on (.+)\. What should it give\?", _body(page)).group(1)
        so_far = int(re.search(r"until it is answered, the answer is #(\d+)", _body(page)).group(1))
        # The choice that is not the answer so far: a click on it must change the answer.
        choices = page.locator("[data-testid='stHorizontalBlock']").filter(has=page.get_by_text("given by #"))
        other = choices.filter(has_not_text="the answer so far").first
        kept = {int(n) for n in re.findall(r"#(\d+)", other.get_by_text("given by #").inner_text())}
        picked = other.get_by_role("button").inner_text().strip()
        assert so_far not in kept and picked.startswith(("returns ", "raises "))
        other.get_by_role("button").click()
        _until_the_outcome(page)
        body = _body(page)
        assert f"{call}: answered {picked} — a test added" in body, body[-3000:]  # the timeline's step
        answer = int(re.search(r"(?:the chooser picked|only) #(\d+)", body).group(1))
        assert answer in kept and answer != so_far, body[-3000:]
        _in_the_tests_box(page, call)  # the answer's test
        # Run again: a new solve (the address names it) runs the added test beside the person's own. Asking is turned
        # off for it: its doubt batch would cost a minute here and show nothing this test has not seen.
        page.get_by_text("Ask me when answers disagree", exact=True).click()  # its label, as a person clicks it
        settle(page)
        assert not page.get_by_role("checkbox", name="Ask me when answers disagree").is_checked()
        first = page.url
        page.get_by_role("button", name="Run", exact=True).click()
        page.wait_for_function("first => window.location.href !== first", arg=first, timeout=60_000)
        settle(page)
        wait_or_explain(page, outcome(page).or_(page.get_by_text(QUESTION)), 600_000, "the second solve")
        assert "of 2 visible tests pass" in _body(page), _body(page)[-3000:]
        _in_the_tests_box(page, call)
    finally:
        page.close()
        stop_app(proc)
