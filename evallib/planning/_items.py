"""Planning design 4, per-item evaluation: Miller's (2024) power analysis for the paired
difference of two models' mean item scores, items in clusters, K answers per item.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._paired import _check_margin
from .._plotting import get_axes
from .._power import _check_power
from .._validate import check_alpha, check_choice, check_count, check_real
from ..onetestset import MARGIN_HYPOTHESES

__all__ = ['ITEM_METHODS', 'ItemSampleSize', 'item_difference_variance', 'item_minimum_detectable_difference', 'item_power', 'item_sample_size', 'plot_item_sample_size']


# ------------------------------------------------------ per-item evaluation (design 4)
#: the tests :func:`item_sample_size` and its relatives plan for.
ITEM_METHODS = ("normal", "t")


@dataclass(frozen=True)
class _ItemVariance:
    """The parts of the variance model, checked (see :func:`item_difference_variance`)."""

    between: float        # omega^2 = sd_a^2 + sd_b^2 - 2 rho sd_a sd_b
    within: float         # (within_sd_a^2 + within_sd_b^2) / samples
    design_effect: float  # Kish: 1 + (cluster_size - 1) icc
    samples: int
    cluster_size: int

    @property
    def total(self) -> float:
        """``n`` times the variance of the mean difference over ``n`` items."""
        return self.between * self.design_effect + self.within


def _check_score_sd(sd: Any, within: Any, sd_name: str, within_name: str, model: str) -> tuple[float, float]:
    sd = check_real(sd, sd_name, low=0.0, high=0.5,
                    note=f"SD across items of model {model}'s expected item score; a score in [0, 1] has SD <= 0.5")
    within = check_real(within, within_name, low=0.0, high=0.5,
                        note=f"SD of one answer of model {model} around its expected score on the item")
    if sd * sd + within * within > 0.25 + 1e-12:
        raise ValueError(f"{sd_name}**2 + {within_name}**2 must not exceed 0.25 (it is the variance of one "
                         f"answer's score, and a score in [0, 1] has variance at most 1/4), got "
                         f"{sd * sd + within * within:g}")
    return sd, within


def _item_variance(sd_a: Any, sd_b: Any, correlation: Any, within_sd_a: Any, within_sd_b: Any,
                   samples: Any, cluster_size: Any, icc: Any) -> _ItemVariance:
    sd_a, within_sd_a = _check_score_sd(sd_a, within_sd_a, "sd_a", "within_sd_a", "A")
    sd_b, within_sd_b = _check_score_sd(sd_a if sd_b is None else sd_b,
                                        within_sd_a if within_sd_b is None else within_sd_b,
                                        "sd_b", "within_sd_b", "B")
    rho = check_real(correlation, "correlation", low=-1.0, high=1.0,
                     note="of the two models' expected item scores across items")
    k = check_count(samples, "samples", minimum=1)
    m = check_count(cluster_size, "cluster_size", minimum=1)
    icc = check_real(icc, "icc", low=0.0, high=1.0,
                     note="correlation of two items' expected score differences within one cluster")
    between = max(sd_a * sd_a + sd_b * sd_b - 2.0 * rho * sd_a * sd_b, 0.0)
    within = (within_sd_a * within_sd_a + within_sd_b * within_sd_b) / k
    return _ItemVariance(between=between, within=within, design_effect=1.0 + (m - 1) * icc,
                         samples=k, cluster_size=m)


def item_difference_variance(*, sd_a: float, sd_b: float | None = None, correlation: float,
                             within_sd_a: float = 0.0, within_sd_b: float | None = None, samples: int = 1,
                             cluster_size: int = 1, icc: float = 0.0) -> float:
    """The variance that plans a paired comparison of two models on the same items.

    The model (Miller 2024, sections on resampling, clustering and power analysis). Item
    ``i`` has an *expected score* under each model, ``x_A(i)`` and ``x_B(i)``: the mean
    of the model's score on it over infinitely many answers (for 0/1 scoring, the
    probability that the model answers it correctly). Across the population of items
    these have standard deviations ``sd_a`` and ``sd_b`` and correlation
    ``correlation``. One answer scores its expected score plus noise of standard
    deviation ``within_sd_a`` (``within_sd_b``) - Miller's ``sigma_A = sqrt(E[sigma_i^2])``,
    the root mean within-item variance (for 0/1 scoring ``within_sd_a^2 = E[x_A (1 - x_A)]``).
    Each model answers each item ``samples = K`` times, independently given the item, and
    the item's observed difference is ``d(i) = mean of A's K scores - mean of B's K scores``.
    Items come in clusters of ``cluster_size = m`` (questions on one passage); ``icc``
    is the correlation between the expected differences ``x_A(i) - x_B(i)`` of two items
    of the same cluster (the share of their variance that lies between clusters); the
    noise of separate answers is independent across items. Then the mean difference over
    ``n`` items (``n / m`` whole clusters) has variance ``V / n`` with

    ``V = omega^2 (1 + (m - 1) icc) + (within_sd_a^2 + within_sd_b^2) / K``,

    ``omega^2 = sd_a^2 + sd_b^2 - 2 correlation sd_a sd_b``. Returned is ``V``. With
    ``m = 1`` it is Miller's ``omega^2 + sigma_A^2 / K_A + sigma_B^2 / K_B`` (``K_A = K_B = K``);
    ``1 + (m - 1) icc`` is Kish's (1965) design effect, and it multiplies the between-item
    part only because the answers' noise does not cluster.

    Parameters
    ----------
    sd_a : float
        SD across items of model A's expected item score, in [0, 0.5].
    sd_b : float, optional
        The same for model B; default ``sd_a``.
    correlation : float
        Correlation across items of the two models' expected item scores, in [-1, 1]
        (high when the same items are hard for both).
    within_sd_a : float
        SD of one answer's score around model A's expected score on the item, in
        [0, 0.5]; 0 for deterministic answers (greedy decoding, next-token probabilities).
        ``sd_a**2 + within_sd_a**2`` (the variance of one answer's score) is at most 0.25.
    within_sd_b : float, optional
        The same for model B; default ``within_sd_a``.
    samples : int
        ``K``, answers per item and model, ``>= 1``.
    cluster_size : int
        Items per cluster, ``>= 1`` (1: independent items).
    icc : float
        Intra-cluster correlation of the expected differences, in [0, 1]; without
        effect when ``cluster_size = 1``.

    Returns
    -------
    float
        ``V``, ``n`` times the variance of the mean paired difference over ``n`` items.

    Notes
    -----
    For 0/1 scores and ``K = 1`` the variance of one item's difference is also
    ``p_b + p_c - (p_b - p_c)^2`` in McNemar's notation (the law of total variance, with
    the two models' answers independent given the item), the variance Connor's (1987)
    formula uses under the alternative. The intra-cluster correlation of the *observed*
    differences is ``icc omega^2 / (omega^2 + (within_sd_a^2 + within_sd_b^2) / K)``: it
    grows with ``K``, the ``icc`` here does not.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640 (the paired variance ``omega^2``, the conditional
    variances ``sigma^2`` and resampling ``K`` times; section on power analysis).
    Kish, L. (1965). *Survey Sampling*. Wiley (the design effect ``1 + (m - 1) rho``).

    Examples
    --------
    ``omega^2 = 0.09 + 0.09 - 2 (0.5)(0.3)(0.3) = 0.09``; the answers' noise adds
    ``(0.09 + 0.09) / K``; clusters of 5 with ``icc = 0.25`` double the first part:

    >>> round(item_difference_variance(sd_a=0.3, correlation=0.5, within_sd_a=0.3), 6)
    0.27
    >>> round(item_difference_variance(sd_a=0.3, correlation=0.5, within_sd_a=0.3, samples=4), 6)
    0.135
    >>> round(item_difference_variance(sd_a=0.3, correlation=0.5, within_sd_a=0.3, samples=4,
    ...                                cluster_size=5, icc=0.25), 6)
    0.225
    """
    return _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc).total


def _check_item_difference(difference: Any, *, nonzero: bool) -> float:
    difference = check_real(difference, "difference", low=-1.0, high=1.0,
                            note="mean score of A minus mean score of B, scores in [0, 1]")
    if nonzero and difference == 0.0:
        raise ValueError("difference must not be 0: there is no difference to detect, and no number of "
                         "items reaches a power above alpha")
    return difference


def _unit_power(units: float, delta: float, unit_variance: float, alpha: float, method: str) -> float:
    """Two-sided power of the paired test on ``units`` independent unit means (items or clusters).

    ``normal``: ``Phi(s - z) + Phi(-s - z)``, ``s = |delta| sqrt(units / unit_variance)``;
    ``t``: the noncentral t with ``units - 1`` degrees of freedom and noncentrality ``s``.
    """
    if unit_variance == 0.0:
        return alpha if delta == 0.0 else 1.0
    shift = abs(delta) * math.sqrt(units / unit_variance)
    if method == "normal":
        z = stats.norm.isf(alpha / 2.0)
        return float(stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z))
    df = units - 1.0
    crit = stats.t.isf(alpha / 2.0, df)
    # scipy's noncentral t returns NaN for the far tail when the noncentrality is large (>= 10 or
    # so); that tail, below P(T < 0) = Phi(-noncentrality), is then 0 to double precision
    far = float(stats.nct.cdf(-crit, df, shift))
    return float(min(1.0, stats.nct.sf(crit, df, shift) + (far if math.isfinite(far) else 0.0)))


def _normal_units(delta: float, unit_variance: Any, alpha: float, power: float) -> Any:
    """Miller's ``(z_{alpha/2} + z_beta)^2 V / delta^2``, in units, rounded up, at least 2."""
    z = max(float(stats.norm.isf(alpha / 2.0) + stats.norm.ppf(power)), 0.0)
    raw = z * z * np.asarray(unit_variance, dtype=float) / (delta * delta)
    return np.maximum(2, np.ceil(raw - 1e-9)).astype(np.int64)


@dataclass(frozen=True)
class ItemSampleSize:
    """Items (and clusters) a paired per-item comparison needs; :func:`item_sample_size`'s answer.

    Attributes
    ----------
    n_items : items to evaluate, a whole number of clusters (``n_clusters * cluster_size``).
    n_clusters : clusters to evaluate (``n_items`` when ``cluster_size = 1``).
    cluster_size : items per cluster.
    samples : answers per item and model (``K``).
    difference : the difference of mean scores to detect.
    variance : ``V`` of :func:`item_difference_variance` (``n`` times the variance of the
        mean difference over ``n`` items).
    design_effect : Kish's ``1 + (cluster_size - 1) icc`` on the between-item variance.
    power : the target power.
    achieved_power : the power at ``n_items`` under ``method``'s test (at least ``power``
        for ``"t"``; for ``"normal"``, Miller's formula ignores the far tail, so at least
        ``power`` too).
    alpha : the two-sided level.
    method : ``"normal"`` (Miller's normal approximation) or ``"t"`` (the paired t-test
        on the item, or cluster, means).
    """

    n_items: int
    n_clusters: int
    cluster_size: int
    samples: int
    difference: float
    variance: float
    design_effect: float
    power: float
    achieved_power: float
    alpha: float
    method: str

    def describe(self) -> str:
        """One sentence: how many items, in which design, detect the difference with what power.

        Returns
        -------
        str
            The sentence.

        Examples
        --------
        >>> plan = item_sample_size(0.03, sd_a=0.3, correlation=0.5, within_sd_a=0.3, samples=4,
        ...                         cluster_size=5, icc=0.25)
        >>> print(plan.describe())  # doctest: +NORMALIZE_WHITESPACE
        1965 items in 393 clusters of 5, each answered 4 times by each model, detect a difference
        of 0.03 in mean score with power 0.801 (target 0.8) at alpha = 0.05, by the two-sided
        paired z-test (Miller's normal approximation); variance per item 0.225, design effect 2.
        """
        where = f"{self.n_items} items"
        if self.cluster_size > 1:
            where += f" in {self.n_clusters} clusters of {self.cluster_size}"
        if self.samples > 1:
            where += f", each answered {self.samples} times by each model,"
        test = ("the two-sided paired z-test (Miller's normal approximation)" if self.method == "normal" else
                f"the two-sided paired t-test on the {self.n_clusters} "
                + ("cluster means" if self.cluster_size > 1 else "item differences"))
        extra = f", design effect {self.design_effect:.3g}" if self.cluster_size > 1 else ""
        return (f"{where} detect a difference of {abs(self.difference):.3g} in mean score with power "
                f"{self.achieved_power:.3f} (target {self.power:g}) at alpha = {self.alpha:g}, by {test}; "
                f"variance per item {self.variance:.4g}{extra}.")


def _check_n_items(n_items: Any, cluster_size: int) -> int:
    need = 2 * cluster_size
    n = check_count(n_items, "n_items", minimum=0)
    if n < need:
        raise ValueError(f"n_items must be a whole number >= {need} (at least two clusters of cluster_size = "
                         f"{cluster_size} items: one leaves no standard error to estimate), got {n}")
    return n


def item_power(n_items: int, difference: float, *, sd_a: float, sd_b: float | None = None,
               correlation: float, within_sd_a: float = 0.0, within_sd_b: float | None = None,
               samples: int = 1, cluster_size: int = 1, icc: float = 0.0, alpha: float = 0.05,
               method: str = "normal") -> float:
    """Power of the paired comparison of two models on ``n_items`` items.

    The mean paired difference over ``n`` items has variance ``V / n``
    (:func:`item_difference_variance`). ``"normal"``: the z-test with that variance known,
    ``Phi(s - z_{alpha/2}) + Phi(-s - z_{alpha/2})`` with ``s = |difference| sqrt(n / V)``
    (Miller 2024, power analysis; both tails counted). ``"t"``: the paired t-test on the
    ``J = n / cluster_size`` cluster means (item differences when ``cluster_size = 1``),
    the noncentral t with ``J - 1`` degrees of freedom and noncentrality ``s`` - the test
    a cluster-robust analysis on ``J`` clusters amounts to.

    Parameters
    ----------
    n_items : int
        Items, ``>= 2 * cluster_size`` (at least two clusters: one leaves no standard
        error to estimate).
    difference : float
        Mean score of A minus mean score of B, in [-1, 1]; 0 gives the test's size.
    sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc
        The variance model, as in :func:`item_difference_variance`.
    alpha : float
        Two-sided level, in (0, 1).
    method : {"normal", "t"}

    Returns
    -------
    float
        When ``V = 0`` (every item shows the same difference, observed without noise):
        1 if ``difference != 0``, else ``alpha``.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640 (section on power analysis).

    Examples
    --------
    ``V = 0.27`` (see :func:`item_difference_variance`), 2355 items, difference 0.03:
    ``Phi(0.03 sqrt(2355 / 0.27) - 1.96) = Phi(0.842)``:

    >>> round(item_power(2355, 0.03, sd_a=0.3, correlation=0.5, within_sd_a=0.3), 3)
    0.8
    """
    method = check_choice(method, "method", ITEM_METHODS)
    parts = _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc)
    m = parts.cluster_size
    n_items = _check_n_items(n_items, m)
    difference = _check_item_difference(difference, nonzero=False)
    alpha = check_alpha(alpha)
    return _unit_power(n_items / m, difference, parts.total / m, alpha, method)


def item_sample_size(difference: float, *, sd_a: float, sd_b: float | None = None, correlation: float,
                     within_sd_a: float = 0.0, within_sd_b: float | None = None, samples: int = 1,
                     cluster_size: int = 1, icc: float = 0.0, alpha: float = 0.05, power: float = 0.8,
                     method: str = "normal") -> ItemSampleSize:
    """How many items a paired comparison of two models needs to detect ``difference``.

    ``"normal"`` (Miller 2024's power analysis, a normal approximation):
    ``n = (z_{alpha/2} + z_beta)^2 V / difference^2`` with ``V`` of
    :func:`item_difference_variance` (``z_beta`` the ``power`` quantile), rounded up to
    whole clusters, ``J = ceil(n / cluster_size)``. ``"t"`` (a refinement for few items or
    clusters): the smallest ``J`` from there up at which the paired t-test on the ``J``
    cluster means (:func:`item_power` with ``method="t"``) reaches ``power``. Either way at
    least two clusters (two items when ``cluster_size = 1``).

    Parameters
    ----------
    difference : float
        Mean score of A minus mean score of B to detect, in [-1, 1], not 0; only its
        size matters (the test is two-sided).
    sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc
        The variance model, as in :func:`item_difference_variance`.
    alpha : float
        Two-sided level, in (0, 1).
    power : float
        Target power, in (0, 1).
    method : {"normal", "t"}

    Returns
    -------
    ItemSampleSize
        ``n_items`` (``n_clusters * cluster_size``), ``n_clusters``, ``variance`` ``V``,
        ``design_effect`` and the power reached; ``describe()`` says it in a sentence.

    Raises
    ------
    ValueError
        If ``difference`` is 0 (nothing to detect), or an argument is out of range.

    Notes
    -----
    ``V = 0`` (``sd_a = sd_b``, ``correlation = 1`` and no answer noise: every item shows
    the same difference) gives the smallest design, two clusters; so does a target
    ``power`` below ``alpha / 2``, which the test reaches with no items to speak of. Doubling ``K`` halves
    only the within-item part of ``V``: once ``(within_sd_a^2 + within_sd_b^2) / K`` is
    small beside ``omega^2``, more answers per item stop paying and only more items help.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640 (section on power analysis: the number of
    questions for a minimum detectable effect).
    Kish, L. (1965). *Survey Sampling*. Wiley (the design effect).

    Examples
    --------
    ``V = 0.27``: ``(1.959964 + 0.841621)^2 * 0.27 / 0.03^2 = 2354.6``, so 2355 items;
    four answers per item halve the noise part (``V = 0.135``):

    >>> import math
    >>> math.ceil((1.959964 + 0.841621) ** 2 * 0.27 / 0.03 ** 2)
    2355
    >>> item_sample_size(0.03, sd_a=0.3, correlation=0.5, within_sd_a=0.3).n_items
    2355
    >>> item_sample_size(0.03, sd_a=0.3, correlation=0.5, within_sd_a=0.3, samples=4).n_items
    1178
    """
    method = check_choice(method, "method", ITEM_METHODS)
    difference = _check_item_difference(difference, nonzero=True)
    parts = _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc)
    alpha = check_alpha(alpha)
    target = _check_power(power)
    m = parts.cluster_size
    unit_variance = parts.total / m
    units = int(_normal_units(difference, unit_variance, alpha, target))
    if method == "t":
        while _unit_power(units, difference, unit_variance, alpha, "t") < target:
            units += 1
    return ItemSampleSize(n_items=units * m, n_clusters=units, cluster_size=m, samples=parts.samples,
                          difference=difference, variance=parts.total, design_effect=parts.design_effect,
                          power=target, achieved_power=_unit_power(units, difference, unit_variance, alpha, method),
                          alpha=alpha, method=method)


def item_minimum_detectable_difference(n_items: int, *, sd_a: float, sd_b: float | None = None,
                                       correlation: float, within_sd_a: float = 0.0,
                                       within_sd_b: float | None = None, samples: int = 1,
                                       cluster_size: int = 1, icc: float = 0.0, alpha: float = 0.05,
                                       power: float = 0.8, method: str = "normal") -> float:
    """The smallest difference of mean scores that ``n_items`` items detect with ``power``.

    ``"normal"`` (Miller 2024, the minimum detectable effect):
    ``(z_{alpha/2} + z_beta) sqrt(V / n)`` with ``V`` of :func:`item_difference_variance`.
    ``"t"``: the difference at which the paired t-test on the ``n / cluster_size`` cluster
    means (:func:`item_power`) has power ``power``. A smaller true difference is detected
    with less than ``power``, not "usually missed": at the defaults (``alpha = 0.05``,
    ``power = 0.8``) a true difference of 0.8 times it is detected with probability only about
    0.6 (normal approximation: ``Phi(0.8 (1.960 + 0.842) - 1.960) = 0.61``), and half of it
    with about 0.29. A non-significant comparison on these items therefore does not show that
    the models are equally good.

    Parameters
    ----------
    n_items : int
        Items, ``>= 2 * cluster_size``.
    sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc
        The variance model, as in :func:`item_difference_variance`.
    alpha, power : float
        Two-sided level and target power, in (0, 1).
    method : {"normal", "t"}

    Returns
    -------
    float
        In ``[0, 1]``; 0 when ``V = 0`` (any difference is seen without noise) or when
        ``power`` is so low that the test reaches it with no difference;
        ``math.inf`` when not even a difference of 1 (the largest between mean scores in
        [0, 1]) is detected with that power.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language
    model evaluations. arXiv:2411.00640 (section on power analysis).

    Examples
    --------
    500 items, ``V = 0.27``: ``(1.959964 + 0.841621) sqrt(0.27 / 500) = 0.0651``:

    >>> round(item_minimum_detectable_difference(500, sd_a=0.3, correlation=0.5, within_sd_a=0.3), 4)
    0.0651
    """
    method = check_choice(method, "method", ITEM_METHODS)
    parts = _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc)
    m = parts.cluster_size
    n_items = _check_n_items(n_items, m)
    alpha = check_alpha(alpha)
    target = _check_power(power)
    if parts.total == 0.0:
        return 0.0
    units, unit_variance = n_items / m, parts.total / m
    if method == "normal":
        z = max(float(stats.norm.isf(alpha / 2.0) + stats.norm.ppf(target)), 0.0)
        delta = z * math.sqrt(unit_variance / units)
        return delta if delta <= 1.0 else math.inf

    def gap(delta: float) -> float:
        return _unit_power(units, delta, unit_variance, alpha, "t") - target

    if gap(0.0) >= 0.0:
        return 0.0
    if gap(1.0) < 0.0:
        return math.inf
    from scipy.optimize import brentq

    return float(brentq(gap, 0.0, 1.0, xtol=1e-12))


def plot_item_sample_size(difference: float, *, sd_a: float, sd_b: float | None = None,
                          correlation: float | None = None, within_sd_a: float = 0.0,
                          within_sd_b: float | None = None, samples: Any = None, cluster_size: int = 1,
                          icc: Any = 0.0, alpha: float = 0.05, power: float = 0.8, ax=None):
    """Items needed against the correlation of the two models' item scores, one line per K or ICC.

    :func:`item_sample_size` (Miller's normal approximation, whole clusters) on a grid of
    correlations from 0 (or ``correlation``, if lower) to 1; one line per value of
    ``samples`` if it is a sequence, else one per value of ``icc`` if that is a sequence.
    The closed form is evaluated on the whole grid at once, so a slider can call it.
    When ``correlation`` is given it is marked, and the items each line needs there are
    written in the title. The y axis is logarithmic.

    Parameters
    ----------
    difference : float
        Mean score of A minus mean score of B to detect, in [-1, 1], not 0.
    sd_a, sd_b
        As in :func:`item_difference_variance`.
    correlation : float, optional
        The correlation to mark, in [-1, 1].
    within_sd_a, within_sd_b
        As in :func:`item_difference_variance`.
    samples : int or sequence of int, optional
        Answers per item and model; a sequence draws one line each. Default: ``(1, 4, 16)``,
        or 1 when ``icc`` is a sequence.
    cluster_size
        As in :func:`item_difference_variance`.
    icc : float or sequence of float
        Intra-cluster correlation; a sequence draws one line each (only when ``samples``
        is a single number).
    alpha, power : float
        Two-sided level and target power, in (0, 1).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = plot_item_sample_size(0.03, sd_a=0.3, within_sd_a=0.3, correlation=0.5, samples=(1, 4))
    >>> ax.get_title().splitlines()[1]
    'at correlation 0.50: K = 1: 2355 items; K = 4: 1178 items'
    """
    difference = _check_item_difference(difference, nonzero=True)
    alpha = check_alpha(alpha)
    target = _check_power(power)
    if samples is None:
        samples = 1 if np.ndim(icc) > 0 else (1, 4, 16)
    many_k, many_icc = np.ndim(samples) > 0, np.ndim(icc) > 0
    if many_k and many_icc:
        raise ValueError("samples and icc must not both be sequences: give several values for one of them")
    ks = list(np.asarray(samples).ravel()) if many_k else [samples]
    iccs = list(np.asarray(icc).ravel()) if many_icc else [icc]
    if not ks or not iccs:
        raise ValueError("samples and icc must each hold at least one value")
    # check every setting once, at correlation 0 (the grid's correlations are in range by construction)
    settings = [_item_variance(sd_a, sd_b, 0.0 if correlation is None else correlation, within_sd_a,
                               within_sd_b, k, cluster_size, c) for k in ks for c in iccs]
    sd_a_, sd_b_ = float(sd_a), float(sd_a if sd_b is None else sd_b)
    low = 0.0 if correlation is None else min(0.0, float(correlation))
    rhos = np.linspace(low, 1.0, 201)
    between = np.maximum(sd_a_ ** 2 + sd_b_ ** 2 - 2.0 * rhos * sd_a_ * sd_b_, 0.0)
    ax = get_axes(ax, figsize=(6.4, 3.6))
    at_rho = []
    for i, parts in enumerate(settings):
        m = parts.cluster_size
        items = _normal_units(difference, (between * parts.design_effect + parts.within) / m, alpha, target) * m
        label = (f"K = {parts.samples}" if many_k or not many_icc else
                 f"ICC = {iccs[i]:g}")
        ax.plot(rhos, items, color=f"C{i}", label=label)
        if correlation is not None:
            at_rho.append(f"{label}: {int(_normal_units(difference, parts.total / m, alpha, target)) * m} items")
    ax.set_yscale("log")
    ax.set_xlabel("correlation of the two models' expected item scores")
    ax.set_ylabel("items needed")
    first = settings[0]
    title = f"difference {abs(difference):.3g}, power {target:g}, alpha = {alpha:g}"
    if first.cluster_size > 1:
        title += f", clusters of {first.cluster_size}" + ("" if many_icc else f" (ICC {float(iccs[0]):g})")
    if not many_k:
        title += f", K = {first.samples}"
    if correlation is not None:
        ax.axvline(float(correlation), color="k", lw=0.8, ls=":")
        title += f"\nat correlation {float(correlation):.2f}: " + "; ".join(at_rho)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    return ax


# ------------------------------------------------ no worse than: a margin, one-sided
__all__ += ["item_margin_power", "item_margin_sample_size"]


def _margin_gaps(difference: float, margin: float, hypothesis: str, higher_is_better: bool) -> tuple[float, ...]:
    """How far the true difference lies inside each one-sided null of the margin test."""
    if hypothesis == "equivalence":
        return (margin + difference, margin - difference)
    return (difference + margin,) if higher_is_better else (margin - difference,)


def _unit_margin_power(units: float, gaps: tuple[float, ...], unit_variance: float, alpha: float,
                       method: str) -> float:
    """Power of the one-sided tests (all must reject) on ``units`` independent unit means.

    One gap: ``Phi(s - z_alpha)`` (``"normal"``) or the noncentral t's ``P(T > t_{alpha, units-1})``
    with noncentrality ``s = gap sqrt(units / unit_variance)`` (``"t"``). Two gaps (TOST): the two
    one-sided powers minus 1, at least 0 -- exact for ``"normal"`` with a known variance, the usual
    approximation for ``"t"`` (the exact TOST power needs Owen's Q; it is never larger).
    """
    if unit_variance == 0.0:
        return 1.0 if all(g > 0 for g in gaps) else 0.0
    shifts = [g * math.sqrt(units / unit_variance) for g in gaps]
    if method == "normal":
        z = stats.norm.isf(alpha)
        sides = [float(stats.norm.cdf(s - z)) for s in shifts]
    else:
        df = units - 1.0
        crit = stats.t.isf(alpha, df)
        sides = [float(stats.nct.sf(crit, df, s)) for s in shifts]
    return float(max(sum(sides) - (len(sides) - 1), 0.0))


def _check_margin_plan(difference, margin, hypothesis, higher_is_better, alpha):
    difference = _check_item_difference(difference, nonzero=False)
    margin, alpha = _check_margin(margin, alpha)
    hypothesis = check_choice(hypothesis, "hypothesis", MARGIN_HYPOTHESES)
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    return difference, margin, hypothesis, alpha, _margin_gaps(difference, margin, hypothesis, higher_is_better)


def item_margin_power(n_items: int, difference: float = 0.0, *, margin: float, hypothesis: str = "noninferiority",
                      higher_is_better: bool = True, sd_a: float, sd_b: float | None = None, correlation: float,
                      within_sd_a: float = 0.0, within_sd_b: float | None = None, samples: int = 1,
                      cluster_size: int = 1, icc: float = 0.0, alpha: float = 0.05, method: str = "normal") -> float:
    """Power to show that model A is no worse than B by more than ``margin`` (or equivalent), per item.

    The test is :func:`evallib.items.paired_item_margin_test` on ``n_items`` items: the mean
    paired difference has variance ``V / n`` (:func:`item_difference_variance`). Non-inferiority
    with higher scores better: ``Phi(s - z_alpha)``, ``s = (difference + margin) sqrt(n / V)``
    (``"normal"``), or the noncentral t with ``n / cluster_size - 1`` df and noncentrality ``s``
    (``"t"``, the paired or cluster-robust t-test on the cluster means); with lower scores better
    ``margin - difference`` replaces ``difference + margin``. Equivalence (TOST): the two one-sided
    powers minus 1, at least 0.

    Parameters
    ----------
    n_items : int
        Items, ``>= 2 * cluster_size``.
    difference : float
        The true mean score of A minus that of B, in [-1, 1]; 0 (the default) when A is
        expected to be as good as B. At ``-margin`` (``+margin`` when lower is better) the
        power is the test's size.
    margin : float
        In (0, 1), as in :func:`evallib.items.paired_item_margin_test`.
    hypothesis : {"noninferiority", "equivalence"}
    higher_is_better : bool
    sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc
        The variance model, as in :func:`item_difference_variance`.
    alpha : float
        Level of each one-sided test, in (0, 0.5).
    method : {"normal", "t"}

    Returns
    -------
    float

    References
    ----------
    Miller, E. (2024). Adding error bars to evals. arXiv:2411.00640 (section on power analysis).
    Julious, S. A. (2004). Sample sizes for clinical trials with normal data. *Statistics in
    Medicine* 23, 1921-1986 (non-inferiority and equivalence, sections 5 and 6).

    Examples
    --------
    ``V = 0.09`` (``sd_a = 0.3``, correlation 0.5), margin 0.02, equal models:
    ``Phi(0.02 sqrt(1400 / 0.09) - 1.645) = Phi(0.849)``:

    >>> round(item_margin_power(1400, margin=0.02, sd_a=0.3, correlation=0.5), 3)
    0.802
    """
    method = check_choice(method, "method", ITEM_METHODS)
    difference, margin, hypothesis, alpha, gaps = _check_margin_plan(difference, margin, hypothesis,
                                                                      higher_is_better, alpha)
    parts = _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc)
    m = parts.cluster_size
    n_items = _check_n_items(n_items, m)
    return _unit_margin_power(n_items / m, gaps, parts.total / m, alpha, method)


def item_margin_sample_size(difference: float = 0.0, *, margin: float, hypothesis: str = "noninferiority",
                            higher_is_better: bool = True, sd_a: float, sd_b: float | None = None,
                            correlation: float, within_sd_a: float = 0.0, within_sd_b: float | None = None,
                            samples: int = 1, cluster_size: int = 1, icc: float = 0.0, alpha: float = 0.05,
                            power: float = 0.8, method: str = "normal") -> int:
    """Items needed to show that model A is no worse than B by more than ``margin`` (or equivalent).

    Non-inferiority, ``"normal"``: ``n = (z_alpha + z_beta)^2 V / (difference + margin)^2``
    (``margin - difference`` when lower is better) with ``V`` of
    :func:`item_difference_variance`, rounded up to whole clusters -- the two-sided formula of
    :func:`item_sample_size` with ``z_alpha`` for ``z_{alpha/2}`` and the distance to the
    margin for the difference. Otherwise (``"t"``, or ``"equivalence"``) the smallest number
    of whole clusters from there on at which :func:`item_margin_power` reaches ``power``.
    At least two clusters.

    Parameters
    ----------
    difference : float
        The true mean score of A minus that of B, in [-1, 1] (default 0: equally good); it
        must lie inside the margin.
    margin, hypothesis, higher_is_better, sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc, alpha
        As in :func:`item_margin_power`.
    power : float
        Target power, in (0, 1) (default 0.8).
    method
        As in :func:`item_margin_power`.

    Returns
    -------
    int
        ``n_items``, a whole number of clusters of ``cluster_size`` items.

    Raises
    ------
    ValueError
        If ``difference`` lies on or beyond the margin (no number of items shows it), or an
        argument is out of range.

    References
    ----------
    Julious, S. A. (2004). Sample sizes for clinical trials with normal data. *Statistics in
    Medicine* 23, 1921-1986.

    Examples
    --------
    ``V = 0.09``, margin 0.02: ``(1.644854 + 0.841621)^2 * 0.09 / 0.02^2 = 1391.2``:

    >>> item_margin_sample_size(margin=0.02, sd_a=0.3, correlation=0.5)
    1392
    """
    method = check_choice(method, "method", ITEM_METHODS)
    difference, margin, hypothesis, alpha, gaps = _check_margin_plan(difference, margin, hypothesis,
                                                                      higher_is_better, alpha)
    parts = _item_variance(sd_a, sd_b, correlation, within_sd_a, within_sd_b, samples, cluster_size, icc)
    target = _check_power(power)
    if min(gaps) <= 0:
        raise ValueError(f"difference = {difference:g} must lie inside the margin ({margin:g}) for "
                         f"{hypothesis}: otherwise no number of items shows it with power {target:g}")
    m = parts.cluster_size
    unit_variance = parts.total / m
    z = max(float(stats.norm.isf(alpha) + stats.norm.ppf(target)), 0.0)
    units = max(2, math.ceil(z * z * unit_variance / min(gaps) ** 2 - 1e-9))
    if method == "normal" and len(gaps) == 1:
        return units * m

    def reached(j: int) -> bool:
        return _unit_margin_power(j, gaps, unit_variance, alpha, method) >= target

    lo, hi = units - 1, units
    while not reached(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return max(hi, 2) * m
