"""More omnibus rank tests over many data sets: aligned ranks, Quade, Skillings–Mack.

The Friedman test (:func:`evallib.friedman`) ranks the algorithms *within* each
data set, so it sees only the order on each one. Three relatives, with the post-hoc
comparisons that go with them (García, Fernández, Luengo & Herrera 2010):

* :func:`aligned_ranks_test` -- Friedman's aligned ranks (Hodges & Lehmann 1962):
  subtract each data set's mean score, rank all ``k n`` aligned scores together, so
  that a large win on one data set counts more than a narrow one and ranks are
  compared *across* data sets; more powerful than Friedman for few algorithms.
* :func:`quade_test` -- Quade (1979): weight each data set's within ranks by the
  rank of its range, so data sets on which the algorithms differ a lot count more.
* :func:`skillings_mack_test` -- Skillings & Mack (1981): the Friedman test when
  some scores are missing (a run that crashed, timed out, or was not done): NaN in
  the table. It equals Friedman's statistic on a complete table (without ties) and
  Durbin's on a balanced incomplete block design.

:func:`posthoc_aligned_ranks` and :func:`posthoc_quade` return the same tidy table
as :func:`evallib.posthoc_friedman`, with every adjustment of its menus.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_keywords
from .._inference import se_from_variance, tail_pvalue
from .._validate import check_alpha, check_choice, check_count, check_rng
from ._posthoc import _check_adjust, _posthoc_table
from ._ranktests import TIE_RTOL, _as_table, _check_scores, snap_ties

__all__ = [
    "AlignedRanksResult",
    "aligned_ranks_test",
    "posthoc_aligned_ranks",
    "QuadeResult",
    "quade_test",
    "posthoc_quade",
    "SkillingsMackResult",
    "skillings_mack_test",
]


def _check_direction(higher_is_better: Any) -> bool:
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    return bool(higher_is_better)


# ------------------------------------------------------------- aligned ranks
@dataclass(frozen=True, eq=False)
class AlignedRanksResult:
    """Friedman's aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010).

    Attributes
    ----------
    ranks : pandas.DataFrame, the aligned rank of every score among all ``k n``
        (1 = best; ties get their average rank).
    avg_ranks : pandas.Series, each algorithm's average aligned rank (between 1
        and ``k n``).
    statistic : ``T``, referred to chi-square with ``k - 1`` df.
    df : ``k - 1``.
    pvalue : upper tail of chi-square.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    method : ``"chi2"``.
    n, k : numbers of data sets and algorithms.
    """

    ranks: pd.DataFrame
    avg_ranks: pd.Series
    statistic: float
    df: int
    pvalue: float
    reject: bool
    alpha: float
    method: str
    n: int
    k: int


def _aligned_ranks(table: pd.DataFrame, higher_is_better: bool, rtol: float) -> np.ndarray:
    values = table.to_numpy()
    aligned = values - values.mean(axis=1, keepdims=True)
    aligned = snap_ties(aligned, rtol=rtol)
    flat = stats.rankdata(-aligned if higher_is_better else aligned, method="average")
    return flat.reshape(values.shape)


def aligned_ranks_test(
    scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True, tie_correction: bool = True,
    rtol: float = TIE_RTOL,
) -> AlignedRanksResult:
    """Friedman's aligned-ranks test for ``k`` algorithms over ``n`` data sets.

    Each score is aligned by subtracting its data set's mean, ``x_ij - mean_i``,
    and the ``k n`` aligned scores are ranked together (1 = best). With ``R_j``
    the rank total of algorithm ``j`` and ``R_i`` that of data set ``i``
    (García et al. 2010, section 3.1, after Hodges & Lehmann 1962),

        ``T = (k - 1) [sum_j R_j^2 - (k n^2 / 4)(k n + 1)^2] / (sum_ij r_ij^2 - (1/k) sum_i R_i^2)``,

    approximately chi-square with ``k - 1`` df. Without ties the first term of the
    denominator is ``k n (k n + 1)(2 k n + 1) / 6``, the form García et al. print;
    computed from the ranks, it corrects ``T`` for ties, and then ``T = (k - 1)
    sum_j (R_j - n (kn+1)/2)^2 / sum_ij (r_ij - rbar_i)^2``.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets (at least 2), columns algorithms (at least 2), finite.
    alpha : float
        Level in (0, 1) for ``reject``.
    higher_is_better : bool
        ``True`` for accuracies, ``False`` for error rates (only the direction of
        the ranks; ``T`` is the same).
    tie_correction : bool
        ``True`` (default): ``sum_ij r_ij^2`` from the actual ranks, as
        :func:`evallib.friedman` corrects for ties. ``False``: the untied
        ``k n (k n + 1)(2 k n + 1) / 6`` whatever the ties, as García et al. (2010),
        scmamp and STAC compute it.
    rtol : float
        Aligned scores within ``rtol * max(1, max|aligned|)`` are tied (:func:`evallib.snap_ties`).

    Returns
    -------
    AlignedRanksResult

    Notes
    -----
    Degenerate but legal input: when every data set scores all algorithms alike,
    every aligned score is 0, the denominator vanishes and there is no evidence of a
    difference: ``statistic = 0``, ``pvalue = 1``.

    References
    ----------
    Hodges, J. L. & Lehmann, E. L. (1962). Rank methods for combination of
    independent experiments in analysis of variance. Annals of Mathematical
    Statistics 33, 482-497.
    García, S., Fernández, A., Luengo, J. & Herrera, F. (2010). Advanced
    nonparametric tests for multiple comparisons in the design of experiments in
    computational intelligence and data mining: experimental analysis of power.
    Information Sciences 180, 2044-2064.

    Examples
    --------
    The three-algorithm, six-data-set table of the STAC library's tests (Rodríguez-
    Fdez et al. 2015), whose printed statistic, 3.7025 (p = 0.1570), ignores the
    ties among the aligned scores; corrected for them it is 3.7645:

    >>> from evallib.manydatasets import aligned_ranks_test
    >>> table = [[3, 4, 4], [4, 3, 3], [5, 2, 5], [6, 1, 6], [1, 2, 3], [5, 6, 7]]
    >>> res = aligned_ranks_test(table, tie_correction=False)
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (3.7025, 0.157)
    >>> round(aligned_ranks_test(table).statistic, 4)
    3.7645
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    higher_is_better = _check_direction(higher_is_better)
    if not isinstance(tie_correction, (bool, np.bool_)):
        raise TypeError(f"tie_correction must be True or False, got {tie_correction!r}")
    n, k = table.shape
    ranks = _aligned_ranks(table, higher_is_better, rtol)
    col = ranks.sum(axis=0)
    centred = ranks - ranks.mean(axis=1, keepdims=True)
    denom = float((centred ** 2).sum())
    if not tie_correction:
        total = k * n
        denom = total * (total + 1) * (2 * total + 1) / 6.0 - float((ranks.sum(axis=1) ** 2).sum()) / k
    if float((centred ** 2).sum()) <= 1e-12:
        statistic, pvalue = 0.0, 1.0
    else:
        statistic = float((k - 1) * ((col - n * (k * n + 1) / 2.0) ** 2).sum() / denom)
        pvalue = float(stats.chi2.sf(statistic, k - 1))
    ranks_df = pd.DataFrame(ranks, index=table.index, columns=table.columns)
    avg = ranks_df.mean(axis=0)
    avg.name = "average aligned rank"
    return AlignedRanksResult(ranks=ranks_df, avg_ranks=avg, statistic=statistic, df=k - 1, pvalue=pvalue,
                              reject=pvalue <= alpha, alpha=alpha, method="chi2", n=n, k=k)


@renamed_keywords(method="adjust")
def posthoc_aligned_ranks(
    scores: Any, *, adjust: str = "holm", control: Any = None, alpha: float = 0.05,
    higher_is_better: bool = True,
) -> pd.DataFrame:
    """Post-hoc comparisons after the aligned-ranks test, with adjusted p-values.

    Each pair is compared through its average aligned ranks (García et al. 2010,
    section 5): ``z = (Rbar_a - Rbar_b) / sqrt(k (k n + 1) / 6)``, the standard
    error of a difference of two means of ``n`` ranks drawn without replacement
    from ``1 .. k n`` (scmamp's ``friedmanAlignedRanksPost`` uses the same; García
    et al. print ``sqrt(k (n + 1) / 6)``, which scmamp's authors report as an error
    of the paper), with its two-sided normal p-value; ``adjust`` adjusts for the
    number of comparisons as in :func:`evallib.posthoc_friedman`.

    Parameters
    ----------
    scores
        As for :func:`aligned_ranks_test`.
    adjust, control, alpha
        As for :func:`evallib.posthoc_friedman` (``method=`` is the deprecated name of
        ``adjust=``; the same menus,
        :data:`evallib.manydatasets.ALL_PAIRS_METHODS` and
        :data:`evallib.manydatasets.CONTROL_METHODS`).
    higher_is_better
        As for :func:`aligned_ranks_test`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`evallib.posthoc_friedman`; ``rank_a`` and ``rank_b`` are
        average aligned ranks. ``attrs`` adds ``test = "aligned ranks"``.

    References
    ----------
    García, S., Fernández, A., Luengo, J. & Herrera, F. (2010). Information
    Sciences 180, 2044-2064.
    Calvo, B. & Santafé, G. (2016). scmamp: statistical comparison of multiple
    algorithms in multiple problems. The R Journal 8(1), 248-256.

    Examples
    --------
    >>> from evallib.manydatasets import posthoc_aligned_ranks
    >>> table = [[3, 4, 4], [4, 3, 3], [5, 2, 5], [6, 1, 6], [1, 2, 3], [5, 6, 7]]
    >>> res = posthoc_aligned_ranks(table, adjust="holm")
    >>> [(r.a, r.b, round(r.z, 3)) for r in res.itertuples()][0]
    ('algorithm 3', 'algorithm 2', 2.217)
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    res = aligned_ranks_test(table, higher_is_better=higher_is_better)
    k, n = res.k, res.n
    adjust = _check_adjust(adjust, control, list(res.avg_ranks.index))
    se = math.sqrt(k * (k * n + 1) / 6.0)
    out = _posthoc_table(res.avg_ranks, se, k=k, n=n, adjust=adjust, control=control, alpha=alpha)
    out.attrs["test"] = "aligned ranks"
    return out


# ---------------------------------------------------------------------- Quade
@dataclass(frozen=True, eq=False)
class QuadeResult:
    """Quade's test (Quade 1979; Conover 1999, section 5.8).

    Attributes
    ----------
    ranks : pandas.DataFrame, the within-data-set ranks ``R_ij`` (1 = best).
    weights : pandas.Series, ``Q_i``, the rank of each data set's range (1 =
        smallest range; average ranks for ties).
    avg_ranks : pandas.Series, ``T_j = W_j / (n (n + 1) / 2)``, each algorithm's
        average rank weighted by ``Q_i`` (between 1 and ``k``), the quantity the
        post-hoc z compares.
    statistic : Quade's ``F = (n - 1) B / (A - B)``.
    df : ``(k - 1, (k - 1)(n - 1))``.
    pvalue : upper tail of F.
    reject : ``pvalue <= alpha``.
    a, b : Quade's ``A = sum_ij S_ij^2`` and ``B = (1/n) sum_j S_j^2``.
    alpha, method, n, k : the level, ``"F"``, and the table's size.
    """

    ranks: pd.DataFrame
    weights: pd.Series
    avg_ranks: pd.Series
    statistic: float
    df: tuple[int, int]
    pvalue: float
    reject: bool
    a: float
    b: float
    alpha: float
    method: str
    n: int
    k: int


def quade_test(
    scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True, tie_correction: bool = True,
    rtol: float = TIE_RTOL,
) -> QuadeResult:
    """Quade's test: Friedman's ranks weighted by how much each data set separates the algorithms.

    On each data set ``i`` rank the algorithms (``R_ij``, 1 = best), and rank the
    data sets by their range ``max_j x_ij - min_j x_ij`` (``Q_i``, 1 = smallest). With
    ``S_ij = Q_i (R_ij - (k + 1)/2)``, ``S_j = sum_i S_ij``, ``A = sum_ij S_ij^2`` and
    ``B = (1/n) sum_j S_j^2`` (Conover 1999, section 5.8, eq. 3-5),

        ``F = (n - 1) B / (A - B)``,

    approximately F with ``k - 1`` and ``(k - 1)(n - 1)`` df. Ties within a data set
    and between ranges get average ranks.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets (at least 2), columns algorithms (at least 2), finite.
    alpha : float
        Level in (0, 1) for ``reject``.
    higher_is_better : bool
        Direction of the within ranks (``F`` is the same either way).
    tie_correction : bool
        ``True`` (default, Conover; R's ``quade.test``): ``A`` from the actual
        ranks. ``False``: the untied ``A = n (n + 1)(2n + 1) k (k + 1)(k - 1) / 72``
        whatever the ties, as scmamp's ``quadeTest`` computes it.
    rtol : float
        Scores within ``rtol * max(1, max|score|)`` of each other are tied.

    Returns
    -------
    QuadeResult

    Notes
    -----
    Degenerate but legal input: if ``A = B`` the data sets rank the algorithms
    identically (Conover: "use the value of F as if it were infinite"):
    ``statistic = inf``, ``pvalue = 0``, unless ``A = 0`` (every data set ties all
    algorithms: no evidence of a difference), where ``statistic = 0``, ``pvalue = 1``.

    References
    ----------
    Quade, D. (1979). Using weighted rankings in the analysis of complete blocks
    with additive block effects. JASA 74, 680-683.
    Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed. Wiley,
    section 5.8, pp. 373-380.

    Examples
    --------
    Conover's (1999, p. 375) example, also R's ``quade.test`` example: seven stores,
    the sales of five brands; R prints ``Quade F = 3.8293, num df = 4, denom df =
    24, p-value = 0.01519``.

    >>> from evallib.manydatasets import quade_test
    >>> sales = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35], [5, 4, 3, 5, 4],
    ...          [10, 9, 7, 13, 10], [19, 18, 28, 37, 58], [10, 7, 6, 8, 7]]
    >>> res = quade_test(sales)
    >>> round(res.statistic, 4), res.df, round(res.pvalue, 5)
    (3.8293, (4, 24), 0.01519)
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    higher_is_better = _check_direction(higher_is_better)
    if not isinstance(tie_correction, (bool, np.bool_)):
        raise TypeError(f"tie_correction must be True or False, got {tie_correction!r}")
    values = snap_ties(table.to_numpy(), rtol=rtol)
    n, k = values.shape
    ranks = stats.rankdata(-values if higher_is_better else values, method="average", axis=1)
    ranges = snap_ties(values.max(axis=1) - values.min(axis=1), rtol=rtol)
    q = stats.rankdata(ranges, method="average")
    s = q[:, None] * (ranks - (k + 1) / 2.0)
    a = float((s ** 2).sum())
    if not tie_correction and a > 1e-12:
        a = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72.0
    b = float((s.sum(axis=0) ** 2).sum() / n)
    df = (k - 1, (k - 1) * (n - 1))
    if a <= 1e-12:
        statistic, pvalue = 0.0, 1.0
    elif a - b <= 1e-12 * a:
        statistic, pvalue = math.inf, 0.0
    else:
        statistic = (n - 1) * b / (a - b)
        pvalue = float(stats.f.sf(statistic, *df))
    w = (q[:, None] * ranks).sum(axis=0)
    avg = pd.Series(w / (n * (n + 1) / 2.0), index=table.columns, name="weighted average rank")
    return QuadeResult(
        ranks=pd.DataFrame(ranks, index=table.index, columns=table.columns),
        weights=pd.Series(q, index=table.index, name="range rank"), avg_ranks=avg,
        statistic=float(statistic), df=df, pvalue=pvalue, reject=pvalue <= alpha, a=a, b=b,
        alpha=alpha, method="F", n=n, k=k)


@renamed_keywords(method="adjust")
def posthoc_quade(
    scores: Any, *, adjust: str = "holm", control: Any = None, alpha: float = 0.05,
    higher_is_better: bool = True, distribution: str = "normal",
) -> pd.DataFrame:
    """Post-hoc comparisons after Quade's test, with adjusted p-values.

    Two versions of the pairwise statistic:

    * ``distribution="normal"`` (García et al. 2010, section 5): ``z = (T_a - T_b) /
      sqrt(k (k + 1)(2n + 1)(k - 1) / (18 n (n + 1)))`` on the weighted average
      ranks ``T_j`` of :class:`QuadeResult`, with its two-sided normal p-value
      (scmamp's ``quadePost``; scikit-posthocs' ``posthoc_quade(dist="normal")``
      puts the number of scores ``n k`` where this has ``n``);
    * ``distribution="t"`` (Conover 1999, section 5.8, eq. 6): ``t = (S_a - S_b) /
      sqrt(2 n (A - B) / ((n - 1)(k - 1)))`` with ``(n - 1)(k - 1)`` df (R's
      PMCMRplus ``quadeAllPairsTest``, scikit-posthocs' ``dist="t"``); the ``z``
      column then holds ``t``.

    ``adjust`` adjusts for the number of comparisons, as in
    :func:`evallib.posthoc_friedman`.

    Parameters
    ----------
    scores
        As for :func:`quade_test`.
    adjust, control, alpha
        As for :func:`evallib.posthoc_friedman` (``method=`` is the deprecated name of
        ``adjust=``). Nemenyi's studentized range uses
        infinite df and goes with ``"normal"`` only.
    higher_is_better
        As for :func:`quade_test`.
    distribution : {"normal", "t"}

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`evallib.posthoc_friedman`; ``rank_a`` and ``rank_b``
        are the weighted average ranks ``T_j``. ``attrs`` adds ``test = "quade"`` and
        ``distribution``. When ``A = B`` (every data set ranks the algorithms alike)
        the t statistics are infinite and their p-values 0.

    References
    ----------
    Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed., pp. 373-380.
    García, S., Fernández, A., Luengo, J. & Herrera, F. (2010). Information
    Sciences 180, 2044-2064.

    Examples
    --------
    >>> from evallib.manydatasets import posthoc_quade
    >>> sales = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35], [5, 4, 3, 5, 4],
    ...          [10, 9, 7, 13, 10], [19, 18, 28, 37, 58], [10, 7, 6, 8, 7]]
    >>> res = posthoc_quade(sales, adjust="bonferroni", distribution="t")
    >>> res[["a", "b"]].iloc[0].tolist()
    ['algorithm 5', 'algorithm 2']
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    distribution = check_choice(distribution, "distribution", ("normal", "t"))
    res = quade_test(table, higher_is_better=higher_is_better)
    k, n = res.k, res.n
    adjust = _check_adjust(adjust, control, list(res.avg_ranks.index))
    if adjust == "nemenyi" and distribution == "t":
        raise ValueError("distribution must be 'normal' for adjust='nemenyi' (the studentized range "
                         "with infinite df), got 't'")
    se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))
    avg = res.avg_ranks
    dfree = (n - 1) * (k - 1)

    def t_pvalue(row):
        return tail_pvalue(row["z"], dfree)

    pvalue_of = None
    if distribution == "t":
        # T_j = (S_j + (k+1)/2 n(n+1)/2) / (n(n+1)/2): a difference of T's times n(n+1)/2 is one of S's;
        # A - B is a difference, zero (identical rankings on every data set) by evallib's rule against A
        scale = n * (n + 1) / 2.0
        factor = 2.0 * n / ((n - 1) * (k - 1))
        se = se_from_variance(factor * (res.a - res.b), factor * res.a) / scale
        pvalue_of = t_pvalue

    # se = 0 (A = B): the z core's zero-variance rule gives z = +-inf, p = 0 for ranks that differ
    out = _posthoc_table(avg, se, k=k, n=n, adjust=adjust, control=control, alpha=alpha,
                         pvalue_of=pvalue_of)
    out.attrs.update(test="quade", distribution=distribution)
    return out


# -------------------------------------------------------------- Skillings–Mack
@dataclass(frozen=True, eq=False)
class SkillingsMackResult:
    """The Skillings–Mack test (Skillings & Mack 1981).

    Attributes
    ----------
    statistic : ``SM = A' Sigma^+ A``.
    df : the rank of ``Sigma`` (``k - 1`` when the design connects all algorithms).
    pvalue : chi-square with ``df`` (``method="chi2"``) or the Monte Carlo
        permutation p-value (``method="permutation"``, ``(1 + #{SM* >= SM}) /
        (1 + n_resamples)``).
    reject : ``pvalue <= alpha``.
    adjusted_sums : pandas.Series, ``A_j``, each algorithm's adjusted rank sum
        (negative = better than average: rank 1 is the best).
    covariance : pandas.DataFrame, ``Sigma``, the null covariance of ``A``.
    n : data sets used (those with at least 2 scores).
    n_dropped : data sets with fewer than 2 scores, which carry no comparison.
    n_missing : the missing scores among the data sets used.
    alpha, method, n_resamples, k : the options and the number of algorithms.
    """

    statistic: float
    df: int
    pvalue: float
    reject: bool
    adjusted_sums: pd.Series
    covariance: pd.DataFrame
    n: int
    n_dropped: int
    n_missing: int
    alpha: float
    method: str
    n_resamples: int
    k: int


def _check_table_with_gaps(scores: Any) -> pd.DataFrame:
    table, values = _as_table(scores, ", NaN for a missing score")
    if values.shape[1] < 2:
        raise ValueError(f"scores must have at least 2 algorithms (columns) to compare, got {values.shape[1]}")
    if np.isinf(values).any():
        raise ValueError("scores must not contain infinite values (NaN marks a missing score)")
    if table.columns.has_duplicates:
        raise ValueError(f"scores must have distinct algorithm names, got {list(table.columns)}")
    return pd.DataFrame(values, index=table.index, columns=table.columns)


def _sm_sums(ranks: np.ndarray, observed: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``A_j = sum_i sqrt(12 / (s_i + 1)) (r_ij - (s_i + 1)/2)`` over observed cells (last axis: algorithms)."""
    centred = np.where(observed, ranks - (s[:, None] + 1) / 2.0, 0.0)
    return (np.sqrt(12.0 / (s + 1.0))[:, None] * centred).sum(axis=-2)


def skillings_mack_test(
    scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True, method: str = "chi2",
    n_resamples: int = 10_000, rng: Any = None, rtol: float = TIE_RTOL,
) -> SkillingsMackResult:
    """The Skillings–Mack test: Friedman's test for a table with missing scores.

    Missing scores are NaN. On data set ``i`` with ``s_i`` scores, rank them
    (average ranks for ties) and give every missing cell the mean rank ``(s_i +
    1)/2``; the adjusted rank sums are (Skillings & Mack 1981, eq. 2.2)

        ``A_j = sum_i sqrt(12 / (s_i + 1)) (r_ij - (s_i + 1)/2)``,

    with null covariance ``Sigma_jl = -lambda_jl`` (``j != l``), ``Sigma_jj =
    sum_{l != j} lambda_jl``, ``lambda_jl`` the number of data sets on which both
    ``j`` and ``l`` have a score, and

        ``SM = A' Sigma^+ A``

    (``Sigma^+`` the Moore–Penrose inverse), approximately chi-square with
    ``rank(Sigma)`` df. On a complete table without ties ``SM`` is Friedman's
    statistic; on a balanced incomplete block design, Durbin's.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets, columns algorithms (at least 2), NaN for a missing score.
    alpha : float
        Level in (0, 1) for ``reject``.
    higher_is_better : bool
        Direction of the ranks (``SM`` is the same either way).
    method : {"chi2", "permutation"}
        ``"chi2"``: the asymptotic p-value. ``"permutation"``: the Monte Carlo
        p-value of ``SM`` over ``n_resamples`` random re-rankings of the observed
        scores within each data set (the null distribution conditional on the
        missing pattern and the ties); advised by Skillings & Mack for small
        tables and by Chatfield & Mander (2009) when there are many ties.
    n_resamples : int
        Permutations for ``method="permutation"``, >= 1.
    rng : None, int, SeedSequence or Generator
        Randomness for the permutations.
    rtol : float
        Scores within ``rtol * max(1, max|score|)`` of each other are tied.

    Returns
    -------
    SkillingsMackResult

    Raises
    ------
    ValueError
        Fewer than 2 algorithms, infinite scores, an unknown ``method``, or fewer
        than 2 data sets with at least 2 scores each.

    Notes
    -----
    Degenerate but legal input: a data set with fewer than 2 scores compares
    nothing and is dropped (``n_dropped``). When every remaining score ties on its
    data set, ``A = 0`` and ``SM = 0``, ``pvalue = 1``. Ties are not corrected for
    in ``Sigma`` (as in Skillings & Mack and R's ``Skillings.Mack``); the
    permutation p-value accounts for them.

    References
    ----------
    Skillings, J. H. & Mack, G. A. (1981). On the use of a Friedman-type statistic
    in balanced and unbalanced block designs. Technometrics 23(2), 171-177.
    Chatfield, M. & Mander, A. (2009). The Skillings–Mack test (Friedman test when
    there are missing data). Stata Journal 9(2), 299-305.

    Examples
    --------
    On a complete table without ties it is Friedman's statistic (Flach's Example
    12.8: 2.6):

    >>> from evallib.studies import flach_example_12_4
    >>> from evallib.manydatasets import skillings_mack_test
    >>> round(skillings_mack_test(flach_example_12_4()).statistic, 1)
    2.6
    """
    table = _check_table_with_gaps(scores)
    alpha = check_alpha(alpha)
    higher_is_better = _check_direction(higher_is_better)
    method = check_choice(method, "method", ("chi2", "permutation"))
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    values = table.to_numpy()
    observed_all = ~np.isnan(values)
    keep = observed_all.sum(axis=1) >= 2
    n_dropped = int((~keep).sum())
    values, observed = values[keep], observed_all[keep]
    n, k = values.shape
    if n < 2:
        raise ValueError(f"scores must have at least 2 data sets with at least 2 scores each, got {n}")
    filled = snap_ties(np.where(observed, values, 0.0), rtol=rtol)
    signed = np.where(observed, -filled if higher_is_better else filled, np.inf)  # missing ranked last
    ranks = stats.rankdata(signed, method="average", axis=1)
    s = observed.sum(axis=1).astype(float)
    a = _sm_sums(ranks, observed, s)
    obs = observed.astype(float)
    lam = obs.T @ obs
    np.fill_diagonal(lam, 0.0)
    sigma = np.diag(lam.sum(axis=1)) - lam
    pinv = np.linalg.pinv(sigma, hermitian=True)
    df = int(np.linalg.matrix_rank(sigma, hermitian=True))
    statistic = float(max(a @ pinv @ a, 0.0))
    if statistic <= 1e-12:
        statistic, pvalue = 0.0, 1.0
    elif method == "chi2":
        pvalue = float(stats.chi2.sf(statistic, df))
    else:
        gen = check_rng(rng)
        sims = np.zeros((n_resamples, k))
        for i in range(n):
            cols = np.flatnonzero(observed[i])
            own = ranks[i, cols]
            perm = np.argsort(gen.random((n_resamples, cols.size)), axis=1)
            sims[:, cols] += math.sqrt(12.0 / (s[i] + 1.0)) * (own[perm] - (s[i] + 1) / 2.0)
        sm = np.einsum("bj,jl,bl->b", sims, pinv, sims)
        pvalue = float((1 + np.count_nonzero(sm >= statistic * (1 - 1e-9))) / (1 + n_resamples))
    names = table.columns
    return SkillingsMackResult(
        statistic=statistic, df=df, pvalue=pvalue, reject=pvalue <= alpha,
        adjusted_sums=pd.Series(a, index=names, name="adjusted rank sum"),
        covariance=pd.DataFrame(sigma, index=names, columns=names), n=n, n_dropped=n_dropped,
        n_missing=int((~observed).sum()), alpha=alpha, method=method,
        n_resamples=n_resamples if method == "permutation" else 0, k=k)
