"""Reading and checking a results table: one row per data set, one column per classifier.

The many-data-sets design of Demšar (2006): each of ``k`` classifiers has one score
(accuracy, AUC, error rate, ...) on each of ``N`` data sets, the data sets being the
independent units. :func:`load_results` reads such a table (CSV with a sniffed separator,
decimal mark and encoding, Excel, Parquet, ... through the predictions report's reader) and
checks it, so that every problem stops the report with one plain sentence naming the column
or option (:class:`~evallib.report.ReportInputError`).

Layout::

    data set,C4.5,C4.5+m,C4.5+cf,C4.5+m+cf
    adult (sample),0.763,0.768,0.771,0.798
    breast cancer,0.599,0.591,0.590,0.569
    ...

The data-set column is found by its name (:data:`DATASET_COLUMN_NAMES`: ``dataset``, ``data
set``, ``data_set``, ``task``, ... in any letter case) or given; every other column is a
classifier.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._inputs import ReportInputError, _check_duplicates, _key, _read_table
from ._prose import plural, quote_list

__all__ = [
    "DATASET_COLUMN_NAMES",
    "Results",
    "find_dataset_column",
    "is_results_table",
    "load_results",
]

#: Column names taken for the data-set column when none is given, compared after lower-casing
#: and dropping spaces, underscores, hyphens and dots (so ``"Data set"``, ``"data_set"`` and
#: ``"DataSet"`` all match ``"dataset"``).
DATASET_COLUMN_NAMES = (
    "dataset", "datasets", "datasetname", "datasetid", "data", "dataname", "task", "tasks",
    "taskname", "taskid", "problem", "benchmark",
)

#: How many column names a message lists before it stops.
_SHOWN_COLUMNS = 12


def _normalised(name: Any) -> str:
    """A column name reduced to lower-case letters and digits (``"Data set"`` -> ``"dataset"``)."""
    return re.sub(r"[\s_.\-]+", "", str(name)).casefold()


def _unnamed(name: Any) -> bool:
    """True for a column pandas had to name itself (an empty header cell)."""
    text = str(name).strip()
    return text == "" or re.fullmatch(r"Unnamed: \d+(_level_\d+)?", text) is not None


def find_dataset_column(columns: Any) -> str | None:
    """The column whose name says it holds the data sets, or None.

    Parameters
    ----------
    columns : iterable of column names
        E.g. ``frame.columns``.

    Returns
    -------
    str or None
        The one name among ``columns`` that matches :data:`DATASET_COLUMN_NAMES` after
        lower-casing and dropping spaces, underscores, hyphens and dots; None when no name
        matches.

    Raises
    ------
    ReportInputError
        When two or more names match (the user must choose with ``--dataset-column``).

    Examples
    --------
    >>> find_dataset_column(["Data set", "C4.5", "C4.5+m"])
    'Data set'
    >>> find_dataset_column(["label", "pred_a"]) is None
    True
    """
    names = [str(c).strip() for c in columns]
    hits = [c for c in names if _normalised(c) in DATASET_COLUMN_NAMES]
    if len(hits) > 1:
        raise ReportInputError(
            f"The columns {quote_list(hits)} could each be the data-set column; choose the one that "
            "names the data sets with --dataset-column (dataset_column=).")
    return hits[0] if hits else None


def is_results_table(columns: Any, *, label_column: str = "label") -> bool:
    """Whether a table with these columns is a results table rather than a predictions file.

    The rule the command line can use to choose the report when ``--dataset-column`` is not
    given: no column holds true labels (``label_column``) and a column is named like a data-set
    column (:func:`find_dataset_column`; two such columns count too, so that
    :func:`load_results` asks which one).

    Parameters
    ----------
    columns : iterable of column names
    label_column : str
        The predictions file's label column (``--label-column``).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_results_table(["data set", "C4.5", "C4.5+m"])
    True
    >>> is_results_table(["label", "pred_a", "pred_b", "dataset"])
    False
    """
    names = [str(c).strip() for c in columns]
    if str(label_column).strip() in names:
        return False
    try:
        return find_dataset_column(names) is not None
    except ReportInputError:  # two candidates: a results table whose column must be named
        return True


@dataclass(frozen=True, eq=False)
class Results:
    """A checked results table.

    Attributes
    ----------
    source : where it came from (a path, or ``"<DataFrame>"``).
    scores : pandas.DataFrame of float, one row per data set (index: the data sets' names as
        text, named after the data-set column), one column per classifier, in the file's order.
    dataset_column : the data-set column's name.
    dataset_from : how the data-set column was chosen (one phrase: ``"given"``, ``"found by
        its name"`` or ``"the file's unnamed first column"``).
    higher_is_better : True when larger scores are better (accuracy, AUC), False for error
        rates and losses.
    read_note : what the reader detected when the file is not plain UTF-8 CSV with commas
        (one sentence), else ``""``.
    """

    source: str
    scores: pd.DataFrame
    dataset_column: str
    dataset_from: str
    higher_is_better: bool
    read_note: str = ""

    @property
    def classifiers(self) -> tuple[str, ...]:
        """The classifiers' names, in the order of the file's columns."""
        return tuple(str(c) for c in self.scores.columns)

    @property
    def datasets(self) -> tuple[str, ...]:
        """The data sets' names, in the order of the file's rows."""
        return tuple(str(i) for i in self.scores.index)

    @property
    def n_datasets(self) -> int:
        """``N``, the number of data sets (rows)."""
        return int(self.scores.shape[0])

    @property
    def n_classifiers(self) -> int:
        """``k``, the number of classifiers (columns)."""
        return int(self.scores.shape[1])

    def oriented(self) -> pd.DataFrame:
        """The scores turned so that higher is better (negated when lower is better)."""
        return self.scores if self.higher_is_better else -self.scores


def _read(source: Any, sheet: Any) -> tuple[pd.DataFrame, str, str]:
    """The table, where it came from, and the reader's note."""
    if isinstance(source, pd.DataFrame):
        frame = source
        if frame.index.name is not None or isinstance(frame.index, pd.MultiIndex):
            frame = frame.reset_index()  # e.g. evallib.studies.demsar_table_6(): the data sets are the index
        elif not isinstance(frame.index, pd.RangeIndex) and "data set" not in frame.columns:
            frame = frame.rename_axis("data set").reset_index()  # an unnamed index of names
        return frame, "<DataFrame>", ""
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a file path or a pandas DataFrame, got {type(source).__name__}")
    path = Path(source).expanduser()
    try:
        frame, note = _read_table(path, sheet)
    except ReportInputError as err:  # the shared reader speaks of a predictions file
        raise ReportInputError(str(err).replace("The predictions file", "The results table", 1)) from None
    return frame, str(path), note


def _columns_text(columns) -> str:
    shown = ", ".join(repr(str(c)) for c in list(columns)[:_SHOWN_COLUMNS])
    more = len(columns) - _SHOWN_COLUMNS
    return shown + (f" and {more} more" if more > 0 else "")


def _choose_dataset_column(frame: pd.DataFrame, given: Any, where: str) -> tuple[str, str]:
    """The data-set column and how it was chosen."""
    if given is not None and not (isinstance(given, str) and not given.strip()):
        if not isinstance(given, str):
            raise ReportInputError(f"The data-set column must be given as a text, got {given!r}.")
        name = given.strip()
        if name not in frame.columns:
            raise ReportInputError(
                f"The data-set column {name!r} is not in {where!r}, whose columns are "
                f"{_columns_text(frame.columns)}; name the column that holds the data sets with "
                "--dataset-column (dataset_column=).")
        return name, "given"
    found = find_dataset_column(frame.columns)
    if found is not None:
        return found, "found by its name"
    first = frame.columns[0]
    if _unnamed(first) and not pd.api.types.is_numeric_dtype(frame[first]):
        return str(first), "the file's unnamed first column"
    raise ReportInputError(
        f"No data-set column was found in {where!r} (columns: {_columns_text(frame.columns)}); call "
        "the column that names the data sets 'dataset' (or 'data set', 'task') or name it with "
        "--dataset-column (dataset_column=).")


def _dataset_names(values: pd.Series, column: str) -> pd.Index:
    """The data sets' names as text; refuses missing and repeated names."""
    missing = values.isna().to_numpy()
    if missing.any():
        raise ReportInputError(
            f"The data-set column {column!r} has {plural(int(missing.sum()), 'missing name')}, the first in "
            f"data row {int(np.flatnonzero(missing)[0]) + 1}; give every data set a name.")
    texts = [_key(v).strip() for v in values.tolist()]
    rows: dict[str, list[int]] = {}
    spelling: dict[str, list[str]] = {}
    for i, t in enumerate(texts):
        rows.setdefault(t.casefold(), []).append(i + 1)
        spelling.setdefault(t.casefold(), []).append(t)
    repeated = [k for k, r in rows.items() if len(r) > 1]
    if repeated:
        first = min(repeated, key=lambda k: rows[k][1])
        at = rows[first]
        forms = list(dict.fromkeys(spelling[first]))
        how = (f"{forms[0]!r}" if len(forms) == 1 else
               f"{forms[0]!r} (also written {quote_list(forms[1:])}; names that differ only in letter "
               "case or surrounding space are the same data set)")
        raise ReportInputError(
            f"The data-set column {column!r} names {plural(len(repeated), 'data set')} more than once, the first "
            f"{how} in data rows {quote_list(at)}; give each data set one row "
            "(average repeated runs or folds first).")
    return pd.Index(texts, name=column)


def _score_column(values: pd.Series, column: str, names: pd.Index) -> np.ndarray:
    """One classifier's scores as floats; refuses text, booleans, missing and infinite values."""
    def where(mask: np.ndarray) -> str:
        i = int(np.flatnonzero(mask)[0])
        return f"data set {names[i]!r} (data row {i + 1})"

    if values.dtype == bool:
        raise ReportInputError(
            f"The column {column!r} holds True/False values; each classifier's column must hold one "
            "numeric score per data set.")
    numeric = pd.to_numeric(values, errors="coerce")
    bad = (numeric.isna() & values.notna()).to_numpy()
    if bad.any():
        raw = values.iloc[int(np.flatnonzero(bad)[0])]
        raise ReportInputError(
            f"The column {column!r} is not numeric: {where(bad)} holds {str(raw)!r}; every column "
            "other than the data-set column must hold one numeric score per data set.")
    arr = numeric.to_numpy(dtype=float)
    missing = np.isnan(arr)
    if missing.any():
        raise ReportInputError(
            f"The column {column!r} has {plural(int(missing.sum()), 'missing value')}, the first for "
            f"{where(missing)}; every classifier needs a score on every data set (fill it in, or "
            "remove that data set or that classifier).")
    infinite = ~np.isfinite(arr)
    if infinite.any():
        raise ReportInputError(f"The column {column!r} holds an infinite value for {where(infinite)}.")
    return arr


def load_results(
    source: str | os.PathLike | pd.DataFrame,
    *,
    dataset_column: str | None = None,
    higher_is_better: bool = True,
    sheet: str | int | None = None,
) -> Results:
    """Read and check a results table (one row per data set, one column per classifier).

    Parameters
    ----------
    source : path or pandas.DataFrame
        Text files are read with a sniffed separator, decimal mark and encoding; ``.xlsx``
        workbooks, ``.parquet``, ``.feather``, ``.json`` and ``.pkl`` files by the matching
        pandas reader (the predictions report's reader,
        :func:`evallib.report.load_predictions`). A DataFrame whose index is named
        (e.g. :func:`evallib.studies.demsar_table_6`) has its index taken as a column; an unnamed
        index other than 0, 1, 2, ... becomes the column ``data set``.
    dataset_column : str, optional
        The column holding the data sets' names. None: the one column named like
        :data:`DATASET_COLUMN_NAMES` (``dataset``, ``data set``, ``data_set``, ``task``, ...,
        in any letter case), else an unnamed first column holding text.
    higher_is_better : bool, default True
        True for accuracies and AUCs, False for error rates and losses (then rank 1 goes to
        the lowest score).
    sheet : str or int, optional
        The Excel sheet to read (default: the first).

    Returns
    -------
    Results

    Raises
    ------
    ReportInputError
        With one sentence naming the column or option, for: a missing or unreadable file,
        an empty table, duplicate column names, no (or more than one possible) data-set
        column, a missing or repeated data-set name (names that differ only in letter case
        or surrounding space count as repeated), an unnamed classifier column, fewer than two
        classifiers or two data sets, a non-numeric, boolean, missing or infinite score, a
        ``higher_is_better`` that is not True or False.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30 (the layout of Tables 2 and 6).

    Examples
    --------
    >>> from evallib.studies import demsar_table_6
    >>> res = load_results(demsar_table_6())
    >>> res.n_datasets, res.classifiers, res.dataset_column
    (14, ('C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'), 'data set')
    """
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise ReportInputError(
            f"higher_is_better (--lower-is-better) must be True or False, got {higher_is_better!r}.")
    frame, where, note = _read(source, sheet)
    _check_duplicates([str(c) for c in frame.columns], where)
    frame = frame.rename(columns=lambda c: str(c).strip())
    if frame.shape[1] == 0 or len(frame) == 0:
        raise ReportInputError(f"The results table {where!r} has no rows.")
    column, chosen = _choose_dataset_column(frame, dataset_column, where)
    names = _dataset_names(frame[column], column)
    classifiers = [c for c in frame.columns if c != column]
    for position, c in enumerate(frame.columns, start=1):
        if c != column and _unnamed(c):
            raise ReportInputError(
                f"Column {position} of {where!r} has no name; give every classifier's column its "
                "classifier's name in the header row.")
    if len(classifiers) < 2:
        which = f" ({classifiers[0]!r})" if classifiers else ""
        raise ReportInputError(
            f"The results table {where!r} has {plural(len(classifiers), 'classifier column')}{which} besides the "
            f"data-set column {column!r}; comparing classifiers needs at least two, one column each.")
    if len(names) < 2:
        raise ReportInputError(
            f"The results table {where!r} holds only one data set ({names[0]!r}); the many-data-sets "
            "tests need at least two, one row each (to compare classifiers on one test set, run the "
            "predictions report on their predictions).")
    scores = pd.DataFrame({c: _score_column(frame[c], c, names) for c in classifiers}, index=names)
    scores.columns.name = "classifier"
    return Results(source=where, scores=scores, dataset_column=column, dataset_from=chosen,
                   higher_is_better=bool(higher_is_better), read_note=note)
