"""Measured scaling of bench runs: the same tasks on each backend, in one run, and what it projects.

    python -m measure scaling [--tasks sample:6] [--budget 1] [--max-tokens 192] [--json]

Runs the tasks with the embedded model on: the threads backend (two threads sharing one model that decodes
on every core); Ray with 1 actor x 2 CPUs; Ray with 2 actors x 1 CPU (two models, one core each). It reports
tasks per minute twice: over the run's wall time (actors starting and loading their model included) and
steady (from the start of the first task to the end of the last). The driver's own cost per task is its
process's CPU time over a Ray run divided by the tasks (handing out tasks, receiving results, writing
SQLite; the hidden-test scoring runs on the actors). N nodes like one of these then give at most
min(N x one node's steady rate, 60 / driver seconds per task) tasks per minute: the driver is the one
part that does not grow with the cluster.

It loads the embedded model: on a shared machine run it under `flock /tmp/model.lock`. The machine is
noisy: read the ratios, measured in one run, rather than the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from agent.config import load_settings
from bench import runner, store
from bench.backends.ray_cluster import connected

CONFIGS = (
    ("threads x2, one model on 2 cores", {"backend": "threads", "parallel": 2}),
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
    config = runner.RunConfig(**{**base, **changes})
    cpu, wall = time.process_time(), time.perf_counter()
    run_id = runner.start_run(config, db_path, background=False)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    db = store.open_store(db_path)
    run, results = store.get_run(db, run_id), store.results(db, run_id)
    if run["status"] != "finished":
        raise RuntimeError(f"{name}: the run ended {run['status']}: {run['error']}")
    return {"config": name, "run": run_id, "tasks": len(results), "wall_s": round(wall, 1),
            "tasks_per_min_wall": round(len(results) / (wall / 60), 2),
            "tasks_per_min_steady": round(steady_rate(results), 2),
            "driver_cpu_s_per_task": round(cpu / max(1, len(results)), 3),
            "passing": sum(r["hidden_passed"] for r in results)}


def _markdown(rows: list[dict], driver_s: float, node_rate: float) -> str:
    base = rows[0]["tasks_per_min_steady"] or 1.0
    lines = ["| configuration | tasks | wall s | tasks/min (wall) | tasks/min (steady) | steady vs threads |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['config']} | {r['tasks']} | {r['wall_s']} | {r['tasks_per_min_wall']} | "
              f"{r['tasks_per_min_steady']} | {r['tasks_per_min_steady'] / base:.2f} |" for r in rows]
    lines += ["", f"driver cost: {driver_s:.3f} CPU s per task (Ray runs), so one driver takes in at most "
                  f"{60 / driver_s:.0f} tasks/min" if driver_s else "driver cost: too small to measure", "",
              "| nodes like this one | projected tasks/min |", "|---|---|"]
    lines += [f"| {n} | {projected_rate(node_rate, driver_s, n):.1f} |" for n in PROJECTED_NODES]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `python -m measure scaling`."""
    parser.add_argument("--tasks", default="sample:6")
    parser.add_argument("--budget", type=int, default=1, help="candidates per task (1: one shot)")
    parser.add_argument("--max-tokens", type=int, default=192)
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> None:
    """Measure each configuration; print a Markdown table (or JSON)."""
    base = {"tasks": args.tasks, "provider": "llamacpp", "search": replace(load_settings().search, budget=args.budget),
            "max_tokens": args.max_tokens,
            "feedback": "visible" if args.budget > 1 else "none"}
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as folder, connected(None):
        # One local Ray for both Ray configurations: its start is not what is measured.
        for name, changes in CONFIGS:
            rows.append(measure(name, changes, base, Path(folder) / "bench.sqlite"))
            print(f"{name}: {rows[-1]}", file=sys.stderr)
    on_ray = [r for r in rows if r["config"].startswith("ray")]
    driver_s = sum(r["driver_cpu_s_per_task"] for r in on_ray) / len(on_ray)
    node_rate = max(r["tasks_per_min_steady"] for r in on_ray)
    if args.json:
        print(json.dumps({"rows": rows, "driver_cpu_s_per_task": driver_s, "node_tasks_per_min": node_rate,
                          "projected": {n: projected_rate(node_rate, driver_s, n) for n in PROJECTED_NODES}}))
    else:
        print(_markdown(rows, driver_s, node_rate))
