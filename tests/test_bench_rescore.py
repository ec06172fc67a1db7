"""Rescoring a finished HumanEval run on HumanEval+ without the model, a run on --dataset humaneval+, and a second
scorer (plain Python subprocesses, not our sandbox) that agrees with the stored HumanEval+ verdicts task by task."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agent import Search, Solver
from bench.datasets import load_dataset
from bench.datasets.humaneval import load_problems
from bench.datasets.humanevalplus import HUMANEVAL_PLUS
from bench.protocol.labels import Protocol
from bench.reports.cost import estimate_from_runs
from bench.reports.export import export_samples
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.driver import tasks_of_run
from bench.runs.lifecycle import create_run, start_run
from bench.runs.reference import REFERENCE_DIR
from bench.runs.transfer import load_runs
from bench.scoring.rescore import rescore_run, rescored_twin
from fakes import PromptKeyedModel, humaneval_answers
from stored_runs import run_slice

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = REFERENCE_DIR / "bench-runs.json.gz"
RUN_05B = "20261130-110503-2f694d"  # the embedded 0.5B on all 164 tasks (bench/reference_runs/README.md)
FIRST_TASKS = 60  # of its tasks the second scorer reads: all 164 take minutes on 2 cores (the README says it agreed)
# HumanEval's own canonical solutions: 0 and 2 pass HumanEval+ too; 22's lets bools through as integers, which
# HumanEval's tests never try and HumanEval+'s do.
TASKS = "HumanEval/0,HumanEval/2,HumanEval/22"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)


def _solver(tmp_path: Path) -> Solver:
    # HumanEval/2's first answer is wrong, its repair the canonical solution: two candidates, answers by budget [0, 1].
    answer = humaneval_answers(load_problems(), right={"HumanEval/0", "HumanEval/22"},
                               fix_on_attempt={"HumanEval/2": 2})
    return Solver(PromptKeyedModel(answer=answer), tmp_path / "solves.sqlite")


@pytest.fixture
def humaneval_run(tmp_path) -> tuple[Path, str]:
    db_path = tmp_path / "bench.sqlite"
    config = RunConfig(tasks=TASKS, search=Search(budget=2, strategy="repair"), parallel=1, backend="threads")
    run_id = start_run(config, db_path, solver=_solver(tmp_path), background=False)
    return db_path, run_id


def test_a_rescored_run_keeps_the_answers_and_changes_only_the_hidden_verdicts(humaneval_run):
    db_path, source_id = humaneval_run
    db = store.open_store(db_path)
    before = store.results(db, source_id)
    assert [r["hidden_by_attempt"] for r in before] == [[True], [False, True], [True]]
    rescored_id = rescore_run(db_path, source_id)
    run, source = store.get_run(db, rescored_id), store.get_run(db, source_id)
    assert (run.protocol, run.rescored_from, run.dataset, run.status) == \
           (Protocol.RESCORED, source_id, HUMANEVAL_PLUS, "finished")
    assert run.task_ids == source.task_ids and run.model == source.model
    after = store.results(db, rescored_id)
    same = ("task_id", "task_index", "final_status", "visible_passed", "visible_by_attempt", "answer_by_cap",
            "iterations", "tokens_in", "tokens_out", "thread_id", "choice")
    assert [{k: r[k] for k in same} for r in after] == [{k: r[k] for k in same} for r in before]
    # HumanEval's canonical solution of task 22 passes HumanEval's tests and fails HumanEval+'s.
    assert [r["hidden_by_attempt"] for r in after] == [[True], [False, True], [False]]
    assert [r["hidden_passed"] for r in after] == [1, 1, 0]
    old, new = store.attempts(db, source_id), store.attempts(db, rescored_id)
    assert [(a["task_id"], a["iteration"], a["code"], a["visible_status"], a["kind"]) for a in new] == \
           [(a["task_id"], a["iteration"], a["code"], a["visible_status"], a["kind"]) for a in old]
    assert new[-1]["hidden_status"] == "failed" and "HumanEval/22" == new[-1]["task_id"]
    assert "_evalplus_assert_output" in json.loads(new[-1]["hidden_report"])["tests"][0]["traceback"]
    assert store.results(db, source_id) == before  # the source is left as it was
    assert rescored_twin(db, source_id).id == rescored_id
    # The cost of a run of this model is read from the run of the loop, not from its rescoring (the newest).
    assert store.list_runs(db)[0].id == rescored_id
    assert estimate_from_runs(store.list_runs(db), source.provider, source.model).source.startswith(
        f"run {source_id}:")


def test_list_show_compare_and_report_label_a_rescored_run_and_keep_it_apart(humaneval_run):
    db_path, source_id = humaneval_run
    done = _cli("--db", str(db_path), "rescore", source_id, "--dataset", "humaneval+")
    assert done.returncode == 0, done.stderr
    rescored_id = rescored_twin(store.open_store(db_path), source_id).id
    assert f"RESCORED on humaneval+ (the candidates and answers of run {source_id}" in done.stdout
    assert f"rescored {source_id} on humaneval+ as {rescored_id}" in done.stderr
    listed = _cli("--db", str(db_path), "list").stdout
    line = next(ln for ln in listed.splitlines() if ln.startswith(rescored_id))
    assert " rescored " in line and "humaneval+" in line and line.endswith(f"rescored from {source_id}")
    compared = _cli("--db", str(db_path), "compare", source_id, rescored_id).stdout
    assert "protocols differ (A honest, B rescored)" in compared and "regressed 1" in compared
    report = _cli("--db", str(db_path), "report").stdout
    # The source's row carries the HumanEval+ numbers; the rescored run is no row of its own.
    row = next(ln for ln in report.splitlines() if f"`{source_id}`" in ln and ln.startswith("|"))
    assert "| 100.0% | 66.7% | 66.7% / 33.3% |" in row
    assert f"`{rescored_id}` (of `{source_id}`)" in report and f"| `{rescored_id}` |" not in report
    assert "HumanEval+: pass@1 / first answer" in report


@pytest.mark.parametrize("case, message", [
    ("unknown", "no run 'nope'"),
    ("onto humaneval", "was scored on humaneval when it ran: rescore it onto humaneval+"),
    ("onto mbpp", "mbpp-dev has other tasks: a HumanEval run can be rescored onto humaneval+ only"),
    ("not finished", "is created, not finished: resume it first"),
    ("leaky", "is leaky: only honest runs of the loop are rescored"),
    ("task file", "ran on file:"),
    ("rescored", "is itself a rescoring"),
])
def test_what_cannot_be_rescored_is_refused_clearly_and_nothing_is_stored(tmp_path, humaneval_run, case, message):
    db_path, source_id = humaneval_run
    db = store.open_store(db_path)
    run_id, dataset = source_id, HUMANEVAL_PLUS
    if case == "unknown":
        run_id = "nope"
    elif case == "onto humaneval":
        dataset = "humaneval"
    elif case == "onto mbpp":
        dataset = "mbpp-dev"
    elif case == "not finished":
        _, run_id = create_run(RunConfig(tasks="0", backend="threads"), db_path)
    elif case == "leaky":
        run_id = start_run(RunConfig(tasks="HumanEval/0", feedback="oracle", search=Search(budget=1),
                                                   backend="threads"),
                           db_path, solver=_solver(tmp_path), background=False)
    elif case == "task file":
        path = tmp_path / "one.jsonl"
        path.write_text(json.dumps({"task_id": "double", "prompt": "Return twice the number given.",
                                    "tests": "assert double(2) == 4\n", "hidden_tests": "assert double(3) == 6\n"}))
        solver = Solver(PromptKeyedModel(answer=lambda prompt, attempt: "```python\ndef double(x):\n    return 2 * x\n"
                                                                        "```"), tmp_path / "s2.sqlite")
        run_id = start_run(RunConfig(tasks_file=str(path),
                                                   backend="threads"), db_path, solver=solver, background=False)
    elif case == "rescored":
        run_id = rescore_run(db_path, source_id)
    count = len(store.list_runs(db))
    with pytest.raises((ValueError, store.StoreError), match=re.escape(message)):
        rescore_run(db_path, run_id, dataset)
    assert len(store.list_runs(db)) == count
    refused = _cli("--db", str(db_path), "rescore", run_id, "--dataset", dataset)
    assert refused.returncode == 2 and message in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert len(store.list_runs(db)) == count


def test_a_run_on_humanevalplus_scores_with_its_tests_and_counts_timeouts_apart(tmp_path):
    # HumanEval's own canonical fib (HumanEval/55) is exponential: HumanEval+'s larger inputs stop it at the call
    # limit, a timeout and not a wrong answer; HumanEval/22's is a wrong answer on HumanEval+.
    db_path = tmp_path / "bench.sqlite"
    answer = humaneval_answers(load_problems(), right={"HumanEval/0", "HumanEval/22", "HumanEval/55"})
    solver = Solver(PromptKeyedModel(answer=answer), tmp_path / "solves.sqlite")
    config = RunConfig(tasks="HumanEval/0,HumanEval/22,HumanEval/55", dataset=HUMANEVAL_PLUS, feedback="none",
                       backend="threads")
    run_id = start_run(config, db_path, solver=solver, background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert run.status == "finished" and run.dataset == "humaneval+" and run.protocol == "honest"
    assert [(r["task_id"], r["hidden_passed"]) for r in store.results(db, run_id)] == \
           [("HumanEval/0", 1), ("HumanEval/22", 0), ("HumanEval/55", 0)]
    assert [a["hidden_status"] for a in store.attempts(db, run_id)] == ["passed", "failed", "timeout"]
    shown = _cli("--db", str(db_path), "show", run_id)
    assert "dataset humaneval+" in shown.stdout
    assert "answers that ran out of time on the hidden tests: 1 (apart from wrong answers" in shown.stdout
    assert json.loads(_cli("--db", str(db_path), "show", run_id, "--json").stdout)["metrics"]["answers_timed_out"] == 1
    # A run on HumanEval+ resumes from its packaged tasks, like a HumanEval run.
    assert tasks_of_run(db, run)["HumanEval/55"]["hidden_timeout_s"] > 10


# --- a second scorer ------------------------------------------------------------------------------------------------


def plain_scorer_passes(code: str, task: dict, folder: Path) -> bool:
    """A second scorer, independent of our sandbox: the program, the task's HumanEval+ check and
    check(entry_point) in one file, run by a plain Python subprocess under the task's time limit; exit 0 passes."""
    path = folder / f"{task['task_id'].replace('/', '_')}.py"
    path.write_text(f"{code}\n\n{task['hidden_tests']}\n\ncheck({task['entry_point']})\n", encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, str(path)], cwd=folder, capture_output=True,
                              timeout=task["hidden_timeout_s"])
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


@pytest.mark.dataset
def test_a_plain_subprocess_scorer_agrees_with_the_stored_humanevalplus_verdicts(tmp_path):
    db_path = tmp_path / "bench.sqlite"
    db = store.open_store(db_path)
    dump = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    first = json.loads(next(r for r in dump["runs"] if r["id"] == RUN_05B)["task_ids"])[:FIRST_TASKS]
    load_runs(db, run_slice(dump, RUN_05B, first, f"0-{FIRST_TASKS - 1}"))
    rescored_id = rescore_run(db_path, RUN_05B)
    samples = tmp_path / "samples.jsonl"
    assert export_samples(db, rescored_id, samples) == FIRST_TASKS
    tasks = {task["task_id"]: task for task in load_dataset(HUMANEVAL_PLUS).tasks}
    stored = {r["task_id"]: bool(r["hidden_passed"]) for r in store.results(db, rescored_id)}
    folder = tmp_path / "plain"
    folder.mkdir()
    chosen = sorted((json.loads(line) for line in samples.read_text().splitlines()),
                    key=lambda s: -tasks[s["task_id"]]["hidden_timeout_s"])  # the slowest first, as rescore_run
    with ThreadPoolExecutor(max_workers=2) as pool:  # two subprocesses at a time, as rescore_run's default
        plain = dict(zip([s["task_id"] for s in chosen], pool.map(
            lambda s: plain_scorer_passes(s["completion"], tasks[s["task_id"]], folder), chosen)))
    assert plain == stored
    assert 0 < sum(plain.values()) < FIRST_TASKS  # both verdicts occur: agreement is not trivial


# --- the Bench page ------------------------------------------------------------------------------------------------


def test_the_bench_page_offers_humanevalplus_and_labels_a_rescored_run(tmp_path, app):
    db_path = tmp_path / "bench.sqlite"  # the app's DATA_DIR is tmp_path: its Bench page reads these runs
    source_id = start_run(RunConfig(tasks=TASKS, search=Search(budget=2, strategy="repair"), parallel=1,
                                                  backend="threads"),
                          db_path, solver=_solver(tmp_path), background=False)
    rescored_id = rescore_run(db_path, source_id)
    at = app.switch_page("views/bench.py").run()
    assert not at.exception, at.exception
    assert "humaneval+" in at.selectbox(key="bench_dataset").options
    runs = next(df for df in at.dataframe if "protocol" in df.value.columns).value
    assert runs.set_index("run").loc[rescored_id, "protocol"] == Protocol.RESCORED
    assert runs.set_index("run").loc[rescored_id, "dataset"] == HUMANEVAL_PLUS
    # The newest run is shown first: the rescored one, labelled as such in its banner and caption.
    assert any(i.value.startswith(
        f"Protocol: rescored on humaneval+ (the candidates and answers of run {source_id}") for i in at.info)
    assert any(c.value.startswith("dataset humaneval+ · repair search, budget 2 candidates") and
               c.value.endswith(f"· protocol rescored, from run {source_id}") for c in at.caption)
