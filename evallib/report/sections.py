"""The report's sections: one function per section computes its numbers.

Each function takes the checked :class:`~evallib.report.inputs.Predictions` and returns a
tidy DataFrame or a small frozen result, or :class:`Skipped` with a one-line reason when
the file gives it no input.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._validate import check_alpha, check_count, check_rng
from ..onetestset.nullbest import auc_normal_critical, best_over_thresholds
from .inputs import (
    FEW_MINORITY,
    HEAVY_SKEW,
    SMALL_TEST_SET,
    Predictions,
    ReportInputError,
)
from .text import _p_text, _pct, _plural, format_p


@dataclass(frozen=True)
class Skipped:
    """A section that does not apply to this file, with the one-line reason."""

    reason: str

    def __str__(self) -> str:
        return f"Skipped: {self.reason}"


# --------------------------------------------------------------------- section 1
@dataclass(frozen=True)
class DataSummary:
    """Section 1: what the file holds.

    Attributes
    ----------
    n, n_pos, n_neg : test cases, positives (P) and negatives (N).
    positive, negative : the class names.
    n_folds : number of folds, 0 without a fold column.
    classifiers : DataFrame indexed by classifier, columns ``labels`` and ``scores`` (bool:
        which columns the file has for it).
    warnings : plain sentences about a small test set or heavy class skew.
    notes : plain sentences on how the file was read, why this class is the positive one,
        and which class the scores are for.
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

    def text(self) -> str:
        """The summary as deterministic plain text (what the report prints)."""
        if self.class_counts:
            lines = [f"test cases: {self.n}", f"classes: {len(self.class_counts)}"] + [
                f"  class {c!r}: {k} ({k / self.n:.1%})" for c, k in self.class_counts.items()]
        else:
            lines = [
                f"test cases: {self.n}",
                f"positive class {self.positive!r}: {self.n_pos} ({self.n_pos / self.n:.1%})",
                f"negative class {self.negative!r}: {self.n_neg} ({self.n_neg / self.n:.1%})",
            ]
        lines += [
            f"folds: {self.n_folds if self.n_folds else 'none (one test set)'}",
            f"classifiers: {len(self.classifiers)}",
        ]
        for name, row in self.classifiers.iterrows():
            what = " and ".join(w for w, has in (("predicted labels", row["labels"]),
                                                 ("scores", row["scores"])) if has)
            lines.append(f"  {name}: {what}")
        lines += [f"note: {w}" for w in self.notes]
        lines += [f"warning: {w}" for w in self.warnings] or ["warnings: none"]
        return "\n".join(lines)


def summarise_data(data: Predictions) -> DataSummary:
    """Section 1: sizes, class balance, the classifiers and warnings.

    Warnings are raised for fewer than :data:`SMALL_TEST_SET` test cases (the accuracy
    interval's half-width is then quoted), a minority class below :data:`HEAVY_SKEW` of
    the cases, or fewer than :data:`FEW_MINORITY` minority cases.
    """
    n = data.n
    counts = np.bincount(data.truth, minlength=len(data.classes)) if data.truth is not None else None
    if data.multiclass:
        p = neg = 0
        minority = int(counts.min())
    else:
        p, neg = data.n_pos, data.n_neg
        minority = min(p, neg)
    warnings = []
    if n < SMALL_TEST_SET:
        half = 1.96 * math.sqrt(0.25 / n)
        warnings.append(
            f"small test set: with {n} cases an accuracy near 50% is only known to about "
            f"+/-{100 * half:.0f} percentage points (95% interval), so small differences cannot "
            "be resolved."
        )
    share = minority / n
    if share < HEAVY_SKEW:
        warnings.append(
            f"heavy class skew: only {share:.1%} of the cases are in the minority class, so "
            "accuracy mostly measures the majority class; read average recall and F-measure."
        )
    if minority < FEW_MINORITY:
        warnings.append(
            f"only {_plural(minority, 'case')} of the minority class: recall and F-measure rest on "
            "very few cases."
        )
    table = pd.DataFrame(
        {"labels": [c in (data.predicted or data.labels) for c in data.classifiers],
         "scores": [c in data.scores for c in data.classifiers]},
        index=pd.Index(list(data.classifiers), name="classifier"),
    )
    n_folds = 0 if data.folds is None else int(pd.unique(data.folds).size)
    class_counts = ({c: int(k) for c, k in zip(data.classes, counts)} if data.multiclass else None)
    return DataSummary(n=n, n_pos=p, n_neg=neg, positive=data.positive, negative=data.negative,
                       n_folds=n_folds, classifiers=table, warnings=tuple(warnings),
                       notes=data_notes(data), class_counts=class_counts)


def data_notes(data: Predictions) -> tuple[str, ...]:
    """How the file was read, why the positive class is the one it is, what the scores mean."""
    notes = []
    if data.read_note:
        notes.append(data.read_note)
    if data.multiclass:
        notes.append(f"{len(data.classes)} classes: accuracy, balanced accuracy (average recall) and "
                     "macro-F1 treat them alike; Forman & Cohen's test and the AUC, which need one "
                     "positive class, are skipped.")
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
    """AUC as Mann-Whitney's U / (P N), ties counted one half (midranks).

    The same number as scikit-learn's ``roc_auc_score`` (the tests check it), without
    importing scikit-learn into the report's kernel; O(n log n).
    """
    from scipy.stats import rankdata

    y = np.asarray(y, dtype=bool)
    ranks = rankdata(score)
    P = int(y.sum())
    N = y.size - P
    return float((ranks[y].sum() - P * (P + 1) / 2.0) / (P * N))


def classifier_measures(data: Predictions, *, alpha: float = 0.05) -> pd.DataFrame:
    """Section 2: each classifier's contingency table and measures (Flach 2012, ch. 12).

    Parameters
    ----------
    data : Predictions
    alpha : float
        The accuracy interval has coverage ``1 - alpha`` (Wilson's score interval, from
        :func:`evallib.onetestset.measures.accuracy_interval`; it stays informative at accuracies
        near 0 or 1, where the book's normal interval collapses).

    Returns
    -------
    pandas.DataFrame
        Indexed by classifier: ``TP, FN, FP, TN``; ``accuracy`` with ``acc_low`` and
        ``acc_high``; ``avg_recall`` (the mean of the two per-class recalls, Flach's
        "average recall"); ``precision`` (TP / (TP + FP)), ``recall`` (TP / P) and ``F1``
        (``2 TP / (2 TP + FP + FN)``), all from :func:`evallib.onetestset.measures.measures`; ``AUC``
        from the scores (scikit-learn's ``roc_auc_score``, ties counted as one half).
        Measures that need predicted labels are NaN for a classifier given only by
        scores, and ``AUC`` is NaN without scores. Precision is NaN (undefined, 0/0) when
        a classifier predicts no positive; F1 is then 0, since the file has positives.
    """
    from ..onetestset.measures import accuracy_interval
    from ..onetestset.measures import measures as flach_measures

    alpha = check_alpha(alpha)
    if data.multiclass:
        return _multiclass_measures(data, alpha)
    y = data.y
    rows = []
    for name in data.classifiers:
        row: dict[str, Any] = {"classifier": name}
        if name in data.labels:
            pred = data.labels[name]
            tp = int(np.sum(pred & y))
            fn = int(np.sum(~pred & y))
            fp = int(np.sum(pred & ~y))
            tn = int(np.sum(~pred & ~y))
            m = flach_measures(tp, fn, fp, tn)
            ci = accuracy_interval(tp + tn, m.n, alpha=alpha, method="wilson")
            row.update(TP=tp, FN=fn, FP=fp, TN=tn, accuracy=m.accuracy, acc_low=ci.low,
                       acc_high=ci.high, avg_recall=m.avg_recall, precision=m.precision,
                       recall=m.recall, F1=m.f_measure)
        row["AUC"] = _auc(y, data.scores[name]) if name in data.scores else float("nan")
        rows.append(row)
    cols = ["TP", "FN", "FP", "TN", "accuracy", "acc_low", "acc_high", "avg_recall",
            "precision", "recall", "F1", "AUC"]
    out = pd.DataFrame(rows).set_index("classifier").reindex(columns=cols)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = out[c].astype("Int64")
    out.attrs["alpha"] = alpha
    out.attrs["baseline"] = majority_baseline(data, alpha=alpha)
    return out


def _multiclass_measures(data: Predictions, alpha: float) -> pd.DataFrame:
    """Section 2 for K classes: :func:`evallib.onetestset.multiclass.multiclass_table` in section 2's columns.

    ``accuracy`` with its Wilson interval, ``avg_recall`` = balanced accuracy (the mean of
    the per-class recalls), ``F1`` = macro-F1; counts, precision, recall and AUC are NaN
    (per class they are in :func:`per_class_tables`). The majority-class row becomes
    ``attrs["baseline"]``.
    """
    from ..onetestset.multiclass import multiclass_table

    labels = list(data.classes)
    preds = {name: np.asarray(labels, dtype=object)[codes] for name, codes in data.predicted.items()}
    truth = np.asarray(labels, dtype=object)[data.truth]
    t = multiclass_table(truth, preds, labels=labels, alpha=alpha, baseline=True)
    cols = ["TP", "FN", "FP", "TN", "accuracy", "acc_low", "acc_high", "avg_recall", "precision", "recall",
            "F1", "AUC"]
    out = pd.DataFrame({"accuracy": t["accuracy"].to_numpy(), "acc_low": t["low"].to_numpy(),
                        "acc_high": t["high"].to_numpy(), "avg_recall": t["balanced_accuracy"].to_numpy(),
                        "F1": t["macro_f1"].to_numpy()}, index=pd.Index(t["name"], name="classifier"))
    out = out.reindex(columns=cols)
    base = out.iloc[0]
    majority = labels[int(np.argmax(np.bincount(data.truth, minlength=len(labels))))]
    out = out.iloc[1:].copy()
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = out[c].astype("Int64")
    out.attrs["alpha"] = alpha
    out.attrs["multiclass"] = True
    out.attrs["baseline"] = {"name": f"majority class {majority!r}", **{c: base[c] for c in cols}}
    return out


def per_class_tables(data: Predictions) -> dict[str, pd.DataFrame]:
    """Per classifier with predicted labels, :func:`evallib.onetestset.multiclass.per_class_table`:
    precision, recall, F1 and support of every class."""
    from ..onetestset.multiclass import per_class_table

    labels = list(data.classes)
    names = np.asarray(labels, dtype=object)
    codes = data.predicted or {}
    return {name: per_class_table(names[data.truth], names[p], labels=labels).set_index("label")
            for name, p in codes.items()}


def omnibus_test(data: Predictions, *, alpha: float = 0.05):
    """Cochran's Q: do the classifiers (three or more, with predicted labels) differ in accuracy?

    :func:`evallib.onetestset.cochran.cochran_q_predictions` on the right/wrong table (any number of
    classes), the omnibus test before the pairwise comparisons.

    Returns
    -------
    evallib.onetestset.cochran.CochranQ or Skipped
        Skipped with fewer than three classifiers with predicted labels.
    """
    from ..onetestset.cochran import cochran_q

    alpha = check_alpha(alpha)
    wrong = data.wrong()
    if len(wrong) < 3:
        return Skipped(f"{len(wrong)} classifier(s) with predicted labels; Cochran's Q is the omnibus "
                       "test for three or more (two are compared by McNemar's test below).")
    correct = pd.DataFrame({name: (~w).astype(np.int8) for name, w in wrong.items()})
    return cochran_q(correct, alpha=alpha)


def majority_baseline(data: Predictions, *, alpha: float = 0.05) -> dict[str, Any]:
    """The majority-class classifier: predict the more frequent class for every case.

    Its accuracy ``max(P, N) / n`` (with its Wilson interval) is what a classifier must
    beat to have learnt anything from the features; its average recall is 0.5 and its AUC
    (a constant score) 0.5. With ``P == N`` either class is a majority; the negative class
    is used, so precision is undefined and F1 is 0.

    Returns
    -------
    dict
        ``name`` (e.g. ``"majority class 'ham'"``) and the columns of
        :func:`classifier_measures`.

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
    from ..onetestset.measures import accuracy_interval

    P, N, n = data.n_pos, data.n_neg, data.n
    predict_positive = P > N
    tp, fn = (P, 0) if predict_positive else (0, P)
    fp, tn = (N, 0) if predict_positive else (0, N)
    ci = accuracy_interval(tp + tn, n, alpha=alpha, method="wilson")
    cls = data.positive if predict_positive else data.negative
    return {
        "name": f"majority class {cls!r}" + (" (classes tied)" if P == N else ""),
        "TP": tp, "FN": fn, "FP": fp, "TN": tn, "accuracy": (tp + tn) / n, "acc_low": ci.low,
        "acc_high": ci.high, "avg_recall": 0.5, "precision": 1.0 if predict_positive else float("nan"),
        "recall": 1.0 if predict_positive else 0.0,
        "F1": 2 * tp / (2 * tp + fp + fn), "AUC": 0.5,
    }


#: A classifier's scores are called reversed when their AUC is below 0.5 with a one-sided
#: p-value (normal law of Mann-Whitney's U under random ranking) below this.
REVERSED_LEVEL = 0.001


def score_warnings(data: Predictions, measures: pd.DataFrame) -> tuple[str, ...]:
    """Sentences for classifiers whose scores look reversed or that fall below the baseline.

    Scores look reversed when the AUC is clearly below 0.5 (random ranking would give an AUC
    that low with probability below :data:`REVERSED_LEVEL`, normal law of Mann-Whitney's U
    with variance ``(P + N + 1) / (12 P N)``) or when the best accuracy over all thresholds
    of the scores is below the accuracy of the classifier's own predicted labels (a
    threshold on the scores should reach at least that). A classifier is called out when
    its accuracy is below the majority-class baseline's.
    """
    from scipy import stats

    from ..onetestset.nullbest import best_over_thresholds

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
                f"scores (as low by chance: p {_p_text(p_low)}); check that they are scores for "
                f"{data.positive!r} (higher = more likely {data.positive!r}), or set --positive-label.")
            continue
        if name in data.labels:
            best_acc, _ = best_over_thresholds(data.y, data.scores[name])
            acc = float(measures.at[name, "accuracy"])
            if best_acc + 1e-12 < acc:
                out.append(
                    f"{name}'s scores look reversed against its own labels: no threshold on its "
                    f"scores reaches the accuracy of its predicted labels ({best_acc:.3f} at best "
                    f"against {acc:.3f}); check which class the scores are for.")
    base = measures.attrs.get("baseline")
    if base is not None:
        for name, acc in measures["accuracy"].dropna().items():
            if float(acc) < base["accuracy"] - 1e-12:
                out.append(
                    f"{name}'s accuracy {100 * float(acc):.1f}% is below the "
                    f"{100 * base['accuracy']:.1f}% of the {base['name']} baseline, which "
                    "predicts one class for every case.")
        for name, auc in measures["AUC"].dropna().items():
            if float(auc) < 0.5 and not any(w.startswith(f"{name}'s scores") for w in out):
                out.append(f"{name}'s AUC {float(auc):.3f} is below the 0.5 of random scores.")
    return tuple(out)


# --------------------------------------------------------------------- section 3
#: Below this many discordant cases (b + c) the pairwise table flags the pair: the
#: chi-square approximation of McNemar's test and the Wald-type intervals are then rough.
FEW_DISCORDANT = 25


def adjusted_pvalues(p: np.ndarray, adjust: str) -> np.ndarray:
    """Holm's (step-down), Bonferroni's or no adjustment of p-values (capped at 1).

    Holm: sort increasingly, ``p_(i) (m - i + 1)``, running maximum; Bonferroni: ``m p``.
    Rejecting where the adjusted p-value is ``<= alpha`` is the same decision as comparing
    the raw p-values with Holm's or Bonferroni's levels.

    References
    ----------
    S. Holm (1979), A simple sequentially rejective multiple test procedure, Scand. J.
    Statist. 6, 65-70; Berrar & Lozano (2013), section 5 (Holm's levels of Table 2).

    Examples
    --------
    Three p-values: Holm multiplies the smallest by 3, the next by 2, the largest by 1
    (keeping the order):

    >>> [round(float(v), 6) for v in adjusted_pvalues([0.000532, 0.001336, 0.5], "holm")]
    [0.001596, 0.002672, 0.5]
    """
    p = np.asarray(p, dtype=float)
    m = p.size
    if adjust == "none" or m == 0:
        return p.copy()
    if adjust == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adj
    return out


#: How the report names each interval method of :func:`evallib.onetestset.pairwise.paired_difference_interval`.
INTERVAL_NAMES = {
    "bonett_price": "Bonett-Price", "tango": "Tango", "newcombe": "Newcombe", "agresti_min": "Agresti-Min",
    "wald": "Wald", "wald_cc": "continuity-corrected Wald", "qh": "Quesenberry-Hurst",
}


def pairwise_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm",
                        interval: str = "bonett_price"):
    """Section 3: every pair of classifiers with labels, compared on their disagreements.

    For each pair ``(A, B)`` the 2x2 table of errors (:class:`evallib.onetestset.pairwise.Contingency`)
    gives ``b`` (errors of A only) and ``c`` (errors of B only). The test is McNemar's mid-p
    test (``mcnemar(b, c, mid_p=True)``; Fagerland, Lydersen & Laake 2013: it holds its
    level where the exact test is conservative and the chi-square approximation is not
    reliable); the interval of ``error_A - error_B = (b - c)/n`` is
    :func:`evallib.onetestset.pairwise.paired_difference_interval` with ``method=interval`` (default
    Bonett-Price, recommended by Fagerland, Lydersen & Laake 2014; ``"qh"`` gives Berrar &
    Lozano's Quesenberry-Hurst interval). The p-values are adjusted for the number of pairs
    (:func:`adjusted_pvalues`, Holm by default; ``reject`` is ``p_adj <= alpha``), and the
    adjusted interval is the same interval at level ``alpha / m`` (Bonferroni), the one
    adjustment of intervals that covers all ``m`` pairs jointly; with ``adjust="none"`` it
    is the unadjusted interval.

    Pairs are sorted by effect, the observed ``|difference in error rate|``, largest first
    (ties: smaller p first).

    Returns
    -------
    pandas.DataFrame or Skipped
        One row per pair: ``pair``, ``a, b, c, d, n``, ``estimate`` (``|b - c|/n``), ``diff``
        (``(b - c)/n``) with ``diff_low``/``diff_high`` and ``adj_low``/``adj_high``,
        ``p`` (mid-p), ``p_adj``, ``reject``, ``better`` (the classifier with fewer errors,
        or ``"tie"``), ``few`` (``b + c <`` :data:`FEW_DISCORDANT`) and ``verdict``. The
        attributes hold ``alpha``, ``adjust``, ``n``, ``error_rates`` and the names of the
        ``method`` (interval) and ``test``. Skipped when fewer than two classifiers have
        predicted labels.
    """
    from itertools import combinations

    from .._validate import check_choice
    from ..onetestset.pairwise import Contingency, mcnemar, paired_difference_interval

    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ("holm", "bonferroni", "none"))
    interval = check_choice(interval, "interval", tuple(INTERVAL_NAMES))
    wrong = data.wrong()
    if len(wrong) < 2:
        return Skipped(
            f"only {len(wrong)} classifier(s) with predicted labels; McNemar's test and the "
            "intervals compare the predicted labels of two classifiers."
        )
    n = data.n
    pairs = list(combinations(wrong, 2))
    m = len(pairs)
    level_adj = alpha / m if adjust != "none" else alpha
    rows = []
    for i, j in pairs:
        wi, wj = wrong[i], wrong[j]
        b, c, d = int(np.sum(wi & ~wj)), int(np.sum(~wi & wj)), int(np.sum(wi & wj))
        table = Contingency(a=n - b - c - d, b=b, c=c, d=d, n=n)
        ci = paired_difference_interval(table, method=interval, alpha=alpha)
        ci_adj = paired_difference_interval(table, method=interval, alpha=level_adj)
        rows.append({
            "pair": (i, j), "a": table.a, "b": b, "c": c, "d": d, "n": n, "estimate": abs(b - c) / n,
            "diff": (b - c) / n, "diff_low": ci.low, "diff_high": ci.high,
            "adj_low": ci_adj.low, "adj_high": ci_adj.high,
            "p": float(mcnemar(b, c, mid_p=True).pvalue),
        })
    out = pd.DataFrame(rows)
    out["p_adj"] = adjusted_pvalues(out["p"].to_numpy(), adjust)
    out["reject"] = out["p_adj"] <= alpha
    out = out.sort_values(["estimate", "p"], ascending=[False, True], kind="stable").reset_index(drop=True)
    out["better"] = [i if b < c else (j if c < b else "tie") for (i, j), b, c in zip(out["pair"], out["b"], out["c"])]
    out["few"] = (out["b"] + out["c"]) < FEW_DISCORDANT
    verdicts = []
    for (i, j), b, c, rej in zip(out["pair"], out["b"], out["c"], out["reject"]):
        if b == 0 and c == 0:
            verdicts.append("identical predictions")
        elif b == c:
            verdicts.append("tie: same number of errors")
        elif rej:
            verdicts.append(f"{i if b < c else j} makes fewer errors")
        else:
            verdicts.append("no clear difference")
    out["verdict"] = verdicts
    out.attrs.update(alpha=alpha, adjust=adjust, n=n, interval=interval, method=INTERVAL_NAMES[interval],
                     test="McNemar's mid-p test", level_adj=level_adj,
                     error_rates={name: float(w.mean()) for name, w in wrong.items()})
    return out


# --------------------------------------------------------------- the scores as results
@dataclass(frozen=True)
class ScoreComparison:
    """The scores as results in their own right (issue 14, section 3).

    Attributes
    ----------
    auc : :func:`evallib.onetestset.scoring.auc_table`, each AUC with its DeLong interval.
    auc_pairs : :func:`evallib.onetestset.scoring.delong_pairwise` (DeLong & Clarke-Pearson's paired
        test, same multiplicity adjustment as the pairwise table), or None with one score.
    losses : :func:`evallib.onetestset.scoring.loss_table`, Brier score and log-loss where the scores
        are probabilities in [0, 1].
    loss_pairs : :func:`evallib.onetestset.scoring.loss_pairwise` on the per-case Brier losses, or
        None with fewer than two probability columns.
    notes : sentences (scores that are not probabilities, ...).
    alpha, adjust, positive : the settings.
    """

    auc: pd.DataFrame
    auc_pairs: pd.DataFrame | None
    losses: pd.DataFrame
    loss_pairs: pd.DataFrame | None
    notes: tuple[str, ...]
    alpha: float
    adjust: str
    positive: str

    def summary(self) -> str:
        """One or two sentences for the summary."""
        level = f"{100 * (1 - self.alpha):g}%"
        t = self.auc.sort_values("estimate", ascending=False, kind="stable")
        top = t.iloc[0]
        out = (f"Ranked by AUC (scores for {self.positive!r}), **{top['name']}** leads with "
               f"{top['estimate']:.3f} ({level} DeLong interval {top['low']:.3f} to {top['high']:.3f}; "
               "random scores: 0.5)")
        if self.auc_pairs is not None and len(t) > 1:
            second = t.iloc[1]
            row = self.auc_pairs[((self.auc_pairs["a"] == top["name"]) & (self.auc_pairs["b"] == second["name"]))
                                 | ((self.auc_pairs["a"] == second["name"]) & (self.auc_pairs["b"] == top["name"]))]
            r = row.iloc[0]
            sign = 1.0 if r["a"] == top["name"] else -1.0
            lo, hi = sorted((sign * r["low"], sign * r["high"]))
            verdict = ("a real difference" if bool(r["reject_adj"]) else "not a clear difference")
            adj = {"holm": "Holm-adjusted ", "bonferroni": "Bonferroni-adjusted "}.get(self.adjust, "")
            out += (f"; ahead of {second['name']} by {sign * r['difference']:.3f} ({level} interval "
                    f"{lo:+.3f} to {hi:+.3f}, DeLong's paired test {adj}{format_p(r['pvalue_adj'])}): "
                    f"{verdict}")
        out += "."
        probs = self.losses[self.losses["is_probability"]]
        if len(probs):
            best = probs.sort_values("brier", kind="stable").iloc[0]
            out += (f" As probabilities, {best['name']} has the lowest Brier score, {best['brier']:.4f} "
                    "(lower is better).")
        return out


def score_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm"):
    """Each score column's AUC with its DeLong interval, their paired comparison, and losses.

    The AUC interval and the paired test are DeLong, DeLong & Clarke-Pearson's (1988), in
    the O(n log n) form of Sun & Xu (2014) (:mod:`evallib.onetestset.scoring`), with the same
    adjustment for the number of pairs as the pairwise table. Brier score and log-loss are
    computed where the scores are probabilities in [0, 1] (a sentence says which columns
    are not), with a paired t-test on the per-case Brier losses.

    Returns
    -------
    ScoreComparison or Skipped
        Skipped without score columns.
    """
    from ..onetestset.scoring import auc_table, delong_pairwise, loss_pairwise, loss_table

    alpha = check_alpha(alpha)
    if data.multiclass:
        return Skipped(f"the AUC, Brier score and log-loss need one positive class; with {len(data.classes)} "
                       "classes there is none.")
    if not data.scores:
        return Skipped("the file has no score columns, so there are no rankings to compare.")
    scores = dict(data.scores)
    y = data.y
    auc = auc_table(y, scores, alpha=alpha)
    pairs = delong_pairwise(y, scores, alpha=alpha, adjust=adjust) if len(scores) > 1 else None
    losses = loss_table(y, scores)
    probs = int(losses["is_probability"].sum())
    loss_pairs = loss_pairwise(y, scores, alpha=alpha, adjust=adjust) if probs > 1 else None
    notes = [n + "." for n in losses["note"] if n]
    return ScoreComparison(auc=auc, auc_pairs=pairs, losses=losses, loss_pairs=loss_pairs,
                           notes=tuple(notes), alpha=alpha, adjust=adjust, positive=data.positive)


# --------------------------------------------------------------------- section 4
@dataclass(frozen=True)
class ChanceCheck:
    """Section 4: is the winner better than the best of ``C`` random classifiers?

    Attributes
    ----------
    table : DataFrame, one row per metric (``AUC``, ``best accuracy``, ``best F1``):
        ``winner``, ``value``, ``from`` (how the value was obtained), ``critical``
        (Forman & Cohen's m*), ``p`` (the chance that the best of ``C`` random rankings
        scores at least ``value``) and ``beats_chance`` (``value > critical``).
    C, P, N, alpha : the null hypothesis's settings.
    notes : sentences about metrics that could not be judged.

    The ``law`` column says how ``F`` was computed: ``"exact"``, or ``"normal
    approximation"`` for the AUC of a test set with ``P * N`` above
    :data:`evallib.onetestset.nullbest.MAX_LATTICE` (:func:`auc_normal_critical`).
    """

    table: pd.DataFrame
    C: int
    P: int
    N: int
    alpha: float
    notes: tuple[str, ...] = ()

    def formatted(self) -> pd.DataFrame:
        """The table as text."""
        t = self.table
        return pd.DataFrame({
            "winner": t["winner"], "score": t["value"].map(lambda v: f"{v:.3f}"), "from": t["from"],
            f"critical value (alpha = {self.alpha:g}, C = {self.C})": t["critical"].map(lambda v: f"{v:.3f}"),
            "p-value": t["p"].map(lambda v: _p_text(v).lstrip("= ")),
            "better than chance": t["beats_chance"].map({True: "yes", False: "no"}),
            "law": t["law"],
        }, index=t.index)

    def summary(self) -> str:
        """One sentence for section 7."""
        parts = []
        for metric, r in self.table.iterrows():
            verdict = "beats" if r["beats_chance"] else "does not beat"
            measure = metric[5:] if metric.startswith("best ") else metric
            how = "" if metric == "AUC" else (
                " at the best threshold of its scores (an optimistic figure: the threshold is "
                f"chosen on this test set, so it is not the classifier's {measure})"
                if r["from"].startswith("best") else " at its own threshold")
            parts.append(f"{r['winner']}'s {measure} "
                         f"of {r['value']:.3f}{how} {verdict} the critical value "
                         f"{r['critical']:.3f} ({format_p(r['p'])}, {r['law']})")
        text = (f"Against the best of C = {self.C} random classifiers on {_plural(self.P, 'positive')} "
                f"and {_plural(self.N, 'negative')} (Forman & Cohen, alpha = {self.alpha:g}): "
                + "; ".join(parts) + ".")
        return " ".join([text, *self.notes])


def chance_check(data: Predictions, measures: pd.DataFrame, *, classifiers_tried: int | None = None,
                 alpha: float = 0.05):
    """Section 4: Forman & Cohen's critical values for the winner's AUC, accuracy and F1.

    Under the null hypothesis each of the ``C`` classifiers tried ranks the test cases at
    random; the winner is better than chance at level ``alpha`` when its score exceeds
    ``m* = F^-1((1 - alpha)^(1/C))`` and its p-value is the chance that the best of ``C``
    random rankings scores at least as much (:func:`evallib.onetestset.nullbest.judge_winner`, exact).

    Each classifier's best accuracy and best F-measure are taken over all thresholds of
    its scores (:func:`best_over_thresholds`), as the null hypothesis does; a classifier
    given only by predicted labels contributes its accuracy and F-measure at its own
    threshold, which can only be lower than its best, so its test is conservative. The
    winner of each metric is the classifier with the highest value (ties: the earlier in
    the file). The AUC row needs at least one score column.

    Parameters
    ----------
    data : Predictions
    measures : DataFrame from :func:`classifier_measures`
    classifiers_tried : int, optional
        ``C``, how many classifiers were tried before these were picked; at least the
        number in the file, which is the default.
    alpha : float

    Returns
    -------
    ChanceCheck
    """
    from ..onetestset.nullbest import MAX_LATTICE, judge_winner

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
    candidates: dict[str, list[tuple[str, float, str]]] = {"AUC": [], "best accuracy": [], "best F1": []}
    for name in data.classifiers:
        if name in data.scores:
            acc, f1 = best_over_thresholds(data.y, data.scores[name])
            candidates["AUC"].append((name, float(measures.at[name, "AUC"]), "scores"))
            candidates["best accuracy"].append((name, acc, "best threshold of its scores (optimistic)"))
            candidates["best F1"].append((name, f1, "best threshold of its scores (optimistic)"))
        else:
            candidates["best accuracy"].append((name, float(measures.at[name, "accuracy"]),
                                                "its predicted labels"))
            candidates["best F1"].append((name, float(measures.at[name, "F1"]), "its predicted labels"))
    rows, notes = [], []
    too_big = P * N > MAX_LATTICE
    for metric, key in (("AUC", "auc"), ("best accuracy", "accuracy"), ("best F1", "f1")):
        if not candidates[metric]:
            continue
        name, value, how = max(candidates[metric], key=lambda c: c[1])  # first of ties
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
        rows.append({"metric": metric, "winner": name, "value": value, "from": how,
                     "critical": crit, "p": p, "beats_chance": bool(significant), "law": law})
    table = pd.DataFrame(rows, columns=["metric", "winner", "value", "from", "critical", "p",
                                        "beats_chance", "law"]).set_index("metric")
    return ChanceCheck(table=table, C=C, P=P, N=N, alpha=alpha, notes=tuple(notes))


# --------------------------------------------------------------------- section 5
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
    share_best_better : share of replicates in which ``best`` keeps the higher F1 (Keller,
        Bengio & Wong's "confidence" in the observed winner, eq. 13).
    share_tied : share of replicates in which the two F1 are equal.
    reps, alpha : the bootstrap's settings.
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
    reps: int
    alpha: float
    measure: str = "F1"

    @property
    def reject(self) -> bool:
        """The interval excludes 0 (the bootstrap's decision at level ``alpha``)."""
        return self.excludes_zero

    @property
    def excludes_zero(self) -> bool:
        """Whether the interval lies entirely above 0 (the bootstrap calls them different)."""
        return self.low > 0 or self.high < 0

    def text(self) -> str:
        """The result as deterministic plain text."""
        level = f"{100 * (1 - self.alpha):g}%"
        verdict = ("the interval excludes 0: the bootstrap calls the difference real"
                   if self.excludes_zero else "the interval includes 0: no clear difference")
        return (
            f"{self.measure} of {self.best}: {self.f1_best:.3f}; {self.measure} of {self.second}: "
            f"{self.f1_second:.3f}\n"
            f"difference {self.difference:+.3f}, {level} bootstrap interval "
            f"[{self.low:+.3f}, {self.high:+.3f}] ({self.reps} replicates)\n"
            f"{self.best} keeps the higher {self.measure} in {self.share_best_better:.1%} of the replicates "
            f"(the two tie in {self.share_tied:.1%}); "
            f"{verdict}"
        )

    def summary(self) -> str:
        """One sentence for section 7."""
        level = f"{100 * (1 - self.alpha):g}%"
        by = "F-measure" if self.measure == "F1" else self.measure
        if self.low == self.high == 0.0:
            return (
                f"By {by} {self.best} and {self.second} tie ({self.f1_best:.3f}), and they tie in "
                "every bootstrap resample: the cases where their predictions differ do not change the "
                "F-measure, so the bootstrap interval has zero width (it says nothing more precise).")
        return (
            f"By {by} the leaders are {self.best} ({self.f1_best:.3f}) and {self.second} "
            f"({self.f1_second:.3f}): a difference of {self.difference:.3f} with {level} bootstrap "
            f"interval {self.low:+.3f} to {self.high:+.3f}"
            + (" (excludes 0)" if self.excludes_zero else " (includes 0, so no clear winner)")
            + f"; {self.best} stays ahead in {_share(self.share_best_better)} of the resamples"
            + (f" and ties in {_share(self.share_tied)}." if self.share_tied >= 0.005 else ".")
        )


def _share(x: float) -> str:
    """A share as a whole percentage that never rounds a partial share to 0% or 100%."""
    if 0 < x < 0.005:
        return "under 1%"
    if 0.995 <= x < 1:
        return "over 99%"
    return f"{x:.0%}"


def top_two_bootstrap(
    data: Predictions, measures: pd.DataFrame, *, reps: int = 10_000, alpha: float = 0.05,
    rng: Any = None,
):
    """Section 5: paired bootstrap of the F1 difference of the two best classifiers by F1.

    The two classifiers with predicted labels and the highest F1 in ``measures`` (ties:
    the earlier in the file first) are compared by
    :func:`evallib.onetestset.bizarre.bootstrap_f1_difference` (Keller, Bengio & Wong, eqs. 12-14):
    test cases are resampled with replacement, keeping each case's pair of predictions
    together, and the percentile interval of ``F1_best - F1_second`` is reported.

    Returns
    -------
    F1Comparison or Skipped
        Skipped with fewer than two classifiers with predicted labels.
    """
    from ..onetestset.bizarre import bootstrap_f1_difference

    alpha = check_alpha(alpha)
    reps = check_count(reps, "reps", minimum=1)
    rng = check_rng(rng)
    if data.multiclass:
        return _macro_f1_bootstrap(data, measures, reps=reps, alpha=alpha, rng=rng)
    if len(data.labels) < 2:
        return Skipped(
            f"only {len(data.labels)} classifier(s) with predicted labels; the bootstrap compares "
            "the F-measures of two."
        )
    f1 = measures.loc[list(data.labels), "F1"].astype(float)
    order = sorted(range(len(f1)), key=lambda i: (-f1.iloc[i], i))
    best, second = f1.index[order[0]], f1.index[order[1]]
    res = bootstrap_f1_difference(data.y.astype(int), data.labels[best].astype(int),
                                  data.labels[second].astype(int), reps=reps, alpha=alpha, rng=rng)
    # The module reports dF1 = F1_B - F1_A with A = best; turn it round.
    return F1Comparison(
        best=str(best), second=str(second), f1_best=float(res.f1_a), f1_second=float(res.f1_b),
        difference=0.0 - float(res.observed), low=0.0 - float(res.high),
        high=0.0 - float(res.low), share_best_better=float(res.p_negative),
        share_tied=float(1.0 - res.p_negative - res.p_positive), reps=reps, alpha=alpha,
    )


def _macro_f1_bootstrap(data: Predictions, measures: pd.DataFrame, *, reps: int, alpha: float, rng):
    """K classes: :func:`evallib.onetestset.multiclass.bootstrap_macro_f1_difference` of the top two by
    macro-F1 (the joint table true class x prediction of A x prediction of B resampled as
    a multinomial)."""
    from ..onetestset.multiclass import bootstrap_macro_f1_difference

    if len(data.predicted) < 2:
        return Skipped(f"only {len(data.predicted)} classifier(s) with predicted labels; the bootstrap "
                       "compares the macro-F1 of two.")
    f1 = measures.loc[list(data.predicted), "F1"].astype(float)
    order = sorted(range(len(f1)), key=lambda i: (-f1.iloc[i], i))
    best, second = str(f1.index[order[0]]), str(f1.index[order[1]])
    labels = list(range(len(data.classes)))
    res = bootstrap_macro_f1_difference(data.truth, data.predicted[best], data.predicted[second], reps=reps,
                                        alpha=alpha, rng=rng, labels=labels)
    return F1Comparison(
        best=best, second=second, f1_best=float(res.f1_a), f1_second=float(res.f1_b),
        difference=float(res.difference), low=float(res.low), high=float(res.high),
        share_best_better=float(res.share_a_better), share_tied=float(res.share_tied), reps=reps,
        alpha=alpha, measure="macro-F1")


# --------------------------------------------------------------------- section 6
def _fold_order(folds: np.ndarray) -> list[str]:
    names = list(dict.fromkeys(sorted(set(folds.tolist()))))
    try:
        return sorted(names, key=float)
    except ValueError:
        return names


@dataclass(frozen=True)
class FoldAnalysis:
    """Section 6: the cross-validation view of a file with a fold column.

    Attributes
    ----------
    per_fold : DataFrame, accuracy of each classifier (columns) in each fold (rows).
    fold_sizes : Series, test cases per fold.
    best, second : the two classifiers with the highest mean per-fold accuracy.
    ttest : :class:`evallib.resampling.cvtests.CVTTestResult` of the corrected resampled t-test of
        ``best`` against ``second``.
    test_train_ratio : ``n_test / n_train`` used by the correction (mean over folds).
    interval : the ``1 - alpha`` interval of the mean accuracy difference.
    friedman : :class:`evallib.manydatasets.ranktests.FriedmanResult` over the folds.
    cd : :class:`evallib.manydatasets.ranktests.CriticalDifference` (Nemenyi) for the average ranks.
    alpha : the level.
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

    def text(self) -> str:
        """The tests as deterministic plain text."""
        level = f"{100 * (1 - self.alpha):g}%"
        t, f = self.ttest, self.friedman
        ranks = ", ".join(f"{name} {r:.2f}" for name, r in f.avg_ranks.sort_values(kind="stable").items())
        return (
            f"corrected resampled t-test, {self.best} vs {self.second} over {len(self.per_fold)} folds "
            f"(n_test/n_train = {self.test_train_ratio:.3f}):\n"
            f"  mean accuracy difference {t.mean_difference:+.3f}, {level} interval "
            f"[{self.interval[0]:+.3f}, {self.interval[1]:+.3f}], t = {t.statistic:.2f}, "
            f"df = {t.df:g}, p = {t.pvalue:.2g}\n"
            f"Friedman test over the folds: chi2 = {f.statistic:.2f}, df = {f.df}, p = {f.pvalue:.2g}\n"
            f"average ranks (1 = best): {ranks}\n"
            f"Nemenyi critical difference (alpha = {self.alpha:g}): {self.cd.cd:.2f}"
        )

    def summary(self) -> str:
        """One sentence for section 7."""
        level = f"{100 * (1 - self.alpha):g}%"
        lo, hi = self.interval
        ahead = (f"{self.best} is ahead of {self.second} by {_pct(self.ttest.mean_difference)} "
                 "accuracy points on average" if self.ttest.mean_difference > 0 else
                 f"{self.best} and {self.second} have the same mean accuracy")
        if lo == hi:
            spread = ("the per-fold differences are all equal, so the t-test's interval has zero width "
                      "and no p-value can be read from it")
        else:
            spread = (f"{level} interval {_pct(lo)} to {_pct(hi)}, corrected resampled t-test "
                      f"{format_p(self.ttest.pvalue)}")
        return (
            f"Across the {len(self.per_fold)} folds, {ahead} ({spread}); "
            f"Friedman's test over the folds gives {format_p(self.friedman.pvalue)} (the folds share "
            "training cases, so read it as how stable the ranking is across folds, not as a test over "
            "independent data sets)."
        )


def fold_analysis(data: Predictions, *, alpha: float = 0.05):
    """Section 6: per-fold accuracy, the corrected resampled t-test, Friedman and the CD.

    For each fold, the accuracy of every classifier with predicted labels. The two with
    the highest mean per-fold accuracy (ties: the earlier in the file) are compared by
    :func:`evallib.resampling.cvtests.corrected_resampled_ttest` (Nadeau & Bengio), with
    ``n_test/n_train`` the mean over folds of ``fold size / (n - fold size)``, the
    k-fold value ``1/(k - 1)`` for equal folds. All classifiers are ranked in each fold
    and compared by :func:`evallib.manydatasets.ranktests.friedman` and the Nemenyi critical
    difference (:func:`evallib.manydatasets.ranktests.critical_difference`), as Flach ranks
    algorithms over data sets.

    Folds of one data set are not independent data sets: they share training cases,
    which is why the t-test is corrected; Friedman's test and the critical difference
    have no such correction and read as descriptive here.

    Returns
    -------
    FoldAnalysis or Skipped
        Skipped without a fold column or with fewer than two classifiers with predicted
        labels.
    """
    from ..resampling.cvtests import corrected_resampled_ttest
    from ..manydatasets.ranktests import critical_difference, friedman

    alpha = check_alpha(alpha)
    if data.folds is None:
        return Skipped(f"the file has no fold column ({data.fold_column!r}), so its rows are one "
                       "test set, not cross-validation folds.")
    wrong = data.wrong()
    if len(wrong) < 2:
        return Skipped(f"only {len(wrong)} classifier(s) with predicted labels; the fold "
                       "comparison needs two.")
    order = _fold_order(data.folds)
    per_fold = pd.DataFrame(
        {name: [float(1.0 - np.mean(w[data.folds == f])) for f in order] for name, w in wrong.items()},
        index=pd.Index(order, name="fold"),
    )
    sizes = pd.Series([int(np.sum(data.folds == f)) for f in order], index=per_fold.index, name="cases")
    if (sizes == data.n).any():
        return Skipped("one fold holds every case, so there is no training set to correct for.")
    ratio = float(np.mean(sizes / (data.n - sizes)))
    means = per_fold.mean(axis=0)
    ranked = sorted(range(len(means)), key=lambda i: (-means.iloc[i], i))
    best, second = means.index[ranked[0]], means.index[ranked[1]]
    test = corrected_resampled_ttest(per_fold[best], per_fold[second], test_train_ratio=ratio)
    fr = friedman(per_fold)
    cd = critical_difference(per_fold.shape[1], per_fold.shape[0], alpha=alpha, test="nemenyi")
    return FoldAnalysis(per_fold=per_fold, fold_sizes=sizes, best=str(best), second=str(second),
                        ttest=test, test_train_ratio=ratio, interval=test.interval(alpha), friedman=fr,
                        cd=cd, alpha=alpha)

