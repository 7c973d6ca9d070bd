"""The release gate: is the candidate model no worse than the baseline by more than a margin?

``python -m evallib gate BASELINE CANDIDATE --margin 0.01`` (and :func:`release_gate`, which the
command line calls) reads the two models' per-item scores from any file the reports read, pairs
them item by item, and answers one of three things, each with its exit status:

=================  ======  ==========================================================================
verdict            status  meaning
=================  ======  ==========================================================================
``"no-worse"``     0       non-inferiority shown: the interval lies above ``-margin``
``"worse"``        3       the candidate is worse by more than the margin: the interval lies below it
``"cannot-tell"``  4       the interval contains ``-margin``: more items are needed to tell
=================  ======  ==========================================================================

(the command line's other statuses stay: 1 bad input, 2 usage, 130 Ctrl-C).

The difference is ``d = mean(candidate_i) - mean(baseline_i)`` over the paired items (each item's
mean over its samples first), for scores in [0, 1] where higher is better (``lower_is_better``
turns it round: then "worse" is higher). Two ways to decide, named in the answer:

* **fixed n** (the default): the one-sided non-inferiority test of
  :func:`evallib.items.paired_item_margin_test` at level ``alpha`` -- Tango's (1998) score test
  for one 0/1 outcome per item without clusters, otherwise the one-sided paired t-test, with
  CR2 cluster-robust standard errors and Bell–McCaffrey degrees of freedom when the items
  cluster. The interval is the two-sided ``1 - 2 alpha`` interval (each end the one-sided
  ``1 - alpha`` bound), so "no worse" and "worse" are each a one-sided test at ``alpha``. It is
  valid for one look at a number of items fixed in advance.
* **anytime-valid** (``sequential=True``): the two-sided ``1 - 2 alpha`` confidence sequence of
  :func:`evallib.sequential.confidence_sequence` over the items in the candidate's file order --
  Waudby-Smith & Ramdas' betting sequence, or with clusters the asymptotic one over whole
  clusters (``n_opt`` then required). It may be looked at after every batch and the run stopped
  at the first verdict; "cannot tell yet" means keep going.

Pairing: one file holding both models (name them ``baseline_model`` and ``candidate_model``), or
two files, each holding one model (or naming it), paired by item id -- with several tasks in
harness logs the id is ``task/id``, so items of different tasks never pair. A file holding one
model is read as the reports read their files, asked for one model (``min_models=1``), not two.
Items that one side has and the other lacks (or that a model did not score) are refused with one
sentence, and so are clusters that disagree, files with no item in common and two files that
name their models alike.
Predictions files (a label column and ``pred_<name>`` columns) give each case's correctness
(the share of its predictions that are right, when a case is predicted several times); two
predictions files pair by their case-id column, or, when neither has one, row by row after
checking that the true labels agree row by row.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import __version__
from .._validate import check_alpha
from ..items import paired_item_margin_test
from ..sequential import confidence_sequence, sequential_pvalue
from ._inputs import ReportInputError, _keys, _read_table, load_predictions
from ._items_inputs import load_item_scores, load_items
from ._prose import distinct_digits, level_text, plural, quote_list

__all__ = ["GATE_EXIT_CODES", "GATE_SCHEMA", "GateVerdict", "release_gate", "write_verdict"]

#: The gate's verdicts and their exit statuses (1, 2 and 130 stay the command line's bad input,
#: usage error and Ctrl-C).
GATE_EXIT_CODES: dict[str, int] = {"no-worse": 0, "worse": 3, "cannot-tell": 4}

#: The ``schema`` field of the JSON verdict; it changes when a field changes meaning.
GATE_SCHEMA = "evallib.gate/1"

_FORMATS = ("table", "lm-eval", "inspect")


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True)
class GateVerdict:
    """The release gate's answer (:func:`release_gate`).

    Attributes
    ----------
    verdict : ``"no-worse"``, ``"worse"`` or ``"cannot-tell"`` (:data:`GATE_EXIT_CODES`).
    baseline, candidate : the two models' names.
    baseline_source, candidate_source : the files (or logs) each was read from.
    estimate : ``mean(candidate) - mean(baseline)`` over the paired items.
    low, high : the two-sided ``1 - 2 alpha`` interval (fixed n) or confidence sequence at the
        last look (sequential) of that difference.
    margin : how much worse the candidate may be and still pass, > 0, in the scores' units.
    alpha : the level of each one-sided decision.
    statistic : the non-inferiority test's statistic at the margin (fixed n; signed so that
        large values favour "no worse"), or the log of the betting capital against the margin
        (sequential, the always-valid p-value is ``exp(-statistic)``).
    pvalue : the one-sided p-value of "worse by the margin or more" (fixed n), or its
        always-valid counterpart (sequential).
    method : ``"tango"``, ``"t"``, ``"cr2"`` (fixed n) or ``"betting"``, ``"asymptotic"``.
    method_text : the method in words, as the sentence names it.
    assumptions : what the answer assumes, one sentence each.
    sequential : whether the anytime-valid method was used.
    higher_is_better : the scores' direction.
    n_items, n_clusters : the paired items and their clusters (``n_clusters == n_items``
        without clusters).
    note : what the readers noted (read notes, how the files were paired), ``""`` if nothing.
    """

    verdict: str
    baseline: str
    candidate: str
    baseline_source: str
    candidate_source: str
    estimate: float
    low: float
    high: float
    margin: float
    alpha: float
    statistic: float
    pvalue: float
    method: str
    method_text: str
    assumptions: tuple[str, ...]
    sequential: bool
    higher_is_better: bool
    n_items: int
    n_clusters: int
    note: str = ""

    @property
    def exit_code(self) -> int:
        """The command line's exit status for this verdict (:data:`GATE_EXIT_CODES`)."""
        return GATE_EXIT_CODES[self.verdict]

    @property
    def limit(self) -> float:
        """The difference at the margin: ``-margin`` (higher is better) or ``+margin``."""
        return -self.margin if self.higher_is_better else self.margin

    def sentence(self) -> str:
        """The answer in one sentence: the verdict, the estimate, the interval against the
        margin, the number of items and the method.

        Returns
        -------
        str
            The verdict, ``candidate - baseline`` with its ``1 - 2 alpha`` interval (or confidence
            sequence) read against the margin, the items (and clusters), the p-value and the method.

        Examples
        --------
        >>> v = release_gate({"old": [1, 0, 1, 1] * 50, "new": [1, 1, 1, 0] * 50}, None,
        ...                  baseline_model="old", candidate_model="new", margin=0.1)
        >>> print(v.sentence())  # doctest: +NORMALIZE_WHITESPACE
        The candidate 'new' is no worse than the baseline 'old' by more than 0.1:
        new - old = +0.000 over 200 items, 90% interval [-0.082, +0.082] lies above -0.1 (one-sided
        tests at alpha = 0.05, non-inferiority p = 0.0227; Tango's score test for paired 0/1 outcomes).
        """
        m = f"{self.margin:.3g}"
        limit = f"{self.limit:+.3g}".replace("+", "+" if not self.higher_is_better else "")
        claim = (f"the candidate {self.candidate!r} is no worse than the baseline {self.baseline!r} "
                 f"by more than {m}")
        if self.verdict == "no-worse":
            head, rel = claim[0].upper() + claim[1:], ("lies above" if self.higher_is_better else "lies below")
        elif self.verdict == "worse":
            head = (f"The candidate {self.candidate!r} is worse than the baseline {self.baseline!r} "
                    f"by more than {m}")
            rel = "lies below" if self.higher_is_better else "lies above"
        else:
            head, rel = f"Cannot tell yet whether {claim}", "contains"
        level = level_text(2 * self.alpha)
        where = plural(self.n_items, "item") + (f" in {plural(self.n_clusters, 'cluster')}"
                                                 if self.n_clusters < self.n_items else "")
        kind = "confidence sequence" if self.sequential else "interval"
        if self.sequential:
            test = f"anytime-valid at every look, always-valid non-inferiority {_p(self.pvalue)}"
        else:
            test = f"one-sided tests at alpha = {self.alpha:g}, non-inferiority {_p(self.pvalue)}"
        direction = "" if self.higher_is_better else " (lower scores are better)"
        d = distinct_digits(self.low, self.high, 3)
        return (f"{head}{direction}: {self.candidate} - {self.baseline} = {self.estimate:+.{d}f} over {where}, "
                f"{level} {kind} [{self.low:+.{d}f}, {self.high:+.{d}f}] {rel} {limit} ({test}; {self.method_text}).")

    __str__ = sentence

    def to_dict(self) -> dict[str, Any]:
        """The verdict as the JSON object :func:`write_verdict` writes (schema :data:`GATE_SCHEMA`).

        Returns
        -------
        dict
            ``schema``, ``evallib_version``, ``verdict``, ``exit_code``, ``sentence``, ``baseline`` and
            ``candidate`` (each ``{"model", "source"}``), ``estimate``, ``low``, ``high``, ``level``,
            ``margin``, ``alpha``, ``higher_is_better``, ``statistic`` (null when infinite), ``pvalue``,
            ``method``, ``method_text``, ``sequential``, ``assumptions``, ``n_items``, ``n_clusters``, ``note``.
        """
        return {
            "schema": GATE_SCHEMA, "evallib_version": __version__,
            "verdict": self.verdict, "exit_code": self.exit_code, "sentence": self.sentence(),
            "baseline": {"model": self.baseline, "source": self.baseline_source},
            "candidate": {"model": self.candidate, "source": self.candidate_source},
            "estimate": self.estimate, "low": self.low, "high": self.high, "level": 1 - 2 * self.alpha,
            "margin": self.margin, "alpha": self.alpha, "higher_is_better": self.higher_is_better,
            "statistic": self.statistic if math.isfinite(self.statistic) else None, "pvalue": self.pvalue,
            "method": self.method, "method_text": self.method_text, "sequential": self.sequential,
            "assumptions": list(self.assumptions), "n_items": self.n_items, "n_clusters": self.n_clusters,
            "note": self.note,
        }


def _p(p: float) -> str:
    return "p < 1e-15" if p < 1e-15 else f"p = {p:.3g}"


def write_verdict(verdict: GateVerdict, path: str | os.PathLike) -> Path:
    """Write ``verdict.to_dict()`` as JSON to ``path``, atomically (a temporary file in the same
    folder, renamed over ``path``): a failed write leaves no half-written file.

    Parameters
    ----------
    verdict : GateVerdict
        What :func:`release_gate` returned.
    path : str or path-like
        The JSON file to write; its folder must exist.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    target = Path(path).expanduser()
    if target.is_dir():
        raise ReportInputError(f"The JSON path {str(target)!r} is a directory, not a file.")
    if not target.parent.is_dir():
        raise ReportInputError(f"The folder of the JSON path {str(target)!r} does not exist.")
    text = json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


# ----------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class _Models:
    """One source's models as per-item means, with the items' ids and clusters."""

    source: str
    items: np.ndarray            # ids as text, in file order
    means: dict[str, np.ndarray]  # model -> (N,) item means in [0, 1]
    samples: bool                # some item has more than one answer
    clusters: np.ndarray | None  # labels as text, or None
    from_rows: bool              # ids are row numbers (a predictions file without a case column)
    labels: np.ndarray | None    # predictions: each case's true class as text
    note: str


def _from_items(scores: Any, source: str, note: str = "") -> _Models:
    means = scores.item_means()
    return _Models(source=source, items=np.asarray(scores.items, dtype=str),
                   means={m: means[m].to_numpy(dtype=float) for m in scores.models}, samples=scores.has_samples,
                   clusters=None if scores.clusters is None else np.asarray(scores.cluster_labels(), dtype=str),
                   from_rows=False, labels=None, note=" ".join(t for t in (note, scores.read_note) if t))


def _from_predictions(pred: Any, source: str, note: str) -> _Models:
    if not pred.predicted:
        raise ReportInputError(f"The predictions file {source!r} has no predicted-label columns, so no case is "
                               "right or wrong; the gate compares the models' correctness.")
    cases = np.arange(pred.n_rows) if pred.cases is None else np.asarray(pred.cases)
    n = int(cases.max()) + 1
    counts = np.bincount(cases, minlength=n).astype(float)
    means = {name: np.bincount(cases, weights=(codes == pred.truth).astype(float), minlength=n) / counts
             for name, codes in pred.predicted.items()}
    first = np.unique(cases, return_index=True)[1]
    labels = np.asarray(pred.classes, dtype=str)[np.asarray(pred.truth)[first]]
    if pred.case_ids is None:
        items, from_rows = np.array([str(i + 1) for i in range(n)]), True
    else:
        items, from_rows = np.asarray(pred.case_ids, dtype=str), False
    return _Models(source=source, items=items, means=means, samples=bool(counts.max() > 1), clusters=None,
                   from_rows=from_rows, labels=labels, note=note)


def _read_frame(frame: pd.DataFrame, where: str, note: str, options: Mapping[str, Any]) -> _Models:
    """A per-item or predictions table holding one model or more (a predictions table has the
    label column), read as the reports read it."""
    frame = frame.rename(columns=lambda c: str(c).strip())
    label_column = options.get("label_column") or "label"
    item_column = options.get("item_column")
    try:
        if item_column is None and label_column in frame.columns:
            pos_label = options.get("pos_label")
            if pos_label is None and frame[label_column].notna().all():
                # correctness does not depend on the positive class; load_predictions needs one
                classes = _keys(frame[label_column])[1]
                pos_label = classes[0] if classes.size == 2 else None
            pred = load_predictions(frame, label_column=label_column, pos_label=pos_label,
                                    pred_prefix=options.get("pred_prefix") or "pred_",
                                    case_column=options.get("case_column"),
                                    repeat_column=options.get("repeat_column"), min_models=1)
            return _from_predictions(pred, where, note)
        scores = load_item_scores(frame, item_column=item_column or "item", min_models=1,
                                  **{k: options.get(k) for k in ("cluster_column", "sample_column", "model_column",
                                                                 "score_column", "score_prefix")})
        return _from_items(scores, where, note)
    except ReportInputError as err:
        raise ReportInputError(str(err).replace("'<DataFrame>'", repr(where)).replace("<DataFrame>", where)) from None


def _read_source(source: Any, source_format: str, options: Mapping[str, Any]) -> _Models:
    """One side's source: a table (path or DataFrame), ``{model: scores}`` or harness logs, with
    one model or more (the caller says when one is not enough)."""
    if source_format == "table":
        if isinstance(source, pd.DataFrame):
            return _read_frame(source, "<DataFrame>", "", options)
        if isinstance(source, Mapping):   # {model: scores}: one score per item, items numbered
            frame = pd.DataFrame({"item": np.arange(1, len(next(iter(source.values()))) + 1), **source})
            return _from_items(load_item_scores(frame, min_models=1), "<scores>")
        where = str(Path(source).expanduser())
        frame, note = _read_table(Path(where), options.get("sheet"))
        return _read_frame(frame, where, note, options)
    keys = ("metric", "filter", "cluster_key") if source_format == "lm-eval" else \
        ("scorer", "metric", "cluster_key", "failed_samples")
    scores = load_items(source, source_format=source_format, min_models=1, **{k: options.get(k) for k in keys})
    return _from_items(scores, scores.source)


def _one_model(models: _Models, source_format: str) -> str:
    """The sentence for one source holding a single model when the gate was given no other."""
    name = next(iter(models.means))
    need = "the gate compares a candidate with a baseline"
    if source_format == "table":
        return (f"{models.source!r} holds one model ({name!r}); {need}, so give the candidate's file after the "
                "baseline's (BASELINE CANDIDATE), or one file holding both models.")
    what, flag = (("lm-eval samples files", "--lm-eval MODEL=FILE") if source_format == "lm-eval" else
                  ("inspect logs", "--inspect-log [NAME=]FILE"))
    return f"The {what} hold one model ({name!r}); {need}, so give the logs of both, {flag} for each."


def _unscored(models: _Models, name: str, role: str, pos: np.ndarray, y: np.ndarray) -> None:
    """Refuse paired items that the chosen model did not score (a file whose models scored
    partly different items reads them as NaN)."""
    lacking = np.flatnonzero(np.isnan(y))
    if lacking.size:
        raise ReportInputError(
            f"The {role} {name!r} has no score for {plural(lacking.size, 'item')} of the {y.size:,} paired "
            f"(first {str(models.items[pos[lacking[0]]])!r}) in {models.source!r}; the gate compares the two models on "
            "the same items, so give both a score for every item, or leave those items out.")


def _pick(models: _Models, given: str | None, role: str, exclude: str | None = None) -> str:
    """The model of ``role`` in ``models``: the one named, or the only one (besides ``exclude``)."""
    names = list(models.means)
    if given is not None:
        if given not in models.means:
            raise ReportInputError(f"The {role} model {given!r} is not in {models.source!r}, whose models are "
                                   f"{quote_list(names)}.")
        return given
    left = [m for m in names if m != exclude]
    if len(left) != 1:
        raise ReportInputError(f"{models.source!r} holds the models {quote_list(names)}; name the {role} with "
                               f"--{role}-model ({role}_model=).")
    return left[0]


def _pair(base: _Models, cand: _Models) -> tuple[np.ndarray, np.ndarray, str]:
    """Positions of the paired items in ``base`` and ``cand`` (candidate's order), and how they paired."""
    if base.from_rows or cand.from_rows:
        if not (base.from_rows and cand.from_rows):
            raise ReportInputError("One predictions file has a case-id column and the other has none, so their "
                                   "cases cannot be paired; give both files the case ids (--case-column).")
        if base.items.size != cand.items.size:
            raise ReportInputError(f"The predictions files have no case-id column and differ in length "
                                   f"({plural(base.items.size, 'case')} and {cand.items.size:,}), so they do not "
                                   "pair row by row; give both files a case-id column.")
        bad = np.flatnonzero(base.labels != cand.labels)
        if bad.size:
            raise ReportInputError(f"The predictions files have no case-id column and their true labels differ "
                                   f"in {plural(bad.size, 'row')} (first: case {bad[0] + 1}), so they are not the "
                                   "same cases in the same order; give both files a case-id column.")
        order = np.arange(base.items.size)
        return order, order, "Paired row by row (no case-id column; the true labels agree in every row)."
    b_index = pd.Index(base.items)
    pos = b_index.get_indexer(cand.items)
    missing_b = np.flatnonzero(pos < 0)
    in_cand = np.zeros(base.items.size, dtype=bool)
    in_cand[pos[pos >= 0]] = True
    missing_c = np.flatnonzero(~in_cand)
    if missing_b.size == cand.items.size:
        raise ReportInputError(
            f"The files have no item in common: {base.source!r} holds {plural(base.items.size, 'item')} (first "
            f"{str(base.items[0])!r}) and {cand.source!r} {cand.items.size:,} others (first {str(cand.items[0])!r}); the gate "
            "pairs the two models item by item, so compare them on the same items, with the same item ids.")
    if missing_b.size or missing_c.size:
        parts = []
        if missing_b.size:
            parts.append(f"{plural(missing_b.size, 'item')} of {cand.source!r} (first {str(cand.items[missing_b[0]])!r}) "
                         f"{'is' if missing_b.size == 1 else 'are'} not in {base.source!r}")
        if missing_c.size:
            parts.append(f"{plural(missing_c.size, 'item')} of {base.source!r} (first {str(base.items[missing_c[0]])!r}) "
                         f"{'is' if missing_c.size == 1 else 'are'} not in {cand.source!r}")
        raise ReportInputError("The files do not pair item by item: " + " and ".join(parts)
                               + "; compare the models on the same items.")
    if base.labels is not None and cand.labels is not None:
        bad = np.flatnonzero(base.labels[pos] != cand.labels)
        if bad.size:
            raise ReportInputError(f"The files give case {str(cand.items[bad[0]])!r} different true labels "
                                   f"({str(base.labels[pos[bad[0]]])!r} and {str(cand.labels[bad[0]])!r}), so they are "
                                   "not the same test cases.")
    return pos, np.arange(cand.items.size), f"Paired by item id ({plural(cand.items.size, 'item')})."


def _clusters(base: _Models, cand: _Models, bpos: np.ndarray) -> np.ndarray | None:
    if base.clusters is None:
        return cand.clusters
    b = base.clusters[bpos]
    if cand.clusters is not None and base is not cand:
        bad = np.flatnonzero(b != cand.clusters)
        if bad.size:
            raise ReportInputError(f"The files put item {str(cand.items[bad[0]])!r} in different clusters "
                                   f"({str(b[bad[0]])!r} and {str(cand.clusters[bad[0]])!r}); give each item one cluster.")
    return b


# ----------------------------------------------------------------------------- deciding
_FIXED_TEXT = {
    "tango": "Tango's score test for paired 0/1 outcomes",
    "t": "paired t-test, items taken as independent",
    "cr2": "paired t-test with CR2 cluster-robust standard errors and Bell–McCaffrey df",
}
_SEQ_TEXT = {
    "betting": "Waudby-Smith & Ramdas' betting confidence sequence",
    "asymptotic": "Waudby-Smith et al.'s asymptotic confidence sequence over whole clusters",
}


def _assumptions(method: str, sequential: bool, clustered: bool) -> tuple[str, ...]:
    out = ["The two models were scored on the same items, paired by id; scores in [0, 1]."]
    if clustered:
        out.append("Clusters are independent of one another; items within a cluster may be correlated.")
    else:
        out.append("Items are independent of one another (no clusters given).")
    if method == "tango":
        out.append("One 0/1 outcome per item and enough items for the score test's normal approximation.")
    elif not sequential:
        out.append("Enough items (or clusters) for the t reference of the mean paired difference.")
    if sequential:
        out.append("The items are in the order they were scored (the candidate file's order), drawn from one "
                   "population; the answer is valid at every look, so the run may stop at the first verdict.")
        if method == "asymptotic":
            out.append("Each cluster arrives whole; the guarantee is asymptotic in the number of clusters.")
    else:
        out.append("The number of items was fixed before looking; looking again after more items needs "
                   "--sequential.")
    return tuple(out)


def release_gate(
    baseline: Any,
    candidate: Any = None,
    *,
    margin: float,
    baseline_model: str | None = None,
    candidate_model: str | None = None,
    alpha: float = 0.05,
    sequential: bool = False,
    n_opt: int | None = None,
    higher_is_better: bool = True,
    source_format: str = "table",
    **options: Any,
) -> GateVerdict:
    """Is the candidate no worse than the baseline by more than ``margin``? (the release gate).

    Parameters
    ----------
    baseline : path, pandas.DataFrame, mapping or logs
        The baseline's file: a per-item file (wide or long, as :func:`load_item_scores` reads
        it) or a predictions file (one with the label column); or, holding both models, the
        only source (``candidate=None``); ``{model: scores}`` gives one score per item directly.
        With ``source_format="lm-eval"`` or ``"inspect"``, the harness logs of both models as
        :func:`load_items` takes them (``candidate`` must then be None).
    candidate : path, optional
        The candidate's file, paired with the baseline's item by item. None: ``baseline`` holds both.
    margin : float
        In (0, 1), in the scores' units: how much worse the candidate may be and still pass.
    baseline_model, candidate_model : str, optional
        The models' names in their source; needed only where a source holds several (one source
        holding exactly two: name one, the other is the rest).
    alpha : float
        Level of each one-sided decision, in (0, 0.5); the interval is two-sided ``1 - 2 alpha``.
    sequential : bool
        Decide with the anytime-valid confidence sequence instead of the fixed-n test.
    n_opt : int, optional
        With ``sequential`` and clusters: the number of clusters (planned in advance) at which the
        asymptotic sequence is tightest.
    higher_is_better : bool
        ``False`` for losses and error rates: "worse" is then higher.
    source_format : {"table", "lm-eval", "inspect"}
        What the sources are.
    **options
        The readers' options: ``item_column``, ``cluster_column``, ``sample_column``,
        ``model_column``, ``score_column``, ``score_prefix``, ``sheet`` (per-item tables);
        ``label_column``, ``pos_label``, ``pred_prefix``, ``case_column``, ``repeat_column``
        (predictions files); ``metric``, ``filter``, ``scorer``, ``cluster_key``,
        ``failed_samples`` (harness logs).

    Returns
    -------
    GateVerdict
        ``verdict``, the estimate, interval, statistic, p-value, method, assumptions, number of
        items and clusters; ``sentence()`` says it, ``exit_code`` and ``to_dict()`` serve CI.

    Raises
    ------
    ReportInputError
        With one sentence: an unreadable file, a model that is not there or not named, one
        source holding a single model with no candidate's file, two files naming their models
        alike, files with no item in common or that do not pair item by item, a model without
        a score on a paired item, contradictory clusters, options of another format.
    ValueError
        ``margin`` outside (0, 1), ``alpha`` outside (0, 0.5), ``n_opt`` missing where needed.

    References
    ----------
    .. [1] Tango, T. (1998). Equivalence test and confidence interval for the difference in
       proportions for the paired-sample design. *Statistics in Medicine* 17, 891-908.
    .. [2] Bell, R. M. & McCaffrey, D. F. (2002). Bias reduction in standard errors for linear
       regression with multi-stage samples. *Survey Methodology* 28(2), 169-181.
    .. [3] Waudby-Smith, I. & Ramdas, A. (2024). Estimating means of bounded random variables by
       betting. *JRSS-B* 86(1), 1-27.

    Examples
    --------
    Tango's (1998) example as two models' outcomes on 44 items: the new procedure misses one case
    that the standard one gets right. His printed 90% score interval for the difference of the
    miss rates is (-0.037, 0.096), so the new one's accuracy minus the standard's has the interval
    (-0.096, 0.037), above -0.1: no worse by more than 0.1 at alpha = 0.05.

    >>> v = release_gate({"standard": [1] * 44, "new": [1] * 43 + [0]}, baseline_model="standard",
    ...                  margin=0.1)
    >>> v.verdict, v.method, round(v.low, 3), round(v.high, 3), v.n_items, v.exit_code
    ('no-worse', 'tango', -0.096, 0.037, 44, 0)
    """
    if source_format not in _FORMATS:
        raise ReportInputError(f"The source format must be one of {quote_list(_FORMATS)}, got {source_format!r}.")
    if isinstance(margin, bool) or not isinstance(margin, (int, float, np.floating, np.integer)) \
            or not 0.0 < float(margin) < 1.0:
        raise ValueError(f"margin must be a number in (0, 1) in the scores' units, such as 0.01, got {margin!r}")
    margin = float(margin)
    alpha = check_alpha(alpha)
    if alpha >= 0.5:
        raise ValueError(f"alpha must be in (0, 0.5) for a one-sided decision, got {alpha}")
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    if source_format != "table" and candidate is not None:
        raise ReportInputError("Harness logs carry both models: give them as the one source, and name the "
                               "baseline and the candidate models.")
    base = _read_source(baseline, source_format, options)
    if candidate is None:
        if len(base.means) < 2:
            raise ReportInputError(_one_model(base, source_format))
        cand = base
        if source_format != "table" and baseline_model is None and candidate_model is None and len(base.means) == 2:
            baseline_model, candidate_model = list(base.means)   # the logs in the order given
        b_name = _pick(base, baseline_model, "baseline", exclude=candidate_model)
        c_name = _pick(base, candidate_model, "candidate", exclude=b_name)
        if b_name == c_name:
            raise ReportInputError(f"The baseline and the candidate are the same model {b_name!r}; name two models.")
        bpos = cpos = np.arange(base.items.size)
        how = ""
    else:
        cand = _read_source(candidate, source_format, options)
        b_name = _pick(base, baseline_model, "baseline")
        c_name = _pick(cand, candidate_model, "candidate")
        if b_name == c_name:
            raise ReportInputError(
                f"The baseline's file {base.source!r} and the candidate's file {cand.source!r} both name their model "
                f"{b_name!r}, so the verdict could not tell the two apart (is one file given twice?); give the "
                "candidate's scores under a name of its own (its model column or label).")
        bpos, cpos, how = _pair(base, cand)
    clusters = _clusters(base, cand, bpos)
    y_base, y_cand = base.means[b_name][bpos], cand.means[c_name][cpos]
    _unscored(base, b_name, "baseline", bpos, y_base)
    _unscored(cand, c_name, "candidate", cpos, y_cand)
    # "gain": the candidate's advantage in the direction of better scores
    a, b = (y_cand, y_base) if higher_is_better else (y_base, y_cand)
    notes = " ".join(t for t in dict.fromkeys((base.note, cand.note, how)) if t)
    samples = base.samples or cand.samples
    n_items = int(a.size)
    n_clusters = n_items if clusters is None else int(pd.unique(clusters).size)
    if sequential:
        method = "betting" if clusters is None else "asymptotic"
        kwargs: dict[str, Any] = {}
        if method == "asymptotic":
            if n_opt is None:
                raise ValueError("With clusters the anytime-valid gate uses the asymptotic confidence sequence, "
                                 "which needs --n-opt (n_opt=): the number of clusters, fixed in advance, at "
                                 "which it should be tightest (e.g. the planned number).")
            kwargs = dict(n_opt=n_opt, clusters=clusters)
        cs = confidence_sequence(a, b, method=method, alpha=2 * alpha, **kwargs)
        pv = sequential_pvalue(a, b, null=-margin, method=method, alpha=alpha, alternative="greater", **kwargs)
        gain_low, gain_high = float(cs.low[-1]), float(cs.high[-1])
        gain, statistic, pvalue = float(cs.estimate[-1]), float(pv.statistic[-1]), float(pv.pvalue[-1])
        shown, worse = gain_low > -margin, gain_high < -margin
        text = _SEQ_TEXT[method]
    else:
        test = "auto" if not samples else "cr2"
        ni = paired_item_margin_test(a, b, margin=margin, clusters=clusters, alpha=alpha, method=test)
        eq = paired_item_margin_test(a, b, margin=margin, clusters=clusters, alpha=alpha, method=test,
                                     hypothesis="equivalence")
        # without clusters CR2 is the paired t-test on n - 1 df: name it so
        method = "t" if ni.method == "cr2" and clusters is None else ni.method
        gain, gain_low, gain_high = ni.estimate, ni.low, eq.high
        statistic, pvalue = ni.statistic, ni.pvalue
        shown, worse = ni.reject, gain_high < -margin
        text = _FIXED_TEXT[method]
        if ni.note:
            notes = " ".join(t for t in (notes, ni.note) if t)
    verdict = "no-worse" if shown and not worse else "worse" if worse and not shown else "cannot-tell"
    if higher_is_better:
        estimate, low, high = gain, gain_low, gain_high
    else:
        estimate, low, high = -gain, -gain_high, -gain_low
    return GateVerdict(
        verdict=verdict, baseline=b_name, candidate=c_name, baseline_source=base.source,
        candidate_source=cand.source, estimate=float(estimate), low=float(low), high=float(high), margin=margin,
        alpha=alpha, statistic=float(statistic),
        pvalue=float(pvalue), method=method, method_text=text,
        assumptions=_assumptions(method, sequential, clusters is not None), sequential=bool(sequential),
        higher_is_better=bool(higher_is_better), n_items=n_items, n_clusters=n_clusters, note=notes)
