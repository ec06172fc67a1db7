"""The sandbox against one Python process (docs/sandbox.md, "What cannot behave as in one process"): each ordinary
case of tests/one_process_cases*.py (four differential runs) is run by one process (pytest,
unittest, or the file run as a module, with the code and the tests in one file: tests/one_process.py) and by the
sandbox, and each test's verdict must agree, or the sandbox must say it could not judge it. The differences
docs/sandbox.md lists are expected to differ: a case that starts to agree is a doc to update."""

from __future__ import annotations

import pytest
from one_process import OneProcess, style_of
from one_process_cases import CASES as FIRST_RUN
from one_process_cases_fourth_run import CASES as FOURTH_RUN
from one_process_cases_second_run import CASES as SECOND_RUN
from one_process_cases_third_run import CASES as THIRD_RUN

from sandbox import run_tests

CASES = FIRST_RUN + SECOND_RUN + THIRD_RUN + FOURTH_RUN

# The differences docs/sandbox.md lists ("Known to differ"), by case.
_AT_NEXT_CALL = "what the tests let go of reaches the code's process with their next call of it, or gc.collect()"
_CONTEXT = "a ContextVar of the code's is not scoped by the tests' Context.run or their asyncio tasks"
_METACLASS = "type() of the code's class is a stand-in's class, not the code's metaclass"
_SUBCLASS = "a test's class chain built on the code's class loses what is not its first mirror base's"
_TASKS = "a task or loop of the code's lives in the code's process, not on the tests' running loop"
_MIRROR = ("a mirror of the code's class holds its methods, not its other class attributes (__slots__, "
           "__abstractmethods__, a property object, its exact __mro__)")
KNOWN = {
    "pt_finalizer_runs_at_del_before_any_call": _AT_NEXT_CALL,
    "pt_pickle_file_written_by_code": "the tests cannot unpickle an object of the code's class",
    "pt_async_background_task_state": _TASKS,
    "pt_async_create_task_inside_code_coroutine": _TASKS,
    "pt_traceback_names_code_frame": "the code's frames are not in a traceback the tests format",
    "pt_abc_register_virtual_subclass": "a test's class registered with the code's ABC is registered there only",
    "pt_finalize_of_the_tests_before_the_codes_del_in_a_cycle":
        "a weak reference's callback of the tests' runs after the code's collection, not before its __del__",
    "pt_dc_slots_copy_ok": _MIRROR,
    "pt_property_setter_deleter_readonly_ok": _MIRROR,
    "pt_exception_mixed_bases_keyerror": _MIRROR,
    "pt_abc_abstract_instantiation_ok": _MIRROR,
    "pt_caplog_set_level_record_tuples_ok":
        "a log record's args that hold an object of the code's reach the tests as None",
    "pt_capsys_err_from_last_resort_handler":
        "the pytest stand-in has no logging plugin: a warning on a logger without handlers reaches stderr",
    "pt_generator_close_runs_finally_on_code_object":
        "a generator of the code's that the tests stop iterating (break) is closed when the run ends, not at once",
    "pt_async_gather_interleaves_with_tests_coroutine":
        "a coroutine of the code's runs to its end in one step: the tests' coroutines do not interleave with it",
    "pt_code_weak_method_callback":
        "the code's stand-in of a test's bound method is no bound method: WeakMethod refuses it",
    "pt_runtime_checkable_protocol_with_tests_objects":
        "isinstance of a test's object with the code's runtime_checkable Protocol is False",
    "r23_unheld_with_payload_error": "an exception's args that hold an object of the tests' cross as its text",
    "q4_contextvar_copy_context_run_ok": _CONTEXT,
    "q4_min_contextvar_copy_context_run": _CONTEXT,
    "q4_contextvar_asyncio_tasks_isolated_ok": _CONTEXT,
    "q4_min_contextvar_asyncio_tasks": _CONTEXT,
    "q4_desc_code_descriptor_on_tests_class_ok":
        "a descriptor of the code's on a test's class may not write the test object's private attributes",
    "q4_desc_lazy_nondata_on_tests_class_ok":
        "a descriptor of the code's on a test's class writes a copy of the test object's __dict__",
    "q4_metaclass_singleton_ok": _METACLASS,
    "q4_min_metaclass_type_is_code_metaclass": _METACLASS,
    "q4_metaclass_fields_tests_models_ok": _SUBCLASS,
    "q4_min_metaclass_fields_tests_subclass_chain": _SUBCLASS,
    "q4_typeddict_keys_validate_ok": _MIRROR,
    "q4_typeddict_keys_validate_bad_optional_unknown": _MIRROR,
    "q4_min_typeddict_required_keys": _MIRROR,
    "q4_min_code_sets_logger_level": "a logger's level the code sets is not the tests'",
    "q4_min_code_class_decorator_sets_repr":
        "a class decorator of the code's may not set a dunder on a test's class: the tests' file does not load",
}


@pytest.fixture(scope="module")
def one_process():
    server = OneProcess()
    yield server
    server.close()


def sandboxed(code: str, tests: str, style: str) -> tuple[dict[str, str], bool]:
    """Each test's verdict by the sandbox, and whether it said it could not judge one."""
    report = run_tests(code, tests)
    unsupported = report.status == "unsupported" or any(t.unsupported for t in report.tests)
    if style == "plain":
        return {"<file>": {"passed": "pass", "failed": "fail"}.get(report.status, report.status)}, unsupported
    found = {t.name: "pass" if t.passed else "skip" if t.skipped else "unsupported" if t.unsupported else "fail"
             for t in report.tests}
    return found, unsupported


@pytest.mark.parametrize(("name", "code", "tests"), CASES, ids=[case[0] for case in CASES])
def test_the_sandbox_judges_as_one_process(name, code, tests, tmp_path, request, one_process):
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    truth = one_process.verdicts(code, tests, tmp_path)
    got, unsupported = sandboxed(code, tests, style_of(tests))
    differ = {k: (truth.get(k), got.get(k)) for k in set(truth) | set(got)
              if truth.get(k) != got.get(k) and got.get(k) != "unsupported"}
    if unsupported and style_of(tests) == "plain" and set(v for _, v in differ.values()) <= {"fail"}:
        differ = {}  # one verdict for the file, and it said it could not judge a line: a clear statement
    assert not differ, f"{name}: one process vs the sandbox, by test: {differ}"
