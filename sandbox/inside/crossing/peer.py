"""One end of the pipes between the code's process and the tests' process: requests both ways.

Runs inside the sandbox (stdlib only), in both processes. Calls go both ways: while one side waits for the answer to
its request, it serves the requests the other side makes of it (a callback the tests handed to the code, which calls
the code again, ...), to a depth of MAX_NESTING. What crosses, and how it is read, is codec.py's.
"""

from __future__ import annotations

import os
import sys
import threading

import channels
import linking
import proxies
import releasing
import sharing
import unsupported
import wire
import performing
from codec import CannotCross, Codec, PeerGone
from remote_errors import RemoteErrors

__all__ = ["CannotCross", "Peer", "PeerGone", "TooDeep"]

MAX_NESTING = 500  # calls between the two processes inside one another (a recursion that crosses both ways)
_ITERATION = ("next", "send", "throw")  # the requests whose end is StopIteration (with the generator's return value)


class _Calls(threading.local):
    """One thread's calls in progress: how deep they nest, and what the last answer said of their arguments."""

    def __init__(self) -> None:
        self.nesting = 0
        self.changes: list | None = None  # the in-place changes to a call's arguments, from the last answer
        self.dropped: list | None = None  # what that answer let go of, held until the changes are applied
        self.request_dropped: list | None = None  # what a request being served let go of, until its arguments are read
        self.kept: list | None = None  # which of a request's containers the code kept (linking), from the last answer
        self.kept_now: list = []  # the code's side: which containers of the request being served it kept


class TooDeep(RecursionError):
    """Calls between the two processes went deeper than MAX_NESTING."""


class Peer(Codec, RemoteErrors):
    """This process's end: its Codec, and the request loop. trusted_side: the tests' side never runs what it
    receives; the code's side is untrusted anyway."""

    def __init__(self, in_fd: int, out_fd: int, home: str, role: str) -> None:
        super().__init__(home, role)
        self.channels = channels.Channels(in_fd, out_fd, self._serve_channel,
                                          opens_from=1 if role == "tests" else 1 + channels.MAX_CHANNELS)
        self.calls = _Calls()
        # The code's side: how many requests of the tests it is serving now, on any thread. A thread the code starts
        # meanwhile (a pool inside the call) may call the tests back on a channel of its own: the test waits for the
        # call, reading the pipe, so its process hears the request.
        self.serving = 0
        self.serving_lock = threading.Lock()
        self.hooks = None  # the side's own behaviour around requests (sync of output, environment, patches)
        # A request left before its answer came (a test's own alarm raised while the other side was still busy with
        # it, EvalPlus's call limit): the other side may be busy yet, so nothing asks it anything merely to learn.
        self.abandoned = False

    # What a thread's calls in progress hold: each thread of the tests that calls the code has its own.
    nesting = property(lambda self: self.calls.nesting, lambda self, v: setattr(self.calls, "nesting", v))
    changes = property(lambda self: self.calls.changes, lambda self, v: setattr(self.calls, "changes", v))
    kept = property(lambda self: self.calls.kept, lambda self, v: setattr(self.calls, "kept", v))
    kept_now = property(lambda self: self.calls.kept_now, lambda self, v: setattr(self.calls, "kept_now", v))

    # --- requests ------------------------------------------------------------------------------------------------

    def request(self, op: str, target: tuple, *args: object, sent: tuple | None = None) -> object:
        """Ask the other side for op on target and wait, serving its own requests meanwhile; returns the decoded
        result, or raises what the other side raised (rebuilt here), StopIteration or PeerGone. sent: a call's
        (args, kwargs) as this side holds them, whose containers the other side may keep (linking.py)."""
        if self.dead:
            raise PeerGone(self.dead)
        if self.nesting >= MAX_NESTING:
            raise TooDeep(f"calls between the tests and the code went more than {MAX_NESTING} deep (each calling "
                          "the other back); is a recursion across them missing its base case?")
        try:
            channel = self.channels.mine(open_one=self.role == "tests" or self.serving > 0)
        except RuntimeError as exc:  # more threads of this side calling the other at once than it serves
            if self.role == "tests":
                raise
            raise unsupported.Unsupported(str(exc)) from None
        if channel is None:
            raise unsupported.Unsupported(unsupported.THREAD_CALLBACK)
        if self.role == "code" and self.serving == 0 and self.channels.for_a_code_thread():
            # A thread of the code's calling the tests after every call of theirs returned (a pool kept in a global
            # for later): served when a thread of the tests' process reads the pipe (the thread serving this channel
            # does while it waits, so mostly at once, between two lines of a test), where one process would run it
            # at once on this thread; a test that fails meanwhile is not judged.
            unsupported.note(unsupported.THREAD_CALLBACK)
        if self.channels.busy():
            raise unsupported.Unsupported(unsupported.FINALIZER_MID_MESSAGE)
        extra = self._synced(self.hooks.before_request() if self.hooks else None)
        try:
            self.channels.send(("q", op, target, args, extra), channel)
        except OSError:
            self.dead = f"the {self.other} process is gone"
            raise PeerGone(self.dead) from None
        except wire.NotPlain as exc:
            raise CannotCross(str(exc)) from None
        self.nesting += 1
        try:
            return self._await_answer(op, channel, sent)
        finally:
            self.nesting -= 1

    def _await_answer(self, op: str, channel: int, sent: tuple | None) -> object:
        while True:
            try:
                message = self.receive(channel)
                kind = message[0]
                if kind == "q" and len(message) == 5:
                    self.serve(message)
                    continue
            except PeerGone:
                raise
            except BaseException:
                self.abandoned = True
                raise
            extra = message[-1] if len(message) >= 2 else None
            dropped = None  # what this message let go of, held until its payload is read (releasing.incoming)
            released = None
            if type(extra) is dict:
                if self.role == "code" and "released" in extra:
                    # Let go of once the payload is read: the tests' answer may return what it lets go of (the
                    # object of a class the tests derived from the code's, made here as the code called that class).
                    released, extra = {"released": extra["released"]}, {k: v for k, v in extra.items()
                                                                       if k != "released"}
                dropped = releasing.incoming(self, extra)
                self.changes = extra.get("mutated")
                if self.changes and dropped:
                    self.calls.dropped = dropped  # the changes may name them too (proxies.call_through)
                self.kept = extra.get("kept")
                linking.incoming(self, extra, let_go=False)
                if sent is not None and self.kept:
                    # Linked before the answer and the names the code rebound are decoded: an answer holding a kept
                    # container (return [lst, lst]), or a global the code bound it to (KEPT = xs), then holds the
                    # caller's own object, as in one process, not a view of the code's copy.
                    proxies.link_kept(self, *sent)
                if self.hooks:
                    self.hooks.after_answer(extra)
            try:
                if kind == "r" and len(message) == 3:
                    return self.decode(message[1])
                if kind == "e" and len(message) == 3 and type(message[1]) is dict:
                    error = self.rebuild_error(message[1])
                    if self.role == "tests" and isinstance(error, StopIteration):
                        unsupported.stop_out_of_call(error)
                    raise error
                if kind == "s" and op in _ITERATION:
                    raise StopIteration(self.decode(message[1]) if len(message) == 3 else None)
                raise self._garbled("a garbled answer")
            finally:
                del dropped  # not kept by the frame a raised error's traceback holds
                if released:
                    releasing.incoming(self, released)
                if type(extra) is dict:
                    linking.let_go_of(self, extra)

    def receive(self, channel: int = 0) -> tuple:
        """The next message on channel (a request or an answer); raises PeerGone when the pipe ends or carries
        garbage."""
        try:
            return self.channels.next(channel)
        except channels.Gone as exc:
            self.dead = f"the {self.other} process {exc}"
            raise PeerGone(self.dead) from None

    def _serve_channel(self, channel: int) -> None:
        """A thread that serves the requests of one thread of the other side's (of the tests, or one the code
        started during a call of theirs)."""
        def serve_all() -> None:
            self.channels.adopt(channel)
            while True:
                try:
                    message = self.receive(channel)
                except PeerGone:
                    return
                if message[0] != "q" or len(message) != 5:
                    return
                try:
                    self.serve(message)
                except PeerGone:
                    if self.role == "tests":
                        return  # the code's process is gone: the test that waits for it hears so
                    # The tests' process sent what this one cannot read: it ends, so that the thread of the tests
                    # waiting for this answer hears that, where it would wait for ever.
                    os._exit(1)

        try:
            threading.Thread(target=serve_all, name=f"sandbox channel {channel}", daemon=True).start()
        except RuntimeError:  # no thread left (RLIMIT_NPROC counts threads): this request is refused, saying why
            self.channels.forget(channel)  # its next request tries again
            refused = unsupported.Unsupported(unsupported.NO_THREAD_TO_SERVE)
            self.channels.send(("e", self.describe_error(refused), None), channel)

    def _synced(self, own: dict | None) -> dict | None:
        """What travels with a message: the side's own (its hooks'), the linked containers' changes (_linked), and
        what this side let go of, watches, or saw die of the other side's objects and its own (_released)."""
        return self._released(self._linked(own))

    def _linked(self, own: dict | None) -> dict | None:
        return _merged(own, linking.outgoing(self))

    def _released(self, extra: dict | None) -> dict | None:
        return _merged(extra, releasing.outgoing(self))

    def _returned(self, value: object) -> tuple:
        """The answer that ends a generator the other side steps: what it returned (``yield from`` takes it), sent
        as a result is (a container the code keeps elsewhere too as a live view), or the error that stopped it."""
        try:
            return ("s", self.encode(value, sharing.shared_in(value) if self.role == "code" else None), None)
        except Exception as exc:
            return ("e", self.describe_error(exc), None)

    def serve(self, message: tuple) -> None:
        """Perform one request of the other side and send the answer."""
        _, op, target, args, extra = message
        if type(extra) is dict:
            # First: what the request names is held, what died before it is not; what it let go of is held until its
            # arguments are read (performing._call), or it is performed.
            self.calls.request_dropped = releasing.incoming(self, extra)
            linking.incoming(self, extra)
        if self.hooks:
            self.hooks.before_serving(extra if type(extra) is dict else None)
        outer_kept, self.kept_now = self.kept_now, []
        self.nesting += 1
        with self.serving_lock:
            self.serving += 1
        try:
            if type(op) is not str:
                raise ValueError("a request without an operation")
            result, changed = performing.perform(self, op, target, args if type(args) is tuple else ())
            # The code's containers that it keeps elsewhere too cross as live views (the tests' side sends copies
            # and takes the changes back: _call). Counted before anything else refers to the result.
            live = sharing.shared_in(result) if self.role == "code" else None
            if op == "getattr" and self.role == "tests" and not args[0].startswith("_"):
                # A list or dict the code reads from an object of the tests' (order.items) is the object's own, as
                # in one process: the code's append reaches the test (a live view there, as the tests hold the
                # code's); a copy would lose it, and pass an answer that changes what it was given. Only public
                # attributes (the code may read no private one): a function's own records (__annotations__,
                # __dict__, read by functools.wraps) stay plain data.
                live = sharing.shared_in(result, held=True)
            answer = ("r", self.encode(result, live), None)
        except StopIteration as exc:
            if op in _ITERATION:
                answer, changed = self._returned(exc.value), None
            elif self.role == "code":  # raised as itself: the tests' side watches where it goes (stop_out_of_call)
                answer, changed = ("e", self.describe_error(exc), None), None
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
            with self.serving_lock:
                self.serving -= 1
            self.calls.request_dropped = None
        # The linked containers' changes with the result still held (a container it returns is not let go of);
        # then, the result sent as encoded, what the code now holds only weakly (a registering decorator returns
        # the listener it keeps in a WeakSet) is seen so with this answer (releasing.outgoing); the tests' side
        # reads the answer before it lets go of the object.
        linked = self._linked(self.hooks.after_serving() if self.hooks else None)
        result = live = None
        extra = self._released(linked)
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



def _merged(first: dict | None, second: dict | None) -> dict | None:
    if not second:
        return first
    return {**first, **second} if first else second


sys.setrecursionlimit(max(sys.getrecursionlimit(), 20 * MAX_NESTING))
