"""The count in the bench: candidates lost at load (before any test ran), by cause, and the share cleaning removed the
model's own tests or demo from, read from stored candidates (bench.scoring.load_losses), printed by show, compare and
report in the words the Bench page shares (bench.reports.words)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from agent import Search, Solver
from bench.protocol.labels import Protocol
from bench.reports.results_table import latest_finished_runs, markdown_report
from bench.reports.words import cause_words, cleaning_share_words, load_loss_words
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import start_run
from bench.runs.record import Run
from bench.runs.reference import REFERENCE_DIR
from bench.runs.transfer import load_file
from bench.scoring.load_losses import NOT_RECORDED, LoadLosses, load_losses, stored_load_failure
from fakes import PromptKeyedModel, keyed_answers
from sandbox import run_tests

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = REFERENCE_DIR / "coverage-runs.json.gz"
MBPP_CLEANED, HUMANEVAL_CLEANED = "20261202-060556-0da230", "20261202-055403-35e2dd"  # cleaning-runs.json.gz
HEADLINE = "20261201-193010-773c85"  # the 0.5B on all 164 HumanEval tasks, default settings (README)
MBPP_RUN = "20261201-201025-193093"  # the 0.5B on the MBPP development set, default settings
SOLUTION = "def double(n):\n    return 2 * n\n"
TESTS = "assert double(2) == 4\n"


def _candidate(code: str, *, report: bool = True, removed: list[str] | None = None, extract_error: str | None = None):
    """An attempts row as the store keeps it, its visible report made by the real sandbox (or left out, as a slim
    dump leaves it)."""
    ran = run_tests(code, TESTS, entry_point="double")
    return {"task_id": "t", "iteration": 1, "code": code, "visible_status": ran.status,
            "visible_report": json.dumps(ran.to_dict()) if report else None, "extract_error": extract_error,
            "removed": None if removed is None else json.dumps(removed)}


def test_a_stored_candidate_is_lost_at_load_by_the_cause_its_report_tells():
    assert stored_load_failure(_candidate(SOLUTION + "check_function()\n")) == "own_tests"
    assert stored_load_failure(_candidate("def double(n):\n    return 2 * n)\n")) == "syntax"
    assert stored_load_failure(_candidate(SOLUTION)) is None  # passed
    assert stored_load_failure(_candidate("def double(n):\n    return n\n")) is None  # failed a test that ran


def test_without_its_report_a_candidate_lost_at_load_is_told_by_its_code_or_counted_as_not_recorded():
    # A slim dump keeps the status and the code: a syntax error shows in the code alone, another cause does not.
    assert stored_load_failure(_candidate("def double(n):\n    return 2 * n)\n", report=False)) == "syntax"
    assert stored_load_failure(_candidate(SOLUTION + "check_function()\n", report=False)) == NOT_RECORDED
    assert stored_load_failure(_candidate("def double(n):\n    return n\n", report=False)) is None
    # No code to load (an extraction error): counted with the extraction errors, never as lost at load.
    no_code = {"task_id": "t", "iteration": 1, "code": "", "visible_status": "error", "visible_report": None,
               "extract_error": "no code block", "removed": "[]"}
    assert stored_load_failure(no_code) is None


def test_the_counts_of_a_run_and_the_cleaning_share_only_where_it_was_recorded():
    rows = [_candidate(SOLUTION, removed=["check_function()"]), _candidate(SOLUTION, removed=[]),
            _candidate("def double(n):\n    return 2 * n)\n", removed=[]),
            _candidate(SOLUTION + "assert double(1) == 3\n", removed=[])]
    losses = load_losses(rows)
    assert (losses.candidates, losses.lost, losses.causes) == (4, 2, {"syntax": 1, "own_tests": 1})
    assert losses.lost_share == 0.5 and losses.cleaned_share == 0.25
    assert LoadLosses.from_dict(json.loads(json.dumps(losses.to_dict()))) == losses
    # Made before cleaning was stored: not recorded, never 0.
    old = load_losses([{**row, "removed": None} for row in rows])
    assert old.cleaned_share is None and old.lost == 2
    assert load_losses([]) == LoadLosses(0) and LoadLosses(0).lost_share == 0.0


def test_the_words_the_cli_and_the_page_share():
    run = Run(id="r")
    losses = LoadLosses(candidates=548, causes={"syntax": 5, NOT_RECORDED: 30})
    assert cause_words(losses) == "syntax error 5, cause not recorded 30"
    assert load_loss_words(run, losses) == ("candidates lost at load (before any test ran): 35 of 548 (6.4%): syntax "
                                            "error 5, cause not recorded 30 · removed by cleaning: not recorded")
    cleaned = LoadLosses(candidates=200, cleaned=9, cleaning_recorded=200)
    assert load_loss_words(run, cleaned) == ("candidates lost at load (before any test ran): 0 of 200 (0.0%) · "
                                             "removed by cleaning: 4.5%")
    assert cleaning_share_words(run, replace(cleaned, cleaning_recorded=100)) == "9.0% of the 100 recorded"
    # Samples made elsewhere are scored as they came: nothing was cleaned, so no share is read from them.
    assert cleaning_share_words(Run(id="i", protocol=Protocol.IMPORTED), cleaned) == "not cleaned"


def test_a_run_counts_the_candidates_cleaning_saved_and_those_still_lost_at_load(tmp_path):
    tasks = [{"task_id": "double", "prompt": "Return twice the number given.", "tests": TESTS,
              "hidden_tests": TESTS + "assert double(0) == 0\n"},
             {"task_id": "triple", "prompt": "Return three times the number given.",
              "tests": "assert triple(2) == 6\n", "hidden_tests": "assert triple(2) == 6\nassert triple(0) == 0\n"}]
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(task) + "\n" for task in tasks), encoding="utf-8")
    # The first answer to double carries the model's own failing demo (cleaning removes it); the first to triple
    # does not parse (lost at load), its repair passes.
    answers = (("twice", SOLUTION + "\ndef check_function():\n    assert double(1) == 3\n\ncheck_function()\n", ""),
               ("three times", "def triple(n):\n    return 3 * n)\n", "def triple(n):\n    return 3 * n\n"))
    solver = Solver(PromptKeyedModel(answer=keyed_answers(answers)), tmp_path / "solves.sqlite")
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(RunConfig(tasks_file=str(path), search=Search(budget=2, strategy="repair"), backend="threads"),
                       db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    losses = load_losses(store.load_outcomes(db, run_id))
    assert (losses.candidates, losses.causes, losses.cleaned, losses.cleaning_recorded) == (3, {"syntax": 1}, 1, 3)
    assert store.get_run(db, run_id).passing == 2
    shown = _cli("--db", str(db_path), "show", run_id).stdout
    assert ("candidates lost at load (before any test ran): 1 of 3 (33.3%): syntax error 1 · removed by cleaning: "
            "33.3%") in shown


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


@pytest.fixture(scope="module")
def coverage_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("coverage") / "bench.sqlite"
    load_file(store.open_store(path), COVERAGE)
    return path


def test_the_readmes_stored_runs_count_their_losses_and_show_no_cleaning_share(coverage_db):
    # Slim dumps keep no reports: a syntax error is told from the code, every other loss is 'cause not recorded'.
    # The MBPP run's 67 load errors were, with their reports, 52 own tests and 15 syntax errors (issue 27).
    db = store.open_store(coverage_db)
    mbpp = load_losses(store.load_outcomes(db, MBPP_RUN))
    assert (mbpp.candidates, mbpp.causes, mbpp.cleaned_share) == (690, {"syntax": 15, NOT_RECORDED: 52}, None)
    report = markdown_report(db)
    assert ("| llamacpp: qwen2.5-coder-0.5b-instruct-q4_k_m.gguf | all (164) | honest | 548 | 35 of 548 (6.4%) | "
            "syntax error 5, cause not recorded 30 | not recorded | `20261201-193010-773c85` |") in report
    table = report.split("**Candidates lost at load")[1].split("\n\n**")[0]
    rows = [line for line in table.splitlines() if line.startswith("| llamacpp") or line.startswith("| imported")]
    # One row a run the report shows, rescorings aside (they hold their source's candidates).
    shown = [r for r in latest_finished_runs(db) if r.protocol != Protocol.RESCORED]
    assert len(rows) == len(shown) and all("| rescored |" not in row for row in rows)


def test_compare_counts_the_losses_on_the_tasks_both_runs_finished(coverage_db):
    one_shot = "20261201-182418-dbf3ff"  # the 0.5B's first answers alone, prompt v5, all 164 tasks
    done = _cli("--db", str(coverage_db), "compare", one_shot, HEADLINE)
    assert done.returncode == 0, done.stderr
    assert "A on these tasks: candidates lost at load (before any test ran): 0 of 164 (0.0%) · removed by " \
           "cleaning: not recorded" in done.stdout
    assert "B on these tasks: candidates lost at load (before any test ran): 35 of 548 (6.4%)" in done.stdout
    as_json = json.loads(_cli("--db", str(coverage_db), "compare", one_shot, HEADLINE, "--json").stdout)
    assert as_json["load_losses"]["B"]["lost"] == 35 and as_json["load_losses"]["B"]["cleaned_share"] is None


def test_the_runs_made_with_the_cleaner_lose_few_candidates_at_load_and_pass_as_many_tasks(tmp_path):
    # The README's figures: the 0.5B with today's defaults and the cleaner, on MBPP's development set and on
    # HumanEval's sample:41, against the runs before it (coverage-runs.json.gz) on the same tasks.
    db = store.open_store(tmp_path / "bench.sqlite")
    load_file(db, REFERENCE_DIR / "cleaning-runs.json.gz")
    load_file(db, COVERAGE)
    mbpp, humaneval = (load_losses(store.load_outcomes(db, run)) for run in (MBPP_CLEANED, HUMANEVAL_CLEANED))
    assert (mbpp.candidates, mbpp.causes, round(100 * mbpp.cleaned_share, 1)) == (682, {"syntax": 15}, 7.9)
    assert (humaneval.candidates, humaneval.causes, round(100 * humaneval.cleaned_share, 1)) == (145, {"syntax": 1},
                                                                                                 6.9)
    for new, old in ((MBPP_CLEANED, MBPP_RUN), (HUMANEVAL_CLEANED, HEADLINE)):
        passing = {r["task_id"]: r["hidden_passed"] for r in store.results(db, new)}
        before = {r["task_id"]: r["hidden_passed"] for r in store.results(db, old) if r["task_id"] in passing}
        assert sum(passing.values()) == sum(before.values())  # 106 of 170; 32 of 41
