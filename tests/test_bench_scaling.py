"""The scaling script's arithmetic: steady rate from task times, projection capped by the driver."""

from __future__ import annotations

import pytest

from bench.scaling import projected_rate, steady_rate


def test_steady_rate_spans_the_first_start_to_the_last_end():
    # Two tasks side by side from t=100 to t=130, a third from 130 to 160: 3 tasks in one minute.
    results = [{"finished": 130.0, "seconds": 30.0}, {"finished": 125.0, "seconds": 25.0},
               {"finished": 160.0, "seconds": 30.0}]
    assert steady_rate(results) == pytest.approx(3.0)
    assert steady_rate([]) == 0.0


def test_projection_grows_with_nodes_until_the_driver_is_the_limit():
    assert projected_rate(2.0, 0.5, 4) == 8.0  # 4 nodes x 2 tasks/min, far below the driver's 120
    assert projected_rate(2.0, 0.5, 64) == 120.0  # 128 wanted, one driver takes in 60 / 0.5
    assert projected_rate(2.0, 0.0, 64) == 128.0
