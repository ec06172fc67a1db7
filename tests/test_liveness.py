"""Owners of running solves and runs: a killed process is seen dead at once, a live one alive."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from agent.solves.liveness import owner_alive, process_token

HOLDER = """
import sys, time
from pathlib import Path
from agent.solves.liveness import keep_alive
with keep_alive(Path(sys.argv[1]), "solves", "thread_id", "t1"):
    print("held", flush=True)
    time.sleep(120)
"""


def _row(db: str) -> tuple[str, float]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT owner, heartbeat FROM solves WHERE thread_id = 't1'").fetchone()


def test_a_sigkilled_owner_is_dead_at_once_and_a_live_one_alive(tmp_path):
    db = str(tmp_path / "solves.sqlite")
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE solves (thread_id TEXT PRIMARY KEY, owner TEXT, heartbeat REAL)")
        conn.execute("INSERT INTO solves VALUES ('t1', NULL, NULL)")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, db], stdout=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert holder.stdout.readline().strip() == "held"
    owner, beat = _row(db)
    assert owner != process_token() and owner_alive("t1", owner, beat)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    owner, beat = _row(db)
    assert time.time() - beat < 30  # the heartbeat alone would still look fresh
    assert not owner_alive("t1", owner, beat)  # but that very process is gone
    assert not owner_alive("t1", None, time.time())
