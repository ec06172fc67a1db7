"""One deepcopy across the two processes: one memo a side, each able to reach the other's.

Runs inside the sandbox (stdlib only), in both processes. ``copy.deepcopy`` keeps a memo of what it copied, so an
object met twice is copied once. Where the walk reaches the other side's object, the copy is made there
(proxies.deep_copy), with a memo of that side's own for this deepcopy; it holds this side's memo in turn, so an
object of this side's met inside the other's (a test's parent held by the code's Node) is the copy this side made.

A side names a memo to the other by a token (DeepcopyMemo) with nothing in it to read or set: a memo holds the
originals deepcopy walked, and one the code could read or replace would hand it the tests' harness. The tokens are
held as proxies are: a side's memo holds the other side's token, and a token holds its own memo (one the other side
made for it) or only a weak reference to it (this side's own deepcopy's, which lives as long as that deepcopy).
"""

from __future__ import annotations

import weakref

KEY = "the other side's memo of this deepcopy"  # with the peer's id: a key no id of deepcopy's (an int) can be


class DeepcopyMemo:
    """A token for one side's memo of one deepcopy (memo_of)."""

    __slots__ = ("__weakref__",)


class _Holder:
    """Holds a deepcopy's own memo for its token, weakly: the memo holds it back, and both go with the deepcopy."""

    __slots__ = ("memo", "__weakref__")

    def __init__(self, memo: dict) -> None:
        self.memo = memo


_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # token -> its memo, or a weak ref to its holder


def key_for(peer: object) -> tuple:
    """The key under which a memo of this side holds the other side's token."""
    return (KEY, id(peer))


def own_token(memo: dict, peer: object) -> DeepcopyMemo:
    """The token of this side's memo of a deepcopy under way (the one copy.deepcopy passes a proxy), made once."""
    mine = (KEY, "own", id(peer))
    holder = memo.get(mine)
    if type(holder) is not tuple:
        token = DeepcopyMemo()
        kept = _Holder(memo)
        _MEMOS[token] = weakref.ref(kept)
        holder = memo[mine] = (token, kept)
    return holder[0]


def far_token(peer: object, back: object) -> DeepcopyMemo:
    """A token for a memo made here for the other side's deepcopy; back: the other side's token of its own memo
    (a proxy), under the key this side's copies look for it, so that they reach that memo again."""
    token = DeepcopyMemo()
    memo: dict = {}
    ref = _ref_of(back)
    if ref is not None and ref.peer is peer:  # only the other side's own object, never one of this side's
        memo[key_for(peer)] = back
    _MEMOS[token] = memo
    return token


def memo_of(token: object) -> dict | None:
    """The memo a token of this side's names, or None (not one of this side's tokens, or its deepcopy is over)."""
    if type(token) is not DeepcopyMemo:
        return None
    found = _MEMOS.get(token)
    if type(found) is weakref.ref:
        holder = found()
        return holder.memo if holder is not None else None
    return found


def _ref_of(value: object) -> object:
    import proxies

    return proxies.ref_of(value)
