"""Shared pytest hooks and fixtures: the app's pages with a scripted model, one real local Ray cluster a session, a
headless Chromium for a module of browser tests.
The test doubles themselves are in fakes.py (Ray actors import them by that module's name)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# The test doubles' solver stores (fakes._solver_folder), made in worker processes and Ray actors too, which inherit
# this: one folder for the session, removed when it ends, so that no run leaves folders behind in the temp folder.
os.environ["TEST_SOLVERS_DIR"] = tempfile.mkdtemp(prefix="test-solvers-")


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(os.environ.get("TEST_SOLVERS_DIR", ""), ignore_errors=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    # Lets fixtures see whether the test body failed (the browser test screenshots failures).
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def ray_cluster():
    """One real local Ray cluster for the whole session (it takes seconds to start): 2 CPUs, no dashboard, a
    small object store, the code shipped as a bench run ships it. Yields its address. Its workers can import
    the tests' own modules (fakes)."""
    import logging

    ray = pytest.importorskip("ray")
    from bench.runs.backends.ray_cluster import OBJECT_STORE_BYTES, shipped_code

    tests_dir = str(Path(__file__).resolve().parent)
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([tests_dir, *([before] if before else [])])
    try:  # the raylet, and so every worker it starts, inherits the environment of this moment
        ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES,
                 log_to_driver=False, logging_level=logging.WARNING, runtime_env=shipped_code())
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app under streamlit's AppTest, first page drawn: a scripted model (fakes.scripted_solver_factory), its
    data in a temporary DATA_DIR, not asking the person (APP_ASK=off)."""
    from streamlit.testing.v1 import AppTest

    from fakes import scripted_solver_factory
    from ui import session

    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    # Solves that stop at their first pass, as they did before a solve could ask (on by default in the app):
    # tests/test_ui_questions.py turns it on.
    monkeypatch.setenv("APP_ASK", "off")
    monkeypatch.setattr(session, "SOLVER_FACTORY", scripted_solver_factory)
    session.cached_solver.clear()
    at = AppTest.from_file("../ui/app.py", default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through Playwright (the browser tests'), for one test module."""
    from playwright.sync_api import sync_playwright

    from browser_pages import ARTIFACTS, CHROMIUM, FLAGS

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()
