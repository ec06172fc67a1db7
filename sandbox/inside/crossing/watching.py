"""Stand-ins held while a weak reference to them remains. A stand-in (a proxy of the other side's object) let go of
while a weak reference of its side's remains (weakref.ref, a WeakSet, a WeakKeyDictionary, weakref.finalize) is
watched instead of let die: kept here, while the other side holds the object weakly (exports.hold_weakly) and says
when it dies; then the weak references here die too. So ``w = weakref.ref(obj); del obj; gc.collect(); assert w() is
None`` holds exactly where the object's own side kept no reference, as in one process.

Both sides hold their stand-ins weakly in their memo, so a stand-in dies, and its ``__del__`` (_dying) runs, the
moment its side lets go of it, as the object would in one process. The tests' side watches one that dies with a weak
reference of theirs left, and else lets it die (its Ref releases the code's object). The code's side watches every
one it lets go of (the test that handed it an object may still hold it; a WeakSet of listeners may point to it):
the tests' side holds its object weakly from then on, and says when it dies. The stand-in the code lets go of is
kept, so while the test's object lives the code's stand-in of it is the same one (an id() the code took stays its
id). A watched stand-in its side takes back (through a weak reference, or as it crosses again) is looked at with
each message until it is let go of again (watched_changes). A collection keeps the stand-ins it would find in its
garbage (collecting.py): a collection clears weak references before any ``__del__`` runs.

Only the stand-ins of the other side's objects (instances of its classes, its functions and other objects) are held
this way; live views, standard objects, generators, exceptions and values of value classes are held as long as the
run.

Runs inside the sandbox (stdlib only), in both processes.
"""

from __future__ import annotations

import sys
import weakref


def held_weakly(bases: tuple | list) -> dict:
    """What a proxy class needs to be held weakly (its namespace's additions): a slot for weak references, once in
    its bases, and _dying."""
    slot = {} if any(base.__weakrefoffset__ for base in bases) else {"__slots__": ("__weakref__",)}
    return {**slot, "__del__": _dying}


def _dying(proxy: object) -> None:
    """A proxy its side let go of, before its weak references are cleared (a proxy dies by its count: a collection
    finds none, collecting.py). The tests' side: where a weak reference of theirs remains, it is watched (kept, and
    the code's side told to hold the object weakly); else it dies, and its Ref releases it. The code's side: it is
    watched, whatever points to it: the tests hold their object weakly from then on, and it lives as long as they
    keep it, with this same stand-in for the code (an id() the code took of it stays its id)."""
    try:
        ref = object.__getattribute__(proxy, "_sbx_ref")
    except AttributeError:
        return
    peer = ref.peer
    if not ref.received or (peer.role == "tests" and weakref.getweakrefcount(proxy) <= 1):  # the memo's is one
        return
    watch(peer.lifetimes, ref, proxy)
    if peer.proxies.get(ref.handle) is None:  # its memo's weak reference cleared (a collection's garbage after all)
        peer.proxies[ref.handle] = _weakly(peer, ref.handle, proxy)


def watch(lifetimes: object, ref: object, proxy: object) -> None:
    """Keep proxy, and tell the other side with the next message to hold its object weakly."""
    # Told now: its Ref, when it dies, releases only what it receives from here on. Zeroed before anything is made:
    # a collection may start at the next allocation, and must not keep a proxy on its way to being watched.
    received, ref.received = ref.received, 0
    entry = lifetimes.watched[ref.handle] = [proxy, False]
    lifetimes.scanned[ref.handle] = entry
    # told outside a call where a weak reference of this side's (not the memo's) may take it back (outgoing)
    (lifetimes.watch_outside if weakref.getweakrefcount(proxy) > 1 else lifetimes.watch).append((ref.handle, received))
    lifetimes.kept.pop(ref.handle, None)


def known_proxy(peer: object, handle: int) -> object | None:
    """This side's live proxy of handle, counted as received once more, or None."""
    known = peer.proxies.get(handle)
    if type(known) is weakref.ref:
        known = known()
        if known is not None:
            object.__getattribute__(known, "_sbx_ref").received += 1
            watched = peer.lifetimes.watched.get(handle)
            if watched is not None:
                watched[1] = True  # sent again, so held there again: when the tests let go, "unheld" says so
                peer.lifetimes.scanned[handle] = watched
    return known


def keep_proxy(peer: object, handle: int, made: object, weak: bool) -> None:
    """Remember made as this side's proxy of handle, counting this first receipt for the proxies this module covers:
    both sides hold those weakly, and one its side lets go of is watched or released as it dies (_dying). Other
    proxies are held for the run."""
    if not weak:
        peer.proxies[handle] = made
        return
    object.__getattribute__(made, "_sbx_ref").received = 1
    peer.lifetimes.young.append(handle)
    peer.proxies[handle] = _weakly(peer, handle, made)


def _weakly(peer: object, handle: int, proxy: object) -> weakref.ref:
    return weakref.ref(proxy, lambda gone, memo=peer.proxies, h=handle: _drop(memo, h, gone))


def _drop(memo: dict, handle: int, gone: weakref.ref) -> None:
    if memo.get(handle) is gone:
        memo.pop(handle, None)


_WATCHED_REFS = 2  # a watched proxy's references when its side holds it no more: its entry's, getrefcount's own


def watched_changes(lifetimes: object) -> dict:
    """Of the watched proxies, those held again since the last message ("held": taken back through a weak
    reference) and those held no more ("unheld"). Only those that may have changed are looked at (scanned): a
    watched proxy nothing holds and no weak reference points to comes back only as received again (known_proxy),
    so a test's objects the code was handed and did not keep cost nothing at each call."""
    held, unheld = [], []
    scanned = lifetimes.scanned
    for handle, entry in scanned.copy().items():  # a copy: a collection may start, another thread
        if not entry:  # let go of meanwhile
            scanned.pop(handle, None)
            continue
        now = sys.getrefcount(entry[0]) > _WATCHED_REFS
        if now != entry[1]:
            entry[1] = now
            (held if now else unheld).append(handle)
        if not now and weakref.getweakrefcount(entry[0]) <= _OWN_WEAK_REFS:
            scanned.pop(handle, None)
    return {key: handles for key, handles in (("held", held), ("unheld", unheld)) if handles}


_OWN_WEAK_REFS = 1  # a watched proxy's weak references of this module's own: the memo's


def let_go_of_kept(lifetimes: object) -> None:
    """Let go of the proxies a collection kept (collecting.py), the collection over: one its side holds no more dies
    here by its count, so its ``__del__`` runs before its weak references are cleared (_dying watches it where it
    should be); one still held dies so when its side lets go of it."""
    kept, lifetimes.kept = lifetimes.kept, {}  # a new dict: a collection may start meanwhile, and keep more
    for entry in kept.values():
        entry.clear()
    kept.clear()


def died_there(lifetimes: object, handle: int) -> None:
    """The other side said the object of a watched proxy died: let go of the proxy, not to be watched again as it
    dies here (nothing to release)."""
    entry = lifetimes.watched.pop(handle, None)
    lifetimes.scanned.pop(handle, None)
    if entry:
        object.__getattribute__(entry[0], "_sbx_ref").received = 0
        entry.clear()
