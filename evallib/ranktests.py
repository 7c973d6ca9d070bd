"""Interpreting results over several data sets: Flach (2012), chapter 12, section 12.3.

The rank-based tests of P. Flach, *Machine Learning* (Cambridge University Press, 2012),
chapter 12 "Machine learning experiments", after Demšar (2006), *Statistical
comparisons of classifiers over multiple data sets*, JMLR 7, 1-30:

* Example 12.7 -- Wilcoxon's signed-rank test for two learners over ``n`` data sets,
  with the exact null distribution of the signed-rank statistic, its critical value
  and p-value computed, not looked up (:func:`wilcoxon_signed_rank`,
  :func:`signed_rank_null`, :func:`wilcoxon_critical_value`);
* Example 12.8 -- the Friedman test for ``k`` learners over ``n`` data sets, by the
  book's three quantities, with the chi-square and Iman-Davenport p-values and the
  exact null distribution for small tables (:func:`friedman`,
  :func:`friedman_null_distribution`, :func:`friedman_critical_value`);
* eq. (12.1) -- the Nemenyi critical difference ``CD = q_alpha sqrt(k(k+1)/(6n))``
  and its Bonferroni-Dunn variant for comparisons with a control
  (:func:`critical_difference`, :func:`rank_differences`);
* Figure 12.1 -- critical-difference diagrams (:func:`cd_cliques`,
  :func:`plot_cd_diagram`);
* Example 12.4's table, shipped in ``data/`` (:func:`flach_example_12_4`).

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

from ._plotting import get_axes
from ._resources import data_path
from ._validate import check_alpha, check_choice, check_count, check_real, check_vector

__all__ = [
    "WilcoxonResult",
    "FriedmanResult",
    "CriticalDifference",
    "CD_TESTS",
    "flach_example_12_4",
    "signed_rank_null",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
    "friedman",
    "friedman_null_distribution",
    "friedman_critical_value",
    "critical_difference",
    "rank_differences",
    "cd_cliques",
    "plot_cd_diagram",
    "scores_from_text",
    "describe_rank_analysis",
]

CD_TESTS = ("nemenyi", "bonferroni-dunn")

#: Largest number of non-zero differences for which ``method="auto"`` uses the exact
#: signed-rank distribution (above it, the normal approximation).
EXACT_WILCOXON_MAX_N = 200


def flach_example_12_4() -> pd.DataFrame:
    """Example 12.4's table: accuracies of three learners in 10-fold cross-validation.

    Typed from Flach (2012), p. 351; read from ``data/flach_example_12_4.csv``.
    Example 12.8 reuses it as if the ten rows were ten data sets.

    Returns
    -------
    pandas.DataFrame
        Index ``fold`` (1-10), columns ``Naive Bayes``, ``Decision tree``,
        ``Nearest neighbour``, accuracies to four decimals as printed.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.

    Examples
    --------
    The book's "avg" line: 0.6937, 0.7902 and 0.7606.

    >>> from evallib import flach_example_12_4
    >>> flach_example_12_4().mean().round(4).tolist()
    [0.6937, 0.7902, 0.7606]
    """
    return pd.read_csv(data_path("flach_example_12_4.csv"), index_col="fold")


# ------------------------------------------------------------------- validation
def _check_scores(scores: Any) -> pd.DataFrame:
    """A data sets x algorithms table of finite numbers, at least 2 x 2."""
    if isinstance(scores, pd.DataFrame):
        table = scores.copy()
    else:
        try:
            arr = np.asarray(scores, dtype=float)
        except (TypeError, ValueError):
            raise TypeError("scores must be a table of numbers (data sets x algorithms)") from None
        if arr.ndim != 2:
            raise ValueError(
                f"scores must be two-dimensional (rows: data sets, columns: algorithms), got shape {arr.shape}")
        table = pd.DataFrame(arr, columns=[f"algorithm {j + 1}" for j in range(arr.shape[1])])
    try:
        values = table.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise TypeError("scores must hold numbers only (rows: data sets, columns: algorithms)") from None
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
        arr = check_vector(ranks, "ranks", minimum=1, each="one per data set")
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
    """Wilcoxon's signed-rank test (Example 12.7).

    Attributes
    ----------
    n : number of non-zero differences, the ones ranked.
    n_zero : number of zero differences, discarded (Wilcoxon's convention).
    ranks : rank of each |difference| in the input order (average ranks for ties;
        0.0 for a discarded zero difference).
    r_plus, r_minus : the sums of ranks of positive and negative differences.
    statistic : ``T = min(r_plus, r_minus)``.
    critical_value : the largest ``c`` with ``P(T <= c) <= alpha/2`` under the null
        (exact or normal, as ``method``); ``None`` if no outcome is significant.
    pvalue : two-sided p-value, ``min(1, 2 P(R+ <= T))``.
    reject : ``pvalue <= alpha`` (equivalently ``statistic <= critical_value``).
    alpha : the level.
    method : ``"exact"`` or ``"normal"``.
    ties : whether some non-zero |differences| were tied (the exact distribution is
        then conditional on the tied ranks).
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


def wilcoxon_signed_rank(
    differences: Sequence[float], *, alpha: float = 0.05, method: str = "auto"
) -> WilcoxonResult:
    """Wilcoxon's signed-rank test for two learners over several data sets (Example 12.7).

    Rank the absolute performance differences from smallest (rank 1) to largest,
    sum the ranks of the positive and of the negative differences separately, and
    take the smaller sum ``T`` as the statistic. Under the null hypothesis (the
    differences are symmetric about 0) every sign pattern is equally likely.

    Parameters
    ----------
    differences : sequence of float
        One performance difference per data set (e.g. accuracy of A minus accuracy
        of B); at least 2 values, finite, not all zero.
    alpha : float
        Two-sided significance level, in (0, 1).
    method : {"auto", "exact", "normal"}
        ``"exact"``: the exact null distribution (:func:`signed_rank_null`).
        ``"normal"``: ``R+`` approximately normal with mean ``sum(r)/2`` and variance
        ``sum(r^2)/4`` (the book: for at least 25 data sets), no continuity
        correction. ``"auto"``: exact for up to 200 non-zero differences.

    Returns
    -------
    WilcoxonResult

    Raises
    ------
    ValueError
        Fewer than two differences, NaN/inf, all differences zero, or a bad
        ``alpha``/``method``.

    Notes
    -----
    Degenerate but legal input:

    * *zero differences* are discarded before ranking (Wilcoxon's original
      convention, scipy's ``zero_method="wilcox"``) and counted in ``n_zero``; the
      test uses the remaining ``n``;
    * *ties* among the |differences| get their average rank; the exact
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

    Examples
    --------
    Example 12.7: naive Bayes against the decision tree; the book's rank sums are 8 and 47,
    and T = 8 is at the critical value 8, so the difference is significant at 5%.

    >>> from evallib import flach_example_12_4, wilcoxon_signed_rank
    >>> acc = flach_example_12_4()
    >>> res = wilcoxon_signed_rank(acc["Naive Bayes"] - acc["Decision tree"], alpha=0.05)
    >>> res.r_plus, res.r_minus, res.critical_value, res.reject
    (8.0, 47.0, 8.0, True)
    """
    d = check_vector(differences, "differences", minimum=2, each="one per data set")
    alpha = check_alpha(alpha)
    method = check_choice(method, "method", ("auto", "exact", "normal"))
    nonzero = d != 0
    if not nonzero.any():
        raise ValueError("differences are all zero: the two learners never differ, so there is "
                         "nothing to rank (the signed-rank test needs at least one non-zero difference)")
    dn = d[nonzero]
    r = stats.rankdata(np.abs(dn), method="average")
    ranks = np.zeros(d.size)
    ranks[nonzero] = r
    r_plus = float(r[dn > 0].sum())
    r_minus = float(r[dn < 0].sum())
    t = min(r_plus, r_minus)
    n = int(dn.size)
    ties = bool(np.unique(r).size < r.size)
    if method == "auto":
        method = "exact" if n <= EXACT_WILCOXON_MAX_N else "normal"
    if method == "exact":
        null = signed_rank_null(r)
        p = float(min(1.0, 2.0 * null[null.index <= t + 1e-9].sum()))
        crit = _lower_critical(null, alpha)
    else:
        mean = r.sum() / 2.0
        sd = math.sqrt((r ** 2).sum() / 4.0)
        p = float(min(1.0, 2.0 * stats.norm.cdf((t - mean) / sd)))
        crit = float(mean - stats.norm.isf(alpha / 2.0) * sd)
        crit = crit if crit >= 0 else None
    return WilcoxonResult(
        n=n, n_zero=int(d.size - n), ranks=tuple(float(v) for v in ranks), r_plus=r_plus,
        r_minus=r_minus, statistic=float(t), critical_value=crit, pvalue=p, reject=p <= alpha,
        alpha=alpha, method=method, ties=ties,
    )


# ----------------------------------------------------------------- Example 12.8
@dataclass(frozen=True)
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
        (``k(k+1)/12`` without ties).
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


def friedman(scores: Any, *, higher_is_better: bool = True) -> FriedmanResult:
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
    .. [3] Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30.

    Examples
    --------
    Example 12.8: average ranks 2.3, 1.6 and 2.1, "so the Friedman statistic is 2.6".

    >>> from evallib import flach_example_12_4, friedman
    >>> res = friedman(flach_example_12_4())
    >>> res.avg_ranks.round(1).tolist(), round(res.statistic, 1)
    ([2.3, 1.6, 2.1], 2.6)
    """
    table = _check_scores(scores)
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    values = table.to_numpy()
    n, k = values.shape
    ranks = stats.rankdata(-values if higher_is_better else values, method="average", axis=1)
    ranks_df = pd.DataFrame(ranks, index=table.index, columns=table.columns)
    avg = ranks_df.mean(axis=0)
    avg.name = "average rank"
    mean_rank = (k + 1) / 2.0
    between = float(n * ((avg.to_numpy() - mean_rank) ** 2).sum())
    within = float(((ranks - mean_rank) ** 2).sum() / (n * (k - 1)))
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


def friedman_null_distribution(k: int, n: int) -> pd.Series:
    """Exact null distribution of the Friedman statistic (no ties).

    Under the null hypothesis each data set ranks the ``k`` algorithms in one of the
    ``k!`` orders, uniformly and independently. The statistic depends only on the
    column rank sums ``S_j``: ``12/(n k (k+1)) sum_j S_j^2 - 3 n (k+1)``. The
    distribution of the (sorted) rank sums is built one data set at a time.

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 1. Only small tables are feasible (about
        ``k = 3`` up to ``n = 100``, ``k = 4`` up to ``n = 25``, ``k = 5`` up to
        ``n = 10``); larger ones raise ``ValueError`` within about a second (use the
        chi-square or F approximation there).

    Returns
    -------
    pandas.Series
        Probabilities indexed by the attainable statistic values, ascending.
    """
    k = check_count(k, "k", minimum=2)
    n = check_count(n, "n", minimum=1)
    perms = np.array(list(itertools.permutations(range(1, k + 1))), dtype=np.int64)
    share = 1.0 / len(perms)
    states: dict[tuple[int, ...], float] = {(0,) * k: 1.0}
    work = 0
    for _ in range(n):
        work += len(states) * len(perms)
        if work > _FRIEDMAN_EXACT_BUDGET:
            raise ValueError(
                f"the exact Friedman distribution for k = {k}, n = {n} is too large to enumerate here; "
                "use method='chi2' (or the Iman-Davenport F of friedman())")
        new: dict[tuple[int, ...], float] = defaultdict(float)
        for state, p in states.items():
            sums = np.sort(perms + np.asarray(state), axis=1)
            for row in map(tuple, sums.tolist()):
                new[row] += p * share
        states = new
    by_ss: dict[int, float] = defaultdict(float)
    for state, p in states.items():
        by_ss[sum(s * s for s in state)] += p
    ss = np.array(sorted(by_ss))
    stat = 12.0 * ss / (n * k * (k + 1)) - 3.0 * n * (k + 1)
    return pd.Series([by_ss[s] for s in ss], index=pd.Index(np.round(stat, 10), name="statistic"),
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
    ``q = 2.241`` (Bonferroni-Dunn), and ``CD = 1.047`` for ``n = 10``. The
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
    2.3437 cut short) and 2.241 (Bonferroni-Dunn), and CD = 1.047, where the formula gives
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
        If given, compare every other algorithm with it (Bonferroni-Dunn);
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


def plot_cd_diagram(avg_ranks: Any, cd: Any, *, control: Any = None, ax=None, title: str | None = None):
    """A critical-difference diagram (Flach, Figure 12.1; Demšar 2006).

    The average ranks are marked on an axis running from 1 (best, left) to ``k``;
    each algorithm's name hangs from its rank, the better half on the left. A bar
    above the axis shows the length ``CD``. Without a control (Nemenyi), thick lines
    join the groups of algorithms that are not significantly different
    (:func:`cd_cliques`). With a ``control`` (Bonferroni-Dunn), the interval
    ``rank(control) -/+ CD`` is drawn around it instead; algorithms outside it
    differ significantly from the control.

    Parameters
    ----------
    avg_ranks : pandas.Series or mapping ``{name: average rank}``
        e.g. ``friedman(scores).avg_ranks``.
    cd : float or CriticalDifference
    control : name, optional
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    s = _check_avg_ranks(avg_ranks).sort_values(kind="stable")
    cd_val = _cd_value(cd)
    if control is not None and control not in s.index:
        raise ValueError(f"control must be one of the algorithms {list(s.index)}, got {control!r}")
    k = s.size
    cliques = [] if control is not None else cd_cliques(s, cd_val)
    left = list(s.index[: (k + 1) // 2])
    right = list(s.index[(k + 1) // 2:])
    n_rows = max(len(left), len(right))
    ax = get_axes(ax, figsize=(7, 1.6 + 0.32 * (n_rows + len(cliques))))
    lo, hi = 1.0, float(k)
    # the axis, ticks and the CD bar
    ax.plot([lo, hi], [0, 0], color="k", linewidth=1)
    for t in range(1, k + 1):
        ax.plot([t, t], [0, 0.1], color="k", linewidth=1)
        ax.text(t, 0.16, str(t), ha="center", va="bottom", fontsize="small")
        if t < k:
            ax.plot([t + 0.5, t + 0.5], [0, 0.05], color="k", linewidth=0.7)
    ax.plot([lo, lo + cd_val], [0.65, 0.65], color="k", linewidth=1.5, label="CD")
    ax.plot([lo, lo], [0.6, 0.7], color="k", linewidth=1.5)
    ax.plot([lo + cd_val, lo + cd_val], [0.6, 0.7], color="k", linewidth=1.5)
    ax.text(lo + cd_val / 2, 0.72, f"CD = {cd_val:.3f}", ha="center", va="bottom", fontsize="small")
    # clique lines, just below the axis
    y_clique = [-0.18 - 0.13 * i for i in range(len(cliques))]
    for y, group in zip(y_clique, cliques):
        ax.plot([s[group[0]] - 0.03, s[group[-1]] + 0.03], [y, y], color="k", linewidth=3.5,
                solid_capstyle="round")
    top = (y_clique[-1] if y_clique else -0.05) - 0.25
    # names on elbow lines
    for i, name in enumerate(left):
        y = top - 0.3 * i
        ax.plot([s[name], s[name], lo - 0.1], [0, y, y], color="0.3", linewidth=0.8)
        weight = "bold" if name == control else "normal"
        ax.text(lo - 0.15, y, f"{name} ({s[name]:.2f})", ha="right", va="center", fontsize="small",
                fontweight=weight)
    for i, name in enumerate(reversed(right)):
        y = top - 0.3 * i
        ax.plot([s[name], s[name], hi + 0.1], [0, y, y], color="0.3", linewidth=0.8)
        weight = "bold" if name == control else "normal"
        ax.text(hi + 0.15, y, f"({s[name]:.2f}) {name}", ha="left", va="center", fontsize="small",
                fontweight=weight)
    if control is not None:
        rc = float(s[control])
        ax.plot([max(rc - cd_val, lo), min(rc + cd_val, hi)], [-0.18, -0.18], color="C3",
                linewidth=3.5, solid_capstyle="butt", label="control ± CD")
        ax.plot([rc], [-0.18], "o", color="C3")
    bottom = top - 0.3 * (n_rows - 1) - 0.25
    ax.set_xlim(lo - 0.2 - 0.09 * max(len(str(n)) for n in s.index) - 0.35,
                hi + 0.2 + 0.09 * max(len(str(n)) for n in s.index) + 0.35)
    ax.set_ylim(bottom, 1.0)
    ax.axis("off")
    if title is None:
        kind = "Bonferroni-Dunn, control " + str(control) if control is not None else "Nemenyi"
        title = f"Critical-difference diagram ({kind})"
    ax.set_title(title, fontsize="medium")
    return ax


# ------------------------------------------------------------- notebook helpers
def scores_from_text(text: str) -> pd.DataFrame:
    """Parse a results table typed as comma-separated text (notebook 04's editor).

    The first line holds a label for the data-set column and then the algorithm
    names; every further line a data-set name and one score per algorithm, e.g.::

        data set, NB, DT, NN
        1, 0.68, 0.75, 0.72
        2, 0.70, 0.90, 0.89

    Blank lines and spaces around values are ignored.

    Returns
    -------
    pandas.DataFrame
        Rows data sets, columns algorithms, checked as :func:`friedman` requires.
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


def describe_rank_analysis(
    scores: Any, *, alpha: float = 0.05, test: str = "nemenyi", control: Any = None,
    higher_is_better: bool = True,
) -> str:
    """Friedman test and post-hoc critical difference for a results table, as plain text.

    The callback behind notebook 04's editable table: average ranks, the Friedman
    statistic with its chi-square and Iman-Davenport p-values, the critical
    difference for ``test`` and the comparisons that reach it.
    """
    fr = friedman(scores, higher_is_better=higher_is_better)
    cd = critical_difference(fr.k, fr.n, alpha=alpha, test=test)
    if test == "bonferroni-dunn" and control is None:
        control = fr.avg_ranks.idxmin()
    diffs = rank_differences(fr.avg_ranks, cd, control=control if test == "bonferroni-dunn" else None)
    verdict = "rejects" if fr.pvalue <= alpha else "does not reject"
    ranks = ", ".join(f"{name} {r:.2f}" for name, r in fr.avg_ranks.sort_values(kind="stable").items())
    lines = [
        f"k = {fr.k} algorithms, n = {fr.n} data sets; average ranks (1 = best): {ranks}",
        f"Friedman statistic {fr.statistic:.3f}, p = {fr.pvalue:.4g} (chi-square, {fr.df} df); "
        f"Iman-Davenport F = {fr.iman_davenport:.3f}, p = {fr.f_pvalue:.4g}: "
        f"{verdict} 'all perform equally' at alpha = {alpha:g}",
        f"{test}: q = {cd.q_alpha:.3f}, CD = {cd.cd:.3f}",
    ]
    sig = diffs[diffs["significant"]]
    if sig.empty:
        lines.append("no difference of average ranks reaches the critical difference")
    for row in sig.itertuples():
        lines.append(f"  {row.a} vs {row.b}: |difference| {abs(row.difference):.3f} >= CD")
    if fr.pvalue > alpha and not sig.empty:
        lines.append("(the post-hoc test is meant to follow a significant Friedman test)")
    return "\n".join(lines)
