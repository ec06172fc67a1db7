"""Hidden tests never reach the model: no prompt of a bench-style solve contains them, on HumanEval or a task file;
in an interactive run, neither do they nor the reference solution reach its prompts, questions, added tests or state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from agent import RunFinished, Search, Solver
from agent.loop.prompts import repeats_task
from bench.datasets.humaneval import load_problems
from bench.datasets.visible_tests import visible_test_source
from prompt_audit import behaviour_leaks, leaks, plus_leaks, reference_leaks, task_leaks


def _wrong_answers(n: int) -> GenericFakeChatModel:
    # Always wrong and always the same: every attempt fails, so every repair prompt carries a report.
    return GenericFakeChatModel(messages=iter(
        [AIMessage(content="```python\ndef placeholder(*args, **kwargs):\n    return None\n```")] * n))


def _solve_all(tmp_path, problems, tests_for) -> list[tuple[dict, list[dict]]]:
    # hybrid with 3 candidates: the first answer, a repair and a fresh sample, so every kind is audited.
    solver = Solver(_wrong_answers(len(problems) * 3), tmp_path / "s.sqlite",
                    search=Search(strategy="hybrid", budget=3))
    out = []
    for problem in problems:
        events = list(solver.start(problem["prompt"], tests_for(problem), entry_point=problem["entry_point"]))
        final = events[-1]
        assert isinstance(final, RunFinished) and final.iterations == 3
        drawn = solver.candidates(final.thread_id)
        assert [c.kind for c in drawn] == ["first", "repair", "sample"]
        out.append((problem, [m for c in drawn for m in c.messages] + [{"content": c.feedback} for c in drawn]))
    return out


@pytest.mark.dataset
def test_no_hidden_test_text_in_any_prompt_of_a_bench_style_solve(tmp_path):
    problems = [p for p in load_problems() if visible_test_source(p).strip()]
    assert len(problems) >= 150
    for problem, messages in _solve_all(tmp_path, problems, visible_test_source):
        assert leaks(problem, messages) == [], problem["task_id"]


def test_the_leak_check_itself_catches_a_leak(tmp_path):
    # Feeding the hidden tests as if they were visible must be caught, or the test above proves nothing.
    problems = load_problems()[:3]
    leaky = _solve_all(tmp_path, problems, lambda p: p["test"] + f"\ncheck({p['entry_point']})\n")
    assert all(leaks(problem, messages) for problem, messages in leaky)


# --- a task file's run: the same audit on what the bench stores ---------------------------------------------------


def _stored_prompts(tmp_path, feedback: str, samples: int | None = None) -> tuple[list[dict], dict[str, list[dict]]]:
    """A bench run on the first MBPP tasks and the examples file, hybrid with 3 candidates (the first answer, a
    repair, a sample), or a samples run of that many independent samples, with a model that is always wrong; each
    task and the prompts stored for its candidates."""
    from agent import infer_entry_point
    from bench.datasets.mbpp_dev import FILE as MBPP_DEV_FILE
    from bench.datasets.task_file import load_task_file
    from bench.runs import store
    from bench.runs.config import RunConfig
    from bench.runs.lifecycle import start_run
    from fakes import PromptKeyedModel

    path = tmp_path / "audit.jsonl"
    examples = Path(__file__).resolve().parent.parent / "examples" / "tasks.jsonl"
    path.write_text("".join(MBPP_DEV_FILE.read_text().splitlines(keepends=True)[:10])
                    + examples.read_text())
    tasks = load_task_file(path).tasks

    def wrong(prompt: str, attempt: int) -> str:
        # The function the tests call, returning None: every assert fails and its report reaches the next prompt.
        task = next(t for t in tasks if t["prompt"] in prompt)
        name = task["entry_point"] or infer_entry_point(task["prompt"], task["tests"])
        return f"```python\ndef {name}(*args, **kwargs):\n    return None\n```"
    solver = Solver(PromptKeyedModel(answer=wrong), tmp_path / "s.sqlite")
    config = RunConfig(tasks_file=str(path), search=Search(budget=3, strategy="hybrid"), feedback=feedback,
                       parallel=2, samples=samples, backend="threads")
    run_id = start_run(config, tmp_path / "bench.sqlite", solver=solver, background=False)
    db = store.open_store(tmp_path / "bench.sqlite")
    return tasks, {t["task_id"]: store.attempts(db, run_id, t["task_id"]) for t in tasks}


def test_no_hidden_test_text_in_any_stored_prompt_of_a_task_file_run(tmp_path):
    tasks, stored = _stored_prompts(tmp_path, "visible")
    assert len(tasks) == 13 and all(len(t["hidden_tests"].splitlines()) > len(t["tests"].splitlines()) for t in tasks)
    for task in tasks:
        rows = stored[task["task_id"]]
        assert [r["kind"] for r in rows] == ["first", "repair", "sample"], task["task_id"]
        for row in rows:
            messages = json.loads(row["messages"])
            assert task_leaks(task, messages) == [], (task["task_id"], row["kind"])
            # The audit reads the real prompt: the visible tests are in it, as they should be.
            visible = [ln for ln in task["tests"].splitlines() if ln.startswith("assert")]
            assert visible and all(ln in "\n".join(m["content"] for m in messages) for ln in visible)


def test_the_task_file_audit_catches_hidden_tests_fed_back(tmp_path):
    # The leaky protocol feeds hidden failures to the repair: the same audit must flag it, or it proves nothing.
    tasks, stored = _stored_prompts(tmp_path, "oracle")
    repairs = {t["task_id"]: json.loads(next(r for r in stored[t["task_id"]] if r["kind"] == "repair")["messages"])
               for t in tasks}
    assert all(task_leaks(task, repairs[task["task_id"]]) for task in tasks)


def test_the_behaviour_table_of_an_oracle_run_shows_no_input_of_the_hidden_tests(tmp_path):
    # The leaky mode runs the hidden tests and shows the visible ones; the executor probes the tests it runs, so the
    # behaviour stored with each candidate comes from hidden calls. The table must read the visible tests alone.
    from agent.solves.answer_behaviour import answer_behaviour
    from fakes import PromptKeyedModel

    tasks, _ = _stored_prompts(tmp_path, "oracle")
    solver = Solver(PromptKeyedModel(answer=lambda prompt, attempt: ""), tmp_path / "s.sqlite")
    thread_of = {s["task"]: s["thread_id"] for s in solver.store.solves(origin=None)}
    caught = 0
    for task in tasks:
        state = solver.state_at(thread_of[task["prompt"]])
        assert state["shown_tests"] == task["tests"] and state["tests"] == task["hidden_tests"], task["task_id"]
        table = answer_behaviour(state)
        assert not table.reused, task["task_id"]  # the stored outcomes were probed on hidden calls
        assert behaviour_leaks(task, [r.call for r in table.rows], state["entry_point"]) == [], task["task_id"]
        # Had the table read the tests the solve ran, the audit would flag it.
        read_hidden = answer_behaviour({**state, "shown_tests": None})
        caught += bool(behaviour_leaks(task, [r.call for r in read_hidden.rows], state["entry_point"]))
    assert caught >= len(tasks) * 3 // 4  # 12 of the 13 tasks: their hidden tests make calls of their own


# --- a samples run (pass@k): what the bench stores for every sample -------------------------------------------------


def test_no_hidden_test_text_in_any_stored_prompt_of_a_samples_run(tmp_path):
    from bench.runs import store
    from bench.runs.config import RunConfig
    from bench.runs.lifecycle import start_run
    from fakes import PromptKeyedModel

    wrong = "```python\ndef placeholder(*args, **kwargs):\n    return None\n```"
    solver = Solver(PromptKeyedModel(answer=lambda prompt, attempt: wrong), tmp_path / "s.sqlite")
    config = RunConfig(tasks="sample:41", samples=3, parallel=2, backend="threads")
    run_id = start_run(config, tmp_path / "bench.sqlite", solver=solver, background=False)
    db = store.open_store(tmp_path / "bench.sqlite")
    problems = {p["task_id"]: p for p in load_problems()}
    rows = store.attempts(db, run_id)
    assert len(rows) == 41 * 3 and {r["kind"] for r in rows} == {"sample"}
    for row in rows:
        messages = json.loads(row["messages"])
        assert leaks(problems[row["task_id"]], messages) == [], row["task_id"]
        # The prompt is the first one: it shows the visible tests, or (prompt v5) the task's text, which holds every
        # call they make (HumanEval's docstring examples).
        visible, asked = visible_test_source(problems[row["task_id"]]), messages[1]["content"]
        assert all(line in asked for line in visible.splitlines() if line.startswith("assert")) or repeats_task(
            asked, visible), row["task_id"]
    # The same on a task file's tasks (MBPP's and the examples'), whose hidden tests are asserts of their own.
    (tmp_path / "file").mkdir()
    tasks, stored = _stored_prompts(tmp_path / "file", "visible", samples=2)
    for task in tasks:
        assert [r["kind"] for r in stored[task["task_id"]]] == ["sample", "sample"], task["task_id"]
        for row in stored[task["task_id"]]:
            assert task_leaks(task, json.loads(row["messages"])) == [], task["task_id"]


# --- runs on EvalPlus's datasets: HumanEval+ (HumanEval's prompts), MBPP+ (MBPP's words), EvalPlus's hidden tests ---


def _plus_prompts(tmp_path, dataset: str, feedback: str, tasks: str) -> tuple[dict[str, dict], list[dict]]:
    """A run on an EvalPlus dataset (humaneval+, mbpp+), hybrid with 3 candidates (the first answer, a repair, a
    sample), with a model that is always wrong; the run's tasks and every stored attempt."""
    from agent import infer_entry_point
    from bench.datasets import load_dataset
    from bench.runs import store
    from bench.runs.config import RunConfig
    from bench.runs.lifecycle import start_run
    from fakes import PromptKeyedModel

    plus = {t["task_id"]: t for t in load_dataset(dataset).tasks}

    def wrong(prompt: str, attempt: int) -> str:
        # MBPP+ has tasks with the same words: the visible test, where the prompt shows it, tells them apart.
        named = [t for t in plus.values() if t["prompt"].strip() in prompt]
        task = next((t for t in named if t["tests"].strip() in prompt), named[0])
        name = task["entry_point"] or infer_entry_point(task["prompt"], task["tests"])
        return f"```python\ndef {name}(*args, **kwargs):\n    return None\n```"
    solver = Solver(PromptKeyedModel(answer=wrong), tmp_path / "s.sqlite")
    config = RunConfig(tasks=tasks, dataset=dataset, search=Search(budget=3, strategy="hybrid"),
                       feedback=feedback, parallel=2, backend="threads")
    run_id = start_run(config, tmp_path / "bench.sqlite", solver=solver, background=False)
    db = store.open_store(tmp_path / "bench.sqlite")
    assert store.get_run(db, run_id).dataset == dataset
    return plus, store.attempts(db, run_id)


def _audited_kinds(plus: dict[str, dict], rows: list[dict], shown) -> dict[str, list[str]]:
    """Each stored prompt audited for hidden-test text (plus_leaks) and checked to show the task (shown(task,
    first user message)); each task's candidate kinds, in order."""
    kinds: dict[str, list[str]] = {}
    for row in rows:
        kinds.setdefault(row["task_id"], []).append(row["kind"])
        task = plus[row["task_id"]]
        messages = json.loads(row["messages"])
        assert plus_leaks(task, messages) == [], (row["task_id"], row["kind"])
        assert shown(task, messages[1]["content"]), row["task_id"]
    return kinds


def _shows_humanevals_tests(task: dict, asked: str) -> bool:
    # HumanEval's prompt with its visible tests, or (prompt v5) with the docstring that holds every call they make
    # (a task without docstring examples has none to show).
    visible = [ln for ln in task["tests"].splitlines() if ln.startswith("assert") and "callable(" not in ln]
    return all(ln in asked for ln in visible) or repeats_task(asked, "\n".join(visible))


@pytest.mark.dataset
def test_no_humanevalplus_hidden_test_text_in_any_stored_prompt(tmp_path):
    plus, rows = _plus_prompts(tmp_path, "humaneval+", "visible", "sample:41")
    kinds = _audited_kinds(plus, rows, _shows_humanevals_tests)
    # A task without docstring examples is checked by callable() alone: its first answer passes, nothing follows.
    assert len(kinds) == 41 and all(k == (["first", "repair", "sample"] if plus[t]["visible_count"] else ["first"])
                                    for t, k in kinds.items())
    assert sum(len(k) == 3 for k in kinds.values()) == 39


@pytest.mark.dataset
def test_no_mbppplus_hidden_test_text_in_any_stored_prompt(tmp_path):
    plus, rows = _plus_prompts(tmp_path, "mbpp+", "visible", "sample:41")
    # The prompt is the task in words with its visible assert, and nothing of EvalPlus's inputs.
    kinds = _audited_kinds(plus, rows, lambda task, asked: task["prompt"] in asked and
                           task["tests"].splitlines()[-1] in asked)
    # An answer of None passes a visible assert that wants None (Mbpp/395): then nothing follows the first answer.
    assert len(kinds) == 41 and {t: k for t, k in kinds.items() if k != ["first", "repair", "sample"]} == \
        {t: ["first"] for t in kinds if plus[t]["tests"].rstrip().endswith("== None")}
    assert sum(len(k) == 3 for k in kinds.values()) == 40


@pytest.mark.parametrize("dataset", ["humaneval+", "mbpp+"])
def test_the_evalplus_audits_catch_hidden_tests_fed_back(tmp_path, dataset):
    # The leaky protocol feeds EvalPlus's failures to the repair: the audit must flag it, or it proves nothing.
    plus, rows = _plus_prompts(tmp_path, dataset, "oracle", "sample:8")
    repairs = [row for row in rows if row["kind"] == "repair"]
    assert len(repairs) == 8
    assert all(plus_leaks(plus[row["task_id"]], json.loads(row["messages"])) for row in repairs)


# --- an interactive run (bench run --ask N): the simulated person's reference and the hidden tests stay out ---------


def _interactive_texts(tmp_path, handed=None) -> tuple[list[dict], dict[str, dict[str, list[dict]]]]:
    """An interactive run of the tiny dataset (fakes.ASKED_ANSWERS), each task's texts as messages, by where they are
    read: every stored prompt (those drawn after an answer among them), the questions put (the call and the
    choices), the tests the answers added, and the solve's whole state (what the chooser and every prompt read).
    handed(task) -> task: what the solve is handed instead of the task, for the audit's own check."""
    import bench.protocol.solve as protocol
    from bench.datasets.task_file import load_task_file
    from bench.runs import store
    from bench.runs.config import RunConfig
    from bench.runs.lifecycle import start_run
    from fakes import ASKED_ANSWERS, ASKED_TASKS

    solver = ASKED_ANSWERS()
    if handed:
        events = protocol._events
        protocol._events = lambda solver, task, *rest: events(solver, handed(task), *rest)
    try:
        run_id = start_run(RunConfig(tasks_file=str(ASKED_TASKS), backend="threads", parallel=1, ask=2, corrections=2),
                           tmp_path / "bench.sqlite", solver=solver, background=False)
    finally:
        if handed:
            protocol._events = events
    db = store.open_store(tmp_path / "bench.sqlite")
    tasks = load_task_file(ASKED_TASKS).tasks
    thread_of = {s["task"]: s["thread_id"] for s in solver.store.solves(origin=None)}
    texts = {}
    for task in tasks:
        asked = store.questions(db, run_id, task["task_id"])
        state = solver.state_at(next(t for prompt, t in thread_of.items() if prompt.startswith(task["prompt"])))
        texts[task["task_id"]] = {
            "prompts": [m for a in store.attempts(db, run_id, task["task_id"]) for m in json.loads(a["messages"])],
            "questions": [{"content": q["call"] + "\n" + json.dumps(q["options"])} for q in asked],
            "added tests": [{"content": q["added_test"] or ""} for q in asked],
            "state": [{"content": json.dumps(state, default=str)}], "tests": state["tests"]}
    return tasks, texts


def test_no_hidden_test_or_reference_text_in_an_interactive_runs_prompts_questions_added_tests_or_state(tmp_path):
    tasks, texts = _interactive_texts(tmp_path)
    # Two tasks were asked about and one corrected from its answer's table; triple's answer and halve's correction
    # dropped every candidate, so prompts were drawn after them, with the tests they wrote.
    assert [t for t, found in texts.items() if found["questions"]] == ["double", "triple", "halve"]
    assert "assert triple(4) == 12" in texts["triple"]["prompts"][-1]["content"]
    assert "assert halve(5) == 2" in texts["halve"]["prompts"][-1]["content"]
    for task in tasks:
        found = texts[task["task_id"]]
        # The solve ran on the visible tests and what the person's answers wrote, nothing else.
        assert found["tests"] == task["tests"] + "".join(t["content"] + "\n" for t in found["added tests"])
        for where in ("prompts", "questions", "added tests", "state"):
            assert task_leaks(task, found[where]) == [], (task["task_id"], where)
            assert reference_leaks(task, found[where]) == [], (task["task_id"], where)


def test_the_interactive_audit_catches_hidden_tests_and_a_reference_handed_to_the_solve(tmp_path):
    # Had the bench handed the solve its hidden tests and reference, the same audit must flag every task, in its
    # prompts and in the state the chooser reads, or the test above proves nothing.
    tasks, texts = _interactive_texts(tmp_path, lambda task: {
        **task, "prompt": f"{task['prompt']}\n{task['hidden_tests']}\n{task['reference']}"})
    for task in tasks:
        for where in ("prompts", "state"):
            found = texts[task["task_id"]][where]
            assert task_leaks(task, found) and reference_leaks(task, found), (task["task_id"], where)
