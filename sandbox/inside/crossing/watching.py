"""Stand-ins held while a weak reference to them remains. A stand-in (a proxy of the other side's object) let go of
while a weak reference of its side's remains (weakref.ref, a WeakSet, a WeakKeyDictionary, weakref.finalize) is
watched instead of let die: kept here, while the other side holds the object weakly (exports.hold_weakly) and says
when it dies; then the weak references here die too. So ``w = weakref.ref(obj); del obj; gc.collect(); assert w() is
None`` holds exactly where the object's own side kept no reference, as in one process.

The tests' side holds its stand-ins of the code's objects weakly in its memo, and one that dies with a weak
reference left is watched from its ``__del__`` (_dying). The code's side holds its stand-ins of the tests' objects
(instances of their classes, their functions) in its memo until it holds one only weakly (a WeakSet of listeners, a
WeakKeyDictionary cache; seen as its call ends, or as a collection starts): then it is watched the same way. It never
lets go of one outright, so an id() the code took of a test's object stays its id for the run. What a collection
finds weakly referenced (collecting.py) is kept or looked at here.

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
    """A proxy the tests let go of, before its weak references are cleared: where one of theirs remains, it is
    watched (kept, and the code's side told to hold the object weakly); else it dies, and its Ref releases it."""
    try:
        ref = object.__getattribute__(proxy, "_sbx_ref")
    except AttributeError:
        return
    if not ref.received or weakref.getweakrefcount(proxy) <= 1:  # the memo's own (keep_proxy) is one
        return
    watch(ref.peer.lifetimes, ref, proxy)


def watch(lifetimes: object, ref: object, proxy: object) -> None:
    """Keep proxy, and tell the other side with the next message to hold its object weakly."""
    # Told now: its Ref, when it dies, releases only what it receives from here on. Zeroed before anything is made:
    # a collection may start at the next allocation, and must not keep a proxy on its way to being watched.
    received, ref.received = ref.received, 0
    entry = lifetimes.watched[ref.handle] = [proxy, False]
    lifetimes.scanned[ref.handle] = entry
    lifetimes.watch.append((ref.handle, received))
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
    elif known is not None and peer.role == "code":
        ref = object.__getattribute__(known, "_sbx_ref")
        if ref.received:  # one of the proxies this module covers (keep_proxy)
            ref.received += 1
            peer.lifetimes.touched[handle] = known
    return known


def keep_proxy(peer: object, handle: int, made: object, weak: bool) -> None:
    """Remember made as this side's proxy of handle, counting this first receipt for the proxies this module covers:
    the tests' side holds those weakly; the code's side holds them until it holds them only weakly (a WeakSet of
    listeners: watch_the_weakly_held), so that an id() the code took of the tests' object stays its id. Other
    proxies are held for the run."""
    if not weak:
        peer.proxies[handle] = made
        return
    object.__getattribute__(made, "_sbx_ref").received = 1
    peer.lifetimes.young.append(handle)
    if peer.role == "code":
        peer.proxies[handle] = made
        peer.lifetimes.touched[handle] = made
        return
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


_HELD_BY_THE_MEMO = 3  # a code side's proxy's references when only weak ones of the code's remain: memo, local, arg


def watch_the_weakly_held(peer: object) -> None:
    """The code's side: of its proxies of the tests' objects touched since its last message, those it now holds
    only weakly (a WeakSet or WeakValueDictionary of the code's) or not at all (a test's object it was handed and
    did not keep) are watched: held here, weakly in the memo, and the tests' side told to hold the object weakly,
    and to say when it dies (then this side lets the proxy go, and the code's weak references die too). So a test's
    object lives as long as the tests or the code keep it, and while it lives the code's stand-in of it is the same
    one (an id() the code took stays its id)."""
    lifetimes, memo = peer.lifetimes, peer.proxies
    touched, lifetimes.touched = lifetimes.touched, {}
    for handle in list(touched):
        proxy = touched.pop(handle)
        if memo.get(handle) is not proxy:
            continue
        if sys.getrefcount(proxy) > _HELD_BY_THE_MEMO:
            # held strongly too, or by another thread's call still running: looked at again with the next message
            # where a weak reference of the code's may take over from what holds it; else when it is received again,
            # or at a full collection (collecting.py)
            if weakref.getweakrefcount(proxy):
                lifetimes.touched.setdefault(handle, proxy)
            continue
        ref = object.__getattribute__(proxy, "_sbx_ref")
        if ref.received and handle not in lifetimes.watched:
            watch(lifetimes, ref, proxy)
            memo[handle] = _weakly(peer, handle, proxy)
        del proxy


def let_go_of_kept(lifetimes: object) -> None:
    """The kept proxies (collecting.py) the tests hold no more: watched where a weak reference of theirs remains,
    else let die here (their Refs release them with this message)."""
    for handle, entry in lifetimes.kept.copy().items():  # a copy: a collection may start and keep more
        if not entry or sys.getrefcount(entry[0]) > _WATCHED_REFS:
            continue
        ref = object.__getattribute__(entry[0], "_sbx_ref")
        if ref.received and weakref.getweakrefcount(entry[0]) > 1:
            watch(lifetimes, ref, entry[0])  # first: a collection may start in between, and must find it watched
        lifetimes.kept.pop(handle, None)
        entry.clear()


def died_there(lifetimes: object, handle: int) -> None:
    """The other side said the object of a watched proxy died: let go of the proxy, not to be watched again as it
    dies here (nothing to release)."""
    entry = lifetimes.watched.pop(handle, None)
    lifetimes.scanned.pop(handle, None)
    if entry:
        object.__getattribute__(entry[0], "_sbx_ref").received = 0
        entry.clear()
