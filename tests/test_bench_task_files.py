"""Task files: loading and refusing them, selecting among their tasks, a run on one with a fake model (store,
resume without the file, CLI), tasks lost to the environment counted apart, and the shipped MBPP file."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agent import Search, Solver
from bench.datasets import load_dataset
from bench.datasets.mbpp_dev import FILE as MBPP_DEV_FILE
from bench.datasets.selection import TaskSpecError, select_tasks
from bench.datasets.task_file import TaskFileError, keep_copy, load_task_file, parse_task_file
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import create_run, resume_run, start_run, stop_run
from bench.runs.transfer import dump_runs, load_runs
from bench.scoring.metrics import run_metrics
from fakes import KeyedRecipe, PromptKeyedModel, keyed_answers
from polling import wait_for
from sandbox import Limits, run_tests

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "tasks.jsonl"
MBPP = MBPP_DEV_FILE

# Three tasks in words: one right at once, one right only after a repair, one that passes its visible test but
# not the hidden ones (a wrong answer the visible tests cannot tell).
TASKS = [
    {"task_id": "double", "prompt": "Return twice the number given.", "tests": "assert double(2) == 4\n",
     "hidden_tests": "assert double(2) == 4\nassert double(-3) == -6\nassert double(0) == 0\n"},
    {"task_id": "shout", "prompt": "Return the text in capitals, followed by an exclamation mark.",
     "entry_point": "shout", "tests": "assert shout('hi') == 'HI!'\n",
     "hidden_tests": "assert shout('hi') == 'HI!'\nassert shout('') == '!'\nassert shout('a b') == 'A B!'\n"},
    {"task_id": "root", "prompt": "Return the integer square root of a non-negative number.",
     "test_imports": ["import math"], "tests": "assert root(16) == math.isqrt(16)\n",
     "hidden_tests": "assert root(16) == 4\nassert root(15) == math.isqrt(15)\nassert root(0) == 0\n"},
]
ANSWERS = (
    ("twice", "def double(x):\n    return 2 * x\n", ""),
    ("capitals", "def shout(text):\n    return text.upper()\n", "def shout(text):\n    return text.upper() + '!'\n"),
    ("square root", "def root(n):\n    return 4\n", ""),  # right on the visible test only
)


def write_tasks(path: Path, tasks: list[dict]) -> Path:
    path.write_text("".join(json.dumps(task) + "\n" for task in tasks), encoding="utf-8")
    return path


def task_file_solver(tmp_path: Path, answers: tuple = ANSWERS) -> Solver:
    """A fake model keyed by a phrase of each task: its first answer, then (from the second call) its repair."""
    return Solver(PromptKeyedModel(answer=keyed_answers(answers)), tmp_path / "solves.sqlite")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


# --- loading -----------------------------------------------------------------------------------------------------


def test_the_example_file_loads_with_imports_before_both_test_sets():
    loaded = load_task_file(EXAMPLE)
    assert [t["task_id"] for t in loaded.tasks] == ["second-largest", "circle-area", "normalize-rows"]
    assert [t["index"] for t in loaded.tasks] == [0, 1, 2]
    area = loaded.tasks[1]
    assert area["entry_point"] == "circle_area" and loaded.tasks[0]["entry_point"] is None
    assert area["tests"].startswith("import math\n") and area["hidden_tests"].startswith("import math\n")
    assert [t["visible_count"] for t in loaded.tasks] == [1, 1, 1]
    assert loaded.label == f"file:tasks.jsonl (sha {loaded.sha256[:8]})" and len(loaded.sha256) == 64


GOOD = json.dumps(TASKS[0])


@pytest.mark.parametrize("lines, message", [
    ([GOOD, '{"task_id": "a",'], "line 2: not JSON"),
    (["[1, 2]"], "line 1: not a JSON object but list"),
    ([json.dumps({k: v for k, v in TASKS[0].items() if k != "hidden_tests"})], "line 1: missing field 'hidden_tests'"),
    ([json.dumps({**TASKS[0], "prompt": "  "})], "line 1: 'prompt' is empty"),
    ([json.dumps({**TASKS[0], "tests": 5})], "line 1: 'tests' must be a string, got int"),
    ([json.dumps({**TASKS[0], "task_id": 7})], "line 1: 'task_id' must be a string"),
    ([GOOD, "", GOOD], "line 3: duplicate task_id 'double' (first on line 1)"),
    ([json.dumps({**TASKS[0], "tests": "assert double(2) ==\n"})], "line 1: 'tests': the tests do not parse"),
    ([json.dumps({**TASKS[0], "hidden_tests": "x = double(2)\n"})], "line 1: 'hidden_tests': the tests hold no assert"),
    ([json.dumps({**TASKS[0], "entry_point": "two words"})], "line 1: entry_point \"two words\" is not a Python name"),
    ([json.dumps({**TASKS[0], "entry_point": "triple"})],
     "line 1: the tests call `double`; the entry point says `triple`"),
    ([json.dumps({**TASKS[0], "test_imports": "import math"})], "line 1: 'test_imports' must be a list of strings"),
    ([json.dumps({**TASKS[0], "test_imports": [1]})], "line 1: 'test_imports' must be a list of strings"),
    ([json.dumps({**TASKS[0], "test_imports": ["x = 1"]})], "line 1: test_imports[0] 'x = 1' is not an import"),
    ([json.dumps({**TASKS[0], "tests": "def check(candidate):\n    assert candidate(2) == 4\n"})],
     "line 1: 'tests' are a check(candidate): give the entry_point"),
    ([json.dumps({**TASKS[0], "task_id": "a,b"})], "line 1: task_id 'a,b' has spaces around it or a comma"),
    ([], "holds no task"),
])
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_stored(tmp_path, lines, message):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TaskFileError) as refused:
        load_task_file(path)
    assert message in str(refused.value) and str(refused.value).startswith("bad.jsonl")
    db_path = tmp_path / "bench.sqlite"
    solver = task_file_solver(tmp_path)
    with pytest.raises(ValueError, match="bad.jsonl"):
        start_run(RunConfig(tasks_file=str(path), backend="threads"), db_path, solver=solver)
    assert store.list_runs(store.open_store(db_path)) == [] and solver.model.calls == 0
    done = _cli("--db", str(db_path), "run", "--tasks-file", str(path))
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert store.list_runs(store.open_store(db_path)) == []


def test_every_bad_line_is_named_at_once_and_non_utf8_by_its_line():
    lines = [GOOD, "nope", json.dumps({**TASKS[1], "prompt": ""}), json.dumps(TASKS[2])]
    with pytest.raises(TaskFileError) as refused:
        parse_task_file("\n".join(lines).encode(), "mine.jsonl")
    assert "line 2: not JSON" in str(refused.value) and "line 3: 'prompt' is empty" in str(refused.value)
    with pytest.raises(TaskFileError, match="mine.jsonl: line 2: not UTF-8"):
        parse_task_file(GOOD.encode() + b"\n\xff\xfe\n", "mine.jsonl")
    with pytest.raises(TaskFileError, match="cannot read the task file"):
        load_task_file("/nonexistent/tasks.jsonl")


def test_an_uploaded_copy_is_kept_by_content_under_its_own_name(tmp_path):
    data = EXAMPLE.read_bytes()
    first = keep_copy(data, "../../etc/tasks.jsonl", tmp_path)
    assert first.name == "tasks.jsonl" and first.parent.parent == tmp_path and first.read_bytes() == data
    assert keep_copy(data, "tasks.jsonl", tmp_path) == first


# --- selecting ---------------------------------------------------------------------------------------------------


def test_selection_works_on_any_task_list_by_id_index_range_and_sample(tmp_path):
    tasks = load_task_file(write_tasks(tmp_path / "t.jsonl", TASKS + [
        {**TASKS[0], "task_id": "1"}, {**TASKS[0], "task_id": "mbpp/7"}])).tasks

    def ids(spec):
        return [t["task_id"] for t in select_tasks(spec, tasks)]
    assert ids("all") == ["double", "shout", "root", "1", "mbpp/7"]
    assert ids("root,double") == ["double", "root"]  # in dataset order
    assert ids("0-2") == ["double", "shout", "root"] and ids("4,0") == ["double", "mbpp/7"]
    assert ids("1") == ["1"]  # an id made of digits means that task, not that position
    assert ids("mbpp/7") == ["mbpp/7"] and ids("sample:2") == ["double", "root"]
    for spec, message in [("nope", "unknown task 'nope': give a task id"), ("0-9", "the dataset has tasks 0 to 4"),
                          ("3-1", "start is after the end"), ("sample:6", "sample:N needs N from 1 to 5")]:
        with pytest.raises(TaskSpecError, match=message):
            select_tasks(spec, tasks)


def test_datasets_by_name_and_file():
    assert load_dataset().label == "humaneval" and len(load_dataset().tasks) == 164
    mbpp = load_dataset("mbpp-dev")
    assert mbpp.label.startswith("file:mbpp-sanitized-dev.jsonl (sha ") and mbpp.from_file
    assert load_dataset(tasks_file=MBPP).label == mbpp.label
    with pytest.raises(ValueError, match="not both"):
        load_dataset("mbpp-dev", EXAMPLE)
    with pytest.raises(ValueError, match="unknown dataset 'mbpp'"):
        load_dataset("mbpp")


# --- a run on a task file ----------------------------------------------------------------------------------------


def test_a_task_file_run_stores_its_tasks_and_resumes_without_the_file(tmp_path):
    path = write_tasks(tmp_path / "mine.jsonl", TASKS)
    db_path = tmp_path / "bench.sqlite"
    config = RunConfig(tasks_file=str(path), tasks="all", search=Search(budget=3, strategy="repair"),
                       parallel=2, backend="threads")
    _, run_id = create_run(config, db_path)  # stored, not started: the file goes before it runs
    path.unlink()
    solver = task_file_solver(tmp_path)
    resume_run(run_id, db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    assert run.dataset.startswith("file:mine.jsonl (sha ") and run.tasks_file == "mine.jsonl"
    assert len(run.tasks_sha256) == 64 and run.task_ids == ["double", "shout", "root"]
    results = store.results(db, run_id)
    assert [(r["task_id"], r["task_index"]) for r in results] == [("double", 0), ("shout", 1), ("root", 2)]
    by_id = {r["task_id"]: r for r in results}
    assert by_id["double"]["hidden_by_attempt"] == [True] and by_id["double"]["iterations"] == 1
    assert by_id["shout"]["visible_by_attempt"] == by_id["shout"]["hidden_by_attempt"] == [False, True]
    # Passing its visible test is not passing: root's answer fails the hidden tests it never saw.
    assert by_id["root"]["visible_passed"] == 1 and by_id["root"]["hidden_passed"] == 0
    assert by_id["root"]["visible_tests"] == 1 and by_id["root"]["final_status"] == "passed"
    metrics = run_metrics(run, results)
    assert metrics["pass_at_1"] == pytest.approx(2 / 3) and metrics["first_attempt_pass_at_1"] == pytest.approx(1 / 3)
    assert metrics["visible_precision"] == pytest.approx(2 / 3) and metrics["lost_to_environment"] == 0
    hidden = store.attempts(db, run_id, "root")[0]
    assert hidden["hidden_status"] == "failed" and hidden["visible_status"] == "passed"
    assert [t["task_id"] for t in store.run_tasks(db, run_id)] == ["double", "shout", "root"]
    assert store.run_tasks(db, run_id)[2]["hidden_tests"].startswith("import math\n")


def test_a_task_file_run_stopped_midway_resumes_without_the_file_and_duplicates_nothing(tmp_path):
    tasks = [{**TASKS[0], "task_id": f"double-{i}"} for i in range(6)]
    path = write_tasks(tmp_path / "six.jsonl", tasks)
    db_path = tmp_path / "bench.sqlite"
    solver = task_file_solver(tmp_path)
    solver.model.delay = 0.2
    run_id = start_run(RunConfig(tasks_file=str(path), parallel=1,
                                               backend="threads"), db_path, solver=solver)
    db = store.open_store(db_path)
    wait_for(lambda: len(store.finished_task_ids(db, run_id)) >= 2)
    stop_run(run_id, db_path)
    wait_for(lambda: store.get_run(db, run_id).status == "stopped")
    path.unlink()
    resume_run(run_id, db_path, solver=solver, background=False)
    assert store.get_run(db, run_id).status == "finished"
    assert [r["task_id"] for r in store.results(db, run_id)] == [t["task_id"] for t in tasks]
    pairs = [(a["task_id"], a["iteration"]) for a in store.attempts(db, run_id)]
    assert len(pairs) == len(set(pairs)) == 6


def test_the_cli_runs_a_task_file_and_list_show_and_dump_say_what_it_ran_on(tmp_path):
    path = write_tasks(tmp_path / "mine.jsonl", TASKS)
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(RunConfig(tasks_file=str(path), tasks="double,root", feedback="none",
                                               backend="threads"), db_path,
                       solver=task_file_solver(tmp_path), background=False)
    label = store.get_run(store.open_store(db_path), run_id).dataset

    listed = _cli("--db", str(db_path), "list")
    assert listed.returncode == 0 and label in listed.stdout and "2/2 done, 1 passing" in listed.stdout
    shown = _cli("--db", str(db_path), "show", run_id)
    assert f"dataset {label}   selection double,root" in shown.stdout
    report = _cli("--db", str(db_path), "report").stdout
    assert f"| {label} double,root (2) |" in report and "| 0 / 0 |" in report
    # A dump carries the tasks: the loaded run can resume elsewhere, without the file.
    other = store.open_store(tmp_path / "other.sqlite")
    load_runs(other, json.loads(json.dumps(dump_runs(store.open_store(db_path), [run_id]))))
    assert [t["task_id"] for t in store.run_tasks(other, run_id)] == ["double", "root"]
    bad = _cli("--db", str(db_path), "run", "--tasks-file", str(path), "--dataset", "mbpp-dev")
    assert bad.returncode == 2 and "not both" in bad.stderr


@pytest.mark.ray
def test_a_task_file_run_on_ray_gives_the_threads_rows_without_the_file(tmp_path, ray_cluster):
    # The tasks travel with each call to the actors, read from the store: the file is gone before the run starts.
    path = write_tasks(tmp_path / "mine.jsonl", TASKS)
    db_path = tmp_path / "bench.sqlite"
    base = {"tasks_file": str(path), "search": Search(budget=3, strategy="repair")}
    threads = start_run(RunConfig(**base, parallel=2, backend="threads"), db_path,
                        solver=task_file_solver(tmp_path),
                        background=False)
    _, on_ray = create_run(RunConfig(**base, backend="ray", ray_address=ray_cluster, actors=2),
                           db_path)
    path.unlink()
    resume_run(on_ray, db_path, recipe=KeyedRecipe(ANSWERS), background=False)
    db = store.open_store(db_path)
    assert store.get_run(db, on_ray).status == "finished", store.get_run(db, on_ray).error
    same = ("task_id", "task_index", "final_status", "visible_passed", "hidden_passed", "iterations",
            "hidden_by_attempt", "visible_by_attempt", "answer_by_cap", "visible_tests")
    assert [{k: r[k] for k in same} for r in store.results(db, on_ray)] == \
           [{k: r[k] for k in same} for r in store.results(db, threads)]
    assert {r["worker"].split("@")[0] for r in store.results(db, on_ray)} <= {"actor-1", "actor-2"}


# --- environment errors ------------------------------------------------------------------------------------------


def finished_run(tmp_path: Path, tasks: list[dict], solver: Solver) -> tuple:
    """(db path, store, run, results by task id) of a run of these tasks to its end (2 candidates a task)."""
    path = write_tasks(tmp_path / "tasks.jsonl", tasks)
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(RunConfig(tasks_file=str(path), search=Search(budget=2, strategy="repair"), parallel=1,
                                 backend="threads"), db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished", run.error
    return db_path, db, run, {r["task_id"]: r for r in store.results(db, run_id)}


def test_environment_errors_are_recorded_counted_apart_and_do_not_stop_the_run(tmp_path):
    tasks = [
        TASKS[0],
        # The tests import what the sandbox does not offer: refused before any model call.
        {"task_id": "frame", "prompt": "Return the number of rows of a table.",
         "tests": "import nosuchpackage_xyz\nassert rows(nosuchpackage_xyz.Table()) == 0\n",
         "hidden_tests": "import nosuchpackage_xyz\nassert rows(nosuchpackage_xyz.Table()) == 0\n"},
        # The model's answer imports what the sandbox does not offer: the solve ends in env_error.
        {"task_id": "fancy", "prompt": "Return the length of a list, fancily.", "tests": "assert fancy([1, 2]) == 2\n",
         "hidden_tests": "assert fancy([1, 2]) == 2\nassert fancy([]) == 0\n"},
        # Every answer holds no code: lost to extraction.
        {"task_id": "mute", "prompt": "Return the number minus one, quietly.", "tests": "assert mute(3) == 2\n",
         "hidden_tests": "assert mute(3) == 2\n"},
    ]
    keyed = keyed_answers(ANSWERS + (("fancily", "import nosuchpackage_xyz\ndef fancy(items):\n    return len(items)\n",
                                      ""),))

    def answer(prompt: str, attempt: int) -> str:
        return "I would rather not write code." if "quietly" in prompt else keyed(prompt, 1)
    solver = Solver(PromptKeyedModel(answer=answer), tmp_path / "solves.sqlite")
    db_path, db, run, by_id = finished_run(tmp_path, tasks, solver)
    run_id = run.id
    frame, fancy = by_id["frame"], by_id["fancy"]
    assert frame["final_status"] == "env_error" and "nosuchpackage_xyz" in frame["error"]
    assert frame["iterations"] == 0 and frame["hidden_passed"] == 0 and frame["thread_id"] is None
    assert fancy["final_status"] == "env_error" and "nosuchpackage_xyz" in fancy["error"]
    assert fancy["iterations"] == 1 and fancy["hidden_passed"] == 0 and len(store.attempts(db, run_id, "fancy")) == 1
    assert by_id["mute"]["extract_errors"] == by_id["mute"]["iterations"] == 2
    metrics = run_metrics(run, list(by_id.values()))
    assert (metrics["lost_to_environment"], metrics["lost_to_extraction"], metrics["lost_to_bad_input"]) == (2, 1, 0)
    assert metrics["pass_at_1"] == 0.25 and metrics["tasks"] == 4  # lost tasks count as not passed
    shown = _cli("--db", str(db_path), "show", run_id)
    assert "lost to environment errors: 2 · lost to extraction errors: 1 (counted as not passed)" in shown.stdout
    assert "| 2 / 1 |" in _cli("--db", str(db_path), "report").stdout
    exported = tmp_path / "samples.jsonl"
    assert _cli("--db", str(db_path), "export", run_id, "--jsonl", str(exported)).returncode == 0
    assert {json.loads(line)["task_id"] for line in exported.read_text().splitlines()} == {"double", "mute"}


def test_tests_the_sandbox_cannot_run_as_one_process_are_counted_apart_never_as_failures(tmp_path):
    threads = ("import threading\ndef later(callback, delay):\n    timer = threading.Timer(delay, callback)\n"
               "    timer.start()\n    return timer\n")
    tasks = [
        TASKS[0],
        # Visible tests that hand an id() to the code: refused before any model call.
        {"task_id": "ids", "prompt": "Keep nodes by their id.",
         "tests": "reg = Registry()\nn = Node()\nreg.add(n)\nassert reg.find(id(n)) is n\n",
         "hidden_tests": "reg = Registry()\nn = Node()\nreg.add(n)\nassert reg.find(id(n)) is n\n"},
        # Hidden tests whose callback a timer of the code calls after the call returned: the answer's hidden verdict
        # is not given.
        {"task_id": "threads", "prompt": "Call a callback on a timer.",
         "tests": "assert later(print, 5).cancel() is None\n",
         "hidden_tests": "import threading\nassert later(print, 5).cancel() is None\ndone = threading.Event()\n"
                         "later(done.set, 0.01)\nassert done.wait(2)\n"},
    ]
    solver = task_file_solver(tmp_path, ANSWERS + (("on a timer", threads, ""), ("by their id", "x = 1\n", "")))
    db_path, db, run, by_id = finished_run(tmp_path, tasks, solver)
    run_id = run.id
    assert by_id["ids"]["final_status"] == "unsupported_tests" and by_id["ids"]["iterations"] == 0
    assert "id()" in by_id["ids"]["error"]
    assert by_id["threads"]["final_status"] == "passed" and by_id["threads"]["hidden_passed"] == 0
    assert [a["hidden_status"] for a in store.attempts(db, run_id, "threads")] == ["unsupported"]
    metrics = run_metrics(run, list(by_id.values()))
    assert (metrics["lost_to_unsupported"], metrics["lost_to_environment"]) == (1, 0)
    assert metrics["pass_at_1"] == pytest.approx(1 / 3)  # neither counts as passed
    shown = _cli("--db", str(db_path), "show", run_id).stdout
    assert "lost to tests the sandbox cannot run as one process would: 1 (counted as not passed)" in shown
    assert "answers the hidden tests could not judge (they do what the sandbox cannot run as one process " \
           "would): 1 (apart from wrong answers" in shown


def test_a_task_the_agent_refuses_is_bad_input_not_an_outage(tmp_path):
    task = {**TASKS[0], "task_id": "java", "prompt": "Write this in Java: return twice the number given."}
    path = write_tasks(tmp_path / "java.jsonl", [task, TASKS[0]])
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(RunConfig(tasks_file=str(path), parallel=1, backend="threads"), db_path,
                       solver=task_file_solver(tmp_path), background=False)
    db = store.open_store(db_path)
    assert store.get_run(db, run_id).status == "finished"
    java = {r["task_id"]: r for r in store.results(db, run_id)}["java"]
    assert java["final_status"] == "bad_input" and "Python only" in java["error"]
    assert run_metrics(store.get_run(db, run_id), store.results(db, run_id))["lost_to_bad_input"] == 1


# --- the shipped MBPP file ---------------------------------------------------------------------------------------


def test_the_mbpp_file_has_170_dev_tasks_the_first_assert_visible_and_all_hidden():
    lines = [json.loads(line) for line in MBPP.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 170 and len({r["task_id"] for r in lines}) == 170
    numbers = [int(r["task_id"].split("/")[1]) for r in lines]
    assert numbers == sorted(numbers) and not [n for n in numbers if 11 <= n <= 510]  # never MBPP's test split
    for record in lines:
        asserts = record["hidden_tests"].splitlines()
        assert len(asserts) >= 3 and all(a.startswith("assert ") for a in asserts)
        assert record["tests"] == asserts[0] + "\n" and "entry_point" not in record
        assert record["prompt"] and "assert" not in record["prompt"]
    # MBPP runs code and tests in one namespace; ours apart, so a module the asserts use is imported for them.
    assert [(r["task_id"], r["test_imports"]) for r in lines if r["test_imports"]] == [("mbpp/596", ["import sys"])]
    tasks = load_task_file(MBPP).tasks
    assert [t["task_id"] for t in tasks] == [r["task_id"] for r in lines]
    assert all(t["visible_count"] == 1 and t["entry_point"] is None for t in tasks)
    readme = (MBPP.parent / "README.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in readme and "google-research/google-research" in readme and "shared" not in readme


@pytest.mark.dataset
def test_the_mbpp_reference_solutions_pass_their_hidden_tests_in_our_sandbox():
    # As for HumanEval's canonical solutions: a failing task must be the model's failure, not the scorer's.
    records = [json.loads(line) for line in MBPP.read_text(encoding="utf-8").splitlines()]
    tasks = {t["task_id"]: t for t in load_task_file(MBPP).tasks}

    def score(record):
        return record["task_id"], run_tests(record["canonical_solution"], tasks[record["task_id"]]["hidden_tests"],
                                            limits=Limits(timeout_s=20))
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = {task_id: report.summary() for task_id, report in pool.map(score, records) if not report.passed}
    assert failures == {}


def test_the_mbpp_file_is_what_the_script_makes(tmp_path):
    records = [json.loads(line) for line in MBPP.read_text(encoding="utf-8").splitlines()]
    # Back to MBPP's shape, plus a task of its test split, which the script must leave out.
    source = [{"task_id": int(r["task_id"].split("/")[1]), "prompt": r["prompt"], "code": r["canonical_solution"],
               "test_imports": r["test_imports"], "test_list": r["hidden_tests"].splitlines()} for r in records]
    source.append({**source[0], "task_id": 11})
    (tmp_path / "sanitized-mbpp.json").write_text(json.dumps(source), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = subprocess.run([sys.executable, "-m", "bench.data.make_mbpp_task_file",
                           str(tmp_path / "sanitized-mbpp.json"), str(out)],
                          capture_output=True, text=True, timeout=60, cwd=MBPP.parents[2])
    assert done.returncode == 0 and "wrote 170 tasks" in done.stdout
    assert out.read_text(encoding="utf-8") == MBPP.read_text(encoding="utf-8")


def test_the_example_tasks_are_solvable_here_and_their_hidden_tests_tell_wrong_from_right():
    right = {"second-largest": "def second_largest(xs):\n    s = sorted(set(xs))\n"
                               "    return s[-2] if len(s) > 1 else None\n",
             "circle-area": "import math\ndef circle_area(r):\n    return math.pi * r * r\n",
             "normalize-rows": "def normalize_rows(a):\n    return a / a.sum(axis=1, keepdims=True)\n"}
    # Each passes its visible test and fails a hidden one: the hidden tests are worth keeping hidden.
    visible_only = {"second-largest": "def second_largest(xs):\n    return sorted(xs)[-2]\n",
                    "circle-area": "def circle_area(r):\n    return 3.141592653589793 * r\n",
                    "normalize-rows": "def normalize_rows(a):\n"
                                      "    return a / a.sum(axis=1, keepdims=True) if a.shape[1] == 2 else a\n"}
    for task in load_task_file(EXAMPLE).tasks:
        for code, hidden_passes in ((right[task["task_id"]], True), (visible_only[task["task_id"]], False)):
            assert run_tests(code, task["tests"], entry_point=task["entry_point"]).passed, task["task_id"]
            hidden = run_tests(code, task["hidden_tests"], entry_point=task["entry_point"])
            assert hidden.passed is hidden_passes, (task["task_id"], hidden.summary())


# --- the Bench page ----------------------------------------------------------------------------------------------


@pytest.fixture
def bench_page(app):
    return app.switch_page("views/bench.py").run()


def test_the_bench_page_runs_the_mbpp_task_file_and_says_so(bench_page, tmp_path):
    at = bench_page
    at.selectbox(key="bench_dataset").set_value("mbpp-dev")
    next(t for t in at.text_input if t.label == "Tasks").set_value("HumanEval/0")
    next(b for b in at.button if b.label == "Start the run").click().run()
    assert any("unknown task 'HumanEval/0'" in e.value for e in at.error)  # selections are among MBPP's tasks
    next(t for t in at.text_input if t.label == "Tasks").set_value("mbpp/2,mbpp/3")
    at.number_input(key="bench_budget").set_value(1)
    at.selectbox(key="bench_backend").set_value("threads")  # the page's model is a test double: this process's
    next(b for b in at.button if b.label == "Start the run").click().run()
    assert not at.exception, at.exception
    db = store.open_store(tmp_path / "bench.sqlite")
    wait_for(lambda: store.list_runs(db) and store.list_runs(db)[0].status == "finished")
    run = store.list_runs(db)[0]
    assert run.dataset.startswith("file:mbpp-sanitized-dev.jsonl (sha ") and run.task_ids == ["mbpp/2", "mbpp/3"]
    at.run()
    assert any(c.value.startswith(f"dataset {run.dataset} · one shot, prompt ") for c in at.caption)


def test_the_bench_page_counts_a_task_lost_to_the_environment_and_says_why(bench_page, tmp_path):
    lost = {"task_id": "frame", "prompt": "Return the number of rows of a table.",
            "tests": "import nosuchpackage_xyz\nassert rows(nosuchpackage_xyz.Table()) == 0\n",
            "hidden_tests": "import nosuchpackage_xyz\nassert rows(nosuchpackage_xyz.Table()) == 0\n"}
    path = write_tasks(tmp_path / "env.jsonl", [TASKS[0], lost])
    start_run(RunConfig(tasks_file=str(path), parallel=1, backend="threads"), tmp_path / "bench.sqlite",
              solver=task_file_solver(tmp_path), background=False)
    at = bench_page.run()
    assert not at.exception, at.exception
    assert any(w.value == "lost to environment errors: 1: counted as not passed" for w in at.warning)
    next(s for s in at.selectbox if s.label == "Task candidates").set_value("frame").run()
    assert any(w.value.startswith("**env_error**: the tests import nosuchpackage_xyz") for w in at.warning)
    assert not any(b.label == "Open this task's solve in the debugger" for b in at.button)
