"""MBPP+ (EvalPlus): 378 MBPP tasks judged by MBPP+'s base and plus inputs, about 108 a task.

The loop sees what it sees on MBPP's development set (bench.datasets.mbpp_dev): MBPP's task in words and its first
assert as the visible test, as EvalPlus's own MBPP+ prompt shows them; no entry point, which the agent infers from
the assert (one is given only where it cannot: Mbpp/126's function is named ``sum``, a builtin's name). The hidden
tests are EvalPlus's: MbppPlus.jsonl's base and plus inputs read as EvalPlus reads them (evalplus_inputs), the
expected outputs of its canonical solution (computed by bench/data/make_mbppplus.py, as EvalPlus computes its ground
truth), judged by EvalPlus's rules with its special oracles (bench.datasets.evalplus_checks.mbpp_hidden_test).

The data is EvalPlus's release v0.1.0 with the changes of its v0.2.0 (tasks with broken tests taken out, links taken
out of prompts), vendored in bench/data/mbppplus with its licence; its README says where each file comes from.

MBPP+ draws on every split of MBPP, most of all its test split; the development set holds none of that split. Each
task's split (split_of) is recorded so that no figure mixes the tasks the loop was tuned on with those held out.
"""

from __future__ import annotations

import functools
from pathlib import Path

from agent import infer_entry_point
from bench.datasets.evalplus_checks import (
    EvalPlusError,
    MbppCheck,
    mbpp_hidden_test,
    read_release,
    read_tasks_info,
    run_limit,
)
from bench.datasets.mbpp_dev import HELD_OUT, mbpp_split, unlisted_imports
from bench.datasets.task import Dataset, Offered, Task
from sandbox import module_offered

MBPP_PLUS = "mbpp+"
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "mbppplus"
DATA_FILE = DATA_DIR / "MbppPlus.jsonl.gz"
EXPECTED = DATA_DIR / "expected.jsonl.gz"  # the canonical solutions' outputs, written as Python literals
TASKS_INFO = DATA_DIR / "tasks.json"  # per task: atol, input counts, split, inputs left out, the canonical's times


@functools.lru_cache(maxsize=1)
def records() -> dict[str, dict]:
    """task_id -> MbppPlus.jsonl's record (prompt, entry_point, canonical_solution, base_input, plus_input, atol),
    in task order."""
    return {record["task_id"]: record for record in read_release(DATA_FILE)}


@functools.lru_cache(maxsize=1)
def expected_outputs() -> dict[str, dict]:
    """task_id -> {"base": literal, "plus": literal}, the canonical solution's outputs on each set as Python source,
    or None for a task whose outputs are too large to write out (its check computes them)."""
    return {line["task_id"]: line for line in read_release(EXPECTED)}


@functools.lru_cache(maxsize=1)
def tasks_info() -> dict[str, dict]:
    """task_id -> atol, base_inputs, plus_inputs, split, left_out, slowest_call_seconds and canonical_seconds
    (bench/data/make_mbppplus.py)."""
    return read_tasks_info(TASKS_INFO)


def task_number(task_id: str) -> int:
    """MBPP's id of a task: Mbpp/2 -> 2."""
    return int(task_id.rsplit("/", 1)[1])


def split_of(task_id: str) -> str:
    """The MBPP split an MBPP+ task comes from: test (held out from the development set), prompt, validation or
    train (in the development set, which the loop was tuned on)."""
    return mbpp_split(task_number(task_id))


HELD_OUT_PART = "held out (MBPP's test split)"
TUNED_PART = "tuned on (MBPP's prompt, validation and train splits: the development set)"


def parts() -> dict[str, str]:
    """task_id -> HELD_OUT_PART or TUNED_PART, the two parts whose figures are read apart."""
    return {task_id: HELD_OUT_PART if split_of(task_id) == HELD_OUT else TUNED_PART for task_id in records()}


# EvalPlus's reading of MbppPlus.jsonl's inputs (evalplus/data/mbpp.py, mbpp_deserialize_inputs; Apache-2.0):
# JSON has no tuple, set or complex, so the tasks whose functions take them list which lists to turn back.
_TUPLES = {2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740, 744,
           809}
_TUPLES_IN_LISTS = {63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780}
_FIRST_TUPLES_IN_LIST = {75, 413, 444, 753}
_SECOND_TUPLE = {106, 750}
_FIRST_TUPLE = {250, 405, 446, 617, 720, 763, 808}
_TUPLES_OF_TUPLES = {259, 401, 445}
_ALL_TUPLES = {580, 615, 791}


def _all_tuples(value):
    return tuple(_all_tuples(item) for item in value) if isinstance(value, list) else value


def evalplus_inputs(task_id: str, inputs: list) -> list:
    """A task's inputs as EvalPlus's evaluator passes them to the function (mbpp_deserialize_inputs): the JSON lists
    that stand for tuples, sets and complex numbers turned back into them. A task with no inputs of a kind is an
    empty list (MbppPlus.jsonl writes Mbpp/793's plus inputs as {}, which EvalPlus iterates as none)."""
    n = task_number(task_id)
    inputs = list(inputs)
    if n in _TUPLES:
        return [[tuple(lst) for lst in inp] for inp in inputs]
    if n in _TUPLES_IN_LISTS:
        return [[[tuple(lst) for lst in lst_lst] for lst_lst in inp] for inp in inputs]
    if n in _FIRST_TUPLES_IN_LIST:
        return [[[tuple(lst) for lst in inp[0]]] + [inp[1]] for inp in inputs]
    if n in _SECOND_TUPLE:
        return [[inp[0]] + [tuple(inp[1])] for inp in inputs]
    if n == 115:
        return [[[set(item) if isinstance(item, list) and len(item) else {} for item in inp[0]]] for inp in inputs]
    if n == 124:
        return [(float(inp[0]), complex(inp[1])) for inp in inputs]
    if n in _FIRST_TUPLE:
        return [[tuple(inp[0])] + [inp[1]] for inp in inputs]
    if n in _TUPLES_OF_TUPLES:
        return [[tuple(tuple(lst) for lst in lst_lst) for lst_lst in inp] for inp in inputs]
    if n == 278:
        return [[tuple(tuple(item) if isinstance(item, list) else item for item in inp[0])] for inp in inputs]
    if n == 307:
        return [[tuple(inp[0])] + [inp[1], inp[2]] for inp in inputs]
    if n == 722:
        return [[{key: tuple(value) for key, value in inp[0].items()}] + inp[1:] for inp in inputs]
    if n == 252:
        return [[complex(inp[0])] for inp in inputs]
    if n in _ALL_TUPLES:
        return [_all_tuples(inp) for inp in inputs]
    return inputs


def task_inputs(task_id: str) -> tuple[list, list]:
    """A task's base and plus inputs as its check passes them: EvalPlus's reading, without the inputs the vendored
    data leaves out (tasks.json's left_out: plus inputs whose outputs cannot cross the sandbox)."""
    record, left_out = records()[task_id], set(tasks_info().get(task_id, {}).get("left_out", []))
    plus = [inp for i, inp in enumerate(evalplus_inputs(task_id, record["plus_input"])) if i not in left_out]
    return evalplus_inputs(task_id, record["base_input"]), plus


def task_text(record: dict) -> tuple[str, str]:
    """MbppPlus.jsonl's prompt, a docstring holding MBPP's task in words and its first assert, as those two."""
    words, _, assertion = record["prompt"].strip().strip('"').strip().rpartition("\n")
    if not assertion.startswith("assert ") or not words.strip():
        raise EvalPlusError(f"{record['task_id']}: its prompt is not a task in words and an assert")
    return words.strip(), assertion.strip()


def canonical_program(task_id: str) -> str:
    """MbppPlus.jsonl's prompt and canonical solution, the program EvalPlus computes its expected outputs with."""
    record = records()[task_id]
    return record["prompt"] + record["canonical_solution"]


def mbppplus_check(task_id: str) -> MbppCheck:
    """What the task's hidden tests are made of (bench.datasets.evalplus_checks.MbppCheck)."""
    record, expected = records()[task_id], expected_outputs().get(task_id)
    if expected is None:
        raise EvalPlusError(f"{task_id} is missing from the vendored MBPP+ expected outputs ({EXPECTED})")
    base, plus = task_inputs(task_id)
    written = expected["base"] is not None
    return MbppCheck(entry_point=record["entry_point"], atol=record["atol"], base_inputs=repr(base),
                     plus_inputs=repr(plus), base_results=expected["base"], plus_results=expected["plus"],
                     canonical=None if written else canonical_program(task_id))


def mbppplus_task(task_id: str, index: int) -> Task:
    """One MBPP+ task as the bench runs it (the module docstring)."""
    record, info = records()[task_id], tasks_info().get(task_id)
    if info is None:
        raise EvalPlusError(f"{task_id} is missing from the vendored MBPP+ data ({TASKS_INFO})")
    words, assertion = task_text(record)
    tests = "".join(line + "\n" for line in unlisted_imports([assertion], [])) + assertion + "\n"
    inferred = infer_entry_point(words, tests)
    return Task(task_id=task_id, index=index, prompt=words, tests=tests,
                hidden_tests=mbpp_hidden_test(mbppplus_check(task_id), info),
                entry_point=None if inferred == record["entry_point"] else record["entry_point"], visible_count=1,
                hidden_timeout_s=run_limit(info), code_prompt=record["prompt"], reference=canonical_program(task_id))


@functools.lru_cache(maxsize=1)
def mbppplus_tasks() -> list[Task]:
    """The 378 MBPP+ tasks in dataset order (cached and shared: treat as read-only). EvalPlusError when the sandbox
    offers no numpy, which EvalPlus's comparison needs."""
    if not module_offered("numpy"):
        raise EvalPlusError("MBPP+'s hidden tests compare floats with numpy, which the sandbox does not offer: add "
                            "numpy to SANDBOX_PACKAGES (its default)")
    return [mbppplus_task(task_id, index) for index, task_id in enumerate(records())]


DATASET = Offered(MBPP_PLUS, "EvalPlus's 378 MBPP+ tasks in words, the first assert visible, ~108 hidden tests a task",
                  packaged=True, load=lambda: Dataset(MBPP_PLUS, mbppplus_tasks()), parts=parts)
