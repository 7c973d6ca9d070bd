"""The report's sections: one function per section computes its numbers.

Each function takes the checked :class:`~evallib.report.Predictions` and returns a
tidy DataFrame or a small frozen result, or :class:`Skipped` with a one-line reason when
the file gives it no input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import deprecated, renamed_fields, renamed_keywords
from .._multitest import ADJUSTMENTS, FDR_ADJUSTMENTS, FWER_ADJUSTMENTS, adjust_pvalues
from .._validate import check_alpha, check_choice, check_count, check_real, check_rng
from ..items import item_mean
from ..manydatasets import critical_difference, friedman
from ..onetestset import (
    LOG_LOSS_EPS,
    accuracy_interval,
    auc_table,
    delong_pairwise,
    loss_pairwise,
    loss_table,
    per_case_loss,
    per_case_loss_pairwise,
)
from ..onetestset._nullbest import (
    MAX_LATTICE,
    auc_normal_critical,
    best_over_thresholds,
    judge_winner,
)
from ..onetestset._scoring import degenerate_auc, degenerate_interval_text
from ..resampling import (
    combined_5x2cv_ftest,
    corrected_resampled_ttest,
    dietterich_5x2cv,
)
from . import _percase as percase
from ._inputs import (
    FEW_MINORITY,
    SMALL_TEST_SET,
    Predictions,
    ReportInputError,
)
from ._prose import (
    LISTED,
    distinct_digits,
    format_p,
    interval_points,
    join_names,
    level_text,
    matters_clause,
    pct,
    plural,
    pvalue_cell,
    relevance,
    signed,
    tie_groups,
    tie_note,
    top_two,
)
from ._exact import exact_friedman_p
from ._text import _clipped_ends, adjusted_p_text, verdict_interval_name


@dataclass(frozen=True)
class Skipped:
    """A section that does not apply to this file, with the one-line reason.

    Attributes
    ----------
    reason : str
        Why the section does not apply, one sentence (``str(skipped)`` puts ``Skipped:``
        before it).
    """

    reason: str

    def __str__(self) -> str:
        return f"Skipped: {self.reason}"


# --------------------------------------------------------------------- section 1
@dataclass(frozen=True, eq=False)
class DataSummary:
    """Section 1: what the file holds.

    Attributes
    ----------
    n, n_pos, n_neg : test cases, positives (P) and negatives (N); each case counted once,
        however many rows (predictions) it has.
    positive, negative : the class names.
    n_folds : number of folds (within one repeat), 0 without a fold column.
    classifiers : DataFrame indexed by classifier, columns ``labels`` and ``scores`` (bool:
        which columns the file has for it).
    warnings : plain sentences about a small test set or heavy class skew.
    notes : plain sentences on how the file was read, how cases and repeats were found, why
        this class is the positive one, and which class the scores are for.
    class_counts : cases per class (more than two classes), else None.
    design : one phrase on the cases and how often each was predicted,
        e.g. ``"532, each predicted 10 times (10 repeats of 10-fold CV)"``.
    n_rows : rows of the file (predictions of one case by every classifier).
    n_repeats : repeats (1 when each case is predicted once).
    """

    n: int
    n_pos: int
    n_neg: int
    positive: str
    negative: str
    n_folds: int
    classifiers: pd.DataFrame
    warnings: tuple[str, ...]
    notes: tuple[str, ...] = ()
    class_counts: dict[str, int] | None = None
    design: str = ""
    n_rows: int = 0
    n_repeats: int = 1

    def text(self) -> str:
        """The summary as deterministic plain text (what the report prints).

        Returns
        -------
        str
            One line each: the test cases, the classes with their counts and shares, the
            folds, the classifiers with what the file holds for each, then every note and
            warning (``"warnings: none"`` without one).
        """
        lines = [f"test cases: {self.design or self.n}"]
        if self.class_counts:
            lines += [f"classes: {len(self.class_counts)}"] + [
                f"  class {c!r}: {k} ({k / self.n:.1%})" for c, k in self.class_counts.items()]
        else:
            lines += [
                f"positive class {self.positive!r}: {self.n_pos} ({self.n_pos / self.n:.1%})",
                f"negative class {self.negative!r}: {self.n_neg} ({self.n_neg / self.n:.1%})",
            ]
        if self.n_repeats > 1:
            folds = (f"{self.n_folds} in each of {self.n_repeats} repeats" if self.n_folds
                     else f"none ({self.n_repeats} repeats)")
        else:
            folds = self.n_folds if self.n_folds else "none (one test set)"
        lines += [f"folds: {folds}", f"classifiers: {len(self.classifiers)}"]
        for name, row in self.classifiers.iterrows():
            what = " and ".join(w for w, has in (("predicted labels", row["labels"]),
                                                 ("scores", row["scores"])) if has)
            lines.append(f"  {name}: {what}")
        lines += [f"note: {w}" for w in self.notes]
        lines += [f"warning: {w}" for w in self.warnings] or ["warnings: none"]
        return "\n".join(lines)


def _folds_per_repeat(data: Predictions) -> np.ndarray:
    """How many folds each repeat has (one entry per repeat; empty without folds)."""
    if data.folds is None:
        return np.zeros(0, np.int64)
    reps = np.zeros(data.n_rows, np.int64) if data.repeats is None else data.repeats
    pairs = pd.DataFrame({"r": reps, "f": data.folds}).drop_duplicates()
    return pairs.groupby("r").size().to_numpy()


def design_text(data: Predictions) -> str:
    """The cases and how they were predicted, as a phrase: ``"532"``, ``"532 (10-fold CV)"``,
    ``"532, each predicted 10 times (10 repeats of 10-fold CV)"``."""
    folds = _folds_per_repeat(data)
    k = (f"{int(folds[0])}-fold CV" if folds.size and folds.min() == folds.max()
         else f"{int(folds.min())} to {int(folds.max())} folds per repeat" if folds.size else "")
    if not data.repeated:
        return f"{data.n:,}" + (f" ({k})" if k else "")
    per = data.predictions_per_case()
    times = (f"each predicted {int(per[0])} times" if per.min() == per.max()
             else f"each predicted {int(per.min())} to {int(per.max())} times")
    how = f"{data.n_repeats} repeats" + (f" of {k}" if k and folds.min() == folds.max() else
                                         (f", {k}" if k else ""))
    return f"{data.n:,}, {times} ({how}; {data.n_rows:,} rows)"


def summarise_data(data: Predictions) -> DataSummary:
    """Section 1: sizes, class balance, the classifiers and warnings.

    Every count is of test cases, each counted once however often it was predicted.
    Warnings are raised for fewer than :data:`SMALL_TEST_SET` test cases (the accuracy
    interval's half-width is then quoted), a smallest class below :data:`HEAVY_SKEW`
    times the share ``2/K`` -- a fifth of what ``K`` balanced classes would give it, the
    10% line for two classes -- or fewer than :data:`FEW_MINORITY` cases in the smallest
    class.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).

    Returns
    -------
    DataSummary
        ``n``, ``n_pos``, ``n_neg`` (0 with more than two classes), ``positive``,
        ``negative``, ``n_folds``, the ``classifiers`` table (columns ``labels`` and
        ``scores``), ``warnings``, ``notes`` (:func:`data_notes`), ``class_counts`` (more
        than two classes), ``design``, ``n_rows`` and ``n_repeats``.
    """
    n = data.n
    k = len(data.label_classes)
    counts = np.bincount(data.case_truth, minlength=len(data.classes))[:k]
    if data.multiclass:
        p = neg = 0
    else:
        p, neg = data.n_pos, data.n_neg
    minority = int(counts.min())
    warnings = []
    if n < SMALL_TEST_SET:
        half = 1.96 * math.sqrt(0.25 / n)
        warnings.append(
            f"small test set: with {n} cases an accuracy near 50% is only known to about "
            f"±{100 * half:.0f} percentage points (95% interval), so small differences cannot "
            "be resolved."
        )
    share = minority / n
    if percase.skewed(data):
        smallest = "minority" if k == 2 else "smallest"
        warnings.append(
            f"heavy class skew: only {percase.smallest_share_text(share, k)}% of the cases are in the {smallest} "
            "class, where "
            f"{k} balanced classes would put {1 / k:.0%} in each, so accuracy mostly measures the "
            f"{'majority class' if k == 2 else 'large classes'}; read average recall (balanced accuracy) "
            f"and {'F-measure' if k == 2 else 'macro-F1'} ({percase.skew_rule(k)})."
        )
    if minority < FEW_MINORITY:
        warnings.append(
            f"only {plural(minority, 'case')} of the {'minority' if k == 2 else 'smallest'} class: "
            + join_names(["recall", "balanced accuracy (average recall)", "F-measure" if k == 2 else "macro-F1"]
                         + (["AUC (with its DeLong interval)"] if data.scores or data.class_scores else []))
            + " rest on very few cases."
        )
    table = pd.DataFrame(
        {"labels": [c in (data.predicted or data.labels) for c in data.classifiers],
         "scores": [c in data.scores or c in (data.class_scores or {}) for c in data.classifiers]},
        index=pd.Index(list(data.classifiers), name="classifier"),
    )
    folds = _folds_per_repeat(data)
    n_folds = int(folds.max()) if folds.size else 0
    class_counts = ({c: int(m) for c, m in zip(data.label_classes, counts)} if data.multiclass else None)
    return DataSummary(n=n, n_pos=p, n_neg=neg, positive=data.positive, negative=data.negative,
                       n_folds=n_folds, classifiers=table, warnings=tuple(warnings),
                       notes=data_notes(data), class_counts=class_counts, design=design_text(data),
                       n_rows=data.n_rows, n_repeats=data.n_repeats)


def data_notes(data: Predictions) -> tuple[str, ...]:
    """How the file was read, how cases and repeats were found, why the positive class is the
    one it is, what the scores mean.

    Parameters
    ----------
    data : Predictions
        The checked predictions file; its ``read_note``, case and repeat structure,
        classes, ``positive_from`` and scores are what the notes describe.

    Returns
    -------
    tuple of str
        Plain sentences, in this order: the reader's note (encoding, separator), the case
        column, the repeats and how each case is weighed, then either the classes (more
        than two) or the positive class and why, and which class the scores are for.
    """
    notes = []
    if data.read_note:
        notes.append(data.read_note)
    if data.case_column:
        notes.append(f"Cases are identified by the column {data.case_column!r}.")
    if data.repeated:
        notes.append(
            f"Each case was predicted several times (repeats: {data.repeat_from}); every section works on "
            "cases, each weighing 1: a case's correctness rate is the share of its predictions that are "
            "right, and counts are averaged over its predictions, so the verdicts do not grow more "
            "confident with the number of repeats.")
    if data.multiclass:
        notes.append(f"{len(data.label_classes)} classes: accuracy, balanced accuracy (average recall) and "
                     "macro-F1 treat them alike; Forman & Cohen's test, which needs one positive class, is "
                     "skipped" + ("; the scores are read per class, each class against the rest."
                                 if data.class_scores else "."))
        return tuple(notes)
    why = f" ({data.positive_from})" if data.positive_from else ""
    notes.append(f"The positive class is {data.positive!r}{why}; precision, recall and F-measure "
                 "are about it.")
    if data.scores:
        notes.append(f"Scores are read as evidence for {data.positive!r}: a higher score means "
                     f"more likely {data.positive!r}.")
    return tuple(notes)


# --------------------------------------------------------------------- section 2
def _auc(y: np.ndarray, score: np.ndarray) -> float:
    """AUC as Mann–Whitney's U / (P N), ties counted one half (midranks).

    The same number as scikit-learn's ``roc_auc_score`` (the tests check it), without
    importing scikit-learn into the report's kernel; O(n log n).
    """
    y = np.asarray(y, dtype=bool)
    ranks = stats.rankdata(score)
    P = int(y.sum())
    N = y.size - P
    return float((ranks[y].sum() - P * (P + 1) / 2.0) / (P * N))


def accuracy_interval_cases(data: Predictions, correct: np.ndarray, alpha: float) -> tuple[float, float]:
    """The ``1 - alpha`` interval of an accuracy with the cases as the sample.

    When every case's correctness rate is 0 or 1 (each case predicted once, or alike in every
    repeat): Wilson's score interval on the ``n`` cases
    (:func:`evallib.onetestset.accuracy_interval`). Otherwise the cases x repeats
    table of right/wrong goes to :func:`evallib.items.item_mean`: Wilson's interval
    with the effective sample size the per-case rates imply (Korn & Graubard 1998), so the
    repeats narrow the interval only as far as they make each case's rate more precise.
    """
    rates = data.per_case(correct)
    if percase.is_binary(rates):
        ci = accuracy_interval(int(round(rates.sum())), data.n, alpha=alpha, method="wilson")
        return float(ci.low), float(ci.high)
    res = item_mean(percase.outcome_matrix(data, correct.astype(float)), alpha=alpha)
    return float(res.low), float(res.high)


MEASURE_COLUMNS = ["TP", "FN", "FP", "TN", "accuracy", "acc_low", "acc_high", "avg_recall",
                   "precision", "recall", "F1", "AUC"]


def classifier_measures(data: Predictions, *, alpha: float = 0.05) -> pd.DataFrame:
    """Section 2: each classifier's contingency table and measures (Flach 2012, ch. 12).

    Parameters
    ----------
    data : Predictions
    alpha : float
        The accuracy interval has coverage ``1 - alpha`` (Wilson's score interval, see
        :func:`accuracy_interval_cases`; it stays informative at accuracies near 0 or 1,
        where the book's normal interval collapses).

    Returns
    -------
    pandas.DataFrame
        Indexed by classifier: ``TP, FN, FP, TN``; ``accuracy`` with ``acc_low`` and
        ``acc_high``; ``avg_recall`` (the mean of the two per-class recalls, Flach's
        "average recall"); ``precision`` (TP / (TP + FP)), ``recall`` (TP / P) and ``F1``
        (``2 TP / (2 TP + FP + FN)``); ``AUC`` from the scores (Mann–Whitney, ties counted
        one half, as scikit-learn's ``roc_auc_score``). With repeats every case weighs 1:
        the counts are sums over cases of the share of their predictions in each cell
        (:func:`evallib.report.weighted_confusion`), and the AUC compares every
        positive with every negative row, each row weighted 1/(its case's rows). Measures
        that need predicted labels are NaN for a classifier given only by scores, and
        ``AUC`` is NaN without scores. Precision is NaN (undefined, 0/0) when a classifier
        predicts no positive; F1 is then 0, since the file has positives.
    """
    alpha = check_alpha(alpha)
    if data.multiclass:
        return _multiclass_measures(data, alpha)
    pos = data.classes.index(data.positive)
    neg = 1 - pos
    wrong = data.wrong()
    rows = []
    for name in data.classifiers:
        row: dict[str, Any] = {"classifier": name}
        if name in data.labels:
            conf = percase.weighted_confusion(data, name)
            tp, fn, fp, tn = conf[pos, pos], conf[pos, neg], conf[neg, pos], conf[neg, neg]
            low, high = accuracy_interval_cases(data, ~wrong[name], alpha)
            row.update(TP=tp, FN=fn, FP=fp, TN=tn, acc_low=low, acc_high=high,
                       **percase.binary_measures(tp, fn, fp, tn))
        row["AUC"] = percase.case_auc(data, data.scores[name]) if name in data.scores else float("nan")
        rows.append(row)
    out = pd.DataFrame(rows).set_index("classifier").reindex(columns=MEASURE_COLUMNS)
    if not data.repeated:
        for c in ("TP", "FN", "FP", "TN"):
            out[c] = out[c].round().astype("Int64")
    out.attrs["alpha"] = alpha
    out.attrs["repeated"] = data.repeated
    out.attrs["baseline"] = majority_baseline(data, alpha=alpha)
    return out


def _multiclass_measures(data: Predictions, alpha: float) -> pd.DataFrame:
    """Section 2 for K classes: accuracy with its interval, balanced accuracy (``avg_recall``,
    the mean of the per-class recalls) and macro-F1 (``F1``) from
    :func:`evallib.report.class_measures`; counts, precision, recall and AUC are NaN
    (per class they are in :func:`per_class_tables`). The majority-class classifier is
    ``attrs["baseline"]``."""
    wrong = data.wrong()
    rows = []
    for name in data.classifiers:
        if name not in wrong:  # scores only
            rows.append({"classifier": name})
            continue
        m = percase.class_measures(percase.weighted_confusion(data, name))
        low, high = accuracy_interval_cases(data, ~wrong[name], alpha)
        rows.append({"classifier": name, "accuracy": m["accuracy"], "acc_low": low, "acc_high": high,
                     "avg_recall": m["balanced_accuracy"], "F1": m["macro_f1"]})
    out = pd.DataFrame(rows).set_index("classifier").reindex(columns=MEASURE_COLUMNS)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = out[c].astype("Int64")
    out.attrs["alpha"] = alpha
    out.attrs["multiclass"] = True
    out.attrs["repeated"] = data.repeated
    out.attrs["baseline"] = majority_baseline(data, alpha=alpha)
    return out


def per_class_tables(data: Predictions) -> dict[str, pd.DataFrame]:
    """Per classifier with predicted labels: precision, recall, F1, support and predictions of
    every class of the label column (precision 0/0 counts as 0; with repeats, counts of
    cases as in :func:`classifier_measures`).

    Parameters
    ----------
    data : Predictions
        The checked predictions file, any number of classes; each classifier's
        ``predicted`` labels are counted against the label column's classes.

    Returns
    -------
    dict of str to pandas.DataFrame
        ``{classifier: table}`` for each classifier with predicted labels, in file order;
        each table is indexed by ``label`` (the label column's classes) with columns
        ``precision``, ``recall``, ``f1``, ``support`` (cases of the class) and
        ``predicted`` (cases predicted as the class).
    """
    out = {}
    for name in data.predicted or {}:
        m = percase.class_measures(percase.weighted_confusion(data, name))
        out[name] = pd.DataFrame({"precision": m["precision"], "recall": m["recall"], "f1": m["f1"],
                                  "support": m["support"], "predicted": m["predicted"]},
                                 index=pd.Index(list(data.label_classes), name="label"))
    return out


def omnibus_test(data: Predictions, *, alpha: float = 0.05):
    """Cochran's Q: do the classifiers (three or more, with predicted labels) differ in accuracy?

    :func:`evallib.resampling.cochran_q_cases` on the cases x classifiers table of
    per-case correctness rates (any number of classes): Cochran's Q on the right/wrong
    table when each case is predicted once, its within-case statistic on the rates when
    cases were predicted several times. The omnibus test before the pairwise comparisons.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Significance level of the test, in (0, 1).

    Returns
    -------
    evallib.onetestset.CochranQ or Skipped
        Skipped with fewer than three classifiers with predicted labels.
    """
    alpha = check_alpha(alpha)
    rates = data.error_rates()
    if len(rates) < 3:
        return Skipped(f"{plural(len(rates), 'classifier')} with predicted labels; Cochran's Q is the omnibus "
                       "test for three or more (the two are compared pairwise below).")
    correct = pd.DataFrame({name: 1.0 - r for name, r in rates.items()})
    return percase.rate_cochran_q(correct, alpha=alpha)


def majority_baseline(data: Predictions, *, alpha: float = 0.05) -> dict[str, Any]:
    """The majority-class classifier: predict the most frequent class for every case.

    Its accuracy (the majority's share of the cases, with its Wilson interval) is what a
    classifier must beat to have learnt anything from the features; its average recall is
    ``1/K`` and its AUC (a constant score) 0.5. With two classes and ``P == N`` either class
    is a majority; the negative class is used, so precision is undefined and F1 is 0. With
    ``K`` classes its macro-F1 is the F1 of the majority class divided by ``K``.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        The accuracy's Wilson interval has coverage ``1 - alpha``, in (0, 1).

    Returns
    -------
    dict
        ``name`` (e.g. ``"majority class 'ham'"``), ``code`` (the class index) and the
        columns of :func:`classifier_measures`.

    References
    ----------
    P. Flach (2012), Machine Learning, Example 12.1 (accuracy against the majority class).

    Examples
    --------
    Flach's Example 12.1: 80 positives and 20 negatives, so always predicting positive
    has accuracy 0.80.

    >>> import pandas as pd
    >>> from evallib.report import load_predictions
    >>> y = [1] * 80 + [0] * 20
    >>> data = load_predictions(pd.DataFrame({"label": y, "pred_a": y, "pred_b": [1] * 100}))
    >>> base = majority_baseline(data)
    >>> base["name"], base["accuracy"], base["AUC"]
    ("majority class '1'", 0.8, 0.5)
    """
    n = data.n
    k = len(data.label_classes)
    counts = np.bincount(data.case_truth, minlength=len(data.classes))[:k]
    if data.multiclass:
        code = int(np.argmax(counts))
        top = int(counts[code])
        ci = accuracy_interval(top, n, alpha=alpha, method="wilson")
        nan = float("nan")
        return {"name": f"majority class {data.classes[code]!r}", "code": code, "TP": nan, "FN": nan,
                "FP": nan, "TN": nan, "accuracy": top / n, "acc_low": ci.low, "acc_high": ci.high,
                "avg_recall": 1.0 / k, "precision": nan, "recall": nan, "F1": 2.0 * top / (top + n) / k,
                "AUC": nan}
    P, N = data.n_pos, data.n_neg
    predict_positive = P > N
    tp, fn = (P, 0) if predict_positive else (0, P)
    fp, tn = (N, 0) if predict_positive else (0, N)
    ci = accuracy_interval(tp + tn, n, alpha=alpha, method="wilson")
    cls = data.positive if predict_positive else data.negative
    return {
        "name": f"majority class {cls!r}" + (" (classes of equal size)" if P == N else ""),
        "code": data.classes.index(cls),
        "TP": tp, "FN": fn, "FP": fp, "TN": tn, "accuracy": (tp + tn) / n, "acc_low": ci.low,
        "acc_high": ci.high, "avg_recall": 0.5, "precision": 1.0 if predict_positive else float("nan"),
        "recall": 1.0 if predict_positive else 0.0,
        "F1": 2 * tp / (2 * tp + fp + fn), "AUC": 0.5,
    }


def auc_clipped(row: Any, alpha: float) -> str:
    """``"the upper end clipped at the largest AUC possible, 1.000"`` where an AUC's DeLong
    interval (``estimate -/+ z se``, :func:`evallib.onetestset.auc_table`) was clipped to [0, 1],
    else ``""``; ``row`` has ``estimate``, ``se``, ``low`` and ``high``."""
    est, se = float(row["estimate"]), float(row["se"])
    if not (math.isfinite(se) and se > 0):
        return ""
    half = float(stats.norm.isf(alpha / 2.0)) * se
    ends = _clipped_ends("AUC", (0.0, 1.0), (est - half, est + half), (float(row["low"]), float(row["high"])),
                         lambda v: f"{v:.3f}")
    return ends


def _comma(clause: str) -> str:
    return ", " + clause if clause else ""


#: A classifier's scores are called reversed when their AUC is below 0.5 with a one-sided
#: p-value (normal law of Mann–Whitney's U under random ranking) below this.
REVERSED_LEVEL = 0.001


def score_warnings(data: Predictions, measures: pd.DataFrame, *, alpha: float = 0.05) -> tuple[str, ...]:
    """Sentences for classifiers whose scores look reversed or that fall below the baseline.

    Scores look reversed when the AUC is clearly below 0.5 (random ranking would give an AUC
    that low with probability below :data:`REVERSED_LEVEL`, normal law of Mann–Whitney's U
    with variance ``(P + N + 1) / (12 P N)``) or when the best accuracy over all thresholds
    of the scores is below the accuracy of the classifier's own predicted labels (a
    threshold on the scores should reach at least that) and the AUC is at most 0.5; with an
    AUC above 0.5 the sentence says instead that the labels do not come from a threshold on
    the scores, which rank the classes better than random ones. A classifier is called out when
    its accuracy is below the majority-class baseline's (all such classifiers in one sentence).
    Any other AUC below 0.5 is read against its DeLong interval (as :func:`score_comparison`
    computes it): an interval that excludes 0.5 shows a ranking worse than random, one that
    includes 0.5 leaves the low AUC within chance, and the sentence says which.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    measures : pandas.DataFrame
        The table of :func:`classifier_measures` for ``data`` (its ``AUC`` and
        ``accuracy`` columns and ``attrs["baseline"]`` are read).
    alpha : float, default 0.05
        In (0, 1): the DeLong intervals have coverage ``1 - alpha``.

    Returns
    -------
    tuple of str
        One sentence per finding: scores that look reversed (against random scores or
        against the classifier's own labels), the classifiers below the baseline (one
        sentence), and any other AUC below 0.5; empty when nothing is found.
    """
    alpha = check_alpha(alpha)
    out = []
    P, N = (data.n_pos, data.n_neg) if not data.multiclass else (1, 1)
    sd0 = math.sqrt((P + N + 1) / (12.0 * P * N))
    for name in data.classifiers:
        if name not in data.scores or data.multiclass:
            continue
        auc = float(measures.at[name, "AUC"])
        p_low = float(stats.norm.cdf((auc - 0.5) / sd0))
        if p_low < REVERSED_LEVEL:
            out.append(
                f"{name}'s scores look reversed: AUC {auc:.3f} is far below the 0.5 of random "
                f"scores (as low by chance: {format_p(p_low)}); check that they are scores for "
                f"{data.positive!r} (higher = more likely {data.positive!r}), or set --pos-label.")
            continue
        if name in data.labels:
            # on the rows: a threshold on the scores against the predicted labels they came with
            best_acc, _ = best_over_thresholds(data.y, data.scores[name])
            acc = (float(np.mean(data.labels[name] == data.y)) if data.repeated
                   else float(measures.at[name, "accuracy"]))
            if best_acc + 1e-12 < acc:
                # scores that rank the classes better than chance are not reversed: the labels
                # simply do not come from a threshold on them
                if auc > 0.5:
                    out.append(
                        f"{name}'s predicted labels do not come from a threshold on its scores: no threshold "
                        f"on the scores reaches the accuracy of the labels ({best_acc:.3f} at best against "
                        f"{acc:.3f}), although the scores rank the classes better than random ones (AUC "
                        f"{auc:.3f}); the labels and the scores may come from different models or steps, so "
                        "read each as its own classifier.")
                else:
                    out.append(
                        f"{name}'s scores look reversed against its own labels: no threshold on its "
                        f"scores reaches the accuracy of its predicted labels ({best_acc:.3f} at best "
                        f"against {acc:.3f}), and their AUC is {auc:.3f}; check which class the scores are for.")
    base = measures.attrs.get("baseline")
    if base is not None:
        below = [(name, float(acc)) for name, acc in measures["accuracy"].dropna().items()
                 if float(acc) < base["accuracy"] - 1e-12]
        if below:
            who = [f"{name} ({100 * acc:.1f}%)" for name, acc in below]
            out.append(
                f"The accuracy of {join_names(who)} is below the {100 * base['accuracy']:.1f}% of the "
                f"{base['name']} baseline, which predicts one class for every case.")
        low = [name for name, auc in measures["AUC"].dropna().items()
               if float(auc) < 0.5 and not any(w.startswith(f"{name}'s scores") for w in out)]
        if low:
            fit = (percase.case_delong(data, scores={n: data.scores[n] for n in low}).table(alpha) if data.repeated
                   else auc_table(data.y, {n: data.scores[n] for n in low}, alpha=alpha))
            for r in fit.itertuples():
                interval = (f"{level_text(alpha)} DeLong interval {r.low:.3f} to {r.high:.3f}"
                            + (f" ({clip})" if (clip := auc_clipped(r._asdict(), alpha)) else ""))
                if r.high < 0.5:
                    out.append(f"{r.name}'s AUC {r.estimate:.3f} is below the 0.5 of random scores, and its "
                               f"{interval} excludes 0.5: its scores rank the classes worse than random ones.")
                else:
                    out.append(f"{r.name}'s AUC {r.estimate:.3f} is below 0.5, but its {interval} includes "
                               "0.5: the low AUC could be chance.")
    return tuple(out)


# ------------------------------------------------------ the smallest difference that matters
def check_min_difference(min_difference: Any) -> float | None:
    """``None``, or the smallest difference that matters as a proportion in (0, 1) (0.02 = 2
    percentage points of accuracy), else one sentence naming the option."""
    if min_difference is None:
        return None
    try:
        return check_real(min_difference, "min_difference", low=0.0, high=1.0, low_open=True, high_open=True,
                          note="a proportion: 0.02 = 2 percentage points")
    except (TypeError, ValueError) as exc:
        raise ReportInputError(f"--min-difference ({exc}).") from None




# --------------------------------------------------------------------- section 3
#: Below this many discordant cases (b + c) the pairwise table flags the pair (one definition,
#: in :mod:`evallib.report._percase`): the intervals and the mid-p test are then rough.
FEW_DISCORDANT = percase.FEW_DISCORDANT


#: The multiplicity adjustments of the predictions report's pairwise tables: the one menu of every
#: pairwise table (:data:`evallib.ADJUSTMENTS`, defined in :mod:`evallib._multitest`).
REPORT_ADJUSTMENTS = ADJUSTMENTS

#: The adjustments whose pairwise intervals are joint (Bonferroni's ``alpha / m``); under the
#: others the intervals shown are the unadjusted ones (:data:`evallib._multitest.FWER_ADJUSTMENTS`).
JOINT_INTERVAL_ADJUSTMENTS = FWER_ADJUSTMENTS


def adjusted_pvalues(p: np.ndarray, adjust: str) -> np.ndarray:
    """Deprecated: :func:`evallib.adjust_pvalues` (``adjust`` in :data:`evallib.ADJUSTMENTS`).

    Parameters
    ----------
    p : sequence of float
        The unadjusted p-values, in [0, 1].
    adjust : {"holm", "bonferroni", "bh", "by", "none"}

    Returns
    -------
    numpy.ndarray
        ``evallib.adjust_pvalues(p, adjust)``, after a :class:`DeprecationWarning`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     [round(float(v), 6) for v in adjusted_pvalues([0.000532, 0.001336, 0.5], "bh")]
    [0.001596, 0.002004, 0.5]
    """
    deprecated("evallib.report.adjusted_pvalues", "evallib.adjust_pvalues")
    return adjust_pvalues(p, check_choice(adjust, "adjust", ADJUSTMENTS))


#: How the report names each interval method of :func:`evallib.onetestset.paired_difference_interval`.
INTERVAL_NAMES = {
    "bonett_price": "Bonett–Price", "tango": "Tango", "newcombe": "Newcombe", "agresti_min": "Agresti–Min",
    "wald": "Wald", "wald_cc": "continuity-corrected Wald", "qh": "Quesenberry–Hurst",
}


def pairwise_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm",
                        interval: str = "bonett_price", min_difference: float | None = None):
    """Section 3: every pair of classifiers with labels, compared on their disagreements.

    For each pair ``(A, B)`` the cases fall into ``b`` (A does worse: errs where B does not)
    and ``c`` (B does worse), the rest being ties. When each case is predicted once (or
    alike in all its repeats) the test is McNemar's mid-p test (``mcnemar(b, c,
    method="mid-p")``; Fagerland, Lydersen & Laake 2013: it holds its level where the exact test
    is conservative and the chi-square approximation is not reliable) and the interval of
    ``error_A - error_B = (b - c)/n`` is
    :func:`evallib.onetestset.paired_difference_interval` with ``method=interval``
    (default Bonett–Price, recommended by Fagerland, Lydersen & Laake 2014; ``"qh"`` gives
    Berrar & Lozano's Quesenberry–Hurst interval). When cases were predicted several times,
    each case's error rate is the share of its predictions that are wrong, and the paired
    t-test and t interval on the per-case differences (``n - 1`` df, ``n`` cases) replace
    them (:func:`evallib.report.paired_error_difference`): the repeats make each
    case's rate more precise, they do not add cases. The p-values are adjusted for the
    number of pairs (:func:`evallib.adjust_pvalues`, Holm by default; ``reject`` is ``pvalue_adj <=
    alpha``). Under Holm and Bonferroni, which control the family-wise error rate, the
    adjusted interval is the same interval at level ``alpha / m`` (Bonferroni), the one
    adjustment of intervals that covers all ``m`` pairs jointly. Benjamini–Hochberg
    (``"bh"``) and Benjamini–Yekutieli (``"by"``) control the false discovery rate instead,
    to which no joint intervals correspond: under them, as with ``adjust="none"``, the
    adjusted interval is the unadjusted one (``attrs["interval_adjust"]`` says which,
    ``"bonferroni"`` or ``"none"``).

    A pair's ``verdict`` has one source, the adjusted test (``reject``: ``pvalue_adj <= alpha``),
    and every sentence of the report about the pair follows it; the intervals give the size.
    Beside the verdict the report reads one interval (:func:`verdict_interval_name`): the joint
    one under Holm and Bonferroni with more than one pair, else the interval. Where that interval
    falls on the other side of 0 (the test rejects and the interval includes 0, or the reverse:
    ``interval_disagrees``), the verdict adds ``(borderline: the joint interval includes 0)``
    (or ``excludes``, or ``the interval``, ``the unadjusted interval``), and the summary says the
    same of the pair; under the false-discovery-rate adjustments a pair that the unadjusted test
    rejects and the adjusted one does not gets ``(the unadjusted interval excludes 0: it does not
    allow for the m comparisons)`` instead, a matter of multiplicity, not of the boundary. Under Holm this happens by design: its step-down test rejects at adjusted
    levels up to ``alpha`` for all but the smallest p-value, where the joint intervals hold at
    ``alpha / m`` each; otherwise the interval and the test are different procedures that agree
    only approximately near the boundary.

    Pairs are sorted by effect, the observed ``|difference in error rate|``, largest first
    (ties: smaller p first). Every pair is a row (nothing is truncated). With
    ``min_difference`` (the smallest difference in error rate that matters, a proportion)
    each pair's joint interval (Holm, Bonferroni; otherwise its interval) is read against it
    (:func:`relevance`, column ``matters``; ``attrs["matters_joint"]`` says which).

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Level of the tests, in (0, 1); ``diff_low``/``diff_high`` have coverage
        ``1 - alpha``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        Adjustment of the p-values for the number of pairs (:func:`evallib.adjust_pvalues`,
        the menu :data:`evallib.ADJUSTMENTS`); Holm and Bonferroni also widen
        ``adj_low``/``adj_high`` to joint intervals.
    interval : str, default "bonett_price"
        The interval method of :func:`evallib.onetestset.paired_difference_interval`, a
        key of ``INTERVAL_NAMES`` (``"bonett_price"``, ``"tango"``, ``"newcombe"``,
        ``"agresti_min"``, ``"wald"``, ``"wald_cc"``, ``"qh"``); unused when cases were
        predicted several times (the paired t interval then).
    min_difference : float, optional
        The smallest difference in error rate that matters, a proportion in (0, 1) (0.02
        = 2 percentage points); each joint interval ``adj_low``/``adj_high`` under Holm and
        Bonferroni with more than one pair, else ``diff_low``/``diff_high``, is read against it
        (:func:`relevance`, column ``matters``): the interval read beside the verdict. ``None`` (the default) reads none; a value
        outside (0, 1) raises :class:`ReportInputError`.

    Returns
    -------
    pandas.DataFrame or Skipped
        One row per pair: ``pair``, ``a, b, c, d, n``, ``estimate`` (``|diff|``), ``diff``
        (error rate of the first minus the second) with ``diff_low``/``diff_high`` and
        ``adj_low``/``adj_high``, ``pvalue``, ``pvalue_adj``, ``reject``, ``better`` (the classifier
        with fewer errors, or ``"tie"``), ``few`` (``b + c <`` :data:`FEW_DISCORDANT`),
        ``interval_disagrees`` and ``verdict``. The attributes hold ``alpha``, ``adjust``, ``n``, ``error_rates`` and
        the names of the ``method`` (interval) and ``test``, ``identical_method`` (the interval
        of a pair whose error rates are equal on every case: ``interval`` on the cases, since the
        paired t interval of zero differences has zero width), and ``interval_adjust``. Skipped
        when fewer than two classifiers have predicted labels.
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", REPORT_ADJUSTMENTS)
    interval = check_choice(interval, "interval", tuple(INTERVAL_NAMES))
    delta = check_min_difference(min_difference)
    rates = data.error_rates()
    if len(rates) < 2:
        return Skipped(
            f"only {plural(len(rates), 'classifier')} with predicted labels; McNemar's test and the "
            "intervals compare the predicted labels of two classifiers."
        )
    binary = all(percase.is_binary(r) for r in rates.values())
    pairs = list(combinations(rates, 2))
    m = len(pairs)
    joint_intervals = adjust in JOINT_INTERVAL_ADJUSTMENTS
    level_adj = alpha / m if joint_intervals else alpha
    rows = []
    for i, j in pairs:
        kw = dict(binary=binary, interval=interval, interval_name=INTERVAL_NAMES[interval])
        one = percase.paired_error_difference(rates[i], rates[j], alpha=alpha, **kw)
        joint = percase.paired_error_difference(rates[i], rates[j], alpha=level_adj, **kw)
        rows.append({"pair": (i, j), "a": one.a, "b": one.b, "c": one.c, "d": one.d, "n": one.n,
                     "estimate": abs(one.diff), "diff": one.diff, "diff_low": one.low, "diff_high": one.high,
                     "adj_low": joint.low, "adj_high": joint.high, "pvalue": one.p})
    out = pd.DataFrame(rows)
    out["pvalue_adj"] = adjust_pvalues(out["pvalue"].to_numpy(), adjust)
    out["reject"] = out["pvalue_adj"] <= alpha
    out = out.sort_values(["estimate", "pvalue"], ascending=[False, True], kind="stable").reset_index(drop=True)
    out["better"] = [i if dv < 0 else (j if dv > 0 else "tie") for (i, j), dv in zip(out["pair"], out["diff"])]
    out["few"] = (out["b"] + out["c"]) < FEW_DISCORDANT
    # one verdict source per pair, chosen in advance: the adjusted test (``reject``). The interval
    # read beside it is the joint one under Holm and Bonferroni with more than one pair, else the
    # interval; where it falls on the other side of 0 the verdict says so (``interval_disagrees``)
    read_joint = joint_intervals and m > 1
    lows, highs = (out["adj_low"], out["adj_high"]) if read_joint else (out["diff_low"], out["diff_high"])
    excludes = ~((lows <= 0) & (highs >= 0))
    tested = (out["b"] + out["c"] > 0) & (out["diff"] != 0)
    out["interval_disagrees"] = tested & (excludes != out["reject"])
    which = verdict_interval_name(adjust, m)
    verdicts = []
    for (i, j), b, c, dv, rej, edge, p in zip(out["pair"], out["b"], out["c"], out["diff"], out["reject"],
                                             out["interval_disagrees"], out["pvalue"]):
        mark = f" (borderline: the {which} {'includes' if rej else 'excludes'} 0)" if edge else ""
        if edge and not rej and adjust in FDR_ADJUSTMENTS and m > 1 and p <= alpha:   # multiplicity, not borderline
            mark = f" (the {which} excludes 0: it does not allow for the {m} comparisons)"
        if b == 0 and c == 0:   # no case to test: the p-value of 1 is no verdict, and the table prints none
            verdicts.append("identical predictions: nothing to test" if binary else
                            f"identical error rates on every case: nothing to test ({INTERVAL_NAMES[interval]} "
                            "interval on the cases)")
        elif dv == 0:
            verdicts.append("not shown to differ (the same number of errors here)")
        elif rej:
            verdicts.append(f"{i if dv < 0 else j} makes fewer errors{mark}")
        else:
            verdicts.append(f"not shown to differ{mark}")
    out["verdict"] = verdicts
    # the margin is read against the same interval (an unadjusted interval beyond the margin beside
    # "not shown to differ" would contradict a verdict under Holm and Bonferroni)
    out["matters"] = [relevance(lo, hi, delta) for lo, hi in zip(lows, highs)]
    method = INTERVAL_NAMES[interval] if binary else "paired t (per-case error rates)"
    out.attrs.update(alpha=alpha, adjust=adjust, interval_adjust="bonferroni" if joint_intervals else "none",
                     n=data.n, interval=interval, method=method,
                     test="McNemar's mid-p test" if binary else "paired t-test on per-case error rates",
                     test_short="mid-p test" if binary else "paired t-test", level_adj=level_adj,
                     min_difference=delta, matters_joint=read_joint, identical_method=INTERVAL_NAMES[interval],
                     binary=binary, error_rates={name: float(r.mean()) for name, r in rates.items()})
    return out


def balanced_accuracy_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm",
                                 min_difference: float | None = None):
    """Section 3, beside McNemar's test: every pair's paired difference of balanced accuracy.

    McNemar's test counts every error alike, so on a skewed file it mostly compares the
    classifiers on the large class. Balanced accuracy (average recall, ``(TPR + TNR) /
    2``) weighs both classes equally; its paired difference, stratified by class, is
    :func:`evallib.report.balanced_accuracy_pairs` (per-case correctness rates, so
    repeats count once), adjusted for the number of pairs like section 3 (joint intervals
    under Holm and Bonferroni, unadjusted ones under the false-discovery-rate adjustments
    and ``"none"``) and read against ``min_difference`` when given (column ``matters``).

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Level of the stratified t-tests (Welch–Satterthwaite df), in (0, 1); ``low`` and
        ``high`` have coverage ``1 - alpha``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        Adjustment for the number of pairs, as in :func:`pairwise_comparison` (joint
        ``low_adj``/``high_adj`` under Holm and Bonferroni only).
    min_difference : float, optional
        The smallest difference in balanced accuracy that matters, in (0, 1); each joint
        interval ``low_adj``/``high_adj`` (Holm, Bonferroni, more than one pair; else
        ``low``/``high``) is read against it (column ``matters``). Default: none.

    Returns
    -------
    pandas.DataFrame or Skipped
        One row per pair ``a, b`` (file order): ``ba_a, ba_b, difference`` (``ba_a -
        ba_b``), ``se, df, statistic, pvalue, low, high``, ``alpha``, ``alpha_adj`` (the
        per-pair level of the adjusted interval), ``pvalue_adj``, ``reject_adj``,
        ``low_adj``, ``high_adj`` and ``matters``; ``attrs`` hold ``adjust``,
        ``interval_adjust``, ``alpha``, ``min_difference``, ``n_pos`` and ``n_neg``.
        Skipped with more than two classes or fewer than two
        classifiers with predicted labels.
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", REPORT_ADJUSTMENTS)
    delta = check_min_difference(min_difference)
    if data.multiclass:
        return Skipped("with more than two classes the balanced accuracy of section 2 is compared through "
                       "the pairs above; this table is for one positive class against the other.")
    if len(data.labels) < 2:
        return Skipped(f"only {plural(len(data.labels), 'classifier')} with predicted labels; the comparison needs two.")
    table = percase.balanced_accuracy_pairs(data, alpha=alpha, adjust=adjust)
    # read against the joint interval under Holm and Bonferroni, as section 3's error-rate table
    read_joint = adjust in FWER_ADJUSTMENTS and len(table) > 1
    lows, highs = (table["low_adj"], table["high_adj"]) if read_joint else (table["low"], table["high"])
    table["matters"] = [relevance(lo, hi, delta) for lo, hi in zip(lows, highs)]
    table.attrs.update(alpha=alpha, adjust=adjust, min_difference=delta, n_pos=data.n_pos, n_neg=data.n_neg,
                       test=percase.BALANCED_TEST, matters_joint=read_joint)
    return table


# --------------------------------------------------------------- the scores as results
@dataclass(frozen=True, eq=False)
class ScoreComparison:
    """The scores as results in their own right (issue 14, section 3).

    Attributes
    ----------
    auc : :func:`evallib.onetestset.auc_table`, each AUC with its DeLong interval.
    auc_pairs : :func:`evallib.onetestset.delong_pairwise` (DeLong & Clarke-Pearson's paired
        test, same multiplicity adjustment as the pairwise table), or None with one score.
    losses : :func:`evallib.onetestset.loss_table`, Brier score and log-loss where the scores
        are probabilities in [0, 1].
    loss_pairs : :func:`evallib.onetestset.loss_pairwise` on the per-case Brier losses, or
        None with fewer than two probability columns.
    notes : sentences (scores that are not probabilities, ...).
    alpha, adjust, positive : the settings.
    prevalence : the share of positive test cases, ``P / n`` (NaN if unknown): the prevalence
        forecast, which gives every case this probability, has Brier score
        ``prevalence * (1 - prevalence)``, the reference the summary reads the Brier scores against.
    identical : frozenset of frozensets, the pairs of score columns with identical scores on
        every row.
    reference_pairs : each probability column against the prevalence forecast, one row per
        column in the layout of :func:`evallib.onetestset.per_case_loss_pairwise` (``a`` the
        column, ``b`` :data:`PREVALENCE_FORECAST`, ``difference`` the column's Brier score minus
        the forecast's: positive is worse), the paired t-test on the per-case Brier losses, each
        column at level ``alpha`` on its own (the warning needs every column shown worse, an
        intersection-union claim, so nothing is adjusted); None without the prevalence.
    """

    auc: pd.DataFrame
    auc_pairs: pd.DataFrame | None
    losses: pd.DataFrame
    loss_pairs: pd.DataFrame | None
    notes: tuple[str, ...]
    alpha: float
    adjust: str
    positive: str
    prevalence: float = float("nan")
    identical: frozenset = frozenset()
    reference_pairs: pd.DataFrame | None = None

    def summary(self) -> str:
        """One or two sentences for the summary.

        Returns
        -------
        str
            The leader by AUC with its DeLong interval, and, with two or more scores, its
            lead over the second with the paired test's adjusted p-value; then the lowest
            Brier score among the probability columns.
        """
        level = level_text(self.alpha)
        est = dict(zip(self.auc["name"], self.auc["estimate"].astype(float)))
        groups = tie_groups(est.items())
        rows = self.auc.set_index("name")
        degenerate = {n: degenerate_auc(float(rows.loc[n, "estimate"]), float(rows.loc[n].get("se", math.nan)))
                      for n in rows.index}
        top = rows.loc[groups[0][0]]
        first = groups[0]
        if degenerate[first[0]]:
            interval = degenerate_interval_text(degenerate[first[0]], plural=len(first) > 1)
        else:
            interval = f"{level} DeLong interval{'s' if len(first) > 1 else ''} "
        if len(first) == 1:
            if not degenerate[first[0]]:
                interval += f"{top['low']:.3f} to {top['high']:.3f}" + _comma(auc_clipped(top, self.alpha))
            out = (f"Ranked by AUC (scores for {self.positive!r}), **{first[0]}** leads with "
                   f"{top['estimate']:.3f} ({interval}; random scores: 0.5)")
        else:
            if not degenerate[first[0]]:
                interval += "; ".join(f"{n}'s {rows.loc[n, 'low']:.3f} to {rows.loc[n, 'high']:.3f}"
                                      + _comma(auc_clipped(rows.loc[n], self.alpha)) for n in first[:LISTED])
            out = (f"Ranked by AUC (scores for {self.positive!r}), {join_names([f'**{n}**' for n in first], limit=LISTED)} "
                   f"have equal AUCs, {top['estimate']:.3f} each, the highest ({interval}; "
                   "random scores: 0.5)")
        if self.auc_pairs is not None and len(est) > 1 and len(first) == 1:
            a, b = top_two(groups)
            note = tie_note(groups, by="AUC", value=lambda n: f"{est[n]:.3f}", limit=LISTED)
            row = self.auc_pairs[((self.auc_pairs["a"] == a) & (self.auc_pairs["b"] == b))
                                 | ((self.auc_pairs["a"] == b) & (self.auc_pairs["b"] == a))]
            r = row.iloc[0]
            sign = 1.0 if r["a"] == a else -1.0
            lo, hi = sorted((sign * r["low"], sign * r["high"]))
            flat = [n for n in (a, b) if degenerate[n]]
            pair_flat = len(flat) == 2 or float(r.get("se", math.nan)) == 0.0
            joint = ""
            if self.adjust in FWER_ADJUSTMENTS and len(self.auc_pairs) > 1 and not pair_flat:
                j_lo, j_hi = sorted((sign * r["low_adj"], sign * r["high_adj"]))
                joint = (f"; the joint (Bonferroni) interval, which holds for all {len(self.auc_pairs)} pairs at "
                         f"once, is {j_lo:+.3f} to {j_hi:+.3f}")
            verdict = (f"the two differ at alpha = {self.alpha:g}" if bool(r["reject_adj"])
                       else f"not shown to differ at alpha = {self.alpha:g}")
            only = len(self.auc_pairs) == 1  # two score columns: nothing picked, nothing to adjust for
            why = ("the only pair" if only else
                   "unadjusted, for the leading pair, a pair picked by the data, so optimistic")
            rests = ""
            if len(flat) == 1:
                other = b if flat[0] == a else a
                rests = (f"; it rests on {other}'s variance alone, as {flat[0]}'s AUC of {est[flat[0]]:.3f} "
                        f"({degenerate[flat[0]]}) has DeLong variance 0")
            p_text = format_p(r["pvalue"]) if only else adjusted_p_text(r["pvalue_adj"], self.adjust)
            diff_interval = ("DeLong's interval of the difference is degenerate (both AUCs have DeLong "
                             f"variance 0), {why}" if pair_flat else
                             f"{level} DeLong interval of the difference {lo:+.3f} to {hi:+.3f}, {why}{joint}{rests}")
            out += ((f"; {note}: {a} is" if note else ";") +
                    f" ahead of {b} by {sign * r['difference']:.3f} ({diff_interval}; DeLong's paired test, "
                    f"{p_text}): {verdict}")
        out += "."
        probs = self.losses[self.losses["is_probability"]]
        if len(probs):
            lowest = tie_groups(zip(probs["name"], probs["brier"].astype(float)), higher_is_better=False)[0]
            brier = float(probs.set_index("name").loc[lowest[0], "brier"])
            if len(probs) == 1:
                out += (f" As probabilities, {lowest[0]}'s scores (the only column of probabilities) have "
                        f"Brier score {brier:.4f}")
            elif len(lowest) == 1:
                out += f" As probabilities, {lowest[0]} has the lowest Brier score, {brier:.4f}"
            else:
                out += (f" As probabilities, {join_names(lowest, limit=LISTED)} have equal Brier scores, "
                        f"{brier:.4f} each, the lowest")
            ref = self.prevalence_brier
            row = self._reference_row(lowest[0])
            if math.isfinite(ref) and row is not None:
                d, lo, hi = float(row["difference"]), float(row["low"]), float(row["high"])
                size = (f"{abs(d):.4f} {'worse' if d > 0 else 'better'}" if d != 0 else "equal to it")
                out += (f" (lower is better); against {self._reference_words()}, it is {size} "
                        f"({level_text(self.alpha)} interval of the difference, {lowest[0]}'s Brier score minus "
                        f"the forecast's, {lo:+.4f} to {hi:+.4f}, paired "
                        f"t-test over cases, {format_p(row['pvalue'])}): {self._reference_verdict(row)}")
            else:
                out += " (lower is better)"
            out += "."
        return out

    def _reference_words(self) -> str:
        return (f"the prevalence forecast, which gives every case the test set's own share of positive cases, "
                f"{pct(self.prevalence)}%, as its probability (the best constant forecast fitted on this test "
                f"set; Brier score {self.prevalence_brier:.4f})")

    def _reference_verdict(self, row: Any) -> str:
        at = f"at alpha = {self.alpha:g}"
        if not bool(row["reject"]):
            return f"not shown to differ from the prevalence forecast {at}"
        return f"{'worse' if float(row['difference']) > 0 else 'better'} than the prevalence forecast {at}"

    def _reference_row(self, name: str) -> Any:
        """The paired Brier comparison of column ``name`` with the prevalence forecast, or None."""
        rp = self.reference_pairs
        if rp is None or not len(rp) or name not in set(rp["a"]):
            return None
        return rp.set_index("a").loc[name]

    @property
    def prevalence_brier(self) -> float:
        """The Brier score of the prevalence forecast, ``prevalence * (1 - prevalence)`` (NaN if unknown)."""
        pi = self.prevalence
        return pi * (1.0 - pi) if math.isfinite(pi) else math.nan

    def warnings(self) -> tuple[str, ...]:
        """A sentence when every column of probabilities is shown worse than the prevalence
        forecast (which gives every case the test set's share of positive cases as its
        probability) at level ``alpha``, by the paired t-test on the per-case Brier losses
        (:attr:`reference_pairs`): as probabilities, none of them does better than knowing
        that share alone.

        Returns
        -------
        tuple of str
            One sentence, or empty.
        """
        probs = self.losses[self.losses["is_probability"]]
        ref = self.prevalence_brier
        if not len(probs) or not math.isfinite(ref):
            return ()
        rows = {n: self._reference_row(n) for n in probs["name"]}
        if not all(r is not None and bool(r["reject"]) and float(r["difference"]) > 0 for r in rows.values()):
            return ()
        brier = dict(zip(probs["name"], probs["brier"].astype(float)))
        k = len(brier)
        who = join_names([f"{n} ({v:.4f}; {format_p(rows[n]['pvalue'])})" for n, v in brier.items()], limit=LISTED)
        every = "The Brier score of" if k == 1 else "The Brier scores of"
        verb = "is" if k == 1 else "are both" if k == 2 else "are all"
        does = "it does" if k == 1 else "both do" if k == 2 else "all do"
        return (f"{every} {who} {verb} worse than {self._reference_words()}, at alpha = {self.alpha:g} "
                f"(paired t-test over cases against it): as probabilities, {does} worse than that share alone "
                "(the scores may still rank the cases well; see their AUC).",)


def score_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm"):
    """Each score column's AUC with its DeLong interval, their paired comparison, and losses.

    The AUC interval and the paired test are DeLong, DeLong & Clarke-Pearson's (1988), in
    the O(n log n) form of Sun & Xu (2014) (:mod:`evallib.onetestset._scoring`), with the same
    adjustment for the number of pairs as the pairwise table. Brier score and log-loss are
    computed where the scores are probabilities in [0, 1] (a sentence says which columns
    are not), with a paired t-test on the per-case Brier losses.

    When cases were predicted several times the cases stay the unit: the AUC compares every
    positive row with every negative row, rows weighted 1/(their case's rows), and its
    covariance is DeLong's on the per-case mean placements
    (:func:`evallib.resampling.delong_cases`, Obuchowski 1997); the losses are means
    over cases of each case's mean loss, and the paired t-test runs on those.

    With more than two classes and a score column per class for a classifier
    (``score_<name>_<class>``), :func:`class_score_comparison` instead.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Level of DeLong's and the Brier t-tests, in (0, 1); the AUC and difference
        intervals have coverage ``1 - alpha``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        Adjustment of the paired AUC tests and of the paired Brier tests, each for its
        number of pairs (:data:`evallib.ADJUSTMENTS`).

    Returns
    -------
    ScoreComparison, ClassScoreComparison or Skipped
        ``auc``, ``auc_pairs``, ``losses``, ``loss_pairs``, ``notes``, ``alpha``,
        ``adjust``, ``positive`` (:class:`ScoreComparison`); Skipped without score columns
        (with more than two classes: without a score column per class).
    """
    alpha = check_alpha(alpha)
    if data.multiclass and data.class_scores:
        return class_score_comparison(data, alpha=alpha, adjust=adjust)
    if data.multiclass:
        return Skipped(f"with {len(data.label_classes)} classes scores need one column per class "
                       "(score_<name>_<class>), and the file has none.")
    if not data.scores:
        return Skipped("the file has no score columns, so there are no rankings to compare.")
    scores = dict(data.scores)
    y = data.y
    if data.repeated:
        fit = percase.case_delong(data)
        auc = fit.table(alpha)
        pairs = fit.pairwise(alpha, adjust) if len(scores) > 1 else None
        losses, loss_pairs = _case_losses(data, alpha, adjust)
    else:
        auc = auc_table(y, scores, alpha=alpha)
        pairs = delong_pairwise(y, scores, alpha=alpha, adjust=adjust) if len(scores) > 1 else None
        losses = loss_table(y, scores)
        probs = int(losses["is_probability"].sum())
        loss_pairs = loss_pairwise(y, scores, alpha=alpha, adjust=adjust) if probs > 1 else None
    notes = [n + "." for n in losses["note"] if n]
    return ScoreComparison(auc=auc, auc_pairs=pairs, losses=losses, loss_pairs=loss_pairs,
                           notes=tuple(notes), alpha=alpha, adjust=adjust, positive=data.positive,
                           prevalence=data.n_pos / data.n,
                           reference_pairs=_prevalence_pairs(data, losses, alpha),
                           identical=frozenset(frozenset((a, b)) for a, b in combinations(scores, 2)
                                               if np.array_equal(np.asarray(scores[a]), np.asarray(scores[b]))))


@dataclass(frozen=True, eq=False)
class ClassScoreComparison:
    """K-class scores (a column per class): one-vs-rest AUCs and multi-class Brier score and log-loss.

    Attributes
    ----------
    auc : DataFrame, one row per classifier and class: ``name, class, estimate, se, low, high``
        (the AUC of that class's column against all other classes, DeLong's interval on the
        cases), ``n_pos, n_neg``.
    macro_auc : Series by classifier, the mean of its one-vs-rest AUCs over the classes
        (scikit-learn's ``roc_auc_score(..., multi_class="ovr", average="macro")``).
    losses : DataFrame in the layout of :func:`evallib.onetestset.loss_table`: the
        multi-class Brier score ``mean_i sum_k (p_ik - [y_i = k])^2`` and log-loss ``mean_i -log
        p_i,y_i`` (probabilities clipped at ``eps``), where the columns are probabilities
        (in [0, 1], summing to 1 per row).
    loss_pairs : the paired t-test on the per-case Brier scores of every pair of
        probabilistic classifiers (:func:`evallib.onetestset.loss_pairwise`'s layout), or None.
    notes : sentences (scores that are not probabilities, classes too small for an interval).
    alpha, adjust : the settings.
    """

    auc: pd.DataFrame
    macro_auc: pd.Series
    losses: pd.DataFrame
    loss_pairs: pd.DataFrame | None
    notes: tuple[str, ...]
    alpha: float
    adjust: str

    def summary(self) -> str:
        """One sentence for the summary.

        Returns
        -------
        str
            The leader by macro one-vs-rest AUC (and the second's), then the lowest
            multi-class Brier score with its lead over the second and the paired t-test's
            adjusted p-value.
        """
        groups = tie_groups(self.macro_auc.astype(float).items())
        macro = self.macro_auc
        k = int(self.auc["class"].nunique())
        first = groups[0]
        if len(first) == 1:
            lead = f"**{first[0]}** leads with {macro[first[0]]:.3f}"
            if len(groups) > 1:
                runners = groups[1]
                lead += (f" ({runners[0]}: {macro[runners[0]]:.3f})" if len(runners) == 1 else
                         f" ({join_names(runners, limit=LISTED)} have equal macro AUCs, "
                         f"{macro[runners[0]]:.3f} each, the second highest)")
        else:
            lead = (f"{join_names([f'**{n}**' for n in first], limit=LISTED)} have equal macro AUCs, "
                    f"{macro[first[0]]:.3f} each, the highest")
        out = f"By one-vs-rest AUC averaged over the {k} classes, {lead}; random scores give 0.5"
        probs = self.losses[self.losses["is_probability"]]
        if len(probs):
            brier = dict(zip(probs["name"], probs["brier"].astype(float)))
            places = tie_groups(brier.items(), higher_is_better=False)
            lowest = places[0]
            if len(lowest) > 1:
                out += (f". As probabilities, {join_names(lowest, limit=LISTED)} have equal multi-class "
                        f"Brier scores, {brier[lowest[0]]:.4f} each, the lowest (lower is better)")
            elif len(probs) == 1:
                out += (f". As probabilities, {lowest[0]}'s class scores (the only probability columns) have "
                        f"multi-class Brier score {brier[lowest[0]]:.4f} (lower is better)")
            else:
                out += (f". As probabilities, {lowest[0]} has the lowest multi-class Brier score, "
                        f"{brier[lowest[0]]:.4f} (lower is better)")
            if self.loss_pairs is not None and len(probs) > 1 and len(lowest) == 1:
                best, second = top_two(places)
                note = tie_note(places, by="multi-class Brier score", value=lambda n: f"{brier[n]:.4f}",
                                limit=LISTED)
                lp = self.loss_pairs
                pair = {best, second}
                r = lp[[{a, b} == pair for a, b in zip(lp["a"], lp["b"])]].iloc[0]
                sign = -1.0 if r["a"] == best else 1.0  # difference is a - b: best's advantage
                lo, hi = sorted((sign * r["low"], sign * r["high"]))
                # one pair of probability columns: a family of one, nothing to adjust (as section 3 says)
                p_text = (f"{format_p(r['pvalue'])}, one comparison, so no adjustment is needed" if len(lp) == 1
                          else adjusted_p_text(r['pvalue_adj'], self.adjust))
                out += ((f"; {note}: it is" if note else ",") +
                        f" {sign * r['difference']:.4f} below {second}'s ({level_text(self.alpha)} interval "
                        f"{lo:+.4f} to {hi:+.4f}, paired t-test, {p_text})")
        return out + "."


def class_score_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm"):
    """K classes with a score column per class: one-vs-rest AUCs, multi-class Brier score and log-loss.

    For each classifier and class ``k``, the AUC of column ``k`` for class ``k`` against all
    the others, with DeLong's interval computed on the cases
    (:func:`evallib.resampling.delong_cases`; a class with fewer than two cases, or with
    fewer than two others, gets no interval); their unweighted mean over the classes is the
    macro one-vs-rest AUC (Fawcett's class-reference AUC, averaged as scikit-learn's
    ``multi_class="ovr", average="macro"``).
    Where the columns are probabilities (every value in [0, 1], each row summing to 1
    within 1e-3), the multi-class Brier score (Brier 1950: the sum over classes of the
    squared difference to the 0/1 outcome) and the log-loss (the probability of the true
    class clipped at ``eps``, as scikit-learn does) are the means over cases of each case's
    mean loss, and every pair is compared by the paired t-test on the per-case Brier
    scores, with ``adjust`` over the pairs.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Level of the paired Brier t-tests, in (0, 1); the one-vs-rest AUC intervals have
        coverage ``1 - alpha``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        Adjustment of the paired Brier tests for the number of pairs
        (:data:`evallib.ADJUSTMENTS`).

    Returns
    -------
    ClassScoreComparison or Skipped
        ``auc`` (per classifier and class), ``macro_auc``, ``losses``, ``loss_pairs``,
        ``notes``, ``alpha`` and ``adjust``; Skipped with two classes or without a score
        column per class.

    References
    ----------
    G. W. Brier (1950), Monthly Weather Review 78, 1-3; T. Fawcett (2006), An introduction to ROC
    analysis, Pattern Recognition Letters 27, 861-874, section 10 (one class against the rest);
    DeLong, DeLong & Clarke-Pearson (1988).
    """
    alpha = check_alpha(alpha)
    if not data.multiclass or not data.class_scores:
        return Skipped("the file has no score columns per class (score_<name>_<class>).")
    classes = data.label_classes
    k = len(classes)
    z = float(stats.norm.isf(alpha / 2.0))
    rows, notes = [], []
    case_truth = data.case_truth
    for c, cls in enumerate(classes):
        y_rows = data.truth == c
        n_pos = int(np.count_nonzero(case_truth == c))
        n_neg = data.n - n_pos
        cols = {name: m[:, c] for name, m in data.class_scores.items()}
        if n_pos >= 2 and n_neg >= 2:
            fit = percase.case_delong(data, y_rows, cols)
            for name, est, se in zip(fit.names, fit.auc, fit.se):
                rows.append({"name": name, "class": cls, "estimate": float(est), "se": float(se),
                             "low": max(0.0, est - z * se), "high": min(1.0, est + z * se),
                             "n_pos": n_pos, "n_neg": n_neg})
        else:
            for name, col in cols.items():
                rows.append({"name": name, "class": cls, "estimate": percase.case_auc(data, col, y_rows),
                             "se": float("nan"), "low": float("nan"), "high": float("nan"),
                             "n_pos": n_pos, "n_neg": n_neg})
    small = [cls for c, cls in enumerate(classes) if not 2 <= np.count_nonzero(case_truth == c) <= data.n - 2]
    if small:
        notes.append(f"{len(small)} class(es) with fewer than two cases get an AUC but no interval.")
    auc = pd.DataFrame(rows)
    macro = auc.groupby("name", sort=False)["estimate"].mean()
    loss_rows, brier = [], {}
    onehot = np.eye(len(data.classes))[data.truth][:, :k]
    for name, m in data.class_scores.items():
        ok = bool(np.all((m >= 0) & (m <= 1)) and np.allclose(m.sum(axis=1), 1.0, atol=1e-3))
        row = {"name": name, "is_probability": ok, "brier": float("nan"), "log_loss": float("nan"),
               "n_clipped": 0, "note": ""}
        if ok:
            b = data.per_case(((m - onehot) ** 2).sum(axis=1))
            p_true = m[np.arange(m.shape[0]), data.truth]  # the truth is always a label-column class
            q = np.clip(p_true, LOG_LOSS_EPS, 1.0)
            brier[name] = b
            row.update(brier=float(b.mean()), log_loss=float(data.per_case(-np.log(q)).mean()),
                       n_clipped=int(np.count_nonzero(p_true < LOG_LOSS_EPS)))
        else:
            row["note"] = (f"{name}'s class scores are not probabilities (values outside [0, 1], or rows not "
                           "summing to 1), so it gets no Brier score or log-loss")
            notes.append(row["note"] + ".")
        loss_rows.append(row)
    losses = pd.DataFrame(loss_rows)
    loss_pairs = per_case_loss_pairwise(brier, loss="brier", alpha=alpha, adjust=adjust) if len(brier) > 1 else None
    return ClassScoreComparison(auc=auc, macro_auc=macro, losses=losses, loss_pairs=loss_pairs,
                                notes=tuple(notes), alpha=alpha, adjust=adjust)


PREVALENCE_FORECAST = "prevalence forecast"


def _prevalence_pairs(data: Predictions, losses: pd.DataFrame, alpha: float) -> pd.DataFrame | None:
    """Each probability column against the prevalence forecast (every row gets ``P / n``, the
    share of positive cases): the paired t-test on the per-case Brier losses
    (:func:`evallib.onetestset.per_case_loss_pairwise`), one column at a time, unadjusted."""
    names = [n for n, ok in zip(losses["name"], losses["is_probability"]) if ok]
    if not names or data.n < 2:
        return None
    constant = np.full(len(data.y), data.n_pos / data.n)
    ref = data.per_case(per_case_loss(data.y, constant, loss="brier"))
    rows = [per_case_loss_pairwise({n: data.per_case(per_case_loss(data.y, data.scores[n], loss="brier")),
                                    PREVALENCE_FORECAST: ref}, loss="brier", alpha=alpha, adjust="none")
            for n in names]
    return pd.concat(rows, ignore_index=True)


def _case_losses(data: Predictions, alpha: float, adjust: str) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Brier score and log-loss with each case weighing 1 (the mean over cases of each case's mean
    loss), and the paired t-test on the per-case mean Brier losses, in the layout of
    :func:`evallib.onetestset.loss_table` and :func:`~evallib.onetestset.loss_pairwise`."""
    losses = loss_table(data.y, data.scores)
    brier: dict[str, np.ndarray] = {}
    for i, name in enumerate(losses["name"]):
        if losses.at[i, "is_probability"]:
            brier[name] = data.per_case(per_case_loss(data.y, data.scores[name], loss="brier"))
            losses.at[i, "brier"] = float(brier[name].mean())
            losses.at[i, "log_loss"] = float(data.per_case(per_case_loss(data.y, data.scores[name],
                                                                         loss="log")).mean())
    if len(brier) < 2:
        return losses, None
    return losses, per_case_loss_pairwise(brier, loss="brier", alpha=alpha, adjust=adjust)


# --------------------------------------------------------------------- section 4
#: Above this many cases of the smaller class the exact law of the AUC is computed through
#: its characteristic function (:func:`evallib.onetestset.null_cdf`), whose
#: absolute error (about 1e-16 per term) leaves tail probabilities below
#: :data:`AUC_TAIL_FLOOR` unresolved; such a p-value is read off the normal law of U.
AUC_EXACT_RESOLVED = 120
AUC_TAIL_FLOOR = 1e-12


@dataclass(frozen=True, eq=False)
class ChanceCheck:
    """Section 4: is the winner better than the best of ``C`` random classifiers?

    Attributes
    ----------
    table : DataFrame, one row per metric (``AUC``, ``best accuracy``, ``best F1``):
        ``winner``, ``tied_with`` (the other classifiers with the same value, in the file's
        order: the texts name them, so that a tie for first is never settled by the order of
        the columns), ``value``, ``from`` (how the value was obtained), ``critical``
        (Forman & Cohen's m*), ``pvalue`` (the chance that the best of ``C`` random rankings
        scores at least ``value``), ``beats_chance`` (``value > critical``) and ``compared``
        (``""``, or, when the values compared for the metric are of two kinds, at the best
        threshold of some classifiers' scores and at others' own predicted labels, what each
        classifier's value is computed from: the winner is then the highest of
        values that are not like with like, and the texts say so).
    C, P, N, alpha : the null hypothesis's settings.
    notes : sentences about metrics that could not be judged.

    The ``law`` column says how ``F`` was computed: ``"exact"``, or ``"normal
    approximation"`` for the AUC of a test set with ``P * N`` above
    :data:`evallib.onetestset.MAX_LATTICE` (:func:`auc_normal_critical`).
    """

    table: pd.DataFrame
    C: int
    P: int
    N: int
    alpha: float
    notes: tuple[str, ...] = ()

    def formatted(self) -> pd.DataFrame:
        """The table as text.

        Returns
        -------
        pandas.DataFrame
            Indexed by metric, all text: ``winner``, ``score`` (3 decimals), ``from``, the
            critical value (headed with ``alpha`` and ``C``), ``p (against the best of C = <C> random classifiers)``, ``better than
            chance`` (``"yes"``/``"no"``) and ``law``.
        """
        t = self.table
        return pd.DataFrame({
            "winner": [_winners(w, tied) for w, tied in zip(t["winner"], t["tied_with"])], "score": t["value"].map(lambda v: f"{v:.3f}"), "from": t["from"],
            f"critical value (alpha = {self.alpha:g}, C = {self.C})": t["critical"].map(lambda v: f"{v:.3f}"),
            f"p (against the best of C = {self.C} random classifiers)": t["pvalue"].map(pvalue_cell),
            "better than chance": t["beats_chance"].map({True: "yes", False: "no"}),
            "law": t["law"],
        }, index=t.index)

    def summary(self) -> str:
        """One sentence for section 7.

        Returns
        -------
        str
            ``C``, ``P`` and ``N``, then each metric's winner, value, critical value,
            p-value and law, and the notes.
        """
        parts = []
        for metric, r in self.table.iterrows():
            verdict = "beats" if r["beats_chance"] else "does not beat"
            measure = metric[5:] if metric.startswith("best ") else metric
            its = "their" if r["tied_with"] else "its"
            how = "" if metric == "AUC" else (
                f" at the best threshold of {its} scores (an optimistic figure: the threshold is "
                f"chosen on this test set, so it is not the classifier's {measure})"
                if r["from"].startswith("best") else f" at {its} own threshold")
            parts.append(f"{_winners(r['winner'], r['tied_with'], own=True)} {measure} "
                         f"of {r['value']:.3f}{how} {verdict} the critical value "
                         f"{r['critical']:.3f} ({format_p(r['pvalue'], alpha=self.alpha)}, {r['law']}"
                         f"{self._compared(r)})")
        text = (f"Against the best of C = {self.C} random classifiers on {plural(self.P, 'positive')} "
                f"and {plural(self.N, 'negative')} ({self._what_is_tested()}): "
                + "; ".join(parts) + ".")
        return " ".join([text, *self.notes])

    def headline(self) -> str:
        """One sentence for the report's summary: the verdicts, with the AUC (an honest figure)
        but without the best-threshold accuracy and F1, which are optimistic (the threshold
        is chosen on the test set) and stay in their section.

        Returns
        -------
        str
            Each metric's verdict (beats chance or not) with its p-value; the AUC with the
            winner's value, the other metrics without it; then the notes.
        """
        said = []
        for metric, r in self.table.iterrows():
            verdict = "beats chance" if r["beats_chance"] else "does not beat chance"
            who = _winners(r["winner"], r["tied_with"], own=True)
            if metric == "AUC":
                # with repeated cases the check ranks each case's mean score: not section 4's pooled AUC
                of = (" of each case's mean score over its repeats (not section 4's AUC over every prediction)"
                      if "mean score" in str(r["from"]) else "")
                said.append(f"the best AUC{of} ({who}, {r['value']:.3f}) {verdict} "
                            f"({format_p(r['pvalue'], alpha=self.alpha)})")
            else:
                measure = metric[5:] if metric.startswith("best ") else metric
                its = "their" if r["tied_with"] else "its"
                mean = " (each case's mean score over its repeats)" if "mean score" in str(r["from"]) else ""
                how = (f" at the best threshold of {its} scores{mean} (an optimistic figure, in section 5)"
                       if str(r["from"]).startswith("best") else f" at {its} own threshold")
                said.append(f"the best {measure}, {who}{how}, {verdict} ({format_p(r['pvalue'], alpha=self.alpha)}"
                            f"{self._compared(r)})")
        return (f"Against the best of C = {self.C} random classifiers ({self._what_is_tested()}): "
                + "; ".join(said) + "." + "".join(f" {n}" for n in self.notes))

    def _compared(self, r: Any) -> str:
        """``"; the F1s compared are not like with like: ..."`` when the metric's values mix two kinds, else ``""``."""
        compared = str(r.get("compared", "") or "")
        return f"; {compared}" if compared else ""

    def _what_is_tested(self) -> str:
        """What the critical value allows for and what it does not test, for both sentences."""
        return (f"Forman & Cohen, alpha = {self.alpha:g}: the critical value allows for picking the best of "
                f"C = {self.C} classifiers on the same test set, and it tests the winner against random rankings, "
                "not against the other classifiers")


def _winners(winner: str, tied: tuple[str, ...], *, own: bool = False) -> str:
    """The winner of a chance-check metric, with those whose value equals its: ``"a"``, ``"a (equal to b)"``;
    ``own``: ``"a's"``, ``"a's, equal to b's"``."""
    if own:
        others = [n + "'s" for n in tied]
        return f"{winner}'s" + (f", equal to {join_names(others, limit=LISTED)}" if tied else "")
    return winner + (f" (equal to {join_names(tied, limit=LISTED)})" if tied else "")


def _mixed_sources(metric: str, candidates: list[tuple[str, float, str]], data: Predictions) -> str:
    """What each value of a chance-check metric is computed from, when they are of two kinds.

    ``candidates`` are ``(name, value, how)`` with ``how`` starting ``"best threshold"`` (scores) or
    ``"its predicted labels"``. When both kinds occur, the winner is the highest of values that are
    not like with like (a best threshold can only raise a classifier's figure above its labels'),
    and the clause names every classifier and the kind of its value, and which classifiers' own labels are set aside
    for their scores; ``""`` when all are of one kind.
    """
    scored = [(n, v) for n, v, how in candidates if how.startswith("best")]
    labelled = [(n, v) for n, v, how in candidates if not how.startswith("best")]
    if not scored or not labelled:
        return ""
    measure = metric[5:] if metric.startswith("best ") else metric
    mean = " (each case's mean score)" if data.repeated else ""

    def values(group: list[tuple[str, float]]) -> str:
        # names only: the best-threshold figures are optimistic and the summary leaves them to section 5
        return join_names([f"{n}'s" for n, _ in group], limit=LISTED)

    set_aside = [n for n, _ in scored if n in data.labels]
    aside = (f" ({join_names(set_aside, limit=LISTED)} {'has' if len(set_aside) == 1 else 'have'} predicted labels "
             f"too, whose {measure} of section 2 is set aside for the scores)") if set_aside else ""
    return (f"the {measure} values compared are not like with like: {values(scored)} at the best threshold of "
            f"{'its' if len(scored) == 1 else 'their'} scores{mean}{aside}, {values(labelled)} at "
            f"{'its' if len(labelled) == 1 else 'their'} own predicted labels, and a best threshold can only "
            f"raise a classifier's {measure}")


def chance_check(data: Predictions, measures: pd.DataFrame, *, classifiers_tried: int | None = None,
                 alpha: float = 0.05):
    """Section 4: Forman & Cohen's critical values for the winner's AUC, accuracy and F1.

    Under the null hypothesis each of the ``C`` classifiers tried ranks the test cases at
    random; the winner is better than chance at level ``alpha`` when its score exceeds
    ``m* = F^-1((1 - alpha)^(1/C))`` and its p-value is the chance that the best of ``C``
    random rankings scores at least as much (:func:`evallib.onetestset.judge_winner`, exact).

    Each classifier's best accuracy and best F-measure are taken over all thresholds of
    its scores (:func:`best_over_thresholds`), as the null hypothesis does; a classifier
    given only by predicted labels contributes its accuracy and F-measure at its own
    threshold, which can only be lower than its best, so its test is conservative. The
    winner of each metric is the classifier with the highest value (ties: the earlier in
    the file, the others named in ``tied_with``). The AUC row needs at least one score column.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    measures : pandas.DataFrame
        The table of :func:`classifier_measures` for ``data`` (its ``AUC``, ``accuracy``
        and ``F1`` columns are read).
    classifiers_tried : int, optional
        ``C``, how many classifiers were tried before these were picked; at least the
        number in the file, which is the default.
    alpha : float, default 0.05
        Level of Forman & Cohen's test, in (0, 1).

    Returns
    -------
    ChanceCheck or Skipped
        ``table``, ``C``, ``P``, ``N``, ``alpha`` and ``notes``; Skipped with more than two
        classes.
    """
    alpha = check_alpha(alpha)
    if data.multiclass:
        return Skipped(f"Forman & Cohen's null hypothesis ranks the cases for one positive class; with "
                       f"{len(data.classes)} classes there is none.")
    k = len(data.classifiers)
    if classifiers_tried is None:
        C = k
    else:
        C = check_count(classifiers_tried, "classifiers_tried", minimum=1)
        if C < k:
            raise ReportInputError(
                f"classifiers_tried must be at least the {k} classifiers in the file, got {C}."
            )
    P, N = data.n_pos, data.n_neg
    y = data.case_y
    candidates: dict[str, list[tuple[str, float, str]]] = {"AUC": [], "best accuracy": [], "best F1": []}
    mean = " (each case's mean score)" if data.repeated else ""
    for name in data.classifiers:
        if name in data.scores:
            score = data.per_case(data.scores[name])
            acc, f1 = best_over_thresholds(y, score)
            auc = _auc(y, score) if data.repeated else float(measures.at[name, "AUC"])
            candidates["AUC"].append((name, auc, "scores" + mean))
            candidates["best accuracy"].append((name, acc, f"best threshold of its scores{mean} (optimistic)"))
            candidates["best F1"].append((name, f1, f"best threshold of its scores{mean} (optimistic)"))
        else:
            candidates["best accuracy"].append((name, float(measures.at[name, "accuracy"]),
                                                "its predicted labels"))
            candidates["best F1"].append((name, float(measures.at[name, "F1"]), "its predicted labels"))
    rows, notes = [], []
    # labels that beat every threshold on their own scores are another classifier than the scores
    # (score_warnings says so): the check judges the scores, so say the labels are not judged here
    beyond = [(name, float(measures.at[name, "accuracy"]), acc) for name, acc, how in candidates["best accuracy"]
              if name in data.labels and how.startswith("best")
              and float(measures.at[name, "accuracy"]) > acc + 1e-12]
    if beyond:
        who = join_names([f"{n} ({a:.3f} accuracy, against {b:.3f} at its scores' best threshold)"
                          for n, a, b in beyond],
                         limit=LISTED)
        notes.append(f"The predicted labels of {who} are more accurate than any threshold on the scores: this "
                     "check judges the scores, and those labels, another classifier than the scores (as section 2's "
                     "warning says), are not judged against chance here.")
    too_big = P * N > MAX_LATTICE
    for metric, key in (("AUC", "auc"), ("best accuracy", "accuracy"), ("best F1", "f1")):
        if not candidates[metric]:
            continue
        winners = tie_groups((c[0], c[1]) for c in candidates[metric])[0]  # a tie for first is said
        name, value, how = next(c for c in candidates[metric] if c[0] == winners[0])
        value_in = min(max(value, 0.0), 1.0)
        if too_big and key == "auc":
            crit, p = auc_normal_critical(value_in, P, N, C=C, alpha=alpha)
            law, significant = "normal approximation", value_in > crit + 1e-9
        elif too_big and key == "f1":
            notes.append(
                f"{name}'s best F1 of {value:.3f} is not judged: the exact law of the best F-measure "
                f"needs P * N <= {MAX_LATTICE:,}, and this test set has {P * N:,}."
            )
            continue
        else:
            verdict = judge_winner(key, value_in, P, N, C=C, alpha=alpha)
            crit, p, significant = verdict.critical_value, verdict.pvalue, verdict.reject
            law = "exact" if key != "accuracy" or P + N <= 2000 else "exact, in log space"
            if key == "auc" and min(P, N) > AUC_EXACT_RESOLVED and p < AUC_TAIL_FLOOR:
                # the exact law's far tail is below its resolution: read it off the normal law
                p = auc_normal_critical(value_in, P, N, C=C, alpha=alpha)[1]
                law = "exact; a tail this far out from the normal approximation"
        rows.append({"metric": metric, "winner": name, "tied_with": tuple(winners[1:]), "value": value, "from": how,
                     "critical": crit, "pvalue": p, "beats_chance": bool(significant), "law": law,
                     "compared": _mixed_sources(metric, candidates[metric], data)})
    table = pd.DataFrame(rows, columns=["metric", "winner", "tied_with", "value", "from", "critical", "pvalue",
                                        "beats_chance", "law", "compared"]).set_index("metric")
    return ChanceCheck(table=table, C=C, P=P, N=N, alpha=alpha, notes=tuple(notes))


# --------------------------------------------------------------------- section 5
#: The F-measure bootstrap's interval, named with its source.
BOOTSTRAP_METHOD = "percentile bootstrap (over the test cases; Keller, Bengio & Wong 2005)"
#: Why the leaders' bootstrap interval is optimistic: the pair was picked by the data.
PICKED_PAIR = ("unadjusted, for the leading pair, a pair picked by the data, so optimistic: "
               "it does not allow for the choice of the pair")
#: The same place when only two classifiers were there to compare: nothing was picked.
ONLY_PAIR = "the only pair, so nothing was picked"


@renamed_fields(reps="n_resamples")
@dataclass(frozen=True)
class F1Comparison:
    """Section 5: the paired bootstrap of the F1 difference of the top two classifiers.

    Attributes
    ----------
    best, second : the classifiers with the highest and second-highest F1 on the test set.
    f1_best, f1_second : their F1.
    difference : ``f1_best - f1_second`` (>= 0).
    low, high : the ``1 - alpha`` percentile interval of the bootstrap replicates of the
        difference.
    share_best_better : share of the bootstrap resamples in which ``best`` has the higher F1
        (Keller, Bengio & Wong's "confidence" in the observed winner, eq. 13): a description of
        the resampling, not the probability that ``best`` is the better classifier.
    share_tied : share of resamples in which the two F1 are equal.
    n_resamples, alpha : the bootstrap's settings.
    measure : the measure compared, ``"F1"`` (two classes) or ``"macro-F1"``.
    places : the first two places by the measure (:func:`~evallib.report._prose.tie_groups`,
        each a tuple of names in the file's order): when three or more tie for first, or two or
        more for second, the text names them all and says which two were compared.
    n_classifiers : how many classifiers with predicted labels the file holds (0 if unknown):
        with exactly 2 the pair is the only one and nothing was picked by the data.
    n_discordant : the test cases on which the two classifiers' predictions differ (-1 if
        unknown): only they move the difference, and with fewer than :data:`FEW_DISCORDANT`
        the replicates take few values and the percentile interval is unreliable.
    seed : the integer seed of the resampling, or None (none given, or a generator).
    low_mc_se, high_mc_se : Monte Carlo standard errors of the interval's two ends
        (:func:`_percentile_mc_se`; NaN when unknown): a re-run with another seed moves each end
        by about this much.
    """

    best: str
    second: str
    f1_best: float
    f1_second: float
    difference: float
    low: float
    high: float
    share_best_better: float
    share_tied: float
    n_resamples: int
    alpha: float
    measure: str = "F1"
    places: tuple[tuple[str, ...], ...] = ()
    n_classifiers: int = 0
    n_discordant: int = -1
    seed: int | None = None
    low_mc_se: float = math.nan
    high_mc_se: float = math.nan

    @property
    def ends_mc_words(self) -> str:
        """``"Monte Carlo standard errors of its ends 0.004 and 0.006"``, or ``""`` when unknown."""
        if not (math.isfinite(self.low_mc_se) and math.isfinite(self.high_mc_se)):
            return ""
        return f"Monte Carlo standard errors of its ends {_mc_se_text(self.low_mc_se)} and {_mc_se_text(self.high_mc_se)}"

    @property
    def end_near_zero(self) -> bool:
        """An end of the interval lies within two Monte Carlo standard errors of 0 (and is not 0):
        another seed could put it on the other side, so the verdict could turn."""
        return any(math.isfinite(se) and v != 0.0 and abs(v) <= 2.0 * se
                   for v, se in ((self.low, self.low_mc_se), (self.high, self.high_mc_se)))

    @property
    def picked(self) -> str:
        """Why the interval is unadjusted: the leading pair of three or more, or the only pair of two
        (``n_classifiers`` 0, unknown, reads as picked)."""
        return ONLY_PAIR if self.n_classifiers == 2 else PICKED_PAIR

    @property
    def tie(self) -> str:
        """The clause that says a tie for first or second place and which two were compared, or ``""``."""
        if not self.places:
            return ""
        return tie_note([list(p) for p in self.places], by=self.measure, value=lambda n: f"{self.f1_best:.3f}"
                        if n in self.places[0] else f"{self.f1_second:.3f}", limit=LISTED)

    @property
    def unreliable(self) -> str:
        """Why the percentile interval is unreliable here, or ``""``: few discordant cases
        (fewer than :data:`FEW_DISCORDANT`) or an endpoint exactly 0."""
        why = self._unreliable_reasons()
        if not why:
            return ""
        return "the bootstrap interval is unreliable here: " + "; ".join(why)

    def _unreliable_reasons(self) -> list[str]:
        why = []
        if 0 <= self.n_discordant < FEW_DISCORDANT:
            why.append(f"the two classifiers' predictions differ on only {plural(self.n_discordant, 'test case')} "
                       f"(fewer than {FEW_DISCORDANT}), so each resample's difference turns on how many of those few "
                       "cases it happens to draw, and the percentile interval's coverage is not assured")
        if (self.low == 0.0) != (self.high == 0.0):
            why.append("an endpoint of the interval is exactly 0, so whether it excludes 0 turns on single "
                       "resamples")
        return why

    @property
    def picked_by_data(self) -> bool:
        """Whether the two compared are the leaders of three or more (``n_classifiers`` 0, unknown, reads
        as picked): a pair chosen because it looks best, for which the unadjusted interval is optimistic."""
        return self.n_classifiers != 2

    @property
    def verdict_drawn(self) -> bool:
        """Whether the text draws a verdict from the interval: not where it is :attr:`unreliable`, and not
        for a pair :attr:`picked_by_data` (its unadjusted interval describes the difference; a verdict on it
        would not allow for the choice of the pair)."""
        return not self.unreliable and not self.picked_by_data

    def _seed_caveat(self) -> str:
        """After a verdict: that an end within two Monte Carlo standard errors of 0 makes it depend on the seed."""
        if not self.end_near_zero:
            return ""
        return (" (an end lies within two Monte Carlo standard errors of 0, so another seed could turn this "
                "verdict: more resamples would settle it)")

    def _no_verdict(self) -> str:
        """The sentence that takes the place of the verdict where the interval is unreliable or the pair
        was picked by the data."""
        by = "F-measure" if self.measure == "F1" else self.measure
        why = []
        if self._unreliable_reasons():
            why.append(f"the bootstrap interval is unreliable here, as {' and '.join(self._unreliable_reasons())}")
        if self.picked_by_data:
            of = (f"of {self.n_classifiers} classifiers with predicted labels" if self.n_classifiers > 2 else
                  "of the classifiers")
            why.append(f"the two are the leaders {of}, a pair picked by the data, and the interval, unadjusted, does "
                       "not allow for that choice, so it describes the difference and does not test it")
        return (f"{'; '.join(why)}; no verdict at alpha = {self.alpha:g} is drawn from it, and the report has no "
                f"other test of the {by}")

    @property
    def mc_error(self) -> float:
        """Monte Carlo standard error of ``share_best_better``, ``sqrt(s (1 - s) / n_resamples)``."""
        s = self.share_best_better
        return math.sqrt(s * (1.0 - s) / self.n_resamples)

    def _tied_mc_words(self) -> str:
        """The Monte Carlo standard error of the share of tied resamples (:func:`_share_mc_se_text`)."""
        return _share_mc_se_text(self.share_tied, self.n_resamples)

    def _share_words(self) -> str:
        """The share with its Monte Carlo error and the seed, in the one rounding of :func:`_share`."""
        seed = f"seed {self.seed}" if self.seed is not None else "no integer seed, so a re-run draws other resamples"
        s, n = self.share_best_better, self.n_resamples
        if s in (0.0, 1.0):
            # no resample went the other way: the Monte Carlo error sqrt(s(1-s)/n) is 0, so the rule of
            # three bounds the share over endless resamples instead (3/n, 95%; Hanley & Lippman-Hand 1983)
            bound = (f"at least {100 * (1 - 3 / n):.2f}%" if s == 1.0 else f"at most {100 * 3 / n:.2f}%")
            return (f"{'all' if s == 1.0 else 'none'} of the {n:,} resamples (the share over endless resamples is "
                    f"{bound} at 95% confidence, the rule of three, 3/{n:,}; {seed})")
        return (f"{_share(self.share_best_better)} of the {self.n_resamples:,} resamples (Monte Carlo standard "
                f"error {_share_mc_se_text(s, n)}; {seed})")

    @property
    def reject(self) -> bool:
        """The interval excludes 0 (the bootstrap's decision at level ``alpha``; the report's texts
        draw no verdict from it where it is :attr:`unreliable`, see :attr:`verdict_drawn`)."""
        return self.excludes_zero

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval excludes 0 (the two differ at level ``alpha`` by the bootstrap)."""
        return self.low > 0 or self.high < 0

    def text(self) -> str:
        """The result as deterministic plain text.

        Returns
        -------
        str
            Three lines: both classifiers' measure; the difference with its bootstrap
            interval and the number of resamples; the shares of resamples in which
            ``best`` is higher and in which they tie, and the verdict (where the interval is
            :attr:`unreliable`, why, and that no verdict is drawn from it). With identical
            predictions (no discordant case), that the two are equal in every resample by
            construction, with no share or Monte Carlo bound.
        """
        if self.n_discordant == 0:   # identical predictions: every resample gives the same two values
            tie = self.tie
            return ((f"{tie}\n" if tie else "") +
                    f"{self.measure} of {self.best}: {self.f1_best:.3f}; {self.measure} of {self.second}: "
                    f"{self.f1_second:.3f}\n"
                    "their predictions are identical on every test case, so the two are equal in every one of the "
                    f"{self.n_resamples:,} resamples by construction: the bootstrap has no difference to resample, "
                    "and its interval of zero width says nothing about precision")
        level = level_text(self.alpha)
        if not self.verdict_drawn:
            verdict = self._no_verdict()
        elif self.excludes_zero:
            verdict = f"the interval excludes 0: the two differ at alpha = {self.alpha:g}{self._seed_caveat()}"
        else:
            verdict = f"the interval includes 0: not shown to differ at alpha = {self.alpha:g}{self._seed_caveat()}"
        d = distinct_digits(self.low, self.high, 3) if self.low != self.high else 3
        ends = f"; {self.ends_mc_words}" if self.ends_mc_words else ""
        tied_se = f", Monte Carlo standard error {self._tied_mc_words()}" if self.share_tied > 0 else ""
        tie = self.tie
        return (
            (f"{tie}\n" if tie else "") +
            f"{self.measure} of {self.best}: {self.f1_best:.3f}; {self.measure} of {self.second}: "
            f"{self.f1_second:.3f}\n"
            f"difference {self.difference:+.{d}f}, {level} {BOOTSTRAP_METHOD} interval "
            f"[{self.low:+.{d}f}, {self.high:+.{d}f}] ({self.n_resamples:,} resamples of the test cases{ends}; "
            f"{self.picked})\n"
            f"in {self._share_words()} {self.best}'s {self.measure} is the higher "
            f"(in {_share(self.share_tied)} the two are equal{tied_se}): a share of resamples, not the probability that "
            f"{self.best} is the better classifier; {verdict}"
        )

    def summary(self) -> str:
        """One sentence for section 7.

        Returns
        -------
        str
            The two leaders and the difference with its bootstrap interval (whether it
            excludes 0) and the shares of resamples; a tie in every resample is said so. Where
            the interval is :attr:`unreliable` no verdict is drawn from it, and the sentence
            says so and why.
        """
        level = level_text(self.alpha)
        by = "F-measure" if self.measure == "F1" else self.measure
        tie = self.tie
        lead = f"{tie}: " if tie else ""
        if self.low == self.high == 0.0:
            why = ("their predictions are identical" if self.n_discordant == 0 else
                   f"the cases where their predictions differ do not change the {by}")
            return (
                lead +
                f"{'by' if lead else 'By'} {by} {self.best} and {self.second} are equal ({self.f1_best:.3f}), and "
                f"they are equal in every bootstrap resample: {why}, so the bootstrap interval has zero width "
                "(it says nothing more precise).")
        d = distinct_digits(self.low, self.high, 3)
        pair = (f"{lead}{self.best} ({self.f1_best:.3f}) against {self.second} ({self.f1_second:.3f})" if tie else
                f"By {by} the leaders are {self.best} ({self.f1_best:.3f}) and {self.second} "
                f"({self.f1_second:.3f})")
        ends = f"{self.ends_mc_words}; " if self.ends_mc_words else ""
        return (
            f"{pair}: a difference of {self.difference:.{d}f} with {level} {BOOTSTRAP_METHOD} "
            f"interval {self.low:+.{d}f} to {self.high:+.{d}f} ({ends}{self.picked})"
            + ("" if not self.verdict_drawn else
               f": it excludes 0, so the two differ at alpha = {self.alpha:g}{self._seed_caveat()}" if self.excludes_zero
               else f": it includes 0, so they are not shown to differ at alpha = {self.alpha:g}{self._seed_caveat()}")
            + f"; {self.best}'s is the higher in {self._share_words()}"
            + (f" and the two are equal in {_share(self.share_tied)} (Monte Carlo standard error "
               f"{self._tied_mc_words()})" if self.share_tied > 0 else "")
            + f" (shares of resamples, not the probability that {self.best} is better)"
            + ("" if self.verdict_drawn else f". {self._no_verdict()[0].upper()}{self._no_verdict()[1:]}") + "."
        )


def _share_mc_se_text(share: float, n_resamples: int) -> str:
    """The Monte Carlo standard error of a share of resamples, ``sqrt(s (1 - s) / n)``, in
    percentage points to one decimal (``"under 0.1 percentage points"`` below 0.05)."""
    se = 100 * math.sqrt(share * (1.0 - share) / n_resamples)
    return f"{se:.1f} percentage points" if se >= 0.05 else "under 0.1 percentage points"


def _mc_se_text(se: float) -> str:
    """A Monte Carlo standard error of an interval end, to three decimals (``"under 0.001"`` below)."""
    return f"{se:.3f}" if se >= 0.0005 else "under 0.001"


def _percentile_mc_se(replicates: np.ndarray, q: float) -> float:
    """Monte Carlo standard error of the ``q`` quantile of ``B`` bootstrap replicates.

    The rank of the sample quantile among ``B`` draws is binomial, ``B q`` with standard deviation
    ``s = sqrt(B q (1 - q))``; the order statistics ``s`` ranks either side of ``B q`` bracket the
    quantile's Monte Carlo spread, so half their distance estimates its standard error (the
    binomial order-statistic method; Efron & Tibshirani 1993, section 19.3, for the Monte Carlo
    error of bootstrap percentiles). 0 when the replicates around that rank are all equal.

    Raises ``ValueError`` (naming ``q``) unless ``0 < q < 1``, and naming ``replicates`` when empty.
    """
    if not 0.0 < q < 1.0:
        raise ValueError(f"q must lie in (0, 1), got {q!r}")
    x = np.sort(np.asarray(replicates, dtype=float).ravel())
    b = x.size
    if b == 0:
        raise ValueError("replicates must hold at least one value")
    s = math.sqrt(b * q * (1.0 - q))
    lo = int(min(b - 1, max(0, math.floor(b * q - s) - 1)))
    hi = int(min(b - 1, max(0, math.ceil(b * q + s) - 1)))
    return float((x[hi] - x[lo]) / 2.0)


def _share(x: float) -> str:
    """A share as a percentage with one decimal that never rounds a partial share to 0% or 100%."""
    if 0 < x < 0.0005:
        return "under 0.1%"
    if 0.9995 <= x < 1:
        return "over 99.9%"
    return f"{x:.1%}"


@renamed_keywords(reps="n_resamples")
def top_two_bootstrap(
    data: Predictions, measures: pd.DataFrame, *, n_resamples: int = 10_000, alpha: float = 0.05,
    rng: Any = None,
):
    """Section 5: paired bootstrap of the F1 (K classes: macro-F1) difference of the two best.

    The two classifiers with predicted labels and the highest F1 (macro-F1) in ``measures``
    (ties: the earlier in the file first, and the result's ``places`` say who ties) are compared by
    :func:`evallib.resampling.bootstrap_f1_cases` (Keller, Bengio & Wong, eqs. 12-14): test
    cases are resampled with replacement, each keeping its true class and all its
    predictions by both classifiers, and the percentile interval of ``F_best - F_second`` is
    reported. Macro-F1 averages over every class of the label column; a class that a
    resample leaves out (it holds none of its cases) keeps its test-set F1 in that
    resample, so the replicates scatter around the estimate instead of below it.

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    measures : pandas.DataFrame
        The table of :func:`classifier_measures` for ``data``; its ``F1`` column picks the
        two classifiers.
    n_resamples : int, default 10_000
        Bootstrap resamples of the test cases, at least 1 (``reps=`` is the deprecated
        name).
    alpha : float, default 0.05
        The percentile interval has coverage ``1 - alpha``, in (0, 1).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        Randomness of the resampling, normalised by ``check_rng`` (an int is reproducible).

    Returns
    -------
    F1Comparison or Skipped
        ``best``, ``second``, ``f1_best``, ``f1_second``, ``difference``, ``low``,
        ``high``, ``share_best_better``, ``share_tied``, ``n_resamples``, ``alpha`` and
        ``measure``; Skipped with fewer than two classifiers with predicted labels.
    """
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    seed = int(rng) if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) else None
    rng = check_rng(rng)
    named = list(data.predicted or {})
    measure = "macro-F1" if data.multiclass else "F1"
    if len(named) < 2:
        return Skipped(
            f"only {plural(len(named), 'classifier')} with predicted labels; the bootstrap compares "
            f"the {'macro-F1' if data.multiclass else 'F-measures'} of two."
        )
    f1 = measures.loc[named, "F1"].astype(float)
    groups = tie_groups((str(n), v) for n, v in f1.items())
    best, second = top_two(groups)
    res = percase.bootstrap_f1(data, best, second, reps=n_resamples, rng=rng, alpha=alpha)
    differ = np.asarray(data.predicted[best]) != np.asarray(data.predicted[second])
    n_discordant = len(np.unique(data.case_index()[differ]))
    return F1Comparison(
        best=best, second=second, f1_best=res.f1_a, f1_second=res.f1_b, difference=res.estimate, low=res.low,
        high=res.high, share_best_better=res.share_a_better, share_tied=res.share_tied, n_resamples=n_resamples, alpha=alpha,
        measure=measure, places=tuple(tuple(g) for g in groups[:2]), n_classifiers=len(named),
        n_discordant=n_discordant, seed=seed,
        low_mc_se=_percentile_mc_se(res.replicates, alpha / 2.0), high_mc_se=_percentile_mc_se(res.replicates, 1.0 - alpha / 2.0))


# --------------------------------------------------------------------- section 6
def _fold_order(folds: np.ndarray) -> list[str]:
    names = list(dict.fromkeys(sorted(set(folds.tolist()))))
    try:
        return sorted(names, key=float)
    except ValueError:
        return names


@dataclass(frozen=True, eq=False)
class FoldAnalysis:
    """Section 6: the cross-validation view of a file with a fold column.

    Attributes
    ----------
    per_fold : DataFrame, accuracy of each classifier (columns) in each fold (rows; with
        repeats the index is ``(repeat, fold)``).
    fold_sizes : Series, test cases per fold.
    best, second : the two classifiers with the highest mean per-fold accuracy.
    ttest : :class:`evallib.resampling.CVTTestResult` of the corrected resampled t-test of
        ``best`` against ``second``.
    test_train_ratio : ``n_test / n_train`` used by the correction: the mean over folds of
        ``fold size / (cases in its repeat - fold size)``, ``1/(k - 1)`` for k equal folds.
    interval : the ``1 - alpha`` interval of the mean accuracy difference.
    friedman : :class:`evallib.manydatasets.FriedmanResult` over the folds.
    cd : :class:`evallib.manydatasets.CriticalDifference` (Nemenyi) for the average ranks.
    alpha : the level.
    n_repeats : repeats of the cross-validation (1: a single run).
    dietterich : :class:`evallib.resampling.CVTTestResult` of Dietterich's 5x2cv t-test of
        ``best`` against ``second`` when every repeat has two folds, else None.
    alpaydin : :class:`evallib.resampling.CombinedFTestResult`, Alpaydin's combined
        5x2cv F test, likewise.
    min_difference, matters : the smallest difference that matters and how the t-test's
        interval reads against it (:func:`relevance`; ``""`` without one).
    places : the first two places by mean per-fold accuracy
        (:func:`~evallib.report._prose.tie_groups`, tuples of names in the file's order): when
        three or more tie for first, or two or more for second, the summary says so.
    friedman_exact : the exact p-value of Friedman's statistic under the permutation law of each
        fold's own ranks (conditional on the ties), as the many-data-sets report computes it;
        None when that law is too large to enumerate (the chi-square p-value is then the one read).
    """

    per_fold: pd.DataFrame
    fold_sizes: pd.Series
    best: str
    second: str
    ttest: Any
    test_train_ratio: float
    interval: tuple[float, float]
    friedman: Any
    cd: Any
    alpha: float
    n_repeats: int = 1
    dietterich: Any = None
    alpaydin: Any = None
    min_difference: float | None = None
    matters: str = ""
    places: tuple[tuple[str, ...], ...] = ()
    friedman_exact: float | None = None

    @property
    def friedman_p(self) -> float:
        """The p-value of Friedman's test that the report reads: the exact one when it exists, else
        the chi-square approximation's."""
        return float(self.friedman.pvalue) if self.friedman_exact is None else float(self.friedman_exact)

    @property
    def friedman_law(self) -> str:
        """The law behind :attr:`friedman_p`, in words."""
        if self.friedman_exact is None:
            return "the chi-square approximation (the exact law is too large to enumerate)"
        tied = bool((self.friedman.ranks.to_numpy() % 1 != 0).any())
        return "its exact permutation law" + (" given the ties within folds" if tied else "")

    @property
    def tie(self) -> str:
        """The clause that says a tie for first or second place and which two were compared, or ``""``."""
        if not self.places:
            return ""
        means = self.per_fold.mean(axis=0)
        return tie_note([list(p) for p in self.places], by="mean accuracy over the folds",
                        value=lambda n: f"{pct(means[n])}%", limit=LISTED)

    @property
    def size_range(self) -> str:
        """``""`` when every repeat's folds hold the same number of cases, else ``"5 to 30 cases"``."""
        sizes = self.fold_sizes
        per_repeat = sizes.groupby(level="repeat") if isinstance(sizes.index, pd.MultiIndex) else [(None, sizes)]
        if all(g.nunique() == 1 for _, g in per_repeat):
            return ""
        return f"{int(sizes.min()):,} to {int(sizes.max()):,} cases"

    @property
    def ratio_text(self) -> str:
        """``n_test/n_train`` as the t-test used it: ``"n_test/n_train = 0.250"``, and with unequal
        folds which ratio that is (the mean of the per-fold ratios, not ``1/(k - 1)``)."""
        text = f"n_test/n_train = {self.test_train_ratio:.3f}"
        if self.size_range:
            text += (f", the mean over the folds of fold size / rest of its repeat, since the folds are unequal "
                     f"({self.size_range}): not 1/(k - 1), which holds for k equal folds")
        return text

    @property
    def folds_text(self) -> str:
        """``"10 folds"`` or ``"100 folds (10 repeats of 10)"``."""
        j = len(self.per_fold)
        return f"{j} folds" + (f" ({self.n_repeats} repeats of {j // self.n_repeats})"
                               if self.n_repeats > 1 and j % self.n_repeats == 0 else "")

    def text(self) -> str:
        """The tests as deterministic plain text.

        Returns
        -------
        str
            One line each: the corrected resampled t-test (difference, interval, ``t``,
            df, p-value), Dietterich's and Alpaydin's tests when present, Friedman's test,
            the average ranks and Nemenyi's critical difference.
        """
        level = level_text(self.alpha)
        t, f = self.ttest, self.friedman
        ranks = ", ".join(f"{name} {r:.2f}" for name, r in f.avg_ranks.sort_values(kind="stable").items())
        lines = [self.tie] if self.tie else []
        flat = self.interval[0] == self.interval[1]   # every fold's difference the same: t = 0/0
        lines += [
            f"corrected resampled t-test, {self.best} vs {self.second} over {self.folds_text} "
            f"({self.ratio_text}):",
            f"  mean accuracy difference {signed(t.mean_difference, 3)}, "
            + (f"the per-fold differences are all {signed(t.mean_difference, 3)} (no variation): the t statistic is "
               "undefined and no p-value can be read" if flat else
               f"{level} interval [{self.interval[0]:+.3f}, {self.interval[1]:+.3f}], t = {t.statistic:.2f}, "
               f"df = {t.df:g}, {format_p(t.pvalue)}"),
        ]
        if self.dietterich is not None:
            d, a = self.dietterich, self.alpaydin
            lines += [
                f"Dietterich's {self.n_repeats}x2cv paired t-test, {self.best} vs {self.second}: "
                f"t = {d.statistic:.2f}, df = {d.df:g}, {format_p(d.pvalue)}",
                f"Alpaydin's combined {self.n_repeats}x2cv F test: F = {a.statistic:.2f}, "
                f"df = ({a.df[0]}, {a.df[1]}), {format_p(a.pvalue)}",
            ]
        lines += [
            f"Friedman test over the folds: chi-square = {f.statistic:.2f}, df = {f.df}, "
            + (f"{format_p(f.pvalue)}" if self.friedman_exact is None else
               f"{format_p(self.friedman_exact)} from {self.friedman_law} (the chi-square approximation "
               f"gives {format_p(f.pvalue)})"),
            f"average ranks (1 = best): {ranks}",
            f"Nemenyi critical difference (alpha = {self.alpha:g}): {self.cd.cd:.2f}",
        ]
        return "\n".join(lines)

    def summary(self) -> str:
        """One sentence for the summary.

        Returns
        -------
        str
            The lead of ``best`` over ``second`` with the t-test's interval and p-value (and
            the 5x2cv tests'), then Friedman's p-value, read as the ranking's stability
            across folds.
        """
        level = level_text(self.alpha)
        lo, hi = self.interval
        ahead = (f"{self.best} is ahead of {self.second} by {pct(self.ttest.mean_difference)} "
                 "accuracy points on average" if self.ttest.mean_difference > 0 else
                 f"{self.best} and {self.second} have the same mean accuracy")
        if lo == hi:
            spread = (("the per-fold differences are all 0" if lo == 0 else
                       f"the per-fold differences are all {pct(lo)} accuracy points")
                      + ", so the t-test's interval has zero width and no p-value can be read from it")
        else:
            spread = (f"{level} interval {interval_points(lo, hi)}, corrected resampled t-test "
                      f"{format_p(self.ttest.pvalue)}{matters_clause(lo, hi, self.min_difference)}")
        if self.dietterich is not None:
            spread += (f"; Dietterich's {self.n_repeats}x2cv t-test {format_p(self.dietterich.pvalue)}, "
                       f"Alpaydin's F test {format_p(self.alpaydin.pvalue)}")
        tie = f"{self.tie}: " if self.tie else ""
        return (
            f"Across the {self.folds_text}, {tie}{ahead} ({spread}); "
            f"Friedman's test over the folds gives {format_p(self.friedman_p)} ({self.friedman_law}; the folds share "
            "training cases, so read it as how stable the ranking is across folds, not as a test over "
            "independent data sets)."
        )


def fold_analysis(data: Predictions, *, alpha: float = 0.05, min_difference: float | None = None):
    """Section 6: per-fold accuracy, the corrected resampled t-test, Friedman and the CD.

    For each fold (with repeats: each fold of each repeat), the accuracy of every
    classifier with predicted labels. The two with the highest mean per-fold accuracy
    (ties: the earlier in the file, and ``places`` say who ties) are compared by
    :func:`evallib.resampling.corrected_resampled_ttest` (Nadeau & Bengio) over all
    ``J`` folds, with ``n_test/n_train`` the mean over folds of ``fold size / (cases in the
    fold's repeat - fold size)`` -- the training set of a fold is the rest of its repeat --
    which is ``1/(k - 1)`` for ``k`` equal folds whatever the number of repeats. When every
    repeat has two folds, Dietterich's 5x2cv t-test
    (:func:`evallib.resampling.dietterich_5x2cv`) and Alpaydin's combined F test
    (:func:`evallib.resampling.combined_5x2cv_ftest`) are added, the folds of each
    repeat taken in fold order. All classifiers are ranked in each fold and compared by
    :func:`evallib.manydatasets.friedman` and the Nemenyi critical difference
    (:func:`evallib.manydatasets.critical_difference`), as Flach ranks algorithms
    over data sets.

    Folds of one data set are not independent data sets: they share training cases,
    which is why the t-test is corrected; Friedman's test and the critical difference
    have no such correction and read as descriptive here. With ``min_difference`` the
    t-test's interval is read against it (:func:`relevance`, ``FoldAnalysis.matters``).

    Parameters
    ----------
    data : Predictions
        The checked predictions file (:func:`evallib.report.load_predictions`).
    alpha : float, default 0.05
        Level of the fold tests and of the critical difference, in (0, 1); the t-test's
        ``interval`` has coverage ``1 - alpha``.
    min_difference : float, optional
        The smallest difference in mean per-fold accuracy that matters, in (0, 1); the
        t-test's interval is read against it (``matters``). Default: none.

    Returns
    -------
    FoldAnalysis or Skipped
        ``per_fold``, ``fold_sizes``, ``best``, ``second``, ``ttest``,
        ``test_train_ratio``, ``interval``, ``friedman``, ``cd``, ``alpha``, ``n_repeats``,
        ``dietterich``, ``alpaydin``, ``min_difference``, ``matters`` and ``friedman_exact``; Skipped without
        a fold column, with fewer than two classifiers with predicted labels, or when one
        fold holds every case of its repeat.

    References
    ----------
    C. Nadeau and Y. Bengio (2003), Machine Learning 52, 239-281; R. R. Bouckaert and E.
    Frank (2004), PAKDD, LNCS 3056, 3-12; T. G. Dietterich (1998), Neural Computation 10,
    1895-1923; E. Alpaydin (1999), Neural Computation 11, 1885-1892.
    """
    alpha = check_alpha(alpha)
    delta = check_min_difference(min_difference)
    if data.folds is None:
        return Skipped(f"the file has no fold column ({data.fold_column!r}), so its rows are one "
                       "test set, not cross-validation folds.")
    wrong = data.wrong()
    if len(wrong) < 2:
        return Skipped(f"only {plural(len(wrong), 'classifier')} with predicted labels; the fold "
                       "comparison needs two.")
    reps = np.zeros(data.n_rows, np.int64) if data.repeats is None else data.repeats
    order = {f: i for i, f in enumerate(_fold_order(data.folds))}
    frame = pd.DataFrame({"repeat": reps + 1, "fold": data.folds,
                          "rank": [order[f] for f in data.folds.tolist()]})
    frame = frame.assign(**{f"w{i}": w for i, w in enumerate(wrong.values())})
    grouped = frame.groupby(["repeat", "rank", "fold"], sort=True)
    acc = 1.0 - grouped[[f"w{i}" for i in range(len(wrong))]].mean()
    acc.columns = list(wrong)
    sizes = grouped.size()
    in_repeat = frame.groupby("repeat").size()
    rep_of_fold = sizes.index.get_level_values("repeat")
    n_train = in_repeat.loc[rep_of_fold].to_numpy() - sizes.to_numpy()
    if (n_train == 0).any():
        return Skipped("one fold holds every case of its repeat, so there is no training set to correct for.")
    repeated = data.repeats is not None and data.n_repeats > 1
    index = (pd.MultiIndex.from_arrays([rep_of_fold, sizes.index.get_level_values("fold")],
                                       names=["repeat", "fold"]) if repeated
             else pd.Index(sizes.index.get_level_values("fold"), name="fold"))
    per_fold = pd.DataFrame(acc.to_numpy(), index=index, columns=list(wrong))
    sizes = pd.Series(sizes.to_numpy(), index=index, name="cases")
    ratio = float(np.mean(sizes.to_numpy() / n_train))
    means = per_fold.mean(axis=0)
    groups = tie_groups((str(n), v) for n, v in means.items())
    best, second = top_two(groups)
    test = corrected_resampled_ttest(per_fold[best], per_fold[second], test_train_ratio=ratio)
    fr = friedman(per_fold.reset_index(drop=True))
    # the many-data-sets report's exact law given the folds' ties (one implementation)
    exact = exact_friedman_p(fr)
    cd = critical_difference(per_fold.shape[1], per_fold.shape[0], alpha=alpha, test="nemenyi")
    dietterich = alpaydin = None
    per_repeat = pd.Series(rep_of_fold).value_counts()
    if repeated and (per_repeat == 2).all():
        a = per_fold[best].to_numpy().reshape(-1, 2)
        b = per_fold[second].to_numpy().reshape(-1, 2)
        dietterich, alpaydin = dietterich_5x2cv(a, b), combined_5x2cv_ftest(a, b, alpha=alpha)
    return FoldAnalysis(per_fold=per_fold, fold_sizes=sizes, best=str(best), second=str(second),
                        ttest=test, test_train_ratio=ratio, interval=test.interval(alpha), friedman=fr,
                        cd=cd, alpha=alpha, n_repeats=data.n_repeats if repeated else 1,
                        dietterich=dietterich, alpaydin=alpaydin, min_difference=delta,
                        matters=relevance(*test.interval(alpha), delta),
                        places=tuple(tuple(g) for g in groups[:2]), friedman_exact=exact)
