"""Vendor MBPP+ (EvalPlus) into bench/data/mbppplus: release v0.1.0 with EvalPlus's v0.2.0 changes applied, the
expected outputs of its canonical solutions, and their times.

    python -m bench.data.make_mbppplus SOURCE_DIR

SOURCE_DIR holds, from the public repository evalplus/mbppplus_release: ``MbppPlus.jsonl.gz`` as of commit f995b08
("feat(v0.1.0): MBPP+ release", 399 tasks) and ``LICENSE`` (Apache-2.0). Nothing here uses the network.

- ``MbppPlus.jsonl.gz``: v0.1.0 with the changes EvalPlus made for v0.2.0 (evalplus/evalplus,
  tools/mbpp/fix_v010.py): 21 tasks with broken tests taken out (EvalPlus issue #147) and 18 links to web pages
  taken out of prompts (#156). The result is checked to be the v0.2.0 release's file, byte for byte
  (V020_SHA256: commit 64fc419 of evalplus/mbppplus_release), the one the ``evalplus`` package (0.3.1,
  ``MBPP_PLUS_VERSION = "v0.2.0"``) downloads. ``LICENSE`` is copied unchanged.
- ``expected.jsonl.gz`` is ours: each task's canonical solution run on its inputs as EvalPlus computes its ground
  truth (evalplus/evaluate.py get_groundtruth, evalplus/gen/util trusted_exec: the prompt and the canonical
  solution in one plain Python process, each input deep-copied; for the three tasks of MBPP_OUTPUT_NOT_NONE only
  whether the output is None), the outputs of its base and of its plus inputs written as Python literals, each
  checked to read back as the value it was written from. A task whose outputs are over WRITE_LIMIT as text
  (Mbpp/255, Mbpp/630) is written as null: its check computes them with the canonical solution.
- ``tasks.json`` is ours. For each task: its ``atol``, the counts of its base and plus inputs, its MBPP ``split``,
  ``left_out`` (LEFT_OUT), ``slowest_call_seconds`` (the canonical solution's slowest input, timed as EvalPlus times
  its ground truth: it sets the limit on each call) and ``canonical_seconds`` (one sandbox run of the canonical
  solution on the task's hidden tests, which the limit on a whole run adds to EvalPlus's budget). Both measured once,
  one task at a time: run it on a quiet machine (a busy one measures longer times, which only loosens the limits).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.datasets import mbppplus
from bench.datasets.evalplus_checks import LITERAL_NAMES, MBPP_OUTPUT_NOT_NONE, mbpp_hidden_test, read_release
from sandbox import Limits, run_tests

# EvalPlus's v0.2.0 changes to v0.1.0 (tools/mbpp/fix_v010.py): the tasks taken out for their broken tests, and the
# links taken out of prompts (each replaced by nothing).
REMOVED = ("Mbpp/83", "Mbpp/115", "Mbpp/117", "Mbpp/143", "Mbpp/164", "Mbpp/229", "Mbpp/249", "Mbpp/295", "Mbpp/396",
           "Mbpp/400", "Mbpp/407", "Mbpp/431", "Mbpp/438", "Mbpp/442", "Mbpp/461", "Mbpp/574", "Mbpp/582",
           "Mbpp/595", "Mbpp/640", "Mbpp/746", "Mbpp/783")
LINKS = {
    "Mbpp/734": "https://www.geeksforgeeks.org/sum-of-products-of-all-possible-subarrays/",
    "Mbpp/735": "https://www.geeksforgeeks.org/toggle-bits-number-expect-first-last-bits/",
    "Mbpp/736": "https://www.w3resource.com/python-exercises/data-structures-and-algorithms/"
                "python-data-structure-exercise-24.php",
    "Mbpp/739": "https://www.geeksforgeeks.org/index-of-smallest-triangular-number-with-n-digits/",
    "Mbpp/740": "https://www.geeksforgeeks.org/python-convert-tuple-to-adjacent-pair-dictionary/",
    "Mbpp/743": "https://www.geeksforgeeks.org/python-program-right-rotate-list-n/",
    "Mbpp/745": "https://www.w3resource.com/python-exercises/lambda/python-lambda-exercise-24.php",
    "Mbpp/749": "https://www.geeksforgeeks.org/python-sort-numeric-strings-in-a-list/",
    "Mbpp/751": "https://www.geeksforgeeks.org/how-to-check-if-a-given-array-represents-a-binary-heap/",
    "Mbpp/752": "https://www.geeksforgeeks.org/jacobsthal-and-jacobsthal-lucas-numbers/",
    "Mbpp/753": "https://www.geeksforgeeks.org/python-find-minimum-k-records-from-tuple-list/",
    "Mbpp/757": "https://www.geeksforgeeks.org/python-program-to-count-the-pairs-of-reverse-strings/",
    "Mbpp/763": "https://www.geeksforgeeks.org/find-minimum-difference-pair/",
    "Mbpp/771": "https://www.geeksforgeeks.org/check-for-balanced-parentheses-in-an-expression/",
    "Mbpp/780": "https://www.geeksforgeeks.org/python-combinations-of-sum-with-tuples-in-tuple-list/",
    "Mbpp/781": "https://www.w3resource.com/python-exercises/basic/python-basic-1-exercise-24.php",
    "Mbpp/782": "https://www.geeksforgeeks.org/sum-of-all-odd-length-subarrays/",
    "Mbpp/803": "https://www.geeksforgeeks.org/check-if-given-number-is-perfect-square-in-cpp/",
}
V010_TASKS = 399
# SHA-256 of the v0.2.0 release's MbppPlus.jsonl, decompressed (evalplus/mbppplus_release, commit 64fc419).
V020_SHA256 = "b54e762755248ca411b523c917fa9f93c07b5ff2966bf60b3917b853926a3dad"
# Plus inputs our sandbox cannot run as EvalPlus does, by task and index in MbppPlus.jsonl: Mbpp/255's colours taken
# 76 or 77 at a time. The largest output, 1,663,740 tuples of 77 (1.3 GB as text), is more than one message between
# the code and the tests may carry (64 MiB) and than a run's memory (1 GiB); the four others, about 80,000 tuples of
# 76 or 77, take longer than the 4 s call limit to cross from the code's process to the tests' (EvalPlus runs the
# code in the process that checks it, with 4 GB).
LEFT_OUT = {"Mbpp/255": [85, 86, 90, 96, 100]}
WRITE_LIMIT = 1 << 20  # expected outputs longer than this as text are computed by the check instead
MEASURE_LIMITS = Limits(timeout_s=600)  # generous: the canonical solution must finish to be timed
# EvalPlus's trusted_exec on one task, in a child process of this one: each input deep-copied, each call timed; the
# outputs written as literals when they read back as the same values (types included), else null.
GROUND_TRUTH = LITERAL_NAMES + """
import copy, json, math, sys, time
task = json.load(sys.stdin)
names = {}
exec(task["literal_names"], names)
namespace = {}
exec(task["code"], namespace)
fn = namespace[task["entry_point"]]


def same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


out, slowest = {}, 0.0
for name in ("base", "plus"):
    outputs = []
    for inp in eval(task[name], dict(names)):
        inp = copy.deepcopy(inp)
        start = time.time()
        outputs.append(fn(*inp))
        slowest = max(slowest, time.time() - start)
    if task["not_none"]:
        outputs = [o is not None for o in outputs]
    text = repr(outputs)
    out[name] = text if len(text) <= task["write_limit"] and same(eval(text, dict(names)), outputs) else None
if None in out.values():  # the check computes both sets' outputs
    out = dict.fromkeys(out)
print(json.dumps({"results": out, "slowest": slowest}))
"""


def apply_v020_changes(v010: list[dict]) -> list[dict]:
    """EvalPlus's v0.2.0 from its v0.1.0: the tasks with broken tests taken out, the links taken out of prompts."""
    if len(v010) != V010_TASKS:
        raise SystemExit(f"expected MBPP+ v0.1.0's {V010_TASKS} tasks, got {len(v010)}")
    kept = []
    for record in v010:
        if record["task_id"] in REMOVED:
            continue
        link = LINKS.get(record["task_id"])
        if link:
            if link not in record["prompt"]:
                raise SystemExit(f"{record['task_id']}: its prompt has no {link}: is this v0.1.0?")
            record = {**record, "prompt": record["prompt"].replace(link, "")}
        kept.append(record)
    return kept


def jsonl_bytes(records: list[dict]) -> bytes:
    """The records as EvalPlus writes a release file: json.dumps of each, one a line."""
    return "".join(json.dumps(record) + "\n" for record in records).encode("utf-8")


def ground_truth(task_id: str) -> dict:
    """The canonical solution's outputs on the task's base and plus inputs (literals, or None) and its slowest call,
    in a child process of this one."""
    record = mbppplus.records()[task_id]
    base, plus = mbppplus.task_inputs(task_id)
    task = {"code": mbppplus.canonical_program(task_id), "entry_point": record["entry_point"],
            "base": repr(base), "plus": repr(plus), "not_none": record["entry_point"] in MBPP_OUTPUT_NOT_NONE,
            "write_limit": WRITE_LIMIT, "literal_names": LITERAL_NAMES}
    done = subprocess.run([sys.executable, "-c", GROUND_TRUTH], input=json.dumps(task), capture_output=True,
                          text=True, timeout=1200, check=True)
    return json.loads(done.stdout)


def canonical_seconds(task_id: str, info: dict) -> float:
    """One sandbox run of the canonical solution on the task's MBPP+ hidden tests: its wall seconds. Raises when it
    does not pass (a scorer that fails the reference would make every number wrong)."""
    started = time.perf_counter()
    report = run_tests(mbppplus.canonical_program(task_id), mbpp_hidden_test(mbppplus.mbppplus_check(task_id), info),
                       entry_point=mbppplus.records()[task_id]["entry_point"], limits=MEASURE_LIMITS)
    seconds = time.perf_counter() - started
    if not report.passed:
        raise SystemExit(f"{task_id}: the canonical solution fails its MBPP+ tests: {report.summary()}")
    return round(seconds, 2)


def _write_gz(path: Path, data: bytes) -> None:
    path.write_bytes(gzip.compress(data, mtime=0))  # no time in the header: the same data, the same file


def main(source: Path) -> None:
    """Apply v0.2.0's changes to v0.1.0, copy the licence, and write expected.jsonl.gz and tasks.json, running
    every canonical solution."""
    v020 = apply_v020_changes(read_release(source / "MbppPlus.jsonl.gz"))
    data = jsonl_bytes(v020)
    if hashlib.sha256(data).hexdigest() != V020_SHA256:
        raise SystemExit("v0.1.0 with EvalPlus's changes is not the v0.2.0 release's file: is the source v0.1.0?")
    out = mbppplus.DATA_DIR
    out.mkdir(parents=True, exist_ok=True)
    _write_gz(mbppplus.DATA_FILE, data)
    shutil.copyfile(source / "LICENSE", out / "LICENSE")
    mbppplus.records.cache_clear()
    tasks, expected = {}, []
    # tasks_info is read by task_inputs: the left-out inputs first, the times once measured.
    mbppplus.tasks_info.cache_clear()
    mbppplus.TASKS_INFO.write_text(json.dumps({"tasks": {t: {"left_out": i} for t, i in LEFT_OUT.items()}}) + "\n")
    for task_id, record in mbppplus.records().items():
        base, plus = mbppplus.task_inputs(task_id)
        truth = ground_truth(task_id)
        info = {"atol": record["atol"], "base_inputs": len(base), "plus_inputs": len(plus),
                "split": mbppplus.split_of(task_id), "slowest_call_seconds": round(truth["slowest"], 4)}
        if task_id in LEFT_OUT:
            info["left_out"] = LEFT_OUT[task_id]
        expected.append({"task_id": task_id, **truth["results"]})
        tasks[task_id] = info
    _write_gz(mbppplus.EXPECTED, "".join(json.dumps(line) + "\n" for line in expected).encode("utf-8"))
    mbppplus.expected_outputs.cache_clear()
    for task_id, info in tasks.items():
        info["canonical_seconds"] = canonical_seconds(task_id, info)
        print(f"{task_id}: slowest call {info['slowest_call_seconds']:.3f}s, sandbox run "
              f"{info['canonical_seconds']:.2f}s", file=sys.stderr, flush=True)
    info = {"source": "evalplus/mbppplus_release v0.1.0 (commit f995b08) with EvalPlus's v0.2.0 changes "
                      "(= v0.2.0, commit 64fc419)", "measured": time.strftime("%Y-%m-%d"), "tasks": tasks}
    mbppplus.TASKS_INFO.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(tasks)} tasks, {sum(line['base'] is None for line in expected)} with expected outputs "
          f"computed by their check, canonical solutions {sum(t['canonical_seconds'] for t in tasks.values()):.0f}s "
          "in all in the sandbox)", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
