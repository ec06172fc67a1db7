"""A stand-in for pytest inside the sandbox, which has only the standard library: the parts ordinary test files use.

raises (with match and excinfo), approx (numbers, Decimals, Fractions, sequences, dicts, numpy arrays), warns and
deprecated_call, fail, skip, xfail, importorskip, param, fixture (scopes, params, autouse, yield fixtures) and
mark (parametrize with ids and pytest.param, skip, skipif, xfail, usefixtures; any other mark is kept and ignored).
The builtin fixtures (capsys, tmp_path, monkeypatch, caplog, ...) are fixtures.py's; running the tests with them is
testrunner.py's. Real pytest costs about 57 ms a run even pre-imported (docs/sandbox.md): this shim costs nothing.
"""

from __future__ import annotations

import sys

import cmath
import collections.abc
import decimal
import fractions
import itertools
import math
import pprint
import re
import types

import unsupported


class Skipped(Exception):
    """pytest.skip: the test did not run. module_level: raised where a whole file may be skipped
    (skip(allow_module_level=True), importorskip)."""

    def __init__(self, reason: str = "", module_level: bool = False) -> None:
        super().__init__(reason)
        self.module_level = module_level


class XFailed(Exception):
    """pytest.xfail: the test is expected to fail, and says so."""


class Failed(AssertionError):
    """pytest.fail."""


# pytest.fail, skip and xfail: BaseExceptions in pytest (outcomes, which the code's `except Exception` does not catch),
# Exceptions here, so a test's function the code called that raised one is watched for the code catching it (report.py).
OUTCOMES = (Failed, Skipped, XFailed)


class ExceptionInfo:
    """What pytest.raises caught: type, value, and match()."""

    def __init__(self) -> None:
        self.type = self.value = self.tb = None

    def match(self, pattern: str) -> bool:
        text = _matched_text(self.value)
        if not re.search(pattern, text):
            raise AssertionError(f"Regex pattern {pattern!r} does not match {text!r}")
        return True

    def errisinstance(self, kind: type) -> bool:
        return isinstance(self.value, kind)

    @property
    def typename(self) -> str:
        return self.type.__name__ if self.type else ""

    def __repr__(self) -> str:
        return f"<ExceptionInfo {self.value!r}>"


def _as_float(x: object) -> float:
    """x as a float, as pytest's arithmetic (abs(expected - actual)) reads it: an int or float of a subclass by its
    value, not by the subclass's own __float__ (which the other side's class may answer)."""
    for base in (int, float):
        if isinstance(x, base) and type(x) is not base and type(x) is not bool:
            return base.__float__(x)
    return float(x)


def _matched_text(value: BaseException | None) -> str:
    """What raises(match=) searches: the exception's str and, as pytest 8 does, its notes (add_note), a line each."""
    notes = getattr(value, "__notes__", None)
    notes = [n for n in notes if isinstance(n, str)] if isinstance(notes, list) else []
    return "\n".join([str(value), *notes])


class _RaisesContext:
    def __init__(self, expected: type | tuple, match: str | None) -> None:
        self.expected, self.match, self.info = expected, match, ExceptionInfo()

    def __enter__(self) -> ExceptionInfo:
        return self.info

    def __exit__(self, kind: type | None, value: BaseException | None, tb: object) -> bool:
        if kind is None:
            names = (self.expected,) if isinstance(self.expected, type) else self.expected
            raise Failed(f"DID NOT RAISE {' or '.join(getattr(n, '__name__', str(n)) for n in names)}")
        if not issubclass(kind, self.expected):
            return False
        self.info.type, self.info.value, self.info.tb = kind, value, tb
        unsupported.stop_taken(value)
        if self.match is not None and not re.search(self.match, _matched_text(value)):
            raise AssertionError(f"Regex pattern {self.match!r} does not match {_matched_text(value)!r}")
        return True


class _WarnsContext:
    def __init__(self, expected: type | tuple, match: str | None) -> None:
        import warnings

        self.expected, self.match = expected, match
        self.context = warnings.catch_warnings(record=True)
        self.list: list = []

    def __enter__(self) -> list:
        import warnings

        self.list = self.context.__enter__()
        warnings.simplefilter("always")
        return self.list

    def __exit__(self, kind: type | None, value: BaseException | None, tb: object) -> bool:
        self.context.__exit__(kind, value, tb)
        if kind is not None:
            return False
        found = [w for w in self.list if issubclass(w.category, self.expected)
                 and (self.match is None or re.search(self.match, str(w.message)))]
        if not found:
            raise Failed(f"DID NOT WARN. No warnings of type {self.expected} matching {self.match!r} were emitted; "
                         f"the warnings were {[str(w.message) for w in self.list]}")
        return False


def _nested(value: object) -> bool:
    return isinstance(value, collections.abc.Collection) and not isinstance(value, (str, bytes, bytearray))


def _is_array(value: object) -> bool:
    numpy = sys.modules.get("numpy")  # loaded where a test made an array: no import for a list's approx
    return numpy is not None and isinstance(value, numpy.ndarray)


def _sequence_like(value: object) -> bool:
    # pytest's approx.py (_is_sequence_like): indexable and sized, not a string
    return (hasattr(value, "__getitem__") and isinstance(value, collections.abc.Sized)
            and not isinstance(value, (str, bytes)))


class _Approx:
    # An ndarray on the left defers to this __eq__ (as pytest's approx does) instead of comparing element-wise.
    __array_ufunc__ = None
    __array_priority__ = 100

    def __init__(self, expected: object, rel: float | None, abs_: float | None, nan_ok: bool) -> None:
        self.expected, self.rel, self.abs, self.nan_ok = expected, rel, abs_, nan_ok
        # pytest refuses a container inside the one it is given (its approx.py, _is_nested_container), before any
        # comparison: a test that nests one fails there too
        if isinstance(expected, collections.abc.Mapping):
            for key, value in expected.items():
                if _nested(value):
                    raise TypeError(f"pytest.approx() does not support nested dictionaries: key={key!r} "
                                    f"value={value!r}\n  full mapping={pprint.pformat(expected)}")
        elif _is_array(expected):
            pass
        elif _sequence_like(expected):
            for index, value in enumerate(expected):
                if _nested(value):
                    raise TypeError(f"pytest.approx() does not support nested data structures: {value!r} at index "
                                    f"{index}\n  full sequence: {pprint.pformat(expected)}")
        elif _nested(expected):  # a set: pytest wants an order
            raise TypeError(f"pytest.approx() only supports ordered sequences, but got: {expected!r}")

    def _close(self, a: object, b: object) -> bool:
        a, b = _plain(a), _plain(b)
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(self._close(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(self._close(a[k], b[k]) for k in a)
        if _number(a) and _number(b):
            return self._numbers_close(a, b)
        return a == b

    def _numbers_close(self, a: object, b: object) -> bool:
        if isinstance(b, decimal.Decimal) or isinstance(a, decimal.Decimal):
            a, b = decimal.Decimal(str(a)), decimal.Decimal(str(b))
            rel = decimal.Decimal(str(1e-6 if self.rel is None else self.rel))
            tolerance = max(rel * abs(b), decimal.Decimal(str(1e-12 if self.abs is None else self.abs)))
            return abs(a - b) <= tolerance
        if a == b:
            return True
        if isinstance(a, complex) or isinstance(b, complex):
            if cmath.isnan(complex(a)) or cmath.isnan(complex(b)):
                return self.nan_ok and cmath.isnan(complex(a)) and cmath.isnan(complex(b))
            return cmath.isclose(a, b, rel_tol=self._rel(), abs_tol=self._abs())
        a, b = _as_float(a), _as_float(b)
        if math.isnan(a) or math.isnan(b):
            return self.nan_ok and math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=self._rel(), abs_tol=self._abs())

    def _rel(self) -> float:
        # pytest: given only an absolute tolerance, the relative one is not used
        return 1e-6 if self.rel is None and self.abs is None else (self.rel or 0.0)

    def _abs(self) -> float:
        return 1e-12 if self.abs is None else self.abs

    def __eq__(self, other: object) -> bool:
        return self._close(other, self.expected)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"{self.expected!r} ± {self._rel():g}" if _number(self.expected) else f"approx({self.expected!r})"


def _number(value: object) -> bool:
    return type(value) is not bool and isinstance(value, (int, float, complex, decimal.Decimal, fractions.Fraction))


def _plain(value: object) -> object:
    """A numpy array or scalar as the list or number it holds (numpy, when offered, is the only module with tolist
    on its values here); anything else as it is."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return value.tolist()
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray):  # a live view of the code's array: its contents
        return numpy.asarray(value).tolist()
    return value


class Mark:
    """One mark on a test: its name, arguments and keyword arguments (pytest's Mark)."""

    def __init__(self, name: str, args: tuple, kwargs: dict) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs


class MarkDecorator:
    """pytest.mark.NAME: a decorator that adds a Mark to a function or class; called with arguments, a new one."""

    def __init__(self, name: str, args: tuple = (), kwargs: dict | None = None) -> None:
        self.mark = Mark(name, args, kwargs or {})

    def __call__(self, *args: object, **kwargs: object) -> object:
        if len(args) == 1 and not kwargs and (isinstance(args[0], type) or callable(args[0])):
            target = args[0]
            marks = list(getattr(target, "pytestmark", []))
            target.pytestmark = [*marks, self.mark]
            return target
        return MarkDecorator(self.mark.name, args, kwargs)


class _MarkGenerator:
    def __getattr__(self, name: str) -> MarkDecorator:
        if name.startswith("_"):
            raise AttributeError(name)
        return MarkDecorator(name)


class ParameterSet:
    """pytest.param(values..., id=, marks=)."""

    def __init__(self, values: tuple, id: str | None, marks: object) -> None:  # noqa: A002
        self.values, self.id = values, id
        self.marks = list(marks) if isinstance(marks, (list, tuple)) else [marks] if marks else []


class FixtureDef:
    """What @pytest.fixture recorded: the function, its scope, params, ids, autouse and name."""

    def __init__(self, fn: object, scope: str, params: object, autouse: bool, ids: object, name: str | None) -> None:
        self.fn, self.scope, self.autouse, self.ids = fn, scope, autouse, ids
        self.params = list(params) if params is not None else None
        self.name = name or fn.__name__


def fixture(fn: object = None, *, scope: str = "function", params: object = None, autouse: bool = False,
            ids: object = None, name: str | None = None) -> object:
    """@pytest.fixture, bare or with arguments: marks the function as a fixture (fixtures.py runs it)."""
    def mark(target: object) -> object:
        target._sbx_fixture = FixtureDef(target, scope, params, autouse, ids, name)
        return target
    return mark(fn) if callable(fn) else mark


def pytest_module() -> types.ModuleType:
    """The module ``import pytest`` gives inside the sandbox."""
    import fixtures

    def raises(expected, *args, match=None, **kwargs):
        context = _RaisesContext(expected, match)
        if not args:
            return context
        with context:
            args[0](*args[1:], **kwargs)
        return context.info

    def warns(expected=Warning, *args, match=None, **kwargs):
        context = _WarnsContext(expected, match)
        if not args:
            return context
        with context:
            result = args[0](*args[1:], **kwargs)
        return result

    def fail(reason="", pytrace=True, msg=None):
        raise Failed(msg or reason)

    def skip(reason="", allow_module_level=False, msg=None):
        raise Skipped(msg or reason, bool(allow_module_level))

    def xfail(reason=""):
        raise XFailed(reason)

    def importorskip(name, minversion=None, reason=None):
        import importlib

        try:
            return importlib.import_module(name)
        except ImportError:
            raise Skipped(reason or f"could not import {name!r}", module_level=True) from None

    module = types.ModuleType("pytest")
    module.__dict__.update(
        raises=raises, warns=warns, deprecated_call=lambda *a, **k: warns((DeprecationWarning,
                                                                          PendingDeprecationWarning), *a, **k),
        approx=lambda expected, rel=None, abs=None, nan_ok=False: _Approx(expected, rel, abs, nan_ok),
        fail=fail, skip=skip, xfail=xfail, importorskip=importorskip, mark=_MarkGenerator(), fixture=fixture,
        main=lambda *args, **kwargs: 0,  # pytest.main() in a tests file: the sandbox runs the file's tests itself
        param=lambda *values, id=None, marks=(): ParameterSet(values, id, marks), Mark=Mark,
        MarkDecorator=MarkDecorator, ExceptionInfo=ExceptionInfo, MonkeyPatch=fixtures.MonkeyPatch,
        LogCaptureFixture=fixtures.LogCapture, CaptureFixture=fixtures.Capture, FixtureRequest=fixtures.Request,
        TempPathFactory=fixtures.TempPathFactory, fail_exception=Failed, skip_exception=Skipped,
        __version__="8.0.0-sandbox")
    module.fail.Exception = Failed
    module.skip.Exception = Skipped
    return module


def marks_of(target: object) -> list[Mark]:
    """The marks on a function or class (pytest.mark decorators put them in ``pytestmark``)."""
    found = getattr(target, "pytestmark", [])
    found = found if isinstance(found, list) else [found]
    return [m.mark if isinstance(m, MarkDecorator) else m for m in found if isinstance(m, (Mark, MarkDecorator))]


def param_cases(fn: object, marks: list[Mark]) -> list[tuple[str, dict, list[Mark]]]:
    """(id suffix, arguments, marks) for each case of a test's parametrize marks; [("", {}, [])] without any. As
    pytest orders them: the function's own decorators first, the nearest first (its values vary slowest), then
    those of its class and module."""
    cases: list[tuple[str, dict, list[Mark]]] = [("", {}, [])]
    own = [m for m in marks_of(fn) if m.name == "parametrize"]
    outer = [m for m in marks if m.name == "parametrize" and not any(m is o for o in own)]
    for mark in [*own, *reversed(outer)]:
        names, values = (mark.args + (None, None))[:2]
        names = mark.kwargs.get("argnames", names)
        values = mark.kwargs.get("argvalues", values)
        keys = [n.strip() for n in names.split(",") if n.strip()] if isinstance(names, str) else list(names)
        # One name written as a string takes each case whole; names written as a list or tuple, even one, take each
        # case as the sequence of their values (pytest's force_tuple): ("b",) over [("x",)] gives b == "x".
        whole = isinstance(names, str) and len(keys) == 1
        ids = mark.kwargs.get("ids")
        expanded = []
        for (label, kwargs, extra), (i, value) in itertools.product(cases, enumerate(list(values))):
            own_marks, case_id = [], None
            if isinstance(value, ParameterSet):
                own_marks, case_id, value = [_as_mark(m) for m in value.marks], value.id, value.values
                value = value[0] if whole else value
            vals = (value,) if whole else value
            case_id = case_id or _case_id(ids, i, keys, vals)
            expanded.append((f"{label}-{case_id}" if label else case_id, {**kwargs, **dict(zip(keys, vals))},
                             extra + own_marks))
        cases = expanded
    labels = _unique([label for label, _, _ in cases])
    return [(f"[{label}]" if label else "", kwargs, extra) for label, (_, kwargs, extra) in zip(labels, cases)]


def _unique(labels: list[str]) -> list[str]:
    """pytest's ids made unique: each that occurs more than once numbered from 0 (``a0``, ``a1``; ``v1_0`` after a
    digit)."""
    counts = collections.Counter(labels)
    seen: collections.Counter = collections.Counter()
    unique = []
    for label in labels:
        if counts[label] > 1 and label:
            unique.append(f"{label}{'_' if label[-1:].isdigit() else ''}{seen[label]}")
            seen[label] += 1
        else:
            unique.append(label)
    return unique


def _as_mark(mark: object) -> Mark:
    return mark.mark if isinstance(mark, MarkDecorator) else mark


def _case_id(ids: object, index: int, names: list[str], values: tuple) -> str:
    if isinstance(ids, (list, tuple)) and index < len(ids) and ids[index] is not None:
        return str(ids[index])
    if callable(ids):  # where it says None for a value, pytest's own id of it
        return "-".join(value_id(v, name, index) if (made := ids(v)) is None else str(made)
                        for name, v in zip(names, values))
    return "-".join(value_id(v, name, index) for name, v in zip(names, values))


def value_id(value: object, name: str, index: int) -> str:
    """pytest's id for one parameter value: numbers, booleans and None as themselves, strings and bytes escaped to
    ASCII (``a\\tb``, ``\\xe9``), an enum member as ``Op.ADD``, a function or class by its name, else the parameter's
    name and the case's index (``a0``)."""
    import enum

    if isinstance(value, (int, float, bool)) or value is None:
        return str(value)
    if isinstance(value, str):
        return value.encode("unicode_escape").decode("ascii")
    if isinstance(value, bytes):
        return value.decode("ascii", "backslashreplace")
    if isinstance(value, enum.Enum):
        return str(value)
    return f"{name}{index}" if not hasattr(value, "__name__") else str(value.__name__)
