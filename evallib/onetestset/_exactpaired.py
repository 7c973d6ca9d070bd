"""Exact inference for two classifiers on one test set: the unconditional McNemar test and
the interval that agrees with the exact McNemar test.

Notation as in :mod:`.pairwise`: on ``n`` test cases, ``b`` are misclassified by A only and
``c`` by B only; the parameter is the difference of the error rates,
``delta = p_b - p_c``, estimated by ``(b - c)/n``.

* :func:`mcnemar_unconditional` -- the exact unconditional McNemar test (Suissa & Shuster
  1991; Fagerland, Lydersen & Laake 2013): McNemar's statistic ``(b - c)^2/(b + c)``, its
  p-value the probability of a table at least as extreme, maximised over the nuisance
  parameter, the probability ``pi`` that the classifiers disagree (Berger & Boos's 1994
  restriction of ``pi`` to a 99.99% interval by default, as Fagerland's R code does).
* :func:`fay_lumbard_interval` -- the confidence interval for ``delta`` of Fay & Lumbard
  (2021), R's ``exact2x2::mcnemarExactDP``: built by melding the exact (Clopper–Pearson)
  confidence distributions of the discordance probability and of the conditional share
  of A's errors, it excludes 0 exactly when the exact (conditional) McNemar test rejects.

References
----------
S. Suissa and J. J. Shuster (1991). The 2 x 2 matched-pairs trial: exact unconditional
design and analysis. *Biometrics* 47, 361-372.

R. L. Berger and D. D. Boos (1994). P values maximised over a confidence set for the
nuisance parameter. *JASA* 89, 1012-1016.

M. W. Fagerland, S. Lydersen and P. Laake (2013). The McNemar test for binary
matched-pairs data: mid-p and asymptotic are better than exact conditional. *BMC Medical
Research Methodology* 13, 91.

M. P. Fay and K. Lumbard (2021). Confidence intervals for difference in proportions for
matched pairs compatible with exact McNemar's or sign tests. *Statistics in Medicine* 40,
1147-1159.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import integrate, optimize, special, stats

from .._results import IntervalMixin
from .._validate import check_alpha, check_count, check_real

__all__ = [
    "UnconditionalMcNemarResult",
    "ExactPairedInterval",
    "mcnemar_unconditional",
    "fay_lumbard_interval",
]


def _check_bcn(b: Any, c: Any, n: Any) -> tuple[int, int, int]:
    b, c = check_count(b, "b"), check_count(c, "c")
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n (the discordant cases are among the n test cases), "
                         f"got b + c = {b + c} > n = {n}")
    return b, c, n


# --------------------------------------------------------- exact unconditional test
@dataclass(frozen=True)
class UnconditionalMcNemarResult:
    """The exact unconditional McNemar test.

    Attributes
    ----------
    statistic : McNemar's ``(b - c)^2/(b + c)`` (0 when ``b + c = 0``).
    pvalue : ``min(1, max_pi P_pi(T >= T_obs) + gamma)``, two-sided.
    method : ``"exact-unconditional"``.
    nuisance : the discordance probability ``pi`` at which the maximum is reached (NaN
        when ``b + c = 0``).
    gamma : Berger & Boos's ``gamma`` (0: the maximum over all of [0, 1]).
    """

    statistic: float
    pvalue: float
    method: str
    nuisance: float
    gamma: float


def _tail_given_discordant(b: int, c: int, n: int) -> np.ndarray:
    """``q_s = P(T >= T_obs | s discordant cases)`` under H0, for ``s = 0..n``.

    Given ``s`` discordant cases, A's share ``x`` is Binomial(s, 1/2) under H0 and
    ``T = (2x - s)^2 / s``. ``T >= T_obs`` is decided in integers,
    ``(s - 2x)^2 (b + c) >= (b - c)^2 s``, so ties are never lost to rounding: with
    ``d = |s - 2x|`` it holds for every ``d >= d_min(s)``, ``d`` of the parity of ``s``.
    ``s = 0`` (T undefined) never counts, as in Fagerland's R code.
    """
    m, d2 = b + c, (b - c) ** 2
    s = np.arange(n + 1, dtype=np.int64)
    need = d2 * s                                        # d^2 m >= need
    d = np.ceil(np.sqrt(need / m)).astype(np.int64)
    d = np.where((d - 1) >= 0, np.where((d - 1) ** 2 * m >= need, d - 1, d), d)   # float fix-ups
    d = np.where(d * d * m < need, d + 1, d)
    d = d + ((d - s) % 2)                                # same parity as s
    x_lo = (s - d) // 2                                  # largest x on the low side
    q = np.where(d == 0, 1.0, 2.0 * stats.binom.cdf(x_lo, s, 0.5))
    q = np.where(d > s, 0.0, q)
    q[0] = 0.0
    return np.minimum(q, 1.0)


def _null_pvalue(pi: np.ndarray, q: np.ndarray, n: int, logcoef: np.ndarray) -> np.ndarray:
    """``P_pi(T >= T_obs) = sum_s Binomial(s; n, pi) q_s`` for every ``pi`` (vectorised)."""
    pi = np.atleast_1d(np.asarray(pi, dtype=float))
    s = np.arange(n + 1)
    keep = q > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = logcoef[keep][None, :] + special.xlogy(s[keep][None, :], pi[:, None]) \
            + special.xlog1py((n - s[keep])[None, :], -pi[:, None])
    return np.exp(logp) @ q[keep]


def mcnemar_unconditional(b: int, c: int, n: int, *, gamma: float = 1e-4, points: int = 1000
                          ) -> UnconditionalMcNemarResult:
    """The exact unconditional McNemar test (Suissa & Shuster 1991, Fagerland et al. 2013).

    Under H0 (equal error rates, ``p_b = p_c = pi/2``) the counts ``(b, c, rest)`` of the
    ``n`` cases are trinomial, and the probability of a table with McNemar's statistic
    ``T = (x_b - x_c)^2/(x_b + x_c)`` at least the observed one depends on the unknown
    discordance probability ``pi``. Given ``s = x_b + x_c`` discordant cases, ``x_b`` is
    Binomial(s, 1/2), so

    ``P_pi(T >= T_obs) = sum_{s=1}^{n} Binomial(s; n, pi) q_s``,
    ``q_s = P(T >= T_obs | s)``,

    and the exact unconditional p-value is its maximum over ``pi``. With
    ``gamma > 0`` (Berger & Boos 1994) the maximum is taken over the ``1 - gamma``
    Clopper–Pearson interval of ``pi`` from ``(b + c)/n`` and ``gamma`` is added, which
    keeps the test valid and avoids maximising over values of ``pi`` the data rule out;
    ``gamma = 0`` maximises over all of [0, 1]. The maximum is found on ``points`` equally
    spaced values of ``pi``, as Fagerland's R function
    ``McNemar_exact_unconditional_test_paired_2x2`` does, and then refined by a bounded
    one-dimensional search between the neighbours of each of the five highest local
    maxima, so the p-value is never below the R code's. It is usually above it by less
    than 1e-5, more where the maximum is a narrow peak between grid values: with
    ``gamma = 0`` and b = 120, c = 135, n = 500 the peak lies at ``pi`` = 0.0034 (one or two
    disagreements), and the p-value is 0.5303 where the grid of [0, 1] gives 0.5279.

    The sums run over ``s`` with the tables of each ``s`` counted by one binomial
    distribution function, and over all values of ``pi`` at once; ``n = 500`` takes a
    few milliseconds (``benchmarks/bench_exactpaired.py``).

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Test cases, >= 1, with ``b + c <= n``.
    gamma : float
        Berger & Boos's ``gamma``, in [0, 0.5); the default 0.0001 is Fagerland's.
    points : int
        Values of ``pi`` in the first search, >= 10.

    Returns
    -------
    UnconditionalMcNemarResult

    Notes
    -----
    Fagerland et al. (2013) found the exact unconditional test the most powerful of the
    tests that never exceed the nominal level, with the mid-p test
    (``mcnemar(b, c, method="mid-p")``) almost as good and far simpler. Degenerate tables:
    with ``b + c = 0`` there is no disagreement and no evidence, ``statistic = 0``,
    ``pvalue = 1`` and ``nuisance`` NaN. With ``b = c > 0`` every table with a
    disagreement is as extreme as the observed one, and the p-value is the largest
    probability of any disagreement, ``1 - (1 - pi)^n``, over the interval (plus
    ``gamma``): close to 1.

    References
    ----------
    .. [1] Suissa, S. & Shuster, J. J. (1991). The 2 x 2 matched-pairs trial: exact
       unconditional design and analysis. *Biometrics* 47, 361-372.
    .. [2] Berger, R. L. & Boos, D. D. (1994). P values maximised over a confidence set for the
       nuisance parameter. *JASA* 89, 1012-1016.
    .. [3] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional. *BMC
       Medical Research Methodology* 13, 91.

    Examples
    --------
    Bentur et al.'s airway hyper-responsiveness data (b = 1, c = 7, n = 21): Fagerland et
    al. (2013) print the exact unconditional p-value 0.035 (the conditional exact test
    gives 0.070, the mid-p test 0.039).

    >>> from evallib.onetestset import mcnemar_unconditional
    >>> round(mcnemar_unconditional(1, 7, 21).pvalue, 3)
    0.035
    """
    b, c, n = _check_bcn(b, c, n)
    gamma = check_real(gamma, "gamma", low=0.0, high=0.5, high_open=True)
    points = check_count(points, "points", minimum=10)
    method = "exact-unconditional"
    m = b + c
    if m == 0:
        return UnconditionalMcNemarResult(0.0, 1.0, method, float("nan"), gamma)
    statistic = (b - c) ** 2 / m
    q = _tail_given_discordant(b, c, n)
    logcoef = special.gammaln(n + 1) - special.gammaln(np.arange(n + 1) + 1) \
        - special.gammaln(n - np.arange(n + 1) + 1)
    if gamma > 0:
        lo = 0.0 if m == 0 else float(stats.beta.ppf(gamma / 2, m, n - m + 1))
        hi = 1.0 if m == n else float(stats.beta.isf(gamma / 2, m + 1, n - m))
    else:
        lo, hi = 0.0, 1.0
    grid = np.linspace(lo, hi, points)
    values = _null_pvalue(grid, q, n, logcoef)
    i = int(np.argmax(values))
    best_pi, best = float(grid[i]), float(values[i])
    # refine the five highest local maxima of the grid between their neighbours
    padded = np.concatenate([[-np.inf], values, [-np.inf]])
    peaks = np.flatnonzero((padded[1:-1] >= padded[:-2]) & (padded[1:-1] >= padded[2:]))
    for j in peaks[np.argsort(values[peaks])[::-1][:5]]:
        left, right = grid[max(j - 1, 0)], grid[min(j + 1, points - 1)]
        if right <= left:
            continue
        res = optimize.minimize_scalar(lambda x: -_null_pvalue(x, q, n, logcoef)[0], bounds=(left, right),
                                       method="bounded", options={"xatol": 1e-12})
        if -res.fun > best:
            best_pi, best = float(res.x), float(-res.fun)
    return UnconditionalMcNemarResult(float(statistic), float(min(1.0, best + gamma)), method, best_pi, gamma)


# ---------------------------------------------------------- Fay–Lumbard interval
@dataclass(frozen=True)
class ExactPairedInterval(IntervalMixin):
    """The Fay–Lumbard interval for ``error_A - error_B``, with the exact McNemar p-value.

    Attributes
    ----------
    low, high : the bounds, in [-1, 1].
    estimate : ``(b - c)/n``.
    pvalue : the two-sided exact (conditional) McNemar p-value,
        ``min(1, 2 min(P(X >= b), P(X <= b)))`` for ``X ~ Binomial(b + c, 1/2)``; the interval
        excludes 0 exactly when ``pvalue <= alpha``.
    method : ``"fay_lumbard"``.
    alpha : the interval has nominal coverage ``1 - alpha`` (``alpha/2`` each side).
    """

    low: float
    high: float
    estimate: float
    pvalue: float
    method: str
    alpha: float


def _beta_cdf(x: float, a: float, b: float) -> float:
    return float(special.betainc(a, b, min(max(x, 0.0), 1.0)))


def _beta_pdf(t: np.ndarray | float, a: float, b: float, log_beta: float | None = None):
    """Beta(a, b)'s density at ``t``; ``log_beta``: ``betaln(a, b)`` when the caller has it already."""
    if log_beta is None:
        log_beta = special.betaln(a, b)
    return np.exp(special.xlogy(a - 1, t) + special.xlog1py(b - 1, -t) - log_beta)


def _meld(delta: float, shape_b: tuple[float, float], shape_t: tuple[float, float], upper: bool) -> float:
    """``P[T (2B - 1) <= delta]`` (``upper=False``) or ``P[T (2B - 1) >= delta]`` (``upper=True``)
    for independent ``T ~ Beta(shape_t)`` and ``B ~ Beta(shape_b)``, by adaptive quadrature over ``t``.

    ``T (2B - 1) <= delta`` is ``B <= 1/2 + delta/(2T)``, so the probability is
    ``int F_B(1/2 + delta/(2t)) f_T(t) dt`` (or with the survival function of ``B``); the
    integrand has a kink at ``t = |delta|``, where the argument reaches 0 or 1, passed to
    the quadrature as a break point. The range is cut where ``f_T`` holds all but 2e-15.
    """
    a_b, b_b = shape_b
    a_t, b_t = shape_t
    lo = float(special.betaincinv(a_t, b_t, 1e-15))
    hi = float(special.betainccinv(a_t, b_t, 1e-15))
    log_beta_t = special.betaln(a_t, b_t)  # once, not at each of the quadrature's points

    def integrand(t):
        arg = 0.5 + delta / (2.0 * t)
        cdf = _beta_cdf(arg, a_b, b_b)
        return (1.0 - cdf if upper else cdf) * float(_beta_pdf(t, a_t, b_t, log_beta_t))

    points = [abs(delta)] if lo < abs(delta) < hi else None
    val, _ = integrate.quad(integrand, lo, hi, points=points, limit=200, epsabs=1e-13, epsrel=1e-11)
    return float(min(max(val, 0.0), 1.0))


def _p_lower(delta: float, x: int, m: int, n: int) -> float:
    """Fay & Lumbard's one-sided p-value for H0: ``delta' >= delta`` ("greater" side):
    ``P[T (2 B_L - 1) <= delta]`` with ``B_L ~ Beta(x, m - x + 1)`` and ``T`` the lower
    (``delta > 0``: ``Beta(m, n - m + 1)``) or upper (``delta < 0``: ``Beta(m + 1, n - m)``)
    Clopper–Pearson confidence distribution of the discordance probability."""
    if delta == 0.0:
        return float(stats.binom.sf(x - 1, m, 0.5)) if m > 0 else 1.0
    if delta > 0:
        if m == 0 or x == 0:
            return 1.0
        return _meld(delta, (x, m - x + 1), (m, n - m + 1), upper=False)
    if m == n:   # T_U is 1; B_L is a point mass at 0 when x = 0
        return 1.0 if x == 0 else _beta_cdf(0.5 + delta / 2.0, x, m - x + 1)
    if x == 0:
        return float(stats.beta.sf(-delta, m + 1, n - m))
    return _meld(delta, (x, m - x + 1), (m + 1, n - m), upper=False)


def _p_upper(delta: float, x: int, m: int, n: int) -> float:
    """The mirror image: ``P[T (2 B_U - 1) >= delta]`` with ``B_U ~ Beta(x + 1, m - x)`` and
    ``T`` upper (``delta > 0``) or lower (``delta < 0``), the "less" side."""
    if delta == 0.0:
        return float(stats.binom.cdf(x, m, 0.5)) if m > 0 else 1.0
    if delta > 0:
        if m == n:   # T_U is 1; B_U is a point mass at 1 when x = m
            return 1.0 if x == m else 1.0 - _beta_cdf(0.5 + delta / 2.0, x + 1, m - x)
        if x == m:
            return float(stats.beta.sf(delta, m + 1, n - m))
        return _meld(delta, (x + 1, m - x), (m + 1, n - m), upper=True)
    if m == 0 or x == m:
        return 1.0
    return _meld(delta, (x + 1, m - x), (m, n - m + 1), upper=True)


def fay_lumbard_interval(b: int, c: int, n: int, *, alpha: float = 0.05) -> ExactPairedInterval:
    """The confidence interval for ``error_A - error_B`` that agrees with the exact McNemar test.

    Fay & Lumbard (2021) write the difference as ``delta = theta (2 beta - 1)``, with
    ``theta = p_b + p_c`` the probability that the classifiers disagree and
    ``beta = p_b/(p_b + p_c)`` the share of the disagreements that are A's errors. Each
    has an exact one-sample confidence distribution from the Clopper–Pearson limits,
    ``T_L ~ Beta(m, n - m + 1)``, ``T_U ~ Beta(m + 1, n - m)`` for ``theta`` (``m = b + c``) and
    ``B_L ~ Beta(b, c + 1)``, ``B_U ~ Beta(b + 1, c)`` for ``beta``; melding them (Fay,
    Proschan & Brittain 2015) gives the lower bound as the ``alpha/2`` quantile of
    ``T (2 B_L - 1)`` and the upper as the ``1 - alpha/2`` quantile of ``T (2 B_U - 1)``,
    with ``T`` the one of ``T_L``, ``T_U`` that makes the bound more extreme. A bound is
    the ``delta`` where the one-sided p-value

    ``P[T (2 B_L - 1) <= delta] = int F_B(1/2 + delta/(2t)) f_T(t) dt``

    (or its mirror image) equals ``alpha/2``; the integral is computed by adaptive
    quadrature and the root by Brent's method, to about 1e-10 (R's ``mcnemarExactDP``
    stops ``uniroot`` at its default tolerance, about 1e-4). At ``delta = 0`` the
    one-sided p-values are the exact McNemar tails ``P(X >= b)`` and ``P(X <= b)``,
    ``X ~ Binomial(m, 1/2)``, so the interval excludes 0 exactly when the two-sided exact
    McNemar test (:func:`evallib.onetestset.mcnemar` with ``method="exact"``) rejects
    at ``alpha``: the compatibility the authors built it for. Its coverage is at least
    ``1 - alpha`` in all of their numerical checks (they conjecture it always is).

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Test cases, >= 1, with ``b + c <= n``.
    alpha : float
        In (0, 1).

    Returns
    -------
    ExactPairedInterval

    Notes
    -----
    Degenerate tables have closed forms, as in ``mcnemarExactDP``: with no disagreement
    (``b + c = 0``) the interval is ``-/+`` the ``1 - alpha/2`` quantile of
    ``Beta(1, n)``, i.e. ``-/+ (1 - (alpha/2)^(1/n))``, around the estimate 0, and the p-value is 1;
    when the classifiers disagree on every case and A is always the one wrong
    (``b = n``) the upper bound is 1, and when B always is (``c = n``) the lower bound
    is -1.

    References
    ----------
    .. [1] Fay, M. P. & Lumbard, K. (2021). Confidence intervals for difference in proportions
       for matched pairs compatible with exact McNemar's or sign tests. *Statistics in
       Medicine* 40, 1147-1159; R package exact2x2, ``mcnemarExactDP``.
    .. [2] Fay, M. P., Proschan, M. A. & Brittain, E. (2015). Combining one-sample confidence
       procedures for inference in the two-sample case. *Biometrics* 71, 146-156.

    Examples
    --------
    The example of ``mcnemarExactDP``'s R help page, Bentur et al.'s table (b = 1, c = 7,
    n = 21): exact2x2 1.7.0 prints p = 0.07031 and the 95% interval -0.54549962 to
    0.02044939.

    >>> from evallib.onetestset import fay_lumbard_interval
    >>> ci = fay_lumbard_interval(1, 7, 21)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4), round(ci.pvalue, 5)
    (-0.2857, -0.5455, 0.0204, 0.07031)
    """
    b, c, n = _check_bcn(b, c, n)
    alpha = check_alpha(alpha)
    x, m = b, b + c
    half = alpha / 2.0
    if m == 0:
        edge = float(stats.beta.isf(half, 1, n))
        low, high = -edge, edge
    else:
        if m == n and x == 0:
            low = -1.0
        else:
            low = optimize.brentq(lambda d: _p_lower(d, x, m, n) - half, -1.0, 1.0, xtol=1e-12, rtol=1e-12)
        if m == n and x == m:
            high = 1.0
        else:
            high = optimize.brentq(lambda d: _p_upper(d, x, m, n) - half, -1.0, 1.0, xtol=1e-12, rtol=1e-12)
    p_lo = _p_lower(0.0, x, m, n)
    p_hi = _p_upper(0.0, x, m, n)
    pvalue = float(min(1.0, 2.0 * min(p_lo, p_hi)))
    return ExactPairedInterval(low=float(low), high=float(high), estimate=(b - c) / n, pvalue=pvalue,
                               method="fay_lumbard", alpha=alpha)
