"""The global random generators' state, travelling with the requests both ways as the environment does.

Runs inside the sandbox (stdlib only; numpy's generator when numpy is loaded), in both processes. In one process
the tests and the code draw from one generator: ``random.seed(7)`` in a test decides what the code draws next, and
the code's draws move the tests' generator on. Here each process has its own, started from one state (the worker
reseeds before forking a run's two processes), and whenever one process hands over to the other (a request or an
answer) it sends its generators' state if it changed since the two last agreed; the other takes it on. Which
generators: the random module's, and numpy's global (legacy) one, ``numpy.random.seed``'s.

Telling whether a state changed must cost next to nothing (a test may call the code 20,000 times in a loop): the
generators' state is read as raw bytes from the objects' own memory (about half a microsecond) where that memory
was checked, at the start, to hold exactly the state the generators report; else through getstate().

What the code's process sends is a claim about a generator state and nothing more: the tests' process checks its
shape before taking it on, and a state it cannot take on is a garbled message (BadState), never an error raised
inside a test.
"""

from __future__ import annotations

import ctypes
import random
import struct
import sys

_WORDS = 624  # Mersenne Twister: 624 32-bit words and a position, in CPython's random and in numpy's MT19937
_MT_BYTES = 4 + _WORDS * 4
_HEADER = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)  # PyObject_HEAD before a C object's fields


class BadState(Exception):
    """A generator state that cannot be taken on: the other process sent what no generator has."""


def _raw(address: int, expected: bytes) -> object | None:
    """A view of _MT_BYTES bytes at address, if they hold expected there (else the layout is not the one known)."""
    try:
        view = (ctypes.c_char * _MT_BYTES).from_address(address)
        return view if bytes(view) == expected else None
    except (ValueError, TypeError, OverflowError):
        return None


class _Python:
    """The random module's generator (random._inst, behind random.seed, random.random, random.shuffle ...)."""

    def __init__(self) -> None:
        self.instance = random._inst
        version, internal, _ = self.instance.getstate()
        # CPython's RandomObject: the position (an int), then the 624 words.
        expected = struct.pack(f"=i{_WORDS}I", internal[-1], *internal[:-1])
        self.view = _raw(id(self.instance) + _HEADER, expected)

    def fingerprint(self) -> object:
        if self.view is not None:
            return bytes(self.view), self.instance.gauss_next
        return self.instance.getstate()

    def state(self) -> tuple:
        version, internal, gauss = self.instance.getstate()
        return (version, internal, gauss)

    def take(self, state: object) -> None:
        if not (type(state) is tuple and len(state) == 3 and type(state[1]) is tuple and len(state[1]) == _WORDS + 1
                and all(type(word) is int for word in state[1]) and (state[2] is None or type(state[2]) is float)):
            raise BadState("a random module state of the wrong shape")
        try:
            self.instance.setstate(state)
        except (ValueError, TypeError, OverflowError) as exc:
            raise BadState(f"a random module state it refuses: {exc}") from None


class _Numpy:
    """numpy's global generator (numpy.random.seed, numpy.random.rand ...: the legacy RandomState's MT19937)."""

    def __init__(self, np_random: object) -> None:
        self.generator = np_random.mtrand._rand
        self.numpy = sys.modules["numpy"]
        self.view = None
        bits = self.generator._bit_generator
        if type(bits).__name__ == "MT19937":
            _, key, position, _, _ = self.generator.get_state(legacy=True)
            expected = key.astype("=u4").tobytes() + struct.pack("=i", position)
            # numpy's mt19937_state: the 624 words, then the position.
            self.view = _raw(bits.ctypes.state_address, expected)
        self.cached_gauss = False

    def fingerprint(self) -> object:
        # A cached second normal deviate is used up without moving the words: while one is cached, read it all.
        if self.view is not None and not self.cached_gauss:
            return bytes(self.view)
        state = self.generator.get_state(legacy=True)
        return state[1].tobytes(), state[2:]

    def state(self) -> tuple:
        name, key, position, has_gauss, gauss = self.generator.get_state(legacy=True)
        self.cached_gauss = bool(has_gauss)
        return (str(name), key.astype("<u4").tobytes(), int(position), int(has_gauss), float(gauss))

    def take(self, state: object) -> None:
        if not (type(state) is tuple and len(state) == 5 and state[0] == "MT19937" and type(state[1]) is bytes
                and len(state[1]) == _WORDS * 4 and type(state[2]) is int and 0 <= state[2] <= _WORDS
                and state[3] in (0, 1) and type(state[3]) is int and type(state[4]) is float):
            raise BadState("a numpy random state of the wrong shape")
        key = self.numpy.frombuffer(state[1], dtype="<u4").astype(self.numpy.uint32)
        try:
            self.generator.set_state((state[0], key, state[2], state[3], state[4]))
        except (ValueError, TypeError, OverflowError) as exc:
            raise BadState(f"a numpy random state it refuses: {exc}") from None
        self.cached_gauss = bool(state[3])


class Generators:
    """This process's global generators, and the state both processes last agreed on.

    outgoing() before every message out: the states that changed since (None when none did); incoming() with what
    the other process sent. numpy's generator joins when numpy is loaded (the worker may have loaded it for both)."""

    def __init__(self) -> None:
        self.python = _Python()
        self.numpy: _Numpy | None = None
        self.agreed: list[object] = [self.python.fingerprint(), None]
        self._find_numpy()

    def _find_numpy(self) -> None:
        np_random = sys.modules.get("numpy.random")
        if self.numpy is None and np_random is not None and hasattr(np_random, "mtrand"):
            try:
                self.numpy = _Numpy(np_random)
            except Exception:  # not the numpy this module knows: its generator is not shared
                return
            self.agreed[1] = self.numpy.fingerprint()

    def outgoing(self) -> tuple | None:
        """(the random module's state or None, numpy's or None): those that changed since the processes agreed."""
        if self.numpy is None and "numpy.random" in sys.modules:
            self._find_numpy()
            self.agreed[1] = None  # loaded here since: its state is news to the other process
        now = self.python.fingerprint()
        python = None
        if now != self.agreed[0]:
            python = self.python.state()
            self.agreed[0] = self.python.fingerprint()
        numpy = None
        if self.numpy is not None:
            now = self.numpy.fingerprint()
            if now != self.agreed[1]:
                numpy = self.numpy.state()
                self.agreed[1] = self.numpy.fingerprint()
        return None if python is None and numpy is None else (python, numpy)

    def incoming(self, sent: object) -> None:
        """Take on the states the other process sent (raises BadState for any it could not have sent)."""
        if type(sent) is not tuple or len(sent) != 2:
            raise BadState("random states of the wrong shape")
        python, numpy = sent
        if python is not None:
            self.python.take(python)
            self.agreed[0] = self.python.fingerprint()
        if numpy is not None:
            if self.numpy is None:
                self._import_numpy()
            if self.numpy is None:
                return  # numpy is not offered here: nothing on this side can draw from it
            self.numpy.take(numpy)
            self.agreed[1] = self.numpy.fingerprint()

    def _import_numpy(self) -> None:
        try:
            import numpy.random  # noqa: F401  (an allowed package the other side uses; values.build_array does too)
        except ImportError:
            return
        self._find_numpy()
