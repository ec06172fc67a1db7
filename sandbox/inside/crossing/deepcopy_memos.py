"""One deepcopy across the two processes: one memo a side, each able to reach the other's.

Runs inside the sandbox (stdlib only), in both processes. ``copy.deepcopy`` keeps a memo of what it copied, so an
object met twice is copied once. Where the walk reaches the other side's object, the copy is made there
(proxies.deep_copy), with a memo of that side's own for this deepcopy; it holds this side's memo in turn, so an
object of this side's met inside the other's (a test's parent held by the code's Node) is the copy this side made.

A side names a memo to the other by a token (DeepcopyMemo) with nothing in it to read or set: a memo holds the
originals deepcopy walked, and one the code could read or replace would hand it the tests' harness. The tokens are
held as proxies are: a side's memo holds the other side's token, and a token holds its own memo (one the other side
made for it) or a holder of this side's own deepcopy's memo, which holds the memo only while this side waits for
the other's answer (lent): nothing holds the memo back once the deepcopy is done (no cycle for the collector to find
later: what it copied dies at ``del`` as in one process), and a token kept after that names nothing.
"""

from __future__ import annotations

import contextlib
import weakref

KEY = "the other side's memo of this deepcopy"  # with the peer's id: a key no id of deepcopy's (an int) can be


class DeepcopyMemo:
    """A token for one side's memo of one deepcopy (memo_of)."""

    __slots__ = ("__weakref__",)


class _Holder:
    """A deepcopy's own memo for its token while lent (lent): the memo holds the holder, never the other way for
    longer than a request to the other side."""

    __slots__ = ("memo", "depth")

    def __init__(self) -> None:
        self.memo: dict | None = None
        self.depth = 0


_MEMOS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # token -> the memo made for it, or its holder


def key_for(peer: object) -> tuple:
    """The key under which a memo of this side holds the other side's token."""
    return (KEY, id(peer))


def own_token(memo: dict, peer: object) -> tuple[DeepcopyMemo, _Holder]:
    """The token of this side's memo of a deepcopy under way (the one copy.deepcopy passes a proxy), made once, and
    its holder (lend the memo through it while asking the other side)."""
    mine = (KEY, "own", id(peer))
    found = memo.get(mine)
    if type(found) is not tuple:
        token, holder = DeepcopyMemo(), _Holder()
        _MEMOS[token] = holder
        found = memo[mine] = (token, holder)
    return found


@contextlib.contextmanager
def lent(holder: _Holder, memo: dict):
    """The memo is its token's for the length of the block: the other side's copies of this side's objects, asked
    meanwhile, reach it."""
    holder.memo = memo
    holder.depth += 1
    try:
        yield
    finally:
        holder.depth -= 1
        if holder.depth == 0:
            holder.memo = None


def far_token(peer: object, back: object | None) -> DeepcopyMemo:
    """A token for a memo made here for the other side's deepcopy; back: the other side's token of its own memo
    (its proxy here; None when the request named none of the other side's), under the key this side's copies look
    for it, so that they reach that memo again."""
    token = DeepcopyMemo()
    _MEMOS[token] = {key_for(peer): back} if back is not None else {}
    return token


def memo_of(token: object) -> dict | None:
    """The memo a token of this side's names, or None (not one of this side's tokens, or its deepcopy is over)."""
    if type(token) is not DeepcopyMemo:
        return None
    found = _MEMOS.get(token)
    return found.memo if type(found) is _Holder else found  # a holder's is None unless lent (the deepcopy is done)
