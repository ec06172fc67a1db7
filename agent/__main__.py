"""CLI: python -m agent solve --task TEXT|@FILE --tests @FILE [--entry-point NAME] [--provider P]
[--model M] [--strategy repair|sample|hybrid] [--budget N] [--ask] [--json]

One line per node transition as it happens, then the final code. With --ask, when answers that pass the tests
disagree, the solve asks at the terminal (one question at a time, on stderr) and each answer becomes a test; once an
answer passes, its behaviour table is shown, and a row the person corrects carries the solve on as an answer does. It
never asks when stdin is not a terminal. Exit 0 if solved, 1 if not,
2 on bad input or an unusable model (one line saying what to fix), 3 when the sandbox lacks what the
tests or the code import (status env_error: no model can fix it), 4 when the tests do what the sandbox cannot run as
one process would (status unsupported). With --json a refusal is a summary too.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from agent.config import PROVIDERS, STRATEGIES, describe_search, load_settings, search_dict
from agent.inputs import BadInput, EnvironmentProblem, UnsupportedTests, validate_input
from agent.loop.candidates import candidates, choice, doubt_of, judged_now
from agent.loop.questions import Asked, Question, Reply, answered
from agent.providers.chat_model import ModelUnavailable
from agent.solves.answer_behaviour import BehaviourRow, answer_behaviour
from agent.solves.asking import Person, answering
from agent.solves.events import Event, NodeFinished, NodeStarted, RunFinished, event_to_dict
from agent.solves.solver import Solver, make_solver
from sandbox.cli import CommandParser

EXIT_CODES = {"passed": 0, "env_error": 3, "unsupported": 4}


def _text(value: str, what: str) -> str:
    if not value.startswith("@"):
        return value
    try:
        return Path(value[1:]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read the {what} file {value[1:]!r}: {getattr(exc, 'strerror', exc)}") from None


def _line(event: NodeFinished, started: float) -> str:
    seconds = time.perf_counter() - started
    update = event.update
    if event.node == "ask":
        asked = [Asked.from_dict(q) for q in update.get("questions") or []]
        return "".join(f"[ask]       {a.question.subject()}: {a.reply.words(a.question)}"
                       + (f"; test added, kept {_numbers(a.kept)}, dropped {_numbers(a.dropped)}" if a.added else "")
                       + f"  ({seconds:.1f}s)" for a in asked)
    if event.node == "doubt" and not update.get("attempts"):
        return f"[doubt]     {(update.get('doubt') or {}).get('error') or 'nothing drawn'}"
    if event.node == "chooser":
        picked = choice(update)
        return f"[chooser]   #{picked.number}: {picked.reason}  ({seconds:.1f}s)" if picked else "[chooser]"
    if update.get("status") == "error":
        return f"[{event.node}] {update.get('error')}"
    drawn = candidates(update)
    if event.node in ("coder", "doubt"):
        new = [c for c in drawn if not c.ran]
        what = ", ".join(f"#{c.number} {c.kind} {c.tokens_out} tokens" for c in new)
        notes = sorted({c.note for c in new if c.note})
        head = f"[{event.node}]"
        doubt = doubt_of(update) if event.node == "doubt" else None
        if doubt and doubt.inputs_words():
            notes.append(doubt.inputs_words())
        return f"{head:<12}{what}  ({seconds:.1f}s)" + "".join(f"\n            note: {n}" for n in notes)
    judged = [c for c in drawn if c.number in judged_now(update)]
    verdicts = "; ".join(f"#{c.number} {c.report.status} {c.tests_passed}/{c.tests_total}" for c in judged)
    return f"[executor]  {verdicts} -> {update.get('status')}  ({seconds:.1f}s)"


def _numbers(numbers: tuple[int, ...]) -> str:
    return ", ".join(f"#{n}" for n in numbers) or "none"


def _read(prompt: str) -> str | None:
    """A line typed at the terminal (the prompt on stderr, so stdout keeps the transcript); None at end of input."""
    print(prompt, end="", file=sys.stderr, flush=True)
    try:
        return input()
    except EOFError:
        return None


def terminal_person(tests: str) -> Person:
    """A person at the terminal: each question with numbered choices, n (none of these: type the right result) and
    s (skip). A typed result that cannot be a test in these tests' style is refused and asked again."""
    def reply_to(question: Question) -> Reply:
        print(f"\n{question.words()}", file=sys.stderr)
        for number, option in enumerate(question.options, 1):
            print(f"  {number}) {option.words()}  (candidates {_numbers(option.candidates)})", file=sys.stderr)
        print("  n) none of these: the right result is ...\n  s) skip", file=sys.stderr)
        while True:
            text = _read(f"answer [1-{len(question.options)}, n, s]: ")
            text = "s" if text is None else text.strip().lower()
            if text in ("s", "skip", ""):
                return Reply()
            if text.isdigit() and 1 <= int(text) <= len(question.options):
                return Reply(choice=int(text) - 1)
            if text not in ("n", "none"):
                print(f"type a number from 1 to {len(question.options)}, n or s", file=sys.stderr)
                continue
            typed = _read("the right result (a Python value such as [1, 2] or 'a', or raises ValueError): ")
            if typed is None:
                return Reply()
            reply = Reply.typed(typed)
            try:
                answered(tests, question, reply)
                return reply
            except BadInput as exc:
                print(f"not a test: {exc}", file=sys.stderr)
    return reply_to


def terminal_correction(rows: list[BehaviourRow]) -> tuple[str, Reply, int | None] | None:
    """The answer's behaviour table at the terminal, one numbered row each; the person names a wrong row and types the
    result it should give (the call, that Reply and the place of the argument the row reads, if any), or presses
    Enter when every row looks right (None)."""
    print("\nWhat the answer does on inputs your tests do not try:", file=sys.stderr)
    for number, row in enumerate(rows, 1):
        beyond = "  (unlike every input of your tests: the task may rule it out)" if row.outside else ""
        print(f"  {number}) {row.call} {row.words()}{beyond}", file=sys.stderr)
    while True:
        text = _read(f"a wrong row [1-{len(rows)}], or Enter if every row looks right: ")
        if text is None or not text.strip():
            return None
        if text.strip().isdigit() and 1 <= int(text) <= len(rows):
            typed = _read("its right result (a Python value such as [1, 2] or 'a', or raises ValueError): ")
            row = rows[int(text) - 1]
            return None if typed is None else (row.call, Reply.typed(typed), row.argument)
        print(f"type a row's number from 1 to {len(rows)}, or nothing", file=sys.stderr)


def _shown(events: Iterator[Event], args: argparse.Namespace) -> RunFinished:
    """Print a stretch of a solve's events as they come (JSON lines, or one line per node); its last RunFinished."""
    started, final = time.perf_counter(), None
    for event in events:
        if args.json:
            if event.kind != "token":
                print(json.dumps(event_to_dict(event)), flush=True)
        elif isinstance(event, NodeStarted):
            started = time.perf_counter()
        elif isinstance(event, NodeFinished):
            line = _line(event, started)
            if line:  # an ask step that paused at its question says nothing until it is answered
                print(line, flush=True)
        if isinstance(event, RunFinished):
            final = event
    return final


def _corrected(solver: Solver, final: RunFinished, args: argparse.Namespace, person: Person) -> RunFinished:
    """While the answer passes, offer its behaviour table for the person to correct a row; each correction carries
    the solve on (Solver.correct), asking again as it goes. A result that cannot be a test is refused and the table
    shown again."""
    while final.status == "passed" and not final.paused:
        table = answer_behaviour(solver.state_at(final.thread_id))
        picked = terminal_correction(table.rows) if table is not None and table.rows else None
        if picked is None:
            return final
        try:
            going_on = solver.correct(final.thread_id, *picked)
        except BadInput as exc:
            print(f"not a test: {exc}", file=sys.stderr)
            continue
        final = _shown(answering(solver, going_on, person), args)
    return final


def _solve(args: argparse.Namespace) -> int:
    if args.budget is not None and args.budget < 1:
        raise BadInput(f"--budget is the number of candidates, 1 or more; got {args.budget}")
    settings = load_settings().with_overrides(provider=args.provider, model=args.model, budget=args.budget,
                                              strategy=args.strategy)
    task, tests = _text(args.task, "task"), _text(args.tests, "tests")
    validate_input(task, tests, args.entry_point)  # before loading a model: bad input fails fast
    solver = make_solver(settings)
    if not args.json:
        print(f"model: {solver.model_spec.describe()}\nsearch: {describe_search(settings.search)}", file=sys.stderr)
    ask = args.ask and sys.stdin.isatty()
    if args.ask and not ask:
        print("--ask: stdin is not a terminal, so nothing is asked; the solve runs as without --ask", file=sys.stderr)
    events = solver.start(task, tests, entry_point=args.entry_point, ask=ask)
    if ask:
        person = terminal_person(tests)
        final = _corrected(solver, _shown(answering(solver, events, person), args), args, person)
    else:
        final = _shown(events, args)
    state = solver.state_at(final.thread_id)
    summary = {"thread_id": final.thread_id, "status": final.status, "iterations": final.iterations,
               "code": final.code, "error": final.error, "model": solver.model_spec.describe(),
               "search": search_dict(settings.search), "doubt": state.get("doubt"),
               "questions": state.get("questions") or []}
    if args.json:
        print(json.dumps({"kind": "summary", **summary}))
    else:
        print(f"\n{final.status} after {final.iterations} attempt(s); thread {final.thread_id}")
        if final.error:
            print(final.error)
        if final.code:
            print("\n" + final.code.rstrip())
        if state.get("report") and final.status != "passed":
            print("\nlast report:\n" + (state.get("feedback") or ""))
    return EXIT_CODES.get(final.status, 1)


def build_parser() -> CommandParser:
    """The CLI: one command, solve."""
    parser = CommandParser(prog="python -m agent", description="Self-healing coding agent.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    solve = sub.add_parser("solve", help="write code for a task until its tests pass")
    solve.add_argument("--task", required=True, help="the task text, or @FILE")
    solve.add_argument("--tests", required=True, help="the tests, or @FILE (asserts, test_* functions, check)")
    solve.add_argument("--entry-point", help="the function the tests call")
    solve.add_argument("--provider", choices=PROVIDERS)
    solve.add_argument("--model", help="model name (Ollama/OpenAI) or GGUF name/path (llamacpp)")
    solve.add_argument("--strategy", choices=STRATEGIES,
                       help="after a failing first answer: repair it, draw fresh samples, or both (default STRATEGY)")
    solve.add_argument("--budget", type=int, help="candidates in all, the first answer included (default BUDGET)")
    solve.add_argument("--ask", action="store_true",
                       help="when answers that pass the tests disagree, ask here which is right (at most MAX_QUESTIONS "
                            "questions), then show the answer's behaviour table to correct a row; only when stdin is "
                            "a terminal")
    solve.add_json_flag("one event a line and a summary")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return _solve(args)
    except (BadInput, ModelUnavailable, ValueError) as exc:
        status = ("unsupported" if isinstance(exc, UnsupportedTests) else
                  "env_error" if isinstance(exc, EnvironmentProblem) else
                  "error" if isinstance(exc, ModelUnavailable) else "bad_input")
        if args.json:
            print(json.dumps({"kind": "summary", "status": status, "error": str(exc), "iterations": 0}))
        print(f"agent: {exc}", file=sys.stderr)
        return EXIT_CODES.get(status, 2)


if __name__ == "__main__":
    sys.exit(main())
