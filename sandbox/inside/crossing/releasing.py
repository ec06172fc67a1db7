"""How long the other side's objects live: as long as one process would keep them. The tests' side holds its
stand-ins of the code's objects weakly, and when one dies (``del r``, a temporary gone) tells the code's side with
its next message, which lets go of the export; the object then lives on only where the code keeps it, so a
``__del__`` runs, a ``WeakValueDictionary`` or ``WeakSet`` of the code's loses it, as in one process. This module is
the account and its messages; a side's exports, held strongly or weakly, are exports.py; stand-ins kept while a weak
reference to them remains, either way, watching.py; collections in both processes, collecting.py.

A handle may be on its way to the tests again while they let go of it (another thread's answer), so the code's side
counts how many times it sent each handle and the tests' side how many times its Ref received it
(proxies.Ref.received); a release carries that count and the code's side lets go only when every sending is released.
A count the tests' side misses keeps the object: a leak at worst, never a handle the tests hold and the code forgot.

Runs inside the sandbox (stdlib only), in both processes.
"""

from __future__ import annotations

import threading

import exports
import watching

_MAX_TOLD = 100_000  # the handles one message may release, watch or say gone that the reader takes


class Lifetimes:
    """One side's account, both sides alike. Of its proxies of the other side's objects: released, (handle, times
    received) of the Refs that died, and watch, (handle, times received) of the proxies it watches since its last
    message, to tell; watched, handle -> [proxy, whether its side held it when last looked at], and scanned, those of
    them that may have changed since; kept, the proxies a collection kept (handle -> [proxy]), until its next
    message; young and younger_than_gen1, the handles of the proxies made since the last collections. Of its own
    exports: sent, how many times each handle crossed; weakened, the handles it holds weakly; gone, those whose
    object died, to tell. lock: one step for an export and a release (encoding.export, incoming)."""

    def __init__(self) -> None:
        self.released: list[tuple[int, int]] = []
        self.watch: list[tuple[int, int]] = []
        self.watch_outside: list[tuple[int, int]] = []  # those a weak reference of this side points to (outgoing)
        self.watched: dict[int, list] = {}
        self.scanned: dict[int, list] = {}
        self.kept: dict[int, list] = {}
        self.sent: dict[int, int] = {}
        self.weakened: set[int] = set()
        self.gone: list[int] = []
        self.young: list[int] = []  # handles of the proxies made since the last collection started
        self.younger_than_gen1: list[int] = []  # and since the last collection of generation 1 or 2
        self.lock = threading.RLock()  # reentrant: an object that dies under it runs its weak callback (died)

    def to_tell(self, outside: bool = True) -> bool:
        """Whether a release, a watch or a death waits for the next message (outside a call, or inside one)."""
        return bool(self.released or self.gone or self.watch or (self.watch_outside and outside))


def unsent(peer: object, node: object) -> None:
    """A value encoded but not sent (linking.py's snapshot of a linked container, to see whether it changed): its
    objects' sendings are taken back, so that releases can match them."""
    handles: list[int] = []
    stack, seen = [node], set()
    while stack:
        item = stack.pop()
        if type(item) in (tuple, list, dict):
            if id(item) in seen:  # a node held twice, or one that holds itself (a list that holds itself)
                continue
            seen.add(id(item))
        if type(item) in (tuple, list):
            if len(item) == 4 and item[0] == "obj" and type(item[1]) is int:
                handles.append(item[1])
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.values())
    lifetimes = peer.lifetimes
    with lifetimes.lock:
        for handle in handles:
            left = lifetimes.sent.get(handle)
            if left is not None:
                if left > 1:
                    lifetimes.sent[handle] = left - 1
                else:
                    del lifetimes.sent[handle]  # kept for the run: a leak at worst


def outgoing(peer: object) -> dict | None:
    """What to tell with the next message, either side: the Refs that died, the proxies it watches since the last
    one, which of those it holds again (taken back through a weak reference) or no more, and which of its own
    objects the other side watches died. Only outside a call, the proxies a collection kept are let go of first."""
    lifetimes = peer.lifetimes
    # Only outside a call (nesting 0): a request made inside one is made while its frames still hold what it got,
    # and looking at every watched proxy at each of a call's requests would cost N squared (a publish to N
    # listeners). The tests' threads and the code's, each at its own nesting, cannot let go of a proxy meanwhile
    # that another holds.
    outside = peer.nesting == 0
    if lifetimes.kept and outside:
        watching.let_go_of_kept(lifetimes)
    found = {}
    # The watch of a proxy a weak reference of this side's points to only outside a call: inside one, it may be taken
    # back through it (the code's list(weak_set), values() of its identity map), and the other side, told to hold
    # the object weakly and not yet that it is held again (watched_changes, outside calls only), would let it die.
    # Nothing takes back a proxy no weak reference points to, but its crossing again, which holds it there again.
    told_now = [("released", lifetimes.released), ("watched", lifetimes.watch), ("gone", lifetimes.gone)]
    if outside:
        told_now.append(("watched", lifetimes.watch_outside))
    for key, told in told_now:
        taken = found.get(key, [])
        while len(taken) < _MAX_TOLD:
            try:
                taken.append(told.pop())  # one at a time: what another thread adds meanwhile is told next time
            except IndexError:
                break
        if taken:
            found[key] = taken
    if lifetimes.watched and outside:
        found.update(watching.watched_changes(lifetimes))
    return found or None


def incoming(peer: object, extra: dict) -> list | None:
    """Take what the other side told: let go of its watched proxies of this side's objects that died, let go of (or
    hold weakly) the exports it released (or watches) every sending of, and hold again those it took back. The
    tests' side returns the objects it let go of, for the caller to hold until the message's payload is read (a
    stand-in the code returned, or put in a list of the tests', and let go of as its call ended); the code's side
    lets go of them here, so that a __del__ of the code's runs before the request that follows its release. The
    releases an answer to the code carries are handed here only once the answer is read (peer._await_answer): the
    tests may answer with the object they let go of (one of their class the code called, made in the code's
    process), and a forgotten export could not be read."""
    lifetimes = peer.lifetimes
    for handle in _told(extra.get("gone")):
        watching.died_there(lifetimes, handle)
    dropped = []  # let go of after the lock: a __del__ may run, and call the tests
    with lifetimes.lock:
        for handle, count in _told(extra.get("released"), pairs=True):
            if _all_released(lifetimes, handle, count):
                dropped.append(exports.forget(peer, handle))
        for handle, count in _told(extra.get("watched"), pairs=True):
            if _all_released(lifetimes, handle, count):
                dropped.append(exports.hold_weakly(peer, handle))
            elif handle in lifetimes.sent:  # on its way to the tests again: held, and "unheld" will say when not
                del lifetimes.sent[handle]
                lifetimes.weakened.add(handle)
        for handle in _told(extra.get("unheld")):
            if handle in lifetimes.weakened:
                lifetimes.sent.pop(handle, None)  # a watched handle lives by held and unheld, not by counts
                dropped.append(exports.hold_weakly(peer, handle))
        for handle in _told(extra.get("held")):
            exports.hold_again(peer, handle)
    if peer.role == "tests":
        return dropped
    del dropped
    return None


def _all_released(lifetimes: Lifetimes, handle: int, count: int) -> bool:
    left = lifetimes.sent.get(handle)
    if left is None:
        return False
    if left > count:  # sent again meanwhile: on its way to the tests
        lifetimes.sent[handle] = left - count
        return False
    del lifetimes.sent[handle]
    return True


def _told(items: object, pairs: bool = False) -> list:
    if type(items) is not list:
        return []
    if pairs:
        return [item for item in items[:_MAX_TOLD] if type(item) is tuple and len(item) == 2
                and type(item[0]) is int and type(item[1]) is int]
    return [item for item in items[:_MAX_TOLD] if type(item) is int]
