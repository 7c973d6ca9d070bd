"""The paired multinomial bootstrap of an F1 (or macro-F1) difference, written once.

Two public functions resample the cases of two classifiers' predictions and compare their
F1: :func:`evallib.onetestset.bootstrap_macro_f1_difference` (one test set) and
:func:`evallib.resampling.bootstrap_f1_cases` (cases predicted several times, each case
weighing 1). Both reduce the cases to *kinds*: cases of one kind (the same true class and
the same predictions, or shares of predictions, by A and B) are interchangeable, so a
resample of the ``n`` cases is one Multinomial(n, counts / n) draw over the kinds (Keller,
Bengio & Wong's device, at a cost that does not grow with ``n``). Each replicate's counts
give per-class support, predictions and true positives of A and B, hence both measures.
:func:`f1_difference_bootstrap` is that resampling core; :func:`label_cells` makes the kinds
of a test set whose cases are each predicted once.

References
----------
M. Keller, S. Bengio and S. Y. Wong (2005), Benchmarking non-parametric statistical tests,
NIPS 18, eqs. (12)-(14); B. Efron and R. J. Tibshirani (1993), An Introduction to the
Bootstrap, ch. 13 (the percentile interval).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import sparse

__all__ = ["F1Replicates", "f1_difference_bootstrap", "f_from_counts", "label_cells"]


def label_cells(truth: np.ndarray, pred_a: np.ndarray, pred_b: np.ndarray, k: int):
    """The kinds of case of codes ``0..k-1`` (one row per case): the distinct triples (true
    class, prediction of A, prediction of B) in increasing order of ``(t k + a) k + b``.

    Returns ``(counts, truth, shares_a, shares_b)``, one entry (row) per kind: how many cases,
    the true class, and the predictions as sparse ``kinds x k`` 0/1 matrices.
    """
    key = (truth.astype(np.int64) * k + pred_a) * k + pred_b
    uniq, counts = np.unique(key, return_counts=True)
    t, rest = np.divmod(uniq, k * k)
    pa, pb = np.divmod(rest, k)
    rows, ones = np.arange(uniq.size), np.ones(uniq.size)
    return (counts.astype(float), t, sparse.csr_matrix((ones, (rows, pa)), shape=(uniq.size, k)),
            sparse.csr_matrix((ones, (rows, pb)), shape=(uniq.size, k)))


def f_from_counts(tp: np.ndarray, support: np.ndarray, predicted: np.ndarray, positive: int | None,
                  n_label: int, observed: np.ndarray | None = None) -> np.ndarray:
    """F1 of class ``positive`` (0 when 0/0), or macro-F1 over the first ``n_label`` classes,
    where a class with no case in the sample scores 0, or, with ``observed`` (the test set's
    per-class F1), keeps its test-set F1."""
    den = support + predicted
    if positive is not None:
        d = den[..., positive]
        return np.where(d > 0, 2.0 * tp[..., positive] / np.where(d > 0, d, 1.0), 0.0)
    present = support[..., :n_label] > 0
    f1 = np.where(present, 2.0 * tp[..., :n_label] / np.where(present, den[..., :n_label], 1.0), 0.0)
    if observed is not None:
        f1 = np.where(present, f1, observed)
    return f1.mean(axis=-1)


class F1Replicates(NamedTuple):
    """What :func:`f1_difference_bootstrap` returns (the fields of the public results)."""

    f1_a: float
    f1_b: float
    estimate: float
    low: float
    high: float
    share_a_better: float
    share_tied: float
    replicates: np.ndarray
    cells: int


def f1_difference_bootstrap(counts: np.ndarray, truth: np.ndarray, shares_a, shares_b, k: int, *,
                            positive: int | None, n_label: int, keep_absent: bool, n_resamples: int,
                            alpha: float, gen: np.random.Generator) -> F1Replicates:
    """The paired bootstrap of ``F(A) - F(B)`` over kinds of case.

    Parameters
    ----------
    counts : cases of each kind (floats summing to the integer ``n``).
    truth : the true class of each kind, a code ``0..k-1``.
    shares_a, shares_b : sparse ``kinds x k`` matrices: the share of each kind's predictions
        by A (B) in each class (rows summing to 1).
    k : classes the codes run over.
    positive : the code of the class whose F1 is compared; None: macro-F1 over the first
        ``n_label`` classes.
    keep_absent : for macro-F1, whether a class with no case in a resample keeps its test-set
        F1 (True) or scores 0 (False).
    n_resamples, alpha, gen : the (checked) settings and the Generator.

    Returns
    -------
    F1Replicates
        Both measures on the test cases, ``estimate = f1_a - f1_b`` (0 when below 1e-12 in
        size), the central ``1 - alpha`` percentile interval of the replicates, the shares of
        replicates with A better and with the two equal, the read-only replicates (those below
        1e-12 in size set to 0) and the number of kinds.
    """
    onehot = sparse.csr_matrix((np.ones(truth.size), (np.arange(truth.size), truth)), shape=(truth.size, k))
    # classes x kinds: support, predicted and TP of A, predicted and TP of B
    maps = [m.T.tocsr() for m in (onehot, shares_a, shares_a.multiply(onehot), shares_b,
                                  shares_b.multiply(onehot))]

    def per_class(weights: np.ndarray) -> list[np.ndarray]:
        return [np.asarray(m @ weights.T).T for m in maps]

    support, pa, tpa, pb, tpb = per_class(counts)
    observed = [None, None]
    if positive is None and keep_absent:  # the test set's per-class F1, for classes a resample leaves out
        with np.errstate(invalid="ignore", divide="ignore"):
            observed = [2.0 * t[:n_label] / (support + p)[:n_label] for t, p in ((tpa, pa), (tpb, pb))]

    def measures(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        support, pa, tpa, pb, tpb = per_class(weights)
        return (f_from_counts(tpa, support, pa, positive, n_label, observed[0]),
                f_from_counts(tpb, support, pb, positive, n_label, observed[1]))

    f_a, f_b = measures(counts)
    total = int(round(counts.sum()))
    probs = counts / counts.sum()
    out = np.empty(n_resamples)
    chunk = max(1, min(n_resamples, 2_000_000 // max(counts.size, k)))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        draw = gen.multinomial(total, probs, size=size).astype(float)
        fa, fb = measures(draw)
        out[start:start + size] = fa - fb
    # Identical F1 computed the same way gives exactly 0; guard round-off all the same.
    out[np.abs(out) < 1e-12] = 0.0
    out.flags.writeable = False
    low, high = np.quantile(out, [alpha / 2.0, 1.0 - alpha / 2.0])
    diff = float(f_a) - float(f_b)
    return F1Replicates(f1_a=float(f_a), f1_b=float(f_b), estimate=0.0 if abs(diff) < 1e-12 else diff,
                        low=float(low), high=float(high), share_a_better=float(np.mean(out > 0)),
                        share_tied=float(np.mean(out == 0)), replicates=out, cells=int(counts.size))
