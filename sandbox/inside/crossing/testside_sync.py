"""The tests' process's part in the protocol (Peer.hooks): what each request tells the code's process, and what
the answers bring back.

Runs inside the sandbox (stdlib only), in the tests' process. With each request it sends what a test changed that the
code must see (the environment; the working directory is handover.py's) and whether the test captures output, logs or
warnings at that moment; what the code printed, logged and warned comes back with the answer and is written, logged and
warned here, where the test's capsys, caplog or pytest.warns (or contextlib.redirect_stdout) catch it as they would in
one process. Also the solution module's stand-in, whose attributes a test patches in the code's process too.
"""

from __future__ import annotations

import os
import sys
import threading
import types
import unittest

import decimal_context
import environment
import harness_guard
import one_cpu
import process_state
import running_loop
import shared_names
import unsupported
from codeside_sync import LOG_ARGS, record_fields
from handover import BadState, Handover

# What leads from an object to a frame of the tests' process (a generator's, a coroutine's, a traceback's).
_FRAME_NAMES = frozenset({"gi_frame", "cr_frame", "ag_frame", "tb_frame", "f_back", "f_globals", "f_locals",
                          "f_builtins", "gi_yieldfrom", "cr_await", "ag_await", "cr_origin", "gi_code", "cr_code",
                          "ag_code", "f_code"})

# What a mock of the tests' records of its calls, and what forgets them.
_MOCK_RECORDS = frozenset({"called", "call_count", "call_args", "call_args_list", "mock_calls", "method_calls",
                           "await_count", "await_args", "await_args_list"})
_MOCK_RESETS = frozenset({"reset_mock"})


def _is_a_mock(obj: object) -> bool:
    mock = sys.modules.get("unittest.mock")
    return mock is not None and isinstance(obj, mock.NonCallableMock)


def _is_a_test_case(obj: object) -> bool:
    return isinstance(obj, unittest.TestCase)


# Modules a test may patch in the code's process too (monkeypatch.setattr(random, "random", ...)): the standard
# library's, and the code's own (the solution module).
_PATCHABLE = frozenset(sys.stdlib_module_names) | {"solution"}


class TestsSide:
    """Peer.hooks of the tests' process."""

    source_file = "tests.py"

    def __init__(self, is_test_failure) -> None:
        self.peer = None
        self.is_test_failure = is_test_failure
        self.stdout, self.stderr = sys.stdout, sys.stderr
        self.stdin = self.stdin_sent = sys.stdin
        self.argv_sent = list(sys.argv)
        self.env = dict(os.environ)
        self.env_raw = environment.raw()
        self.decimals: tuple | None = None  # the decimal context's settings as the two last agreed
        self.swallowed: list[BaseException] = []
        self._served = threading.local()  # per thread: threads the code starts may call the tests at once
        self.handover = Handover()
        self.names = shared_names.TestsNames()
        self.pacer = one_cpu.Pacer()
        self.loop_sender = running_loop.Sender()  # the test's running loop, the code's too while it serves a request
        import warnings

        self.warning_state = (warnings.filters, warnings.showwarning, getattr(warnings, "_showwarnmsg_impl", None))

    @property
    def streams_served(self) -> list[tuple | None]:
        """The tests' streams around each call of theirs the code makes on this thread."""
        found = getattr(self._served, "streams", None)
        if found is None:
            found = self._served.streams = []
        return found

    def fetch_notes(self) -> None:
        """Ask the code's process for what it noted that no answer has brought yet: a thread of the code's that
        called a test's function (THREAD_CALLBACK) after the call that started it had returned, while the test waited
        on its own (``done.wait(2)``), so that the failing test is not judged, as it would be had another call
        followed."""
        peer = self.peer
        if peer is None or peer.dead or peer.abandoned:
            return  # gone, or maybe still busy with a call the test left (its own time limit): nothing to wait for
        try:
            peer.request("notes", ("m", "solution"))
        except Exception:  # the code's process gone or refusing: what it noted stays unsaid, as before
            pass

    def before_request(self) -> dict | None:
        extra = {}
        # The raw mapping compares in a microsecond where dict(os.environ) decodes every entry: a test may call the
        # code 20,000 times and change the environment never.
        raw = getattr(os.environ, "_data", None)
        if type(raw) is not dict or raw != self.env_raw:
            self.env_raw = environment.raw()
            env = dict(os.environ)
            if env != self.env:
                extra["env"] = self.env = env
        self.pacer.tick()
        if self.pacer.announce is not None:
            extra["cpu"], self.pacer.announce = self.pacer.announce, None
        if sys.stdout is not self.stdout or sys.stderr is not self.stderr:
            extra["capture"] = True
        levels = _log_levels()
        if levels is not None:
            extra["log"] = levels
        # A test that sets sys.stdin or sys.argv itself (sys.stdin = io.StringIO("3\n"), not monkeypatch's way)
        # sets the code's: one process has one sys. The tests' own stdin sends None: the code's own again.
        if sys.stdin is not self.stdin_sent:
            self.stdin_sent = sys.stdin
            extra["stdin"] = None if sys.stdin is self.stdin else self.peer.encode(sys.stdin)
        if sys.argv != self.argv_sent:
            argv = environment.argv_list(sys.argv)
            if argv is not None:
                extra["argv"] = self.argv_sent = argv
        decimals = decimal_context.settings()
        if decimals is not None and decimals != self.decimals:
            extra["decimal"] = self.decimals = decimals
        import warnings

        if (warnings.filters, warnings.showwarning, getattr(warnings, "_showwarnmsg_impl", None)) != self.warning_state:
            extra["warn"] = True
        loop = self.loop_sender.sent(self.peer.encode)
        if loop:
            extra.update(loop)
        return self._names_out(self.handover.outgoing(extra or None))

    def _names_out(self, extra: dict | None) -> dict | None:
        rebound = self.names.outgoing(self.peer.encode)
        return {**(extra or {}), "names": rebound} if rebound else extra

    def after_answer(self, extra: dict) -> None:
        """Take on the working directory and the random generators' state the code left, and write, log and warn
        here what it did during the call."""
        try:
            self.handover.incoming(extra)
        except BadState as exc:  # never an error inside the test (a pytest.raises(ValueError) would take it)
            raise self.peer._garbled(str(exc)) from None
        if "names" in extra:
            self.names.incoming(extra["names"], self.peer.decode)
        if "copies_changed" in extra:
            self.names.copies_changed(extra["copies_changed"])
        for name, stream in (("out", sys.stdout), ("err", sys.stderr)):
            text = extra.get(name)
            if type(text) is str and text:
                if _mocked(stream):
                    raise unsupported.Unsupported(unsupported.STREAM_MOCKED)
                stream.write(text)
        records = extra.get("logs")
        if type(records) is list:
            _log(records, self.peer.decode)
        argv = environment.argv_list(extra.get("argv"))
        if argv is not None:  # the code's sys.argv[1:] = [...]: the tests' too
            sys.argv, self.argv_sent = argv, list(argv)  # two lists: a test's change in place is then seen
        if environment.apply(extra.get("env_changes")):  # as sent with the next request: what it now is here
            self.env, self.env_raw = dict(os.environ), environment.raw()
        if "decimal" in extra and decimal_context.apply(extra["decimal"]):
            self.decimals = extra["decimal"]  # the code's change to the context, as one process would keep it
        caught = extra.get("warnings")
        if type(caught) is list:
            self._warn(caught)
        if "process" in extra:  # after the call's warnings: filters it added later did not stop those
            process_state.apply(extra["process"], self.peer.decode)

    def before_serving(self, extra: dict | None) -> None:
        self.pacer.tick()  # a callback the code calls 20,000 times crosses as often as a call of the tests
        if extra:
            self.after_answer(extra)
        redirect = extra.get("redirect") if extra else None
        for_a_code_thread = self.peer is not None and self.peer.channels.for_a_code_thread()
        name = extra.get("thread") if extra else None
        if for_a_code_thread and type(name) is str:
            threading.current_thread().name = name[:200]  # the code's thread's, as the function runs on it there
        if type(redirect) is dict and for_a_code_thread:
            # A thread the code started: the tests' streams are one for the process, and such calls overlap (a
            # pool), so their redirects would be undone out of order and leave a buffer of the code's as sys.stdout.
            unsupported.note(unsupported.REDIRECT_ON_A_CODE_THREAD)
            redirect = None
        if type(redirect) is dict:  # the code's redirect_stdout around this call of the tests' function
            self.streams_served.append((sys.stdout, sys.stderr))
            for name in ("stdout", "stderr"):
                if name in redirect:
                    setattr(sys, name, self.peer.decode(redirect[name]))
        else:
            self.streams_served.append(None)  # what the function itself does to the streams stays

    def after_serving(self) -> dict | None:
        streams = self.streams_served.pop() if self.streams_served else None
        if streams is not None:
            sys.stdout, sys.stderr = streams
        extra = None
        if self.pacer.announce is not None:
            extra, self.pacer.announce = {"cpu": self.pacer.announce}, None
        return self._names_out(self.handover.outgoing(extra))

    def raised(self, exc: BaseException) -> None:
        """A function of the tests the code called raised: if it was a failing assert, the test fails even if the
        code catches it."""
        if self.is_test_failure(exc):
            self.swallowed.append(exc)

    def check_touch(self, obj: object) -> None:
        """Refuse the code any use of obj that is the sandbox's own (the Reporter, the peer, the pytest stand-in's
        fixtures: not judged, as a test that hands the code its monkeypatch is one the sandbox cannot run as one
        process would) or a contextvars.Context of the tests' (its run() would call what the code names here, its
        items are theirs); the code may hand either back."""
        if harness_guard.is_the_harness(obj):
            if harness_guard.is_a_fixture(obj):
                raise unsupported.Unsupported(unsupported.HARNESS_OBJECT.format(kind=type(obj).__name__))
            raise TypeError("the code under test may not use the sandbox's own objects")
        if harness_guard.is_a_context(obj):
            raise TypeError("the code under test may not use a contextvars.Context of the tests'")

    def may_read(self, obj: object, name: str) -> bool:
        """The code may read the public attributes of what the tests hand it, a function's names (for
        functools.wraps) and an Enum's members; never a private one, nor __self__ or __class__, which reach into the
        test harness. Of a frame, traceback or code object nothing: a frame's globals are the tests' module's, its
        f_back the harness's, a code object's constants the hidden tests' values. Of an event loop, a future or task
        only what asyncio's primitives use (harness_guard.may_read), nothing of a builtin type's __dict__."""
        if isinstance(obj, (types.FrameType, types.TracebackType, types.CodeType)) or name in _FRAME_NAMES:
            return False
        asyncio_rule = harness_guard.may_read(obj, name)
        if asyncio_rule is not None:
            return asyncio_rule
        if name in _MOCK_RESETS and _is_a_mock(obj):
            return False  # it would forget the calls the test checks next (assert_not_called after reset_mock)
        if _is_a_test_case(obj) and name in vars(unittest.TestCase) and not name.startswith(("assert", "fail")) \
                and name not in ("subTest", "id", "shortDescription", "maxDiff", "longMessage"):
            return False  # unittest's own machinery (addTypeEqualityFunc, addCleanup) would change how it checks
        if name == "__dict__" and isinstance(obj, type) and not obj.__flags__ & harness_guard.HEAP_TYPE:
            return False  # a builtin type's descriptors (a frame's f_globals) would read past this rule
        return not name.startswith("_") or name in ("__name__", "__qualname__", "__doc__", "__module__", "__dict__",
                                                    "__wrapped__", "__annotations__", "__members__")

    def may_change(self, obj: object, name: str) -> bool:
        """The code may set the public data attributes of the tests' objects (user.name = ...), never replace a
        method or anything callable, so it cannot turn off a check the tests run later (mock.assert_called_once)."""
        if name.startswith("_"):
            # asyncio's gather and wait_for mark a task they made on the tests' loop (asyncio.create_task's flags)
            return name in harness_guard.FUTURE_FLAGS and harness_guard.is_a_future(obj)
        if name in _MOCK_RECORDS and _is_a_mock(obj):
            return False  # what a mock recorded is the calls made (call_count = 1 would pass assert_called_once)
        try:
            current = getattr(obj, name)
        except AttributeError:
            return True
        return not callable(current)

    def resolve(self, target: tuple) -> object:
        raise LookupError("the tests' process has no globals to offer")

    def perform(self, op: str, obj: object, args: tuple) -> object:
        raise ValueError(f"unknown operation {op!r}")

    def _warn(self, caught: list) -> None:
        import warnings

        for item in caught:
            if type(item) is not tuple or len(item) != 3:
                continue
            try:
                category = self.peer.decode(item[0])
            except Exception:
                category = UserWarning
            if not (isinstance(category, type) and issubclass(category, Warning)):
                category = UserWarning
            warnings.warn_explicit(str(item[1]), category, "solution.py", item[2] if type(item[2]) is int else 0)

    def patch(self, module: types.ModuleType, name: str, value: object) -> None:
        """Set a module's attribute in the code's process too (a test's monkeypatch or mock.patch)."""
        module_name = _patched_there(module, name)
        if module_name:
            self.peer.request("patch", ("m", module_name), name, self.peer.encode(value))

    def restore(self, module: types.ModuleType, name: str) -> None:
        module_name = _patched_there(module, name)
        if module_name:
            self.peer.request("restore", ("m", module_name), name)


def _mocked(stream: object) -> bool:
    """Is stream a unittest.mock object (patch("sys.stdout") without new_callable)?"""
    mock = sys.modules.get("unittest.mock")
    return mock is not None and isinstance(stream, mock.NonCallableMock)


_OWN_STREAMS = frozenset({"stdout", "stderr", "__stdout__", "__stderr__"})


def _patched_there(module: types.ModuleType, name: str) -> str | None:
    """The name of a module whose attribute a test's patch sets in the code's process too, or None. Not sys.stdout
    and sys.stderr: what the code prints reaches whatever the tests' own are as each answer comes (``out``), as
    when a test sets them itself; the code's writing through a stand-in of a test's buffer waited on the tests'
    process while it waited on the code's (a hang)."""
    module_name = getattr(module, "__name__", None)
    if module_name == "sys" and name in _OWN_STREAMS:
        return None
    if module_name in _PATCHABLE or str(module_name).split(".")[0] in _PATCHABLE:
        return module_name
    return None


def follow_mock_patches(side: TestsSide) -> None:
    """unittest.mock.patch of a module the code uses (``patch("builtins.input", return_value="42")``) patches it in
    the code's process too, for as long as the patch lasts."""
    from unittest import mock

    enter, leave = mock._patch.__enter__, mock._patch.__exit__

    def patched_enter(patch: object) -> object:
        made = enter(patch)
        target = patch.getter()
        if isinstance(target, types.ModuleType) and not isinstance(target, SolutionModule):
            side.patch(target, patch.attribute, getattr(target, patch.attribute))
        return made

    def patched_exit(patch: object, *exc_info: object) -> object:
        target = patch.getter() if hasattr(patch, "getter") else None
        outcome = leave(patch, *exc_info)
        if isinstance(target, types.ModuleType) and not isinstance(target, SolutionModule):
            side.restore(target, patch.attribute)
        return outcome

    mock._patch.__enter__, mock._patch.__exit__ = patched_enter, patched_exit


class SolutionModule(types.ModuleType):
    """The module ``solution`` as the tests see it: the code's names, and setting one sets it in the code's process
    too (``monkeypatch.setattr(solution, "helper", fake)`` replaces the helper the code's own functions call)."""

    def __setattr__(self, name: str, value: object) -> None:
        side = self.__dict__.get("_sbx_side")
        if side is not None and not name.startswith("__"):
            side.peer.request("patch", ("m", "solution"), name, side.peer.encode(value))
        types.ModuleType.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        side = self.__dict__.get("_sbx_side")
        if side is not None and not name.startswith("__"):
            side.peer.request("unset", ("m", "solution"), name)
        types.ModuleType.__delattr__(self, name)


class CodeModuleFinder:
    """On sys.meta_path of the tests' process: finds the code's module only to run it again, for
    ``importlib.reload(solution)``, which asks the code's process to (a test resetting the module's state, or reading
    an environment variable it set). Any other import of that name finds the stand-in in sys.modules first; nothing
    here ever executes a file in the tests' process."""

    def __init__(self, module: SolutionModule, names: frozenset[str]) -> None:
        from importlib.machinery import ModuleSpec

        self.module, self.names = module, names
        self.spec = ModuleSpec("solution", self, origin=module.__dict__.get("__file__"))
        self.spec.has_location = True  # reload sets __file__ from the origin, where one process's file would be
        types.ModuleType.__setattr__(module, "__spec__", self.spec)
        types.ModuleType.__setattr__(module, "__loader__", self)

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        return self.spec if name in self.names and target is self.module else None

    def create_module(self, spec: object) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        """Run the code again in its process; the names it binds come back with the answer (shared_names)."""
        side = module.__dict__.get("_sbx_side")
        if module is not self.module or side is None:
            raise ImportError("only the code's module can be run again")
        side.peer.request("reload", ("m", "solution"))


def teach_runpy(module: types.ModuleType, names: frozenset[str]) -> None:
    """runpy in this process runs the code's module as a program in the code's process (a test of its ``if __name__
    == "__main__":`` block: ``runpy.run_module("solution", run_name="__main__")``, or run_path of its file); any
    other module or path as runpy does. Never a file of the code's executed here."""
    runpy = sys.modules.get("runpy")
    if runpy is None or getattr(runpy, "_sbx_taught", False):
        return
    run_module, run_path = runpy.run_module, runpy.run_path
    origin = module.__dict__.get("__file__")

    def as_program(run_name: str, init_globals: object) -> object:
        side = module.__dict__.get("_sbx_side")
        if side is None:
            raise ImportError("the code's module cannot be run here")
        return side.peer.request("run_main", ("m", "solution"), run_name, side.peer.encode(init_globals))

    def taught_run_module(mod_name, init_globals=None, run_name=None, alter_sys=False):
        if mod_name in names:
            return as_program(mod_name if run_name is None else run_name, init_globals)
        return run_module(mod_name, init_globals, run_name, alter_sys)

    def taught_run_path(path_name, init_globals=None, run_name=None):
        if type(origin) is str and isinstance(path_name, (str, os.PathLike)) and \
                os.path.normpath(os.fspath(path_name)) == os.path.normpath(origin):
            return as_program("<run_path>" if run_name is None else run_name, init_globals)
        return run_path(path_name, init_globals, run_name)

    runpy.run_module, runpy.run_path, runpy._sbx_taught = taught_run_module, taught_run_path, True


def _log_levels() -> dict | None:
    """When the tests' logging has a handler (caplog, basicConfig, assertLogs, a handler of their own on the code's
    logger): the levels the tests set, by logger."""
    logging = sys.modules.get("logging")
    if logging is None:
        return None
    loggers = [(name, logger) for name, logger in list(logging.root.manager.loggerDict.items())
               if isinstance(logger, logging.Logger)]
    if not logging.root.handlers and not any(logger.handlers for _, logger in loggers):
        return None
    levels = {"": logging.root.level}
    for name, logger in loggers:
        if logger.level != logging.NOTSET:
            levels[name] = logger.level
    return levels


def _log(records: list, decode) -> None:
    import logging

    for record in records[:10000]:
        if type(record) is not dict:
            continue
        fields = {k: record[k] for k in ("name", "levelname", "msg", "funcName", "exc_text", "stack_info")
                  if type(record.get(k)) is str}
        fields.update({k: record[k] for k in ("levelno", "lineno") if type(record.get(k)) is int})
        args = record.get("args")
        plain = type(args) is tuple and all(type(a) in LOG_ARGS for a in args)
        objects = _decoded(record.get("objects"), decode)
        # Plain values under names of their own only: one named as a LogRecord's method or field (getMessage,
        # levelno) would replace it on the record here.
        extra = record.get("extra") if type(record.get("extra")) is dict else {}
        extra = {k: v for k, v in list(extra.items())[:200] if type(k) is str and type(v) in LOG_ARGS
                 and k not in record_fields() and not hasattr(logging.LogRecord, k)}
        made = logging.makeLogRecord({**extra, **fields,
                                      "args": args if plain else None, "pathname": "solution.py",
                                      "filename": "solution.py", "module": "solution"})
        exc = objects.get("exc")
        if isinstance(exc, BaseException):
            made.exc_info = (type(exc), exc, None)
        message = record.get("message")
        if type(objects.get("args")) is tuple and type(message) is str:
            made.args = objects["args"]
            made.__class__ = _formatted_record()
            made.__class__.messages[made] = message
        logging.getLogger(fields.get("name") or None).handle(made)


def _decoded(objects: object, decode) -> dict:
    """A record's objects (its args, its exception) as the tests hold them; one that does not decode is left out, as
    the code's side leaves out one it cannot send: a log line never fails a test's call."""
    found = {}
    if type(objects) is not dict:
        return found
    for key in ("args", "exc"):
        if key in objects:
            try:
                found[key] = decode(objects[key])
            except Exception:
                continue
    return found


_formatted_record_class = None


def _formatted_record():
    """A LogRecord whose message is the one the code's process formatted: its args are the code's objects, and
    formatting them again here would call the code back from inside a log handler."""
    global _formatted_record_class
    if _formatted_record_class is None:
        import logging
        import weakref

        messages = weakref.WeakKeyDictionary()

        class LogRecord(logging.LogRecord):
            def getMessage(self) -> str:
                return messages.get(self, self.msg)

        LogRecord.messages = messages
        _formatted_record_class = LogRecord
    return _formatted_record_class
