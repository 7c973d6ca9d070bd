"""The "compare my classifiers" report: an analyst's predictions in, an honest comparison out.

The analyst's file has one row per test case: the true class in a label column, and per
classifier a predicted-label column ``pred_<name>``, a score column ``score_<name>`` (higher
means more likely the positive class), or both; optionally a ``fold`` column when the rows
are the out-of-fold predictions of a cross-validation. :func:`load_predictions` reads and
checks it; one function per section of ``notebooks/report.ipynb`` computes that section's
numbers; :func:`summary_text` turns them into plain sentences, effect sizes and intervals
first, p-values second, as Berrar & Lozano (2013, section 8) recommend; :func:`run_report`
executes the notebook with papermill and writes an HTML page without code cells.

Sections and their sources:

1. :func:`summarise_data` -- sizes, class balance, classifiers, warnings.
2. :func:`classifier_measures` -- Flach (2012), ch. 12: contingency table, accuracy with its
   interval, average recall, precision, recall, F-measure; AUC from the scores.
3. :func:`pairwise_comparison` -- Berrar & Lozano (2013): McNemar, exact p, Holm,
   Quesenberry-Hurst intervals (:func:`evallib.pairwise.compare_pairwise`).
4. :func:`chance_check` -- Forman & Cohen (2005): is the winner better than the best of
   ``C`` random rankings?
5. :func:`top_two_bootstrap` -- Keller, Bengio & Wong: paired bootstrap of the F1 difference.
6. :func:`fold_analysis` -- per-fold accuracy, the corrected resampled t-test, Friedman's
   test and the critical-difference diagram (Flach 2012, ch. 12).
7. :func:`summary_text`.

Every section function returns :class:`Skipped` with a one-line reason when its input is
absent (no scores, no fold column, fewer than two classifiers with predicted labels).
"""

from __future__ import annotations

import math
import numbers
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._validate import check_alpha, check_choice, check_count

__all__ = [
    "ReportInputError",
    "ReportExecutionError",
    "Predictions",
    "Skipped",
    "DataSummary",
    "load_predictions",
    "summarise_data",
    "classifier_measures",
    "format_measures",
    "pairwise_comparison",
    "format_pairwise",
    "summary_text",
    "FoldAnalysis",
    "fold_analysis",
    "best_over_thresholds",
    "ChanceCheck",
    "chance_check",
    "auc_normal_critical",
    "F1Comparison",
    "top_two_bootstrap",
    "run_report",
    "ReportFiles",
    "make_example_predictions",
    "EXAMPLE_PATH",
    "REPORT_NOTEBOOK",
]

#: The repository's shipped example and the report notebook (evallib is installed editable).
_ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_PATH: Path = _ROOT / "data" / "example_predictions.csv"
REPORT_NOTEBOOK: Path = _ROOT / "notebooks" / "report.ipynb"

#: Below this many test cases the data section warns that every interval will be wide.
SMALL_TEST_SET = 100
#: Below this share of the minority class the data section warns of heavy skew.
HEAVY_SKEW = 0.10
#: Below this many cases of the minority class the data section warns too.
FEW_MINORITY = 10

PRED_PREFIX = "pred_"
SCORE_PREFIX = "score_"


class ReportInputError(ValueError):
    """The predictions file cannot be analysed; the message is one plain sentence."""


@dataclass(frozen=True)
class Skipped:
    """A section that does not apply to this file, with the one-line reason."""

    reason: str

    def __str__(self) -> str:
        return f"Skipped: {self.reason}"


# --------------------------------------------------------------------------- loading
@dataclass(frozen=True)
class Predictions:
    """A checked predictions file.

    Attributes
    ----------
    source : where it came from (a path, or ``"<DataFrame>"``).
    label_column : name of the column with the true classes.
    positive, negative : the two classes, as text.
    y : numpy.ndarray of bool, True where the true class is ``positive``.
    labels : dict ``{name: bool array}``, True where the classifier predicts ``positive``;
        only classifiers with a ``pred_<name>`` column.
    scores : dict ``{name: float array}``; only classifiers with a ``score_<name>`` column.
    folds : numpy.ndarray of str, or None without a fold column.
    fold_column : the fold column's name (used or looked for).
    classifiers : every classifier's name, in the order of the file's columns.
    """

    source: str
    label_column: str
    positive: str
    negative: str
    y: np.ndarray
    labels: dict[str, np.ndarray]
    scores: dict[str, np.ndarray]
    folds: np.ndarray | None
    fold_column: str
    classifiers: tuple[str, ...]

    @property
    def n(self) -> int:
        """Number of test cases."""
        return int(self.y.size)

    @property
    def n_pos(self) -> int:
        """Number of positive test cases (Forman & Cohen's P)."""
        return int(self.y.sum())

    @property
    def n_neg(self) -> int:
        """Number of negative test cases (Forman & Cohen's N)."""
        return self.n - self.n_pos


def _key(value: Any) -> str:
    """A label as text, so that ``1``, ``1.0`` and ``"1"`` name the same class."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Real) and math.isfinite(float(value)) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def _quote_list(values) -> str:
    values = [repr(v) for v in values]
    if len(values) <= 2:
        return " and ".join(values)
    return ", ".join(values[:-1]) + " and " + values[-1]


_READERS = {
    ".csv": lambda p: pd.read_csv(p), ".txt": lambda p: pd.read_csv(p),
    ".tsv": lambda p: pd.read_csv(p, sep="\t"), ".tab": lambda p: pd.read_csv(p, sep="\t"),
    ".parquet": pd.read_parquet, ".feather": pd.read_feather, ".json": pd.read_json,
    ".xlsx": pd.read_excel, ".xls": pd.read_excel, ".pkl": pd.read_pickle,
    ".pickle": pd.read_pickle,
}


def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise ReportInputError(f"The predictions file {str(path)!r} does not exist.")
    if path.is_dir():
        raise ReportInputError(f"The predictions file {str(path)!r} is a directory, not a file.")
    reader = _READERS.get(path.suffix.lower(), lambda p: pd.read_csv(p))
    try:
        frame = reader(path)
    except pd.errors.EmptyDataError:
        raise ReportInputError(f"The predictions file {str(path)!r} is empty.") from None
    except UnicodeDecodeError:
        raise ReportInputError(
            f"The predictions file {str(path)!r} could not be read as a table: it is not UTF-8 text."
        ) from None
    except Exception as exc:  # pandas raises many kinds for a malformed file
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportInputError(
            f"The predictions file {str(path)!r} could not be read as a table ({reason})."
        ) from None
    if not isinstance(frame, pd.DataFrame):
        raise ReportInputError(f"The predictions file {str(path)!r} does not hold a table.")
    return frame


def _check_no_missing(values: pd.Series, column: str, need: str, *, nan: bool = False) -> None:
    """Raise ReportInputError if ``values`` has missing entries: how many, and the first row."""
    missing = values.isna().to_numpy()
    if missing.any():
        raise ReportInputError(
            f"The {column} has {int(missing.sum())} missing value(s){' (NaN)' if nan else ''}, the first "
            f"in data row {_first_row(missing)}; {need}."
        )


def _first_row(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0]) + 1


def load_predictions(
    source: str | os.PathLike | pd.DataFrame,
    *,
    label_column: str = "label",
    positive_label: Any = None,
    fold_column: str = "fold",
    pred_prefix: str = PRED_PREFIX,
    score_prefix: str = SCORE_PREFIX,
) -> Predictions:
    """Read and check an analyst's predictions file.

    Parameters
    ----------
    source : path or pandas.DataFrame
        A table with one row per test case. CSV by default; ``.tsv``, ``.parquet``,
        ``.feather``, ``.json``, ``.xlsx`` and ``.pkl`` files are read by the matching
        pandas reader.
    label_column : str, default "label"
        The column holding the true classes (exactly two).
    positive_label : optional
        The positive class. Matched as text, so ``1``, ``"1"`` and ``1.0`` are the same
        class. ``None``: ``1`` when the classes are 0 and 1, ``True`` when they are
        booleans, otherwise the less frequent class (on a tie, the one that sorts last).
    fold_column : str, default "fold"
        Optional column of fold identifiers (rows from a cross-validation).
    pred_prefix, score_prefix : str, default "pred_" and "score_"
        Every other column named ``<pred_prefix><name>`` holds classifier ``<name>``'s
        predicted labels (values from the label column's two classes) and every column
        ``<score_prefix><name>`` its numeric scores, higher meaning more likely positive.
        Other columns are ignored.

    Returns
    -------
    Predictions

    Raises
    ------
    ReportInputError
        With one sentence, for: a missing or unreadable file, an empty table, a missing
        label column, missing labels, other than two classes, a positive label that does
        not occur, no classifier columns or fewer than two classifiers, a missing or
        unknown predicted label, a non-numeric, missing or infinite score, a missing fold.
    """
    if isinstance(source, pd.DataFrame):
        frame, where = source, "<DataFrame>"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        frame, where = _read_table(path), str(path)
    else:
        raise TypeError(f"source must be a file path or a pandas DataFrame, got {type(source).__name__}")
    for value, what in ((label_column, "label column"), (fold_column, "fold column"),
                        (pred_prefix, "prediction column prefix"), (score_prefix, "score column prefix")):
        if not isinstance(value, str) or not value:
            raise ReportInputError(f"The {what} must be given as a non-empty text, got {value!r}.")
    if pred_prefix.startswith(score_prefix) or score_prefix.startswith(pred_prefix):
        raise ReportInputError(
            f"The prefixes {pred_prefix!r} and {score_prefix!r} must not start with one another."
        )
    frame = frame.rename(columns=lambda c: str(c).strip())
    if len(frame) == 0:
        raise ReportInputError(f"The predictions file {where!r} has no rows.")
    if label_column not in frame.columns:
        cols = ", ".join(repr(c) for c in frame.columns[:12])
        raise ReportInputError(
            f"The label column {label_column!r} is not in {where!r}, whose columns are {cols}; "
            "name the column with the true classes with --label-column (label_column=)."
        )
    raw_y = frame[label_column]
    _check_no_missing(raw_y, f"label column {label_column!r}", "every test case needs its true class")
    ykeys = np.array([_key(v) for v in raw_y], dtype=object)
    classes, counts = np.unique(ykeys, return_counts=True)
    if classes.size == 1:
        raise ReportInputError(
            f"The label column {label_column!r} holds only the class {classes[0]!r}; comparing "
            "classifiers needs test cases of both classes."
        )
    if classes.size > 2:
        shown = _quote_list(classes[:6].tolist()) + (" ..." if classes.size > 6 else "")
        raise ReportInputError(
            f"The label column {label_column!r} holds {classes.size} classes ({shown}); this report "
            "handles two-class problems only."
        )
    if positive_label is None or (isinstance(positive_label, str) and not positive_label.strip()):
        keyset = set(classes.tolist())
        if keyset == {"0", "1"}:
            positive = "1"
        elif keyset == {"False", "True"}:
            positive = "True"
        else:
            order = np.lexsort((np.arange(2), counts))  # fewest first; tie: sorted order
            positive = str(classes[order[0]]) if counts[0] != counts[1] else str(classes[1])
    else:
        positive = _key(positive_label)
        if positive not in classes:
            raise ReportInputError(
                f"The positive label {positive!r} does not occur in the label column "
                f"{label_column!r}, whose classes are {_quote_list(classes.tolist())}."
            )
    negative = str(classes[0] if classes[1] == positive else classes[1])
    y = ykeys == positive

    labels: dict[str, np.ndarray] = {}
    scores: dict[str, np.ndarray] = {}
    names: list[str] = []
    for col in frame.columns:
        if col == label_column or col == fold_column:
            continue
        for prefix in (pred_prefix, score_prefix):
            if col.startswith(prefix):
                name = col[len(prefix):]
                if not name:
                    raise ReportInputError(
                        f"The column {col!r} names no classifier; call it {prefix}<name>."
                    )
                if name not in names:
                    names.append(name)
                values = frame[col]
                if prefix == pred_prefix:
                    labels[name] = _check_pred_column(values, col, classes, positive, label_column)
                else:
                    scores[name] = _check_score_column(values, col)
    if not names:
        cols = ", ".join(repr(c) for c in frame.columns[:12])
        raise ReportInputError(
            f"No classifier columns were found in {where!r} (columns: {cols}); name them "
            f"{pred_prefix}<name> for predicted labels and/or {score_prefix}<name> for scores."
        )
    if len(names) < 2:
        raise ReportInputError(
            f"Only one classifier ({names[0]!r}) was found; the report compares at least two "
            f"classifiers, each given as a {pred_prefix}<name> or {score_prefix}<name> column."
        )

    folds = None
    if fold_column in frame.columns:
        f = frame[fold_column]
        _check_no_missing(f, f"fold column {fold_column!r}", "every row needs its fold")
        folds = np.array([_key(v) for v in f], dtype=object)
        if np.unique(folds).size < 2:
            raise ReportInputError(
                f"The fold column {fold_column!r} holds a single fold; give at least two folds or "
                "remove the column."
            )
    return Predictions(
        source=where, label_column=label_column, positive=positive, negative=negative, y=y,
        labels=labels, scores=scores, folds=folds, fold_column=fold_column,
        classifiers=tuple(names),
    )


def _check_pred_column(values: pd.Series, col: str, classes: np.ndarray, positive: str,
                       label_column: str) -> np.ndarray:
    _check_no_missing(values, f"prediction column {col!r}", "every classifier must predict every test case",
                      nan=True)
    keys = np.array([_key(v) for v in values], dtype=object)
    unknown = ~np.isin(keys, classes)
    if unknown.any():
        bad = keys[unknown][0]
        raise ReportInputError(
            f"The prediction column {col!r} holds {bad!r} in data row {_first_row(unknown)}, which "
            f"is not one of the classes {_quote_list(classes.tolist())} of the label column "
            f"{label_column!r}."
        )
    return keys == positive


def _check_score_column(values: pd.Series, col: str) -> np.ndarray:
    if values.dtype == bool:
        raise ReportInputError(f"The score column {col!r} holds booleans; scores must be numbers.")
    numeric = pd.to_numeric(values, errors="coerce")
    bad = (numeric.isna() & values.notna()).to_numpy()
    if bad.any():
        raise ReportInputError(
            f"The score column {col!r} is not numeric: data row {_first_row(bad)} holds "
            f"{str(values.iloc[int(np.flatnonzero(bad)[0])])!r}."
        )
    _check_no_missing(values, f"score column {col!r}", "every classifier must score every test case", nan=True)
    arr = numeric.to_numpy(dtype=float)
    infinite = ~np.isfinite(arr)
    if infinite.any():
        raise ReportInputError(
            f"The score column {col!r} holds an infinite value in data row {_first_row(infinite)}."
        )
    return arr


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
    """

    n: int
    n_pos: int
    n_neg: int
    positive: str
    negative: str
    n_folds: int
    classifiers: pd.DataFrame
    warnings: tuple[str, ...]

    def text(self) -> str:
        """The summary as deterministic plain text (what the report prints)."""
        lines = [
            f"test cases: {self.n}",
            f"positive class {self.positive!r}: {self.n_pos} ({self.n_pos / self.n:.1%})",
            f"negative class {self.negative!r}: {self.n_neg} ({self.n_neg / self.n:.1%})",
            f"folds: {self.n_folds if self.n_folds else 'none (one test set)'}",
            f"classifiers: {len(self.classifiers)}",
        ]
        for name, row in self.classifiers.iterrows():
            what = " and ".join(w for w, has in (("predicted labels", row["labels"]),
                                                 ("scores", row["scores"])) if has)
            lines.append(f"  {name}: {what}")
        lines += [f"warning: {w}" for w in self.warnings] or ["warnings: none"]
        return "\n".join(lines)


def summarise_data(data: Predictions) -> DataSummary:
    """Section 1: sizes, class balance, the classifiers and warnings.

    Warnings are raised for fewer than :data:`SMALL_TEST_SET` test cases (the accuracy
    interval's half-width is then quoted), a minority class below :data:`HEAVY_SKEW` of
    the cases, or fewer than :data:`FEW_MINORITY` minority cases.
    """
    n, p, neg = data.n, data.n_pos, data.n_neg
    warnings = []
    if n < SMALL_TEST_SET:
        half = 1.96 * math.sqrt(0.25 / n)
        warnings.append(
            f"small test set: with {n} cases an accuracy near 50% is only known to about "
            f"+/-{half:.0%} (95% interval), so small differences cannot be resolved."
        )
    minority, share = min(p, neg), min(p, neg) / n
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
        {"labels": [c in data.labels for c in data.classifiers],
         "scores": [c in data.scores for c in data.classifiers]},
        index=pd.Index(list(data.classifiers), name="classifier"),
    )
    n_folds = 0 if data.folds is None else int(np.unique(data.folds).size)
    return DataSummary(n=n, n_pos=p, n_neg=neg, positive=data.positive, negative=data.negative,
                       n_folds=n_folds, classifiers=table, warnings=tuple(warnings))


# --------------------------------------------------------------------- section 2
def _auc(y: np.ndarray, score: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, score))


def classifier_measures(data: Predictions, *, alpha: float = 0.05) -> pd.DataFrame:
    """Section 2: each classifier's contingency table and measures (Flach 2012, ch. 12).

    Parameters
    ----------
    data : Predictions
    alpha : float
        The accuracy interval has coverage ``1 - alpha`` (Wilson's score interval, from
        :func:`evallib.measures.accuracy_interval`; it stays informative at accuracies
        near 0 or 1, where the book's normal interval collapses).

    Returns
    -------
    pandas.DataFrame
        Indexed by classifier: ``TP, FN, FP, TN``; ``accuracy`` with ``acc_low`` and
        ``acc_high``; ``avg_recall`` (the mean of the two per-class recalls, Flach's
        "average recall"); ``precision`` (TP / (TP + FP)), ``recall`` (TP / P) and ``F1``
        (``2 TP / (2 TP + FP + FN)``), all from :func:`evallib.measures.measures`; ``AUC``
        from the scores (scikit-learn's ``roc_auc_score``, ties counted as one half).
        Measures that need predicted labels are NaN for a classifier given only by
        scores, and ``AUC`` is NaN without scores. Precision is NaN (undefined, 0/0) when
        a classifier predicts no positive; F1 is then 0, since the file has positives.
    """
    from .measures import accuracy_interval, measures as flach_measures

    alpha = check_alpha(alpha)
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
    return out


def _fmt(v: Any, spec: str) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA else format(v, spec)


def format_measures(table: pd.DataFrame) -> pd.DataFrame:
    """Section 2's table as text: counts, three decimals, the interval as ``[low, high]``."""
    alpha = table.attrs.get("alpha", 0.05)
    out = pd.DataFrame(index=table.index)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = [_fmt(v, "d") if v is not pd.NA else "-" for v in table[c]]
    out["accuracy"] = [_fmt(v, ".3f") for v in table["accuracy"]]
    out[f"{100 * (1 - alpha):g}% interval"] = [
        "-" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
        for lo, hi in zip(table["acc_low"], table["acc_high"])
    ]
    for c, label in (("avg_recall", "avg recall"), ("precision", "precision"),
                     ("recall", "recall"), ("F1", "F1"), ("AUC", "AUC")):
        out[label] = [_fmt(v, ".3f") for v in table[c]]
    return out


# --------------------------------------------------------------------- section 3
def pairwise_comparison(data: Predictions, *, alpha: float = 0.05, adjust: str = "holm"):
    """Section 3: Berrar & Lozano's table for every pair of classifiers with labels.

    Calls :func:`evallib.pairwise.compare_pairwise` (McNemar with Yates' correction, the
    exact p-value, Holm's levels, Quesenberry-Hurst intervals) and sorts the pairs by
    effect, the observed ``|difference in error rate|``, largest first (ties: smaller p
    first). Adds the signed view: ``better`` (the classifier with fewer errors, or
    ``"tie"``), ``diff`` (error rate of the first minus the second, eq. 4's ``p_b - p_c``)
    and its signed ``1 - alpha`` interval ``diff_low``/``diff_high``.

    Returns
    -------
    pandas.DataFrame or Skipped
        Skipped when fewer than two classifiers have predicted labels.
    """
    from .pairwise import compare_pairwise, qh_interval

    alpha = check_alpha(alpha)
    if len(data.labels) < 2:
        return Skipped(
            f"only {len(data.labels)} classifier(s) with predicted labels; McNemar's test and the "
            "intervals compare the predicted labels of two classifiers."
        )
    y = np.where(data.y, data.positive, data.negative)
    preds = {name: np.where(p, data.positive, data.negative) for name, p in data.labels.items()}
    table = compare_pairwise(y, preds, alpha=alpha, adjust=adjust)
    attrs = dict(table.attrs)
    table = table.sort_values(["estimate", "p"], ascending=[False, True], kind="stable")
    table = table.reset_index(drop=True)
    signed = [qh_interval(int(b), int(c), int(n), alpha=alpha, signed=True)
              for b, c, n in zip(table["b"], table["c"], table["n"])]
    table["diff"] = (table["b"] - table["c"]) / table["n"]
    table["diff_low"] = [s.low for s in signed]
    table["diff_high"] = [s.high for s in signed]
    table["better"] = [i if b < c else (j if c < b else "tie")
                       for (i, j), b, c in zip(table["pair"], table["b"], table["c"])]
    table.attrs.update(attrs)
    return table


def format_pairwise(table: pd.DataFrame) -> pd.DataFrame:
    """Section 3's table as text, in the order of ``table`` (largest effect first)."""
    from .pairwise import format_table

    out = format_table(table)
    out.index = pd.Index([f"{i} vs {j}" for i, j in table["pair"]], name="pair")
    out.insert(0, "fewer errors", list(table["better"]))
    out.insert(3, "error rate A - B [interval]", [
        f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        for d, lo, hi in zip(table["diff"], table["diff_low"], table["diff_high"])
    ])
    return out


# --------------------------------------------------------------------- section 4
def best_over_thresholds(y: np.ndarray, score: np.ndarray) -> tuple[float, float]:
    """Best accuracy and best F-measure over all thresholds of a score (Forman & Cohen).

    The cases are ranked by decreasing score and every cut between two distinct score
    values (and the cut above all of them, calling everything negative) is tried, as in
    Forman & Cohen's walk along the ROC curve; tied scores stay on the same side.

    Parameters
    ----------
    y : array of bool, True for the positive class (at least one of each class)
    score : array of float, higher = more likely positive

    Returns
    -------
    (best_accuracy, best_f1)
        ``max (TP + TN) / n`` and ``max 2 TP / (P + TP + FP)`` over the cuts.
    """
    y = np.asarray(y, dtype=bool)
    score = np.asarray(score, dtype=float)
    order = np.argsort(-score, kind="stable")
    ys, ss = y[order], score[order]
    last = np.r_[ss[1:] != ss[:-1], True]  # end of each group of tied scores
    tp = np.r_[0, np.cumsum(ys)[last]]
    fp = np.r_[0, np.cumsum(~ys)[last]]
    P, N = int(y.sum()), int((~y).sum())
    accuracy = (tp + (N - fp)) / (P + N)
    f1 = 2 * tp / (P + tp + fp)
    return float(accuracy.max()), float(f1.max())


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
    :data:`evallib.nullbest.MAX_LATTICE` (:func:`auc_normal_critical`).
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
            "p-value": t["p"].map(lambda v: f"{v:.2g}"),
            "better than chance": t["beats_chance"].map({True: "yes", False: "no"}),
            "law": t["law"],
        }, index=t.index)

    def summary(self) -> str:
        """One sentence for section 7."""
        parts = []
        for metric, r in self.table.iterrows():
            verdict = "beats" if r["beats_chance"] else "does not beat"
            how = "" if metric == "AUC" else (
                " at the best threshold of its scores" if r["from"].startswith("best") else
                " at its own threshold")
            parts.append(f"{r['winner']}'s {metric[5:] if metric.startswith('best ') else metric} "
                         f"of {r['value']:.3f}{how} {verdict} the critical value "
                         f"{r['critical']:.3f} (p = {r['p']:.2g})")
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
    random rankings scores at least as much (:func:`evallib.nullbest.judge_winner`, exact).

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
    from .nullbest import MAX_LATTICE, judge_winner

    alpha = check_alpha(alpha)
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
            candidates["best accuracy"].append((name, acc, "best threshold of its scores"))
            candidates["best F1"].append((name, f1, "best threshold of its scores"))
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
            crit, p, significant, law = (verdict.critical_value, verdict.p_value,
                                         verdict.significant, "exact")
        rows.append({"metric": metric, "winner": name, "value": value, "from": how,
                     "critical": crit, "p": p, "beats_chance": bool(significant), "law": law})
    table = pd.DataFrame(rows, columns=["metric", "winner", "value", "from", "critical", "p",
                                        "beats_chance", "law"]).set_index("metric")
    return ChanceCheck(table=table, C=C, P=P, N=N, alpha=alpha, notes=tuple(notes))


def auc_normal_critical(auc: float, P: int, N: int, *, C: int = 1, alpha: float = 0.05) -> tuple[float, float]:
    """Forman & Cohen's critical AUC and p-value from the normal law of Mann-Whitney's U.

    For test sets too large for the exact law (``P * N`` above
    :data:`evallib.nullbest.MAX_LATTICE`). Under the null hypothesis ``U = AUC * P * N``
    has mean ``P N / 2`` and variance ``P N (P + N + 1) / 12``; with a continuity
    correction, ``m*`` is the smallest attainable AUC ``u / (P N)`` with
    ``Phi((u + 1/2 - mean) / sd) >= (1 - alpha)^(1/C)``, and the p-value is
    ``1 - (1 - g)^C`` with ``g = 1 - Phi((u - 1/2 - mean) / sd)``.

    Returns
    -------
    (critical_auc, pvalue)
    """
    from scipy import stats

    alpha = check_alpha(alpha)
    C = check_count(C, "C", minimum=1)
    P, N = check_count(P, "P", minimum=1), check_count(N, "N", minimum=1)
    mean, sd = P * N / 2.0, math.sqrt(P * N * (P + N + 1) / 12.0)
    q = (1.0 - alpha) ** (1.0 / C)
    u_star = math.ceil(mean + sd * float(stats.norm.ppf(q)) - 0.5 - 1e-9)
    u = round(float(auc) * P * N)
    g = float(stats.norm.sf((u - 0.5 - mean) / sd))
    p = float(-np.expm1(C * np.log1p(-g))) if g < 1.0 else 1.0
    return min(u_star, P * N) / (P * N), p


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
    reps, alpha, seed : the bootstrap's settings.
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
    seed: int

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
            f"F1 of {self.best}: {self.f1_best:.3f}; F1 of {self.second}: {self.f1_second:.3f}\n"
            f"difference {self.difference:+.3f}, {level} bootstrap interval "
            f"[{self.low:+.3f}, {self.high:+.3f}] ({self.reps} replicates, seed {self.seed})\n"
            f"{self.best} keeps the higher F1 in {self.share_best_better:.1%} of the replicates "
            f"(the two tie in {self.share_tied:.1%}); "
            f"{verdict}"
        )

    def summary(self) -> str:
        """One sentence for section 7."""
        level = f"{100 * (1 - self.alpha):g}%"
        return (
            f"By F-measure the leaders are {self.best} ({self.f1_best:.3f}) and {self.second} "
            f"({self.f1_second:.3f}): a difference of {self.difference:.3f} with {level} bootstrap "
            f"interval {self.low:+.3f} to {self.high:+.3f}"
            + (" (excludes 0)" if self.excludes_zero else " (includes 0, so no clear winner)")
            + f"; {self.best} stays ahead in {self.share_best_better:.0%} of the resamples"
            + (f" and ties in {self.share_tied:.0%}." if self.share_tied >= 0.005 else ".")
        )


def top_two_bootstrap(
    data: Predictions, measures: pd.DataFrame, *, reps: int = 10_000, alpha: float = 0.05,
    seed: int = 0,
):
    """Section 5: paired bootstrap of the F1 difference of the two best classifiers by F1.

    The two classifiers with predicted labels and the highest F1 in ``measures`` (ties:
    the earlier in the file first) are compared by
    :func:`evallib.bizarre.bootstrap_f1_difference` (Keller, Bengio & Wong, eqs. 12-14):
    test cases are resampled with replacement, keeping each case's pair of predictions
    together, and the percentile interval of ``F1_best - F1_second`` is reported.

    Returns
    -------
    F1Comparison or Skipped
        Skipped with fewer than two classifiers with predicted labels.
    """
    from .bizarre import bootstrap_f1_difference

    alpha = check_alpha(alpha)
    reps = check_count(reps, "reps", minimum=1)
    seed = check_count(seed, "seed")
    if len(data.labels) < 2:
        return Skipped(
            f"only {len(data.labels)} classifier(s) with predicted labels; the bootstrap compares "
            "the F-measures of two."
        )
    f1 = measures.loc[list(data.labels), "F1"].astype(float)
    order = sorted(range(len(f1)), key=lambda i: (-f1.iloc[i], i))
    best, second = f1.index[order[0]], f1.index[order[1]]
    res = bootstrap_f1_difference(data.y.astype(int), data.labels[best].astype(int),
                                  data.labels[second].astype(int), reps=reps, alpha=alpha, seed=seed)
    # The module reports dF1 = F1_B - F1_A with A = best; turn it round.
    return F1Comparison(
        best=str(best), second=str(second), f1_best=float(res.f1_a), f1_second=float(res.f1_b),
        difference=0.0 - float(res.observed), low=0.0 - float(res.interval[1]),
        high=0.0 - float(res.interval[0]), share_best_better=float(res.p_negative),
        share_tied=float(1.0 - res.p_negative - res.p_positive), reps=reps, alpha=alpha, seed=seed,
    )


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
    ttest : :class:`evallib.cvtests.CVTTestResult` of the corrected resampled t-test of
        ``best`` against ``second``.
    test_train_ratio : ``n_test / n_train`` used by the correction (mean over folds).
    interval : the ``1 - alpha`` interval of the mean accuracy difference.
    friedman : :class:`evallib.ranktests.FriedmanResult` over the folds.
    cd : :class:`evallib.ranktests.CriticalDifference` (Nemenyi) for the average ranks.
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
        return (
            f"Across the {len(self.per_fold)} folds, {ahead} ({level} interval "
            f"{_pct(lo)} to {_pct(hi)}, corrected resampled t-test p = {self.ttest.pvalue:.2g}); "
            f"Friedman's test over the folds gives p = {self.friedman.pvalue:.2g}."
        )


def fold_analysis(data: Predictions, *, alpha: float = 0.05):
    """Section 6: per-fold accuracy, the corrected resampled t-test, Friedman and the CD.

    For each fold, the accuracy of every classifier with predicted labels. The two with
    the highest mean per-fold accuracy (ties: the earlier in the file) are compared by
    :func:`evallib.cvtests.corrected_resampled_ttest` (Nadeau & Bengio), with
    ``n_test/n_train`` the mean over folds of ``fold size / (n - fold size)``, the
    k-fold value ``1/(k - 1)`` for equal folds. All classifiers are ranked in each fold
    and compared by :func:`evallib.ranktests.friedman` and the Nemenyi critical
    difference (:func:`evallib.ranktests.critical_difference`), as Flach ranks
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
    from .cvtests import corrected_resampled_ttest
    from .ranktests import critical_difference, friedman

    alpha = check_alpha(alpha)
    if data.folds is None:
        return Skipped(f"the file has no fold column ({data.fold_column!r}), so its rows are one "
                       "test set, not cross-validation folds.")
    if len(data.labels) < 2:
        return Skipped(f"only {len(data.labels)} classifier(s) with predicted labels; the fold "
                       "comparison needs two.")
    order = _fold_order(data.folds)
    per_fold = pd.DataFrame(
        {name: [float(np.mean(pred[data.folds == f] == data.y[data.folds == f])) for f in order]
         for name, pred in data.labels.items()},
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


# --------------------------------------------------------------------- section 7
def _pct(v: float) -> str:
    return f"{100 * v + 0.0:.1f}"  # + 0.0 turns -0.0 into 0.0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_text(
    data: Predictions,
    *,
    measures: pd.DataFrame,
    pairwise: Any = None,
    chance: Any = None,
    bootstrap: Any = None,
    folds: Any = None,
    alpha: float = 0.05,
) -> str:
    """Section 7: the findings in plain sentences, effect sizes and intervals first.

    In the spirit of Berrar & Lozano (2013, section 8): each statement gives the size of
    an effect and its interval, and only then the p-value. Sections that were skipped
    (or not passed) are left out.

    Parameters
    ----------
    data : Predictions
    measures : DataFrame from :func:`classifier_measures`
    pairwise, chance, bootstrap, folds : results of sections 3-6, or Skipped/None
    alpha : float
        The level the results were computed at.

    Returns
    -------
    str
        Markdown bullet points.
    """
    level = f"{100 * (1 - alpha):g}%"
    out: list[str] = []
    lab = measures.dropna(subset=["accuracy"])
    if len(lab):
        best = lab["accuracy"].astype(float).idxmax()
        r = lab.loc[best]
        out.append(
            f"**{best}** has the highest accuracy, {_pct(r.accuracy)}% ({level} interval "
            f"{_pct(r.acc_low)}% to {_pct(r.acc_high)}%) on {data.n} test cases; its average "
            f"recall is {_pct(r.avg_recall)}% and its F-measure {r.F1:.3f}."
        )
    aucs = measures["AUC"].dropna()
    if len(aucs):
        best = aucs.astype(float).idxmax()
        out.append(f"The best ranking by AUC is **{best}**'s, AUC = {aucs[best]:.3f}.")
    if isinstance(pairwise, pd.DataFrame) and len(pairwise):
        wr = pairwise.attrs.get("error_rates", {})
        ranked = sorted(wr, key=lambda k: wr[k])
        if len(ranked) >= 2:
            a, b = ranked[0], ranked[1]
            row = pairwise[pairwise["pair"].map(lambda p: set(p) == {a, b})].iloc[0]
            if row["pair"][0] == a:  # diff is the first's error rate minus the second's
                adv, lo, hi = 0.0 - row["diff"], 0.0 - row["diff_high"], 0.0 - row["diff_low"]
            else:
                adv, lo, hi = row["diff"], row["diff_low"], row["diff_high"]
            verdict = ("the interval includes zero, so the data cannot tell them apart"
                       if lo <= 0 <= hi else "the interval excludes zero")
            who = (f"{a} makes {_pct(adv)} percentage points fewer errors" if adv > 0 else
                   f"they make the same number of errors, disagreeing on {row['b'] + row['c']} cases")
            out.append(
                f"The two classifiers with the fewest errors, {a} and {b}: {who} ({level} interval "
                f"{_pct(lo)} to {_pct(hi)} points); {verdict}. McNemar's test gives "
                f"p = {row['p']:.2g} (exact p = {row['p_exact']:.2g})."
            )
        top = pairwise.iloc[0]
        i, j = top["pair"]
        adj = pairwise.attrs.get("adjust", "holm")
        adjusted = {"holm": "Holm-adjusted", "bonferroni": "Bonferroni-adjusted"}.get(adj)
        out.append(
            f"The largest difference is between {i} and {j}: {_pct(top['estimate'])} percentage "
            f"points in error rate, {level} interval {_pct(top['ci_low'])} to {_pct(top['ci_high'])} "
            f"points" + (f" ({adjusted}: {_pct(top['ci_adj_low'])} to {_pct(top['ci_adj_high'])})"
                         if adjusted and len(pairwise) > 1 else "")
            + f"; p = {top['p']:.2g}."
        )
        rejected = [f"{i} vs {j}" for (i, j), rej in zip(pairwise["pair"], pairwise["reject"]) if rej]
        m = len(pairwise)
        lead = (f"With {adjusted[:-9]}'s adjustment for {_plural(m, 'comparison')}" if adjusted
                else f"Without adjustment for {'the ' if m > 1 else ''}{_plural(m, 'comparison')}")
        if rejected:
            out.append(
                f"{lead}, {len(rejected)} of the pairwise differences "
                f"{'is' if len(rejected) == 1 else 'are'} significant at alpha = {alpha:g}: "
                f"{', '.join(rejected)}."
            )
        else:
            out.append(f"{lead}, none of the pairwise differences is significant at alpha = {alpha:g}.")
    for extra in (chance, bootstrap, folds):
        sentence = getattr(extra, "summary", None)
        if callable(sentence):
            out.append(sentence())
    if len(data.labels) and data.n < SMALL_TEST_SET:
        out.append(
            f"With only {data.n} test cases every interval above is wide; more test cases, not more "
            "tests, would sharpen these conclusions."
        )
    return "\n".join(f"- {s}" for s in out)


# ----------------------------------------------------------------------- runner
@dataclass(frozen=True)
class ReportFiles:
    """The files :func:`run_report` wrote: the HTML page and the executed notebook."""

    html: Path
    notebook: Path


class ReportExecutionError(RuntimeError):
    """The report notebook failed; the message is the notebook's error in one sentence."""


def _progress(enabled: bool, message: str) -> None:
    if enabled:
        print(message, file=sys.stderr, flush=True)


# The lab template without its scripts from a CDN (require.js for widgets, MathJax, Mermaid):
# the report has no widgets, TeX or diagrams, so the page works offline; CSS and figures
# are inline.
_OFFLINE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""


def _html_exporter():
    """nbconvert's HTML exporter for the report: no code, no prompts, no opening cell."""
    import jinja2
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    exporter = HTMLExporter(
        exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True,
        extra_loaders=[jinja2.DictLoader({"evallib_report.html.j2": _OFFLINE_TEMPLATE})],
        template_file="evallib_report.html.j2",
    )
    # The notebook's opening cell explains how to run it; the page starts with the title.
    exporter.register_preprocessor(
        TagRemovePreprocessor(remove_cell_tags={"report-hide"}, enabled=True), enabled=True)
    return exporter


def run_report(
    predictions: str | os.PathLike,
    output: str | os.PathLike,
    *,
    label_column: str = "label",
    positive_label: Any = None,
    fold_column: str = "fold",
    pred_prefix: str = PRED_PREFIX,
    score_prefix: str = SCORE_PREFIX,
    alpha: float = 0.05,
    adjust: str = "holm",
    classifiers_tried: int | None = None,
    title: str | None = None,
    seed: int = 0,
    progress: bool = True,
    timeout: int = 600,
) -> ReportFiles:
    """Execute ``notebooks/report.ipynb`` on a predictions file and write the HTML report.

    Steps (each announced on stderr when ``progress``): the input is checked with
    :func:`load_predictions` (so bad input fails in a second, before any kernel starts);
    papermill executes the notebook with the parameters (with a progress bar over the
    cells); nbconvert writes a self-contained HTML page without code cells. Both files are
    written under temporary names in the output folder and moved into place only when
    everything succeeded, so a failed run leaves no file that looks like a finished report.

    Parameters
    ----------
    predictions : path
        The predictions file (see :func:`load_predictions`).
    output : path
        The HTML file to write; the executed notebook goes beside it (same name, ``.ipynb``).
    label_column, positive_label, fold_column, pred_prefix, score_prefix
        The column roles, see :func:`load_predictions`.
    alpha : float
        Significance level, in (0, 1).
    adjust : {"holm", "bonferroni", "none"}
        Multiple-testing adjustment of the pairwise section.
    classifiers_tried : int, optional
        Forman & Cohen's C, the number of classifiers tried before these were chosen;
        ``None`` = the number of classifiers in the file.
    title : str, optional
        Report title; default "Classifier comparison: <file name>".
    seed : int
        Seed of the bootstrap (section 5).
    progress : bool
        Print the steps and papermill's progress bar.
    timeout : int
        Seconds allowed per notebook cell.

    Returns
    -------
    ReportFiles

    Raises
    ------
    ReportInputError
        Bad input, with one sentence (nothing is written).
    ReportExecutionError
        The notebook failed for another reason (nothing is written).
    """
    pred_path = Path(predictions).expanduser().resolve()
    out_html = Path(output).expanduser().resolve()
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise ReportInputError(f"The output file {str(output)!r} must end in .html.")
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ("holm", "bonferroni", "none"))
    if classifiers_tried is not None:
        classifiers_tried = check_count(classifiers_tried, "classifiers_tried", minimum=1)
    seed = check_count(seed, "seed")

    _progress(progress, f"[1/3] checking {predictions}")
    roles = dict(label_column=label_column, fold_column=fold_column, pred_prefix=pred_prefix,
                 score_prefix=score_prefix)
    data = load_predictions(Path(predictions).expanduser(), positive_label=positive_label, **roles)
    if classifiers_tried is not None and classifiers_tried < len(data.classifiers):
        raise ReportInputError(
            f"classifiers_tried must be at least the {len(data.classifiers)} classifiers in the "
            f"file, got {classifiers_tried}."
        )
    params = dict(
        predictions=str(pred_path), **roles,
        positive_label=None if positive_label is None else str(positive_label),
        alpha=alpha, adjust=adjust, classifiers_tried=classifiers_tried,
        title=title or f"Classifier comparison: {pred_path.name}", seed=seed,
    )
    import nbformat
    import papermill

    from ._kernel import PatientKernelManager

    if not REPORT_NOTEBOOK.is_file():
        raise ReportExecutionError(
            f"The report notebook {REPORT_NOTEBOOK} is missing: run_report uses the repository's "
            "notebooks/ folder, so install evallib editable from a clone (`make venv` does)."
        )
    out_html.parent.mkdir(parents=True, exist_ok=True)
    out_nb = out_html.with_suffix(".ipynb")
    tmp_dir = Path(tempfile.mkdtemp(prefix=f".{out_html.stem}.", dir=out_html.parent))
    try:
        tmp_nb = tmp_dir / out_nb.name
        _progress(progress, f"[2/3] running the report notebook ({len(data.classifiers)} classifiers, "
                            f"{data.n} test cases)")
        try:
            papermill.execute_notebook(
                str(REPORT_NOTEBOOK), str(tmp_nb), parameters=params, cwd=str(REPORT_NOTEBOOK.parent),
                kernel_name="python3", progress_bar=progress, execution_timeout=timeout,
                log_output=False, kernel_manager_class=PatientKernelManager,
            )
        except papermill.PapermillExecutionError as exc:
            message = (exc.evalue or exc.ename).strip().splitlines()[0]
            if exc.ename == "ReportInputError":
                raise ReportInputError(message) from None
            raise ReportExecutionError(f"The report notebook failed: {exc.ename}: {message}") from None
        _progress(progress, f"[3/3] writing {out_html}")
        nb = nbformat.read(tmp_nb, as_version=4)
        exporter = _html_exporter()
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": params["title"]}})
        tmp_html = tmp_dir / out_html.name
        tmp_html.write_text(body, encoding="utf-8")
        os.replace(tmp_nb, out_nb)
        os.replace(tmp_html, out_html)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
    _progress(progress, f"done: {out_html} (executed notebook: {out_nb})")
    return ReportFiles(html=out_html, notebook=out_nb)


# ------------------------------------------------------------------ the example
def make_example_predictions(*, seed: int = 0) -> pd.DataFrame:
    """The shipped example: the five case-study models on their test set.

    Runs :func:`evallib.casestudy.run_case_study` on GSE4335 (loaded from the SurvSet
    package) with its defaults and ``seed``, and stores, per test case, the true ER status
    (``"ER+"``/``"ER-"``) and each model's prediction; models #1-#3 (DLDA) also get a
    score, ``dlda(x, ER+) - dlda(x, ER-)`` of eq. (6), higher meaning closer to ER-, the
    less frequent class and so the report's default positive class. The DLDA models are
    refitted on the study's learning set (model #3 on the same corrupted labels, redrawn
    from the same seed) so that their scores can be stored; the test suite checks that the
    refitted models predict exactly what the study's did.

    Returns
    -------
    pandas.DataFrame
        Columns ``label``, ``pred_<m>`` for the five models and ``score_<m>`` for the
        three DLDA models (scores rounded to 6 decimals); no expression data.
    """
    from .casestudy import run_case_study
    from .data import load_gse4335
    from .models import DLDA, swap_labels

    X, y = load_gse4335()
    study = run_case_study(X, y, seed=seed)
    Xa, ya = X.to_numpy(dtype=float), y.to_numpy()
    learn, test = study.learn_idx, study.test_idx
    y_learn = ya[learn]
    _, g_swap, _, _ = np.random.default_rng(seed).spawn(4)
    y_corrupt = swap_labels(y_learn, 5, rng=g_swap)
    cols = {name: i for i, name in enumerate(X.columns)}
    names = {1: "dlda30", 2: "dlda10", 3: "dlda30_swapped", 4: "coin", 5: "prior"}
    er = np.array(["ER-", "ER+"], dtype=object)  # y: 1 = ER+
    frame = pd.DataFrame({"label": er[ya[test]]})
    for m, name in names.items():
        frame[f"pred_{name}"] = er[np.asarray(study.predictions[m], dtype=int)]
    for m, labels in ((1, y_learn), (2, y_learn), (3, y_corrupt)):
        genes = [cols[g] for g in study.genes[m]]
        model = DLDA().fit(Xa[np.ix_(learn, genes)], labels)
        dist = model.discriminant(Xa[np.ix_(test, genes)])
        frame[f"score_{names[m]}"] = np.round(dist[:, 1] - dist[:, 0], 6)
    return frame
