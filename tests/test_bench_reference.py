"""The project's reference runs (bench.runs.reference): the shipped files read into a read-only database of their own,
never a person's; which of them a person's run is compared with; and the CLI, which lists them only when asked."""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from dataclasses import replace

import pytest

from agent import Search
from bench.__main__ import main
from bench.datasets.humaneval import humaneval_tasks
from bench.datasets.selection import select_tasks
from bench.reports.cost import estimate_from_runs
from bench.runs import store
from bench.runs.reference import (
    MACHINES,
    REFERENCE_DIR,
    RunSources,
    dump_files,
    featured_first,
    load_reference_runs,
    matching_reference,
    reference_runs,
)
from bench.runs.transfer import dump_runs, load_runs
from bench.scoring.comparison import compare_run_curves
from stored_runs import load_as_new_run

EMBEDDED = ("llamacpp", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
HEADLINE = "20261201-193010-773c85"  # the embedded 0.5B, all 164 HumanEval tasks, today's defaults
CLEANED_41 = "20261202-055403-35e2dd"  # the same model and settings on sample:41, a day later (the answer cleaner)
ONE_FIVE = "20261201-222619-aa8d0b"  # the 1.5B, all 164 tasks, today's defaults


def sample_ids(spec: str) -> list[str]:
    return [task["task_id"] for task in select_tasks(spec, humaneval_tasks())]


def persons_run(db) -> str:
    """A sample:5 run of the person's with the embedded model and the default settings (no model: stored answers)."""
    return load_as_new_run(db, HEADLINE, "sample:5")


def test_every_shipped_run_is_read_with_its_file_code_version_and_machine():
    references = reference_runs()
    runs = references.runs()
    shipped = {path.name: [run["id"] for run in json.loads(gzip.decompress(path.read_bytes()))["runs"]]
               for path in dump_files()}
    assert references.files == {run_id: name for name, ids in shipped.items() for run_id in ids}
    assert {r.id for r in runs} == set(references.files) and len(runs) == 25
    assert set(references.machines) == set(references.files)
    assert {HEADLINE, CLEANED_41, ONE_FIVE} <= set(references.files)
    headline = next(r for r in runs if r.id == HEADLINE)
    assert headline.code_version == "06cf296 src d73df838a835" and headline.status == "finished"
    assert references.files[HEADLINE] == "coverage-runs.json.gz"
    assert references.machines[HEADLINE] == "the project's machine (host vm: 2 CPU cores, 24 GiB, no GPU)"


def test_the_reference_database_is_read_only_and_apart_from_the_persons(tmp_path):
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reference_runs().store().execute("DELETE FROM runs")
    db = store.open_store(tmp_path / "bench.sqlite")
    assert store.list_runs(db) == [] and reference_runs().runs()  # reading them put nothing in the person's
    # Their cost estimate reads their runs only: none yet, though a reference run of the same model was measured.
    assert estimate_from_runs(store.list_runs(db), *EMBEDDED) is None
    assert estimate_from_runs(reference_runs().runs(), *EMBEDDED) is not None


def test_a_machine_named_for_a_file_is_its_runs_machine(tmp_path):
    shutil.copy(REFERENCE_DIR / "cleaning-runs.json.gz", tmp_path)
    (tmp_path / MACHINES).write_text(json.dumps({"default": "the project's machine",
                                                 "files": {"cleaning-runs.json.gz": "a laptop, 8 cores"}}))
    loaded = load_reference_runs(tmp_path)
    assert loaded.machines == {"20261202-060556-0da230": "a laptop, 8 cores", CLEANED_41: "a laptop, 8 cores"}
    assert {r.id for r in loaded.runs()} == set(loaded.machines)


def test_a_file_that_cannot_be_read_is_left_out_and_said(tmp_path):
    shutil.copy(REFERENCE_DIR / "cleaning-runs.json.gz", tmp_path)
    (tmp_path / "broken.json.gz").write_bytes(b"not gzip")
    loaded = load_reference_runs(tmp_path)  # and no machines.json
    assert {r.id for r in loaded.runs()} == {"20261202-060556-0da230", CLEANED_41}
    assert set(loaded.machines.values()) == {"a machine not recorded"}
    assert len(loaded.problems) == 2 and "machines.json" in loaded.problems[0] and "broken.json.gz: Not a gzipped " \
        "file" in loaded.problems[1]


def test_a_run_is_read_from_the_database_that_holds_it(tmp_path):
    db = store.open_store(tmp_path / "bench.sqlite")
    mine = persons_run(db)
    sources = RunSources(db)
    assert sources.is_reference(HEADLINE) and not sources.is_reference(mine)
    assert store.get_run(sources.db_of(HEADLINE), HEADLINE).done == 164
    assert sources.db_of(mine) is db
    # A reference run the person loaded into their own database is theirs, and listed once.
    load_runs(db, dump_runs(reference_runs().store(), [ONE_FIVE]))
    assert not sources.is_reference(ONE_FIVE) and sources.db_of(ONE_FIVE) is db
    assert ONE_FIVE not in {r.id for r in sources.references.runs(leaving_out={r.id for r in store.list_runs(db)})}


def test_a_sample_5_run_is_read_against_the_newest_reference_run_holding_its_tasks(tmp_path):
    db = store.open_store(tmp_path / "bench.sqlite")
    references = reference_runs().runs()
    mine = store.get_run(db, persons_run(db))
    # sample:5 is every 32nd task, all in sample:41 (every 4th): the newer sample:41 run, not the all-164 one.
    match = matching_reference(mine, references)
    assert match.id == CLEANED_41 and set(mine.task_ids) <= set(match.task_ids)
    cmp = compare_run_curves(match, store.results(reference_runs().store(), match.id), mine, store.results(db, mine.id))
    assert cmp.common == 5 and len(cmp.curves["B"]) == Search().budget
    # Tasks sample:41 lacks: the all-164 run.
    assert matching_reference(replace(mine, task_ids=sample_ids("1-3")), references).id == HEADLINE
    # Another model, other settings, another dataset: only a run of the same.
    assert matching_reference(replace(mine, model="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"), references).id == ONE_FIVE
    assert matching_reference(replace(mine, search=replace(mine.search, budget=3)), references) is None
    assert matching_reference(replace(mine, provider="ollama", model="qwen2.5-coder:0.5b"), references) is None
    assert matching_reference(replace(mine, dataset="humaneval+"), references) is None
    assert matching_reference(replace(mine, feedback="oracle"), references) is None


def test_a_newcomer_reads_the_reference_run_of_the_apps_model_and_settings_first():
    runs = reference_runs().runs()
    assert featured_first(runs, *EMBEDDED, Search())[0].id == HEADLINE
    assert featured_first(runs, "llamacpp", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", Search())[0].id == ONE_FIVE
    assert sorted(r.id for r in featured_first(runs, "ollama", "other", Search())) == sorted(r.id for r in runs)


def test_the_cli_lists_and_reports_them_only_when_asked(tmp_path, capsys):
    db_path = tmp_path / "bench.sqlite"
    mine = persons_run(store.open_store(db_path))
    assert main(["--db", str(db_path), "list"]) == 0
    listed = capsys.readouterr().out
    assert mine in listed and HEADLINE not in listed
    assert main(["--db", str(db_path), "list", "--reference"]) == 0
    listed = capsys.readouterr().out
    assert listed.index(mine) < listed.index("reference runs, measured on the project's machine") < listed.index(
        HEADLINE)
    assert main(["--db", str(db_path), "list", "--reference", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["reference"] for r in rows if r["id"] in (mine, HEADLINE)] == [False, True]
    assert main(["--db", str(db_path), "report"]) == 0
    assert HEADLINE not in capsys.readouterr().out
    assert main(["--db", str(db_path), "report", "--reference"]) == 0
    report = capsys.readouterr().out
    ours, theirs = report.split("## Reference runs")
    assert mine in ours and HEADLINE not in ours and f"`{HEADLINE}`" in theirs and mine not in theirs
    assert "Measured on the project's machine (host vm: 2 CPU cores, 24 GiB, no GPU)" in theirs


def test_the_cli_shows_and_compares_a_reference_run_but_never_exports_or_resumes_one(tmp_path, capsys):
    db_path = tmp_path / "bench.sqlite"
    mine = persons_run(store.open_store(db_path))
    assert main(["--db", str(db_path), "show", HEADLINE]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("REFERENCE run measured on the project's machine") and "pass@1  76.2%" in shown
    assert main(["--db", str(db_path), "compare", CLEANED_41, mine]) == 0
    compared = capsys.readouterr().out
    assert f"A {CLEANED_41} is a reference run measured on" in compared and "5 tasks in both" in compared
    for command in (["export", HEADLINE, "--jsonl", str(tmp_path / "s.jsonl")], ["resume", HEADLINE],
                    ["rescore", HEADLINE]):
        assert main(["--db", str(db_path), *command]) == 2
        assert f"no run {HEADLINE!r} in this database" in capsys.readouterr().err
    assert not (tmp_path / "s.jsonl").exists()
