"""Item means and paired item differences, with clustered, small-sample-correct intervals.

Design 4 (per-item evaluation). A benchmark scores *items* -- 0/1 correct, or a real
score in [0, 1] -- and the unit of analysis is the item, never the row:

* **item level first.** A 2-D ``scores`` array (items x samples, NaN for a sample that
  is missing) is reduced to one mean per item, so K repeated answers to one item count
  as one item, not K (Miller 2024, sec. 2.3). An item with no sample at all is missing.
* **then the clusters.** Items that share a passage, a school or a source are
  correlated; the variance of their mean is estimated from the cluster sums of the
  residuals (the sandwich of Liang & Zeger 1986), with the small-sample correction CR2
  and the Satterthwaite degrees of freedom of Bell & McCaffrey (2002) by default; for
  0/1 scores the default is Wilson's interval with the effective sample size that
  variance implies (Korn & Graubard 1998), which keeps its level near 0 and 1.
* **paired, not unpaired.** Two models scored on the same items are compared through
  the per-item differences (Miller 2024, sec. 4); the result also reports the standard
  errors an unpaired and an unclustered analysis would have given.

All the variance arithmetic runs on cluster sums (``numpy.bincount`` over factorised
labels), so a million items in fifty thousand clusters take a fraction of a second.

For the intercept-only model ``y_i = mu + e_i`` with ``N`` items in ``G`` clusters of
sizes ``n_g``, ``mu_hat`` is the mean of the item scores and ``S_g`` the sum of the
residuals ``y_i - mu_hat`` in cluster ``g``. The variance estimators are

* CR1 (Stata; statsmodels' ``cov_type="cluster"``): ``G/(G-1) (N-1)/(N-K) sum_g S_g^2 / N^2``
  with ``K = 1`` regressor, so ``G/(G-1) sum_g S_g^2 / N^2``; reference t with ``G - 1`` df;
* CR2 (Bell & McCaffrey 2002, eq. 3.4): the residuals of cluster ``g`` are premultiplied by
  ``(I - H_gg)^(-1/2)``; for an intercept ``H_gg = J/N``, the vector of ones is its
  eigenvector, and the estimator reduces to ``sum_g S_g^2 / (1 - n_g/N) / N^2``. With one
  item per cluster it is ``s^2/N``, the textbook variance of a mean.

Functions: :func:`item_mean`, :func:`paired_item_difference`, :func:`variance_components`;
the coverage of the intervals is simulated by :mod:`evallib.items._coverage`.

References
----------
E. Miller (2024), Adding error bars to evals: a statistical approach to language model
evaluations, arXiv:2411.00640.
K.-Y. Liang and S. L. Zeger (1986), Longitudinal data analysis using generalized linear
models, Biometrika 73(1), 13-22.
R. M. Bell and D. F. McCaffrey (2002), Bias reduction in standard errors for linear
regression with multi-stage samples, Survey Methodology 28(2), 169-181.
G. W. Imbens and M. Kolesar (2016), Robust standard errors in small samples: some practical
advice, Review of Economics and Statistics 98(4), 701-712.
A. C. Cameron and D. L. Miller (2015), A practitioner's guide to cluster-robust inference,
Journal of Human Resources 50(2), 317-372.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_fields, renamed_keywords
from .._cr2 import bm_df as _bm_df
from .._format import format_p
from .._inference import (
    check_alternative,
    t_inference,
    wilson_effective,
    wilson_interval,
)
from .._results import IntervalMixin
from .._validate import (
    align_items,
    check_alpha,
    check_choice,
    check_count,
    check_labels,
    check_rng,
)
from ..onetestset._mcnemar import Contingency, mcnemar
from ..onetestset._paired_intervals import paired_difference_interval

__all__ = [
    "ITEM_MEAN_METHODS",
    "PAIRED_ITEM_METHODS",
    "WILD_BOOTSTRAP_WEIGHTS",
    "ItemMean",
    "PairedItemDifference",
    "VarianceComponents",
    "item_mean",
    "paired_item_difference",
    "variance_components",
    "bell_mccaffrey_df",
]

#: Methods of :func:`item_mean` (``"auto"`` picks one of the others and reports which).
ITEM_MEAN_METHODS = ("auto", "naive", "t", "cr1_normal", "cr1", "cr2", "wild", "wilson")
#: Methods of :func:`paired_item_difference`.
PAIRED_ITEM_METHODS = ("auto", "naive", "t", "cr1_normal", "cr1", "cr2", "wild", "mcnemar")

#: an alternative about ``a - b`` as the same alternative about ``b - a``
_FLIPPED = {"two-sided": "two-sided", "less": "greater", "greater": "less"}
#: Weights of the wild cluster bootstrap: Rademacher (+-1) or Webb's six-point weights.
WILD_BOOTSTRAP_WEIGHTS = ("webb", "rademacher")
_MISSING = ("raise", "drop")
_CLUSTERED = ("cr1_normal", "cr1", "cr2", "wild", "wilson")
_WEBB = np.sqrt(np.array([1.5, 1.0, 0.5, 0.5, 1.0, 1.5])) * np.array([-1, -1, -1, 1, 1, 1])
_WILD_CHUNK = 4_000_000  # bootstrap weights held in memory at once (draws x clusters)

_LABELS = {
    "naive": "items taken as independent, normal interval",
    "t": "items taken as independent, t interval with {df:.0f} df",
    "cr1_normal": "CR1 cluster-robust SE, normal interval as statsmodels gives by default",
    "cr1": "CR1 cluster-robust SE, t with G - 1 = {df:.0f} df",
    "cr2": "CR2 cluster-robust SE, Bell–McCaffrey t with {df:.1f} df",
    "wild": "wild cluster bootstrap, interval by inverting the null-imposed bootstrap test",
    "wilson": "Wilson interval",
    "mcnemar": "McNemar mid-p test and Bonett–Price interval",
}


# ------------------------------------------------------------------ results
def _method_label(method: str, df: float, note: str) -> str:
    label = _LABELS[method].format(df=df if math.isfinite(df) else 0.0)
    if method == "wilson" and "effective sample size" in note.lower():
        label = "Wilson interval on the Korn–Graubard effective sample size"
    return label


def _where(n_items: int, n_clusters: int, clustered: bool) -> str:
    return f"{n_items:,} items" + (f" in {n_clusters:,} clusters" if clustered else "")


@renamed_fields(std_error="se", unclustered_std_error="unclustered_se")
@dataclass(frozen=True)
class ItemMean(IntervalMixin):
    """The mean item score with its standard error and confidence interval.

    Attributes
    ----------
    estimate : the mean of the item means (each item weighs the same, whatever its
        number of samples).
    se : its standard error under ``method``: item-level ``s/sqrt(n)`` for
        ``"naive"`` and ``"t"``, CR1 for ``"cr1"``, ``"cr1_normal"`` and ``"wild"``, CR2 for
        ``"cr2"`` and ``"wilson"`` -- except Wilson's own case (no clusters, one 0/1 score
        per item), where it is the binomial ``sqrt(p (1 - p) / n)``.
    low, high : the ``1 - alpha`` confidence interval, inside [0, 1].
    alpha : the level.
    df : degrees of freedom of the t reference (for ``"wilson"`` with the effective
        sample size, the Bell–McCaffrey df of its adjustment); ``inf`` for a normal
        reference, Wilson's own interval and the wild bootstrap (no parametric
        reference); 0 with a single cluster.
    method : the method used (``"auto"`` is resolved to ``"wilson"`` or ``"cr2"``).
    n_items : items analysed (after dropping missing ones).
    n_clusters : distinct clusters among them (``n_items`` when no clusters are given).
    n_samples : mean number of samples per item.
    n_dropped : items dropped because they had no sample (``missing="drop"``).
    unclustered_se : the standard error if the items were independent,
        ``s / sqrt(n)`` of the item means; its ratio to ``se`` is the price of
        the clustering.
    note : anything the reader should know (a dropped item, ignored clusters, a
        degenerate case, the effective sample size of a Wilson interval).
    """

    estimate: float
    se: float
    low: float
    high: float
    alpha: float
    df: float
    method: str
    n_items: int
    n_clusters: int
    n_samples: float
    n_dropped: int
    unclustered_se: float
    note: str = ""

    def describe(self) -> str:
        """One sentence: the estimate, the interval, the standard error and how they were made.

        Returns
        -------
        str
            The mean score over the items (and clusters), its ``1 - alpha`` interval, its
            standard error and the method (with its df); for clustered items with a method
            that accounts for the clusters also the standard error that ignoring them would
            give; followed by ``note`` when there is one.
        """
        clustered = self.n_clusters < self.n_items
        text = (f"Mean score {self.estimate:.3f} over {_where(self.n_items, self.n_clusters, clustered)}: "
                f"{100 * (1 - self.alpha):g}% CI [{self.low:.3f}, {self.high:.3f}], "
                f"SE {self.se:.4f} ({_method_label(self.method, self.df, self.note)})")
        if clustered and self.method in _CLUSTERED and math.isfinite(self.se):
            text += f"; ignoring the clusters the SE would be {self.unclustered_se:.4f}"
        return text + "." + (f" {self.note}" if self.note else "")

    __str__ = describe


@renamed_fields(std_error="se", unclustered_std_error="unclustered_se",
                unpaired_std_error="unpaired_se")
@dataclass(frozen=True)
class PairedItemDifference(IntervalMixin):
    """The paired mean difference ``a - b`` of two models scored on the same items.

    Attributes
    ----------
    estimate : ``mean(a_i) - mean(b_i)`` over the items (item means first).
    se : standard error of the paired difference under ``method`` (as in
        :class:`ItemMean`; for ``"mcnemar"`` the item-level ``s_d / sqrt(n)``).
    low, high : the ``1 - alpha`` interval, inside [-1, 1].
    statistic : ``estimate / se`` (t or z); for ``"mcnemar"`` the mid-p test's
        statistic ``min(n01, n10)``, as :func:`evallib.onetestset.mcnemar` reports it.
    pvalue : p-value of H0: no difference, against ``alternative``.
    reject : ``pvalue <= alpha``.
    method : the method used (``"auto"`` is resolved to ``"mcnemar"`` or ``"cr2"``).
    alpha, df, n_items, n_clusters, n_dropped : as in :class:`ItemMean` (``df`` is
        ``inf`` for ``"mcnemar"``).
    mean_a, mean_b : the two models' mean scores over the analysed items.
    correlation : Pearson correlation of the two models' item scores (0 when either is
        constant, where it is undefined and pairing gains nothing).
    unclustered_se : the paired standard error with the items taken as
        independent, ``s_d / sqrt(n)``: what ignoring the clusters would report.
    unpaired_se : ``sqrt(s_a^2/n + s_b^2/n)`` of the item means: what an unpaired
        two-sample analysis of the same items would report.
    note : as in :class:`ItemMean`.
    alternative : ``"two-sided"``, ``"less"`` (H1: ``a`` scores lower) or ``"greater"``.
    """

    estimate: float
    se: float
    low: float
    high: float
    statistic: float
    pvalue: float
    reject: bool
    alpha: float
    df: float
    method: str
    n_items: int
    n_clusters: int
    n_dropped: int
    mean_a: float
    mean_b: float
    correlation: float
    unclustered_se: float
    unpaired_se: float
    note: str = ""
    alternative: str = "two-sided"

    def describe(self) -> str:
        """One sentence: the difference, its interval and p-value, and what the two usual mistakes would report.

        Returns
        -------
        str
            ``a - b`` with the two mean scores over the items (and clusters), its ``1 - alpha``
            interval, standard error, statistic and p-value (one-sided when ``alternative``
            says so) and the method; then the standard error that ignoring the clusters
            (clustered items, a method that accounts for them) and ignoring the pairing
            would report, with the correlation of the item scores; followed by ``note`` when
            there is one.
        """
        clustered = self.n_clusters < self.n_items
        test = (format_p(self.pvalue) if self.method == "mcnemar" or self.method == "wild"
                else f"{'z' if math.isinf(self.df) else 't'} = {self.statistic:.2f}, {format_p(self.pvalue)}")
        if self.alternative != "two-sided":
            test += f" (one-sided, H1: a {'>' if self.alternative == 'greater' else '<'} b)"
        text = (f"Difference a - b = {self.estimate:+.3f} ({self.mean_a:.3f} - {self.mean_b:.3f}) over "
                f"{_where(self.n_items, self.n_clusters, clustered)}: {100 * (1 - self.alpha):g}% CI "
                f"[{self.low:+.3f}, {self.high:+.3f}], SE {self.se:.4f}, {test} "
                f"({_method_label(self.method, self.df, self.note)})")
        if clustered and self.method in _CLUSTERED and math.isfinite(self.se):
            text += f"; ignoring the clusters the SE would be {self.unclustered_se:.4f}"
        text += (f"; ignoring the pairing it would be {self.unpaired_se:.4f} "
                 f"(correlation of the item scores {self.correlation:.2f})")
        return text + "." + (f" {self.note}" if self.note else "")

    __str__ = describe


@renamed_fields(std_error="se")
@dataclass(frozen=True)
class VarianceComponents:
    """Between-item and within-item variance of item scores sampled K times.

    Attributes
    ----------
    between : ``sigma_b^2``, the variance of the items' true scores: the method-of-moments
        estimate ``(MSB - MSW) / K0``, truncated at 0 when it comes out negative (``truncated``).
    within : ``sigma_w^2``, the variance of one sample around its item's true score.
    icc : ``between / (between + within)``, the correlation of two samples of one item
        (NaN when both components are 0, every score the same; 0 when ``between`` was truncated).
    mean : the mean of the item means.
    n_items : items analysed.
    samples : mean number of samples per item, ``K``.
    inverse_samples : mean of ``1/K_i`` (equals ``1/K`` when every item has K samples).
    var_mean : ``var_floor + within * inverse_samples / n_items``, the variance of the mean
        of the item means for the observed samples (without clusters
        ``(between + within * inverse_samples) / n_items``; with clusters the squared
        clustered standard error of :func:`item_mean`).
    se : ``sqrt(var_mean)``.
    var_floor : the part of ``var_mean`` that no number of samples per item removes, the
        variance of the mean of the items' true scores: ``between / n_items`` for independent
        items; with clusters, the clustered variance less the within-item noise,
        ``item_mean(clusters=).se^2 - within * inverse_samples / n_items`` (truncated at 0).
    truncated : whether the method-of-moments between estimate was negative and set to 0.
    icc_raw : the same share before the truncation, ``(MSB - MSW) / (MSB + (K0 - 1) MSW)``
        (equal to ``icc`` unless ``truncated``; then below 0, and at least ``-1 / (K0 - 1)``):
        how far below 0 the estimate fell, for saying so. NaN, as ``icc`` is, when ``MSB`` and
        ``MSW`` are both 0 (every score the same: there is no variance to split).
    n_dropped : items dropped because they had no sample.
    note : the truncation, or dropped items, in words.
    n_clusters : the clusters behind ``var_mean`` and ``var_floor`` (``None`` when the items
        are taken as independent).
    """

    between: float
    within: float
    icc: float
    mean: float
    n_items: int
    samples: float
    inverse_samples: float
    var_mean: float
    se: float
    var_floor: float
    truncated: bool
    icc_raw: float
    n_dropped: int = 0
    note: str = ""
    n_clusters: int | None = None

    def variance_of_mean(self, samples: Any) -> float:
        """``var_floor + within / (K n_items)``: the variance of the mean with ``K = samples`` per item.

        Without clusters that is ``(between + within / K) / n_items``. With clusters the
        within-item noise is independent from item to item, so it adds ``within / (K n_items)``
        to the clustered floor whatever the clusters.

        Parameters
        ----------
        samples : int
            ``K``, the number of samples per item, at least 1.

        Returns
        -------
        float
            The variance of the mean of the item means over the ``n_items`` items.
        """
        k = check_count(samples, "samples", minimum=1)
        return self.var_floor + self.within / (k * self.n_items)

    def table(self, samples: Any = (1, 2, 4, 8, 16)) -> pd.DataFrame:
        """What more samples per item buy: one row per ``K`` in ``samples``.

        Columns ``samples``, ``var_mean``, ``se``, ``within_share`` (the share of
        ``var_mean`` that is sampling noise within items, ``within / (K n_items)`` over
        that row's ``var_mean``; 0 when it is 0) and ``relative_se`` (the
        standard error relative to the one with the observed samples; 1 when that is 0).
        The standard error can never fall below ``sqrt(var_floor)``, however large K.

        Parameters
        ----------
        samples : int or sequence of int, default (1, 2, 4, 8, 16)
            The numbers of samples per item ``K`` to tabulate, each at least 1; at least one.

        Returns
        -------
        pandas.DataFrame
            One row per ``K``, in the order given, with the columns ``samples``, ``var_mean``,
            ``se``, ``within_share`` and ``relative_se`` described above.
        """
        if isinstance(samples, (str, bytes)) or np.isscalar(samples):
            samples = [samples]
        ks = [check_count(k, "samples", minimum=1) for k in samples]
        if not ks:
            raise ValueError("samples must hold at least one number of samples per item, got none")
        var = np.array([self.variance_of_mean(k) for k in ks])
        within = np.array([self.within / (k * self.n_items) for k in ks])
        share = np.divide(within, var, out=np.zeros_like(within), where=var > 0)
        rel = np.sqrt(var / self.var_mean) if self.var_mean > 0 else np.ones_like(var)
        return pd.DataFrame({"samples": ks, "var_mean": var, "se": np.sqrt(var),
                             "within_share": share, "relative_se": rel})

    def describe(self) -> str:
        """One sentence: the two components and what more samples would buy.

        Returns
        -------
        str
            The between- and within-item variances, the ICC, the items and mean samples per
            item, the standard error of the mean (clustered when clusters were given), the
            standard error with twice the samples per item and the floor ``sqrt(var_floor)``
            no number of samples gets below; followed by ``note`` when there is one.
        """
        limit = math.sqrt(self.var_floor)
        clustered = "" if self.n_clusters is None else f" in {self.n_clusters:,} clusters"
        se_kind = "SE of the mean" if self.n_clusters is None else "clustered SE of the mean"
        share = ("ICC undefined: every score is the same" if math.isnan(self.icc) else
                 f"ICC {self.icc:.2f}, the between-item share of one answer's variance")
        text = (f"Between-item variance {self.between:.4g}, within-item variance {self.within:.4g} "
                f"({share}) over "
                f"{self.n_items:,} items{clustered} with {self.samples:.3g} samples each "
                f"on average: {se_kind} {self.se:.4f}; "
                f"{self.samples * 2:.3g} samples per item would give "
                f"{math.sqrt(self.var_floor + self.within * self.inverse_samples / (2 * self.n_items)):.4f}, "
                f"and no number of samples per item can bring it below {limit:.4f}.")
        return text + (f" {self.note}" if self.note else "")

    __str__ = describe


# -------------------------------------------------------------- input checks
def _check_scores(values: Any, name: str) -> np.ndarray:
    """Return ``values`` as a float array of shape (items,) or (items, samples) in [0, 1], NaN = missing."""
    what = "scores in [0, 1] (one per item, or items x samples with NaN for a missing sample)"
    if values is None or isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"{name} must be an array of {what}, got {type(values).__name__}")
    numbers_msg = f"{name} must hold numbers, the scores in [0, 1]"
    try:
        arr = np.asarray(values)
    except ValueError:
        raise ValueError(f"{name} must be rectangular (items x samples); pad missing samples with NaN") from None
    kind = arr.dtype.kind
    if kind in "biuf":
        arr = arr.astype(float, copy=False)
    elif kind == "O":
        flat = arr.ravel()
        missing = np.asarray(pd.isna(flat), dtype=bool)
        for v in flat[~missing]:
            if isinstance(v, (str, bytes)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{numbers_msg}, found {v!r}")
        out = np.full(flat.shape, np.nan)
        out[~missing] = flat[~missing].astype(float)
        arr = out.reshape(arr.shape)
    else:
        raise TypeError(f"{numbers_msg}, got values of type {arr.dtype}")
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D (one score per item) or 2-D (items x samples), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one item and one sample, got shape {arr.shape}")
    if np.isinf(arr).any():
        raise ValueError(f"{name} must hold finite scores in [0, 1] (NaN marks a missing one), found an infinite value")
    outside = (arr < 0) | (arr > 1)
    if outside.any():
        raise ValueError(f"{name} must hold scores in [0, 1]; {int(outside.sum())} values lie outside, "
                         f"e.g. {arr[outside][0]:g} (rescale other scales to [0, 1] first)")
    return arr


def _item_means(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item: the mean over its available samples (NaN if none) and their number."""
    if arr.ndim == 1:
        counts = (~np.isnan(arr)).astype(np.int64)
        return arr, counts
    ok = ~np.isnan(arr)
    counts = ok.sum(axis=1)
    sums = np.where(ok, arr, 0.0).sum(axis=1)
    means = np.divide(sums, counts, out=np.full(arr.shape[0], np.nan), where=counts > 0)
    return means, counts


def _is_binary(arr: np.ndarray) -> bool:
    """Whether every observed sample is exactly 0 or 1."""
    return bool(np.all((arr == 0.0) | (arr == 1.0) | np.isnan(arr)))


def _is_label_sequence(value: Any) -> bool:
    return not isinstance(value, (str, bytes)) and hasattr(value, "__len__") and not np.isscalar(value)


def _check_clusters(clusters: Any, n_items: int, *, paired: bool = False) -> np.ndarray | None:
    """One label per item (no NaN); for a paired analysis a per-model pair is accepted only if identical."""
    if clusters is None:
        return None
    pair = None
    if isinstance(clusters, Mapping):
        if len(clusters) != 2 or not paired:
            raise TypeError("clusters must be one label per item (a sequence), not a mapping")
        names = [f"clusters[{k!r}]" for k in clusters]
        pair = list(clusters.values())
    elif paired and isinstance(clusters, (tuple, list)) and len(clusters) == 2 \
            and all(_is_label_sequence(c) for c in clusters):
        names = ["clusters[0]", "clusters[1]"]
        pair = list(clusters)
    if pair is not None:
        first, second = (check_labels(c, nm) for c, nm in zip(pair, names))
        if first.shape != second.shape:
            raise ValueError(f"{names[0]} and {names[1]} have {first.shape[0]} and {second.shape[0]} labels; "
                             "a cluster is a property of the item: give one label per item, shared by a and b")
        differ = np.flatnonzero(~(first.astype(object) == second.astype(object)))
        if differ.size:
            i = int(differ[0])
            raise ValueError(f"{names[0]} and {names[1]} disagree on {differ.size} of {first.shape[0]} items "
                             f"(first at item {i}: {first[i]!r} vs {second[i]!r}); a cluster is a property of "
                             "the item: give one label per item, shared by a and b")
        labels = first
    else:
        labels = check_labels(clusters, "clusters")
    if labels.shape[0] != n_items:
        raise ValueError(f"clusters must give one label per item: got {labels.shape[0]} labels for {n_items} items")
    return labels


def _check_options(method, methods, alpha, missing, n_boot, bootstrap_weights, rng):
    method = check_choice(method, "method", methods)
    alpha = check_alpha(alpha)
    missing = check_choice(missing, "missing", _MISSING)
    n_boot = check_count(n_boot, "n_resamples", minimum=99)
    bootstrap_weights = check_choice(bootstrap_weights, "bootstrap_weights", WILD_BOOTSTRAP_WEIGHTS)
    return method, alpha, missing, n_boot, bootstrap_weights, check_rng(rng)


def _codes(labels: np.ndarray | None, keep: np.ndarray | None, n_items: int) -> tuple[np.ndarray, int]:
    """Integer cluster codes 0..G-1 of the kept items (one cluster per item without labels)."""
    if labels is None:
        return np.arange(n_items, dtype=np.intp), n_items
    if keep is not None:
        labels = labels[keep]
    codes, uniques = pd.factorize(labels, sort=False)
    return codes.astype(np.intp, copy=False), len(uniques)


# ------------------------------------------------------- variance arithmetic
def bell_mccaffrey_df(cluster_sizes: Any) -> float:
    """Bell–McCaffrey degrees of freedom of the CR2 variance of a mean, in closed form.

    For the intercept-only model with ``N`` items in clusters of sizes ``n_g`` and the
    working model of independent, equal-variance errors, CR2 writes the variance as
    ``V = sum_g (a_g' M u)^2`` with ``M = I - J/N`` and ``a_g`` the vector that is
    ``(1 - n_g/N)^(-1/2) / N`` on cluster ``g`` and 0 elsewhere. ``V`` is then a weighted sum
    of chi-squares with weights the eigenvalues of the ``G x G`` matrix
    ``B_gh = a_g' M a_h``, and Satterthwaite's approximation gives
    ``df = (tr B)^2 / tr(B^2)`` (Bell & McCaffrey 2002, eq. 3.8; Imbens & Kolesar 2016,
    eq. 11). Here ``N^2 B = diag(n_g / r_g) - w w' / N`` with ``r_g = 1 - n_g/N`` and
    ``w_g = n_g / sqrt(r_g)``, so ``tr(N^2 B) = N`` and

    ``df = N^2 / [ sum_g n_g^2 (1 - 2 n_g/N) / r_g^2 + (sum_g n_g^2 / r_g)^2 / N^2 ]``,

    an O(G) formula. With ``G`` equal clusters it is ``G - 1``; with one item per cluster
    ``N - 1``, the df of the t-test. It never exceeds ``G - 1``.

    Parameters
    ----------
    cluster_sizes : sequence of int
        Items per cluster, each >= 1; at least two clusters.

    Returns
    -------
    float

    References
    ----------
    R. M. Bell and D. F. McCaffrey (2002), Survey Methodology 28(2), 169-181.
    G. W. Imbens and M. Kolesar (2016), Review of Economics and Statistics 98(4), 701-712.

    Examples
    --------
    >>> from evallib.items import bell_mccaffrey_df
    >>> bell_mccaffrey_df([5, 5, 5, 5])
    3.0
    >>> round(bell_mccaffrey_df([1, 1, 2, 20]), 3) < 3
    True
    """
    n_g = np.asarray(cluster_sizes)
    if n_g.ndim != 1 or n_g.size < 2 or n_g.dtype.kind not in "iuf" or not np.all(np.isfinite(n_g)) \
            or np.any(n_g < 1) or np.any(n_g != np.round(n_g)):
        raise ValueError("cluster_sizes must be a sequence of at least two whole numbers >= 1")
    return _bm_df(n_g.astype(float))


def _draw_weights(rng: np.random.Generator, shape: tuple[int, int], kind: str) -> np.ndarray:
    if kind == "rademacher":
        return rng.integers(0, 2, size=shape).astype(float) * 2.0 - 1.0
    return _WEBB[rng.integers(0, 6, size=shape)]


class _WildBootstrap:
    """The restricted wild cluster bootstrap-t of an intercept, for every null value at once.

    For H0: ``mu = mu0`` write ``theta = mu0 - mu_hat`` and ``E_g`` for the cluster sums of
    the residuals ``y_i - mu_hat``. The bootstrap sample imposes the null,
    ``y*_i = mu0 + w_g (y_i - mu0)``, whose cluster sums of ``y*_i - mu0`` are
    ``w_g (E_g - n_g theta)``. Then ``mu*_hat - mu0 = (P - theta R)/N`` with
    ``P = sum w_g E_g`` and ``R = sum w_g n_g``, and the CR1 sum of squares of the bootstrap
    residuals is a quadratic in ``theta`` whose coefficients are sums over the clusters,
    computed once per draw. ``|t*| >= |t|`` is tested as
    ``(mu*_hat - mu0)^2 SS_obs >= theta^2 SS*`` (no division, so a zero variance is no
    special case). The CR1 factor ``G/(G-1)`` cancels. Each p-value is then O(draws).
    """

    def __init__(self, y, codes, G, rng, n_boot, kind):
        N = y.size
        e = y - y.mean()
        E = np.bincount(codes, weights=e, minlength=G)
        n = np.bincount(codes, minlength=G).astype(float)
        self.N, self.ss_obs, self.n2 = float(N), float(E @ E), float(n @ n)
        cols = np.column_stack([E, n, n * E, n * n])
        sq = np.column_stack([E * E, E * n, n * n])
        sums, sq_sums = np.empty((n_boot, 4)), np.empty((n_boot, 3))
        step = max(1, _WILD_CHUNK // G)
        for s in range(0, n_boot, step):
            W = _draw_weights(rng, (min(step, n_boot - s), G), kind)
            sums[s:s + W.shape[0]] = W @ cols
            sq_sums[s:s + W.shape[0]] = (W * W) @ sq
        self.P, self.R, self.C, self.D = sums.T
        self.A1, self.A2, self.A3 = sq_sums.T
        self.n_boot = n_boot

    def pvalue(self, theta: float) -> float:
        """Bootstrap p-value of H0: ``mu = mu_hat + theta``, ``(1 + #{|t*| >= |t|}) / (B + 1)``."""
        delta = (self.P - theta * self.R) / self.N
        ss = (self.A1 - 2 * theta * self.A2 + theta * theta * self.A3
              - 2 * delta * (self.C - theta * self.D) + delta * delta * self.n2)
        ss = np.maximum(ss, 0.0)
        extreme = delta * delta * self.ss_obs >= theta * theta * ss * (1 - 1e-10)
        return float((1 + np.count_nonzero(extreme)) / (self.n_boot + 1))

    def bound(self, end: float, alpha: float) -> float:
        """The ``theta`` between 0 and ``end`` where the p-value falls to ``alpha`` (bisection)."""
        if end == 0.0 or self.pvalue(end) > alpha:
            return end
        inside, outside = 0.0, end
        for _ in range(64):
            mid = 0.5 * (inside + outside)
            if self.pvalue(mid) > alpha:
                inside = mid
            else:
                outside = mid
        return 0.5 * (inside + outside)


def _analyse(y, codes, G, method, alpha, *, bounds, null=0.0, rng=None, n_boot=999,
             bootstrap_weights="webb", n_obs=None, classic_wilson=False, alternative="two-sided"):
    """Estimate, SE, df, interval, statistic and p-value of the mean of ``y`` under ``method``.

    ``codes``/``G``: cluster codes (ignored by ``"naive"`` and ``"t"``). Returns a dict.
    The statistic, the p-value and (but for ``"wild"`` and ``"wilson"``) the interval come
    from evallib's t/z core (:mod:`evallib._inference`); ``alternative`` other than
    ``"two-sided"`` is for the t/z methods (the interval becomes one-sided, clipped to ``bounds``).
    """
    N = y.size
    est = float(np.mean(y))
    e = y - est
    s2 = float(e @ e) / (N - 1)
    unclustered = math.sqrt(s2 / N)
    z = float(stats.norm.isf(alpha / 2))
    out = {"estimate": est, "unclustered_se": unclustered, "note": ""}
    if method in ("naive", "t"):
        se, df = unclustered, (math.inf if method == "naive" else float(N - 1))
    elif G < 2:  # one cluster: nothing is known about the variation between clusters
        out.update(se=math.inf, df=0.0, low=bounds[0], high=bounds[1], statistic=0.0, pvalue=1.0,
                   note="All items lie in one cluster, so the variation between clusters cannot be "
                        "estimated: the interval is the whole range and the p-value 1.")
        return out
    else:
        S = np.bincount(codes, weights=e, minlength=G)
        n_g = np.bincount(codes, minlength=G).astype(float)
        if method in ("cr1", "cr1_normal", "wild"):
            se = math.sqrt(G / (G - 1) * float(S @ S)) / N
            df = float(G - 1) if method == "cr1" else math.inf
        else:  # cr2, wilson
            se = math.sqrt(float(np.sum(S * S / ((N - n_g) / N)))) / N
            df = _bm_df(n_g)
    tz = t_inference(est, se, df=df, null=null, alternative=alternative, alpha=alpha)
    statistic = tz.statistic
    if method == "wild":
        boot = _WildBootstrap(y, codes, G, rng, n_boot, bootstrap_weights)
        low = est + boot.bound(bounds[0] - est, alpha)
        high = est + boot.bound(bounds[1] - est, alpha)
        pvalue = boot.pvalue(null - est)
        df = math.inf
    elif method == "wilson":
        if classic_wilson:  # one 0/1 sample per item, no clusters: a binomial proportion
            se, df = math.sqrt(est * (1 - est) / N), math.inf
            low, high = wilson_interval(est, float(N), z)
        else:
            low, high, n_eff = wilson_effective(est, se * se, df, n_obs, alpha, n_items=N)
            low, high = float(low), float(high)
            same = "" if 0 < est < 1 and se > 0 else (
                f"; every score is {est:g}, so it is the number of items, not of scores")
            out["note"] = (f"Effective sample size {float(n_eff):.1f} of {n_obs} 0/1 scores "
                           f"(design effect {n_obs / float(n_eff):.2f}{same}).")
        # the statistic of the item-level se, referred to the df of the interval's reference
        pvalue = t_inference(est, tz.se, df=df, null=null, alternative=alternative).pvalue
    else:
        low, high, pvalue, se = tz.low, tz.high, tz.pvalue, tz.se
        out["estimate"] = tz.estimate
    out.update(se=se, df=df, low=float(np.clip(low, *bounds)), high=float(np.clip(high, *bounds)),
               statistic=float(statistic), pvalue=min(1.0, pvalue))
    return out


def _join(*notes: str) -> str:
    return " ".join(n for n in notes if n)


# ------------------------------------------------------------------- item_mean
@renamed_keywords(n_boot="n_resamples")
def item_mean(
    scores: Any,
    *,
    clusters: Any = None,
    alpha: float = 0.05,
    method: str = "auto",
    missing: str = "raise",
    n_resamples: int = 999,
    bootstrap_weights: str = "webb",
    rng: Any = None,
) -> ItemMean:
    """Mean item score with a standard error and interval that respect clusters and small samples.

    The scores are reduced to one mean per item first (``scores`` 2-D: items x samples,
    NaN for a missing sample), then the mean of the item means is the estimate, and
    its variance is estimated from the cluster sums of the residuals.

    Methods (``V`` the variance of the estimate, ``N`` items, ``G`` clusters; without
    ``clusters`` each item is its own cluster, ``G = N``):

    ``"auto"`` (default)
        ``"wilson"`` when every score is 0 or 1 -- Wilson's own interval for one score per
        item and no clusters (as :func:`evallib.onetestset.accuracy_interval`),
        with the effective sample size otherwise; ``"cr2"`` for fractional scores, which
        without clusters *is* the item-level t interval with ``N - 1`` df. Why Wilson for
        0/1 scores even with clusters: measured with :func:`evallib.items.item_interval_coverage`
        (4,000 simulations, MC SE <= 0.006), at mean 0.5 (200 items in 8 clusters, ICC 0.1)
        CR2 covers 0.946 and Wilson 0.953, but near the boundary (mean 0.05) CR2 falls to
        0.85 while Wilson keeps 0.94, and with uneven clusters (two of 50 items, twenty of 5)
        at mean 0.1 it is 0.90 against 0.95, for intervals of about the same width.
    ``"naive"``
        the CLT interval with items taken as independent (clusters ignored):
        ``mean -/+ z s/sqrt(N)``. The textbook interval; it under-covers with clusters and
        with fewer than a few hundred items (Bowyer et al. 2025). Here for the lesson.
    ``"t"``
        as ``"naive"`` with the t quantile on ``N - 1`` df (clusters ignored).
    ``"cr1_normal"``, ``"cr1"``
        ``V = G/(G-1) sum S_g^2 / N^2``, statsmodels' convention for ``cov_type="cluster"``
        (``G/(G-1) (N-1)/(N-K)`` with ``K = 1``); a normal reference (statsmodels' default,
        ``use_t=False``) or t with ``G - 1`` df (Stata; statsmodels with ``use_t=True``).
    ``"cr2"``
        ``V = sum S_g^2 / (1 - n_g/N) / N^2`` (Bell & McCaffrey 2002) with the
        Bell–McCaffrey Satterthwaite df of :func:`bell_mccaffrey_df`. CR2 is unbiased
        when the errors are independent with equal variance, and its df track the
        imbalance of the cluster sizes, so it keeps the level with few or uneven
        clusters (Imbens & Kolesar 2016), where CR1 with a normal reference does not.
        With equal cluster sizes it equals CR1 with ``G - 1`` df.
    ``"wild"``
        the wild cluster bootstrap-t with the null imposed (Cameron, Gelbach & Miller
        2008), ``n_resamples`` draws of Webb's six-point (default) or Rademacher weights; the
        interval collects the values ``mu0`` the bootstrap test does not reject at
        ``alpha`` (test inversion, as boottest does: Roodman et al. 2019), found by
        bisection. ``se`` is the CR1 one the bootstrap studentises with.
    ``"wilson"``
        for 0/1 scores only: Wilson's interval; with clusters or several samples per item,
        with the effective sample size ``n_eff = p (1 - p) / V_CR2`` (capped at the number
        of 0/1 scores, so the design effect is at least 1; the number of items when every
        score is 0 or every score is 1, since identical answers to one item carry one
        item's information) adjusted for the
        Bell–McCaffrey df, ``n_eff (z / t_df)^2`` (Korn & Graubard 1998, in the form Dean &
        Pagano 2015 evaluate). It stays inside [0, 1] and keeps a positive width when
        every score is 0 or 1.

    Parameters
    ----------
    scores : array-like, shape (items,) or (items, samples)
        Scores in [0, 1] (0/1 correct or a fractional score). In 1-D a NaN marks an item
        with no score; in 2-D a NaN marks a missing sample and a row of NaN an item with
        no score. Booleans count as 0/1.
    clusters : sequence, optional
        One cluster label per item (the passage, school or source the item belongs to);
        any hashable labels, no NaN. A Series is matched to pandas ``scores`` by its
        index (:func:`evallib._validate.align_items`).
    alpha : float
        In (0, 1); the interval has nominal coverage ``1 - alpha``.
    method : str
        One of :data:`ITEM_MEAN_METHODS`.
    missing : {"raise", "drop"}
        What to do with items that have no score: refuse with a sentence giving their
        number (default) or drop them (``n_dropped`` records how many).
    n_resamples : int
        Bootstrap draws for ``"wild"`` (>= 99).
    bootstrap_weights : {"webb", "rademacher"}
        Weights of the wild bootstrap. Webb's six-point weights give ``6^G`` distinct
        draws instead of ``2^G``, which matters with fewer than about a dozen clusters
        (Webb 2023).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness of the wild bootstrap (the other methods are deterministic).

    Returns
    -------
    ItemMean
        ``estimate``, ``se``, ``low``, ``high``, ``alpha``, ``df``, ``method``,
        ``n_items``, ``n_clusters``, ``n_samples``, ``n_dropped``,
        ``unclustered_se``, ``note``; ``str(result)`` is one readable sentence.

    Notes
    -----
    Bounds are clipped to [0, 1]. Degenerate input: when every item has the same score
    the cluster-robust and t standard errors are 0 and the interval is the single point
    of the estimate (the Wilson interval keeps a positive width); when all items lie in
    one cluster the cluster-robust methods report an infinite standard error, the whole
    range [0, 1] and a note. At least two scored items are needed.

    References
    ----------
    .. [1] Bell, R. M. & McCaffrey, D. F. (2002). Bias reduction in standard errors for linear
       regression with multi-stage samples. *Survey Methodology* 28(2), 169-181.
    .. [2] Imbens, G. W. & Kolesar, M. (2016). Robust standard errors in small samples: some
       practical advice. *Review of Economics and Statistics* 98(4), 701-712.
    .. [3] Korn, E. L. & Graubard, B. I. (1998). Confidence intervals for proportions with small
       expected number of positive counts estimated from survey data. *Survey Methodology*
       24(2), 193-201.
       Dean, N. & Pagano, M. (2015). Evaluating confidence interval methods for binomial
       proportions in clustered surveys. *Journal of Survey Statistics and Methodology*
       3(4), 484-503.
    .. [4] Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements
       for inference with clustered errors. *Review of Economics and Statistics* 90(3), 414-427.
    .. [5] Roodman, D., MacKinnon, J. G., Nielsen, M. O. & Webb, M. D. (2019). Fast and wild:
       bootstrap inference in Stata using boottest. *Stata Journal* 19(1), 4-60.
    .. [6] Webb, M. D. (2023). Reworking wild bootstrap-based inference for clustered errors.
       *Canadian Journal of Economics* 56(3), 839-858.
    .. [7] Bowyer, S., Aitchison, L. & Ivanova, D. R. (2025). Position: Don't use the CLT in LLM
       evals with fewer than a few hundred datapoints. ICML 2025, arXiv:2503.01747.
    .. [8] Miller, E. (2024). Adding error bars to evals. arXiv:2411.00640.

    Examples
    --------
    Eight items in three passages: the cluster-robust standard error is larger than the
    naive one, and its t reference has fewer degrees of freedom (Bell–McCaffrey).

    >>> from evallib.items import item_mean
    >>> scores = [1, 1, 1, 0, 0, 0, 1, 0]
    >>> passage = ["p1", "p1", "p1", "p2", "p2", "p2", "p3", "p3"]
    >>> res = item_mean(scores, clusters=passage, method="cr2")
    >>> round(res.estimate, 3), round(res.df, 2)
    (0.5, 1.92)
    >>> res.se > item_mean(scores, method="naive").se
    True
    >>> item_mean(scores, clusters=passage).method   # 0/1 scores: Wilson with the effective n
    'wilson'

    Items answered three times (a NaN where a sample is missing): item means first.

    >>> item_mean([[1, 1, 0], [0, 0, float("nan")], [1, 1, 1], [0, 1, 0]]).estimate
    0.5
    """
    method, alpha, missing, n_resamples, bootstrap_weights, rng = _check_options(
        method, ITEM_MEAN_METHODS, alpha, missing, n_resamples, bootstrap_weights, rng)
    scores, clusters = align_items([("scores", scores), ("clusters", clusters)])
    arr = _check_scores(scores, "scores")
    y, counts = _item_means(arr)
    labels = _check_clusters(clusters, y.shape[0])
    absent = counts == 0
    n_dropped, keep, note = 0, None, ""
    if absent.any():
        k = int(absent.sum())
        if missing == "raise":
            raise ValueError(f"scores has no score for {k} of {y.shape[0]} items; pass missing='drop' "
                             f"to analyse the {y.shape[0] - k} scored items")
        n_dropped, keep = k, ~absent
        y, counts, arr = y[keep], counts[keep], arr[keep]
        note = f"Dropped {k} item{'s' if k > 1 else ''} with no score."
    if y.shape[0] < 2:
        raise ValueError(f"scores must hold at least 2 scored items to estimate a standard error, got {y.shape[0]}")
    codes, G = _codes(labels, keep, y.shape[0])
    binary = _is_binary(arr)
    single = bool(np.all(counts == 1))
    if method == "auto":
        method = "wilson" if binary else "cr2"
    if method == "wilson" and not binary:
        raise ValueError("method='wilson' needs 0/1 scores (a proportion); use method='cr2' for fractional scores")
    res = _analyse(y, codes, G, method, alpha, bounds=(0.0, 1.0), rng=rng, n_boot=n_resamples,
                   bootstrap_weights=bootstrap_weights, n_obs=int(counts.sum()),
                   classic_wilson=single and labels is None)
    if labels is not None and method in ("naive", "t"):
        note = _join(note, f"The clusters were ignored (method '{method}' takes the items as independent).")
    return ItemMean(estimate=res["estimate"], se=res["se"], low=res["low"], high=res["high"],
                    alpha=alpha, df=res["df"], method=method, n_items=int(y.shape[0]),
                    n_clusters=int(G),
                    n_samples=float(counts.mean()), n_dropped=n_dropped,
                    unclustered_se=res["unclustered_se"], note=_join(note, res["note"]))


# ------------------------------------------------------- paired_item_difference
@renamed_keywords(n_boot="n_resamples")
def paired_item_difference(
    a: Any,
    b: Any,
    *,
    clusters: Any = None,
    alpha: float = 0.05,
    method: str = "auto",
    missing: str = "raise",
    n_resamples: int = 999,
    bootstrap_weights: str = "webb",
    rng: Any = None,
    alternative: str = "two-sided",
) -> PairedItemDifference:
    """Paired mean difference ``a - b`` of two models over the same items, clustered if need be.

    Both models' scores are reduced to item means first (each may be items x samples,
    with its own number of samples); the analysis then runs on the per-item differences
    ``d_i = a_i - b_i``, with the methods of :func:`item_mean` (the mean of ``d`` is an
    intercept, so CR1, CR2 and the Bell–McCaffrey df apply unchanged), and tests
    H0: no difference.

    ``"auto"`` (default) uses, for one 0/1 score per item from each model and no clusters,
    ``"mcnemar"``: the mid-p McNemar test of
    :func:`evallib.onetestset.mcnemar` (``method="mid-p"``) for the p-value and the
    Bonett–Price interval of :func:`evallib.onetestset.paired_difference_interval`
    -- the recommendations of Fagerland, Lydersen & Laake (2013, 2014); the two are
    separate procedures and may disagree at the margin. Otherwise it uses ``"cr2"``,
    which without clusters is the paired t interval and test on ``n - 1`` df.

    The result also reports ``unclustered_se`` (the paired SE with the items taken
    as independent) and ``unpaired_se`` (the SE of an unpaired two-sample
    analysis, ``sqrt(s_a^2/n + s_b^2/n)``): the two mistakes the lesson shows.

    Parameters
    ----------
    a, b : array-like, shape (items,) or (items, samples)
        The two models' scores in [0, 1] on the same items, in the same order (one row
        per item); NaN marks a missing sample, a row of NaN (or a NaN in 1-D) an item
        the model has no score for. pandas inputs are paired by their index (each item
        once, the same items in both), not by position
        (:func:`evallib._validate.align_items`).
    clusters : sequence, optional
        One cluster label per item, shared by ``a`` and ``b`` (a cluster is a property of
        the item). A pair ``(labels_a, labels_b)`` or a two-entry mapping is accepted only
        when both give the same label to every item; otherwise it is refused with a
        sentence that counts the disagreements.
    alpha : float
        In (0, 1).
    method : str
        One of :data:`PAIRED_ITEM_METHODS`; see :func:`item_mean` for ``"naive"``, ``"t"``,
        ``"cr1_normal"``, ``"cr1"``, ``"cr2"`` and ``"wild"`` (whose p-value is the
        bootstrap test of H0 with the null imposed). ``"mcnemar"`` needs one 0/1 score per
        item from each model and no clusters.
    missing : {"raise", "drop"}
        Items that either model has no score for: refuse with a sentence giving how many
        (default), or drop them (``n_dropped``).
    n_resamples, bootstrap_weights, rng
        As in :func:`item_mean` (used by ``"wild"`` only).
    alternative : {"two-sided", "less", "greater"}
        H1: the models' mean scores differ (default), ``a``'s is lower (``"less"``) or
        higher (``"greater"``), scipy's spelling. A one-sided test comes with the
        one-sided interval (``[low, 1]`` for ``"greater"``, ``[-1, high]`` for ``"less"``);
        ``"mcnemar"`` then uses the one-sided mid-p test and one side of the
        Bonett–Price interval at level ``1 - 2 alpha``. ``"wild"`` is two-sided only.

    Returns
    -------
    PairedItemDifference
        ``estimate``, ``se``, ``low``, ``high``, ``statistic``, ``pvalue``,
        ``reject``, ``alpha``, ``df``, ``method``, ``n_items``, ``n_clusters``,
        ``n_dropped``, ``mean_a``, ``mean_b``, ``correlation``,
        ``unclustered_se``, ``unpaired_se``, ``note``, ``alternative``.

    Notes
    -----
    Bounds are clipped to [-1, 1]. Degenerate input: when ``a`` and ``b`` agree on every
    item the standard error is 0, the interval the point 0 and the p-value 1 (McNemar:
    ``p = 1`` and Bonett–Price's interval around 0); when every difference is the same
    non-zero number the standard error is 0, the statistic infinite and the p-value 0;
    with all items in one cluster the cluster-robust methods report an infinite
    standard error, the interval [-1, 1] and ``p = 1``.

    References
    ----------
    .. [1] Miller, E. (2024). Adding error bars to evals. arXiv:2411.00640, sec. 4.
    .. [2] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional.
       *BMC Medical Research Methodology* 13, 91.
    .. [3] Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
       difference of binomial proportions based on paired data. *Journal of Educational and
       Behavioral Statistics* 37, 479-488.
    .. [4] Bell, R. M. & McCaffrey, D. F. (2002). *Survey Methodology* 28(2), 169-181.
    .. [5] Imbens, G. W. & Kolesar, M. (2016). *Review of Economics and Statistics* 98(4),
       701-712.

    Examples
    --------
    Ten items answered once by each model: McNemar's mid-p test and the Bonett–Price interval.

    >>> from evallib.items import paired_item_difference
    >>> a = [1, 1, 1, 1, 1, 1, 0, 1, 1, 0]
    >>> b = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0]
    >>> res = paired_item_difference(a, b)
    >>> res.method, round(res.estimate, 2), round(res.pvalue, 3)
    ('mcnemar', 0.4, 0.062)

    The same items in five clusters of two: CR2 with Bell–McCaffrey df.

    >>> res = paired_item_difference(a, b, clusters=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5])
    >>> res.method, res.df
    ('cr2', 4.0)
    """
    method, alpha, missing, n_resamples, bootstrap_weights, rng = _check_options(
        method, PAIRED_ITEM_METHODS, alpha, missing, n_resamples, bootstrap_weights, rng)
    alternative = check_alternative(alternative)
    if alternative != "two-sided" and method == "wild":
        raise ValueError(f"alternative={alternative!r} is not available with method='wild' (its bootstrap "
                         "test and interval are two-sided); use alternative='two-sided' or method='cr2'")
    a, b, clusters = align_items([("a", a), ("b", b), ("clusters", clusters)])
    arr_a, arr_b = _check_scores(a, "a"), _check_scores(b, "b")
    if arr_a.shape[0] != arr_b.shape[0]:
        raise ValueError(f"a has {arr_a.shape[0]} items but b has {arr_b.shape[0]}; both models must be "
                         "scored on the same items, one row per item in the same order")
    ya, ca = _item_means(arr_a)
    yb, cb = _item_means(arr_b)
    n_all = ya.shape[0]
    labels = _check_clusters(clusters, n_all, paired=True)
    absent = (ca == 0) | (cb == 0)
    n_dropped, keep, note = 0, None, ""
    if absent.any():
        k, ka, kb = int(absent.sum()), int((ca == 0).sum()), int((cb == 0).sum())
        if missing == "raise":
            raise ValueError(f"{ka} items have no score from a and {kb} from b ({k} of {n_all} items in all); "
                             f"pass missing='drop' to compare the {n_all - k} items both models scored")
        n_dropped, keep = k, ~absent
        ya, yb, ca, cb, arr_a, arr_b = ya[keep], yb[keep], ca[keep], cb[keep], arr_a[keep], arr_b[keep]
        note = f"Dropped {k} item{'s' if k > 1 else ''} that a or b has no score for."
    n = ya.shape[0]
    if n < 2:
        raise ValueError(f"a and b must share at least 2 scored items to estimate a standard error, got {n}")
    codes, G = _codes(labels, keep, n)
    binary_single = (_is_binary(arr_a) and _is_binary(arr_b) and bool(np.all(ca == 1)) and bool(np.all(cb == 1)))
    if method == "auto":
        method = "mcnemar" if (binary_single and labels is None) else "cr2"
    if method == "mcnemar":
        if not binary_single:
            raise ValueError("method='mcnemar' needs one 0/1 score per item from each model; "
                             "use method='cr2' for fractional scores or several samples")
        if labels is not None:
            raise ValueError("method='mcnemar' takes the items as independent; with clusters use "
                             "method='cr2' (or 'wild')")
    d = ya - yb
    res = _analyse(d, codes, G, "t" if method == "mcnemar" else method, alpha, bounds=(-1.0, 1.0), null=0.0,
                   rng=rng, n_boot=n_resamples, bootstrap_weights=bootstrap_weights, alternative=alternative)
    if method == "mcnemar":
        n10 = int(np.count_nonzero((ya == 1) & (yb == 0)))
        n01 = int(np.count_nonzero((ya == 0) & (yb == 1)))
        n11 = int(np.count_nonzero((ya == 1) & (yb == 1)))
        # pairwise's table counts errors: b = a wrong only (n01), c = b wrong only (n10); its interval
        # is for error_a - error_b = (n01 - n10)/n, the negative of accuracy_a - accuracy_b, and its
        # "greater" (p_b > p_c: a errs more) is this difference's "less".
        test = mcnemar(n01, n10, method="mid-p", alternative=_FLIPPED[alternative])
        two_sided = alternative == "two-sided"
        if not two_sided and alpha >= 0.5:
            raise ValueError(f"alpha must be below 0.5 for a one-sided Bonett–Price interval "
                             f"(the two-sided one at 1 - 2 alpha), got {alpha!r}")
        ci = paired_difference_interval(Contingency(a=n11, b=n01, c=n10, d=n - n11 - n01 - n10, n=n),
                                        method="bonett_price", alpha=alpha if two_sided else 2.0 * alpha)
        res.update(low=-ci.high if alternative != "less" else -1.0,
                   high=-ci.low if alternative != "greater" else 1.0,
                   statistic=test.statistic, pvalue=test.pvalue, df=math.inf)
    if labels is not None and method in ("naive", "t"):
        note = _join(note, f"The clusters were ignored (method '{method}' takes the items as independent).")
    sa, sb = float(np.std(ya, ddof=1)), float(np.std(yb, ddof=1))
    correlation = float(np.corrcoef(ya, yb)[0, 1]) if sa > 0 and sb > 0 else 0.0
    return PairedItemDifference(
        estimate=res["estimate"], se=res["se"], low=res["low"], high=res["high"],
        statistic=float(res["statistic"]), pvalue=float(res["pvalue"]), reject=bool(res["pvalue"] <= alpha),
        alpha=alpha, df=res["df"], method=method, n_items=n, n_clusters=int(G), n_dropped=n_dropped,
        mean_a=float(ya.mean()), mean_b=float(yb.mean()), correlation=correlation,
        unclustered_se=res["unclustered_se"], unpaired_se=math.sqrt((sa * sa + sb * sb) / n),
        note=_join(note, res["note"]), alternative=alternative)


# ----------------------------------------------------------- variance_components
#: A mean square of scores in [0, 1] below this is floating-point rounding (a spread below 1e-12).
_ROUNDING_VARIANCE = 1e-24


def variance_components(scores_2d: Any, *, clusters: Any = None, missing: str = "raise") -> VarianceComponents:
    """Between-item and within-item variance of items x K samples (one-way ANOVA, method of moments).

    The one-way random-effects model ``y_ik = mu + b_i + e_ik`` with ``Var(b_i) = sigma_b^2``
    (how much the items' true scores differ) and ``Var(e_ik) = sigma_w^2`` (how much one
    answer varies around its item's true score). With ``K_i`` samples of item ``i``
    (unequal allowed: NaN marks a missing sample), ``N = sum K_i`` and ``n`` items, the
    ANOVA estimators (Searle, Casella & McCulloch 1992, sec. 3.5) are

    ``MSW = sum_i sum_k (y_ik - ybar_i)^2 / (N - n)``,
    ``MSB = sum_i K_i (ybar_i - ybar)^2 / (n - 1)``, ``ybar = sum_ik y_ik / N``,

    ``sigma_w^2 = MSW`` and ``sigma_b^2 = (MSB - MSW) / K0`` with
    ``K0 = (N - sum K_i^2 / N) / (n - 1)`` (``K0 = K`` when balanced). A negative
    ``sigma_b^2`` is truncated at 0 (so ``icc`` is 0) and the result says so: ``truncated``,
    ``note``, and ``icc_raw``, the between-item share before the truncation.

    The mean of the item means has variance ``(sigma_b^2 + sigma_w^2 mean(1/K_i)) / n``:
    the within part shrinks like ``1/K``, the between part does not, so more samples per
    item stop paying once ``sigma_w^2 / K`` is small beside ``sigma_b^2``; only more items
    shrink ``sigma_b^2 / n`` (Miller 2024, sec. 3). :meth:`VarianceComponents.table` gives
    the variance and standard error for K = 1, 2, 4, 8, 16.

    With ``clusters`` (items that share a passage or source), the items' true scores are
    correlated within a cluster, and ``sigma_b^2 / n`` understates what more samples cannot
    remove. The clustered variance of the mean, ``V_c = item_mean(scores_2d, clusters=).se^2``,
    estimates ``Var(mean of true scores) + sigma_w^2 mean(1/K_i) / n``: a cluster's sum of
    item means is its items' true scores plus their sampling noise, and that noise is
    independent from item to item, so it adds ``sigma_w^2 / K_i`` per item to the cluster sums'
    variance whatever the clusters. The floor is therefore
    ``var_floor = V_c - sigma_w^2 mean(1/K_i) / n`` (truncated at 0), and with ``K`` samples per
    item the variance is ``var_floor + sigma_w^2 / (K n)``.

    Parameters
    ----------
    scores_2d : array-like, shape (items, samples)
        Scores in [0, 1]; NaN for a missing sample. At least two items, and at least one
        item with two or more samples (else the within-item variance is not identified).
    clusters : sequence, optional
        One cluster label per item; the standard error and its floor are then the clustered
        ones (:func:`item_mean`'s ``"cr2"``). A Series is matched to pandas ``scores_2d`` by its
        index (:func:`evallib._validate.align_items`).
    missing : {"raise", "drop"}
        Items with no sample at all: refuse (default) or drop them.

    Returns
    -------
    VarianceComponents
        ``between``, ``within``, ``icc``, ``mean``, ``n_items``, ``samples``,
        ``inverse_samples``, ``var_mean``, ``se``, ``var_floor``, ``truncated``, ``icc_raw``,
        ``n_dropped``, ``note``, ``n_clusters``; ``.table()`` and ``.variance_of_mean(K)``.

    References
    ----------
    .. [1] Searle, S. R., Casella, G. & McCulloch, C. E. (1992). *Variance Components*.
       Wiley, sections 3.5 and 3.6 (the unbalanced one-way classification).
    .. [2] Miller, E. (2024). Adding error bars to evals. arXiv:2411.00640, sec. 3
       (resampling answers to reduce the within-question variance).

    Examples
    --------
    Four items, two samples each:

    >>> from evallib.items import variance_components
    >>> vc = variance_components([[1, 1], [0, 0], [1, 0], [0, 1]])
    >>> round(vc.between, 4), round(vc.within, 4)
    (0.0417, 0.25)
    >>> vc.table(samples=(1, 2, 4))["samples"].tolist()
    [1, 2, 4]

    Four items in two passages of two: item means 1, 1, 0 and 0.5 around 0.625, so the passages'
    residual sums are +0.75 and -0.75, and CR2 (leverage 1/2 per passage) gives the clustered
    variance ``2 * (0.75^2 + 0.75^2) / 4^2 = 0.1406``. The floor is that less the noise
    ``within * mean(1/K) / n = 0.125 * 0.5 / 4 = 0.0156``:

    >>> vc = variance_components([[1, 1], [1, 1], [0, 0], [1, 0]], clusters=["p", "p", "q", "q"])
    >>> round(vc.se ** 2, 4), round(vc.var_floor, 4)
    (0.1406, 0.125)
    """
    missing = check_choice(missing, "missing", _MISSING)
    scores_2d, clusters = align_items([("scores_2d", scores_2d), ("clusters", clusters)])
    arr = _check_scores(scores_2d, "scores_2d")
    if arr.ndim != 2:
        raise ValueError(f"scores_2d must be 2-D (items x samples), got shape {arr.shape}")
    y, counts = _item_means(arr)
    absent = counts == 0
    n_dropped, note = 0, ""
    if absent.any():
        k = int(absent.sum())
        if missing == "raise":
            raise ValueError(f"scores_2d has no sample for {k} of {y.shape[0]} items; pass missing='drop' "
                             f"to analyse the {y.shape[0] - k} sampled items")
        keep = ~absent
        y, counts, arr, n_dropped = y[keep], counts[keep], arr[keep], k
        clusters = None if clusters is None else np.asarray(clusters, dtype=object)[keep]
        note = f"Dropped {k} item{'s' if k > 1 else ''} with no sample."
    n, N = int(y.shape[0]), int(counts.sum())
    if n < 2:
        raise ValueError(f"scores_2d must hold at least 2 items with a sample, got {n}")
    if N == n:
        raise ValueError("scores_2d must hold at least one item with two or more samples to estimate the "
                         "within-item variance; every item has one")
    k_i = counts.astype(float)
    grand = float(np.sum(k_i * y) / N)
    dev = np.where(np.isnan(arr), 0.0, arr - y[:, None])
    msw = float(np.sum(dev * dev)) / (N - n)
    msb = float(np.sum(k_i * (y - grand) ** 2)) / (n - 1)
    k0 = (N - float(np.sum(k_i * k_i)) / N) / (n - 1)
    # scores lie in [0, 1]: a mean square below 1e-24 (a spread below 1e-12) is rounding, not
    # variance, so identical scores give 0 and 0 rather than a "negative" rounding residue
    msw, msb = (0.0 if v < _ROUNDING_VARIANCE else v for v in (msw, msb))
    between = (msb - msw) / k0
    raw_total = between + msw   # = (MSB + (K0 - 1) MSW) / K0
    icc_raw = between / raw_total if raw_total > 0 else math.nan   # no variance to split
    truncated = between < 0
    if truncated:
        note = _join(note, f"The method-of-moments between-item variance (MSB - MSW)/K0 = {between:.3g} was "
                           "negative and is truncated at 0: the items differ no more than their samples' noise.")
        between = 0.0
    total = between + msw
    inverse = float(np.mean(1.0 / k_i))
    noise = msw * inverse / n
    n_clusters = None
    if clusters is None:
        var_floor = between / n
    else:
        fit = item_mean(arr, clusters=clusters, method="cr2")
        n_clusters = fit.n_clusters
        var_floor = max(fit.se * fit.se - noise, 0.0)
        if fit.se * fit.se < noise:
            note = _join(note, f"The clustered variance of the mean ({fit.se * fit.se:.3g}) is below the "
                               f"within-item noise alone ({noise:.3g}); the floor is truncated at 0.")
    var_mean = var_floor + noise
    if total == 0:
        note = _join(note, "Every score is the same, so both variances are 0 and the between-item share "
                           "(ICC) is undefined.")
    return VarianceComponents(between=float(between), within=msw, icc=between / total if total > 0 else math.nan,
                              mean=float(y.mean()), n_items=n, samples=float(k_i.mean()), inverse_samples=inverse,
                              var_mean=var_mean, se=math.sqrt(var_mean), var_floor=float(var_floor),
                              truncated=bool(truncated), icc_raw=float(icc_raw), n_dropped=n_dropped, note=note, n_clusters=n_clusters)
