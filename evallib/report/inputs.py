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
    positive, negative : the two classes, as text (``""`` with more than two classes).
    y : numpy.ndarray of bool, True where the true class is ``positive`` (None with more
        than two classes).
    labels : dict ``{name: bool array}``, True where the classifier predicts ``positive``;
        only classifiers with a ``pred_<name>`` column.
    scores : dict ``{name: float array}``; only classifiers with a ``score_<name>`` column.
    folds : numpy.ndarray of str, or None without a fold column.
    fold_column : the fold column's name (used or looked for).
    classifiers : every classifier's name, in the order of the file's columns.
    positive_from : how the positive class was chosen (one sentence).
    read_note : what the reader detected when the file is not plain UTF-8 CSV with
        commas (one sentence), else ``""``.
    classes : every class, as text, sorted.
    truth : numpy.ndarray of int, each case's true class as an index into ``classes``.
    predicted : dict ``{name: int array}``, each classifier's predictions as indices into
        ``classes``.
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
    positive_from: str = ""
    read_note: str = ""
    classes: tuple[str, ...] = ()
    truth: np.ndarray | None = None
    predicted: dict[str, np.ndarray] | None = None

    @property
    def multiclass(self) -> bool:
        """True with more than two classes (then ``positive`` is ``""`` and ``y`` is None)."""
        return len(self.classes) > 2

    @property
    def n(self) -> int:
        """Number of test cases."""
        return int(self.truth.size if self.truth is not None else self.y.size)

    def wrong(self) -> dict[str, np.ndarray]:
        """Per classifier with predicted labels, True where it misclassifies the case."""
        if self.predicted is not None:
            return {name: p != self.truth for name, p in self.predicted.items()}
        return {name: p != self.y for name, p in self.labels.items()}

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
    return str(value)


def _keys(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Each value's label text (:func:`_key`), as ``(codes, texts)`` with ``texts[codes]``.

    Vectorised through :func:`pandas.factorize`: :func:`_key` runs once per distinct value,
    so a million rows cost a hash pass, not a million Python calls. Missing values must
    have been refused before.
    """
    codes, uniques = pd.factorize(values, sort=False)
    texts = np.array([_key(u) for u in uniques], dtype=object)
    # different raw values with one text (1 and 1.0 and "1") become one class
    merged, inverse = np.unique(texts, return_inverse=True) if texts.size else (texts, np.zeros(0, int))
    return inverse.astype(np.int64)[codes], merged


def _quote_list(values) -> str:
    values = [repr(v) for v in values]
    if len(values) <= 2:
        return " and ".join(values)
    return ", ".join(values[:-1]) + " and " + values[-1]


def _sniff_text(path: Path) -> dict[str, Any]:
    """Encoding, separator and decimal mark of a text table, from its first 256 KB.

    Encoding: a byte-order mark (UTF-8, UTF-16), else UTF-8 if the sample decodes, else
    Windows-1252 (Western European spreadsheets' default). Separator: :class:`csv.Sniffer`
    restricted to comma, semicolon, tab and ``|`` (comma when it cannot tell). Decimal mark:
    a comma when the separator is not a comma and fields look like ``0,25`` but none like
    ``0.25``.
    """
    import codecs
    import csv
    import re

    with path.open("rb") as handle:
        raw = handle.read(1 << 18)
    if raw.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif b"\x00" in raw:
        raise ValueError("it is not text: it holds zero bytes, as binary files do")
    else:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(raw, final=False)
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = "cp1252"
    text = raw.decode(encoding, errors="ignore")
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    if lines and len(raw) == (1 << 18) and len(lines) > 1:
        lines = lines[:-1]  # the last line of the sample may be cut
    sample = "\n".join(lines)
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        sep = ","
    decimal = "."
    if sep != ",":
        fields = [f.strip().strip('"') for ln in lines[1:] for f in ln.split(sep)]
        if any(re.fullmatch(r"[-+]?\d*,\d+", f) for f in fields) and not any(
                re.fullmatch(r"[-+]?\d*\.\d+([eE][-+]?\d+)?", f) for f in fields):
            decimal = ","
    header = next(csv.reader([lines[0]], delimiter=sep)) if lines else []
    return {"encoding": encoding, "sep": sep, "decimal": decimal, "header": header}


_SEP_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "vertical bars"}


def _read_table(path: Path, sheet: str | int | None = None) -> tuple[pd.DataFrame, str]:
    """The table at ``path`` and one sentence on what was detected (``""`` for plain CSV)."""
    if not path.exists():
        raise ReportInputError(f"The predictions file {str(path)!r} does not exist.")
    if path.is_dir():
        raise ReportInputError(f"The predictions file {str(path)!r} is a directory, not a file.")
    suffix = path.suffix.lower()
    if sheet is not None and suffix not in (".xlsx", ".xlsm", ".xls"):
        raise ReportInputError(
            f"--sheet (sheet=) applies to Excel workbooks only, and {str(path)!r} is not one.")
    note, header = "", None
    try:
        if suffix in (".xlsx", ".xlsm", ".xls"):
            try:
                import openpyxl  # noqa: F401
            except ImportError:  # pragma: no cover - openpyxl is a dependency
                raise ReportInputError("Reading Excel workbooks needs the openpyxl package.") from None
            book = pd.ExcelFile(path)
            names = book.sheet_names
            if sheet is None:
                chosen = names[0]
            elif str(sheet) in names:
                chosen = str(sheet)
            else:
                raise ReportInputError(
                    f"The workbook {str(path)!r} has no sheet {str(sheet)!r}; its sheets are "
                    f"{_quote_list(names)} (choose one with --sheet).")
            head = pd.read_excel(book, sheet_name=chosen, header=None, nrows=1)
            header = [str(v) for v in head.iloc[0].tolist()] if len(head) else []
            frame = pd.read_excel(book, sheet_name=chosen)
            note = (f"Read sheet {chosen!r} of the Excel workbook"
                    + (f" (it has {len(names)} sheets; choose another with --sheet)." if len(names) > 1 else "."))
        elif suffix == ".parquet":
            frame = pd.read_parquet(path)
            note = "Read a Parquet file."
        elif suffix == ".feather":
            frame, note = pd.read_feather(path), "Read a Feather file."
        elif suffix == ".json":
            frame, note = pd.read_json(path), "Read a JSON table."
        elif suffix in (".pkl", ".pickle"):
            frame, note = pd.read_pickle(path), "Read a pickled pandas table."
        else:
            if path.stat().st_size == 0:
                raise pd.errors.EmptyDataError("empty")
            found = _sniff_text(path)
            header = found["header"]
            kwargs = dict(sep=found["sep"], decimal=found["decimal"], encoding=found["encoding"])
            try:
                frame = pd.read_csv(path, **kwargs)
            except UnicodeDecodeError:  # not UTF-8 after the sample
                kwargs["encoding"] = found["encoding"] = "cp1252"
                frame = pd.read_csv(path, **kwargs)
            parts = []
            if found["sep"] != ",":
                parts.append(f"values separated by {_SEP_NAMES[found['sep']]}")
            if found["decimal"] == ",":
                parts.append("a decimal comma")
            if found["encoding"] != "utf-8":
                parts.append({"utf-8-sig": "UTF-8 with a byte-order mark",
                              "utf-16": "UTF-16 text", "cp1252": "Windows-1252 (not UTF-8) text"}
                             [found["encoding"]])
            if parts:
                note = "Read the file as text with " + ", ".join(parts[:-1]) + (
                    " and " if len(parts) > 1 else "") + parts[-1] + "."
    except ReportInputError:
        raise
    except pd.errors.EmptyDataError:
        raise ReportInputError(f"The predictions file {str(path)!r} is empty.") from None
    except Exception as exc:  # pandas raises many kinds for a malformed file
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportInputError(
            f"The predictions file {str(path)!r} could not be read as a table ({reason})."
        ) from None
    if not isinstance(frame, pd.DataFrame):
        raise ReportInputError(f"The predictions file {str(path)!r} does not hold a table.")
    if header is not None:
        _check_duplicates([str(h) for h in header], str(path))
    return frame, note


def _check_duplicates(columns: list[str], where: str) -> None:
    seen: dict[str, str] = {}
    for c in columns:
        k = str(c).strip()
        if k in seen:
            raise ReportInputError(
                f"The column name {k!r} occurs twice in {where!r}; give every column its own name "
                "(pandas would silently rename the second).")
        seen[k] = c


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


def _near_duplicates(texts) -> tuple[str, str] | None:
    """Two label texts that differ only in letter case or surrounding space, if any."""
    seen: dict[str, str] = {}
    for t in texts:
        k = str(t).strip().casefold()
        if k in seen and seen[k] != t:
            return seen[k], t
        seen[k] = t
    return None


def load_predictions(
    source: str | os.PathLike | pd.DataFrame,
    *,
    label_column: str = "label",
    positive_label: Any = None,
    fold_column: str = "fold",
    pred_prefix: str = PRED_PREFIX,
    score_prefix: str = SCORE_PREFIX,
    sheet: str | int | None = None,
) -> Predictions:
    """Read and check an analyst's predictions file.

    Parameters
    ----------
    source : path or pandas.DataFrame
        A table with one row per test case. Text files (``.csv``, ``.tsv``, ``.txt``, any
        other suffix) are read with a sniffed separator (comma, semicolon, tab, ``|``),
        decimal mark (a comma when the separator is not one) and encoding (UTF-8 with or
        without a byte-order mark, UTF-16, else Windows-1252); ``.xlsx`` workbooks (with
        openpyxl), ``.parquet`` (with pyarrow), ``.feather``, ``.json`` and ``.pkl`` files
        by the matching pandas reader. What was detected is kept in ``read_note``.
    label_column : str, default "label"
        The column holding the true classes (exactly two).
    positive_label : optional
        The positive class. Matched as text, so ``1``, ``"1"`` and ``1.0`` are the same
        class. ``None`` is allowed only when the classes leave no doubt: ``1`` for the
        classes 0 and 1, ``True`` for booleans. The positive class is never chosen by
        counting: with other classes the report stops and asks for it.
    fold_column : str, default "fold"
        Optional column of fold identifiers (rows from a cross-validation).
    pred_prefix, score_prefix : str, default "pred_" and "score_"
        Every other column named ``<pred_prefix><name>`` holds classifier ``<name>``'s
        predicted labels (values from the label column's two classes) and every column
        ``<score_prefix><name>`` its numeric scores, higher meaning more likely positive.
        Other columns are ignored.
    sheet : str or int, optional
        The Excel sheet to read (default: the first).

    Returns
    -------
    Predictions

    Raises
    ------
    ReportInputError
        With one sentence naming the column or option, for: a missing or unreadable file,
        an empty table, duplicate column names, a missing label column, a fold column that
        is the label column, missing labels, labels that differ only in case or
        surrounding space, other than two classes, no or an unknown positive label, no
        classifier columns or fewer than two classifiers, a missing or unknown predicted
        label, a non-numeric, missing or infinite score, a missing fold.
    """
    note = ""
    if isinstance(source, pd.DataFrame):
        frame, where = source, "<DataFrame>"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
        frame, note = _read_table(path, sheet)
        where = str(path)
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
    if fold_column == label_column:
        raise ReportInputError(
            f"The fold column {fold_column!r} is also the label column; name the column of "
            "cross-validation folds with --fold-column (fold_column=) and the true classes with "
            "--label-column (label_column=).")
    _check_duplicates([str(c) for c in frame.columns], where)
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
    codes, classes = _keys(raw_y)
    close = _near_duplicates(classes.tolist())
    if close is not None:
        raise ReportInputError(
            f"The label column {label_column!r} holds {close[0]!r} and {close[1]!r}, which differ "
            "only in letter case or surrounding space; write each class the same way in every row "
            "(for example strip the spaces and use one spelling).")
    counts = np.bincount(codes, minlength=classes.size)
    if classes.size == 1:
        raise ReportInputError(
            f"The label column {label_column!r} holds only the class {classes[0]!r}; comparing "
            "classifiers needs test cases of both classes."
        )
    keyset = set(classes.tolist())
    notes = [note] if note else []
    if classes.size > 2:
        positive, negative, positive_from, y, pos_code = "", "", "", None, -1
        if positive_label is not None and not (isinstance(positive_label, str) and not positive_label.strip()):
            notes.append(f"With {classes.size} classes no class is singled out, so --positive-label is "
                         "not used; per-class and macro-averaged measures treat every class alike.")
    elif positive_label is None or (isinstance(positive_label, str) and not positive_label.strip()):
        if keyset == {"0", "1"}:
            positive, positive_from = "1", "the classes are 0 and 1"
        elif keyset == {"False", "True"}:
            positive, positive_from = "True", "the classes are False and True"
        else:
            raise ReportInputError(
                f"The label column {label_column!r} holds the classes "
                f"{_quote_list(classes.tolist())}, so the positive class (the one the scores and "
                "F-measure are about) must be named with --positive-label (positive_label=).")
    else:
        positive = _key(positive_label).strip() if not isinstance(positive_label, str) else positive_label
        if positive not in keyset:
            stripped = {c.strip().casefold(): c for c in keyset}
            hint = stripped.get(str(positive).strip().casefold())
            raise ReportInputError(
                f"The positive label {positive!r} does not occur in the label column "
                f"{label_column!r}, whose classes are {_quote_list(classes.tolist())}"
                + (f" (did you mean {hint!r}?)." if hint is not None else "."))
        positive_from = "named with --positive-label"
    if classes.size == 2:
        pos_code = int(np.flatnonzero(classes == positive)[0])
        negative = str(classes[1 - pos_code])
        y = codes == pos_code
    del counts

    labels: dict[str, np.ndarray] = {}
    predicted: dict[str, np.ndarray] = {}
    scores: dict[str, np.ndarray] = {}
    names: list[str] = []
    ignored: list[str] = []
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
                if prefix == score_prefix and classes.size > 2:
                    ignored.append(col)
                    continue
                if name not in names:
                    names.append(name)
                values = frame[col]
                if prefix == pred_prefix:
                    predicted[name] = _check_pred_column(values, col, classes, label_column)
                    if classes.size == 2:
                        labels[name] = predicted[name] == pos_code
                else:
                    scores[name] = _check_score_column(values, col)
    if ignored:
        notes.append(f"With {classes.size} classes a single score column cannot say which class it is "
                     f"for, so {_quote_list(ignored)} {'is' if len(ignored) == 1 else 'are'} not used.")
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
        fcodes, fnames = _keys(f)
        folds = fnames[fcodes]
        if fnames.size < 2:
            raise ReportInputError(
                f"The fold column {fold_column!r} holds a single fold; give at least two folds or "
                "remove the column."
            )
    return Predictions(
        source=where, label_column=label_column, positive=positive, negative=negative, y=y,
        labels=labels, scores=scores, folds=folds, fold_column=fold_column,
        classifiers=tuple(names), positive_from=positive_from, read_note=" ".join(notes),
        classes=tuple(str(c) for c in classes), truth=codes, predicted=predicted,
    )


def _check_pred_column(values: pd.Series, col: str, classes: np.ndarray, label_column: str) -> np.ndarray:
    """The predictions as indices into ``classes``, or one sentence on a missing or unknown label."""
    _check_no_missing(values, f"prediction column {col!r}", "every classifier must predict every test case",
                      nan=True)
    codes, texts = _keys(values)
    known = np.isin(texts, classes)
    if not known.all():
        bad = str(texts[~known][0])
        unknown = ~known[codes]
        near = {c.strip().casefold(): c for c in classes.tolist()}.get(bad.strip().casefold())
        raise ReportInputError(
            f"The prediction column {col!r} holds {bad!r} in data row {_first_row(unknown)}, which "
            f"is not one of the classes {_quote_list(classes.tolist())} of the label column "
            f"{label_column!r}"
            + (f" (it differs from {near!r} only in letter case or surrounding space)." if near else ".")
        )
    lookup = {c: i for i, c in enumerate(classes.tolist())}
    return np.array([lookup[t] for t in texts.tolist()], dtype=np.int64)[codes]


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

