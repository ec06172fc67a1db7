"""One pipe pair, many threads: the requests of several threads of either process travel at once.

Runs inside the sandbox (stdlib only), in both processes. In one process, tests may call the code from several
threads (a lock-protected counter hammered by a thread pool, ``concurrent.futures``), and the calls overlap. Here
every thread of the tests that makes a request gets a channel of its own (the main thread's is 0, whose messages
cross as they always did); the code's process serves each channel on a thread of its own, so a call that waits
on a lock another thread's call holds does not stop that call. The other way alike: a thread the code starts during
a call of the tests (a pool running ``parallel_map(lambda x: x * 2, xs)``) gets a channel of the code's range, and
the tests' process serves it on a thread of its own while the calling test waits. Whichever waiting thread reads the
pipe hands the messages of other channels to their threads (one reader at a time, no thread of its own). A thread's
number is given again once the thread is gone: a test may start a pool for each of its calls.
"""

from __future__ import annotations

import collections
import itertools
import threading
import weakref

import wire

MAX_CHANNELS = 64  # threads of one side calling the other at once; past it a request fails saying so


class Gone(Exception):
    """The pipe ended or carried garbage (the message says which)."""


class Channels:
    """The pipe pair's messages, by channel. on_new(channel): called when the other side opens a channel (the side
    starts a thread to serve it). opens_from: the first of the channels this side opens (the tests' are 1 to
    MAX_CHANNELS, the code's the next MAX_CHANNELS); a new channel of the other side's range is served, one of this
    side's that it did not open is garbage."""

    def __init__(self, in_fd: int, out_fd: int, on_new=None, opens_from: int = 1) -> None:
        self.in_fd, self.out_fd = in_fd, out_fd
        self.on_new = on_new
        self.opens_from = opens_from
        self.sending = threading.Lock()
        self.cond = threading.Condition()
        self.boxes: dict[int, collections.deque] = {}
        self.reading = False
        self.gone: str | None = None
        self.known: set[int] = {0}
        self.numbers = itertools.count(opens_from)
        self.free: list[int] = []  # the numbers of this side's threads that are gone, to give again
        self.local = threading.local()

    def mine(self, open_one: bool) -> int | None:
        """This thread's channel: 0 for the main thread; another thread gets one when open_one, else None."""
        channel = getattr(self.local, "channel", None)
        if channel is None:
            if threading.current_thread() is threading.main_thread():
                channel = 0
            elif open_one:
                channel = self._open()
            self.local.channel = channel
        return channel

    def _open(self) -> int:
        with self.cond:
            channel = self.free.pop() if self.free else next(self.numbers)
            self.boxes.pop(channel, None)  # nothing the last thread of that number left is this one's
            if channel >= self.opens_from + MAX_CHANNELS:
                raise RuntimeError(f"more than {MAX_CHANNELS} threads of the {self._side()} called the other process "
                                   "at once")
            self.known.add(channel)
        # Its number is free again once the thread is gone (a pool made for each call): the other side's thread
        # serving it waits for the next request on it, whichever thread of this side sends it.
        weakref.finalize(threading.current_thread(), self.free.append, channel)
        return channel

    def forget(self, channel: int) -> None:
        """The other side's channel is not served (no thread could start): what came on it is dropped, and its next
        message opens it again."""
        with self.cond:
            self.known.discard(channel)
            self.boxes.pop(channel, None)

    def _side(self) -> str:
        return "tests" if self.opens_from == 1 else "code"

    def mine_from_the_other_side(self, channel: int) -> bool:
        """Is channel in the range the other side opens?"""
        return not self.opens_from <= channel < self.opens_from + MAX_CHANNELS

    def current(self) -> int:
        """The channel of this thread's messages (0 for one that has none of its own)."""
        return getattr(self.local, "channel", None) or 0

    def for_a_code_thread(self) -> bool:
        """Are this thread's messages those of a thread the code started (a channel of the code's range), sent from
        it or served for it?"""
        return self.current() > MAX_CHANNELS

    def adopt(self, channel: int) -> None:
        """This thread serves channel (the code's side, for a channel the tests opened)."""
        self.local.channel = channel

    def send(self, message: tuple, channel: int) -> None:
        framed = message if channel == 0 else ("c", channel, message)
        self.local.busy = getattr(self.local, "busy", 0) + 1
        try:
            with self.sending:
                wire.send(self.out_fd, framed)
        finally:
            self.local.busy -= 1

    def busy(self) -> bool:
        """Is this thread in the middle of sending or reading a message? A finalizer that a collection runs there
        (a __del__ of the code's) cannot call the other side: the pipe is this thread's, half written or read."""
        return getattr(self.local, "busy", 0) > 0

    def next(self, channel: int) -> tuple:
        """The next message for channel, reading the pipe when no other thread is (and sorting what it reads)."""
        with self.cond:
            while True:
                box = self.boxes.get(channel)
                if box:
                    return box.popleft()
                if self.gone:
                    raise Gone(self.gone)
                if not self.reading:
                    self.reading = True
                    break
                self.cond.wait()
        self.local.busy = getattr(self.local, "busy", 0) + 1
        try:
            while True:
                got, message = self._read()
                if got == channel:
                    return message
                with self.cond:
                    new = got not in self.known
                    if new and not self.mine_from_the_other_side(got):
                        raise Gone("sent a message on a channel that does not exist")
                    self.boxes.setdefault(got, collections.deque()).append(message)
                    self.known.add(got)
                    self.cond.notify_all()
                if new and self.on_new is not None:
                    self.on_new(got)
        except Gone as exc:
            with self.cond:
                self.gone = str(exc)
            raise
        finally:
            self.local.busy -= 1
            with self.cond:
                self.reading = False
                self.cond.notify_all()

    def _read(self) -> tuple[int, tuple]:
        try:
            message = wire.recv(self.in_fd)
        except (wire.ChannelClosed, OSError) as exc:
            raise Gone(f"stopped answering ({str(exc) or 'it exited'})") from None
        if type(message) is tuple and len(message) == 3 and message[0] == "c":
            channel, message = message[1], message[2]
            if type(channel) is not int or not 0 < channel <= 2 * MAX_CHANNELS:
                raise Gone("sent a message on a channel that does not exist")
        else:
            channel = 0
        if type(message) is not tuple or not message or type(message[0]) is not str:
            raise Gone("sent a garbled message")
        return channel, message
