"""Cochran's Q: do k classifiers have the same accuracy on one test set?

Each of ``n`` test cases is classified by each of ``k`` classifiers, right (1) or
wrong (0): an ``n x k`` binary table. Cochran (1950) tests whether the ``k`` columns
have the same probability of a 1 (here: the same accuracy), taking into account that
the columns are measured on the same cases. It is the omnibus test before pairwise
McNemar tests (for ``k = 2`` it *is* McNemar's test without continuity correction),
and it needs only right/wrong, so it works for any number of classes.

With ``C_j`` the number of cases classifier ``j`` gets right, ``R_i`` the number of
classifiers that get case ``i`` right and ``T = sum_j C_j = sum_i R_i``,

``Q = (k - 1) (k sum_j C_j^2 - T^2) / (k T - sum_i R_i^2)``,

referred to the chi-square distribution with ``k - 1`` degrees of freedom. Cases all
classifiers get right (or all get wrong) add the same to every ``C_j`` and nothing to
the denominator: ``Q`` depends only on the cases on which the classifiers disagree.
When few cases are informative, a permutation p-value (each informative case's right
answers shuffled among the classifiers) replaces the chi-square law.

References
----------
W. G. Cochran (1950). The comparison of percentages in matched samples. *Biometrika*
37(3/4), 256-266.

R. F. Tate and G. W. Brown (1970). A note on the Cochran Q test. *Journal of the
American Statistical Association* 65(329), 155-160.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_choice, renamed_fields, renamed_keywords
from .._format import format_p
from .._validate import (
    align_columns,
    check_alpha,
    check_choice,
    check_count,
    check_labels,
    check_rng,
)
from .._validate import check_columns as _as_columns

__all__ = ["CochranQ", "cochran_q", "cochran_q_predictions", "correct_matrix"]


#: How :func:`cochran_q` obtains its p-value: the chi-square law or permutations.
_METHODS = ("chi2", "permutation")

#: 0.1.0's spelling of ``"chi2"`` (as :func:`evallib.manydatasets.skillings_mack_test` spells it).
_CHI2 = {"chi-square": "chi2"}


@renamed_fields(reps="n_resamples")
@dataclass(frozen=True)
class CochranQ:
    """Cochran's Q test of equal accuracy for ``k`` classifiers on one test set.

    Attributes
    ----------
    statistic : Cochran's ``Q``.
    df : ``k - 1``.
    pvalue : ``P(chi2_{k-1} >= Q)``.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    n : test cases.
    k : classifiers.
    n_informative : cases on which the classifiers do not all agree (some right, some
        wrong); only these carry information. Tate & Brown (1970) find the chi-square
        approximation adequate when ``n_informative >= 4`` and
        ``n_informative * k >= 24``; ``note`` says so when this fails.
    names : the classifiers, in column order.
    accuracy : each classifier's accuracy ``C_j / n``.
    method : ``"chi2"`` or ``"permutation"`` (how ``pvalue`` was obtained).
    n_resamples : permutations drawn (0 for the chi-square method).
    mc_se : the Monte Carlo standard error of a permutation p-value (0 for chi-square).
    note : empty, or one sentence on a degenerate or small table.

    When every case is classified alike by all classifiers (``n_informative = 0``), all
    accuracies are equal and ``Q`` is 0/0; it is defined as ``statistic = 0``,
    ``pvalue = 1`` (not shown to differ: no informative cases), and ``note`` says so.
    """

    statistic: float
    df: int
    pvalue: float
    reject: bool
    alpha: float
    n: int
    k: int
    n_informative: int
    names: tuple[str, ...]
    accuracy: tuple[float, ...]
    method: str = "chi2"
    n_resamples: int = 0
    mc_se: float = 0.0
    note: str = ""

    def text(self) -> str:
        """The result as one sentence.

        Returns
        -------
        str
            ``Q`` with its degrees of freedom (chi-square) or its permutations and Monte
            Carlo error (permutation), the p-value and the informative cases out of ``n``;
            followed by ``note`` when there is one.
        """
        how = (f"{self.df} degrees of freedom" if self.method == "chi2"
               else f"{self.n_resamples:,} permutations, Monte Carlo error {self.mc_se:.2g}")
        return (f"Cochran's Q = {self.statistic:.3f} ({how}), {format_p(self.pvalue)} "
                f"({self.n_informative} of {self.n} cases informative)"
                + (f"; {self.note}" if self.note else ""))


def _check_correct(correct: Any) -> tuple[list[str], np.ndarray]:
    names, cols = _as_columns(correct, "correct")
    if len(cols) < 2:
        raise ValueError(f"correct must hold at least 2 classifiers (columns), got {len(cols)}")
    n = len(cols[0])
    if n < 1:
        raise ValueError("correct must hold at least one case (row), got none")
    out = np.empty((n, len(cols)), dtype=np.int8)
    for j, col in enumerate(cols):
        if col.ndim != 1 or len(col) != n:
            raise ValueError(f"correct[{names[j]!r}] must hold one value per case ({n}), got shape {col.shape}")
        if col.dtype == bool:
            out[:, j] = col
            continue
        try:
            f = col.astype(float)
        except (TypeError, ValueError):
            raise TypeError(f"correct[{names[j]!r}] must hold 0/1 or True/False") from None
        if not np.all((f == 0) | (f == 1)):
            raise ValueError(f"correct[{names[j]!r}] must hold only 0/1 or True/False (wrong/right), "
                             "found other values or NaN")
        out[:, j] = f
    return names, out


@renamed_keywords(reps="n_resamples")
def cochran_q(correct: Any, *, alpha: float = 0.05, method: str = "chi2", n_resamples: int = 10_000,
              rng: Any = None) -> CochranQ:
    """Cochran's Q test from the ``n x k`` right/wrong table.

    Parameters
    ----------
    correct : ``n x k`` 0/1 (or bool) array, a mapping name -> column or a DataFrame;
        entry ``(i, j)`` is 1 when classifier ``j`` classifies case ``i`` correctly.
    alpha : in (0, 1).
    method : ``"chi2"`` (Cochran's large-sample law, chi-square with ``k - 1``
        degrees of freedom; ``"chi-square"``, 0.1.0's spelling, still works until 0.3.0, with a
        ``DeprecationWarning``) or ``"permutation"``: under the null hypothesis the ``R_i``
        right answers of case ``i`` are equally likely to belong to any ``R_i`` of the
        ``k`` classifiers, so ``Q`` is recomputed after shuffling each informative row,
        ``n_resamples`` times; ``p = (1 + #{Q* >= Q}) / (n_resamples + 1)``. Use it when few cases are
        informative (see ``note``); for ``k = 2`` it is McNemar's exact test. Its cost
        grows as ``n_resamples x n_informative x k`` (a few seconds for 10,000 permutations of
        1,000 informative cases and k = 5), so it is meant for the small tables where
        the chi-square law is rough; with many informative cases that law is accurate.
    n_resamples : permutations for ``method="permutation"``, >= 1.
    rng : None, int, SeedSequence or Generator, for ``method="permutation"``.

    Returns
    -------
    CochranQ

    References
    ----------
    Cochran (1950), eq. (3); Tate & Brown (1970) for the adequacy of the chi-square
    approximation.

    Examples
    --------
    Six cases, three classifiers. By hand: ``C = (5, 3, 2)``, ``T = 10``,
    ``sum R_i^2 = 22``, so ``Q = 2 (3 * 38 - 100) / (30 - 22) = 3.5`` and
    ``p = exp(-3.5 / 2) = 0.1738``:

    >>> from evallib.onetestset import cochran_q
    >>> res = cochran_q([[1, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 0], [1, 0, 1], [1, 1, 0]])
    >>> res.statistic, round(res.pvalue, 4)
    (3.5, 0.1738)
    """
    alpha = check_alpha(alpha)
    method = check_choice(renamed_choice(method, "method", _CHI2, stacklevel=5), "method", _METHODS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    names, x = _check_correct(correct)
    n, k = x.shape
    col = x.sum(axis=0, dtype=np.int64)
    row = x.sum(axis=1, dtype=np.int64)
    informative = (row > 0) & (row < k)
    n_inf = int(informative.sum())
    total = int(col.sum())
    num = (k - 1) * (k * int((col * col).sum()) - total * total)
    den = k * total - int((row * row).sum())
    note = ""
    used_reps, mc_se = 0, 0.0
    if den == 0:
        q, p = 0.0, 1.0
        note = ("every case was classified alike by all classifiers (all right or all wrong), so Q is "
                "undefined (0/0); it is reported as 0 with p = 1: not shown to differ (no informative cases)")
    else:
        q = num / den
        if method == "permutation":
            p = _permutation_pvalue(x[informative], int(np.sum(row == k)), k, total, den, q, n_resamples,
                                    check_rng(rng))
            used_reps, mc_se = n_resamples, float(np.sqrt(p * (1.0 - p) / n_resamples))
        else:
            p = float(stats.chi2.sf(q, k - 1))
            if n_inf < 4 or n_inf * k < 24:
                note = (f"only {n_inf} informative cases: the chi-square approximation is rough "
                        "(Tate & Brown ask for at least 4 and at least 24 / k); "
                        "method='permutation' gives a p-value that does not rely on it")
    return CochranQ(statistic=float(q), df=k - 1, pvalue=float(p), reject=bool(p <= alpha), alpha=alpha,
                    n=n, k=k, n_informative=n_inf, names=tuple(names),
                    accuracy=tuple(float(c) / n for c in col), method=method, n_resamples=used_reps, mc_se=mc_se,
                    note=note)


def _permutation_pvalue(rows: np.ndarray, all_right: int, k: int, total: int, den: int, q_obs: float,
                        reps: int, rng: np.random.Generator) -> float:
    """Monte Carlo permutation p-value of Q: each informative row's right answers shuffled.

    Row sums (hence ``T`` and the denominator) do not change under the shuffles, so a
    replicate needs only its column totals ``C*`` (the shuffled informative rows plus
    ``all_right``, the cases every classifier gets right):
    ``Q* = (k - 1)(k sum C*^2 - T^2) / den``.
    """
    r = rows.sum(axis=1)
    n_inf = rows.shape[0]
    chunk = max(1, min(reps, 2_000_000 // max(1, n_inf * k)))
    hits = 0
    tol = 1e-9 * max(1.0, abs(q_obs))
    for start in range(0, reps, chunk):
        size = min(chunk, reps - start)
        # a uniformly random r_i-subset of the k columns per row: the r_i smallest of k keys
        ranks = rng.random((size, n_inf, k)).argsort(axis=2).argsort(axis=2)
        cols = (ranks < r[None, :, None]).sum(axis=1, dtype=np.int64) + all_right
        qs = (k - 1) * (k * (cols * cols).sum(axis=1) - total * total) / den
        hits += int(np.count_nonzero(qs >= q_obs - tol))
    return (1 + hits) / (reps + 1)


def correct_matrix(y_true: Any, preds: Any) -> pd.DataFrame:
    """The ``n x k`` right/wrong table: ``preds[j][i] == y_true[i]``, any number of classes.

    Parameters
    ----------
    y_true : true labels, one per case.
    preds : predicted labels: a mapping name -> column, a DataFrame or an ``n x k`` array.

    Returns
    -------
    pandas.DataFrame of bool, one column per classifier.
    """
    (y_true,), preds = align_columns([("y_true", y_true)], preds, "preds")
    y = check_labels(y_true, "y_true")
    names, cols = _as_columns(preds, "preds")
    out = {}
    for name, col in zip(names, cols):
        if col.ndim != 1 or len(col) != len(y):
            raise ValueError(f"preds[{name!r}] must hold one label per case ({len(y)}), got shape {col.shape}")
        if pd.isna(col).any():
            raise ValueError(f"preds[{name!r}] must not contain NaN or missing labels")
        out[name] = np.asarray(col == y, dtype=bool)
    return pd.DataFrame(out)


@renamed_keywords(reps="n_resamples")
def cochran_q_predictions(y_true: Any, preds: Any, *, alpha: float = 0.05, method: str = "chi2",
                          n_resamples: int = 10_000, rng: Any = None) -> CochranQ:
    """Cochran's Q from true labels and the predicted labels of ``k >= 2`` classifiers.

    Builds the right/wrong table with :func:`correct_matrix` (any number of classes)
    and applies :func:`cochran_q` (``method``, ``n_resamples`` and ``rng`` are passed on).

    Parameters
    ----------
    y_true : sequence
        True labels, one per case, without missing values.
    preds : mapping name -> column, DataFrame or ``n x k`` array
        The predicted labels of ``k >= 2`` classifiers, one column each, one label per
        case, without missing values.
    alpha : float
        Level in (0, 1) for ``reject`` (default 0.05).
    method : {"chi2", "permutation"}
        How the p-value is obtained, as for :func:`cochran_q` (default ``"chi2"``).
    n_resamples : int
        Permutations for ``method="permutation"``, >= 1 (default 10,000).
    rng : None, int, SeedSequence or Generator
        Randomness for ``method="permutation"``.

    Returns
    -------
    CochranQ
        As from :func:`cochran_q`; ``names`` are the columns of ``preds``.

    Examples
    --------
    >>> from evallib.onetestset import cochran_q_predictions
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> res = cochran_q_predictions(y, {"A": ["a", "b", "c", "a", "b", "a"],
    ...                                 "B": ["a", "c", "c", "b", "b", "b"],
    ...                                 "C": ["a", "a", "b", "a", "c", "c"]})
    >>> [round(a, 3) for a in res.accuracy]
    [0.833, 0.5, 0.5]
    """
    method = renamed_choice(method, "method", _CHI2, stacklevel=5)
    return cochran_q(correct_matrix(y_true, preds), alpha=alpha, method=method, n_resamples=n_resamples, rng=rng)
