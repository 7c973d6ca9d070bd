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

from .._compat import renamed_keywords
from .._extras import MissingExtraError, require
from .._results import freeze_arrays
from .._validate import check_count
from ._prose import join_names, plural, quote_list

#: Below this many test cases the data section warns that every interval will be wide.
SMALL_TEST_SET = 100
#: Below this share of the minority class the data section warns of heavy skew.
HEAVY_SKEW = 0.10
#: Below this many cases of the minority class the data section warns too.
FEW_MINORITY = 10

PRED_PREFIX = "pred_"
SCORE_PREFIX = "score_"
#: Columns taken as the case id when no ``case_column`` is named (the first present).
CASE_COLUMNS = ("case_id", "case")
#: Columns taken as the repeat number when no ``repeat_column`` is named (the first present).
REPEAT_COLUMNS = ("repeat", "repetition")
#: Fewest cases of each class of a two-class file (DeLong's variance and the per-class
#: measures need two of each).
MIN_CASES_PER_CLASS = 2
#: A label column with fewer than this many cases per class on average is refused: it is
#: not a column of classes (an id, a continuous target).
MIN_CASES_PER_LABEL = 2


class ReportInputError(ValueError):
    """The predictions file cannot be analysed; the message is one plain sentence."""


# --------------------------------------------------------------------------- loading
@dataclass(frozen=True, eq=False)
class Predictions:
    """A checked predictions file.

    One row is one prediction of one test case by every classifier. A case predicted
    several times (the repeats of a repeated cross-validation) has several rows, linked by
    its case id; every per-row array below has one entry per row, and the analysis works
    on cases: each case has weight 1, however many rows it has.

    Attributes
    ----------
    source : where it came from (a path, or ``"<DataFrame>"``).
    label_column : name of the column with the true classes.
    positive, negative : the two classes, as text (``""`` with more than two classes).
    y : numpy.ndarray of bool per row, True where the true class is ``positive`` (None with
        more than two classes).
    labels : dict ``{name: bool array}`` per row, True where the classifier predicts
        ``positive``; only classifiers with a ``pred_<name>`` column.
    scores : dict ``{name: float array}`` per row; only classifiers with a ``score_<name>``
        column.
    folds : numpy.ndarray of str per row, or None without a fold column.
    fold_column : the fold column's name (used or looked for).
    classifiers : every classifier's name, in the order of the file's columns.
    positive_from : how the positive class was chosen (one sentence).
    read_note : what the reader detected when the file is not plain UTF-8 CSV with
        commas (one sentence), else ``""``.
    classes : every class, as text: the label column's classes sorted, then classes that
        only the predictions name (sorted).
    truth : numpy.ndarray of int per row, the true class as an index into ``classes``.
    predicted : dict ``{name: int array}`` per row, the predictions as indices into
        ``classes``.
    n_label_classes : how many of ``classes`` occur in the label column (the first ones).
    class_scores : with more than two classes, dict ``{name: float array (rows x K)}`` of the
        classifiers with a score column ``score_<name>_<class>`` for each of the label
        column's ``K`` classes (in the order of ``label_classes``), else None.
    case_column : the case-id column used, ``""`` when each row is its own case.
    cases : numpy.ndarray of int per row, the row's case as an index ``0..n - 1`` into
        ``case_ids`` (None: row ``i`` is case ``i``).
    case_ids : the case ids as text, one per case (None without a case column).
    repeat_column : the repeat column used, ``""`` without one.
    repeats : numpy.ndarray of int per row, the repeat ``0..R - 1`` the row belongs to
        (None: every case is predicted once).
    repeat_from : how the repeats were found (a phrase), ``""`` without repeats.
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
    n_label_classes: int = 0
    class_scores: dict[str, np.ndarray] | None = None
    case_column: str = ""
    cases: np.ndarray | None = None
    case_ids: np.ndarray | None = None
    repeat_column: str = ""
    repeats: np.ndarray | None = None
    repeat_from: str = ""

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def multiclass(self) -> bool:
        """True with more than two classes (then ``positive`` is ``""`` and ``y`` is None)."""
        return (self.n_label_classes or len(self.classes)) > 2

    @property
    def label_classes(self) -> tuple[str, ...]:
        """The classes of the label column (the classes the per-class measures average over)."""
        return self.classes[: self.n_label_classes or len(self.classes)]

    @property
    def n_rows(self) -> int:
        """Number of rows (predictions of a case by every classifier)."""
        return int(self.truth.size if self.truth is not None else self.y.size)

    @property
    def n(self) -> int:
        """Number of test cases (each counted once, however often it was predicted)."""
        return self.n_rows if self.cases is None else int(self.case_ids.size)

    @property
    def repeated(self) -> bool:
        """True when some case has more than one row."""
        return self.n_rows > self.n

    @property
    def n_repeats(self) -> int:
        """How many repeats the file holds (1 without a repeat structure)."""
        return 1 if self.repeats is None else int(self.repeats.max()) + 1

    def case_index(self) -> np.ndarray:
        """Each row's case, as an index ``0..n - 1``.

        Returns
        -------
        numpy.ndarray of int, shape (n_rows,)
            ``cases``, or ``0..n_rows - 1`` when each row is its own case.
        """
        return np.arange(self.n_rows) if self.cases is None else self.cases

    def predictions_per_case(self) -> np.ndarray:
        """How many rows (predictions) each case has.

        Returns
        -------
        numpy.ndarray of int, shape (n,)
            The number of rows of each case, in the order of ``case_ids`` (all ones when
            each row is its own case).
        """
        return np.ones(self.n_rows, np.int64) if self.cases is None else np.bincount(self.cases, minlength=self.n)

    def per_case(self, values: np.ndarray) -> np.ndarray:
        """The mean of a per-row array over each case's rows (one value per case).

        Parameters
        ----------
        values : array-like of float, shape (n_rows,)
            One value per row, for example a classifier's 0/1 errors.

        Returns
        -------
        numpy.ndarray of float, shape (n,)
            Each case's mean over its rows, in the order of ``case_ids``; ``values`` itself
            (as floats) when each row is its own case.
        """
        values = np.asarray(values, dtype=float)
        if self.cases is None:
            return values
        return np.bincount(self.cases, weights=values, minlength=self.n) / self.predictions_per_case()

    def first_row_of_case(self) -> np.ndarray:
        """The index of each case's first row (where its true class is read).

        Returns
        -------
        numpy.ndarray of int, shape (n,)
            The row index of each case's first row, in the order of ``case_ids``
            (``0..n_rows - 1`` when each row is its own case).
        """
        if self.cases is None:
            return np.arange(self.n_rows)
        first = np.full(self.n, self.n_rows, np.int64)
        np.minimum.at(first, self.cases, np.arange(self.n_rows))
        return first

    @property
    def case_truth(self) -> np.ndarray:
        """Each case's true class, as an index into ``classes``."""
        return self.truth if self.cases is None else self.truth[self.first_row_of_case()]

    @property
    def case_y(self) -> np.ndarray | None:
        """Each case's membership of the positive class (None with more than two classes)."""
        if self.y is None:
            return None
        return self.y if self.cases is None else self.y[self.first_row_of_case()]

    def wrong(self) -> dict[str, np.ndarray]:
        """Per classifier with predicted labels, True per row where it misclassifies the case.

        Returns
        -------
        dict of str to numpy.ndarray of bool, shape (n_rows,)
            ``{name: wrong}`` for each classifier of ``predicted`` (of ``labels`` when
            ``predicted`` is None): True where its prediction differs from the row's true
            class.
        """
        if self.predicted is not None:
            return {name: p != self.truth for name, p in self.predicted.items()}
        return {name: p != self.y for name, p in self.labels.items()}

    def error_rates(self) -> dict[str, np.ndarray]:
        """Per classifier with predicted labels, each case's error rate over its predictions
        (0 or 1 for a case predicted once).

        Returns
        -------
        dict of str to numpy.ndarray of float, shape (n,)
            ``{name: rate}``: the share of the case's rows that the classifier misclassifies
            (:meth:`wrong` averaged by :meth:`per_case`), in the order of ``case_ids``.
        """
        return {name: self.per_case(w) for name, w in self.wrong().items()}

    @property
    def n_pos(self) -> int:
        """Number of positive test cases (Forman & Cohen's P)."""
        return int(self.case_y.sum())

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
                require("openpyxl", "Reading an Excel workbook")
            except MissingExtraError as err:
                raise ReportInputError(str(err)) from None
            book = pd.ExcelFile(path)
            names = book.sheet_names
            if sheet is None:
                chosen = names[0]
            elif str(sheet) in names:
                chosen = str(sheet)
            else:
                raise ReportInputError(
                    f"The workbook {str(path)!r} has no sheet {str(sheet)!r}; its sheets are "
                    f"{quote_list(names)} (choose one with --sheet).")
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
                note = "Read the file as text with " + join_names(parts) + "."
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
            f"The {column} has {plural(int(missing.sum()), 'missing value')}{' (NaN)' if nan else ''}, the first "
            f"in data row {_first_row(missing)}; {need}."
        )


def _first_row(mask: np.ndarray) -> int:
    """The data row (1-based, as a spreadsheet counts after the header) of the first True."""
    return int(np.flatnonzero(mask)[0]) + 1


def _to_numeric(values: pd.Series, what: str, hint: str = "") -> pd.Series:
    """``values`` as numbers (pandas' coercion, missing cells kept missing), or one sentence naming
    the first data row that holds something else (every report's readers use it)."""
    numeric = pd.to_numeric(values, errors="coerce")
    bad = (numeric.isna() & values.notna()).to_numpy()
    if bad.any():
        raise ReportInputError(
            f"The {what} is not numeric: data row {_first_row(bad)} holds "
            f"{str(values.iloc[int(np.flatnonzero(bad)[0])])!r}" + (f"; {hint}." if hint else "."))
    return numeric


def _near_duplicates(texts) -> tuple[str, str] | None:
    """Two label texts that differ only in letter case or surrounding space, if any."""
    seen: dict[str, str] = {}
    for t in texts:
        k = str(t).strip().casefold()
        if k in seen and seen[k] != t:
            return seen[k], t
        seen[k] = t
    return None


def _resolve_role(frame: pd.DataFrame, given: str | None, defaults: tuple[str, ...], what: str,
                  option: str, where: str) -> str:
    """The column playing a role: the named one (which must exist), the first of ``defaults``
    present when ``given`` is None, or none (``""``) when ``given`` is ``""``."""
    if given is None:
        return next((c for c in defaults if c in frame.columns), "")
    if not isinstance(given, str):
        raise ReportInputError(f"The {what} must be given as a column name (text), got {given!r}.")
    if given == "" or given in frame.columns:
        return given
    cols = ", ".join(repr(c) for c in frame.columns[:12])
    raise ReportInputError(
        f"The {what} {given!r} is not in {where!r}, whose columns are {cols}; name it with "
        f"--{option} ({option.replace('-', '_')}=), or give an empty name for none.")


def _check_roles(roles: dict[str, str]) -> None:
    """Refuse one column in two roles (the label column as fold column, ...)."""
    seen: dict[str, str] = {}
    for role, col in roles.items():
        if not col:
            continue
        if col in seen:
            first = seen[col]
            raise ReportInputError(
                f"The {role} {col!r} is also the {first}; name each role's column with its own option "
                f"(--{first.replace(' column', '')}-column and --{role.replace(' column', '')}-column).")
        seen[col] = role


def _ordered_codes(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_keys`, with the texts in numeric order when they are all numbers."""
    codes, texts = _keys(values)
    try:
        order = np.argsort(np.array([float(t) for t in texts]), kind="stable")
    except ValueError:
        return codes, texts
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    return rank[codes], texts[order]


def _first_pair_duplicate(keys: np.ndarray) -> tuple[int, int, int]:
    """For integer keys with duplicates: how many keys occur more than once, and the data
    rows (1-based) of the first duplicate's first two occurrences."""
    order = np.argsort(keys, kind="stable")
    s = keys[order]
    same = np.flatnonzero(s[1:] == s[:-1])
    dup_keys = np.unique(s[same])
    # the duplicate whose second occurrence comes first in the file
    second = order[same + 1]
    first_second = int(second.min())
    first = int(np.flatnonzero(keys == keys[first_second])[0])
    return int(dup_keys.size), first + 1, first_second + 1


def _group_folds(cases: np.ndarray, folds: np.ndarray, n_cases: int, order: np.ndarray) -> np.ndarray | None:
    """Repeats from folds whose ids run on across repeats (fold 1-10 of repeat 1, 11-20 of
    repeat 2, ...): taken in ``order``, folds are added to a repeat until its folds hold every
    case exactly once. Returns each fold's repeat, or None when the folds do not split so."""
    by_fold = np.argsort(folds, kind="stable")
    bounds = np.searchsorted(folds[by_fold], np.arange(order.size + 1))
    seen = np.zeros(n_cases, bool)
    count, r = 0, 0
    out = np.empty(order.size, np.int64)
    for f in order:
        members = cases[by_fold[bounds[f]:bounds[f + 1]]]
        if seen[members].any():
            return None
        seen[members] = True
        count += members.size
        out[f] = r
        if count == n_cases:
            r, count = r + 1, 0
            seen[:] = False
    return out if count == 0 else None


@dataclass(frozen=True)
class _Structure:
    case_column: str = ""
    cases: np.ndarray | None = None
    case_ids: np.ndarray | None = None
    repeat_column: str = ""
    repeats: np.ndarray | None = None
    repeat_from: str = ""


def _case_structure(frame: pd.DataFrame, where: str, case_column: str, repeat_column: str,
                    fold_codes: np.ndarray | None, fold_column: str, truth: np.ndarray,
                    classes: np.ndarray) -> _Structure:
    """Cases and repeats from the case and repeat columns, or inferred from the folds.

    A case id that recurs needs a structure: a repeat column (each case once per repeat),
    or a fold column from which the repeats can be read (fold ids that run on across
    repeats, or each case's k-th row in its k-th repeat). Otherwise the recurring id is a
    duplicate and the file is refused.
    """
    n_rows = truth.size
    if repeat_column and not case_column:
        raise ReportInputError(
            f"The repeat column {repeat_column!r} needs a column of case ids to link the predictions of "
            "one case across repeats; name it with --case-column (case_column=).")
    if not case_column:
        return _Structure()
    raw = frame[case_column]
    _check_no_missing(raw, f"case column {case_column!r}", "every row needs the id of its case")
    cases, ids = _keys(raw)
    n_cases = ids.size
    first = np.full(n_cases, n_rows, np.int64)
    np.minimum.at(first, cases, np.arange(n_rows))
    clash = truth != truth[first[cases]]
    if clash.any():
        row = int(np.flatnonzero(clash)[0])
        c = int(cases[row])
        raise ReportInputError(
            f"The case {ids[c]!r} has the true class {classes[truth[first[c]]]!r} in data row {first[c] + 1} "
            f"but {classes[truth[row]]!r} in data row {row + 1}; a test case has one true class (is "
            f"{case_column!r} the column of case ids?).")
    out = dict(case_column=case_column, cases=cases, case_ids=ids)
    if n_cases == n_rows:
        return _Structure(**out)
    if repeat_column:
        raw_r = frame[repeat_column]
        _check_no_missing(raw_r, f"repeat column {repeat_column!r}", "every row needs its repeat")
        reps, rep_names = _ordered_codes(raw_r)
        key = cases.astype(np.int64) * rep_names.size + reps
        if np.unique(key).size < n_rows:
            count, r1, r2 = _first_pair_duplicate(key)
            raise ReportInputError(
                f"{plural(count, 'case')} occur{'s' if count == 1 else ''} twice within one repeat of the repeat column {repeat_column!r}, the "
                f"first {ids[cases[r2 - 1]]!r} in data rows {r1} and {r2}; each case is predicted once per "
                "repeat (remove the duplicated rows).")
        return _Structure(**out, repeat_column=repeat_column, repeats=reps,
                          repeat_from=f"the column {repeat_column!r}")
    if fold_codes is not None:
        n_folds = int(fold_codes.max()) + 1
        key = cases.astype(np.int64) * n_folds + fold_codes
        if np.unique(key).size == n_rows:
            appearance = pd.unique(fold_codes)
            for order in (appearance, np.arange(n_folds)):
                rep_of_fold = _group_folds(cases, fold_codes, n_cases, np.asarray(order))
                if rep_of_fold is not None:
                    return _Structure(**out, repeats=rep_of_fold[fold_codes],
                                      repeat_from="inferred: the case ids recur across the folds, which "
                                                  "split into repeats that each hold every case once")
        per_case = np.bincount(cases, minlength=n_cases)
        if per_case.min() == per_case.max():
            reps = pd.Series(cases).groupby(cases).cumcount().to_numpy(np.int64)
            return _Structure(**out, repeats=reps,
                              repeat_from="inferred from the order of the rows: each case's k-th row is "
                                          "its k-th repeat")
        raise ReportInputError(
            f"The case ids of {case_column!r} recur across the folds of {fold_column!r}, but the folds do not "
            "split into repeats that each hold every case once; name the column of repeats with "
            "--repeat-column (repeat_column=).")
    count, r1, r2 = _first_pair_duplicate(cases.astype(np.int64))
    raise ReportInputError(
        f"The case column {case_column!r} holds {plural(count, 'id')} that occur{'s' if count == 1 else ''} more than once, the first "
        f"{ids[cases[r2 - 1]]!r} in data rows {r1} and {r2}; a test case occurs once, unless the file holds "
        "repeated predictions: then name the repeat column with --repeat-column (repeat_column=) or the "
        "fold column with --fold-column (fold_column=).")


def _check_copied_rows(frame: pd.DataFrame, where: str) -> None:
    """Refuse a table written twice: every distinct row occurs an even number of times, and
    either most rows are distinct (so that pairs of equal rows are no coincidence, as they
    can be in a file of labels only, where a few patterns recur) or the second half repeats
    the first row for row with at least eight distinct rows."""
    n = len(frame)
    if n < 2 or n % 2:
        return
    hashes = pd.util.hash_pandas_object(frame, index=False).to_numpy()
    _, first, codes, counts = np.unique(hashes, return_index=True, return_inverse=True, return_counts=True)
    if np.any(counts % 2):
        return
    half = n // 2
    laid_out = counts.size >= 8 and bool(np.array_equal(hashes[:half], hashes[half:]))
    if not (laid_out or 4 * counts.size >= n):
        return
    later = np.ones(n, bool)
    later[first] = False
    second = int(np.flatnonzero(later)[0])
    twin = int(first[codes[second]])
    raise ReportInputError(
        f"Every row of {where!r} occurs an even number of times, as when a table is written twice (data row "
        f"{second + 1} repeats row {twin + 1}); remove the copies, or, if each case was predicted several "
        "times, add a case-id column and a repeat column (--case-column, --repeat-column).")


def _check_size(classes: np.ndarray, case_counts: np.ndarray, label_column: str, n_cases: int) -> None:
    """Refuse a label column with (nearly) as many classes as cases, and a file too small."""
    k = classes.size
    if k > 2 and k * MIN_CASES_PER_LABEL > n_cases:
        raise ReportInputError(
            f"The label column {label_column!r} holds {k:,} classes in {n_cases:,} test cases, fewer than "
            f"{MIN_CASES_PER_LABEL} cases per class on average, so no class can be measured; a column of true "
            "classes has far fewer classes than cases (is it an id or a numeric target? name the column "
            "of classes with --label-column).")
    if k == 2 and case_counts.min() < MIN_CASES_PER_CLASS:
        small = int(np.argmin(case_counts))
        raise ReportInputError(
            f"The label column {label_column!r} has {plural(int(case_counts[small]), 'test case')} of the class "
            f"{classes[small]!r} (and {int(case_counts[1 - small])} of {classes[1 - small]!r}); comparing "
            f"classifiers needs at least {MIN_CASES_PER_CLASS} cases of each class, so the file is too "
            "small for a report.")


def _check_min_models(min_models: Any) -> int:
    """``min_models`` (the fewest models a reader accepts) as an int >= 1, else one sentence."""
    return check_count(min_models, "min_models", minimum=1)


def _models_needed(min_models: int, kind: str, report: str) -> str:
    """The end of a reader's refusal of a file with fewer than ``min_models`` models: the report's
    own words for the reports' two (``"the report compares at least two classifiers"``), else the
    number the caller asked for."""
    if min_models == 2:
        return f"{report} compares at least two {kind}s"
    verb = "is" if min_models == 1 else "are"
    return f"at least {plural(min_models, kind)} {verb} needed here (min_models={min_models})"


@renamed_keywords(positive_label="pos_label")
def load_predictions(
    source: str | os.PathLike | pd.DataFrame,
    *,
    label_column: str = "label",
    pos_label: Any = None,
    fold_column: str = "fold",
    pred_prefix: str = PRED_PREFIX,
    score_prefix: str = SCORE_PREFIX,
    sheet: str | int | None = None,
    case_column: str | None = None,
    repeat_column: str | None = None,
    min_models: int = 2,
) -> Predictions:
    """Read and check an analyst's predictions file.

    Parameters
    ----------
    source : path or pandas.DataFrame
        A table with one row per prediction of a test case. Text files (``.csv``,
        ``.tsv``, ``.txt``, any other suffix) are read with a sniffed separator (comma,
        semicolon, tab, ``|``), decimal mark (a comma when the separator is not one) and
        encoding (UTF-8 with or without a byte-order mark, UTF-16, else Windows-1252);
        ``.xlsx`` workbooks (with openpyxl), ``.parquet`` (with pyarrow), ``.feather``,
        ``.json`` and ``.pkl`` files by the matching pandas reader. What was detected is
        kept in ``read_note``. With more than two classes a classifier's scores are one
        column per class, ``<score_prefix><name>_<class>`` (e.g. predicted probabilities),
        for every class of the label column.
    label_column : str, default "label"
        The column holding the true classes.
    pos_label : optional
        The positive class of a two-class file (``positive_label=``, 0.1.0's name, still works
        until 0.3.0, with a ``DeprecationWarning``). Matched as text, so ``1``, ``"1"`` and
        ``1.0`` are the same class. ``None`` is allowed only when the classes leave no
        doubt: ``1`` for the classes 0 and 1, ``True`` for booleans. The positive class is
        never chosen by counting: with other classes the report stops and asks for it.
    fold_column : str, default "fold"
        Optional column of fold identifiers (rows from a cross-validation).
    pred_prefix, score_prefix : str, default ``"pred_"`` and ``"score_"``
        Every other column named ``<pred_prefix><name>`` holds classifier ``<name>``'s
        predicted labels and every column ``<score_prefix><name>`` its numeric scores,
        higher meaning more likely positive. Other columns are ignored. With more than two
        classes a prediction may name a class the label column does not hold (a wrong
        prediction); with two classes it must be one of them.
    sheet : str or int, optional
        The Excel sheet to read (default: the first).
    case_column : str, optional
        The column of case ids; ``None`` (default) takes ``case_id`` or ``case`` when
        present (:data:`CASE_COLUMNS`), ``""`` means none: each row is its own case. A case
        id that occurs in several rows is one case predicted several times (the repeats of
        a repeated cross-validation); it must have one true class.
    repeat_column : str, optional
        The column numbering the repeats; ``None`` takes ``repeat`` or ``repetition`` when
        present (:data:`REPEAT_COLUMNS`), ``""`` means none. Without one, repeats are
        inferred from the fold column when case ids recur across folds: fold ids that run
        on across repeats (1-10, 11-20, ...) are grouped into repeats that each hold every
        case once; fold ids that start again in each repeat (1-10 in every repeat) make a
        case's k-th row its k-th repeat.
    min_models : int, default 2
        The fewest classifiers the file must hold: the report compares at least two; the
        release gate reads a file holding one model (its baseline's or candidate's own) with 1.

    Returns
    -------
    Predictions

    Raises
    ------
    ReportInputError
        With one sentence naming the column or option, for: a missing or unreadable file,
        an empty table, duplicate column names, a missing label column, one column in two
        roles, missing labels, labels that differ only in case or surrounding space, a
        single class, no or an unknown positive label, no classifier columns or fewer than
        ``min_models`` classifiers, a missing prediction, an unknown predicted label in a
        two-class file, a non-numeric, missing or infinite score, a missing fold, a single fold, a
        missing case id or repeat, a case with two true classes, a case id that recurs
        without a repeat or fold structure (naming how many and the first), a case twice in
        one repeat, every row an exact copy of another (a table written twice), about as
        many classes as cases, fewer than two cases of a class in a two-class file.
    TypeError, ValueError
        ``min_models`` is not a whole number >= 1.
    """
    min_models = _check_min_models(min_models)
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
    case_col = _resolve_role(frame, case_column, CASE_COLUMNS, "case column", "case-column", where)
    repeat_col = _resolve_role(frame, repeat_column, REPEAT_COLUMNS, "repeat column", "repeat-column", where)
    _check_roles({"label column": label_column, "fold column": fold_column if fold_column in frame.columns
                  else "", "case column": case_col, "repeat column": repeat_col})
    roles = {label_column, fold_column, case_col, repeat_col}
    raw_y = frame[label_column]
    _check_no_missing(raw_y, f"label column {label_column!r}", "every test case needs its true class")
    codes, classes = _keys(raw_y)
    close = _near_duplicates(classes.tolist())
    if close is not None:
        raise ReportInputError(
            f"The label column {label_column!r} holds {close[0]!r} and {close[1]!r}, which differ "
            "only in letter case or surrounding space; write each class the same way in every row "
            "(for example strip the spaces and use one spelling).")
    if classes.size == 1:
        raise ReportInputError(
            f"The label column {label_column!r} holds only the class {classes[0]!r}; comparing "
            "classifiers needs test cases of both classes."
        )
    fold_codes = None
    folds = None
    if fold_column in frame.columns:
        f = frame[fold_column]
        _check_no_missing(f, f"fold column {fold_column!r}", "every row needs its fold")
        fold_codes, fnames = _ordered_codes(f)
        folds = fnames[fold_codes]
        if fnames.size < 2:
            raise ReportInputError(
                f"The fold column {fold_column!r} holds a single fold; give at least two folds or "
                "remove the column."
            )
    if not case_col:
        _check_copied_rows(frame, where)
    structure = _case_structure(frame, where, case_col, repeat_col, fold_codes, fold_column, codes, classes)
    case_codes = codes if structure.cases is None else codes[
        np.unique(structure.cases, return_index=True)[1]]
    case_counts = np.bincount(case_codes, minlength=classes.size)
    if classes.size > 2 and classes.size * MIN_CASES_PER_LABEL > case_counts.sum():
        _check_size(classes, case_counts, label_column, int(case_counts.sum()))
    keyset = set(classes.tolist())
    notes = [note] if note else []
    if classes.size > 2:
        positive, negative, positive_from, y, pos_code = "", "", "", None, -1
        if pos_label is not None and not (isinstance(pos_label, str) and not pos_label.strip()):
            notes.append(f"With {classes.size} classes no class is singled out, so --pos-label is "
                         "not used; per-class and macro-averaged measures treat every class alike.")
    elif pos_label is None or (isinstance(pos_label, str) and not pos_label.strip()):
        if keyset == {"0", "1"}:
            positive, positive_from = "1", "the classes are 0 and 1"
        elif keyset == {"False", "True"}:
            positive, positive_from = "True", "the classes are False and True"
        else:
            raise ReportInputError(
                f"The label column {label_column!r} holds the classes "
                f"{quote_list(classes.tolist())}, so the positive class (the one the scores and "
                "F-measure are about) must be named with --pos-label (pos_label=).")
    else:
        positive = _key(pos_label).strip() if not isinstance(pos_label, str) else pos_label
        if positive not in keyset:
            stripped = {c.strip().casefold(): c for c in keyset}
            hint = stripped.get(str(positive).strip().casefold())
            raise ReportInputError(
                f"The positive label {positive!r} does not occur in the label column "
                f"{label_column!r}, whose classes are {quote_list(classes.tolist())}"
                + (f" (did you mean {hint!r}?)." if hint is not None else "."))
        positive_from = "named with --pos-label"
    if classes.size == 2:
        pos_code = int(np.flatnonzero(classes == positive)[0])
        negative = str(classes[1 - pos_code])
        y = codes == pos_code

    labels: dict[str, np.ndarray] = {}
    predicted: dict[str, np.ndarray] = {}
    scores: dict[str, np.ndarray] = {}
    names: list[str] = []
    ignored: list[str] = []
    class_cols: dict[str, dict[str, str]] = {}
    all_classes = classes
    for col in frame.columns:
        if col in roles:
            continue
        for prefix in (pred_prefix, score_prefix):
            if col.startswith(prefix):
                name = col[len(prefix):]
                if not name:
                    raise ReportInputError(
                        f"The column {col!r} names no classifier; call it {prefix}<name>."
                    )
                if prefix == score_prefix and classes.size > 2:
                    model, cls = _model_and_class(name, classes)
                    if model is None:
                        ignored.append(col)
                    else:
                        class_cols.setdefault(model, {})[cls] = col
                        if model not in names:
                            names.append(model)
                    continue
                if name not in names:
                    names.append(name)
                values = frame[col]
                if prefix == pred_prefix:
                    predicted[name], all_classes = _check_pred_column(values, col, classes, all_classes,
                                                                      label_column)
                    if classes.size == 2:
                        labels[name] = predicted[name] == pos_code
                else:
                    scores[name] = _check_score_column(values, col)
    class_scores: dict[str, np.ndarray] = {}
    for model, cols in class_cols.items():
        if len(cols) < classes.size:
            ignored.extend(cols.values())
            if model not in predicted:
                names.remove(model)
            continue
        class_scores[model] = np.column_stack([_check_score_column(frame[cols[c]], cols[c]) for c in classes])
    if ignored:
        notes.append(f"With {classes.size} classes scores need one column per class, "
                     f"{score_prefix}<name>_<class>, for every class; {quote_list(ignored)} "
                     f"{'is' if len(ignored) == 1 else 'are'} not used.")
    if all_classes.size > classes.size:
        extra = all_classes[classes.size:].tolist()
        notes.append(f"The predictions name {plural(len(extra), 'class')} absent from the label column "
                     f"({quote_list(extra)}); such a prediction is wrong for every case and counts as an error.")
    if not names:
        cols = ", ".join(repr(c) for c in frame.columns[:12])
        raise ReportInputError(
            f"No classifier columns were found in {where!r} (columns: {cols}); name them "
            f"{pred_prefix}<name> for predicted labels and/or {score_prefix}<name> for scores."
        )
    if len(names) < min_models:
        found = (f"Only one classifier ({names[0]!r}) was found" if len(names) == 1 else
                 f"Only {len(names)} classifiers ({quote_list(names)}) were found")
        raise ReportInputError(
            f"{found}; {_models_needed(min_models, 'classifier', 'the report')}, each given as a "
            f"{pred_prefix}<name> or {score_prefix}<name> column."
        )
    _check_size(classes, case_counts, label_column, int(case_counts.sum()))
    return Predictions(
        source=where, label_column=label_column, positive=positive, negative=negative, y=y,
        labels=labels, scores=scores, folds=folds, fold_column=fold_column,
        classifiers=tuple(names), positive_from=positive_from, read_note=" ".join(notes),
        classes=tuple(str(c) for c in all_classes), truth=codes, predicted=predicted,
        n_label_classes=int(classes.size), class_scores=class_scores or None,
        case_column=structure.case_column, cases=structure.cases,
        case_ids=structure.case_ids, repeat_column=structure.repeat_column,
        repeats=None if structure.repeats is None else structure.repeats,
        repeat_from=structure.repeat_from,
    )


def _model_and_class(name: str, classes: np.ndarray) -> tuple[str | None, str]:
    """``"knn_setosa"`` -> ``("knn", "setosa")``: the classifier and the class a K-class score
    column is for (the longest class name that ends the name after an underscore)."""
    found = [c for c in classes.tolist() if name.endswith("_" + c) and len(name) > len(c) + 1]
    if not found:
        return None, ""
    cls = max(found, key=len)
    return name[: -(len(cls) + 1)], cls




def _check_pred_column(values: pd.Series, col: str, classes: np.ndarray, all_classes: np.ndarray,
                       label_column: str) -> tuple[np.ndarray, np.ndarray]:
    """The predictions as indices into the classes, and the classes extended by any class only
    predictions name (more than two classes); one sentence on a missing label, a label that
    differs from a class only in letter case or space, or (two classes) an unknown label."""
    _check_no_missing(values, f"prediction column {col!r}", "every classifier must predict every test case",
                      nan=True)
    codes, texts = _keys(values)
    known = np.isin(texts, classes)
    if not known.all():
        near = {c.strip().casefold(): c for c in classes.tolist()}
        for bad in texts[~known].tolist():
            close = near.get(str(bad).strip().casefold())
            if close is not None or classes.size == 2:
                unknown = ~known[codes]
                row = _first_row(unknown & (texts[codes] == bad))
                raise ReportInputError(
                    f"The prediction column {col!r} holds {bad!r} in data row {row}, which is not one of "
                    f"the classes {quote_list(classes.tolist())} of the label column {label_column!r}"
                    + (f" (it differs from {close!r} only in letter case or surrounding space)." if close
                       else " (with two classes every prediction must be one of them)."))
        new = sorted(set(texts[~known].tolist()) - set(all_classes.tolist()))
        if new:
            all_classes = np.concatenate([all_classes, np.array(new, dtype=object)])
    lookup = {c: i for i, c in enumerate(all_classes.tolist())}
    return np.array([lookup[t] for t in texts.tolist()], dtype=np.int64)[codes], all_classes


def _check_score_column(values: pd.Series, col: str) -> np.ndarray:
    if values.dtype == bool:
        raise ReportInputError(f"The score column {col!r} holds booleans; scores must be numbers.")
    numeric = _to_numeric(values, f"score column {col!r}")
    _check_no_missing(values, f"score column {col!r}", "every classifier must score every test case", nan=True)
    arr = numeric.to_numpy(dtype=float)
    infinite = ~np.isfinite(arr)
    if infinite.any():
        raise ReportInputError(
            f"The score column {col!r} holds an infinite value in data row {_first_row(infinite)}."
        )
    return arr

