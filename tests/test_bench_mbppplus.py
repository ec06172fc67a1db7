"""MBPP+ as a dataset: the vendored release (v0.1.0 with EvalPlus's v0.2.0 removals), MBPP's words and first assert
visible, EvalPlus's inputs and oracles in the hidden checks, each task's split, and every canonical solution passing
in our sandbox."""

from __future__ import annotations

import gzip
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.data import make_mbppplus
from bench.datasets import DATASETS, PACKAGED, humanevalplus, load_dataset, mbppplus
from bench.datasets.evalplus_checks import MbppCheck, mbpp_hidden_test
from bench.datasets.mbpp_dev import FILE as MBPP_DEV_FILE
from bench.datasets.mbppplus import HELD_OUT_PART, MBPP_PLUS, TUNED_PART
from bench.datasets.task import TIME_LIMIT_ERROR
from bench.protocol.hidden import hidden_limits, hidden_status
from sandbox import run_tests


@pytest.fixture(scope="module")
def plus():
    return {task["task_id"]: task for task in load_dataset(MBPP_PLUS).tasks}


def _run(plus, task_id: str, code: str):
    task = plus[task_id]
    return run_tests(code, task["hidden_tests"], entry_point=mbppplus.records()[task_id]["entry_point"],
                     limits=hidden_limits(task))


def _wrapped(task_id: str, body: str) -> str:
    """The canonical solution renamed _ref, and a function of the task's name whose body may call it."""
    name = mbppplus.records()[task_id]["entry_point"]
    return mbppplus.canonical_program(task_id).replace(f"def {name}(", "def _ref(") + \
        f"\ndef {name}(*args):\n{body}\n"


def test_mbppplus_is_a_packaged_dataset_of_378_tasks_in_words_with_the_first_assert_visible(plus):
    assert MBPP_PLUS in DATASETS and MBPP_PLUS in PACKAGED
    dataset = load_dataset(MBPP_PLUS)
    assert dataset.label == "mbpp+" and not dataset.from_file and len(dataset.tasks) == 378
    assert [t["index"] for t in dataset.tasks] == list(range(378))
    for task in dataset.tasks:
        record = mbppplus.records()[task["task_id"]]
        # EvalPlus's prompt is a docstring of the words and one assert: the words are the task, the assert the test.
        assert task["prompt"] in record["prompt"] and "assert" not in task["prompt"] and "\n" not in task["prompt"]
        assert task["tests"].splitlines()[-1] in record["prompt"] and task["visible_count"] == 1
        assert task["code_prompt"] == record["prompt"] and task["hidden_timeout_s"] > 0
        assert "def check(candidate)" in task["hidden_tests"] and task["tests"] not in task["hidden_tests"]
    # No entry point, as in mbpp-dev: the agent infers it, but where it cannot (a function named as a builtin).
    assert {t["task_id"]: t["entry_point"] for t in dataset.tasks if t["entry_point"]} == {"Mbpp/126": "sum"}
    # An import the assert needs and MBPP's harness got from the reference code (as mbpp-dev writes it).
    assert plus["Mbpp/596"]["tests"].startswith("import sys\n")


def test_the_tasks_mbpp_dev_shares_read_as_mbpp_dev_has_them_but_for_the_links_evalplus_took_out(plus):
    dev = {json.loads(line)["task_id"]: json.loads(line) for line in MBPP_DEV_FILE.read_text().splitlines()}
    shared = [task for task in plus.values() if f"mbpp/{mbppplus.task_number(task['task_id'])}" in dev]
    assert len(shared) == 154
    other_words = []
    for task in shared:
        mine = dev[f"mbpp/{mbppplus.task_number(task['task_id'])}"]
        assert task["tests"] == "".join(line + "\n" for line in mine.get("test_imports", [])) + mine["tests"]
        if task["prompt"] != mine["prompt"]:
            assert "http" in mine["prompt"] and "http" not in task["prompt"], task["task_id"]
            other_words.append(task["task_id"])
    assert sorted(other_words, key=mbppplus.task_number) == list(make_mbppplus.LINKS)


def test_the_vendored_data_is_v010_with_evalplus_v020_removals_and_its_hashes_are_in_the_readme():
    readme = (mbppplus.DATA_DIR / "README.md").read_text()
    for name in ("MbppPlus.jsonl.gz", "LICENSE", "expected.jsonl.gz", "tasks.json"):
        digest = hashlib.sha256((mbppplus.DATA_DIR / name).read_bytes()).hexdigest()
        assert digest in readme, name
    data = gzip.decompress(mbppplus.DATA_FILE.read_bytes())
    assert hashlib.sha256(data).hexdigest() == make_mbppplus.V020_SHA256 in readme  # the v0.2.0 release's file
    records = [json.loads(line) for line in data.decode().splitlines()]
    assert len(records) == make_mbppplus.V010_TASKS - len(make_mbppplus.REMOVED) == 378
    assert not {r["task_id"] for r in records} & set(make_mbppplus.REMOVED)
    assert not [r["task_id"] for r in records if "http" in r["prompt"]]
    assert "Apache License" in (mbppplus.DATA_DIR / "LICENSE").read_text()
    assert "evalplus/mbppplus_release" in readme and "f995b08" in readme and "64fc419" in readme
    assert "shared" not in readme and "/work" not in readme


def test_the_script_takes_out_what_evalplus_took_out_of_v010_and_checks_the_result_against_v020():
    # v0.1.0 as far as the script reads it: the 21 tasks EvalPlus took out, and the links in 18 prompts.
    v020 = [json.loads(line) for line in gzip.decompress(mbppplus.DATA_FILE.read_bytes()).decode().splitlines()]
    v010 = [{**r, "prompt": make_mbppplus.LINKS.get(r["task_id"], "") + r["prompt"]} for r in v020]
    v010 += [{**v020[0], "task_id": task_id} for task_id in make_mbppplus.REMOVED]
    data = make_mbppplus.jsonl_bytes(make_mbppplus.apply_v020_changes(v010))
    assert hashlib.sha256(data).hexdigest() == make_mbppplus.V020_SHA256
    with pytest.raises(SystemExit, match="399 tasks"):
        make_mbppplus.apply_v020_changes(v020)  # v0.2.0 itself is not the source
    with pytest.raises(SystemExit, match="Mbpp/734: its prompt has no"):
        make_mbppplus.apply_v020_changes(v020 + v010[378:])  # nor is a v0.1.0 whose links are gone


def test_each_tasks_split_is_recorded_and_only_the_test_split_is_held_out(plus):
    info = mbppplus.tasks_info()
    assert len(info) == 378 and all(info[t]["split"] == mbppplus.split_of(t) for t in plus)
    counts = {split: sum(i["split"] == split for i in info.values()) for split in ("prompt", "test", "validation",
                                                                                   "train")}
    assert counts == {"prompt": 7, "test": 224, "validation": 39, "train": 108}
    parts = mbppplus.parts()
    assert sum(p == HELD_OUT_PART for p in parts.values()) == 224 and set(parts.values()) == {HELD_OUT_PART,
                                                                                                TUNED_PART}
    # The development set holds no task of the held-out part: a figure on that part was never tuned on.
    dev_numbers = {int(json.loads(line)["task_id"].split("/")[1]) for line in MBPP_DEV_FILE.read_text().splitlines()}
    assert not [t for t, p in parts.items() if p == HELD_OUT_PART and mbppplus.task_number(t) in dev_numbers]


def test_inputs_are_read_as_evalplus_reads_them_and_counted_in_tasks_json():
    info = mbppplus.tasks_info()
    base, plus_inputs = mbppplus.task_inputs("Mbpp/2")
    assert base[0] == [(3, 4, 5, 6), (5, 7, 4, 10)]  # JSON's lists back to the tuples the function takes
    assert isinstance(mbppplus.task_inputs("Mbpp/124")[0][0][1], complex)
    assert mbppplus.task_inputs("Mbpp/793")[1] == []  # its plus inputs are written as {}: none
    for task_id, record in mbppplus.records().items():
        left_out = info[task_id].get("left_out", [])
        assert info[task_id]["base_inputs"] == len(record["base_input"]), task_id
        assert info[task_id]["plus_inputs"] == len(record["plus_input"]) - len(left_out), task_id
        assert info[task_id]["atol"] == record["atol"]
    assert {t: i["left_out"] for t, i in info.items() if "left_out" in i} == make_mbppplus.LEFT_OUT
    assert sum(i["base_inputs"] for i in info.values()) == 1174
    assert sum(i["plus_inputs"] for i in info.values()) == 39836  # 39841 in the release, 5 of Mbpp/255 left out
    # Outputs too large to write out (and a Counter whose repr orders its keys by count) are computed by the check.
    computed = [t for t, line in mbppplus.expected_outputs().items() if line["base"] is None]
    assert computed == ["Mbpp/88", "Mbpp/255", "Mbpp/630"]
    assert all("_evalplus_reference" in mbpp_hidden_test(mbppplus.mbppplus_check(t), info[t]) for t in computed)


@pytest.mark.dataset
def test_every_canonical_solution_passes_its_mbppplus_hidden_tests_in_our_sandbox(plus):
    # EvalPlus's reference solutions must score 378/378 under our scorer, with the time limits a candidate gets.
    def score(task_id):
        return task_id, _run(plus, task_id, mbppplus.canonical_program(task_id))
    # The slowest first (Mbpp/599's takes half a minute): none is left running alone at the end.
    slowest_first = sorted(plus, key=lambda tid: -mbppplus.tasks_info()[tid]["canonical_seconds"])
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = {tid: r.summary() for tid, r in pool.map(score, slowest_first) if not r.passed}
    assert failures == {}


def test_set_oracles_take_the_same_elements_in_any_order_and_not_others(plus):
    # Mbpp/2 (similar_elements) is one of EvalPlus's set-compared tasks: a list in another order is the same answer.
    assert _run(plus, "Mbpp/2", _wrapped("Mbpp/2", "    return list(reversed(_ref(*args)))")).passed
    extra = _run(plus, "Mbpp/2", _wrapped("Mbpp/2", "    return tuple(_ref(*args)) + (99,)"))
    assert extra.status == "failed" and "EvalPlus's oracle for this task rejects" in extra.summary()


def test_none_or_not_oracles_take_any_match_and_refuse_the_wrong_answer(plus):
    # Mbpp/737's canonical solution returns a re.Match or None: any non-None value (or the right bool) passes.
    assert _run(plus, "Mbpp/737", _wrapped("Mbpp/737", "    found = _ref(*args)\n"
                                                       "    return found.group(0) if found else None")).passed
    assert _run(plus, "Mbpp/737", _wrapped("Mbpp/737", "    return _ref(*args) is not None")).passed
    assert not _run(plus, "Mbpp/737", _wrapped("Mbpp/737", "    return _ref(*args) is None")).passed


def test_the_second_readings_evalplus_accepts_pass_too(plus):
    # Mbpp/581: the height read as the pyramid's perpendicular height; Mbpp/558: numbers padded to the same length.
    from bench.datasets.evalplus_checks import _ORACLE_HELPERS
    for task_id, name in (("Mbpp/581", "surface_Area"), ("Mbpp/558", "digit_distance_nums")):
        helper = _ORACLE_HELPERS[name].replace(f"_evalplus_{'surface_area' if name == 'surface_Area' else name}",
                                               name)
        assert _run(plus, task_id, helper).passed, task_id
        assert not _run(plus, task_id, f"def {name}(*args):\n    return -1\n").passed, task_id


def test_floats_pass_within_tolerance_and_types_must_match(plus):
    # Mbpp/82 (volume_sphere, atol 1e-4) returns a float: a relative error of 1e-12 passes, one of 1 does not.
    assert mbppplus.tasks_info()["Mbpp/82"]["atol"] == 1e-4
    assert _run(plus, "Mbpp/82", _wrapped("Mbpp/82", "    return _ref(*args) * (1 + 1e-12)")).passed
    assert not _run(plus, "Mbpp/82", _wrapped("Mbpp/82", "    return _ref(*args) + 1.0")).passed
    # Mbpp/106 returns a tuple: the same items in a list are another answer (Mbpp/2's, compared as sets, pass).
    listed = _run(plus, "Mbpp/106", _wrapped("Mbpp/106", "    return list(_ref(*args))"))
    assert listed.status == "failed" and "out == exp" in listed.summary()


def test_each_test_set_starts_from_the_tasks_atol_and_keeps_1e_6_once_it_met_a_float():
    # EvalPlus's loop: after a float expected output, atol stays 1e-6 for the rest of that set (so a tuple of an int
    # and a float, which is not "floats", is compared within it), and the plus set starts again from the task's 0.
    check = MbppCheck(entry_point="f", atol=0, base_inputs="[[1], [2]]", plus_inputs="[[2]]",
                      base_results="[0.5, (1, 2.0)]", plus_results="[(1, 2.0)]")
    tests = mbpp_hidden_test(check, {"slowest_call_seconds": 0.0})
    close = "def f(x):\n    return 0.5 if x == 1 else (1, 2.0 + 1e-9)\n"
    base_only = tests.replace("plus_inputs = [[2]]", "plus_inputs = []")
    assert run_tests(close, base_only, entry_point="f").passed
    report = run_tests(close, tests, entry_point="f")
    assert report.status == "failed" and "out == exp" in report.summary()


def test_a_call_over_its_limit_is_a_timeout(plus):
    hangs = _wrapped("Mbpp/3", "    while True:\n        pass")
    report = _run(plus, "Mbpp/3", hangs)
    assert hidden_status(report) == "timeout" and report.tests[0].error_type == TIME_LIMIT_ERROR
    assert "EvalPlus time limit" in report.summary()


@pytest.mark.parametrize("module, tasks, name", [(humanevalplus, "humanevalplus_tasks", "humaneval+"),
                                                 (mbppplus, "mbppplus_tasks", MBPP_PLUS)])
def test_no_numpy_in_the_sandbox_refuses_evalplus_datasets_with_what_to_do(monkeypatch, module, tasks, name):
    monkeypatch.setattr(module, "module_offered", lambda package: False)
    getattr(module, tasks).cache_clear()
    try:
        with pytest.raises(ValueError, match="SANDBOX_PACKAGES"):
            load_dataset(name)
    finally:
        getattr(module, tasks).cache_clear()


def test_samples_made_elsewhere_score_on_mbppplus_and_show_reads_the_two_parts_apart(tmp_path):
    # EvalPlus's completion continues its own prompt (a docstring), not our words; a solution is the whole program.
    from bench.reports.summary import part_lines, show_metrics
    from bench.runs import store
    from bench.scoring.imported import evaluate_file

    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(line) + "\n" for line in [
        {"task_id": "Mbpp/2", "completion": mbppplus.records()["Mbpp/2"]["canonical_solution"]},
        {"task_id": "Mbpp/11", "solution": "def remove_Occ(s, ch):\n    return s\n"}]))
    run_id = evaluate_file(samples, MBPP_PLUS, tmp_path / "bench.sqlite")
    db = store.open_store(tmp_path / "bench.sqlite")
    run = store.get_run(db, run_id)
    assert {a["task_id"]: bool(a["hidden_passed"]) for a in store.attempts(db, run_id)} == {"Mbpp/2": True,
                                                                                            "Mbpp/11": False}
    by_part = show_metrics(db, run)["by_part"]
    assert {part: (m["tasks"], m["total_tasks"], m["pass_at_1"]) for part, m in by_part.items()} == \
        {TUNED_PART: (1, 1, 1.0), HELD_OUT_PART: (1, 1, 0.0)}  # Mbpp/2: prompt split; Mbpp/11: test split
    assert part_lines(by_part)[1].startswith("held out (MBPP's test split): tasks 1/1   pass@1   0.0%")
