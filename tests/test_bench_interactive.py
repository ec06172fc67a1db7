"""The interactive protocol (bench run --ask N): a simulated person answers each solve's questions from the task's
reference; every question is stored, pass@1 is read after 0, 1, ... questions beside the honest figure and labelled
apart from it, a stopped run resumes, and processes give the threads' rows. A real store and a real sandbox; the
model is a double whose first answer and doubt batch disagree (fakes.ASKED_ANSWERS on fixtures/asked_tasks.jsonl)."""

from __future__ import annotations

import json

import pytest

from backend_runs import SAME
from bench.__main__ import main as bench_cli
from bench.datasets.task_file import TaskFileError, parse_task_file
from bench.reports.interactive import INTERACTIVE_TITLE, question_table
from bench.reports.summary import show_metrics
from bench.runs import store
from bench.runs.config import RunConfig
from bench.runs.lifecycle import resume_run, start_run, stop_run
from bench.scoring.interactive import interactive_metrics
from bench.scoring.metrics import run_metrics
from fakes import ASKED_ANSWERS, ASKED_TASKS

ASKED = (("double", "double(4)", "returns 8", "assert double(4) == 8", [3, 5], [1, 2, 4]),
         ("triple", "triple(4)", "returns 12", "assert triple(4) == 12", [], [1, 2, 3, 4, 5]))


def _config(**changes) -> RunConfig:
    return RunConfig(**{"tasks_file": str(ASKED_TASKS), "backend": "threads", "parallel": 1, "ask": 2, **changes})


def _asked(db, run_id: str) -> list[tuple]:
    return [(q["task_id"], q["call"], q["answer"], q["added_test"], q["kept"], q["dropped"])
            for q in store.questions(db, run_id)]


@pytest.fixture(scope="module")
def asked(tmp_path_factory) -> tuple:
    """One interactive run of the tiny dataset on threads, that the other runs are read against: its store, its id
    and its solver."""
    db_path = tmp_path_factory.mktemp("asked") / "bench.sqlite"
    solver = ASKED_ANSWERS()
    return store.open_store(db_path), start_run(_config(), db_path, solver=solver, background=False), solver


def test_an_interactive_run_stores_each_question_and_reads_pass_at_1_after_each_number_of_them(asked):
    db, run_id, solver = asked
    run = store.get_run(db, run_id)
    assert (run.status, run.protocol, run.ask, run.search.max_questions) == ("finished", "interactive", 2, 2)
    # The questions in the order asked, with the simulated person's answers: a choice (double) and a result no
    # candidate gave, typed (triple); tasks whose answers agree put none.
    assert sorted(_asked(db, run_id)) == sorted(ASKED)
    by_task = {q["task_id"]: q for q in store.questions(db, run_id)}
    assert by_task["double"]["reply"] == {"choice": 1, "returns": None, "raises": None}
    assert by_task["triple"]["reply"] == {"choice": None, "returns": "12", "raises": None}
    assert {q["answer_before"] for q in by_task.values()} == {1}
    results = {r["task_id"]: r for r in store.results(db, run_id)}
    # double: the chooser kept the first answer (n + 3) before the question, #3 (n * 2) after; triple's answer came
    # from the round drawn with the added test (#6).
    assert {t: r["answer_by_question"] for t, r in results.items()} == {
        "double": [0, 2], "triple": [0, 5], "square": [0], "halve": [0]}
    assert all(r["doubt_seconds"] > 0 for r in results.values())
    # Each task keeps the inputs its candidates were probed on, in the order of every attempt's behaviour, so that a
    # stored run is read afterwards without drawing the doubt's proposals again; the questions were put on them.
    for task_id, result in results.items():
        assert result["probes"] and all(kind in ("original", "mutated", "outside") for _, kind in result["probes"])
        assert {len(json.loads(a["behaviour"])) for a in store.attempts(db, run_id, task_id)} == {
            len(result["probes"])}
    assert {q["call"] for q in store.questions(db, run_id)} <= {c for r in results.values() for c, _ in r["probes"]}
    metrics = run_metrics(run, list(results.values()))
    assert metrics["pass_after_questions"] == [0.25, 0.75, 0.75] and metrics["pass_at_1"] == 0.75
    # halve's answers pass its visible test and all agree, and are wrong: the one passed answer of four refuted.
    assert (metrics["passed_precision"], metrics["answers_passed"]) == (0.75, 4)
    assert metrics["questions_per_task"] == 0.5
    assert 0 < metrics["doubt_seconds_per_task"] < metrics["seconds_per_task"]
    assert run.passing == 3  # the answer after the last question, as list counts it
    # The solves ran on the visible tests and those the answers wrote, nothing else.
    threads = {s["task"]: s["thread_id"] for s in solver.store.solves(origin=None)}
    tasks = {t["task_id"]: t for t in store.run_tasks(db, run_id)}
    assert solver.state_at(threads[tasks["double"]["prompt"]])["tests"] == tasks["double"]["tests"] + \
        "assert double(4) == 8\n"
    # The page's table of questions reads the same rows.
    assert [(row["task"], row["call"], row["answer"]) for row in question_table(db, run_id, "triple")] == [
        ("triple", "triple(4)", "returns 12")]


def test_a_run_whose_person_reads_the_tables_corrects_the_wrong_pass_no_question_reaches(tmp_path, capsys):
    db_path = tmp_path / "bench.sqlite"
    run_id = start_run(_config(corrections=2), db_path, solver=ASKED_ANSWERS(), background=False)
    db = store.open_store(db_path)
    run = store.get_run(db, run_id)
    assert (run.status, run.ask, run.corrections) == ("finished", 2, 2)
    # The questions are as in a run without corrections; then halve's answer, wrong in every candidate alike, is
    # corrected at the first row of its table inside the contract, and the round drawn with that test is right.
    assert sorted(_asked(db, run_id)) == sorted(ASKED + (
        ("halve", "halve(5)", "returns 2", "assert halve(5) == 2", [], [1, 2, 3, 4, 5]),))
    assert {q["task_id"]: q["by"] for q in store.questions(db, run_id)} == {
        "double": "solve", "triple": "solve", "halve": "person"}
    results = {r["task_id"]: r for r in store.results(db, run_id)}
    assert {t: (r["answer_by_question"], r["answer_by_correction"]) for t, r in results.items()} == {
        "double": ([0, 2], [2]), "triple": ([0, 5], [5]), "square": ([0], [0]), "halve": ([0], [0, 5])}
    # halve read one row to find the wrong one, then the new answer's table whole: its inputs like the tests', but
    # not the tests' own calls (halve(5), a mutation of halve(4), is one now).
    inside = [call for call, kind in results["halve"]["probes"]
              if kind == "mutated" and call not in ("halve(4)", "halve(5)")]
    assert results["halve"]["rows_read"] == 1 + len(inside)
    metrics = run_metrics(run, list(results.values()))
    assert metrics["pass_after_questions"] == [0.25, 0.75, 0.75]
    assert metrics["pass_after_corrections"] == [0.75, 1.0, 1.0] and metrics["pass_at_1"] == 1.0
    # After the questions halve's answer passed the tests of its time and was wrong; after the correction none is.
    assert (metrics["passed_precision"], metrics["answers_passed"]) == (0.75, 4)
    assert (metrics["passed_precision_corrected"], metrics["corrections_per_task"]) == (1.0, 0.25)
    assert bench_cli(["show", run_id, "--db", str(db_path)]) == 0
    shown = capsys.readouterr().out
    assert "then reads the answer's table and corrects up to 2 wrong rows" in shown
    assert "pass@1 after k rows corrected (at most 2 a task): k=0: 75.0%  k=1: 100.0%  k=2: 100.0%" in shown
    for wrong, message in (({"corrections": 0}, "1 or more"), ({"ask": None, "corrections": 1}, "without --ask")):
        with pytest.raises(ValueError, match=message):
            start_run(_config(**wrong), tmp_path / "refused.sqlite", solver=ASKED_ANSWERS(), background=False)


def test_an_interactive_run_is_labelled_and_read_beside_the_honest_run_never_mixed_with_it(asked, tmp_path, capsys):
    from bench.runs.transfer import dump_runs, load_runs

    db_path = tmp_path / "bench.sqlite"
    honest = start_run(_config(ask=None), db_path, solver=ASKED_ANSWERS(), background=False)
    db = store.open_store(db_path)
    # The interactive run, dumped and loaded beside it, travels whole: its questions, and its tasks' references.
    source, asked = asked[:2]
    load_runs(db, json.loads(json.dumps(dump_runs(source, [asked]))))
    assert _asked(db, asked) == _asked(source, asked) and len(_asked(db, asked)) == 2
    assert [t.get("reference") for t in store.run_tasks(db, asked)] == \
        [t.get("reference") for t in store.run_tasks(source, asked)] and store.run_tasks(db, asked)[0]["reference"]
    assert store.get_run(db, honest).protocol == "honest" and store.questions(db, honest) == []
    honest_metrics = show_metrics(db, store.get_run(db, honest))
    assert honest_metrics["pass_at_1"] == 0.25 and "pass_after_questions" not in honest_metrics
    metrics = show_metrics(db, store.get_run(db, asked))
    assert metrics["honest_beside"] == {"run": honest, "pass_at_1": 0.25}

    assert bench_cli(["--db", str(db_path), "show", asked]) == 0
    shown = capsys.readouterr().out
    assert "[INTERACTIVE (a simulated person answers up to 2 questions a task" in shown
    assert "interactive pass@1 after k questions (at most 2 a task): k=0: 25.0%  k=1: 75.0%  k=2: 75.0%" in shown
    assert "precision of \"passed\": 75.0% of the 4 answers" in shown
    assert f"beside it, honest run {honest} of this model on the same tasks: pass@1 25.0%" in shown
    assert "pass rate after k more candidates" not in shown  # judged on tests the answers wrote: not a budget curve
    assert bench_cli(["--db", str(db_path), "show", honest]) == 0
    assert "INTERACTIVE" not in capsys.readouterr().out

    assert bench_cli(["--db", str(db_path), "report"]) == 0
    report = capsys.readouterr().out
    honest_table, _, rest = report.partition(f"**{INTERACTIVE_TITLE}**")
    assert rest, report
    interactive_table = rest.split("\n\n**")[0] if "\n\n**" in rest else rest
    assert f"`{honest}`" in honest_table and f"`{asked}`" not in honest_table
    row = next(line for line in interactive_table.splitlines() if f"`{asked}`" in line)
    assert "| 25.0 / 75.0 / 75.0 | 75.0% | 0.50 |" in row and f"25.0% (`{honest}`)" in row

    assert bench_cli(["--db", str(db_path), "list", "--json"]) == 0
    listed = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert (listed[asked]["protocol"], listed[asked]["ask"], listed[honest]["protocol"]) == ("interactive", 2, "honest")


def test_an_interactive_run_refuses_tasks_without_a_reference_and_protocols_with_nobody_to_ask(tmp_path, capsys):
    lines = ASKED_TASKS.read_text().splitlines()
    unanswerable = tmp_path / "tasks.jsonl"
    unanswerable.write_text("\n".join([lines[0], *(json.dumps({k: v for k, v in json.loads(line).items()
                                                               if k != "reference"}) for line in lines[1:3])]) + "\n")
    db_path = tmp_path / "bench.sqlite"
    with pytest.raises(ValueError, match=r"2 of the 3 tasks have none \(triple, square\).*'reference' field"):
        start_run(_config(tasks_file=str(unanswerable)), db_path, solver=ASKED_ANSWERS(), background=False)
    assert store.list_runs(store.open_store(db_path)) == []  # nothing stored
    # The same file runs honestly, and its one task with a reference runs interactively.
    assert start_run(_config(tasks_file=str(unanswerable), ask=None, tasks="square"), db_path,
                     solver=ASKED_ANSWERS(), background=False)
    assert start_run(_config(tasks_file=str(unanswerable), tasks="double"), db_path, solver=ASKED_ANSWERS(),
                     background=False)
    for extra, message in ((["--ask", "0"], "1 or more"), (["--ask", "2", "--samples", "3"], "drop --ask"),
                           (["--ask", "2", "--feedback", "oracle"], "hidden tests are fed back"),
                           (["--ask", "2", "--budget", "1"], "a budget of 2 or more")):
        assert bench_cli(["--db", str(db_path), "run", "--tasks-file", str(ASKED_TASKS), "--backend", "threads",
                          *extra]) == 2
        assert message in capsys.readouterr().err
    # A task file's reference must define the entry point, and parse.
    bad = json.loads(lines[0])
    with pytest.raises(TaskFileError, match="line 1: 'reference' defines no function double"):
        parse_task_file(json.dumps({**bad, "reference": "def twice(n):\n    return 2 * n\n"}).encode(), "t.jsonl")
    with pytest.raises(TaskFileError, match="line 1: 'reference' does not parse"):
        parse_task_file(json.dumps({**bad, "reference": "def double(n)\n"}).encode(), "t.jsonl")


def test_a_stopped_interactive_run_resumes_and_stores_each_question_once(asked, tmp_path):
    db_path = tmp_path / "bench.sqlite"
    whole_db, whole = asked[:2]
    stopped = start_run(_config(), db_path, solver=ASKED_ANSWERS(), background=False,
                        progress=lambda result: stop_run(result["run_id"], db_path))
    db = store.open_store(db_path)
    assert store.get_run(db, stopped).status == "stopped"
    # The thread finishes the task it holds when the stop comes: the first, maybe the second, of four.
    done = [r["task_id"] for r in store.results(db, stopped)]
    assert done in (["double"], ["double", "triple"])
    assert _asked(db, stopped) == [asked for asked in ASKED if asked[0] in done]
    resume_run(stopped, db_path, solver=ASKED_ANSWERS(), background=False)
    assert store.get_run(db, stopped).status == "finished"
    assert _asked(db, stopped) == _asked(whole_db, whole)
    assert [r["answer_by_question"] for r in store.results(db, stopped)] == \
        [r["answer_by_question"] for r in store.results(whole_db, whole)]


def test_an_interactive_run_on_processes_gives_the_threads_rows_and_questions(asked, tmp_path):
    db_path = tmp_path / "bench.sqlite"
    threads_db, threads = asked[:2]
    processes = start_run(_config(backend="processes", parallel=2), db_path, recipe=ASKED_ANSWERS, background=False)
    db = store.open_store(db_path)
    assert store.get_run(db, processes).protocol == "interactive"
    same = (*SAME, "answer_by_question")
    assert [{k: r[k] for k in same} for r in store.results(db, processes)] == \
        [{k: r[k] for k in same} for r in store.results(threads_db, threads)]
    assert _asked(db, processes) == _asked(threads_db, threads) and len(_asked(db, processes)) == 2



def test_an_answer_corrected_with_nothing_drawn_to_pass_after_counts_as_passed_after_the_questions_only():
    # Task a: answer 0 passed the tests of its time, was wrong, and was corrected; no candidate drawn after it passed,
    # so the solve kept answer 0 and ended "not solved". Task b: a right pass nobody corrected.
    a = {"final_status": "gave_up", "answer_by_question": [0], "answer_by_correction": [0, 0],
         "visible_by_attempt": [False, False], "hidden_by_attempt": [False, False], "seconds": 1.0}
    b = {"final_status": "passed", "answer_by_question": [0], "answer_by_correction": [0],
         "visible_by_attempt": [True], "hidden_by_attempt": [True], "seconds": 1.0}
    metrics = interactive_metrics([a, b], questions=3, corrections=3)
    assert (metrics["passed_precision"], metrics["answers_passed"]) == (0.5, 2)
    assert (metrics["passed_precision_corrected"], metrics["answers_passed_corrected"]) == (1.0, 1)
