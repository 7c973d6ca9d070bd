"""What peeking costs: stopping at the first fixed-n p < alpha, against the anytime-valid remedies.

:func:`peeking_study` simulates paired 0/1 comparisons (model A right and B wrong with
probability ``(discordance + effect)/2``, the reverse with ``(discordance - effect)/2``, so the true
mean difference is ``effect``) looked at ``looks`` times, equally spaced up to ``n_max`` items,
and counts how often each rule rejects ``H0: no difference``:

* ``"fixed-n"``: one z test at ``n_max`` (the plan the p-value assumes);
* ``"every look"``: the z test at every look, stopping at the first ``p <= alpha`` (peeking; its
  rejection rate under ``H0`` grows with the number of looks, Armitage, McPherson & Rowe 1969);
* ``"alpha-spending"``: the O'Brien–Fleming-type group-sequential design with the same looks
  (:func:`~evallib.sequential.group_sequential_design`);
* ``"confidence sequence"``: the betting sequence (:func:`~evallib.sequential.sequential_pvalue`)
  checked at the same looks, rejecting when 0 has left it.

Each rate comes with its Monte Carlo standard error ``sqrt(r (1 - r) / n_resamples)``; the mean
number of items at the stop measures what the sequential rules save (or cost). Every rule is read
on the same simulated streams, so two rules' rejections are correlated and the standard error of
the difference of two rates is not ``sqrt(se_a^2 + se_b^2)``: :meth:`PeekingStudy.difference`
computes it from the paired per-stream outcomes. The simulation is
vectorised over the replicates (one array of ``n_resamples x n_max`` items), so the default runs in
a few hundredths of a second: fast enough for a slider.

:func:`peeking_signflip_rate` needs no simulation: for one observed stream of paired 0/1 scores
it gives the exact false-find rate of the "every look" rule under the permutation null that swaps
the two models' labels on each item with probability 1/2. A swap flips the sign of a discordant
item's difference and leaves a concordant one at 0, so at each look the z statistic depends only
on the number ``B`` of discordant items seen so far that favour the first model; the rate is a
recursion over the looks on the distribution of ``B`` among the paths that have not yet rejected
(a binomial convolution between looks), exact to rounding.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._results import freeze_arrays
from .._validate import check_alpha, check_array, check_choice, check_count, check_real, check_rng
from ._confseq import _betting_log_martingale
from ._groupseq import group_sequential_design

__all__ = ["PEEKING_RULES", "PeekingStudy", "peeking_signflip_rate", "peeking_study"]

#: The stopping rules compared by :func:`peeking_study`, in the order of its arrays.
PEEKING_RULES = ("fixed-n", "every look", "alpha-spending", "confidence sequence")


@dataclass(frozen=True, eq=False)
class PeekingStudy:
    """Rejection rates of the stopping rules :data:`PEEKING_RULES` in simulated paired comparisons.

    Attributes
    ----------
    rules : tuple of str
    rejection_rate : numpy.ndarray
        The share of the simulated comparisons each rule stopped with a rejection (the type I
        error when ``effect = 0``, the power otherwise).
    se : numpy.ndarray
        Its Monte Carlo standard error.
    mean_n : numpy.ndarray
        The mean number of items at which each rule stopped (``n_max`` when it never rejected).
    effect, discordance, alpha : float
    n_max, looks, n_resamples : int
    rejected : numpy.ndarray of bool
        ``rejected[i, j]``: whether rule ``rules[i]`` rejected in simulated comparison ``j``
        (shape ``(len(rules), n_resamples)``; every rule saw the same streams). Its row means are
        ``rejection_rate``; :meth:`difference` reads it in pairs.
    """

    rules: tuple[str, ...]
    rejection_rate: np.ndarray
    se: np.ndarray
    mean_n: np.ndarray
    effect: float
    discordance: float
    alpha: float
    n_max: int
    looks: int
    n_resamples: int
    rejected: np.ndarray = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def difference(self, rule_a: str, rule_b: str) -> tuple[float, float]:
        """The difference of two rules' rejection rates and its paired Monte Carlo standard error.

        The two rules were read on the same simulated streams, so their rejections are
        correlated (positively, as a rule: a stream that drifts far rejects under both). The
        standard error of the difference is therefore computed from the per-stream differences
        ``h_a - h_b`` of the two 0/1 outcomes, ``sqrt(var(h_a - h_b) / n_resamples)`` with the
        population variance (as ``se`` is ``sqrt(r (1 - r) / n_resamples)``), not from
        ``sqrt(se_a^2 + se_b^2)``, which treats the two rates as independent and overstates it
        when they are positively correlated.

        Parameters
        ----------
        rule_a, rule_b : str
            Two of ``rules`` (:data:`PEEKING_RULES`); the difference is ``rule_a``'s rate minus
            ``rule_b``'s.

        Returns
        -------
        estimate : float
            ``rejection_rate[rule_a] - rejection_rate[rule_b]``.
        se : float
            Its Monte Carlo standard error over the ``n_resamples`` paired streams.

        Raises
        ------
        ValueError
            A rule that is not one of ``rules``.

        Examples
        --------
        At a true difference of 0.02 the fixed-n test rejects a little more often than the
        alpha-spending design. Paired, the gap is about 2.5 Monte Carlo SEs; with the two rates'
        SEs combined as if independent it would look like less than one.

        >>> import math
        >>> s = peeking_study(0.02, looks=10, n_resamples=2000, rng=0)
        >>> estimate, se = s.difference("fixed-n", "alpha-spending")
        >>> print(f"{estimate:.4f} (paired SE {se:.4f}; as if independent {math.hypot(*s.se[[0, 2]]):.4f})")
        0.0120 (paired SE 0.0048; as if independent 0.0142)
        >>> s.difference("fixed-n", "fixed n")
        Traceback (most recent call last):
        ...
        ValueError: rule_b must be one of 'fixed-n', 'every look', 'alpha-spending', 'confidence sequence', got 'fixed n'
        """
        i = self.rules.index(check_choice(rule_a, "rule_a", self.rules))
        j = self.rules.index(check_choice(rule_b, "rule_b", self.rules))
        h = self.rejected[i].astype(float) - self.rejected[j]
        estimate = float(np.mean(h))
        var = max(float(np.mean(h * h)) - estimate ** 2, 0.0)
        return estimate, math.sqrt(var / self.n_resamples)

    def to_frame(self) -> pd.DataFrame:
        """The study as a table.

        Returns
        -------
        pandas.DataFrame
            One row per rule (index ``rule``), columns ``rejection_rate``, ``se`` (its Monte
            Carlo standard error) and ``mean_n`` (the mean sample size at stopping); ``attrs``
            hold the setting.
        """
        frame = pd.DataFrame({"rejection_rate": self.rejection_rate, "se": self.se, "mean_n": self.mean_n},
                             index=pd.Index(self.rules, name="rule"))
        frame.attrs.update(alpha=self.alpha, looks=self.looks, n_max=self.n_max, effect=self.effect,
                           n_resamples=self.n_resamples)
        return frame


def _look_points(looks: int, n_max: int) -> np.ndarray:
    """The items seen at each of ``looks`` equally spaced looks up to ``n_max``."""
    return np.round(np.arange(1, looks + 1) / looks * n_max).astype(np.int64)


def _paired_z(s: Any, q: Any, n: Any) -> np.ndarray:
    """The z statistic of the paired mean after ``n`` items from the sum ``s`` of the differences and
    the sum ``q`` of their squares (the sample SD with ``n - 1``; 0 where the SD is 0)."""
    s, q, n = (np.asarray(v, dtype=float) for v in (s, q, n))
    var = np.maximum(q / n - (s / n) ** 2, 0.0) * n / (n - 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(var > 0, (s / n) / np.sqrt(var / n), 0.0)


@lru_cache(maxsize=64)
def _obrien_fleming(n_max: int, looks: int, alpha: float) -> np.ndarray:
    """The O'Brien–Fleming-type boundaries of the study's design (computed once per setting)."""
    return group_sequential_design(n_max, looks, alpha=alpha, spending="obrien-fleming").boundary


def _streams(gen: np.random.Generator, effect: float, discordance: float, alpha: float, n_max: int,
             n_resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """The simulated paired differences and where the betting sequence has left 0, at every item.

    ``d[j, t]`` is comparison ``j``'s difference (-1, 0 or +1) at item ``t + 1`` (as ``int8``);
    ``above[j, t]`` whether its log capital at 0 has reached ``log(1/alpha)`` after ``t + 1``
    items. Neither depends on the number of looks, which only chooses the items read.
    """
    p_win, p_loss = (discordance + effect) / 2.0, (discordance - effect) / 2.0
    u = gen.random((n_resamples, n_max))
    d = (u < p_win).astype(float) - (u >= 1.0 - p_loss)
    log_capital = _betting_log_martingale(d, -1.0, 1.0, 0.0, alpha, "two-sided")
    return d.astype(np.int8), log_capital >= math.log(1.0 / alpha)


#: the largest ``n_resamples * n_max`` whose streams :func:`_seeded_streams` keeps (2 bytes an item)
_CACHE_ITEMS = 1_200_000


@lru_cache(maxsize=16)
def _seeded_streams(seed: int, effect: float, discordance: float, alpha: float, n_max: int,
                    n_resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_streams` for an integer seed, computed once per setting (read-only arrays).

    A seed gives the same uniforms whatever the looks, so a slider over the looks, or a table
    over several looks at one true difference, reuses the streams and the betting martingale
    (the costly part) instead of drawing and betting again: the numbers are those of a fresh run.
    """
    d, above = _streams(check_rng(seed), effect, discordance, alpha, n_max, n_resamples)
    d.flags.writeable = above.flags.writeable = False
    return d, above


def peeking_study(effect: float = 0.0, *, looks: int = 10, n_max: int = 1000, discordance: float = 0.2,
                  alpha: float = 0.05, n_resamples: int = 1000, rng: Any = None) -> PeekingStudy:
    """Simulate "stop at the first p < alpha" against a confidence sequence and alpha-spending.

    Parameters
    ----------
    effect : float
        The true mean paired difference ``P(A right, B wrong) - P(A wrong, B right)``; 0 under
        ``H0``. At most ``discordance`` in absolute value.
    looks : int
        The number of looks, equally spaced up to ``n_max`` items.
    n_max : int
        The items at the last look.
    discordance : float
        ``P(the two models disagree on an item)``, in ``(0, 1]``.
    alpha : float
        The level of every rule (two-sided).
    n_resamples : int
        Simulated comparisons.
    rng : None, int, SeedSequence or Generator

    Returns
    -------
    PeekingStudy

    Examples
    --------
    >>> s = peeking_study(0.0, looks=10, n_resamples=4000, rng=0)
    >>> for rule, r, se in zip(s.rules, s.rejection_rate, s.se):
    ...     print(f"{rule:20s} {r:.3f} ± {se:.3f}")
    fixed-n              0.055 ± 0.004
    every look           0.207 ± 0.006
    alpha-spending       0.054 ± 0.004
    confidence sequence  0.016 ± 0.002
    """
    discordance = check_real(discordance, "discordance", low=0.0, high=1.0, low_open=True)
    effect = check_real(effect, "effect", low=-discordance, high=discordance,
                        note="the true difference cannot exceed the discordance")
    looks = check_count(looks, "looks", minimum=1)
    n_max = check_count(n_max, "n_max", minimum=2 * looks)
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    gen = check_rng(rng)

    # an integer seed always gives the same streams: those of a small study are computed once per setting
    if isinstance(rng, numbers.Integral) and n_resamples * n_max <= _CACHE_ITEMS:
        d, above = _seeded_streams(int(rng), effect, discordance, alpha, n_max, n_resamples)
    else:
        d, above = _streams(gen, effect, discordance, alpha, n_max, n_resamples)
    d = d.astype(float)
    at = _look_points(looks, n_max)

    # the z statistic of the paired mean at each look (sum of d, sum of d^2 = number of discordant)
    z = _paired_z(np.cumsum(d, axis=1)[:, at - 1], np.cumsum(d * d, axis=1)[:, at - 1], at)
    z_alpha = -special.ndtri(alpha / 2.0)
    crossed = {
        "fixed-n": np.abs(z[:, -1:]) >= z_alpha,
        "every look": np.abs(z) >= z_alpha,
        "alpha-spending": np.abs(z) >= _obrien_fleming(n_max, looks, alpha),
        "confidence sequence": above[:, at - 1],
    }
    rejected, mean_n = [], []
    for rule in PEEKING_RULES:
        hit = crossed[rule]
        any_hit = hit.any(axis=1)
        first = np.where(any_hit, hit.argmax(axis=1), hit.shape[1] - 1)
        stop = at[first] if rule != "fixed-n" else np.full(n_resamples, n_max)
        rejected.append(any_hit)
        mean_n.append(stop.mean())
    rejected = np.array(rejected)
    rate = rejected.mean(axis=1)
    return PeekingStudy(PEEKING_RULES, rate, np.sqrt(rate * (1.0 - rate) / n_resamples), np.array(mean_n),
                        effect, discordance, alpha, n_max, looks, n_resamples, rejected)


def peeking_signflip_rate(x: Any, y: Any, *, looks: int = 10, alpha: float = 0.05) -> float:
    """The exact false-find rate of "stop at the first p <= alpha" on one stream, under label swaps.

    Two models' 0/1 scores on the same items, in the order the items arrived. Under the
    permutation null, the two models' labels are swapped on each item independently with
    probability 1/2 (the two are then equally good by construction, and the items keep their
    real discordance and order). The rule is :func:`peeking_study`'s ``"every look"``: the
    two-sided paired z test (sample SD) at ``looks`` equally spaced looks, stopping at the first
    with ``|z| >= z_{1 - alpha/2}``. The rate is exact (a recursion over the looks, see the
    module's docstring), not simulated: what a simulation of swapped streams estimates.

    Parameters
    ----------
    x, y : array of 0/1
        The two models' scores (1 right, 0 wrong) on the same items, in arrival order.
    looks : int
        The number of looks, equally spaced up to all the items (at least 2 items a look).
    alpha : float
        The nominal level of the z test at each look, in (0, 1).

    Returns
    -------
    float
        The probability, over the ``2^m`` equally likely swaps of the ``m`` discordant items,
        that some look rejects. With ``looks=1`` it is the exact size of the fixed-n z test on
        these items, which is not exactly ``alpha``: the sum of ``m`` signs is discrete and the
        z test a normal approximation.

    Raises
    ------
    ValueError
        Scores other than 0 and 1, ``x`` and ``y`` of different lengths, fewer than two items
        a look, ``alpha`` outside (0, 1).

    Examples
    --------
    Twenty items, every other one discordant. At one look (all 20 items, 10 discordant) the z
    test rejects when at least 8 of the 10 signs agree, with probability ``2 (1 + 10 + 45) / 2^10``;
    a second, earlier look at 10 items (5 discordant) adds the paths whose first 5 signs all agree.

    >>> x, y = [1] * 20, [0, 1] * 10
    >>> round(peeking_signflip_rate(x, y, looks=1), 6), round(2 * 56 / 2 ** 10, 6)
    (0.109375, 0.109375)
    >>> round(peeking_signflip_rate(x, y, looks=2), 6)
    0.140625
    """
    x = check_array(x, "x", what="0/1 scores")
    y = check_array(y, "y", what="0/1 scores")
    for name, v in (("x", x), ("y", y)):
        if not np.isin(v, (0.0, 1.0)).all():
            raise ValueError(f"{name} must hold 0/1 scores (1 right, 0 wrong), got values from "
                             f"{v.min():g} to {v.max():g}")
    if x.shape != y.shape:
        raise ValueError(f"x and y must hold the same items (paired), got {x.size} and {y.size} scores")
    looks = check_count(looks, "looks", minimum=1)
    if x.size < 2 * looks:
        raise ValueError(f"looks must leave at least 2 items a look: {x.size} items allow at most "
                         f"{x.size // 2} looks, got {looks}")
    alpha = check_alpha(alpha)
    at = _look_points(looks, x.size)
    discordant = np.cumsum(x != y)[at - 1]
    z_alpha = -special.ndtri(alpha / 2.0)
    # alive[b]: the probability of b discordant items favouring x so far, on paths not yet stopped
    alive = np.ones(1)
    seen = 0
    for n, m in zip(at, discordant):
        if m > seen:
            alive = np.convolve(alive, stats.binom.pmf(np.arange(m - seen + 1), m - seen, 0.5))
            seen = int(m)
        b = np.arange(seen + 1)
        alive[np.abs(_paired_z(2.0 * b - seen, seen, n)) >= z_alpha] = 0.0
    return float(min(1.0, max(0.0, 1.0 - alive.sum())))
