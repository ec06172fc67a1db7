"""The command-line parser every CLI of the project uses (python -m agent, bench, sandbox, measure, agent.models).

It lives in the sandbox because the sandbox is the layer every other imports (ui -> bench -> agent -> sandbox), and
a parser knows nothing of LLMs: one class here serves all five CLIs without an import pointing the wrong way.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class CommandParser(argparse.ArgumentParser):
    """argparse with one-line errors (the CLI's name and the message, exit 2) instead of the usage block, and the
    one --json flag of every command that can print its result as JSON."""

    def error(self, message: str) -> NoReturn:
        words = self.prog.split()  # "python -m bench run": the CLI is bench
        print(f"{words[2] if words[:2] == ['python', '-m'] else words[0]}: {message}", file=sys.stderr)
        raise SystemExit(2)

    def add_json_flag(self, what: str = "the result") -> None:
        """--json: print what the command prints as JSON instead of text."""
        self.add_argument("--json", action="store_true", help=f"print {what} as JSON")
