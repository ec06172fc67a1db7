"""The measurements' CLI and arithmetic, without running them (they load models): each subcommand's options,
ratios of medians, the sandbox table's rows, scaling's steady rate and its projection capped by the driver."""

from __future__ import annotations

import pytest

from measure.__main__ import build_parser
from measure.ratios import median_ratio
from measure.sandbox_speed import timing_rows
from measure.scaling import projected_rate, steady_rate


@pytest.mark.parametrize(("argv", "expected"), [
    (["model"], {"model": "qwen2.5-coder-0.5b", "rounds": 3, "max_tokens": 128}),
    (["model", "--model", "qwen2.5-coder-1.5b", "--rounds", "1", "--max-tokens", "64"],
     {"model": "qwen2.5-coder-1.5b", "rounds": 1, "max_tokens": 64}),
    (["batch"], {"model": "qwen2.5-coder-0.5b", "n": [2, 4], "max_tokens": 160, "rounds": 2, "skip_lookup": False}),
    (["batch", "--n", "1,8", "--skip-lookup"], {"n": [1, 8], "skip_lookup": True}),
    (["sandbox"], {"runs": 200, "numpy": False}),
    (["sandbox", "--runs", "20", "--numpy"], {"runs": 20, "numpy": True}),
    (["scaling"], {"tasks": "sample:6", "budget": 1, "max_tokens": 192, "json": False,
                   "backends": ["threads", "processes", "ray"]}),
    (["scaling", "--tasks", "0-3", "--budget", "3", "--json", "--backends", "threads,processes"],
     {"tasks": "0-3", "budget": 3, "json": True, "backends": ["threads", "processes"]}),
], ids=["model", "model-options", "batch", "batch-options", "sandbox", "sandbox-numpy", "scaling", "scaling-options"])
def test_each_subcommand_keeps_the_options_of_its_old_script(argv, expected):
    args = build_parser().parse_args(argv)
    assert args.measurement == argv[0]
    assert {key: getattr(args, key) for key in expected} == expected


@pytest.mark.parametrize("argv", [[], ["speed"], ["batch", "--n", "0"], ["batch", "--n", "two"],
                                  ["sandbox", "--runs", "many"], ["scaling", "--backends", "threads,dask"]])
def test_a_missing_or_unknown_subcommand_and_bad_numbers_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err  # one line, as every CLI of the project says it (sandbox.cli.CommandParser)
    assert err.startswith("measure: ") and len(err.strip().splitlines()) == 1


def test_median_ratio_compares_medians_so_one_outlier_does_not_move_it():
    assert median_ratio([2.0, 2.0, 90.0], [1.0, 1.0, 1.0]) == 2.0
    assert median_ratio([1.0, 3.0], [4.0]) == 0.5


def test_sandbox_table_rows_give_each_method_its_median_p90_and_ratio_to_the_base():
    times = {"sandbox.run_tests": [float(ms) for ms in range(1, 11)], "plain": [float(2 * ms) for ms in range(1, 11)]}
    rows = timing_rows(times, "sandbox.run_tests")
    assert [(name, median, ratio) for name, median, _, ratio in rows] == [("sandbox.run_tests", 5.5, 1.0),
                                                                          ("plain", 11.0, 2.0)]
    assert rows[0][2] == pytest.approx(9.9) and rows[1][2] == pytest.approx(19.8)


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
