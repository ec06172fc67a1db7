"""Measured scaling of bench runs: the same tasks on each backend, in one run, and what it projects.

    python -m measure scaling [--tasks sample:6] [--budget 1] [--max-tokens 192] [--backends threads,processes,ray]
                              [--json]

Runs the tasks with the embedded model on: the threads backend (two threads sharing one model that decodes
on every core); the processes backend (two processes, a model on one core each); Ray with 1 actor x 2 CPUs;
Ray with 2 actors x 1 CPU (two models, one core each). --backends keeps some of them (threads,processes: no
Ray at all). It reports tasks per minute twice: over the run's wall time (processes or actors starting and
loading their model included) and steady (from the start of the first task to the end of the last). The
driver's own cost per task is its process's CPU time over a run whose solvers are other processes (processes,
Ray) divided by the tasks (handing out tasks, receiving results, writing SQLite; the hidden-test scoring runs
in the solvers' processes). N nodes like one of these then give at most min(N x one node's steady rate,
60 / driver seconds per task) tasks per minute: the driver is the one part that does not grow with the cluster.

It loads the embedded model: on a shared machine run it under `flock /tmp/model.lock`. The machine is
noisy: read the ratios, measured in one run, rather than the absolute figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from agent.config import load_settings
from bench.runs import store
from bench.runs.backends import BACKENDS
from bench.runs.config import RunConfig
from bench.runs.lifecycle import start_run
from sandbox.cli import CommandParser

CONFIGS = (
    ("threads x2, one model on 2 cores", {"backend": "threads", "parallel": 2}),
    ("processes x2, a model on 1 core each", {"backend": "processes", "parallel": 2}),
    ("ray 1 actor x 2 CPUs", {"backend": "ray", "actors": 1, "cpus_per_actor": 2.0}),
    ("ray 2 actors x 1 CPU", {"backend": "ray", "actors": 2, "cpus_per_actor": 1.0}),
)
PROJECTED_NODES = (4, 16, 64)


def steady_rate(results: list[dict]) -> float:
    """Tasks per minute from the start of the earliest task to the end of the last one."""
    if not results:
        return 0.0
    start = min(r["finished"] - r["seconds"] for r in results)
    end = max(r["finished"] for r in results)
    return len(results) / ((end - start) / 60) if end > start else 0.0


def projected_rate(node_rate: float, driver_seconds_per_task: float, nodes: int) -> float:
    """Tasks per minute of N nodes like the measured one, capped by what one driver can take in."""
    cap = 60 / driver_seconds_per_task if driver_seconds_per_task > 0 else float("inf")
    return min(nodes * node_rate, cap)


def measure(name: str, changes: dict, base: dict, db_path: Path) -> dict:
    """One configuration on the tasks: wall and steady tasks/min, and the driver's CPU seconds per task."""
    config = RunConfig(**{**base, **changes})
    cpu, wall = time.process_time(), time.perf_counter()
    run_id = start_run(config, db_path, background=False)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    db = store.open_store(db_path)
    run, results = store.get_run(db, run_id), store.results(db, run_id)
    if run.status != "finished":
        raise RuntimeError(f"{name}: the run ended {run.status}: {run.error}")
    return {"config": name, "backend": config.backend, "run": run_id, "tasks": len(results), "wall_s": round(wall, 1),
            "tasks_per_min_wall": round(len(results) / (wall / 60), 2),
            "tasks_per_min_steady": round(steady_rate(results), 2),
            "driver_cpu_s_per_task": round(cpu / max(1, len(results)), 3),
            "passing": sum(r["hidden_passed"] for r in results)}


def _markdown(rows: list[dict], driver_s: float, node_rate: float) -> str:
    base = rows[0]["tasks_per_min_steady"] or 1.0
    lines = ["| configuration | tasks | wall s | tasks/min (wall) | tasks/min (steady) | "
             f"steady vs {rows[0]['backend']} |", "|---|---|---|---|---|---|"]
    lines += [f"| {r['config']} | {r['tasks']} | {r['wall_s']} | {r['tasks_per_min_wall']} | "
              f"{r['tasks_per_min_steady']} | {r['tasks_per_min_steady'] / base:.2f} |" for r in rows]
    lines += ["", f"driver cost: {driver_s:.3f} CPU s per task (processes and Ray runs), so one driver takes in at "
                  f"most {60 / driver_s:.0f} tasks/min" if driver_s else
              "driver cost: not measured (a processes or Ray run measures it) or too small to measure", "",
              "| nodes like this one | projected tasks/min |", "|---|---|"]
    lines += [f"| {n} | {projected_rate(node_rate, driver_s, n):.1f} |" for n in PROJECTED_NODES]
    return "\n".join(lines)


def add_arguments(parser: CommandParser) -> None:
    """The options of `python -m measure scaling`."""
    parser.add_argument("--tasks", default="sample:6")
    parser.add_argument("--budget", type=int, default=1, help="candidates per task (1: one shot)")
    parser.add_argument("--max-tokens", type=int, default=192)
    parser.add_argument("--backends", type=backend_list, default=list(BACKENDS),
                        help="the backends compared, in the table's order (default threads,processes,ray)")
    parser.add_json_flag("the measurements")


def backend_list(text: str) -> list[str]:
    """'threads,processes' -> its backends, in order (argparse: a bad name is a usage error)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BACKENDS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"backends are among {', '.join(BACKENDS)}, got {text!r}")
    return names


def _one_ray(wanted: bool):
    """One local Ray for both Ray configurations (its start is not what is measured), or nothing without them."""
    if not wanted:
        return contextlib.nullcontext()
    from bench.runs.backends.ray_cluster import connected

    return connected(None)


def run(args: argparse.Namespace) -> None:
    """Measure each configuration; print a Markdown table (or JSON)."""
    base = {"tasks": args.tasks, "provider": "llamacpp", "search": replace(load_settings().search, budget=args.budget),
            "max_tokens": args.max_tokens,
            "feedback": "visible" if args.budget > 1 else "none"}
    configs = sorted((c for c in CONFIGS if c[1]["backend"] in args.backends),
                     key=lambda c: args.backends.index(c[1]["backend"]))
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as folder, _one_ray("ray" in args.backends):
        for name, changes in configs:
            rows.append(measure(name, changes, base, Path(folder) / "bench.sqlite"))
            print(f"{name}: {rows[-1]}", file=sys.stderr)
    # Runs whose solvers are processes of their own: there the driver's CPU time is the driver's work alone.
    apart = [r for r in rows if r["backend"] != "threads"]
    driver_s = sum(r["driver_cpu_s_per_task"] for r in apart) / len(apart) if apart else 0.0
    node_rate = max(r["tasks_per_min_steady"] for r in apart or rows)
    if args.json:
        print(json.dumps({"rows": rows, "driver_cpu_s_per_task": driver_s, "node_tasks_per_min": node_rate,
                          "projected": {n: projected_rate(node_rate, driver_s, n) for n in PROJECTED_NODES}}))
    else:
        print(_markdown(rows, driver_s, node_rate))
