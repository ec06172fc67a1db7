"""How long the code's objects live: as long as one process would keep them. The tests' side holds its proxies of
the code's objects weakly, and when one dies (``del r``, a temporary gone) tells the code's side with its next
message, which lets go of the export; the object then lives on only where the code keeps it, so a ``__del__``
runs, a ``WeakValueDictionary`` or ``WeakSet`` of the code's loses it, as in one process. The tests' gc.collect()
sends that message at once and collects in the code's process too.

Runs inside the sandbox (stdlib only), in both processes. A handle may be on its way to the tests again while they
let go of it (another thread's answer), so the code's side counts how many times it sent each handle and the tests'
side how many times its Ref received it (proxies.Ref.received); a release carries that count and the code's side
lets go only when every sending is released. A count the tests' side misses keeps the object, as before: a leak at
worst, never a handle the tests hold and the code forgot.

A proxy the tests let go of while a weak reference of theirs to it remains (weakref.ref, a WeakSet, a
WeakKeyDictionary, weakref.finalize) is watched instead: kept here, while the code's side holds the object weakly
and says when it dies; then the tests' weak references die too. So ``w = weakref.ref(obj); del obj;
gc.collect(); assert w() is None`` holds exactly where the code kept no reference, as in one process. A collection
clears the weak references to its garbage before any ``__del__`` runs, so as one starts, the proxies a weak reference
of the tests' points to are kept, and watched once the tests hold them no more: one in a cycle of theirs (a list that
holds itself, a frame a traceback keeps) does not take their weak reference with it while the code keeps the object.

The other way, the code's side holds its proxies of the tests' objects (instances of their classes, their
functions) until it holds one only weakly (a WeakSet of listeners, a WeakKeyDictionary cache; seen as its call
ends, or as a collection starts): then the proxy is watched the same way, the tests' side holds its object weakly
and says when it dies, and the code's weak references die too. It never lets go of one outright, so an id() the code
took of a test's object stays its id for the run.

Only the proxies of the other side's objects (instances of its classes, its functions and other objects) are held
this way; live views, standard objects, generators, exceptions and values of value classes are held as long as the
run, as before.
"""

from __future__ import annotations

import gc
import sys
import threading
import weakref

_MAX_TOLD = 100_000  # the handles one message may release, watch or say gone that the reader takes


class Lifetimes:
    """One side's account of what the other holds. The tests' side: released, (handle, times received) of the Refs that
    died, and watch, of the proxies it keeps while a weak reference of theirs remains (watched: handle -> [proxy,
    whether the tests held it again when last told]), to tell; kept, of the proxies a collection found weakly
    referenced (handle -> [proxy]), held here until the tests let go of them. The code's side: sent, how many times
    each handle crossed; weakened, the handles it holds weakly; gone, those whose object died, to tell. The code's
    side also: touched, its proxies of the tests' objects decoded since its last message, or found weakly referenced
    by a collection (handle -> proxy), to see whether it now holds them only weakly. lock: one step for an export and
    a release (encoding.export, incoming)."""

    def __init__(self) -> None:
        self.released: list[tuple[int, int]] = []
        self.watch: list[tuple[int, int]] = []
        self.watched: dict[int, list] = {}
        self.kept: dict[int, list] = {}
        self.sent: dict[int, int] = {}
        self.weakened: set[int] = set()
        self.gone: list[int] = []
        self.touched: dict[int, object] = {}
        self.leaving: list = []  # the tests' side: objects a message let go of, dropped once its payload was read
        self.young: list[int] = []  # handles of the proxies made since the last collection started
        self.younger_than_gen1: list[int] = []  # and since the last collection of generation 1 or 2
        self.lock = threading.RLock()  # reentrant: an object that dies under it runs its weak callback (died)


class _Weakly:
    """An export the tests hold only weakly: the object, weakly, and its id while it lived."""

    __slots__ = ("ref", "oid")

    def __init__(self, ref: weakref.ref, oid: int) -> None:
        self.ref, self.oid = ref, oid


class Exports(dict):
    """A side's exports, handle -> object; an export the tests hold only weakly (a _Weakly) reads as its object
    while it lives, and as missing after."""

    def __getitem__(self, handle: object) -> object:
        value = dict.__getitem__(self, handle)
        if type(value) is _Weakly:
            value = value.ref()
            if value is None:
                raise KeyError(handle)
        return value

    def get(self, handle: object, default: object = None) -> object:
        try:
            return self[handle]
        except KeyError:
            return default


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
    _watch(ref.peer.lifetimes, ref, proxy)


def _watch(lifetimes: Lifetimes, ref: object, proxy: object) -> None:
    # Told now: its Ref, when it dies, releases only what it receives from here on. Zeroed before anything is made:
    # a collection may start at the next allocation, and must not keep a proxy on its way to being watched.
    received, ref.received = ref.received, 0
    lifetimes.watched[ref.handle] = [proxy, False]
    lifetimes.watch.append((ref.handle, received))
    lifetimes.kept.pop(ref.handle, None)


def count_sending(peer: object, handle: int, value: object) -> None:
    """Under the lock: one more sending of handle (peer.export, for each object that crosses by handle); an export
    held weakly is held again."""
    lifetimes = peer.lifetimes
    lifetimes.sent[handle] = lifetimes.sent.get(handle, 0) + 1
    if type(dict.get(peer.exports, handle)) is _Weakly:
        dict.__setitem__(peer.exports, handle, value)


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
    elif known is not None and peer.role == "code":
        ref = object.__getattribute__(known, "_sbx_ref")
        if ref.received:  # one of the proxies this module covers (keep_proxy)
            ref.received += 1
            peer.lifetimes.touched[handle] = known
    return known


def keep_proxy(peer: object, handle: int, made: object, weak: bool) -> None:
    """Remember made as this side's proxy of handle, counting this first receipt for the proxies this module covers:
    the tests' side holds those weakly; the code's side holds them until it holds them only weakly (a WeakSet of
    listeners: _watch_the_weakly_held), so that an id() the code took of the tests' object stays its id. Other
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


_WATCHED_REFS = 2  # a watched proxy's references when the tests hold it no more: its entry's, getrefcount's own


def outgoing(peer: object) -> dict | None:
    """What to tell with the next message, either side: the Refs that died, the proxies it watches since the last
    one, which of those it holds again (taken back through a weak reference) or no more, and which of its own
    objects the other side watches died. Only outside a call, the kept and touched proxies are looked at first."""
    lifetimes = peer.lifetimes
    if lifetimes.leaving:
        lifetimes.leaving = []  # their objects may die now (their weak callbacks say "gone", told below)
    # Only outside a call (nesting 0): a request made inside one is made while its frames still hold what it got,
    # and looking at every watched proxy at each of a call's requests would cost N squared (a publish to N
    # listeners). The tests' threads and the code's, each at its own nesting, cannot let go of a proxy meanwhile
    # that another holds.
    outside = peer.nesting == 0
    if lifetimes.kept and outside:
        _let_go_of_kept(lifetimes)
    if lifetimes.touched and outside:
        _watch_the_weakly_held(peer)
    found = {}
    for key, told in (("released", lifetimes.released), ("watched", lifetimes.watch), ("gone", lifetimes.gone)):
        taken = []
        while len(taken) < _MAX_TOLD:
            try:
                taken.append(told.pop())  # one at a time: what another thread adds meanwhile is told next time
            except IndexError:
                break
        if taken:
            found[key] = taken
    if lifetimes.watched and outside:
        held, unheld = [], []
        for handle, entry in lifetimes.watched.copy().items():  # a copy: a collection may start, another thread
            if not entry:  # let go of meanwhile
                continue
            now = sys.getrefcount(entry[0]) > _WATCHED_REFS
            if now != entry[1]:
                entry[1] = now
                (held if now else unheld).append(handle)
        if held:
            found["held"] = held
        if unheld:
            found["unheld"] = unheld
    return found or None


_HELD_BY_THE_MEMO = 3  # a code side's proxy's references when only weak ones of the code's remain: memo, local, arg


def _watch_the_weakly_held(peer: object) -> None:
    """The code's side: of its proxies of the tests' objects touched since its last message, those it now holds
    only weakly (a WeakSet or WeakValueDictionary of the code's) are watched: held here, weakly in the memo, and the
    tests' side told to hold the object weakly, and to say when it dies (then this side lets the proxy go, and the
    code's weak references die too)."""
    lifetimes, memo = peer.lifetimes, peer.proxies
    touched, lifetimes.touched = lifetimes.touched, {}
    for handle in list(touched):
        proxy = touched.pop(handle)
        if memo.get(handle) is not proxy or weakref.getweakrefcount(proxy) == 0:
            continue
        if sys.getrefcount(proxy) > _HELD_BY_THE_MEMO:
            # held strongly too, or by another thread's call still running: looked at again with the next message
            lifetimes.touched.setdefault(handle, proxy)
            continue
        ref = object.__getattribute__(proxy, "_sbx_ref")
        if ref.received and handle not in lifetimes.watched:
            _watch(lifetimes, ref, proxy)
            memo[handle] = _weakly(peer, handle, proxy)
        del proxy


def _let_go_of_kept(lifetimes: Lifetimes) -> None:
    """The kept proxies the tests hold no more: watched where a weak reference of theirs remains, else let die here
    (their Refs release them with this message)."""
    for handle, entry in lifetimes.kept.copy().items():  # a copy: a collection may start and keep more
        if not entry or sys.getrefcount(entry[0]) > _WATCHED_REFS:
            continue
        ref = object.__getattribute__(entry[0], "_sbx_ref")
        if ref.received and weakref.getweakrefcount(entry[0]) > 1:
            _watch(lifetimes, ref, entry[0])  # first: a collection may start in between, and must find it watched
        lifetimes.kept.pop(handle, None)
        entry.clear()


def incoming(peer: object, extra: dict) -> None:
    """Take what the other side told: let go of its watched proxies of this side's objects that died, let go of (or
    hold weakly) the exports it released (or watches) every sending of, and hold again those it took back."""
    lifetimes = peer.lifetimes
    for handle in _told(extra.get("gone")):
        entry = lifetimes.watched.pop(handle, None)
        if entry:  # its object died there: nothing to release, and not to be watched again as it dies here
            object.__getattribute__(entry[0], "_sbx_ref").received = 0
            entry.clear()
    dropped = []  # let go of after the lock: a __del__ may run, and call the tests
    with lifetimes.lock:
        for handle, count in _told(extra.get("released"), pairs=True):
            if _all_released(lifetimes, handle, count):
                dropped.append(forget(peer, handle))
        for handle, count in _told(extra.get("watched"), pairs=True):
            if _all_released(lifetimes, handle, count):
                dropped.append(_hold_weakly(peer, handle))
            elif handle in lifetimes.sent:  # on its way to the tests again: held, and "unheld" will say when not
                del lifetimes.sent[handle]
                lifetimes.weakened.add(handle)
        for handle in _told(extra.get("unheld")):
            if handle in lifetimes.weakened:
                lifetimes.sent.pop(handle, None)  # a watched handle lives by held and unheld, not by counts
                dropped.append(_hold_weakly(peer, handle))
        for handle in _told(extra.get("held")):
            entry = dict.get(peer.exports, handle)
            value = entry.ref() if type(entry) is _Weakly else None
            if value is not None:
                dict.__setitem__(peer.exports, handle, value)
    if peer.role == "tests":
        # Held until the next message: this one's payload may name them (a stand-in the code returned, or put in a
        # list of the tests', and holds only weakly once the call ended), and is read after this.
        lifetimes.leaving.extend(value for value in dropped if value is not None)
    del dropped


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


def forget(peer: object, handle: int) -> object:
    """An export let go of (under the lock), returned to be dropped after it, outside the lock: the
    object's __del__ may run then, and call the other side."""
    value = dict.pop(peer.exports, handle, None)
    if value is None:
        return None
    oid = id(value)
    if type(value) is _Weakly:
        peer.lifetimes.weakened.discard(handle)
        value, oid = value.ref(), value.oid  # the id it had: a dead object's entry goes too
    if peer.export_ids.get(oid) == handle:
        del peer.export_ids[oid]
    return value


def _hold_weakly(peer: object, handle: int) -> object:
    """Under the lock: hold an export weakly, and tell the tests when its object dies; the strong
    reference let go of is returned, to be dropped after the lock. An object that takes no weak reference stays
    held (the tests' weak reference to it outlives it no more than before)."""
    value = dict.get(peer.exports, handle)
    if value is None or type(value) is _Weakly:
        return None
    lifetimes = peer.lifetimes

    def died(_: weakref.ref, oid: int = id(value)) -> None:
        with lifetimes.lock:
            entry = dict.get(peer.exports, handle)
            if type(entry) is _Weakly and entry.oid == oid:
                forget(peer, handle)
            lifetimes.weakened.discard(handle)
            lifetimes.gone.append(handle)

    try:
        dict.__setitem__(peer.exports, handle, _Weakly(weakref.ref(value, died), id(value)))
    except TypeError:
        return None
    lifetimes.weakened.add(handle)
    return value


def follow_collections(peer: object) -> None:
    """As a collection starts on either side, the proxies a weak reference points to are kept
    (_keep_the_weakly_referenced). The tests' gc.collect() collects in both processes, as one process's would collect
    the code's garbage too: this side's first (its proxies of the code's objects die), then the code's, told what
    died with the request (a ``__del__`` of the code's runs, a WeakSet of its loses what only the tests held), then,
    while the code's collection let go of the tests' objects and that freed more, again."""
    gc.callbacks.append(lambda phase, info: _keep_the_weakly_referenced(peer, phase, info))
    if peer.role != "tests":
        return
    collect = gc.collect

    def collect_both(generation: int = 2) -> int:
        found = collect(generation)
        lifetimes = peer.lifetimes
        try:
            while peer.dead is None and _to_tell(lifetimes):  # more than one message holds
                peer.request("collect", ("h", 0), -1)
            for _ in range(_SETTLING):
                if peer.dead is not None:
                    break
                there = peer.request("collect", ("h", 0), generation)
                found += there if type(there) is int else 0
                if not _to_tell(lifetimes):
                    break
        except Exception:  # the code's process is gone or refuses: this side's collection stands
            pass
        return found

    collect_both.__doc__ = collect.__doc__
    gc.collect = collect_both


_SETTLING = 4  # collections of the code's one gc.collect() of the tests' asks for, while each frees more here


def _to_tell(lifetimes: Lifetimes) -> bool:
    return bool(lifetimes.released or lifetimes.watch or lifetimes.gone)


def _keep_the_weakly_referenced(peer: object, phase: str, info: dict) -> None:
    """As a collection starts: the tests' side keeps the proxies a weak reference of its points to. A collection
    clears the weak references to its garbage before any __del__ runs, so a proxy in a cycle of the tests' (a list
    that holds itself, a frame a traceback keeps) would die with them cleared though the code keeps the object:
    kept, it is watched once the cycle is gone (_let_go_of_kept). The code's side, whose memo holds its proxies,
    notes those a weak reference of the code's points to (one it moved to a WeakSet after the call that brought it),
    for its next message (_watch_the_weakly_held). Only the proxies the collection may collect are looked at:
    those made since the last collection of its generation (a young collection leaves older objects alone, and an
    older proxy that dies outside a collection runs __del__ before its weak references are cleared), every one for
    a full collection, so the cost is the proxies made, not those alive, at each collection."""
    if phase != "start":
        return
    lifetimes, memo = peer.lifetimes, peer.proxies
    generation = info.get("generation", 2)
    if generation == 0:
        handles, lifetimes.young = lifetimes.young, []
        lifetimes.younger_than_gen1.extend(handles)
    elif generation == 1:
        handles = lifetimes.younger_than_gen1 + lifetimes.young
        lifetimes.young, lifetimes.younger_than_gen1 = [], []
    else:
        handles = list(memo)
        lifetimes.young, lifetimes.younger_than_gen1 = [], []
    candidates = []
    for handle in handles:
        entry = memo.get(handle)
        candidates.append(entry() if type(entry) is weakref.ref else entry)
    code = peer.role == "code"
    for proxy in candidates:
        if proxy is None or weakref.getweakrefcount(proxy) <= (0 if code else 1):  # the tests' memo holds one
            continue
        try:
            ref = object.__getattribute__(proxy, "_sbx_ref")
        except AttributeError:
            continue
        if not ref.received or ref.handle in lifetimes.watched:
            continue
        if code:
            lifetimes.touched[ref.handle] = proxy
        elif ref.handle not in lifetimes.kept:
            lifetimes.kept[ref.handle] = [proxy]


def collect_here(peer: object, args: tuple) -> int:
    """The code's side: a collection the tests asked for (follow_collections)."""
    if peer.role != "code":
        raise PermissionError("the code under test may not ask the tests' process to collect")
    generation = args[0] if args and type(args[0]) is int and -1 <= args[0] <= 2 else 2
    return 0 if generation == -1 else gc.collect(generation)  # -1: only what the request's message told
