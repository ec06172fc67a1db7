"""The global random generators' state, travelling with the requests both ways as the environment does.

Runs inside the sandbox (stdlib only; numpy's generator when numpy is loaded), in both processes. In one process
the tests and the code draw from one generator: ``random.seed(7)`` in a test decides what the code draws next, and
the code's draws move the tests' generator on. Here each process has its own, started from one state (the worker
reseeds before forking a run's two processes), and whenever one process hands over to the other (a request or an
answer) it sends its generators' state if it changed since the two last agreed; the other takes it on. Which
generators: the random module's, and numpy's global (legacy) one, ``numpy.random.seed``'s.

Telling whether a state changed, and taking one on, must cost next to nothing (a test may call code that draws
20,000 times in a loop): the generators' state is read and written as raw bytes in the objects' own memory (about
half a microsecond; getstate() and numpy's get_state take 20 to 100) where that memory was checked, at the start, to
hold exactly the state the generators report; else through their own methods.

What the code's process sends is a claim about a generator state and nothing more: the tests' process checks its shape
(packed bytes of the exact length, a float) before taking it on, and a state it cannot take on is a garbled message
(BadState), never an error raised inside a test.
"""

from __future__ import annotations

import ctypes
import random
import struct
import sys
import threading

_WORDS = 624  # Mersenne Twister: 624 32-bit words and a position, in CPython's random and in numpy's MT19937
_MT_BYTES = 4 + _WORDS * 4
_HEADER = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)  # PyObject_HEAD before a C object's fields


class BadState(Exception):
    """A generator state that cannot be taken on: the other process sent what no generator has."""


def _view(owner: object, address: int, expected: bytes) -> object | None:
    """A writable view of len(expected) bytes at address, inside owner, if they hold expected there (else the
    layout is not the one this module knows, and the generator is read and set through its own methods)."""
    try:
        view = (ctypes.c_char * len(expected)).from_address(address)
        return view if bytes(view) == expected else None
    except (ValueError, TypeError, OverflowError):
        return None


_PY_STATE = struct.Struct(f"=i{_WORDS}I")  # CPython's RandomObject after its header: the position, then the words
_NP_STATE = struct.Struct(f"={_WORDS}Ii")  # numpy's mt19937_state: the words, then the position
_POSITION = struct.Struct("=i")
_PROBE = 0.1234567890123457  # a cached normal deviate no seed gives first, to find where numpy keeps it


def _packed(instance: random.Random) -> bytes:
    _, internal, _ = instance.getstate()
    return _PY_STATE.pack(internal[-1], *internal[:-1])


def _python_view(instance: random.Random) -> object | None:
    if type(instance).__basicsize__ < _HEADER + _PY_STATE.size:
        return None
    return _view(instance, id(instance) + _HEADER, _packed(instance))


# Checked once, by the worker as it imports this module before any fork: each run's processes find it checked.
_PYTHON_VIEW, _CHECKED = _python_view(random._inst), random._inst


class _Python:
    """The random module's generator (random._inst, behind random.seed, random.random, random.shuffle ...)."""

    def __init__(self) -> None:
        self.instance = random._inst
        self.view = _PYTHON_VIEW if _PYTHON_VIEW is not None and self.instance is _CHECKED else _python_view(
            self.instance)

    def _packed(self) -> bytes:
        return _packed(self.instance)

    def state(self) -> tuple:
        """(the position and words packed, the cached gauss): a tuple of 625 ints would cost the receiver 50 times
        as much to check and take on."""
        return (bytes(self.view) if self.view is not None else self._packed(), self.instance.gauss_next)

    def take(self, state: object) -> None:
        if not (type(state) is tuple and len(state) == 2 and type(state[0]) is bytes
                and len(state[0]) == _PY_STATE.size and (state[1] is None or type(state[1]) is float)):
            raise BadState("a random module state of the wrong shape")
        (position,) = _POSITION.unpack_from(state[0], 0)
        if not 0 <= position <= _WORDS:  # the generator reads word[position]: never outside them
            raise BadState("a random module state it refuses: its position is out of range")
        if self.view is not None:
            ctypes.memmove(self.view, state[0], _PY_STATE.size)
            self.instance.gauss_next = state[1]
            return
        position, *words = _PY_STATE.unpack(state[0])
        self.instance.setstate((3, (*words, position), state[1]))


class _Numpy:
    """numpy's global generator (numpy.random.seed, numpy.random.rand ...: the legacy RandomState's MT19937, and the
    second normal deviate it keeps for the next draw)."""

    def __init__(self, np_random: object) -> None:
        self.generator = np_random.mtrand._rand
        self.numpy = sys.modules["numpy"]
        bits = self.generator._bit_generator
        if type(bits).__name__ != "MT19937":
            raise TypeError("not the legacy generator")
        _, key, position, _, _ = self.generator.get_state(legacy=True)
        self.words = _view(bits, bits.ctypes.state_address, _NP_STATE.pack(*key.tolist(), position))
        self.gauss = self._find_gauss() if self.words is not None else None

    def _find_gauss(self) -> tuple | None:
        """(has_gauss, gauss) as views into the RandomState, found by setting a known deviate and looking for it
        inside the object (then set back), or None."""
        saved = self.generator.get_state(legacy=True)
        address, size = id(self.generator), type(self.generator).__basicsize__
        try:
            self.generator.set_state((*saved[:3], 1, _PROBE))
            offset = ctypes.string_at(address, size).find(struct.pack("=d", _PROBE))
            if offset < 8 or offset % 8:
                return None
            has_gauss = ctypes.c_int.from_address(address + offset - 8)
            gauss = ctypes.c_double.from_address(address + offset)
            if has_gauss.value != 1:
                return None
            self.generator.set_state((*saved[:3], 0, 0.0))
            return (has_gauss, gauss) if (has_gauss.value, gauss.value) == (0, 0.0) else None
        finally:
            self.generator.set_state(saved)

    def state(self) -> tuple:
        """(the words and position packed, whether a deviate is cached, the deviate)."""
        if self.gauss is not None:
            return (bytes(self.words), self.gauss[0].value, self.gauss[1].value)
        _, key, position, has_gauss, gauss = self.generator.get_state(legacy=True)
        return (_NP_STATE.pack(*key.tolist(), position), int(has_gauss), float(gauss))

    def take(self, state: object) -> None:
        if not (type(state) is tuple and len(state) == 3 and type(state[0]) is bytes
                and len(state[0]) == _NP_STATE.size and type(state[1]) is int and state[1] in (0, 1)
                and type(state[2]) is float):
            raise BadState("a numpy random state of the wrong shape")
        (position,) = _POSITION.unpack_from(state[0], _WORDS * 4)
        if not 0 <= position <= _WORDS:  # numpy reads key[pos] until pos is exactly 624: never past the words
            raise BadState("a numpy random state it refuses: its position is out of range")
        if self.gauss is not None:
            ctypes.memmove(self.words, state[0], _NP_STATE.size)
            self.gauss[0].value, self.gauss[1].value = state[1], state[2]
            return
        key = self.numpy.frombuffer(state[0][:-4], dtype="=u4").astype(self.numpy.uint32)
        self.generator.set_state(("MT19937", key, position, state[1], state[2]))


class Generators:
    """This process's global generators, and the state both processes last agreed on.

    outgoing() before every message out: the states that changed since (None when none did); incoming() with what
    the other process sent. numpy's generator joins when numpy.random is loaded (by either side, or the worker)."""

    def __init__(self) -> None:
        self.python = _Python()
        self.numpy: _Numpy | None = None
        self.agreed: list[object] = [self.python.state(), None]
        self.lock = threading.Lock()  # several threads of the tests may call the code at once (channels.py)
        self._find_numpy()

    def _find_numpy(self) -> None:
        np_random = sys.modules.get("numpy.random")
        if self.numpy is None and np_random is not None and hasattr(np_random, "mtrand"):
            try:
                self.numpy = _Numpy(np_random)
            except Exception:  # not the numpy this module knows: its generator is not shared
                return
            self.agreed[1] = self.numpy.state()

    def outgoing(self) -> tuple | None:
        """(the random module's state or None, numpy's or None): those that changed since the processes agreed."""
        with self.lock:
            return self._outgoing()

    def _outgoing(self) -> tuple | None:
        if self.numpy is None and "numpy.random" in sys.modules:
            self._find_numpy()
            self.agreed[1] = None  # loaded here since: its state is news to the other process
        python = self.python.state()
        python = None if python == self.agreed[0] else python
        if python is not None:
            self.agreed[0] = python
        numpy = self.numpy.state() if self.numpy is not None else None
        numpy = None if numpy == self.agreed[1] else numpy
        if numpy is not None:
            self.agreed[1] = numpy
        return None if python is None and numpy is None else (python, numpy)

    def incoming(self, sent: object) -> None:
        """Take on the states the other process sent (raises BadState for any it could not have sent)."""
        with self.lock:
            self._incoming(sent)

    def _incoming(self, sent: object) -> None:
        if type(sent) is not tuple or len(sent) != 2:
            raise BadState("random states of the wrong shape")
        python, numpy = sent
        if python is not None:
            self.python.take(python)
            self.agreed[0] = self.python.state()
        if numpy is not None:
            if self.numpy is None:
                self._import_numpy()
            if self.numpy is None:
                return  # numpy is not offered here: nothing on this side can draw from it
            self.numpy.take(numpy)
            self.agreed[1] = self.numpy.state()

    def _import_numpy(self) -> None:
        try:
            import numpy.random  # noqa: F401  (an allowed package the other side uses; values.build_array does too)
        except ImportError:
            return
        self._find_numpy()
