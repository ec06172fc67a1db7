"""Shared pytest hooks."""

from __future__ import annotations

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    # Lets fixtures see whether the test body failed (the browser test screenshots failures).
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
