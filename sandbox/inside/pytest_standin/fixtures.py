"""pytest's fixtures inside the sandbox: the builtin ones people use, and those a test file defines, with their
scopes, params, autouse and yield teardown.

Runs inside the sandbox (stdlib only), in the tests' process. The builtin fixtures work on the code's process too,
through what each request carries (testside_sync): capsys and capfd see what the code printed during the test,
caplog what it logged, monkeypatch's setenv and chdir are the code's environment and directory, and its setattr on a
module the code uses (the solution module, random, builtins.input) patches that module in the code's process.
tmp_path is a folder of the run's shared directory, which both processes may read and write and nothing else can.
"""

from __future__ import annotations

import collections
import contextlib
import inspect
import io
import os
import re
import sys

from shapes import BUILTIN_FIXTURES

_side = None  # testside_sync.TestsSide of this process, set by testrunner


def attach(side: object) -> None:
    """Give the fixtures the tests' side of the protocol (monkeypatch patches the code's modules through it)."""
    global _side
    _side = side


class FixtureError(Exception):
    """A test asks for a fixture nobody defines, or fixtures that ask for each other in a circle."""


CaptureResult = collections.namedtuple("CaptureResult", "out err")


class Capture:
    """capsys / capfd: what the test and the code printed during the test, read with readouterr()."""

    def __init__(self, binary: bool = False, fd_level: bool = False) -> None:
        self.binary = binary
        self.saved = (sys.stdout, sys.stderr)
        self.out, self.err = io.StringIO(), io.StringIO()
        # capfd: the code's process watches what it writes below sys.stdout, which is not captured (unsupported.py)
        self.out._sbx_fd_level = fd_level
        sys.stdout, sys.stderr = self.out, self.err

    def readouterr(self) -> CaptureResult:
        out, err = self.out.getvalue(), self.err.getvalue()
        for stream in (self.out, self.err):
            stream.seek(0)
            stream.truncate()
        return CaptureResult(out.encode(), err.encode()) if self.binary else CaptureResult(out, err)

    @contextlib.contextmanager
    def disabled(self):
        sys.stdout, sys.stderr = self.saved
        try:
            yield
        finally:
            sys.stdout, sys.stderr = self.out, self.err

    def close(self) -> None:
        sys.stdout, sys.stderr = self.saved


class LogCapture:
    """caplog: the log records of the test and of the code, with set_level and at_level."""

    def __init__(self) -> None:
        import logging

        class Handler(logging.Handler):
            def __init__(handler) -> None:  # noqa: N805
                super().__init__(0)
                handler.records: list = []
                handler.stream = io.StringIO()
                handler.setFormatter(logging.Formatter("%(levelname)-8s %(name)s:%(filename)s:%(lineno)d %(message)s"))

            def emit(handler, record) -> None:  # noqa: N805
                handler.records.append(record)
                handler.stream.write(handler.format(record) + "\n")

        self.handler = Handler()
        self.saved_levels: dict = {}
        logging.getLogger().addHandler(self.handler)

    @property
    def records(self) -> list:
        return self.handler.records

    @property
    def record_tuples(self) -> list:
        return [(r.name, r.levelno, r.getMessage()) for r in self.records]

    @property
    def messages(self) -> list:
        return [r.getMessage() for r in self.records]

    @property
    def text(self) -> str:
        return self.handler.stream.getvalue()

    def clear(self) -> None:
        self.handler.records.clear()
        self.handler.stream = io.StringIO()

    def set_level(self, level: int | str, logger: str | None = None) -> None:
        import logging

        target = logging.getLogger(logger)
        self.saved_levels.setdefault(logger, target.level)
        target.setLevel(level)

    @contextlib.contextmanager
    def at_level(self, level: int | str, logger: str | None = None):
        import logging

        target = logging.getLogger(logger)
        before = target.level
        target.setLevel(level)
        try:
            yield self
        finally:
            target.setLevel(before)

    def close(self) -> None:
        import logging

        logging.getLogger().removeHandler(self.handler)
        for name, level in self.saved_levels.items():
            logging.getLogger(name).setLevel(level)


_NOTSET = object()


class MonkeyPatch:
    """monkeypatch: setattr, delattr, setitem, delitem, setenv, delenv, chdir, syspath_prepend, undone at the end.

    Setting an attribute of a module the code uses also sets it in the code's process (testside_sync)."""

    def __init__(self) -> None:
        self._undo: list = []

    @classmethod
    @contextlib.contextmanager
    def context(cls):
        patch = cls()
        try:
            yield patch
        finally:
            patch.undo()

    def setattr(self, target: object, name: object = _NOTSET, value: object = _NOTSET, raising: bool = True) -> None:
        if isinstance(target, str):
            value, (target, name) = name, _resolve(target)
        old = getattr(target, name, _NOTSET)
        if old is _NOTSET and raising:
            raise AttributeError(f"{target!r} has no attribute {name!r}")
        if inspect.isclass(target) and name in vars(target):
            old = vars(target)[name]  # a staticmethod or classmethod comes back as itself
        setattr(target, name, value)
        self._undo.append(("attr", target, name, old))
        if _side is not None and isinstance(target, type(sys)) and type(target).__name__ != "SolutionModule":
            _side.patch(target, name, value)

    def delattr(self, target: object, name: object = _NOTSET, raising: bool = True) -> None:
        if isinstance(target, str) and name is _NOTSET:
            target, name = _resolve(target)
        if not hasattr(target, name):
            if raising:
                raise AttributeError(name)
            return
        self._undo.append(("attr", target, name, getattr(target, name)))
        delattr(target, name)

    def setitem(self, mapping: object, name: object, value: object) -> None:
        self._undo.append(("item", mapping, name, mapping.get(name, _NOTSET) if hasattr(mapping, "get") else _NOTSET))
        mapping[name] = value

    def delitem(self, mapping: object, name: object, raising: bool = True) -> None:
        if name not in mapping:
            if raising:
                raise KeyError(name)
            return
        self._undo.append(("item", mapping, name, mapping[name]))
        del mapping[name]

    def setenv(self, name: str, value: object, prepend: str | None = None) -> None:
        value = str(value)
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self.setitem(os.environ, name, value)

    def delenv(self, name: str, raising: bool = True) -> None:
        self.delitem(os.environ, name, raising)

    def chdir(self, path: object) -> None:
        self._undo.append(("cwd", os.getcwd()))
        os.chdir(path)

    def syspath_prepend(self, path: object) -> None:
        self._undo.append(("path", list(sys.path)))
        sys.path.insert(0, str(path))

    def undo(self) -> None:
        for entry in reversed(self._undo):
            kind = entry[0]
            if kind == "attr":
                _, target, name, old = entry
                if old is _NOTSET:
                    with contextlib.suppress(AttributeError):
                        delattr(target, name)
                else:
                    setattr(target, name, old)
                if _side is not None and isinstance(target, type(sys)) and type(target).__name__ != "SolutionModule":
                    _side.restore(target, name)
            elif kind == "item":
                _, mapping, name, old = entry
                if old is _NOTSET:
                    mapping.pop(name, None)
                else:
                    mapping[name] = old
            elif kind == "cwd":
                os.chdir(entry[1])
            elif kind == "path":
                sys.path[:] = entry[1]
        self._undo.clear()


def _resolve(dotted: str) -> tuple[object, str]:
    """("random.randint" -> the random module, "randint"), importing the longest module prefix."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:-1]:
            target = getattr(target, part)
        return target, parts[-1]
    raise AttributeError(f"cannot find a module to patch in {dotted!r}")


class WarningsRecorder(list):
    """recwarn: the warnings the test raised (and the code's, through testside_sync)."""

    def __init__(self) -> None:
        import warnings

        super().__init__()
        self.context = warnings.catch_warnings(record=True)
        self.extend_from = self.context.__enter__()
        warnings.simplefilter("always")

    @property
    def list(self) -> list:
        return self.extend_from

    def __len__(self) -> int:
        return len(self.extend_from)

    def __iter__(self):
        return iter(self.extend_from)

    def __getitem__(self, index: int) -> object:
        return self.extend_from[index]

    def pop(self, category: type = Warning) -> object:
        for index, item in enumerate(self.extend_from):
            if issubclass(item.category, category):
                return self.extend_from.pop(index)
        raise AssertionError(f"{category!r} not found in warning list")

    def clear(self) -> None:
        self.extend_from.clear()

    def close(self) -> None:
        self.context.__exit__(None, None, None)


class TempPathFactory:
    """tmp_path_factory: folders in the run's shared directory, which the code's process may use too."""

    def __init__(self) -> None:
        self.count = collections.Counter()

    def getbasetemp(self):
        import pathlib

        # The run's shared folder (the worker names it in the environment of both processes).
        return pathlib.Path(os.environ.get("SBX_SHARED") or os.environ.get("TMPDIR", "/tmp"))

    def mktemp(self, basename: str, numbered: bool = True):
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", basename)[:30] or "tmp"
        number = self.count[name]
        self.count[name] += 1
        path = self.getbasetemp() / (f"{name}{number}" if numbered else name)
        path.mkdir(mode=0o777)
        os.chmod(path, 0o777)  # the code's process runs as another user: the folder is both's
        return path


class Node:
    """request.node: the test's name and id, and its marks, its own first, then its class's and its module's
    (get_closest_marker, iter_markers), as a fixture reads a mark's data."""

    def __init__(self, name: str, function: object, cls: object) -> None:
        self.name, self.nodeid = name, f"tests.py::{name}"
        self.own_markers = _marks(function)
        module = getattr(function, "__globals__", {}).get("pytestmark", [])
        self._markers = [*self.own_markers, *_marks(cls), *_marks(type("module", (), {"pytestmark": module}))]

    def iter_markers(self, name: str | None = None):
        return iter([m for m in self._markers if name is None or m.name == name])

    def get_closest_marker(self, name: str, default: object = None) -> object:
        return next(self.iter_markers(name), default)


def _marks(target: object) -> list:
    found = getattr(target, "pytestmark", []) if target is not None else []
    found = found if isinstance(found, list) else [found]
    marks = [getattr(m, "mark", m) for m in found]
    return [m for m in marks if isinstance(getattr(m, "name", None), str)]


class Request:
    """request: the test's name, its param (a parametrized fixture's value), finalizers, getfixturevalue."""

    def __init__(self, resolver: Resolver, name: str, function: object, cls: object, instance: object) -> None:
        self._resolver, self.function, self.cls, self.instance = resolver, function, cls, instance
        self.node = Node(name, function, cls)
        self.fixturename = None
        self.param = None
        self.scope = "function"
        self.config = None

    def addfinalizer(self, finalizer: object) -> None:
        self._resolver.finalizers["function"].append(finalizer)

    def getfixturevalue(self, name: str) -> object:
        return self._resolver.value(name, self, ())


class Resolver:
    """Makes the fixtures a test asks for, once per scope, and tears them down when the scope ends."""

    def __init__(self, defined: dict) -> None:
        self.defined = defined  # name -> FixtureDef of the tests file (a class's own ones are added per class)
        self.cache: dict[str, dict] = {"session": {}, "module": {}, "class": {}, "function": {}}
        self.finalizers: dict[str, list] = {scope: [] for scope in self.cache}
        self.factory = TempPathFactory()
        self.params: dict[str, object] = {}
        self.module_error: BaseException | None = None  # what the file's setup_module raised (pytest_run)

    def closure(self, names: list[str], seen: tuple = ()) -> list[str]:
        """Every fixture these names need, their own needs first (raises FixtureError for an unknown one)."""
        order: list[str] = []
        for name in names:
            if name in seen:
                raise FixtureError(f"fixtures {' -> '.join((*seen, name))} ask for each other in a circle")
            if name in BUILTIN_FIXTURES:
                order.append(name)
                continue
            definition = self.defined.get(name)
            if definition is None:
                raise FixtureError(f"fixture {name!r} not found (defined in the tests file: "
                                   f"{', '.join(sorted(self.defined)) or 'none'}; "
                                   f"built in: {', '.join(BUILTIN_FIXTURES)})")
            order += self.closure(arguments(definition.fn), (*seen, name))
            order.append(name)
        return list(dict.fromkeys(order))

    def value(self, name: str, request: Request, stack: tuple) -> object:
        definition = self.defined.get(name)
        scope = definition.scope if definition and definition.scope in self.cache else "function"
        if name in self.cache[scope]:
            return self.cache[scope][name]
        if name in BUILTIN_FIXTURES:
            made = self._builtin(name, request)
        else:
            needed = {arg: (request if arg == "request" else self.value(arg, request, (*stack, name)))
                      for arg in arguments(definition.fn)}
            if "request" in needed:
                needed["request"] = _FixtureRequest(request, name, self.params.get(name), scope)
            made = definition.fn(**needed)
            if inspect.isgenerator(made):
                generator = made
                made = next(generator)
                self.finalizers[scope].append(lambda g=generator: _finish(g))
        self.cache[scope][name] = made
        return made

    def _builtin(self, name: str, request: Request) -> object:
        if name in ("capsys", "capfd", "capsysbinary", "capfdbinary"):
            made = Capture(binary=name.endswith("binary"), fd_level=name.startswith("capfd"))
            self.finalizers["function"].append(made.close)
        elif name in ("tmp_path", "tmpdir"):
            path = self.factory.mktemp(request.node.name)
            made = path if name == "tmp_path" else LocalPath(str(path))
        elif name in ("tmp_path_factory", "tmpdir_factory"):
            made = self.factory
        elif name == "monkeypatch":
            made = MonkeyPatch()
            self.finalizers["function"].append(made.undo)
        elif name == "caplog":
            made = LogCapture()
            self.finalizers["function"].append(made.close)
        elif name == "recwarn":
            made = WarningsRecorder()
            self.finalizers["function"].append(made.close)
        elif name == "record_property":
            made = lambda key, value: None  # noqa: E731
        else:
            made = request
        return made

    def end(self, scope: str) -> list[BaseException]:
        """Tear down a scope's fixtures (the last made first); returns what their teardown raised."""
        errors = []
        scopes = ("function",) if scope == "function" else ("function", scope)
        for name in scopes:
            while self.finalizers[name]:
                try:
                    self.finalizers[name].pop()()
                except BaseException as exc:  # the code's exit in a teardown fails it, as pytest errors
                    if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
                        raise
                    errors.append(exc)
            self.cache[name].clear()
        return errors


class _FixtureRequest(Request):
    def __init__(self, request: Request, name: str, param: object, scope: str) -> None:
        self.__dict__.update(request.__dict__)
        self.fixturename, self.param, self.scope = name, param, scope


def _finish(generator: object) -> None:
    try:
        next(generator)
    except StopIteration:
        return
    raise FixtureError("a yield fixture yielded twice")


def arguments(fn: object) -> list[str]:
    """The names a test or fixture function asks for (its parameters without defaults, self excluded), but the first
    ones a ``@mock.patch`` decorator fills with its mocks, as pytest leaves them out (``num_mock_patch_args``)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    names = [p.name for p in parameters if p.default is inspect.Parameter.empty
             and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "cls")]
    return names[_mock_patch_arguments(fn):] if hasattr(fn, "__wrapped__") else names


def _mock_patch_arguments(fn: object) -> int:
    """How many mocks the patch decorators on fn pass it: those that make one (no ``new``, not ``patch.multiple``)."""
    patchings = getattr(fn, "patchings", None)
    if not isinstance(patchings, list) or not patchings:
        return 0
    mock = sys.modules.get("unittest.mock")
    default = getattr(mock, "DEFAULT", object())
    return len([p for p in patchings if not getattr(p, "attribute_name", None) and getattr(p, "new", None) is default])


class LocalPath(os.PathLike):
    """tmpdir: the legacy py.path.local, enough of it for join, read and write."""

    def __init__(self, path: str) -> None:
        self.strpath = os.path.abspath(path)

    def __fspath__(self) -> str:
        return self.strpath

    def __str__(self) -> str:
        return self.strpath

    def __repr__(self) -> str:
        return f"local({self.strpath!r})"

    def __eq__(self, other: object) -> bool:
        return os.fspath(self) == os.fspath(other) if isinstance(other, (str, os.PathLike)) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.strpath)

    def __truediv__(self, name: str) -> LocalPath:
        return self.join(name)

    def join(self, *parts: str) -> LocalPath:
        return LocalPath(os.path.join(self.strpath, *map(str, parts)))

    def mkdir(self, name: str | None = None) -> LocalPath:
        target = self.join(name) if name else self
        os.mkdir(target.strpath)
        return target

    def ensure(self, *parts: str, dir: bool = False) -> LocalPath:  # noqa: A002
        target = self.join(*parts) if parts else self
        if dir:
            os.makedirs(target.strpath, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target.strpath), exist_ok=True)
            open(target.strpath, "a").close()
        return target

    def write(self, data: str | bytes, mode: str = "w") -> None:
        with open(self.strpath, mode + ("b" if isinstance(data, bytes) and "b" not in mode else "")) as handle:
            handle.write(data)

    def write_text(self, data: str, encoding: str = "utf-8") -> None:
        with open(self.strpath, "w", encoding=encoding) as handle:
            handle.write(data)

    def read(self, mode: str = "r") -> str | bytes:
        with open(self.strpath, mode) as handle:
            return handle.read()

    def read_text(self, encoding: str = "utf-8") -> str:
        with open(self.strpath, encoding=encoding) as handle:
            return handle.read()

    def exists(self) -> bool:
        return os.path.exists(self.strpath)

    def isfile(self) -> bool:
        return os.path.isfile(self.strpath)

    def isdir(self) -> bool:
        return os.path.isdir(self.strpath)

    def listdir(self) -> list[LocalPath]:
        return [self.join(name) for name in sorted(os.listdir(self.strpath))]

    @property
    def basename(self) -> str:
        return os.path.basename(self.strpath)

    @property
    def dirname(self) -> str:
        return os.path.dirname(self.strpath)
