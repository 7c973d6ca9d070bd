"""Pairwise comparison of fully specified classifiers on one test set.

The methods of Berrar & Lozano (2013), *Significance tests or confidence intervals:
which are preferable for the comparison of classifiers?* (J. Exp. Theor. AI):

* Table 1 -- the 2x2 table of joint errors of two models (:func:`contingency`);
* eq. (2) -- McNemar's test, with Yates' correction or as the exact binomial
  (sign) test (:func:`mcnemar`);
* eqs. (4)-(5) -- the Quesenberry-Hurst / May-Johnson confidence interval for the
  difference of two correlated error rates (:func:`qh_interval`);
* section 7 -- Holm's step-down adjustment, applied to the tests and to the
  intervals (:func:`holm_alphas`, :func:`pairwise_table`);
* Table 2 and Figure 4 (:func:`pairwise_table`, :func:`compare_pairwise`,
  :func:`plot_intervals`).

Notation follows the paper: for models A and B on ``n`` test cases, ``a`` cases are
misclassified by neither, ``b`` by A only, ``c`` by B only and ``d`` by both;
``p_b = b/n`` and ``p_c = c/n``. The observed error rates are ``(b+d)/n`` and
``(c+d)/n``, so their difference is ``(b - c)/n``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ._plotting import get_axes
from ._validate import check_alpha, check_choice, check_count, check_labels, check_rng

__all__ = [
    "Contingency",
    "McNemarResult",
    "QHInterval",
    "contingency",
    "mcnemar",
    "qh_interval",
    "qh_coverage",
    "holm_alphas",
    "adjusted_alphas",
    "pairwise_table",
    "compare_pairwise",
    "format_table",
    "pair_label",
    "plot_intervals",
    "plot_pvalue_vs_interval",
    "describe_comparison",
    "ADJUSTMENTS",
]

ADJUSTMENTS = ("holm", "bonferroni", "none")


# --------------------------------------------------------------------------- Table 1
@dataclass(frozen=True)
class Contingency:
    """The paper's Table 1: joint errors of models A and B on one test set.

    Attributes
    ----------
    a : cases misclassified by neither model.
    b : cases misclassified by A but not by B.
    c : cases misclassified by B but not by A.
    d : cases misclassified by both.
    n : number of test cases, ``a + b + c + d``.
    """

    a: int
    b: int
    c: int
    d: int
    n: int

    @property
    def error_a(self) -> float:
        """Observed error rate of A, ``(b + d) / n``."""
        return (self.b + self.d) / self.n

    @property
    def error_b(self) -> float:
        """Observed error rate of B, ``(c + d) / n``."""
        return (self.c + self.d) / self.n


def _check_predictions(
    y_true: Any, preds: Mapping[Hashable, Any], *, keys_are_argnames: bool = False
) -> tuple[np.ndarray, dict]:
    """Validate true labels and a mapping of predictions; return arrays.

    Error messages name ``predictions[name]``, or the key itself when the keys are
    the caller's argument names (``pred_a``, ``pred_b``).
    """
    y = check_labels(y_true, "y_true")
    classes = np.unique(y)
    if classes.size > 2:
        raise ValueError(
            f"y_true must hold at most two classes (a binary task), found {classes.size}: "
            f"{classes[:5].tolist()}"
        )
    out = {}
    for name, pred in preds.items():
        label = str(name) if keys_are_argnames else f"predictions[{name!r}]"
        p = check_labels(pred, label)
        if p.shape[0] != y.shape[0]:
            raise ValueError(
                f"{label} has {p.shape[0]} labels but y_true has {y.shape[0]}; "
                "every classifier must predict every test case"
            )
        unknown = np.setdiff1d(np.unique(p), classes)
        if unknown.size and classes.size == 2:
            raise ValueError(
                f"{label} contains labels {unknown[:5].tolist()} that are not among "
                f"y_true's two classes {classes.tolist()}"
            )
        if unknown.size and unknown.size + classes.size > 2:
            raise ValueError(
                f"{label} contains labels {unknown[:5].tolist()}; together with y_true's "
                f"{classes.tolist()} that is more than two classes"
            )
        out[name] = p
    return y, out


def contingency(y_true: Sequence[Any], pred_a: Sequence[Any], pred_b: Sequence[Any]) -> Contingency:
    """Count the joint errors of two classifiers on the same test set (Table 1).

    Parameters
    ----------
    y_true : sequence of labels
        The true classes of the ``n`` test cases; at most two distinct labels.
    pred_a, pred_b : sequence of labels
        The predictions of models A and B, same length as ``y_true``, with labels
        taken from ``y_true``'s classes.

    Returns
    -------
    Contingency
        ``a`` (neither wrong), ``b`` (A only wrong), ``c`` (B only wrong),
        ``d`` (both wrong) and ``n``.

    Raises
    ------
    ValueError
        On arrays of different lengths, empty input, NaN/None labels, more than two
        classes, or predicted labels outside ``y_true``'s classes.
    """
    y, preds = _check_predictions(y_true, {"pred_a": pred_a, "pred_b": pred_b}, keys_are_argnames=True)
    wrong_a = preds["pred_a"] != y
    wrong_b = preds["pred_b"] != y
    b = int(np.sum(wrong_a & ~wrong_b))
    c = int(np.sum(~wrong_a & wrong_b))
    d = int(np.sum(wrong_a & wrong_b))
    n = int(y.shape[0])
    return Contingency(a=n - b - c - d, b=b, c=c, d=d, n=n)


# ----------------------------------------------------------------------- eq. (2)
@dataclass(frozen=True)
class McNemarResult:
    """Result of McNemar's test.

    Attributes
    ----------
    statistic : X^2 of eq. (2) (chi-square methods) or ``min(b, c)`` (exact method).
    pvalue : two-sided p-value.
    method : ``"chi2-yates"``, ``"chi2"`` or ``"exact"``.
    """

    statistic: float
    pvalue: float
    method: str


def _check_bc(b: Any, c: Any) -> tuple[int, int]:
    return check_count(b, "b"), check_count(c, "c")


def mcnemar(b: int, c: int, *, correction: bool = True, exact: bool = False) -> McNemarResult:
    """McNemar's test for two classifiers on the same test set, eq. (2).

    ``X^2 = (|b - c| - 1)^2 / (b + c)`` with Yates' continuity correction (the
    paper's choice, ``correction=True``) or ``(b - c)^2 / (b + c)`` without it,
    referred to the chi-square distribution with one degree of freedom. With
    ``exact=True`` the exact binomial version (the sign test, Sheskin 2007):
    under H0 ``b ~ Binomial(b + c, 1/2)`` and the two-sided p-value is
    ``min(1, 2 P(X <= min(b, c)))``.

    Parameters
    ----------
    b, c : int
        Discordant counts of Table 1 (errors of A only, errors of B only), >= 0.
    correction : bool
        Apply Yates' correction (ignored when ``exact``).
    exact : bool
        Use the exact binomial test instead of the chi-square approximation.

    Returns
    -------
    McNemarResult

    Notes
    -----
    Degenerate input: with ``b + c = 0`` the models never disagree, there is no
    evidence of a difference, and the result is ``statistic = 0, pvalue = 1``.
    With the correction, ``|b - c| - 1`` is floored at 0, so ``b = c`` gives
    ``X^2 = 0`` and ``p = 1`` (the unfloored formula would give ``1/(b + c)``;
    statsmodels' ``mcnemar`` does that, which differs only when ``b = c``).

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
       proportions or percentages. *Psychometrika*, 12(2), 153-157.

    Examples
    --------
    Table 2's first row, models 1 and 4 (b = 3, c = 21): printed X2 = 12.0 and exact p = 2.8e-4.

    >>> from evallib import mcnemar
    >>> round(mcnemar(3, 21).statistic, 1)
    12.0
    >>> f"{mcnemar(3, 21, exact=True).pvalue:.1e}"
    '2.8e-04'
    """
    b, c = _check_bc(b, c)
    m = b + c
    if exact:
        if m == 0:
            return McNemarResult(0.0, 1.0, "exact")
        k = min(b, c)
        p = min(1.0, 2.0 * float(stats.binom.cdf(k, m, 0.5)))
        return McNemarResult(float(k), p, "exact")
    method = "chi2-yates" if correction else "chi2"
    if m == 0:
        return McNemarResult(0.0, 1.0, method)
    diff = abs(b - c)
    if correction:
        diff = max(diff - 1, 0)
    x2 = diff * diff / m
    return McNemarResult(float(x2), float(stats.chi2.sf(x2, df=1)), method)


# ------------------------------------------------------------------ eqs. (4)-(5)
@dataclass(frozen=True)
class QHInterval:
    """A Quesenberry-Hurst / May-Johnson confidence interval, eqs. (4)-(5).

    Attributes
    ----------
    low, high : the bounds delta_LB and delta_UB.
    centre : ``n * D / (n + chi2)``, the midpoint of the interval, where ``D`` is
        the estimate (the observed difference shrunk towards 0).
    estimate : the observed difference, ``|p_b - p_c|`` (or ``p_b - p_c`` if signed).
    alpha : the level; the interval has nominal coverage ``1 - alpha``.
    chi2_crit : the chi-square critical value with 1 df used.
    """

    low: float
    high: float
    centre: float
    estimate: float
    alpha: float
    chi2_crit: float

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    def contains(self, value: float = 0.0) -> bool:
        """Whether ``value`` (by default the null value 0) lies in the interval."""
        return self.low <= value <= self.high


def _qh_bounds(b, c, n, crit, signed: bool):
    """Vectorised eqs. (4)-(5): returns (low, high, centre, estimate)."""
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    n = np.asarray(n, dtype=float)
    pb, pc = b / n, c / n
    est = (pb - pc) if signed else np.abs(pb - pc)
    denom = n + crit
    centre = n * est / denom
    radicand = crit * ((pb + pc) * denom - n * (pb - pc) ** 2)
    half = np.sqrt(np.maximum(radicand, 0.0)) / denom  # >= 0 exactly; guard rounding
    return centre - half, centre + half, centre, est


def qh_interval(b: int, c: int, n: int, *, alpha: float = 0.05, signed: bool = False) -> QHInterval:
    """Confidence interval for the difference of two correlated error rates.

    Eqs. (4)-(5) of Berrar & Lozano (derived in their appendix, eqs. A1-A3, after
    Quesenberry & Hurst 1964 and May & Johnson 1997): with ``chi2`` the
    ``1 - alpha`` quantile of the chi-square distribution with 1 df,

    ``delta = n|p_b - p_c|/(n + chi2) -/+ sqrt(chi2 [(p_b + p_c)(n + chi2) - n (p_b - p_c)^2]) / (n + chi2)``.

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Number of test cases, ``n >= 1`` and ``b + c <= n``.
    alpha : float
        In (0, 1); the interval has nominal coverage ``1 - alpha``.
    signed : bool
        ``False`` (the paper): the interval for the effect size
        ``|tau_A - tau_B|`` centred on ``n|p_b - p_c|/(n + chi2)``. ``True``: the
        same interval for ``tau_A - tau_B`` with its sign kept (centre
        ``n(p_b - p_c)/(n + chi2)``, same half-width), positive when A makes more
        errors.

    Returns
    -------
    QHInterval
        ``low``, ``high``, ``centre``, ``estimate``, ``alpha``, ``chi2_crit``.

    Notes
    -----
    The lower bound can be negative: the interval then contains the null value and
    the difference is not significant at level ``alpha``. With ``b + c = 0`` the
    formula gives the degenerate interval ``[0, 0]`` (the radicand vanishes): the
    models never disagreed, so the plug-in variance is zero. This is the method's
    documented answer, not a claim of certainty; see the notebook for its coverage.
    """
    b, c = _check_bc(b, c)
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n: got b + c = {b + c} > n = {n}")
    alpha = check_alpha(alpha)
    crit = float(stats.chi2.isf(alpha, df=1))
    low, high, centre, est = _qh_bounds(b, c, n, crit, signed)
    return QHInterval(float(low), float(high), float(centre), float(est), alpha, crit)


def qh_coverage(
    pi_b: float,
    pi_c: float,
    n: int,
    *,
    alpha: float = 0.05,
    reps: int = 10_000,
    rng: Any = None,
) -> float:
    """Monte Carlo coverage of the interval of eqs. (4)-(5).

    Draws ``reps`` test sets of size ``n`` from the multinomial with cell
    probabilities ``(1 - pi_b - pi_c, pi_b, pi_c)`` (a and d pooled: they do not
    enter the interval) and returns the share of intervals that contain the true
    effect size ``|pi_b - pi_c|``, as May & Johnson (1997) studied.

    Parameters
    ----------
    pi_b, pi_c : float
        True discordance probabilities, each in [0, 1] with ``pi_b + pi_c <= 1``.
    n : int
        Test-set size, >= 1.
    alpha : float
        In (0, 1).
    reps : int
        Number of simulated test sets, >= 1.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The source of randomness (seed it for reproducibility).
    """
    for name, v in (("pi_b", pi_b), ("pi_c", pi_c)):
        if not isinstance(v, (int, float, np.floating, np.integer)) or not (0.0 <= float(v) <= 1.0):
            raise ValueError(f"{name} must be a probability in [0, 1], got {v!r}")
    if pi_b + pi_c > 1.0:
        raise ValueError(f"pi_b + pi_c must not exceed 1, got {pi_b + pi_c}")
    n = check_count(n, "n", minimum=1)
    reps = check_count(reps, "reps", minimum=1)
    alpha = check_alpha(alpha)
    rng = check_rng(rng)
    crit = float(stats.chi2.isf(alpha, df=1))
    draws = rng.multinomial(n, [max(0.0, 1.0 - pi_b - pi_c), pi_b, pi_c], size=reps)
    low, high, _, _ = _qh_bounds(draws[:, 1], draws[:, 2], n, crit, signed=False)
    truth = abs(pi_b - pi_c)
    return float(np.mean((low <= truth) & (truth <= high)))


# ------------------------------------------------------------ Holm (section 7)
def _check_pvalues(pvalues: Any) -> np.ndarray:
    try:
        p = np.asarray(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("pvalues must be a sequence of numbers in [0, 1]") from None
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"pvalues must be a non-empty one-dimensional sequence, got shape {p.shape}")
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("pvalues must all lie in [0, 1] (no NaN)")
    return p


def holm_alphas(pvalues: Sequence[float], alpha: float = 0.05) -> np.ndarray:
    """Holm-adjusted significance level of each comparison (Table 2's alpha column).

    Holm (1979): sort the ``m`` p-values in increasing order; the comparison of
    rank ``i`` (1-based) is tested at ``alpha / (m - i + 1)``, i.e. the smallest
    p-value at ``alpha/m``, the next at ``alpha/(m - 1)``, ... (the paper: "each time
    with a decrement of n by 1"). The step-down procedure rejects ranks
    ``1..k`` where ``k`` is the last rank before the first p-value above its level.

    Parameters
    ----------
    pvalues : sequence of float
        The unadjusted p-values, in [0, 1].
    alpha : float
        Family-wise error rate, in (0, 1).

    Returns
    -------
    numpy.ndarray
        The level of each comparison, in the order of ``pvalues``. Ties are ranked
        by their position (a stable sort).

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       *Scandinavian Journal of Statistics*, 6(2), 65-70.

    Examples
    --------
    Table 2's alpha column from its printed p-values: 0.005, 0.006, 0.006, 0.007, 0.008, 0.010, ...

    >>> from evallib import holm_alphas
    >>> p = [5.3e-4, 1.1e-3, 2.2e-3, 3.6e-3, 5.8e-3, 8.6e-3, 0.40, 0.48, 0.58, 0.99]
    >>> [round(float(a), 3) for a in holm_alphas(p, 0.05)[:6]]
    [0.005, 0.006, 0.006, 0.007, 0.008, 0.01]
    """
    return adjusted_alphas(pvalues, alpha, "holm")


def adjusted_alphas(pvalues: Sequence[float], alpha: float = 0.05, method: str = "holm") -> np.ndarray:
    """Per-comparison significance levels for ``method`` in ``"holm"``, ``"bonferroni"``, ``"none"``.

    ``"bonferroni"`` gives ``alpha/m`` to every comparison and ``"none"`` gives
    ``alpha``; ``"holm"`` is described in :func:`holm_alphas`.
    """
    p = _check_pvalues(pvalues)
    alpha = check_alpha(alpha)
    method = check_choice(method, "adjust", ADJUSTMENTS)
    m = p.size
    if method == "none":
        return np.full(m, alpha)
    if method == "bonferroni":
        return np.full(m, alpha / m)
    order = np.argsort(p, kind="stable")
    levels = np.empty(m)
    levels[order] = alpha / (m - np.arange(m))
    return levels


def _rejections(p: np.ndarray, levels: np.ndarray, method: str) -> np.ndarray:
    """Reject decisions; Holm stops at the first non-rejection in p order."""
    reject = p <= levels
    if method == "holm":
        order = np.argsort(p, kind="stable")
        cum = np.cumprod(reject[order]).astype(bool)
        out = np.empty_like(reject)
        out[order] = cum
        return out
    return reject


# ----------------------------------------------------------------------- Table 2
TABLE_COLUMNS = [
    "pair", "b", "c", "n", "estimate", "chi2", "p", "p_exact", "alpha_adj", "chi2_crit",
    "ci_low", "ci_high", "ci_adj_low", "ci_adj_high", "reject",
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
        Family-wise level, in (0, 1).
    adjust : {"holm", "bonferroni", "none"}
        How the per-comparison levels are adjusted for the ``m`` comparisons.

    Returns
    -------
    pandas.DataFrame
        One row per pair, ranked as Table 2 (decreasing McNemar X^2, i.e.
        increasing p; ties keep the input order), columns:

        ``pair`` (the key), ``b``, ``c``, ``n``, ``estimate`` (``|b - c|/n``),
        ``chi2`` (eq. 2 with Yates' correction), ``p`` (its p-value), ``p_exact``
        (exact binomial test), ``alpha_adj`` (Holm/Bonferroni/unadjusted level,
        Table 2's alpha column), ``chi2_crit`` (its chi-square critical value,
        Table 2's chi^2 column), ``ci_low``/``ci_high`` (the unadjusted
        ``1 - alpha`` interval of eqs. 4-5), ``ci_adj_low``/``ci_adj_high`` (the
        same at level ``alpha_adj``, Figure 4's wider intervals) and ``reject``
        (the test's decision; Holm's step-down stops at the first non-rejection).
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
        test = mcnemar(b, c, correction=True)
        rows.append(
            {
                "pair": pair, "b": b, "c": c, "n": n, "estimate": abs(b - c) / n,
                "chi2": test.statistic, "p": test.pvalue,
                "p_exact": mcnemar(b, c, exact=True).pvalue,
            }
        )
    table = pd.DataFrame(rows)
    table = table.sort_values("p", kind="stable").reset_index(drop=True)
    p = table["p"].to_numpy()
    levels = adjusted_alphas(p, alpha, adjust)
    crit = stats.chi2.isf(levels, df=1)
    crit0 = float(stats.chi2.isf(alpha, df=1))
    b_arr, c_arr = table["b"].to_numpy(), table["c"].to_numpy()
    low, high, _, _ = _qh_bounds(b_arr, c_arr, n, crit0, signed=False)
    alow, ahigh, _, _ = _qh_bounds(b_arr, c_arr, n, crit, signed=False)
    table["alpha_adj"] = levels
    table["chi2_crit"] = crit
    table["ci_low"], table["ci_high"] = low, high
    table["ci_adj_low"], table["ci_adj_high"] = alow, ahigh
    table["reject"] = _rejections(p, levels, adjust)
    table.attrs.update(alpha=alpha, adjust=adjust, n=n)
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
        As in :func:`pairwise_table`.

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
    """``(1, 4)`` for a pair key, with numpy scalars shown as plain numbers."""
    if isinstance(pair, tuple):
        return "(" + ", ".join(str(v.item() if isinstance(v, np.generic) else v) for v in pair) + ")"
    return str(pair)


def format_table(table: pd.DataFrame) -> pd.DataFrame:
    """A readable copy of a :func:`pairwise_table` result, as the paper prints it.

    X^2 and the critical value to one decimal, p-values to two significant digits,
    levels to three decimals, intervals as ``[low, high]`` to two decimals.
    Returns a DataFrame of strings indexed by pair; the numbers are unchanged in
    ``table``.
    """

    def interval(lo, hi):
        return [f"[{a:+.2f}, {b:+.2f}]" for a, b in zip(lo, hi)]

    out = pd.DataFrame(
        {
            "b": table["b"].astype(int),
            "c": table["c"].astype(int),
            "X2": table["chi2"].map(lambda v: f"{v:.1f}"),
            "p": table["p"].map(lambda v: f"{v:.2g}"),
            "exact p": table["p_exact"].map(lambda v: f"{v:.2g}"),
            "alpha": table["alpha_adj"].map(lambda v: f"{v:.3f}"),
            "chi2 crit": table["chi2_crit"].map(lambda v: f"{v:.1f}"),
            "|pb - pc|": table["estimate"].map(lambda v: f"{v:.2f}"),
            "CI": interval(table["ci_low"], table["ci_high"]),
            "adjusted CI": interval(table["ci_adj_low"], table["ci_adj_high"]),
            "reject H0": table["reject"].map({True: "yes", False: "no"}),
        }
    )
    out.index = pd.Index([pair_label(p) for p in table["pair"]], name="pair")
    return out


# ---------------------------------------------------------------------- Figure 4
def plot_intervals(table: pd.DataFrame, ax=None, *, title: str | None = None):
    """Figure 4: per pair the unadjusted and the adjusted interval, and the null line.

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
    missing = {"pair", "estimate", "ci_low", "ci_high", "ci_adj_low", "ci_adj_high"} - set(table.columns)
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with pairwise_table()")
    ax = get_axes(ax, figsize=(7, 3.6))
    x = np.arange(len(table))
    ax.vlines(x, table["ci_adj_low"], table["ci_adj_high"], colors="0.55", linewidth=1.2,
              label="adjusted interval")
    ax.hlines(np.r_[table["ci_adj_low"], table["ci_adj_high"]], np.r_[x, x] - 0.12, np.r_[x, x] + 0.12,
              colors="0.55", linewidth=1.2)
    ax.vlines(x, table["ci_low"], table["ci_high"], colors="C0", linewidth=4, label="unadjusted interval")
    ax.plot(x, table["estimate"], "o", color="k", markersize=4, label=r"observed $|p_b - p_c|$")
    ax.axhline(0.0, color="C3", linewidth=1, linestyle="--", label="null value")
    ax.set_xticks(x)
    ax.set_xticklabels([pair_label(p) for p in table["pair"]], rotation=45 if len(table) > 6 else 0)
    ax.set_xlabel("pair (i, j)")
    ax.set_ylabel("difference in error rate")
    level = table.attrs.get("alpha")
    adjust = table.attrs.get("adjust", "holm")
    pct = f"{100 * (1 - level):g}% " if level is not None else ""
    ax.set_title(title or f"{pct}Quesenberry-Hurst intervals (wider: {adjust} adjustment)")
    ax.legend(loc="best", fontsize="small", frameon=False)
    return ax


# --------------------------------------------------- p-value versus interval
def describe_comparison(b: int, c: int, n: int, *, alpha: float = 0.05) -> str:
    """One paragraph: what McNemar's p-value says, and what the interval says.

    The paper's point in plain words: the p-value gives a yes/no about the null
    hypothesis; the interval gives the size of the difference and its precision.
    """
    test = mcnemar(b, c)
    exact = mcnemar(b, c, exact=True)
    ci = qh_interval(b, c, n, alpha=alpha, signed=True)
    level = f"{100 * (1 - alpha):g}%"
    verdict = "significant" if test.pvalue <= alpha else "not significant"
    if ci.low > 0:
        who = f"A makes between {ci.low:.1%} and {ci.high:.1%} more errors than B"
    elif ci.high < 0:
        who = f"A makes between {-ci.high:.1%} and {-ci.low:.1%} fewer errors than B"
    else:
        who = (f"the data are compatible with A making up to {-ci.low:.1%} fewer or up to "
               f"{ci.high:.1%} more errors than B")
    return (
        f"Test: X^2 = {test.statistic:.2f}, p = {test.pvalue:.3g} (exact p = {exact.pvalue:.3g}): "
        f"{verdict} at alpha = {alpha:g}.\n"
        f"Interval: the observed difference of error rates A - B is {(b - c) / n:+.3f}; "
        f"the {level} interval is [{ci.low:+.3f}, {ci.high:+.3f}] (width {ci.width:.3f}): {who}."
    )


def plot_pvalue_vs_interval(b: int, c: int, n: int, *, alpha: float = 0.05, axes=None):
    """Side by side, for one comparison: what the p-value says and what the interval says.

    Left: the null distribution of ``b`` given ``b + c`` disagreements (Binomial
    with p = 1/2); the outcomes "as extreme as or more extreme than" the one observed,
    which all enter the exact p-value although they did not happen (section 8), are
    shaded. Right: the signed interval of eqs. (4)-(5) for ``tau_A - tau_B`` with
    the null value.

    Parameters
    ----------
    b, c, n : int
        Discordant counts and test-set size, as in :func:`qh_interval`.
    alpha : float
        In (0, 1).
    axes : sequence of two matplotlib Axes, optional
        Where to draw; a new figure with two panels if ``None``.

    Returns
    -------
    numpy.ndarray of two Axes
    """
    test = mcnemar(b, c)
    exact = mcnemar(b, c, exact=True)
    ci = qh_interval(b, c, n, alpha=alpha, signed=True)
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [3, 2]},
                               layout="constrained")
    ax_p, ax_ci = axes
    m = b + c
    k = np.arange(m + 1)
    pmf = stats.binom.pmf(k, m, 0.5) if m else np.ones(1)
    extreme = np.abs(k - m / 2) >= abs(b - m / 2)
    ax_p.bar(k[~extreme], pmf[~extreme], color="0.8", width=0.9)
    ax_p.bar(k[extreme], pmf[extreme], color="C3", width=0.9, label="as or more extreme")
    ax_p.axvline(b, color="k", linewidth=1, label=f"observed b = {b}")
    ax_p.set_xlabel("b (errors of A only) under H0, given b + c = %d" % m)
    ax_p.set_ylabel("probability")
    ax_p.set_title(f"p-value: Yates {test.pvalue:.3g}, exact {exact.pvalue:.3g}")
    ax_p.legend(fontsize="small", frameon=False)
    ax_ci.errorbar([0], [(b - c) / n], yerr=[[(b - c) / n - ci.low], [ci.high - (b - c) / n]],
                   fmt="o", color="C0", capsize=6, linewidth=2)
    ax_ci.axhline(0.0, color="C3", linestyle="--", linewidth=1)
    bound = max(0.1, abs(ci.low), abs(ci.high)) * 1.15
    ax_ci.set_ylim(-bound, bound)
    ax_ci.set_xticks([])
    ax_ci.set_ylabel(r"$\tau_A - \tau_B$")
    ax_ci.set_title(f"{100 * (1 - alpha):g}% interval [{ci.low:+.2f}, {ci.high:+.2f}]")
    return np.asarray(axes)
