"""One end of the pipes between the code's process and the tests' process: requests both ways.

Runs inside the sandbox (stdlib only), in both processes. Calls go both ways: while one side waits for the answer to
its request, it serves the requests the other side makes of it (a callback the tests handed to the code, which calls
the code again, ...), to a depth of MAX_NESTING. What crosses, and how it is read, is crossing.py's.
"""

from __future__ import annotations

import collections
import marshal
import sys
import threading
import traceback

import channels
import linking
import proxies
import sharing
import unsupported
import values
import wire
from crossing import (
    CannotCross,
    Codec,
    PeerGone,
    as_list,
    builtin_exception_name,
    read_as,
    short_text,
    standard_name,
    text_of,
)

__all__ = ["CannotCross", "Peer", "PeerGone", "TooDeep"]

MAX_NESTING = 500  # calls between the two processes inside one another (a recursion that crosses both ways)
_ITERATION = ("next", "send")  # the requests whose end is StopIteration


class _Calls(threading.local):
    """One thread's calls in progress: how deep they nest, and what the last answer said of their arguments."""

    def __init__(self) -> None:
        self.nesting = 0
        self.changes: list | None = None  # the in-place changes to a call's arguments, from the last answer
        self.kept: list | None = None  # which of a request's containers the code kept (linking), from the last answer
        self.kept_now: list = []  # the code's side: which containers of the request being served it kept


class TooDeep(RecursionError):
    """Calls between the two processes went deeper than MAX_NESTING."""


class Peer(Codec):
    """This process's end: its Codec, and the request loop. trusted_side: the tests' side never runs what it
    receives; the code's side is untrusted anyway."""

    def __init__(self, in_fd: int, out_fd: int, home: str, role: str) -> None:
        super().__init__(home, role)
        self.channels = channels.Channels(in_fd, out_fd, self._serve_channel if role == "code" else None)
        self.calls = _Calls()
        self.hooks = None  # the side's own behaviour around requests (sync of output, environment, patches)
        proxies._PEERS[:] = [self]

    # What a thread's calls in progress hold: each thread of the tests that calls the code has its own.
    nesting = property(lambda self: self.calls.nesting, lambda self, v: setattr(self.calls, "nesting", v))
    changes = property(lambda self: self.calls.changes, lambda self, v: setattr(self.calls, "changes", v))
    kept = property(lambda self: self.calls.kept, lambda self, v: setattr(self.calls, "kept", v))
    kept_now = property(lambda self: self.calls.kept_now, lambda self, v: setattr(self.calls, "kept_now", v))

    # --- requests ------------------------------------------------------------------------------------------------

    def request(self, op: str, target: tuple, *args: object) -> object:
        """Ask the other side for op on target and wait, serving its own requests meanwhile; returns the decoded
        result, or raises what the other side raised (rebuilt here), StopIteration or PeerGone."""
        if self.dead:
            raise PeerGone(self.dead)
        if self.nesting >= MAX_NESTING:
            raise TooDeep(f"calls between the tests and the code went more than {MAX_NESTING} deep (each calling "
                          "the other back); is a recursion across them missing its base case?")
        channel = self.channels.mine(open_one=self.role == "tests")
        if channel is None:
            raise unsupported.Unsupported(unsupported.THREAD_CALLBACK)
        extra = _merged(self.hooks.before_request() if self.hooks else None, linking.outgoing(self))
        try:
            self.channels.send(("q", op, target, args, extra), channel)
        except OSError:
            self.dead = f"the {self.other} process is gone"
            raise PeerGone(self.dead) from None
        except wire.NotPlain as exc:
            raise CannotCross(str(exc)) from None
        self.nesting += 1
        try:
            return self._await_answer(op, channel)
        finally:
            self.nesting -= 1

    def _await_answer(self, op: str, channel: int) -> object:
        while True:
            message = self.receive(channel)
            kind = message[0]
            if kind == "q" and len(message) == 5:
                self.serve(message)
                continue
            extra = message[-1] if len(message) >= 2 else None
            if type(extra) is dict:
                self.changes = extra.get("mutated")
                self.kept = extra.get("kept")
                linking.incoming(self, extra)
                if self.hooks:
                    self.hooks.after_answer(extra)
            if kind == "r" and len(message) == 3:
                return self.decode(message[1])
            if kind == "e" and len(message) == 3 and type(message[1]) is dict:
                raise self.rebuild_error(message[1])
            if kind == "s" and op in _ITERATION:
                raise StopIteration
            raise self._garbled("a garbled answer")

    def receive(self, channel: int = 0) -> tuple:
        """The next message on channel (a request or an answer); raises PeerGone when the pipe ends or carries
        garbage."""
        try:
            return self.channels.next(channel)
        except channels.Gone as exc:
            self.dead = f"the {self.other} process {exc}"
            raise PeerGone(self.dead) from None

    def _serve_channel(self, channel: int) -> None:
        """The code's side: a thread that serves the requests of one thread of the tests."""
        def serve_all() -> None:
            self.channels.adopt(channel)
            while True:
                try:
                    message = self.receive(channel)
                except PeerGone:
                    return
                if message[0] != "q" or len(message) != 5:
                    return
                self.serve(message)

        threading.Thread(target=serve_all, name=f"sandbox channel {channel}", daemon=True).start()

    def serve(self, message: tuple) -> None:
        """Perform one request of the other side and send the answer."""
        _, op, target, args, extra = message
        if type(extra) is dict:
            linking.incoming(self, extra)
        if self.hooks:
            self.hooks.before_serving(extra if type(extra) is dict else None)
        outer_kept, self.kept_now = self.kept_now, []
        self.nesting += 1
        try:
            if type(op) is not str:
                raise ValueError("a request without an operation")
            result, changed = _perform(self, op, target, args if type(args) is tuple else ())
            # The code's containers that it keeps elsewhere too cross as live views (the tests' side sends copies
            # and takes the changes back: _call). Counted before anything else refers to the result.
            live = sharing.shared_in(result) if self.role == "code" else None
            answer = ("r", self.encode(result, live), None)
        except StopIteration as exc:
            if op in _ITERATION:
                answer, changed = ("s", None), None
            else:  # out of a call, it would end the caller's loop unseen (PEP 479 makes it an error in generators)
                said = f" ({exc})" if str(exc) else ""
                error = RuntimeError(f"StopIteration{said} was raised outside iteration")
                answer, changed = ("e", self.describe_error(error), None), None
        except PeerGone:
            raise
        except BaseException as exc:  # whatever this side's code raised goes back as an error
            answer, changed = ("e", self.describe_error(exc), None), None
            if self.hooks:
                self.hooks.raised(exc)
        finally:
            self.nesting -= 1
        extra = _merged(self.hooks.after_serving() if self.hooks else None, linking.outgoing(self))
        if changed:
            extra = {**(extra or {}), "mutated": changed}
        if self.kept_now:
            extra = {**(extra or {}), "kept": self.kept_now}
        self.kept_now = outer_kept
        answer = answer[:-1] + (extra or None,)
        channel = self.channels.mine(open_one=False) or 0
        try:
            self.channels.send(answer, channel)
        except wire.NotPlain as exc:
            self.channels.send(("e", self.describe_error(CannotCross(str(exc))), extra or None), channel)

    # --- errors --------------------------------------------------------------------------------------------------

    def describe_error(self, exc: BaseException) -> dict:
        """What the other side needs to raise it again: its type (a mirror when it is this side's own class), the
        nearest builtin exception, the message, and a traceback trimmed to this side's own file."""
        if isinstance(exc, MemoryError):
            # The frames' locals hold what filled the memory (a list grown forever): let it go before describing.
            traceback.clear_frames(exc.__traceback__)
        try:
            return self._described(exc)
        except MemoryError:
            return {"type": type(exc).__name__, "base": "MemoryError", "message": "", "traceback": "", "lineno": None}

    def _described(self, exc: BaseException) -> dict:
        cls = type(exc)
        frames = _own_frames(exc.__traceback__, self.hooks.source_file)
        lines = traceback.format_list(frames)
        if isinstance(exc, SyntaxError) and exc.filename == self.hooks.source_file:
            lines = traceback.format_exception_only(cls, exc)[:-1]
        info = {"type": cls.__name__, "base": builtin_exception_name(cls), "message": text_of(str, exc),
                "qualified": standard_name(cls),
                "traceback": short_text("".join(lines)),
                "lineno": frames[-1].lineno if frames else getattr(exc, "lineno", None)}
        if isinstance(exc, ModuleNotFoundError) and type(getattr(exc, "name", None)) is str:
            info["module"] = exc.name  # which module was missing: the host tells an absent package from a bug
        ref = proxies.ref_of(exc)
        if ref is not None and ref.peer is self:
            info["home"] = ref.handle  # the other side's own exception, coming back
            return info
        # Kept here, so that its attributes can be asked for, and so that if the other side lets it through it comes
        # back as itself (a failing assert of the tests inside a callback keeps the values it compared).
        info["handle"] = self.export(exc)
        if self._own_class(cls):
            try:
                info["class"] = self.describe_class(cls)
            except Exception:
                pass
        return info

    def rebuild_error(self, info: dict) -> BaseException:
        """The other side's exception as one of this side's: its mirror class when it has one, else a class of the
        same builtin family (so ``except ValueError`` and ``pytest.raises`` work), marked as the other side's."""
        try:
            if type(info.get("home")) is int:
                home = self.exports.get(info["home"])
                if isinstance(home, BaseException):
                    return home
            if type(info.get("class")) is tuple and type(info.get("handle")) is int:
                cls = self.mirror(info["class"])
                if issubclass(cls, BaseException):
                    ref = proxies.Ref(self, info["handle"], short_text(info.get("message")))
                    exc = proxies.instance(cls, ref, None)
                    exc.args = (str(info.get("message", "")),)
                    exc.remote_traceback = str(info.get("traceback", ""))
                    return exc
        except (values.BadRecord, TypeError, ValueError):
            pass
        handle = info.get("handle")
        ref = proxies.Ref(self, handle, short_text(info.get("message"))) if type(handle) is int else None
        qualified = info.get("qualified")
        exc = proxies.remote_exception(self, str(info.get("base", "Exception")), str(info.get("message", "")),
                                       ref, str(info.get("type")), qualified if type(qualified) is str else None)
        exc.remote_traceback = str(info.get("traceback", ""))
        if isinstance(exc, ModuleNotFoundError):
            exc.name = info["module"] if type(info.get("module")) is str else None
        return exc


def _merged(first: dict | None, second: dict | None) -> dict | None:
    if not second:
        return first
    return {**first, **second} if first else second


# --- performing a request ---------------------------------------------------------------------------------------

def _perform(peer: Peer, op: str, target: object, args: tuple) -> tuple[object, list | None]:
    """(result, the call's arguments that changed in place), for one request of the other side."""
    if op == "await_all":
        obj = None
    else:
        obj = peer.hooks.resolve(target) if type(target) is tuple and target[:1] != ("h",) else peer.exports[target[1]]
    if op == "call":
        return _call(peer, obj, args)
    if op == "getattr":
        name = args[0]
        if type(name) is not str or not peer.hooks.may_read(obj, name):
            raise AttributeError(name)
        return getattr(obj, name), None
    if op in ("setattr", "delattr"):
        name = args[0]
        if type(name) is not str or not peer.hooks.may_change(obj, name):
            raise AttributeError(f"the code under test may not change {name!r} of an object of the tests")
        if op == "setattr":
            value = peer.decode(args[1])
            setattr(obj, name, value)
            _keep(peer, -1, args[1], value)
        else:
            delattr(obj, name)
        return None, None
    if op == "setitem" and len(args) == 2:
        value = peer.decode(args[1])
        obj[peer.decode(args[0])] = value
        _keep(peer, -1, args[1], value)
        return None, None
    if op in _ONE_ARG:
        return _ONE_ARG[op](obj, *(peer.decode(a) for a in args)), None
    if op == "op":
        name = args[0]
        if name not in proxies.OPERATORS:
            raise ValueError(f"unknown operator {name!r}")
        return proxies.OPERATORS[name](obj, *(peer.decode(a) for a in args[1:])), None
    if op == "await":
        return proxies.run_to_end(obj), None
    if op == "await_all":
        return proxies.await_all(_awaitables(peer, args[0])), None
    if op == "send":
        return obj.send(peer.decode(args[0])), None
    if op in ("copy", "deepcopy"):
        import copy

        return (copy.copy if op == "copy" else copy.deepcopy)(obj), None
    if op == "data":
        base = values.container_base(type(obj)) or values.value_base(type(obj))
        return read_as(base, obj) if base else None, None
    return peer.hooks.perform(op, obj, args), None


def _call(peer: Peer, fn: object, args: tuple) -> tuple[object, list | None]:
    positional, named = args
    # Fresh copies, so that the request still shows the arguments as they were sent (a change is then seen).
    decoded = [peer.decode(_fresh(a)) for a in positional]
    keywords = {k: peer.decode(_fresh(v)) for k, v in named.items()}
    counts = _counts(peer, decoded, keywords)
    result = fn(*decoded, **keywords)
    # A container the call kept a reference to (stored on an object, in a global) stays linked to the caller's.
    for key, before in counts.items():
        if _count_at(decoded, keywords, key) > before:
            _keep(peer, key, positional[key] if type(key) is int else named[key],
                  decoded[key] if type(key) is int else keywords[key])
    # In-place changes to list, dict, set, ... arguments travel back, so the caller sees them as Python would.
    changed = []
    for key, enc, value in [*zip(range(len(decoded)), positional, decoded),
                            *((k, named[k], keywords[k]) for k in keywords)]:
        if type(enc) is tuple and enc[:1] == ("home",):
            continue  # this side's own container, which the caller holds as a live view: already changed there
        if isinstance(value, values.CONTAINER_BASES) or values.is_array(value):
            now = peer.encode(value)
            if now != enc:
                changed.append((key, now))
    return result, changed or None


def _counts(peer: Peer, decoded: list, keywords: dict) -> dict:
    """The code's side: the reference counts of the containers a call receives, before the call."""
    if peer.role != "code":
        return {}
    return {key: _count_at(decoded, keywords, key) for key in [*range(len(decoded)), *keywords]
            if type(decoded[key] if type(key) is int else keywords[key]) in sharing.MUTABLE}


def _count_at(decoded: list, keywords: dict, key: object) -> int:
    # One way of counting, before the call and after it, so that only what the call kept makes a difference.
    value = decoded[key] if type(key) is int else keywords[key]
    count = sys.getrefcount(value)
    return count


def _keep(peer: Peer, key: object, enc: object, value: object) -> None:
    """The code's side kept a container the tests sent (key: its place in the request): link the two."""
    if peer.role != "code" or type(value) not in sharing.MUTABLE or (type(enc) is tuple and enc[:1] == ("home",)):
        return
    if len(peer.links.by_handle) >= linking.MAX_LINKED:
        return
    handle = peer.export(value)
    linking.link(peer, value, handle)
    peer.kept_now.append((key, handle))


def _awaitables(peer: Peer, wanted: object) -> list:
    """The awaitables a batch asks for: ("await", handle) is the object itself, ("anext", handle) its next item."""
    found = []
    for op, handle in as_list(wanted):
        obj = peer.exports[handle]
        found.append(obj.__anext__() if op == "anext" else obj)
    return found


def _fresh(enc: object) -> object:
    if type(enc) is tuple and len(enc) == 2 and enc[0] == "v" and type(enc[1]) in (list, dict, set):
        return ("v", marshal.loads(marshal.dumps(enc[1])))
    return enc


_ONE_ARG = {
    "getitem": lambda o, k: o[k], "setitem": lambda o, k, v: o.__setitem__(k, v),
    "delitem": lambda o, k: o.__delitem__(k), "contains": lambda o, v: v in o, "len": len,
    "iter": iter, "next": next, "bool": bool, "str": str, "repr": repr, "hash": hash,
    "format": format, "reversed": reversed, "int": int, "float": float, "index": lambda o: o.__index__(),
    "round": round, "enter": lambda o: o.__enter__(), "exit": lambda o, t, v: o.__exit__(t, v, None),
    "aiter": lambda o: o.__aiter__(), "anext": lambda o: proxies.run_to_end(o.__anext__()),
    "aenter": lambda o: proxies.run_to_end(o.__aenter__()),
    "aexit": lambda o, t, v: proxies.run_to_end(o.__aexit__(t, v, None)),
}


def _own_frames(tb: object, filename: str, keep: int = 20) -> traceback.StackSummary:
    """The last frames of a traceback that are in this side's own file: cheap however deep the traceback (an error
    passing back through hundreds of nested calls is described at each of them)."""
    found: collections.deque = collections.deque(maxlen=keep)
    for frame, lineno in traceback.walk_tb(tb):
        if frame.f_code.co_filename == filename:
            found.append((frame, lineno))
    return traceback.StackSummary.extract(iter(found))



sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * MAX_NESTING))
