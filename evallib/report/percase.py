"""The report's statistics on test cases: each case counts once, however often it was predicted.

A file from a repeated cross-validation holds one row per prediction: each case once per
repeat. The rows of one case are not independent test cases, so every verdict here is
computed on cases (Nadeau & Bengio 2003; Bouckaert & Frank 2004 show how much pooling the
repeats inflates a test): each case enters with weight 1, through its *rate* -- the share
of its predictions that are right (or that name a class), the mean of its scores or of
its placements. When every case is predicted once these are the usual 0/1 outcomes and
every function here gives exactly the one-test-set statistic (McNemar's test, Cochran's
Q, DeLong's covariance, Keller, Bengio & Wong's bootstrap); when the rates of a file
predicted several times happen to be all 0 or 1, too -- so a verdict cannot change with
how many times a case was written down.

Functions
---------
:func:`weighted_confusion` -- the confusion matrix with each case's row weighted 1/(its
rows); :func:`binary_measures` and :func:`class_measures` read the measures off it.
:func:`paired_error_difference` -- one pair of classifiers: McNemar's mid-p test and a
paired interval for 0/1 outcomes, the paired t-test on the per-case error rates otherwise.
:func:`rate_cochran_q` -- Cochran's Q on per-case correctness rates (Cochran's own
within-case statistic, which for 0/1 outcomes is his Q).
:func:`balanced_accuracy_pairs` -- the paired difference of balanced accuracy (average
recall), stratified by class.
:func:`case_delong` -- DeLong's covariance of the AUCs with the placements averaged per
case (Obuchowski's clustered form).
:func:`bootstrap_f1` -- the paired bootstrap of the F1 (two classes) or macro-F1
difference, resampling cases.

References
----------
W. G. Cochran (1950), The comparison of percentages in matched samples, Biometrika 37,
256-266. Q. McNemar (1947), Psychometrika 12, 153-157; M. W. Fagerland, S. Lydersen and
P. Laake (2013, 2014) for the mid-p test and the paired intervals. E. R. DeLong, D. M.
DeLong and D. L. Clarke-Pearson (1988), Biometrics 44, 837-845; N. A. Obuchowski (1997),
Nonparametric analysis of clustered ROC curve data, Biometrics 53, 567-578. M. Keller,
S. Bengio and S. Y. Wong (2005), Benchmarking non-parametric statistical tests, NIPS 18.
C. Nadeau and Y. Bengio (2003), Inference for the generalization error, Machine Learning
52, 239-281. K. H. Brodersen, C. S. Ong, K. E. Stephan and J. M. Buhmann (2010), The
balanced accuracy and its posterior distribution, ICPR, 3121-3124.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._multitest import FWER_ADJUSTMENTS
from .inputs import Predictions

#: Below this many cases on which two classifiers differ the pair is flagged as resting
#: on few disagreements (the intervals and the mid-p test are then rough).
FEW_DISCORDANT = 25


# ------------------------------------------------------------------ rates and weights
def skewed(data: Predictions) -> bool:
    """True when the smallest class of the label column holds less than
    :data:`~evallib.report.inputs.HEAVY_SKEW` times ``2/K`` of the cases: a fifth of its
    share among ``K`` balanced classes (below 10% with two classes). Accuracy then mostly
    measures the large classes, and balanced accuracy is the measure to lead with."""
    from .inputs import HEAVY_SKEW

    k = len(data.label_classes)
    counts = np.bincount(data.case_truth, minlength=len(data.classes))[:k]
    return bool(counts.min() / counts.sum() < HEAVY_SKEW * 2.0 / k)


def row_weights(data: Predictions) -> np.ndarray:
    """Each row's weight, 1 / (its case's number of rows): every case weighs 1 in all."""
    if data.cases is None:
        return np.ones(data.n_rows)
    return 1.0 / data.predictions_per_case()[data.cases]


def is_binary(values: np.ndarray) -> bool:
    """True when every value is 0 or 1 (each case's predictions all right or all wrong)."""
    v = np.asarray(values, dtype=float)
    return bool(np.all((v == 0.0) | (v == 1.0)))


def outcome_matrix(data: Predictions, values: np.ndarray) -> np.ndarray:
    """A per-row array as a cases x repeats matrix (NaN where a case has no row in a repeat),
    the layout of :func:`evallib.items.means.item_mean`."""
    if data.repeats is None:
        return np.asarray(values, dtype=float)
    out = np.full((data.n, data.n_repeats), np.nan)
    out[data.cases, data.repeats] = values
    return out


# ------------------------------------------------------------------ confusion and measures
def weighted_confusion(data: Predictions, name: str) -> np.ndarray:
    """Confusion matrix of one classifier: rows the label column's classes, columns every
    class (``data.classes``), each row of the file weighted 1/(its case's rows).

    Without repeats the entries are the usual counts; with repeats they are counts of cases
    (a case predicted right in 7 of its 10 rows adds 0.7 to its diagonal cell).
    """
    k_all = len(data.classes)
    k = len(data.label_classes)
    cells = data.truth * k_all + data.predicted[name]
    flat = np.bincount(cells, weights=None if data.cases is None else row_weights(data), minlength=k * k_all)
    return flat[: k * k_all].reshape(k, k_all)


def binary_measures(tp: float, fn: float, fp: float, tn: float) -> dict[str, float]:
    """Accuracy, average recall, precision, recall and F1 of a 2x2 table (counts may be
    fractional). Precision is NaN when nothing is predicted positive (0/0); F1 is then
    ``2 TP / (2 TP + FP + FN) = 0``.

    References
    ----------
    P. Flach (2012), Machine Learning, Table 12.1 and eq. (12.1).
    """
    n = tp + fn + fp + tn
    p, neg = tp + fn, fp + tn
    recall = tp / p if p else float("nan")
    tnr = tn / neg if neg else float("nan")
    return {"accuracy": (tp + tn) / n, "avg_recall": (recall + tnr) / 2.0,
            "precision": tp / (tp + fp) if tp + fp else float("nan"), "recall": recall,
            "F1": 2.0 * tp / (2.0 * tp + fp + fn) if 2.0 * tp + fp + fn else 0.0}


def class_measures(conf: np.ndarray) -> dict[str, Any]:
    """Accuracy, balanced accuracy and macro-F1 of a K-class confusion matrix (rows: the K
    classes of the label column; further columns: classes only predictions name).

    Balanced accuracy is the mean recall over the K classes; macro-F1 the mean over the K
    classes of ``2 C_kk / (support_k + predicted_k)``. A prediction of a class absent from
    the label column is an error: it lowers the recall of the true class and enters no
    average. Returns those three and the per-class ``precision`` (0 when the class is never
    predicted), ``recall``, ``f1``, ``support`` and ``predicted`` arrays.
    """
    k = conf.shape[0]
    diag = np.diag(conf[:, :k])
    support = conf.sum(axis=1)
    predicted = conf[:, :k].sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(support > 0, diag / support, 0.0)
        precision = np.where(predicted > 0, diag / np.where(predicted > 0, predicted, 1.0), 0.0)
        f1 = np.where(support + predicted > 0, 2.0 * diag / np.where(support + predicted > 0,
                                                                      support + predicted, 1.0), 0.0)
    n = conf.sum()
    return {"accuracy": float(diag.sum() / n), "balanced_accuracy": float(recall.mean()),
            "macro_f1": float(f1.mean()), "precision": precision, "recall": recall, "f1": f1,
            "support": support, "predicted": predicted}


# ------------------------------------------------------------------ one pair
@dataclass(frozen=True)
class PairStats:
    """One pair of classifiers compared on the cases.

    Attributes
    ----------
    diff : error rate of A minus error rate of B (each case weighted 1).
    low, high : the ``1 - alpha`` interval of ``diff``.
    p : two-sided p-value of no difference.
    b, c : cases on which A does worse (more errors) than B, and on which B does worse.
    a, d : cases on which they do equally well: never wrong (``a``), otherwise (``d``).
    n : cases.
    method : the interval's name; ``test`` the test's.
    """

    diff: float
    low: float
    high: float
    p: float
    a: int
    b: int
    c: int
    d: int
    n: int
    method: str
    test: str


def paired_error_difference(err_a: np.ndarray, err_b: np.ndarray, *, alpha: float, binary: bool,
                            interval: str, interval_name: str) -> PairStats:
    """Compare two classifiers through their per-case error rates.

    With ``binary`` -- every rate of the file is 0 or 1 (each case predicted once, or
    predicted alike in every repeat) -- this is the one-test-set comparison: McNemar's mid-p test of ``b`` against
    ``c`` and the paired interval ``interval`` of
    :func:`evallib.onetestset.pairwise.paired_difference_interval`. Otherwise the per-case
    differences ``d_i = e_A,i - e_B,i`` are fractional and the paired t-test and t interval
    on ``n - 1`` degrees of freedom are used (:func:`evallib.items.means.paired_item_difference`
    with ``method="t"``: the cases, not the rows, are the sample).

    References
    ----------
    M. W. Fagerland, S. Lydersen and P. Laake (2013), BMC Medical Research Methodology 13,
    91 (mid-p); (2014), Statistical Methods in Medical Research 23, 12-36 (intervals).
    """
    from ..items.means import paired_item_difference
    from ..onetestset.pairwise import Contingency, mcnemar, paired_difference_interval

    n = int(err_a.size)
    b = int(np.count_nonzero(err_a > err_b))
    c = int(np.count_nonzero(err_a < err_b))
    same = err_a == err_b
    a = int(np.count_nonzero(same & (err_a == 0)))
    d = n - a - b - c
    if binary:
        table = Contingency(a=a, b=b, c=c, d=d, n=n)
        ci = paired_difference_interval(table, method=interval, alpha=alpha)
        return PairStats(diff=(b - c) / n, low=float(ci.low), high=float(ci.high),
                         p=float(mcnemar(b, c, mid_p=True).pvalue), a=a, b=b, c=c, d=d, n=n,
                         method=interval_name, test="McNemar's mid-p test")
    res = paired_item_difference(err_a, err_b, alpha=alpha, method="t")
    return PairStats(diff=float(res.estimate), low=float(res.low), high=float(res.high), p=float(res.pvalue),
                     a=a, b=b, c=c, d=d, n=n, method="paired t on per-case error rates",
                     test="paired t-test on per-case error rates")


# ------------------------------------------------------------------ omnibus
@dataclass(frozen=True)
class RateQ:
    """Cochran's Q on per-case correctness rates (cases predicted several times).

    Attributes
    ----------
    statistic : ``Q = (k - 1) sum_j (C_j - mean C)^2 / sum_i sum_j (x_ij - xbar_i)^2``.
    df : ``k - 1``.
    pvalue : ``P(chi2_{k-1} >= Q)``.
    reject : ``pvalue <= alpha``.
    alpha, n, k : level, cases, classifiers.
    n_informative : cases whose rates differ between classifiers.
    names, accuracy : the classifiers and their mean rates.
    method : ``"per-case rates"``.
    note : empty, or one sentence on a degenerate table.
    """

    statistic: float
    df: int
    pvalue: float
    reject: bool
    alpha: float
    n: int
    k: int
    n_informative: int
    names: tuple[str, ...]
    accuracy: tuple[float, ...]
    method: str = "per-case rates"
    note: str = ""

    def text(self) -> str:
        """The result as one sentence."""
        p = "p < 1e-15" if self.pvalue < 1e-15 else f"p = {self.pvalue:.3g}"
        return (f"Cochran's Q on the per-case correctness rates = {self.statistic:.3f} ({self.df} degrees of "
                f"freedom), {p} ({self.n_informative} of {self.n} cases informative)"
                + (f"; {self.note}" if self.note else ""))


def rate_cochran_q(rates: pd.DataFrame, *, alpha: float):
    """Cochran's Q over ``k`` classifiers from an ``n x k`` table of per-case correctness rates.

    Cochran (1950) derives Q as the within-case (randomisation) statistic
    ``Q = (k - 1) sum_j (C_j - Cbar)^2 / sum_i sum_j (x_ij - xbar_i)^2`` with ``C_j`` the
    column totals; for 0/1 entries it is his ``(k - 1)(k sum C_j^2 - T^2) / (k T - sum
    R_i^2)``, and :func:`evallib.onetestset.cochran.cochran_q` is returned unchanged. For
    rates (the share of a case's repeated predictions that are right) the same statistic
    is referred to chi-square with ``k - 1`` df: under the null hypothesis the classifiers
    are exchangeable within each case, and ``Q`` equals ``n (k - 1) SS_classifier /
    SS_within`` of the two-way layout cases x classifiers.

    Returns
    -------
    evallib.onetestset.cochran.CochranQ (0/1 rates) or RateQ
    """
    from ..onetestset.cochran import cochran_q

    x = rates.to_numpy(dtype=float)
    if is_binary(x):
        return cochran_q(rates.astype(np.int8), alpha=alpha)
    n, k = x.shape
    col = x.sum(axis=0)
    within = float(((x - x.mean(axis=1, keepdims=True)) ** 2).sum())
    informative = int(np.count_nonzero(x.max(axis=1) > x.min(axis=1)))
    if within <= 1e-12 * n * k:
        q, p, note = 0.0, 1.0, ("every case has the same rate under every classifier, so Q is undefined (0/0); "
                                "it is reported as 0 with p = 1")
    else:
        q = (k - 1) * float(((col - col.mean()) ** 2).sum()) / within
        p, note = float(stats.chi2.sf(q, k - 1)), ""
    return RateQ(statistic=q, df=k - 1, pvalue=p, reject=bool(p <= alpha), alpha=alpha, n=n, k=k,
                 n_informative=informative, names=tuple(str(c) for c in rates.columns),
                 accuracy=tuple(float(v) for v in x.mean(axis=0)), note=note)


# ------------------------------------------------------------------ balanced accuracy
@dataclass(frozen=True)
class Stratified:
    """A balanced (class-averaged) mean of per-case values with its t interval.

    Attributes
    ----------
    estimate : the mean over the classes of each class's mean.
    se, df : its standard error and Welch-Satterthwaite degrees of freedom.
    statistic, pvalue : the t-test of 0 (two-sided).
    low, high : the ``1 - alpha`` interval, clipped to ``bounds``.
    """

    estimate: float
    se: float
    df: float
    statistic: float
    pvalue: float
    low: float
    high: float


def stratified_mean(values: np.ndarray, classes: np.ndarray, *, alpha: float,
                    bounds: tuple[float, float] = (-1.0, 1.0)) -> Stratified:
    """The mean over the ``K`` classes present of the class means of ``values`` (one per case).

    For per-case correctness rates this is balanced accuracy (average recall); for the
    per-case differences of two classifiers' rates it is the difference of their balanced
    accuracies. The class means are independent, so the variance is ``sum_k s_k^2 / (n_k
    K^2)`` (a class of one case contributes the largest variance of a [0, 1] value, 1/4 --
    or 1 for a difference -- since its own cannot be estimated), referred to t with
    Welch-Satterthwaite degrees of freedom.

    References
    ----------
    K. H. Brodersen et al. (2010), ICPR, 3121-3124 (balanced accuracy); B. L. Welch (1947),
    Biometrika 34, 28-35; F. E. Satterthwaite (1946), Biometrics Bulletin 2, 110-114.
    """
    values = np.asarray(values, dtype=float)
    present = np.unique(classes)
    k = present.size
    means, parts, dfs = [], [], []
    widest = 0.25 * (bounds[1] - bounds[0]) ** 2
    for c in present:
        v = values[classes == c]
        means.append(v.mean())
        s2 = v.var(ddof=1) if v.size > 1 else widest
        parts.append(s2 / v.size / (k * k))
        dfs.append(max(v.size - 1, 1))
    est = float(np.mean(means))
    var = float(np.sum(parts))
    se = math.sqrt(var)
    if se <= 1e-15:
        se, df = 0.0, float(values.size - k)
        t, p = (0.0, 1.0) if abs(est) <= 1e-15 else (math.copysign(math.inf, est), 0.0)
        half = 0.0
    else:
        df = var * var / float(np.sum(np.square(parts) / np.asarray(dfs)))
        t = est / se
        p = float(2.0 * stats.t.sf(abs(t), df))
        half = float(stats.t.isf(alpha / 2.0, df)) * se
    return Stratified(estimate=est, se=se, df=float(df), statistic=float(t), pvalue=p,
                      low=max(bounds[0], est - half), high=min(bounds[1], est + half))


def balanced_accuracy_pairs(data: Predictions, *, alpha: float, adjust: str) -> pd.DataFrame:
    """The paired difference of balanced accuracy (average recall) for every pair of classifiers.

    Balanced accuracy is the mean of the per-class recalls, ``(TPR + TNR) / 2`` with two
    classes. Two classifiers are compared on the same cases: with ``d_i`` the difference
    of their per-case correctness rates, the difference of balanced accuracies is the
    mean over classes of the class means of ``d`` (:func:`stratified_mean`); with two
    classes its variance is ``(s_P^2 / P + s_N^2 / N) / 4``, referred to t with
    Welch-Satterthwaite degrees of freedom. Unlike McNemar's test, which counts every
    error alike, this weighs the classes equally, the comparison to read when one class is
    rare.

    Returns
    -------
    pandas.DataFrame
        One row per pair ``a, b`` (file order): ``ba_a, ba_b, difference`` (``ba_a - ba_b``),
        ``se, df, statistic, pvalue, low, high`` and the adjusted columns of
        :func:`evallib.onetestset.scoring.delong_pairwise` (``pvalue_adj``, ``reject_adj``,
        ``low_adj``/``high_adj``, each pair on its own df: joint under Holm and Bonferroni,
        the unadjusted interval under ``"bh"``, ``"by"`` and ``"none"``).

    References
    ----------
    Brodersen et al. (2010) for balanced accuracy; B. L. Welch (1947), Biometrika 34, 28-35.
    """
    from itertools import combinations

    from ..onetestset.scoring import _adjust

    truth = data.case_truth
    correct = {name: 1.0 - r for name, r in data.error_rates().items()}
    rows = []
    for a, b in combinations(correct, 2):
        res = stratified_mean(correct[a] - correct[b], truth, alpha=alpha)
        ba_a = stratified_mean(correct[a], truth, alpha=alpha, bounds=(0.0, 1.0)).estimate
        ba_b = stratified_mean(correct[b], truth, alpha=alpha, bounds=(0.0, 1.0)).estimate
        rows.append({"a": a, "b": b, "ba_a": ba_a, "ba_b": ba_b, "difference": res.estimate, "se": res.se,
                     "df": res.df, "statistic": res.statistic, "pvalue": res.pvalue, "low": res.low,
                     "high": res.high, "alpha": alpha})
    table = _adjust(pd.DataFrame(rows), alpha, adjust, lambda lv: float(stats.norm.isf(lv / 2.0)))
    # joint (Bonferroni) under the family-wise adjustments; none correspond to the false discovery rate
    joint = alpha / max(len(table), 1) if adjust in FWER_ADJUSTMENTS else alpha
    half = stats.t.isf(joint / 2.0, table["df"].to_numpy(dtype=float)) * table["se"].to_numpy(dtype=float)
    table["low_adj"] = np.maximum(-1.0, table["difference"] - half)  # each pair on its own df
    table["high_adj"] = np.minimum(1.0, table["difference"] + half)
    return table


# ------------------------------------------------------------------ AUC
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


def case_placements(data: Predictions, score: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
    """Each case's placement value: the mean over its rows of the rows' weighted placements
    (``y``: the rows' membership of the class the score is for; default the positive class)."""
    w = row_weights(data)
    v = _weighted_placements(np.asarray(score, dtype=float), data.y if y is None else y, w)
    return data.per_case(v)


def case_auc(data: Predictions, score: np.ndarray, y: np.ndarray | None = None) -> float:
    """The AUC with every case weighted 1: the mean placement of the positive cases."""
    case_y = data.case_y if y is None else (y if data.cases is None else y[data.first_row_of_case()])
    return float(case_placements(data, score, y)[case_y].mean())


def case_delong(data: Predictions, y: np.ndarray | None = None, scores: dict | None = None):
    """DeLong's AUCs and covariance matrix of the score columns, cases as the unit.

    Each row's placement value is computed against the rows of the other class (rows
    weighted 1/(their case's rows)); a case's placement is the mean over its rows. The
    covariance is DeLong's ``S10/m + S01/n`` on the per-case placements, with ``m`` and
    ``n`` the positive and negative *cases* -- Obuchowski's (1997) clustered estimator for
    clusters that each hold one class. Without repeats it is DeLong's covariance. ``y`` (per
    row) and ``scores`` (name -> per-row scores) default to the positive class and the file's
    score columns; with more than two classes they give one class against the rest.

    Returns
    -------
    evallib.onetestset.scoring.DeLong
    """
    from ..onetestset.scoring import DeLong

    scores = data.scores if scores is None else scores
    names = list(scores)
    rows_y = data.y if y is None else y
    case_y = rows_y if data.cases is None else rows_y[data.first_row_of_case()]
    v = np.column_stack([case_placements(data, scores[name], rows_y) for name in names])
    y = case_y
    v10, v01 = v[y], v[~y]
    m, n = int(y.sum()), int((~y).sum())
    cov = np.atleast_2d(np.cov(v10, rowvar=False)) / m + np.atleast_2d(np.cov(v01, rowvar=False)) / n
    return DeLong(names=tuple(names), auc=v10.mean(axis=0), covariance=cov, n_pos=m, n_neg=n)


# ------------------------------------------------------------------ bootstrap
@dataclass(frozen=True)
class BootstrapDifference:
    """The paired case bootstrap of ``F(A) - F(B)`` (F1 of the positive class, or macro-F1).

    Attributes
    ----------
    f_a, f_b : the measures on the test set.
    replicates : the ``reps`` bootstrap replicates of the difference.
    cells : distinct kinds of case (true class with both classifiers' predictions) resampled.
    """

    f_a: float
    f_b: float
    replicates: np.ndarray
    cells: int


def _case_cells(data: Predictions, a: str, b: str):
    """Distinct kinds of case and how many of each: a case's true class and the shares of its
    predictions by A and B in each class. Returns ``(counts, truth, shares_a, shares_b)`` with
    one entry (row) per kind, the shares as sparse ``kinds x classes`` matrices. Cases of a
    file with repeats and many classes are each their own kind."""
    from scipy import sparse

    k = len(data.classes)
    truth, pred_a, pred_b = data.truth, data.predicted[a], data.predicted[b]
    if data.cases is not None:
        first = data.first_row_of_case()
        same = all(np.array_equal(p, p[first][data.cases]) for p in (pred_a, pred_b))
        # every case predicted alike in all its rows: the cases of a single run
        truth, pred_a, pred_b = (data.case_truth, pred_a[first], pred_b[first]) if same else (None, None, None)
    if truth is not None:
        key = (truth.astype(np.int64) * k + pred_a) * k + pred_b
        uniq, counts = np.unique(key, return_counts=True)
        t, rest = np.divmod(uniq, k * k)
        pa, pb = np.divmod(rest, k)
        rows, ones = np.arange(uniq.size), np.ones(uniq.size)
        return (counts.astype(float), t, sparse.csr_matrix((ones, (rows, pa)), shape=(uniq.size, k)),
                sparse.csr_matrix((ones, (rows, pb)), shape=(uniq.size, k)))
    w = row_weights(data)
    shares = [sparse.csr_matrix((w, (data.cases, data.predicted[name])), shape=(data.n, k)) for name in (a, b)]
    truth = data.case_truth.astype(np.int64)
    if k > 50:
        return np.ones(data.n), truth, shares[0], shares[1]
    table = np.column_stack([truth.astype(float), shares[0].toarray(), shares[1].toarray()])
    uniq, counts = np.unique(table, axis=0, return_counts=True)
    return (counts.astype(float), uniq[:, 0].astype(np.int64), sparse.csr_matrix(uniq[:, 1:k + 1]),
            sparse.csr_matrix(uniq[:, k + 1:]))


def _f_from_counts(tp: np.ndarray, support: np.ndarray, predicted: np.ndarray, positive: int | None,
                   n_label: int, observed: np.ndarray | None = None) -> np.ndarray:
    """F1 of class ``positive`` (0 when 0/0), or macro-F1 over the ``n_label`` classes of the
    label column, where a class with no case in the sample takes its F1 from ``observed``
    (the test set's per-class F1; without it, the sample must hold every class)."""
    den = support + predicted
    if positive is not None:
        d = den[..., positive]
        return np.where(d > 0, 2.0 * tp[..., positive] / np.where(d > 0, d, 1.0), 0.0)
    present = support[..., :n_label] > 0
    f1 = np.where(present, 2.0 * tp[..., :n_label] / np.where(present, den[..., :n_label], 1.0), 0.0)
    if observed is not None:
        f1 = np.where(present, f1, observed)
    return f1.mean(axis=-1)


def bootstrap_f1(data: Predictions, a: str, b: str, *, reps: int, rng: np.random.Generator) -> BootstrapDifference:
    """Paired bootstrap of ``F1(A) - F1(B)`` (two classes: the positive class's F1) or of the
    macro-F1 difference (more classes), resampling cases with replacement.

    A case carries its true class and all its predictions by both classifiers; cases of one
    kind (same class, same shares of predictions) are interchangeable, so a resample of
    the ``n`` cases is one Multinomial(n, counts / n) draw over the kinds (Keller, Bengio &
    Wong's bootstrap at a cost that does not grow with ``n``). Each replicate's counts give
    per-class TP, support and predictions, hence both measures.

    Macro-F1 averages over every class of the label column. A class with no case in a
    resample (likely for classes of one or two cases) says nothing about that class, so it
    keeps its test-set F1 in that replicate: the convention under which the replicates
    scatter around the estimate. Scoring an absent class 0 (as a plain confusion-matrix
    F1 with zero division set to 0 does) pulls every replicate below the estimate, and
    leaving it out of the mean shifts the replicates towards the larger classes; with
    hundreds of small classes either way the interval can miss its own estimate. A binary
    F1 of 0/0 (no positive case drawn and none predicted) is 0.
    """
    from scipy import sparse

    counts, truth, sa, sb = _case_cells(data, a, b)
    k = len(data.classes)
    n_label = len(data.label_classes)
    onehot = sparse.csr_matrix((np.ones(truth.size), (np.arange(truth.size), truth)), shape=(truth.size, k))
    # cells x classes: support, predicted and TP of A, predicted and TP of B
    maps = [m.T.tocsr() for m in (onehot, sa, sa.multiply(onehot), sb, sb.multiply(onehot))]
    positive = None if data.multiclass else data.classes.index(data.positive)

    def per_class(weights: np.ndarray) -> list[np.ndarray]:
        return [np.asarray(m @ weights.T).T for m in maps]

    support, pa, tpa, pb, tpb = per_class(counts)
    observed = [None, None]
    if positive is None:  # the test set's per-class F1, for classes a resample leaves out
        observed = [2.0 * t[:n_label] / (support + p)[:n_label] for t, p in ((tpa, pa), (tpb, pb))]

    def measures(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        support, pa, tpa, pb, tpb = per_class(weights)
        return (_f_from_counts(tpa, support, pa, positive, n_label, observed[0]),
                _f_from_counts(tpb, support, pb, positive, n_label, observed[1]))

    f_a, f_b = measures(counts)
    n = int(round(counts.sum()))
    probs = counts / counts.sum()
    out = np.empty(reps)
    chunk = max(1, min(reps, 2_000_000 // max(counts.size, k)))
    for start in range(0, reps, chunk):
        size = min(chunk, reps - start)
        draw = rng.multinomial(n, probs, size=size).astype(float)
        fa, fb = measures(draw)
        out[start:start + size] = fa - fb
    out[np.abs(out) < 1e-12] = 0.0
    return BootstrapDifference(f_a=float(f_a), f_b=float(f_b), replicates=out, cells=int(counts.size))
