"""MBPP's development set (170 tasks in words), a task file shipped with the bench: the first assert of each task
visible, all of them hidden. Made by bench/data/make_mbpp_task_file.py; its source and licence are in
bench/data/README.md. As a task file, its tasks are stored with every run made from it.
"""

from __future__ import annotations

from pathlib import Path

from bench.datasets.task import Offered
from bench.datasets.task_file import load_task_file

FILE = Path(__file__).resolve().parent.parent / "data" / "mbpp-sanitized-dev.jsonl"

DATASET = Offered("mbpp-dev", "170 MBPP tasks in words, the first assert visible", packaged=False,
                  load=lambda: load_task_file(FILE).dataset)
