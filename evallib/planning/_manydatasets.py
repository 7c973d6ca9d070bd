"""Planning design 3, many data sets: how many data sets the Nemenyi test needs (Demšar
2006; Flach eq. 12.1) and its power by simulation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_keywords
from .._plotting import get_axes
from .._power import _check_power
from .._validate import check_alpha, check_count, check_real, check_rng
from ..manydatasets import critical_difference

__all__ = ['nemenyi_datasets', 'nemenyi_power_curve', 'nemenyi_power_datasets', 'plot_nemenyi_datasets', 'plot_nemenyi_power']


# ------------------------------------------------------------------ many data sets
def nemenyi_datasets(k: int, rank_difference: float, *, alpha: float = 0.05, test: str = "nemenyi") -> int:
    """How many data sets make a difference of average ranks significant.

    The Nemenyi test (Demšar 2006; Flach eq. 12.1) calls two of ``k`` algorithms
    different when their average ranks differ by at least
    ``CD = q_alpha sqrt(k (k + 1) / (6 N))``. Solving ``CD <= rank_difference`` for the
    number of data sets gives ``N >= q_alpha^2 k (k + 1) / (6 rank_difference^2)``;
    returned is the smallest such whole ``N`` (at least 2). It is the number of data sets
    at which an observed gap of ``rank_difference`` would just be significant - a
    planning floor, not a power calculation (the observed gap itself varies).

    Parameters
    ----------
    k : int
        Number of algorithms, ``>= 2``.
    rank_difference : float
        The gap in average ranks to separate, in ``(0, k - 1]``.
    alpha : float
        Family-wise level, in (0, 1).
    test : {"nemenyi", "bonferroni-dunn"}
        As in :func:`evallib.critical_difference`.

    Returns
    -------
    int

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    *Journal of Machine Learning Research* 7, 1-30 (section 3.2.2, Table 5).
    Flach, P. (2012). *Machine Learning*, section 12.4, eq. (12.1).

    Examples
    --------
    Flach's three algorithms (q = 2.343): a gap of 1.047 needs the ten data sets of
    Example 12.8 (at the rounded q; with the exact studentized range, 11):

    >>> import math
    >>> math.ceil(2.343 ** 2 * 3 * 4 / (6 * 1.047 ** 2))
    11
    >>> nemenyi_datasets(3, 1.0)
    11
    """
    k = check_count(k, "k", minimum=2)
    d = check_real(rank_difference, "rank_difference", low=0.0, high=float(k - 1), low_open=True,
                   note="average ranks of k algorithms differ by at most k - 1")
    q = critical_difference(k, 2, alpha=alpha, test=test).q_alpha
    n = max(2, math.ceil(q * q * k * (k + 1) / (6.0 * d * d) - 1e-9))
    # guard the rounding against the function the notebooks use
    while critical_difference(k, n, alpha=alpha, test=test).cd > d:
        n += 1
    while n > 2 and critical_difference(k, n - 1, alpha=alpha, test=test).cd <= d:
        n -= 1
    return n


def plot_nemenyi_datasets(k: int, rank_difference: float, *, alpha: float = 0.05, n_max: int | None = None,
                          ax=None):
    """The critical difference against the number of data sets, with the gap to separate.

    Parameters
    ----------
    k : int >= 2
        Number of classifiers.
    rank_difference : float > 0
        The gap in mean rank to separate (marked as a horizontal line).
    alpha : float in (0, 1), default 0.05
        The level of the Nemenyi test.
    n_max : int >= 3, optional
        The largest number of data sets drawn; None draws up to twice the number
        :func:`nemenyi_datasets` finds (at least 10).
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    n_star = nemenyi_datasets(k, rank_difference, alpha=alpha)
    n_max = max(2 * n_star, 10) if n_max is None else check_count(n_max, "n_max", minimum=3)
    ns = np.arange(2, n_max + 1)
    cds = [critical_difference(k, int(v), alpha=alpha).cd for v in ns]
    ax = get_axes(ax, figsize=(6.4, 3.6))
    ax.plot(ns, cds, color="C4", label=f"Nemenyi CD, k = {k}")
    ax.axhline(rank_difference, color="grey", ls=":", lw=0.8)
    ax.axvline(n_star, color="C4", ls=":", lw=0.8)
    ax.annotate(f"N = {n_star}", (n_star, rank_difference), xytext=(4, 6), textcoords="offset points", fontsize=8)
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("critical difference of average ranks")
    ax.legend(fontsize=8)
    return ax


def _nemenyi_spacing(k: int, rank_difference: float) -> float:
    """Spacing ``s`` of ``k`` evenly spaced means (sd-1 normal noise) whose extremes differ by
    ``rank_difference`` in expected rank: ``E r_first - E r_last = sum_l Phi(mu_l / sqrt 2)
    - sum_l Phi((mu_l - mu_last) / sqrt 2)`` over the other algorithms, solved for ``s``."""
    from scipy.optimize import brentq

    unit = np.arange(k) / (k - 1)

    def gap(s: float) -> float:
        mu = unit * s
        return float(stats.norm.cdf(mu[1:] / math.sqrt(2.0)).sum()
                     - stats.norm.cdf((mu[:-1] - mu[-1]) / math.sqrt(2.0)).sum()) - rank_difference

    hi = 1.0
    while gap(hi) < 0:
        hi *= 2.0
    return brentq(gap, 0.0, hi, xtol=1e-12)


@renamed_keywords(n_sim="n_resamples")
def nemenyi_power_curve(k: int, rank_difference: float, n_max: int, *, alpha: float = 0.05,
                        n_resamples: int = 2000, rng: Any = None) -> pd.DataFrame:
    """Power of the Nemenyi test to separate two algorithms, against the number of data sets.

    :func:`nemenyi_datasets` gives the ``N`` at which an *observed* gap of average ranks
    equal to ``rank_difference`` would just be significant; the observed gap scatters
    around its expectation, so at that ``N`` the test finds a true gap of that size only
    about half the time where the observed gap scatters evenly around it; near the largest
    gap, ``k - 1``, it scatters lopsidedly (it cannot overshoot by much) and the power at
    the floor is well above one half. This function simulates the power. The model: on each data set
    the ``k`` algorithms score ``mu_j + e_j`` with independent standard normal ``e_j``,
    the ``mu_j`` evenly spaced with the spacing chosen so that the expected average ranks
    of the best and the worst algorithm differ by exactly ``rank_difference`` (computed
    exactly: ``E r_j = 1 + sum_l Phi((mu_l - mu_j)/sqrt 2)``). Each simulated study
    draws ``n_max`` data sets; the study of its first ``N`` data sets rejects when the
    two extremes' average ranks differ by at least ``CD(k, N)``
    (:func:`evallib.critical_difference`). The studies for different ``N`` are nested
    (the same draws, more of them), so the curve is smooth but its points are correlated.

    Beside the simulation, a normal approximation: the observed gap ``D`` is the mean of
    ``N`` independent per-data-set rank differences, ``D ~ N(rank_difference, sigma^2 / N)``
    with ``sigma^2`` their variance (estimated from every simulated data set), so
    ``power ~ Phi((rank_difference - CD) sqrt(N) / sigma) + Phi((-rank_difference - CD) sqrt(N) / sigma)``.

    Parameters
    ----------
    k : int
        Number of algorithms, ``>= 2``.
    rank_difference : float
        Expected difference of the two algorithms' average ranks, in ``(0, k - 1)``.
    n_max : int
        Largest number of data sets, ``>= 2``; every ``N`` from 2 to ``n_max`` is reported.
    alpha : float
        Family-wise level of the Nemenyi test, in (0, 1).
    n_resamples : int
        Simulated studies, ``>= 10`` (Monte Carlo SE at most ``0.5 / sqrt(n_resamples)``).
    rng : None, int, SeedSequence or Generator

    Returns
    -------
    pandas.DataFrame
        ``n_datasets``, ``cd`` (the critical difference), ``power`` (simulated), ``mcse``
        (its Monte Carlo standard error ``sqrt(power (1 - power) / n_resamples)``) and
        ``normal`` (the approximation). ``attrs["spacing"]`` holds the spacing of the
        means and ``attrs["sigma"]`` the per-data-set SD of the rank difference.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    *JMLR* 7, 1-30 (section 3.2.2). Morris, T. P., White, I. R. & Crowther, M. J. (2019).
    Using simulation studies to evaluate statistical methods. *Statistics in Medicine* 38,
    2074-2102 (Monte Carlo SE).

    Examples
    --------
    At the floor of :func:`nemenyi_datasets` the power is near one half:

    >>> n0 = nemenyi_datasets(5, 1.0)
    >>> table = nemenyi_power_curve(5, 1.0, n0, n_resamples=2000, rng=0).set_index("n_datasets")
    >>> 0.4 < float(table.loc[n0, "power"]) < 0.6
    True
    """
    k = check_count(k, "k", minimum=2)
    d = check_real(rank_difference, "rank_difference", low=0.0, high=float(k - 1), low_open=True,
                   high_open=True, note="the expected average ranks of k algorithms differ by less than k - 1")
    n_max = check_count(n_max, "n_max", minimum=2)
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=10)
    gen = check_rng(rng)
    spacing = _nemenyi_spacing(k, d)
    mu = np.arange(k) / (k - 1) * spacing
    ns = np.arange(2, n_max + 1)
    cds = np.array([critical_difference(k, int(v), alpha=alpha).cd for v in ns])
    hits = np.zeros(ns.size)
    total, total_sq, count = 0.0, 0.0, 0
    step = max(1, 4_000_000 // (n_max * k))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        scores = mu + gen.standard_normal((size, n_max, k))
        # rank 1 = best: one plus the number of algorithms that score higher
        rank_first = 1 + (scores > scores[..., :1]).sum(axis=-1)
        rank_last = 1 + (scores > scores[..., -1:]).sum(axis=-1)
        diff = (rank_first - rank_last).astype(float)          # expected value: +rank_difference
        total += diff.sum()
        total_sq += (diff * diff).sum()
        count += diff.size
        mean_gap = np.cumsum(diff, axis=1)[:, ns - 1] / ns
        hits += (np.abs(mean_gap) >= cds - 1e-12).sum(axis=0)
    power = hits / n_resamples
    mean = total / count
    sigma = math.sqrt(max(total_sq / count - mean * mean, 0.0))
    root = np.sqrt(ns) / sigma if sigma > 0 else np.full(ns.size, np.inf)
    normal = stats.norm.cdf((d - cds) * root) + stats.norm.cdf((-d - cds) * root)
    table = pd.DataFrame({"n_datasets": ns, "cd": cds, "power": power,
                          "mcse": np.sqrt(power * (1.0 - power) / n_resamples), "normal": normal})
    table.attrs.update(spacing=float(spacing), sigma=sigma, k=k, rank_difference=d, alpha=alpha, n_resamples=n_resamples)
    return table


def nemenyi_power_datasets(table: pd.DataFrame, *, power: float = 0.8, column: str = "power") -> int | None:
    """The smallest number of data sets at which ``table``'s power reaches ``power`` and stays there.

    ``table`` is :func:`nemenyi_power_curve`'s output; ``column`` is ``"power"`` (the
    simulation) or ``"normal"`` (the approximation).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`nemenyi_power_curve`'s output (columns ``n_datasets`` and ``column``).
    power : float in (0, 1), default 0.8
        The target power.
    column : {"power", "normal"}, default "power"
        The simulated power or its normal approximation.

    Returns
    -------
    int or None
        The number of data sets, or None when the power stays below the target up to
        the table's largest ``N`` (simulate further).
    """
    target = _check_power(power)
    if column not in ("power", "normal"):
        raise ValueError(f"column must be 'power' or 'normal', got {column!r}")
    missing = {"n_datasets", column} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be nemenyi_power_curve's output; missing {sorted(missing)}")
    below = np.flatnonzero(table[column].to_numpy() < target)
    ns = table["n_datasets"].to_numpy()
    if below.size == 0:
        return int(ns[0])
    if below[-1] == ns.size - 1:
        return None
    return int(ns[below[-1] + 1])


def plot_nemenyi_power(table: pd.DataFrame, *, power: float | None = 0.8, ax=None):
    """Simulated power of the Nemenyi test against the number of data sets (``nemenyi_power_curve``).

    The simulation with a band of ± 2 Monte Carlo SE, the normal approximation dashed,
    the target power and the critical-difference floor of :func:`nemenyi_datasets`
    (where the power is often about one half; the curve says how far from it) marked.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`nemenyi_power_curve`'s output.
    power : float in (0, 1), optional, default 0.8
        The target power to mark; None marks none.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    missing = {"n_datasets", "power", "mcse", "normal"} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be nemenyi_power_curve's output; missing {sorted(missing)}")
    ax = get_axes(ax, figsize=(6.4, 3.6))
    n, p, se = table["n_datasets"], table["power"], table["mcse"]
    ax.fill_between(n, p - 2 * se, p + 2 * se, color="C4", alpha=0.25, linewidth=0)
    ax.plot(n, p, color="C4", lw=1.2, label="simulated (band: ±2 MC SE)")
    ax.plot(n, table["normal"], color="k", lw=1, ls="--", label="normal approximation")
    attrs = table.attrs
    if {"k", "rank_difference", "alpha"} <= set(attrs):
        floor = nemenyi_datasets(attrs["k"], attrs["rank_difference"], alpha=attrs["alpha"])
        ax.axvline(floor, color="grey", ls=":", lw=0.8)
        ax.annotate(f"CD floor N = {floor}", (floor, 0.03), xytext=(3, 0), textcoords="offset points",
                    fontsize=8)
        ax.set_title(f"Nemenyi test, k = {attrs['k']}, expected rank gap {attrs['rank_difference']:g}, "
                     f"alpha = {attrs['alpha']:g}", fontsize=10)
    if power is not None:
        target = _check_power(power)
        ax.axhline(target, color="grey", ls=":", lw=0.8)
        reach = nemenyi_power_datasets(table, power=target)
        if reach is not None:
            ax.axvline(reach, color="C4", ls=":", lw=0.8)
            ax.annotate(f"{100 * target:g}% power: N = {reach}", (reach, target), xytext=(4, -12),
                        textcoords="offset points", fontsize=8)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("power")
    ax.legend(fontsize=8, loc="lower right")
    return ax
