"""The project's reference runs: real runs measured on the project's machine, the ones the README's results come from,
shipped with the app as dump files (bench/reference_runs/, written by `python -m bench dump --slim`).

They are read into a database of their own, in memory and read-only, never into a person's bench.sqlite: a person's
runs and the reference runs cannot mix, and what counts a person's own (their cost estimate, their resume, their
exports) reads their database only. The page and the CLI read a run from whichever of the two holds it (RunSources).

Adding one: `python -m bench dump RUN_ID --slim --json bench/reference_runs/NAME.json.gz`, where its database is;
measured on another machine than the project's, name it in machines.json.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from agent import Search
from bench.datasets.humaneval import HUMANEVAL
from bench.runs import store
from bench.runs.migration import migrate
from bench.runs.record import Run
from bench.runs.transfer import load_file

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "reference_runs"
MACHINES = "machines.json"  # in REFERENCE_DIR: the machine each file's runs were measured on
_loading = threading.Lock()
_loaded: dict[Path, ReferenceRuns] = {}


@dataclass(frozen=True)
class ReferenceRuns:
    """The shipped reference runs, loaded: the file each came from, the machine that measured it, and their
    database (read with store())."""

    files: dict[str, str]  # run id -> its dump file's name in the folder
    machines: dict[str, str]  # run id -> the machine that measured it, in words
    memory: str  # the URI of their database: in this process's memory, alive while keeper is open
    keeper: sqlite3.Connection
    problems: tuple[str, ...] = ()  # what could not be read (a file, its machine), in words; the rest is there

    def store(self) -> Database:
        """A read-only connection to the reference runs' database (a write raises sqlite3.OperationalError)."""
        conn = sqlite3.connect(self.memory, uri=True, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
        return Database(conn)

    def runs(self, leaving_out: set[str] = frozenset()) -> list[Run]:
        """The reference runs, newest first, but those whose id is in leaving_out (a person who loaded one into their
        own database has it as theirs)."""
        return [r for r in store.list_runs(self.store()) if r.id in self.files and r.id not in leaving_out]


def machines_by_file(folder: Path = REFERENCE_DIR) -> dict[str, str]:
    """file name -> the machine its runs were measured on, from machines.json (its "default" for a file not named).
    OSError or ValueError when machines.json cannot be read."""
    known = json.loads((folder / MACHINES).read_text(encoding="utf-8"))
    if not isinstance(known.get("default"), str) or not isinstance(known.get("files", {}), dict):
        raise ValueError(f"{MACHINES} needs a \"default\" machine, in words, and \"files\": {{name: machine}}")
    return {path.name: known.get("files", {}).get(path.name, known["default"]) for path in dump_files(folder)}


def dump_files(folder: Path = REFERENCE_DIR) -> list[Path]:
    """The reference runs' dump files (`bench dump --json NAME.json.gz`, gzipped: the package ships those), by name."""
    return sorted(folder.glob("*.json.gz"))


def load_reference_runs(folder: Path) -> ReferenceRuns:
    """The runs of a folder of dump files, loaded as `python -m bench load` loads them into a new database of their
    own in memory. A file that cannot be read is left out and named in problems, as is a machines.json that cannot
    (its runs' machine is then "not recorded"): a broken install still shows the person's own runs."""
    memory = f"file:bench-reference-runs-{uuid.uuid4().hex}?mode=memory&cache=shared"
    keeper = sqlite3.connect(memory, uri=True, check_same_thread=False, isolation_level=None)
    db = Database(keeper)
    migrate(db)
    files, machines, problems = {}, {}, []
    try:
        by_file = machines_by_file(folder)
    except (OSError, ValueError) as exc:
        by_file = {path.name: "a machine not recorded" for path in dump_files(folder)}
        problems.append(f"{folder / MACHINES}: {exc}")
    for name, machine in by_file.items():
        try:
            loaded = load_file(db, folder / name)
        except (OSError, ValueError, KeyError, sqlite3.Error) as exc:  # not gzip, not JSON, not a dump, clashing ids
            problems.append(f"{folder / name}: {exc}")
            continue
        for run_id in loaded:
            files[run_id], machines[run_id] = name, machine
    return ReferenceRuns(files, machines, memory, keeper, tuple(problems))


def reference_runs(folder: Path = REFERENCE_DIR) -> ReferenceRuns:
    """The shipped reference runs, loaded once a process (load_reference_runs) and shared by its threads."""
    with _loading:
        if folder not in _loaded:
            _loaded[folder] = load_reference_runs(folder)
        return _loaded[folder]


@dataclass(frozen=True)
class RunSources:
    """Where the page and the CLI read runs from: the person's database, and the reference runs' apart (loaded when
    first asked for)."""

    own: Database
    folder: Path = REFERENCE_DIR

    @property
    def references(self) -> ReferenceRuns:
        return reference_runs(self.folder)

    def is_reference(self, run_id: str) -> bool:
        """A reference run, not one of the person's (who may have loaded a copy of it: then it is theirs)."""
        return not self.own["runs"].count_where("id = ?", [run_id]) and run_id in self.references.files

    def db_of(self, run_id: str) -> Database:
        """The database that holds this run: the person's when it is there, else the reference runs' (a run in
        neither: the person's, which says so when it is read)."""
        return self.references.store() if self.is_reference(run_id) else self.own


def _settings(run: Run) -> tuple:
    """What a run must share with a reference run to be read against it: the model, how every task was solved and
    scored, and the dataset."""
    return (run.provider, run.model, run.dataset, run.protocol, run.feedback, run.search, run.samples,
            run.temperature, run.max_tokens)


def matching_reference(run: Run, references: list[Run]) -> Run | None:
    """The reference run to compare this run with: a finished one of the same model and settings on the same dataset
    whose tasks hold all of this run's (a sample:5 run is read against sample:41 or all 164, on their common tasks),
    the newest of them; None when there is none."""
    tasks = set(run.task_ids)
    found = [ref for ref in references if ref.id != run.id and ref.status == "finished"
             and _settings(ref) == _settings(run) and tasks <= set(ref.task_ids)]
    return max(found, key=lambda ref: ref.created, default=None)


def featured_first(references: list[Run], provider: str, model: str, search: Search) -> list[Run]:
    """The reference runs in the order a newcomer reads them: of the app's model with these search settings first
    (what a run of theirs would be compared with), runs of the loop before sampled ones, HumanEval before other
    datasets, more tasks before fewer, then newest first."""
    def order(run: Run) -> tuple:
        return (run.provider != provider or run.model != model, run.search != search, run.sampled,
                run.rescored_from is not None, run.dataset != HUMANEVAL, -len(run.task_ids), -run.created)
    return sorted(references, key=order)
