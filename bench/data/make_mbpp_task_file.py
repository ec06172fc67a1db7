"""Make mbpp-sanitized-dev.jsonl, the bench's MBPP task file, from MBPP's sanitized JSON.

    python -m bench.data.make_mbpp_task_file sanitized-mbpp.json [bench/data/mbpp-sanitized-dev.jsonl]

The source is `mbpp/sanitized-mbpp.json` of the google-research/google-research repository (Austin et al.,
2021; CC BY 4.0). Only the development splits are kept: prompt (task ids 1-10), validation (511-600) and
train (601-974); the test split (11-510) is left alone, so nothing tuned on this file touches it.

Each task becomes one line of the bench's task-file format (bench/task_file.py):
- ``task_id``: ``mbpp/<MBPP task_id>``;
- ``prompt``: MBPP's task text, in words, as MBPP gives it;
- ``tests``: the first assert only, the example a person would give (the loop sees and runs it);
- ``hidden_tests``: all the asserts, the first included (they score every candidate after the loop);
- ``test_imports``: MBPP's, put before both by the loader, plus an import of any standard-library module the
  asserts use without MBPP listing it (task 596's ``sys.getsizeof``): MBPP's own harness runs the code and the
  tests in one namespace, where the reference code's ``import sys`` served the tests too; our sandbox runs the
  tests apart from the candidate's code, so they import what they use;
- ``canonical_solution``: MBPP's reference code, which the loader ignores (a test checks it passes the hidden
  tests in our sandbox, so a failure is the model's and not the scorer's).
No ``entry_point``: the agent infers the function's name from the tests, as for a person's task.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bench.datasets.mbpp_dev import HELD_OUT, mbpp_split, unlisted_imports

OUT = Path(__file__).resolve().parent / "mbpp-sanitized-dev.jsonl"


def in_dev_splits(task_id: int) -> bool:
    """Whether an MBPP task id belongs to the prompt, validation or train split (never the test split, 11-510)."""
    return mbpp_split(task_id) != HELD_OUT


def task_line(record: dict) -> str:
    """One MBPP record as a task-file line (JSON, no trailing newline)."""
    asserts = [line.strip() for line in record["test_list"]]
    imports = list(record["test_imports"])
    return json.dumps({
        "task_id": f"mbpp/{record['task_id']}",
        "prompt": record["prompt"].strip(),
        "tests": asserts[0] + "\n",
        "hidden_tests": "\n".join(asserts) + "\n",
        "test_imports": imports + unlisted_imports(asserts, imports),
        "canonical_solution": record["code"],
    }, ensure_ascii=False)


def main(argv: list[str]) -> int:
    """Convert; prints how many tasks were written."""
    if not argv or len(argv) > 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    records = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    kept = sorted((r for r in records if in_dev_splits(r["task_id"])), key=lambda r: r["task_id"])
    out = Path(argv[1]) if len(argv) > 1 else OUT
    out.write_text("".join(task_line(r) + "\n" for r in kept), encoding="utf-8")
    print(f"wrote {len(kept)} tasks to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
