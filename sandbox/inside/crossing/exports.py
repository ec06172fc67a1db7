"""A side's exports, the objects it sent by handle, and how one is held: strongly while the other side may reach it,
weakly while the other side holds its stand-in only through a weak reference (watching.py), and let go of when every
sending of it is released (releasing.py).

Runs inside the sandbox (stdlib only), in both processes.
"""

from __future__ import annotations

import weakref


class Weakly:
    """An export the other side holds only weakly: the object, weakly, and its id while it lived."""

    __slots__ = ("ref", "oid")

    def __init__(self, ref: weakref.ref, oid: int) -> None:
        self.ref, self.oid = ref, oid


class Exports(dict):
    """A side's exports, handle -> object; an export the other side holds only weakly (a Weakly) reads as its object
    while it lives, and as missing after."""

    def __getitem__(self, handle: object) -> object:
        value = dict.__getitem__(self, handle)
        if type(value) is Weakly:
            value = value.ref()
            if value is None:
                raise KeyError(handle)
        return value

    def get(self, handle: object, default: object = None) -> object:
        try:
            return self[handle]
        except KeyError:
            return default


def count_sending(peer: object, handle: int, value: object) -> None:
    """Under the lock: one more sending of handle (peer.export, for each object that crosses by handle); an export
    held weakly is held again."""
    lifetimes = peer.lifetimes
    lifetimes.sent[handle] = lifetimes.sent.get(handle, 0) + 1
    if type(dict.get(peer.exports, handle)) is Weakly:
        dict.__setitem__(peer.exports, handle, value)


def forget(peer: object, handle: int) -> object:
    """An export let go of (under the lock), returned to be dropped after it, outside the lock: the
    object's __del__ may run then, and call the other side."""
    value = dict.pop(peer.exports, handle, None)
    if value is None:
        return None
    oid = id(value)
    if type(value) is Weakly:
        peer.lifetimes.weakened.discard(handle)
        value, oid = value.ref(), value.oid  # the id it had: a dead object's entry goes too
    if peer.export_ids.get(oid) == handle:
        del peer.export_ids[oid]
    return value


def hold_weakly(peer: object, handle: int) -> object:
    """Under the lock: hold an export weakly, and tell the other side when its object dies; the strong
    reference let go of is returned, to be dropped after the lock. An object that takes no weak reference stays
    held (the other side's weak reference to it outlives it no more than before)."""
    value = dict.get(peer.exports, handle)
    if value is None or type(value) is Weakly:
        return None
    lifetimes = peer.lifetimes

    def died(_: weakref.ref, oid: int = id(value)) -> None:
        with lifetimes.lock:
            entry = dict.get(peer.exports, handle)
            if type(entry) is Weakly and entry.oid == oid:
                forget(peer, handle)
            lifetimes.weakened.discard(handle)
            lifetimes.gone.append(handle)

    try:
        dict.__setitem__(peer.exports, handle, Weakly(weakref.ref(value, died), id(value)))
    except TypeError:
        return None
    lifetimes.weakened.add(handle)
    return value


def hold_again(peer: object, handle: int) -> None:
    """An export held weakly held strongly again: the other side took its stand-in back through a weak reference."""
    entry = dict.get(peer.exports, handle)
    value = entry.ref() if type(entry) is Weakly else None
    if value is not None:
        dict.__setitem__(peer.exports, handle, value)
