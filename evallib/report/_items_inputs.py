"""Reading and checking per-item files: benchmark scores of several models on the same items.

A per-item file scores *items* (questions, tasks, pupils) with no label of their own:
each model answered each item once or several times, and each answer scored 0/1 or in
[0, 1]. Items may come in clusters (questions on one passage, tasks of one repository).
Four sources are read into one checked :class:`ItemScores`:

* a **wide** table (:func:`load_item_scores`): an item column, optional cluster and
  sample columns, and one column per model -- every other column, or those named
  ``<score_prefix><model>``;
* a **long** table (:func:`load_item_scores`): one row per (item, model[, sample]) with
  the columns item, model and score, and optional sample and cluster columns;
* **lm-evaluation-harness** ``--log_samples`` files (:func:`read_lm_eval_samples`), one
  JSON line per document, one file per model;
* **inspect_ai** eval logs (:func:`read_inspect_logs`), read with inspect_ai's own log
  reader, one log per model; the epochs are the samples.

The unit of analysis is the item, never the row: a verdict must not change with how many
times an item was written down, so every contradiction is refused with one sentence
naming the column (or field) and what is allowed (:class:`ReportInputError`): a cluster
label that changes within an item, a sample column without repeated answers, a duplicated
(item, model, sample), items missing for a model (with how many), non-numeric, missing or
out-of-range scores, fewer than two models (the reports compare at least two; a reader asked
with ``min_models=1``, as the release gate asks, reads one model's own file) or items, a single
cluster.

References
----------
E. Miller (2024), Adding error bars to evals: a statistical approach to language model
evaluations, arXiv:2411.00640 (items in clusters, several answers per item).
L. Gao et al., lm-evaluation-harness, the ``--log_samples`` output of
``lm_eval/evaluator.py`` (fields ``doc_id``, ``doc``, ``target``, ``arguments``,
``resps``, ``filtered_resps``, ``filter``, ``metrics``, ``doc_hash``, ``prompt_hash``,
``target_hash`` and one key per metric).
UK AI Security Institute, inspect_ai: ``inspect_ai.log.read_eval_log`` and
``inspect_ai.scorer.value_to_float``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import numbers
import os
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._extras import MissingExtraError, require
from .._results import freeze_arrays
from ._inputs import (
    ReportInputError,
    _check_min_models,
    _first_row,
    _key,
    _models_needed,
    _read_table,
    _to_numeric,
)
from ._prose import plural, quote_list

__all__ = [
    "FAILED_SAMPLES",
    "ITEM_SOURCE_FORMATS",
    "LM_EVAL_FIELDS",
    "TASK_CLUSTER",
    "ItemScores",
    "load_item_scores",
    "load_items",
    "read_inspect_logs",
    "read_lm_eval_samples",
]

#: What :func:`load_items` reads: a table (wide or long), lm-eval sample files, inspect logs.
ITEM_SOURCE_FORMATS = ("table", "lm-eval", "inspect")
#: The fields of an lm-evaluation-harness ``--log_samples`` line that are not metrics.
LM_EVAL_FIELDS = ("doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter",
                  "metrics", "doc_hash", "prompt_hash", "target_hash")
#: Items below which the overview warns that every interval is wide.
FEW_ITEMS = 100
#: Clusters below which the overview warns that the cluster-robust intervals rest on few clusters.
FEW_CLUSTERS = 30


# ------------------------------------------------------------------ the result
@dataclass(frozen=True, eq=False)
class ItemScores:
    """A checked per-item file: models x items (x samples) scores and the items' clusters.

    Attributes
    ----------
    source : where it came from (a path, several paths, or ``"<DataFrame>"``).
    layout : ``"wide"``, ``"long"``, ``"lm-eval"`` or ``"inspect"``.
    models : the models' names, in the order of the file.
    items : numpy.ndarray of str, the item ids, shape ``(N,)``.
    scores : numpy.ndarray of float, shape ``(N, M, K)``: item ``i``'s ``k``-th answer by
        model ``m``; NaN marks a sample a model does not have for that item (``K`` is the
        largest number of samples any model has for any item). A model may lack every sample
        of some items (scored on partly different items; ``read_note`` says so); every two
        models share at least two scored items.
    clusters : numpy.ndarray of int, each item's cluster as an index into
        ``cluster_names``; None without clusters.
    cluster_names : the clusters' labels, as text.
    binary : every score is 0 or 1.
    item_column, cluster_column, sample_column : the columns (or fields) read for those
        roles; ``""`` when the role is absent.
    n_rows : rows (or sample records) read.
    read_note : what the reader detected or chose, in plain sentences (``""`` if nothing).
    reducers : inspect logs: each model's epochs reducer, as inspect_ai names it (the
        score its own metrics reduce the epochs to); ``()`` for other sources.
    tasks : harness files of several tasks (lm-eval subtasks, inspect tasks): the task names,
        each item ``task/id``; ``()`` otherwise.
    """

    source: str
    layout: str
    models: tuple[str, ...]
    items: np.ndarray
    scores: np.ndarray
    clusters: np.ndarray | None
    cluster_names: tuple[str, ...]
    binary: bool
    item_column: str
    cluster_column: str
    sample_column: str
    n_rows: int
    read_note: str = ""
    #: inspect logs: each model's epochs reducer (``"mean"``, ``"max"``, ``"pass_at_2"``, ...); else empty
    reducers: tuple[str, ...] = ()
    #: harness files of several tasks: the tasks (items are ``task/id``); else empty
    tasks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def n_items(self) -> int:
        """Number of items, ``N``."""
        return int(self.scores.shape[0])

    @property
    def n_models(self) -> int:
        """Number of models, ``M``."""
        return int(self.scores.shape[1])

    @property
    def max_samples(self) -> int:
        """The largest number of samples of one item by one model, ``K``."""
        return int(self.scores.shape[2])

    @property
    def has_samples(self) -> bool:
        """Whether some item was answered more than once by some model."""
        return self.max_samples > 1

    @property
    def clustered(self) -> bool:
        """Whether the items come with clusters."""
        return self.clusters is not None

    @property
    def n_clusters(self) -> int:
        """Number of clusters (``N`` without clusters: each item its own)."""
        return len(self.cluster_names) if self.clusters is not None else self.n_items

    def sample_counts(self) -> np.ndarray:
        """Samples per item and model, shape ``(N, M)``."""
        return np.count_nonzero(~np.isnan(self.scores), axis=2)

    def model_scores(self, model: str) -> np.ndarray:
        """One model's scores: shape ``(N,)`` with one sample per item, else ``(N, K)``."""
        j = self.models.index(model)
        block = self.scores[:, j, :]
        return block[:, 0] if self.max_samples == 1 else block

    def item_means(self) -> pd.DataFrame:
        """Each item's mean score per model (the mean over its samples), items x models; NaN
        where a model has no answer to the item (models scored on partly different items)."""
        if self.max_samples == 1:
            means = self.scores[:, :, 0]
        else:  # nanmean's own sum / count, without its warning for an item a model did not answer
            counts = self.sample_counts()
            means = np.divide(np.nansum(self.scores, axis=2), counts, out=np.full(counts.shape, np.nan),
                              where=counts > 0)
        return pd.DataFrame(means, index=pd.Index(self.items, name="item"),
                            columns=pd.Index(list(self.models), name="model"))

    def item_tasks(self) -> np.ndarray | None:
        """Each item's task (text) when the files hold several tasks, else None."""
        if not self.tasks:
            return None
        return np.array([str(i).split("/", 1)[0] for i in self.items], dtype=object)

    def cluster_labels(self) -> np.ndarray | None:
        """Each item's cluster label (text), or None without clusters."""
        if self.clusters is None:
            return None
        return np.asarray(self.cluster_names, dtype=object)[self.clusters]


#: Names an error message lists before it says "and N more".
_LISTED = 6


def _factor(values: Any) -> tuple[np.ndarray, np.ndarray]:
    """Codes and names (text) of ``values`` in order of first appearance.

    Values that print alike as labels (``1``, ``1.0`` and ``"1"``:
    :func:`evallib.report._inputs._key`) are one label. Vectorised through
    :func:`pandas.factorize`: the text of each distinct value is made once.
    """
    series = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values, dtype=object))
    codes, uniques = pd.factorize(series, sort=False)
    texts = [_key(u) for u in list(uniques)]
    lookup: dict[str, int] = {}
    remap = np.array([lookup.setdefault(t, len(lookup)) for t in texts], dtype=np.int64)
    names = np.array(list(lookup), dtype=object)
    return remap[codes] if codes.size else codes.astype(np.int64), names


def _sample_text(names: np.ndarray | None, code: int) -> str:
    return repr(str(names[code])) if names is not None else str(code + 1)


def _check_no_missing(values: pd.Series, what: str, need: str) -> None:
    missing = values.isna().to_numpy()
    if missing.any():
        raise ReportInputError(f"The {what} has {plural(int(missing.sum()), 'missing value')}, the first in "
                               f"data row {_first_row(missing)}; {need}.")


def _score_values(values: pd.Series, what: str, *, missing_ok: bool = False) -> np.ndarray:
    """Scores as floats in [0, 1] (booleans count 0/1); one sentence on anything else.

    ``missing_ok``: NaN is kept (a missing sample of a wide table with a sample column).
    """
    if pd.api.types.is_bool_dtype(values.dtype):
        return values.to_numpy(dtype=float)
    if pd.api.types.is_numeric_dtype(values.dtype):
        arr = values.to_numpy(dtype=float, na_value=np.nan)
    else:
        numeric = _to_numeric(values, what, "scores must be 0/1 (wrong/right) or numbers in [0, 1]")
        arr = numeric.to_numpy(dtype=float, na_value=np.nan)
    if not missing_ok:
        nan = np.isnan(arr)
        if nan.any():
            raise ReportInputError(
                f"The {what} has {plural(int(nan.sum()), 'missing score')}, the first in data row "
                f"{_first_row(nan)}; every model must score every item (drop the item for all models, or "
                "score it).")
    outside = ~np.isnan(arr) & ((arr < 0) | (arr > 1))
    if outside.any():
        first = int(np.flatnonzero(outside)[0])
        raise ReportInputError(
            f"The {what} holds {plural(int(outside.sum()), 'value')} outside [0, 1], the first "
            f"{arr[first]:g} in data row {first + 1}; scores must be 0/1 or numbers in [0, 1] (rescale "
            "other scales first).")
    return arr


# ------------------------------------------------------------------ assembling
@dataclass(frozen=True)
class _Roles:
    """How the messages name each role: the column (or field) and what a reader calls it."""

    item: str
    model: str
    score: str
    sample: str = ""
    cluster: str = ""
    sample_hint: str = "name the column of repeated answers with --sample-column (sample_column=)"
    #: the plain names kept in :class:`ItemScores` (item, cluster, sample)
    names: tuple[str, str, str] = ("", "", "")


def _assemble(*, source: str, layout: str, roles: _Roles, item_codes: np.ndarray, item_names: np.ndarray,
              model_codes: np.ndarray, model_names: Sequence[str], scores: np.ndarray,
              sample_codes: np.ndarray | None, cluster_codes: np.ndarray | None,
              cluster_names: np.ndarray | None, n_rows: int, notes: list[str],
              sample_names: np.ndarray | None = None, sample_found: bool = False,
              min_models: int = 2) -> ItemScores:
    """Checks common to every source, then the ``(N, M, K)`` array.

    One entry per observed score: its item, model and (optional) sample label codes,
    and (optional) the cluster label code of its row. Refuses duplicated (item, model,
    sample), a sample column without repeats, items missing for a model, a cluster label
    that changes within an item, fewer than ``min_models`` models, fewer than two items or
    clusters.
    """
    n_items, n_models = len(item_names), len(model_names)
    if n_models < min_models:
        only = f" ({quote_list([str(m) for m in model_names], limit=_LISTED)})" if n_models else ""
        raise ReportInputError(f"The file holds {plural(n_models, 'model')}{only}; "
                               f"{_models_needed(min_models, 'model', 'the per-item report')} ({roles.model}).")
    if n_items < 2:
        raise ReportInputError(f"The file holds {plural(n_items, 'item')} ({roles.item}); a standard error "
                               "across items needs at least two.")
    pair = item_codes.astype(np.int64) * n_models + model_codes
    n_pairs = n_items * n_models
    if sample_codes is None:
        counts = np.bincount(pair, minlength=n_pairs)
        if counts.max() > 1:
            dup = counts > 1
            first = int(np.flatnonzero(dup)[0])
            raise ReportInputError(
                f"Item {str(item_names[first // n_models])!r} has {counts[first]} rows for model "
                f"{str(model_names[first % n_models])!r} ({plural(int(dup.sum()), 'such item-model pair')} in "
                f"all); each item is scored once per model, or, if the rows are repeated answers, "
                f"{roles.sample_hint}.")
        position = np.zeros(pair.size, dtype=np.int64)
        k_max = 1
    else:
        n_labels = int(sample_codes.max()) + 1 if sample_codes.size else 1
        key = pair * n_labels + sample_codes
        order = np.argsort(key, kind="stable")
        sorted_key = key[order]
        same = sorted_key[1:] == sorted_key[:-1]
        if same.any():
            k = int(np.flatnonzero(same)[0])
            row = int(order[k + 1])
            n_dup = int(np.count_nonzero(same))
            raise ReportInputError(
                f"Item {str(item_names[item_codes[row]])!r}, model {str(model_names[model_codes[row]])!r} and "
                f"sample {_sample_text(sample_names, int(sample_codes[row]))} of {roles.sample} occur more than once "
                f"({plural(n_dup, 'duplicated row')}); give each answer one row (a verdict must not change "
                "with how many times an answer was written down).")
        sorted_pair = sorted_key // n_labels
        starts = np.flatnonzero(np.r_[True, sorted_pair[1:] != sorted_pair[:-1]])
        lengths = np.diff(np.r_[starts, sorted_pair.size])
        k_max = int(lengths.max())
        if k_max == 1 and not sample_found:
            raise ReportInputError(
                f"The sample column {roles.sample} gives every item only one answer per model, so it marks no "
                "repeated answers; leave out --sample-column (sample_column=) or give the repeated answers.")
        position = np.zeros(pair.size, dtype=np.int64)
        if k_max == 1:
            notes.append(f"The column {roles.sample} gives every item one answer per model, so it marks no "
                         "repeated answers and was not used.")
            sample_codes = None
        else:
            position[order] = np.arange(pair.size) - np.repeat(starts, lengths)
        del order, sorted_key, same
    present = np.zeros(n_pairs, dtype=bool)
    present[pair] = True
    present = present.reshape(n_items, n_models)
    if not present.all():
        # models scored on partly different items (failed samples dropped, a subset rerun): each
        # model's mean on its own items, each pair on the items both scored; said in the read note
        lacking = (~present).sum(axis=0)
        scored = present.sum(axis=0)
        shared = present.astype(np.int64).T @ present.astype(np.int64)
        pair_min = np.where(np.eye(n_models, dtype=bool), n_items, shared)
        if pair_min.min() < 2:
            a, b = np.unravel_index(int(np.argmin(pair_min)), pair_min.shape)
            raise ReportInputError(
                f"Models {str(model_names[a])!r} and {str(model_names[b])!r} have {int(pair_min[a, b])} scored "
                f"item{'s' if pair_min[a, b] != 1 else ''} in common of the {n_items:,}; comparing two models needs "
                "at least 2 items that both scored.")
        short = [f"{str(model_names[j])!r} scored {int(scored[j]):,}" for j in np.flatnonzero(lacking)]
        notes.append(
            f"Not every model scored every item: of the {n_items:,} items, {'; '.join(short[:_LISTED])}"
            + (f" and {len(short) - _LISTED} more models lack items" if len(short) > _LISTED else "")
            + ". Each model's mean is taken on its own items (so the means rest on different items), and each "
            "pair is compared on the items both models scored; the pairwise table gives how many.")
    cube = np.full(n_pairs * k_max, np.nan)
    cube[pair * k_max + position] = scores
    cube = cube.reshape(n_items, n_models, k_max)
    clusters = None
    names: tuple[str, ...] = ()
    if cluster_codes is not None:
        per_item = np.empty(n_items, dtype=np.int64)
        per_item[item_codes] = cluster_codes
        changed = cluster_codes != per_item[item_codes]
        if changed.any():
            bad_items = np.unique(item_codes[changed])
            row = int(np.flatnonzero(changed)[0])
            i = int(item_codes[row])
            raise ReportInputError(
                f"The cluster column {roles.cluster} changes within an item: "
                f"{plural(bad_items.size, 'item')} carry more than one cluster label (e.g. item "
                f"{str(item_names[i])!r} in {str(cluster_names[cluster_codes[row]])!r} and "
                f"{str(cluster_names[per_item[i]])!r}); a cluster is a property of the item, so give each item "
                "one cluster label in every row.")
        used, per_item = np.unique(per_item, return_inverse=True)
        if used.size < 2:
            raise ReportInputError(
                f"The cluster column {roles.cluster} puts every item in the one cluster "
                f"{str(cluster_names[used[0]])!r}, so the variation between clusters cannot be estimated; "
                "give at least two clusters or leave the cluster column out.")
        clusters = per_item.astype(np.int64)
        names = tuple(str(c) for c in np.asarray(cluster_names, dtype=object)[used])
        if used.size == n_items:
            notes.append(f"Every item is its own cluster in {roles.cluster}, so the clustered analysis equals "
                         "the unclustered one.")
    observed = scores[~np.isnan(scores)]
    binary = bool(np.all((observed == 0.0) | (observed == 1.0)))
    if sample_codes is not None:
        counts = np.count_nonzero(~np.isnan(cube), axis=2)
        if counts.min() != counts.max():
            notes.append(f"Items were answered between {counts.min()} and {counts.max()} times (a model's "
                         "item mean is over its own answers; each item weighs the same).")
    return ItemScores(source=source, layout=layout, models=tuple(str(m) for m in model_names),
                      items=np.asarray(item_names, dtype=object).astype(str), scores=cube, clusters=clusters,
                      cluster_names=names, binary=binary, item_column=roles.names[0],
                      cluster_column=roles.names[1] if clusters is not None else "",
                      sample_column=roles.names[2] if sample_codes is not None else "", n_rows=int(n_rows), read_note=" ".join(notes))


# ------------------------------------------------------------------ tables
def _resolve(frame: pd.DataFrame, given: str | None, default: str, what: str, option: str,
             where: str) -> str | None:
    """A role's column: ``given`` must exist; without it ``default`` is used when present."""
    if given is None:
        return default if default in frame.columns else None
    if not isinstance(given, str) or not given.strip():
        raise ReportInputError(f"The {what} must be given as a non-empty text, got {given!r} ({option}).")
    given = given.strip()
    if given not in frame.columns:
        cols = quote_list([str(c) for c in frame.columns], limit=12)
        raise ReportInputError(f"The {what} {given!r} is not in {where!r}, whose columns are {cols} ({option}).")
    return given


def _label_codes(frame: pd.DataFrame, column: str, what: str, need: str) -> tuple[np.ndarray, np.ndarray]:
    _check_no_missing(frame[column], f"{what} {column!r}", need)
    return _factor(frame[column])


def load_item_scores(
    source: str | os.PathLike | pd.DataFrame,
    *,
    item_column: str = "item",
    cluster_column: str | None = None,
    sample_column: str | None = None,
    model_column: str | None = None,
    score_column: str | None = None,
    score_prefix: str | None = None,
    sheet: str | int | None = None,
    min_models: int = 2,
) -> ItemScores:
    """Read and check a per-item table, wide or long.

    **Long** when the table has the model column (``model_column``, by default a column
    named ``model``): one row per answer, with the item in ``item_column``, the model in
    ``model_column`` and the score in ``score_column`` (default ``score``), and
    optionally the sample (which answer) and the cluster. **Wide** otherwise: one row per
    item (or per item and sample, with a sample column) and one column per model -- every
    column other than the item, cluster and sample columns, or, with ``score_prefix``,
    the columns named ``<score_prefix><model>`` (the others are ignored).

    Scores are 0/1 (wrong/right; booleans count) or numbers in [0, 1]. Sample labels
    only say which answers are distinct: answer ``"1"`` of one model and answer ``"1"``
    of another are not paired (answers are exchangeable; every analysis reduces them to
    the item's mean or counts them).

    Parameters
    ----------
    source : path or pandas.DataFrame
        CSV/TSV (separator, decimal comma and encoding are detected), Excel, Parquet,
        Feather, JSON or pickle, as :func:`evallib.report.load_predictions` reads them.
    item_column : str, default "item"
        The item ids.
    cluster_column : str, optional
        Each item's cluster (its passage, source, school); one label per item. Default:
        a column named ``cluster`` when there is one, else no clusters -- the items are
        then taken as independent.
    sample_column : str, optional
        Which answer of the item a row holds, when items were answered several times.
        Default: a column named ``sample`` when there is one. It must mark repeats.
    model_column, score_column : str, optional
        The long layout's model and score columns (defaults ``model`` and ``score``).
    score_prefix : str, optional
        Wide layout: the models' columns are ``<score_prefix><model>``.
    sheet : str or int, optional
        The sheet of an Excel workbook (default: the first).
    min_models : int, default 2
        The fewest models the table must hold: the per-item report compares at least two;
        the release gate reads a file holding one model (its baseline's or candidate's own)
        with 1.

    Returns
    -------
    ItemScores

    Raises
    ------
    ReportInputError
        With one sentence naming the column or option: a missing or unreadable file, a
        missing role column, missing item/model/sample/cluster labels, non-numeric,
        missing or out-of-range scores, a duplicated (item, model, sample), a sample column
        without repeats, items missing for a model (with how many), a cluster label that
        changes within an item, a single cluster, fewer than ``min_models`` models or two
        items, contradictory options (a score prefix for a long table, a score column for a
        wide one).
    TypeError, ValueError
        ``source`` is neither a path nor a DataFrame; ``min_models`` is not a whole number >= 1.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame({"item": ["q1", "q2", "q3"], "gpt": [1, 0, 1], "llama": [0, 0, 1]})
    >>> data = load_item_scores(wide)
    >>> data.layout, data.models, data.scores.shape
    ('wide', ('gpt', 'llama'), (3, 2, 1))
    >>> long = wide.melt(id_vars="item", var_name="model", value_name="score")
    >>> load_item_scores(long).item_means().loc["q1"].tolist()
    [1.0, 0.0]
    """
    min_models = _check_min_models(min_models)
    note = ""
    if isinstance(source, pd.DataFrame):
        frame, where = source, "<DataFrame>"
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source).expanduser()
        try:
            frame, note = _read_table(path, sheet)
        except ReportInputError as exc:  # the shared reader speaks of a predictions file
            raise ReportInputError(str(exc).replace("The predictions file", "The per-item file", 1)) from None
        where = str(path)
    else:
        raise TypeError(f"source must be a file path or a pandas DataFrame, got {type(source).__name__}")
    frame = frame.rename(columns=lambda c: str(c).strip())
    if frame.columns.duplicated().any():
        dup = frame.columns[frame.columns.duplicated()][0]
        raise ReportInputError(f"The column name {dup!r} occurs twice in {where!r}; give every column its own name.")
    if len(frame) == 0:
        raise ReportInputError(f"The per-item file {where!r} has no rows.")
    if not isinstance(item_column, str) or not item_column.strip():
        raise ReportInputError(f"The item column must be given as a non-empty text, got {item_column!r} "
                               "(--item-column, item_column=).")
    item_col = _resolve(frame, item_column, "item", "item column", "--item-column, item_column=", where)
    cluster_col = _resolve(frame, cluster_column, "cluster", "cluster column", "--cluster-column, cluster_column=",
                           where)
    sample_col = _resolve(frame, sample_column, "sample", "sample column", "--sample-column, sample_column=", where)
    model_col = _resolve(frame, model_column, "model", "model column", "--model-column, model_column=", where)
    roles_taken = [c for c in (item_col, cluster_col, sample_col, model_col) if c is not None]
    if len(set(roles_taken)) < len(roles_taken):
        raise ReportInputError(f"One column plays two roles among item {item_col!r}, cluster {cluster_col!r}, "
                               f"sample {sample_col!r} and model {model_col!r}; name a different column for each.")
    notes = [note] if note else []
    for col, default, what in ((cluster_col, cluster_column, "clusters"), (sample_col, sample_column,
                                                                           "repeated answers' numbers")):
        if col is not None and default is None:
            notes.append(f"The column {col!r} was taken for the {what} (found by name).")
    item_codes, item_names = _label_codes(frame, item_col, "item column", "every row needs its item")
    cluster_codes = cluster_names = None
    if cluster_col is not None:
        cluster_codes, cluster_names = _label_codes(frame, cluster_col, "cluster column",
                                                    "every item needs its cluster")
    sample_codes = sample_names = None
    if sample_col is not None:
        sample_codes, sample_names = _label_codes(frame, sample_col, "sample column", "every row needs its sample")
    if model_col is not None:
        if score_prefix is not None:
            raise ReportInputError(f"A score prefix ({score_prefix!r}) names the model columns of a wide file, but "
                                   f"{where!r} has the model column {model_col!r} of a long file; leave out "
                                   "--score-prefix (score_prefix=) or the model column.")
        score_col = _resolve(frame, score_column, "score", "score column", "--score-column, score_column=", where)
        if score_col is None:
            raise ReportInputError(f"{where!r} has the model column {model_col!r}, so it is read as a long file "
                                   "(one row per item and model), but it has no score column 'score'; name it "
                                   "with --score-column (score_column=).")
        if score_col in roles_taken:
            raise ReportInputError(f"The score column {score_col!r} is also the item, cluster, sample or model "
                                   "column; name a different column for each.")
        model_codes, model_names = _label_codes(frame, model_col, "model column", "every row needs its model")
        values = _score_values(frame[score_col], f"score column {score_col!r}")
        roles = _Roles(item=repr(item_col), model=f"column {model_col!r}", score=repr(score_col),
                       sample=repr(sample_col) if sample_col else "", cluster=repr(cluster_col) if cluster_col else "",
                       names=(item_col, cluster_col or "", sample_col or ""))
        return _assemble(source=where, layout="long", roles=roles, item_codes=item_codes, item_names=item_names,
                         model_codes=model_codes, model_names=list(model_names), scores=values,
                         sample_codes=sample_codes, cluster_codes=cluster_codes, cluster_names=cluster_names,
                         n_rows=len(frame), notes=notes, sample_names=sample_names,
                         sample_found=sample_column is None, min_models=min_models)
    if score_column is not None:
        raise ReportInputError(f"A score column ({score_column!r}) belongs to a long file, but {where!r} has no "
                               "model column 'model', so it is read as a wide file (one column per model); name "
                               "the model column with --model-column (model_column=), or leave out --score-column.")
    others = [c for c in frame.columns if c not in roles_taken]
    if score_prefix is not None:
        if not isinstance(score_prefix, str) or not score_prefix:
            raise ReportInputError(f"The score prefix must be a non-empty text, got {score_prefix!r} "
                                   "(--score-prefix, score_prefix=).")
        columns = [c for c in others if c.startswith(score_prefix)]
        for c in columns:
            if not c[len(score_prefix):]:
                raise ReportInputError(f"The column {c!r} names no model; call it {score_prefix}<model>.")
        ignored = [c for c in others if c not in columns]
        if ignored:
            notes.append(f"{plural(len(ignored), 'column')} without the prefix {score_prefix!r} "
                         f"{'was' if len(ignored) == 1 else 'were'} not read ({quote_list(ignored, limit=_LISTED)}).")
        names = [c[len(score_prefix):] for c in columns]
    else:
        columns = names = others
    if len(columns) < min_models:
        found = f" ({quote_list(columns, limit=_LISTED)})" if columns else ""
        how = (f"columns named {score_prefix}<model>" if score_prefix is not None else
               "one column per model beside the item column")
        raise ReportInputError(f"{where!r} holds {plural(len(columns), 'model column')}{found}; "
                               f"{_models_needed(min_models, 'model', 'the per-item report')}, given as {how} (or a "
                               "long file with a model column).")
    matrix = np.column_stack([_score_values(frame[c], f"model column {c!r}", missing_ok=sample_col is not None)
                              for c in columns])
    n_rows, n_models = matrix.shape
    rows = np.repeat(np.arange(n_rows), n_models)
    flat = matrix.ravel()
    keep = ~np.isnan(flat)
    rows, flat = rows[keep], flat[keep]
    model_codes = np.tile(np.arange(n_models, dtype=np.int64), n_rows)[keep]
    roles = _Roles(item=repr(item_col), model="the model columns", score="the model columns",
                   sample=repr(sample_col) if sample_col else "", cluster=repr(cluster_col) if cluster_col else "",
                   names=(item_col, cluster_col or "", sample_col or ""))
    if sample_col is None:
        dup = pd.Series(item_codes).duplicated().to_numpy()
        if dup.any():
            first = int(np.flatnonzero(dup)[0])
            raise ReportInputError(
                f"Item {str(item_names[item_codes[first]])!r} has more than one row ({plural(int(dup.sum()), 'repeated row')} "
                f"in all, the first in data row {first + 1}); a wide file has one row per item, or, if the rows are "
                "repeated answers, name the column that numbers them with --sample-column (sample_column=).")
    else:
        dup = pd.DataFrame({"i": item_codes, "s": sample_codes}).duplicated().to_numpy()
        if dup.any():
            first = int(np.flatnonzero(dup)[0])
            raise ReportInputError(
                f"Item {str(item_names[item_codes[first]])!r} and sample {str(frame[sample_col].iloc[first])!r} occur "
                f"in more than one row ({plural(int(dup.sum()), 'duplicated row')}, the first in data row {first + 1}); "
                "give each answer one row.")
    return _assemble(source=where, layout="wide", roles=roles, item_codes=item_codes[rows], item_names=item_names,
                     model_codes=model_codes, model_names=names, scores=flat,
                     sample_codes=None if sample_codes is None else sample_codes[rows],
                     cluster_codes=None if cluster_codes is None else cluster_codes[rows],
                     cluster_names=cluster_names, n_rows=n_rows, notes=notes, sample_found=sample_column is None,
                     min_models=min_models)


# ------------------------------------------------------------------ lm-evaluation-harness
def _files_per_model(files: Any, what: str) -> dict[str, list[Path]]:
    """``{model: path or [paths]}`` as ``{model: [Path, ...]}``; one sentence on anything else."""
    if not isinstance(files, Mapping) or not files:
        raise ReportInputError(f"The {what} must be given per model, as {{model name: file}} (several files of one "
                               "model are its repeated runs, the samples).")
    out: dict[str, list[Path]] = {}
    for model, given in files.items():
        name = str(model).strip()
        if not name:
            raise ReportInputError(f"Every model of the {what} needs a non-empty name, got {model!r}.")
        if name in out:
            raise ReportInputError(f"The model {name!r} is named twice among the {what}; give each model once, with "
                                   "a list of files for its repeated runs.")
        paths = [given] if isinstance(given, (str, os.PathLike)) else list(given) if isinstance(given, Sequence) else None
        if not paths or not all(isinstance(p, (str, os.PathLike)) for p in paths):
            raise ReportInputError(f"The {what} of model {name!r} must be a file path or a list of them, got {given!r}.")
        out[name] = [Path(p).expanduser() for p in paths]
    return out


def _jsonl_records(path: Path) -> list[dict]:
    if not path.is_file():
        raise ReportInputError(f"The lm-eval samples file {str(path)!r} does not exist"
                               + (" (it is a directory)." if path.is_dir() else "."))
    try:
        text = path.read_text(encoding="utf-8-sig", errors="strict")
    except UnicodeDecodeError:
        raise ReportInputError(f"The lm-eval samples file {str(path)!r} is not UTF-8 text.") from None
    lines = text.splitlines()
    last = max((i for i, line in enumerate(lines, start=1) if line.strip()), default=0)
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == last and not text.endswith("\n") and number > 1:
                raise ReportInputError(f"The lm-eval samples file {str(path)!r} is truncated: its last line ({number}) "
                                       "stops in the middle of a JSON object, so the file was cut off while it was "
                                       "written or copied; rerun the task or copy the file again.") from None
            raise ReportInputError(f"Line {number} of the lm-eval samples file {str(path)!r} is not JSON; "
                                   "give the samples_<task>_<date>.jsonl file that lm_eval --log_samples "
                                   "writes, one JSON object per line.") from None
        if not isinstance(record, dict) or "doc_id" not in record:
            raise ReportInputError(f"Line {number} of the lm-eval samples file {str(path)!r} has no 'doc_id'; "
                                   "each line of lm_eval's --log_samples output is an object with the fields "
                                   "doc_id, doc, target, resps, filtered_resps and its metrics.")
        records.append(record)
    if not records:
        raise ReportInputError(f"The lm-eval samples file {str(path)!r} is empty: it holds no line, so lm-eval "
                               "scored no document into it (a run that stopped before the task finished?).")
    return records


def _metric_names(record: dict) -> list[str]:
    if isinstance(record.get("metrics"), list):
        return [str(m) for m in record["metrics"]]
    return [k for k in record if k not in LM_EVAL_FIELDS]


def _scalar_score(value: Any) -> float | None:
    """A per-item score as a float, or None when it is not a number (lm-eval's corpus metrics store tuples)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, numbers.Real) and math.isfinite(float(value)):
        return float(value)
    return None


def _cluster_text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return _key(value)


#: ``cluster_key`` value that makes the lm-eval task (from each file's name) the cluster.
TASK_CLUSTER = "task"
_LM_EVAL_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl$")


def _lm_eval_task(path: Path) -> str | None:
    """The task in lm-eval's file name ``samples_<task>_<date>.jsonl`` (``EvaluationTracker``), else None."""
    match = _LM_EVAL_NAME.match(path.name)
    return match.group("task") if match else None


def _fingerprint(record: dict) -> tuple[str, str] | None:
    """How one line names its document: lm-eval's ``doc_hash``, else the ``doc`` itself."""
    if record.get("doc_hash") is not None:
        return "doc_hash", str(record["doc_hash"])
    if isinstance(record.get("doc"), dict):
        return "doc", json.dumps(record["doc"], sort_keys=True, default=str)
    return None


def _same_document(documents: dict, item: str, record: dict, path: Path, doc_id: str, several_tasks: bool) -> None:
    """Refuse two different documents under one item (same task and doc_id, different doc_hash or doc)."""
    mark = _fingerprint(record)
    if mark is None:
        return
    known = documents.setdefault(item, (mark[0], mark[1], path))
    if known[0] == mark[0] and known[1] != mark[1]:
        where = (f"document {doc_id!r} of one task" if several_tasks else f"document {doc_id!r}")
        raise ReportInputError(
            f"The {where} is a different document in {str(known[2])!r} and in {str(path)!r} (their {mark[0]} "
            "differ), so the two lines are not answers to one item: lm-eval numbers every task's documents from 0, "
            "so files of different tasks must keep lm-eval's names (samples_<task>_<date>.jsonl), and a model's "
            "files of one task are its repeated runs.")


def read_lm_eval_samples(
    files: Mapping[str, Any],
    *,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - lm-eval's own name for it
    cluster_key: str | None = None,
    min_models: int = 2,
) -> ItemScores:
    """Read lm-evaluation-harness ``--log_samples`` files, one (or several) per model.

    ``lm_eval ... --log_samples`` writes, per task, ``samples_<task>_<date>.jsonl``: one
    JSON object per document and filter, with ``doc_id``, ``doc`` (the document),
    ``target``, ``arguments``, ``resps``, ``filtered_resps``, (recent versions)
    ``filter`` and ``metrics`` (the names of the metric keys), the hashes, and one key
    per metric holding that document's value (``acc``, ``acc_norm``, ``exact_match``,
    ...). The item is ``doc_id``; the score the chosen metric. Several files of one model
    are its repeated runs (samples: e.g. runs at a temperature with different seeds).

    Parameters
    ----------
    files : mapping
        ``{model name: path}``, or ``{model name: [path, ...]}`` for repeated runs.
    metric : str, optional
        The metric key; required when the files have more than one (``acc`` and
        ``acc_norm``), and it must hold a number in [0, 1] per document (corpus-level
        metrics such as ``bleu`` store tuples and are refused).
    filter : str, optional
        The filter (``strict-match``, ``flexible-extract``, ...); required when the files
        have lines for more than one.
    cluster_key : str, optional
        A field of ``doc`` holding each document's cluster (``subject``, a passage id),
        or ``"task"``: each file's lm-eval task, when the files hold several.
    min_models : int, default 2
        The fewest models the files must hold: the per-item report compares at least two;
        the release gate asks for 1, and says itself why one model is not enough for it.

    Returns
    -------
    ItemScores
        Layout ``"lm-eval"``; item ids are the ``doc_id`` values, or ``task/doc_id`` when
        the files hold several tasks.

    Notes
    -----
    An item is a task's document. lm-eval writes one ``samples_<task>_<date>.jsonl`` per
    task (an MMLU run: one per subject), each numbering its documents from 0, so files of
    one model with different tasks in their names are one evaluation of all their
    documents, never repeated answers; files of one model and one task are its runs. A
    ``doc_id`` whose ``doc_hash`` (or, without hashes, ``doc``) differs between two files
    is two documents under one name and is refused.

    Raises
    ------
    ReportInputError
        A missing, empty, truncated or malformed file, a file lacking the chosen filter,
        two documents under one (task, ``doc_id``), an unknown or ambiguous metric or filter, a metric
        that is not a per-document number, a ``doc_id`` twice in one file (and filter),
        documents missing for a model, a missing ``cluster_key``, fewer than ``min_models``
        models, and every check of :func:`load_item_scores`.
    TypeError, ValueError
        ``min_models`` is not a whole number >= 1.

    References
    ----------
    L. Gao et al., lm-evaluation-harness, ``lm_eval/evaluator.py`` (``log_samples``).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, accs in (("a", [1, 1, 0]), ("b", [0, 1, 0])):
    ...     lines = [json.dumps({"doc_id": i, "doc": {}, "target": "x", "resps": [], "filtered_resps": [],
    ...                          "filter": "none", "metrics": ["acc"], "acc": v}) for i, v in enumerate(accs)]
    ...     _ = (folder / f"{name}.jsonl").write_text("\\n".join(lines))
    >>> data = read_lm_eval_samples({"a": folder / "a.jsonl", "b": folder / "b.jsonl"})
    >>> data.models, data.item_means()["a"].tolist()
    (('a', 'b'), [1.0, 1.0, 0.0])
    """
    min_models = _check_min_models(min_models)
    per_model = _files_per_model(files, "lm-eval samples files")
    loaded = {model: [(path, _jsonl_records(path)) for path in paths] for model, paths in per_model.items()}
    every = [r for runs in loaded.values() for _, records in runs for r in records]
    filters = sorted({str(r["filter"]) for r in every if "filter" in r})
    if filter is not None:
        if str(filter) not in filters:
            raise ReportInputError(f"The filter {str(filter)!r} does not occur in the lm-eval samples files, whose "
                                   f"filters are {quote_list(filters, limit=_LISTED) if filters else 'not named'} (--filter, filter=).")
    elif len(filters) > 1:
        raise ReportInputError(f"The lm-eval samples files hold the filters {quote_list(filters, limit=_LISTED)}; choose one with "
                               "--filter (filter=), since each scores every document once.")
    chosen_filter = str(filter) if filter is not None else (filters[0] if filters else None)
    metrics: list[str] = []
    for r in every:
        for m in _metric_names(r):
            if m not in metrics:
                metrics.append(m)
    if metric is None:
        if len(metrics) != 1:
            raise ReportInputError(
                f"The lm-eval samples files hold the metrics {quote_list(metrics, limit=_LISTED)}; choose one with --metric (metric=)."
                if metrics else "The lm-eval samples files hold no metric key beside lm-eval's own fields.")
        metric = metrics[0]
    elif str(metric) not in metrics:
        raise ReportInputError(f"The metric {str(metric)!r} does not occur in the lm-eval samples files, whose metrics "
                               f"are {quote_list(metrics, limit=_LISTED)} (--metric, metric=).")
    metric = str(metric)
    # lm-eval names each file samples_<task>_<date>.jsonl and numbers every task's documents from 0:
    # an item is (task, doc_id), and files of different tasks are never repeats of one another
    tasks = {path: _lm_eval_task(path) for runs in loaded.values() for path, _ in runs}
    named = sorted({t for t in tasks.values() if t is not None})
    if len(named) > 1:
        unnamed = [p for p, t in tasks.items() if t is None]
        if unnamed:
            raise ReportInputError(
                f"The lm-eval samples file {str(unnamed[0])!r} is not named as lm-eval names them "
                f"(samples_<task>_<date>.jsonl), so its task is unknown, while the other files are of "
                f"{plural(len(named), 'task')} ({quote_list(named, limit=_LISTED)}); every task numbers its documents "
                "from 0, so give each file its lm-eval name.")
    several_tasks = len(named) > 1
    task_cluster = cluster_key == TASK_CLUSTER and several_tasks
    if chosen_filter is not None:
        for model, runs in loaded.items():
            for path, records in runs:
                if not any("filter" not in r or str(r["filter"]) == chosen_filter for r in records):
                    own = sorted({str(r["filter"]) for r in records})
                    raise ReportInputError(
                        f"The lm-eval samples file {str(path)!r} of model {model!r} has no line for the filter "
                        f"{chosen_filter!r}, only for {quote_list(own, limit=_LISTED)}; give every model's files "
                        "with the same filter (rerun it with that filter, or choose a filter all files hold with "
                        "--filter).")
    items, models, samples, values, clusters = [], [], [], [], []
    documents: dict[str, tuple[str, str, Path]] = {}  # item -> (how the document is known, its fingerprint, file)
    for model, runs in loaded.items():
        run_of_task: dict[str | None, int] = {}
        for path, records in runs:
            task = tasks[path] if several_tasks else None
            run = run_of_task[task] = run_of_task.get(task, -1) + 1
            seen: set[str] = set()
            for number, r in enumerate(records, start=1):
                if chosen_filter is not None and "filter" in r and str(r["filter"]) != chosen_filter:
                    continue
                doc_id = _key(r["doc_id"])
                if doc_id in seen:
                    raise ReportInputError(
                        f"The document {doc_id!r} occurs twice in {str(path)!r}"
                        + (f" for the filter {chosen_filter!r}" if chosen_filter else "")
                        + "; each document is scored once per run (give repeated runs as separate files).")
                seen.add(doc_id)
                item = f"{task}/{doc_id}" if task is not None else doc_id
                _same_document(documents, item, r, path, doc_id, several_tasks)
                if metric not in r:
                    raise ReportInputError(f"Line {number} of {str(path)!r} (document {doc_id!r}) has no metric "
                                           f"{metric!r}; every document needs it.")
                score = _scalar_score(r[metric])
                if score is None:
                    raise ReportInputError(
                        f"The metric {metric!r} of document {doc_id!r} in {str(path)!r} is {r[metric]!r}, not a number: "
                        "lm-eval stores per-document inputs of corpus-level metrics (bleu, perplexity) there; choose a "
                        "per-document metric such as acc or exact_match (--metric).")
                if task_cluster:
                    clusters.append(task)
                elif cluster_key is not None:
                    doc = r.get("doc")
                    label = _cluster_text(doc.get(cluster_key)) if isinstance(doc, dict) else None
                    if label is None:
                        raise ReportInputError(f"Document {doc_id!r} in {str(path)!r} has no field {cluster_key!r} in "
                                               "its doc (or it is empty); every document needs its cluster "
                                               "(--cluster-key, cluster_key=).")
                    clusters.append(label)
                items.append(item)
                models.append(model)
                samples.append(run)
                values.append(score)
    if not items:
        raise ReportInputError(f"The lm-eval samples files hold no line for the filter {chosen_filter!r}.")
    frame = pd.DataFrame({"doc_id": items, "model": models, "score": values})
    if any(s > 0 for s in samples):
        frame["run"] = samples
    if cluster_key is not None:
        frame[f"doc.{cluster_key}"] = clusters
    values_arr = _score_values(frame["score"], f"metric {metric!r}")
    item_codes, item_names = _factor(frame["doc_id"])
    model_codes, model_names = _factor(frame["model"])
    sample_codes = frame["run"].to_numpy(dtype=np.int64) if "run" in frame else None
    cluster_codes = cluster_names = None
    if cluster_key is not None:
        cluster_codes, cluster_names = _factor(frame[f"doc.{cluster_key}"])
    notes = [f"Read lm-evaluation-harness samples: the metric {metric!r}"
             + (f" with the filter {chosen_filter!r}" if chosen_filter else "")
             + (", one item per doc_id." if not several_tasks else ".")]
    if several_tasks:
        per_task = pd.Series([i.split("/", 1)[0] for i in item_names]).value_counts()
        counts = ", ".join(f"{t} {int(per_task.get(t, 0)):,}" for t in named[:_LISTED])
        counts += f" and {len(named) - _LISTED:,} more" if len(named) > _LISTED else ""
        notes.append(
            f"The files hold {len(named)} lm-eval tasks, each numbering its documents from 0, so an item is a task's "
            f"document (task/doc_id): {len(item_names):,} items ({counts}), and files of different tasks are one "
            "evaluation, never repeated answers. "
            + ("The tasks are the clusters (--cluster-key task)." if task_cluster else
               "The tasks can be the clusters (--cluster-key task, cluster_key='task')."))
    roles = _Roles(item="'doc_id'" if not several_tasks else "task and 'doc_id'", model="one file per model",
                   score=repr(metric),
                   sample="the runs (several files of one model)" if sample_codes is not None else "",
                   cluster=("the task (from the file names)" if task_cluster else
                            f"doc field {cluster_key!r}" if cluster_key else ""),
                   sample_hint="give repeated runs as separate files",
                   names=("doc_id" if not several_tasks else "task/doc_id",
                          "task" if task_cluster else f"doc.{cluster_key}" if cluster_key else "", "run"))
    source = ", ".join(str(p) for paths in per_model.values() for p in paths)
    data = _assemble(source=source, layout="lm-eval", roles=roles, item_codes=item_codes, item_names=item_names,
                     model_codes=model_codes, model_names=list(model_names), scores=values_arr,
                     sample_codes=sample_codes, cluster_codes=cluster_codes, cluster_names=cluster_names,
                     n_rows=len(frame), notes=notes, min_models=min_models)
    return dataclasses.replace(data, tasks=tuple(named)) if several_tasks else data


# ------------------------------------------------------------------ inspect_ai
def _inspect_value(value: Any, metric: str | None, where: str) -> float:
    """One inspect_ai score value as a float in the way inspect_ai's metrics read it.

    Scalars go through ``inspect_ai.scorer.value_to_float`` (``"C"`` 1, ``"I"`` 0,
    ``"P"`` 0.5, ``"N"`` 0, yes/no, true/false, numbers). A dict value needs ``metric``
    (its key); a list or a string inspect_ai cannot read is refused (``value_to_float``
    would log a warning and return 0, a silent wrong answer).
    """
    require("inspect_ai.scorer", "read_inspect_logs")  # installed: read_inspect_logs checked it
    from inspect_ai.scorer import value_to_float

    if isinstance(value, dict):
        if metric is None:
            raise ReportInputError(f"{where} holds several values ({quote_list(list(value), limit=_LISTED)}); choose one with "
                                   "--metric (metric=).")
        if metric not in value:
            raise ReportInputError(f"{where} has no value {metric!r}, only {quote_list(list(value), limit=_LISTED)} (--metric).")
        value = value[metric]
    elif metric is not None:
        raise ReportInputError(f"{where} holds a single value, so --metric (metric={metric!r}) does not apply.")
    if isinstance(value, (list, dict)) or value is None:
        raise ReportInputError(f"{where} is {value!r}, not a score.")
    if isinstance(value, str):
        text = value.strip().lower()
        known = text in ("c", "i", "p", "n", "yes", "no", "true", "false")
        try:
            float(text)
            known = known or math.isfinite(float(text))
        except ValueError:
            pass
        if not known:
            raise ReportInputError(f"{where} is {value!r}, which inspect_ai cannot read as a number (C, I, P, N, "
                                   "yes/no, true/false or a number).")
        value = value.strip()
        if text in ("c", "i", "p", "n"):
            value = value.upper()
    return float(value_to_float()(value))


#: What :func:`read_inspect_logs` does with a sample that errored (``sample.error`` set):
#: refuse the log (default), drop the sample, or score it 0 (a wrong answer).
FAILED_SAMPLES = ("refuse", "drop", "zero")


def _read_log(path: Path, read_eval_log: Any) -> Any:
    """One inspect log, read by inspect_ai; plain words for a missing, empty or truncated file."""
    if not path.is_file():
        raise ReportInputError(f"The inspect log {str(path)!r} does not exist.")
    if path.stat().st_size == 0:
        raise ReportInputError(f"The inspect log {str(path)!r} is empty (0 bytes): inspect wrote nothing into it (a run "
                               "stopped before it wrote the log?); give the log inspect wrote at the end of the run.")
    if path.suffix.lower() == ".eval" and not zipfile.is_zipfile(path):
        raise ReportInputError(f"The inspect log {str(path)!r} is not a complete .eval file: an .eval log is a zip "
                               "archive that ends with its table of contents, and this one does not, so it was cut "
                               "off while it was written or copied (or it is not an inspect log); copy it again or "
                               "rerun the evaluation.")
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # inspect_ai raises several kinds for a malformed log
        if path.suffix.lower() == ".json":
            try:
                json.loads(path.read_text(encoding="utf-8", errors="replace"))
            except ValueError:
                raise ReportInputError(f"The inspect log {str(path)!r} is not complete JSON: it was cut off while it "
                                       "was written or copied (or it is not an inspect log); copy it again or rerun "
                                       "the evaluation.") from None
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ReportInputError(f"The inspect log {str(path)!r} could not be read by inspect_ai ({reason}).") from None


def _log_reducer(log: Any, scorer: str | None) -> tuple[str, dict[str, float]]:
    """The epochs reducer of a log's scorer and inspect's own metrics for it (``log.results.scores``).

    inspect_ai reduces each sample's epochs to one score (``Task(epochs=Epochs(3, "max"))``,
    default ``"mean"``) before its metrics; the reducer is recorded with each ``EvalScore``
    and in ``log.eval.config.epochs_reducer``.
    """
    results = getattr(log, "results", None)
    for s in (getattr(results, "scores", None) or []):
        if scorer is None or getattr(s, "name", None) == scorer or getattr(s, "scorer", None) == scorer:
            metrics = {str(k): float(m.value) for k, m in (getattr(s, "metrics", None) or {}).items()
                       if isinstance(getattr(m, "value", None), numbers.Real)}
            if getattr(s, "reducer", None):
                return str(s.reducer), metrics
            break
    else:
        metrics = {}
    config = getattr(log.eval, "config", None)
    reducers = getattr(config, "epochs_reducer", None) or []
    return (", ".join(str(r) for r in reducers) if reducers else "mean"), metrics


#: inspect_ai's epochs reducers this report recomputes from the answers (``inspect_ai.scorer``).
_REDUCERS = {"max": np.max, "median": np.median, "mean": np.mean}


def _reducer_note(path: Path, reducer: str, reported: dict[str, float], items: list, values: list) -> str:
    """The log's epochs reducer in words, with the reduced score recomputed beside the mean of all answers."""
    shown = ", ".join(f"{k} {v:.4f}" for k, v in list(reported.items())[:3])
    text = (f"The log {str(path)!r} reduced each sample's epochs with {reducer!r} (inspect_ai's epochs reducer)"
            + (f"; inspect reports {shown}" if shown else "") + ".")
    if not items:
        return text
    frame = pd.DataFrame({"item": items, "score": values}).groupby("item", sort=False)["score"]
    k = int(frame.size().min())
    mean = float(frame.mean().mean())
    if reducer in _REDUCERS:
        reduced = float(frame.agg(_REDUCERS[reducer]).mean())
        binary = all(v in (0.0, 1.0) for v in values)
        gloss = (f" (with 0/1 scores and {k} answers per item: pass@{k}, at least one of the {k} right)"
                 if reducer == "max" and binary and k == int(frame.size().max()) else "")
        text += (f" Recomputed from its answers, the mean over items of each item's {reducer} is {reduced:.4f}"
                 f"{gloss}, while this report's mean over all answers (pass@1) is {mean:.4f}.")
    else:
        text += f" This report's mean over all answers (pass@1) is {mean:.4f}."
    return text


def read_inspect_logs(
    paths: Any,
    *,
    scorer: str | None = None,
    metric: str | None = None,
    cluster_key: str | None = None,
    models: Mapping[str, str] | None = None,
    failed_samples: str = "refuse",
    min_models: int = 2,
) -> ItemScores:
    """Read inspect_ai eval logs with inspect_ai's own reader, one log per model and task.

    Each log (``.eval`` or ``.json``, read by ``inspect_ai.log.read_eval_log``) is one
    model's run of one task: the model is the log's ``eval.model`` (or the name given in
    ``models``), the item each sample's ``id``, the sample its ``epoch`` (``--epochs``
    gives repeated answers), the score the chosen scorer's value converted as inspect_ai's
    own metrics convert it (``inspect_ai.scorer.value_to_float``: ``"C"`` 1, ``"I"`` 0,
    ``"P"`` 0.5, ...).

    An item is identified by task and id: logs of one model on several tasks are one
    evaluation of all their samples (items ``task/id``, the task available as the cluster
    with ``cluster_key="task"``), and logs of different tasks are never paired by id --
    unless every log is named as its own model in ``models`` (two prompts or solvers run
    as two tasks on one dataset), when the samples are paired by id and each id must
    carry the same input in every log.

    Parameters
    ----------
    paths : path or sequence of paths
        The logs, one per model and task (at least ``min_models`` models).
    scorer : str, optional
        The scorer whose value is read; required when the samples have more than one.
    metric : str, optional
        The key of a scorer whose value is a dict of several values.
    cluster_key : str, optional
        A key of each sample's ``metadata`` holding its cluster, or ``"task"``: each log's
        task, when the logs hold several.
    models : mapping, optional
        ``{path: model name}`` to name the logs' models (two logs of one model, e.g. two
        prompts, must be told apart this way; ``--inspect-log NAME=FILE``).
    failed_samples : {"refuse", "drop", "zero"}
        Samples that errored (``sample.error``): refuse the log with their count
        (default), leave them out (the item is then scored on its other epochs), or score
        them 0 as wrong answers. The counts are in ``read_note``.
    min_models : int, default 2
        The fewest models the logs must hold: the per-item report compares at least two;
        the release gate asks for 1, and says itself why one model is not enough for it.

    Returns
    -------
    ItemScores
        Layout ``"inspect"``; ``reducers`` holds each model's epochs reducer.

    Raises
    ------
    ReportInputError
        inspect_ai not installed (with the install command), a missing, empty, truncated
        or unreadable log, a log that did not finish (status other than ``success``), two
        logs of one model and task, a model without a log of a task another model has, an
        id with different inputs in logs paired across tasks, errored samples (with
        ``failed_samples="refuse"``), an unknown or ambiguous scorer, a sample without
        that score, a value that is not a number, a missing ``cluster_key``, fewer than
        ``min_models`` models, and every check of :func:`load_item_scores`.
    TypeError, ValueError
        ``min_models`` is not a whole number >= 1.

    References
    ----------
    UK AI Security Institute, inspect_ai: ``inspect_ai.log`` (``read_eval_log``,
    ``EvalLog``, ``EvalSample``, ``EvalScore.reducer``), ``inspect_ai.scorer.value_to_float``
    and ``inspect_ai.Epochs``.
    """
    min_models = _check_min_models(min_models)
    failed_samples = str(failed_samples)
    if failed_samples not in FAILED_SAMPLES:
        raise ReportInputError(f"failed_samples (--failed-samples) must be one of "
                               f"{quote_list(FAILED_SAMPLES, limit=_LISTED)}, got {failed_samples!r}.")
    try:
        require("inspect_ai.log", "read_inspect_logs")
    except MissingExtraError as err:
        raise ReportInputError(str(err)) from None
    from inspect_ai.log import read_eval_log

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [Path(p).expanduser() for p in paths]
    renames = {str(Path(k).expanduser()): str(v) for k, v in (models or {}).items()}
    logs = []
    for path in paths:
        log = _read_log(path, read_eval_log)
        if log.status != "success":
            raise ReportInputError(f"The inspect log {str(path)!r} has status {log.status!r}: the run did not finish, so "
                                   "its items are incomplete; rerun or retry it (inspect eval-retry) first.")
        if not log.samples:
            raise ReportInputError(f"The inspect log {str(path)!r} holds no samples.")
        logs.append((path, renames.get(str(path), str(log.eval.model)), str(log.eval.task), log))
    tasks = list(dict.fromkeys(task for _, _, task, _ in logs))
    names = [name for _, name, _, _ in logs]
    across = len(tasks) > 1 and all(str(p) in renames for p in paths) and len(set(names)) == len(names)
    several_tasks = len(tasks) > 1 and not across
    seen: dict[tuple[str, str], Path] = {}
    for path, model, task, _ in logs:
        if (model, task) in seen:
            raise ReportInputError(f"The inspect logs {str(seen[model, task])!r} and {str(path)!r} are both of model "
                                   f"{model!r}" + (f" on task {task!r}" if len(tasks) > 1 else "")
                                   + "; give one log per model, or name them apart (--inspect-log NAME=FILE, "
                                   "models={path: name}).")
        seen[model, task] = path
    if several_tasks:
        for model in dict.fromkeys(names):
            lacking = [t for t in tasks if (model, t) not in seen]
            if lacking:
                other = next(p for (m, t), p in seen.items() if t == lacking[0])
                raise ReportInputError(
                    f"The inspect logs hold the tasks {quote_list(tasks, limit=_LISTED)}, but model {model!r} has no log "
                    f"of task {lacking[0]!r} ({str(other)!r} is another model's): samples of different tasks are "
                    "different items, so logs of different tasks are never paired by their ids; give every model a "
                    "log of every task, or name each log as its own model (--inspect-log NAME=FILE) to compare them "
                    "on the same sample ids.")
    task_cluster = cluster_key == TASK_CLUSTER and several_tasks
    items, labels, epochs, values, clusters = [], [], [], [], []
    inputs: dict[str, tuple[str, Path]] = {}
    failed: dict[str, int] = {}
    reducers: dict[str, list[str]] = {}
    notes: list[str] = []
    for path, model, task, log in logs:
        reducer, reported = _log_reducer(log, scorer)
        reducers.setdefault(model, []).append(reducer)
        first_row = len(values)
        errored = [s for s in log.samples if getattr(s, "error", None) is not None]
        if errored:
            if failed_samples == "refuse":
                first = errored[0]
                message = str(getattr(first.error, "message", first.error)).strip().splitlines()
                raise ReportInputError(
                    f"{plural(len(errored), 'sample')} of the {len(log.samples):,} in the inspect log {str(path)!r} "
                    f"errored (e.g. sample {first.id!r}, epoch {first.epoch}"
                    + (f": {message[0][:120]}" if message else "") + "); choose what they count as with "
                    "--failed-samples drop (left out: each item is scored on its other epochs) or zero (scored 0, "
                    "as wrong answers) (failed_samples=).")
            failed[str(path)] = len(errored)
        for sample in log.samples:
            where = f"sample {sample.id!r} (epoch {sample.epoch}) of {str(path)!r}"
            where_ = where[0].upper() + where[1:]
            error = getattr(sample, "error", None) is not None
            if error and failed_samples == "drop":
                continue
            if error:
                value = 0.0
            else:
                scores = sample.scores or {}
                if scorer is None:
                    if len(scores) != 1:
                        raise ReportInputError(
                            f"{where_} has the scorers {quote_list(list(scores), limit=_LISTED)}; choose one with --scorer (scorer=)."
                            if scores else f"{where_} has no score (did the sample fail?).")
                    chosen = next(iter(scores))
                else:
                    chosen = scorer
                    if chosen not in scores:
                        raise ReportInputError(f"{where_} has no score from the scorer {scorer!r}"
                                               + (f", only {quote_list(list(scores), limit=_LISTED)}" if scores else "") + " (--scorer).")
                value = _inspect_value(scores[chosen].value, metric, f"The score {chosen!r} of {where}")
            item = f"{task}/{_key(sample.id)}" if several_tasks else _key(sample.id)
            if across and isinstance(sample.input, str):
                known = inputs.setdefault(item, (sample.input, path))
                if known[0] != sample.input:
                    raise ReportInputError(
                        f"Sample {sample.id!r} has one input in {str(known[1])!r} and another in {str(path)!r}: the logs "
                        f"are of different tasks ({quote_list(tasks, limit=_LISTED)}), paired by sample id because each "
                        "is named as its own model, but their ids do not name the same items; compare logs of one "
                        "dataset.")
            if task_cluster:
                clusters.append(task)
            elif cluster_key is not None:
                label = _cluster_text((sample.metadata or {}).get(cluster_key))
                if label is None:
                    raise ReportInputError(f"{where_} has no metadata {cluster_key!r} (or it is empty); every sample "
                                           "needs its cluster (--cluster-key, cluster_key=).")
                clusters.append(label)
            items.append(item)
            labels.append(model)
            epochs.append(int(sample.epoch))
            values.append(value)
        if reducer != "mean":
            notes.append(_reducer_note(path, reducer, reported, items[first_row:], values[first_row:]))
    frame = pd.DataFrame({"id": items, "model": labels, "epoch": epochs, "score": values})
    item_codes, item_names = _factor(frame["id"])
    model_codes, model_names = _factor(frame["model"])
    epoch_codes, epoch_names = _factor(frame["epoch"])
    several = len(epoch_names) > 1
    cluster_codes = cluster_names = None
    if cluster_key is not None:
        cluster_codes, cluster_names = _factor(pd.Series(clusters))
    roles = _Roles(item="sample 'id'" if not several_tasks else "task and sample 'id'", model="one log per model",
                   score="the scorer's value", sample="'epoch'" if several else "",
                   cluster=("the task" if task_cluster else f"metadata {cluster_key!r}" if cluster_key else ""),
                   sample_hint="give the repeated answers as epochs",
                   names=("id" if not several_tasks else "task/id",
                          "task" if task_cluster else f"metadata.{cluster_key}" if cluster_key else "", "epoch"))
    notes.insert(0, f"Read inspect_ai logs: {plural(len(paths), 'log')}, the score of "
                 + (f"scorer {scorer!r}" if scorer else "the samples' one scorer")
                 + (f", value {metric!r}" if metric else "") + (", epochs as samples." if several else "."))
    if several_tasks:
        notes.insert(1, f"The logs hold {len(tasks)} tasks ({quote_list(tasks, limit=_LISTED)}), so an item is a task's "
                        f"sample (task/id), {len(item_names):,} items in all, and logs of different tasks are one "
                        "evaluation, never paired by id. "
                        + ("The tasks are the clusters." if task_cluster else
                           "The tasks can be the clusters (--cluster-key task, cluster_key='task')."))
    if across:
        notes.insert(1, f"The logs are of different tasks ({quote_list(tasks, limit=_LISTED)}) and each is named as its "
                        "own model, so their samples are paired by id (each id's input was checked to be the same in "
                        "every log).")
    for path, k in failed.items():
        notes.append(f"{plural(k, 'sample')} of {str(path)!r} errored and "
                     + ("were left out." if failed_samples == "drop" else "were scored 0 (wrong)."))
    per_model = tuple(", ".join(dict.fromkeys(reducers.get(str(m), ["mean"]))) for m in model_names)
    data = _assemble(source=", ".join(str(p) for p in paths), layout="inspect", roles=roles, item_codes=item_codes,
                     item_names=item_names, model_codes=model_codes, model_names=list(model_names),
                     scores=_score_values(frame["score"], "score"), sample_codes=epoch_codes if several else None,
                     cluster_codes=cluster_codes, cluster_names=cluster_names, n_rows=len(frame), notes=notes,
                     min_models=min_models)
    return dataclasses.replace(data, reducers=per_model, tasks=tuple(tasks) if several_tasks else ())


# ------------------------------------------------------------------ one entry point
def load_items(source: Any, *, source_format: str = "table", item_column: str = "item",
               cluster_column: str | None = None, sample_column: str | None = None,
               model_column: str | None = None, score_column: str | None = None,
               score_prefix: str | None = None, sheet: str | int | None = None, metric: str | None = None,
               filter: str | None = None, scorer: str | None = None,  # noqa: A002
               cluster_key: str | None = None, failed_samples: str | None = None,
               min_models: int = 2) -> ItemScores:
    """Read per-item scores from any supported source (what the report notebook calls).

    ``source_format`` ``"table"``: :func:`load_item_scores` with the column options;
    ``"lm-eval"``: :func:`read_lm_eval_samples` (``source`` is ``{model: file(s)}``;
    ``metric``, ``filter``, ``cluster_key``); ``"inspect"``:
    :func:`read_inspect_logs` (``source`` is the logs, or ``{model: log(s)}`` to name
    them; ``scorer``, ``metric``, ``cluster_key``, ``failed_samples``). Options that
    belong to another format are refused with one sentence rather than ignored.

    Parameters
    ----------
    source : path, pandas.DataFrame, mapping or sequence of paths
        ``"table"``: a per-item table (a path or a DataFrame, as for
        :func:`load_item_scores`); ``"lm-eval"``: ``{model name: path}`` or
        ``{model name: [path, ...]}`` of ``--log_samples`` files; ``"inspect"``: the eval
        logs, one per model (a path or a sequence of paths), or ``{model name: log(s)}``
        to name them.
    source_format : {"table", "lm-eval", "inspect"}, default "table"
        What ``source`` is; anything else raises :class:`ReportInputError`.
    item_column : str, default "item"
        ``"table"`` only: the column of item ids. Another value with a log format is
        refused.
    cluster_column, sample_column : str, optional
        ``"table"`` only: the columns of each item's cluster and of which answer a row
        holds (defaults: columns named ``cluster`` and ``sample`` when there are such).
    model_column, score_column : str, optional
        ``"table"`` only: the long layout's model and score columns (defaults ``model``
        and ``score``).
    score_prefix : str, optional
        ``"table"`` only, wide layout: the models' columns are ``<score_prefix><model>``.
    sheet : str or int, optional
        ``"table"`` only: the sheet of an Excel workbook (default: the first).
    metric : str, optional
        ``"lm-eval"``: the metric key (required when the files hold more than one);
        ``"inspect"``: the key of a scorer whose value is a dict of several values.
    filter : str, optional
        ``"lm-eval"`` only: the filter (``strict-match``, ...), required when the files
        have lines for more than one.
    scorer : str, optional
        ``"inspect"`` only: the scorer whose value is read, required when the samples
        have more than one.
    cluster_key : str, optional
        ``"lm-eval"``: a field of each ``doc`` holding its cluster; ``"inspect"``: a key of
        each sample's ``metadata``; ``"task"`` makes each task a cluster.
    failed_samples : {"refuse", "drop", "zero"}, optional
        ``"inspect"`` only: what happens to samples that errored: refuse the log, drop
        them, or score them 0 (the counts are in the read note); None refuses.
    min_models : int, default 2
        Every format: the fewest models the source must hold (the per-item report compares
        at least two; the release gate reads one model's own file with 1).

    Returns
    -------
    ItemScores
        The checked scores, as :func:`load_item_scores`, :func:`read_lm_eval_samples` or
        :func:`read_inspect_logs` returns them (``layout`` ``"wide"`` or ``"long"``,
        ``"lm-eval"``, ``"inspect"``).

    Raises
    ------
    ReportInputError
        An unknown ``source_format``, an option of another format (naming it), and every
        check of the reader called.
    """
    if source_format not in ITEM_SOURCE_FORMATS:
        raise ReportInputError(f"The source format must be one of {quote_list(ITEM_SOURCE_FORMATS, limit=_LISTED)}, got "
                               f"{source_format!r}.")
    table_options = {"cluster_column": cluster_column, "sample_column": sample_column, "model_column": model_column,
                     "score_column": score_column, "score_prefix": score_prefix, "sheet": sheet}
    log_options = {"metric": metric, "filter": filter, "scorer": scorer, "cluster_key": cluster_key,
                   "failed_samples": failed_samples}
    allowed = {"table": set(table_options), "lm-eval": {"metric", "filter", "cluster_key"},
               "inspect": {"scorer", "metric", "cluster_key", "failed_samples"}}[source_format]
    stray = [k for k, v in {**table_options, **log_options}.items() if v is not None and k not in allowed]
    if source_format != "table" and item_column != "item":
        stray.insert(0, "item_column")
    if stray:
        raise ReportInputError(f"The option{'s' if len(stray) > 1 else ''} {quote_list(stray, limit=_LISTED)} do{'' if len(stray) > 1 else 'es'} "
                               f"not apply to {source_format} input; leave {'them' if len(stray) > 1 else 'it'} out.")
    if source_format == "table":
        return load_item_scores(source, item_column=item_column, min_models=min_models, **table_options)
    if source_format == "lm-eval":
        return read_lm_eval_samples(source, metric=metric, filter=filter, cluster_key=cluster_key,
                                    min_models=min_models)
    paths, names = inspect_sources(source)
    return read_inspect_logs(paths, scorer=scorer, metric=metric, cluster_key=cluster_key, models=names,
                             failed_samples=failed_samples or "refuse", min_models=min_models)


def inspect_sources(source: Any) -> tuple[list[Any], dict[str, str] | None]:
    """inspect logs as given to :func:`load_items`: paths, or ``{model: log or [logs]}`` (NAME=FILE)."""
    if not isinstance(source, Mapping):
        return ([source] if isinstance(source, (str, os.PathLike)) else list(source)), None
    paths, names = [], {}
    for model, given in source.items():
        for p in ([given] if isinstance(given, (str, os.PathLike)) else list(given)):
            paths.append(p)
            names[str(Path(p).expanduser())] = str(model)
    return paths, names
