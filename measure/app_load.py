"""Several people at once in a real browser: each solve's time, a newly opened page's draw time, the server's memory.

    python -m measure app [--sessions 1,4,8] [--json]

Starts the app (`streamlit run ui/serve.py` on loopback, the embedded model, the default settings, a data folder of
its own) and drives it with Chromium through Playwright, as the browser tests do. First each of the first four tasks
alone, one after another (the baseline: what four solves cost in a row); then, for each N, N browser sessions that
each type a small task in words of their own and press Run within a second of each other. While they solve, one more
page is opened: the time until the Playground has drawn (its heading and Run button) is the draw time under load.
For each N it prints every solve's time from its click, the last one's, whether each page that waited showed its
place in the line, the draw time and the server's peak memory, as ratios against N = 1 measured in the same run.

It loads the embedded model: on a shared machine run it alone (`flock /tmp/model.lock`). Each task passes at its
first answer when alone.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from measure.app_pages import CHROMIUM, FLAGS, OUTCOMES, type_task
from measure.app_server import start_app

PLACE = "ahead of yours"
# Small tasks in words, each with its tests as a person types them: each passes at the first answer alone.
TASKS = [
    ("Write a function double(n) that returns n times 2.", "assert double(3) == 6\nassert double(0) == 0\n"),
    ("Write a function shout(s) that returns s in upper case.", "assert shout('ab') == 'AB'\n"),
    ("Write a function last(items) that returns the last item of a list.", "assert last([1, 2, 3]) == 3\n"),
    ("Write a function total(nums) that returns the sum of a list of numbers.", "assert total([1, 2, 3]) == 6\n"),
    ("Write a function is_even(n) that says whether n is even.", "assert is_even(4) is True\n"),
    ("Write a function first_word(s) that returns the first word of a sentence.", "assert first_word('a b') == 'a'\n"),
    ("Write a function count_a(s) that counts the letters a in a string.", "assert count_a('banana') == 3\n"),
    ("Write a function square(n) that returns n squared.", "assert square(4) == 16\n"),
]


@dataclass
class Round:
    """One N: every solve's seconds from its click, whether each waiting page showed its place, the draw time."""

    sessions: int
    solve_s: list[float] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    showed_place: list[bool] = field(default_factory=list)
    draw_s: float = 0.0
    peak_mb: float = 0.0

    @property
    def last_s(self) -> float:
        return max(self.solve_s) if self.solve_s else 0.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sessions", default="1,4,8", help="the numbers of sessions pressing Run together")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def peak_mb(pid: int) -> float:
    """The server process's peak resident memory (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def typed_page(browser, url: str, task: str, tests: str):
    """A new browser session on the Playground with this task and its tests typed in."""
    page = browser.new_context(viewport={"width": 1400, "height": 1600}).new_page()
    page.goto(url)
    type_task(page, task, tests)
    return page


def solve_together(browser, url: str, tasks: list[tuple[str, str]], server_pid: int) -> Round:
    """len(tasks) sessions press Run within a second; one more page opens meanwhile and its draw is timed."""
    pages = [typed_page(browser, url, *task) for task in tasks]
    clicked = []
    for page in pages:
        page.get_by_role("button", name="Run", exact=True).click()
        clicked.append(time.monotonic())
    result = Round(len(tasks), showed_place=[False] * len(pages))
    started = time.monotonic()
    newcomer = browser.new_context().new_page()
    newcomer.goto(url)
    newcomer.get_by_role("heading", name="Playground").wait_for(timeout=300_000)
    newcomer.get_by_role("button", name="Run", exact=True).wait_for(timeout=300_000)
    result.draw_s = time.monotonic() - started
    finished: dict[int, float] = {}
    deadline = time.monotonic() + 1800
    while len(finished) < len(pages) and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if i in finished:
                continue
            text = page.locator("[data-testid='stMain']").inner_text()
            if PLACE in text:
                result.showed_place[i] = True
            found = [word for word in OUTCOMES if word in text]
            if found:
                finished[i] = time.monotonic()
                result.outcomes.append(found[0])
        time.sleep(0.5)
    result.solve_s = [round(finished.get(i, deadline) - clicked[i], 1) for i in range(len(pages))]
    result.peak_mb = round(peak_mb(server_pid), 1)
    for page in [*pages, newcomer]:
        page.context.close()
    return result


def run(args: argparse.Namespace) -> None:
    """Run the measurement and print its table (or JSON)."""
    from playwright.sync_api import sync_playwright

    counts = [int(n) for n in args.sessions.split(",")]
    with tempfile.TemporaryDirectory(prefix="app-load-") as folder, sync_playwright() as p:
        proc, url = start_app(Path(folder), Path(folder) / "streamlit.log", env={"LLM_PROVIDER": "llamacpp"})
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            warm = solve_together(browser, url, TASKS[7:8], proc.pid)  # loads the model: not counted
            alone = [solve_together(browser, url, [task], proc.pid) for task in TASKS[:4]]
            rounds = [solve_together(browser, url, TASKS[:n], proc.pid) for n in counts]
        finally:
            browser.close()
            proc.terminate()
            proc.wait(timeout=30)
    report = {"warm_up_s": warm.last_s, "alone_s": [r.last_s for r in alone],
              "rounds": [{**asdict(r), "last_s": r.last_s} for r in rounds]}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(_table(report))


def _table(report: dict) -> str:
    alone = report["alone_s"]
    base = next((r for r in report["rounds"] if r["sessions"] == 1), report["rounds"][0])
    lines = [f"each of the first four tasks alone: {', '.join(f'{s:.1f}' for s in alone)} s "
             f"(in a row: {sum(alone):.1f} s)",
             "sessions  last solve s  vs in a row  solves s                     waited and showed place  "
             "draw s  draw ratio  peak MiB  memory ratio"]
    for r in report["rounds"]:
        in_row = sum(alone[:r["sessions"]]) * (r["sessions"] / min(r["sessions"], len(alone)))
        lines.append(f"{r['sessions']:>8}  {r['last_s']:>12.1f}  {r['last_s'] / in_row:>11.2f}  "
                     f"{' '.join(f'{s:.0f}' for s in r['solve_s']):<28} "
                     f"{sum(r['showed_place'])}/{max(r['sessions'] - 1, 0):<22} {r['draw_s']:>6.1f}  "
                     f"{r['draw_s'] / base['draw_s']:>10.2f}  {r['peak_mb']:>8.0f}  "
                     f"{r['peak_mb'] / base['peak_mb']:>12.2f}")
    lines.append("outcomes: " + "; ".join(f"N={r['sessions']}: {', '.join(r['outcomes'])}" for r in report["rounds"]))
    return "\n".join(lines)
