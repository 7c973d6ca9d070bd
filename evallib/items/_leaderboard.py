"""Leaderboards of many models on the same items: paired differences, tie groups, rank intervals.

A leaderboard ranks ``M`` models by their mean score over the same ``N`` items (0/1
correct, or a score in [0, 1]). The ranks are estimates: read as separated when the
models are statistically tied, they mislead (HELM #4336, MTEB #5208, SWE-bench #621).
This module answers three questions, all *paired* (every model answered the same items,
so item difficulty cancels in the differences) and all clustered when the items come in
clusters (questions on one passage, tasks of one repository):

* :func:`leaderboard_pairs` -- every pairwise difference of means with its standard
  error, a paired t-test, adjusted p-values (Holm, Bonferroni, Benjamini–Hochberg or
  Benjamini–Yekutieli, :mod:`evallib._multitest`), and simultaneous (Bonferroni) intervals;
* :func:`tie_group` -- the leader and the models not shown to differ from it;
* :func:`rank_intervals` -- bootstrap intervals for every model's rank and the
  share of resamples in which it ranks first (a share of resamples, not a probability
  that it is the best), resampling items (or clusters) jointly for all
  models; drawn by :func:`plot_rank_intervals`.

Input, for every function: ``scores`` is a pandas DataFrame with one row per item and
one column per model, or a dict ``{model: scores}`` of 1-D arrays (one score per item)
or 2-D arrays (items x repeated answers, reduced to each item's mean first). ``clusters``
is one label per item, shared by all models -- a sequence, the name of a column of the
DataFrame, or a dict per model whose labels must agree. The unit is the item: a
DataFrame whose index names an item twice is refused (a verdict must not depend on how
many times an item was written down), as are missing values, scores outside [0, 1],
non-numeric scores and models scored on different items.

The standard error of a mean (or of a paired difference of means) is the one of
:func:`evallib.items.pass_at_k`: ``s / sqrt(N)`` with ``N - 1`` df, or with
clusters the CR2 cluster-robust error ``sqrt(sum_g e_g^2 / (1 - n_g/N)) / N`` with the
Bell–McCaffrey degrees of freedom (``e_g`` the sum over cluster ``g``, of ``n_g`` items, of
the deviations from the mean; Bell & McCaffrey 2002), the convention of
:func:`evallib.items.paired_item_difference`, so that a pair's row here and that
function agree on the same two models.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from .._compat import renamed_keywords
from .._cr2 import cr2_mean_se as _mean_se
from .._inference import t_inference
from .._multitest import ADJUSTMENTS, adjust_pvalues
from .._plotting import get_axes
from .._validate import align_items, check_alpha, check_choice, check_count, check_item_index, check_labels, check_rng
from ._passk import _cluster_index

__all__ = [
    "LEADERBOARD_ADJUSTMENTS",
    "RANK_BOOTSTRAP_WEIGHTS",
    "TieGroup",
    "leaderboard_pairs",
    "tie_group",
    "rank_intervals",
    "plot_rank_intervals",
]

#: The adjustments of :func:`leaderboard_pairs` and :func:`tie_group`: the one menu of every pairwise
#: table (:data:`evallib.ADJUSTMENTS`), under its 0.1.0 name.
LEADERBOARD_ADJUSTMENTS = ADJUSTMENTS
RANK_BOOTSTRAP_WEIGHTS = ("poisson", "multinomial")
#: Two means closer than this are tied (means lie in [0, 1]; float sums of the same
#: scores taken in a different order can differ in the last bits).
_TIE = 1e-12
#: Bound on the entries of one chunk of a (replicates x clusters) or (items x pairs) array.
_CHUNK = 2**21


# ------------------------------------------------------------------ input
@dataclass(frozen=True)
class _Table:
    """Validated scores: model names, items x models matrix, cluster codes (or None)."""

    names: tuple
    values: np.ndarray
    codes: np.ndarray | None
    n_groups: int

    @property
    def n_items(self) -> int:
        return self.values.shape[0]


def _label(name: Hashable) -> str:
    return f"scores[{name!r}]"


def _check_model_values(name: Hashable, raw: Any, n_items: int | None, missing: str = "raise") -> np.ndarray:
    """One model's scores as a float array (1-D, or 2-D items x answers reduced to means; NaN = not scored)."""
    label = _label(name)
    if isinstance(raw, pd.Series):
        if not (pd.api.types.is_numeric_dtype(raw.dtype) or pd.api.types.is_bool_dtype(raw.dtype)):
            raise TypeError(f"{label} must hold numbers (0/1, or scores in [0, 1]), got values of type "
                            f"{raw.dtype}")
        raw = raw.to_numpy(dtype=float, na_value=np.nan)
    elif isinstance(raw, pd.DataFrame):
        raw = raw.to_numpy()
    if isinstance(raw, (str, bytes)) or np.isscalar(raw):
        raise TypeError(f"{label} must be a sequence of scores (one per item), got {type(raw).__name__}")
    arr = np.asarray(raw)
    if not (arr.dtype == bool or np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{label} must hold numbers (0/1, or scores in [0, 1]), got values of type {arr.dtype}")
    if arr.ndim not in (1, 2):
        raise ValueError(f"{label} must be one-dimensional (one score per item) or two-dimensional "
                         f"(items x repeated answers), got shape {arr.shape}")
    arr = arr.astype(float)
    if arr.size == 0:
        raise ValueError(f"{label} must hold at least one score, got none")
    absent = int(np.isnan(arr).sum())
    if absent and missing == "raise":
        raise ValueError(f"{label} has {absent} missing values; every model must score every item "
                         "(drop those items for all models, or score them, or pass missing='drop' to compare "
                         "each pair on the items both scored)")
    outside = (arr < 0) | (arr > 1)
    if outside.any():
        raise ValueError(f"{label} must lie in [0, 1] (1 = correct, or a score in between), got "
                         f"{int(outside.sum())} values outside, e.g. {float(arr[outside][0]):g}")
    if arr.ndim == 2:
        scored = (~np.isnan(arr)).sum(axis=1)
        arr = np.where(scored > 0, np.nansum(arr, axis=1) / np.maximum(scored, 1), np.nan)
    if missing == "drop" and np.count_nonzero(~np.isnan(arr)) < 2:
        raise ValueError(f"{label} scores {np.count_nonzero(~np.isnan(arr))} items; a model needs at least 2")
    if n_items is not None and arr.shape[0] != n_items:
        raise ValueError(f"{label} has {arr.shape[0]} items but the first model has {n_items}; every "
                         "model must score the same items (unequal lengths)")
    return arr


def _is_column(frame: pd.DataFrame, key: Any) -> bool:
    """Whether ``key`` names a column of ``frame`` (sequences of labels never do)."""
    if key is None or isinstance(key, (pd.Series, pd.Index, np.ndarray, list, tuple, Mapping)):
        return False
    try:
        return key in frame.columns
    except TypeError:
        return False


def _prepare(scores: Any, clusters: Any, missing: str = "raise") -> _Table:
    """Validate ``scores`` and ``clusters``; one sentence naming the argument on bad input."""
    missing = check_choice(missing, "missing", ("raise", "drop"))
    item_index = None
    if isinstance(scores, pd.DataFrame):
        frame = scores
        check_item_index(frame.index, "scores")
        if _is_column(frame, clusters):
            frame, clusters = frame.drop(columns=clusters), frame[clusters]
        elif isinstance(clusters, str):
            raise ValueError(f"clusters must be a column of scores or one label per item; {clusters!r} "
                             "is not a column of scores")
        if frame.columns.duplicated().any():
            raise ValueError(f"scores must name each model once, got duplicated columns "
                             f"{frame.columns[frame.columns.duplicated()].unique().tolist()}")
        columns = {name: frame[name] for name in frame.columns}
        item_index = frame.index
    elif isinstance(scores, Mapping):
        columns = dict(scores)
        # Series are paired by their index (the first one's order), never by position
        aligned = align_items([(_label(name), col) for name, col in columns.items()])
        columns = dict(zip(columns, aligned))
        series = [col for col in columns.values() if isinstance(col, pd.Series)]
        if series:
            item_index = series[0].index
    else:
        raise TypeError("scores must be a pandas DataFrame (items x models) or a dict {model: scores per "
                        f"item}}, got {type(scores).__name__}")
    if len(columns) < 2:
        raise ValueError(f"scores must hold at least 2 models to compare, got {len(columns)}")
    n_items = None
    values = []
    for name, raw in columns.items():
        arr = _check_model_values(name, raw, n_items, missing)
        n_items = arr.shape[0]
        values.append(arr)
    matrix = np.column_stack(values)
    if clusters is None:
        if n_items < 2:
            raise ValueError(f"scores must hold at least 2 items for a standard error, got {n_items}")
        return _Table(tuple(columns), matrix, None, n_items)
    labels = _check_clusters(clusters, tuple(columns), n_items, item_index)
    codes, n_groups = _cluster_index(labels, n_items)
    return _Table(tuple(columns), matrix, codes, n_groups)


def _check_clusters(clusters: Any, names: tuple, n_items: int, item_index: pd.Index | None) -> np.ndarray:
    """One cluster label per item, shared by all models."""
    if isinstance(clusters, Mapping):
        missing = [m for m in names if m not in clusters]
        if missing:
            raise ValueError(f"clusters must give labels for every model when given per model; "
                             f"missing for {missing[:3]}")
        first = names[0]
        ref = _align_clusters(clusters[first], f"clusters[{first!r}]", n_items, item_index)
        for name in names[1:]:
            other = _align_clusters(clusters[name], f"clusters[{name!r}]", n_items, item_index)
            differ = int(np.sum(np.asarray(ref, dtype=object) != np.asarray(other, dtype=object)))
            if differ:
                raise ValueError(f"clusters must give each item one label shared by all models; "
                                 f"clusters[{name!r}] differs from clusters[{first!r}] on {differ} items")
        return ref
    return _align_clusters(clusters, "clusters", n_items, item_index)


def _align_clusters(labels: Any, name: str, n_items: int, item_index: pd.Index | None) -> np.ndarray:
    """Labels as an array in item order; a Series is aligned on the items' index when there is one."""
    if isinstance(labels, pd.Series) and item_index is not None:
        _, labels = align_items([("scores", pd.Series(np.nan, index=item_index)), (name, labels)])
    arr = check_labels(np.asarray(labels), name)
    if arr.shape[0] != n_items:
        raise ValueError(f"{name} must hold one label per item: got {arr.shape[0]} labels for {n_items} items")
    return arr


# ------------------------------------------------------------------ ranks and tests
def _leaderboard_order(means: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Order of the models (best first, ties in input order) and each model's rank.

    The rank is ``1 + the number of models with a larger mean`` (ties share the best rank).
    """
    rank = 1 + (means[None, :] > means[:, None] + _TIE).sum(axis=1)
    order = np.lexsort((np.arange(means.size), rank))
    return order, rank


def _pairs_table(table: _Table, pairs: list[tuple[int, int]], alpha: float, adjust: str, family: int,
                 ) -> pd.DataFrame:
    """Paired t statistics for ``pairs`` of column indices; p-values adjusted over ``family`` pairs."""
    ia = np.array([a for a, _ in pairs], dtype=np.intp)
    ib = np.array([b for _, b in pairs], dtype=np.intp)
    x = table.values
    est = np.empty(len(pairs))
    se = np.empty(len(pairs))
    shared = np.full(len(pairs), table.n_items)
    if np.isnan(x).any():   # missing="drop": each pair on the items both models scored
        df = np.empty(len(pairs))
        for j, (a, b) in enumerate(pairs):
            ok = ~np.isnan(x[:, a]) & ~np.isnan(x[:, b])
            shared[j] = int(ok.sum())
            if shared[j] < 2:
                raise ValueError(f"scores[{table.names[a]!r}] and scores[{table.names[b]!r}] share "
                                 f"{shared[j]} scored items; a paired comparison needs at least 2")
            codes, groups = (None, shared[j]) if table.codes is None else _cluster_index(table.codes[ok], shared[j])
            e, v, df[j] = _mean_se((x[ok, a] - x[ok, b])[:, None], codes, groups)
            est[j], se[j] = e[0], v[0]
    else:
        step = max(1, _CHUNK // max(1, table.n_items))
        for s in range(0, len(pairs), step):
            sl = slice(s, s + step)
            est[sl], se[sl], df = _mean_se(x[:, ia[sl]] - x[:, ib[sl]], table.codes, table.n_groups)
    level = alpha if adjust == "none" else alpha / family
    # evallib's t core and zero-variance rule; the scores lie in [0, 1]
    est, se, statistic, pvalue, low, high = t_inference(est, se, df=df, alpha=level)
    low, high = np.maximum(low, -1.0), np.minimum(high, 1.0)   # a difference of two scores in [0, 1]
    pvalue_adj = adjust_pvalues(pvalue, adjust)
    reject = pvalue_adj <= alpha
    means = _own_means(x)
    names = table.names
    return pd.DataFrame({
        "a": [names[i] for i in ia], "b": [names[i] for i in ib],
        "mean_a": means[ia], "mean_b": means[ib], "estimate": est, "se": se,
        "low": low, "high": high, "df": np.broadcast_to(df, (len(pairs),)).astype(float), "statistic": statistic,
        "pvalue": pvalue, "pvalue_adj": pvalue_adj, "reject": reject, "n_items": shared,
    })


def _own_means(x: np.ndarray) -> np.ndarray:
    """Each model's mean over the items it scored (NaN = not scored)."""
    scored = ~np.isnan(x)
    return np.where(scored, x, 0.0).sum(axis=0) / scored.sum(axis=0)


def _all_pairs(table: _Table, alpha: float, adjust: str) -> tuple[pd.DataFrame, np.ndarray]:
    means = _own_means(table.values)
    order, _ = _leaderboard_order(means)
    pairs = [(int(a), int(b)) for a, b in combinations(order, 2)]
    out = _pairs_table(table, pairs, alpha, adjust, len(pairs))
    out.attrs.update(alpha=alpha, adjust=adjust, n_items=table.n_items,
                     n_clusters=None if table.codes is None else table.n_groups,
                     interval_level=1 - (alpha if adjust == "none" else alpha / len(pairs)))
    return out, order


def leaderboard_pairs(scores: Any, *, clusters: Any = None, alpha: float = 0.05, adjust: str = "holm",
                      missing: str = "raise") -> pd.DataFrame:
    """Every pairwise paired difference of a leaderboard, with adjusted p-values and joint intervals.

    For models ``a`` and ``b`` on the same ``N`` items the difference of their means is
    the mean of the per-item differences ``d_i = x_ia - x_ib``; its standard error is
    the paired one, ``s_d / sqrt(N)`` with ``N - 1`` df, or with ``clusters`` the CR2
    cluster-robust ``sqrt(sum_g e_g^2 / (1 - n_g/N)) / N`` with Bell–McCaffrey df (``e_g``
    the sum of ``d_i - mean(d)`` over cluster ``g`` of ``n_g`` items; Bell & McCaffrey 2002). The test is the
    paired t-test, ``t = estimate / se``, two-sided (unclustered it is
    ``scipy.stats.ttest_rel``). Miller (2024) recommends these paired, clustered
    differences for comparing models on an eval.

    The ``m = M(M - 1)/2`` p-values are adjusted for multiplicity by ``adjust``
    (:func:`evallib.adjust_pvalues`): Holm (1979) and Bonferroni control the family-wise
    error rate, the chance of declaring any equal pair different; Benjamini–Hochberg
    (1995) controls the false discovery rate, the expected share of false declarations
    among the pairs declared different -- a weaker promise, not the family-wise error,
    proved for independent or positively dependent p-values; differences that share a
    model are correlated, some negatively, so for all pairs that promise is approximate.
    Benjamini–Yekutieli (2001) controls the false discovery rate under any dependence.
    ``reject`` is ``pvalue_adj <= alpha``.

    The intervals ``low``, ``high`` are ``estimate -/+ t_{1 - level/2, df} se``
    with ``level = alpha / m`` (Bonferroni) when ``adjust != "none"``, clipped to [-1, 1], the
    range of a difference of two scores in [0, 1] (few clusters can give a t quantile large
    enough to pass it; the clip never moves an end across 0): they hold jointly
    with probability at least ``1 - alpha``, and one excludes 0 exactly where a
    Bonferroni test would reject -- which may differ from ``reject`` under Holm (more
    rejections) or BH. With ``adjust="none"`` they are the unadjusted ``1 - alpha``
    intervals.

    Parameters
    ----------
    scores : pandas.DataFrame or dict
        Items x models (see the module docstring): values 0/1 or in [0, 1], no missing
        values, each item once.
    clusters : sequence, column name or dict, optional
        One cluster label per item, shared by all models; at least 2 clusters.
    alpha : float
        In (0, 1); the family-wise level (Holm, Bonferroni), the false discovery rate
        (BH, BY) or the per-pair level (``"none"``).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        The adjustment of ``pvalue_adj`` (:data:`evallib.ADJUSTMENTS`); ``"none"``
        leaves the p-values unadjusted.
    missing : {"raise", "drop"}
        NaN marks an item a model did not score (failed samples dropped, a subset rerun):
        refuse (default), or compare each pair on the items both scored (``n_items`` per
        row; the clusters of those items, CR2 on them) and take each model's mean on its
        own items (so ``estimate`` is then not ``mean_a - mean_b``).

    Returns
    -------
    pandas.DataFrame
        One row per pair, ``a`` ranked above ``b`` (so ``estimate >= 0``), in leaderboard
        order (by the rank of ``a``, then of ``b``; tied means keep the input order).
        Columns ``a``, ``b``, ``mean_a``, ``mean_b``, ``estimate`` (``mean_a - mean_b``),
        ``se``, ``low``, ``high``, ``df``, ``statistic``, ``pvalue``,
        ``pvalue_adj`` (adjusted by ``adjust``), ``reject``, ``n_items`` (the items of the
        pair's comparison); ``attrs`` hold ``alpha``, ``adjust``, ``n_items``,
        ``n_clusters`` and ``interval_level`` (the intervals' confidence).

    Notes
    -----
    A pair whose per-item (or per-cluster) differences show no spread has standard error
    0: identical models give ``statistic = 0`` and ``pvalue = 1``; a model that beats the
    other by the same amount on every item gives ``statistic = inf`` and ``pvalue = 0``.

    References
    ----------
    .. [1] Miller, E. (2024). Adding error bars to evals: a statistical approach to language
       model evaluations. arXiv:2411.00640 (paired differences, clustered standard errors).
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       *Scandinavian Journal of Statistics*, 6, 65-70.
    .. [3] Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate.
       *Journal of the Royal Statistical Society B*, 57, 289-300; Benjamini, Y. & Yekutieli,
       D. (2001). *Annals of Statistics*, 29, 1165-1188.
    .. [4] Bell, R. M. & McCaffrey, D. F. (2002). Bias reduction in standard errors for
       linear regression with multi-stage samples. *Survey Methodology*, 28(2), 169-181.

    Examples
    --------
    Three models on eight items; B and C differ on one item only:

    >>> from evallib.items import leaderboard_pairs
    >>> scores = {"A": [1, 1, 1, 1, 1, 1, 1, 0], "B": [1, 0, 0, 1, 0, 0, 1, 0],
    ...           "C": [1, 0, 0, 1, 0, 0, 0, 0]}
    >>> t = leaderboard_pairs(scores)
    >>> t[["a", "b", "estimate"]].values.tolist()
    [['A', 'B', 0.5], ['A', 'C', 0.625], ['B', 'C', 0.125]]
    >>> t["reject"].tolist()
    [False, True, False]
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    table = _prepare(scores, clusters, missing)
    return _all_pairs(table, alpha, adjust)[0]


# ------------------------------------------------------------------ tie group
def _names(items: list) -> str:
    words = [str(v) for v in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True, eq=False)
class TieGroup:
    """The leader of a leaderboard and the models not shown to differ from it.

    Returned by :func:`tie_group`; ``str()`` gives :meth:`describe`.

    Attributes
    ----------
    leader : the model with the largest mean (the first in input order if several tie).
    members : the leader, then every model whose difference from it is not significant,
        in leaderboard order.
    separated : the models significantly below the leader, in leaderboard order.
    comparisons : pandas.DataFrame, the leader's ``M - 1`` rows of
        :func:`leaderboard_pairs` (p-values adjusted over all ``M(M - 1)/2`` pairs).
    alpha, adjust : as requested.
    n_items : number of items.
    n_clusters : number of clusters, or None.
    """

    leader: Hashable
    members: tuple
    separated: tuple
    comparisons: pd.DataFrame
    alpha: float
    adjust: str
    n_items: int
    n_clusters: int | None

    def describe(self) -> str:
        """One sentence: who is not shown to differ from the leader, at what level, by what test.

        Returns
        -------
        str
            The models not shown to differ from the leader at ``alpha`` and those that are
            separated from it (or that every other model is), with the paired t-tests' items (and
            clusters) and the adjustment over all pairs (``adjust``; for BH and BY the remark
            that they control the false discovery rate only).
        """
        m = len(self.members) + len(self.separated)
        how = {"holm": f"Holm over all {m * (m - 1) // 2} pairs", "bonferroni": f"Bonferroni over all "
               f"{m * (m - 1) // 2} pairs", "bh": f"Benjamini–Hochberg over all {m * (m - 1) // 2} pairs, "
               "which controls the false discovery rate only", "by": f"Benjamini–Yekutieli over all "
               f"{m * (m - 1) // 2} pairs, which controls the false discovery rate only", "none": "no adjustment for multiplicity"}
        data = (f"{self.n_items} items in {self.n_clusters} clusters" if self.n_clusters is not None
                else f"{self.n_items} items")
        shared = self.comparisons["n_items"] if "n_items" in self.comparisons else None
        if shared is not None and len(shared) and int(shared.min()) < self.n_items:
            low, high = int(shared.min()), int(shared.max())
            data += (f", each pair on the items both models scored ({low}" + (f" to {high}" if high > low else "")
                     + f" of the {self.n_items})")
        detail = f"(paired t-tests over {data}, {how[self.adjust]})"
        others = list(self.members[1:])
        if not others:
            return (f"Every other model ({_names(list(self.separated))}) is separated from the leader "
                    f"{self.leader} at alpha = {self.alpha:g} {detail}.")
        subject = f"Model {others[0]}" if len(others) == 1 else f"Models {_names(others)}"
        tail = (f"; {_names(list(self.separated))} {'is' if len(self.separated) == 1 else 'are'} separated "
                "from it" if self.separated else "; no model is separated from it")
        verb = "is" if len(others) == 1 else "are"
        return (f"{subject} {verb} not shown to differ from the leader {self.leader} at alpha = {self.alpha:g} "
                f"{detail}{tail}.")

    def __str__(self) -> str:
        return self.describe()


def tie_group(scores: Any, *, clusters: Any = None, alpha: float = 0.05, adjust: str = "holm",
              missing: str = "raise") -> TieGroup:
    """The leader and the models not separable from it, with the error rate controlled.

    The leader is the model with the largest mean. A model belongs to the tie group
    unless its paired difference from the leader (as in :func:`leaderboard_pairs`) is
    significant, with the p-values adjusted over **all** ``M(M - 1)/2`` pairs -- not only
    the ``M - 1`` comparisons with the leader. The leader is chosen by the data as the
    largest of ``M`` means, so its gap to the last model behaves like the range of ``M``
    estimates, not like one fixed comparison: under a global null of 5 equal models (200
    items), Holm over the 4 comparisons with the leader excluded an equal model in 8.6%
    of 4,000 simulated leaderboards at alpha = 0.05; Holm over all 10 pairs excluded one
    in 3.6%. Over all pairs, with ``adjust="holm"`` (or ``"bonferroni"``) the chance of
    excluding any model that is truly as good as the leader is at most ``alpha``, whatever
    the true means (strong control of the family-wise error over all pairs, of which the
    leader's are a subset). ``adjust="bh"`` and ``"by"`` control only the false discovery
    rate of the pairs and ``"none"`` nothing.

    Parameters
    ----------
    scores, clusters, alpha, adjust, missing
        As in :func:`leaderboard_pairs`.

    Returns
    -------
    TieGroup
        ``leader``, ``members`` (the leader first), ``separated``, ``comparisons``,
        ``alpha``, ``adjust``, ``n_items``, ``n_clusters``; ``describe()`` says it in
        one sentence.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       *Scandinavian Journal of Statistics*, 6, 65-70.
    .. [2] Hsu, J. C. (1996). *Multiple Comparisons: Theory and Methods*. Chapman & Hall
       (multiple comparisons with the best: the sample best is not a fixed control).
    .. [3] Miller, E. (2024). Adding error bars to evals. arXiv:2411.00640.

    Examples
    --------
    >>> from evallib.items import tie_group
    >>> scores = {"A": [1, 1, 1, 1, 1, 1, 1, 0], "B": [1, 0, 0, 1, 0, 0, 1, 0],
    ...           "C": [1, 0, 0, 1, 0, 0, 0, 0]}
    >>> print(tie_group(scores))
    Model B is not shown to differ from the leader A at alpha = 0.05
    (paired t-tests over 8 items, Holm over all 3 pairs); C is separated from it.
    """
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    table = _prepare(scores, clusters, missing)
    pairs, order = _all_pairs(table, alpha, adjust)
    leader = table.names[order[0]]
    comparisons = pairs[pairs["a"] == leader].reset_index(drop=True)
    comparisons.attrs.update(pairs.attrs)
    members = (leader,) + tuple(comparisons.loc[~comparisons["reject"], "b"])
    separated = tuple(comparisons.loc[comparisons["reject"], "b"])
    return TieGroup(leader, members, separated, comparisons, alpha, adjust, table.n_items,
                    None if table.codes is None else table.n_groups)


# ------------------------------------------------------------------ rank intervals
def _draw_weights(rng: np.random.Generator, rows: int, n_groups: int, kind: str) -> tuple[np.ndarray, int]:
    """``rows`` x ``n_groups`` bootstrap weights, no row all zero, and the number of rows drawn again.

    Multinomial: ``n_groups`` draws of ``rng.integers(n_groups)`` per row, counted.
    Poisson: a total ``T ~ Poisson(n_groups)`` per row, conditioned on ``T > 0``, spread
    over the clusters by ``T`` uniform draws -- by the splitting property of the Poisson
    distribution the counts are independent Poisson(1) weights (conditioned on not all
    being 0), drawn at the cost of ``T`` integers instead of ``n_groups`` Poisson variates.
    The second value counts the draws of ``T = 0`` (every weight 0) that were drawn again.
    """
    redrawn = 0
    if kind == "multinomial":
        totals = np.full(rows, n_groups)
    else:
        totals = rng.poisson(float(n_groups), size=rows)
        empty = totals == 0
        while empty.any():  # no data in the replicate: draw it again
            redrawn += int(empty.sum())
            totals[empty] = rng.poisson(float(n_groups), size=int(empty.sum()))
            empty = totals == 0
    picks = rng.integers(n_groups, size=int(totals.sum()))
    cells = np.repeat(np.arange(rows) * n_groups, totals) + picks
    return np.bincount(cells, minlength=rows * n_groups).reshape(rows, n_groups), redrawn


def _replicate_ranks(means: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per replicate (row): each model's best and worst rank under ties, and its share of first place."""
    n_models = means.shape[1]
    low = np.empty(means.shape, dtype=np.int64)
    high = np.empty(means.shape, dtype=np.int64)
    step = max(1, _CHUNK // (n_models * n_models))
    for s in range(0, means.shape[0], step):
        m = means[s:s + step]
        above = (m[:, None, :] > m[:, :, None] + _TIE).sum(axis=2)   # models clearly better
        below = (m[:, None, :] < m[:, :, None] - _TIE).sum(axis=2)   # models clearly worse
        low[s:s + step] = 1 + above
        high[s:s + step] = n_models - below
    top = low == 1
    share = top / top.sum(axis=1, keepdims=True)
    return low, high, share


@renamed_keywords(n_boot="n_resamples")
def rank_intervals(scores: Any, *, clusters: Any = None, n_resamples: int = 2000, alpha: float = 0.05,
                   rng: Any = None, weights: str = "poisson", missing: str = "raise") -> pd.DataFrame:
    """Bootstrap intervals for every model's rank, and the share of resamples in which it ranks first.

    The items (or, with ``clusters``, the clusters) are resampled jointly for all models,
    so every replicate is one leaderboard on one resampled benchmark and the models'
    correlation through shared items is kept. The bootstrap works on per-cluster sums,
    never on copied rows: with ``S`` the ``G x M`` matrix of each cluster's score sums
    per model, ``n_g`` the cluster sizes and ``W`` the ``B x G`` matrix of bootstrap
    weights, the replicate means are ``(W @ S) / (W @ n_g)``, one matrix product (chunked
    so that memory stays bounded). Without clusters every item is its own cluster.

    * ``weights="poisson"`` (the default): independent Poisson(1) weights per cluster, the
      Poisson bootstrap (Hanley & MacGibbon 2006; Chamandy et al. 2012). They are drawn
      as a total ``T ~ Poisson(G)`` spread over the clusters by ``T`` uniform picks,
      which by the splitting property of the Poisson distribution gives the same
      independent Poisson(1) weights. A replicate whose weights are all 0 holds no data;
      it is drawn again (probability ``e^-G``).
    * ``weights="multinomial"``: the classical bootstrap (Efron 1979): per replicate ``G``
      cluster indices drawn with ``rng.integers(G, size=G)`` and counted -- the same
      resample as copying the rows of the drawn clusters.

    In each replicate a model's rank is 1 + the number of models with a larger mean; when
    means tie exactly (within 1e-12), the tied models span the ranks from their best to
    their worst. ``rank_low`` is the ``alpha/2`` quantile of the best ranks and
    ``rank_high`` the ``1 - alpha/2`` quantile of the worst ranks (the percentile interval,
    quantiles taken as observed values: ``numpy.quantile(method="inverted_cdf")``).
    ``p_best`` is the share of replicates in which the model is first, a first place
    shared by ``j`` tied models counting ``1/j`` to each; it sums to 1. It is a share of
    resamples, not the probability that the model is the best. ``p_best_se`` is its
    Monte Carlo standard error, the standard error of the mean of the per-replicate
    credits ``c_b`` (1, ``1/j`` or 0): ``sqrt(mean((c_b - p_best)^2) / n_resamples)``,
    which for credits of 0 and 1 only is the binomial ``sqrt(p (1 - p) / n_resamples)``
    and is exactly 0 when every replicate gives the model the same credit (identical
    models tied for first in every replicate: ``p_best = 1/j`` with no Monte Carlo error).

    Parameters
    ----------
    scores, clusters
        As in :func:`leaderboard_pairs`.
    n_resamples : int
        Bootstrap replicates, >= 1.
    alpha : float
        In (0, 1); each rank interval has nominal coverage ``1 - alpha`` (marginally, not
        jointly over the models).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The source of randomness (seed it for reproducibility).
    weights : {"poisson", "multinomial"}
        The bootstrap weights.
    missing : {"raise", "drop"}
        NaN marks an item a model did not score: refuse (default), or take each model's
        mean, in the data and in every replicate, over its own items (the items, or clusters,
        are still resampled jointly for all models).

    Returns
    -------
    pandas.DataFrame
        One row per model, best first (by observed rank, ties in input order): ``model``,
        ``mean``, ``rank`` (1 + the number of models with a larger observed mean),
        ``rank_low``, ``rank_high``, ``p_best``, ``p_best_se``. ``attrs`` hold ``alpha``, ``n_resamples``,
        ``weights``, ``n_items``, ``n_clusters``, ``redrawn`` (Poisson weights: the resamples that drew
        nothing, every weight 0, and were drawn again, so the ``n_resamples`` are conditioned on drawing
        something) and ``unscored`` (per model, the resamples that drew none of its items, with
        ``missing="drop"``, in which it keeps its observed mean).

    Notes
    -----
    Ranks are a discontinuous function of the means and the bootstrap of a rank is not
    consistent when models are tied (Hall & Miller 2009): an interval from the
    bootstrap shows how unstable a rank is, it does not come with the coverage guarantee
    of the paired tests of :func:`tie_group`. A clearly best model gets ``[1, 1]`` and
    ``p_best`` near 1; identical models get ``[1, M]`` and ``p_best = 1/M`` each, with
    ``p_best_se = 0``.

    References
    ----------
    .. [1] Efron, B. (1979). Bootstrap methods: another look at the jackknife. *Annals of
       Statistics*, 7, 1-26.
    .. [2] Hanley, J. A. & MacGibbon, B. (2006). Creating non-parametric bootstrap samples
       using Poisson frequencies. *Computer Methods and Programs in Biomedicine*, 83, 57-62.
    .. [3] Chamandy, N., Muralidharan, O., Najmi, A. & Naidu, S. (2012). Estimating
       uncertainty for massive data streams. Google technical report.
    .. [4] Hall, P. & Miller, H. (2009). Using the bootstrap to quantify the authority of an
       empirical ranking. *Annals of Statistics*, 37, 3929-3959.

    Examples
    --------
    >>> import numpy as np
    >>> from evallib.items import rank_intervals
    >>> g = np.random.default_rng(0)
    >>> scores = {"A": g.random(300) < 0.9, "B": g.random(300) < 0.6, "C": g.random(300) < 0.6}
    >>> r = rank_intervals(scores, n_resamples=500, rng=1)
    >>> r[["model", "rank", "rank_low", "rank_high"]].values.tolist()[0]
    ['A', 1, 1, 1]
    >>> round(float(r["p_best"].sum()), 12)
    1.0
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    weights = check_choice(weights, "weights", RANK_BOOTSTRAP_WEIGHTS)
    rng = check_rng(rng)
    table = _prepare(scores, clusters, missing)
    x, n_items = table.values, table.n_items
    scored = (~np.isnan(x)).astype(float)       # missing="drop": each mean on the model's own items
    x0 = np.where(scored > 0, x, 0.0)
    if table.codes is None:
        sums, sizes = x0, scored
    else:
        indicator = sparse.csr_array((np.ones(n_items), (table.codes, np.arange(n_items))),
                                     shape=(table.n_groups, n_items))
        sums, sizes = indicator @ x0, indicator @ scored
    n_groups, n_models = sums.shape
    observed = _own_means(x)
    low = np.empty((n_resamples, n_models), dtype=np.int64)
    high = np.empty((n_resamples, n_models), dtype=np.int64)
    credit = np.empty((n_resamples, n_models))   # each replicate's share of first place: 1, 1/j or 0
    step = max(1, min(n_resamples, _CHUNK // n_groups))
    redrawn = 0
    unscored = np.zeros(n_models, dtype=np.int64)
    for s in range(0, n_resamples, step):
        rows = min(step, n_resamples - s)
        w, again = _draw_weights(rng, rows, n_groups, weights)
        w = w.astype(float)
        redrawn += again
        with np.errstate(invalid="ignore", divide="ignore"):
            means = (w @ sums) / (w @ sizes)
        # a replicate that draws none of a model's items says nothing of it: its observed mean
        finite = np.isfinite(means)
        unscored += (~finite).sum(axis=0)
        means = np.where(finite, means, observed)
        low[s:s + rows], high[s:s + rows], credit[s:s + rows] = _replicate_ranks(means)
    # a model given the same credit in every replicate (an exact tie for first each time, or never or
    # always first) has that credit as its share and no Monte Carlo error, without rounding noise
    constant = (credit == credit[0]).all(axis=0)
    p_best = np.where(constant, credit[0], credit.mean(axis=0))
    p_best_se = np.where(constant, 0.0, credit.std(axis=0) / math.sqrt(n_resamples))
    order, rank = _leaderboard_order(observed)
    out = pd.DataFrame({
        "model": [table.names[i] for i in order],
        "mean": observed[order],
        "rank": rank[order],
        "rank_low": np.quantile(low, alpha / 2, axis=0, method="inverted_cdf")[order].astype(np.int64),
        "rank_high": np.quantile(high, 1 - alpha / 2, axis=0, method="inverted_cdf")[order].astype(np.int64),
        "p_best": p_best[order],
        "p_best_se": p_best_se[order],
    })
    out.attrs.update(alpha=alpha, n_resamples=n_resamples, weights=weights, n_items=n_items,
                     n_clusters=None if table.codes is None else table.n_groups, redrawn=redrawn,
                     unscored={table.names[i]: int(unscored[i]) for i in order})
    return out


def _share_label(p: float, n_resamples: Any) -> str:
    """A share of resamples as a figure label: a whole percent, but never a rounded 0% or 100%, which would read
    as certainty ("none of 2,000", "<1%", ">99%", "all 2,000")."""
    if p <= 0:
        return f"none of {n_resamples:,}" if n_resamples else "none"
    if p >= 1:
        return f"all {n_resamples:,}" if n_resamples else "all"
    if p < 0.005:
        return "<1%"
    if p >= 0.995:
        return ">99%"
    return f"{p:.0%}"


def plot_rank_intervals(result: pd.DataFrame, ax=None):
    """Draw :func:`rank_intervals`: one row per model, best on top, rank interval as a bar.

    Each model's bootstrap rank interval ``[rank_low, rank_high]`` is a horizontal bar,
    its observed rank a dot, and the share of resamples in which it ranks first (``p_best``) is written
    to the right of the axes as "first in 12%" (a share that would round to 0% or 100% reads "<1%" or
    ">99%", and none or all of them "none of 2,000" or "all 2,000": a rounded 0% would read as certainty).

    Parameters
    ----------
    result : pandas.DataFrame
        The result of :func:`rank_intervals`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from evallib.items import plot_rank_intervals, rank_intervals
    >>> r = rank_intervals({"A": [1, 1, 0, 1], "B": [0, 1, 0, 1]}, n_resamples=50, rng=0)
    >>> plot_rank_intervals(r).get_ylabel()
    'model (best first)'
    """
    from matplotlib.ticker import MaxNLocator

    needed = {"model", "rank", "rank_low", "rank_high", "p_best"}
    if not isinstance(result, pd.DataFrame) or needed - set(result.columns):
        raise ValueError("result must be the DataFrame returned by rank_intervals (columns model, rank, "
                         "rank_low, rank_high, p_best)")
    n = len(result)
    ax = get_axes(ax, figsize=(6.4, max(2.0, 0.35 * n + 1.0)))
    y = np.arange(n)
    low = result["rank_low"].to_numpy(float)
    high = result["rank_high"].to_numpy(float)
    ax.barh(y, high - low + 0.6, left=low - 0.3, height=0.5, color="C0", alpha=0.35)
    ax.plot(result["rank"].to_numpy(float), y, "o", color="C0", markersize=4)
    text_at = ax.get_yaxis_transform()        # x in axes fractions, y in data
    n_resamples = result.attrs.get("n_resamples")
    for yi, p in zip(y, result["p_best"]):
        ax.text(1.02, yi, f"first in {_share_label(p, n_resamples)}", transform=text_at, va="center", fontsize="small")
    ax.set_yticks(y)
    ax.set_yticklabels([str(m) for m in result["model"]])
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0.4, float(max(high.max(), n)) + 0.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rank (1 = best)")
    ax.set_ylabel("model (best first)")
    level = result.attrs.get("alpha")
    pct = f"{100 * (1 - level):g}% " if level is not None else ""
    ax.set_title(f"bars: {pct}bootstrap rank intervals; dots: observed ranks", fontsize="medium")
    return ax
