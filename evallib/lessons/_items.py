"""Two models on the same items, in clusters, answered K times: how often the paired intervals keep their promise.

:func:`evallib.items.item_interval_coverage` measures the intervals of one model's
mean score. A comparison of two models adds the correlation between them: both answer
the same items, and the items that are hard for one are often hard for the other. This
module simulates such comparisons -- items in clusters, each answered ``samples`` times
by each model, with a correlation between the models -- and measures the coverage of
the intervals of the paired difference that :func:`evallib.items.paired_item_difference`
computes, beside the unpaired interval that ignores the pairing. Notebook 08's explorer
draws it (:func:`plot_paired_item_coverage`); the simulation is vectorised over the
simulated benchmarks, so a slider move stays well under 0.1 s at a few hundred
simulations.

The model (a probit, or threshold, model of 0/1 answers). Item ``i`` of cluster ``g``
has a latent difficulty for each model,

``eta_m(i) = spread * (sqrt(icc) * c_m(g) + sqrt(1 - icc) * e_m(i))``,  ``m`` in {A, B},

with ``c_m(g)`` and ``e_m(i)`` standard normal, independent across clusters and items,
and ``corr(c_A(g), c_B(g)) = corr(e_A(i), e_B(i)) = correlation``. Model ``m`` answers the
item correctly with probability ``p_m(i) = Phi(alpha_m + eta_m(i))``, each of its
``samples`` answers independently given the item, and the item's score is the share of
correct answers. ``alpha_m = Phi^-1(mean_m) sqrt(1 + spread^2)`` makes the mean score
exactly ``mean_m`` (``E Phi(a + s Z) = Phi(a / sqrt(1 + s^2))``), so the true difference
is ``mean_a - mean_b``. Three knobs therefore shape the error bar: ``correlation``
(the two models find the same items hard: pairing removes that shared part),
``icc`` (the share of the difficulty's variance common to the items of one cluster:
clustering inflates the variance by a design effect) and ``samples`` (more answers per
item average away the answers' own noise, which does not cluster).

References
----------
E. Miller (2024), Adding error bars to evals: a statistical approach to language model
evaluations, arXiv:2411.00640 (paired differences, clustered standard errors, resampling).
R. M. Bell and D. F. McCaffrey (2002), Survey Methodology 28(2), 169-181 (CR2).
L. Kish (1965), Survey Sampling, Wiley (the design effect).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._compat import renamed_keywords
from .._plotting import get_axes
from .._validate import check_alpha, check_choices, check_cluster_size, check_count, check_real, check_rng
from ..items import bell_mccaffrey_df

__all__ = ["PAIRED_COVERAGE_METHODS", "COVERAGE_VERDICTS", "COVERAGE_VERDICT_TITLE", "simulate_paired_items", "paired_item_coverage",
           "plot_paired_item_coverage", "describe_paired_item_coverage", "coverage_verdicts",
           "mark_coverage_verdicts", "describe_coverage_reading", "describe_mc_share", "EXACT_BELOW", "describe_pooled_coverage", "bar_flag_probability", "describe_gap_split",
           "describe_clustering_screen"]

#: Intervals of the paired difference :func:`paired_item_coverage` can measure: the unpaired
#: interval (pairing and clusters ignored) and those of
#: :func:`evallib.items.paired_item_difference` but the wild bootstrap and McNemar.
PAIRED_COVERAGE_METHODS = ("unpaired", "naive", "t", "cr1_normal", "cr1", "cr2")
_NAMES = {   # one line each: a tick label of two lines costs a slider's redraw time
    "unpaired": "unpaired",
    "naive": "paired, clusters ignored",
    "t": "paired, t, clusters ignored",
    "cr1_normal": "paired, CR1, normal",
    "cr1": "paired, CR1, t(G-1)",
    "cr2": "paired, CR2 + Bell–McCaffrey",
}
#: What a measured coverage says about an interval's promise ``1 - alpha``, read against the
#: Monte Carlo error of the measurement: the colour of its bar and the legend's words. A bar is
#: "short" or "above" only when its whole ±2 MC SE interval lies below or above the promise;
#: a coverage within that noise of the promise is not told apart from it.
COVERAGE_VERDICTS = {
    "short": ("C3", "lies below the promise"),
    "within": ("0.65", "is consistent with the promise"),
    "above": ("C0", "lies above the promise"),
}
#: The title of the colours' legend: the verdicts above complete it.
COVERAGE_VERDICT_TITLE = "bar colour: its ±2 MC SE interval"
_CHUNK = 1_000_000  # simulated item scores per model held in memory at once


# ------------------------------------------------------------------ settings
def _settings(n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread):
    n_items = check_count(n_items, "n_items", minimum=2)
    sizes = check_cluster_size(n_items, cluster_size)
    icc = check_real(icc, "icc", low=0.0, high=1.0, high_open=True,
                     note="share of the item difficulty's variance common to a cluster")
    samples = check_count(samples, "samples", minimum=1)
    correlation = check_real(correlation, "correlation", low=-1.0, high=1.0,
                             note="of the two models' latent item difficulties")
    mean_a = check_real(mean_a, "mean_a", low=0.0, high=1.0, low_open=True, high_open=True)
    mean_b = check_real(mean_b, "mean_b", low=0.0, high=1.0, low_open=True, high_open=True)
    spread = check_real(spread, "spread", low=0.0, note="SD of the latent item difficulty, probit scale")
    return n_items, sizes, icc, samples, correlation, mean_a, mean_b, spread


def _simulate(rng, n_sim, sizes, icc, samples, correlation, mean_a, mean_b, spread):
    """Item scores of A and B, each of shape (n_sim, n_items): shares of ``samples`` correct answers.

    The random numbers are drawn in a fixed order -- cluster effects, item effects, then
    one answer at a time -- so that with the same ``rng`` a larger ``samples`` keeps the
    answers of a smaller one (common random numbers for a slider).
    """
    G, N = sizes.size, int(sizes.sum())
    other = math.sqrt(max(0.0, 1.0 - correlation * correlation))
    c = rng.standard_normal((2, n_sim, G))
    e = rng.standard_normal((2, n_sim, N))
    scale = math.sqrt(1.0 + spread * spread)
    latent = np.empty((2, n_sim, N))
    for m, mean in enumerate((mean_a, mean_b)):
        if m == 0:
            cm, em = c[0], e[0]
        else:
            cm, em = correlation * c[0] + other * c[1], correlation * e[0] + other * e[1]
        latent[m] = (float(stats.norm.ppf(mean)) * scale
                     + spread * (math.sqrt(icc) * np.repeat(cm, sizes, axis=1) + math.sqrt(1.0 - icc) * em))
    # single-precision uniforms against single-precision probabilities, counted in small integers: half the
    # time of double precision, and a probability rounded by at most 6e-8 does not show in a coverage
    p = special.ndtr(latent).astype(np.float32)
    counts = np.zeros((2, n_sim, N), dtype=np.int16 if samples < 2**15 else np.int64)
    u = np.empty((2, n_sim, N), dtype=np.float32)
    for _ in range(samples):
        rng.random(out=u, dtype=np.float32)
        counts += u < p
    correct = counts / samples
    return correct[0], correct[1]


def _chunks(rng, n_sim, sizes, *design):
    """:func:`_simulate` in chunks of at most ``_CHUNK`` item scores per model, in order."""
    step = max(1, _CHUNK // int(sizes.sum()))
    for start in range(0, n_sim, step):
        yield _simulate(rng, min(step, n_sim - start), sizes, *design)


@renamed_keywords(n_sim="n_resamples")
def simulate_paired_items(
    *,
    n_items: int,
    cluster_size: Any = 1,
    icc: float = 0.0,
    samples: int = 1,
    correlation: float = 0.5,
    mean_a: float = 0.7,
    mean_b: float = 0.7,
    spread: float = 1.0,
    n_resamples: int = 1,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Simulated benchmarks of two models on the same clustered items (the model of the module docstring).

    Parameters
    ----------
    n_items : int
        Items per benchmark, >= 2.
    cluster_size : int or sequence of int
        Items per cluster (the last cluster takes the remainder), or the cluster sizes;
        at least two clusters.
    icc : float
        In [0, 1): share of the latent item difficulty's variance common to the items of
        one cluster (0: independent items).
    samples : int
        Answers per item and model, >= 1 (``K``).
    correlation : float
        In [-1, 1]: correlation of the two models' latent difficulties, for the item
        part and the cluster part alike.
    mean_a, mean_b : float
        In (0, 1): the models' true mean scores.
    spread : float
        >= 0: SD of the latent difficulty on the probit scale (0: every item is answered
        correctly with probability ``mean_m``; large: each item is almost always right
        or almost always wrong).
    n_resamples : int
        Benchmarks, >= 1.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator

    Returns
    -------
    a, b : numpy.ndarray, shape (n_resamples, n_items)
        Item scores of the two models (shares of ``samples`` 0/1 answers); the same
        benchmarks as :func:`paired_item_coverage` simulates with the same ``rng``.
    clusters : numpy.ndarray, shape (n_items,)
        The cluster of each item, ``0 .. G - 1``.

    Examples
    --------
    >>> from evallib.lessons import simulate_paired_items
    >>> a, b, clusters = simulate_paired_items(n_items=12, cluster_size=4, samples=2, n_resamples=3, rng=0)
    >>> a.shape, clusters.tolist()
    ((3, 12), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    >>> set(a.ravel().tolist()) <= {0.0, 0.5, 1.0}
    True
    """
    n_items, sizes, icc, samples, correlation, mean_a, mean_b, spread = _settings(
        n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    parts = list(_chunks(check_rng(rng), n_resamples, sizes, icc, samples, correlation, mean_a, mean_b, spread))
    a = np.concatenate([part[0] for part in parts])
    b = np.concatenate([part[1] for part in parts])
    return a, b, np.repeat(np.arange(sizes.size), sizes)


# ------------------------------------------------------------------ intervals
def _paired_intervals(a, b, sizes, methods, alpha):
    """Each method's interval for ``mean(a) - mean(b)``, row by row: {method: (low, high, se)}.

    As :func:`evallib.items.paired_item_difference` computes them for one benchmark
    (clusters: ``sizes``, contiguous), vectorised over the rows; ``"unpaired"`` is
    ``estimate -/+ z sqrt(s_a^2/N + s_b^2/N)``, its ``unpaired_se``.
    """
    N, G = a.shape[1], sizes.size
    z = float(stats.norm.isf(alpha / 2))
    d = a - b
    est = d.mean(axis=1)
    e = d - est[:, None]
    se_items = np.sqrt(np.einsum("ij,ij->i", e, e) / (N - 1) / N)
    out = {}
    for method in methods:
        if method == "unpaired":
            se = np.sqrt((a.var(axis=1, ddof=1) + b.var(axis=1, ddof=1)) / N)
            q = z
        elif method in ("naive", "t"):
            se, q = se_items, (z if method == "naive" else float(stats.t.isf(alpha / 2, N - 1)))
        else:
            S = np.add.reduceat(e, np.concatenate([[0], np.cumsum(sizes)[:-1]]), axis=1)
            if method == "cr2":
                se = np.sqrt((S * S / ((N - sizes) / N)).sum(axis=1)) / N
                q = float(stats.t.isf(alpha / 2, bell_mccaffrey_df(sizes)))
            else:
                se = np.sqrt(G / (G - 1) * np.einsum("ij,ij->i", S, S)) / N
                q = z if method == "cr1_normal" else float(stats.t.isf(alpha / 2, G - 1))
        out[method] = (np.clip(est - q * se, -1.0, 1.0), np.clip(est + q * se, -1.0, 1.0), se)
    return est, out


@renamed_keywords(n_sim="n_resamples")
def paired_item_coverage(
    *,
    n_items: int,
    cluster_size: Any = 1,
    icc: float = 0.0,
    samples: int = 1,
    correlation: float = 0.5,
    mean_a: float = 0.7,
    mean_b: float = 0.7,
    spread: float = 1.0,
    methods: Sequence[str] = ("unpaired", "naive", "cr2"),
    n_resamples: int = 2000,
    alpha: float = 0.05,
    rng: Any = None,
) -> pd.DataFrame:
    """Coverage, width and rejection rate of the intervals of a paired difference, by simulation.

    Simulates ``n_resamples`` benchmarks with :func:`simulate_paired_items` and computes on each
    the intervals of ``mean_a - mean_b`` named in ``methods``, exactly as
    :func:`evallib.items.paired_item_difference` computes them with the simulated
    cluster labels (vectorised over the benchmarks):

    ``"unpaired"``: ``estimate -/+ z sqrt(s_a^2/N + s_b^2/N)``, the two models' item
    scores taken as independent samples and the items as independent (the interval one
    builds from two separate error bars by adding their variances; reading the two bars by
    whether they overlap is up to sqrt(2) times stricter still); ``"naive"``: paired, ``-/+ z s_d / sqrt(N)``,
    clusters ignored; ``"t"``: the same with ``N - 1`` df; ``"cr1_normal"``, ``"cr1"``:
    CR1 with a normal or ``t(G - 1)`` reference; ``"cr2"``: CR2 with the Bell–McCaffrey df
    (the default of ``paired_item_difference`` with clusters).

    Parameters
    ----------
    n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread
        The design, as in :func:`simulate_paired_items`.
    methods : sequence of str
        From :data:`PAIRED_COVERAGE_METHODS`.
    n_resamples : int
        Simulated benchmarks, >= 2.
    alpha : float
        In (0, 1); the intervals promise coverage ``1 - alpha``.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator

    Returns
    -------
    pandas.DataFrame
        One row per method: ``method``; ``coverage``, the share of intervals containing
        ``mean_a - mean_b``; ``mc_se``, its Monte Carlo standard error
        ``sqrt(c (1 - c) / n_resamples)``; ``mean_width``; ``mean_se``, the average standard
        error the method reports; ``rejection``, the share of intervals that exclude 0
        (the power of the test when the means differ, its size when they do not).
        ``attrs`` hold the settings and what was measured on the same benchmarks:
        ``n_clusters``, ``df`` (Bell–McCaffrey), ``difference`` (the true one),
        ``sd_estimate`` (the standard deviation of the estimated differences over the
        simulations: the standard error every method tries to estimate),
        ``item_correlation`` (the average over the benchmarks of the correlation of the
        two models' item scores) and ``design_effect`` (``sd_estimate^2`` over the mean
        squared standard error of ``"naive"``, computed whether or not it is in ``methods``).

    Examples
    --------
    Independent items (no clusters), strongly correlated models answering four times per
    item: the unpaired interval is far wider than the paired one.

    >>> from evallib.lessons import paired_item_coverage
    >>> tab = paired_item_coverage(n_items=300, correlation=0.9, spread=2.0, samples=4, n_resamples=300, rng=1)
    >>> w = tab.set_index("method")["mean_width"]
    >>> bool(w["unpaired"] > 1.5 * w["cr2"])
    True
    """
    n_items, sizes, icc, samples, correlation, mean_a, mean_b, spread = _settings(
        n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread)
    methods = check_choices(methods, "methods", PAIRED_COVERAGE_METHODS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=2)
    alpha = check_alpha(alpha)
    rng = check_rng(rng)
    truth = mean_a - mean_b
    hits = dict.fromkeys(methods, 0)
    rejects = dict.fromkeys(methods, 0)
    widths = dict.fromkeys(methods, 0.0)
    ses = dict.fromkeys(methods, 0.0)
    estimates, corr_sum, naive_var = [], 0.0, 0.0
    wanted = methods if "naive" in methods else methods + ("naive",)
    for a, b in _chunks(rng, n_resamples, sizes, icc, samples, correlation, mean_a, mean_b, spread):
        rows = a.shape[0]
        est, bounds = _paired_intervals(a, b, sizes, wanted, alpha)
        estimates.append(est)
        naive_var += float(np.sum(bounds["naive"][2] ** 2))
        ca, cb = a - a.mean(axis=1, keepdims=True), b - b.mean(axis=1, keepdims=True)
        den = np.sqrt(np.einsum("ij,ij->i", ca, ca) * np.einsum("ij,ij->i", cb, cb))
        corr_sum += float(np.sum(np.divide(np.einsum("ij,ij->i", ca, cb), den, out=np.zeros(rows),
                                           where=den > 0)))
        for m in methods:
            low, high, se = bounds[m]
            hits[m] += int(np.count_nonzero((low <= truth) & (truth <= high)))
            rejects[m] += int(np.count_nonzero((low > 0) | (high < 0)))
            widths[m] += float(np.sum(high - low))
            ses[m] += float(np.sum(se))
    cov = np.array([hits[m] / n_resamples for m in methods])
    table = pd.DataFrame({"method": list(methods), "coverage": cov, "mc_se": np.sqrt(cov * (1 - cov) / n_resamples),
                          "mean_width": [widths[m] / n_resamples for m in methods],
                          "mean_se": [ses[m] / n_resamples for m in methods],
                          "rejection": [rejects[m] / n_resamples for m in methods]})
    sd_estimate = float(np.std(np.concatenate(estimates), ddof=1))
    table.attrs.update(n_items=n_items, cluster_size=cluster_size, icc=icc, samples=samples,
                       correlation=correlation, mean_a=mean_a, mean_b=mean_b, spread=spread, n_resamples=n_resamples,
                       alpha=alpha, n_clusters=int(sizes.size), df=bell_mccaffrey_df(sizes), difference=truth,
                       sd_estimate=sd_estimate, item_correlation=corr_sum / n_resamples,
                       design_effect=sd_estimate ** 2 / (naive_var / n_resamples) if naive_var > 0 else math.nan)
    return table


# ------------------------------------------------------------------ figure
@renamed_keywords(n_sim="n_resamples")
def plot_paired_item_coverage(
    *,
    n_items: int,
    cluster_size: Any = 1,
    icc: float = 0.0,
    samples: int = 1,
    correlation: float = 0.5,
    mean_a: float = 0.7,
    mean_b: float = 0.7,
    spread: float = 1.0,
    methods: Sequence[str] = ("unpaired", "naive", "cr2"),
    n_resamples: int = 200,
    alpha: float = 0.05,
    rng: Any = None,
    ax=None,
    reuse: bool = False,
    table: pd.DataFrame | None = None,
    annotate: bool = True,
):
    """Simulate with :func:`paired_item_coverage` and draw each interval's coverage side by side.

    One bar per method: its coverage with +-2 Monte Carlo standard errors, coloured by
    :func:`coverage_verdicts` (red when the whole ±2 MC SE interval lies below ``1 - alpha``,
    blue when it lies above, grey when the promise lies inside it; with ``annotate`` a
    legend says so, without it the caller says it, e.g. with :data:`COVERAGE_VERDICTS`). The
    y axis starts below the lowest whisker, and when it does not start at 0 a break mark on
    it and the y label say where it is cut. Above it (above coverage 1), the interval's
    mean width and how often it excludes 0. The dashed line is the promised ``1 - alpha`` (named in the
    y label when ``annotate``). The title gives the design and, measured on the same simulations, the
    correlation of the two models' item scores, the standard deviation of the estimate
    and the design effect (see :func:`paired_item_coverage`). When the items fill only one
    cluster (``n_items <= cluster_size``), the axes say so instead of raising, so that a slider
    can pass through such settings; more items than one cluster holds make a last, smaller
    cluster of the remainder, as :func:`paired_item_coverage` simulates it.

    Parameters
    ----------
    n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread, methods, n_resamples, alpha
        As in :func:`paired_item_coverage` (``cluster_size`` a whole number here).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Pass an int (notebook 08 passes its ``seed``) for the same simulated benchmarks at
        every call, so that a slider moved back redraws the same figure; ``None`` (the
        default) draws fresh ones.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.
    reuse : bool
        For a slider: if ``ax`` holds the drawing of an earlier ``reuse=True`` call with
        the same ``methods``, update its artists in place (bar heights and colours,
        whiskers, texts, limits, title) instead of adding new ones, which keeps a redraw
        cheap; otherwise clear ``ax`` and draw anew. Default ``False``: draw on ``ax`` as
        it is.
    table : pandas.DataFrame, optional
        What :func:`paired_item_coverage` returned for these settings (a slider may cache
        it): drawn instead of simulating anew. Its ``attrs`` must hold the same design.
    annotate : bool
        Default ``True``: the title and the notes above the bars. ``False`` leaves them out
        (each text costs a redraw time; a slider may print them under the figure instead,
        see :func:`describe_paired_item_coverage`).

    Returns
    -------
    matplotlib.axes.Axes
        The drawn numbers are those of ``paired_item_coverage`` with the same arguments.

    Examples
    --------
    >>> from evallib.lessons import plot_paired_item_coverage
    >>> ax = plot_paired_item_coverage(n_items=100, cluster_size=10, icc=0.2, n_resamples=100)
    >>> len(ax.patches)
    3
    >>> ax = plot_paired_item_coverage(n_items=10, cluster_size=10)
    >>> ax.texts[0].get_text().startswith("10 items in clusters of 10")
    True

    A slider's callback updates one drawing:

    >>> ax = plot_paired_item_coverage(n_items=100, cluster_size=10, n_resamples=100, reuse=True)
    >>> bars = list(ax.patches)
    >>> ax = plot_paired_item_coverage(n_items=100, cluster_size=5, n_resamples=100, ax=ax, reuse=True)
    >>> list(ax.patches) == bars
    True
    """
    for name, flag in (("reuse", reuse), ("annotate", annotate)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {type(flag).__name__}")
    size = check_count(cluster_size, "cluster_size", minimum=1)
    n = check_count(n_items, "n_items", minimum=2)
    methods = check_choices(methods, "methods", PAIRED_COVERAGE_METHODS)
    ax = get_axes(ax, figsize=(7, 3.8))
    message = None
    if n <= size:   # one cluster; n_items = 40 in clusters of 30 are two (30 and 10), as paired_item_coverage makes them
        message = (f"{n} items in clusters of {size} make one cluster:\nno cluster-robust interval "
                   "(move items up or cluster size down)")
    if not reuse:
        if message is not None:
            ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            return ax
        art = _coverage_artists(ax, methods)
    else:
        art = getattr(ax, "_paired_coverage_artists", None)
        if art is None or art["methods"] != methods or art["ax"] is not ax:
            ax.clear()
            art = _coverage_artists(ax, methods)
            ax._paired_coverage_artists = art
    if message is not None:
        _show_coverage_artists(art, False)
        art["message"].set_text(message)
        art["message"].set_visible(True)
        ax.set_title("")
        return ax
    if table is None:
        table = paired_item_coverage(n_items=n, cluster_size=size, icc=icc, samples=samples, correlation=correlation,
                                     mean_a=mean_a, mean_b=mean_b, spread=spread, methods=methods, n_resamples=n_resamples,
                                     alpha=alpha, rng=rng)
    elif not isinstance(table, pd.DataFrame) or tuple(table.get("method", ())) != methods:
        raise ValueError(f"table must be paired_item_coverage's table of the methods {methods}")
    elif (table.attrs.get("n_items"), table.attrs.get("cluster_size"), table.attrs.get("samples")) != (
            n, size, samples):
        raise ValueError("table must be paired_item_coverage's table for these n_items, cluster_size and samples")
    _show_coverage_artists(art, True)
    art["message"].set_visible(False)
    a = table.attrs
    x = np.arange(len(table))
    cov = table["coverage"].to_numpy()
    err = 2 * table["mc_se"].to_numpy()
    promise = 1 - a["alpha"]
    for bar, c, verdict in zip(art["bars"], cov, coverage_verdicts(table["coverage"], table["mc_se"], promise)):
        bar.set_height(c)
        bar.set_facecolor(COVERAGE_VERDICTS[verdict][0])
    art["whiskers"].set_segments([[(xi, c - e), (xi, c + e)] for xi, c, e in zip(x, cov, err)])
    art["caps"].set_data(np.repeat(x, 2), np.column_stack([cov - err, cov + err]).ravel())
    art["promise"].set_ydata([promise, promise])
    for note, w, r in zip(art["notes"], table["mean_width"], table["rejection"]):   # above 1: clear of the bars
        note.set_text(f"width {w:.3f}\nexcludes 0: {100 * r:.0f}%")
        note.set_visible(annotate)
    low = max(0.0, min(float(cov.min()) - 0.08, 1 - 4 * a["alpha"]))
    ax.set_ylim(low, 1.12 if annotate else 1.02)
    from matplotlib.ticker import MaxNLocator

    # few tick labels (each costs a text layout per redraw), none above the largest possible coverage
    ticks = [t for t in MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(low, 1.0) if low <= t <= 1.0 + 1e-9]
    ax.set_yticks(ticks)
    cut = f"axis cut at {low:.2f}" if low > 0 else "axis from 0"
    ax.set_ylabel(f"coverage, ±2 MC SE ({cut})\n(dashed: promised {100 * promise:g}%)" if annotate
                  else f"coverage, ±2 MC SE\n({cut})")
    art["cut"].set_visible(low > 0)
    art["legend"].set_visible(annotate)
    ax.set_title(describe_paired_item_coverage(table) if annotate else "", fontsize="small")
    return ax


def _coverage_artists(ax, methods: tuple[str, ...]) -> dict:
    """The artists of :func:`plot_paired_item_coverage` for ``methods``, drawn once (zero heights) on ``ax``."""
    from matplotlib.collections import LineCollection

    x = np.arange(len(methods))
    bars = ax.bar(x, np.zeros(len(methods)), width=0.6, color="C0").patches
    whiskers = ax.add_collection(LineCollection([[(xi, 0.0), (xi, 0.0)] for xi in x], colors="k", linewidths=1))
    caps, = ax.plot(np.repeat(x, 2), np.zeros(2 * len(methods)), linestyle="none", marker="_", markersize=8,
                    color="k", markeredgewidth=1)
    promise = ax.axhline(0.95, color="k", linestyle="--", linewidth=1)
    notes = [ax.text(xi, 1.01, "", ha="center", va="bottom", fontsize="small") for xi in x]
    message = ax.text(0.5, 0.5, "", ha="center", va="center", transform=ax.transAxes, visible=False)
    cut = _cut_marks(ax)
    legend = _verdict_legend(ax)
    legend.set_visible(False)
    ax.set_xticks(x)
    ax.set_xticklabels([_NAMES[m] for m in methods], fontsize="small")
    ax.set_xlim(-0.5, len(methods) - 0.5)
    ax.yaxis.set_major_formatter("{x:.2f}")   # tick labels of one width: a redraw need not change the layout
    return {"ax": ax, "methods": methods, "bars": list(bars), "whiskers": whiskers, "caps": caps, "promise": promise,
            "notes": notes, "message": message, "cut": cut, "legend": legend}


def _show_coverage_artists(art: dict, visible: bool) -> None:
    for artist in (*art["bars"], art["whiskers"], art["caps"], art["promise"], *art["notes"], art["cut"], art["legend"]):
        artist.set_visible(visible)
    ax = art["ax"]
    ax.xaxis.set_visible(visible)
    ax.yaxis.set_visible(visible)


#: Below this many events (or non-events) among the simulations, :func:`coverage_verdicts` and
#: :func:`describe_mc_share` read a share by its exact (Clopper–Pearson) 95% interval, not by
#: +-2 Monte Carlo SEs: the normal approximation behind the SE is poor there, and at 0 or all
#: of n the SE is 0, which would read as certainty.
EXACT_BELOW = 10


def _exact_reading(coverage: np.ndarray, n_resamples: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which shares of ``n_resamples`` simulations are read exactly (fewer than :data:`EXACT_BELOW`
    events or non-events), and the Clopper–Pearson 95% bounds of every share."""
    n = np.broadcast_to(np.asarray(n_resamples, dtype=float), coverage.shape)
    if not np.all(np.isfinite(n) & (n >= 1)):
        raise ValueError(f"n_resamples must hold numbers >= 1; got {n_resamples!r}")
    k = coverage * n
    low, high = _clopper_pearson(k, n)
    return np.minimum(k, n - k) < EXACT_BELOW, low, high


def _clopper_pearson(k: Any, n: Any) -> tuple[np.ndarray, np.ndarray]:
    """The exact (Clopper–Pearson) 95% limits of ``k`` events in ``n`` trials: ``Beta(0.025; k, n - k + 1)``
    and ``Beta(0.975; k + 1, n - k)``, 0 at ``k = 0`` and 1 at ``k = n`` (``k`` may be fractional, as
    from tied first places). The one copy of these limits in the lessons: :func:`coverage_verdicts`,
    :func:`describe_mc_share` and notebook 09's whiskers (:mod:`._peeking`) all take them from here."""
    k, n = np.broadcast_arrays(np.asarray(k, dtype=float), np.asarray(n, dtype=float))
    with np.errstate(invalid="ignore"):
        low = np.where(k <= 0, 0.0, stats.beta.ppf(0.025, np.maximum(k, 1e-12), n - k + 1))
        high = np.where(k >= n, 1.0, stats.beta.isf(0.025, k + 1, np.maximum(n - k, 1e-12)))
    return low, high


def coverage_verdicts(coverage: Any, mc_se: Any, promise: float, n_resamples: Any = None) -> list[str]:
    """Read measured coverages against their promise, with their Monte Carlo error.

    ``"short"`` when ``coverage + 2 mc_se < promise``, ``"above"`` when
    ``coverage - 2 mc_se > promise``, else ``"within"``: a coverage whose ±2 MC SE
    interval holds the promise is not told apart from it. An exact coverage
    (``mc_se = 0``, no ``n_resamples``) is short or above whenever it differs from the promise.

    With ``n_resamples``, a coverage resting on fewer than :data:`EXACT_BELOW` (10) events or
    non-events among its simulations is read by its exact (Clopper–Pearson) 95% interval
    instead: short or above only when that whole interval lies below or above the promise.
    (One event in 400 is 0.25%, but its exact interval reaches 1.38%.)

    Parameters
    ----------
    coverage, mc_se : array-like of float
        Measured coverages in [0, 1] and their Monte Carlo standard errors (``>= 0``), as
        the ``coverage`` and ``mc_se`` columns of :func:`paired_item_coverage` or
        :func:`evallib.item_interval_coverage`.
    promise : float
        The promised coverage ``1 - alpha``, in (0, 1).
    n_resamples : int or array-like of int, optional
        The simulations behind each coverage (``>= 1``); without it the ±2 MC SE rule alone.

    Returns
    -------
    list of str
        One of ``"short"``, ``"within"``, ``"above"`` per coverage (keys of
        :data:`COVERAGE_VERDICTS`).

    Raises
    ------
    ValueError
        If the lengths differ, a coverage lies outside [0, 1], an MC SE is negative,
        ``promise`` is outside (0, 1) or ``n_resamples`` is below 1.

    Examples
    --------
    A coverage of 0.93 from 2000 simulations (MC SE 0.0057) is short of 95%; 0.94 is not
    told apart from it:

    >>> from evallib.lessons import coverage_verdicts
    >>> coverage_verdicts([0.93, 0.94, 0.97], [0.0057, 0.0053, 0.0038], 0.95)
    ['short', 'within', 'above']

    399 of 400 (MC SE 0.0025) is more than two MC SEs above 99%, but one miss in 400 is
    consistent with a 1% miss rate (exact interval 0.9861 to 0.99994):

    >>> coverage_verdicts([0.9975], [0.0025], 0.99), coverage_verdicts([0.9975], [0.0025], 0.99, n_resamples=400)
    (['above'], ['within'])
    """
    cov = np.asarray(coverage, dtype=float).ravel()
    err = np.asarray(mc_se, dtype=float).ravel()
    promise = check_alpha(promise, "promise")
    if cov.shape != err.shape:
        raise ValueError(f"coverage and mc_se must have the same length; got {cov.size} and {err.size}")
    if not np.all((cov >= 0) & (cov <= 1)):
        raise ValueError("coverage must hold numbers in [0, 1]")
    if not np.all(err >= 0):
        raise ValueError("mc_se must hold numbers >= 0")
    if n_resamples is None:
        exact = np.zeros(cov.shape, dtype=bool)
        low = high = cov
    else:
        try:
            exact, low, high = _exact_reading(cov, np.asarray(n_resamples, dtype=float).ravel()
                                              if np.ndim(n_resamples) else n_resamples)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"n_resamples must be a count >= 1 or one per coverage; got {n_resamples!r}") from exc
    out = []
    for c, e, x, lo, hi in zip(cov, err, exact, low, high):
        if x:
            out.append("short" if hi < promise else "above" if lo > promise else "within")
        else:
            out.append("short" if c + 2 * e < promise else "above" if c - 2 * e > promise else "within")
    return out


def describe_mc_share(share: float, n_resamples: int) -> str:
    """A share of ``n_resamples`` simulations in words, with the error :func:`coverage_verdicts` reads it by.

    ``"12.5% (MC SE 1.7 percentage points)"`` from :data:`EXACT_BELOW` (10) events and non-events
    on; below that the count and the exact (Clopper–Pearson) 95% interval, ``"0.25% (1 of 400;
    Clopper–Pearson 95% interval 0.01% to 1.38%)"``, and for no event ``"none of 400
    (Clopper–Pearson 95% upper bound 0.92%)"``: an MC SE of 0 would read as certainty.

    Parameters
    ----------
    share : float
        The share in [0, 1] (a count over ``n_resamples``; a fractional count, as from tied
        first places, is allowed).
    n_resamples : int
        The simulations behind it (``>= 1``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``share`` is outside [0, 1] or ``n_resamples`` is not a positive whole number.

    Examples
    --------
    >>> from evallib.lessons import describe_mc_share
    >>> describe_mc_share(0.0, 400)
    'none of 400 (Clopper–Pearson 95% upper bound 0.92%)'
    >>> describe_mc_share(0.5, 400)
    '50.0% (MC SE 2.5 percentage points)'
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    share = float(share)
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be a number in [0, 1]; got {share!r}")
    exact, low, high = _exact_reading(np.array([share]), n_resamples)
    if not exact[0]:
        return f"{100 * share:.1f}% (MC SE {100 * math.sqrt(share * (1 - share) / n_resamples):.1f} percentage points)"
    k = share * n_resamples
    count = f"{round(k):,}" if abs(k - round(k)) < 1e-9 else f"{k:.1f}"
    if k <= 0:
        return f"none of {n_resamples:,} (Clopper–Pearson 95% upper bound {100 * high[0]:.2f}%)"
    if k >= n_resamples:
        return f"all {n_resamples:,} (Clopper–Pearson 95% lower bound {100 * low[0]:.2f}%)"
    return (f"{100 * share:.2f}% ({count} of {n_resamples:,}; Clopper–Pearson 95% interval {100 * low[0]:.2f}% to "
            f"{100 * high[0]:.2f}%)")


def _cut_marks(ax):
    """A break mark (two short slanted strokes) at the foot of the y axis: the axis does not start at 0."""
    from matplotlib.lines import Line2D

    marks = Line2D([-0.018, 0.018, np.nan, -0.018, 0.018], [0.0, 0.03, np.nan, 0.025, 0.055], transform=ax.transAxes,
                   color="k", linewidth=1, clip_on=False)
    ax.add_line(marks)
    return marks


def _verdict_legend(ax):
    """The legend of the bar colours, outside the axes on the right (it never covers a bar)."""
    from matplotlib.patches import Patch

    handles = [Patch(color=colour, label=label) for colour, label in COVERAGE_VERDICTS.values()]
    legend = ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(1.01, 0.0), fontsize="x-small",
                       frameon=False, title=COVERAGE_VERDICT_TITLE.replace(": ", ":\n"), title_fontsize="x-small",
                       alignment="left")
    return legend


def mark_coverage_verdicts(ax, table: pd.DataFrame):
    """Recolour the bars of a coverage figure by :func:`coverage_verdicts` and mark a cut y axis.

    For the figure of :func:`evallib.plot_item_interval_coverage` (or any bar chart with
    one bar per row of ``table``, in order): each bar gets the colour of its verdict in
    :data:`COVERAGE_VERDICTS`, a legend outside the axes says what the colours mean, and
    when the y axis does not start at 0 a break mark on it and the y label say where it is
    cut.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The figure's Axes, with one bar per row of ``table``.
    table : pandas.DataFrame
        The coverage table drawn (``coverage`` and ``mc_se`` columns, ``attrs["alpha"]``),
        as :func:`evallib.item_interval_coverage` or :func:`paired_item_coverage` return it.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, redrawn.

    Raises
    ------
    ValueError
        If ``ax`` holds a different number of bars than ``table`` has rows, or ``table``
        lacks its columns or its ``alpha``.

    Examples
    --------
    >>> from evallib import item_interval_coverage, plot_item_interval_coverage
    >>> from evallib.lessons import mark_coverage_verdicts
    >>> tab = item_interval_coverage(n_items=100, cluster_size=10, icc=0.3, n_resamples=400, rng=1)
    >>> ax = mark_coverage_verdicts(plot_item_interval_coverage(tab), tab)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['lies below the promise', 'is consistent with the promise', 'lies above the promise']
    """
    if not isinstance(table, pd.DataFrame) or not {"coverage", "mc_se"} <= set(table.columns) \
            or "alpha" not in table.attrs:
        raise ValueError("table must be a coverage table with coverage and mc_se columns and attrs['alpha']")
    bars = list(ax.patches)
    if len(bars) != len(table):
        raise ValueError(f"ax holds {len(bars)} bars, table has {len(table)} rows")
    for bar, verdict in zip(bars, coverage_verdicts(table["coverage"], table["mc_se"], 1 - table.attrs["alpha"])):
        bar.set_facecolor(COVERAGE_VERDICTS[verdict][0])
    _verdict_legend(ax)
    low = ax.get_ylim()[0]
    if low > 0:
        _cut_marks(ax)
        ax.set_ylabel(f"{ax.get_ylabel()}\n(axis cut at {low:.2f})")
    return ax


def describe_paired_item_coverage(table: pd.DataFrame) -> str:
    """The design and what was measured, in two lines: the title of :func:`plot_paired_item_coverage`.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`paired_item_coverage` returned (its ``attrs`` hold the design and the
        measured figures).

    Returns
    -------
    str
        Two lines: the design (items, clusters, latent ICC -- of the difficulty, on the
        probit scale --, answers per item ``K``, difficulty correlation, true difference), then what the simulations measured (their number,
        the item-score correlation, the SD of the estimate and the design effect, with its relative
        Monte Carlo error ``sqrt(2 / (n_resamples - 1))``, that of a variance estimated from
        ``n_resamples`` normal draws: 10% at 200 simulations, so a design effect of 1.1 from
        independent items is no sign of clustering).

    Raises
    ------
    TypeError
        If ``table`` is not a table that :func:`paired_item_coverage` returned.

    Examples
    --------
    >>> from evallib.lessons import describe_paired_item_coverage, paired_item_coverage
    >>> tab = paired_item_coverage(n_items=100, cluster_size=10, icc=0.2, n_resamples=100, rng=0)
    >>> describe_paired_item_coverage(tab).splitlines()[0]
    '100 items in 10 clusters, latent ICC 0.2, K = 1 answer, difficulty correlation 0.5, true difference +0'
    """
    if not isinstance(table, pd.DataFrame) or "design_effect" not in table.attrs:
        raise TypeError("table must be what paired_item_coverage returned")
    a = table.attrs
    k = a["samples"]
    return (f"{a['n_items']} items in {a['n_clusters']} clusters, latent ICC {a['icc']:g}, K = {k} answer{'s' if k > 1 else ''}, "
            f"difficulty correlation {a['correlation']:g}, true difference {a['difference']:+.3g}\nmeasured in "
            f"{a['n_resamples']:,} simulations: item-score correlation {a['item_correlation']:.2f}, SD of estimate "
            f"{a['sd_estimate']:.4f}, design effect {a['design_effect']:.2f} (relative Monte Carlo error about "
            f"{math.sqrt(2 / (a['n_resamples'] - 1)):.0%})")


def describe_coverage_reading(coverage: float, mc_se: float, promise: float, n_resamples: int) -> str:
    """What one measured coverage says about its promise, as the end of a sentence ("CR2 ...").

    Reads the coverage by :func:`coverage_verdicts` (with ``n_resamples``, so that below
    :data:`EXACT_BELOW` misses or hits its exact Clopper–Pearson interval is read and named
    instead): "falls short of" or "covers more than" its
    level only when the whole ±2 MC SE interval lies below or above it, and otherwise "is not
    shown to fall short of its level at this number of simulations": a coverage within its
    Monte Carlo noise of the promise is not evidence that the interval keeps its level. The size
    of a shortfall or excess is a Monte Carlo estimate and is printed with its Monte Carlo SE
    (with the number of simulations when it is read by the exact interval).

    Parameters
    ----------
    coverage, mc_se : float
        The measured coverage in [0, 1] and its Monte Carlo standard error (``>= 0``).
    promise : float
        The promised coverage ``1 - alpha``, in (0, 1).
    n_resamples : int
        The simulations behind ``coverage`` (named in the text).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        As :func:`coverage_verdicts`, or if ``n_resamples`` is not a positive whole number.

    Examples
    --------
    >>> from evallib.lessons import describe_coverage_reading
    >>> describe_coverage_reading(0.94, 0.001, 0.95, 6000)
    'falls short of its 95%, by an estimated 1.00 percentage points (Monte Carlo SE 0.10; beyond two Monte Carlo SEs, 0.20)'
    >>> describe_coverage_reading(0.948, 0.003, 0.95, 6000)
    'is not shown to fall short of its 95% at 6,000 simulations (within two Monte Carlo SEs, 0.60)'
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    verdict = coverage_verdicts([coverage], [mc_se], promise, n_resamples=n_resamples)[0]
    level, gap, band = f"{100 * promise:g}%", 100 * (promise - coverage), 200 * mc_se
    exact, low, high = _exact_reading(np.array([float(coverage)]), n_resamples)
    if exact[0]:   # fewer than EXACT_BELOW events or non-events: the exact interval, as coverage_verdicts reads it
        where = {"short": "beyond", "above": "beyond", "within": "within"}[verdict]
        noise = f"{where} its exact Clopper–Pearson 95% interval {100 * low[0]:.2f}% to {100 * high[0]:.2f}%"
        error = f"from {n_resamples:,} simulations; "
    else:
        noise = f"{'within' if verdict == 'within' else 'beyond'} two Monte Carlo SEs, {band:.2f}"
        error = f"Monte Carlo SE {100 * mc_se:.2f}; "
    # the size of a shortfall (or excess) is itself a Monte Carlo estimate: it carries its error
    if verdict == "short":
        return f"falls short of its {level}, by an estimated {gap:.2f} percentage points ({error}{noise})"
    if verdict == "above":
        return f"covers more than its {level}, by an estimated {-gap:.2f} percentage points ({error}{noise})"
    return f"is not shown to fall short of its {level} at {n_resamples:,} simulations ({noise})"


def describe_pooled_coverage(coverage: float, mc_se: float, promise: float, bar_verdicts: Sequence[str],
                             n_resamples: int) -> str:
    """What the pooled coverage of several settings adds to the bars of each, as one or two sentences.

    A bar whose ±2 MC SE interval is consistent with the promise is not evidence that the
    interval keeps its level. When the pooled coverage falls short (:func:`coverage_verdicts`)
    and some bar alone does not, the text gives the pooled shortfall with its Monte Carlo SE, says
    how often a bar of ``n_resamples`` simulations would flag a true shortfall of that size
    (:func:`bar_flag_probability`), and of one at either end of its ±2 MC SE interval (the pooled
    shortfall is itself an estimate), and how many of the bars did; when the pooled coverage is itself within its noise, it says how large a
    shortfall could still go unseen (two pooled MC SEs).

    Parameters
    ----------
    coverage, mc_se, promise
        The pooled coverage, its Monte Carlo SE and the promise, as in :func:`coverage_verdicts`.
    bar_verdicts : sequence of str
        The verdict of each setting alone (keys of :data:`COVERAGE_VERDICTS`).
    n_resamples : int
        The simulations behind one bar.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        As :func:`coverage_verdicts`; if ``bar_verdicts`` is empty or holds another word, or
        ``n_resamples`` is not a positive whole number.

    Examples
    --------
    >>> from evallib.lessons import describe_pooled_coverage
    >>> describe_pooled_coverage(0.94, 0.001, 0.95, ["within", "short"], 2000)[:60]
    'A bar whose ±2 MC SE interval is consistent with the promise'
    """
    verdict = coverage_verdicts([coverage], [mc_se], promise)[0]
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    bars = list(bar_verdicts)
    if not bars or any(v not in COVERAGE_VERDICTS for v in bars):
        raise ValueError(f"bar_verdicts must be a non-empty list of {sorted(COVERAGE_VERDICTS)}; got {bars}")
    text = "A bar whose ±2 MC SE interval is consistent with the promise is not evidence that the interval keeps its level"
    if verdict == "short" and any(v != "short" for v in bars):
        flagged = sum(v == "short" for v in bars)
        did = f"{flagged:,} of the {len(bars):,} bars did" if flagged else f"none of the {len(bars):,} bars did"
        # the pooled shortfall is an estimate: the chance is given at it and at its ±2 MC SE ends
        gap = promise - coverage
        near, far = (bar_flag_probability(min(1.0, max(0.0, promise - g)), promise, n_resamples)
                     for g in (gap - 2 * mc_se, gap + 2 * mc_se))
        return (text + f": were the true shortfall the pooled estimate, {100 * gap:.2f} percentage points (Monte Carlo "
                f"SE {100 * mc_se:.2f}), a bar of {n_resamples:,} simulations would flag it with probability about "
                f"{bar_flag_probability(coverage, promise, n_resamples):.2f}, and for a true shortfall anywhere within two "
                f"Monte Carlo SEs of that estimate ({100 * (gap - 2 * mc_se):.2f} to {100 * (gap + 2 * mc_se):.2f} "
                f"percentage points) with probability from about {near:.2f} to {far:.2f} (here {did}).")
    if verdict == "short":
        return text + "; here every bar alone lies below the promise too."
    if verdict == "within":
        return (text + ", and neither is the pooled coverage: a shortfall smaller than about "
                f"{200 * mc_se:.2f} percentage points (two pooled Monte Carlo SEs) would go unseen in this run.")
    return text + "; pooled, the coverage lies above the promise."


def bar_flag_probability(coverage: float, promise: float, n_resamples: int) -> float:
    """The chance that one bar of ``n_resamples`` simulations lies below its promise, given its true coverage.

    A bar measures ``k / n_resamples`` with ``k ~ Binomial(n_resamples, coverage)`` and is read
    by :func:`coverage_verdicts` (with its ``n_resamples``, so that a bar of fewer than
    :data:`EXACT_BELOW` misses or hits is read by its exact interval). The probability is the
    exact sum of the binomial probabilities of the ``k`` it reads as ``"short"``: how often a
    bar would show a true shortfall of ``promise - coverage``.

    Parameters
    ----------
    coverage : float
        The true coverage of the interval, in [0, 1].
    promise : float
        The promised coverage ``1 - alpha``, in (0, 1).
    n_resamples : int
        The simulations behind one bar (``>= 1``).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``coverage`` is outside [0, 1], ``promise`` outside (0, 1) or ``n_resamples`` is not a
        positive whole number.

    Examples
    --------
    A true coverage of 94% against 95%: a bar of 2,000 simulations shows it less than half the
    time, one of 20,000 nearly always.

    >>> from evallib.lessons import bar_flag_probability
    >>> round(bar_flag_probability(0.94, 0.95, 2000), 2), round(bar_flag_probability(0.94, 0.95, 20000), 2)
    (0.44, 1.0)
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    promise = check_alpha(promise, "promise")
    coverage = float(coverage)
    if not 0.0 <= coverage <= 1.0:
        raise ValueError(f"coverage must be a number in [0, 1]; got {coverage!r}")
    k = np.arange(n_resamples + 1)
    share = k / n_resamples
    short = np.array(coverage_verdicts(share, np.sqrt(share * (1 - share) / n_resamples), promise,
                                       n_resamples=n_resamples)) == "short"
    return float(stats.binom.pmf(k[short], n_resamples, coverage).sum())


def describe_gap_split(parts: dict[str, tuple[float, float]]) -> str:
    """Which parts of a measured gap are beyond their Monte Carlo error, as one sentence.

    ``parts`` maps the name of each part of a gap (in rates, e.g. ``{"the pairwise intervals":
    (0.005, 0.001)}``) to its estimate and Monte Carlo SE. A part is said to contribute only
    when its estimate lies beyond two of its Monte Carlo SEs from 0; otherwise it is "not shown
    to contribute". Each part says how many MC SEs it lies from 0. The clause has no full stop:
    the caller ends the sentence. An MC SE of 0 (no event behind
    it in the simulations) is not certainty: such a part is given without a verdict.

    Parameters
    ----------
    parts : dict of str to (float, float)
        Each part's estimate (a rate) and its Monte Carlo SE (``>= 0``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``parts`` is empty or an MC SE is negative or not finite.

    Examples
    --------
    >>> from evallib.lessons import describe_gap_split
    >>> describe_gap_split({"the intervals": (0.005, 0.001), "the bound": (0.0005, 0.0004)})
    'measured against their Monte Carlo SEs, the intervals contribute (+0.50 percentage points, MC SE 0.10, 5.0 MC SEs from 0); the bound is not shown to contribute (+0.05 percentage points, MC SE 0.04, 1.2 MC SEs from 0, within two)'
    """
    if not parts:
        raise ValueError("parts must name at least one part of the gap")
    said = []
    for name, (estimate, se) in parts.items():
        if not (np.isfinite(se) and se >= 0 and np.isfinite(estimate)):
            raise ValueError(f"parts: {name!r} needs a finite estimate and an MC SE >= 0; got {(estimate, se)}")
        plural = name.endswith("s")
        points = round(100 * estimate, 2) + 0.0   # + 0.0: a -0.004 rounds to "+0.00", never "-0.00"
        if se == 0:
            said.append(f"{name} {'are' if plural else 'is'} {points:+.2f} percentage points with no event behind "
                        f"{'their' if plural else 'its'} Monte Carlo SE in these simulations (an MC SE of 0 here is not certainty), so not read "
                        "against it")
        elif abs(estimate) > 2 * se:
            said.append(f"{name} contribute{'' if plural else 's'} ({points:+.2f} percentage "
                        f"points, MC SE {100 * se:.2f}, {abs(estimate) / se:.1f} MC SEs from 0)")
        else:
            said.append(f"{name} {'are' if plural else 'is'} not shown to contribute ({points:+.2f} percentage "
                        f"points, MC SE {100 * se:.2f}, {abs(estimate) / se:.1f} MC SEs from 0, within two)")
    return "measured against their Monte Carlo SEs, " + "; ".join(said)


def describe_clustering_screen(part: pd.DataFrame, noise: float, alpha: float) -> str:
    """Notebook 08, section 2: the clustered / naive SE ratios of one score read against their own noise.

    ``part`` holds one row per model with the columns ``model``, ``score``, ``ratio`` (CR2 SE over
    naive SE), ``width ratio`` (CR2 interval width over naive interval width), ``df`` (Bell–McCaffrey)
    and ``implied ICC``; ``noise`` is the relative SE of the clustered SE, about ``1 / sqrt(2 df)``.
    Three readings: every ratio within ``1 ± 2 noise`` (absence of evidence, with the design effects
    the data allow and the chance a true one passes unflagged; with no ratio above 1 there is no
    clustering seen, and the screen only cannot rule it out), every ratio beyond ``1 + 2 noise``, or
    the largest beyond it (each a sign of clustering for the score: a two-noise screen, not a test;
    with the widths of the CR2 and naive intervals in every reading but the last), or, with none
    beyond ``1 + 2 noise``, some below ``1 - 2 noise``.

    Parameters
    ----------
    part : pandas.DataFrame
        One row per model of one score, with the columns above.
    noise : float
        The relative standard error of the clustered SE (``> 0``).
    alpha : float
        The level; the intervals promise ``1 - alpha``, in (0, 1).

    Returns
    -------
    str
        The reading, starting with the range of the ratios.

    Raises
    ------
    ValueError
        If ``part`` is empty or lacks a column, ``noise`` is not positive or ``alpha`` is outside (0, 1).
    """
    need = {"model", "score", "ratio", "width ratio", "df", "implied ICC"}
    if len(part) == 0 or not need <= set(part.columns):
        raise ValueError(f"part must be a non-empty table with the columns {sorted(need)}")
    if not (np.isfinite(noise) and noise > 0):
        raise ValueError(f"noise must be a positive number; got {noise}")
    alpha = check_alpha(alpha, "alpha")
    level = f"{100 * (1 - alpha):g}%"
    low, high = part["ratio"].min(), part["ratio"].max()
    widest = part.loc[part["width ratio"].idxmax()]   # the widths of the two intervals, not only their SEs
    wide = widest["width ratio"]
    narrower = int((part["width ratio"] < 1).sum())   # models whose CR2 interval is narrower than the naive one
    t_over_z = stats.t.isf(alpha / 2, widest["df"]) / stats.norm.isf(alpha / 2)
    text = f"ratios from {low:.2f} to {high:.2f} (design effects {low ** 2:.2f} to {high ** 2:.2f})"
    width = (f"the CR2 {level} interval (Bell–McCaffrey t) of a model's mean {widest['score']} score is at most "
             f"{wide:.2f} times as wide as the naive CLT interval (z) of the same model's mean"
             + (f", and this CR2 t interval (not the Wilson interval item_mean reports by default) is narrower than "
                f"the naive one for {narrower:,} of the {len(part):,} models" if narrower else "") + "; the widest is "
             f"{widest['model']}'s, its SE ratio times t({widest['df']:.1f} df) / z, "
             f"{widest['ratio']:.2f} × {t_over_z:.3f} = {wide:.2f}")
    if high <= 1 + 2 * noise and low >= 1 - 2 * noise:
        top = part.loc[part["ratio"].idxmax()]
        # the screen flags a ratio beyond 1 + 2 noise; the estimated ratio scatters with relative SE `noise` around the
        # true one, so a true ratio R passes unflagged with probability Phi((1 + 2 noise - R) / (R noise))
        missed = stats.norm.cdf((1 + 2 * noise - top["ratio"]) / (top["ratio"] * noise))
        allowed = (top["ratio"] / (1 + 2 * noise)) ** 2, (top["ratio"] / (1 - 2 * noise)) ** 2
        unflagged = (f"; a true design effect of {top['ratio'] ** 2:.2f} would pass this screen unflagged with probability "
                     f"about {missed:.2f}" if top["ratio"] > 1 else "")
        return (text + f", all within 1 ± {2 * noise:.2f}, twice the noise of the clustered SE itself. That is absence of "
                "evidence, not evidence of no clustering: "
                + ("the screen cannot tell this much clustering from none, and it cannot rule it out either"
                   if top["ratio"] > 1 else "the screen cannot rule out clustering")
                + f". The largest ratio, {top['model']}'s {top['ratio']:.2f} (implied ICC "
                f"{top['implied ICC']:.3f}), is a design effect of {top['ratio'] ** 2:.2f}, and the data allow design effects "
                f"from about {allowed[0]:.2f} to {allowed[1]:.2f} for it{unflagged}. Report the clustered error bar"
                + ((", at a cost in width here" if narrower == 0 else
                    f", at a cost in width for {len(part) - narrower:,} of the {len(part):,} models")
                   + f": over the {len(part):,} models, " + width if wide > 1 else ""))
    if low > 1 + 2 * noise:
        return (text + f", all beyond 1 + {2 * noise:.2f}, twice the noise of the clustered SE, a sign of clustering for "
                f"this score (a screen, not a test); over the {len(part):,} models, " + width)
    if high > 1 + 2 * noise:
        return (text + f"; the largest ratio is beyond 1 + {2 * noise:.2f}, twice the noise of the clustered SE, a sign of "
                "clustering for this score (a screen, not a test); over the "
                f"{len(part):,} models, " + width)
    return (text + f", some below 1 − {2 * noise:.2f}, beyond the noise of the clustered SE: a clustered SE smaller than "
            "that noise explains, which clustering does not predict (negatively correlated items within clusters)")
