"""How long the code's objects live (sandbox/inside/crossing/releasing.py, exports.py): the counting of sendings and
releases, as logic; tests/test_sandbox_against_one_process.py's lifetimes cases run it against one process."""

from __future__ import annotations

import types

from inside_modules import inside_modules

releasing, exports = inside_modules("releasing", "exports")


class Kept:
    """An object of the code's (one that takes weak references)."""


def _code_side() -> types.SimpleNamespace:
    peer = types.SimpleNamespace(role="code", nesting=0, lifetimes=releasing.Lifetimes(), exports=exports.Exports(),
                                 export_ids={})

    def export(value: object, handle: int) -> None:
        with peer.lifetimes.lock:
            peer.exports[handle] = value
            peer.export_ids[id(value)] = handle
            exports.count_sending(peer, handle, value)
    peer.export = export
    return peer


def test_an_export_is_let_go_of_only_when_every_sending_is_released():
    peer, obj = _code_side(), Kept()
    peer.export(obj, 7)
    peer.export(obj, 7)  # sent twice: once on its way to the tests while they release the first
    releasing.incoming(peer, {"released": [(7, 1)]})
    assert peer.exports[7] is obj
    releasing.incoming(peer, {"released": [(7, 1)]})
    assert 7 not in peer.exports and id(obj) not in peer.export_ids


def test_a_watched_export_is_held_weakly_held_again_and_its_death_told():
    peer, obj = _code_side(), Kept()
    peer.export(obj, 3)
    releasing.incoming(peer, {"watched": [(3, 1)]})
    assert peer.exports[3] is obj and 3 in peer.lifetimes.weakened
    releasing.incoming(peer, {"held": [3]})  # the tests took it back through their weak reference
    assert dict.__getitem__(peer.exports, 3) is obj
    releasing.incoming(peer, {"unheld": [3]})
    del obj
    assert 3 not in peer.exports and releasing.outgoing(peer) == {"gone": [3]}


def test_a_message_tells_at_most_its_share_and_the_rest_waits():
    peer = types.SimpleNamespace(role="tests", nesting=0, lifetimes=releasing.Lifetimes())
    peer.lifetimes.released.extend((h, 1) for h in range(releasing._MAX_TOLD + 5))
    assert len(releasing.outgoing(peer)["released"]) == releasing._MAX_TOLD
    assert len(releasing.outgoing(peer)["released"]) == 5 and releasing.outgoing(peer) is None


def test_what_is_told_is_read_as_whole_numbers_only():
    peer, obj = _code_side(), Kept()
    peer.export(obj, 5)
    releasing.incoming(peer, {"released": [("5", 1), (5.0, 1), [5, 1], (5, "1"), 5]})
    assert peer.exports[5] is obj
