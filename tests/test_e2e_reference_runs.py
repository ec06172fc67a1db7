"""A newcomer's first look at the Bench page, in a real browser (a real `streamlit run`, headless Chromium through
Playwright), on a fresh data folder: the project's reference runs with their charts, labelled as not theirs; hidden in
one click, "No runs yet."; a sample:5 run of theirs compared with its reference run in one click.

No model runs here: the person's run is five tasks of a stored run of the embedded model with the default settings,
loaded under an id of its own as `python -m bench load` loads a dump; what it is compared with, and how, is the
page's own matching (bench.runs.reference) and comparison. The seconds until the first chart was drawn are written to
test-artifacts/reference-runs-first-look.txt (measured, not asserted: the machine is shared).
"""

from __future__ import annotations

import time

import pytest

from bench.runs import store
from browser_pages import ARTIFACTS, grow_to_content, serve_app, settle, stop_app, wait_or_explain
from stored_runs import load_as_new_run

pytestmark = pytest.mark.browser
HEADLINE = "20261201-193010-773c85"  # the embedded 0.5B on all 164 tasks with today's defaults (the README's)
SAMPLE_41 = "20261202-055403-35e2dd"  # the same model and settings on sample:41, which holds sample:5's tasks
CHART = "[data-testid='stVegaLiteChart'] canvas, [data-testid='stVegaLiteChart'] svg"
WIDTH, HEIGHT = 1400, 1800


def picture(page, name: str) -> None:
    """The whole page, in test-artifacts/."""
    grow_to_content(page, WIDTH)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})


@pytest.mark.timeout(300)
def test_a_newcomer_sees_the_reference_runs_hides_them_and_compares_a_run_of_theirs(browser, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    proc, url = serve_app(data, "streamlit-reference.log", env={"LLM_PROVIDER": "llamacpp"})
    try:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        started = time.monotonic()
        page.goto(url + "/bench")
        wait_or_explain(page, page.locator(CHART), 60_000, "the reference run's chart")
        seconds = time.monotonic() - started
        (ARTIFACTS / "reference-runs-first-look.txt").write_text(f"{seconds:.1f} s to the first chart\n")
        # The chart can come before the rest of the page is drawn (CI read the summary of another run there once).
        wait_or_explain(page, page.get_by_text("164/164 tasks done · 125 passing · finished"), 60_000,
                        "the reference run's summary")
        settle(page)
        main = page.locator("[data-testid='stMain']")
        body = main.inner_text()
        # The reference run of the app's model and settings first, labelled as not theirs, with the machine and code.
        assert "This is a reference run measured on the project's machine (host vm: 2 CPU cores, 24 GiB, no GPU), " \
               "code 06cf296 src d73df838a835" in body, body[:3000]
        assert HEADLINE in page.get_by_role("combobox", name="Run", exact=True).input_value()
        assert "164/164 tasks done · 125 passing · finished" in body and "76.2%" in body
        assert "Reference runs" in body and "Download the results (CSV)" not in body
        # Their cost estimate is theirs: not measured yet, though a reference run of this very model was.
        assert "What a run costs here is not measured yet for llamacpp · qwen2.5-coder-0.5b-instruct-q4_k_m.gguf" \
            in body
        picture(page, "reference-runs")

        page.get_by_text("Show the project's reference runs").click()
        wait_or_explain(page, page.get_by_text("No runs yet."), 60_000, "the empty page once they are hidden")
        settle(page)
        assert page.locator(CHART).count() == 0 and "This is a reference run" not in main.inner_text()

        mine = load_as_new_run(store.open_store(data / "bench.sqlite"), HEADLINE, "sample:5")
        page.reload()
        wait_or_explain(page, page.get_by_text("5/5 tasks done"), 60_000, "the person's run")
        assert mine in page.get_by_role("combobox", name="Run", exact=True).input_value()
        page.get_by_text("Compare with the reference run of the same model and settings").click()
        wait_or_explain(page, page.get_by_text("Your run (B) against the reference run (A)"), 60_000, "the comparison")
        body = main.inner_text()
        assert f"{SAMPLE_41} (sample:41, 41 tasks)" in body and "Your run (B) against the reference run (A)" in body
        for key, run_id in (("A", SAMPLE_41), ("B", mine)):
            assert f"{key}: qwen2.5-coder-0.5b, budget 9 ({run_id})" in body
        picture(page, "reference-runs-compared")
        print(f"the Bench page's first look: {seconds:.1f} s to the first chart")
    finally:
        stop_app(proc)
