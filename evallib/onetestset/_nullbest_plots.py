"""Charts for the best-of-C critical values (Forman & Cohen 2005, Figures 1-7).

* :func:`plot_null_cdfs` -- Figure 1: the CDFs of AUC, best accuracy and best F for one
  random ranking (the paper uses P = 10, N = 1000), with the 99th percentile and the
  critical values for some C marked;
* :func:`plot_critical_surface` -- Figures 2-5: the critical value over (N, P) as a
  surface, with its contours projected on the floor;
* :func:`plot_critical_contours` / :func:`plot_contour_panels` -- Figures 6-7: labelled
  contours for each metric;
* :func:`plot_mc_convergence` -- the Monte Carlo CDF against the exact one;
* :func:`plot_null_tail` -- the upper tail ``1 - F`` on a log axis, where the critical
  values live (``F`` itself is flat at 1 there), with the level each ``C`` cuts off;
* :func:`plot_mc_tail` -- the same tail from a Monte Carlo sample beside the exact one (the
  notebook's reps slider): how far out a sample of that size can see;
* :func:`mc_tail_curves` -- those tails for several sample sizes from one sample (its
  first ``n_resamples`` rankings), computed once so that a slider only redraws;
* :func:`plot_critical_lines` -- Figures 2-5 as a few lines: the critical value against
  N for some values of P (a 2-D view of the paper's 3-D surfaces).

The surfaces and contours are drawn from a table of :func:`evallib.onetestset.critical_value_table`
(e.g. ``data/critical_values.csv``), with log-scaled P and N axes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._compat import renamed_keywords
from .._plotting import get_axes
from .._results import freeze_arrays
from .._validate import check_alpha, check_choice, check_count
from ._nullbest import METRICS, critical_value, null_cdf, simulate_null, tail_probability

__all__ = [
    "plot_null_cdfs",
    "critical_value_grid",
    "plot_critical_surface",
    "plot_critical_contours",
    "plot_contour_panels",
    "plot_mc_convergence",
    "mc_cdf_distance",
    "plot_null_tail",
    "plot_mc_tail",
    "McTailCurves",
    "mc_tail_curves",
    "plot_critical_lines",
]

_LABELS = {"auc": "AUC", "accuracy": "best accuracy", "f1": "best F-measure", "tp": "TP10"}


def _f1_points(P: int, N: int) -> int:
    """How many best-F values to evaluate: all of them for small lattices (every value of
    P = 10, N = 1000 in under a second), 400 for P = N = 1000."""
    return int(np.clip(2e8 // ((P + 1) * (N + 1)), 400, 20_000))


def plot_null_cdfs(P: int = 10, N: int = 1000, *, Cs: Sequence[int] = (10, 1000), alpha: float = 0.01,
                   metrics: Sequence[str] = ("auc", "accuracy", "f1"), ax=None):
    """Figure 1: exact CDFs of one random ranking's score, with critical values marked.

    A horizontal line marks the 99th percentile; a marker on each curve shows the
    critical value ``m*`` for each ``C`` in ``Cs`` (at height ``F(m*)``).

    Parameters
    ----------
    P, N : int >= 1, default 10 and 1000
        Positives and negatives in the test set.
    Cs : sequence of int >= 1, default (10, 1000)
        The numbers of competing classifiers marked.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    metrics : sequence of {"auc", "accuracy", "f1", "tp"}, default ("auc", "accuracy", "f1")
        One curve per metric.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    alpha = check_alpha(alpha)
    ax = get_axes(ax, figsize=(6.4, 4.6))
    markers = "ovsD^"
    for i, metric in enumerate(metrics):
        law = null_cdf(metric, P, N, max_points=_f1_points(P, N))
        ax.step(law.values, law.cdf, where="post", color=f"C{i}", label=_LABELS[metric])
        for c_idx, C in enumerate(Cs):
            m = critical_value(metric, P, N, C=C, alpha=alpha)
            F = law.cdf[np.argmin(np.abs(law.values - m))]
            ax.plot([m], [F], markers[c_idx % len(markers)], color=f"C{i}", markersize=7,
                    markerfacecolor="white", zorder=3)
    for c_idx, C in enumerate(Cs):  # legend entries for the markers
        ax.plot([], [], markers[c_idx % len(markers)], color="k", markerfacecolor="white",
                label=f"critical value m*, C={C}")
    ax.axhline(0.99, color="0.4", linestyle="--", linewidth=1, label="99th percentile")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.01)
    ax.set_xlabel("score of one random ranking")
    ax.set_ylabel("CDF  F(x)")
    ax.set_title(f"Null CDFs, P={P}, N={N} (Forman & Cohen, Figure 1)")
    ax.legend(fontsize=8, loc="center right")
    return ax


def critical_value_grid(table: pd.DataFrame, metric: str, *, C: int, alpha: float = 0.01) -> pd.DataFrame:
    """The critical values of one (metric, C, alpha) as a P x N grid (rows P, columns N).

    Parameters
    ----------
    table : pandas.DataFrame
        Critical values as :func:`critical_value_table` or :func:`load_critical_values`
        return them (columns ``metric, P, N, C, alpha, critical_value``).
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    C : int >= 1
        Number of competing classifiers (a value in ``table["C"]``).
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.

    Returns
    -------
    pandas.DataFrame
        ``critical_value`` indexed by ``P`` (rows) and ``N`` (columns), both sorted.

    Raises
    ------
    ValueError
        When ``table`` lacks a column or has no row for ``(metric, C, alpha)``.
    """
    metric = check_choice(metric, "metric", METRICS)
    missing = {"metric", "P", "N", "C", "alpha", "critical_value"} - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with critical_value_table()")
    sel = table[(table["metric"] == metric) & (table["C"] == C) & np.isclose(table["alpha"], alpha)]
    if sel.empty:
        raise ValueError(f"table has no rows for metric={metric!r}, C={C}, alpha={alpha}")
    return sel.pivot(index="P", columns="N", values="critical_value").sort_index().sort_index(axis=1)


def plot_critical_surface(table: pd.DataFrame, metric: str, *, C: int = 1000, alpha: float = 0.01, ax=None):
    """Figures 2-5: the critical-value surface over log N (x) and log P (y).

    ``ax`` must be a 3-D Axes (``projection="3d"``); a new one is made if ``None``.
    Contours are drawn on the surface's floor, as in the paper.

    Parameters
    ----------
    table : pandas.DataFrame
        Critical values as :func:`critical_value_table` or :func:`load_critical_values`
        return them (columns ``metric, P, N, C, alpha, critical_value``).
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    C : int >= 1, default 1000
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    ax : mpl_toolkits.mplot3d.axes3d.Axes3D, optional
        A 3-D Axes to draw on, or None for a new figure.

    Returns
    -------
    mpl_toolkits.mplot3d.axes3d.Axes3D
        The Axes drawn on.
    """
    grid = critical_value_grid(table, metric, C=C, alpha=alpha)
    ax = get_axes(ax, figsize=(6.4, 4.6), projection="3d")
    X, Y = np.meshgrid(np.log10(grid.columns.to_numpy(float)), np.log10(grid.index.to_numpy(float)))
    Z = grid.to_numpy(float)
    ok = np.isfinite(Z)
    zmin = float(np.nanmin(Z))
    ax.plot_surface(X, Y, np.where(ok, Z, np.nan), cmap="viridis", linewidth=0, antialiased=True, alpha=0.9)
    floor = zmin - 0.1 * (float(np.nanmax(Z)) - zmin + 1e-9)
    ax.contour(X, Y, np.where(ok, Z, zmin), zdir="z", offset=floor, cmap="viridis", levels=10)
    ax.set_zlim(floor, float(np.nanmax(Z)))
    ticks = [np.log10(v) for v in (2, 10, 100, 1000)]
    ax.set_xticks(ticks)
    ax.set_xticklabels(["2", "10", "100", "1000"])
    ax.set_yticks(ticks)
    ax.set_yticklabels(["2", "10", "100", "1000"])
    ax.set_xlabel("N (negatives)")
    ax.set_ylabel("P (positives)")
    ax.set_zlabel("critical value")
    ax.set_title(f"{_LABELS[metric]}: critical value, C={C}, alpha={alpha:g}")
    return ax


def plot_critical_contours(table: pd.DataFrame, metric: str, *, C: int = 1000, alpha: float = 0.01,
                           levels=None, label_size: float = 9, ax=None):
    """Figures 6-7: labelled contours of the critical value over N (x) and P (y), log axes.

    ``label_size`` is the font size of the contour labels, drawn on a white box so that
    they stay legible where lines crowd.

    Parameters
    ----------
    table : pandas.DataFrame
        Critical values as :func:`critical_value_table` or :func:`load_critical_values`
        return them (columns ``metric, P, N, C, alpha, critical_value``).
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    C : int >= 1, default 1000
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    levels : sequence of float, optional
        The contour levels; None draws 1..10 for ``"tp"`` and 0.50, 0.55, ..., 1.00
        otherwise.
    label_size : float, default 9
        Font size of the contour labels.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    grid = critical_value_grid(table, metric, C=C, alpha=alpha)
    ax = get_axes(ax, figsize=(6.4, 4.6))
    N = grid.columns.to_numpy(float)
    P = grid.index.to_numpy(float)
    Z = np.ma.masked_invalid(grid.to_numpy(float))
    if levels is None:
        levels = np.arange(1, 11) if metric == "tp" else np.round(np.arange(0.5, 1.0001, 0.05), 2)
    cs = ax.contour(N, P, Z, levels=levels, cmap="viridis", linewidths=1.2)
    labels = ax.clabel(cs, fontsize=label_size, fmt="%g", inline=True, inline_spacing=4)
    for text in labels:
        text.set_bbox(dict(facecolor="white", edgecolor="none", alpha=0.8, pad=0.5))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("N (negatives)")
    ax.set_ylabel("P (positives)")
    ax.set_title(f"{_LABELS[metric]}, C={C}, alpha={alpha:g}", fontsize=9)
    return ax


def plot_contour_panels(table: pd.DataFrame, *, C: int = 1000, alpha: float = 0.01, axes=None):
    """Figures 6-7: one contour panel per metric (2 x 2).

    Parameters
    ----------
    table : pandas.DataFrame
        Critical values as :func:`critical_value_table` or :func:`load_critical_values`
        return them (columns ``metric, P, N, C, alpha, critical_value``).
    C : int >= 1, default 1000
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    axes : array of matplotlib.axes.Axes, optional
        Four Axes, one per metric of :data:`METRICS`; None makes a new 2 x 2 figure.

    Returns
    -------
    numpy.ndarray
        The array of Axes drawn on.
    """
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(2, 2, figsize=(9, 7.5), constrained_layout=True)
    axes = np.asarray(axes)
    if axes.size != len(METRICS):
        raise ValueError(f"axes must hold {len(METRICS)} Axes, one per metric, got {axes.size}")
    for metric, ax in zip(METRICS, axes.ravel()):
        plot_critical_contours(table, metric, C=C, alpha=alpha, ax=ax)
    return axes


def plot_critical_lines(table: pd.DataFrame, metric: str, *, C: int = 1000, alpha: float = 0.01,
                        Ps: Sequence[int] = (10, 100, 1000), ax=None):
    """Figures 2-5 in two dimensions: the critical value against N, one line per P.

    The paper draws each metric's critical value as a 3-D surface over (N, P); a few
    lines on a log N axis carry the same shape and can be read off. Each ``P`` in ``Ps``
    must be a row of the table.

    Parameters
    ----------
    table : pandas.DataFrame
        Critical values as :func:`critical_value_table` or :func:`load_critical_values`
        return them (columns ``metric, P, N, C, alpha, critical_value``).
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    C : int >= 1, default 1000
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    Ps : sequence of int, default (10, 100, 1000)
        One line per number of positives; each must be a ``P`` of ``table``.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    grid = critical_value_grid(table, metric, C=C, alpha=alpha)
    missing = [p for p in Ps if p not in grid.index]
    if missing:
        raise ValueError(f"Ps must be values of P in the table ({grid.index.min()}..{grid.index.max()}); "
                         f"not there: {missing}")
    ax = get_axes(ax, figsize=(6.4, 4.6))
    N = grid.columns.to_numpy(float)
    for i, p in enumerate(Ps):
        ax.plot(N, grid.loc[p].to_numpy(float), color=f"C{i}", lw=1.8, label=f"P = {p}")
    ax.set_xscale("log")
    ax.set_xlabel("N (negatives)")
    ax.set_ylabel("critical value" + (" (of 10)" if metric == "tp" else ""))
    ax.set_title(f"{_LABELS[metric]}, C={C}, alpha={alpha:g}", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    return ax


@renamed_keywords(reps="n_resamples")
def mc_cdf_distance(metric: str, P: int, N: int, n_resamples: int, *, rng=None) -> float:
    """Largest gap between the Monte Carlo CDF of ``n_resamples`` rankings and the exact CDF.

    The Kolmogorov distance, over the attainable values.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    P, N : int >= 1
        Positives and negatives in the test set.
    n_resamples : int >= 1
        Number of random rankings simulated.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Randomness, normalised by ``check_rng``.

    Returns
    -------
    float
        ``max |F_mc(x) - F(x)|``, in [0, 1].
    """
    law = null_cdf(metric, P, N, max_points=400)
    scores = np.sort(simulate_null(metric, P, N, n_resamples, rng=rng))
    emp = np.searchsorted(scores, law.values + 1e-12, side="right") / scores.size
    return float(np.max(np.abs(emp - law.cdf)))


@renamed_keywords(reps="n_resamples")
def plot_mc_convergence(metric: str, P: int, N: int, n_resamples: int, *, rng=None, ax=None):
    """The Monte Carlo CDF of ``n_resamples`` random rankings over the exact CDF.

    The title gives the Kolmogorov distance and its order of magnitude under the null,
    ``1/sqrt(n_resamples)``: the Monte Carlo converges to the exact law at that rate.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    P, N : int >= 1
        Positives and negatives in the test set.
    n_resamples : int >= 1
        Number of random rankings simulated.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Randomness, normalised by ``check_rng``.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    law = null_cdf(metric, P, N, max_points=400)
    scores = np.sort(simulate_null(metric, P, N, n_resamples, rng=rng))
    emp = np.searchsorted(scores, law.values + 1e-12, side="right") / scores.size
    ax = get_axes(ax, figsize=(6.4, 4.6))
    ax.step(law.values, law.cdf, where="post", color="k", linewidth=2, label="exact")
    ax.step(law.values, emp, where="post", color="C1", linewidth=1.2, label=f"Monte Carlo, {n_resamples:,} rankings")
    dist = float(np.max(np.abs(emp - law.cdf)))
    ax.set_title(f"{_LABELS[metric]}, P={P}, N={N}: max |F_mc - F| = {dist:.4f} "
                 f"(1/sqrt(reps) = {1 / np.sqrt(n_resamples):.4f})", fontsize=9)
    ax.set_xlabel("score")
    ax.set_ylabel("CDF")
    ax.legend(fontsize=8, loc="lower right")
    return ax


def _tail_levels(Cs: Sequence[int], alpha: float) -> list[tuple[int, float]]:
    return [(int(C), tail_probability(int(C), alpha)) for C in Cs]


def plot_null_tail(metric: str, P: int = 10, N: int = 1000, *, Cs: Sequence[int] = (10, 100, 1000),
                   alpha: float = 0.01, ax=None):
    """The upper tail that defines the critical value: ``1 - F(x)`` on a log axis.

    ``m*`` is the smallest attainable score whose tail ``P(score > m*)`` is at most
    ``1 - (1 - alpha)^(1/C)`` (about ``alpha / C``). On a linear CDF plot that level is
    indistinguishable from 1; on a log axis each ``C`` is a horizontal line (dotted) and
    its critical value (marker, on that line) the first attainable score whose tail
    lies below it. The x-axis spans
    the attainable scores of this metric (best accuracy at P = 10, N = 1000 lives
    between 0.990 and 1).

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    P, N : int >= 1, default 10 and 1000
        Positives and negatives in the test set.
    Cs : sequence of int >= 1, default (10, 100, 1000)
        The numbers of competing classifiers marked.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    Forman & Cohen (2005), *Beware the Null Hypothesis*, section 2 (``F(m*)^C = 1 - alpha``)
    and Figure 1 (the CDFs at P = 10, N = 1000, redrawn here as tails).

    Examples
    --------
    The marker for C = 1000 at P = N = 10 sits at the paper's "95%" best accuracy:

    >>> from evallib.onetestset import plot_null_tail
    >>> ax = plot_null_tail("accuracy", 10, 10, Cs=(1000,))
    >>> float(ax.get_lines()[-1].get_xdata()[0])
    0.95
    """
    alpha = check_alpha(alpha)
    metric = check_choice(metric, "metric", METRICS)
    ax = get_axes(ax, figsize=(6.4, 4.6))
    law = null_cdf(metric, P, N, max_points=_f1_points(P, N))
    keep = law.sf > 0
    ax.step(law.values[keep], law.sf[keep], where="post", color="k", linewidth=1.5,
            label="P(score > x), one random ranking")
    markers = "ovsD^"
    for i, (C, tail) in enumerate(_tail_levels(Cs, alpha)):
        m = critical_value(metric, P, N, C=C, alpha=alpha)
        ax.axhline(tail, color=f"C{i}", linestyle=":", linewidth=1.2)
        ax.plot([m], [tail], markers[i % len(markers)], color=f"C{i}", markersize=7,
                markerfacecolor="white", zorder=3, label=f"C={C}: tail {tail:.1e}, m* = {m:.4g}")
    ax.set_yscale("log")
    lo = min(t for _, t in _tail_levels(Cs, alpha))
    ax.set_ylim(lo / 30, 1.5)
    span = law.values[-1] - law.values[0]
    ax.set_xlim(law.values[0] - 0.02 * span, law.values[-1] + 0.02 * span)
    ax.set_xlabel(f"{_LABELS[metric]} of one random ranking")
    ax.set_ylabel("1 - F(x) = P(score > x)")
    ax.set_title(f"{_LABELS[metric]}, P={P}, N={N}, alpha={alpha:g}", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    return ax


@dataclass(frozen=True, eq=False)
class McTailCurves:
    """Exact and Monte Carlo upper tails of one metric, at several sample sizes.

    Attributes
    ----------
    metric : str
    P, N : int
    values : numpy.ndarray
        Attainable scores (all of them, or at most ``max_points`` spread over the range).
    exact_sf : numpy.ndarray
        ``P(score > x)`` of one random ranking at ``values``.
    mc_sf : dict of int to numpy.ndarray
        For each sample size ``r`` of ``n_resamples``: the share of the sample's first ``r`` rankings
        scoring above each of ``values``.
    """

    metric: str
    P: int
    N: int
    values: np.ndarray
    exact_sf: np.ndarray
    mc_sf: dict

    def __post_init__(self) -> None:
        freeze_arrays(self)


@renamed_keywords(reps="n_resamples")
def mc_tail_curves(metric: str, P: int, N: int, n_resamples: Sequence[int], *, rng=None,
                   max_points: int = 600) -> McTailCurves:
    """The tails :func:`plot_mc_tail` draws, for every sample size in ``n_resamples`` at once.

    One sample of ``max(n_resamples)`` random rankings is drawn (:func:`evallib.onetestset.simulate_null`);
    the Monte Carlo tail for a size ``r`` uses its first ``r`` rankings, so the curves for
    growing ``r`` are one sample growing, as a reader moving a slider expects, and a
    slider over ``n_resamples`` only redraws.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
    P, N : int >= 1
    n_resamples : sequence of int >= 1
        Sample sizes.
    rng : None, int, SeedSequence or numpy.random.Generator
    max_points : int >= 2
        At most this many attainable values are kept (evenly spread over the list of
        attainable values, the first and last included); each curve is exact at them.

    Returns
    -------
    McTailCurves
    """
    metric = check_choice(metric, "metric", METRICS)
    sizes = sorted({check_count(r, "n_resamples", minimum=1) for r in np.atleast_1d(n_resamples).tolist()})
    if not sizes:
        raise ValueError("n_resamples must list at least one sample size")
    max_points = check_count(max_points, "max_points", minimum=2)
    law = null_cdf(metric, P, N, max_points=400)
    keep = np.unique(np.linspace(0, law.values.size - 1, min(max_points, law.values.size)).round().astype(int))
    values, exact = law.values[keep], law.sf[keep]
    scores = simulate_null(metric, P, N, sizes[-1], rng=rng)
    # index of the first kept value at or above each score: score <= values[j] iff idx <= j
    idx = np.searchsorted(values + 1e-12, scores, side="left")
    mc = {}
    for r in sizes:
        below = np.cumsum(np.bincount(idx[:r], minlength=values.size + 1)[:values.size])
        mc[r] = 1.0 - below / r
    return McTailCurves(metric=metric, P=int(P), N=int(N), values=values, exact_sf=exact, mc_sf=mc)


@renamed_keywords(reps="n_resamples")
def plot_mc_tail(metric: str, P: int, N: int, n_resamples: int, *, C: int = 1000, alpha: float = 0.01,
                 rng=None, ax=None):
    """The Monte Carlo tail of ``n_resamples`` random rankings over the exact tail, log axis.

    The empirical ``P(score > x)`` cannot go below ``1 / n_resamples`` (one ranking); the level
    ``1 - (1 - alpha)^(1/C)`` that defines ``m*`` (dotted) is only within its reach when
    ``n_resamples`` times that level is well above 1, which the title reports as the expected
    number of rankings beyond ``m*``.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        The metric.
    P, N : int >= 1
        Positives and negatives in the test set.
    n_resamples : int >= 1
        Number of random rankings simulated.
    C : int >= 1, default 1000
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
        The level of the test of the winner.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Randomness, normalised by ``check_rng``.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    Forman & Cohen (2005), Tables 2 and 3: ``R = 1000 / (1 - (1 - alpha)^(1/C))``
    rankings put 1000 of them beyond ``m*``.
    """
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    metric = check_choice(metric, "metric", METRICS)
    curves = mc_tail_curves(metric, P, N, [n_resamples], rng=rng)
    values, exact_sf, emp_sf = curves.values, curves.exact_sf, curves.mc_sf[n_resamples]
    ax = get_axes(ax, figsize=(6.4, 4.6))
    keep = exact_sf > 0
    ax.step(values[keep], exact_sf[keep], where="post", color="k", linewidth=2, label="exact")
    seen = emp_sf > 0
    ax.step(values[seen], emp_sf[seen], where="post", color="C1", linewidth=1.2,
            label=f"Monte Carlo, {n_resamples:,} rankings")
    tail = tail_probability(C, alpha)
    ax.axhline(tail, color="C2", linestyle=":", linewidth=1.2, label=f"level defining m*, C={C}")
    ax.axhline(1.0 / n_resamples, color="C1", linestyle="--", linewidth=0.8, label="1 / reps (one ranking)")
    ax.set_yscale("log")
    ax.set_ylim(min(tail, 1.0 / n_resamples) / 30, 1.5)
    ax.set_xlabel(f"{_LABELS[metric]} of one random ranking")
    ax.set_ylabel("P(score > x)")
    ax.set_title(f"{_LABELS[metric]}, P={P}, N={N}: expected rankings beyond m* = reps x tail = "
                 f"{n_resamples * tail:.3g}", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    return ax
