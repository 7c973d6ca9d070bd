"""Vectorised computations on paired 2x2 tables, shared by the one-test-set design and planning.

Notation as in :mod:`evallib.onetestset._mcnemar`: of ``n`` test cases, ``a`` are right under
both classifiers, ``b`` wrong under A only, ``c`` wrong under B only, ``d`` wrong under both;
the difference of the error rates is ``p_b - p_c``, estimated by ``(b - c) / n``. The
functions take arrays (or expected, non-integer counts) and do not check their arguments,
except :func:`_check_margin`:

- :func:`_interval_bounds` -- the bounds of every interval of
  :func:`evallib.onetestset.paired_difference_interval` (Fagerland, Lydersen & Laake 2014),
  with the Quesenberry–Hurst bounds (:func:`_qh_bounds`, Berrar & Lozano 2013, eqs. 4-5) and
  Tango's score interval (:func:`_tango_bounds`);
- :func:`_tango_restricted_mle`, :func:`_tango_score`, :func:`_tango_margin_pvalues` -- Tango's
  (1998) score statistic, behind his interval, :func:`evallib.onetestset.tango_test` and its
  power (:func:`evallib.planning.tango_power`).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._inference import wilson_interval
from ._validate import check_alpha, check_real

__all__ = []


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


def _wilson(x, n, z):
    """Wilson's score interval for ``x`` successes in ``n`` trials (vectorised):
    :func:`evallib._inference.wilson_interval` of ``x / n``."""
    return wilson_interval(np.asarray(x, dtype=float) / n, n, z)


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
    # both bisections in one pass: row 0 brackets the lower bound (T > z), row 1 the upper (T >= -z)
    lo = np.stack([np.full_like(est, -1.0), est])
    hi = np.stack([est, np.full_like(est, 1.0)])
    bb, cc = np.broadcast_to(b, lo.shape), np.broadcast_to(c, lo.shape)
    lower = np.zeros(lo.shape, dtype=bool)
    lower[0] = True
    for _ in range(64):
        mid = 0.5 * (lo + hi)
        score = _tango_score(mid, bb, cc, n)
        above = np.where(lower, score > z, score >= -z)
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    return hi[0], lo[1]


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


def _check_margin(margin, alpha):
    margin = check_real(margin, "margin", low=0.0, high=1.0, low_open=True, high_open=True,
                        note="the largest difference of error rates that still counts as no worse")
    alpha = check_alpha(alpha)
    if alpha >= 0.5:
        raise ValueError(f"alpha must lie in (0, 0.5) for a one-sided test against a margin, got {alpha!r}")
    return margin, alpha


def _tango_margin_pvalues(b, c, n, margin, hypothesis):
    """Vectorised ``(statistic, pvalue)`` of Tango's margin test for arrays of ``b`` and ``c``."""
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    upper = -_tango_score(margin, b, c, n)             # H0: p_b - p_c >= margin
    if hypothesis == "equivalence":
        lower = _tango_score(-margin, b, c, n)         # H0: p_b - p_c <= -margin
        upper = np.minimum(upper, lower)
    return upper, stats.norm.sf(upper)
