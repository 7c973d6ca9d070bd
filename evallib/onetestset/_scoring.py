"""Scores as results: the AUC with DeLong's interval and test, the Brier score and log-loss.

A classifier that outputs a score per case (a probability, a margin, any number that
ranks the cases) is judged here on the scores themselves, on one test set:

* the area under the ROC curve (AUC) of each score column with its standard error and
  confidence interval, and the paired comparison of two AUCs measured on the same cases,
  by the nonparametric method of DeLong, DeLong & Clarke-Pearson (1988)
  (:func:`delong_covariance`, :func:`delong_auc`, :func:`auc_table`, :func:`delong_test`,
  :func:`delong_pairwise`), computed in the O(n log n) form of Sun & Xu (2014): every
  placement value comes from three midrankings, so a million cases take well under a
  second per score column; and the comparison of two AUCs measured on different test
  sets (:func:`delong_unpaired`, as R's pROC does it for unpaired curves);
* the Brier score and the log-loss of scores that are probabilities of the positive
  class (:func:`check_probabilities`, :func:`per_case_loss`, :func:`brier_score`,
  :func:`log_loss`, :func:`loss_table`), and the paired t-test on the per-case losses of
  two classifiers (:func:`loss_test`, :func:`loss_pairwise`);
* the ROC curves of several classifiers in one figure (:func:`plot_roc_curves`).

The positive class is never guessed by counting: it is ``pos_label`` when given, and
otherwise the labels must be 0/1 or False/True (then 1/True is positive).

Notation (DeLong et al. 1988, section 2): ``m`` positive cases with scores ``X_i`` and
``n`` negative cases with scores ``Y_j``; the kernel ``psi(X, Y)`` is 1 when ``X > Y``,
1/2 when ``X = Y`` and 0 otherwise; the AUC is the Mann–Whitney statistic
``theta = (1/mn) sum_i sum_j psi(X_i, Y_j)``. The structural components (placement
values) are ``V10(X_i) = (1/n) sum_j psi(X_i, Y_j)`` and ``V01(Y_j) = (1/m) sum_i
psi(X_i, Y_j)``; for score columns ``r, s``, ``S10`` and ``S01`` are the sample
covariance matrices (divisor ``m - 1`` and ``n - 1``) of the two kinds of placements,
and ``S = S10/m + S01/n`` estimates the covariance matrix of the AUCs (their eq. 2).

References
----------
E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson (1988). Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach.
*Biometrics* 44(3), 837-845.

X. Sun and W. Xu (2014). Fast implementation of DeLong's algorithm for comparing the
areas under correlated receiver operating characteristic curves. *IEEE Signal Processing
Letters* 21(11), 1389-1393.

G. W. Brier (1950). Verification of forecasts expressed in terms of probability.
*Monthly Weather Review* 78(1), 1-3.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._format import adjusted_p_header, pvalue_cell
from .._inference import check_alternative, se_from_variance, t_inference
from .._multitest import (
    ADJUSTMENT_NAMES,
    ADJUSTMENTS,
    FDR_ADJUSTMENTS,
    adjust_pairs_table,
)
from .._plotting import get_axes
from .._results import freeze_arrays, table_metadata
from .._validate import (
    align_columns,
    align_items,
    check_alpha,
    check_choice,
    check_count,
    check_labels,
    check_real,
    check_score_matrix,
)

__all__ = [
    "DeLong",
    "AUCInterval",
    "AUCComparison",
    "UnpairedAUCComparison",
    "LossComparison",
    "LOG_LOSS_EPS",
    "positive_mask",
    "delong_covariance",
    "delong_auc",
    "auc_table",
    "delong_test",
    "delong_unpaired",
    "delong_pairwise",
    "check_probabilities",
    "per_case_loss",
    "brier_score",
    "log_loss",
    "loss_table",
    "loss_test",
    "loss_pairwise",
    "per_case_loss_pairwise",
    "plot_roc_curves",
    "roc_points",
    "format_pvalue",
    "format_auc_table",
    "format_auc_pairwise",
    "format_loss_table",
    "format_loss_pairwise",
]

#: Default clipping of probabilities for the log-loss: ``p`` is replaced by
#: ``min(max(p, eps), 1 - eps)`` with the machine epsilon of float64 (about 2.2e-16),
#: as scikit-learn's ``log_loss`` does, so a confident wrong 0 or 1 costs
#: ``-log(eps)`` = 36.04 instead of infinity.
LOG_LOSS_EPS = float(np.finfo(np.float64).eps)

_LOSSES = ("brier", "log")


# ------------------------------------------------------------------ input
def positive_mask(y_true: Any, pos_label: Any = None, *, name: str = "y_true") -> np.ndarray:
    """Boolean array, True for the cases of the positive class.

    Parameters
    ----------
    y_true : sequence of labels with exactly two classes.
    pos_label : the label of the positive class. May be omitted only when the labels
        are 0/1 or False/True (then 1/True is positive): the positive class is never
        chosen by counting.
    name : str, default "y_true"
        The argument's name in error messages.

    Returns
    -------
    numpy.ndarray
        Boolean array of shape (n,), True where ``y_true == pos_label``.

    Raises
    ------
    ValueError
        When ``y_true`` has not exactly two classes, when ``pos_label`` is not one of
        them, or when it is omitted for labels other than 0/1 or False/True.
    """
    y = check_labels(y_true, name)
    classes = pd.unique(y)
    if len(classes) > 2:
        raise ValueError(f"{name} must contain exactly 2 classes for an AUC or a probability score, "
                         f"got {len(classes)}")
    if pos_label is None:
        try:
            ok = all(c in (0, 1) and not isinstance(c, str) for c in classes)
        except TypeError:
            ok = False
        if not ok:
            shown = ", ".join(repr(c) for c in sorted(classes, key=str))
            raise ValueError(f"{name} has the labels {shown}: say which one the scores are for with "
                             "pos_label=... (the positive class is not guessed)")
        pos_label = 1
    elif not any(c == pos_label for c in classes):
        shown = ", ".join(repr(c) for c in sorted(classes, key=str))
        raise ValueError(f"pos_label must be one of the labels in {name} ({shown}), got {pos_label!r}")
    return np.asarray(y == pos_label, dtype=bool)


def _prepare(y_true: Any, scores: Any, pos_label: Any) -> tuple[np.ndarray, list[str], np.ndarray]:
    (y_true,), scores = align_columns([("y_true", y_true)], scores, "scores")
    pos = positive_mask(y_true, pos_label)
    names, mat = check_score_matrix(scores, pos.shape[0])
    return pos, names, mat


# ------------------------------------------------------------------ DeLong
@dataclass(frozen=True, eq=False)
class DeLong:
    """The AUCs of several score columns on the same cases and their covariance matrix.

    Attributes
    ----------
    names : the score columns, in order.
    auc : the AUC of each column (the Mann–Whitney statistic ``theta``).
    covariance : ``S = S10/m + S01/n``, DeLong et al.'s estimate of the covariance
        matrix of the AUCs (their eq. 2), shape ``(k, k)``.
    n_pos, n_neg : ``m`` and ``n``, the numbers of positive and negative cases.

    Fit once, then ``fit.table(alpha)`` and ``fit.pairwise(alpha)`` give what
    :func:`auc_table` and :func:`delong_pairwise` give, without sorting again.
    """

    names: tuple[str, ...]
    auc: np.ndarray
    covariance: np.ndarray
    n_pos: int
    n_neg: int

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def se(self) -> np.ndarray:
        """The standard error of each AUC, ``sqrt(diag(S))``."""
        return np.sqrt(np.maximum(np.diag(self.covariance), 0.0))

    def table(self, alpha: float = 0.05) -> pd.DataFrame:
        """The AUCs with their intervals, as :func:`auc_table` returns them (no refit).

        Parameters
        ----------
        alpha : float, default 0.05
            In (0, 1): the intervals have coverage ``1 - alpha``.

        Returns
        -------
        pandas.DataFrame
            One row per column, with :func:`auc_table`'s columns.
        """
        alpha = check_alpha(alpha)
        return pd.DataFrame([{**r.__dict__, "below_chance": r.below_chance} for r in _auc_intervals(self, alpha)])

    def pairwise(self, alpha: float = 0.05, adjust: str = "holm") -> pd.DataFrame:
        """Every pair's DeLong test, as :func:`delong_pairwise` returns it (no refit).

        Parameters
        ----------
        alpha : float, default 0.05
            In (0, 1): the level of the tests; intervals have coverage ``1 - alpha``.
        adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
            The multiple-testing adjustment over the pairs (:data:`ADJUSTMENTS`).

        Returns
        -------
        pandas.DataFrame
            One row per pair, with :func:`delong_pairwise`'s columns.
        """
        alpha = check_alpha(alpha)
        adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
        if len(self.names) < 2:
            raise ValueError(f"scores must hold at least 2 score columns to compare, got {len(self.names)}")
        rows = [{k: v for k, v in _compare(self, i, j, alpha).__dict__.items() if k != "alternative"}
                for i, j in combinations(range(len(self.names)), 2)]
        table = adjust_pairs_table(pd.DataFrame(rows), alpha, adjust, lambda a: float(stats.norm.isf(a / 2.0)))
        adj = table[["low_adj", "high_adj"]].clip(-1.0, 1.0)
        table["low_adj"], table["high_adj"] = adj["low_adj"], adj["high_adj"]
        return table


def _placements(col: np.ndarray, pos: np.ndarray, m: int, n: int) -> np.ndarray:
    """Every case's placement value for one score column, from a single sort.

    Sun & Xu's midrank differences, computed from one ordering: for a positive case,
    ``T_Z - T_X`` is the number of negatives scored below it plus half the negatives
    tied with it, so ``V10 = (#below + #tied / 2) / n``; for a negative case,
    ``T_Z - T_Y`` counts the positives below it and half the tied ones, so
    ``V01 = 1 - (#below + #tied / 2) / m``. Returns ``V10`` at the positive cases and
    ``V01`` at the negative ones, in case order.
    """
    order = np.argsort(col)  # ties need no stable order: tie groups are found by equality
    s = col[order]
    p = pos[order]
    new = np.empty(s.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    size = np.diff(np.append(starts, s.shape[0]))
    pos_in = np.add.reduceat(p.astype(np.int64), starts)
    neg_in = size - pos_in
    pos_before = np.cumsum(pos_in) - pos_in
    neg_before = np.cumsum(neg_in) - neg_in
    v_pos = (neg_before + 0.5 * neg_in) / n          # V10 of a positive in each tie group
    v_neg = 1.0 - (pos_before + 0.5 * pos_in) / m    # V01 of a negative in each tie group
    out = np.empty(s.shape[0])
    out[order] = np.where(p, v_pos[group], v_neg[group])
    return out


def delong_covariance(y_true: Any, scores: Any, *, pos_label: Any = None) -> DeLong:
    """AUCs and their DeLong covariance matrix, by Sun & Xu's midrank algorithm.

    Sun & Xu (2014, section III) obtain every placement value from midranks: with
    ``T_Z`` the midranks of all ``m + n`` scores of a column, ``T_X`` those of the
    positives among themselves and ``T_Y`` those of the negatives among themselves,

    ``V10(X_i) = (T_Z(X_i) - T_X(X_i)) / n``,  ``V01(Y_j) = 1 - (T_Z(Y_j) - T_Y(Y_j)) / m``,

    and ``theta = (sum_i T_Z(X_i) - m(m + 1)/2) / (mn)``, the mean of the ``V10``. Ties
    count one half, as in DeLong et al.'s kernel ``psi``. Here the three midrankings are
    replaced by one sort per column: ``T_Z(X_i) - T_X(X_i)`` is the number of negatives
    scored below ``X_i`` plus half of those tied with it, read off cumulative counts of
    the sorted scores. The cost is O(N log N) per column.

    Parameters
    ----------
    y_true : sequence of two class labels, one per case.
    scores : one score column (1-D), several (2-D array, mapping name -> column or a
        DataFrame); higher scores mean "more likely positive".
    pos_label : the positive class (required unless the labels are 0/1 or False/True).

    Returns
    -------
    DeLong

    Raises
    ------
    ValueError
        With fewer than two positive or two negative cases (the sample covariances of
        the placement values need two of each), or on the input errors of
        :func:`positive_mask`.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), eq. (2); Sun & Xu (2014), section III.

    Examples
    --------
    scikit-learn's ``roc_auc_score`` documents ``y = [1, 1, 2, 2]`` with scores
    ``[0.1, 0.4, 0.35, 0.8]`` (positive class 2) as an AUC of 0.75:

    >>> from evallib.onetestset import delong_covariance
    >>> fit = delong_covariance([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> float(fit.auc[0])
    0.75
    """
    pos, names, mat = _prepare(y_true, scores, pos_label)
    m = int(pos.sum())
    n = int(pos.shape[0] - m)
    if m < 2 or n < 2:
        raise ValueError("y_true must contain at least 2 positive and 2 negative cases for DeLong's "
                         f"variance, got {m} positive and {n} negative")
    v10 = np.empty((m, mat.shape[1]))
    v01 = np.empty((n, mat.shape[1]))
    for j in range(mat.shape[1]):
        v = _placements(mat[:, j], pos, m, n)
        v10[:, j] = v[pos]
        v01[:, j] = v[~pos]
    auc = v10.mean(axis=0)
    s10 = np.atleast_2d(np.cov(v10, rowvar=False))
    s01 = np.atleast_2d(np.cov(v01, rowvar=False))
    cov = s10 / m + s01 / n
    return DeLong(names=tuple(names), auc=auc, covariance=cov, n_pos=m, n_neg=n)


@dataclass(frozen=True)
class AUCInterval:
    """The AUC of one score column with DeLong's standard error and interval.

    Attributes
    ----------
    name : the score column.
    estimate : the AUC.
    se : DeLong's standard error ``sqrt(S_rr)``.
    low, high : ``estimate -/+ z_{alpha/2} se``, clipped to [0, 1] (a Wald interval,
        as in DeLong et al. and R's pROC). With perfect separation (AUC 0 or 1) the
        placement values do not vary, ``se`` is 0 and the interval is the single point.
    alpha : the interval has nominal coverage ``1 - alpha``.
    n_pos, n_neg : positive and negative cases.
    method : ``"DeLong"``.
    """

    name: str
    estimate: float
    se: float
    low: float
    high: float
    alpha: float
    n_pos: int
    n_neg: int
    method: str = "DeLong"

    @property
    def below_chance(self) -> bool:
        """True when the whole interval lies below 0.5: the scores look reversed
        (they rank the negatives above the positives more often than chance would)."""
        return self.high < 0.5


def _auc_intervals(fit: DeLong, alpha: float) -> list[AUCInterval]:
    z = float(stats.norm.isf(alpha / 2.0))
    out = []
    for name, est, se in zip(fit.names, fit.auc, fit.se):
        out.append(AUCInterval(name=name, estimate=float(est), se=float(se),
                               low=float(max(0.0, est - z * se)), high=float(min(1.0, est + z * se)),
                               alpha=alpha, n_pos=fit.n_pos, n_neg=fit.n_neg))
    return out


def delong_auc(y_true: Any, score: Any, *, pos_label: Any = None, alpha: float = 0.05) -> AUCInterval:
    """The AUC of one score column with DeLong's ``1 - alpha`` confidence interval.

    Parameters
    ----------
    y_true : two class labels, one per case.
    score : one score per case.
    pos_label : the positive class (required unless the labels are 0/1 or False/True).
    alpha : in (0, 1).

    Returns
    -------
    AUCInterval

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), eq. (2).

    Examples
    --------
    >>> from evallib.onetestset import delong_auc
    >>> res = delong_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])

    By hand: the placements of the positives are 1/2 and 1, those of the negatives 1
    and 1/2; each has sample variance 1/8, so ``S = (1/8)/2 + (1/8)/2`` and the
    standard error is ``sqrt(1/8) = 0.3536``.

    >>> res.estimate, round(res.se, 4)
    (0.75, 0.3536)
    """
    alpha = check_alpha(alpha)
    arr = np.asarray(score)
    if arr.ndim != 1:
        raise ValueError(f"score must be one-dimensional (one score per case), got shape {arr.shape}")
    fit = delong_covariance(y_true, {"score": arr}, pos_label=pos_label)
    return _auc_intervals(fit, alpha)[0]


def auc_table(y_true: Any, scores: Any, *, pos_label: Any = None, alpha: float = 0.05) -> pd.DataFrame:
    """The AUC of every score column with its DeLong interval, as a tidy table.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    scores : array-like of shape (n,) or (n, k), mapping or pandas.DataFrame
        The score columns, one score per case: a 1-D sequence (one column, named
        ``"score"``), a 2-D array (columns named ``"0"``, ``"1"``, ...), a mapping
        ``name -> scores`` or a DataFrame. Higher scores mean "more positive".
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    alpha : float, default 0.05
        In (0, 1): the intervals have coverage ``1 - alpha``.

    Returns
    -------
    pandas.DataFrame
        One row per column: ``name, estimate, se, low, high, alpha, n_pos, n_neg, method,
        below_chance`` (``below_chance``: the interval lies entirely below 0.5, so the
        scores look reversed).

    Examples
    --------
    scikit-learn's ``roc_auc_score`` example (AUC 0.75) and the same scores reversed:

    >>> from evallib.onetestset import auc_table
    >>> table = auc_table([1, 1, 2, 2], {"s": [0.1, 0.4, 0.35, 0.8], "r": [0.8, 0.35, 0.4, 0.1]},
    ...                   pos_label=2)
    >>> table["estimate"].tolist()
    [0.75, 0.25]
    """
    alpha = check_alpha(alpha)
    return delong_covariance(y_true, scores, pos_label=pos_label).table(alpha)


@dataclass(frozen=True)
class AUCComparison:
    """DeLong's paired comparison of two AUCs measured on the same cases.

    Attributes
    ----------
    a, b : the two score columns.
    auc_a, auc_b : their AUCs.
    difference : ``auc_a - auc_b``.
    se : the standard error of the difference, ``sqrt(S_aa + S_bb - 2 S_ab)``.
    statistic : ``z = difference / se`` (DeLong et al., section 3, with the contrast
        ``L = (1, -1)``).
    pvalue : two-sided, ``2 P(Z >= |z|)``; ``P(Z >= z)`` for ``alternative="greater"``,
        ``P(Z <= z)`` for ``"less"``.
    low, high : ``difference -/+ z_{alpha/2} se``, clipped to [-1, 1]; one-sided
        (``difference - z_alpha se`` to 1, or -1 to ``difference + z_alpha se``) for a
        one-sided ``alternative``.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    method : ``"DeLong"``.
    alternative : ``"two-sided"``, ``"less"`` (H1: ``AUC_a < AUC_b``) or ``"greater"``.

    Two columns that rank every pair of cases alike have ``se = 0`` and
    ``difference = 0``: then ``statistic = 0`` and ``pvalue = 1`` (no evidence of a
    difference). If ``se = 0`` while the difference is not 0 (the placement values
    differ by a constant), ``statistic`` is infinite and ``pvalue = 0`` (1 for a
    one-sided alternative in the other direction): evallib's zero-variance rule
    (:mod:`evallib._inference`), with the variance judged against ``S_aa`` and ``S_bb``.
    """

    a: str
    b: str
    auc_a: float
    auc_b: float
    difference: float
    se: float
    statistic: float
    pvalue: float
    low: float
    high: float
    reject: bool
    alpha: float
    method: str = "DeLong"
    alternative: str = "two-sided"


def _compare(fit: DeLong, i: int, j: int, alpha: float, alternative: str = "two-sided") -> AUCComparison:
    c = fit.covariance
    # S_aa + S_bb - 2 S_ab: round-off judged against S_aa and S_bb (evallib's zero-variance rule)
    se = se_from_variance(float(c[i, i] + c[j, j] - 2.0 * c[i, j]), max(abs(float(c[i, i])), abs(float(c[j, j]))))
    res = t_inference(float(fit.auc[i] - fit.auc[j]), se, alternative=alternative, alpha=alpha)
    p = res.pvalue
    return AUCComparison(a=fit.names[i], b=fit.names[j], auc_a=float(fit.auc[i]), auc_b=float(fit.auc[j]),
                         difference=res.estimate, se=res.se, statistic=res.statistic, pvalue=p,
                         low=max(-1.0, res.low), high=min(1.0, res.high), reject=bool(p <= alpha), alpha=alpha,
                         alternative=alternative)


def delong_test(y_true: Any, score_a: Any, score_b: Any, *, pos_label: Any = None,
                alpha: float = 0.05, alternative: str = "two-sided") -> AUCComparison:
    """DeLong's test of ``AUC_A = AUC_B`` for two score columns on the same cases.

    The two AUCs are correlated (same cases); DeLong et al. estimate the variance of
    ``theta_A - theta_B`` as ``L S L'`` with ``L = (1, -1)`` and refer
    ``z = (theta_A - theta_B) / sqrt(L S L')`` to the standard normal (their section 3).

    Parameters
    ----------
    y_true : two class labels, one per case.
    score_a, score_b : the two classifiers' scores, one per case.
    pos_label : the positive class (required unless the labels are 0/1 or False/True).
    alpha : in (0, 1); level of the test and ``1 - alpha`` coverage of the interval.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        The alternative hypothesis: ``"less"`` is ``AUC_A < AUC_B``, ``"greater"`` is
        ``AUC_A > AUC_B``; the interval is one-sided with a one-sided alternative.

    Returns
    -------
    AUCComparison

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), section 3; Sun & Xu (2014).

    Examples
    --------
    The same score column compared with itself: no difference, ``p = 1``.

    >>> from evallib.onetestset import delong_test
    >>> res = delong_test([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.1, 0.4, 0.35, 0.8])
    >>> res.difference, res.pvalue
    (0.0, 1.0)
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative)
    y_true, score_a, score_b = align_items([("y_true", y_true), ("score_a", score_a), ("score_b", score_b)])
    fit = delong_covariance(y_true, {"A": np.asarray(score_a), "B": np.asarray(score_b)}, pos_label=pos_label)
    res = _compare(fit, 0, 1, alpha, alternative)
    return res


@dataclass(frozen=True)
class UnpairedAUCComparison:
    """DeLong's comparison of two AUCs measured on two different (independent) test sets.

    Attributes
    ----------
    auc_a, auc_b : the two AUCs.
    se_a, se_b : their DeLong standard errors, ``sqrt(S10/m + S01/n)`` of each curve.
    difference : ``auc_a - auc_b``.
    se : ``sqrt(se_a^2 + se_b^2)``: independent test sets, so no covariance term.
    statistic : ``difference / se`` (pROC's ``D``).
    df : Welch–Satterthwaite degrees of freedom,
        ``(V_a + V_b)^2 / (V_a^2/(N_a - 1) + V_b^2/(N_b - 1))`` with ``V = se^2`` and ``N``
        the cases of each test set (as R's pROC computes them); ``inf`` when both
        variances are 0.
    pvalue : two-sided, ``2 P(T_df >= |statistic|)``.
    low, high : ``difference -/+ t_{df, alpha/2} se``, clipped to [-1, 1].
    reject : ``pvalue <= alpha``.
    alpha : the level.
    n_pos_a, n_neg_a, n_pos_b, n_neg_b : positive and negative cases of each test set.
    method : ``"DeLong (unpaired)"``.
    """

    auc_a: float
    auc_b: float
    se_a: float
    se_b: float
    difference: float
    se: float
    statistic: float
    df: float
    pvalue: float
    low: float
    high: float
    reject: bool
    alpha: float
    n_pos_a: int
    n_neg_a: int
    n_pos_b: int
    n_neg_b: int
    method: str = "DeLong (unpaired)"


def delong_unpaired(y_a: Any, score_a: Any, y_b: Any, score_b: Any, *, pos_label: Any = None,
                    alpha: float = 0.05) -> UnpairedAUCComparison:
    """DeLong's test of ``AUC_A = AUC_B`` for two ROC curves on different test sets.

    Classifier A is scored on one test set, B on another with other cases (another
    hospital, another year, another split). The two AUCs are then independent, and the
    variance of their difference is the sum of the two curves' DeLong variances,
    ``V = S_A + S_B`` with ``S = S10/m + S01/n`` for each (DeLong, DeLong &
    Clarke-Pearson 1988, eq. 2, with no covariance between the curves). The statistic
    ``D = (theta_A - theta_B)/sqrt(V)`` is referred, as R's pROC does for unpaired curves
    (``roc.test(..., paired = FALSE)``), to Student's t with the Welch–Satterthwaite
    degrees of freedom ``V^2 / (S_A^2/(N_A - 1) + S_B^2/(N_B - 1))``; with hundreds of
    cases this is the normal reference to three decimals. When both test sets are the
    same cases, use the paired :func:`delong_test`: it accounts for the covariance.

    Parameters
    ----------
    y_a, score_a : the labels and A's scores on A's test set.
    y_b, score_b : the labels and B's scores on B's test set (any size).
    pos_label : the positive class in both label sequences (required unless the labels
        are 0/1 or False/True).
    alpha : in (0, 1); level of the test and ``1 - alpha`` coverage of the interval.

    Returns
    -------
    UnpairedAUCComparison

    Raises
    ------
    ValueError
        When a test set has fewer than two positive or two negative cases, or on the
        input errors of :func:`positive_mask` (each message names ``y_a`` or ``y_b``).

    Notes
    -----
    With perfect separation on both test sets (both AUCs 0 or 1) the two variances are
    0: then ``df`` is ``inf``, and the result is ``statistic = 0``, ``pvalue = 1`` when
    the AUCs are equal, else an infinite statistic and ``pvalue = 0``; the interval is
    the single point ``difference``.

    References
    ----------
    DeLong, DeLong & Clarke-Pearson (1988), eq. (2); Robin et al. (2011), pROC: an
    open-source package for R and S+ to analyze and compare ROC curves, *BMC
    Bioinformatics* 12, 77 (``roc.test``, unpaired DeLong).

    Examples
    --------
    Two tiny test sets, by hand. A's placements are 3/4 and 1 for the positives and 1
    and 3/4 for the negatives (one tie), each pair with sample variance 1/32, so
    ``V_A = (1/32)/2 + (1/32)/2 = 1/32``; B's are 1/2, 1 and 1, 1/2, so ``V_B = 1/8``;
    ``V = 5/32 = 0.15625``.

    >>> from evallib.onetestset import delong_unpaired
    >>> res = delong_unpaired([0, 0, 1, 1], [0.1, 0.5, 0.5, 0.9], [0, 0, 1, 1], [0.2, 0.6, 0.4, 0.8])
    >>> res.auc_a, res.auc_b, round(res.se ** 2, 6)
    (0.875, 0.75, 0.15625)

    pROC's own test of unpaired curves (``roc.test(r.wfns, r.s100b, paired = FALSE)`` on its
    aSAH data) expects ``D = 1.43490640926908`` and ``p = 0.152825378808796``; the tests
    of this module reproduce both.
    """
    alpha = check_alpha(alpha)
    fits = []
    for label, y, score in (("a", y_a, score_a), ("b", y_b, score_b)):
        arr = np.asarray(score)
        if arr.ndim != 1:
            raise ValueError(f"score_{label} must be one-dimensional (one score per case), got shape {arr.shape}")
        pos = positive_mask(y, pos_label, name=f"y_{label}")
        _, mat = check_score_matrix({f"score_{label}": arr}, pos.shape[0], name=f"score_{label}")
        m = int(pos.sum())
        n = int(pos.shape[0] - m)
        if m < 2 or n < 2:
            raise ValueError(f"y_{label} must contain at least 2 positive and 2 negative cases for DeLong's "
                             f"variance, got {m} positive and {n} negative")
        v = _placements(mat[:, 0], pos, m, n)
        v10, v01 = v[pos], v[~pos]
        var = float(np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n)
        fits.append((float(v10.mean()), max(var, 0.0), m, n))
    (auc_a, var_a, m_a, n_a), (auc_b, var_b, m_b, n_b) = fits
    var = var_a + var_b
    denom = var_a ** 2 / (m_a + n_a - 1) + var_b ** 2 / (m_b + n_b - 1)
    df = var * var / denom if denom > 0 else float("inf")
    res = t_inference(auc_a - auc_b, float(np.sqrt(var)), df=df, alpha=alpha)
    if res.se == 0.0:
        df = float("inf")
        res = t_inference(res.estimate, 0.0, alpha=alpha)
    p = res.pvalue
    return UnpairedAUCComparison(
        auc_a=auc_a, auc_b=auc_b, se_a=float(np.sqrt(var_a)), se_b=float(np.sqrt(var_b)), difference=res.estimate,
        se=res.se, statistic=res.statistic, df=float(df), pvalue=p, low=float(max(-1.0, res.low)),
        high=float(min(1.0, res.high)), reject=bool(p <= alpha), alpha=alpha, n_pos_a=m_a, n_neg_a=n_a,
        n_pos_b=m_b, n_neg_b=n_b)


def delong_pairwise(y_true: Any, scores: Any, *, pos_label: Any = None, alpha: float = 0.05,
                    adjust: str = "holm") -> pd.DataFrame:
    """DeLong's paired test for every pair of score columns, as a tidy table.

    One covariance matrix serves all pairs. ``pvalue``, ``low``/``high`` and ``reject``
    are per pair (unadjusted); the ``_adj`` columns apply ``adjust`` over the pairs:
    Holm's step-down levels and adjusted p-values (Holm 1979) or Bonferroni's, with joint
    (Bonferroni) intervals, as the report's pairwise table of error rates does; or
    Benjamini & Hochberg's (``"bh"``) or Benjamini & Yekutieli's (``"by"``) step-up
    levels and adjusted p-values, which control the false discovery rate, not the
    family-wise error rate, and have no joint intervals: under them (and ``"none"``) the
    ``_adj`` intervals are the unadjusted ones (``attrs["interval_adjust"] == "none"``).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    scores : array-like of shape (n,) or (n, k), mapping or pandas.DataFrame
        The score columns, one score per case: a 1-D sequence (one column, named
        ``"score"``), a 2-D array (columns named ``"0"``, ``"1"``, ...), a mapping
        ``name -> scores`` or a DataFrame. Higher scores mean "more positive".
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    alpha : float, default 0.05
        In (0, 1): the level of the tests; intervals have coverage ``1 - alpha``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        The multiple-testing adjustment over the pairs (:data:`ADJUSTMENTS`).

    Returns
    -------
    pandas.DataFrame
        One row per pair ``(a, b)`` in column order: ``a, b, auc_a, auc_b, difference,
        se, statistic, pvalue, low, high, reject, alpha, method, alpha_adj, pvalue_adj,
        reject_adj, low_adj, high_adj`` (``alpha_adj``: the test's level for the pair;
        ``low_adj``/``high_adj``: the joint interval at level ``1 - alpha/m``, or the
        unadjusted one when ``adjust`` is ``"none"``, ``"bh"`` or ``"by"``);
        ``table.attrs["adjust"]`` names the adjustment and ``table.attrs["interval_adjust"]``
        that of the intervals (``"bonferroni"`` or ``"none"``).

    Examples
    --------
    >>> from evallib.onetestset import delong_pairwise
    >>> table = delong_pairwise([1, 1, 2, 2], {"s": [0.1, 0.4, 0.35, 0.8], "r": [0.8, 0.35, 0.4, 0.1]},
    ...                         pos_label=2)
    >>> table[["a", "b", "difference"]].to_numpy().tolist()
    [['s', 'r', 0.5]]
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    return delong_covariance(y_true, scores, pos_label=pos_label).pairwise(alpha, adjust)


# ------------------------------------------------------------------ Brier, log-loss
def check_probabilities(scores: Any) -> pd.DataFrame:
    """Which score columns can be probabilities of the positive class.

    A column qualifies when every value lies in [0, 1]. (A margin or a rank that
    happens to lie in [0, 1] cannot be told apart from a probability; the Brier score
    and log-loss of such a column are computed but mean little.)

    Parameters
    ----------
    scores : array-like of shape (n,) or (n, k), mapping or pandas.DataFrame
        The score columns: a 1-D sequence, a 2-D array, a mapping ``name -> scores``
        or a DataFrame.

    Returns
    -------
    pandas.DataFrame
        One row per column: ``name``, ``is_probability`` (bool), ``min``, ``max`` and
        ``note`` (empty, or one sentence saying why the column is not a probability).
    """
    names, mat = check_score_matrix(scores)
    lo, hi = mat.min(axis=0), mat.max(axis=0)
    rows = []
    for name, a, b in zip(names, lo, hi):
        ok = bool(a >= 0.0 and b <= 1.0)
        note = "" if ok else (f"{name} is not a probability: its scores run from {a:.4g} to {b:.4g}, "
                              "outside [0, 1], so it gets no Brier score or log-loss")
        rows.append({"name": name, "is_probability": ok, "min": float(a), "max": float(b), "note": note})
    return pd.DataFrame(rows)


def _check_eps(eps: Any) -> float:
    return check_real(eps, "eps", low=0.0, high=0.5, low_open=True, high_open=True)


def _losses(pos: np.ndarray, p: np.ndarray, loss: str, eps: float) -> np.ndarray:
    """Per-case losses for a matrix (or vector) of probabilities ``p`` of the positive class."""
    yy = pos if p.ndim == 1 else pos[:, None]
    if loss == "brier":
        return (p - yy) ** 2
    q = np.where(yy, p, 1.0 - p)  # probability given to the true class
    return -np.log(np.clip(q, eps, 1.0 - eps))


def _require_probabilities(names: list[str], mat: np.ndarray) -> None:
    bad = (mat < 0.0) | (mat > 1.0)
    if bad.any():
        j = int(np.nonzero(bad.any(axis=0))[0][0])
        raise ValueError(f"the scores of {names[j]!r} must be probabilities in [0, 1] for the Brier score "
                         f"and log-loss, got values from {mat[:, j].min():.4g} to {mat[:, j].max():.4g}")


def per_case_loss(y_true: Any, prob: Any, *, loss: str = "brier", pos_label: Any = None,
                  eps: float = LOG_LOSS_EPS) -> np.ndarray:
    """The loss of each case: ``(p_i - y_i)^2`` (Brier) or ``-log q_i`` (log-loss).

    ``p_i`` is the probability of the positive class, ``y_i`` is 1 for a positive case
    and 0 otherwise, and ``q_i`` is the probability given to the case's true class,
    clipped to ``[eps, 1 - eps]`` (see :data:`LOG_LOSS_EPS`).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    prob : array-like of shape (n,)
        The probability of the positive class for each case, in [0, 1].
    loss : {"brier", "log"}, default "brier"
        The Brier score's squared error or the log-loss.
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    eps : float, default LOG_LOSS_EPS
        In (0, 0.5): the log-loss clips the probability of the true class to
        ``[eps, 1 - eps]`` (:data:`LOG_LOSS_EPS`, the float64 machine epsilon).

    Returns
    -------
    numpy.ndarray
        The ``n`` per-case losses, in case order.

    Raises
    ------
    ValueError
        When ``prob`` has values outside [0, 1] (it is not a probability).

    Examples
    --------
    The four squared errors behind scikit-learn's Brier score example (mean 0.0375):

    >>> from evallib.onetestset import per_case_loss
    >>> per_case_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]).round(4).tolist()
    [0.01, 0.01, 0.04, 0.09]
    """
    loss = check_choice(loss, "loss", _LOSSES)
    eps = _check_eps(eps)
    arr = np.asarray(prob)
    if arr.ndim != 1:
        raise ValueError(f"prob must be one-dimensional (one probability per case), got shape {arr.shape}")
    pos, names, mat = _prepare(y_true, {"prob": arr}, pos_label)
    _require_probabilities(names, mat)
    return _losses(pos, mat[:, 0], loss, eps)


def brier_score(y_true: Any, prob: Any, *, pos_label: Any = None) -> float:
    """The Brier score, the mean of ``(p_i - y_i)^2`` (Brier 1950, for two classes).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    prob : array-like of shape (n,)
        The probability of the positive class for each case, in [0, 1].
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).

    Returns
    -------
    float
        The mean squared error of the probabilities, in [0, 1] (lower is better).

    Examples
    --------
    The example of scikit-learn's ``brier_score_loss``:

    >>> from evallib.onetestset import brier_score
    >>> round(brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.0375
    """
    return float(per_case_loss(y_true, prob, loss="brier", pos_label=pos_label).mean())


def log_loss(y_true: Any, prob: Any, *, pos_label: Any = None, eps: float = LOG_LOSS_EPS) -> float:
    """The log-loss (cross-entropy), the mean of ``-log q_i`` with ``q_i`` clipped to ``[eps, 1 - eps]``.

    ``q_i`` is the probability given to case ``i``'s true class.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    prob : array-like of shape (n,)
        The probability of the positive class for each case, in [0, 1].
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    eps : float, default LOG_LOSS_EPS
        In (0, 0.5): the log-loss clips the probability of the true class to
        ``[eps, 1 - eps]`` (:data:`LOG_LOSS_EPS`, the float64 machine epsilon).

    Returns
    -------
    float
        The mean negative log-probability of the true class, at least 0 (lower is better).

    Examples
    --------
    The example of scikit-learn's ``log_loss`` (probabilities of "spam"):

    >>> from evallib.onetestset import log_loss
    >>> round(log_loss(["spam", "ham", "ham", "spam"], [0.9, 0.1, 0.2, 0.65], pos_label="spam"), 5)
    0.21616
    """
    return float(per_case_loss(y_true, prob, loss="log", pos_label=pos_label, eps=eps).mean())


def loss_table(y_true: Any, scores: Any, *, pos_label: Any = None, eps: float = LOG_LOSS_EPS) -> pd.DataFrame:
    """Brier score and log-loss of every score column that is a probability.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    scores : array-like of shape (n,) or (n, k), mapping or pandas.DataFrame
        The score columns, one score per case: a 1-D sequence (one column, named
        ``"score"``), a 2-D array (columns named ``"0"``, ``"1"``, ...), a mapping
        ``name -> scores`` or a DataFrame. Higher scores mean "more positive".
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    eps : float, default LOG_LOSS_EPS
        In (0, 0.5): the log-loss clips the probability of the true class to
        ``[eps, 1 - eps]`` (:data:`LOG_LOSS_EPS`, the float64 machine epsilon).

    Returns
    -------
    pandas.DataFrame
        One row per column: ``name``, ``is_probability``, ``brier``, ``log_loss``,
        ``n_clipped`` (cases whose probability of the true class was below ``eps`` and
        was clipped for the log-loss) and ``note``. A column with values outside [0, 1]
        has ``is_probability = False``, NaN losses and a ``note`` saying why.

    Examples
    --------
    >>> from evallib.onetestset import loss_table
    >>> table = loss_table([0, 1, 1, 0], {"p": [0.1, 0.9, 0.8, 0.3], "margin": [-1, 2, 1, 0]})
    >>> table[["name", "is_probability"]].to_numpy().tolist(), round(float(table["brier"][0]), 4)
    ([['p', True], ['margin', False]], 0.0375)
    """
    eps = _check_eps(eps)
    pos, names, mat = _prepare(y_true, scores, pos_label)
    check = check_probabilities(pd.DataFrame(mat, columns=names))
    rows = []
    for j, name in enumerate(names):
        row = {"name": name, "is_probability": bool(check["is_probability"][j]),
               "brier": np.nan, "log_loss": np.nan, "n_clipped": 0, "note": check["note"][j]}
        if row["is_probability"]:
            p = mat[:, j]
            q = np.where(pos, p, 1.0 - p)
            row["brier"] = float(_losses(pos, p, "brier", eps).mean())
            row["log_loss"] = float(_losses(pos, p, "log", eps).mean())
            row["n_clipped"] = int(np.count_nonzero(q < eps))
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class LossComparison:
    """The paired t-test on the per-case losses of two probabilistic classifiers.

    Attributes
    ----------
    a, b : the two score columns.
    loss : ``"brier"`` or ``"log"``.
    mean_a, mean_b : their mean losses (the Brier score or log-loss).
    difference : ``mean_a - mean_b`` (positive: ``b`` has the lower loss).
    se : the standard error of the mean per-case difference, ``sd(d) / sqrt(N)``.
    statistic : ``t = difference / se``.
    df : ``N - 1``.
    pvalue : two-sided.
    low, high : ``difference -/+ t_{alpha/2, N-1} se``.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    method : ``"paired t"``.

    When every case has the same loss difference ``d`` the standard error is 0: with
    ``d = 0`` the result is ``statistic = 0``, ``pvalue = 1``; otherwise ``statistic`` is
    infinite and ``pvalue = 0``; the interval is the single point ``d``.
    """

    a: str
    b: str
    loss: str
    mean_a: float
    mean_b: float
    difference: float
    se: float
    statistic: float
    df: int
    pvalue: float
    low: float
    high: float
    reject: bool
    alpha: float
    method: str = "paired t"


def _paired_t(name_a: str, name_b: str, loss: str, la: np.ndarray, lb: np.ndarray, alpha: float) -> LossComparison:
    d = la - lb
    n = d.shape[0]
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    # the per-case losses are the numbers the mean and its se come from (evallib's zero-variance rule)
    scale = max(1.0, float(np.abs(la).max()), float(np.abs(lb).max()))
    res = t_inference(float(d.mean()), sd / np.sqrt(n), df=max(n - 1, 1), alpha=alpha, scale=scale)
    p = res.pvalue
    return LossComparison(a=name_a, b=name_b, loss=loss, mean_a=float(la.mean()), mean_b=float(lb.mean()),
                          difference=res.estimate, se=res.se, statistic=res.statistic, df=int(n - 1), pvalue=p,
                          low=res.low, high=res.high, reject=bool(p <= alpha), alpha=alpha)


def loss_test(y_true: Any, prob_a: Any, prob_b: Any, *, loss: str = "brier", pos_label: Any = None,
              alpha: float = 0.05, eps: float = LOG_LOSS_EPS) -> LossComparison:
    """Paired t-test of equal expected loss for two classifiers' probabilities.

    The Brier score and the log-loss are means of per-case losses, so the question
    "which classifier has the lower expected loss" is about the mean of the per-case
    differences ``d_i = loss_A(i) - loss_B(i)``. The paired t-test answers exactly that,
    and with the hundreds of cases of a test set its normal approximation is sound by
    the central limit theorem (each ``d_i`` is bounded for the Brier score, and for the
    clipped log-loss). The Wilcoxon signed-rank test is not used: it tests whether the
    differences are symmetric about 0 (a median-type question), and can reject when the
    mean losses are equal, or miss a difference carried by a few confident errors, which
    is what the log-loss is built to punish.

    Parameters
    ----------
    y_true : two class labels, one per case.
    prob_a, prob_b : probabilities of the positive class, in [0, 1].
    loss : ``"brier"`` or ``"log"``.
    pos_label : the positive class (required unless the labels are 0/1 or False/True).
    alpha : in (0, 1).
    eps : clipping of the log-loss, in (0, 0.5).

    Returns
    -------
    LossComparison

    Examples
    --------
    >>> from evallib.onetestset import loss_test
    >>> res = loss_test([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], [0.1, 0.9, 0.8, 0.3])
    >>> res.difference, res.pvalue
    (0.0, 1.0)
    """
    loss = check_choice(loss, "loss", _LOSSES)
    alpha = check_alpha(alpha)
    eps = _check_eps(eps)
    y_true, prob_a, prob_b = align_items([("y_true", y_true), ("prob_a", prob_a), ("prob_b", prob_b)])
    pos, names, mat = _prepare(y_true, {"A": np.asarray(prob_a), "B": np.asarray(prob_b)}, pos_label)
    _require_probabilities(["prob_a", "prob_b"], mat)
    ls = _losses(pos, mat, loss, eps)
    return _paired_t("A", "B", loss, ls[:, 0], ls[:, 1], alpha)


def _loss_pairs(names: list[str], ls: np.ndarray, loss: str, alpha: float, adjust: str) -> pd.DataFrame:
    """The paired t-test on every pair of the per-case loss columns ``ls`` (cases x k), adjusted."""
    rows = [_paired_t(names[i], names[j], loss, ls[:, i], ls[:, j], alpha).__dict__
            for i, j in combinations(range(len(names)), 2)]
    table = pd.DataFrame(rows, columns=[f.name for f in fields(LossComparison)])
    df = max(ls.shape[0] - 1, 1)
    return adjust_pairs_table(table, alpha, adjust, lambda a: float(stats.t.isf(a / 2.0, df)))


def per_case_loss_pairwise(losses: Any, *, loss: str = "brier", alpha: float = 0.05,
                           adjust: str = "holm") -> pd.DataFrame:
    """The paired t-test on every pair of per-case loss columns, adjusted for multiplicity.

    :func:`loss_pairwise` computes the per-case losses from labels and probabilities;
    this function takes them as given, for example the per-case mean losses of cases
    predicted several times, or a loss this module does not compute. For each pair
    ``(a, b)`` the test is :func:`loss_test`'s, on ``d_i = loss_a(i) - loss_b(i)``:
    ``t = mean(d) / (sd(d) / sqrt(N))`` with ``N - 1`` degrees of freedom. The ``_adj``
    columns apply ``adjust`` over the pairs as in :func:`loss_pairwise`.

    Parameters
    ----------
    losses : a mapping ``name -> per-case losses``, a DataFrame (one column per
        classifier) or a 2-D array (cases x classifiers); finite numbers, at least 2 cases.
    loss : the name of the loss, copied into the table's ``loss`` column (any string,
        e.g. ``"brier"`` or ``"log"``).
    alpha : in (0, 1).
    adjust : ``"holm"``, ``"bonferroni"``, ``"bh"``, ``"by"`` or ``"none"``.

    Returns
    -------
    pandas.DataFrame
        One row per pair, with the columns of :func:`loss_pairwise` (empty when there is
        one column).

    Examples
    --------
    The p-value is scipy's paired t-test's:

    >>> from scipy import stats
    >>> from evallib.onetestset import per_case_loss_pairwise
    >>> la, lb = [0.01, 0.01, 0.04, 0.09], [0.04, 0.09, 0.16, 0.25]
    >>> table = per_case_loss_pairwise({"A": la, "B": lb})
    >>> round(float(table.pvalue[0]), 4), round(float(stats.ttest_rel(la, lb).pvalue), 4)
    (0.0393, 0.0393)
    """
    if not isinstance(loss, str):
        raise TypeError(f"loss must be a string naming the loss, got {type(loss).__name__}")
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    names, ls = check_score_matrix(losses, name="losses")
    if ls.shape[0] < 2:
        raise ValueError(f"losses must hold at least 2 cases (rows) for a paired t-test, got {ls.shape[0]}")
    return _loss_pairs(names, ls, loss, alpha, adjust)


def loss_pairwise(y_true: Any, scores: Any, *, loss: str = "brier", pos_label: Any = None,
                  alpha: float = 0.05, eps: float = LOG_LOSS_EPS, adjust: str = "holm") -> pd.DataFrame:
    """The paired t-test on per-case losses for every pair of probability columns.

    Columns that are not probabilities (values outside [0, 1]) are left out; their
    names are in ``table.attrs["skipped"]``. ``pvalue``, ``low``/``high`` and ``reject``
    are per pair; the ``_adj`` columns apply ``adjust`` (``"holm"``, ``"bonferroni"``,
    ``"bh"``, ``"by"`` or ``"none"``) over the pairs, as in :func:`delong_pairwise`
    (BH and BY control the false discovery rate and leave the intervals unadjusted).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    scores : array-like of shape (n,) or (n, k), mapping or pandas.DataFrame
        The score columns, one score per case: a 1-D sequence (one column, named
        ``"score"``), a 2-D array (columns named ``"0"``, ``"1"``, ...), a mapping
        ``name -> scores`` or a DataFrame. Columns of probabilities of the positive class.
    loss : {"brier", "log"}, default "brier"
        The Brier score's squared error or the log-loss.
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    alpha : float, default 0.05
        In (0, 1): the level of the tests; intervals have coverage ``1 - alpha``.
    eps : float, default LOG_LOSS_EPS
        In (0, 0.5): the log-loss clips the probability of the true class to
        ``[eps, 1 - eps]`` (:data:`LOG_LOSS_EPS`, the float64 machine epsilon).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        The multiple-testing adjustment over the pairs (:data:`ADJUSTMENTS`).

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``a, b, loss, mean_a, mean_b, difference, se, statistic, df,
        pvalue, low, high, reject, alpha, method, alpha_adj, pvalue_adj, reject_adj,
        low_adj, high_adj`` (empty, with these columns, when fewer than two columns are
        probabilities).
    """
    loss = check_choice(loss, "loss", _LOSSES)
    alpha = check_alpha(alpha)
    eps = _check_eps(eps)
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    pos, names, mat = _prepare(y_true, scores, pos_label)
    ok = ((mat >= 0.0) & (mat <= 1.0)).all(axis=0)
    keep = [j for j in range(len(names)) if ok[j]]
    ls = _losses(pos, mat[:, keep], loss, eps) if keep else np.empty((mat.shape[0], 0))
    table = _loss_pairs([names[j] for j in keep], ls, loss, alpha, adjust)
    table.attrs["skipped"] = [names[j] for j in range(len(names)) if not ok[j]]
    return table


# ------------------------------------------------------------------ text
def format_pvalue(p: float) -> str:
    """A p-value as printed in a table: :func:`evallib._format.pvalue_cell`, the library's one
    p-value format (two significant digits, trailing zeros kept; ``"< 1e-15"`` below 1e-15, never 0).

    Parameters
    ----------
    p : float
        The p-value, in [0, 1].

    Returns
    -------
    str
        For example ``"0.034"``, ``"0.80"`` or ``"< 1e-15"``.

    Examples
    --------
    >>> format_pvalue(0.0342), format_pvalue(0.8036), format_pvalue(0.0)
    ('0.034', '0.80', '< 1e-15')
    """
    return pvalue_cell(p)


def _level(alpha: float) -> str:
    return f"{100 * (1 - alpha):g}%"


def degenerate_auc(estimate: float, se: float) -> str:
    """Why DeLong's interval of an AUC is degenerate, or ``""`` when it is not.

    An AUC of 1 (or 0) puts every positive case above (below) every negative one: every
    placement is equal, DeLong's variance is 0 and the interval collapses to the point, which
    would read as certainty. An AUC strictly between with standard error 0 (scores tied so
    that every placement is equal) collapses the same way. ``se`` may be NaN (not known):
    then only an AUC of 0 or 1 is degenerate.

    >>> degenerate_auc(1.0, 0.0), degenerate_auc(0.0, 0.0), degenerate_auc(0.5, 0.0), degenerate_auc(0.8, 0.05)
    ('perfect separation', 'perfect reversal', 'standard error 0', '')
    """
    if estimate == 1.0:
        return "perfect separation"
    if estimate == 0.0:
        return "perfect reversal"
    if se == 0.0:
        return "standard error 0"
    return ""


def degenerate_interval_text(reason: str, *, plural: bool = False) -> str:
    """The sentence that replaces a degenerate DeLong interval: it prints no interval.

    >>> degenerate_interval_text("perfect separation")
    "DeLong's interval is degenerate (perfect separation)"
    """
    return f"DeLong's interval{'s are' if plural else ' is'} degenerate ({reason})"


def format_auc_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`auc_table` as text: AUC and interval to three decimals, a note for reversed scores.

    An AUC of 0 or 1 (or a standard error of 0) collapses DeLong's interval to a point, which
    would read as certainty: its interval cell is ``"-"`` and the note says why
    (:func:`degenerate_interval_text`, for example ``"DeLong's interval is degenerate
    (perfect separation)"``).

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`auc_table` returned.

    Returns
    -------
    pandas.DataFrame
        Strings, indexed by score column: ``AUC``, the interval and ``note``; the
        numbers are unchanged in ``table``.
    """
    level = _level(float(table["alpha"].iloc[0])) if len(table) else "95%"
    se = table["se"].astype(float) if "se" in table else pd.Series(np.nan, index=table.index)
    reasons = [degenerate_auc(float(e), float(v)) for e, v in zip(table["estimate"], se)]
    notes = []
    for reason, below in zip(reasons, table["below_chance"]):
        parts = (degenerate_interval_text(reason) if reason else "",
                 "below chance (0.5): the scores look reversed" if below else "")
        notes.append("; ".join(x for x in parts if x))
    out = pd.DataFrame({
        "AUC": table["estimate"].map(lambda v: f"{v:.3f}"),
        f"{level} interval (DeLong)": ["-" if reason else f"[{lo:.3f}, {hi:.3f}]"
                                       for reason, lo, hi in zip(reasons, table["low"], table["high"])],
        "note": notes,
    })
    out.index = pd.Index(table["name"], name="classifier")
    return out


def _verdicts(table: pd.DataFrame, higher_is_better: bool) -> list[str]:
    out = []
    for a, b, d, rej in zip(table["a"], table["b"], table["difference"], table["reject_adj"]):
        if not rej:
            out.append("not shown to differ")
        else:
            a_better = (d > 0) == higher_is_better
            out.append(f"{a if a_better else b} better")
    return out


def pair_interval_header(level: str, adjust: str) -> str:
    """The header of a pair table's second interval column: the joint (Bonferroni) interval with
    its level under the family-wise adjustments, else the unadjusted interval, saying why.

    ``level`` is the family's level as printed (``"95%"``): the joint intervals cover all
    their true differences together with that probability at least.

    >>> pair_interval_header("95%", "holm"), pair_interval_header("90%", "none")
    ('95% joint interval (Bonferroni)', 'interval (unadjusted)')
    """
    if adjust in FDR_ADJUSTMENTS:
        return "interval (unadjusted: FDR has no joint interval)"
    return f"{level} joint interval (Bonferroni)" if adjust != "none" else "interval (unadjusted)"


def _format_pairs(table: pd.DataFrame, what: str, digits: int, *, higher_is_better: bool,
                  test: str) -> pd.DataFrame:
    """A pair table as text, indexed ``"a vs b"``: the difference, its interval, the joint
    (Bonferroni) interval with its level, the adjusted p-value of ``test`` (floored at 1e-15,
    headed by :func:`evallib._format.adjusted_p_header`) and the verdict. With one pair there is
    nothing to adjust: no joint interval, and the p-value is headed as unadjusted."""
    level = _level(float(table["alpha"].iloc[0])) if len(table) else "95%"
    adjust = table_metadata(table, "adjust", made_by="delong_pairwise or loss_pairwise")

    def bounds(low, high):
        return [f"[{lo:+.{digits}f}, {hi:+.{digits}f}]" for lo, hi in zip(table[low], table[high])]

    one = len(table) == 1  # one pair: nothing to adjust, so no joint interval and no procedure's name
    columns = {
        f"{what} a - b": table["difference"].map(lambda v: f"{v:+.{digits}f}"),
        f"{level} interval": bounds("low", "high"),
    }
    if not one:
        columns[pair_interval_header(level, adjust)] = bounds("low_adj", "high_adj")
    columns[adjusted_p_header(ADJUSTMENT_NAMES.get(adjust, adjust) if adjust != "none" and not one else None,
                              test)] = table["pvalue_adj"].map(format_pvalue)
    columns["verdict"] = _verdicts(table, higher_is_better=higher_is_better)
    out = pd.DataFrame(columns)
    out.index = pd.Index([f"{a} vs {b}" for a, b in zip(table["a"], table["b"])], name="pair")
    return out


def format_auc_pairwise(table: pd.DataFrame, *, auc: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`delong_pairwise` as text, indexed ``"a vs b"``.

    Columns: the AUC difference, its interval, the joint (Bonferroni) interval, the adjusted
    p-value (floored at 1e-15) and the verdict (``"<name> better"`` when the adjusted
    test rejects, else ``"not shown to differ"``).

    Where the difference's standard error is 0 (both AUCs 0 or 1, say) its intervals, of
    width 0, are ``"-"``; a ``note`` column, present when some pair needs one, says
    ``"degenerate: ..."`` there and, where one of the two AUCs has DeLong variance 0 (an
    AUC of 0 or 1), that the interval rests on the other's variance alone.

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`delong_pairwise` returned.
    auc : pandas.DataFrame, optional
        The table :func:`auc_table` returned for the same scores: with it, an AUC strictly
        between 0 and 1 whose standard error is 0 (tied scores) counts as having variance 0
        too. Without it, only an AUC of 0 or 1 does.

    Returns
    -------
    pandas.DataFrame
        Strings, one row per pair.
    """
    out = _format_pairs(table, "AUC", 3, higher_is_better=True, test="DeLong's test")
    se = {} if auc is None else dict(zip(auc["name"], auc["se"].astype(float)))

    def flat(name: str, estimate: float) -> str:
        return degenerate_auc(float(estimate), se.get(name, np.nan))

    intervals = [c for c in out.columns if "interval" in c]
    notes = []
    for i, (a, b, auc_a, auc_b, s) in enumerate(zip(table["a"], table["b"], table["auc_a"], table["auc_b"],
                                                    table["se"])):
        fa, fb = flat(a, auc_a), flat(b, auc_b)
        if float(s) == 0.0:
            for c in intervals:
                out.iloc[i, out.columns.get_loc(c)] = "-"
            notes.append("degenerate: " + ("both AUCs have DeLong variance 0" if fa and fb
                                           else "DeLong's standard error of the difference is 0"))
        elif bool(fa) != bool(fb):
            d, other = (a, b) if fa else (b, a)
            notes.append(f"rests on {other}'s variance alone ({d}: {fa or fb}, DeLong variance 0)")
        else:
            notes.append("")
    if any(notes):
        out["note"] = notes
    return out


def format_loss_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`loss_table` as text: Brier score and log-loss to four decimals, or the note.

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`loss_table` returned.

    Returns
    -------
    pandas.DataFrame
        Strings, indexed by score column: ``Brier score``, ``log-loss`` and ``note``.
    """
    out = pd.DataFrame({
        "Brier score": [f"{v:.4f}" if ok else "-" for v, ok in zip(table["brier"], table["is_probability"])],
        "log-loss": [f"{v:.4f}" if ok else "-" for v, ok in zip(table["log_loss"], table["is_probability"])],
        "note": [note if note else (f"{c} probabilities of 0 or 1 on the wrong side clipped for the log-loss"
                                    if c else "") for note, c in zip(table["note"], table["n_clipped"])],
    })
    out.index = pd.Index(table["name"], name="classifier")
    return out


def format_loss_pairwise(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`loss_pairwise` as text, indexed ``"a vs b"``.

    The columns are the mean loss difference, its interval, the joint (Bonferroni)
    interval, the adjusted p-value and the verdict (lower loss is better).

    Parameters
    ----------
    table : pandas.DataFrame
        The table :func:`loss_pairwise` returned.

    Returns
    -------
    pandas.DataFrame
        Strings, one row per pair.
    """
    name = {"brier": "Brier", "log": "log-loss"}.get(str(table["loss"].iloc[0]), "loss") if len(table) else "loss"
    return _format_pairs(table, name, 4, higher_is_better=False, test="paired t-test")


# ------------------------------------------------------------------ plot
def _roc_points(pos: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` at every distinct score, from one sort, starting at (0, 0)."""
    order = np.argsort(-col)
    s = col[order]
    tp = np.cumsum(pos[order])
    last = np.append(np.flatnonzero(s[1:] != s[:-1]), s.shape[0] - 1)  # end of each tie group
    tps = tp[last].astype(np.float64)
    fps = (last + 1) - tps
    m, n = tp[-1], s.shape[0] - tp[-1]
    fpr = np.concatenate([[0.0], fps / n])
    tpr = np.concatenate([[0.0], tps / m])
    thr = np.concatenate([[np.inf], s[last]])
    return fpr, tpr, thr


def roc_points(y_true: Any, score: Any, *, pos_label: Any = None, max_points: int | None = None) -> pd.DataFrame:
    """The ROC curve of one score column: false and true positive rate at each threshold.

    A case is called positive when its score is at least the threshold; one point per
    distinct score (highest first), after the origin. With ``max_points``, the curve is
    thinned to at most about that many of its own vertices, evenly spaced along the
    path (``fpr + tpr`` grows from 0 to 2), so no drawn point is off the curve and the
    gaps are at most ``2 / max_points`` of the axes: enough for a figure of a million
    cases.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Two class labels, one per case.
    score : array-like of shape (n,)
        One score per case; higher means "more positive".
    pos_label : scalar, optional
        The label of the positive class; required unless the labels are 0/1 or
        False/True (then 1/True is positive).
    max_points : int, optional
        At least 2: thin the curve to about this many vertices; None keeps every one.

    Returns
    -------
    pandas.DataFrame
        Columns ``fpr``, ``tpr``, ``threshold`` (``inf`` at the origin).

    Examples
    --------
    scikit-learn's ``roc_curve`` example: ``fpr = [0, 0, 0.5, 0.5, 1]`` and
    ``tpr = [0, 0.5, 0.5, 1, 1]``:

    >>> from evallib.onetestset import roc_points
    >>> pts = roc_points([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> pts["fpr"].tolist(), pts["tpr"].tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    arr = np.asarray(score)
    if arr.ndim != 1:
        raise ValueError(f"score must be one-dimensional (one score per case), got shape {arr.shape}")
    pos, _, mat = _prepare(y_true, {"score": arr}, pos_label)
    if pos.all() or not pos.any():
        raise ValueError("y_true must contain both classes for a ROC curve")
    fpr, tpr, thr = _roc_points(pos, mat[:, 0])
    if max_points is not None:
        keep = _thin(fpr, tpr, check_count(max_points, "max_points", minimum=2))
        fpr, tpr, thr = fpr[keep], tpr[keep], thr[keep]
    return pd.DataFrame({"fpr": fpr, "tpr": tpr, "threshold": thr})


def _thin(fpr: np.ndarray, tpr: np.ndarray, max_points: int) -> np.ndarray:
    """Indices of about ``max_points`` vertices evenly spaced along the ROC path, ends kept."""
    if fpr.size <= max_points:
        return np.arange(fpr.size)
    grid = np.linspace(0.0, 2.0, max_points)
    keep = np.unique(np.concatenate([np.searchsorted(fpr + tpr, grid), [0, fpr.size - 1]]))
    return keep[keep < fpr.size]


def plot_roc_curves(y_true: Any, scores: Any, *, pos_label: Any = None, max_points: int = 2000, ax: Any = None):
    """The ROC curves of several score columns in one figure, each labelled with its AUC.

    Parameters
    ----------
    y_true : two class labels, one per case.
    scores : mapping name -> scores (or a DataFrame / 2-D array / one column).
    pos_label : the positive class (required unless the labels are 0/1 or False/True).
    max_points : each curve is drawn through at most about this many of its vertices
        (see :func:`roc_points`); the AUC in the legend is exact.
    ax : matplotlib Axes to draw on; a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    pos, names, mat = _prepare(y_true, scores, pos_label)
    if pos.all() or not pos.any():
        raise ValueError("y_true must contain both classes to draw a ROC curve")
    ax = get_axes(ax, figsize=(5.0, 5.0))
    max_points = check_count(max_points, "max_points", minimum=2)
    for j, name in enumerate(names):
        fpr, tpr, _ = _roc_points(pos, mat[:, j])
        auc = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0))  # exact: the trapezoids of the full curve
        keep = _thin(fpr, tpr, max_points)
        ax.plot(fpr[keep], tpr[keep], lw=1.5, label=f"{name} (AUC {auc:.3f})")
    ax.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1, label="chance (AUC 0.5)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.0)
    ax.set_aspect("equal")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.set_title("ROC curves")
    ax.legend(loc="lower right", fontsize="small")
    return ax
