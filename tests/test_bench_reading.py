"""Reading stored runs: the committed fixture of real runs, comparisons, progress, exports, baselines, cost."""

from __future__ import annotations

import csv
import gzip
import io
import json
from dataclasses import replace

import pytest

from agent import Search, Solver
from agent.config import describe_search
from bench.datasets.humaneval import load_problems
from bench.reports.change_table import change_rows
from bench.reports.cost import duration, estimate_from_runs, probe
from bench.reports.export import RESULT_CSV_COLUMNS, results_csv, samples_jsonl
from bench.reports.progress import run_progress
from bench.reports.results_table import latest_finished_runs, published_baseline
from bench.reports.words import search_words
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.reference import REFERENCE_DIR
from bench.runs.transfer import dump_runs, load_file, load_runs, write_file
from bench.scoring.comparison import compare_run_curves
from bench.scoring.metrics import run_metrics
from bench.settings import bench_db_path
from fakes import PromptKeyedModel, humaneval_answers

FIXTURE = REFERENCE_DIR / "bench-runs.json.gz"
ALL_164 = "20261130-110503-2f694d"  # the 0.5B on all 164 tasks, default search (README's Results)
ONE_FIVE = "20261130-121225-5bbb24"  # the 1.5B on sample:41


@pytest.fixture
def real_runs(tmp_path):
    db = store.open_store(tmp_path / "bench.sqlite")
    assert load_file(db, FIXTURE) == [ALL_164, ONE_FIVE]
    return db


def test_the_fixture_holds_the_readmes_measured_runs(real_runs):
    m = run_metrics(store.get_run(real_runs, ALL_164), store.results(real_runs, ALL_164))
    assert m["tasks"] == 164 and round(100 * m["pass_at_1"], 1) == 71.3
    assert [round(100 * v, 1) for v in m["pass_after_k_repairs"]] == [54.9, 62.8, 67.7, 68.9, 70.1, 70.1, 70.7, 71.3,
                                                                      71.3]
    m = run_metrics(store.get_run(real_runs, ONE_FIVE), store.results(real_runs, ONE_FIVE))
    assert m["tasks"] == 41 and round(100 * m["pass_at_1"], 1) == 82.9
    # Stored before the search was stored whole (three columns), read through the store's migration.
    old = store.get_run(real_runs, ALL_164)
    # Today's defaults, but one temperature throughout and the prompt before v5.
    ran = replace(Search(), later_round_temperature=None, prompt_version="v4-body")
    assert old.search == ran and search_words(old) == describe_search(ran)
    # Every candidate's code is kept (slim drops prompts, raw answers and reports only).
    attempts = store.attempts(real_runs, ALL_164)
    assert len(attempts) == sum(r["iterations"] for r in store.results(real_runs, ALL_164))
    assert all(a["code"] for a in attempts) and not any(a["messages"] for a in attempts)


def test_dump_and_load_round_trip_and_refuse_a_second_copy(real_runs, tmp_path):
    data = dump_runs(real_runs, [ONE_FIVE])
    write_file(data, tmp_path / "one.json.gz")
    assert json.loads(gzip.decompress((tmp_path / "one.json.gz").read_bytes())) == data
    other = store.open_store(tmp_path / "other.sqlite")
    assert load_file(other, tmp_path / "one.json.gz") == [ONE_FIVE]
    assert store.results(other, ONE_FIVE) == store.results(real_runs, ONE_FIVE)
    with pytest.raises(ValueError, match="already in this database"):
        load_runs(other, data)
    with pytest.raises(ValueError, match="not a dump"):
        load_runs(other, {"runs": []})
    with pytest.raises(store.StoreError):
        dump_runs(real_runs, ["no-such-run"])


def test_comparison_of_two_real_runs_reads_both_curves_on_the_shared_tasks(real_runs):
    a, b = store.get_run(real_runs, ALL_164), store.get_run(real_runs, ONE_FIVE)
    cmp = compare_run_curves(a, store.results(real_runs, ALL_164), b, store.results(real_runs, ONE_FIVE))
    assert cmp.common == 41
    assert (len(cmp.fixed), len(cmp.regressed)) == (5, 1)
    assert cmp.regressed == ["HumanEval/68"]
    # On the 41 shared tasks the 0.5B's loop reads 73.2% (README), the 1.5B's 82.9%.
    assert round(100 * cmp.curves["A"][-1], 1) == 73.2 and round(100 * cmp.curves["B"][-1], 1) == 82.9
    rows = cmp.curve_rows({"A": "0.5B", "B": "1.5B"})
    assert len(rows) == 18 and rows[0] == {"run": "0.5B", "more candidates": 0, "pass rate": cmp.curves["A"][0]}
    assert sum(r["tasks"] for r in cmp.outcome_rows()) == 41


def test_a_finished_run_fills_its_bar_and_a_running_one_has_an_eta(real_runs):
    run, results = store.get_run(real_runs, ONE_FIVE), store.results(real_runs, ONE_FIVE)
    done = run_progress(run, results, "finished")
    assert done.fraction == 1.0 and done.text() == "41/41 tasks done · 34 passing · finished"
    partial = run_progress(run, results[:10], "running")
    assert partial.fraction == pytest.approx(10 / 41) and partial.eta_seconds > 0 and "ETA" in partial.text()
    assert run_progress(run, results[:10], "stopped").eta_seconds is None


def test_exports_are_human_eval_samples_and_a_csv_of_every_task(real_runs):
    lines = samples_jsonl(real_runs, ONE_FIVE).splitlines()
    assert len(lines) == 41 and set(json.loads(lines[0])) == {"task_id", "completion"}
    rows = list(csv.DictReader(io.StringIO(results_csv(real_runs, ONE_FIVE))))
    assert len(rows) == 41 and tuple(rows[0]) == RESULT_CSV_COLUMNS
    assert sum(int(r["hidden_passed"]) for r in rows) == 34
    assert all(len(r["hidden_by_candidate"]) == int(r["candidates"]) for r in rows)


@pytest.mark.parametrize("model, expected", [
    ("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", 0.616), ("qwen2.5-coder:1.5b", 0.707), ("qwen2.5-coder:7b", 0.884),
    ("qwen2.5-coder-17b", None), ("llama3:8b", None), ("scripted", None)])
def test_published_baselines_are_found_by_model_name(model, expected):
    baseline = published_baseline(model)
    assert (baseline.pass_at_1 if baseline else None) == (pytest.approx(expected) if expected else None)


def test_cost_comes_from_the_last_run_of_the_same_model(real_runs):
    runs = store.list_runs(real_runs)
    estimate = estimate_from_runs(runs, "llamacpp", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
    assert estimate.seconds_per_task == pytest.approx(3335.7379727 / 164)
    ran = describe_search(replace(Search(), later_round_temperature=None, prompt_version="v4-body"))
    assert estimate.source == f"run {ALL_164}: 164 tasks in 56 min ({ran}; 2 at once)"
    assert duration(estimate.for_tasks(164)) == "56 min"
    assert [duration(s) for s in (0.42, 45, 7200 + 5 * 60)] == ["0.4 s", "45 s", "2 h 05 min"]
    assert estimate_from_runs(runs, "ollama", "qwen2.5-coder:1.5b") is None


def test_a_probe_times_one_task_as_a_run_would_and_stores_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    problems = load_problems()
    solver = Solver(PromptKeyedModel(answer=humaneval_answers(problems, right={"HumanEval/3"})),
                    tmp_path / "solves.sqlite")
    estimate = probe(solver, RunConfig(tasks="3-5", search=Search(budget=3), backend="threads"))
    assert estimate.seconds_per_task > 0
    assert estimate.source.startswith("a probe: HumanEval/3 took")
    assert "1 candidate(s) (passed; sample search, budget 3 candidates" in estimate.source
    assert store.list_runs(store.open_store(bench_db_path())) == []


def test_the_cli_dumps_and_loads_runs(real_runs, tmp_path, capsys):
    from bench.__main__ import main

    source = tmp_path / "bench.sqlite"
    assert main(["--db", str(source), "dump", ONE_FIVE, "--slim", "--json", str(tmp_path / "d.json")]) == 0
    assert main(["load", str(tmp_path / "d.json"), "--db", str(tmp_path / "copy.sqlite")]) == 0
    assert f"loaded runs: {ONE_FIVE}" in capsys.readouterr().out
    assert main(["--db", str(tmp_path / "copy.sqlite"), "load", str(tmp_path / "d.json")]) == 2
    assert "already in this database" in capsys.readouterr().err
    assert main(["--db", str(tmp_path / "copy.sqlite"), "load", str(tmp_path / "missing.json")]) == 2


# --- the search-coverage runs of docs/results.md ------------------------------------------------------------------

COVERAGE = REFERENCE_DIR / "coverage-runs.json.gz"
DEFAULTS_164 = "20261201-193010-773c85"  # the 0.5B on all 164 tasks with today's default settings (README's Results)
DEFAULTS_164_PLUS = "20261201-201030-b497c3"  # the same candidates scored on HumanEval+
DEFAULTS_164_1_5B, DEFAULTS_164_1_5B_PLUS = "20261201-222619-aa8d0b", "20261201-232343-b13fd7"  # the 1.5B, the same
RESULTS = REFERENCE_DIR / "results-runs.json.gz"  # holds the 1.5B's run with the settings before


@pytest.mark.parametrize("run_id, plus_id, figures, plus_pass", [
    (DEFAULTS_164, DEFAULTS_164_PLUS, (164, 76.2, 56.7, 77.4), 71.3),
    (DEFAULTS_164_1_5B, DEFAULTS_164_1_5B_PLUS, (164, 83.5, 72.0, 85.4), 76.2)])
def test_the_readmes_headline_runs_were_made_with_todays_defaults_and_read_as_the_results_say(
        tmp_path, run_id, plus_id, figures, plus_pass):
    db = store.open_store(tmp_path / "bench.sqlite")
    load_file(db, COVERAGE)
    run = store.get_run(db, run_id)
    # A default changed since is a headline measured with other settings: measure again, then change this.
    assert run.search == Search() and run.backend == RunConfig().backend
    m = run_metrics(run, store.results(db, run_id))
    assert (m["tasks"], round(100 * m["pass_at_1"], 1), round(100 * m["first_attempt_pass_at_1"], 1),
            round(100 * m["oracle_ceiling"], 1)) == figures
    plus = run_metrics(store.get_run(db, plus_id), store.results(db, plus_id))
    assert round(100 * plus["pass_at_1"], 1) == plus_pass


def test_what_each_change_gained_reads_the_stored_runs_as_the_results_page_shows(tmp_path):
    db = store.open_store(tmp_path / "bench.sqlite")
    load_file(db, COVERAGE)
    load_file(db, RESULTS)
    # "What each change gained" pairs the one-shot prompt runs and the two temperatures, as docs/results.md shows.
    rows = "\n".join(change_rows(db, latest_finished_runs(db)))
    assert "| prompt v4 -> qwen | 55.5 -> 59.1 (+3.7) |" in rows and "| prompt v4 -> v5 | 55.5 -> 56.7 (+1.2) |" in rows
    assert "| temperature 1.1 -> 0.8 | 6.0 -> 2.3 (-3.7) | 33.3 -> 18.5 (-14.8) |" in rows
    # The defaults changed as a pair, and the row names both: the 1.5B before them (results-runs) and with them.
    assert ("| prompt v4-body -> v5 and later rounds' temperature 0.8 -> 1.1 | 84.1 -> 83.5 (-0.6) | "
            "70.7 -> 72.0 (+1.2) | 84.1 -> 85.4 (+1.2) |") in rows
