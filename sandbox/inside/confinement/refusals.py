"""What the confinement refuses a run that one process would give it, named instead of failing the code's test.

Runs inside the sandbox (stdlib only); the worker calls name_what_is_denied once, before any fork, so both processes
of every run have it.

Threads: a run's processes may hold a bounded number of threads (RLIMIT_NPROC counts them), so the code's pool of
twenty threads fails to start one where one process would start them all: ``Thread.start`` then raises Unsupported
with the reason (a RuntimeError still, as the refusal was), and the test is not judged.

multiprocessing: a pool of processes (``multiprocessing.Pool``, ``ProcessPoolExecutor``), a ``Queue``, a
``Lock`` or a shared ``Value`` needs POSIX semaphores and shared memory, files in /dev/shm, which no run may write
(there it is the host's, or bubblewrap's that every run of a worker shares); a ``Manager`` serves its objects on a
socket, which no run may open. One process would run them, so a right answer would fail on a PermissionError the
sandbox caused: the error is Unsupported with the reason instead, and the test is not judged (never a pass). A plain
``multiprocessing.Process`` that shares nothing runs as it would.
"""

from __future__ import annotations

import unsupported


def name_what_is_denied() -> None:
    """Make a thread past the run's bound, and the three ways multiprocessing meets the confinement, raise
    Unsupported with the reason."""
    import threading

    start = threading.Thread.start

    def start_or_say_why(thread: threading.Thread) -> None:
        try:
            start(thread)
        except RuntimeError as exc:
            if "can't start new thread" not in str(exc):
                raise
            raise unsupported.Unsupported(unsupported.THREADS_BOUND) from None

    start_or_say_why.__doc__ = start.__doc__
    threading.Thread.start = start_or_say_why

    import _multiprocessing
    import multiprocessing.heap
    import multiprocessing.managers

    class SemLock(_multiprocessing.SemLock):  # multiprocessing.synchronize looks it up at each lock it makes
        def __new__(cls, *args: object, **kwargs: object) -> object:
            try:
                return super().__new__(cls, *args, **kwargs)
            except PermissionError:
                raise unsupported.Unsupported(unsupported.PROCESS_POOLS) from None

    _multiprocessing.SemLock = SemLock
    multiprocessing.heap.Arena.__init__ = _refused_on(multiprocessing.heap.Arena.__init__, PermissionError)
    manager = multiprocessing.managers.BaseManager
    # The server process cannot listen: the manager hears its pipe close before an address comes.
    manager.start = _refused_on(manager.start, (EOFError, ConnectionError, PermissionError))


def _refused_on(method, errors):
    def refused(*args: object, **kwargs: object) -> object:
        try:
            return method(*args, **kwargs)
        except errors:
            raise unsupported.Unsupported(unsupported.PROCESS_POOLS) from None

    refused.__name__, refused.__qualname__, refused.__doc__ = method.__name__, method.__qualname__, method.__doc__
    return refused
