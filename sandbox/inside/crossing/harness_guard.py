"""What the code may use in the tests' process beyond the plain rule of testside_sync.may_read: the tests' event loop,
futures and tasks, which it shares since one loop runs both processes (running_loop.py), and never the sandbox's own
objects there.

Runs inside the sandbox (stdlib only), in the tests' process. The code reaches only the loop's methods asyncio's own
primitives use (``LOOP_NAMES``): never its task factory, exception handler or ``stop()``, which would reach coroutines
of the tests' never handed to it. The loop runs for the code only the code's own functions and what the tests handed
it (``watched``), and a failing check of the tests' it runs so is seen as one the code hid. The Reporter, the peer,
the pytest stand-in's fixtures and this module's wrappers are the harness (``is_the_harness``).
"""

from __future__ import annotations

import sys
import types
import weakref

import proxies
import unsupported

# What asyncio's futures, tasks, sleeps, locks, queues, timeouts and executors ask of the running loop.
LOOP_NAMES = frozenset({
    "time", "create_future", "create_task", "call_soon", "call_later", "call_at", "call_soon_threadsafe",
    "get_debug", "is_running", "is_closed", "run_in_executor", "slow_callback_duration",
})

# The loop's methods that run a function later: where the function is among their arguments, and its keyword.
SCHEDULERS = {"call_soon": (0, "callback"), "call_soon_threadsafe": (0, "callback"), "call_later": (1, "callback"),
              "call_at": (1, "callback"), "run_in_executor": (1, "func")}

# The builtins the code may hand the tests' loop by name (they cross as the tests' own): none reads an attribute of
# what it is given. getattr, vars or type would read the tests' objects past may_read.
_PLAIN_BUILTINS = frozenset({
    "builtins.print", "builtins.sum", "builtins.sorted", "builtins.len", "builtins.min", "builtins.max",
    "builtins.abs", "builtins.round", "builtins.any", "builtins.all", "builtins.repr", "builtins.format",
    "builtins.divmod", "builtins.pow", "builtins.chr", "builtins.ord", "builtins.hex", "builtins.bin", "builtins.oct",
    "builtins.hash", "builtins.callable",
    *(f"_operator.{name}" for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "neg", "pos", "eq", "ne",
                                        "lt", "le", "gt", "ge", "not_", "truth", "and_", "or_", "xor", "concat")),
})

# What the code reads of a future or task of the tests': what asyncio's own awaits, gather, wait_for and shield read
# and set of one another module made (the flags, how a cancelled one says so). Never get_stack(), print_stack() or
# get_coro(): a task's frames and coroutine are the test's own (its globals, its text).
FUTURE_FLAGS = frozenset({"_log_destroy_pending", "_asyncio_future_blocking"})
FUTURE_NAMES = FUTURE_FLAGS | {
    "_make_cancelled_error", "_cancel_message", "result", "exception", "done", "cancelled", "cancel", "cancelling",
    "uncancel", "add_done_callback", "remove_done_callback", "set_result", "set_exception", "get_loop", "get_name",
    "set_name",
}


def may_read(obj: object, name: str) -> bool | None:
    """Whether the code may read name of the tests' obj where obj is an event loop, a future or task; None for
    anything else (a contextvars.Context of the tests' it may not use at all: testside_sync.check_touch)."""
    if is_a_loop(obj):
        return name in LOOP_NAMES
    if is_a_future(obj):
        return name in FUTURE_NAMES
    return None


def as_handed(obj: object, name: str, value: object, hooks) -> object:
    """What the code gets for a name it read of the tests' loop or future: a method that runs a function later
    takes only functions the code may have run there (may_run), and watches those of the tests', so that a check of
    theirs that fails there is seen (hooks.raised) even where the loop only logs it."""
    if name in SCHEDULERS and is_a_loop(obj):
        value = _scheduling(value, *SCHEDULERS[name], name == "run_in_executor", hooks)
    elif name == "add_done_callback" and is_a_future(obj):
        value = _scheduling(value, 0, "fn", False, hooks)
    elif name == "remove_done_callback" and is_a_future(obj):
        value = _removing(value)
    elif name == "create_task" and is_a_loop(obj):
        value = _watching_task(value, hooks)
    else:
        return value
    _HANDED.add(value)  # the sandbox's own functions that the code may call (is_the_harness)
    return value


_HANDED: weakref.WeakSet = weakref.WeakSet()
# The pytest stand-in's values a test may hand the code (pytest.approx(0.3)): compared, nothing more. Its fixtures
# (monkeypatch, request, capsys) are the harness: monkeypatch.setattr("tests.x", ...) would change the tests' module.
_HANDED_VALUES = frozenset({"_Approx", "ExceptionInfo", "LocalPath"})


def _own_context(kwargs: dict) -> None:
    """A context the loop runs a function in is one of the tests' own (a task's, handed back): the loop calls
    context.run(function), so an object of the code's there would be handed what the loop runs."""
    import contextvars

    context = kwargs.get("context")
    if context is not None and type(context) is not contextvars.Context:
        raise TypeError("context must be a contextvars.Context")


def _removing(remove_done_callback):
    def remove(fn: object) -> int:
        # found by identity: the future compares each callback it holds with fn, and an object of the code's would
        # be handed each (its reflected __eq__)
        return remove_done_callback(_Identity(fn))
    return remove


class _Identity:
    __slots__ = ("_fn",)

    def __init__(self, fn: object) -> None:
        self._fn = fn

    def __eq__(self, other: object) -> bool:
        return other is self._fn or (isinstance(other, _Watched) and other._fn is self._fn)

    __hash__ = None


def _watching_task(create_task, hooks):
    def create(coro: object, *args: object, **kwargs: object) -> object:
        _own_context(kwargs)
        task = create_task(coro, *args, **kwargs)
        if proxies.ref_of(coro) is None:  # a coroutine of the tests': its failing check is seen, read or not
            task.add_done_callback(lambda done: _seen(done, hooks))
        return task
    return create


def _seen(task: object, hooks) -> None:
    if not task.cancelled() and task.exception() is not None:
        hooks.raised(task.exception())


def _scheduling(method, at: int, keyword: str, executor: bool, hooks):
    def schedule(*args: object, **kwargs: object) -> object:
        _own_context(kwargs)
        if executor and "executor" in kwargs and not args:
            args = (kwargs.pop("executor"),)
        if len(args) == at and keyword in kwargs:  # passed by keyword (call_soon(callback=f)): watched the same
            args = (*args, kwargs.pop(keyword))
        if executor and args and args[0] is not None:
            raise TypeError("the code may run a function only on the tests' default executor (None)")
        if len(args) > at:
            args = (*args[:at], watched(args[at], hooks), *args[at + 1:])
        return method(*args, **kwargs)
    return schedule


def watched(fn: object, hooks) -> object:
    """fn as the tests' loop may run it for the code: the code's own as it is, a function or object of the tests'
    the code was handed watched (_Watched); anything else refused (a builtin it names, getattr or type, would read
    the tests' objects past what the code may read)."""
    if proxies.ref_of(fn) is not None or isinstance(fn, _Watched) or not callable(fn):
        return fn  # the code's own, or no function at all (the loop says so, as in one process)
    if isinstance(fn, types.FunctionType) or (isinstance(fn, types.MethodType)
                                              and isinstance(fn.__func__, types.FunctionType)):
        return _Watched(fn, hooks)
    owner = getattr(fn, "__self__", None)
    if isinstance(fn, types.BuiltinMethodType) and not isinstance(owner, types.ModuleType):
        return _Watched(fn, hooks)  # a method of an object of the tests' (their list's append, a task's wakeup)
    if isinstance(fn, types.BuiltinFunctionType) and f"{getattr(owner, '__name__', '')}.{fn.__name__}" in \
            _PLAIN_BUILTINS:
        return fn
    if not isinstance(fn, type) and type(fn).__flags__ & HEAP_TYPE and callable(fn) and not is_the_harness(fn):
        return _Watched(fn, hooks)  # an object of a class the tests wrote, or a mock
    name = getattr(fn, "__name__", None)
    raise unsupported.Unsupported(unsupported.LOOP_RUNS_A_BUILTIN.format(
        name=name if type(name) is str else type(fn).__name__))


HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement, not one built in C


class _Watched:
    """A function of the tests' that their loop runs for the code: a failing check in it is the code's to hide as
    if the code had called it (hooks.raised), where the loop would only log it. Equal to the function, so
    remove_done_callback finds it."""

    __slots__ = ("_fn", "_hooks")

    def __init__(self, fn: object, hooks) -> None:
        self._fn, self._hooks = fn, hooks

    def __call__(self, *args: object, **kwargs: object) -> object:
        try:
            return self._fn(*args, **kwargs)
        except BaseException as exc:
            self._hooks.raised(exc)
            raise

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Identity):
            return other._fn is self._fn
        return other is self or other is self._fn or (isinstance(other, _Watched) and other._fn is self._fn)

    def __hash__(self) -> int:
        return hash(id(self._fn))


def is_the_harness(obj: object) -> bool:
    """Whether obj is the sandbox's own in the tests' process (a module of it, or an object of one of its classes:
    the Reporter, the peer, this module's _Watched, a function or bound method of theirs, the pytest stand-in's
    fixtures), which the code may never touch, whatever it holds; but pytest.approx's value, the tests' to hand
    over."""
    if (isinstance(obj, types.FunctionType) and (obj in _HANDED or obj.__module__ == "pytest_shim")) \
            or type(obj).__name__ in _HANDED_VALUES:
        return False  # the sandbox's functions handed on purpose, pytest's API (approx), its values
    if isinstance(obj, types.ModuleType):
        module = obj.__name__
    elif isinstance(obj, (types.MethodType, types.BuiltinMethodType)) and not isinstance(obj.__self__,
                                                                                         types.ModuleType):
        return is_the_harness(obj.__self__)  # a method of the harness's objects (a test's Thread.start is refusals')
    elif isinstance(obj, (type, types.FunctionType)):  # a class by its own module (a test's class on the code's has
        module = obj.__module__                         # a metaclass of the sandbox's), a function by its own
    else:
        module = type(obj).__module__
    return module in _harness_modules()


def is_a_fixture(obj: object) -> bool:
    """Whether obj is an object of the pytest stand-in's (a monkeypatch, a request, capsys), which a test may hand
    the code as one process would let it."""
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)):
        obj = obj.__self__  # a fixture's method (caplog.clear, monkeypatch.setenv)
    module = obj.__module__ if isinstance(obj, (type, types.FunctionType)) else getattr(type(obj), "__module__", None)
    return module in ("fixtures", "pytest_shim", "pytest_run", "asserts")


def _harness_modules() -> frozenset:
    global _HARNESS
    if _HARNESS is None:
        import os

        inside = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        # refusals.py wraps standard functions in every run (Thread.start): they are the standard library's there
        _HARNESS = frozenset(name for name, module in list(sys.modules.items())
                             if isinstance(getattr(module, "__file__", None), str)
                             and module.__file__.startswith(inside + os.sep) and name != "refusals")
    return _HARNESS


_HARNESS: frozenset | None = None


def is_a_context(obj: object) -> bool:
    """Whether obj is a contextvars.Context (of the tests': the code may hand one back, never use it)."""
    import contextvars

    return type(obj) is contextvars.Context


def is_a_loop(obj: object) -> bool:
    """Whether obj is an asyncio event loop (the tests' side limits what the code reads of one: LOOP_NAMES)."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and isinstance(obj, asyncio.AbstractEventLoop)


def is_a_future(obj: object) -> bool:
    """Whether obj is an asyncio future or task."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and isinstance(obj, asyncio.Future)
