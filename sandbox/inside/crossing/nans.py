"""Which NaN is which across the two processes: a NaN's identity, kept as one process keeps it.

Runs inside the sandbox (stdlib only), in both processes (a Codec holds one NanIdentities). A NaN is never equal to
itself, so list equality's identity shortcut is all that makes ``[1.0, math.nan] == [1.0, math.nan]`` hold in one
process, and ``values.count(MISSING)`` count. A float crosses as a new float; a NaN crosses as a key instead: one NaN
object of the sender's is one object on the receiving side, a NaN sent back is the sender's own again, and
``math.nan`` is ``math.nan``. Two NaNs made apart stay two.

The node is ("nan", key): 0 is math.nan; a positive key a NaN of the sender's; a negative one the receiver's own
NaN that came back; None a NaN whose identity is not kept (the tables are full of NaNs still held).
"""

from __future__ import annotations

import math
import sys
import threading

import unsupported

MAX_NANS = 4096  # NaNs still held that a side tells apart at once, each way
TOO_MANY = ("more than 4096 NaN objects crossed the sandbox boundary and are still held: which of them is the same "
            "object (what list equality reads first) is not kept past that")


class NanIdentities:
    """This side's NaNs sent (by id: the NaN and its key) and its stand-ins for the other side's (by key)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # the tests' threads encode and decode at once
        self.own: dict[int, tuple[float, int]] = {}  # id(NaN of this side's) -> (it, its key)
        self.own_by_key: dict[int, float] = {}
        self.theirs: dict[int, float] = {}  # the other side's key -> this side's stand-in
        self.their_keys: dict[int, tuple[float, int]] = {}  # id(stand-in) -> (it, the other side's key)
        self.next_key = 1
        # NaNs that crossed unrecorded (the tables were full of NaNs still held), by id sent or key received: one that
        # crosses again is two NaNs where one process has one, and the test says so
        self.unrecorded: set[int] = set()

    def node(self, value: float) -> tuple:
        """The node a NaN of this side's crosses as."""
        if value is math.nan:
            return ("nan", 0)
        with self.lock:
            theirs = self.their_keys.get(id(value))
            if theirs is not None:
                return ("nan", -theirs[1])
            known = self.own.get(id(value))
            if known is None:
                if len(self.own) >= MAX_NANS:
                    _forget_unheld(self.own, self.own_by_key)
                if len(self.own) >= MAX_NANS:
                    _unrecorded(self.unrecorded, id(value))
                    return ("nan", None)
                known = self.own[id(value)] = (value, self.next_key)  # held: its id stays its own
                self.own_by_key[self.next_key] = value
                self.next_key += 1
            return ("nan", known[1])

    def here(self, key: object) -> float:
        """The NaN a node's key stands for on this side; raises ValueError on a key no node has."""
        if key is None:
            return float("nan")
        if type(key) is not int:
            raise ValueError("a NaN's key")
        if key == 0:
            return math.nan
        with self.lock:
            if key < 0:
                own = self.own_by_key.get(-key)
                return own if own is not None else float("nan")  # let go here: nobody here can tell
            found = self.theirs.get(key)
            if found is None:
                found = float("nan")
                if len(self.theirs) >= MAX_NANS:
                    _forget_unheld(self.their_keys, self.theirs)
                if len(self.theirs) < MAX_NANS:
                    self.theirs[key] = found
                    self.their_keys[id(found)] = (found, key)
                else:
                    _unrecorded(self.unrecorded, key)
            return found


def _unrecorded(unrecorded: set, mark: int) -> None:
    if mark in unrecorded or len(unrecorded) >= 100 * MAX_NANS:
        unsupported.note(TOO_MANY)
    else:
        unrecorded.add(mark)


def _forget_unheld(by_id: dict, by_key: dict) -> None:
    """Drop the NaNs that nothing but these two tables holds: nobody can send one again, nor tell it apart."""
    for ident, key, count in _counts(by_id):
        if count <= _ONLY_TABLES:
            del by_id[ident]
            by_key.pop(key, None)


def _counts(by_id: dict) -> list[tuple[int, int, int]]:
    """(id, key, reference count) of each NaN in a table, each count read the one way _ONLY_TABLES was."""
    found = []
    for ident, (nan, key) in list(by_id.items()):
        found.append((ident, key, sys.getrefcount(nan)))
    return found


def _count_of_a_probe() -> int:
    # The count _counts reads of a NaN only the two tables hold.
    by_id: dict = {}
    by_key: dict = {}
    nan = float("nan")
    by_id[id(nan)] = (nan, 1)
    by_key[1] = nan
    del nan
    return _counts(by_id)[0][2]


_ONLY_TABLES = _count_of_a_probe()
