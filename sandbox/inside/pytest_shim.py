"""A small stand-in for pytest inside the sandbox (which has only the standard library):
raises, approx, fail, skip and mark.parametrize, enough for ordinary test_* files.
"""

from __future__ import annotations

import itertools
import math
import re
import types


class Skipped(Exception):
    pass


class _RaisesContext:
    def __init__(self, expected: type | tuple, match: str | None) -> None:
        self.expected, self.match, self.value = expected, match, None

    def __enter__(self) -> _RaisesContext:
        return self

    def __exit__(self, kind: type | None, value: BaseException | None, tb: object) -> bool:
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.expected}")
        if not issubclass(kind, self.expected):
            return False
        if self.match is not None and not re.search(self.match, str(value)):
            raise AssertionError(f"Regex {self.match!r} does not match {str(value)!r}")
        self.value = value
        return True


class _Approx:
    # An ndarray on the left defers to this __eq__ (as pytest's approx does) instead of comparing element-wise.
    __array_ufunc__ = None
    __array_priority__ = 100

    def __init__(self, expected: object, rel: float, abs_: float) -> None:
        self.expected, self.rel, self.abs = expected, rel, abs_

    def _close(self, a: object, b: object) -> bool:
        a, b = _plain(a), _plain(b)
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(self._close(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(self._close(a[k], b[k]) for k in a)
        if type(a) in (int, float) and type(b) in (int, float):
            return math.isclose(a, b, rel_tol=self.rel, abs_tol=self.abs)
        return a == b

    def __eq__(self, other: object) -> bool:
        return self._close(other, self.expected)

    def __repr__(self) -> str:
        return f"approx({self.expected!r})"


def _plain(value: object) -> object:
    """A numpy array or scalar as the list or number it holds (numpy, when offered, is the only module with
    tolist on its values here); anything else as it is."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return value.tolist()
    return value


def pytest_module() -> types.ModuleType:
    def raises(expected, *args, match=None, **kwargs):
        ctx = _RaisesContext(expected, match)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    def parametrize(names, values, **_):
        def mark(fn):
            fn.__dict__.setdefault("__sbx_params__", []).insert(0, (names, list(values)))
            return fn
        return mark

    class _Mark:
        def __getattr__(self, name):
            return parametrize if name == "parametrize" else (lambda *a, **k: (lambda fn: fn))

    module = types.ModuleType("pytest")
    module.raises = raises
    module.approx = lambda expected, rel=1e-6, abs=1e-12: _Approx(expected, rel, abs)
    module.fail = lambda msg="": (_ for _ in ()).throw(AssertionError(msg))
    module.skip = lambda reason="": (_ for _ in ()).throw(Skipped(reason))
    module.mark = _Mark()
    return module


def param_cases(fn: object) -> list[tuple[str, dict]]:
    cases = [("", {})]
    for names, values in getattr(fn, "__sbx_params__", []):
        keys = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        expanded = []
        for (label, kwargs), (i, value) in itertools.product(cases, enumerate(values)):
            vals = value if len(keys) > 1 else (value,)
            expanded.append((f"{label}-{i}" if label else str(i), {**kwargs, **dict(zip(keys, vals))}))
        cases = expanded
    return [(f"[{label}]" if label else "", kwargs) for label, kwargs in cases]
