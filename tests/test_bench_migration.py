"""The store's one migration (bench.runs.migration): databases and dump files an earlier version wrote, read in
today's columns, exactly as that version read them. Checked on real runs: the reference runs shipped in
bench/reference_runs/."""

from __future__ import annotations

import gzip
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from sqlite_utils import Database

from agent import Search
from bench.protocol.labels import Protocol
from bench.reports.results_table import markdown_report
from bench.runs import store
from bench.runs.migration import OLD_SEARCH_COLUMNS, RENAMED, VERSION
from bench.runs.reference import dump_files
from bench.runs.schema import TABLES
from bench.runs.transfer import EARLIER_FORMATS, load_file
from bench.scoring.caps import hidden_at_cap
from bench.scoring.metrics import run_metrics

# The shipped dumps an earlier version wrote: their rows in a database of that version's shape are what migrates.
FIXTURES = [dump for dump in dump_files()
            if json.loads(gzip.decompress(dump.read_bytes()))["format"] in EARLIER_FORMATS]


def _old_database(path: Path, dumps: list[Path]) -> None:
    """The dumps' rows in a database of the shape the version that made them wrote: their own columns, untouched."""
    db = Database(path)
    for dump in dumps:
        data = json.loads(gzip.decompress(dump.read_bytes()))
        for table, (_, pk) in TABLES.items():
            if data.get(table):
                db[table].insert_all(data[table], pk=pk, alter=True)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The fixtures twice: an old database opened (migrated in place), and the dumps loaded into a new one."""
    folder = tmp_path_factory.mktemp("migration")
    _old_database(folder / "old.sqlite", FIXTURES)
    migrated = store.open_store(folder / "old.sqlite")
    loaded = store.open_store(folder / "loaded.sqlite")
    for dump in FIXTURES:
        load_file(loaded, dump)
    return migrated, loaded


def test_an_old_database_gets_todays_columns_once(both):
    migrated, _ = both
    columns = set(migrated["runs"].columns_dict)
    assert set(RENAMED.values()) <= columns and "search" in columns
    assert not columns & (set(RENAMED) | set(OLD_SEARCH_COLUMNS))
    assert migrated.execute("PRAGMA user_version").fetchone()[0] == VERSION


def test_the_migrated_runs_read_and_score_as_the_loaded_ones(both):
    migrated, loaded = both
    runs = store.list_runs(migrated)
    # The same records, but for the heartbeat a load stamps as it writes each task.
    stored = {run["id"] for dump in FIXTURES for run in json.loads(gzip.decompress(dump.read_bytes()))["runs"]}
    assert {r.id for r in runs} == stored and [replace(r, heartbeat=0) for r in runs] == [
        replace(r, heartbeat=0) for r in store.list_runs(loaded)]
    for run in runs:
        assert run_metrics(run, store.results(migrated, run.id)) == run_metrics(run, store.results(loaded, run.id))
    assert markdown_report(migrated) == markdown_report(loaded)


def test_the_oldest_runs_read_as_their_version_read_them(both):
    migrated, _ = both
    old = store.get_run(migrated, "20261130-110503-2f694d")  # stored its search as three columns, no backend
    assert (old.backend, old.parallel, old.dataset, old.protocol) == ("threads", 2, "humaneval", Protocol.HONEST)
    # Today's defaults, but one temperature throughout (that setting came later) and the prompt before v5.
    assert old.search == replace(Search(), later_round_temperature=None, prompt_version="v4-body")
    samples = store.get_run(migrated, "20261201-144445-9851fa")  # a samples run, its strategy column empty
    assert samples.protocol.sampled and samples.search.budget == 10 and samples.search.prompt_version == "v4-body"


def test_a_database_from_the_first_versions_reads_too(tmp_path):
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, status TEXT, task_ids TEXT, workers INTEGER, "
                 "max_retries INTEGER)")
    conn.execute("CREATE TABLE results (run_id TEXT, task_id TEXT, hidden_passed INTEGER, visible_by_attempt TEXT, "
                 "hidden_by_attempt TEXT, final_status TEXT, PRIMARY KEY (run_id, task_id))")
    conn.execute("CREATE TABLE attempts (run_id TEXT, task_id TEXT, iteration INTEGER, "
                 "PRIMARY KEY (run_id, task_id, iteration))")
    conn.execute("INSERT INTO runs VALUES ('r1', 'finished', '[\"HumanEval/0\"]', 2, 2)")
    conn.execute("INSERT INTO results VALUES ('r1', 'HumanEval/0', 1, '[false, true, true]', '[false, true, false]', "
                 "'passed')")
    conn.commit()
    conn.close()
    db = store.open_store(old)
    assert {"kind", "signature"} <= set(db["attempts"].columns_dict)
    run = store.get_run(db, "r1")
    # Before strategies, prompt versions and backends: it repaired, with prompt v3, on threads, 3 candidates.
    assert (run.status, run.protocol, run.backend, run.parallel) == ("finished", Protocol.HONEST, "threads", 2)
    assert (run.search.budget, run.search.strategy, run.search.prompt_version) == (3, "repair", "v3")
    # Before the chooser: the first visible pass within k + 1 candidates is the answer at budget k.
    [result] = store.results(db, "r1")
    assert result["answer_by_cap"] == [0, 1, 1]
    assert [hidden_at_cap(result, k) for k in range(3)] == [False, True, True]
    store.open_store(old)  # a second open finds it migrated and writes nothing


def test_rows_of_two_versions_in_one_table_keep_either_value(tmp_path):
    """A table holding old rows (workers) and new ones (parallel), as loading dumps of both with added columns
    makes: each run keeps the value it stored, under today's name only."""
    path = tmp_path / "mixed.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, status TEXT, task_ids TEXT, workers INTEGER, "
                 "parallel INTEGER)")
    conn.execute("INSERT INTO runs VALUES ('old', 'finished', '[]', 3, NULL), ('new', 'finished', '[]', NULL, 2)")
    conn.commit()
    conn.close()
    db = store.open_store(path)
    assert "workers" not in db["runs"].columns_dict
    assert (store.get_run(db, "old").parallel, store.get_run(db, "new").parallel) == (3, 2)
