"""Group-sequential designs with alpha-spending for a paired difference (Lan & DeMets 1983).

The design fixes in advance the maximum number of paired items ``n_max`` and ``K`` looks at
information fractions ``t_1 < ... < t_K = 1`` (the share of ``n_max`` seen; equal by default).
At look ``k`` the z statistic of the paired mean difference ``Z_k = mean_k / se_k`` is compared
with a boundary ``c_k``; the comparison stops at the first look with ``|Z_k| >= c_k``
(two-sided) or ``Z_k >= c_k`` (``"greater"``). Under ``H0`` the ``Z_k`` are asymptotically
multivariate normal with ``cov(Z_j, Z_k) = sqrt(t_j / t_k)`` (the canonical joint distribution,
Jennison & Turnbull 2000, ch. 3), and the boundaries spend the type I error ``alpha`` as the
spending function ``f(t)`` says: the probability of stopping by look ``k`` is ``f(t_k)``.

Spending functions (``f(1) = alpha``; a two-sided design spends ``alpha/2`` on each side, the
convention of gsDesign's symmetric designs):

* ``"obrien-fleming"``: Lan & DeMets' O'Brien–Fleming type ``f(t) = 2 - 2 Phi(z_{a/2} / sqrt(t))``
  (``a`` the one-sided level; gsDesign's ``sfLDOF``), computed as ``2 Phi(-z_{a/2} / sqrt(t))`` so
  that the tiny amounts spent at the first of many looks do not round to 0;
* ``"pocock"``: Lan & DeMets' Pocock type ``f(t) = a log(1 + (e - 1) t)`` (``sfLDPocock``);
* ``"hsd"``: Hwang, Shih & DeCani's ``f(t) = a (1 - exp(-gamma t)) / (1 - exp(-gamma))``
  (``gamma = 0``: ``a t``; ``sfHSD``), with ``gamma=`` (``-4`` is O'Brien–Fleming-like, ``1``
  Pocock-like).

The boundaries are found one look at a time by the recursive numerical integration of Armitage,
McPherson & Rowe (1969) in the form of Jennison & Turnbull (2000, ch. 19): the sub-density of the
score statistic ``S_k = Z_k sqrt(I_k)`` on the continuation region is propagated from look to look
by Simpson's rule on a grid of 16 points per standard deviation of the increments (the part of
Jennison & Turnbull's ``r``), and each ``c_k`` solves
``P(no stop before k, stop at k) = f(t_k) - f(t_{k-1})`` by Brent's method.

:func:`group_sequential_design` plans the design; :func:`group_sequential_test` tests the data at
each look (with the boundaries recomputed at the observed information fractions if the looks
fell elsewhere than planned, which the spending function allows).

References
----------
K. K. G. Lan and D. L. DeMets (1983), Discrete sequential boundaries for clinical trials,
Biometrika 70(3), 659-663.
I. K. Hwang, W. J. Shih and J. S. DeCani (1990), Group sequential designs using a family of type
I error probability spending functions, Statistics in Medicine 9(12), 1439-1445.
C. Jennison and B. W. Turnbull (2000), Group Sequential Methods with Applications to Clinical
Trials, Chapman & Hall/CRC (ch. 2, 7 and 19).
P. Armitage, C. K. McPherson and B. C. Rowe (1969), Repeated significance tests on accumulating
data, JRSS A 132(2), 235-244.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from .._inference import check_alternative
from .._results import freeze_arrays
from .._validate import check_alpha, check_array, check_choice, check_count, check_real
from ._confseq import _scores

__all__ = ["SPENDING_FUNCTIONS", "GroupSequentialDesign", "GroupSequentialTest", "alpha_spent",
           "group_sequential_design", "group_sequential_test"]

#: The spending functions of :func:`group_sequential_design`.
SPENDING_FUNCTIONS = ("obrien-fleming", "pocock", "hsd")

_ROOT_2PI = math.sqrt(2.0 * math.pi)
_GRID = 16          # grid points per standard deviation of the smallest increment (Simpson)


def alpha_spent(t: Any, alpha: float = 0.025, spending: str = "obrien-fleming", *, gamma: float = -4.0) -> np.ndarray:
    """The cumulative type I error ``f(t)`` a spending function allows by information fraction ``t``.

    Parameters
    ----------
    t : float or array
        Information fractions in ``[0, 1]``.
    alpha : float
        The total, one-sided, level ``f(1)``.
    spending : {"obrien-fleming", "pocock", "hsd"}
    gamma : float
        Hwang–Shih-DeCani's parameter (``spending="hsd"`` only).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> [round(float(a), 5) for a in alpha_spent([0.5, 1.0], 0.025)]
    [0.00153, 0.025]
    """
    alpha = check_alpha(alpha)
    spending = check_choice(spending, "spending", SPENDING_FUNCTIONS)
    t = np.asarray(t, dtype=float)
    if np.any(~np.isfinite(t)) or np.any(t < 0) or np.any(t > 1):
        raise ValueError("t must hold information fractions in [0, 1]")
    if spending == "obrien-fleming":
        with np.errstate(divide="ignore"):
            # 2 sf, not 2 - 2 Phi: the early looks of many spend less than 1e-16, which 1 - Phi rounds to 0
            return np.where(t > 0, 2.0 * stats.norm.sf(stats.norm.isf(alpha / 2.0) / np.sqrt(t)), 0.0)
    if spending == "pocock":
        return alpha * np.log1p((math.e - 1.0) * t)
    gamma = check_real(gamma, "gamma")
    if gamma == 0:
        return alpha * t
    return alpha * (-np.expm1(-gamma * t)) / (-math.expm1(-gamma))


# ----------------------------------------------------------------------------- integration
def _simpson(lo: float, hi: float, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and Simpson weights on [lo, hi] with an even number of panels near ``step`` wide."""
    panels = max(2, 2 * math.ceil((hi - lo) / step / 2))
    x = np.linspace(lo, hi, panels + 1)
    w = np.ones(panels + 1)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return x, w * (hi - lo) / (3.0 * panels)


class _Recursion:
    """The sub-density of the score statistic on the continuation region, look by look
    (Jennison & Turnbull 2000, sec. 19.2), under drift ``theta`` per unit of information."""

    def __init__(self, info: np.ndarray, theta: float = 0.0):
        self.info = info
        self.theta = theta
        self.nodes: np.ndarray | None = None
        self.mass: np.ndarray | None = None   # density times weight at the nodes

    def _step(self, k: int) -> float:
        """The grid spacing at look k: fine against the sd of the statistic and of the increments
        into and out of look k."""
        scales = [self.info[k]] + [self.info[j] - self.info[j - 1] for j in (k, k + 1) if 0 < j < self.info.size]
        return math.sqrt(min(scales)) / _GRID

    def exit_probabilities(self, k: int, c: float, two_sided: bool) -> tuple[float, float]:
        """P(continue to look k, then S_k beyond the upper (and lower) boundary at z = c)."""
        ik = self.info[k]
        bound = c * math.sqrt(ik)
        mean_k = self.theta * ik
        if k == 0:
            up = special.ndtr((mean_k - bound) / math.sqrt(ik))
            down = special.ndtr((-bound - mean_k) / math.sqrt(ik)) if two_sided else 0.0
            return float(up), float(down)
        dk = ik - self.info[k - 1]
        shift = self.nodes + self.theta * dk
        sd = math.sqrt(dk)
        up = float(self.mass @ special.ndtr((shift - bound) / sd))
        down = float(self.mass @ special.ndtr((-bound - shift) / sd)) if two_sided else 0.0
        return up, down

    def advance(self, k: int, c: float, two_sided: bool) -> None:
        """Move the sub-density to look k, restricted to the continuation region at boundary c."""
        ik = self.info[k]
        bound = c * math.sqrt(ik)
        sd_total = math.sqrt(ik)
        mean_k = self.theta * ik
        lo = -bound if two_sided else mean_k - 8.0 * sd_total
        lo = max(lo, mean_k - 8.0 * sd_total)
        hi = min(bound, mean_k + 8.0 * sd_total)
        if hi <= lo:
            self.nodes, self.mass = np.array([0.0]), np.array([0.0])
            return
        nodes, weights = _simpson(lo, hi, self._step(k))
        if k == 0:
            density = np.exp(-0.5 * ((nodes - mean_k) / sd_total) ** 2) / (sd_total * _ROOT_2PI)
        else:
            dk = ik - self.info[k - 1]
            sd = math.sqrt(dk)
            gap = (nodes[:, None] - self.nodes[None, :] - self.theta * dk) / sd
            density = np.exp(-0.5 * gap * gap) @ self.mass / (sd * _ROOT_2PI)
        self.nodes, self.mass = nodes, density * weights


def _boundaries(fractions: np.ndarray, spent: np.ndarray, two_sided: bool) -> np.ndarray:
    """z boundaries c_k spending ``spent[k] - spent[k-1]`` per side at each look."""
    rec = _Recursion(fractions.copy())
    out = np.empty(fractions.size)
    previous = 0.0
    for k in range(fractions.size):
        target = spent[k] - previous
        previous = spent[k]
        if target <= 0:
            out[k] = np.inf
        else:
            def gap(c: float) -> float:
                return rec.exit_probabilities(k, c, two_sided)[0] - target
            if gap(0.0) <= 0:  # nothing left to spend beyond the mass already there
                out[k] = 0.0
            else:
                out[k] = optimize.brentq(gap, 0.0, 40.0, xtol=1e-10)
        rec.advance(k, out[k], two_sided)
    return out


def _exit_by_look(info: np.ndarray, bounds: np.ndarray, two_sided: bool, theta: float = 0.0) -> np.ndarray:
    """P(stop at look k) (either side) for z boundaries ``bounds`` at information ``info`` (the
    fractions, or items on the z scale), drift ``theta`` per unit of information."""
    rec = _Recursion(np.asarray(info, dtype=float).copy(), theta)
    out = np.empty(rec.info.size)
    for k in range(rec.info.size):
        up, down = rec.exit_probabilities(k, bounds[k], two_sided)
        out[k] = up + down
        rec.advance(k, bounds[k], two_sided)
    return out


# ----------------------------------------------------------------------------- design
@dataclass(frozen=True, eq=False)
class GroupSequentialDesign:
    """A group-sequential design with alpha-spending boundaries on the z scale.

    Attributes
    ----------
    n_max : int
        The planned maximum number of paired items.
    looks : numpy.ndarray
        The planned number of items at each look (``round(fraction * n_max)``).
    fractions : numpy.ndarray
        The information fractions ``t_k``.
    boundary : numpy.ndarray
        The z boundaries ``c_k`` (reject at look ``k`` when ``|Z_k| >= c_k``, or ``Z_k >= c_k``
        for ``"greater"``, ``Z_k <= -c_k`` for ``"less"``).
    nominal_alpha : numpy.ndarray
        The fixed-n p-value each boundary corresponds to (``P(|Z| >= c_k)`` or one-sided).
    alpha_spent : numpy.ndarray
        The cumulative type I error spent by each look (both sides for two-sided designs).
    alpha, alternative, spending : float, str, str
    gamma : float or None
        Hwang–Shih-DeCani's parameter, for ``spending="hsd"``.
    """

    n_max: int
    looks: np.ndarray
    fractions: np.ndarray
    boundary: np.ndarray
    nominal_alpha: np.ndarray
    alpha_spent: np.ndarray
    alpha: float
    alternative: str
    spending: str
    gamma: float | None = None

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def rejection_probabilities(self, effect: float = 0.0, sd: float = 1.0) -> np.ndarray:
        """P(stop at each look) when the paired differences have mean ``effect`` and standard
        deviation ``sd``, by the same recursion as the boundaries.

        Parameters
        ----------
        effect : float, default 0.0
            The true mean of the paired differences (0: the probabilities are the alpha spent
            per look).
        sd : float > 0, default 1.0
            Their standard deviation.

        Returns
        -------
        numpy.ndarray
            One probability per look of stopping there (rejecting) and not before.
        """
        sd = check_real(sd, "sd", low=0.0, low_open=True)
        theta = check_real(effect, "effect") / sd
        info = self.fractions * self.n_max            # information per item = 1 / sd^2 on the z scale
        sign = -1.0 if self.alternative == "less" else 1.0
        return _exit_by_look(info, self.boundary, self.alternative == "two-sided", sign * theta)


def _fractions(looks: Any, fractions: Any) -> np.ndarray:
    if fractions is None:
        k = 5 if looks is None else check_count(looks, "looks", minimum=1)
        return np.arange(1, k + 1) / k
    f = check_array(fractions, "fractions", what="information fractions")
    if looks is not None and check_count(looks, "looks", minimum=1) != f.size:
        raise ValueError(f"looks ({looks}) and the number of fractions ({f.size}) must agree")
    if np.any(f <= 0) or np.any(np.diff(f) <= 0) or f[-1] != 1.0:
        raise ValueError("fractions must increase strictly from above 0 to exactly 1 (the last look at n_max)")
    return f


def _design(n_max: int, f: np.ndarray, alpha: float, alternative: str, spending: str,
            gamma: float | None) -> GroupSequentialDesign:
    two_sided = alternative == "two-sided"
    per_side = alpha / 2.0 if two_sided else alpha
    spent = alpha_spent(f, per_side, spending, gamma=-4.0 if gamma is None else gamma)
    bounds = _boundaries(f, spent, two_sided)
    nominal = stats.norm.sf(bounds) * (2.0 if two_sided else 1.0)
    cumulative = np.cumsum(_exit_by_look(f, bounds, two_sided))
    looks = np.maximum(1, np.round(f * n_max)).astype(np.int64)
    return GroupSequentialDesign(n_max, looks, f, bounds, nominal, cumulative, alpha, alternative,
                                 spending, gamma)


def group_sequential_design(n_max: int, looks: int | None = None, *, fractions: Any = None, alpha: float = 0.05,
                            alternative: str = "two-sided", spending: str = "obrien-fleming",
                            gamma: float | None = None) -> GroupSequentialDesign:
    """Plan a group-sequential comparison: ``looks`` looks at up to ``n_max`` paired items.

    Parameters
    ----------
    n_max : int
        The maximum number of paired items, fixed in advance.
    looks : int, optional
        The number of looks K, equally spaced (default 5; the length of ``fractions`` if given).
    fractions : array of float, optional
        The information fractions of the looks, increasing to 1.
    alpha : float
        The overall type I error (two-sided: ``alpha/2`` spent on each side).
    alternative : {"two-sided", "less", "greater"}
    spending : {"obrien-fleming", "pocock", "hsd"}
        The alpha-spending function (Lan & DeMets' two types, or Hwang–Shih-DeCani's).
    gamma : float, optional
        Hwang–Shih-DeCani's parameter (``spending="hsd"`` only; default -4).

    Returns
    -------
    GroupSequentialDesign

    References
    ----------
    Lan & DeMets (1983); Hwang, Shih & DeCani (1990); Jennison & Turnbull (2000, ch. 7, 19).

    Examples
    --------
    >>> d = group_sequential_design(1000, 5, alpha=0.05)
    >>> [round(float(c), 3) for c in d.boundary]
    [4.877, 3.357, 2.68, 2.29, 2.031]
    >>> d.looks.tolist()
    [200, 400, 600, 800, 1000]
    """
    n_max = check_count(n_max, "n_max", minimum=2)
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative)
    spending = check_choice(spending, "spending", SPENDING_FUNCTIONS)
    if gamma is not None and spending != "hsd":
        raise ValueError("gamma= belongs to spending='hsd'")
    if spending == "hsd":
        gamma = -4.0 if gamma is None else check_real(gamma, "gamma")
    f = _fractions(looks, fractions)
    return _design(n_max, f, alpha, alternative, spending, gamma)


@dataclass(frozen=True, eq=False)
class GroupSequentialTest:
    """The data tested at the looks of a :class:`GroupSequentialDesign`.

    Attributes
    ----------
    n : numpy.ndarray
        The items at each look reached (the looks after a stop are not taken).
    estimate, se, statistic : numpy.ndarray
        The paired mean difference, its standard error and ``Z = estimate / se`` at each look.
    boundary : numpy.ndarray
        The z boundary used at each look (recomputed at the observed fractions ``n / n_max``).
    nominal_pvalue : numpy.ndarray
        The fixed-n p-value of each look's z (not a valid p-value for the sequence).
    reject : bool
        Whether a boundary was crossed.
    stopped_at : int or None
        The number of items at the look that crossed, else None.
    design : GroupSequentialDesign
    """

    n: np.ndarray
    estimate: np.ndarray
    se: np.ndarray
    statistic: np.ndarray
    boundary: np.ndarray
    nominal_pvalue: np.ndarray
    reject: bool
    stopped_at: int | None
    design: GroupSequentialDesign

    def __post_init__(self) -> None:
        freeze_arrays(self)


def group_sequential_test(x: Any, y: Any = None, design: GroupSequentialDesign | None = None, *,
                          looks: Any = None) -> GroupSequentialTest:
    """Test paired scores at the looks of a group-sequential design, stopping at the first crossing.

    Parameters
    ----------
    x, y : array of float
        The two models' scores on the same items in ``[0, 1]``, in arrival order (``y`` omitted:
        ``x`` holds the paired differences, in ``[-1, 1]``).
    design : GroupSequentialDesign
        From :func:`group_sequential_design`.
    looks : array of int, optional
        The numbers of items at which the looks were actually taken (default: the design's
        planned looks that the data reach). The boundaries are recomputed for the observed
        fractions ``looks / n_max`` with the design's spending function; the last look may not
        exceed ``n_max``.

    Returns
    -------
    GroupSequentialTest

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(3)
    >>> a, b = rng.binomial(1, 0.80, 1000), rng.binomial(1, 0.72, 1000)
    >>> r = group_sequential_test(a, b, group_sequential_design(1000, 5))
    >>> r.reject, r.stopped_at, round(float(r.statistic[-1]), 2), round(float(r.boundary[-1]), 3)
    (True, 400, 4.11, 3.357)
    """
    if not isinstance(design, GroupSequentialDesign):
        raise TypeError("design must be a GroupSequentialDesign from group_sequential_design, got "
                        f"{type(design).__name__}")
    if y is None:
        d = check_array(x, "x", what="paired differences")
        if d.min() < -1.0 or d.max() > 1.0:
            raise ValueError(f"x must hold paired differences in [-1, 1], got values from {d.min():g} to {d.max():g}")
    else:
        d = _scores(x, y)[0]
    if looks is None:
        planned = design.looks[design.looks <= d.size]
        if planned.size == 0:
            raise ValueError(f"the data ({d.size} items) do not reach the design's first look ({design.looks[0]})")
        at = planned
        f = design.fractions[: at.size]
    else:
        at = np.asarray(check_array(looks, "looks", what="look sizes"), dtype=float)
        if np.any(at != np.round(at)) or np.any(np.diff(at) <= 0) or at[0] < 2:
            raise ValueError("looks must be increasing whole numbers of items, the first at least 2")
        if at[-1] > design.n_max or at[-1] > d.size:
            raise ValueError(f"looks may not pass n_max ({design.n_max}) or the data ({d.size} items)")
        at = at.astype(np.int64)
        f = at / design.n_max
    two_sided = design.alternative == "two-sided"
    per_side = design.alpha / 2.0 if two_sided else design.alpha
    gamma = -4.0 if design.gamma is None else design.gamma
    bounds = _boundaries(f, alpha_spent(f, per_side, design.spending, gamma=gamma), two_sided)
    csum, csq = np.cumsum(d), np.cumsum(d * d)
    m = at.astype(float)
    est = csum[at - 1] / m
    var = np.maximum(csq[at - 1] / m - est ** 2, 0.0) * m / (m - 1.0)
    se = np.sqrt(var / m)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, est / se, np.sign(est) * np.inf)
    z = np.nan_to_num(z, nan=0.0)
    if design.alternative == "two-sided":
        crossed = np.abs(z) >= bounds
        nominal = 2.0 * stats.norm.sf(np.abs(z))
    elif design.alternative == "greater":
        crossed, nominal = z >= bounds, stats.norm.sf(z)
    else:
        crossed, nominal = z <= -bounds, stats.norm.cdf(z)
    hit = np.flatnonzero(crossed)
    last = hit[0] + 1 if hit.size else at.size
    stopped = int(at[hit[0]]) if hit.size else None
    return GroupSequentialTest(at[:last], est[:last], se[:last], z[:last], bounds[:last],
                               np.minimum(nominal[:last], 1.0), bool(hit.size), stopped, design)
