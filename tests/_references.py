"""Reference computations shared by the test files, written out from their sources.

A plain module, not a test file (like ``_nbtools.py``): the tests import it as
``from _references import ...``. Each function is a direct, slow, dense transcription
of a published formula, independent of the vectorised code in ``evallib``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats


def cr2_dense(values, labels):
    """CR2 of a mean and its Bell–McCaffrey df, written out with matrices (Bell & McCaffrey
    2002): A_g = (I - H_gg)^(-1/2) by eigendecomposition, V = sum_g (1' A_g e_g)^2 / N^2,
    df = tr(B)^2 / tr(B^2) with B_gh = a_g' M a_h, M = I - J/N (Imbens & Kolesar 2016)."""
    values = np.asarray(values, float)
    labels = np.asarray(labels)
    n = values.size
    groups = [np.flatnonzero(labels == g) for g in np.unique(labels)]
    resid = values - values.mean()
    meat, cols = 0.0, []
    for rows in groups:
        w, v = np.linalg.eigh(np.eye(rows.size) - np.full((rows.size, rows.size), 1.0 / n))
        a = v @ np.diag(w ** -0.5) @ v.T
        meat += (np.ones(rows.size) @ a @ resid[rows]) ** 2
        col = np.zeros(n)
        col[rows] = a @ np.ones(rows.size) / n
        cols.append(col)
    m = np.eye(n) - np.full((n, n), 1.0 / n)
    big_a = np.column_stack(cols)
    b = big_a.T @ m @ big_a
    return math.sqrt(meat) / n, np.trace(b) ** 2 / np.trace(b @ b)


def cr2_variance(y, clusters=None):
    """The CR2 variance of the mean of ``y`` and its Bell–McCaffrey df (:func:`cr2_dense`);
    without ``clusters`` every item is its own cluster, and the df is ``N - 1``."""
    y = np.asarray(y, float)
    labels = np.arange(y.size) if clusters is None else np.asarray(clusters)
    se, df = cr2_dense(y, labels)
    return se * se, float(df)


def wilson_effective(p, V, df, n_obs, alpha):
    """Korn & Graubard's Wilson interval: n_eff = p(1-p)/V (at most n_obs), times (z/t_df)^2, via statsmodels."""
    from statsmodels.stats.proportion import proportion_confint

    z = stats.norm.isf(alpha / 2)
    n_eff = min(p * (1 - p) / V, n_obs)
    n_adj = n_eff * (z / stats.t.isf(alpha / 2, df)) ** 2
    return proportion_confint(p * n_adj, n_adj, alpha=alpha, method="wilson")


def restricted_mle_numerical(b, c, n, delta):
    """Tango (1998): p_c maximising the trinomial likelihood subject to p_b = p_c + delta (numerically)."""
    lo, hi = max(0.0, -delta), (1 - delta) / 2

    def nll(q):
        total = 0.0
        for k, pr in ((b, q + delta), (c, q), (n - b - c, 1 - 2 * q - delta)):
            if k:
                if pr <= 0:
                    return math.inf
                total -= k * math.log(pr)
        return total

    if hi - lo < 1e-14:
        return lo
    res = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-13, "maxiter": 500})
    return min([res.x, lo, hi], key=nll)  # the optimum may sit on the boundary


def tango_score_numerical(delta, b, c, n):
    q = restricted_mle_numerical(b, c, n, delta)
    var = n * (2 * q + delta * (1 - delta))
    num = b - c - n * delta
    return 0.0 if num == 0 else num / math.sqrt(var)


def mid_p(b: int, c: int) -> float:
    """McNemar's mid-p value from scipy's binomial law (Fagerland, Lydersen & Laake 2013)."""
    m, k = b + c, min(b, c)
    if m == 0:
        return 1.0
    return min(1.0, 2 * stats.binom.cdf(k, m, 0.5) - stats.binom.pmf(k, m, 0.5))


def bonett_price(b: int, c: int, n: int, alpha: float) -> tuple[float, float]:
    """Bonett & Price (2012), written out here: (b+1)/(n+2) and (c+1)/(n+2) in a Wald interval."""
    z = stats.norm.isf(alpha / 2)
    pb, pc = (b + 1) / (n + 2), (c + 1) / (n + 2)
    half = z * np.sqrt((pb + pc - (pb - pc) ** 2) / (n + 2))
    return max(-1.0, pb - pc - half), min(1.0, pb - pc + half)


def t_test_power(units: float, delta: float, unit_variance: float, alpha: float) -> float:
    """Two-sided power of the one-sample t-test on ``units`` independent means of variance
    ``unit_variance`` at a true mean ``delta``, by quadrature over the chi-square law of the
    variance estimate (not scipy's noncentral t): with ``s = delta sqrt(units / unit_variance)``,
    ``df = units - 1`` and ``c`` the t quantile, ``P(|Z + s| > c sqrt(X / df))``, ``X ~ chi2(df)``."""
    from scipy import integrate

    df = units - 1.0
    s = abs(delta) * math.sqrt(units / unit_variance)
    c = stats.t.isf(alpha / 2, df)

    def given(x):
        r = c * math.sqrt(x / df)
        return (stats.norm.sf(r - s) + stats.norm.cdf(-r - s)) * stats.chi2.pdf(x, df)

    lo, hi = stats.chi2.ppf([1e-12, 1 - 1e-12], df)
    return float(integrate.quad(given, lo, hi, limit=200, epsabs=1e-12)[0])


def t_test_units(delta: float, unit_variance: float, alpha: float, power: float) -> int:
    """The fewest units (at least 2) at which :func:`t_test_power` reaches ``power``.

    The power rises with the number of units, so the smallest such count is found by doubling
    and then halving an integer bracket (about 2 log2(units) quadratures instead of one per count)."""
    def reaches(units: int) -> bool:
        return t_test_power(units, delta, unit_variance, alpha) >= power

    if reaches(2):
        return 2
    short, enough = 2, 4                   # power(short) < target throughout
    while not reaches(enough):
        short, enough = enough, 2 * enough
    while enough - short > 1:
        middle = (short + enough) // 2
        short, enough = (short, middle) if reaches(middle) else (middle, enough)
    return enough


def t_test_detectable(units: float, unit_variance: float, alpha: float, power: float) -> float:
    """The difference at which :func:`t_test_power` on ``units`` means is ``power``, by bisection."""
    return float(optimize.brentq(lambda d: t_test_power(units, d, unit_variance, alpha) - power, 1e-9, 10.0,
                                 xtol=1e-12))
