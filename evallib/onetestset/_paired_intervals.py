"""Intervals for the difference of two correlated error rates on one test set.

The Quesenberry-Hurst / May-Johnson interval of Berrar & Lozano (2013, eqs. 4-5;
:func:`qh_interval`) and the eight intervals for the signed difference Fagerland, Lydersen &
Laake (2014) compare (:func:`paired_difference_interval`). Notation as in :mod:`._mcnemar`:
the difference of the error rates is ``(b - c) / n``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._results import IntervalMixin
from .._validate import (
    check_alpha,
    check_choice,
    check_count,
)
from ._mcnemar import Contingency, _check_bc

__all__ = ['QHInterval', 'qh_interval', 'PAIRED_INTERVAL_METHODS', 'PairedInterval', 'paired_difference_interval']


# ------------------------------------------------------------------ eqs. (4)-(5)
@dataclass(frozen=True)
class QHInterval(IntervalMixin):
    """A Quesenberry-Hurst / May-Johnson confidence interval, eqs. (4)-(5).

    Attributes
    ----------
    low, high : the bounds delta_LB and delta_UB.
    centre : ``n * D / (n + chi2)``, the midpoint of the interval, where ``D`` is
        the estimate (the observed difference shrunk towards 0).
    estimate : the observed difference, ``|p_b - p_c|`` (or ``p_b - p_c`` if signed).
    alpha : the level; the interval has nominal coverage ``1 - alpha``.
    chi2_crit : the chi-square critical value with 1 df used.
    """

    low: float
    high: float
    centre: float
    estimate: float
    alpha: float
    chi2_crit: float


def _qh_bounds(b, c, n, crit, signed: bool):
    """Vectorised eqs. (4)-(5): returns (low, high, centre, estimate)."""
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    n = np.asarray(n, dtype=float)
    pb, pc = b / n, c / n
    est = (pb - pc) if signed else np.abs(pb - pc)
    denom = n + crit
    centre = n * est / denom
    radicand = crit * ((pb + pc) * denom - n * (pb - pc) ** 2)
    half = np.sqrt(np.maximum(radicand, 0.0)) / denom  # >= 0 exactly; guard rounding
    return centre - half, centre + half, centre, est


def qh_interval(b: int, c: int, n: int, *, alpha: float = 0.05, signed: bool = False) -> QHInterval:
    """Confidence interval for the difference of two correlated error rates.

    Eqs. (4)-(5) of Berrar & Lozano (derived in their appendix, eqs. A1-A3, after
    Quesenberry & Hurst 1964 and May & Johnson 1997): with ``chi2`` the
    ``1 - alpha`` quantile of the chi-square distribution with 1 df,

    ``delta = n|p_b - p_c|/(n + chi2) -/+ sqrt(chi2 [(p_b + p_c)(n + chi2) - n (p_b - p_c)^2]) / (n + chi2)``.

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Number of test cases, ``n >= 1`` and ``b + c <= n``.
    alpha : float
        In (0, 1); the interval has nominal coverage ``1 - alpha``.
    signed : bool
        ``False`` (the paper): the interval for the effect size
        ``|tau_A - tau_B|`` centred on ``n|p_b - p_c|/(n + chi2)``. ``True``: the
        same interval for ``tau_A - tau_B`` with its sign kept (centre
        ``n(p_b - p_c)/(n + chi2)``, same half-width), positive when A makes more
        errors.

    Returns
    -------
    QHInterval
        ``low``, ``high``, ``centre``, ``estimate``, ``alpha``, ``chi2_crit``.

    Notes
    -----
    The lower bound can be negative: the interval then contains the null value and
    the difference is not significant at level ``alpha``. With ``b + c = 0`` the
    formula gives the degenerate interval ``[0, 0]`` (the radicand vanishes): the
    models never disagreed, so the plug-in variance is zero. This is the method's
    documented answer, not a claim of certainty; see the notebook for its coverage.

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] May, W. L. & Johnson, W. D. (1997). Confidence intervals for differences in correlated
       binary proportions. *Statistics in Medicine*, 16, 2127-2136.
    .. [3] Quesenberry, C. P. & Hurst, D. C. (1964). Large sample simultaneous confidence
       intervals for multinomial proportions. *Technometrics*, 6, 191-195.

    Examples
    --------
    Section 8, comparison (1, 2) (b = 0, c = 2, n = 50) at its Holm level 0.05/3: the paper
    prints the point estimate 0.04 and the 95%-CI [-0.03, 0.10].

    >>> from evallib import qh_interval
    >>> ci = qh_interval(0, 2, 50, alpha=0.05 / 3)
    >>> round(ci.estimate, 2), round(ci.low, 2), round(ci.high, 2)
    (0.04, -0.03, 0.1)
    """
    b, c = _check_bc(b, c)
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n: got b + c = {b + c} > n = {n}")
    alpha = check_alpha(alpha)
    crit = float(stats.chi2.isf(alpha, df=1))
    low, high, centre, est = _qh_bounds(b, c, n, crit, signed)
    return QHInterval(float(low), float(high), float(centre), float(est), alpha, crit)


# ------------------------------------------ paired intervals (Fagerland et al. 2014)
PAIRED_INTERVAL_METHODS = ("wald", "wald_cc", "agresti_min", "bonett_price", "newcombe", "tango", "qh",
                           "wald_cc_fagerland")


_FOUR_CELL = ("newcombe",)  # the methods that need a and d, not only b, c and n


@dataclass(frozen=True)
class PairedInterval(IntervalMixin):
    """A confidence interval for ``error_A - error_B = (b - c)/n``.

    Attributes
    ----------
    low, high : the bounds, inside [-1, 1].
    estimate : the observed difference ``(b - c)/n`` (positive: A errs more).
    method : one of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : the nominal coverage is ``1 - alpha``.
    """

    low: float
    high: float
    estimate: float
    method: str
    alpha: float


def _wilson(x, n, z):
    """Vectorised Wilson score interval for x/n (Wilson 1927)."""
    p = x / n
    centre = (x + z * z / 2) / (n + z * z)
    half = z * np.sqrt(n * p * (1 - p) + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def _tango_restricted_mle(delta, b, c, n):
    """The maximum-likelihood estimate of ``p_c`` under ``p_b - p_c = delta`` (vectorised).

    ``q = (sqrt(W^2 + 8 n c delta (1 - delta)) - W) / (4 n)``, ``W = -b - c + (2n - b + c) delta``
    (Tango 1998). With expected counts (``b = n p_b``, ``c = n p_c``) it is the limit
    that planning uses (Nam 1997).
    """
    w = -b - c + (2 * n - b + c) * delta
    return (np.sqrt(np.maximum(w * w + 8 * n * c * delta * (1 - delta), 0.0)) - w) / (4 * n)


def _tango_score(delta, b, c, n):
    """Tango's (1998) score statistic for H0: p_b - p_c = delta (vectorised).

    ``T = (b - c - n delta) / sqrt(n (2 q + delta (1 - delta)))`` with ``q`` the
    maximum-likelihood estimate of ``p_c`` under H0 (:func:`_tango_restricted_mle`).
    """
    q = _tango_restricted_mle(delta, b, c, n)
    var = n * (2 * q + delta * (1 - delta))
    num = b - c - n * delta
    return np.where(num == 0, 0.0, num / np.sqrt(np.maximum(var, 1e-300)))


def _tango_bounds(b, c, n, z):
    """Tango's interval: the deltas with |T(delta)| <= z, by bisection to machine precision.

    T decreases in delta, T(estimate) = 0; the lower bound solves T = z on
    [-1, estimate], the upper T = -z on [estimate, 1]. Where no root exists the
    bound is the end of the parameter space (-1 or 1). 64 halvings of an interval
    of length <= 2 reach a width of 2**-63, below the spacing of doubles near 1.
    """
    est = (b - c) / n
    lo, hi = np.full_like(est, -1.0), est.copy()
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        above = _tango_score(mid, b, c, n) > z
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    low = hi
    lo, hi = est.copy(), np.full_like(est, 1.0)
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        above = _tango_score(mid, b, c, n) >= -z
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    return low, lo


def _interval_bounds(method, a, b, c, d, n, alpha):
    """Vectorised bounds of ``method`` for tables (a, b, c, d) of size n: (low, high)."""
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))
    n = float(n)
    z = float(stats.norm.isf(alpha / 2))
    est = (b - c) / n
    if method in ("wald", "wald_cc"):
        se = np.sqrt(np.maximum(b + c - (b - c) ** 2 / n, 0.0)) / n
        half = z * se + (1.0 / n if method == "wald_cc" else 0.0)
        low, high = est - half, est + half
    elif method == "wald_cc_fagerland":
        # the correction inside the standard error, as Fagerland's R code has it; its
        # radicand is negative only for b = c = 0, where R's NaN becomes a standard error of 0
        se = np.sqrt(np.maximum(b + c - (np.abs(b - c) - 1.0) ** 2 / n, 0.0)) / n
        low, high = est - z * se, est + z * se
    elif method == "agresti_min":
        b2, c2, n2 = b + 0.5, c + 0.5, n + 2.0
        centre = (b2 - c2) / n2
        half = z * np.sqrt(b2 + c2 - (b2 - c2) ** 2 / n2) / n2
        low, high = centre - half, centre + half
    elif method == "bonett_price":
        pb, pc, n2 = (b + 1) / (n + 2), (c + 1) / (n + 2), n + 2.0
        centre = pb - pc
        half = z * np.sqrt((pb + pc - (pb - pc) ** 2) / n2)
        low, high = centre - half, centre + half
    elif method == "newcombe":
        # error rates of A, (b + d)/n, and of B, (c + d)/n, with their Wilson intervals
        p1, p2 = (b + d) / n, (c + d) / n
        # Wilson intervals of x/n for every x = 0..n, looked up for x = b + d and c + d
        wl, wu = _wilson(np.arange(n + 1.0), n, z)
        i1 = np.clip(b + d, 0, n).astype(np.intp)
        i2 = np.clip(c + d, 0, n).astype(np.intp)
        l1, u1, l2, u2 = wl[i1], wu[i1], wl[i2], wu[i2]
        denom = (b + d) * (a + c) * (c + d) * (a + b)
        cross = a * d - b * c
        cross = np.where(cross > n / 2, cross - n / 2, np.where(cross >= 0, 0.0, cross))
        phi = np.where(denom > 0, cross / np.sqrt(np.where(denom > 0, denom, 1.0)), 0.0)
        dl = np.sqrt(np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
        du = np.sqrt(np.maximum((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
        low, high = est - dl, est + du
    elif method == "tango":
        low, high = _tango_bounds(b, c, n, z)
    else:  # "qh": eqs. (4)-(5), signed
        low, high, _, _ = _qh_bounds(b, c, n, z * z, signed=True)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0)


def _check_table(table: Any) -> Contingency:
    if not isinstance(table, Contingency):
        raise TypeError(
            "table must be an evallib.onetestset.Contingency (e.g. contingency(y_true, pred_a, pred_b) "
            f"or Contingency(a, b, c, d, n)), got {type(table).__name__}"
        )
    a, b, c, d = (check_count(getattr(table, k), f"table.{k}") for k in "abcd")
    n = check_count(table.n, "table.n", minimum=1)
    if a + b + c + d != n:
        raise ValueError(f"table.a + table.b + table.c + table.d must equal table.n: {a + b + c + d} != {n}")
    return table


def paired_difference_interval(
    table: Contingency, *, method: str = "bonett_price", alpha: float = 0.05
) -> PairedInterval:
    """Confidence interval for the difference of two correlated error rates.

    The parameter is ``error_A - error_B = p_b - p_c``, estimated by ``(b - c)/n``
    (positive when A makes more errors). Formulas as collected by Fagerland,
    Lydersen & Laake (2014; their n12 is ``b``, n21 is ``c``), with
    ``z`` the ``1 - alpha/2`` normal quantile:

    ``"wald"`` (the textbook Wald interval)
        ``(b - c)/n +- z/n sqrt(b + c - (b - c)^2/n)``.
    ``"wald_cc"`` (the textbook continuity correction, Fleiss, Levin & Paik 2003,
        section 13.1)
        the Wald interval widened by ``1/n`` on each side:
        ``(b - c)/n +- (z/n sqrt(b + c - (b - c)^2/n) + 1/n)``. Kept as it was for
        compatibility.
    ``"wald_cc_fagerland"`` (the correction as Fagerland, Lydersen & Laake's R package
        ``contingencytables`` computes it, ``Wald_CI_diff_CC_paired_2x2``)
        the correction inside the standard error, not added to the half-width:
        ``(b - c)/n +- z/n sqrt(b + c - (|b - c| - 1)^2/n)``. Only slightly wider
        than the Wald interval (Cavo et al.'s table: -0.1186 to -0.0057 against the
        Wald interval's -0.1184 to -0.0058), where ``"wald_cc"`` is ``2/n`` wider.
    ``"agresti_min"`` (Agresti & Min 2005)
        the Wald interval after adding 1/2 to each of the four cells (``n + 2``).
    ``"bonett_price"`` (Bonett & Price 2012)
        ``p_b' - p_c' +- z sqrt((p_b' + p_c' - (p_b' - p_c')^2)/(n + 2))`` with
        ``p_b' = (b + 1)/(n + 2)``, ``p_c' = (c + 1)/(n + 2)``. The default: a
        closed formula whose exact coverage stays close to the nominal level even
        when the classifiers rarely disagree (see :func:`interval_coverage`).
    ``"newcombe"`` (Newcombe 1998, method 10)
        square-and-add of the Wilson intervals ``[l1, u1]`` for A's error rate
        ``(b + d)/n`` and ``[l2, u2]`` for B's ``(c + d)/n``:
        ``low = est - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)``,
        ``high = est + sqrt((u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2)``,
        with ``phi = A/sqrt((b + d)(a + c)(c + d)(a + b))`` the phi coefficient of
        the 2x2 table of errors, its numerator ``A = ad - bc`` continuity-corrected
        as Newcombe prescribes: ``A - n/2`` when ``A > n/2``, 0 when
        ``0 <= A <= n/2``, ``A`` itself when negative. It needs the whole table.
        When a margin is 0 the denominator vanishes and ``phi`` is set to 0
        (Newcombe's rule).
    ``"tango"`` (Tango 1998)
        the asymptotic score interval: all ``delta`` with ``|T(delta)| <= z``,
        ``T = (b - c - n delta)/sqrt(n (2 q + delta (1 - delta)))`` and ``q`` the
        restricted maximum-likelihood estimate of ``p_c`` under ``delta``; the
        two bounds are found by bisection to machine precision.
    ``"qh"`` (Berrar & Lozano eqs. 4-5, after Quesenberry & Hurst 1964 and May &
        Johnson 1997)
        the paper's interval oriented by the sign of ``b - c``, as
        ``qh_interval(b, c, n, signed=True)``.

    Parameters
    ----------
    table : Contingency
        The joint errors (``a``, ``b``, ``c``, ``d``, ``n``), e.g. from
        :func:`contingency`.
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : float
        In (0, 1); nominal coverage ``1 - alpha``.

    Returns
    -------
    PairedInterval
        ``low``, ``high``, ``estimate``, ``method``, ``alpha``.

    Notes
    -----
    Bounds are clipped to [-1, 1] (Wald-type intervals can overshoot). Degenerate
    tables: with ``b = c = 0`` the Wald and QH intervals are the single point
    ``[0, 0]`` (their plug-in variance is 0), the continuity-corrected Wald
    interval is ``[-1/n, 1/n]``, and the other methods give an interval of
    positive width around 0 (Tango's is ``+-z^2/(n + z^2)``). With ``b + c = n``
    every method returns a proper interval inside [-1, 1]; with ``b = n`` (A wrong
    on every case, B on none) the upper bound is 1, the Wald interval is the point
    ``[1, 1]`` and the continuity-corrected one ``[1 - 1/n, 1]``. Fagerland's
    continuity-corrected interval is the point ``[0, 0]`` when ``b = c = 0`` (its
    radicand ``-1/n`` is set to 0, as the R code sets the NaN standard error to 0). Swapping ``b`` and
    ``c`` mirrors every interval about 0.

    References
    ----------
    Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and
    confidence intervals for paired binomial proportions. Statistics in Medicine
    33, 2850-2875.
    Newcombe, R. G. (1998). Improved confidence intervals for the difference between
    binomial proportions based on paired data. Statistics in Medicine 17, 2635-2650.
    Tango, T. (1998). Equivalence test and confidence interval for the difference
    in proportions for the paired-sample design. Statistics in Medicine 17, 891-908.
    Agresti, A. & Min, Y. (2005). Simple improved confidence intervals for comparing
    matched proportions. Statistics in Medicine 24, 729-740.
    Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
    difference of binomial proportions based on paired data. Journal of Educational
    and Behavioral Statistics 37, 479-488.
    Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for Rates and
    Proportions, 3rd ed., Wiley, section 13.1.
    Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
    Contingency Tables, CRC Press, chapter 8; R package contingencytables,
    ``Wald_CI_diff_CC_paired_2x2``.

    Examples
    --------
    Cavo et al.'s (2012) table as in Fagerland et al. (a = 80, b = 6, c = 16, d = 59):
    Newcombe's interval is printed there as -0.0621 (-0.1186 to -0.0046).

    >>> from evallib.onetestset import Contingency, paired_difference_interval
    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="newcombe")
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (-0.0621, -0.1186, -0.0046)

    The package contingencytables prints the continuity-corrected Wald interval of the
    same table as -0.0621 (95% CI -0.1186 to -0.0057):

    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="wald_cc_fagerland")
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1186, -0.0057)
    """
    table = _check_table(table)
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    alpha = check_alpha(alpha)
    low, high = _interval_bounds(method, table.a, table.b, table.c, table.d, table.n, alpha)
    return PairedInterval(float(low), float(high), (table.b - table.c) / table.n, method, alpha)
