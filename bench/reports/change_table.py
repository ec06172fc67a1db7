"""What each change gained, one row per change: stored runs of one model on the same tasks that differ in one setting
(or two adopted together, named both), read side by side (never typed by hand; bench report prints them under the run
tables)."""

from __future__ import annotations

from itertools import combinations

from sqlite_utils import Database

from bench.protocol.labels import Protocol
from bench.runs import store
from bench.runs.record import Run
from bench.scoring.metrics import run_metrics

# The settings a change may differ in, with the words a row uses for each.
_LOOP_SETTINGS = {"prompt_version": "prompt", "strategy": "strategy", "budget": "budget",
                  "samples_per_round": "samples a round", "sample_temperature": "sample temperature",
                  "later_round_temperature": "later rounds' temperature", "token_budget": "token budget"}
# The loop's defaults may change as a pair (a prompt and the later rounds' temperature), measured as one change; sample
# runs are experiments, one setting apart.
_MOST_LOOP_SETTINGS_APART, _MOST_SAMPLE_SETTINGS_APART = 2, 1
_SAMPLE_SETTINGS = {"prompt_version": "prompt", "temperature": "temperature"}


def _loop_settings(run: Run) -> dict:
    search = run.search
    values = {name: getattr(search, name) for name in _LOOP_SETTINGS}
    values["later_round_temperature"] = search.round_temperature(1)  # unset: the later rounds run at the first's
    if not search.max_retries:  # a one-shot run has no search: only its prompt tells it apart
        values.update({name: None for name in _LOOP_SETTINGS if name not in ("prompt_version", "budget")})
    return values


def _sample_settings(run: Run) -> dict:
    return {"prompt_version": run.search.prompt_version, "temperature": run.temperature}


def _same_ground(run: Run) -> tuple:
    """What two runs must share to be read as one change: model, dataset, the very tasks, protocol, feedback."""
    one_shot = run.protocol == Protocol.SAMPLES or not run.search.max_retries  # what it feeds back is moot
    return (run.provider, run.model, run.dataset, tuple(run.task_ids), run.protocol,
            None if one_shot else run.feedback, run.samples or 0)


def _tasks(run: Run, count: int) -> str:
    spec = run.tasks_spec if len(run.tasks_spec) <= 40 else "chosen tasks"
    return f"{run.dataset} {spec} ({count})"


def _one_change(a: dict, b: dict, words: dict[str, str], most_apart: int) -> str | None:
    """'prompt v4-body -> v4' when the settings differ in one place, 'prompt v4-body -> v5 and later rounds'
    temperature 0.8 -> 1.1' in two (when most_apart allows), else None."""
    differing = [name for name in words if a[name] != b[name]]
    if not 1 <= len(differing) <= most_apart:
        return None
    return " and ".join(f"{words[name]} {_value(a[name])} -> {_value(b[name])}" for name in differing)


def _value(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _points(a: float, b: float) -> str:
    return f"{100 * a:.1f} -> {100 * b:.1f} ({100 * (b - a):+.1f})"


def change_rows(db: Database, finished: list[Run]) -> list[str]:
    """Markdown tables of one-setting changes among these finished runs: loop runs by pass@1, first answer, oracle
    ceiling and tokens a task; sample runs by pass@1 and the share of tasks with a passing sample, at the same number
    of samples a task."""
    runs = [r for r in finished if r.protocol in (Protocol.HONEST, Protocol.SAMPLES)]
    loop_rows, sample_rows = [], []
    for old, new in combinations(sorted(runs, key=lambda r: r.created), 2):
        if _same_ground(old) != _same_ground(new):
            continue
        sampled = old.protocol == Protocol.SAMPLES
        words, read, most_apart = (_SAMPLE_SETTINGS, _sample_settings, _MOST_SAMPLE_SETTINGS_APART) if sampled else \
            (_LOOP_SETTINGS, _loop_settings, _MOST_LOOP_SETTINGS_APART)
        change = _one_change(read(old), read(new), words, most_apart)
        if change is None:
            continue
        a, b = (run_metrics(r, store.results(db, r.id)) for r in (old, new))
        where = f"{old.provider}: {old.model} | {_tasks(old, a['tasks'])}"
        runs_cell = f"`{old.id}` -> `{new.id}`"
        if sampled:
            tokens = [m["tokens_out"] / max(1, m["samples"]) for m in (a, b)]
            sample_rows.append(f"| {where} | {a['samples_per_task']} | {change} | "
                               f"{_points(a['pass_at_k']['1'], b['pass_at_k']['1'])} | "
                               f"{_points(a['oracle_ceiling'], b['oracle_ceiling'])} | "
                               f"{tokens[0]:.0f} -> {tokens[1]:.0f} | {runs_cell} |")
        else:
            tokens = [m["tokens_out"] / max(1, m["tasks"]) for m in (a, b)]
            loop_rows.append(f"| {where} | {change} | {_points(a['pass_at_1'], b['pass_at_1'])} | "
                             f"{_points(a['first_attempt_pass_at_1'], b['first_attempt_pass_at_1'])} | "
                             f"{_points(a['oracle_ceiling'], b['oracle_ceiling'])} | "
                             f"{tokens[0]:.0f} -> {tokens[1]:.0f} | {runs_cell} |")
    lines = []
    if loop_rows:
        lines += ["**What each change gained (runs of the loop on the same tasks that differ in one setting, or two "
                  "adopted together)**", "",
                  "| model | tasks | change | pass@1 | first answer | oracle ceiling | tokens/task | runs |",
                  "|---|---|---|---|---|---|---|---|", *loop_rows, ""]
    if sample_rows:
        lines += ["**What each change gained (independent samples on the same tasks, one setting apart)**", "",
                  "| model | tasks | samples a task | change | pass@1 | tasks with a passing sample | tokens/sample "
                  "| runs |", "|---|---|---|---|---|---|---|---|", *sample_rows, ""]
    return lines
