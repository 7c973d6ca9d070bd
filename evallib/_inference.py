"""The t/z result core: from an estimate and its standard error to a statistic, a p-value
and an interval, written once for every test of evallib that is "estimate / se".

:func:`t_inference` takes ``estimate``, ``se``, the degrees of freedom ``df`` (``None`` or
``inf``: the standard normal reference) and ``alternative``, and returns the statistic
``(estimate - null) / se``, its p-value and the ``1 - alpha`` interval (one-sided for a
one-sided alternative). :func:`tail_pvalue` is the p-value of a statistic alone and
:func:`critical_value` the quantile an interval is built with.

Alternatives
------------
``alternative`` is scipy's spelling (:data:`ALTERNATIVES`): ``"two-sided"`` (default),
``"less"`` (H1: the true value is below ``null``) or ``"greater"`` (above it). A
one-sided test comes with the one-sided interval that it inverts: ``"greater"`` gives
``[estimate - q se, +inf)`` and ``"less"`` gives ``(-inf, estimate + q se]`` with ``q``
the ``1 - alpha`` quantile (a caller whose parameter is bounded clips to its range).

The zero-variance rule
----------------------
A standard error computed in floating point from numbers that are all equal is rarely
exactly 0, and the estimate of a difference of equal numbers rarely exactly 0 either;
their ratio is then round-off over round-off, any value at all. One rule decides what
counts as zero, for every caller:

1. **Zero** means *at most* ``ZERO_RTOL = 1e-12`` *times the magnitude of the numbers the
   quantity was computed from* (the caller's ``scale``; 1 for proportions, AUCs and
   scores in [0, 1]): ``se`` is 0 when ``se <= ZERO_RTOL * scale``, and the estimate
   equals the null when ``|estimate - null| <= ZERO_RTOL * scale``. A variance obtained
   by subtracting variances (``S_aa + S_bb - 2 S_ab``) is judged the same way against the
   variances it was computed from, before its square root is taken
   (:func:`se_from_variance`).
2. With ``se = 0`` and the estimate equal to the null, there is no evidence of a
   difference: ``statistic = 0`` and ``pvalue = 1`` whatever the alternative; the
   estimate is reported as the null itself.
3. With ``se = 0`` and the estimate away from the null, the difference is the same in
   every unit: ``statistic = +inf`` or ``-inf`` (the sign of ``estimate - null``) and the
   p-value is the formula's limit, 0 for the two-sided test and for the one-sided test
   in that direction, 1 for the one-sided test in the other direction.
4. In both cases the interval is the single point ``estimate`` (or its one-sided ray).

So a test is never NaN on legal input.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import special, stats

from ._validate import check_choice

__all__ = ["ALTERNATIVES", "ZERO_RTOL", "TZResult", "check_alternative", "critical_value",
           "se_from_variance", "t_inference", "tail_pvalue", "wilson_effective", "wilson_interval"]

#: scipy's spellings of the alternative hypothesis, the default first.
ALTERNATIVES = ("two-sided", "less", "greater")

#: the relative tolerance of the zero-variance rule (see the module docstring).
ZERO_RTOL = 1e-12


class TZResult(NamedTuple):
    """What :func:`t_inference` returns (floats, or arrays for array input)."""

    estimate: Any
    se: Any
    statistic: Any
    pvalue: Any
    low: Any
    high: Any


def check_alternative(alternative: Any) -> str:
    """Return ``alternative`` if it is one of :data:`ALTERNATIVES`, else raise ``ValueError``.

    Examples
    --------
    >>> check_alternative("less")
    'less'
    """
    return check_choice(alternative, "alternative", ALTERNATIVES)


def _normal(df: Any) -> bool:
    return df is None or (np.ndim(df) == 0 and math.isinf(float(df)))


def tail_pvalue(statistic: Any, df: Any = None, alternative: str = "two-sided") -> Any:
    """The p-value of a t (``df``) or z (``df=None`` or ``inf``) statistic.

    ``"two-sided"``: ``2 P(T >= |t|)`` (at most 1); ``"greater"``: ``P(T >= t)``;
    ``"less"``: ``P(T <= t)``. Infinite statistics give the limits 0 and 1.

    Parameters
    ----------
    statistic : float or array
    df : float, array or None
        Degrees of freedom of Student's t; ``None`` or ``inf`` for the standard normal.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> round(tail_pvalue(1.96), 4), round(tail_pvalue(1.96, alternative="greater"), 4)
    (0.05, 0.025)
    """
    alternative = check_alternative(alternative)
    # the special functions scipy.stats.t and .norm evaluate (``t.cdf(x, df)`` is ``stdtr(df, x)``,
    # ``norm.cdf(x)`` is ``ndtr(x)``): the same numbers, nan where df <= 0, without the
    # distribution's argument handling, which costs a simulation calling this per data set
    # about a millisecond a call
    t = np.asarray(statistic, dtype=float)
    cdf = special.ndtr if _normal(df) else (lambda x: special.stdtr(df, x))
    if alternative == "greater":
        p = cdf(-t)
    elif alternative == "less":
        p = cdf(t)
    else:
        p = np.minimum(1.0, 2.0 * cdf(-np.abs(t)))
    return float(p) if np.ndim(p) == 0 else p


def critical_value(alpha: float, df: Any = None, alternative: str = "two-sided") -> Any:
    """The quantile ``q`` of a ``1 - alpha`` interval ``estimate -/+ q se``.

    ``z_{alpha/2}`` (or ``t_{alpha/2, df}``) for ``"two-sided"``, ``z_alpha`` (``t_{alpha, df}``)
    for a one-sided interval.

    Examples
    --------
    >>> round(critical_value(0.05), 3), round(critical_value(0.05, alternative="less"), 3)
    (1.96, 1.645)
    """
    alternative = check_alternative(alternative)
    tail = np.asarray(alpha / 2.0 if alternative == "two-sided" else alpha, dtype=float)
    # scipy.stats' isf, -ndtri(tail) or -stdtrit(df, tail), without its argument handling
    # (+ 0.0: 0 rather than -0 at tail 1/2; stdtrit's -inf at tail 0 is isf's +inf)
    q = -special.ndtri(tail) if _normal(df) else -special.stdtrit(df, tail)
    q = np.where((tail == 0.0) & ~np.isnan(q), np.inf, q + 0.0)
    return float(q) if np.ndim(q) == 0 else q


def se_from_variance(variance: Any, scale: Any) -> Any:
    """``sqrt(variance)``, or 0 where the variance is zero by the rule of this module.

    For a variance computed by subtraction (``S_aa + S_bb - 2 S_ab``, ``A - B``): it is 0
    when at most ``ZERO_RTOL * scale``, ``scale`` the magnitude of the variances it was
    computed from; negative round-off is 0 too.

    Examples
    --------
    >>> se_from_variance(0.04, 0.04), se_from_variance(1e-18, 0.04)
    (0.2, 0.0)
    """
    var = np.asarray(variance, dtype=float)
    out = np.where(var <= ZERO_RTOL * np.asarray(scale, dtype=float), 0.0, np.sqrt(np.maximum(var, 0.0)))
    return float(out) if out.ndim == 0 else out


def t_inference(estimate: Any, se: Any, *, df: Any = None, null: float = 0.0,
                alternative: str = "two-sided", alpha: float = 0.05, scale: Any = 1.0) -> TZResult:
    """Statistic, p-value and interval of ``(estimate - null) / se`` on t(``df``) or N(0, 1).

    Parameters
    ----------
    estimate, se : float or array
        The estimate and its standard error (``se >= 0``); arrays broadcast.
    df : float, array or None
        Degrees of freedom of the t reference; ``None`` or ``inf``: the standard normal.
    null : float
        The value under the null hypothesis.
    alternative : {"two-sided", "less", "greater"}
        ``"greater"``: H1 ``theta > null``; ``"less"``: H1 ``theta < null``.
    alpha : float
        The interval has coverage ``1 - alpha``, two-sided or one-sided as ``alternative``.
    scale : float or array
        The magnitude of the numbers ``estimate`` and ``se`` were computed from (the
        zero-variance rule of the module docstring); 1 for quantities in [0, 1].

    Returns
    -------
    TZResult
        ``estimate`` (the null itself under rule 2 of the module docstring), ``se`` (0 where
        the rule says so), ``statistic``, ``pvalue``, ``low``, ``high``.

    References
    ----------
    .. [1] Student (1908). The probable error of a mean. *Biometrika* 6, 1-25.
    .. [2] SciPy's ``scipy.stats.ttest_1samp`` for the spelling of ``alternative``.

    Examples
    --------
    A mean of 0.5 with standard error 0.2 on 9 df (by hand: t = 2.5):

    >>> res = t_inference(0.5, 0.2, df=9)
    >>> res.statistic, round(res.pvalue, 4)
    (2.5, 0.0339)

    The same every time (``se = 0``): an infinite statistic and p = 0; nothing at all:

    >>> t_inference(0.5, 0.0, df=9).pvalue, t_inference(0.0, 0.0, df=9)[:4]
    (0.0, (0.0, 0.0, 0.0, 1.0))
    """
    alternative = check_alternative(alternative)
    est = np.asarray(estimate, dtype=float)
    s = np.asarray(se, dtype=float)
    tol = ZERO_RTOL * np.asarray(scale, dtype=float)
    s = np.where(s <= tol, 0.0, s)
    delta = est - null
    same = (s == 0.0) & (np.abs(delta) <= tol)
    est = np.where(same, float(null), est)
    delta = np.where(same, 0.0, delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.where(s > 0.0, delta / np.where(s > 0.0, s, 1.0), np.sign(delta) * np.inf)
    statistic = np.where(same, 0.0, statistic)
    pvalue = np.where(same, 1.0, tail_pvalue(statistic, df, alternative))
    q = critical_value(alpha, df, alternative)
    low = est - q * s if alternative != "less" else np.full(np.shape(est), -np.inf)
    high = est + q * s if alternative != "greater" else np.full(np.shape(est), np.inf)
    out = [est, s, statistic, pvalue, low, high]
    if all(np.ndim(v) == 0 for v in out):
        return TZResult(*(float(v) for v in out))
    shape = np.broadcast(*out).shape
    return TZResult(*(np.broadcast_to(v, shape).astype(float) for v in out))


def wilson_interval(p, n, z):
    """Wilson's (1927) score interval for a proportion ``p`` from ``n`` (effective) trials (vectorised).

    The one Wilson interval of evallib (accuracy intervals, paired-difference intervals built from
    Wilson limits, per-item means). Returns ``(low, high)``, clipped to [0, 1], with the bound at
    ``p = 0`` (``p = 1``) exactly 0 (1).
    """
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(np.maximum(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / (1 + z2 / n)
    # at p = 0 (p = 1) the lower (upper) bound is exactly 0 (1); spare it the rounding error
    low = np.where(p <= 0.0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(p >= 1.0, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def wilson_effective(p, var, df, n_obs, alpha, *, n_items):
    """Wilson interval with the effective sample size of Korn & Graubard (1998) (vectorised).

    ``n_eff = p (1 - p) / var`` (capped at ``n_obs``, the number of 0/1 scores, i.e. a
    design effect of at least 1), then the degrees-of-freedom adjustment ``n_eff (z / t_df)^2``
    so that, for large ``n_eff``, the interval tends to ``p -/+ t_df sqrt(var)``. This is the
    form Dean & Pagano (2015) evaluate (Korn & Graubard's own factor is ``(t_(n-1) / t_df)^2``,
    the same for large ``n``); the cap is applied before the df adjustment, so a design
    effect below 1 still pays for few degrees of freedom. When ``p`` is 0 or 1 or ``var`` is 0
    (every answer the same) the variance says nothing about the effective sample size, and
    ``n_eff`` is ``n_items``, the number of items: answers to one item that never differ carry
    one item's information, not one per answer (with several answers per item, taking
    ``n_obs`` there gave intervals that covered 0.68 of the time at a true mean of 0.98).
    Returns (low, high, n_eff).
    """
    p, var = np.asarray(p, dtype=float), np.asarray(var, dtype=float)
    n_items = np.minimum(n_items, n_obs)
    z = float(stats.norm.isf(alpha / 2))
    inner = (p > 0) & (p < 1) & (var > 0)
    n_eff = np.where(inner, np.minimum(p * (1 - p) / np.where(var > 0, var, 1.0), n_obs), n_items)
    tq = stats.t.isf(alpha / 2, df)
    n_adj = n_eff * (z / tq) ** 2
    low, high = wilson_interval(p, n_adj, z)
    return low, high, n_eff
