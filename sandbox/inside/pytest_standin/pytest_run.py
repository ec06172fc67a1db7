"""Collecting and running pytest-style tests inside the sandbox, as pytest would: test_* functions, Test* classes
(setup_class, setup_method, a fresh instance per test, fixtures of the class) and unittest.TestCase classes (run by
unittest itself: setUp, setUpClass, subTest, skip and expectedFailure), with parametrize, fixtures and marks.

Runs inside the sandbox (stdlib only), in the tests' process; each test is reported through report.Reporter.
"""

from __future__ import annotations

import inspect
import itertools
import sys
import time
import types
import unittest

import fixtures
import pytest_shim
import unsupported
from report import Reporter, hidden_check
from shapes import uncollected_class_words


def run(ns: dict, reporter: Reporter) -> None:
    """Run every test of a pytest-style tests file, in the order the file defines them."""
    defined = {fn._sbx_fixture.name: fn._sbx_fixture for fn in ns.values()
               if isinstance(getattr(fn, "_sbx_fixture", None), pytest_shim.FixtureDef)}
    resolver = fixtures.Resolver(defined)
    module_marks = _module_marks(ns.get("pytestmark"))
    resolver.module_error = _setup_module(ns)  # raised again by each test of the file, as pytest errors each
    around = (ns.get("setup_function"), ns.get("teardown_function"))
    for name, obj in list(ns.items()):
        if not getattr(obj, "__test__", True):
            continue  # `__test__ = False`: pytest collects nothing of it
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase) and obj.__module__ == "tests":
            _run_unittest(obj, reporter)
        elif name.startswith("test") and type(obj) is types.FunctionType:  # the file's own, not a code function's proxy
            _run_function(reporter, resolver, name, obj, module_marks, around=around)
        elif name.startswith("Test") and isinstance(obj, type) and obj.__module__ == "tests":
            constructor = _constructor(obj)
            if constructor:
                # pytest warns and collects nothing of it; said as a skip, so a file of nothing else never passes
                reporter.emit(ev="test", name=name, passed=True, skipped=True, duration_ms=0,
                              message=uncollected_class_words(name, constructor, _test_methods(obj)))
            else:
                _run_class(reporter, resolver, obj, module_marks)
    if resolver.module_error is None:  # pytest tears down only what it set up
        _teardown_module(ns, reporter)
    errors = resolver.end("session")
    if errors:
        reporter.emit(ev="test", name="fixture teardown", passed=False, duration_ms=0, **reporter.failure(errors[0]))


def _module_hook(ns: dict, names: tuple) -> object:
    """The file's xunit module hook, as pytest finds it (the first of names); unittest's own name (setUpModule) is
    left to unittest where the file has a TestCase class, which runs it."""
    unittest_runs_it = any(isinstance(v, type) and issubclass(v, unittest.TestCase) for v in ns.values())
    for name in names:
        hook = ns.get(name)
        if _hook(hook) and not (name in ("setUpModule", "tearDownModule") and unittest_runs_it):
            return hook
    return None


def _hook(value: object) -> bool:
    return callable(value) and not isinstance(value, type)


def _setup_module(ns: dict) -> BaseException | None:
    """pytest's xunit setup_module(module) (or setUpModule), before the file's first test: what it raised (a
    failure, or pytest.skip), which each test of the file then raises (pytest errors, or skips, each), or None."""
    setup = _module_hook(ns, ("setUpModule", "setup_module"))
    if setup is None:
        return None
    try:
        _call_optional(setup, sys.modules.get("tests"))
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
            raise
        return exc
    return None


def _teardown_module(ns: dict, reporter: Reporter) -> None:
    """pytest's xunit teardown_module(module), after the file's last test; its failure is an error."""
    teardown = _module_hook(ns, ("tearDownModule", "teardown_module"))
    if teardown is None:
        return
    try:
        _call_optional(teardown, sys.modules.get("tests"))
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
            raise
        reporter.emit(ev="test", name="teardown_module", passed=False, duration_ms=0, **reporter.failure(exc))


def _constructor(cls: type) -> str | None:
    """``__init__`` or ``__new__`` when the class has one of its own or inherits one (pytest then does not collect
    it: it makes a fresh instance per test without arguments)."""
    if cls.__init__ is not object.__init__:
        return "__init__"
    return "__new__" if cls.__new__ is not object.__new__ else None


def _module_marks(value: object) -> list:
    marks = value if isinstance(value, list) else [value] if value is not None else []
    return [m.mark if isinstance(m, pytest_shim.MarkDecorator) else m for m in marks
            if isinstance(m, (pytest_shim.Mark, pytest_shim.MarkDecorator))]


def _run_function(reporter: Reporter, resolver: fixtures.Resolver, name: str, fn: object, marks: list,
                  owner: type | None = None, make_instance: object = None, around: tuple = (None, None)) -> None:
    """One test function or method, each of its parametrized cases and fixture params; around: the file's xunit
    setup_function and teardown_function, for a test function of the file (pytest calls them around each)."""
    marks = [*marks, *pytest_shim.marks_of(fn)]
    cases = pytest_shim.param_cases(fn, marks)
    if not cases:
        reporter.emit(ev="test", name=name + "[]", passed=True, skipped=True, duration_ms=0,
                      message="parametrize gave no cases, so this test never ran (pytest skips it too)")
    for suffix, params, case_marks in cases:
        case = name + suffix
        all_marks = [*marks, *case_marks]
        skipped = _skip_reason(all_marks, fn)
        if skipped is not None:
            reporter.emit(ev="test", name=case, passed=True, skipped=True, duration_ms=0, message=skipped)
            continue
        wanted = [a for a in fixtures.arguments(fn) if a not in params]
        wanted += [n for m in all_marks if m.name == "usefixtures" for n in m.args]
        wanted = [*_autouse(resolver), *wanted]
        try:
            closure = resolver.closure(wanted)
        except fixtures.FixtureError as exc:
            reporter.emit(ev="test", name=case, passed=False, duration_ms=0, **reporter.failure(exc))
            continue
        for fixture_suffix, chosen in _fixture_params(resolver, closure):
            label = case if not fixture_suffix else (f"{case[:-1]}-{fixture_suffix}]" if suffix
                                                     else f"{case}[{fixture_suffix}]")
            call = _caller(resolver, label, fn, owner, make_instance, closure, params, chosen, around[0])
            reporter.run(label, call, xfail=_xfail(all_marks), teardown=_teardown(resolver, fn, around[1]))


def _teardown(resolver: fixtures.Resolver, fn: object, teardown_function: object):
    """After a test: its fixtures' teardown, then the file's teardown_function (pytest sets it up first, as an
    autouse fixture, so it is torn down last); the errors of either fail the test."""
    def teardown() -> list:
        errors = resolver.end("function")
        if _hook(teardown_function):
            try:
                _call_optional(teardown_function, fn)
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
                    raise
                errors = [*errors, exc]
        return errors
    return teardown


def _caller(resolver: fixtures.Resolver, label: str, fn: object, owner: type | None, make_instance: object,
            closure: list, params: dict, chosen: dict, setup_function: object = None):
    def call() -> object:
        if resolver.module_error is not None:
            raise resolver.module_error
        if _hook(setup_function):
            _call_optional(setup_function, fn)
        instance = make_instance() if make_instance else None
        target = fn.__get__(instance, owner) if instance is not None else fn
        if instance is not None:
            resolver.defined.update(_class_fixtures(owner, instance))
            _call_optional(getattr(instance, "setup_method", None), target)
        resolver.params = chosen
        request = fixtures.Request(resolver, label, fn, owner, instance)
        values = {n: resolver.value(n, request, ()) for n in closure}
        arguments = {a: params[a] if a in params else values[a] for a in fixtures.arguments(fn)}
        try:
            return target(**arguments)
        finally:
            if instance is not None:
                _call_optional(getattr(instance, "teardown_method", None), target)
    return call


def _autouse(resolver: fixtures.Resolver) -> list[str]:
    return [name for name, definition in resolver.defined.items() if definition.autouse]


def _fixture_params(resolver: fixtures.Resolver, closure: list[str]) -> list[tuple[str, dict]]:
    """One (id, {fixture: param}) per combination of the parametrized fixtures the test uses ([("", {})] if none)."""
    parametrized = [(n, resolver.defined[n]) for n in closure if n in resolver.defined and resolver.defined[n].params]
    if not parametrized:
        return [("", {})]
    combos = []
    for values in itertools.product(*(list(enumerate(d.params)) for _, d in parametrized)):
        ids = []
        for (definition_name, definition), (index, value) in zip(parametrized, values):
            given = definition.ids
            ids.append(str(given[index]) if isinstance(given, (list, tuple)) and index < len(given)
                       else pytest_shim.value_id(value, definition_name, index))
        combos.append(("-".join(ids), {name: value for (name, _), (_, value) in zip(parametrized, values)}))
    return combos


def _skip_reason(marks: list, fn: object) -> str | None:
    for mark in marks:
        if mark.name == "skip":
            return str(mark.kwargs.get("reason", mark.args[0] if mark.args else "unconditional skip"))
        if mark.name == "skipif":
            conditions = mark.args or (mark.kwargs.get("condition"),)
            if any(_holds(c, fn) for c in conditions):
                return str(mark.kwargs.get("reason", "condition holds"))
    return None


def _holds(condition: object, fn: object) -> bool:
    if isinstance(condition, str):
        return bool(eval(condition, {**getattr(fn, "__globals__", {}), "sys": __import__("sys")}))  # noqa: S307
    return bool(condition)


def _xfail(marks: list) -> dict | None:
    for mark in marks:
        if mark.name == "xfail":
            condition = mark.args[0] if mark.args else mark.kwargs.get("condition", True)
            if not _holds(condition, None):
                continue
            return {"reason": mark.kwargs.get("reason", ""), "strict": bool(mark.kwargs.get("strict", False)),
                    "raises": mark.kwargs.get("raises")}
    return None


def _call_optional(method: object, argument: object) -> None:
    """Call setup_method/teardown_method with the test method when it takes one, as pytest does."""
    if method is None:
        return
    try:
        takes = len(inspect.signature(method).parameters)
    except (TypeError, ValueError):
        takes = 1
    method(argument) if takes else method()


def _class_fixtures(owner: type, instance: object) -> dict:
    return {definition.name: pytest_shim.FixtureDef(getattr(instance, attr) if instance is not None else value,
                                                    definition.scope, definition.params,
                                                    definition.autouse, definition.ids, definition.name)
            for attr, value in vars(owner).items()
            if isinstance(definition := getattr(value, "_sbx_fixture", None), pytest_shim.FixtureDef)}


def _run_class(reporter: Reporter, resolver: fixtures.Resolver, cls: type, marks: list) -> None:
    """A Test* class: setup_class once, a fresh instance per test, the class's own fixtures beside the file's."""
    marks = [*marks, *pytest_shim.marks_of(cls)]
    if _skip_reason(marks, None) is not None:
        for attr in _test_methods(cls):
            reporter.emit(ev="test", name=f"{cls.__name__}::{attr}", passed=True, skipped=True, duration_ms=0,
                          message=_skip_reason(marks, None))
        return
    module_fixtures = dict(resolver.defined)
    resolver.defined.update(_class_fixtures(cls, None))
    started = time.perf_counter()
    try:
        _call_optional(getattr(cls, "setup_class", None), cls)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
            raise
        reporter.emit(ev="test", name=f"{cls.__name__}::setup_class", passed=False,
                      duration_ms=round((time.perf_counter() - started) * 1000, 3), **reporter.failure(exc))
        return
    for attr in _test_methods(cls):
        _run_function(reporter, resolver, f"{cls.__name__}::{attr}", vars(cls)[attr], marks, cls, cls)
    try:
        _call_optional(getattr(cls, "teardown_class", None), cls)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):  # any other escape fails, as in pytest
            raise
        reporter.emit(ev="test", name=f"{cls.__name__}::teardown_class", passed=False, duration_ms=0,
                      **reporter.failure(exc))
    resolver.defined.clear()
    resolver.defined.update(module_fixtures)
    errors = resolver.end("class")  # a class-scoped fixture's teardown that failed fails the run, as pytest errors
    if errors:
        reporter.emit(ev="test", name=f"{cls.__name__}::fixture teardown", passed=False, duration_ms=0,
                      **reporter.failure(errors[0]))


def _test_methods(cls: type) -> list[str]:
    return [attr for attr, value in vars(cls).items() if attr.startswith("test") and callable(value)]


class _UnittestResult(unittest.TestResult):
    """unittest's outcomes as the sandbox's test events (a subTest's failure fails its test)."""

    def __init__(self, reporter: Reporter) -> None:
        super().__init__()
        self.reporter = reporter
        self.started = 0.0
        self.outcome: dict = {}
        self.raised: BaseException | None = None

    def _name(self, test: unittest.TestCase) -> str:
        return f"{type(test).__name__}::{getattr(test, '_testMethodName', str(test))}"

    def startTest(self, test: unittest.TestCase) -> None:  # noqa: N802
        super().startTest(test)
        self.started = time.perf_counter()
        self.outcome = {"name": self._name(test), "passed": True}
        self.raised = None
        self.reporter.emit(ev="start", name=self.outcome["name"])
        unsupported.take()

    def stopTest(self, test: unittest.TestCase) -> None:  # noqa: N802
        super().stopTest(test)
        swallowed = self.reporter.side.swallowed if self.reporter.side is not None else []
        if self.outcome.get("passed") and swallowed:
            self.raised = unsupported.Unsupported(hidden_check(swallowed[0]))
            self.outcome.update(passed=False, **self.reporter.failure(self.raised))
        swallowed.clear()
        self.reporter.limited(self.outcome, self.raised)
        self.outcome["duration_ms"] = round((time.perf_counter() - self.started) * 1000, 3)
        self.reporter.emit(ev="test", **self.outcome)

    def _fail(self, err: tuple) -> None:
        if self.outcome.get("passed", True):
            self.raised = err[1]
            self.outcome.update(passed=False, **self.reporter.failure(err[1]))

    def addFailure(self, test, err) -> None:  # noqa: N802
        if isinstance(test, unittest.TestCase):
            self._fail(err)
        else:
            self._class_error(test, err)

    def addError(self, test, err) -> None:  # noqa: N802
        if isinstance(test, unittest.TestCase):
            self._fail(err)
        else:
            self._class_error(test, err)

    def addSubTest(self, test, subtest, err) -> None:  # noqa: N802
        if err is not None:
            self._fail(err)

    def addSkip(self, test, reason) -> None:  # noqa: N802
        self.outcome.update(skipped=True, message=str(reason))

    def addExpectedFailure(self, test, err) -> None:  # noqa: N802
        self.outcome.update(skipped=True, message="expected failure")

    def addUnexpectedSuccess(self, test) -> None:  # noqa: N802
        self.outcome.update(passed=False, error_type="AssertionError",
                            message="unexpected success: the test is marked expectedFailure, but passed")

    def _class_error(self, holder: object, err: tuple) -> None:
        self.reporter.emit(ev="test", name=str(getattr(holder, "description", holder)), passed=False,
                           duration_ms=0, **self.reporter.failure(err[1]))


def _run_unittest(cls: type, reporter: Reporter) -> None:
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(cls)
    suite.run(_UnittestResult(reporter))
