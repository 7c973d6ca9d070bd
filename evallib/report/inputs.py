"""Reading and checking the analyst's predictions file (the report's input).

:func:`load_predictions` reads a table (CSV with a sniffed separator and decimal mark,
TSV, Excel, Parquet, ...) and checks it, so that every problem stops the report with one
plain sentence naming the column or option (:class:`ReportInputError`).
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

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

