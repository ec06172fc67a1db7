"""CLI: python -m sandbox run --code FILE --tests FILE [--entry-point NAME] [--timeout S] [--json]
     python -m sandbox policy [--json]

run: exit 0 when every test passes, 1 when not. policy: print the policy in force on this machine (what the
sandbox's code may see, read, write, call and use), with the isolation's warning, exit 0. Both exit 2 on bad
usage or a bad SANDBOX_* setting (with a one-line message).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sandbox.cli import CommandParser
from sandbox.host_policy import describe_policy
from sandbox.isolation import worker_policy
from sandbox.run import run_tests
from sandbox.settings import sandbox_settings
from sandbox.status import sandbox_status
from sandbox.verdict import Limits


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"sandbox: cannot read {what} file {path!r}: {exc.strerror if isinstance(exc, OSError) else exc}",
              file=sys.stderr)
        raise SystemExit(2) from None


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    parser = CommandParser(prog="python -m sandbox", description="Run Python code against tests in the sandbox.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    run = sub.add_parser("run", help="run code against tests")
    run.add_argument("--code", required=True, help="file with the code under test")
    run.add_argument("--tests", required=True, help="file with asserts, test_* functions or check(candidate)")
    run.add_argument("--entry-point", help="function passed to check(candidate)")
    run.add_argument("--timeout", type=float, default=Limits.timeout_s, help="wall-clock seconds (default 10)")
    run.add_json_flag("the report")
    policy = sub.add_parser("policy", help="print the sandbox's policy in force on this machine")
    policy.add_json_flag("the policy as the workers receive it")
    args = parser.parse_args(argv)
    try:
        sandbox_settings()  # a bad SANDBOX_* value (a package that is not installed) is one line, not a traceback
    except ValueError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 2
    if args.command == "policy":
        return _print_policy(args.json)
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    code, tests = _read(args.code, "code"), _read(args.tests, "tests")
    report = run_tests(code, tests, entry_point=args.entry_point, limits=Limits(timeout_s=args.timeout))
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        for test in report.tests:
            print(test.describe())
        print(report.summary(max_failures=0).splitlines()[0] + f" in {report.duration_ms:.0f} ms"
              + (f"\n{report.error}" if report.error else ""))
    return 0 if report.passed else 1


def _print_policy(as_json: bool) -> int:
    """The policy, and above it what an operator must be told about this machine's isolation (loudly)."""
    if as_json:
        print(worker_policy().to_json())
        return 0
    status = sandbox_status()
    print(f"isolation: {status.description}")
    for label, text in (("REFUSED", status.refused), ("WARNING", status.warning)):
        if text:
            print(f"{label}: {text}")
    print(describe_policy(worker_policy()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
