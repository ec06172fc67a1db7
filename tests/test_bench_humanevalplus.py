"""HumanEval+ as a dataset: the vendored release, the checks built from it by EvalPlus's rules, its time limits, and
every canonical solution passing in our sandbox."""

from __future__ import annotations

import hashlib
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.datasets import DATASETS, humanevalplus, load_dataset
from bench.datasets.humaneval import humaneval_tasks
from bench.datasets.humanevalplus import HUMANEVAL_PLUS
from bench.datasets.selection import select_tasks
from bench.datasets.task import TIME_LIMIT_ERROR
from bench.protocol.hidden import HIDDEN_LIMITS, hidden_limits, hidden_status
from sandbox import Limits, run_tests


@pytest.fixture(scope="module")
def plus():
    return {task["task_id"]: task for task in load_dataset(HUMANEVAL_PLUS).tasks}


def test_humanevalplus_is_a_dataset_with_humanevals_prompts_and_visible_tests(plus):
    assert HUMANEVAL_PLUS in DATASETS
    dataset = load_dataset(HUMANEVAL_PLUS)
    assert dataset.label == "humaneval+" and not dataset.from_file and len(dataset.tasks) == 164
    for task, base in zip(dataset.tasks, humaneval_tasks()):
        same = ("task_id", "index", "prompt", "tests", "entry_point", "visible_count")
        assert {k: task[k] for k in same} == {k: base[k] for k in same}
        assert task["hidden_tests"] != base["hidden_tests"] and "def check(candidate)" in task["hidden_tests"]
    assert [t["task_id"] for t in select_tasks("sample:41", dataset.tasks)] == \
           [t["task_id"] for t in select_tasks("sample:41", humaneval_tasks())]
    # The release's prompts are HumanEval's but for one, where an import moved: the loop is shown HumanEval's.
    moved = [tid for tid, r in humanevalplus.origin_records().items() if r["prompt"] != plus[tid]["prompt"]]
    assert moved == ["HumanEval/115"]


def test_the_vendored_files_are_the_releases(plus):
    readme = (humanevalplus.DATA_DIR / "README.md").read_text()
    for name in ("HumanEvalPlus-OriginFmt.jsonl.gz", "LICENSE"):
        digest = hashlib.sha256((humanevalplus.DATA_DIR / name).read_bytes()).hexdigest()
        assert f"`{name}` | copied unchanged" in readme and digest in readme, name
    assert "Apache License" in (humanevalplus.DATA_DIR / "LICENSE").read_text()
    assert "evalplus/humanevalplus_release" in readme and "200defc" in readme and "shared" not in readme


def test_atol_and_time_limits_come_from_tasks_json(plus):
    info = humanevalplus.tasks_info()
    assert len(info) == 164
    for task_id, record in humanevalplus.origin_records().items():
        # The release writes each task's atol into its own checks: ours agrees with it.
        written = re.findall(r"assertion\(candidate\(\*inp\), (?:exp|ref_func\(\*inp\)), ([^)]+)\)", record["test"])
        if written:
            assert float(written[0]) == info[task_id]["atol"], task_id
        task = info[task_id]
        # EvalPlus's rules: a call gets max(4 s, 4 x the ground truth's time); each test set min(60 s, its calls) + 1.
        call = max(4.0, 4 * task["slowest_call_seconds"])
        assert f"_EVALPLUS_CALL_LIMIT_S = {round(call, 1)!r}" in plus[task_id]["hidden_tests"]
        budget = sum(min(60, task[n] * round(call, 1)) + 1 for n in ("base_inputs", "plus_inputs"))
        assert plus[task_id]["hidden_timeout_s"] == round(budget + task["canonical_seconds"], 1)
        assert hidden_limits(plus[task_id]).timeout_s == plus[task_id]["hidden_timeout_s"]
    assert hidden_limits(humaneval_tasks()[0]) is HIDDEN_LIMITS  # HumanEval keeps its own limit
    assert info["HumanEval/32"]["atol"] == 1e-4
    assert sum(t["base_inputs"] + t["plus_inputs"] for t in info.values()) == 124253


@pytest.mark.dataset
def test_every_canonical_solution_passes_its_humanevalplus_hidden_tests_in_our_sandbox(plus):
    # EvalPlus's reference solutions must score 164/164 under our scorer, with the time limits a candidate gets.
    def score(task):
        code = humanevalplus.canonical_program(task["task_id"])
        return task["task_id"], run_tests(code, task["hidden_tests"], entry_point=task["entry_point"],
                                          limits=hidden_limits(task))
    slowest_first = sorted(plus.values(), key=lambda t: -humanevalplus.tasks_info()[t["task_id"]]["canonical_seconds"])
    with ThreadPoolExecutor(max_workers=2) as pool:  # the slowest first: none is left running alone at the end
        failures = {tid: r.summary() for tid, r in pool.map(score, slowest_first) if not r.passed}
    assert failures == {}


def _run(plus, task_id: str, code: str, limits: Limits | None = None):
    task = plus[task_id]
    return run_tests(code, task["hidden_tests"], entry_point=task["entry_point"], limits=limits or hidden_limits(task))


def test_find_zero_takes_any_root_within_atol_as_evalplus_does(plus):
    # HumanEval/32: EvalPlus's oracle |poly(xs, x)| <= atol, not the release's check (which fails every answer), and
    # not its expected outputs: Newton's method started at 5 or -5 finds other roots than the canonical solution's
    # (started at 0) on a quarter of the inputs, and they are right too.
    prompt = humanevalplus.canonical_program("HumanEval/32").split("def find_zero")[0]
    other_roots = prompt + (
        "def find_zero(xs):\n    dxs = [xs[i] * i for i in range(1, len(xs))]\n    for x in (5.0, -5.0):\n"
        "        try:\n            for _ in range(1000):\n                if abs(poly(xs, x)) < 1e-6:\n"
        "                    return x\n                x = x - poly(xs, x) / poly(dxs, x)\n"
        "        except (ZeroDivisionError, OverflowError):\n            pass\n    x = 0.0\n"
        "    for _ in range(1000):\n        if abs(poly(xs, x)) < 1e-5:\n            break\n"
        "        x = x - poly(xs, x) / poly(dxs, x)\n    return x\n")
    assert _run(plus, "HumanEval/32", other_roots).passed
    off = _run(plus, "HumanEval/32", other_roots.replace("    return x\n", "    return x + 0.01\n"))
    assert off.status == "failed" and "abs(_poly(*inp, out)) <= 0.0001" in off.summary()


def test_floats_pass_within_atol_and_types_must_match(plus):
    # HumanEval/4 returns a float (atol 0, so 1e-6 as EvalPlus enforces): a tiny error passes, a larger one fails.
    canonical = humanevalplus.canonical_program("HumanEval/4")
    wrap = canonical.replace("def mean_absolute_deviation", "def _mad") + \
        "\ndef mean_absolute_deviation(numbers):\n    return _mad(numbers) + {}\n"
    assert _run(plus, "HumanEval/4", wrap.format("1e-9")).passed
    assert not _run(plus, "HumanEval/4", wrap.format("1e-3")).passed
    # HumanEval/20 returns a tuple of floats: the same numbers in a list are not the same answer (EvalPlus's
    # type check, which the release's own helper leaves out).
    listed = humanevalplus.canonical_program("HumanEval/20").replace("def find_closest_elements", "def _fce") + \
        "\ndef find_closest_elements(numbers):\n    return list(_fce(numbers))\n"
    report = _run(plus, "HumanEval/20", listed)
    assert report.status == "failed" and "type(out) == type(exp)" in report.summary()


def test_a_call_over_its_limit_is_a_timeout_at_once_apart_from_a_wrong_answer(plus):
    # EvalPlus limits each call (4 s here): a candidate that hangs on one input stops there, a timeout, not after
    # the whole run's limit; a wrong answer stays a failure.
    canonical = humanevalplus.canonical_program("HumanEval/0")
    hangs = canonical.replace("def has_close_elements", "def _hce") + \
        "\ndef has_close_elements(numbers, threshold):\n    while len(numbers) == 2:\n        pass\n" \
        "    return _hce(numbers, threshold)\n"
    started = time.perf_counter()
    report = _run(plus, "HumanEval/0", hangs)
    assert report.status == "failed" and hidden_status(report) == "timeout"
    assert report.tests[0].error_type == TIME_LIMIT_ERROR and "EvalPlus time limit" in report.summary()
    assert time.perf_counter() - started < 4 + 10  # the call limit, and starting the run
    wrong = _run(plus, "HumanEval/0", canonical + "\ndef has_close_elements(numbers, threshold):\n    return False\n")
    assert wrong.status == hidden_status(wrong) == "failed"
    # Many calls each under the call limit, over the whole run's limit: the sandbox stops it, a timeout too.
    slow = canonical + "\nimport time\n_real = has_close_elements\n" \
        "def has_close_elements(numbers, threshold):\n    time.sleep(0.2)\n    return _real(numbers, threshold)\n"
    assert hidden_status(_run(plus, "HumanEval/0", slow, Limits(timeout_s=2))) == "timeout"

