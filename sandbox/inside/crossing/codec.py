"""How values cross between the code's process and the tests' process: plain data, records of standard values,
this side's objects and classes by handle, and the other side's as proxies and mirrors.

Runs inside the sandbox (stdlib only), in both processes (peer.py's Peer is a Codec). Each side keeps what it cannot
send as data (its functions, its objects, its classes) in a table of exports and sends a handle; the other side
holds a proxy for it (proxies.py).

What keeps the verdict honest is this file's decoding on the tests' side: a message is plain data (wire.recv), and
from it the tests' side builds only plain values, standard values with its own classes (values.py), builtins from a
fixed list, its own mirror classes and proxies. It never unpickles, imports (but for a standard module named by a
value, values.build_module) or runs anything the code sent.
"""

from __future__ import annotations

import threading

import linking
import nans
import exports
import releasing
from decoding import Decoder
from encoding import Encoder
from kinds import STANDARD_TYPES, CannotCross, PeerGone  # noqa: F401  (what crosses, named where it is used)


_NONE: frozenset = frozenset()


class Codec(Encoder, Decoder):
    """One side's exports (what it sent by handle) and its proxies and mirrors of the other side's, and how a value
    becomes plain data (encoding.py) and back (decoding.py).

    home: the module name of this side's own classes ("solution" for the code, "tests" for the tests): their
    instances cross as objects of a mirror class. role: "code" or "tests"."""

    def __init__(self, home: str, role: str) -> None:
        self.home, self.role = home, role
        self.exports = exports.Exports()  # handle -> object (the tests may hold one only weakly)
        self.export_ids: dict[int, int] = {}
        self.proxies: dict[int, object] = {}
        self.mirrors: dict[int, type] = {}
        self.described: dict[int, tuple] = {}
        self.next_handle = 1
        self.dead: str | None = None
        # What one encoding or decoding works with, kept per thread (several tests' threads may call at once):
        # live, the ids of this side's containers the value being encoded sends as live views; held, the value being
        # encoded: id -> (a container in it, its node); built, the value being decoded: id(node) -> its container.
        self.working = threading.local()
        self.nans = nans.NanIdentities()  # which NaN is which, each way
        self.links = linking.Links()  # containers the tests handed over and the code kept, in step on both sides
        self.lifetimes = releasing.Lifetimes()  # which of the code's objects the tests still hold

    live = property(lambda self: getattr(self.working, "live", _NONE), lambda self, v: setattr(self.working, "live", v))
    held = property(lambda self: getattr(self.working, "held", None), lambda self, v: setattr(self.working, "held", v))
    built = property(lambda self: getattr(self.working, "built", None),
                     lambda self, v: setattr(self.working, "built", v))

    # --- values out ----------------------------------------------------------------------------------------------

    def forget(self, handle: int) -> None:
        """Let go of an export the other side no longer reaches."""
        exports.forget(self, handle)

    def _garbled(self, what: str) -> PeerGone:
        self.dead = f"the {self.other} process sent {what}"
        return PeerGone(self.dead)

    @property
    def other(self) -> str:
        return "tests'" if self.role == "code" else "code's"

