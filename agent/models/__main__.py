"""CLI: ``python -m agent.models {pull [NAME] | list | path NAME}``.

``pull`` of a model no index holds (see agent.models.catalog) verifies the file put in place by hand.

Exit codes: 0 ok, 1 download/integrity error or model absent, 2 bad usage.
Progress goes to stderr so stdout stays machine-readable (``path`` prints only the path).
"""

from __future__ import annotations

import sys

from sandbox.cli import CommandParser

from .catalog import CATALOG, DEFAULT_MODEL
from .weights import ModelError, find_model, list_models, pull


def build_parser() -> CommandParser:
    """The CLI: pull, list, path."""
    parser = CommandParser(prog="python -m agent.models", description="Manage local GGUF model files.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    p_pull = sub.add_parser("pull", help="download, join and verify a model (or verify one put in place by hand)")
    p_pull.add_argument("name", nargs="?", default=DEFAULT_MODEL, choices=list(CATALOG))
    sub.add_parser("list", help="show catalog models and whether they are present")
    p_path = sub.add_parser("path", help="print the file path of a pulled model")
    p_path.add_argument("name", choices=list(CATALOG))
    return parser


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "pull":
            print(pull(args.name, progress=_progress))
        elif args.command == "path":
            print(find_model(args.name, progress=_progress))
        else:
            for row in list_models():
                state = "verified" if row["verified"] else "present" if row["present"] else "absent"
                how = "" if row["pullable"] else "  (put there by hand: no index holds it)"
                print(f"{row['name']:<24} {state:<9} {row['expected_size'] / 1e6:8.1f} MB  {row['path']}{how}")
    except (ModelError, OSError) as exc:  # OSError: disk full, permissions; still one line
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
