"""Calls that hand the same container to the other side from several threads take turns.

Runs inside the sandbox (stdlib only), in both processes (proxies.call_through). A list a test hands to the code
crosses as a copy, and the call's in-place changes are written back when it answers (performing.py). In one process
eight threads calling ``collect(out, i)`` append to one list; here each call would change its own copy and the
last write-back would win. So a call holds its containers' turns from the moment they are encoded until its changes
are written back, and a second thread's call with one of them waits: one after the other, each sees the changes of
the one before, and the list ends as in one process.

A call that waits longer than TURN_WAIT (the first call is waiting for the second: a barrier, a queue the other
thread fills) goes ahead with a copy, as before, and notes why (unsupported.py): a test that then fails is not
judged.
"""

from __future__ import annotations

import contextlib
import threading

import unsupported

TURN_WAIT = 2.0  # seconds a call waits for another thread's call holding the same container
_GUARD = threading.Lock()
_TURNS: dict[int, list] = {}  # id(container) -> [its turn, the calls holding or waiting for it]
SHARED_COPY = ("a container of the tests' was handed to the code from several threads at once, and a call waited "
               f"more than {TURN_WAIT:g} s for another's to end; in one process they would change one object, here "
               "each call changed its own copy, so some changes may be lost")


@contextlib.contextmanager
def taken(containers: list[object]):
    """Hold the turns of these containers (the mutable ones a call sends by value) for the length of the block.
    Keyed by the container itself (its id, while a call holds it): calls with other lists never wait."""
    ids = sorted({id(c) for c in containers})  # one order for all: two calls cannot wait on each other
    with _GUARD:
        entries = []
        for key in ids:
            entry = _TURNS.setdefault(key, [threading.RLock(), 0])  # re-entrant: a callback may pass the list again
            entry[1] += 1
            entries.append((key, entry))
    held = []
    try:
        for _, entry in entries:
            if entry[0].acquire(timeout=TURN_WAIT):
                held.append(entry)
            else:
                unsupported.note(SHARED_COPY)
        yield
    finally:
        for entry in reversed(held):
            entry[0].release()
        with _GUARD:
            for key, entry in entries:
                entry[1] -= 1
                if entry[1] == 0 and _TURNS.get(key) is entry:
                    del _TURNS[key]
