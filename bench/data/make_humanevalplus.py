"""Vendor HumanEval+ (EvalPlus release v0.1.10) into bench/data/humanevalplus, and time its canonical solutions.

    python -m bench.data.make_humanevalplus SOURCE_DIR

SOURCE_DIR holds the release's files as the `evalplus` package (0.3.1) downloads them from the public repository
evalplus/humanevalplus_release (commit 200defc, "bump to v0.1.10"): ``HumanEvalPlus.jsonl.gz``,
``HumanEvalPlus-OriginFmt.jsonl.gz`` and ``LICENSE`` (Apache-2.0).

- ``HumanEvalPlus-OriginFmt.jsonl.gz`` and ``LICENSE`` are copied unchanged: the bench builds each task's hidden
  tests from the first at load time (bench.datasets.humanevalplus).
- ``tasks.json`` is ours. For each task: its ``atol`` and the counts of its base and plus inputs, read from
  ``HumanEvalPlus.jsonl.gz`` (not copied: the OriginFmt file writes the same inputs and expected outputs out);
  ``slowest_call_seconds``, the canonical solution's slowest input, timed as EvalPlus times its ground truth (in
  one plain Python process, each input deep-copied; evalplus/gen/util trusted_exec), which sets the limit on each
  call; and ``canonical_seconds``, the wall time of one sandbox run of the canonical solution (HumanEval's prompt
  with HumanEval+'s canonical solution) on the task's hidden tests, which the limit on a whole run adds to
  EvalPlus's budget. Both are measured once, one task at a time. Run it on a quiet machine: a busy one measures
  longer times, which only loosens the limits.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.datasets import humanevalplus
from bench.datasets.evalplus_checks import hidden_test
from sandbox import Limits, run_tests

COPIED = ("HumanEvalPlus-OriginFmt.jsonl.gz", "LICENSE")
MEASURE_LIMITS = Limits(timeout_s=600)  # generous: the canonical solution must finish to be timed
# EvalPlus's trusted_exec, timing each input: the reference code is the dataset's own, run in a child process.
TIME_CALLS = """
import copy, json, sys, time
task = json.load(sys.stdin)
namespace = {}
exec(task["code"], namespace)
fn = namespace[task["entry_point"]]
times = []
for inp in task["inputs"]:
    inp = copy.deepcopy(inp)
    start = time.time()
    fn(*inp)
    times.append(time.time() - start)
print(max(times))
"""


def read_jsonl_gz(path: Path) -> list[dict]:
    """The records of a gzipped JSONL file."""
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines() if line]


def slowest_call_seconds(record: dict) -> float:
    """The canonical solution's slowest input, in-process as EvalPlus times it (a child process of this one)."""
    task = {"code": humanevalplus.canonical_program(record["task_id"]), "entry_point": record["entry_point"],
            "inputs": record["base_input"] + record["plus_input"]}
    done = subprocess.run([sys.executable, "-c", TIME_CALLS], input=json.dumps(task), capture_output=True, text=True,
                          timeout=600, check=True)
    return round(float(done.stdout), 4)


def canonical_seconds(task_id: str, info: dict) -> float:
    """One sandbox run of the canonical solution on the task's HumanEval+ hidden tests: its wall seconds. Raises
    when it does not pass (a scorer that fails the reference would make every number wrong)."""
    record = humanevalplus.origin_records()[task_id]
    started = time.perf_counter()
    report = run_tests(humanevalplus.canonical_program(task_id), hidden_test(record, info),
                       entry_point=record["entry_point"], limits=MEASURE_LIMITS)
    seconds = time.perf_counter() - started
    if not report.passed:
        raise SystemExit(f"{task_id}: the canonical solution fails its HumanEval+ tests: {report.summary()}")
    return round(seconds, 2)


def main(source: Path) -> None:
    """Copy the release's files and write tasks.json, timing every canonical solution."""
    out = humanevalplus.DATA_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        shutil.copyfile(source / name, out / name)
    humanevalplus.origin_records.cache_clear()
    tasks = {}
    for record in read_jsonl_gz(source / "HumanEvalPlus.jsonl.gz"):
        task_id = record["task_id"]
        info = {"atol": record["atol"], "base_inputs": len(record["base_input"]),
                "plus_inputs": len(record["plus_input"]), "slowest_call_seconds": slowest_call_seconds(record)}
        info["canonical_seconds"] = canonical_seconds(task_id, info)
        tasks[task_id] = info
        print(f"{task_id}: slowest call {info['slowest_call_seconds']:.3f}s, sandbox run "
              f"{info['canonical_seconds']:.2f}s", file=sys.stderr, flush=True)
    info = {"source": "evalplus/humanevalplus_release v0.1.10 (commit 200defc)",
            "measured": time.strftime("%Y-%m-%d"), "tasks": tasks}
    humanevalplus.TASKS_INFO.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {humanevalplus.TASKS_INFO} ({len(tasks)} tasks, canonical solutions "
          f"{sum(t['canonical_seconds'] for t in tasks.values()):.0f}s in all in the sandbox)", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
