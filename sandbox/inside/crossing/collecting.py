"""Collections in both processes. The tests' gc.collect() collects in the code's process too, as one process's would
collect the code's garbage (a ``__del__`` of the code's runs, a WeakSet of its loses what only the tests held). And
as a collection starts on either side, the stand-ins a weak reference points to are kept or noted (watching.py): a
collection clears the weak references to its garbage before any ``__del__`` runs, so a stand-in in a cycle of the
tests' (a list that holds itself, a frame a traceback keeps) would take their weak reference with it though the code
keeps the object. The code's side looks again at its stand-ins of the tests' objects, to let go of those it
holds no more (watching.py).

Runs inside the sandbox (stdlib only), in both processes.
"""

from __future__ import annotations

import gc
import weakref

_SETTLING = 4  # collections of the code's one gc.collect() of the tests' asks for, while each frees more here


def follow_collections(peer: object) -> None:
    """As a collection starts on either side, the proxies a weak reference points to are kept
    (_keep_the_weakly_referenced). The tests' gc.collect() collects in both processes: this side's first (its
    proxies of the code's objects die), then the code's, told what died with the request, then, while the code's
    collection let go of the tests' objects and that freed more, again."""
    gc.callbacks.append(lambda phase, info: _keep_the_weakly_referenced(peer, phase, info))
    if peer.role != "tests":
        return
    collect = gc.collect

    def collect_both(generation: int = 2) -> int:
        found = collect(generation)
        lifetimes = peer.lifetimes
        try:
            while peer.dead is None and lifetimes.to_tell(peer.nesting == 0):  # more than one message holds
                peer.request("collect", ("h", 0), -1)
            for _ in range(_SETTLING):
                if peer.dead is not None:
                    break
                there = peer.request("collect", ("h", 0), generation)
                found += there if type(there) is int else 0
                if not lifetimes.to_tell(peer.nesting == 0):
                    break
        except Exception:  # the code's process is gone or refuses: this side's collection stands
            pass
        return found

    collect_both.__doc__ = collect.__doc__
    gc.collect = collect_both


def _keep_the_weakly_referenced(peer: object, phase: str, info: dict) -> None:
    """As a collection starts, its side keeps the proxies it may collect that should not die in its garbage, until
    its next message (watching.let_go_of_kept): a collection clears the weak references to its garbage before any
    __del__ runs, so a proxy in a cycle of the tests' (a list that holds itself, a frame a traceback keeps) would take
    their weak reference with it though the code keeps the object, and a proxy in a cycle of the code's would take
    the code's weak references to a test's object the test still holds. Kept, each dies after the collection by its
    count, its __del__ first (watching._dying). Only the proxies the collection may collect are looked at: those made
    since the last collection of its generation (a young collection leaves older objects alone), every one for a
    full collection, so the cost is the proxies made, not those alive, at each collection."""
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
        # The tests' side: those a weak reference of theirs points to (their memo's is one); else one dies in their
        # garbage, and its Ref releases it. The code's side: every one, to be watched as it dies after the
        # collection, its memo's weak reference whole (the code's stand-in of a test's object stays the same one).
        if proxy is None or (not code and weakref.getweakrefcount(proxy) <= 1):
            continue
        try:
            ref = object.__getattribute__(proxy, "_sbx_ref")
        except AttributeError:
            continue
        if ref.received and ref.handle not in lifetimes.watched and ref.handle not in lifetimes.kept:
            lifetimes.kept[ref.handle] = [proxy]


def collect_here(peer: object, args: tuple) -> int:
    """The code's side: a collection the tests asked for (follow_collections)."""
    if peer.role != "code":
        raise PermissionError("the code under test may not ask the tests' process to collect")
    generation = args[0] if args and type(args[0]) is int and -1 <= args[0] <= 2 else 2
    return 0 if generation == -1 else gc.collect(generation)  # -1: only what the request's message told
