"""One event loop for both processes: the tests' running loop and task, taken into the code's process while it serves
their requests.

Runs inside the sandbox (stdlib only), in both processes. In one process a coroutine of the code's that a test awaits
runs on the test's loop: its sleeps, locks, queues and tasks are that loop's, and they interleave with the test's own
coroutines. So a request the tests make while a loop runs on their thread carries that loop (and its current task);
the code's process sets it as its running loop while it serves the request (``asyncio.get_running_loop()`` is a
proxy of it there), and the code's coroutines are stepped on it one step a request (proxies._forward_coroutine).
What the code may use of the tests' loop, their futures and the sandbox's own objects is harness_guard.py's.
"""

from __future__ import annotations

import sys
import threading
import weakref

import proxies


class Sender(threading.local):
    """The tests' side: what a request of this thread carries of the loop running on it. A loop or task sent before
    on this thread is named as the same ("loop_same"): the code's process holds the last it got (Entered.last), and
    encoding them again (their repr, their class) cost more than a call of the code's."""

    def __init__(self) -> None:
        self.loop: object = None
        self.task: object = None

    def sent(self, encode) -> dict | None:
        """{"loop" or "loop_same", "task" or "task_same"} if a loop runs on this thread, else None."""
        asyncio = sys.modules.get("asyncio")
        loop = asyncio.events._get_running_loop() if asyncio is not None else None
        if loop is None:
            return None
        task = asyncio.current_task(loop)
        found: dict = {}
        if _alive(self.loop) is loop:
            found["loop_same"] = True
        else:
            found["loop"] = encode(loop)
            self.loop, self.task = weakref.ref(loop), None
        if task is not None and _alive(self.task) is task:
            found["task_same"] = True
        elif task is not None:
            found["task"] = encode(task)
            self.task = weakref.ref(task)
        return found


def _alive(ref: weakref.ref | None) -> object:
    return ref() if ref is not None else None


class Entered(threading.local):
    """The code's side: the loops of the requests being served on this thread, each set as the running loop while
    its request is served, and the one before it set again after."""

    def __init__(self) -> None:
        self.before: list[tuple] = []
        # The last loop and task a request of this thread's brought, held between requests: their stand-ins live on,
        # so the next request names them again by the same handles (let go of and sent anew each time, they cost
        # a test that calls the code 1,500 times in a coroutine more than the calls).
        self.last: tuple = ()

    def enter(self, extra: dict | None, decode) -> None:
        if not extra or not ("loop" in extra or (extra.get("loop_same") and self.last)):
            self.before.append(None)  # a request of a thread of the tests' with no loop: the code's stays as it is
            return
        import asyncio.events
        import asyncio.tasks

        if "loop" in extra:
            loop, kept = decode(extra["loop"]), None  # a new loop: the tests' side forgot the task it sent too
            _fix_hash(loop)
        else:
            loop, kept = self.last
        task = decode(extra["task"]) if "task" in extra else kept if extra.get("task_same") else None
        # A request from no task (a loop's callback) leaves the last task as the tests' side remembers it
        self.last = (loop, task if task is not None else kept)
        previous = asyncio.events._get_running_loop()
        tasks = asyncio.tasks._current_tasks
        previous_task = tasks.get(loop)
        self.before.append((previous, loop, previous_task))
        asyncio.events._set_running_loop(loop)
        if task is not None:
            tasks[loop] = task  # asyncio.current_task() in the code: the test's task (asyncio.timeout reads it)

    def leave(self) -> None:
        entry = self.before.pop() if self.before else None
        if entry is None:
            return
        import asyncio.events
        import asyncio.tasks

        previous, loop, previous_task = entry
        asyncio.events._set_running_loop(previous)
        tasks = asyncio.tasks._current_tasks
        if previous_task is None:
            tasks.pop(loop, None)
        else:
            tasks[loop] = previous_task


def _fix_hash(loop: object) -> None:
    """Ask the loop's hash once: an event loop's is its identity's, which never changes."""
    ref = proxies.ref_of(loop)
    if ref is not None and ref.fixed_hash is None:
        ref.fixed_hash = hash(loop)
