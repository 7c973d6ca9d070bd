"""How often the item-mean intervals keep their promise: coverage by simulation, and its figure.

:func:`item_interval_coverage` simulates benchmarks of 0/1 items (or real-valued item
scores, the means of several 0/1 samples) in clusters with a given intra-cluster
correlation, computes every interval of :func:`evallib.items.item_mean` on each
simulated benchmark at once (vectorised over the simulations, so one call with 1,000
simulations of 200 items takes a few milliseconds and can sit behind a slider), and
reports the share of intervals that contain the true mean, with its Monte Carlo
standard error. :func:`plot_item_interval_coverage` draws the table.

References
----------
R. M. Bell and D. F. McCaffrey (2002), Survey Methodology 28(2), 169-181.
E. L. Korn and B. I. Graubard (1998), Survey Methodology 24(2), 193-201.
S. Bowyer, L. Aitchison and D. R. Ivanova (2025), Position: Don't use the CLT in LLM evals
with fewer than a few hundred datapoints, ICML 2025, arXiv:2503.01747.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_keywords
from .._plotting import get_axes
from .._results import table_metadata
from .._validate import check_alpha, check_choices, check_cluster_size, check_count, check_real, check_rng
from .._inference import wilson_effective, wilson_interval
from .._cr2 import bm_df as _bm_df

__all__ = ["ITEM_COVERAGE_METHODS", "item_interval_coverage", "plot_item_interval_coverage"]

#: Intervals :func:`item_interval_coverage` can simulate (those of ``item_mean`` but the
#: wild bootstrap, which would nest a bootstrap inside every simulated benchmark).
ITEM_COVERAGE_METHODS = ("naive", "t", "cr1_normal", "cr1", "cr2", "wilson")
_NAMES = {
    "naive": "naive (independent, normal)",
    "t": "t (independent, N-1 df)",
    "cr1_normal": "CR1, normal",
    "cr1": "CR1, t(G-1)",
    "cr2": "CR2 + Bell–McCaffrey",
    "wilson": "Wilson, effective n",
}
_CHUNK = 2_000_000  # simulated item scores held in memory at once


def _simulate_scores(rng, n_sim, sizes, icc, mean, samples):
    """Item scores, shape (n_sim, n_items): Binomial(samples, p_g)/samples with p_g ~ Beta (or p_g = mean)."""
    G = sizes.size
    if icc > 0:
        phi = (1.0 - icc) / icc
        p = rng.beta(mean * phi, (1.0 - mean) * phi, size=(n_sim, G))
    else:
        p = np.full((n_sim, G), mean)
    p_items = np.repeat(p, sizes, axis=1)
    return rng.binomial(samples, p_items) / samples


def _bounds(Y, sizes, samples, methods, alpha):
    """Each method's interval for each row of ``Y`` (a benchmark), as item_mean computes it: {method: (low, high)}."""
    N = Y.shape[1]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    m = Y.mean(axis=1)
    e = Y - m[:, None]
    S = np.add.reduceat(e, starts, axis=1)
    r = (N - sizes) / N
    return _bounds_from_sums(m, np.einsum("ij,ij->i", e, e), np.einsum("ij,ij->i", S, S), (S * S / r).sum(axis=1),
                             sizes, samples, methods, alpha)


def _bounds_from_sums(m, sse, ss1, ss2, sizes, samples, methods, alpha):
    """The intervals from the mean ``m``, the residual sum of squares ``sse`` and the cluster sums
    ``ss1 = sum S_g^2`` and ``ss2 = sum S_g^2 / (1 - n_g/N)`` of each benchmark (vectorised)."""
    N, G = int(sizes.sum()), sizes.size
    z = float(stats.norm.isf(alpha / 2))
    bm = _bm_df(sizes)
    se_items = np.sqrt(sse / (N - 1) / N)
    out = {}
    for method in methods:
        if method == "wilson":
            if G == N and samples == 1:  # one 0/1 score per item, no clusters: Wilson's interval itself
                low, high = wilson_interval(m, float(N), z)
            else:
                low, high, _ = wilson_effective(m, ss2 / (N * N), bm, N * samples, alpha, n_items=N)
        else:
            se, q = {
                "naive": (se_items, z),
                "t": (se_items, stats.t.isf(alpha / 2, N - 1)),
                "cr1_normal": (np.sqrt(G / (G - 1) * ss1) / N, z),
                "cr1": (np.sqrt(G / (G - 1) * ss1) / N, stats.t.isf(alpha / 2, G - 1)),
                "cr2": (np.sqrt(ss2) / N, stats.t.isf(alpha / 2, bm)),
            }[method]
            low, high = np.clip(m - q * se, 0.0, 1.0), np.clip(m + q * se, 0.0, 1.0)
        out[method] = (low, high)
    return out


def _exact_table(n, mean, methods, alpha):
    """Exact coverage and expected width for ``n`` independent 0/1 items: sum over k ~ Binomial(n, mean).

    With one 0/1 score per item and one item per cluster every statistic depends on the
    number correct ``k`` only: ``m = k/n``, ``sum e_i^2 = k (n - k)/n``, and the cluster sums
    are the residuals themselves (``ss2 = ss1 n/(n - 1)``).
    """
    k = np.arange(n + 1, dtype=float)
    pmf = stats.binom.pmf(k, n, mean)
    m = k / n
    sse = k * (n - k) / n
    sizes = np.ones(n, dtype=np.int64)
    bounds = _bounds_from_sums(m, sse, sse, sse * n / (n - 1), sizes, 1, methods, alpha)
    cov = [float(pmf @ ((low <= mean) & (mean <= high))) for low, high in bounds.values()]
    width = [float(pmf @ (high - low)) for low, high in bounds.values()]
    return cov, width


@renamed_keywords(n_sim="n_resamples")
def item_interval_coverage(
    *,
    n_items: int,
    cluster_size: Any = 1,
    icc: float = 0.0,
    mean: float = 0.5,
    samples: int = 1,
    methods: Sequence[str] = ("naive", "cr1_normal", "cr2", "wilson"),
    n_resamples: int = 2000,
    alpha: float = 0.05,
    rng: Any = None,
    exact: bool | None = None,
) -> pd.DataFrame:
    """Coverage of the item-mean intervals by simulation (or exact enumeration), with its Monte Carlo SE.

    The simulated benchmark has ``n_items`` items in clusters of ``cluster_size`` (the
    last cluster takes the remainder; or give the sizes as a sequence). Cluster ``g`` has
    a true success probability ``p_g ~ Beta(mean phi, (1 - mean) phi)`` with
    ``phi = (1 - icc)/icc`` (``p_g = mean`` when ``icc = 0``): the beta-binomial model, in
    which two 0/1 scores from the same cluster have correlation ``icc`` and every score
    has mean ``mean``. Each item is answered ``samples`` times, each answer
    Bernoulli(``p_g``), and scored by the mean of its answers (0/1 scores with
    ``samples = 1``, real scores in [0, 1] otherwise). With ``cluster_size = 1`` the
    "cluster" is the item, and ``icc`` is the correlation of two answers to one item.
    The true mean is ``mean``.

    Each method's interval is computed exactly as :func:`evallib.items.item_mean`
    computes it (with ``clusters`` the simulated cluster labels), for all simulations at
    once:

    ``"naive"``: items taken as independent, normal; ``"t"``: the same with ``N - 1`` df;
    ``"cr1_normal"``: CR1 with a normal reference (statsmodels' default);
    ``"cr1"``: CR1 with t on ``G - 1`` df; ``"cr2"``: CR2 with the Bell–McCaffrey df;
    ``"wilson"``: Wilson's interval (with the Korn–Graubard effective sample size when
    there are clusters or several samples).

    Where the design allows -- one item per cluster and one answer per item, so the
    number correct is Binomial(``n_items``, ``mean``) whatever ``icc`` -- the coverage is
    computed exactly by summing over the ``n_items + 1`` outcomes (Brown, Cai & DasGupta
    2001, eq. 1), with ``mc_se = 0``; ``exact=False`` simulates anyway.

    Parameters
    ----------
    n_items : int
        Items per simulated benchmark, >= 2.
    cluster_size : int or sequence of int
        Items per cluster (>= 1); at least two clusters are needed.
    icc : float
        Intra-cluster correlation of the 0/1 answers, in [0, 1).
    mean : float
        True mean score, in (0, 1).
    samples : int
        Answers per item, >= 1.
    methods : sequence of str
        From :data:`ITEM_COVERAGE_METHODS`.
    n_resamples : int
        Simulated benchmarks, >= 1.
    alpha : float
        In (0, 1); the intervals promise coverage ``1 - alpha``.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
    exact : bool or None
        ``None`` (default): enumerate exactly where the design allows, else simulate;
        ``False``: always simulate; ``True``: enumerate, and refuse a design that does
        not allow it.

    Returns
    -------
    pandas.DataFrame
        One row per method: ``method``, ``coverage`` (share of intervals containing
        ``mean``, or its exact probability), ``mc_se`` (``sqrt(c (1 - c) / n_resamples)``; 0 when
        exact), ``mean_width`` (average or expected width). ``attrs`` hold the settings,
        ``exact``, ``n_clusters`` and the Bell–McCaffrey ``df``.

    References
    ----------
    .. [1] Bell, R. M. & McCaffrey, D. F. (2002). *Survey Methodology* 28(2), 169-181.
    .. [2] Korn, E. L. & Graubard, B. I. (1998). *Survey Methodology* 24(2), 193-201.
    .. [3] Bowyer, S., Aitchison, L. & Ivanova, D. R. (2025). arXiv:2503.01747.
    .. [4] Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a binomial
       proportion. *Statistical Science* 16(2), 101-133.

    Examples
    --------
    200 items in 8 clusters of 25 with an intra-cluster correlation of 0.1: the naive
    interval misses far more often than 5%.

    >>> from evallib.items import item_interval_coverage
    >>> tab = item_interval_coverage(n_items=200, cluster_size=25, icc=0.1, n_resamples=1000, rng=0)
    >>> bool(tab.set_index("method").loc["naive", "coverage"] < 0.7)
    True
    """
    n_items = check_count(n_items, "n_items", minimum=2)
    sizes = check_cluster_size(n_items, cluster_size)
    icc = check_real(icc, "icc", low=0.0, high=1.0, high_open=True)
    mean = check_real(mean, "mean", low=0.0, high=1.0, low_open=True, high_open=True)
    samples = check_count(samples, "samples", minimum=1)
    methods = check_choices(methods, "methods", ITEM_COVERAGE_METHODS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    rng = check_rng(rng)
    enumerable = sizes.size == n_items and samples == 1
    if exact is None:
        exact = enumerable
    elif not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be True, False or None, got {exact!r}")
    elif exact and not enumerable:
        raise ValueError("exact=True needs one item per cluster and one answer per item (cluster_size=1, "
                         "samples=1); other designs are simulated")
    attrs = dict(n_items=n_items, cluster_size=cluster_size, icc=icc, mean=mean, samples=samples, n_resamples=n_resamples,
                 alpha=alpha, exact=bool(exact), n_clusters=int(sizes.size), df=_bm_df(sizes))
    if exact:
        cov, width = _exact_table(n_items, mean, methods, alpha)
        table = pd.DataFrame({"method": list(methods), "coverage": cov, "mc_se": 0.0, "mean_width": width})
        table.attrs.update(attrs)
        return table
    hits = {m: 0 for m in methods}
    widths = {m: 0.0 for m in methods}
    step = max(1, _CHUNK // n_items)
    for start in range(0, n_resamples, step):
        Y = _simulate_scores(rng, min(step, n_resamples - start), sizes, icc, mean, samples)
        for m, (low, high) in _bounds(Y, sizes, samples, methods, alpha).items():
            hits[m] += int(np.count_nonzero((low <= mean) & (mean <= high)))
            widths[m] += float(np.sum(high - low))
    cov = np.array([hits[m] / n_resamples for m in methods])
    table = pd.DataFrame({"method": list(methods), "coverage": cov, "mc_se": np.sqrt(cov * (1 - cov) / n_resamples),
                          "mean_width": [widths[m] / n_resamples for m in methods]})
    table.attrs.update(attrs)
    return table


def plot_item_interval_coverage(table: pd.DataFrame, ax=None, *, title: str | None = None):
    """Bars of coverage per method with +-2 Monte Carlo standard errors, and the promised level.

    A bar whose coverage plus two Monte Carlo standard errors falls short of ``1 - alpha``
    is drawn red; each bar is labelled with the method's mean width, above its whisker. The
    dashed line of the promised level is labelled outside the axes, at its right end, so
    that no label covers a bar.

    Parameters
    ----------
    table : pandas.DataFrame
        A result of :func:`item_interval_coverage`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.
    title : str, optional
        By default the simulated design (items, clusters, ICC, mean, samples).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from evallib.items import item_interval_coverage, plot_item_interval_coverage
    >>> tab = item_interval_coverage(n_items=100, cluster_size=10, icc=0.05, n_resamples=200, rng=1)
    >>> ax = plot_item_interval_coverage(tab)
    >>> len(ax.patches) == len(tab)
    True
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame from item_interval_coverage(), got {type(table).__name__}")
    missing = {"method", "coverage", "mc_se", "mean_width"} - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with item_interval_coverage()")
    alpha, exact = table_metadata(table, "alpha", "exact", made_by="item_interval_coverage")
    ax = get_axes(ax, figsize=(7, 3.6))
    x = np.arange(len(table))
    cov = table["coverage"].to_numpy()
    low_ok = cov + 2 * table["mc_se"].to_numpy() >= 1 - alpha
    colors = ["C0" if ok else "C3" for ok in low_ok]
    ax.bar(x, cov, color=colors, width=0.6)
    whisker = 2 * table["mc_se"].to_numpy()
    ax.errorbar(x, cov, yerr=whisker, fmt="none", ecolor="k", capsize=4, linewidth=1)
    ax.axhline(1 - alpha, color="k", linestyle="--", linewidth=1)
    ax.annotate(f"promised\n{100 * (1 - alpha):g}%", xy=(1, 1 - alpha), xycoords=("axes fraction", "data"),
                xytext=(4, 0), textcoords="offset points", ha="left", va="center", fontsize="small")
    for xi, c, w, e in zip(x, cov, table["mean_width"], whisker):
        ax.text(xi, min(c + e, 1.0) + 0.004, f"width {w:.3f}", ha="center", va="bottom", fontsize="small")
    ax.set_xticks(x)
    ax.set_xticklabels([_NAMES.get(m, str(m)) for m in table["method"]], rotation=15, fontsize="small")
    ax.set_ylim(max(0.0, min(float(cov.min()) - 0.05, 1 - 4 * alpha)), 1.04)
    ax.set_ylabel("coverage (exact)" if exact else "coverage (±2 MC SE)")
    a = table.attrs
    if title is None and "n_items" in a:
        how = "exact" if a.get("exact") else f"{a['n_resamples']:,} simulations"
        # two lines: on one, the title is wider than the figure and tight_layout clips it
        title = (f"{a['n_items']} items in {a['n_clusters']} clusters, ICC {a['icc']:g}, mean {a['mean']:.3g},\n"
                 f"{a['samples']} sample{'s' if a['samples'] > 1 else ''} per item ({how})")
    if title:
        ax.set_title(title, fontsize="medium")
    return ax
