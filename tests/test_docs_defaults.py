"""The README and the docs state the code's defaults: each search setting's (BUDGET, PROMPT_VERSION ...), the
backend a run takes, and the quick tier of the tests, so a default changed in the code fails here until the words
follow it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_deploy_files import search_defaults

from agent import Search
from bench.runs.config import RunConfig

ROOT = Path(__file__).resolve().parent.parent


def _setting_rows(path: Path) -> dict[str, str]:
    """variable -> its default cell, from the page's tables of settings (| `VARIABLE` | default | meaning |)."""
    rows = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`[A-Z_]+`", cells[0]):
            rows[cells[0].strip("`")] = cells[1]
    return rows


@pytest.mark.parametrize("page", ["README.md", "docs/configuration.md"])
def test_the_settings_tables_state_the_codes_search_defaults(page):
    rows = _setting_rows(ROOT / page)
    assert rows, f"{page} has no table of settings"
    for variable, default in search_defaults().items():
        if variable in rows or page != "README.md":  # the README lists the settings people change, not all
            assert f"`{default}`" in rows.get(variable, ""), f"{page}: {variable}'s default is {default}"


def test_the_readme_says_its_headline_runs_were_made_with_the_default_prompt_and_backend():
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"today's\s+defaults \(prompt `([\w-]+)`, later rounds at temperature ([\d.]+), the (\w+) "
                      r"backend\)", readme)
    assert found, "the README's Results no longer say which defaults its rows were made with"
    search = Search()
    assert found.groups() == (search.prompt_version, f"{search.later_round_temperature:g}", RunConfig().backend)
    assert f"(prompt `{search.prompt_version}`:" in readme  # the loop's description of the first answer


def test_the_bench_page_of_the_docs_names_the_default_backend():
    bench = (ROOT / "docs" / "bench.md").read_text()
    assert f"[--backend {RunConfig().backend}|" in bench  # the synopsis lists the default first
    assert "processes with a model each (the default backend" in bench and RunConfig().backend == "processes"


def test_one_quick_tier_in_run_sh_pyproject_and_the_docs():
    tier = re.search(r'quick\) MODE=test; TIER=\(-m "([^"]+)"\)', (ROOT / "run.sh").read_text()).group(1)
    for page in ("pyproject.toml", "docs/bench.md"):
        text = (ROOT / page).read_text()
        stated = re.findall(r'-m "(not model[^"]*)"', text)
        assert stated and set(stated) == {tier}, f"{page} gives the quick tier as {stated}, run.sh as {tier!r}"
