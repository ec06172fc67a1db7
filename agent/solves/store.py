"""The ``solves`` table beside LangGraph's checkpoints: which solves exist, what started them, who runs them now.

The checkpoints hold a solve's history; this table lists past solves for reopening after a restart, keeps the
inputs a solve started from (so one killed before its first checkpoint can start again), the solve it was started
again from with the tests a person added (its lineage, agent.solves.lineage), and says which process owns a running
solve (an owner token and a heartbeat, agent.solves.liveness): a solve stored as running whose owner
is gone is reported ``interrupted``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agent.solves.liveness import keep_alive, owner_alive, process_token

# Columns the table gained after its first release: added on open where a database lacks them (its one migration).
_ADDED_COLUMNS = (("owner", "TEXT"), ("heartbeat", "REAL"), ("inputs", "TEXT"), ("origin", "TEXT"),
                  ("person", "TEXT"), ("lineage", "TEXT"))
# Statuses that hold only while the owning process lives: a solve running, or waiting in the line for the model.
LIVE = ("running", "waiting")


@dataclass
class SolveStore:
    """The solves table in one SQLite file (the checkpoints' file): listing, inputs, status and ownership."""

    db_path: Path

    def __post_init__(self) -> None:
        self.db_path = Path(self.db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.execute("CREATE TABLE IF NOT EXISTS solves (thread_id TEXT PRIMARY KEY, task TEXT, model TEXT, "
                       "created REAL, updated REAL, status TEXT, owner TEXT, heartbeat REAL, inputs TEXT, origin TEXT, "
                       "person TEXT, lineage TEXT)")
            columns = {row[1] for row in db.execute("PRAGMA table_info(solves)")}
            for column, kind in _ADDED_COLUMNS:
                if column not in columns:
                    db.execute(f"ALTER TABLE solves ADD COLUMN {column} {kind}")

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A short-lived connection: one transaction, then closed."""
        db = sqlite3.connect(self.db_path, timeout=60)
        try:
            with db:
                yield db
        finally:
            db.close()

    def add(self, thread_id: str, task: str, model: str, inputs: dict, origin: str, *, person: str = "",
            status: str = "running", lineage: dict | None = None) -> None:
        """Record a new solve as running (or waiting in the line for the model), owned by this process, with the
        state it starts from, the person who started it and, for a solve a person started again from an earlier one,
        its lineage (agent.solves.lineage.Lineage.to_dict)."""
        now = time.time()
        with self._db() as db:
            # Owned from the first moment it says running: no reader may see a new solve as interrupted. The
            # inputs are kept so that a solve killed before its first checkpoint can still start again.
            created = db.execute("SELECT created FROM solves WHERE thread_id = ?", (thread_id,)).fetchone()
            db.execute("INSERT OR REPLACE INTO solves (thread_id, task, model, created, updated, status, owner, "
                       "heartbeat, inputs, origin, person, lineage) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (thread_id, task, model, created[0] if created else now, now, status, process_token(), now,
                        json.dumps(inputs), origin, person, json.dumps(lineage) if lineage else None))

    def waiting(self, thread_id: str) -> contextlib.AbstractContextManager:
        """Own the solve (a heartbeat) while it waits in the line, so that it shows as waiting, not interrupted."""
        return keep_alive(self.db_path, "solves", "thread_id", thread_id)

    @contextlib.contextmanager
    def running(self, thread_id: str) -> Iterator[None]:
        """Mark the solve running and own it (a heartbeat) while the block runs; the block stores how it ended.

        If this process dies inside the block, solves() lists the solve as interrupted, to be carried on from its
        last checkpoint."""
        with keep_alive(self.db_path, "solves", "thread_id", thread_id):
            self.set_status(thread_id, "running")
            yield

    def set_status(self, thread_id: str, status: str) -> None:
        """Store a solve's status (running, paused, passed, gave_up, error, env_error,
        unsupported)."""
        with self._db() as db:
            db.execute("UPDATE solves SET status = ?, updated = ? WHERE thread_id = ?",
                       (status, time.time(), thread_id))

    def inputs(self, thread_id: str) -> dict:
        """The state a solve started from, as add stored it ({} for an unknown solve or one stored without it)."""
        with self._db() as db:
            row = db.execute("SELECT inputs FROM solves WHERE thread_id = ?", (thread_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else {}

    def lineage(self, thread_id: str) -> dict:
        """The lineage add stored for a solve ({} for a solve not started again from another, or an unknown one)."""
        with self._db() as db:
            row = db.execute("SELECT lineage FROM solves WHERE thread_id = ?", (thread_id,)).fetchone()
        return json.loads(row[0]) if row and row[0] else {}

    def started_again_from(self, thread_id: str) -> list[tuple[str, dict]]:
        """The solves a person started again from this one, oldest first: (thread id, lineage) each."""
        with self._db() as db:
            rows = db.execute("SELECT thread_id, lineage FROM solves WHERE json_extract(lineage, '$.from_solve') = ? "
                              "ORDER BY created", (thread_id,)).fetchall()
        return [(thread, json.loads(lineage)) for thread, lineage in rows]

    def solves(self, limit: int = 200, *, origin: str | None = "") -> list[dict]:
        """Past solves, newest first: those of this origin ("" for people's own, see Solver.start), or all when
        origin is None; each with its lineage ({} unless a person started it again from an earlier solve). A solve
        stored as running whose owning process is gone (killed, restarted) has status ``interrupted``: resume carries
        it on from its last checkpoint."""
        where, args = ("", ()) if origin is None else ("WHERE COALESCE(origin, '') = ? ", (origin,))
        with self._db() as db:
            rows = db.execute("SELECT thread_id, task, model, created, updated, status, COALESCE(origin, ''), "
                              "COALESCE(person, ''), owner, heartbeat, lineage FROM solves "
                              f"{where}ORDER BY created DESC LIMIT ?", (*args, limit)).fetchall()
        keys = ("thread_id", "task", "model", "created", "updated", "status", "origin", "person")
        found = []
        for row in rows:
            solve = dict(zip(keys, row))
            solve["status"] = _seen_status(solve["thread_id"], solve["status"], row[8], row[9])
            solve["lineage"] = json.loads(row[10]) if row[10] else {}
            found.append(solve)
        return found

    def person(self, thread_id: str) -> str:
        """Who started the solve ("" for the one person of a server without sign-in, or one stored before)."""
        with self._db() as db:
            row = db.execute("SELECT COALESCE(person, '') FROM solves WHERE thread_id = ?", (thread_id,)).fetchone()
        return row[0] if row else ""

    def status(self, thread_id: str) -> str | None:
        """One solve's status as solves() reports it (interrupted when its owner died), None if unknown."""
        with self._db() as db:
            row = db.execute("SELECT status, owner, heartbeat FROM solves WHERE thread_id = ?", (thread_id,)).fetchone()
        return None if row is None else _seen_status(thread_id, *row)


def _seen_status(thread_id: str, stored: str, owner: str | None, heartbeat: float | None) -> str:
    """The stored status, except that a running solve whose owner is gone is interrupted."""
    return "interrupted" if stored in LIVE and not owner_alive(thread_id, owner, heartbeat) else stored
