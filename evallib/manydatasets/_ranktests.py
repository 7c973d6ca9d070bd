"""Interpreting results over several data sets: Flach (2012), chapter 12, section 12.3.

The rank-based tests of P. Flach, *Machine Learning* (Cambridge University Press, 2012),
chapter 12 "Machine learning experiments", after Demšar (2006), *Statistical
comparisons of classifiers over multiple data sets*, JMLR 7, 1-30:

* Example 12.7 -- Wilcoxon's signed-rank test for two learners over ``n`` data sets,
  with the exact null distribution of the signed-rank statistic, its critical value
  and p-value computed, not looked up (:func:`wilcoxon_signed_rank`,
  :func:`signed_rank_null`, :func:`wilcoxon_critical_value`);
* Example 12.8 -- the Friedman test for ``k`` learners over ``n`` data sets, by the
  book's three quantities, with the chi-square and Iman–Davenport p-values and the
  exact null distribution for small tables (:func:`friedman`,
  :func:`friedman_null_distribution`, :func:`friedman_critical_value`);
* eq. (12.1) -- the Nemenyi critical difference ``CD = q_alpha sqrt(k(k+1)/(6n))``
  and its Bonferroni–Dunn variant for comparisons with a control
  (:func:`critical_difference`, :func:`rank_differences`);
* Figure 12.1 -- critical-difference diagrams (:func:`cd_cliques`,
  :func:`evallib.manydatasets.plot_cd_diagram`, which also draws post-hoc cliques).

The books' tables they are shown on (Flach's Example 12.4, Demšar's Table 6) and the offline
benchmark of notebook 07 are paper artefacts: they live in :mod:`evallib.studies`.

Ranks follow the book: rank 1 is the *best* performance.
"""

from __future__ import annotations

import io
import itertools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._inference import check_alternative, tail_pvalue
from .._validate import (
    check_alpha,
    check_array,
    check_choice,
    check_count,
    check_real,
)

__all__ = [
    "WilcoxonResult",
    "FriedmanResult",
    "CriticalDifference",
    "CD_TESTS",
    "signed_rank_null",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
    "SignTestResult",
    "sign_test",
    "snap_ties",
    "TIE_RTOL",
    "friedman",
    "friedman_null_distribution",
    "friedman_critical_value",
    "critical_difference",
    "rank_differences",
    "cd_cliques",
    "scores_from_text",
    "critical_difference_table",
]

CD_TESTS = ("nemenyi", "bonferroni-dunn")

#: Largest number of non-zero differences for which ``method="auto"`` uses the exact
#: signed-rank distribution (above it, the normal approximation).
EXACT_WILCOXON_MAX_N = 200


# ------------------------------------------------------------------- validation
def _as_table(scores: Any, missing: str = "") -> tuple[pd.DataFrame, np.ndarray]:
    """``scores`` as a data sets x algorithms frame and its float values; ``missing`` is the
    phrase the type errors add (e.g. ``", NaN for missing"``)."""
    if isinstance(scores, pd.DataFrame):
        table = scores.copy()
    else:
        try:
            arr = np.asarray(scores, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"scores must be a table of numbers (data sets x algorithms){missing}") from None
        if arr.ndim != 2:
            raise ValueError(
                f"scores must be two-dimensional (rows: data sets, columns: algorithms), got shape {arr.shape}")
        table = pd.DataFrame(arr, columns=[f"algorithm {j + 1}" for j in range(arr.shape[1])])
    try:
        values = table.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"scores must hold numbers only (rows: data sets, columns: algorithms){missing}") from None
    return table, values


def _check_scores(scores: Any) -> pd.DataFrame:
    """A data sets x algorithms table of finite numbers, at least 2 x 2."""
    table, values = _as_table(scores)
    n, k = values.shape
    if k < 2:
        raise ValueError(f"scores must have at least 2 algorithms (columns) to compare, got {k}")
    if n < 2:
        raise ValueError(f"scores must have at least 2 data sets (rows), got {n}")
    if not np.isfinite(values).all():
        raise ValueError("scores must not contain NaN or infinite values; every algorithm needs a "
                         "score on every data set")
    if table.columns.has_duplicates:
        raise ValueError(f"scores must have distinct algorithm names, got {list(table.columns)}")
    return pd.DataFrame(values, index=table.index, columns=table.columns)


# ------------------------------------------------------- ties in floating point
#: Default relative tolerance below which two scores (or differences) count as equal.
TIE_RTOL = 1e-9


def _check_rtol(rtol: Any) -> float:
    return check_real(rtol, "rtol", low=0, high=1e-3)


def _tie_tolerance(values: np.ndarray, rtol: float) -> float:
    """Absolute tolerance: ``rtol`` times the largest absolute value, at least ``rtol``."""
    return rtol * max(1.0, float(np.max(np.abs(values))) if values.size else 1.0)


def snap_ties(values: Any, *, rtol: float = TIE_RTOL) -> np.ndarray:
    """Values equal up to a relative tolerance, made exactly equal (and near-zeros exactly 0).

    Scores computed from counts are rarely exact in binary floating point:
    ``0.1 + 0.2`` is not ``0.3`` and ``0.3 - (0.1 + 0.2)`` is ``-5.6e-17``, not 0.
    Ranking such numbers raw turns ties into wins and zero differences into
    losses. Sort the values and join neighbours less than
    ``tol = rtol * max(1, max|values|)`` apart into one group (a chain: a group's
    outermost members may be a few ``tol`` apart); every member of a group takes
    the value of its member smallest in absolute value (so ``snap_ties(-x) ==
    -snap_ties(x)``), and a group within ``tol`` of 0 becomes exactly 0.

    Parameters
    ----------
    values : array of float (any shape; groups are formed over all of it)
    rtol : float
        Relative tolerance in ``[0, 1e-3]``; 0 keeps the values exactly as given.
        The default ``1e-9`` is far above rounding error (about ``1e-16`` per
        operation) and far below any difference a study reports.

    Returns
    -------
    numpy.ndarray of the same shape.

    Examples
    --------
    >>> snap_ties([0.1 + 0.2, 0.3, 0.3 - (0.1 + 0.2)]).tolist()
    [0.3, 0.3, 0.0]
    """
    rtol = _check_rtol(rtol)
    arr = np.array(values, dtype=float)
    if arr.size == 0 or rtol == 0:
        return arr
    flat = arr.ravel()
    tol = _tie_tolerance(flat, rtol)
    order = np.argsort(flat, kind="stable")
    sorted_vals = flat[order]
    breaks = np.flatnonzero(np.diff(sorted_vals) > tol) + 1
    out = np.empty_like(flat)
    for group in np.split(np.arange(flat.size), breaks):
        idx = order[group]
        members = sorted_vals[group]
        value = float(members[np.argmin(np.abs(members))])
        out[idx] = 0.0 if abs(value) <= tol else value
    return out.reshape(arr.shape)


# ----------------------------------------------------------------- Example 12.7
def _rank_weights(ranks: np.ndarray) -> np.ndarray:
    """Ranks as integers on the half-rank scale (average ranks are multiples of 1/2)."""
    doubled = np.asarray(ranks, dtype=float) * 2.0
    out = np.rint(doubled).astype(np.int64)
    if not np.allclose(doubled, out, atol=1e-9) or (out < 1).any():
        raise ValueError("ranks must be positive multiples of 1/2 (ordinary or average ranks)")
    return out


def signed_rank_null(ranks: int | Sequence[float]) -> pd.Series:
    """Exact null distribution of ``R+``, the sum of the ranks with a positive sign.

    Under the null hypothesis each difference is as likely to be positive as
    negative, independently, so ``R+ = sum_i r_i s_i`` with ``s_i`` independent
    fair coin flips. The distribution is built by convolution, one rank at a time
    (exact, and fast: no enumeration of the ``2^n`` sign patterns).

    Parameters
    ----------
    ranks : int or sequence of float
        ``n`` (the ranks 1..n: no ties), or the ranks themselves (average ranks
        with ties, multiples of 1/2); the distribution is then conditional on the ties.

    Returns
    -------
    pandas.Series
        Probabilities indexed by the attainable values of ``R+`` (ascending), summing
        to 1. ``R-`` has the same distribution (it is ``sum(ranks) - R+``).
    """
    if isinstance(ranks, (int, np.integer)) and not isinstance(ranks, bool):
        n = check_count(ranks, "ranks", minimum=1)
        weights = np.arange(1, n + 1, dtype=np.int64) * 2
    else:
        arr = check_array(ranks, "ranks", minimum=1, each="one per data set")
        weights = _rank_weights(arr)
    total = int(weights.sum())
    prob = np.zeros(total + 1)
    prob[0] = 1.0
    top = 0
    for w in weights:
        shifted = np.zeros_like(prob)
        shifted[w:top + w + 1] = prob[:top + 1]
        prob = 0.5 * (prob + shifted)
        top += int(w)
    support = np.flatnonzero(prob > 0)
    return pd.Series(prob[support], index=pd.Index(support / 2.0, name="R+"), name="probability")


def _lower_critical(null: pd.Series, alpha: float) -> float | None:
    """Largest c with P(R+ <= c) <= alpha/2, or None if no value qualifies."""
    cdf = null.cumsum().to_numpy()
    ok = np.flatnonzero(cdf <= alpha / 2.0 * (1 + 1e-12))
    return float(null.index[ok[-1]]) if ok.size else None


def wilcoxon_critical_value(n: int, *, alpha: float = 0.05) -> int | None:
    """The two-sided critical value of Wilcoxon's signed-rank test for ``n`` data sets.

    The largest ``c`` such that ``P(T <= c) <= alpha/2`` under the null hypothesis,
    from the exact distribution (:func:`signed_rank_null`); reject when the smaller
    rank sum ``T = min(R+, R-)`` is ``<= c``. This is what statistical tables list
    (Example 12.7: 8 for ``n = 10`` at ``alpha = 0.05``).

    Parameters
    ----------
    n : int
        Number of data sets (non-zero differences, no ties), >= 1.
    alpha : float
        Two-sided level, in (0, 1).

    Returns
    -------
    int or None
        ``None`` when even ``T = 0`` is not significant (``n <= 5`` at 0.05).

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.
    .. [2] Wilcoxon, F. (1945). Individual comparisons by ranking methods. *Biometrics Bulletin*,
       1(6), 80-83.

    Examples
    --------
    Example 12.7: for n = 10 and alpha = 0.05 the critical value is 8.

    >>> from evallib import wilcoxon_critical_value
    >>> wilcoxon_critical_value(10, alpha=0.05)
    8
    """
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    c = _lower_critical(signed_rank_null(n), alpha)
    return None if c is None else int(c)


@dataclass(frozen=True)
class WilcoxonResult:
    """Wilcoxon's signed-rank test (Example 12.7; Demšar 2006, section 3.1.3).

    Attributes
    ----------
    n : number of non-zero differences, the ones whose signs are random under the null.
    n_zero : number of zero differences (after :func:`snap_ties`).
    ranks : rank of each ``|difference|`` in the input order (average ranks for ties).
        With ``zero_method="wilcox"`` the zeros are discarded and get 0.0; with
        ``"pratt"`` and ``"zsplit"`` they are ranked with the others.
    r_plus, r_minus : the sums of ranks of positive and of negative differences
        (``"zsplit"``: each zero adds half its rank to both).
    statistic : the rank sum compared with ``critical_value``:
        ``T = min(r_plus, r_minus)`` (two-sided), ``r_plus`` (``alternative="less"``) or
        ``r_minus`` (``alternative="greater"``); small values are evidence against the null.
    critical_value : the largest ``c`` with ``P(statistic <= c) <= alpha/2``
        (two-sided) or ``<= alpha`` (one-sided) under the null (exact or normal, as
        ``method``); ``None`` if no outcome is significant.
    pvalue : the p-value, ``P(statistic <= observed)`` under the null, doubled
        (and capped at 1) for the two-sided test.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    method : ``"exact"`` or ``"normal"``.
    ties : whether some non-zero ``|differences|`` were tied.
    zero_method, alternative, correction : the options used.
    rank_biserial : the matched-pairs rank-biserial correlation
        ``(r_plus - r_minus) / (r_plus + r_minus)`` (Kerby 2014), in [-1, 1]: the share of the
        rank sum favouring the first learner minus the share favouring the second.
    """

    n: int
    n_zero: int
    ranks: tuple[float, ...]
    r_plus: float
    r_minus: float
    statistic: float
    critical_value: float | None
    pvalue: float
    reject: bool
    alpha: float
    method: str
    ties: bool
    zero_method: str = "wilcox"
    alternative: str = "two-sided"
    correction: bool = False
    rank_biserial: float = 0.0


ZERO_METHODS = ("wilcox", "pratt", "zsplit", "demsar")


def wilcoxon_signed_rank(
    differences: Sequence[float], *, alpha: float = 0.05, method: str = "auto",
    zero_method: str = "wilcox", alternative: str = "two-sided", correction: bool = False,
    rtol: float = TIE_RTOL,
) -> WilcoxonResult:
    """Wilcoxon's signed-rank test for two learners over several data sets (Example 12.7).

    Rank the absolute performance differences from smallest (rank 1) to largest,
    sum the ranks of the positive and of the negative differences separately, and
    take the smaller sum ``T`` as the statistic (Demšar 2006, eq. 1, without the
    zeros' share unless ``zero_method="zsplit"``). Under the null hypothesis (the
    differences are symmetric about 0) every sign pattern is equally likely.

    Parameters
    ----------
    differences : sequence of float
        One performance difference per data set (e.g. accuracy of A minus accuracy
        of B); at least 2 values, finite, not all zero.
    alpha : float
        Significance level, in (0, 1).
    method : {"auto", "exact", "normal"}
        ``"exact"``: the exact null distribution (:func:`signed_rank_null`), given
        the ranks (ties included). ``"normal"``: the rank sum approximately normal
        with mean ``sum(r)/2`` and variance ``sum(r^2)/4`` over the ranks whose sign
        is random (the book: for at least 25 data sets). ``"auto"``: exact for up to
        200 non-zero differences.
    zero_method : {"wilcox", "pratt", "zsplit", "demsar"}
        What to do with zero differences (ties between the learners).
        ``"wilcox"``: discard them, rank the rest (Wilcoxon 1945). ``"pratt"``: rank
        them with the others, then leave their ranks out of both sums (Pratt 1959).
        ``"zsplit"``: rank them with the others and add half of each zero's rank to
        ``r_plus`` and half to ``r_minus`` (Demšar 2006, eq. 1). With ``"zsplit"``
        the exact distribution treats the zeros' halves as fixed; the normal
        approximation follows Demšar and scipy and counts all ``N`` ranks, zeros
        included, in the mean and variance. ``"demsar"``: as ``"zsplit"``, but "if
        there is an odd number of them, one is ignored" (Demšar 2006, section
        3.1.3): the first zero is discarded before ranking.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the differences tend to be positive (the first learner is
        better when the differences are "first minus second" of a score where
        higher is better); ``"less"``: they tend to be negative.
    correction : bool
        Continuity correction of the normal approximation (move the rank sum half a
        unit towards the mean, as scipy's ``correction=True``); ignored by the
        exact method.
    rtol : float
        Relative tolerance for ties (:func:`snap_ties`): differences within
        ``rtol * max(1, max|d|)`` of 0 are zeros, and ``|differences|`` that close to
        each other are tied. 0 compares the floats exactly.

    Returns
    -------
    WilcoxonResult

    Raises
    ------
    ValueError
        Fewer than two differences, NaN/inf, all differences zero, or a bad
        ``alpha``, ``method``, ``zero_method``, ``alternative`` or ``rtol``.

    Notes
    -----
    Degenerate but legal input:

    * *ties* among the ``|differences|`` get their average rank; the exact
      distribution is then the one conditional on those tied ranks (the
      permutation distribution of the sign flips), so the p-value stays exact and
      the critical value may be a half-integer;
    * with ``n`` so small that no outcome is significant (``n <= 5`` at 0.05),
      ``critical_value`` is ``None`` and the test cannot reject.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.
    .. [2] Wilcoxon, F. (1945). Individual comparisons by ranking methods. *Biometrics Bulletin*,
       1(6), 80-83.
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30 (section 3.1.3, Table 2).
    .. [4] Pratt, J. W. (1959). Remarks on zeros and ties in the Wilcoxon signed rank procedures.
       *JASA* 54, 655-667.
    .. [5] Kerby, D. S. (2014). The simple difference formula: an approach to teaching
       nonparametric correlation. *Comprehensive Psychology* 3, 11.IT.3.1.

    Examples
    --------
    Example 12.7: naive Bayes against the decision tree; the book's rank sums are 8 and 47,
    and T = 8 is at the critical value 8, so the difference is significant at 5%.

    >>> from evallib import wilcoxon_signed_rank
    >>> from evallib.studies import flach_example_12_4
    >>> acc = flach_example_12_4()
    >>> res = wilcoxon_signed_rank(acc["Naive Bayes"] - acc["Decision tree"], alpha=0.05)
    >>> res.r_plus, res.r_minus, res.critical_value, res.reject
    (8.0, 47.0, 8.0, True)

    Demšar's Table 2 (AUC of C4.5+m minus C4.5 on 14 data sets), with his
    convention for the two zero differences: ``R+ = 93``, ``R- = 12``, ``T = 12``.

    >>> c45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1.000,
    ...        0.940, 0.619, 0.972, 0.957]
    >>> c45m = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.000,
    ...         0.962, 0.666, 0.981, 0.978]
    >>> res = wilcoxon_signed_rank([m - c for m, c in zip(c45m, c45)], zero_method="zsplit")
    >>> res.r_plus, res.r_minus, res.statistic
    (93.0, 12.0, 12.0)
    """
    d = check_array(differences, "differences", minimum=2, each="one per data set")
    alpha = check_alpha(alpha)
    method = check_choice(method, "method", ("auto", "exact", "normal"))
    zero_method = check_choice(zero_method, "zero_method", ZERO_METHODS)
    alternative = check_alternative(alternative)
    if not isinstance(correction, (bool, np.bool_)):
        raise TypeError(f"correction must be True or False, got {correction!r}")
    d = snap_ties(d, rtol=rtol)
    nonzero = d != 0
    if not nonzero.any():
        raise ValueError("differences are all zero: the two learners never differ, so there is "
                         "nothing to rank (the signed-rank test needs at least one non-zero difference)")
    absd = snap_ties(np.abs(d), rtol=rtol)
    ranked = np.ones(d.size, dtype=bool)        # the differences that get a rank
    if zero_method == "wilcox":
        ranked = nonzero.copy()
    elif zero_method == "demsar" and int((~nonzero).sum()) % 2 == 1:
        ranked[np.flatnonzero(~nonzero)[0]] = False
    ranks = np.zeros(d.size)
    ranks[ranked] = stats.rankdata(absd[ranked], method="average")
    r = ranks[nonzero]                          # the ranks whose signs are random
    split = zero_method in ("zsplit", "demsar")
    zero_share = float(ranks[~nonzero].sum()) / 2.0 if split else 0.0
    r_plus = float(ranks[d > 0].sum()) + zero_share
    r_minus = float(ranks[d < 0].sum()) + zero_share
    n = int(r.size)
    ties = bool(np.unique(r).size < r.size)
    if alternative == "two-sided":
        t = min(r_plus, r_minus)
        tail = alpha / 2.0
    else:
        t = r_plus if alternative == "less" else r_minus
        tail = alpha
    if method == "auto":
        method = "exact" if n <= EXACT_WILCOXON_MAX_N else "normal"
    if method == "exact":
        null = signed_rank_null(r)
        null.index = null.index + zero_share
        p_low = float(null[null.index <= t + 1e-9].sum())
        crit = _lower_critical(null, 2.0 * tail)
    else:
        used = ranks[ranked] if split else r
        mean = used.sum() / 2.0
        sd = math.sqrt((used ** 2).sum() / 4.0)
        shift = 0.5 if correction else 0.0
        p_low = float(stats.norm.cdf((t - mean + shift) / sd))
        crit = float(mean - shift - stats.norm.isf(tail) * sd)
        crit = crit if crit >= 0 else None
    p = min(1.0, 2.0 * p_low) if alternative == "two-sided" else min(1.0, p_low)
    total = r_plus + r_minus
    return WilcoxonResult(
        n=n, n_zero=int(d.size - n), ranks=tuple(float(v) for v in ranks), r_plus=r_plus,
        r_minus=r_minus, statistic=float(t), critical_value=crit, pvalue=p, reject=p <= alpha,
        alpha=alpha, method=method, ties=ties, zero_method=zero_method, alternative=alternative,
        correction=bool(correction), rank_biserial=float((r_plus - r_minus) / total),
    )


@dataclass(frozen=True)
class SignTestResult:
    """The sign test (Demšar 2006, section 3.1.2).

    Attributes
    ----------
    wins, losses : data sets on which the first learner is better / worse, after
        sharing out the ties (see ``ties``).
    n_ties : zero differences (after :func:`snap_ties`).
    n : ``wins + losses``, the number of trials of the binomial test.
    statistic : ``wins``.
    pvalue : the exact binomial p-value (``p = 1/2``) for ``alternative``.
    reject : ``pvalue <= alpha``.
    alpha, alternative, ties, method : the options used.
    """

    wins: float
    losses: float
    n_ties: int
    n: int
    statistic: float
    pvalue: float
    reject: bool
    alpha: float
    alternative: str
    ties: str
    method: str = "exact"


def sign_test(
    differences: Sequence[float], *, alpha: float = 0.05, alternative: str = "two-sided",
    ties: str = "demsar", method: str = "exact", rtol: float = TIE_RTOL,
) -> SignTestResult:
    """The sign test: count wins and losses, and test them against a fair coin.

    Under the null hypothesis each learner wins on a data set with probability 1/2,
    so the number of wins is binomial (Demšar 2006, section 3.1.4).

    Parameters
    ----------
    differences : sequence of float
        One difference per data set (first learner minus second), at least 2.
    alpha : float
        Level in (0, 1).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the first learner wins more often than not.
    ties : {"demsar", "drop"}
        ``"demsar"``: ties count half for each learner; with an odd number of ties
        one is discarded (Demšar's rule). ``"drop"``: ties are discarded (the
        textbook sign test).
    method : {"exact", "normal"}
        ``"exact"``: the binomial p-value (scipy's ``binomtest``). ``"normal"``:
        wins approximately ``N(n/2, sqrt(n)/2)``, no continuity correction, which is
        how Demšar's Table 3 critical values ``n/2 + 1.96 sqrt(n)/2`` (rounded up)
        arise; for 14 data sets it accepts 11 wins at 0.05 where the exact
        two-sided test needs 12.
    rtol : float
        Differences within ``rtol * max(1, max|d|)`` of 0 are ties (:func:`snap_ties`).

    Returns
    -------
    SignTestResult

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data
    sets. JMLR 7, 1-30, section 3.1.4 and Table 3.

    Examples
    --------
    Demšar's Table 2: C4.5+m beats C4.5 on 10 data sets, loses on 2, ties on 2;
    sharing the ties gives his "11 out of 14", significant by his Table 3 (normal
    approximation) but not by the exact binomial test.

    >>> c45 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1.000,
    ...        0.940, 0.619, 0.972, 0.957]
    >>> c45m = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.000,
    ...         0.962, 0.666, 0.981, 0.978]
    >>> res = sign_test([m - c for m, c in zip(c45m, c45)])
    >>> res.wins, res.n, round(res.pvalue, 4)
    (11.0, 14, 0.0574)
    >>> round(sign_test([m - c for m, c in zip(c45m, c45)], method="normal").pvalue, 4)
    0.0325
    """
    d = check_array(differences, "differences", minimum=2, each="one per data set")
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative)
    ties = check_choice(ties, "ties", ("demsar", "drop"))
    method = check_choice(method, "method", ("exact", "normal"))
    d = snap_ties(d, rtol=rtol)
    wins, losses, n_ties = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
    if ties == "demsar":
        wins += n_ties // 2
        losses += n_ties // 2
    n = wins + losses
    if n == 0:
        p = 1.0
    elif method == "exact":
        p = float(stats.binomtest(wins, n, 0.5, alternative=alternative).pvalue)
    else:
        p = tail_pvalue((wins - n / 2.0) / (math.sqrt(n) / 2.0), None, alternative)
    return SignTestResult(wins=float(wins), losses=float(losses), n_ties=n_ties, n=n,
                          statistic=float(wins), pvalue=p, reject=p <= alpha, alpha=alpha,
                          alternative=alternative, ties=ties, method=method)

# ----------------------------------------------------------------- Example 12.8
@dataclass(frozen=True, eq=False)
class FriedmanResult:
    """The Friedman test by Flach's three quantities (Example 12.8).

    Attributes
    ----------
    ranks : pandas.DataFrame, the rank ``R_ij`` of algorithm ``j`` on data set ``i``
        (1 = best; ties get their average rank).
    avg_ranks : pandas.Series, ``R_j``, the average rank of each algorithm.
    mean_rank : ``R̄ = (k + 1)/2``.
    between : ``n sum_j (R_j - R̄)^2``, the spread of the rank "centroids".
    within : ``1/(n(k-1)) sum_ij (R_ij - R̄)^2``, the spread over all ranks
        (``k(k+1)/12`` without ties, and always with ``tie_correction=False``).
    statistic : ``between / within``, Friedman's chi-square statistic (corrected
        for ties automatically).
    df : ``k - 1``.
    pvalue : from the chi-square distribution with ``k - 1`` df.
    iman_davenport : ``F = (n-1) statistic / (n(k-1) - statistic)``.
    f_df : ``(k - 1, (k - 1)(n - 1))``, the F distribution's degrees of freedom.
    f_pvalue : p-value of ``iman_davenport``.
    n, k : numbers of data sets and algorithms.
    """

    ranks: pd.DataFrame
    avg_ranks: pd.Series
    mean_rank: float
    between: float
    within: float
    statistic: float
    df: int
    pvalue: float
    iman_davenport: float
    f_df: tuple[int, int]
    f_pvalue: float
    n: int
    k: int


def friedman(
    scores: Any, *, higher_is_better: bool = True, tie_correction: bool = True, rtol: float = TIE_RTOL,
) -> FriedmanResult:
    """The Friedman test for ``k`` algorithms over ``n`` data sets (Example 12.8).

    Rank the algorithms on each data set (rank 1 = best), average the ranks per
    algorithm, and compute Flach's three quantities: the mean rank
    ``R̄ = (k + 1)/2``, the between-algorithm spread ``n sum_j (R_j - R̄)^2`` and the
    overall spread ``1/(n(k-1)) sum_ij (R_ij - R̄)^2``. Their ratio is the Friedman
    statistic, referred to the chi-square distribution with ``k - 1`` degrees of
    freedom; Iman and Davenport's ``F`` (Demšar 2006, eq. 4) is given beside it.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows are data sets (at least 2), columns algorithms (at least 2), finite
        numbers. Column names are used as algorithm names.
    higher_is_better : bool
        ``True`` for accuracies (the highest score gets rank 1); ``False`` for
        error rates.
    tie_correction : bool
        ``True`` (default, as scipy's ``friedmanchisquare`` and R's
        ``friedman.test``): the overall spread is computed from the actual ranks,
        which corrects the statistic for ties. ``False``: the spread of untied
        ranks, ``k(k+1)/12``, whatever the ties, which is Demšar's eq. (3) as
        printed and reproduces his chi-square 9.28 and ``F_F = 3.69`` for Table 6
        (with the correction: 10.23 and 4.19).
    rtol : float
        Relative tolerance: scores within ``rtol * max(1, max|score|)`` of each
        other are tied (:func:`snap_ties`); 0 compares the floats exactly.

    Returns
    -------
    FriedmanResult

    Notes
    -----
    Ties within a data set get the average of the ranks they span. The ratio of the
    book's second and third quantities is then exactly the tie-corrected Friedman
    statistic (the one scipy's ``friedmanchisquare`` computes), since ties shrink the
    overall spread. Degenerate but legal input: if every data set ties all
    algorithms, the overall spread is 0 and there is no evidence of a difference:
    ``statistic = 0``, ``pvalue = 1``, ``iman_davenport = 0``, ``f_pvalue = 1``. If
    every data set ranks the algorithms identically (no ties), the statistic reaches
    its maximum ``n(k - 1)``, the F statistic is infinite and ``f_pvalue = 0``.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.
    .. [2] Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit
       in the analysis of variance. *JASA*, 32(200), 675-701.
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30 (eqs. 3-4, Table 6).

    Examples
    --------
    Example 12.8: average ranks 2.3, 1.6 and 2.1, "so the Friedman statistic is 2.6".

    >>> from evallib import friedman
    >>> from evallib.studies import flach_example_12_4, demsar_table_6
    >>> res = friedman(flach_example_12_4())
    >>> res.avg_ranks.round(1).tolist(), round(res.statistic, 1)
    ([2.3, 1.6, 2.1], 2.6)

    Demšar's Table 6 through his printed ranks (:func:`evallib.studies.demsar_table_6`; ranks are
    scores where lower is better):

    >>> printed = demsar_table_6(ranks=True)
    >>> res = friedman(printed, higher_is_better=False, tie_correction=False)
    >>> round(res.statistic, 2), round(res.iman_davenport, 2)
    (9.28, 3.69)
    >>> res = friedman(printed, higher_is_better=False)
    >>> round(res.statistic, 2), round(res.iman_davenport, 2)
    (10.23, 4.19)
    """
    table = _check_scores(scores)
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    if not isinstance(tie_correction, (bool, np.bool_)):
        raise TypeError(f"tie_correction must be True or False, got {tie_correction!r}")
    values = snap_ties(table.to_numpy(), rtol=rtol)
    n, k = values.shape
    ranks = stats.rankdata(-values if higher_is_better else values, method="average", axis=1)
    ranks_df = pd.DataFrame(ranks, index=table.index, columns=table.columns)
    avg = ranks_df.mean(axis=0)
    avg.name = "average rank"
    mean_rank = (k + 1) / 2.0
    between = float(n * ((avg.to_numpy() - mean_rank) ** 2).sum())
    if tie_correction:
        within = float(((ranks - mean_rank) ** 2).sum() / (n * (k - 1)))
    else:
        within = k * (k + 1) / 12.0
    df1, df2 = k - 1, (k - 1) * (n - 1)
    if within <= 1e-12:
        statistic, pvalue, f_stat, f_p = 0.0, 1.0, 0.0, 1.0
    else:
        statistic = between / within
        pvalue = float(stats.chi2.sf(statistic, df1))
        denom = n * (k - 1) - statistic
        if denom <= 1e-9 * n * (k - 1):
            f_stat, f_p = math.inf, 0.0
        else:
            f_stat = (n - 1) * statistic / denom
            f_p = float(stats.f.sf(f_stat, df1, df2))
    return FriedmanResult(
        ranks=ranks_df, avg_ranks=avg, mean_rank=mean_rank, between=between, within=within,
        statistic=float(statistic), df=df1, pvalue=pvalue, iman_davenport=float(f_stat),
        f_df=(df1, df2), f_pvalue=f_p, n=n, k=k,
    )


#: Bound on the work of :func:`friedman_null_distribution` (state transitions, about 1 s).
_FRIEDMAN_EXACT_BUDGET = 3_000_000


def _distinct_orders(row: tuple[int, ...]) -> np.ndarray:
    """Every distinct arrangement of the multiset ``row`` (a data set's doubled ranks), one per line."""
    return np.array(sorted(set(itertools.permutations(row))), dtype=np.int64)


def friedman_null_distribution(k: int, n: int, *, ranks: Any = None) -> pd.Series:
    """Exact null distribution of the Friedman statistic, without ties or given the observed ties.

    Under the null hypothesis each data set ranks the ``k`` algorithms in one of the
    ``k!`` orders, uniformly and independently. The statistic depends only on the
    column rank sums ``S_j``: ``12/(n k (k+1)) sum_j S_j^2 - 3 n (k+1)``. The
    distribution of the (sorted) rank sums is built one data set at a time.

    With ``ranks`` (the observed within-data-set ranks, ties at their average rank, as
    :attr:`FriedmanResult.ranks`), the law is the permutation law *conditional on the
    ties*: each data set's own ranks are permuted across the algorithms, every distinct
    arrangement of them equally likely and the data sets independent (there are ``prod_i
    k! / prod_t m_it!`` tables, ``m_it`` the sizes of data set ``i``'s ties). The statistic
    is then the tie-corrected one of :func:`friedman`, ``n sum_j (R_j - (k+1)/2)^2 /
    (sum_ij (r_ij - (k+1)/2)^2 / (n (k - 1)))``, whose denominator every arrangement
    shares. Without ties this is the unconditional law above.

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 1. Only small tables are feasible (about
        ``k = 3`` up to ``n = 100``, ``k = 4`` up to ``n = 25``, ``k = 5`` up to
        ``n = 10``); larger ones raise ``ValueError`` within about a second (use the
        chi-square or F approximation there, or a Monte Carlo permutation p-value,
        :func:`evallib.manydatasets.skillings_mack_test` with ``method="permutation"``,
        which on a complete table orders the arrangements as Friedman's statistic does).
    ranks : array-like of shape (n, k), optional
        Each data set's ranks of the algorithms (1 = best, ties at their average rank,
        so every rank is a multiple of 0.5 and a row sums to ``k (k + 1) / 2``). None: no ties.

    Returns
    -------
    pandas.Series
        Probabilities indexed by the attainable statistic values, ascending. When every
        data set ties all algorithms (``ranks`` given), the statistic is 0 with probability 1,
        as :func:`friedman` defines it there.

    Examples
    --------
    Three algorithms on two data sets, the second tying two of them: ``3! x 3 = 18``
    equally likely tables; the largest statistic, 3.714 (scipy's ``friedmanchisquare`` of the
    observed ``[[1, 2, 3], [1, 2.5, 2.5]]``), needs the second data set's best to be the
    first's (6 of the 18):

    >>> from evallib.manydatasets import friedman_null_distribution
    >>> law = friedman_null_distribution(3, 2, ranks=[[1, 2, 3], [1, 2.5, 2.5]])
    >>> [(round(v, 3), round(p, 4)) for v, p in law.items()]
    [(0.286, 0.3333), (2.0, 0.3333), (3.714, 0.3333)]
    """
    k = check_count(k, "k", minimum=2)
    n = check_count(n, "n", minimum=1)
    if ranks is None:
        rows = [tuple(range(2, 2 * k + 1, 2))] * n  # doubled ranks 2, 4, ..., 2k
    else:
        given = np.asarray(ranks, dtype=float)
        if given.shape != (n, k):
            raise ValueError(f"ranks must have shape (n, k) = ({n}, {k}), got {given.shape}")
        doubled = np.round(2.0 * given)
        if (not np.all(np.isfinite(given)) or np.any(np.abs(doubled - 2.0 * given) > 1e-9)
                or np.any(np.abs(given.sum(axis=1) - k * (k + 1) / 2.0) > 1e-9)
                or np.any(given < 1) or np.any(given > k)):
            raise ValueError("ranks must be each data set's ranks 1..k with ties at their average rank "
                             "(multiples of 0.5 summing to k (k + 1) / 2 per row)")
        rows = [tuple(sorted(r)) for r in doubled.astype(np.int64).tolist()]
    # each row's sum of squared deviations, in doubled units: the same for every arrangement of it
    spread2 = sum(float(((np.asarray(r) - (k + 1)) ** 2).sum()) for r in rows)
    if spread2 <= 1e-12:  # every data set ties every algorithm: friedman()'s statistic is 0
        return pd.Series([1.0], index=pd.Index([0.0], name="statistic"), name="probability")
    orders: dict[tuple[int, ...], np.ndarray] = {}
    states: dict[tuple[int, ...], float] = {(0,) * k: 1.0}
    work = 0
    for row in rows:
        count = math.factorial(k) // math.prod(math.factorial(c) for c in np.unique(row, return_counts=True)[1])
        work += len(states) * count
        if work > _FRIEDMAN_EXACT_BUDGET:
            raise ValueError(
                f"the exact Friedman distribution for k = {k}, n = {n} is too large to enumerate here; "
                "use method='chi2' (or the Iman–Davenport F of friedman())")
        if row not in orders:
            orders[row] = _distinct_orders(row)
        perms = orders[row]
        share = 1.0 / len(perms)
        new: dict[tuple[int, ...], float] = defaultdict(float)
        for state, p in states.items():
            sums = np.sort(perms + np.asarray(state), axis=1)
            for summed in map(tuple, sums.tolist()):
                new[summed] += p * share
        states = new
    by_ss: dict[int, float] = defaultdict(float)
    for state, p in states.items():
        by_ss[sum(s * s for s in state)] += p
    ss = np.array(sorted(by_ss), dtype=float)
    # doubled sums T_j = 2 S_j: n sum_j (S_j - n(k+1)/2)^2 / n^2 over sum_ij (r_ij - (k+1)/2)^2 / (n (k - 1))
    between = (ss / 4.0 - n * n * k * (k + 1) ** 2 / 4.0) / n
    within = spread2 / 4.0 / (n * (k - 1))
    stat = between / within
    return pd.Series([by_ss[s] for s in sorted(by_ss)], index=pd.Index(np.round(stat, 10), name="statistic"),
                     name="probability")


def friedman_critical_value(k: int, n: int, *, alpha: float = 0.05, method: str = "chi2") -> float:
    """Critical value of the Friedman statistic: reject when the statistic is ``>=`` it.

    Parameters
    ----------
    k, n : int
        Numbers of algorithms (>= 2) and data sets (>= 2).
    alpha : float
        In (0, 1).
    method : {"chi2", "exact"}
        ``"chi2"``: the ``1 - alpha`` quantile of chi-square with ``k - 1`` df.
        ``"exact"``: the smallest attainable value ``c`` with ``P(statistic >= c) <=
        alpha`` under the exact null distribution (:func:`friedman_null_distribution`;
        small tables only), which is what exact tables list.

    Returns
    -------
    float
        ``inf`` if the exact test cannot reach level ``alpha`` at all.
    """
    k = check_count(k, "k", minimum=2)
    n = check_count(n, "n", minimum=2)
    alpha = check_alpha(alpha)
    method = check_choice(method, "method", ("chi2", "exact"))
    if method == "chi2":
        return float(stats.chi2.isf(alpha, k - 1))
    null = friedman_null_distribution(k, n)
    tail = null[::-1].cumsum()[::-1].to_numpy()  # P(statistic >= value)
    ok = np.flatnonzero(tail <= alpha * (1 + 1e-12))
    return float(null.index[ok[0]]) if ok.size else math.inf


# ------------------------------------------------------------------ eq. (12.1)
@dataclass(frozen=True)
class CriticalDifference:
    """A critical difference of average ranks, eq. (12.1).

    Attributes
    ----------
    cd : ``q_alpha * sqrt(k (k + 1) / (6 n))``.
    q_alpha : the critical value of eq. (12.1).
    k, n : numbers of algorithms and data sets.
    alpha : the family-wise level.
    test : ``"nemenyi"`` (all pairs) or ``"bonferroni-dunn"`` (against a control).
    """

    cd: float
    q_alpha: float
    k: int
    n: int
    alpha: float
    test: str

    def __float__(self) -> float:
        return self.cd


def critical_difference(k: int, n: int, *, alpha: float = 0.05, test: str = "nemenyi") -> CriticalDifference:
    """Critical difference for comparing average ranks, eq. (12.1).

    ``CD = q_alpha sqrt(k (k + 1) / (6 n))``. Two algorithms whose average ranks
    differ by at least ``CD`` perform significantly differently.

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 2.
    alpha : float
        Family-wise level, in (0, 1).
    test : {"nemenyi", "bonferroni-dunn"}
        ``"nemenyi"``: all ``k(k-1)/2`` pairs; ``q_alpha`` is the ``1 - alpha``
        quantile of the studentized range of ``k`` means with infinite degrees of
        freedom, divided by ``sqrt(2)`` (Demšar 2006). ``"bonferroni-dunn"``: the
        ``k - 1`` comparisons with a control; ``q_alpha`` is the two-sided normal
        quantile at ``alpha/(k - 1)``, i.e. ``z`` at ``1 - alpha/(2(k - 1))``.

    Returns
    -------
    CriticalDifference

    Notes
    -----
    Flach quotes, for ``alpha = 0.05`` and ``k = 3``, ``q = 2.343`` (Nemenyi) and
    ``q = 2.241`` (Bonferroni–Dunn), and ``CD = 1.047`` for ``n = 10``. The
    studentized range gives ``q = 2.3437`` (Demšar's table prints 2.343) and
    ``CD = 1.0481``, which rounds to 1.048; the book's 1.047 is 2.343 x 0.4472 =
    1.0478 cut off rather than rounded.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.
    .. [2] Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30.

    Examples
    --------
    Eq. (12.1) for k = 3 learners on n = 10 data sets: the book prints q = 2.343 (Nemenyi,
    2.3437 cut short) and 2.241 (Bonferroni–Dunn), and CD = 1.047, where the formula gives
    1.048.

    >>> from evallib import critical_difference
    >>> nem = critical_difference(3, 10, alpha=0.05)
    >>> round(nem.q_alpha, 4), round(nem.cd, 3)
    (2.3437, 1.048)
    >>> round(critical_difference(3, 10, alpha=0.05, test="bonferroni-dunn").q_alpha, 3)
    2.241
    """
    k = check_count(k, "k", minimum=2)
    n = check_count(n, "n", minimum=2)
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", CD_TESTS)
    if test == "nemenyi":
        q = float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)
    else:
        q = float(stats.norm.isf(alpha / (2.0 * (k - 1))))
    cd = q * math.sqrt(k * (k + 1) / (6.0 * n))
    return CriticalDifference(cd=cd, q_alpha=q, k=k, n=n, alpha=alpha, test=test)


def critical_difference_table(k: int, n: int, *, alpha: float = 0.05) -> pd.DataFrame:
    """The critical difference of eq. (12.1) for both post-hoc tests, side by side.

    What notebook 04's sliders for ``alpha``, ``k`` and ``n`` show: how large a
    difference of average ranks must be, for all pairs (Nemenyi) and for the
    ``k - 1`` comparisons with a control (Bonferroni–Dunn).

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        One row per test (``"nemenyi"``, ``"bonferroni-dunn"``), columns ``test``,
        ``q_alpha`` and ``cd`` (see :func:`critical_difference`), with ``k``, ``n``
        and ``alpha`` in ``attrs``.

    References
    ----------
    .. [1] Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30, Table 5 (the critical values).
    .. [2] Flach, P. (2012). *Machine Learning*. Cambridge University Press, eq. (12.1).

    Examples
    --------
    Demšar's Table 5 prints, for ``alpha = 0.05`` and ``k = 4``, ``q = 2.569``
    (Nemenyi) and ``q = 2.394`` (Bonferroni–Dunn):

    >>> from evallib import critical_difference_table
    >>> print(critical_difference_table(4, 14, alpha=0.05).round(3).to_string(index=False))
               test  q_alpha    cd
            nemenyi    2.569 1.254
    bonferroni-dunn    2.394 1.168
    """
    rows = []
    for test in CD_TESTS:
        c = critical_difference(k, n, alpha=alpha, test=test)
        rows.append({"test": test, "q_alpha": c.q_alpha, "cd": c.cd})
    table = pd.DataFrame(rows, columns=["test", "q_alpha", "cd"])
    table.attrs.update(k=c.k, n=c.n, alpha=c.alpha)
    return table


def _check_avg_ranks(avg_ranks: Any) -> pd.Series:
    if isinstance(avg_ranks, pd.Series):
        s = avg_ranks.copy()
    elif isinstance(avg_ranks, Mapping):
        s = pd.Series(dict(avg_ranks))
    else:
        arr = np.asarray(avg_ranks)
        if arr.ndim != 1:
            raise ValueError(f"avg_ranks must be one-dimensional, got shape {arr.shape}")
        s = pd.Series(arr, index=[f"algorithm {j + 1}" for j in range(arr.size)])
    try:
        s = s.astype(float)
    except (TypeError, ValueError):
        raise TypeError("avg_ranks must map algorithm names to numbers") from None
    if s.size < 2:
        raise ValueError(f"avg_ranks must hold at least 2 algorithms, got {s.size}")
    if not np.isfinite(s.to_numpy()).all():
        raise ValueError("avg_ranks must not contain NaN or infinite values")
    if (s < 1).any() or (s > s.size).any():
        raise ValueError(f"avg_ranks must lie in [1, k] = [1, {s.size}], got {s.round(4).to_dict()}")
    if s.index.has_duplicates:
        raise ValueError("avg_ranks must have distinct algorithm names")
    return s


def _cd_value(cd: Any) -> float:
    value = cd.cd if isinstance(cd, CriticalDifference) else cd
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"cd must be a positive number or a CriticalDifference, got {cd!r}")
    return check_real(value, "cd", low=0, low_open=True)


def rank_differences(avg_ranks: Any, cd: Any, *, control: Any = None) -> pd.DataFrame:
    """The post-hoc comparisons: every pair (Nemenyi) or every algorithm against a control.

    Parameters
    ----------
    avg_ranks : pandas.Series or mapping ``{name: average rank}``
    cd : float or CriticalDifference
    control : name, optional
        If given, compare every other algorithm with it (Bonferroni–Dunn);
        otherwise all pairs.

    Returns
    -------
    pandas.DataFrame
        One row per comparison, columns ``a``, ``b`` (``a`` the better ranked, or the
        control), ``rank_a``, ``rank_b``, ``difference`` (``rank_b - rank_a``; for a
        control negative when ``b`` ranks better), ``cd`` and ``significant``
        (``|difference| >= cd``, Demšar's "differ by at least the critical
        difference").
    """
    s = _check_avg_ranks(avg_ranks)
    cd = _cd_value(cd)
    if control is not None:
        if control not in s.index:
            raise ValueError(f"control must be one of the algorithms {list(s.index)}, got {control!r}")
        pairs = [(control, other) for other in s.sort_values(kind="stable").index if other != control]
    else:
        order = s.sort_values(kind="stable").index
        pairs = list(itertools.combinations(order, 2))
    rows = []
    for a, b in pairs:
        diff = float(s[b] - s[a])
        rows.append(dict(a=a, b=b, rank_a=float(s[a]), rank_b=float(s[b]), difference=diff, cd=cd,
                         significant=bool(abs(diff) >= cd - 1e-12)))
    return pd.DataFrame(rows, columns=["a", "b", "rank_a", "rank_b", "difference", "cd", "significant"])


def cd_cliques(avg_ranks: Any, cd: Any) -> list[tuple]:
    """Groups of algorithms a Nemenyi CD diagram joins by a thick line (Figure 12.1, top).

    Sort the algorithms by average rank; a group is a run of consecutively ranked
    algorithms whose outermost members are less than ``cd`` apart. Only maximal
    runs (not contained in another) of two or more algorithms are returned.

    Parameters
    ----------
    avg_ranks : pandas.Series, mapping ``{name: average rank}`` or 1-D array
        The algorithms' average ranks (1 = best), at least 2, each in ``[1, k]``, with
        distinct names; an array's algorithms are named ``"algorithm 1"``, ``"algorithm 2"``, ...
    cd : float or CriticalDifference
        The critical difference, > 0 (a :class:`CriticalDifference` gives its ``cd``).

    Returns
    -------
    list of tuple
        Each tuple lists the names from best to worst rank; the list is ordered by
        the group's best rank.
    """
    s = _check_avg_ranks(avg_ranks).sort_values(kind="stable")
    cd = _cd_value(cd)
    r = s.to_numpy()
    names = list(s.index)
    out = []
    last_end = -1
    for i in range(len(r)):
        j = i
        while j + 1 < len(r) and r[j + 1] - r[i] < cd - 1e-12:
            j += 1
        if j > i and j > last_end:
            out.append(tuple(names[i:j + 1]))
            last_end = j
    return out


# ------------------------------------------------------------- notebook helpers
def scores_from_text(text: str) -> pd.DataFrame:
    """Parse a results table typed as comma-separated text (notebook 04's editor).

    The first line holds a label for the data-set column and then the algorithm
    names; every further line a data-set name and one score per algorithm, e.g.::

        data set, NB, DT, NN
        1, 0.68, 0.75, 0.72
        2, 0.70, 0.90, 0.89

    Blank lines and spaces around values are ignored.

    Parameters
    ----------
    text : str
        The table: a header line and at least 2 data-set lines, the scores numbers.

    Returns
    -------
    pandas.DataFrame
        Rows data sets, columns algorithms, checked as :func:`friedman` requires.

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        If it holds fewer than 3 lines, cannot be read as comma-separated values, or a
        column's scores are not all numbers.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 3:
        raise ValueError("text must hold a header line and at least 2 data-set lines")
    try:
        table = pd.read_csv(io.StringIO("\n".join(lines)), skipinitialspace=True, index_col=0)
    except (ValueError, pd.errors.ParserError) as err:
        raise ValueError(f"text could not be read as comma-separated values: {err}") from None
    table.columns = [str(c).strip() for c in table.columns]
    bad = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
    if bad:
        raise ValueError(f"text: the scores of {bad} are not all numbers")
    return _check_scores(table)
