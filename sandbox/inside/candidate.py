"""The candidate process: runs the untrusted code and answers the test process's requests.

Runs inside the sandbox as its own unprivileged uid. It never sees the tests and never decides a verdict: it only
answers requests (peer.py) with values or handles to objects it keeps, and calls back the functions the tests hand
it. Whatever the untrusted code does to this process, the worst it can do is answer wrongly.

Around each request it takes on what the tests' process holds at that moment (codeside_sync, handover): the environment
and working directory a test set (monkeypatch.setenv, chdir), and, while a test captures them, what the code prints,
logs and warns, which travel back with the answer and reach the test's capsys, caplog or pytest.warns.
"""

from __future__ import annotations

import builtins
import importlib
import linecache
import sys
import threading
import types

import codeside_sync
import collecting
import environment
import introspection
import one_cpu
import proxies
import running_loop
import sharing
import shared_names
import subclassing
import unsupported
import values
import wire
from handover import BadState, Handover
from peer import CannotCross, Peer, PeerGone

SOLUTION_FILE = "solution.py"


class CodeSide:
    """The code process's part in the protocol (Peer.hooks): what it resolves, patches and captures."""

    source_file = SOLUTION_FILE

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.sync = codeside_sync.Sync()
        self.loops = running_loop.Entered()  # the tests' loop, running here while their request is served
        self.handover = Handover()
        self.originals: dict[tuple[str, str], object] = {}
        self.stdin = sys.stdin  # the code's own, for when a test gives its stdin back
        self.watches: list[unsupported.FdWatch | None] = []
        self.names = shared_names.CodeNames(module.__dict__)
        self.peer: Peer | None = None
        self.compiled: types.CodeType | None = None  # the code as it loaded, run again by a test's reload

    def before_request(self) -> dict | None:
        """The code is calling the tests back: send what it printed so far, so the tests see it in order, and what
        it met that cannot behave as in one process."""
        sent = self.sync.flush()
        redirect = self.sync.redirected(self.peer.encode)
        if redirect:
            sent = {**(sent or {}), **redirect}
        if self.peer.channels.for_a_code_thread():
            # A thread the code started: the tests' thread serving it takes its name, as the test's function would
            # run on it in one process (threading.current_thread().name == "worker-1")
            sent = {**(sent or {}), "thread": str(threading.current_thread().name)[:200]}
        return unsupported.with_notes(self._names_out(self.handover.outgoing(sent)))

    def after_answer(self, extra: dict) -> None:
        self._take(extra)

    def before_serving(self, extra: dict | None) -> None:
        self._take(extra)
        self.sync.enter(extra)
        self.loops.enter(extra, self.peer.decode)
        self.watches.append(unsupported.FdWatch() if extra and extra.get("fd_watch") else None)

    def after_serving(self) -> dict | None:
        self.loops.leave()
        found = self._names_out(self.handover.outgoing(self.sync.leave()))
        watch = self.watches.pop() if self.watches else None
        if watch is not None:
            watch.stop()
        return unsupported.with_notes(found)

    def _names_out(self, extra: dict | None) -> dict | None:
        found = {}
        rebound = self.names.outgoing(self.peer.encode)
        if rebound:
            found["names"] = rebound
        changed = self.names.changed_copies() if self.names.copies else None
        if changed:
            found["copies_changed"] = changed
        return {**(extra or {}), **found} if found else extra

    def _take(self, extra: dict | None) -> None:
        if extra and "cpu" in extra:
            one_cpu.follow(extra["cpu"])
        if extra and "names" in extra:
            self.names.incoming(extra["names"], self.peer.decode)
        if extra and "stdin" in extra:  # a test set sys.stdin itself: the code reads the tests' (None: its own)
            sys.stdin = self.stdin if extra["stdin"] is None else self.peer.decode(extra["stdin"])
        argv = environment.argv_list(extra.get("argv")) if extra else None
        if argv is not None:
            sys.argv = argv
        try:
            self.handover.incoming(extra)
        except BadState:
            pass  # the tests' process sends only states it had

    def raised(self, exc: BaseException) -> None:
        return None

    def is_test_failure(self, exc: BaseException) -> bool:
        return False

    def check_touch(self, obj: object) -> None:
        return None

    def may_read(self, obj: object, name: str) -> bool:
        """The tests may read any attribute of the code's objects but those reaching into its frames and code."""
        return not name.startswith("__") or name in proxies.REMOTE_DUNDERS

    def may_change(self, obj: object, name: str) -> bool:
        return not name.startswith("__")

    def resolve(self, target: tuple) -> object:
        """A global of the code ("g", name), or a module ("m", name): the code's own, or one it may import."""
        kind, name = target[0], target[1]
        if kind == "g":
            return self.module.__dict__[name]
        if kind == "m" and type(name) is str:
            return self.module if name == "solution" else importlib.import_module(name)
        raise LookupError(f"unknown target {target!r}")

    def perform(self, op: str, obj: object, args: tuple) -> object:
        """The requests only this side serves: a test patching a module the code uses, and undoing it; a test's
        introspection of the code's objects (introspection.py)."""
        if op == "patch":
            name, enc = args
            key = (obj.__name__, name)
            if key not in self.originals and obj is not self.module:
                self.originals[key] = getattr(obj, name, _MISSING)
            setattr(obj, name, self.peer.decode(enc))
            return None
        if op == "restore":
            original = self.originals.pop((obj.__name__, args[0]), _MISSING)
            if original is _MISSING:
                if hasattr(obj, args[0]):
                    delattr(obj, args[0])
            else:
                setattr(obj, args[0], original)
            return None
        if op == "unset":
            delattr(obj, args[0])
            return None
        if op == "subclass" and len(args) == 4:
            return subclassing.build(self.peer, obj, *args)
        if op == "method" and len(args) == 4:
            return subclassing.call_method(self.peer, obj, args)
        if op == introspection.OP:
            return introspection.answer(args[0], obj, self.peer)
        if op == "notes":
            return None  # the answer brings what this process noted (after_serving), as every answer does
        if op == "reload" and obj is self.module and self.compiled is not None:
            # importlib.reload(solution): the code runs again in its module's namespace, as one process runs the
            # file again, so old functions read the new globals; every name it binds goes back with the answer.
            self.names.reloaded()
            exec(self.compiled, self.module.__dict__)
            return None
        if op == "run_main" and obj is self.module and self.compiled is not None and args and type(args[0]) is str:
            return self._run_as_program(args[0], self.peer.decode(args[1]) if len(args) > 1 else None)
        raise ValueError(f"unknown operation {op!r}")


    def _run_as_program(self, run_name: str, init_globals: object) -> dict:
        """runpy.run_module("solution", run_name="__main__") of a test: the code runs again in a namespace of its
        own under that name, as runpy runs it (its ``if __name__ == "__main__":`` block too); what it binds is the
        answer, as runpy returns it. The module's own namespace is left as it was."""
        namespace = dict(init_globals) if isinstance(init_globals, dict) else {}
        namespace.update({"__name__": run_name, "__file__": SOLUTION_FILE, "__builtins__": builtins,
                          "__loader__": None, "__package__": None, "__spec__": None, "__cached__": None,
                          "__doc__": None})
        exec(self.compiled, namespace)
        # every global, as runpy returns them (its __name__ too), but a module that cannot cross (none of the
        # standard library's)
        return {name: value for name, value in namespace.items()
                if name != "__builtins__" and not _module_kept_here(value)}


_MISSING = object()
# A module's own names that tests read of the code's module, as of any (``solution.__all__ == [...]``, its
# docstring): sent as its other values are. The rest of its dunders are this process's machinery.
MODULE_DATA = frozenset({"__all__", "__doc__"})


def _module_kept_here(value: object) -> bool:
    """A module that does not cross: none of the standard library's (the other side imports those by name)."""
    return isinstance(value, types.ModuleType) and values.module_record(value) is None


def _names(peer: Peer, namespace: dict) -> dict:
    """What the code defines, as it crosses: its functions, classes and values, its ``__all__`` and docstring, and the
    standard modules it imported (other modules stay here)."""
    names = {}
    for name, value in list(namespace.items()):
        if (name.startswith("__") and name not in MODULE_DATA) or _module_kept_here(value):
            continue
        try:
            # A global list or dict is the code's state: the tests hold it live (solution.CACHE.clear()).
            names[name] = peer.encode(value, sharing.shared_in(value, held=True))
        except (CannotCross, RecursionError, MemoryError):
            continue
    return names


def serve(code: str, req_fd: int, resp_fd: int) -> None:
    """Execute the code, send the names it defines, then answer requests until the pipe closes."""
    module = types.ModuleType("solution")
    module.__dict__.update({"__file__": SOLUTION_FILE, "__builtins__": builtins})
    sys.modules["solution"] = module
    peer = Peer(req_fd, resp_fd, home="solution", role="code")
    peer.hooks = hooks = CodeSide(module)
    collecting.follow_collections(peer)
    hooks.peer = peer
    hooks.sync.encode = peer.encode
    linecache.cache[SOLUTION_FILE] = (len(code), None, code.splitlines(True), SOLUTION_FILE)
    try:
        # dont_inherit: the code's annotations are what its own text makes them (types, unless it imports
        # annotations from __future__), not this file's future import.
        compiled = compile(code, SOLUTION_FILE, "exec", dont_inherit=True)
        exec(compiled, module.__dict__)
        hooks.compiled = compiled
    except BaseException as exc:
        codeside_sync.flush_streams()
        wire.send(resp_fd, ("import_error", peer.describe_error(exc)))
        return
    codeside_sync.flush_streams()
    hooks.handover.folder.hand_over()  # what the code wrote as it loaded is the tests' to read
    try:
        sent = _names(peer, module.__dict__)
        hooks.names.agreed(sent, shared_names.stored_globals(compiled))
        wire.send(resp_fd, ("hello", sent))
    except wire.NotPlain as exc:
        wire.send(resp_fd, ("import_error", peer.describe_error(CannotCross(str(exc)))))
        return
    while True:
        try:
            message = peer.receive()
        except PeerGone:
            return
        if message[0] != "q" or len(message) != 5:
            return
        peer.serve(message)
