"""Pairwise comparison of fully specified classifiers on one test set.

The methods of Berrar & Lozano (2013), *Significance tests or confidence intervals:
which are preferable for the comparison of classifiers?* (J. Exp. Theor. AI):

* Table 1 -- the 2x2 table of joint errors of two models (:func:`contingency`);
* eq. (2) -- McNemar's test, with Yates' correction or as the exact binomial
  (sign) test (:func:`mcnemar`);
* eqs. (4)-(5) -- the Quesenberry-Hurst / May-Johnson confidence interval for the
  difference of two correlated error rates (:func:`qh_interval`);
* section 7 -- Holm's step-down adjustment, applied to the tests and to the
  intervals (:func:`holm_alphas`, :func:`pairwise_table`), with Bonferroni's and, for
  the false discovery rate, Benjamini & Hochberg's and Benjamini & Yekutieli's
  step-up procedures beside it (:func:`adjusted_alphas`, :data:`ADJUSTMENTS`);
* Table 2 and Figure 4 (:func:`pairwise_table`, :func:`compare_pairwise`,
  :func:`plot_intervals`), and for one run of the case study of
  :func:`evallib.studies.casestudy.run_case_study` (:func:`case_study_table`,
  :func:`plot_case_study`).

And what the literature has learnt since (Fagerland, Lydersen & Laake 2013, 2014):
the mid-p McNemar test (``mcnemar(b, c, mid_p=True)``), eight intervals for the
signed difference of the error rates (:func:`paired_difference_interval`; the exact
unconditional test and the interval compatible with the exact test are in
:mod:`.exactpaired`), and their
exact coverage and the tests' exact size by enumerating every table
(:func:`interval_coverage`, :func:`coverage_map`, :func:`test_size`,
:func:`plot_coverage`, :func:`plot_coverage_map`).

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

from .._compat import renamed_keywords
from .._inference import check_alternative
from .._multitest import ADJUSTMENTS, FDR_ADJUSTMENTS, adjusted_alphas, holm_alphas, rejections
from .._plotting import clear_artists, get_axes
from .._results import IntervalMixin, table_metadata
from .._validate import check_alpha, check_choice, check_count, check_labels, check_real, check_rng

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
    "FDR_ADJUSTMENTS",
    "PAIRED_INTERVAL_METHODS",
    "TEST_METHODS",
    "PairedInterval",
    "IntervalCoverage",
    "TestSize",
    "paired_difference_interval",
    "interval_coverage",
    "coverage_map",
    "test_size",
    "plot_coverage",
    "plot_coverage_map",
]

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
    y_true: Any, preds: Mapping[Hashable, Any], *, keys_are_argnames: bool = False,
    binary: bool = True,
) -> tuple[np.ndarray, dict]:
    """Validate true labels and a mapping of predictions; return arrays.

    Error messages name ``predictions[name]``, or the key itself when the keys are
    the caller's argument names (``pred_a``, ``pred_b``). With ``binary=False`` any
    labels are accepted (only right/wrong is counted), but the lengths, emptiness
    and missing labels are still checked.
    """
    y = check_labels(y_true, "y_true")
    classes = np.unique(y)
    if binary and classes.size > 2:
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
        out[name] = p
        if not binary:
            continue
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
    return y, out


def contingency(y_true: Sequence[Any], pred_a: Sequence[Any], pred_b: Sequence[Any]) -> Contingency:
    """Count the joint errors of two classifiers on the same test set (Table 1).

    The table only records which cases each classifier got right, so the labels
    may be anything comparable: two classes, many classes, or a prediction that
    is not among ``y_true``'s classes at all (it is simply wrong).

    Parameters
    ----------
    y_true : sequence of labels
        The true classes of the ``n`` test cases; any number of classes.
    pred_a, pred_b : sequence of labels
        The predictions of models A and B, same length as ``y_true``.

    Returns
    -------
    Contingency
        ``a`` (neither wrong), ``b`` (A only wrong), ``c`` (B only wrong),
        ``d`` (both wrong) and ``n``.

    Raises
    ------
    ValueError
        On arrays of different lengths, empty input or NaN/None labels.

    Examples
    --------
    mlxtend's three-class test of ``mcnemar_table``, whose table
    ``[[a, c], [b, d]]`` is ``[[4, 2], [1, 3]]``:

    >>> t = contingency([0, 0, 0, 0, 0, 2, 1, 1, 1, 1], [0, 5, 0, 0, 0, 2, 1, 0, 0, 0],
    ...                 [0, 0, 1, 3, 0, 2, 1, 0, 0, 0])
    >>> (t.a, t.c, t.b, t.d)
    (4, 2, 1, 3)
    """
    y, preds = _check_predictions(y_true, {"pred_a": pred_a, "pred_b": pred_b}, keys_are_argnames=True,
                                  binary=False)
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
    statistic : X^2 of eq. (2) (chi-square methods) or ``min(b, c)`` (exact and
        mid-p methods), whatever the alternative.
    pvalue : p-value for ``alternative`` (two-sided by default).
    method : ``"chi2-yates"``, ``"chi2"``, ``"exact"`` or ``"mid-p"``.
    alternative : ``"two-sided"``, ``"greater"`` (H1: ``p_b > p_c``, A errs more often
        than B) or ``"less"``.
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str = "two-sided"


def _check_bc(b: Any, c: Any) -> tuple[int, int]:
    return check_count(b, "b"), check_count(c, "c")


def _mcnemar_pvalues(b, c, method: str, alternative: str = "two-sided") -> np.ndarray:
    """Vectorised p-values of McNemar's tests for arrays of ``b`` and ``c``.

    One-sided (``"greater"``: H1 ``p_b > p_c``): the binomial tail of ``b`` given
    ``m = b + c`` (exact ``P(X >= b)``, mid-p ``P(X > b) + P(X = b)/2``), and for the
    chi-square forms the normal tail of the signed ``z = (b - c -/+ 1)/sqrt(m)`` (the
    ``1`` with Yates' correction only, towards the null).
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    m = b + c
    k = np.minimum(b, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        if alternative != "two-sided":
            sign = 1.0 if alternative == "greater" else -1.0
            if method in ("chi2-yates", "chi2"):
                shift = 1.0 if method == "chi2-yates" else 0.0
                z = (sign * (b - c) - shift) / np.sqrt(np.where(m > 0, m, 1.0))
                p = stats.norm.sf(z)
            else:
                x = b if alternative == "greater" else c   # the count H1 makes large
                point = stats.binom.pmf(x, m, 0.5)
                p = stats.binom.sf(x - 1, m, 0.5) - (0.5 * point if method == "mid-p" else 0.0)
        elif method in ("chi2-yates", "chi2"):
            diff = np.abs(b - c)
            if method == "chi2-yates":
                diff = np.maximum(diff - 1.0, 0.0)
            x2 = np.where(m > 0, diff * diff / np.where(m > 0, m, 1.0), 0.0)
            p = stats.chi2.sf(x2, df=1)
        elif method == "exact":
            p = np.minimum(1.0, 2.0 * stats.binom.cdf(k, m, 0.5))
        else:  # mid-p, Fagerland, Lydersen & Laake (2013), eq. (2) of their supplement
            point = stats.binom.pmf(k, m, 0.5)
            p = np.where(b == c, 1.0 - 0.5 * point, 2.0 * stats.binom.cdf(k, m, 0.5) - point)
    return np.where(m > 0, p, 1.0)


def mcnemar(
    b: int, c: int, *, correction: bool = True, exact: bool = False, mid_p: bool = False,
    alternative: str = "two-sided",
) -> McNemarResult:
    """McNemar's test for two classifiers on the same test set, eq. (2).

    ``X^2 = (|b - c| - 1)^2 / (b + c)`` with Yates' continuity correction (the
    paper's choice, ``correction=True``) or ``(b - c)^2 / (b + c)`` without it,
    referred to the chi-square distribution with one degree of freedom. With
    ``exact=True`` the exact binomial version (the sign test, Sheskin 2007):
    under H0 ``b ~ Binomial(b + c, 1/2)`` and the two-sided p-value is
    ``min(1, 2 P(X <= min(b, c)))``. With ``mid_p=True`` the mid-p version
    (Fagerland, Lydersen & Laake 2013, eq. 2 of their supplement): the exact
    conditional p-value minus the point probability of the observed table,
    ``2 P(X <= k) - P(X = k)`` with ``k = min(b, c)``, and ``1 - P(X = k)/2`` when
    ``b = c``. Fagerland et al. found the mid-p test keeps the nominal level in all
    9,595 settings they studied while being almost as powerful as the uncorrected
    asymptotic test; the exact and the Yates-corrected tests are conservative.

    Parameters
    ----------
    b, c : int
        Discordant counts of Table 1 (errors of A only, errors of B only), >= 0.
    correction : bool
        Apply Yates' correction (ignored when ``exact`` or ``mid_p``).
    exact : bool
        Use the exact binomial test instead of the chi-square approximation.
    mid_p : bool
        Use the mid-p test. The defaults are unchanged (Yates' test, the paper's);
        ``exact`` and ``mid_p`` cannot both be true.
    alternative : {"two-sided", "greater", "less"}
        H1: ``p_b != p_c`` (default); ``"greater"``: ``p_b > p_c`` (A errs more often than
        B); ``"less"``: ``p_b < p_c``. One-sided, the exact test is the binomial test of
        ``b`` out of ``b + c`` (``scipy.stats.binomtest(b, b + c, 0.5, alternative=...)``),
        the mid-p test its mid-p version (``P(X > b) + P(X = b)/2`` for ``"greater"``), and
        the chi-square tests refer the signed ``z = (b - c - 1)/sqrt(b + c)`` (``"greater"``;
        ``(b - c + 1)`` for ``"less"``; no ``1`` without Yates' correction) to the normal.
        The statistic stays ``X^2`` or ``min(b, c)``.

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
       proportions or percentages. *Psychometrika*, 12, 153-157.
    .. [3] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional.
       *BMC Medical Research Methodology*, 13, 91.

    Examples
    --------
    Table 2's first row, models 1 and 4 (b = 3, c = 21): printed X2 = 12.0 and exact p = 2.8e-4.

    >>> from evallib import mcnemar
    >>> round(mcnemar(3, 21).statistic, 1)
    12.0
    >>> f"{mcnemar(3, 21, exact=True).pvalue:.1e}"
    '2.8e-04'

    Bentur et al.'s airway hyper-responsiveness data (b = 1, c = 7), as printed by
    Fagerland et al. (2013): exact p = 0.070, mid-p = 0.039, asymptotic p = 0.034.

    >>> round(mcnemar(1, 7, exact=True).pvalue, 3), round(mcnemar(1, 7, mid_p=True).pvalue, 3)
    (0.07, 0.039)
    >>> round(mcnemar(1, 7, correction=False).pvalue, 3)
    0.034

    One-sided: B errs more often than A (``c > b``), the exact test is the binomial tail
    ``P(X <= 1) = 9/256`` of ``X ~ Binomial(8, 1/2)``:

    >>> mcnemar(1, 7, exact=True, alternative="less").pvalue == 9 / 256
    True
    """
    b, c = _check_bc(b, c)
    alternative = check_alternative(alternative)
    if exact and mid_p:
        raise ValueError("exact and mid_p cannot both be True: choose the exact or the mid-p test")
    m = b + c
    if exact or mid_p:
        method = "mid-p" if mid_p else "exact"
        if m == 0:
            return McNemarResult(0.0, 1.0, method, alternative)
        return McNemarResult(float(min(b, c)), float(_mcnemar_pvalues(b, c, method, alternative)), method,
                             alternative)
    method = "chi2-yates" if correction else "chi2"
    if m == 0:
        return McNemarResult(0.0, 1.0, method, alternative)
    diff = abs(b - c)
    if correction:
        diff = max(diff - 1, 0)
    x2 = diff * diff / m
    p = stats.chi2.sf(x2, df=1) if alternative == "two-sided" else _mcnemar_pvalues(b, c, method, alternative)
    return McNemarResult(float(x2), float(p), method, alternative)


# ------------------------------------------------------------------ eqs. (4)-(5)
@dataclass(frozen=True)
class QHInterval(IntervalMixin):
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

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] May, W. L. & Johnson, W. D. (1997). Confidence intervals for differences in correlated
       binary proportions. *Statistics in Medicine*, 16, 2127-2136.
    .. [3] Quesenberry, C. P. & Hurst, D. C. (1964). Large sample simultaneous confidence
       intervals for multinomial proportions. *Technometrics*, 6, 191-195.

    Examples
    --------
    Section 8, comparison (1, 2) (b = 0, c = 2, n = 50) at its Holm level 0.05/3: the paper
    prints the point estimate 0.04 and the 95%-CI [-0.03, 0.10].

    >>> from evallib import qh_interval
    >>> ci = qh_interval(0, 2, 50, alpha=0.05 / 3)
    >>> round(ci.estimate, 2), round(ci.low, 2), round(ci.high, 2)
    (0.04, -0.03, 0.1)
    """
    b, c = _check_bc(b, c)
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n: got b + c = {b + c} > n = {n}")
    alpha = check_alpha(alpha)
    crit = float(stats.chi2.isf(alpha, df=1))
    low, high, centre, est = _qh_bounds(b, c, n, crit, signed)
    return QHInterval(float(low), float(high), float(centre), float(est), alpha, crit)


@renamed_keywords(reps="n_resamples")
def qh_coverage(
    pi_b: float,
    pi_c: float,
    n: int,
    *,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    rng: Any = None,
) -> float:
    """Monte Carlo coverage of the interval of eqs. (4)-(5).

    Draws ``n_resamples`` test sets of size ``n`` from the multinomial with cell
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
    n_resamples : int
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
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    rng = check_rng(rng)
    crit = float(stats.chi2.isf(alpha, df=1))
    draws = rng.multinomial(n, [max(0.0, 1.0 - pi_b - pi_c), pi_b, pi_c], size=n_resamples)
    low, high, _, _ = _qh_bounds(draws[:, 1], draws[:, 2], n, crit, signed=False)
    truth = abs(pi_b - pi_c)
    return float(np.mean((low <= truth) & (truth <= high)))


# ------------------------------------------ paired intervals (Fagerland et al. 2014)
PAIRED_INTERVAL_METHODS = ("wald", "wald_cc", "agresti_min", "bonett_price", "newcombe", "tango", "qh",
                           "wald_cc_fagerland")
TEST_METHODS = ("chi2-yates", "chi2", "exact", "mid-p")
_FOUR_CELL = ("newcombe",)  # the methods that need a and d, not only b, c and n
_TAIL = 1e-15  # per-cell tail mass left out of an enumeration (see _cell_window)


@dataclass(frozen=True)
class PairedInterval(IntervalMixin):
    """A confidence interval for ``error_A - error_B = (b - c)/n``.

    Attributes
    ----------
    low, high : the bounds, inside [-1, 1].
    estimate : the observed difference ``(b - c)/n`` (positive: A errs more).
    method : one of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : the nominal coverage is ``1 - alpha``.
    """

    low: float
    high: float
    estimate: float
    method: str
    alpha: float


def _wilson(x, n, z):
    """Vectorised Wilson score interval for x/n (Wilson 1927)."""
    p = x / n
    centre = (x + z * z / 2) / (n + z * z)
    half = z * np.sqrt(n * p * (1 - p) + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def _tango_score(delta, b, c, n):
    """Tango's (1998) score statistic for H0: p_b - p_c = delta (vectorised).

    ``T = (b - c - n delta) / sqrt(n (2 q + delta (1 - delta)))`` with ``q`` the
    maximum-likelihood estimate of ``p_c`` under H0,
    ``q = (sqrt(W^2 + 8 n c delta (1 - delta)) - W) / (4 n)``,
    ``W = -b - c + (2n - b + c) delta``.
    """
    w = -b - c + (2 * n - b + c) * delta
    q = (np.sqrt(np.maximum(w * w + 8 * n * c * delta * (1 - delta), 0.0)) - w) / (4 * n)
    var = n * (2 * q + delta * (1 - delta))
    num = b - c - n * delta
    return np.where(num == 0, 0.0, num / np.sqrt(np.maximum(var, 1e-300)))


def _tango_bounds(b, c, n, z):
    """Tango's interval: the deltas with |T(delta)| <= z, by bisection to machine precision.

    T decreases in delta, T(estimate) = 0; the lower bound solves T = z on
    [-1, estimate], the upper T = -z on [estimate, 1]. Where no root exists the
    bound is the end of the parameter space (-1 or 1). 64 halvings of an interval
    of length <= 2 reach a width of 2**-63, below the spacing of doubles near 1.
    """
    est = (b - c) / n
    lo, hi = np.full_like(est, -1.0), est.copy()
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        above = _tango_score(mid, b, c, n) > z
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    low = hi
    lo, hi = est.copy(), np.full_like(est, 1.0)
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        above = _tango_score(mid, b, c, n) >= -z
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    return low, lo


def _interval_bounds(method, a, b, c, d, n, alpha):
    """Vectorised bounds of ``method`` for tables (a, b, c, d) of size n: (low, high)."""
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))
    n = float(n)
    z = float(stats.norm.isf(alpha / 2))
    est = (b - c) / n
    if method in ("wald", "wald_cc"):
        se = np.sqrt(np.maximum(b + c - (b - c) ** 2 / n, 0.0)) / n
        half = z * se + (1.0 / n if method == "wald_cc" else 0.0)
        low, high = est - half, est + half
    elif method == "wald_cc_fagerland":
        # the correction inside the standard error, as Fagerland's R code has it; its
        # radicand is negative only for b = c = 0, where R's NaN becomes a standard error of 0
        se = np.sqrt(np.maximum(b + c - (np.abs(b - c) - 1.0) ** 2 / n, 0.0)) / n
        low, high = est - z * se, est + z * se
    elif method == "agresti_min":
        b2, c2, n2 = b + 0.5, c + 0.5, n + 2.0
        centre = (b2 - c2) / n2
        half = z * np.sqrt(b2 + c2 - (b2 - c2) ** 2 / n2) / n2
        low, high = centre - half, centre + half
    elif method == "bonett_price":
        pb, pc, n2 = (b + 1) / (n + 2), (c + 1) / (n + 2), n + 2.0
        centre = pb - pc
        half = z * np.sqrt((pb + pc - (pb - pc) ** 2) / n2)
        low, high = centre - half, centre + half
    elif method == "newcombe":
        # error rates of A, (b + d)/n, and of B, (c + d)/n, with their Wilson intervals
        p1, p2 = (b + d) / n, (c + d) / n
        # Wilson intervals of x/n for every x = 0..n, looked up for x = b + d and c + d
        wl, wu = _wilson(np.arange(n + 1.0), n, z)
        i1 = np.clip(b + d, 0, n).astype(np.intp)
        i2 = np.clip(c + d, 0, n).astype(np.intp)
        l1, u1, l2, u2 = wl[i1], wu[i1], wl[i2], wu[i2]
        denom = (b + d) * (a + c) * (c + d) * (a + b)
        cross = a * d - b * c
        cross = np.where(cross > n / 2, cross - n / 2, np.where(cross >= 0, 0.0, cross))
        phi = np.where(denom > 0, cross / np.sqrt(np.where(denom > 0, denom, 1.0)), 0.0)
        dl = np.sqrt(np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
        du = np.sqrt(np.maximum((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
        low, high = est - dl, est + du
    elif method == "tango":
        low, high = _tango_bounds(b, c, n, z)
    else:  # "qh": eqs. (4)-(5), signed
        low, high, _, _ = _qh_bounds(b, c, n, z * z, signed=True)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


def _check_table(table: Any) -> Contingency:
    if not isinstance(table, Contingency):
        raise TypeError(
            "table must be an evallib.onetestset.pairwise.Contingency (e.g. contingency(y_true, pred_a, pred_b) "
            f"or Contingency(a, b, c, d, n)), got {type(table).__name__}"
        )
    a, b, c, d = (check_count(getattr(table, k), f"table.{k}") for k in "abcd")
    n = check_count(table.n, "table.n", minimum=1)
    if a + b + c + d != n:
        raise ValueError(f"table.a + table.b + table.c + table.d must equal table.n: {a + b + c + d} != {n}")
    return table


def paired_difference_interval(
    table: Contingency, *, method: str = "bonett_price", alpha: float = 0.05
) -> PairedInterval:
    """Confidence interval for the difference of two correlated error rates.

    The parameter is ``error_A - error_B = p_b - p_c``, estimated by ``(b - c)/n``
    (positive when A makes more errors). Formulas as collected by Fagerland,
    Lydersen & Laake (2014; their n12 is ``b``, n21 is ``c``), with
    ``z`` the ``1 - alpha/2`` normal quantile:

    ``"wald"`` (the textbook Wald interval)
        ``(b - c)/n +- z/n sqrt(b + c - (b - c)^2/n)``.
    ``"wald_cc"`` (the textbook continuity correction, Fleiss, Levin & Paik 2003,
        section 13.1)
        the Wald interval widened by ``1/n`` on each side:
        ``(b - c)/n +- (z/n sqrt(b + c - (b - c)^2/n) + 1/n)``. Kept as it was for
        compatibility.
    ``"wald_cc_fagerland"`` (the correction as Fagerland, Lydersen & Laake's R package
        ``contingencytables`` computes it, ``Wald_CI_diff_CC_paired_2x2``)
        the correction inside the standard error, not added to the half-width:
        ``(b - c)/n +- z/n sqrt(b + c - (|b - c| - 1)^2/n)``. Only slightly wider
        than the Wald interval (Cavo et al.'s table: -0.1186 to -0.0057 against the
        Wald interval's -0.1184 to -0.0058), where ``"wald_cc"`` is ``2/n`` wider.
    ``"agresti_min"`` (Agresti & Min 2005)
        the Wald interval after adding 1/2 to each of the four cells (``n + 2``).
    ``"bonett_price"`` (Bonett & Price 2012)
        ``p_b' - p_c' +- z sqrt((p_b' + p_c' - (p_b' - p_c')^2)/(n + 2))`` with
        ``p_b' = (b + 1)/(n + 2)``, ``p_c' = (c + 1)/(n + 2)``. The default: a
        closed formula whose exact coverage stays close to the nominal level even
        when the classifiers rarely disagree (see :func:`interval_coverage`).
    ``"newcombe"`` (Newcombe 1998, method 10)
        square-and-add of the Wilson intervals ``[l1, u1]`` for A's error rate
        ``(b + d)/n`` and ``[l2, u2]`` for B's ``(c + d)/n``:
        ``low = est - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)``,
        ``high = est + sqrt((u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2)``,
        with ``phi = A/sqrt((b + d)(a + c)(c + d)(a + b))`` the phi coefficient of
        the 2x2 table of errors, its numerator ``A = ad - bc`` continuity-corrected
        as Newcombe prescribes: ``A - n/2`` when ``A > n/2``, 0 when
        ``0 <= A <= n/2``, ``A`` itself when negative. It needs the whole table.
        When a margin is 0 the denominator vanishes and ``phi`` is set to 0
        (Newcombe's rule).
    ``"tango"`` (Tango 1998)
        the asymptotic score interval: all ``delta`` with ``|T(delta)| <= z``,
        ``T = (b - c - n delta)/sqrt(n (2 q + delta (1 - delta)))`` and ``q`` the
        restricted maximum-likelihood estimate of ``p_c`` under ``delta``; the
        two bounds are found by bisection to machine precision.
    ``"qh"`` (Berrar & Lozano eqs. 4-5, after Quesenberry & Hurst 1964 and May &
        Johnson 1997)
        the paper's interval oriented by the sign of ``b - c``, as
        ``qh_interval(b, c, n, signed=True)``.

    Parameters
    ----------
    table : Contingency
        The joint errors (``a``, ``b``, ``c``, ``d``, ``n``), e.g. from
        :func:`contingency`.
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : float
        In (0, 1); nominal coverage ``1 - alpha``.

    Returns
    -------
    PairedInterval
        ``low``, ``high``, ``estimate``, ``method``, ``alpha``.

    Notes
    -----
    Bounds are clipped to [-1, 1] (Wald-type intervals can overshoot). Degenerate
    tables: with ``b = c = 0`` the Wald and QH intervals are the single point
    ``[0, 0]`` (their plug-in variance is 0), the continuity-corrected Wald
    interval is ``[-1/n, 1/n]``, and the other methods give an interval of
    positive width around 0 (Tango's is ``+-z^2/(n + z^2)``). With ``b + c = n``
    every method returns a proper interval inside [-1, 1]; with ``b = n`` (A wrong
    on every case, B on none) the upper bound is 1, the Wald interval is the point
    ``[1, 1]`` and the continuity-corrected one ``[1 - 1/n, 1]``. Fagerland's
    continuity-corrected interval is the point ``[0, 0]`` when ``b = c = 0`` (its
    radicand ``-1/n`` is set to 0, as the R code sets the NaN standard error to 0). Swapping ``b`` and
    ``c`` mirrors every interval about 0.

    References
    ----------
    Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and
    confidence intervals for paired binomial proportions. Statistics in Medicine
    33, 2850-2875.
    Newcombe, R. G. (1998). Improved confidence intervals for the difference between
    binomial proportions based on paired data. Statistics in Medicine 17, 2635-2650.
    Tango, T. (1998). Equivalence test and confidence interval for the difference
    in proportions for the paired-sample design. Statistics in Medicine 17, 891-908.
    Agresti, A. & Min, Y. (2005). Simple improved confidence intervals for comparing
    matched proportions. Statistics in Medicine 24, 729-740.
    Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
    difference of binomial proportions based on paired data. Journal of Educational
    and Behavioral Statistics 37, 479-488.
    Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for Rates and
    Proportions, 3rd ed., Wiley, section 13.1.
    Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
    Contingency Tables, CRC Press, chapter 8; R package contingencytables,
    ``Wald_CI_diff_CC_paired_2x2``.

    Examples
    --------
    Cavo et al.'s (2012) table as in Fagerland et al. (a = 80, b = 6, c = 16, d = 59):
    Newcombe's interval is printed there as -0.0621 (-0.1186 to -0.0046).

    >>> from evallib.onetestset.pairwise import Contingency, paired_difference_interval
    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="newcombe")
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (-0.0621, -0.1186, -0.0046)

    The package contingencytables prints the continuity-corrected Wald interval of the
    same table as -0.0621 (95% CI -0.1186 to -0.0057):

    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="wald_cc_fagerland")
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1186, -0.0057)
    """
    table = _check_table(table)
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    alpha = check_alpha(alpha)
    low, high = _interval_bounds(method, table.a, table.b, table.c, table.d, table.n, alpha)
    return PairedInterval(float(low), float(high), (table.b - table.c) / table.n, method, alpha)


# ------------------------------------------------------------- exact coverage
@dataclass(frozen=True)
class IntervalCoverage:
    """Exact coverage of an interval method at one point.

    Attributes
    ----------
    coverage : probability that the interval contains the true ``p_b - p_c``.
    expected_width : expected ``high - low``.
    method, n, alpha : as requested.
    probs : the cell probabilities ``(p_a, p_b, p_c, p_d)``.
    """

    coverage: float
    expected_width: float
    method: str
    n: int
    alpha: float
    probs: tuple[float, float, float, float]


@dataclass(frozen=True)
class TestSize:
    """Exact size (rejection rate under H0: p_b = p_c) of a McNemar test.

    Attributes
    ----------
    size : probability that the test rejects at level ``alpha``.
    method : one of :data:`TEST_METHODS`; n, alpha, probs as requested.
    """

    __test__ = False  # a result type, not a pytest test class

    size: float
    method: str
    n: int
    alpha: float
    probs: tuple[float, float, float, float]


def _check_probs(probs: Any, name: str = "probs") -> np.ndarray:
    """Return probabilities as an array of shape (k, 4); each row in [0, 1] summing to 1."""
    try:
        p = np.asarray(probs, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be four cell probabilities (p_a, p_b, p_c, p_d)") from None
    p2 = np.atleast_2d(p)
    if p.ndim > 2 or p2.shape[1] != 4:
        raise ValueError(f"{name} must be four cell probabilities (p_a, p_b, p_c, p_d), got shape {p.shape}")
    if np.isnan(p2).any() or (p2 < 0).any() or (p2 > 1).any():
        raise ValueError(f"{name} must lie in [0, 1] (no NaN), got {p.tolist()}")
    if (np.abs(p2.sum(axis=1) - 1.0) > 1e-9).any():
        raise ValueError(f"{name} must sum to 1, got sums {p2.sum(axis=1).tolist()}")
    return p2


def _cell_window(n: int, p: np.ndarray) -> tuple[int, int]:
    """Counts of one cell that hold all but ``_TAIL`` of its Binomial(n, p) mass for every p."""
    lo = stats.binom.ppf(_TAIL, n, p)
    hi = stats.binom.isf(_TAIL, n, p)
    lo = np.where(p <= 0, 0, lo)
    hi = np.where(p <= 0, 0, np.where(p >= 1, n, hi))
    return int(np.nanmin(lo)), int(min(n, np.nanmax(hi)))


def _enumerate(n: int, probs: np.ndarray, four_cell: bool):
    """Tables carrying the mass of the multinomial(n, probs) for every row of probs.

    Returns the count matrix (columns a, b, c, d; for the trinomial a holds a + d and d
    is 0) and the log multinomial coefficient of each table. Each cell's count is
    restricted to the window holding all but 1e-15 of its binomial marginal for every
    row, so at most 4e-15 of the probability is left out.
    """
    from scipy.special import gammaln

    bl, bh = _cell_window(n, probs[:, 1])
    cl, ch = _cell_window(n, probs[:, 2])
    b, c = np.meshgrid(np.arange(bl, bh + 1), np.arange(cl, ch + 1), indexing="ij")
    b, c = b.ravel(), c.ravel()
    keep = b + c <= n
    b, c = b[keep], c[keep]
    if four_cell:
        dl, dh = _cell_window(n, probs[:, 3])
        d = np.arange(dl, dh + 1)
        b = np.repeat(b, d.size)
        c = np.repeat(c, d.size)
        d = np.tile(d, b.size // d.size)
        keep = b + c + d <= n
        b, c, d = b[keep], c[keep], d[keep]
    else:
        d = np.zeros_like(b)
    a = n - b - c - d
    counts = np.column_stack([a, b, c, d]).astype(float)
    logcoef = gammaln(n + 1) - gammaln(counts + 1).sum(axis=1)
    return counts, logcoef


def _table_probabilities(counts, logcoef, probs, four_cell: bool):
    """Multinomial probabilities, shape (tables, rows of probs), in chunks of rows."""
    p = probs if four_cell else np.column_stack([probs[:, 0] + probs[:, 3], probs[:, 1], probs[:, 2],
                                                 np.zeros(len(probs))])
    with np.errstate(divide="ignore"):
        logp = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), -1e300)
    return np.exp(logcoef[:, None] + counts @ logp.T)


def _windows(n: int, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``p``: the counts holding all but ``_TAIL`` of each Binomial(n, p) mass."""
    lo = np.where(p <= 0, 0, stats.binom.ppf(_TAIL, n, p))
    hi = np.where(p <= 0, 0, np.where(p >= 1, n, stats.binom.isf(_TAIL, n, p)))
    return np.nan_to_num(lo).astype(int), np.minimum(n, np.nan_to_num(hi, nan=n)).astype(int)


def _four_cell_coverage(method: str, n: int, probs: np.ndarray, alpha: float):
    """Coverage and expected width for methods that need the whole table.

    The bounds are computed once on the box of (b, c, d) counts that any row of
    ``probs`` needs; each row then sums its own window of that box. The multinomial
    factorises as the trinomial of ``(b, c, m = a + d)`` times ``d | m ~
    Binomial(m, p_d/(p_a + p_d))``, so only two-dimensional tables are exponentiated
    and the three-dimensional probabilities are one gather and one product.
    """
    from scipy.special import gammaln

    lo, hi = zip(*(_windows(n, probs[:, j]) for j in (1, 2, 3)))
    box_lo = [int(v.min()) for v in lo]
    box_hi = [int(v.max()) for v in hi]
    b, c, d = np.meshgrid(*(np.arange(l0, h0 + 1) for l0, h0 in zip(box_lo, box_hi)),
                          indexing="ij", sparse=True)
    a = n - b - c - d
    possible = a >= 0
    low, high = _interval_bounds(method, np.where(possible, a, 0), b, c, np.where(possible, d, 0), n, alpha)
    width = np.where(possible, high - low, 0.0)
    low = np.where(possible, low, np.inf)  # never covers, zero width (zero probability too)
    high = np.where(possible, high, np.inf)
    k = np.arange(n + 1)
    log_fact = gammaln(k + 1)
    cov = np.empty(len(probs))
    ew = np.empty(len(probs))
    for i, (pa, pb, pc, pd) in enumerate(probs):
        sl = tuple(slice(lo[j][i] - box_lo[j], hi[j][i] - box_lo[j] + 1) for j in range(3))
        bb = np.arange(lo[0][i], hi[0][i] + 1)[:, None]
        cc = np.arange(lo[1][i], hi[1][i] + 1)[None, :]
        dd = np.arange(lo[2][i], hi[2][i] + 1)[None, :]
        m = n - bb - cc  # a + d
        mm = np.maximum(m, 0)
        tri = np.exp(log_fact[n] - log_fact[bb] - log_fact[cc] - log_fact[mm]
                     + _xlogp(bb, pb) + _xlogp(cc, pc) + _xlogp(mm, pa + pd))
        tri[m < 0] = 0.0
        q = pd / (pa + pd) if pa + pd > 0 else 0.0
        mk = k[:, None]
        fits = dd <= mk
        dfit = np.where(fits, dd, 0)
        rest = np.where(fits, mk - dd, 0)
        binom = np.where(fits, np.exp(np.where(fits, log_fact[mk] - log_fact[dfit] - log_fact[rest]
                                               + _xlogp(dfit, q) + _xlogp(rest, 1 - q), -np.inf)), 0.0)
        pm = binom[mm] * tri[:, :, None]
        t = pb - pc
        inside = (low[sl] <= t) & (high[sl] >= t)
        cov[i] = np.einsum("ijk,ijk->", pm, inside)
        ew[i] = np.einsum("ijk,ijk->", pm, width[sl])
    return cov, ew


def _xlogp(k: np.ndarray, p: float) -> np.ndarray:
    """``k log p`` with ``0 log 0 = 0`` and ``k log 0 = -inf`` for k > 0."""
    if p > 0:
        return k * np.log(p)
    return np.where(k == 0, 0.0, -np.inf)


def _coverage_arrays(method: str, n: int, probs: np.ndarray, alpha: float):
    """Exact coverage and expected width of ``method`` for every row of ``probs``."""
    four_cell = method in _FOUR_CELL
    if four_cell:
        return _four_cell_coverage(method, n, probs, alpha)
    counts, logcoef = _enumerate(n, probs, four_cell)
    low, high = _interval_bounds(method, *counts.T, n, alpha)
    truth = probs[:, 1] - probs[:, 2]
    width = high - low
    cov = np.empty(len(probs))
    ew = np.empty(len(probs))
    step = max(1, int(4e6 // max(1, len(counts))))
    for s in range(0, len(probs), step):
        rows = slice(s, s + step)
        pm = _table_probabilities(counts, logcoef, probs[rows], four_cell)
        t = truth[rows]
        inside = (low[:, None] <= t[None, :]) & (t[None, :] <= high[:, None])
        cov[rows] = np.einsum("ij,ij->j", pm, inside)
        ew[rows] = width @ pm
    return cov, ew


def interval_coverage(
    method: str, n: int, probs: Sequence[float], *, alpha: float = 0.05
) -> IntervalCoverage:
    """Exact coverage probability and expected width of a paired interval method.

    For a test set of ``n`` cases whose cells (neither wrong, A only, B only, both)
    have probabilities ``probs = (p_a, p_b, p_c, p_d)``, sums the multinomial
    probability of every table whose interval contains the true difference
    ``p_b - p_c``: ``C = sum_T P(T) 1[low(T) <= p_b - p_c <= high(T)]`` (the
    criterion by which Fagerland et al. 2014 compare the intervals). Methods that depend only on
    ``b``, ``c`` and ``n`` enumerate the trinomial of ``(b, c, rest)``;
    ``"newcombe"`` enumerates the four-cell multinomial. Every cell count is
    restricted to the range holding all but 1e-15 of its binomial marginal, so the
    result is exact to about 1e-14.

    Parameters
    ----------
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    n : int
        Test-set size, >= 1.
    probs : sequence of four floats
        Cell probabilities in [0, 1] summing to 1.
    alpha : float
        In (0, 1).

    Returns
    -------
    IntervalCoverage
        ``coverage``, ``expected_width``, ``method``, ``n``, ``alpha``, ``probs``.

    References
    ----------
    Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Statistics in Medicine 33,
    2850-2875.

    Examples
    --------
    The paper's interval in its signed form (``"qh"``, an interval for ``p_b - p_c``)
    under-covers when the classifiers rarely disagree: its exact coverage is about
    0.87 at n = 50, (p_b, p_c) = (0.01, 0.04), as the workbook's review (issue 13)
    computed by enumeration (the paper's own interval for ``|p_b - p_c|`` covers
    about 0.92 there):

    >>> from evallib.onetestset.pairwise import interval_coverage
    >>> round(interval_coverage("qh", 50, (0.95, 0.01, 0.04, 0.0)).coverage, 2)
    0.87
    """
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    p = _check_probs(probs)
    if p.shape[0] != 1:
        raise ValueError("probs must be one set of four probabilities; use coverage_map for a grid")
    cov, ew = _coverage_arrays(method, n, p, alpha)
    return IntervalCoverage(float(cov[0]), float(ew[0]), method, n, alpha, tuple(float(v) for v in p[0]))


def coverage_map(
    method: str,
    n: int,
    pi_b: Sequence[float],
    pi_c: Sequence[float],
    *,
    p_d: float = 0.0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Exact coverage and expected width over a grid of discordance probabilities.

    Parameters
    ----------
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    n : int
        Test-set size, >= 1.
    pi_b, pi_c : sequences of float
        Grid values of ``p_b`` and ``p_c`` (every combination is evaluated; those
        with ``p_b + p_c + p_d > 1`` are left out).
    p_d : float
        Probability that both classifiers err (only ``"newcombe"`` depends on it);
        ``p_a = 1 - p_b - p_c - p_d``.
    alpha : float
        In (0, 1).

    Returns
    -------
    pandas.DataFrame
        Columns ``pi_b``, ``pi_c``, ``difference`` (``pi_b - pi_c``), ``coverage``,
        ``expected_width``; ``attrs`` hold ``method``, ``n``, ``alpha``, ``p_d``.
    """
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    p_d = check_real(p_d, "p_d", low=0.0, high=1.0)
    grids = []
    for name, g in (("pi_b", pi_b), ("pi_c", pi_c)):
        arr = np.atleast_1d(np.asarray(g, dtype=float))
        if arr.ndim != 1 or arr.size == 0 or np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any():
            raise ValueError(f"{name} must be a non-empty sequence of probabilities in [0, 1]")
        grids.append(arr)
    pb, pc = (v.ravel() for v in np.meshgrid(*grids, indexing="ij"))
    keep = pb + pc + p_d <= 1.0 + 1e-12
    pb, pc = pb[keep], pc[keep]
    if pb.size == 0:
        raise ValueError("no grid point has pi_b + pi_c + p_d <= 1")
    pa = np.clip(1.0 - pb - pc - p_d, 0.0, 1.0)
    probs = np.column_stack([pa, pb, pc, np.full_like(pb, p_d)])
    cov, ew = _coverage_arrays(method, n, probs, alpha)
    out = pd.DataFrame({"pi_b": pb, "pi_c": pc, "difference": pb - pc, "coverage": cov,
                        "expected_width": ew})
    out.attrs.update(method=method, n=n, alpha=alpha, p_d=p_d)
    return out


def test_size(method: str, n: int, probs: Sequence[float], *, alpha: float = 0.05) -> TestSize:
    """Exact size of a McNemar test: its rejection rate when ``p_b = p_c``.

    Sums the trinomial probability of every ``(b, c)`` whose p-value is
    ``<= alpha`` (Fagerland, Lydersen & Laake 2013, "actual significance level").

    Parameters
    ----------
    method : str
        ``"chi2-yates"``, ``"chi2"`` (uncorrected), ``"exact"`` or ``"mid-p"``.
    n : int
        Test-set size, >= 1.
    probs : sequence of four floats
        ``(p_a, p_b, p_c, p_d)`` in [0, 1], summing to 1, with ``p_b = p_c`` (H0).
    alpha : float
        Nominal level, in (0, 1).

    Returns
    -------
    TestSize

    References
    ----------
    Fagerland, M. W., Lydersen, S. & Laake, P. (2013). BMC Medical Research
    Methodology 13, 91.

    Examples
    --------
    The exact test is conservative, the mid-p test much less so:

    >>> from evallib.onetestset.pairwise import test_size
    >>> probs = (0.8, 0.1, 0.1, 0.0)
    >>> test_size("exact", 50, probs).size < test_size("mid-p", 50, probs).size <= 0.05
    True
    """
    method = check_choice(method, "method", TEST_METHODS)
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    p = _check_probs(probs)
    if p.shape[0] != 1:
        raise ValueError("probs must be one set of four probabilities (p_a, p_b, p_c, p_d)")
    if abs(p[0, 1] - p[0, 2]) > 1e-12:
        raise ValueError(f"probs must have p_b = p_c (the null hypothesis), got p_b = {p[0, 1]}, p_c = {p[0, 2]}")
    counts, logcoef = _enumerate(n, p, four_cell=False)
    pm = _table_probabilities(counts, logcoef, p, four_cell=False)[:, 0]
    pv = _mcnemar_pvalues(counts[:, 1], counts[:, 2], method)
    return TestSize(float(pm[pv <= alpha].sum()), method, n, alpha, tuple(float(v) for v in p[0]))


test_size.__test__ = False  # not a pytest test despite its name


def plot_coverage(
    n: int,
    discordance: float,
    *,
    methods: Sequence[str] = ("qh", "wald", "bonett_price", "tango", "newcombe"),
    p_d: float = 0.0,
    alpha: float = 0.05,
    points: int = 81,
    ax=None,
):
    """Exact coverage against ``p_b - p_c`` at fixed discordance ``p_b + p_c``.

    Parameters
    ----------
    n : int
        Test-set size, >= 1.
    discordance : float
        ``p_b + p_c``, the probability that the two classifiers disagree, in (0, 1].
    methods : sequence of str
        Interval methods to draw (from :data:`PAIRED_INTERVAL_METHODS`).
    p_d : float
        Probability that both err (matters for ``"newcombe"`` only);
        ``discordance + p_d <= 1``.
    alpha : float
        In (0, 1); the nominal level ``1 - alpha`` is drawn as a dashed line.
    points : int
        Number of differences evaluated, from ``-discordance`` to ``discordance``.
    ax : matplotlib Axes, optional
        Called again with an Axes it drew on before (same methods), it updates the
        curves, the nominal line and the title in place instead of drawing anew (a
        slider's callback then costs one computation and one rendering).

    Returns
    -------
    matplotlib.axes.Axes
    """
    n = check_count(n, "n", minimum=1)
    s = check_real(discordance, "discordance", low=0.0, high=1.0, low_open=True)
    p_d = check_real(p_d, "p_d", low=0.0, high=1.0)
    if s + p_d > 1.0 + 1e-12:
        raise ValueError(f"discordance + p_d must not exceed 1, got {s + p_d}")
    alpha = check_alpha(alpha)
    points = check_count(points, "points", minimum=3)
    if isinstance(methods, str):
        methods = (methods,)
    methods = [check_choice(m, "methods", PAIRED_INTERVAL_METHODS) for m in methods]
    diff = np.linspace(-s, s, points)
    pb, pc = (s + diff) / 2, (s - diff) / 2
    probs = np.column_stack([np.clip(1 - s - p_d, 0, 1) * np.ones(points), pb, pc, np.full(points, p_d)])
    drawn = getattr(ax, "_evallib_coverage", None) if ax is not None else None
    if drawn is not None and (drawn["methods"] != tuple(methods) or drawn["alpha"] != alpha):
        clear_artists(ax)           # a chart of other methods or another level: replaced, not drawn over
        drawn = None
    ax = get_axes(ax, figsize=(7, 3.6))
    covs = [_coverage_arrays(m, n, probs, alpha)[0] for m in methods]
    title = f"n = {n}, classifiers disagree with probability {s:g}"
    low = min(float(np.min(c)) for c in covs)
    ylim = (min(low, 1 - 2 * alpha) - 0.01, 1.005)
    if drawn is None:
        lines = [ax.plot(diff, cov, label=METHOD_LABELS[m], linewidth=1.2)[0] for m, cov in zip(methods, covs)]
        nominal = ax.axhline(1 - alpha, color="k", linestyle="--", linewidth=1, label=f"nominal {100 * (1 - alpha):g}%")
        ax.set_xlabel(r"true difference $p_b - p_c$ (error rate of A minus error rate of B)")
        ax.set_ylabel("exact coverage")
        ax.set_title(title)
        ax.set_xlim(-s, s)
        ax.set_ylim(*ylim)
        # beside the axes: the curves fill the whole width and can reach any height
        ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
        ax._evallib_coverage = {"methods": tuple(methods), "alpha": alpha, "lines": lines, "nominal": nominal}
        return ax
    for line, cov in zip(drawn["lines"], covs):
        line.set_data(diff, cov)
    drawn["nominal"].set_ydata([1 - alpha, 1 - alpha])
    ax.set_xlim(-s, s)
    ax.set_ylim(*ylim)
    ax.set_title(title)
    return ax


def plot_coverage_map(
    method: str,
    n: int,
    *,
    max_discordance: float = 0.2,
    grid: int = 50,
    p_d: float = 0.0,
    alpha: float = 0.05,
    ax=None,
):
    """Coverage map of one method over ``(p_b, p_c)`` in ``[0, max_discordance]^2``.

    The colour scale runs from ``1 - alpha - 0.05`` (dark red: under-coverage) through
    white at the nominal ``1 - alpha`` to ``1 - alpha + 0.05`` (dark blue: over-coverage);
    the title gives the lowest coverage on the grid.

    Parameters
    ----------
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    n : int
        Test-set size, >= 1.
    max_discordance : float
        Largest ``p_b`` and ``p_c`` drawn, in (0, 0.5].
    grid : int
        Number of grid values per axis, >= 2.
    p_d : float
        Probability that both err (``"newcombe"`` only).
    alpha : float
        In (0, 1).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    top = check_real(max_discordance, "max_discordance", low=0.0, high=0.5, low_open=True)
    grid = check_count(grid, "grid", minimum=2)
    alpha = check_alpha(alpha)
    g = np.linspace(top / grid, top, grid)
    cm = coverage_map(method, n, g, g, p_d=p_d, alpha=alpha)
    z = np.full((grid, grid), np.nan)
    ib = np.searchsorted(g, cm["pi_b"].to_numpy() - 1e-12)
    ic = np.searchsorted(g, cm["pi_c"].to_numpy() - 1e-12)
    z[ic, ib] = cm["coverage"].to_numpy()
    ax = get_axes(ax, figsize=(4.6, 4))
    nominal = 1 - alpha
    mesh = ax.pcolormesh(g, g, z, cmap="RdBu", vmin=nominal - 0.05, vmax=nominal + 0.05, shading="nearest")
    ax.figure.colorbar(mesh, ax=ax, label="exact coverage")
    ax.set_xlabel(r"$p_b$ (A wrong, B right)")
    ax.set_ylabel(r"$p_c$ (B wrong, A right)")
    ax.set_title(f"{METHOD_LABELS[method]}, n = {n}: min {np.nanmin(z):.3f}")
    return ax


METHOD_LABELS = {
    "wald": "Wald",
    "wald_cc": "Wald (cont. corr.)",
    "agresti_min": "Agresti-Min",
    "bonett_price": "Bonett-Price",
    "newcombe": "Newcombe",
    "tango": "Tango score",
    "qh": "Quesenberry-Hurst (paper)",
    "wald_cc_fagerland": "Wald (cont. corr., Fagerland)",
}


# ----------------------------------------------------------------------- Table 2
TABLE_COLUMNS = [
    "pair", "b", "c", "n", "estimate", "chi2", "p", "p_exact", "alpha_adj", "chi2_crit",
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
        ``chi2`` (eq. 2 with Yates' correction), ``p`` (its p-value), ``p_exact``
        (exact binomial test), ``alpha_adj`` (Holm/Bonferroni/BH/BY/unadjusted level,
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


def _adjusted_ci_label(table: pd.DataFrame) -> str:
    """The column name of the adjusted intervals: says so when they are not adjusted (BH, BY)."""
    if table_metadata(table, "adjust", made_by="pairwise_table or compare_pairwise") in FDR_ADJUSTMENTS:
        return "CI (unadjusted: FDR has no joint CI)"
    return "adjusted CI"


def format_table(table: pd.DataFrame) -> pd.DataFrame:
    """A readable copy of a :func:`pairwise_table` result, as the paper prints it.

    X^2 and the critical value to one decimal, p-values to two significant digits,
    levels to three decimals, intervals as ``[low, high]`` to two decimals.
    Returns a DataFrame of strings indexed by pair; the numbers are unchanged in
    ``table``. Under ``adjust="bh"`` or ``"by"`` the column ``"adjusted CI"`` is named
    ``"CI (unadjusted: FDR has no joint CI)"``: it holds the unadjusted intervals.
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
        default = (f"{pct}Quesenberry-Hurst intervals ({adjust.upper()} controls the false discovery "
                   "rate; no joint intervals: grey = unadjusted)")
    else:
        default = f"{pct}Quesenberry-Hurst intervals (wider: {adjust} adjustment{joint})"
    ax.set_title(title or default)
    # beside the axes: "best" can still sit on an interval, and searching for it is slow to draw
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1), fontsize="small", frameon=False)
    return ax


# --------------------------------------------------- p-value versus interval
def describe_comparison(b: int, c: int, n: int, *, alpha: float = 0.05) -> str:
    """One paragraph: what McNemar's p-value says, and what the interval says.

    The paper's point in plain words: the p-value gives a yes/no about the null
    hypothesis; the interval gives the size of the difference and its precision. The
    interval (the signed Quesenberry-Hurst interval of :func:`qh_interval`) is read in
    percentage points of error rate, as the differences the data are compatible with;
    with no disagreement (``b = c = 0``) it collapses to the single point 0, which is
    said as such rather than read as a precise result.

    Parameters
    ----------
    b, c : int
        Discordant counts: cases only A gets wrong, cases only B gets wrong.
    n : int
        Test-set size.
    alpha : float, default 0.05
        Level of the test; the interval is at confidence ``1 - alpha``.

    Returns
    -------
    str
        Two lines, ``"Test: ..."`` (Yates-corrected and exact p-values) and
        ``"Interval: ..."``.

    References
    ----------
    D. Berrar and J. A. Lozano (2013), J. Exp. Theor. Artif. Intell. 25(2), 189-206,
    eqs. (2), (4)-(5) and section 8.

    Examples
    --------
    The paper's comparison (1, 2):

    >>> from evallib import describe_comparison
    >>> print(describe_comparison(0, 2, 50).splitlines()[1])  # doctest: +ELLIPSIS
    Interval: ... [-0.090, +0.015] ... up to 9.0 percentage points below or up to 1.5 percentage points above B's.
    """
    test = mcnemar(b, c)
    exact = mcnemar(b, c, exact=True)
    ci = qh_interval(b, c, n, alpha=alpha, signed=True)
    level = f"{100 * (1 - alpha):g}%"
    verdict = "significant" if test.pvalue <= alpha else "not significant"
    def points(v: float) -> str:   # a difference of two rates, in percentage points
        return f"{100 * v:.1f} percentage points"

    if ci.low > 0:
        who = (f"the data are compatible with A's error rate being between {100 * ci.low:.1f} and "
               f"{points(ci.high)} above B's")
    elif ci.high < 0:
        who = (f"the data are compatible with A's error rate being between {-100 * ci.high:.1f} and "
               f"{points(-ci.low)} below B's")
    elif b + c == 0:   # the interval [0, 0]: degenerate, not precise
        who = ("with no disagreement the interval collapses to the single point 0; it says nothing "
               "about how large the difference could be")
    else:
        who = (f"the data are compatible with A's error rate being up to {points(-ci.low)} below "
               f"or up to {points(ci.high)} above B's")
    return (
        f"Test: X^2 = {test.statistic:.2f}, p = {test.pvalue:.3g} (exact p = {exact.pvalue:.3g}): "
        f"{verdict} at alpha = {alpha:g}.\n"
        f"Interval: the observed difference of error rates A - B is {(b - c) / n:+.3f}; "
        f"the {level} interval is [{ci.low:+.3f}, {ci.high:+.3f}] (width {ci.width:.3f}): {who}."
    )


def plot_pvalue_vs_interval(b: int, c: int, n: int, *, alpha: float = 0.05, axes=None):
    """Side by side, for one comparison: what the p-value says and what the interval says.

    Left: the null distribution of ``b`` given ``b + c`` disagreements (Binomial
    with p = 1/2), one step per outcome; the outcomes "as extreme as or more extreme
    than" the one observed, which all enter the exact p-value although they did not
    happen (section 8), are shaded red. Right: the signed interval of eqs. (4)-(5) for
    ``tau_A - tau_B`` with the null value.

    Called again with ``axes`` it drew on before, it updates that drawing in place
    (the steps, the marks, the titles) instead of drawing anew: a slider's callback
    then costs one computation and one rendering.

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
        The left Axes holds two ``StepPatch`` artists (grey: the other outcomes, red:
        the extreme ones), whose ``get_data()`` give each outcome's probability.
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
    edges = np.arange(m + 2) - 0.5
    grey_h, red_h = np.where(extreme, 0.0, pmf), np.where(extreme, pmf, 0.0)
    diff = (b - c) / n
    bound = max(0.1, abs(ci.low), abs(ci.high)) * 1.15
    p_title = f"p-value: Yates {test.pvalue:.3g}, exact {exact.pvalue:.3g}"
    ci_title = f"{100 * (1 - alpha):g}% interval [{ci.low:+.3f}, {ci.high:+.3f}]"
    drawn = getattr(ax_p, "_evallib_pvalue_interval", None)
    if drawn is None:
        grey = ax_p.stairs(grey_h, edges, fill=True, color="0.8", label="other outcomes")
        red = ax_p.stairs(red_h, edges, fill=True, color="C3", label="as or more extreme")
        observed = ax_p.axvline(b, color="k", linewidth=1, label="observed b")
        ax_p.set_ylabel("probability")
        ax_p.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
        bar = ax_ci.errorbar([0], [diff], yerr=[[diff - ci.low], [ci.high - diff]],
                             fmt="o", color="C0", capsize=6, linewidth=2)
        ax_ci.axhline(0.0, color="C3", linestyle="--", linewidth=1)
        ax_ci.set_xticks([])
        ax_ci.set_xlim(-1, 1)
        ax_ci.set_ylabel(r"$\tau_A - \tau_B$")
        ax_p._evallib_pvalue_interval = {"grey": grey, "red": red, "observed": observed, "bar": bar}
    else:
        drawn["grey"].set_data(grey_h, edges)
        drawn["red"].set_data(red_h, edges)
        drawn["observed"].set_xdata([b, b])
        point, caps, (segments,) = drawn["bar"].lines
        point.set_data([0], [diff])
        caps[0].set_data([0], [ci.low])
        caps[1].set_data([0], [ci.high])
        segments.set_segments([[(0, ci.low), (0, ci.high)]])
    ax_p.set_xlim(-0.5, m + 0.5)
    ax_p.set_ylim(0, 1.08 * float(pmf.max()))
    ax_p.set_xlabel("b (errors of A only) under H0, given b + c = %d" % m)
    ax_p.set_title(p_title)
    ax_ci.set_ylim(-bound, bound)
    ax_ci.set_title(ci_title)
    return np.asarray(axes)