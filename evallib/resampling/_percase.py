"""Statistics on test cases predicted several times: repeated cross-validation, each case weighing 1.

A repeated cross-validation (``R`` runs of ``k``-fold CV on one data set) predicts every
case once per run: ``R`` rows per case. The rows of one case are not independent test
cases, and pooling them inflates every test (Nadeau & Bengio 2003; Bouckaert & Frank 2004).
The functions here keep the case as the unit: each case enters with weight 1, through its
*rate* (the share of its predictions that are right), the mean of its placements, or its
whole set of predictions. When every case is predicted once -- or predicted alike in every
run -- they give exactly the one-test-set statistic (Cochran's Q, DeLong's covariance,
Keller, Bengio & Wong's bootstrap), so a verdict cannot change with how many times a case
was written down.

Every function takes the rows (one per prediction) and ``cases``, the case id of each row
(``None``: every row is its own case).

- :func:`cochran_q_cases` -- Cochran's Q on per-case correctness rates (Cochran's own
  within-case statistic, which for 0/1 outcomes is his Q), as a
  :class:`evallib.onetestset.CochranQ`.
- :func:`auc_cases` and :func:`delong_cases` -- the AUC with each case weighing 1, and
  DeLong's covariance of several AUCs with the placements averaged per case (Obuchowski's
  clustered form), as a :class:`evallib.onetestset.DeLong`.
- :func:`bootstrap_f1_cases` -- the paired bootstrap of the F1 (or macro-F1) difference of
  two classifiers, resampling cases with all their predictions (:class:`CaseF1Bootstrap`).

References
----------
W. G. Cochran (1950), The comparison of percentages in matched samples, Biometrika 37,
256-266. E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson (1988), Biometrics 44,
837-845; N. A. Obuchowski (1997), Nonparametric analysis of clustered ROC curve data,
Biometrics 53, 567-578. M. Keller, S. Bengio and S. Y. Wong (2005), Benchmarking
non-parametric statistical tests, NIPS 18. C. Nadeau and Y. Bengio (2003), Inference for
the generalization error, Machine Learning 52, 239-281. R. R. Bouckaert and E. Frank
(2004), Evaluating the replicability of significance tests for comparing learning
algorithms, PAKDD, LNCS 3056, 3-12.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse, stats

from .._f1bootstrap import f1_difference_bootstrap, label_cells
from .._validate import (
    align_columns,
    align_items,
    check_alpha,
    check_columns,
    check_count,
    check_labels,
    check_rng,
    check_score_matrix,
)
from ..onetestset import CochranQ, DeLong, cochran_q, delong_covariance, positive_mask

__all__ = ["CaseF1Bootstrap", "auc_cases", "bootstrap_f1_cases", "cochran_q_cases", "delong_cases"]


# ------------------------------------------------------------------ cases
def _case_codes(cases: Any, n_rows: int) -> tuple[np.ndarray | None, int]:
    """Each row's case as an index ``0..n - 1`` (ids in sorted order when they sort), and ``n``;
    ``(None, n_rows)`` when every row is its own case."""
    if cases is None:
        return None, n_rows
    if isinstance(cases, (str, bytes)) or np.isscalar(cases):
        raise TypeError(f"cases must be one case id per row (a sequence), got {type(cases).__name__}")
    values = pd.Series(np.asarray(cases, dtype=object) if not hasattr(cases, "dtype") else np.asarray(cases))
    if values.ndim != 1 or len(values) != n_rows:
        raise ValueError(f"cases must hold one case id per row ({n_rows}), got {len(values)}")
    if values.isna().any():
        raise ValueError(f"cases must not contain missing ids (row {int(np.flatnonzero(values.isna())[0])})")
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:  # ids of several types do not sort: keep their order of appearance
        codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64), len(uniques)


def _per_case(values: np.ndarray, codes: np.ndarray | None, n: int) -> np.ndarray:
    """The mean of per-row ``values`` (rows x ...) over each case's rows."""
    if codes is None:
        return values
    counts = np.bincount(codes, minlength=n).astype(float)
    if values.ndim == 1:
        return np.bincount(codes, weights=values, minlength=n) / counts
    return np.column_stack([np.bincount(codes, weights=values[:, j], minlength=n) for j in range(values.shape[1])]
                           ) / counts[:, None]


def _first_rows(codes: np.ndarray, n: int) -> np.ndarray:
    first = np.full(n, codes.size, np.int64)
    np.minimum.at(first, codes, np.arange(codes.size))
    return first


def _case_values(values: np.ndarray, codes: np.ndarray | None, n: int, name: str) -> np.ndarray:
    """A per-row array that must be constant within each case (its true class), one value per case."""
    if codes is None:
        return values
    first = values[_first_rows(codes, n)]
    if not np.array_equal(first[codes], values):
        row = int(np.flatnonzero(first[codes] != values)[0])
        raise ValueError(f"{name} must be the same in every row of a case; row {row} differs from the first row "
                         "of its case")
    return first


# ------------------------------------------------------------------ Cochran's Q
def cochran_q_cases(correct: Any, cases: Any = None, *, alpha: float = 0.05) -> CochranQ:
    """Cochran's Q over ``k`` classifiers with each case weighing 1, however often it was predicted.

    Each case's correctness rate under classifier ``j`` is the share of its rows that ``j``
    gets right (0 or 1 for a case predicted once). Cochran (1950) derives Q as the
    within-case (randomisation) statistic

    ``Q = (k - 1) sum_j (C_j - Cbar)^2 / sum_i sum_j (x_ij - xbar_i)^2``

    with ``x_ij`` the rates and ``C_j`` their column totals; for 0/1 rates it is his
    ``(k - 1)(k sum C_j^2 - T^2) / (k T - sum R_i^2)``, and the result is
    :func:`evallib.onetestset.cochran_q`'s. For fractional rates the same statistic
    is referred to chi-square with ``k - 1`` degrees of freedom: under the null hypothesis
    the classifiers are exchangeable within each case, and ``Q`` equals
    ``n (k - 1) SS_classifier / (SS_classifier + SS_residual)`` of the two-way layout
    cases x classifiers. ``note`` then says so. When every case has the same rate under
    every classifier ``Q`` is 0/0; it is reported as 0 with ``p = 1``.

    Parameters
    ----------
    correct : rows x ``k`` table (2-D array, mapping name -> column or DataFrame)
        1 (or True) where classifier ``j`` predicts the row's case correctly, 0 where it does
        not; or, with ``cases=None``, each case's rate in [0, 1] directly.
    cases : sequence, optional
        The case id of each row; rows of one case are averaged into its rates. None: every
        row is its own case.
    alpha : float
        The level of ``reject``, in (0, 1).

    Returns
    -------
    evallib.onetestset.CochranQ
        ``method`` is ``"chi2"``; ``accuracy`` the mean rate of each classifier over the
        cases; ``n_informative`` the cases whose rates differ between classifiers.

    References
    ----------
    W. G. Cochran (1950), Biometrika 37, 256-266, sections 2-3.

    Examples
    --------
    Three classifiers, two cases each predicted twice: case ``a`` is right 2, 1 and 0 times,
    case ``b`` 2, 2 and 1 times. The rates are ``(1, .5, 0)`` and ``(1, 1, .5)``: column
    totals ``(2, 1.5, .5)``, ``sum_j (C_j - 4/3)^2 = 7/6``, within-case sum of squares
    ``1/2 + 1/6``, so ``Q = 2 (7/6) / (2/3) = 3.5``:

    >>> from evallib.resampling import cochran_q_cases
    >>> res = cochran_q_cases([[1, 1, 0], [1, 0, 0], [1, 1, 1], [1, 1, 0]], cases=["a", "a", "b", "b"])
    >>> round(res.statistic, 6), res.df, res.n
    (3.5, 2, 2)
    """
    alpha = check_alpha(alpha)
    correct, cases = align_items([("correct", correct), ("cases", cases)])
    names, cols = check_columns(correct, "correct")
    if len(cols) < 2:
        raise ValueError(f"correct must hold at least 2 classifiers (columns), got {len(cols)}")
    try:
        x = np.column_stack([np.asarray(c, dtype=float) for c in cols])
    except (TypeError, ValueError):
        raise TypeError("correct must hold numbers: 0/1, True/False or rates in [0, 1]") from None
    if x.shape[0] < 1:
        raise ValueError("correct must hold at least one row, got none")
    if not np.all((x >= 0.0) & (x <= 1.0)):
        raise ValueError("correct must hold 0/1, True/False or rates in [0, 1] (no NaN)")
    codes, n = _case_codes(cases, x.shape[0])
    x = _per_case(x, codes, n)
    if np.all((x == 0.0) | (x == 1.0)):
        return cochran_q(pd.DataFrame(x.astype(np.int8), columns=names), alpha=alpha)
    k = x.shape[1]
    col = x.sum(axis=0)
    within = float(((x - x.mean(axis=1, keepdims=True)) ** 2).sum())
    informative = int(np.count_nonzero(x.max(axis=1) > x.min(axis=1)))
    note = ("Q on the per-case correctness rates (cases predicted several times), referred to chi-square "
            "with k - 1 degrees of freedom")
    if within <= 1e-12 * n * k:
        q, p = 0.0, 1.0
        note += ("; every case has the same rate under every classifier, so Q is undefined (0/0); it is "
                 "reported as 0 with p = 1")
    else:
        q = (k - 1) * float(((col - col.mean()) ** 2).sum()) / within
        p = float(stats.chi2.sf(q, k - 1))
    return CochranQ(statistic=q, df=k - 1, pvalue=p, reject=bool(p <= alpha), alpha=alpha, n=n, k=k,
                    n_informative=informative, names=tuple(names),
                    accuracy=tuple(float(v) for v in x.mean(axis=0)), method="chi2", note=note)


# ------------------------------------------------------------------ AUC and DeLong
def _weighted_placements(col: np.ndarray, pos: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each row's placement value with rows weighted ``w``: for a positive row the weighted
    share of negative rows scored below it (ties one half), for a negative row the
    weighted share of positive rows scored above it (DeLong's V10 and V01)."""
    order = np.argsort(col, kind="stable")
    s, p, ws = col[order], pos[order], w[order]
    new = np.empty(s.size, dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    pos_in = np.add.reduceat(np.where(p, ws, 0.0), starts)
    neg_in = np.add.reduceat(np.where(p, 0.0, ws), starts)
    w1, w0 = pos_in.sum(), neg_in.sum()
    pos_before = np.cumsum(pos_in) - pos_in
    neg_before = np.cumsum(neg_in) - neg_in
    v_pos = (neg_before + 0.5 * neg_in) / w0
    v_neg = 1.0 - (pos_before + 0.5 * pos_in) / w1
    out = np.empty(s.size)
    out[order] = np.where(p, v_pos[group], v_neg[group])
    return out


def _case_placements(y_true: Any, scores: Any, cases: Any, pos_label: Any, least: int, name: str = "scores"):
    """Names, each case's class (bool) and its placement under each score column (cases x k)."""
    (y_true, cases), scores = align_columns([("y_true", y_true), ("cases", cases)], scores, name)
    pos = positive_mask(y_true, pos_label)
    names, mat = check_score_matrix(scores, pos.shape[0])
    codes, n = _case_codes(cases, pos.shape[0])
    case_pos = _case_values(pos, codes, n, "y_true")
    m = int(case_pos.sum())
    if m < least or n - m < least:
        raise ValueError(f"y_true must contain at least {least} positive and {least} negative cases, got {m} "
                         f"positive and {n - m} negative")
    w = np.ones(pos.shape[0]) if codes is None else 1.0 / np.bincount(codes, minlength=n)[codes]
    v = np.column_stack([_weighted_placements(mat[:, j], pos, w) for j in range(mat.shape[1])])
    return names, case_pos, _per_case(v, codes, n)


def auc_cases(y_true: Any, score: Any, cases: Any = None, *, pos_label: Any = None) -> float:
    """The AUC of one score column with each case weighing 1, however often it was predicted.

    Every positive row is compared with every negative row, ties counting one half, each row
    weighted 1/(its case's rows); the AUC is the mean over the positive cases of their
    placements (a placement averaged over the case's rows). Without repeated cases it is
    the Mann–Whitney AUC (scikit-learn's ``roc_auc_score``).

    Parameters
    ----------
    y_true : sequence of two class labels, one per row (the same in every row of a case).
    score : sequence of numbers, one per row; higher means more likely positive.
    cases : sequence, optional
        The case id of each row (None: every row is its own case).
    pos_label : the positive class (required unless the labels are 0/1 or False/True).

    Returns
    -------
    float

    References
    ----------
    N. A. Obuchowski (1997), Biometrics 53, 567-578 (the AUC of clustered data).

    Examples
    --------
    Two positive and two negative cases, each predicted twice; the second prediction of
    case ``p2`` falls below the negatives:

    >>> from evallib.resampling import auc_cases
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> score = [0.9, 0.8, 0.7, 0.1, 0.3, 0.4, 0.2, 0.5]
    >>> auc_cases(y, score, cases=["p1", "p1", "p2", "p2", "n1", "n1", "n2", "n2"])
    0.75
    """
    _, case_pos, v = _case_placements(y_true, score, cases, pos_label, least=1, name="score")
    return float(v[case_pos, 0].mean())


def delong_cases(y_true: Any, scores: Any, cases: Any = None, *, pos_label: Any = None) -> DeLong:
    """DeLong's AUCs and covariance matrix of several score columns, the cases as the unit.

    Each row's placement value is computed against the rows of the other class, rows
    weighted 1/(their case's rows); a case's placement is the mean over its rows. The
    covariance is DeLong's ``S10/m + S01/n`` on the per-case placements, with ``m`` and
    ``n`` the positive and negative *cases*: Obuchowski's (1997) clustered estimator for
    clusters that each hold one class. Without repeated cases it is
    :func:`evallib.onetestset.delong_covariance`.

    Parameters
    ----------
    y_true : sequence of two class labels, one per row (the same in every row of a case).
    scores : one score column (1-D), several (2-D array, mapping name -> column or a
        DataFrame), one value per row; higher means more likely positive.
    cases : sequence, optional
        The case id of each row (None: every row is its own case).
    pos_label : the positive class (required unless the labels are 0/1 or False/True).

    Returns
    -------
    evallib.onetestset.DeLong
        ``fit.table(alpha)`` and ``fit.pairwise(alpha, adjust)`` give the intervals and the
        paired tests; ``n_pos`` and ``n_neg`` count cases.

    Raises
    ------
    ValueError
        With fewer than two positive or two negative cases, or when a case's rows disagree
        on its class.

    References
    ----------
    E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson (1988), Biometrics 44, 837-845,
    eq. (2); N. A. Obuchowski (1997), Biometrics 53, 567-578.

    Examples
    --------
    >>> from evallib.resampling import delong_cases
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> fit = delong_cases(y, {"s": [0.9, 0.8, 0.7, 0.1, 0.3, 0.4, 0.2, 0.5]},
    ...                    cases=["p1", "p1", "p2", "p2", "n1", "n1", "n2", "n2"])
    >>> float(fit.auc[0]), fit.n_pos, fit.n_neg
    (0.75, 2, 2)
    """
    if cases is None:
        return delong_covariance(y_true, scores, pos_label=pos_label)
    names, case_pos, v = _case_placements(y_true, scores, cases, pos_label, least=2)
    v10, v01 = v[case_pos], v[~case_pos]
    m, n = v10.shape[0], v01.shape[0]
    cov = np.atleast_2d(np.cov(v10, rowvar=False)) / m + np.atleast_2d(np.cov(v01, rowvar=False)) / n
    return DeLong(names=tuple(names), auc=v10.mean(axis=0), covariance=cov, n_pos=m, n_neg=n)


# ------------------------------------------------------------------ the F1 bootstrap
@dataclass(frozen=True, eq=False)
class CaseF1Bootstrap:
    """The paired case bootstrap of ``F(A) - F(B)``: the F1 of one class, or macro-F1.

    Attributes
    ----------
    estimate : ``f1_a - f1_b`` on the test cases (0 when below 1e-12 in size).
    f1_a, f1_b : the two classifiers' F1 (macro-F1) on the test cases, each case weighing 1.
    low, high : the central ``1 - alpha`` percentile interval of the replicates.
    share_a_better, share_tied : shares of replicates with ``F(A) > F(B)`` and with the two
        equal (Keller, Bengio & Wong's eq. 13 reading: shares of resamples, not the
        probability that A is better).
    replicates : the ``n_resamples`` replicates of the difference (read-only).
    n_resamples, alpha : the settings.
    n : test cases resampled.
    measure : ``"F1"`` (of ``pos_label``) or ``"macro-F1"``.
    cells : distinct kinds of case (true class with both classifiers' predictions) resampled.

    Compared by identity: ``==`` is ``is`` (the replicates are an array).
    """

    estimate: float
    f1_a: float
    f1_b: float
    low: float
    high: float
    share_a_better: float
    share_tied: float
    replicates: np.ndarray
    n_resamples: int
    alpha: float
    n: int
    measure: str
    cells: int


def _encode(y_true: Any, pred_a: Any, pred_b: Any, labels: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, list,
                                                                         int]:
    """Codes of the true classes and both predictions: ``labels`` first (default: the classes of
    ``y_true``, sorted), then classes only the predictions name (sorted); and how many labels."""
    y = check_labels(y_true, "y_true")
    preds = []
    for name, p in (("pred_a", pred_a), ("pred_b", pred_b)):
        p = check_labels(p, name)
        if p.shape[0] != y.shape[0]:
            raise ValueError(f"{name} must hold one label per row ({y.shape[0]}), got {p.shape[0]}")
        preds.append(p)
    present = list(pd.unique(y))
    if labels is None:
        try:
            labels = sorted(present)
        except TypeError:
            labels = present
    else:
        labels = list(labels)
        missing = [c for c in present if c not in labels]
        if missing:
            raise ValueError(f"labels must include every class of y_true; {missing[0]!r} is missing")
    extra = [c for c in pd.unique(np.concatenate(preds)) if c not in labels]
    try:
        extra = sorted(extra)
    except TypeError:
        pass
    index = pd.Index(labels + extra)
    return (index.get_indexer(y).astype(np.int64), index.get_indexer(preds[0]).astype(np.int64),
            index.get_indexer(preds[1]).astype(np.int64), labels + extra, len(labels))


def _case_cells(truth: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray, codes: np.ndarray | None, n: int,
                k: int):
    """Distinct kinds of case and how many of each: a case's true class and the shares of its
    predictions by A and B in each class. Returns ``(counts, truth, shares_a, shares_b)`` with
    one entry (row) per kind, the shares as sparse ``kinds x classes`` matrices. Cases with
    repeats and many classes are each their own kind."""
    if codes is not None:
        first = _first_rows(codes, n)
        same = all(np.array_equal(p, p[first][codes]) for p in (pred_a, pred_b))
        # every case predicted alike in all its rows: the cases of a single run
        truth_c = truth[first]
        if same:
            truth, pred_a, pred_b, codes = truth_c, pred_a[first], pred_b[first], None
    if codes is None:
        return label_cells(truth, pred_a, pred_b, k)
    w = 1.0 / np.bincount(codes, minlength=n)[codes]
    shares = [sparse.csr_matrix((w, (codes, p)), shape=(n, k)) for p in (pred_a, pred_b)]
    truth = truth_c.astype(np.int64)
    if k > 50:
        return np.ones(n), truth, shares[0], shares[1]
    table = np.column_stack([truth.astype(float), shares[0].toarray(), shares[1].toarray()])
    uniq, counts = np.unique(table, axis=0, return_counts=True)
    return (counts.astype(float), uniq[:, 0].astype(np.int64), sparse.csr_matrix(uniq[:, 1:k + 1]),
            sparse.csr_matrix(uniq[:, k + 1:]))


def bootstrap_f1_cases(y_true: Any, pred_a: Any, pred_b: Any, cases: Any = None, *, pos_label: Any = None,
                       labels: Any = None, n_resamples: int = 10_000, alpha: float = 0.05,
                       rng: Any = None) -> CaseF1Bootstrap:
    """Paired bootstrap of ``F1(A) - F1(B)``, resampling cases with all their predictions.

    With ``pos_label`` the measure is the F1 of that class; without it, macro-F1 over
    ``labels``. A case carries its true class and all its predictions by both classifiers
    (with repeats, the shares of its rows in each predicted class, so each case weighs 1);
    cases of one kind (same class, same shares) are interchangeable, so a resample of the
    ``n`` cases is one Multinomial(n, counts / n) draw over the kinds -- Keller, Bengio &
    Wong's bootstrap at a cost that does not grow with ``n``. Each replicate's counts give
    per-class true positives, support and predictions, hence both measures. Without repeats
    (or with every case predicted alike in all its rows) it is the bootstrap of one test set.

    Macro-F1 averages over every class of ``labels``. A class with no case in a resample
    (likely for classes of one or two cases) says nothing about that class, so it keeps its
    test-set F1 in that replicate: the convention under which the replicates scatter around
    the estimate. Scoring an absent class 0 (a plain confusion-matrix F1 with zero division
    set to 0) pulls every replicate below the estimate, and leaving it out of the mean shifts
    the replicates towards the larger classes. A binary F1 of 0/0 (no positive case drawn and
    none predicted) is 0. A prediction of a class outside ``labels`` is an error.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequences of labels, one per row (``y_true`` the same in every row
        of a case).
    cases : sequence, optional
        The case id of each row (None: every row is its own case).
    pos_label : optional
        The class whose F1 is compared; None: macro-F1.
    labels : sequence, optional
        The classes macro-F1 averages over, in the order in which the resampling enumerates
        them (default: the classes of ``y_true``, sorted); must include every class of
        ``y_true``.
    n_resamples : int
        Bootstrap replicates, >= 1.
    alpha : float
        The percentile interval has level ``1 - alpha``, in (0, 1).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The replicates' randomness (an int is reproducible).

    Returns
    -------
    CaseF1Bootstrap

    References
    ----------
    M. Keller, S. Bengio and S. Y. Wong (2005), Benchmarking non-parametric statistical
    tests, NIPS 18, eqs. (12)-(14); B. Efron and R. J. Tibshirani (1993), An Introduction to
    the Bootstrap, ch. 13 (the percentile interval).

    Examples
    --------
    Four cases, each predicted in two runs; A gets every case right, B misses case ``c``'s
    positive once:

    >>> from evallib.resampling import bootstrap_f1_cases
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> a = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> b = [1, 1, 0, 1, 0, 0, 0, 0]
    >>> res = bootstrap_f1_cases(y, a, b, cases=list("aabbccdd"), pos_label=1, n_resamples=2000, rng=0)
    >>> round(res.f1_a, 3), round(res.f1_b, 3), res.n, res.measure
    (1.0, 0.857, 4, 'F1')
    >>> bool(res.low <= res.estimate <= res.high)
    True
    """
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    gen = check_rng(rng)
    y_true, pred_a, pred_b, cases = align_items([("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b),
                                                 ("cases", cases)])
    truth, code_a, code_b, classes, n_label = _encode(y_true, pred_a, pred_b, labels)
    if pos_label is None:
        positive = None
        absent = [c for i, c in enumerate(classes[:n_label]) if not np.any(truth == i)]
        if absent:
            raise ValueError(f"labels must occur in y_true for macro-F1; {absent[0]!r} has no case")
    else:
        matches = [i for i, c in enumerate(classes[:n_label]) if c == pos_label]
        if not matches:
            raise ValueError(f"pos_label must be one of the labels ({', '.join(repr(c) for c in classes[:n_label])}), "
                             f"got {pos_label!r}")
        positive = matches[0]
    codes, n = _case_codes(cases, truth.shape[0])
    _case_values(truth, codes, n, "y_true")
    k = len(classes)
    counts, cell_truth, sa, sb = _case_cells(truth, code_a, code_b, codes, n, k)
    res = f1_difference_bootstrap(counts, cell_truth, sa, sb, k, positive=positive, n_label=n_label,
                                  keep_absent=True, n_resamples=n_resamples, alpha=alpha, gen=gen)
    return CaseF1Bootstrap(**res._asdict(), n_resamples=n_resamples, alpha=alpha, n=n,
                           measure="macro-F1" if positive is None else "F1")
