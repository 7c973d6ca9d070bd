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
:func:`rate_cochran_q` -- Cochran's Q on per-case correctness rates
(:func:`evallib.resampling.cochran_q_cases`).
:func:`balanced_accuracy_pairs` -- the paired difference of balanced accuracy (average
recall), stratified by class.
:func:`case_auc` and :func:`case_delong` -- the AUC and DeLong's covariance with each case
weighing 1 (:func:`evallib.resampling.auc_cases` and
:func:`~evallib.resampling.delong_cases`).
:func:`bootstrap_f1` -- the paired bootstrap of the F1 (two classes) or macro-F1
difference, resampling cases (:func:`evallib.resampling.bootstrap_f1_cases`).

The statistics themselves are library functions (:mod:`evallib.resampling._percase`); the
functions here read the report's :class:`~evallib.report.Predictions` into them.

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
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._format import side_digits
from .._inference import t_inference
from .._multitest import FWER_ADJUSTMENTS, adjust_pairs_table
from ..items import paired_item_difference
from ..onetestset import CochranQ, Contingency, DeLong, mcnemar, paired_difference_interval
from ..resampling import (
    CaseF1Bootstrap,
    auc_cases,
    bootstrap_f1_cases,
    cochran_q_cases,
    delong_cases,
)
from ._inputs import HEAVY_SKEW, Predictions

#: Below this many cases on which two classifiers differ the pair is flagged as resting
#: on few disagreements (the intervals and the mid-p test are then rough).
FEW_DISCORDANT = 25


# ------------------------------------------------------------------ rates and weights
def skewed(data: Predictions) -> bool:
    """True when the smallest class of the label column holds less than
    :data:`~evallib.report.HEAVY_SKEW` times ``2/K`` of the cases: a fifth of its
    share among ``K`` balanced classes (below 10% with two classes). Accuracy then mostly
    measures the large classes, and balanced accuracy is the measure to lead with."""
    k = len(data.label_classes)
    counts = np.bincount(data.case_truth, minlength=len(data.classes))[:k]
    return bool(counts.min() / counts.sum() < skew_threshold(k))


def skew_threshold(k: int) -> float:
    """The share below which the smallest of ``k`` classes makes a file skewed
    (:func:`skewed`): :data:`~evallib.report.HEAVY_SKEW` times ``2/k``."""
    return HEAVY_SKEW * 2.0 / k


def smallest_share_text(share: float, k: int) -> str:
    """The smallest class's share of the cases in per cent, for the sentence that calls a file
    skewed: one decimal, more where one would print it at or above :func:`skew_threshold`
    while it lies below (``"9.96"`` for 249 of 2,500 cases, not ``"10.0"`` beside "less than 10%").

    >>> smallest_share_text(249 / 2500, 2), smallest_share_text(3 / 37, 2), smallest_share_text(0.2, 2)
    ('9.96', '8.1', '20.0')
    """
    limit = skew_threshold(k)
    text = side_digits(share, limit, lambda d: f"{100 * share + 0.0:.{d}f}", range(1, 7), scale=100.0)
    return text if text is not None else f"{100 * share + 0.0:.6f}"


def skew_rule(k: int) -> str:
    """The rule :func:`skewed` applies, in words, computed from :data:`~evallib.report.HEAVY_SKEW`.

    >>> skew_rule(2)
    'the report calls a file skewed when its smallest class holds less than 10% of the cases, 1/5 of the 50% that 2 balanced classes give each'
    """
    share = 1.0 / k
    frac = Fraction(HEAVY_SKEW * 2.0).limit_denominator(100)
    return (f"the report calls a file skewed when its smallest class holds less than "
            f"{100 * skew_threshold(k):.3g}% of the cases, {frac} of the {100 * share:.3g}% that "
            f"{k} balanced classes give each")


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
    the layout of :func:`evallib.items.item_mean`."""
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
    :func:`evallib.onetestset.paired_difference_interval`. Otherwise the per-case
    differences ``d_i = e_A,i - e_B,i`` are fractional and the paired t-test and t interval
    on ``n - 1`` degrees of freedom are used (:func:`evallib.items.paired_item_difference`
    with ``method="t"``: the cases, not the rows, are the sample). When the two error rates are
    equal on every case (``b = c = 0``) every ``d_i`` is 0 and the t interval has zero width,
    which says nothing about how large a difference ``n`` cases leave open; the interval is then
    ``interval`` on the ``n`` cases with no disagreement (the one-test-set interval of the same
    ``a, 0, 0, d`` table, ``method`` names it), and the p-value of 1 says only that nothing
    was tested.

    References
    ----------
    M. W. Fagerland, S. Lydersen and P. Laake (2013), BMC Medical Research Methodology 13,
    91 (mid-p); (2014), Statistical Methods in Medical Research 23, 12-36 (intervals).
    """
    n = int(err_a.size)
    b = int(np.count_nonzero(err_a > err_b))
    c = int(np.count_nonzero(err_a < err_b))
    same = err_a == err_b
    a = int(np.count_nonzero(same & (err_a == 0)))
    d = n - a - b - c
    if binary or b == c == 0:
        table = Contingency(a=a, b=b, c=c, d=d, n=n)
        ci = paired_difference_interval(table, method=interval, alpha=alpha)
        return PairStats(diff=(b - c) / n, low=float(ci.low), high=float(ci.high),
                         p=float(mcnemar(b, c, method="mid-p").pvalue), a=a, b=b, c=c, d=d, n=n,
                         method=interval_name, test="McNemar's mid-p test" if binary else
                         "paired t-test on per-case error rates")
    res = paired_item_difference(err_a, err_b, alpha=alpha, method="t")
    return PairStats(diff=float(res.estimate), low=float(res.low), high=float(res.high), p=float(res.pvalue),
                     a=a, b=b, c=c, d=d, n=n, method="paired t on per-case error rates",
                     test="paired t-test on per-case error rates")


# ------------------------------------------------------------------ omnibus
def rate_cochran_q(rates: pd.DataFrame, *, alpha: float) -> CochranQ:
    """Cochran's Q over ``k`` classifiers from an ``n x k`` table of per-case correctness rates:
    :func:`evallib.resampling.cochran_q_cases` (for 0/1 rates
    :func:`evallib.onetestset.cochran_q` itself)."""
    return cochran_q_cases(rates, alpha=alpha)


# ------------------------------------------------------------------ balanced accuracy
@dataclass(frozen=True)
class Stratified:
    """A balanced (class-averaged) mean of per-case values with its t interval.

    Attributes
    ----------
    estimate : the mean over the classes of each class's mean.
    se, df : its standard error and Welch–Satterthwaite degrees of freedom.
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


#: The name of the test behind a balanced-accuracy comparison (:func:`stratified_mean` of the
#: per-case differences, referred to t with Welch–Satterthwaite degrees of freedom).
BALANCED_TEST = "stratified paired t-test"


def stratified_mean(values: np.ndarray, classes: np.ndarray, *, alpha: float,
                    bounds: tuple[float, float] = (-1.0, 1.0)) -> Stratified:
    """The mean over the ``K`` classes present of the class means of ``values`` (one per case).

    For per-case correctness rates this is balanced accuracy (average recall); for the
    per-case differences of two classifiers' rates it is the difference of their balanced
    accuracies. The class means are independent, so the variance is ``sum_k s_k^2 / (n_k
    K^2)`` (a class of one case contributes the largest variance of a [0, 1] value, 1/4 --
    or 1 for a difference -- since its own cannot be estimated), referred to t with
    Welch–Satterthwaite degrees of freedom.

    Each class's ``s_k^2`` has a floor that does not vanish when the class's values are all
    equal. Without it a small class with every case right (or every difference 0) contributes
    variance 0, and the interval of a classifier with all 3 cases of a rare class right is far
    too narrow: the 95% interval's coverage of the true balanced accuracy is 0.78 with 3 positives
    and 34 negatives at recalls 0.9 and 0.8 (0.999 with the floor, which errs on the wide side). The floor is the Jeffreys-style plug-in
    ``p~ (1 - p~)``, ``p~ = (x + 1/2) / (n_k + 1)``:

    * ``bounds`` within ``[0, 1]`` (correctness rates): ``x`` is the sum of the class's values,
      so ``p~`` is its recall pulled half a case towards 1/2 and ``s_k^2 = max(s_k^2, p~(1-p~))``.
    * ``bounds`` reaching below 0 (differences of two rates, ``(-1, 1)`` or the feasible
      range of a difference from a baseline): ``x`` is the sum of the absolute
      differences (for 0/1 predictions, the count of discordant cases), so ``p~`` is the
      share of discordant cases with the same rule, and the floor ``p~(1-p~)`` is the variance
      of a difference whose discordances all point one way, the smallest a difference with that
      discordance can have.

    Raises ``ValueError`` (naming ``bounds``) unless ``-1 <= bounds[0] < bounds[1] <= 1``.

    References
    ----------
    K. H. Brodersen et al. (2010), ICPR, 3121-3124 (balanced accuracy); B. L. Welch (1947),
    Biometrika 34, 28-35; F. E. Satterthwaite (1946), Biometrics Bulletin 2, 110-114.
    """
    if not -1.0 <= bounds[0] < bounds[1] <= 1.0:
        raise ValueError(f"bounds must satisfy -1 <= bounds[0] < bounds[1] <= 1, got {bounds!r}")
    values = np.asarray(values, dtype=float)
    present = np.unique(classes)
    k = present.size
    means, parts, dfs = [], [], []
    widest = 0.25 * (bounds[1] - bounds[0]) ** 2
    for c in present:
        v = values[classes == c]
        means.append(v.mean())
        if v.size > 1:
            # the Jeffreys-style floor (docstring): the recall, or the share of discordant cases
            x = float(np.sum(v if bounds[0] >= 0.0 else np.abs(v)))
            share = (x + 0.5) / (v.size + 1.0)
            s2 = max(float(v.var(ddof=1)), share * (1.0 - share))
        else:
            s2 = widest
        parts.append(s2 / v.size / (k * k))
        dfs.append(max(v.size - 1, 1))
    est = float(np.mean(means))
    var = float(np.sum(parts))
    # Welch–Satterthwaite df (the parts' own df where the variance is zero), then evallib's t core
    # and its zero-variance rule (evallib._inference): the rates lie in [0, 1]
    df = var * var / float(np.sum(np.square(parts) / np.asarray(dfs))) if var > 0 else float(values.size - k)
    res = t_inference(est, math.sqrt(var), df=df, alpha=alpha)
    est, se, t, p = float(res.estimate), float(res.se), float(res.statistic), float(res.pvalue)
    half = 0.0 if se == 0 else est - float(res.low)
    return Stratified(estimate=est, se=se, df=float(df), statistic=float(t), pvalue=p,
                      low=max(bounds[0], est - half), high=min(bounds[1], est + half))


def balanced_accuracy_pairs(data: Predictions, *, alpha: float, adjust: str) -> pd.DataFrame:
    """The paired difference of balanced accuracy (average recall) for every pair of classifiers.

    Balanced accuracy is the mean of the per-class recalls, ``(TPR + TNR) / 2`` with two
    classes. Two classifiers are compared on the same cases: with ``d_i`` the difference
    of their per-case correctness rates, the difference of balanced accuracies is the
    mean over classes of the class means of ``d`` (:func:`stratified_mean`); with two
    classes its variance is ``(s_P^2 / P + s_N^2 / N) / 4``, referred to t with
    Welch–Satterthwaite degrees of freedom. Unlike McNemar's test, which counts every
    error alike, this weighs the classes equally, the comparison to read when one class is
    rare.

    Returns
    -------
    pandas.DataFrame
        One row per pair ``a, b`` (file order): ``ba_a, ba_b, difference`` (``ba_a - ba_b``),
        ``se, df, statistic, pvalue, low, high``, ``bound_low``/``bound_high`` (the differences
        possible, ``[-1, 1]``, or ``[-1/K, 1 - 1/K]`` and its mirror when one of the two is right
        exactly on the cases of one class, as a classifier that always predicts one class is: its
        balanced accuracy is then 1/K, and both intervals are clipped to this range) and the adjusted columns of
        :func:`evallib.onetestset.delong_pairwise` (``pvalue_adj``, ``reject_adj``,
        ``low_adj``/``high_adj``, each pair on its own df: joint under Holm and Bonferroni,
        the unadjusted interval under ``"bh"``, ``"by"`` and ``"none"``) and ``identical`` (the two
        are right on exactly the same cases: every difference is 0 and there is nothing to test).

    References
    ----------
    Brodersen et al. (2010) for balanced accuracy; B. L. Welch (1947), Biometrika 34, 28-35.
    """
    truth = data.case_truth
    correct = {name: 1.0 - r for name, r in data.error_rates().items()}
    k = np.unique(truth).size
    # a classifier right exactly on the cases of one class (one that predicts that class on every case)
    # has balanced accuracy 1/K in every sample of these classes, as the majority-class baseline does
    constant = {name: any(np.array_equal(c, (truth == t).astype(float)) for t in np.unique(truth))
                for name, c in correct.items()}
    rows = []
    for a, b in combinations(correct, 2):
        # the difference a - b lies in [-1, 1], and in [-1/K, 1 - 1/K] (or its mirror) when one of the two
        # is constant: the interval is clipped to what is possible, as _best_sentence's against the baseline
        feasible = ((-1.0 / k, 1.0 - 1.0 / k) if constant[b] and not constant[a] else
                    (1.0 / k - 1.0, 1.0 / k) if constant[a] and not constant[b] else (-1.0, 1.0))
        res = stratified_mean(correct[a] - correct[b], truth, alpha=alpha, bounds=feasible)
        ba_a = stratified_mean(correct[a], truth, alpha=alpha, bounds=(0.0, 1.0)).estimate
        ba_b = stratified_mean(correct[b], truth, alpha=alpha, bounds=(0.0, 1.0)).estimate
        rows.append({"a": a, "b": b, "ba_a": ba_a, "ba_b": ba_b, "difference": res.estimate, "se": res.se,
                     "df": res.df, "statistic": res.statistic, "pvalue": res.pvalue, "low": res.low,
                     "high": res.high, "alpha": alpha, "bound_low": feasible[0], "bound_high": feasible[1],
                     "identical": bool(np.array_equal(correct[a], correct[b]))})
    table = adjust_pairs_table(pd.DataFrame(rows), alpha, adjust, lambda lv: float(stats.norm.isf(lv / 2.0)))
    # joint (Bonferroni) under the family-wise adjustments; none correspond to the false discovery rate
    joint = alpha / max(len(table), 1) if adjust in FWER_ADJUSTMENTS else alpha
    half = stats.t.isf(joint / 2.0, table["df"].to_numpy(dtype=float)) * table["se"].to_numpy(dtype=float)
    table["low_adj"] = np.maximum(table["bound_low"], table["difference"] - half)  # each pair on its own df
    table["high_adj"] = np.minimum(table["bound_high"], table["difference"] + half)
    return table


# ------------------------------------------------------------------ AUC
def case_auc(data: Predictions, score: np.ndarray, y: np.ndarray | None = None) -> float:
    """The AUC with every case weighted 1 (:func:`evallib.resampling.auc_cases`); ``y``:
    the rows' membership of the class the score is for (default the positive class)."""
    return auc_cases(data.y if y is None else y, score, data.cases)


def case_delong(data: Predictions, y: np.ndarray | None = None, scores: dict | None = None) -> DeLong:
    """DeLong's AUCs and covariance matrix of the score columns, cases as the unit
    (:func:`evallib.resampling.delong_cases`, Obuchowski's clustered form). ``y`` (per
    row) and ``scores`` (name -> per-row scores) default to the positive class and the file's
    score columns; with more than two classes they give one class against the rest."""
    return delong_cases(data.y if y is None else y, data.scores if scores is None else scores, data.cases)


# ------------------------------------------------------------------ bootstrap
def bootstrap_f1(data: Predictions, a: str, b: str, *, reps: int, rng: np.random.Generator,
                 alpha: float = 0.05) -> CaseF1Bootstrap:
    """Paired bootstrap of ``F1(A) - F1(B)`` (two classes: the positive class's F1) or of the
    macro-F1 difference over the label column's classes (more classes), resampling cases with
    all their predictions: :func:`evallib.resampling.bootstrap_f1_cases` on the
    file's class codes."""
    positive = None if data.multiclass else data.classes.index(data.positive)
    return bootstrap_f1_cases(data.truth, data.predicted[a], data.predicted[b], data.cases, pos_label=positive,
                              labels=range(len(data.label_classes)), n_resamples=reps, alpha=alpha, rng=rng)
