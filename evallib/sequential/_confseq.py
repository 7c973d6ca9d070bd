"""Anytime-valid confidence sequences and always-valid p-values for a mean score and a paired difference.

A confidence sequence ``(C_t)`` covers the mean at every sample size at once:
``P(mu in C_t for all t >= 1) >= 1 - alpha``. It may be looked at after every item and the
collection stopped whenever one likes, which a fixed-n interval recomputed at each look does not
allow (Armitage, McPherson & Rowe 1969). Two constructions:

* **betting** (:func:`confidence_sequence`, ``method="betting"``): the hedged capital process of
  Waudby-Smith & Ramdas (2024, sec. 4.3, Theorem 3) for scores in ``[0, 1]``,

  ``K_t(m) = max(theta K_t^+(m), (1 - theta) K_t^-(m))``,
  ``K_t^{±}(m) = prod_{i <= t} (1 ± lambda_i^{±}(m) (x_i - m))``, ``theta = 1/2``,

  with the predictable plug-in bets they recommend for it (their eq. (26), the "PrPl" bets
  ``lambda_t = sqrt(2 log(2/alpha) / (sigma_{t-1}^2 t log(1 + t)))`` with the regularised
  running mean ``mu_t = (1/2 + sum x_i)/(t + 1)`` and variance
  ``sigma_t^2 = (1/4 + sum (x_i - mu_i)^2)/(t + 1)``), truncated as in their hedged process at
  ``lambda^+(m) = min(lambda, c/m)``, ``lambda^-(m) = min(lambda, c/(1 - m))`` with ``c = 1/2``.
  ``C_t = {m : K_s(m) < 1/alpha for every s <= t}`` (the running intersection, which the paper
  allows). ``K^+`` falls and ``K^-`` rises with ``m``, so ``C_t`` is an interval whose lower end
  is set by ``K^+`` alone (at level ``theta alpha``) and its upper end by ``K^-`` alone. The
  one-sided sequences use one process at level ``alpha`` (``theta = 1`` or ``0``, bets with
  ``log(1/alpha)``). The exact sequence is computed on a grid of candidate means, through each
  grid point's first crossing time (its capital is summed until it crosses ``1/alpha``, which
  the points far from the mean do early); the grid is geometric in the distance from the final
  mean, so that every reported end is within 2% of its distance from that mean, and ends are
  rounded outwards to the grid (the reported interval contains the exact one).
* **asymptotic** (``method="asymptotic"``): the asymptotic confidence sequence of Waudby-Smith,
  Arbour, Sinha, Kennedy & Ramdas (2024, Theorem 2.2), the running mean ``±`` the running
  standard deviation times Robbins' normal-mixture boundary (Howard, Ramdas, McAuliffe & Sekhon
  2021, Proposition 2 / eq. (14)) in units of the sample size:
  ``sigma_t sqrt(2 (t rho^2 + 1) / (t^2 rho^2) log(sqrt(t rho^2 + 1) / alpha))``, with
  ``rho^2 = (2 log(1/alpha) + log(1 + 2 log(1/alpha))) / n_opt`` so that the boundary is
  tightest at the stated sample size ``n_opt`` (Howard et al.'s choice, as in confseq's
  ``TwoSidedNormalMixture.best_rho``). The one-sided sequences use the one-sided normal mixture
  (half-normal mixing, solved for the boundary by Newton's method) with the two-sided ``rho`` at
  ``2 alpha`` (confseq's ``OneSidedNormalMixture.best_rho``). The guarantee is asymptotic: the
  sequence is reported from ``min_n`` items on, where the variance estimate has settled.
  **Clusters** (``clusters=``): when items arrive a whole cluster at a time, the units are the
  clusters, through their sums ``S_j`` and sizes ``m_j``; the item-level mean ``mu = E S / E m``
  is the mean of the zero-mean units ``S_j - mu m_j``, so the sequence is
  ``sum S / sum m ± sigma_J b(J) / sum m`` with ``sigma_J^2`` the mean squared residual
  ``(S_j - mu_J m_j)^2`` and ``b`` the boundary above in units of clusters. Assumed: the clusters
  are independent and identically distributed (their sizes may vary, as draws of one
  distribution), each arrives whole, and the looks fall between clusters.

A paired difference ``x_i - y_i`` of two scores in ``[0, 1]`` lies in ``[-1, 1]``; the betting
sequence is computed for ``(x_i - y_i + 1)/2`` in ``[0, 1]`` and mapped back.

:func:`sequential_pvalue` gives the matching always-valid p-values for ``H0: mean = null``:
``p_t = min(1, 1 / max_{s <= t} K_s(null))`` (betting) or the same with the normal-mixture
martingale (asymptotic), so ``p_t <= alpha`` exactly when ``null`` has left the sequence; at any
stopping time ``P(p_tau <= a) <= a`` under ``H0`` for every ``a`` (Howard et al. 2021, sec. 5).

References
----------
I. Waudby-Smith and A. Ramdas (2024), Estimating means of bounded random variables by betting,
Journal of the Royal Statistical Society Series B 86(1), 1-27.
I. Waudby-Smith, D. Arbour, R. Sinha, E. H. Kennedy and A. Ramdas (2024), Time-uniform central
limit theory and asymptotic confidence sequences, Annals of Statistics 52(6), 2613-2640.
S. R. Howard, A. Ramdas, J. McAuliffe and J. Sekhon (2021), Time-uniform, nonparametric,
nonasymptotic confidence sequences, Annals of Statistics 49(2), 1055-1080.
P. Armitage, C. K. McPherson and B. C. Rowe (1969), Repeated significance tests on accumulating
data, Journal of the Royal Statistical Society Series A 132(2), 235-244.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from .._inference import check_alternative, critical_value
from .._plotting import get_axes
from .._results import freeze_arrays
from .._validate import (
    check_alpha,
    check_array,
    check_choice,
    check_count,
    check_labels,
    check_real,
)

__all__ = ["CS_METHODS", "ConfidenceSequence", "SequentialPValue", "confidence_sequence",
           "plot_confidence_sequence", "sequential_pvalue"]

#: The constructions of :func:`confidence_sequence` and :func:`sequential_pvalue`.
CS_METHODS = ("betting", "asymptotic")

_TRUNCATION = 0.5          # c of the hedged process' truncation c/m, c/(1 - m)
_GRID_RATIO = 1.02         # grid points at geometric distances from the final mean (2% apart)
_CHUNK = 1 << 15           # rows of the capital computed at once
_DEFAULT_MIN_N = 30


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, eq=False)
class ConfidenceSequence:
    """A confidence sequence: ``low[k] <= mean <= high[k]`` at every look ``n[k]`` at once.

    Attributes
    ----------
    n : numpy.ndarray
        The number of items seen at each look (1, 2, ..., or from ``min_n`` on for the asymptotic
        sequence; the items at the end of each cluster with ``clusters=``).
    estimate : numpy.ndarray
        The running mean (of the scores, or of the paired differences).
    se : numpy.ndarray
        The fixed-n standard error of the running mean (the cluster-robust one with clusters),
        for the comparison with the interval a fixed-n analysis would report at that look.
    low, high : numpy.ndarray
        The sequence; a one-sided sequence has ``high`` (``"greater"``) or ``low`` (``"less"``)
        at the end of the scores' range.
    alpha, alternative, method : float, str, str
    paired : bool
        Whether the mean is of paired differences ``x - y`` (range ``[-1, 1]``).
    n_opt : int or None
        The sample size the asymptotic boundary is tightest at (units: clusters with clusters).
    n_clusters : numpy.ndarray or None
        The number of clusters seen at each look, with ``clusters=``.
    """

    n: np.ndarray
    estimate: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    alpha: float
    alternative: str
    method: str
    paired: bool
    n_opt: int | None = None
    n_clusters: np.ndarray | None = None

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def width(self) -> np.ndarray:
        """``high - low`` at each look."""
        return self.high - self.low

    def covers(self, value: float) -> np.ndarray:
        """Whether ``value`` lies in the sequence at each look.

        Parameters
        ----------
        value : float
            The candidate true mean (or paired difference).

        Returns
        -------
        numpy.ndarray of bool
            One entry per look: ``low <= value <= high``.
        """
        return (self.low <= value) & (value <= self.high)

    def fixed_n_interval(self) -> tuple[np.ndarray, np.ndarray]:
        """The ``1 - alpha`` t interval a fixed-n analysis would report at each look
        (``estimate -/+ t_{n-1} se``; valid at one look planned in advance, not at all of them).

        Returns
        -------
        low : numpy.ndarray
            The interval's lower end at each look (``-inf`` for ``alternative="less"``).
        high : numpy.ndarray
            Its upper end at each look (``+inf`` for ``alternative="greater"``).
        """
        df = (self.n if self.n_clusters is None else self.n_clusters) - 1.0
        q = critical_value(self.alpha, np.maximum(df, 1.0), self.alternative)
        low = self.estimate - q * self.se if self.alternative != "less" else np.full(self.n.shape, -np.inf)
        high = self.estimate + q * self.se if self.alternative != "greater" else np.full(self.n.shape, np.inf)
        return low, high

    def to_frame(self) -> pd.DataFrame:
        """The looks as a table.

        Returns
        -------
        pandas.DataFrame
            One row per look, columns ``n``, ``estimate``, ``se``, ``low``, ``high``; ``attrs``
            hold ``alpha``, ``alternative`` and ``method``.
        """
        frame = pd.DataFrame({"n": self.n, "estimate": self.estimate, "se": self.se,
                              "low": self.low, "high": self.high})
        frame.attrs.update(alpha=self.alpha, alternative=self.alternative, method=self.method)
        return frame


@dataclass(frozen=True, eq=False)
class SequentialPValue:
    """Always-valid p-values for ``H0: mean = null`` at every look (non-increasing in ``n``).

    Attributes
    ----------
    n, estimate : numpy.ndarray
        The looks and the running mean, as in :class:`ConfidenceSequence`.
    statistic : numpy.ndarray
        The running maximum of the log test martingale (the capital, or the normal mixture) at
        ``null``: ``pvalue = min(1, exp(-statistic))``.
    pvalue : numpy.ndarray
    null : float
    alpha : float
        The level the bets (or the mixture) are tuned for; the p-values are valid at every level.
    alternative, method : str
    paired : bool
    """

    n: np.ndarray
    estimate: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    null: float
    alpha: float
    alternative: str
    method: str
    paired: bool

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def first_rejection(self, level: float | None = None) -> int | None:
        """The first look at which the always-valid p-value reaches ``level``.

        Parameters
        ----------
        level : float in (0, 1), optional
            The level (default: the result's ``alpha``).

        Returns
        -------
        int or None
            The sample size ``n`` of the first look with ``pvalue <= level``, or None if there is none.
        """
        level = self.alpha if level is None else check_alpha(level, "level")
        hit = np.flatnonzero(self.pvalue <= level)
        return int(self.n[hit[0]]) if hit.size else None


# ----------------------------------------------------------------------------- inputs
def _scores(x: Any, y: Any) -> tuple[np.ndarray, float, float, bool]:
    """The scores (or paired differences), the ends of their range and whether they are paired."""
    x = check_array(x, "x", what="scores")
    if x.min() < 0.0 or x.max() > 1.0:
        raise ValueError(f"x must hold scores in [0, 1], got values from {x.min():g} to {x.max():g}")
    if y is None:
        return x, 0.0, 1.0, False
    y = check_array(y, "y", what="scores")
    if y.shape != x.shape:
        raise ValueError(f"x and y must hold the same items (paired), got {x.size} and {y.size} scores")
    if y.min() < 0.0 or y.max() > 1.0:
        raise ValueError(f"y must hold scores in [0, 1], got values from {y.min():g} to {y.max():g}")
    return x - y, -1.0, 1.0, True


def _options(method: Any, alpha: Any, alternative: Any) -> tuple[str, float, str]:
    return (check_choice(method, "method", CS_METHODS), check_alpha(alpha),
            check_alternative(alternative))


def _asymptotic_options(method: str, n: int, n_opt: Any, min_n: Any, clusters: Any) -> tuple[int | None, int]:
    if method != "asymptotic":
        for name, value in (("n_opt", n_opt), ("min_n", min_n), ("clusters", clusters)):
            if value is not None:
                raise ValueError(f"{name}= belongs to method='asymptotic'; the betting sequence takes "
                                 f"neither a tuning size nor clusters")
        return None, 1
    if n_opt is None:
        raise ValueError("n_opt must be given with method='asymptotic': the sample size (in items, or "
                         "clusters with clusters=) at which the boundary should be tightest, fixed in "
                         "advance, e.g. the planned number of items")
    n_opt = check_count(n_opt, "n_opt", minimum=1)
    min_n = _DEFAULT_MIN_N if min_n is None else check_count(min_n, "min_n", minimum=2)
    if min_n > n:
        raise ValueError(f"min_n must be at most the number of units ({n}), got {min_n}")
    return n_opt, min_n


def _cluster_units(v: np.ndarray, clusters: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums and sizes, in arrival order; each cluster's items must be contiguous."""
    labels = check_labels(clusters, "clusters")
    if labels.shape != v.shape:
        raise ValueError(f"clusters must give one label per item ({v.size}), got {labels.size}")
    codes = pd.factorize(labels)[0]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    if starts.size != codes.max() + 1:
        raise ValueError("clusters must arrive whole: the items of each cluster must be contiguous "
                         "(sort the items by cluster in the order the clusters arrived)")
    sums = np.add.reduceat(v, starts)
    sizes = np.diff(np.r_[starts, v.size]).astype(float)
    return sums, sizes


# ----------------------------------------------------------------------------- betting
def _bets(z: np.ndarray, log_threshold: float) -> np.ndarray:
    """The predictable plug-in bets lambda_t (Waudby-Smith & Ramdas 2024, eq. (26)), untruncated,
    along the last axis of ``z``."""
    t = np.arange(1, z.shape[-1] + 1, dtype=float)
    mu = (0.5 + np.cumsum(z, axis=-1)) / (t + 1.0)
    sigma2 = (0.25 + np.cumsum((z - mu) ** 2, axis=-1)) / (t + 1.0)
    previous = np.concatenate([np.full(z.shape[:-1] + (1,), 0.25), sigma2[..., :-1]], axis=-1)
    return np.sqrt(2.0 * log_threshold / (previous * t * np.log1p(t)))


def _log_capital_steps(z: Any, lam: Any, m: Any) -> np.ndarray:
    """log(1 + min(lambda_i, c/m)(z_i - m)), the log of one step of K^+ at candidate mean m
    (broadcast; K^- at m is K^+ of 1 - z at 1 - m)."""
    m = np.asarray(m, dtype=float)
    with np.errstate(divide="ignore"):
        cap = np.where(m > 0, _TRUNCATION / np.where(m > 0, m, 1.0), np.inf)
    return np.log1p(np.minimum(lam, cap) * (z - m))


def _crossing_times(z: np.ndarray, lam: np.ndarray, m: np.ndarray, log_threshold: float) -> np.ndarray:
    """For each candidate mean ``m``, the first ``t`` (0-based) at which log K^+_t(m) reaches the
    threshold; ``z.size`` when it never does."""
    n = z.size
    tau = np.full(m.size, n, dtype=np.int64)
    running = np.zeros(m.size)
    alive = np.ones(m.size, dtype=bool)
    for start in range(0, n, _CHUNK):
        idx = np.flatnonzero(alive)
        stop = min(n, start + _CHUNK)
        zc, lc, mc = z[None, start:stop], lam[None, start:stop], m[idx, None]
        if lc.max() * mc.max() <= _TRUNCATION:   # the truncation c/m does not bind in this chunk
            steps = np.log1p(lc * zc - lc * mc)
        else:
            steps = _log_capital_steps(zc, lc, mc)
        steps = np.cumsum(steps, axis=1, out=steps)   # candidates in rows: contiguous sums
        steps += running[idx, None]
        crossed = steps.max(axis=1) >= log_threshold
        if crossed.any():
            tau[idx[crossed]] = start + (steps[crossed] >= log_threshold).argmax(axis=1)
            alive[idx[crossed]] = False
        running[idx] = steps[:, -1]
        if not alive.any():
            break
    return tau


def _grid(anchor: float) -> np.ndarray:
    """Candidate means in [0, 1], ascending, at geometric distances from ``anchor``."""
    below = anchor - anchor * _GRID_RATIO ** -np.arange(0, int(math.log(1e9) / math.log(_GRID_RATIO)))
    above_span = 1.0 - anchor
    above = anchor + above_span * _GRID_RATIO ** -np.arange(int(math.log(1e9) / math.log(_GRID_RATIO)), -1, -1)
    grid = np.unique(np.clip(np.r_[below, anchor, above], 0.0, 1.0))
    return grid


def _betting_lower(z: np.ndarray, lam: np.ndarray, log_threshold: float) -> np.ndarray:
    """The lower end of the running-intersection sequence from K^+ on [0, 1], at every t, on the
    grid (rounded down: the largest grid mean already rejected)."""
    n = z.size
    grid = _grid(float(z.mean()))
    low = np.zeros(n)
    batch = 32
    j = 0
    while j < grid.size:
        m = grid[j:j + batch]
        tau = _crossing_times(z, lam, m, log_threshold)
        done = tau < n
        np.maximum.at(low, tau[done], m[done])
        if not done.all():
            break
        # the points nearest the mean cross late and cost the most: smaller batches there
        batch = 32 if tau[-1] < n // 8 else 4
        j += m.size
    return np.maximum.accumulate(low)


def _betting_cs(v: np.ndarray, lo: float, hi: float, alpha: float, alternative: str):
    z = (v - lo) / (hi - lo)
    sides = 1.0 if alternative != "two-sided" else 0.5
    log_threshold = math.log(1.0 / (sides * alpha))
    lam = _bets(z, log_threshold)
    low_z = _betting_lower(z, lam, log_threshold) if alternative != "less" else np.zeros(z.size)
    high_z = 1.0 - _betting_lower(1.0 - z, lam, log_threshold) if alternative != "greater" else np.ones(z.size)
    return lo + (hi - lo) * low_z, lo + (hi - lo) * high_z


def _betting_log_martingale(v: np.ndarray, lo: float, hi: float, null: float, alpha: float,
                            alternative: str) -> np.ndarray:
    """log of the hedged capital at ``null`` (with theta's weights) at every t (along the last axis)."""
    z = (v - lo) / (hi - lo)
    m = (null - lo) / (hi - lo)
    sides = 1.0 if alternative != "two-sided" else 0.5
    lam = _bets(z, math.log(1.0 / (sides * alpha)))
    out = np.full(z.shape, -np.inf)
    if alternative != "less":
        out = np.maximum(out, np.cumsum(_log_capital_steps(z, lam, m), axis=-1) + math.log(sides))
    if alternative != "greater":
        out = np.maximum(out, np.cumsum(_log_capital_steps(1.0 - z, lam, 1.0 - m), axis=-1) + math.log(sides))
    return out


# ----------------------------------------------------------------------------- asymptotic
def _rho(n_opt: int, alpha: float, alternative: str) -> float:
    """The mixture precision (units of the sample size) that makes the boundary tightest at n_opt."""
    a = alpha if alternative == "two-sided" else 2.0 * alpha
    return n_opt / (2.0 * math.log(1.0 / a) + math.log(1.0 + 2.0 * math.log(1.0 / a)))


def _one_sided_root(rhs: np.ndarray) -> np.ndarray:
    """The u with u^2/2 + log Phi(u) = rhs (increasing in u), by Newton's method."""
    u = np.sqrt(2.0 * np.maximum(rhs, 0.0)) + 1.0
    for _ in range(60):
        g = 0.5 * u * u + special.log_ndtr(u) - rhs
        mills = np.exp(-0.5 * u * u - special.log_ndtr(u)) / math.sqrt(2.0 * math.pi)
        step = g / (u + mills)
        u = u - step
        if np.all(np.abs(step) < 1e-12 * np.maximum(1.0, np.abs(u))):
            break
    return u


def _mixture_boundary(units: np.ndarray, rho: float, alpha: float, alternative: str) -> np.ndarray:
    """The normal-mixture boundary on |S_t| / sigma (two-sided) or S_t / sigma (one-sided) after
    ``units`` observations (Howard et al. 2021, Proposition 2; the one-sided half-normal mixture)."""
    v = np.asarray(units, dtype=float)
    if alternative == "two-sided":
        return np.sqrt((v + rho) * (np.log1p(v / rho) + 2.0 * math.log(1.0 / alpha)))
    rhs = math.log(1.0 / alpha) - 0.5 * np.log(4.0 * rho / (v + rho))
    return _one_sided_root(rhs) * np.sqrt(v + rho)


def _mixture_log_martingale(s: np.ndarray, v: np.ndarray, rho: float, alternative: str) -> np.ndarray:
    """log of the normal-mixture martingale at standardised sum ``s`` and time ``v``."""
    if alternative == "two-sided":
        return 0.5 * np.log(rho / (v + rho)) + s * s / (2.0 * (v + rho))
    s = s if alternative == "greater" else -s
    return 0.5 * np.log(4.0 * rho / (v + rho)) + s * s / (2.0 * (v + rho)) + special.log_ndtr(s / np.sqrt(v + rho))


def _running_moments(v: np.ndarray, clusters: Any):
    """Units, running estimate, residual standard deviation per unit, items and clusters seen."""
    if clusters is None:
        sums, sizes = v, np.ones(v.size)
    else:
        sums, sizes = _cluster_units(v, clusters)
    units = np.arange(1, sums.size + 1, dtype=float)
    items = np.cumsum(sizes)
    s1, s2 = np.cumsum(sums), np.cumsum(sums * sums)
    sm, m2 = np.cumsum(sums * sizes), np.cumsum(sizes * sizes)
    estimate = s1 / items
    # mean squared residual (S_j - estimate m_j)^2 over the units seen
    sigma2 = np.maximum((s2 - 2.0 * estimate * sm + estimate * estimate * m2) / units, 0.0)
    return units, items, estimate, np.sqrt(sigma2), None if clusters is None else units.astype(np.int64)


def _asymptotic_cs(v, lo, hi, alpha, alternative, n_opt, min_n, clusters):
    units, items, estimate, sigma, n_clusters = _running_moments(v, clusters)
    if min_n > units.size:
        raise ValueError(f"min_n must be at most the number of units ({units.size}), got {min_n}")
    keep = slice(min_n - 1, None)
    units, items, estimate, sigma = units[keep], items[keep], estimate[keep], sigma[keep]
    rho = _rho(n_opt, alpha, alternative)
    half = sigma * _mixture_boundary(units, rho, alpha, alternative) / items
    low = np.clip(estimate - half, lo, hi) if alternative != "less" else np.full(units.size, lo)
    high = np.clip(estimate + half, lo, hi) if alternative != "greater" else np.full(units.size, hi)
    se = sigma * np.sqrt(units / np.maximum(units - 1.0, 1.0)) * np.sqrt(units) / items
    return (items.astype(np.int64), estimate, se, np.maximum.accumulate(low), np.minimum.accumulate(high),
            None if n_clusters is None else n_clusters[keep])


# ----------------------------------------------------------------------------- public
def confidence_sequence(x: Any, y: Any = None, *, method: str = "betting", alpha: float = 0.05,
                        alternative: str = "two-sided", n_opt: int | None = None, min_n: int | None = None,
                        clusters: Any = None) -> ConfidenceSequence:
    """An anytime-valid confidence sequence for a mean score, or a paired difference of two.

    Parameters
    ----------
    x : array of float
        Scores in ``[0, 1]`` in the order they arrived (0/1 correct, or a graded score).
    y : array of float, optional
        A second model's scores on the same items: the sequence is then for the mean paired
        difference ``x - y`` (in ``[-1, 1]``).
    method : {"betting", "asymptotic"}
        ``"betting"``: Waudby-Smith & Ramdas' hedged capital with predictable plug-in bets,
        valid at every sample size for bounded scores. ``"asymptotic"``: the running mean and
        standard deviation with the normal-mixture boundary, valid as the sample grows, and the
        one that takes clusters.
    alpha : float
        ``P(the mean leaves the sequence at any look) <= alpha``.
    alternative : {"two-sided", "less", "greater"}
        ``"greater"`` gives a lower sequence (for ``H1: mean > value``), ``"less"`` an upper one.
    n_opt : int
        ``method="asymptotic"`` only, and required there: the sample size (in clusters with
        ``clusters=``) at which the boundary is tightest, fixed before the data are seen.
    min_n : int, optional
        ``method="asymptotic"`` only: the first look reported (default 30 units): before it the
        running variance is too unsettled for the asymptotic guarantee.
    clusters : array of labels, optional
        ``method="asymptotic"`` only: the cluster of each item, the items of a cluster contiguous
        (each cluster arrives whole); the units are then the clusters' sums.

    Returns
    -------
    ConfidenceSequence

    Raises
    ------
    ValueError
        Scores outside ``[0, 1]``, ``alpha`` outside ``(0, 1)``, an unknown ``method`` or
        ``alternative``, ``n_opt`` missing for the asymptotic sequence (or given for betting),
        clusters that do not arrive whole.

    References
    ----------
    Waudby-Smith & Ramdas (2024), JRSS-B 86(1); Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas
    (2024), Annals of Statistics 52(6); Howard, Ramdas, McAuliffe & Sekhon (2021), Annals of
    Statistics 49(2). See the module's docstring for the formulas.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).binomial(1, 0.7, size=2000)
    >>> cs = confidence_sequence(x)
    >>> print(f"{cs.estimate[-1]:.3f} [{cs.low[-1]:.3f}, {cs.high[-1]:.3f}] after {cs.n[-1]} items")
    0.697 [0.636, 0.722] after 2000 items
    >>> a = confidence_sequence(x, method="asymptotic", n_opt=2000)
    >>> print(f"[{a.low[-1]:.3f}, {a.high[-1]:.3f}] from n = {a.n[0]}")
    [0.666, 0.713] from n = 30
    """
    method, alpha, alternative = _options(method, alpha, alternative)
    v, lo, hi, paired = _scores(x, y)
    n_opt, min_n = _asymptotic_options(method, v.size, n_opt, min_n, clusters)
    if method == "betting":
        low, high = _betting_cs(v, lo, hi, alpha, alternative)
        n = np.arange(1, v.size + 1)
        estimate = np.cumsum(v) / n
        var = np.maximum(np.cumsum(v * v) / n - estimate ** 2, 0.0) * n / np.maximum(n - 1.0, 1.0)
        return ConfidenceSequence(n, estimate, np.sqrt(var / n), low, high, alpha, alternative, method, paired)
    n, estimate, se, low, high, n_clusters = _asymptotic_cs(v, lo, hi, alpha, alternative, n_opt, min_n, clusters)
    return ConfidenceSequence(n, estimate, se, low, high, alpha, alternative, method, paired, n_opt, n_clusters)


def sequential_pvalue(x: Any, y: Any = None, *, null: float | None = None, method: str = "betting",
                      alpha: float = 0.05, alternative: str = "two-sided", n_opt: int | None = None,
                      min_n: int | None = None, clusters: Any = None) -> SequentialPValue:
    """Always-valid p-values for ``H0: mean = null`` at every look, dual to :func:`confidence_sequence`.

    ``pvalue[k] <= alpha`` exactly when ``null`` has left the sequence of the same arguments by
    look ``n[k]`` (up to the sequence's grid), and under ``H0`` ``P(pvalue <= a at any look) <= a``
    for every ``a`` (asymptotically for ``method="asymptotic"``): one may stop at the first look
    with ``pvalue <= alpha`` without inflating the type I error.

    Parameters
    ----------
    x, y
        As in :func:`confidence_sequence`.
    null : float
        The mean under ``H0``; default 0 for a paired difference, and required for one model's
        mean score. Inside the scores' range (``[0, 1]``, or ``[-1, 1]`` paired).
    method
        As in :func:`confidence_sequence`.
    alpha : float
        The level the bets (betting) or the mixture (asymptotic) are tuned for, as in the sequence.
    alternative, n_opt, min_n, clusters
        As in :func:`confidence_sequence`.

    Returns
    -------
    SequentialPValue

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> a, b = rng.binomial(1, 0.75, 3000), rng.binomial(1, 0.70, 3000)
    >>> p = sequential_pvalue(a, b)
    >>> print(f"p = {p.pvalue[-1]:.4f} after {p.n[-1]} items; first below 0.05 at n = {p.first_rejection()}")
    p = 0.0012 after 3000 items; first below 0.05 at n = 1529
    """
    method, alpha, alternative = _options(method, alpha, alternative)
    v, lo, hi, paired = _scores(x, y)
    if null is None:
        if not paired:
            raise ValueError("null must be given for one model's mean score (the mean under H0, in [0, 1])")
        null = 0.0
    null = check_real(null, "null", low=lo, high=hi)
    n_opt, min_n = _asymptotic_options(method, v.size, n_opt, min_n, clusters)
    if method == "betting":
        log_mart = _betting_log_martingale(v, lo, hi, null, alpha, alternative)
        n = np.arange(1, v.size + 1)
        estimate = np.cumsum(v) / n
    else:
        units, items, estimate, sigma, _ = _running_moments(v, clusters)
        keep = slice(min_n - 1, None)
        units, items, estimate, sigma = units[keep], items[keep], estimate[keep], sigma[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.where(sigma > 0, (estimate - null) * items / sigma, np.sign(estimate - null) * np.inf)
        s = np.nan_to_num(s, nan=0.0)
        log_mart = _mixture_log_martingale(s, units, _rho(n_opt, alpha, alternative), alternative)
        n = items.astype(np.int64)
    statistic = np.maximum(np.maximum.accumulate(log_mart), 0.0)
    return SequentialPValue(n, estimate, statistic, np.exp(-statistic), null, alpha, alternative, method, paired)


def plot_confidence_sequence(cs: ConfidenceSequence, *, truth: float | None = None, ax: Any = None,
                             logx: bool = True):
    """Draw a confidence sequence against the fixed-n interval recomputed at each look.

    Parameters
    ----------
    cs : ConfidenceSequence
    truth : float, optional
        A reference value drawn as a horizontal line (the true mean in a simulation, or 0).
    ax : matplotlib Axes, optional
        Drawn on, else on a new figure.
    logx : bool
        A logarithmic sample-size axis (the sequences shrink like ``sqrt(log n / n)``).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import numpy as np
    >>> cs = confidence_sequence(np.random.default_rng(0).binomial(1, 0.7, size=500))
    >>> ax = plot_confidence_sequence(cs, truth=0.7)
    >>> [t.get_text() for t in ax.get_legend().get_texts()][:2]
    ['confidence sequence (betting)', 'fixed-n interval at each look']
    """
    if not isinstance(cs, ConfidenceSequence):
        raise TypeError(f"cs must be a ConfidenceSequence from confidence_sequence, got {type(cs).__name__}")
    ax = get_axes(ax)
    lo, hi = (-1.0, 1.0) if cs.paired else (0.0, 1.0)
    fixed_low, fixed_high = cs.fixed_n_interval()
    level = f"{100 * (1 - cs.alpha):g}%"
    ax.fill_between(cs.n, cs.low, cs.high, step="post", alpha=0.3, color="C0",
                    label=f"confidence sequence ({cs.method})")
    ax.plot(cs.n, np.clip(fixed_low, lo, hi), color="C1", lw=1, label="fixed-n interval at each look")
    ax.plot(cs.n, np.clip(fixed_high, lo, hi), color="C1", lw=1)
    ax.plot(cs.n, cs.estimate, color="k", lw=0.8, label="running estimate")
    if truth is not None:
        ax.axhline(check_real(truth, "truth"), color="grey", ls="--", lw=1, label="reference value")
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel("items seen" if cs.n_clusters is None else "items seen (at cluster ends)")
    ax.set_ylabel("mean difference" if cs.paired else "mean score")
    ax.set_title(f"{level} confidence sequence and fixed-n intervals")
    ax.legend(loc="upper right", fontsize="small")
    return ax
