"""Classifiers with K classes: accuracy, balanced accuracy, macro-F1, and their comparison.

For ``K >= 2`` classes and predicted labels on one test set:

* accuracy with Wilson's score interval, balanced accuracy (the average recall of
  Flach 2012, Example 12.1, over the K classes) and macro-F1 (the unweighted mean of
  the per-class F-measures) (:func:`multiclass_measures`), and the per-class table of
  precision, recall, F1 and support (:func:`per_class_table`);
* the paired bootstrap of the macro-F1 difference of two classifiers
  (:func:`bootstrap_macro_f1_difference`). Macro-F1 depends on a sample only through
  the joint table (true class x prediction of A x prediction of B, at most ``K^3``
  cells), so a bootstrap replicate, which resamples the ``n`` cases with replacement,
  is one Multinomial(n, table / n) draw of that table: the same device as Keller,
  Bengio & Wong's F1 bootstrap over eight events (:mod:`evallib.onetestset._bizarre`), and as fast
  for a million cases as for a hundred;
* the confusion matrix as a figure (:func:`plot_confusion_matrix`).

Per-class measures follow scikit-learn's conventions: for class ``c``, precision is
``TP_c / (TP_c + FP_c)``, recall ``TP_c / (TP_c + FN_c)`` and F1 ``2 TP_c / (2 TP_c +
FP_c + FN_c)``; a ratio 0/0 (a class never predicted, or never present) counts as 0
(scikit-learn's ``zero_division=0``). Macro-F1 averages over ``labels`` (by default
every label seen in the true or predicted labels); balanced accuracy averages recall
over the classes that occur in the true labels.

References
----------
P. Flach (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense of
Data*, chapter 12, Examples 12.1-12.2 and 12.5. Cambridge University Press.

J. Keller, S. Bengio and S. Y. Wong. Benchmarking non-parametric statistical tests.
IDIAP research report (the bootstrap of the F1 difference through joint event counts,
section 4).

E. B. Wilson (1927). Probable inference, the law of succession, and statistical
inference. *Journal of the American Statistical Association* 22(158), 209-212.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._compat import renamed_fields, renamed_keywords
from .._f1bootstrap import f1_difference_bootstrap, label_cells
from .._plotting import get_axes
from .._results import freeze_arrays
from .._validate import align_items, check_alpha, check_choice, check_count, check_labels, check_rng
from ._measures import accuracy_interval

__all__ = [
    "MulticlassMeasures",
    "MacroF1Bootstrap",
    "encode_labels",
    "confusion_counts",
    "joint_table",
    "multiclass_measures",
    "per_class_table",
    "multiclass_table",
    "format_multiclass_table",
    "macro_f1_from_confusion",
    "bootstrap_macro_f1_difference",
    "plot_confusion_matrix",
]


# ------------------------------------------------------------------ input
def encode_labels(*columns: Any, names: tuple[str, ...] = (),
                  labels: Any = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """The sorted label set and each column as integer codes ``0..K-1``.

    Parameters
    ----------
    *columns : label sequences of the same length (true labels first, then predictions).
    names : the argument names of the columns, for the messages.
    labels : the label set to use; by default the sorted union of the labels in the
        columns. A value outside ``labels`` raises ``ValueError``.

    Returns
    -------
    labels : numpy.ndarray of object
        The ``K`` labels, in order: ``labels`` as given, or the sorted union (sorted by
        their text when they cannot be compared).
    codes : list of numpy.ndarray of int64
        One array per column, in the order given: each case's label as its position
        ``0..K-1`` in ``labels``.
    """
    names = tuple(names) + tuple(f"column {i}" for i in range(len(names), len(columns)))
    columns = align_items(zip(names, columns))
    arrs = [check_labels(c, nm) for c, nm in zip(columns, names)]
    n = arrs[0].shape[0]
    for a, nm in zip(arrs[1:], names[1:]):
        if a.shape[0] != n:
            raise ValueError(f"{nm} must hold one label per case ({n}), got {a.shape[0]}")
    # Factorise each column once (hash-based, O(n)); only the few distinct values are
    # then matched against the label set.
    facts = [pd.factorize(a) for a in arrs]
    if labels is None:
        uniq = pd.unique(np.concatenate([np.asarray(u, dtype=object) for _, u in facts]))
        try:
            uniq = np.array(sorted(uniq), dtype=object)
        except TypeError:
            uniq = np.array(sorted(uniq, key=str), dtype=object)
    else:
        uniq = check_labels(labels, "labels").astype(object)
        if len(pd.unique(uniq)) != len(uniq):
            raise ValueError("labels must not repeat a label")
    index = pd.Index(uniq, dtype=object)
    codes = []
    for (c, u), nm in zip(facts, names):
        where = index.get_indexer(np.asarray(u, dtype=object))
        if (where < 0).any():
            bad = np.asarray(u, dtype=object)[np.flatnonzero(where < 0)[0]]
            raise ValueError(f"{nm} has the label {bad!r}, which is not in labels")
        codes.append(where[c].astype(np.int64))
    return uniq, codes


def confusion_counts(true_codes: np.ndarray, pred_codes: np.ndarray, k: int) -> np.ndarray:
    """``k x k`` counts, rows the true class, columns the predicted class.

    Parameters
    ----------
    true_codes, pred_codes : numpy.ndarray of int
        The true and the predicted classes of each case as codes ``0..k-1`` (as from
        :func:`encode_labels`), of the same length.
    k : int
        The number of classes, >= 1.

    Returns
    -------
    numpy.ndarray of int
        Shape ``(k, k)``: entry ``(t, p)`` counts the cases of class ``t`` predicted as ``p``.
    """
    return np.bincount(true_codes * k + pred_codes, minlength=k * k).reshape(k, k)


def joint_table(y_true: Any, pred_a: Any, pred_b: Any, *, labels: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The joint table: counts of (true class, prediction of A, prediction of B).

    Parameters
    ----------
    y_true, pred_a, pred_b : sequence
        True labels and the two classifiers' predicted labels, one per case, of the same
        length.
    labels : sequence, optional
        The classes (default: the sorted union of the three columns' labels); a label
        outside it raises ``ValueError``.

    Returns
    -------
    labels : the K labels.
    counts : integer array of shape ``(K, K, K)``; ``counts[t, a, b]`` is the number of
        cases of class ``t`` that A labels ``a`` and B labels ``b``.
    """
    labs, (t, a, b) = encode_labels(y_true, pred_a, pred_b, names=("y_true", "pred_a", "pred_b"),
                                    labels=labels)
    k = len(labs)
    counts = np.bincount((t * k + a) * k + b, minlength=k ** 3).reshape(k, k, k)
    return labs, counts


def _per_class(conf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 of each class from confusion counts ``(..., K, K)``; 0/0 -> 0."""
    conf = np.asarray(conf, dtype=np.float64)
    tp = np.diagonal(conf, axis1=-2, axis2=-1)
    support = conf.sum(axis=-1)
    predicted = conf.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, tp / predicted, 0.0)
        recall = np.where(support > 0, tp / support, 0.0)
        f1 = np.where(support + predicted > 0, 2.0 * tp / (support + predicted), 0.0)
    return precision, recall, f1


def macro_f1_from_confusion(conf: Any) -> Any:
    """Macro-F1 from confusion counts of shape ``(..., K, K)`` (rows true, columns predicted).

    ``F1_c = 2 TP_c / (support_c + predicted_c)``, 0 when both are 0; the mean over the
    K classes. Works on a stack of tables (one per bootstrap replicate).

    Parameters
    ----------
    conf : array_like
        Confusion counts of shape ``(..., K, K)``, rows the true class, columns the
        predicted class.

    Returns
    -------
    float or numpy.ndarray
        The macro-F1 of each table: an array of shape ``conf.shape[:-2]``, a numpy float
        for one table.

    Examples
    --------
    Flach's Example 12.2 table (rows actual positive / negative): F1 of the positives
    0.91 as printed, of the negatives ``2 * 10 / (20 + 15) = 0.571``:

    >>> from evallib.onetestset import macro_f1_from_confusion
    >>> round(float(macro_f1_from_confusion([[75, 5], [10, 10]])), 3)
    0.74
    """
    return _per_class(conf)[2].mean(axis=-1)


# ------------------------------------------------------------------ measures
@dataclass(frozen=True)
class MulticlassMeasures:
    """Accuracy with its interval, balanced accuracy and macro-F1 of one classifier.

    Attributes
    ----------
    accuracy : share of cases classified correctly.
    low, high : Wilson's ``1 - alpha`` score interval for the accuracy.
    balanced_accuracy : mean recall over the classes present in the true labels
        (Flach's average recall).
    macro_f1 : mean F1 over ``labels``.
    majority_accuracy : accuracy of always predicting the most frequent true class (the
        baseline every classifier should beat).
    n : cases.
    k : classes in ``labels``.
    labels : the classes, in order.
    alpha : one minus the interval's coverage.
    method : ``"Wilson"``, the accuracy interval's method.
    """

    accuracy: float
    low: float
    high: float
    balanced_accuracy: float
    macro_f1: float
    majority_accuracy: float
    n: int
    k: int
    labels: tuple
    alpha: float
    method: str = "Wilson"

    def text(self) -> str:
        """The measures as one sentence.

        Returns
        -------
        str
            The accuracy with its Wilson interval and the majority-class accuracy, the
            balanced accuracy and the macro-F1, over ``k`` classes and ``n`` cases.
        """
        level = f"{100 * (1 - self.alpha):g}%"
        return (f"accuracy {self.accuracy:.3f} ({level} Wilson interval {self.low:.3f} to {self.high:.3f}; "
                f"always predicting the most frequent class: {self.majority_accuracy:.3f}), "
                f"balanced accuracy {self.balanced_accuracy:.3f}, macro-F1 {self.macro_f1:.3f} "
                f"over {self.k} classes and {self.n:,} cases")


def multiclass_measures(y_true: Any, pred: Any, *, labels: Any = None, alpha: float = 0.05) -> MulticlassMeasures:
    """Accuracy (Wilson interval), balanced accuracy and macro-F1 for K classes.

    Parameters
    ----------
    y_true, pred : true and predicted labels, one per case.
    labels : the classes to average over (default: the sorted union of the labels in
        ``y_true`` and ``pred``). Pass the same ``labels`` to compare several classifiers
        on the same footing.
    alpha : in (0, 1).

    Returns
    -------
    MulticlassMeasures

    References
    ----------
    Flach (2012), Examples 12.1 (accuracy and average recall) and 12.2 (F-measure);
    Wilson (1927).

    Examples
    --------
    Flach's second classifier of Example 12.1 (75 of 80 positives and 10 of 20
    negatives right): accuracy 0.85 and average recall 0.72 as printed (0.71875):

    >>> import numpy as np
    >>> from evallib.onetestset import multiclass_measures
    >>> y = np.repeat(["pos", "pos", "neg", "neg"], [75, 5, 10, 10])
    >>> pred = np.repeat(["pos", "neg", "pos", "neg"], [75, 5, 10, 10])
    >>> m = multiclass_measures(y, pred)
    >>> m.accuracy, round(m.balanced_accuracy, 2)
    (0.85, 0.72)
    """
    alpha = check_alpha(alpha)
    labs, (t, p) = encode_labels(y_true, pred, names=("y_true", "pred"), labels=labels)
    return _measures_from_codes(t, p, labs, alpha)


def _measures_from_codes(t: np.ndarray, p: np.ndarray, labs: np.ndarray, alpha: float) -> MulticlassMeasures:
    k = len(labs)
    conf = confusion_counts(t, p, k)
    n = int(t.shape[0])
    correct = int(np.trace(conf))
    _, recall, f1 = _per_class(conf)
    support = conf.sum(axis=1)
    ci = accuracy_interval(correct, n, alpha=alpha, method="wilson")
    return MulticlassMeasures(
        accuracy=correct / n, low=ci.low, high=ci.high,
        balanced_accuracy=float(recall[support > 0].mean()), macro_f1=float(f1.mean()),
        majority_accuracy=float(support.max() / n), n=n, k=k, labels=tuple(labs.tolist()), alpha=alpha,
    )


def per_class_table(y_true: Any, pred: Any, *, labels: Any = None) -> pd.DataFrame:
    """Precision, recall, F1 and support of each class (0/0 counts as 0).

    Parameters
    ----------
    y_true, pred : sequence
        True and predicted labels, one per case, of the same length.
    labels : sequence, optional
        The classes, one row each in this order (default: the sorted union of the labels
        in ``y_true`` and ``pred``); a label outside it raises ``ValueError``.

    Returns
    -------
    pandas.DataFrame
        One row per class: ``label, precision, recall, f1, support, predicted``
        (``predicted`` is how often the classifier predicts the class).

    Examples
    --------
    Flach's Example 12.2: precision 75/85 = 0.88, recall 75/80 = 0.94 and F-measure
    0.91 for the positive class:

    >>> import numpy as np
    >>> from evallib.onetestset import per_class_table
    >>> y = np.repeat(["pos", "pos", "neg", "neg"], [75, 5, 10, 10])
    >>> pred = np.repeat(["pos", "neg", "pos", "neg"], [75, 5, 10, 10])
    >>> row = per_class_table(y, pred).set_index("label").loc["pos"]
    >>> [round(float(row[c]), 2) for c in ("precision", "recall", "f1")]
    [0.88, 0.94, 0.91]
    """
    labs, (t, p) = encode_labels(y_true, pred, names=("y_true", "pred"), labels=labels)
    conf = confusion_counts(t, p, len(labs))
    precision, recall, f1 = _per_class(conf)
    return pd.DataFrame({"label": list(labs), "precision": precision, "recall": recall, "f1": f1,
                         "support": conf.sum(axis=1), "predicted": conf.sum(axis=0)})


def multiclass_table(y_true: Any, preds: Any, *, labels: Any = None, alpha: float = 0.05,
                     baseline: bool = True) -> pd.DataFrame:
    """:func:`multiclass_measures` for several classifiers on the same cases, as a tidy table.

    Every classifier is measured over the same classes (``labels``, by default the
    sorted union of the labels in ``y_true`` and all predictions), so their macro-F1 are
    comparable.

    Parameters
    ----------
    y_true : true labels.
    preds : mapping name -> predicted labels (or a DataFrame, one column per classifier).
    labels : the classes (default: the sorted union).
    alpha : in (0, 1), for the Wilson intervals.
    baseline : add a first row ``"majority class"``: always predicting the most
        frequent true class (ties: the first in ``labels``), the baseline every
        classifier should beat.

    Returns
    -------
    pandas.DataFrame
        One row per classifier: ``name, accuracy, low, high, balanced_accuracy,
        macro_f1, n, k, alpha, method``, and ``below_baseline`` (accuracy below the
        majority-class accuracy).

    Examples
    --------
    Flach's Example 12.1, second classifier: accuracy 0.85 against 0.80 for always
    predicting the majority class (80 of the 100 cases are positive):

    >>> import numpy as np
    >>> from evallib.onetestset import multiclass_table
    >>> y = np.repeat(["pos", "pos", "neg", "neg"], [75, 5, 10, 10])
    >>> pred = np.repeat(["pos", "neg", "pos", "neg"], [75, 5, 10, 10])
    >>> table = multiclass_table(y, {"classifier 2": pred})
    >>> table[["name", "accuracy"]].to_numpy().tolist()
    [['majority class', 0.8], ['classifier 2', 0.85]]
    """
    if isinstance(preds, pd.DataFrame):
        preds = {str(c): preds[c].to_numpy() for c in preds.columns}
    if not hasattr(preds, "items") or not preds:
        raise TypeError("preds must be a non-empty mapping name -> predicted labels, or a DataFrame")
    names = [str(k) for k in preds]
    labs, codes = encode_labels(y_true, *preds.values(), names=("y_true", *[f"preds[{n!r}]" for n in names]),
                                labels=labels)
    alpha = check_alpha(alpha)
    t = codes[0]
    if baseline:
        majority = np.full_like(t, int(np.argmax(np.bincount(t, minlength=len(labs)))))
        codes = [t, majority, *codes[1:]]
        names = ["majority class", *names]
    rows = []
    for name, p in zip(names, codes[1:]):
        m = _measures_from_codes(t, p, labs, alpha)
        rows.append({"name": name, "accuracy": m.accuracy, "low": m.low, "high": m.high,
                     "balanced_accuracy": m.balanced_accuracy, "macro_f1": m.macro_f1, "n": m.n, "k": m.k,
                     "alpha": m.alpha, "method": m.method,
                     "below_baseline": bool(m.accuracy < m.majority_accuracy)})
    return pd.DataFrame(rows)


def format_multiclass_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`multiclass_table` as text, three decimals, indexed by classifier.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`multiclass_table` returned.

    Returns
    -------
    pandas.DataFrame
        Strings, indexed by ``classifier``: ``accuracy``, the ``1 - alpha`` Wilson interval
        (its column named by the level), ``balanced accuracy``, ``macro-F1`` and ``note``
        (for a classifier below the majority-class baseline).
    """
    level = f"{100 * (1 - float(table['alpha'].iloc[0])):g}%" if len(table) else "95%"
    out = pd.DataFrame({
        "accuracy": table["accuracy"].map(lambda v: f"{v:.3f}"),
        f"{level} interval (Wilson)": [f"[{lo:.3f}, {hi:.3f}]" for lo, hi in zip(table["low"], table["high"])],
        "balanced accuracy": table["balanced_accuracy"].map(lambda v: f"{v:.3f}"),
        "macro-F1": table["macro_f1"].map(lambda v: f"{v:.3f}"),
        "note": ["below the majority-class baseline" if b else "" for b in table["below_baseline"]],
    })
    out.index = pd.Index(table["name"], name="classifier")
    return out


# ------------------------------------------------------------------ bootstrap
@renamed_fields(reps="n_resamples", difference="estimate")
@dataclass(frozen=True, eq=False)
class MacroF1Bootstrap:
    """The paired bootstrap of the macro-F1 difference of two classifiers.

    Attributes
    ----------
    f1_a, f1_b : macro-F1 of A and B on the test set.
    estimate : ``f1_a - f1_b`` (0 when below 1e-12 in size; ``difference`` before 0.2.0).
    low, high : the central ``1 - alpha`` percentile interval of the replicates of the
        difference.
    share_a_better, share_tied : shares of replicates with ``f1_a* > f1_b*`` and with
        ``f1_a* = f1_b*`` (Keller, Bengio & Wong's eq. 13 reading).
    replicates : the ``n_resamples`` replicates of the difference.
    n_resamples, alpha : the settings.
    n, k : cases and classes.
    labels : the classes.
    cells : non-empty cells of the joint table (at most ``K^3``).
    method : ``"multinomial"`` (the joint table is resampled).

    When A and B make the same prediction on every case, every replicate is 0 and the
    interval is the single point 0: the two cannot differ on any resample.
    """

    f1_a: float
    f1_b: float
    estimate: float
    low: float
    high: float
    share_a_better: float
    share_tied: float
    replicates: np.ndarray
    n_resamples: int
    alpha: float
    n: int
    k: int
    labels: tuple
    cells: int
    method: str = "multinomial"

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def excludes_zero(self) -> bool:
        """Whether 0 lies outside the percentile interval (the bootstrap calls them different)."""
        return self.low > 0 or self.high < 0

    def text(self, a: str = "A", b: str = "B") -> str:
        """The result as one or two sentences, naming the classifiers ``a`` and ``b``.

        Parameters
        ----------
        a, b : str
            The names of the two classifiers (defaults ``"A"`` and ``"B"``).

        Returns
        -------
        str
            Both macro-F1, their difference with its percentile interval and replicates,
            whether the interval excludes 0, and the share of replicates in which ``a`` is
            higher; or, when the two predict alike on every case, that the difference is
            exactly 0.
        """
        level = f"{100 * (1 - self.alpha):g}%"
        if self.share_tied == 1.0:
            return (f"{a} and {b} make the same prediction on every case, so their macro-F1 ({self.f1_a:.3f}) "
                    "is the same on every resample: the difference is exactly 0.")
        verdict = ("the interval excludes 0" if self.excludes_zero
                   else "the interval includes 0: not shown to differ")
        return (f"macro-F1 of {a}: {self.f1_a:.3f}, of {b}: {self.f1_b:.3f}; difference {self.estimate:+.3f}, "
                f"{level} bootstrap interval [{self.low:+.3f}, {self.high:+.3f}] ({self.n_resamples:,} replicates of "
                f"the joint table); {verdict}. {a} has the higher macro-F1 in {self.share_a_better:.1%} "
                "of the replicates.")


@renamed_keywords(reps="n_resamples")
def bootstrap_macro_f1_difference(y_true: Any, pred_a: Any, pred_b: Any, *, n_resamples: int = 10_000,
                                  alpha: float = 0.05, rng: Any = None, labels: Any = None) -> MacroF1Bootstrap:
    """Paired bootstrap percentile interval for ``macro-F1(A) - macro-F1(B)``.

    Resampling the ``n`` cases with replacement (keeping each case's true class and
    both predictions together) changes only the counts of the joint table
    ``(true class, prediction of A, prediction of B)``; so each replicate is drawn as one
    Multinomial(n, counts / n) vector over the non-empty cells of that table, and both
    classifiers' confusion matrices, hence their macro-F1, follow from it. This is the
    distribution of case resampling at a cost independent of ``n`` (at most ``K^3``
    cells), as in Keller, Bengio & Wong's F1 bootstrap (section 4, eqs. 12-14). The cost
    is proportional to ``n_resamples`` times the number of non-empty cells: about 1.5 s for
    10,000 replicates of 1,000 cells (K = 10), whatever ``n``.

    Parameters
    ----------
    y_true, pred_a, pred_b : true labels and the two classifiers' predictions.
    n_resamples : number of replicates, >= 1.
    alpha : in (0, 1); the interval is the ``alpha/2`` and ``1 - alpha/2`` quantiles.
    rng : None, int, SeedSequence or Generator (see :func:`evallib._validate.check_rng`).
    labels : the classes to average over (default: the sorted union of all three
        columns' labels).

    Returns
    -------
    MacroF1Bootstrap

    Examples
    --------
    Two classifiers that agree on every case never differ:

    >>> from evallib.onetestset import bootstrap_macro_f1_difference
    >>> res = bootstrap_macro_f1_difference([0, 1, 2, 2], [0, 2, 2, 2], [0, 2, 2, 2], n_resamples=50, rng=0)
    >>> res.estimate, res.low, res.high
    (0.0, 0.0, 0.0)
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    gen = check_rng(rng)
    labs, (t, a, b) = encode_labels(y_true, pred_a, pred_b, names=("y_true", "pred_a", "pred_b"), labels=labels)
    k = len(labs)
    # The non-empty cells of the joint table, resampled as one multinomial draw per replicate.
    res = f1_difference_bootstrap(*label_cells(t, a, b, k), k, positive=None, n_label=k, keep_absent=False,
                                  n_resamples=n_resamples, alpha=alpha, gen=gen)
    return MacroF1Bootstrap(**res._asdict(), n_resamples=n_resamples, alpha=alpha, n=int(t.size), k=k,
                            labels=tuple(labs.tolist()))


# ------------------------------------------------------------------ plot
def plot_confusion_matrix(y_true: Any, pred: Any, *, labels: Any = None, normalize: str = "none",
                          title: str | None = None, ax: Any = None):
    """The confusion matrix as a heat map, rows the true class, columns the prediction.

    Parameters
    ----------
    y_true, pred : true and predicted labels.
    labels : the classes, in display order (default: sorted union).
    normalize : ``"none"`` (counts), ``"true"`` (each row sums to 1: recall on the
        diagonal) or ``"pred"`` (each column sums to 1: precision on the diagonal).
    title : the Axes title (default "confusion matrix").
    ax : matplotlib Axes; a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
    """
    normalize = check_choice(normalize, "normalize", ("none", "true", "pred"))
    labs, (t, p) = encode_labels(y_true, pred, names=("y_true", "pred"), labels=labels)
    k = len(labs)
    conf = confusion_counts(t, p, k).astype(float)
    if normalize == "true":
        s = conf.sum(axis=1, keepdims=True)
        shown = np.divide(conf, s, out=np.zeros_like(conf), where=s > 0)
    elif normalize == "pred":
        s = conf.sum(axis=0, keepdims=True)
        shown = np.divide(conf, s, out=np.zeros_like(conf), where=s > 0)
    else:
        shown = conf
    side = min(9.0, 2.0 + 0.6 * k)
    ax = get_axes(ax, figsize=(side, side))
    ax.imshow(shown, cmap="Blues", vmin=0)
    if k <= 20:
        top = shown.max() if shown.size else 0
        for i in range(k):
            for j in range(k):
                txt = f"{int(conf[i, j]):,}" if normalize == "none" else f"{shown[i, j]:.2f}"
                ax.text(j, i, txt, ha="center", va="center", fontsize="small",
                        color="white" if top and shown[i, j] > 0.6 * top else "black")
    names = [str(x) for x in labs]
    ax.set_xticks(range(k), names, rotation=45 if max(map(len, names)) > 3 else 0, ha="right"
                  if max(map(len, names)) > 3 else "center")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    ax.set_title(title if title is not None else "confusion matrix")
    return ax
