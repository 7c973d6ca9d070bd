"""The CR2 (Bell–McCaffrey) standard error of a mean and its degrees of freedom, shared.

One implementation, imported by :mod:`evallib.items` (the pass@k intervals, the leaderboard's pairs,
the coverage studies, :func:`evallib.items.bell_mccaffrey_df`) and by the per-item report's size check,
so that the report tests each draw exactly as the library's pair tests do.

References
----------
R. M. Bell and D. F. McCaffrey (2002), Survey Methodology 28(2), 169-181.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

__all__ = ["bm_df", "cr2_mean_se"]


def cr2_mean_se(values: np.ndarray, codes: np.ndarray | None, n_groups: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Column means of ``values`` (items x columns), their standard errors and the df.

    Unclustered: ``se^2 = s^2 / N`` with ``N - 1`` df. Clustered: the CR2 error of an
    intercept-only regression (Bell & McCaffrey 2002), the convention of
    :func:`evallib.items.paired_item_difference`: with ``e_g`` the sum over cluster
    ``g`` of the deviations from the mean and ``n_g`` its size,
    ``se^2 = sum_g e_g^2 / (1 - n_g / N) / N^2``, with the Bell–McCaffrey degrees of freedom
    (`bm_df`, the core of :func:`evallib.items.bell_mccaffrey_df`; ``G - 1`` for equal clusters). With one
    item per cluster it is the unclustered ``s^2 / N`` with ``N - 1`` df.
    """
    n_items = values.shape[0]
    mean = values.mean(axis=0)
    resid = values - mean
    if codes is None:
        se = np.sqrt((resid * resid).sum(axis=0) / (n_items * (n_items - 1.0)))
        return mean, se, n_items - 1
    indicator = sparse.csr_array((np.ones(n_items), (codes, np.arange(n_items))), shape=(n_groups, n_items))
    sums = indicator @ resid
    sizes = np.bincount(codes, minlength=n_groups).astype(float)
    scale = 1.0 / (1.0 - sizes / n_items)
    se = np.sqrt((scale[:, None] * sums * sums).sum(axis=0)) / n_items
    return mean, se, bm_df(sizes)


def bm_df(n_g: np.ndarray) -> float:
    """The Bell–McCaffrey df of the CR2 variance of a mean, unchecked: see
    :func:`evallib.items.bell_mccaffrey_df`, which validates ``cluster_sizes`` and calls this."""
    n_g = n_g.astype(float)
    N = n_g.sum()
    r = (N - n_g) / N
    s1 = np.sum(n_g * n_g / (r * r) * (1.0 - 2.0 * n_g / N))
    s2 = np.sum(n_g * n_g / r)
    return float(N * N / (s1 + s2 * s2 / (N * N)))
