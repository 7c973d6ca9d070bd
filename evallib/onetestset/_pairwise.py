"""Every pair of k classifiers on one test set: McNemar's test and a paired interval per pair,
adjusted for multiplicity (Berrar & Lozano 2013, section 7 and Table 2; the adjustments are
:mod:`evallib._multitest`'s), as a table (:func:`pairwise_table`, :func:`compare_pairwise`),
formatted (:func:`format_table`) and drawn (:func:`plot_intervals`, Figure 4).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._format import pvalue_cell
from .._multitest import ADJUSTMENTS, FDR_ADJUSTMENTS, adjusted_alphas, holm_alphas, rejections  # re-exported: the menu of every pairwise table
from .._paired import _qh_bounds
from .._plotting import get_axes
from .._results import table_metadata
from .._validate import (
    align_columns,
    check_alpha,
    check_choice,
    check_count,
)
from ._mcnemar import _check_predictions, mcnemar

__all__ = ['ADJUSTMENTS', 'FDR_ADJUSTMENTS', 'adjusted_alphas', 'holm_alphas', 'pairwise_table', 'compare_pairwise', 'format_table', 'pair_label', 'plot_intervals']


# ----------------------------------------------------------------------- Table 2
TABLE_COLUMNS = [
    "pair", "b", "c", "n", "estimate", "statistic", "pvalue", "pvalue_exact", "alpha_adj", "chi2_crit",
    "low", "high", "ci_adj_low", "ci_adj_high", "reject",
]


def pairwise_table(
    counts: Mapping[tuple[Hashable, Hashable], tuple[int, int]],
    n: int,
    *,
    alpha: float = 0.05,
    adjust: str = "holm",
) -> pd.DataFrame:
    """Table 2 of the paper from the discordant counts of every pair.

    Parameters
    ----------
    counts : mapping ``{(i, j): (b, c)}``
        For each pair, ``b`` = errors of model ``i`` only and ``c`` = errors of
        model ``j`` only.
    n : int
        Test-set size (the same for all pairs); ``b + c <= n``.
    alpha : float
        Family-wise level (false discovery rate for ``"bh"``/``"by"``), in (0, 1).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        How the per-comparison levels are adjusted for the ``m`` comparisons
        (:func:`adjusted_alphas`). ``"bh"`` and ``"by"`` control the false discovery
        rate, not the family-wise error rate.

    Returns
    -------
    pandas.DataFrame
        One row per pair, ranked as Table 2 (decreasing McNemar X^2, i.e.
        increasing p; ties keep the input order), columns:

        ``pair`` (the key), ``b``, ``c``, ``n``, ``estimate`` (``|b - c|/n``),
        ``statistic`` (McNemar's X^2, eq. 2 with Yates' correction), ``pvalue`` (its
        p-value), ``pvalue_exact`` (exact binomial test), ``alpha_adj`` (Holm/Bonferroni/BH/BY/unadjusted level,
        Table 2's alpha column), ``chi2_crit`` (its chi-square critical value,
        Table 2's chi^2 column), ``low``/``high`` (the unadjusted
        ``1 - alpha`` interval of eqs. 4-5), ``ci_adj_low``/``ci_adj_high`` (the
        same at level ``alpha_adj``, Figure 4's wider intervals) and ``reject``
        (the test's decision; Holm's step-down stops at the first non-rejection,
        BH's and BY's step-up rejects every rank up to the last p-value at or below
        its level). ``attrs`` hold ``alpha``, ``adjust``, ``n`` and
        ``interval_adjust``, the adjustment of ``ci_adj_low``/``ci_adj_high``.

    Notes
    -----
    The false discovery rate is a property of the set of rejections; no joint
    confidence intervals correspond to it (Benjamini & Yekutieli 2005 give intervals
    for the *selected* comparisons that control the false coverage-statement rate,
    a different promise). Under ``"bh"`` and ``"by"`` the columns
    ``ci_adj_low``/``ci_adj_high`` therefore hold the **unadjusted** ``1 - alpha``
    intervals, ``attrs["interval_adjust"]`` is ``"none"``, and :func:`format_table`
    and :func:`plot_intervals` label them as unadjusted. Under ``"holm"``,
    ``"bonferroni"`` and ``"none"``, ``attrs["interval_adjust"]`` is ``adjust``.

    References
    ----------
    .. [1] Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate: a
       practical and powerful approach to multiple testing. *JRSS B* 57, 289-300.
    .. [2] Benjamini, Y. & Yekutieli, D. (2001). The control of the false discovery rate
       in multiple testing under dependency. *Annals of Statistics* 29, 1165-1188.
    .. [3] Benjamini, Y. & Yekutieli, D. (2005). False discovery rate-adjusted multiple
       confidence intervals for selected parameters. *JASA* 100, 71-81.
    """
    if not isinstance(counts, Mapping) or len(counts) == 0:
        raise ValueError("counts must be a non-empty mapping {(i, j): (b, c)}")
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    rows = []
    for pair, value in counts.items():
        try:
            b, c = value
        except (TypeError, ValueError):
            raise TypeError(f"counts[{pair!r}] must be a pair (b, c), got {value!r}") from None
        b, c = check_count(b, f"b of pair {pair!r}"), check_count(c, f"c of pair {pair!r}")
        if b + c > n:
            raise ValueError(f"b + c must not exceed n for pair {pair!r}: {b} + {c} > {n}")
        test = mcnemar(b, c, method="chi2-yates")
        rows.append(
            {
                "pair": pair, "b": b, "c": c, "n": n, "estimate": abs(b - c) / n,
                "statistic": test.statistic, "pvalue": test.pvalue,
                "pvalue_exact": mcnemar(b, c, method="exact").pvalue,
            }
        )
    table = pd.DataFrame(rows)
    table = table.sort_values("pvalue", kind="stable").reset_index(drop=True)
    p = table["pvalue"].to_numpy()
    levels = adjusted_alphas(p, alpha, adjust)
    crit = stats.chi2.isf(levels, df=1)
    crit0 = float(stats.chi2.isf(alpha, df=1))
    b_arr, c_arr = table["b"].to_numpy(), table["c"].to_numpy()
    low, high, _, _ = _qh_bounds(b_arr, c_arr, n, crit0, signed=False)
    fdr = adjust in FDR_ADJUSTMENTS   # no joint intervals: the unadjusted ones, so labelled
    alow, ahigh, _, _ = _qh_bounds(b_arr, c_arr, n, crit0 if fdr else crit, signed=False)
    table["alpha_adj"] = levels
    table["chi2_crit"] = crit
    table["low"], table["high"] = low, high
    table["ci_adj_low"], table["ci_adj_high"] = alow, ahigh
    table["reject"] = rejections(p, levels, adjust)
    table.attrs.update(alpha=alpha, adjust=adjust, n=n, interval_adjust="none" if fdr else adjust)
    return table[TABLE_COLUMNS]


def compare_pairwise(
    y_true: Sequence[Any],
    predictions: Mapping[Hashable, Sequence[Any]],
    *,
    alpha: float = 0.05,
    adjust: str = "holm",
) -> pd.DataFrame:
    """Table 2 from predictions: every pair of classifiers on one test set.

    Parameters
    ----------
    y_true : sequence of labels
        True classes of the test cases (a binary task).
    predictions : mapping ``{name: labels}``
        At least two classifiers, each predicting every test case. Pairs are
        ``(i, j)`` with ``i`` before ``j`` in the mapping's order.
    alpha, adjust
        As in :func:`pairwise_table` (``adjust`` one of :data:`ADJUSTMENTS`: ``"bh"`` and
        ``"by"`` control the false discovery rate and leave the intervals unadjusted).

    Returns
    -------
    pandas.DataFrame
        As :func:`pairwise_table`, plus the attribute ``attrs["error_rates"]``
        (a dict of each classifier's observed error rate).
    """
    if not isinstance(predictions, Mapping):
        raise TypeError("predictions must be a mapping {name: predicted labels}")
    if len(predictions) < 2:
        raise ValueError(f"predictions must hold at least two classifiers to compare, got {len(predictions)}")
    (y_true,), predictions = align_columns([("y_true", y_true)], predictions, "predictions")
    y, preds = _check_predictions(y_true, predictions)
    wrong = {name: p != y for name, p in preds.items()}
    counts = {
        (i, j): (int(np.sum(wrong[i] & ~wrong[j])), int(np.sum(~wrong[i] & wrong[j])))
        for i, j in combinations(preds, 2)
    }
    table = pairwise_table(counts, int(y.shape[0]), alpha=alpha, adjust=adjust)
    table.attrs["error_rates"] = {name: float(w.mean()) for name, w in wrong.items()}
    return table


def pair_label(pair: Any) -> str:
    """``(1, 4)`` for a pair key, with numpy scalars shown as plain numbers.

    Parameters
    ----------
    pair : tuple or scalar
        A pair key (a tuple of the two names), or any other key.

    Returns
    -------
    str
        ``"(a, b)"`` for a tuple, ``str(pair)`` otherwise.
    """
    if isinstance(pair, tuple):
        return "(" + ", ".join(str(v.item() if isinstance(v, np.generic) else v) for v in pair) + ")"
    return str(pair)


def _adjusted_ci_label(table: pd.DataFrame) -> str:
    """The column name of the adjusted intervals: says so when they are not adjusted (BH, BY)."""
    if table_metadata(table, "adjust", made_by="pairwise_table or compare_pairwise") in FDR_ADJUSTMENTS:
        return "CI (unadjusted: FDR has no joint CI)"
    return "adjusted CI"


def format_table(table: pd.DataFrame) -> pd.DataFrame:
    """A readable copy of a :func:`pairwise_table` result, as the paper prints it.

    X^2 and the critical value to one decimal, p-values to two significant digits,
    levels to three decimals, intervals as ``[low, high]`` to two decimals.
    Under ``adjust="bh"`` or ``"by"`` the column ``"adjusted CI"`` is named
    ``"CI (unadjusted: FDR has no joint CI)"``: it holds the unadjusted intervals.

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`pairwise_table` or :func:`compare_pairwise` returned.

    Returns
    -------
    pandas.DataFrame
        Strings indexed by pair, under the paper's headers; the numbers are unchanged
        in ``table``.
    """

    def interval(lo, hi):
        return [f"[{a:+.2f}, {b:+.2f}]" for a, b in zip(lo, hi)]

    out = pd.DataFrame(
        {
            "b": table["b"].astype(int),
            "c": table["c"].astype(int),
            "X2": table["statistic"].map(lambda v: f"{v:.1f}"),
            "p": table["pvalue"].map(pvalue_cell),
            "exact p": table["pvalue_exact"].map(pvalue_cell),
            "alpha": table["alpha_adj"].map(lambda v: f"{v:.3f}"),
            "chi2 crit": table["chi2_crit"].map(lambda v: f"{v:.1f}"),
            "|pb - pc|": table["estimate"].map(lambda v: f"{v:.2f}"),
            "CI": interval(table["low"], table["high"]),
            _adjusted_ci_label(table): interval(table["ci_adj_low"], table["ci_adj_high"]),
            "reject H0": table["reject"].map({True: "yes", False: "no"}),
        }
    )
    out.index = pd.Index([pair_label(p) for p in table["pair"]], name="pair")
    return out


# ---------------------------------------------------------------------- Figure 4
def plot_intervals(table: pd.DataFrame, ax=None, *, title: str | None = None):
    """Figure 4: per pair the unadjusted and the adjusted interval, and the null line.

    The adjusted intervals use each comparison's level from :func:`adjusted_alphas`.
    Bonferroni's (each at ``alpha/m``) hold jointly with probability at least
    ``1 - alpha`` (the union bound); Holm's step-down levels control the tests'
    family-wise error but give the intervals no joint coverage (the last-ranked
    comparison is at ``alpha`` itself), and the default title says so. Under BH and BY
    (false discovery rate) the grey intervals are the unadjusted ones (see
    :func:`pairwise_table`), and the title and legend say so.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`pairwise_table` or :func:`compare_pairwise`; pairs are
        drawn in its row order.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    missing = {"pair", "estimate", "low", "high", "ci_adj_low", "ci_adj_high"} - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with pairwise_table()")
    level, adjust = table_metadata(table, "alpha", "adjust", made_by="pairwise_table or compare_pairwise")
    ax = get_axes(ax, figsize=(7, 3.6))
    x = np.arange(len(table))
    fdr = adjust in FDR_ADJUSTMENTS
    ax.vlines(x, table["ci_adj_low"], table["ci_adj_high"], colors="0.55", linewidth=1.2,
              label="unadjusted interval (no FDR interval)" if fdr else "adjusted interval")
    ax.hlines(np.r_[table["ci_adj_low"], table["ci_adj_high"]], np.r_[x, x] - 0.12, np.r_[x, x] + 0.12,
              colors="0.55", linewidth=1.2)
    ax.vlines(x, table["low"], table["high"], colors="C0", linewidth=4, label="unadjusted interval")
    ax.plot(x, table["estimate"], "o", color="k", markersize=4, label=r"observed $|p_b - p_c|$")
    ax.axhline(0.0, color="C3", linewidth=1, linestyle="--", label="null value")
    ax.set_xticks(x)
    # ten pairs' labels fit side by side; rotated text is slower to draw and harder to read
    ax.set_xticklabels([pair_label(p) for p in table["pair"]], rotation=45 if len(table) > 12 else 0,
                       fontsize="small")
    ax.set_xlabel("pair (i, j)")
    ax.set_ylabel("difference in error rate")
    pct = f"{100 * (1 - level):g}% "
    joint = {"holm": "; Holm levels give no joint coverage", "bonferroni": "; jointly valid"}.get(adjust, "")
    if adjust in FDR_ADJUSTMENTS:
        default = (f"{pct}Quesenberry–Hurst intervals ({adjust.upper()} controls the false discovery "
                   "rate; no joint intervals: grey = unadjusted)")
    else:
        default = f"{pct}Quesenberry–Hurst intervals (wider: {adjust} adjustment{joint})"
    ax.set_title(title or default)
    # beside the axes: "best" can still sit on an interval, and searching for it is slow to draw
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), fontsize="small", frameon=False)
    return ax
