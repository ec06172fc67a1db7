"""The sandbox against one Python process (docs/sandbox.md, "What cannot behave as in one process"): each ordinary
case of tests/one_process_cases*.py (seven differential runs) is run by one process (pytest,
unittest, or the file run as a module, with the code and the tests in one file: tests/one_process.py) and by the
sandbox, and each test's verdict must agree, or the sandbox must say it could not judge it. The differences
docs/sandbox.md lists are expected to differ: a case that starts to agree is a doc to update."""

from __future__ import annotations

import pytest
from one_process import OneProcess, style_of
from one_process_cases import CASES as FIRST_RUN
from one_process_cases_eighth_run import CASES as EIGHTH_RUN
from one_process_cases_fifth_run import CASES as FIFTH_RUN
from one_process_cases_fourth_run import CASES as FOURTH_RUN
from one_process_cases_second_run import CASES as SECOND_RUN
from one_process_cases_seventh_run import CASES as SEVENTH_RUN
from one_process_cases_sixth_run import CASES as SIXTH_RUN
from one_process_cases_third_run import CASES as THIRD_RUN

from sandbox import run_tests

CASES = FIRST_RUN + SECOND_RUN + THIRD_RUN + FOURTH_RUN + FIFTH_RUN + SIXTH_RUN + SEVENTH_RUN + EIGHTH_RUN

# The differences docs/sandbox.md lists ("Known to differ"), by case.
_AT_NEXT_CALL = "what the tests let go of reaches the code's process with their next call of it, or gc.collect()"
_CONTEXT = "a ContextVar of the code's is not scoped by the tests' Context.run or their asyncio tasks"
_METACLASS = "type() of the code's class is a stand-in's class, not the code's metaclass"
_SUBCLASS = "a test's class chain built on the code's class loses what is not its first mirror base's"
_MIRROR = ("a mirror of the code's class holds its methods and the data Python reads of a class (__slots__, "
           "__abstractmethods__, a TypedDict's keys), not its exact __mro__ or __parameters__")
_PRIVATE_OF_TESTS = ("the code may not read or write a private attribute of a test's object (dataclasses.replace of a "
                     "test's dataclass with a _field)")
_NOT_EXCEPTIONS = ("the code's KeyboardInterrupt, or the GeneratorExit its generator's close() throws into a test's "
                   'context manager, does not cross as itself')
_FDS = "a file descriptor number of the tests' is another file, or none, in the code's process"
_C_TYPES = ("a C function of the standard library refuses the other side's stand-in where it checks the type "
            "(sqlite3.Row of a test's cursor, a datetime with a test's tzinfo)")
_C_BASES = ("a class of the code's on a standard class built in C (io.StringIO, io.TextIOBase, random.Random) or an "
            "object of a standard class the code made (argparse.Namespace) is no instance of that class in the tests")
_DIR = "dir() of an object of the code's lists a stand-in's names"
_AROUND_CALLBACK = ("warning filters, warning records and log handlers the code sets up do not reach a test's function"
                    ' it calls')
_INTROSPECT_TESTS = "the code cannot introspect a test's function (inspect.signature, iscoroutinefunction)"
_TAKEN_BACK = ("a test's object the code took back from its weak storage inside a call is held again only as the call "
               "ends: a test's function it calls meanwhile that drops the last other reference frees it")
_WEAK_IN_CALL = "a test's object the code holds only weakly inside a call lives until the call ends"
_OWN_ENTRY = ("a failure or exit in a class's or the module's setup or teardown, or in a fixture's teardown, is "
              'reported as its own entry, where pytest errors the test beside it')
_STDOUT_OWN = ("the code's sys.stdout is its own, not a stream a test patched in: what the code reads of it (its type,"
               ' isatty()) is its own')
_VARS = "vars() or __dict__ of the other side's class lists its mirror's own names (a __subclasshook__ reading it)"
_CLASS_DATA_LATER = ("a class's __slots__, __abstractmethods__ or TypedDict keys that the code changes after the class "
                     "crossed are as they were when it crossed")
_SPEC_MOCK = ("a Mock(spec=...) of the tests' says its class is the spec to the tests only: the code's isinstance "
              "reads its stand-in's class")
_ODD_SLOTS = ("__slots__ that is no str, tuple, list, set or dict of text (a str subclass, a dict subclass, an "
              "iterator) is not copied: the mirror's are its own")
_CHECK_CALLS = ("a metaclass of the code's that decides isinstance is asked only where the order in the tests says no: "
                "what it records of its calls differs")
_ON_STANDARD_ABC = ("a class of the code's on a standard ABC (Mapping, numbers.Number, a TypedDict's dict) is checked "
                    "by its order in the tests: its own register() and a TypedDict's refusal of checks are not seen "
                    "there")
_STANDARD_TYPE = "type() of a standard object of the code's (a property read off its class) is a proxy's class"
_SUBCLASS_PROPERTY = ("a test's class built on the code's sends plain functions only: a property it defines is not its "
                      "class's there, and the base's is replaced on the mirror by a stand-in")
_META_GETATTR = ("a metaclass __getattr__ of the code's is asked for the names the sandbox reads of its classes "
                 "(__dataclass_fields__, __match_args__)")
KNOWN = {
    "pt_finalizer_runs_at_del_before_any_call": _AT_NEXT_CALL,
    "pt_pickle_file_written_by_code": "the tests cannot unpickle an object of the code's class",
    "pt_traceback_names_code_frame": "the code's frames are not in a traceback the tests format",
    "pt_finalize_of_the_tests_before_the_codes_del_in_a_cycle":
        "a weak reference's callback of the tests' runs after the code's collection, not before its __del__",
    "pt_exception_mixed_bases_keyerror": _MIRROR,
    "pt_capsys_err_from_last_resort_handler":
        "the pytest stand-in has no logging plugin: a warning on a logger without handlers reaches stderr",
    "pt_generator_close_runs_finally_on_code_object":
        "a generator of the code's that the tests stop iterating (break) is closed when the run ends, not at once",
    "pt_code_weak_method_callback":
        "the code's stand-in of a test's bound method is no bound method: WeakMethod refuses it",
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
    "q4_min_code_sets_logger_level": "a logger's level the code sets is not the tests'",
    "q4_min_code_class_decorator_sets_repr":
        "a class decorator of the code's may not set a dunder on a test's class: the tests' file does not load",
    "q5_dc_tests_dc_to_code_ok": _PRIVATE_OF_TESTS,
    "q5_min_replace_tests_dc_private_field": _PRIVATE_OF_TESTS,
    "q5_min_code_keyboardinterrupt_caught": _NOT_EXCEPTIONS,
    "q5_gen_holds_tests_cm_ok": _NOT_EXCEPTIONS,
    "q5_min_code_close_gen_holding_tests_cm": _NOT_EXCEPTIONS,
    "q5_min_code_with_tests_cm_generatorexit": _NOT_EXCEPTIONS,
    "q5_files_tests_handles_fd_ok": _FDS,
    "q5_min_code_fstat_tests_fileno": _FDS,
    "q5_min_code_os_write_tests_fileno": _FDS,
    "q5_dt_tz_timedelta_ok": _C_TYPES,
    "q5_min_tests_tzinfo_to_code_datetime": _C_TYPES,
    "q5_sqlite_row_factory_functions_ok": _C_TYPES,
    "q5_sqlite_row_factory_functions_bad": _C_TYPES,
    "q5_min_code_sets_row_factory_on_tests_conn": _C_TYPES,
    "q5_warning_custom_class_and_code_records_ok": _AROUND_CALLBACK,
    "q5_min_code_catch_warnings_records_tests_callback": _AROUND_CALLBACK,
    "q5_min_code_warnings_as_errors_around_tests_callback": _AROUND_CALLBACK,
    "q5_min_code_handler_sees_tests_callback_logs": _AROUND_CALLBACK,
    "q5_code_introspects_tests_functions_ok": _INTROSPECT_TESTS,
    "q5_code_introspects_tests_functions_bad": _INTROSPECT_TESTS,
    "q5_min_code_signature_of_tests_function": _INTROSPECT_TESTS,
    "q5_min_code_iscoroutinefunction_of_tests_async": _INTROSPECT_TESTS,
    "q5_exc_notes_group_tests_errors_ok": "a note the code adds to a test's exception is lost",
    "q5_min_function_kwdefaults_code": ("a function's __code__ as the tests read it holds its flags, first line and "
                                        'name only'),
    "q5_exc_returned_traceback": 'an exception the code returns reaches the tests without its __traceback__',
    "q5_iterators_returned_lazy_ok": "operator.length_hint of the code's iterator is 0",
    "q5_sub_tests_dataclass_child_ok": "a test's @dataclass built on the code's dataclass does not load",
    "q5_sub_tests_dataclass_child_bad": "a test's @dataclass built on the code's dataclass does not load",
    "q5_sub_init_subclass_registry_ok": "the code's __init_subclass__ runs for a test's subclass only at its first use",
    "q5_sub_init_subclass_registry_bad": ("the code's __init_subclass__ runs for a test's subclass only at its first "
                                          'use'),
    "q5_min_raises_group_contains": 'the pytest stand-in has no ExceptionInfo.group_contains or pytest.RaisesGroup',
    "q5_min_raises_group_class": 'the pytest stand-in has no ExceptionInfo.group_contains or pytest.RaisesGroup',
    "q5_dir_of_code_instance": _DIR,
    "v24_weakset_takeback_nested_ok": _TAKEN_BACK,
    "v24_publish_unsubscribe_other_ok": _TAKEN_BACK,
    "v24_weakref_cb_calls_tests_midcall": _WEAK_IN_CALL,
    "v24_weakvalue_then_gc_in_code_midcall": _WEAK_IN_CALL,
    "v24_weakset_of_temps_in_call": _WEAK_IN_CALL,
    "v24_gen_item_freed_before_resume": ("an item of a test's generator the code lets go of dies after the generator "
                                         'is resumed, not before'),
    "v24_code_generator_holds_obj_ok": "a generator of the code's lives for the run, with what it holds",
    "v24_slots_obj_del_runs": ("a test's object that takes no weak reference (__slots__ without __weakref__) lives for"
                               ' the run once handed to the code'),
    "v24_del_calls_code_on_error_answer": ("a test's object handed to a call of the code's that raises lives as long "
                                           "as the code's exception (its frames hold it)"),
    "se_teardown_class": _OWN_ENTRY,
    "se_setup_class": _OWN_ENTRY,
    "se_session_fixture": _OWN_ENTRY,
    "se_class_fixture": _OWN_ENTRY,
    "se_teardown_module": _OWN_ENTRY,
    "tests_exit_in_teardown_class": _OWN_ENTRY,
    "out_code_reads_stdout": _STDOUT_OWN,
    "out_isatty": _STDOUT_OWN,
    "se_plain_exit0": ("a plain-assert file the code's sys.exit(0) ends passes as a script; the sandbox fails that "
                       "line, as pytest's import errors"),
    "se_code_obj": "the code's SystemExit whose code is an object reaches the tests with its text as the code",
    "mp_os_getcwd_crash": ("mock.patch('os.getcwd') of the tests patches the code's process too, where the sandbox's "
                           'own machinery calls it'),
    "v_complex_approx": ("pytest.approx reads a float subclass of the code's by its value, where pytest's arithmetic "
                         'asks its own __rsub__ and __abs__'),
    "cb_sysexit_swallowed_plain": ("the tests' own exit while they load is an error of the tests (pytest's import "
                                   'error), where the file run as a script fails'),
    "xu_setUpModule_unittest": 'setUpModule of a unittest file that fails is reported as its own entry',
    "tests_logging_to_code_ok": ("a logger of the code's is its own process's: what the tests set on the logger of "
                                 "that name (propagate, caplog's level) does not reach the code's records"),
    "formatter_argparse_ok": _C_BASES,
    "tzinfo_code_class": _C_TYPES,
    "tzinfo_split": _C_TYPES,
    "io_bases": _C_BASES,
    "random_subclass": _C_BASES,
    "cd_tests_property_to_code": _VARS,
    "min_cd_slots_changed_after": _CLASS_DATA_LATER,
    "min_cd_hook_reads_dict": _VARS,
    "protocol_issubclass_tests_class": _VARS,
    "mock_spec_abc_code_checks": _SPEC_MOCK,
    "mock_spec_plain_class_code_checks": _SPEC_MOCK,
    "slots_str_subclass_eq": _ODD_SLOTS,
    "slots_dict_subclass": _ODD_SLOTS,
    "slots_iterator": _ODD_SLOTS,
    "meta_counts_checks": _CHECK_CALLS,
    "std_abc_subclass_with_register": _ON_STANDARD_ABC,
    "typeddict_notrequired_hints": _ON_STANDARD_ABC,
    "property_type_identity": _STANDARD_TYPE,
    "min_property_of_base_after_subclass": _SUBCLASS_PROPERTY,
    "property_alias_readonly_bad": _SUBCLASS_PROPERTY,
    "abstract_property_tests_impl": _SUBCLASS_PROPERTY,
    "meta_getattr_log": _META_GETATTR,
    "abs_update_abstractmethods": ("abc.update_abstractmethods of a test's class on the code's abstract class updates "
                                   "it in the tests only: the code's class made for it stays abstract"),
    "meta_getattr_creates": ("pytest's collection reads names of the file's classes (pytestmark, ...) that a metaclass "
                             "__getattr__ of the code's records; the sandbox's pytest reads none"),
    "min_protocol_explicit_subclass": ("isinstance with the code's Protocol that is not runtime_checkable holds in the "
                                       "tests for an object of its explicit subclass, where Python raises TypeError"),
    "generic_protocol": _MIRROR,
    "tests_subclass_code_enum": ("a test's Enum with members built on the code's Enum (without members) holds its "
                                 "members as plain values: the code's methods are not theirs"),
    "hostile_skiptest": ("unittest.SkipTest of the code's (a harness's class) fails the test in the sandbox, where one "
                         "process skips it"),
    "thread_introspect": _DIR,
    "min_thread_dir_instance_attr": _DIR,
    "min_spoof_patched_module": ("a class of the code's that its own module binds as a standard class "
                                 "(json.decoder.JSONDecodeError = Fake) is that class for the tests: the code's "
                                 "process names its classes"),
    "min_match_class_pattern_on_a_list_subclass": ("a class pattern of the code's class on a standard container or "
                                                   "value (`case Stack([1, *rest])` of a list subclass) does not match "
                                                   "the object itself: its one positional sub-pattern is refused"),
    "min_deepcopy_copies_a_tests_object_the_code_holds_let_go_at_the_next_call": _AT_NEXT_CALL,
    "min_deepcopy_with_the_tests_own_memo_holds_the_sandboxs_keys": ("a memo the tests hand copy.deepcopy holds the "
                                                                     "sandbox's keys for the other side's memo beside "
                                                                     "the ids deepcopy puts there"),
    "min_pickle_of_two_code_objects_sharing_a_third": ("pickle.dumps of several of the code's objects copies each "
                                                       "apart (a pickler's memo does not reach the code's process): "
                                                       "an object they share is copied twice"),
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
    # A skip is reported passed and skipped (it fails nothing): read as the skip it is.
    found = {t.name: "skip" if t.skipped else "pass" if t.passed else "unsupported" if t.unsupported else "fail"
             for t in report.tests}
    return found, unsupported


@pytest.mark.parametrize(("name", "code", "tests"), CASES, ids=[case[0] for case in CASES])
def test_the_sandbox_judges_as_one_process(name, code, tests, tmp_path, request, one_process):
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    one_process.submit(code, tests, tmp_path)  # one process runs the case while the sandbox does: two cores
    try:
        got, unsupported = sandboxed(code, tests, style_of(tests))
    finally:
        truth = one_process.collect(tmp_path)
    differ = {k: (truth.get(k), got.get(k)) for k in set(truth) | set(got)
              if truth.get(k) != got.get(k) and got.get(k) != "unsupported"}
    if unsupported and style_of(tests) == "plain" and set(v for _, v in differ.values()) <= {"fail"}:
        differ = {}  # one verdict for the file, and it said it could not judge a line: a clear statement
    assert not differ, f"{name}: one process vs the sandbox, by test: {differ}"
