"""Ratios of medians: how the measurements compare two ways of doing one thing measured in the same run."""

from __future__ import annotations

import statistics


def median_ratio(values: list[float], reference: list[float]) -> float:
    """The median of values over the median of reference (1.0: alike; 2.0: values twice reference)."""
    return statistics.median(values) / statistics.median(reference)
