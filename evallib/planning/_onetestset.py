"""Planning design 1, one test set: McNemar's power, sample size and minimum detectable
difference (exact enumeration, mid-p, Connor's normal approximation), the width of the paired
intervals at the expected counts, and the power of the F1 paired bootstrap (Keller, Bengio & Wong).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._compat import MID_P, renamed_choice, renamed_fields, renamed_keywords
from .._inference import check_alternative
from .._paired import _check_margin, _interval_bounds, _tango_margin_pvalues, _tango_restricted_mle
from .._plotting import get_axes
from .._power import _TEST_NAMES, _check_power, _check_test
from .._validate import check_alpha, check_choice, check_count, check_real, check_rng
from ..onetestset import MARGIN_HYPOTHESES, f1_difference

__all__ = ['F1Power', 'POWER_METHODS', 'discordant_probabilities', 'expected_interval_width', 'f1_bootstrap_power', 'f1_power_curve', 'interval_and_power_summary', 'mcnemar_power', 'mcnemar_power_curve', 'mcnemar_sample_size', 'minimum_detectable_difference', 'plot_f1_power', 'plot_interval_and_power', 'plot_mcnemar_power', 'plot_minimum_detectable_difference', 'plot_sample_size', 'sample_size_summary']


#: the McNemar tests whose power :func:`mcnemar_power` computes, named as
#: :data:`evallib.onetestset.TEST_METHODS` names them: the exact and mid-p tests by exact
#: enumeration, the chi-square test (no continuity correction) by Connor's normal approximation.
POWER_METHODS = ("exact", "mid-p", "chi2")

#: the old spellings of :data:`POWER_METHODS`: ``"asymptotic"`` (0.1.0's name of Connor's
#: approximation, the power of the ``"chi2"`` test) and those of mid-p.
_POWER_RENAMES = {**MID_P, "asymptotic": "chi2"}


# ------------------------------------------------------------------ validation
def _check_discordant(p_b: Any, p_c: Any) -> tuple[float, float]:
    p_b = check_real(p_b, "p_b", low=0.0, high=1.0, note="P(A wrong, B right)")
    p_c = check_real(p_c, "p_c", low=0.0, high=1.0, note="P(A right, B wrong)")
    if p_b + p_c > 1.0 + 1e-12:
        raise ValueError(f"p_b + p_c must not exceed 1 (they are probabilities of two disjoint "
                         f"events), got p_b + p_c = {p_b + p_c:g}")
    return p_b, p_c


def _check_one_sided_alpha(alpha: Any, alternative: str) -> float:
    """``alpha`` in (0, 1), and below 0.5 for a one-sided McNemar test (its region is a tail at ``2 alpha``)."""
    alpha = check_alpha(alpha)
    if alternative != "two-sided" and alpha >= 0.5:
        raise ValueError(f"alpha must lie in (0, 0.5) for a one-sided test (alternative={alternative!r}), "
                         f"got {alpha!r}")
    return alpha


def discordant_probabilities(difference: float, discordance: float) -> tuple[float, float]:
    """``(p_b, p_c)`` from the error-rate difference and the disagreement rate.

    ``p_b = (discordance + difference) / 2`` and ``p_c = (discordance - difference) / 2``,
    so that ``p_b - p_c = difference = err_A - err_B`` and ``p_b + p_c = discordance``.

    Parameters
    ----------
    difference : float
        ``err_A - err_B``, with ``|difference| <= discordance`` (two classifiers can
        differ in error only on the cases where they disagree).
    discordance : float
        The probability that A and B disagree on a case, in [0, 1].

    Returns
    -------
    p_b : float
        The probability that A is wrong and B right on a case.
    p_c : float
        The probability that A is right and B wrong on a case.

    Raises
    ------
    ValueError
        If ``discordance`` is outside [0, 1], ``difference`` outside [-1, 1], or
        ``|difference| > discordance``.

    Examples
    --------
    >>> discordant_probabilities(0.4, 0.5)   # Connor (1987): p_b = 0.45, p_c = 0.05
    (0.45, 0.05)
    """
    discordance = check_real(discordance, "discordance", low=0.0, high=1.0)
    difference = check_real(difference, "difference", low=-1.0, high=1.0)
    if abs(difference) > discordance + 1e-12:
        raise ValueError(f"|difference| must not exceed discordance (the classifiers differ only "
                         f"where they disagree), got difference = {difference:g}, "
                         f"discordance = {discordance:g}")
    p_b = min(max((discordance + difference) / 2.0, 0.0), 1.0)
    p_c = min(max((discordance - difference) / 2.0, 0.0), 1.0)
    return round(p_b, 15), round(p_c, 15)


# ------------------------------------------------------- the conditional tests
def _lower_critical(m: np.ndarray, alpha: float, method: str) -> np.ndarray:
    """Largest ``k`` such that ``b <= k`` rejects, given ``m = b + c`` (-1: never).

    The exact test rejects when ``2 P(X <= min(b, c)) <= alpha`` with
    ``X ~ Binomial(m, 1/2)`` (evallib.onetestset.mcnemar with ``method="exact"``); the mid-p
    test when ``2 [P(X <= k) - P(X = k) / 2] <= alpha``. Both p-values increase with
    ``k = min(b, c)``, so the rejection region is ``min(b, c) <= k_m``.
    """
    m = np.asarray(m, dtype=np.int64)
    if m.size and m.ndim == 1 and int(m.min()) >= 0 and int(m.max()) <= _CRITICAL_CACHE_MAX:
        # the critical values depend on m, alpha and the method only: computed once per
        # (alpha, method) up to the largest m asked so far, then looked up (notebook 06's sliders)
        key = (float(alpha), method)
        table = _CRITICAL_CACHE.get(key)
        top = int(m.max())
        if table is None or table.size <= top:
            size = max(top + 1, 2 * (0 if table is None else table.size), 1024)
            table = _lower_critical_direct(np.arange(size, dtype=np.int64), alpha, method)
            if len(_CRITICAL_CACHE) >= 16:
                _CRITICAL_CACHE.clear()
            _CRITICAL_CACHE[key] = table
        return table[m]
    return _lower_critical_direct(m, alpha, method)


#: critical values of :func:`_lower_critical` by (alpha, method), each for m = 0, 1, ... (a few entries).
_CRITICAL_CACHE_MAX = 200_000


_CRITICAL_CACHE: dict[tuple[float, str], np.ndarray] = {}


def _lower_critical_direct(m: np.ndarray, alpha: float, method: str) -> np.ndarray:
    """:func:`_lower_critical` computed from the binomial distribution, without the cache."""
    half = alpha / 2.0 * (1.0 + 1e-12)
    k0 = stats.binom.ppf(alpha / 2.0, m, 0.5)          # smallest k with cdf(k) >= alpha/2
    k0 = np.nan_to_num(k0, nan=0.0).astype(np.int64)
    if method == "exact":
        ok = stats.binom.cdf(k0, m, 0.5) <= half
    else:  # mid-p
        ok = stats.binom.cdf(k0, m, 0.5) - 0.5 * stats.binom.pmf(k0, m, 0.5) <= half
    k = np.where(ok, k0, k0 - 1)
    # the two tails must not meet: min(b, c) <= k < m / 2
    return np.where(2 * k < m, k, -1)


def _conditional_power(m: np.ndarray, q: float, alpha: float, method: str,
                       alternative: str = "two-sided") -> np.ndarray:
    """``P(reject | b + c = m)`` when ``b ~ Binomial(m, q)``, ``q = p_b / (p_b + p_c)``.

    One-sided at ``alpha``, the rejection region is one tail of the two-sided test at
    ``2 alpha``: ``b >= m - k`` (``"greater"``) or ``b <= k`` (``"less"``).
    """
    two_sided = alternative == "two-sided"
    k = _lower_critical(m, alpha if two_sided else 2.0 * alpha, method)
    low = stats.binom.cdf(k, m, q) if alternative != "greater" else 0.0     # b <= k
    high = stats.binom.sf(m - k - 1, m, q) if alternative != "less" else 0.0  # b >= m - k
    return np.where(k >= 0, low + high, 0.0)


def _asymptotic_power(n: np.ndarray, p_b: float, p_c: float, alpha: float,
                      alternative: str = "two-sided") -> np.ndarray:
    """Connor (1987): power of the normal approximation (both tails when two-sided)."""
    psi, delta = p_b + p_c, p_b - p_c
    n = np.asarray(n, dtype=float)
    if psi == 0.0:
        return np.zeros_like(n)
    two_sided = alternative == "two-sided"
    z = stats.norm.isf(alpha / 2.0 if two_sided else alpha)
    sd1 = math.sqrt(max(psi - delta * delta, 0.0))
    shift = np.sqrt(n) * (abs(delta) if two_sided else delta if alternative == "greater" else -delta)
    if sd1 == 0.0:   # every case discordant and all in one direction
        return np.where(shift > z * math.sqrt(psi), 1.0, np.where(shift == z * math.sqrt(psi), 0.5, 0.0))
    return (stats.norm.cdf((shift - z * math.sqrt(psi)) / sd1)
            + (stats.norm.cdf((-shift - z * math.sqrt(psi)) / sd1) if two_sided else 0.0))


def _window(n: int, psi: float) -> tuple[int, int]:
    # the binomial mass of M outside mean ± 12 sd (and 40 cases) is below 1e-30
    sd = math.sqrt(n * psi * (1.0 - psi))
    return max(0, int(n * psi - 12 * sd) - 40), min(n, int(n * psi + 12 * sd) + 40)


def _exact_power_one(n: int, p_b: float, p_c: float, alpha: float, method: str,
                     alternative: str = "two-sided") -> float:
    psi = p_b + p_c
    if n == 0 or psi == 0.0:
        return 0.0
    lo, hi = _window(n, psi)
    m = np.arange(lo, hi + 1)
    weights = stats.binom.pmf(m, n, psi)
    return float(np.clip(np.dot(weights, _conditional_power(m, p_b / psi, alpha, method, alternative)), 0.0, 1.0))


def _exact_power_many(ns: np.ndarray, p_b: float, p_c: float, alpha: float, method: str,
                      alternative: str = "two-sided") -> np.ndarray:
    """Exact power at each of ``ns``: the conditional rejection probabilities once, then
    one windowed binomial sum per ``n``."""
    psi = p_b + p_c
    out = np.zeros(len(ns))
    if psi == 0.0:
        return out
    r = _conditional_power(np.arange(int(max(ns)) + 1), p_b / psi, alpha, method, alternative)
    for i, n in enumerate(ns):
        if n == 0:
            continue
        lo, hi = _window(int(n), psi)
        out[i] = np.dot(stats.binom.pmf(np.arange(lo, hi + 1), n, psi), r[lo:hi + 1])
    return np.clip(out, 0.0, 1.0)


def _exact_power_all(n_max: int, p_b: float, p_c: float, alpha: float, method: str,
                     alternative: str = "two-sided") -> np.ndarray:
    """Exact power at every ``n = 0 ... n_max`` at once.

    The number of discordant cases ``M ~ Binomial(n, psi)`` is carried from ``n`` to
    ``n + 1`` by ``P_{n+1}(m) = (1 - psi) P_n(m) + psi P_n(m - 1)``; the conditional
    rejection probabilities ``r_m`` do not depend on ``n``, so
    ``power(n) = sum_m P_n(m) r_m``. Cost ``O(n_max^2)`` array operations, no special
    functions inside the loop.
    """
    psi = p_b + p_c
    out = np.zeros(n_max + 1)
    if psi == 0.0:
        return out
    r = _conditional_power(np.arange(n_max + 1), p_b / psi, alpha, method, alternative)
    pmf = np.zeros(n_max + 2)
    pmf[0] = 1.0
    for n in range(1, n_max + 1):
        pmf[1:n + 1] = (1.0 - psi) * pmf[1:n + 1] + psi * pmf[0:n]
        pmf[0] *= (1.0 - psi)
        out[n] = np.dot(pmf[:n + 1], r[:n + 1])
    return np.clip(out, 0.0, 1.0)


def mcnemar_power(n: Any, p_b: float, p_c: float, *, alpha: float = 0.05, method: str = "exact",
                  alternative: str = "two-sided") -> Any:
    """Power of McNemar's test for two classifiers on a test set of ``n`` cases.

    The counts ``(b, c, n - b - c)`` of the 2 x 2 table's discordant cells (A wrong and
    B right, A right and B wrong) and the rest are trinomial with probabilities
    ``(p_b, p_c, 1 - p_b - p_c)``. Power is the probability that the test rejects
    ``p_b = p_c`` at level ``alpha``:

    * ``"exact"``: enumerate the trinomial; given ``m = b + c`` discordant cases the
      exact conditional (binomial) test of Berrar & Lozano's eq. (2) rejects when
      ``2 P(X <= min(b, c)) <= alpha``, ``X ~ Binomial(m, 1/2)``, so
      ``power = sum_m Binomial(m; n, psi) P(reject | m)`` with ``b | m ~ Binomial(m, p_b / psi)``
      (Lachin 1992, section 3; the method of SAS PROC POWER's ``DIST=EXACT_COND``);
    * ``"mid-p"``: the same with the mid-p p-value ``2 [P(X <= k) - P(X = k) / 2]``,
      ``k = min(b, c)`` (Fagerland, Lydersen & Laake 2013), less conservative;
    * ``"chi2"``: the chi-square test without continuity correction, by Connor's (1987)
      normal approximation,
      ``Phi((sqrt(n) |delta| - z_{alpha/2} sqrt(psi)) / sqrt(psi - delta^2))`` plus the
      (negligible) other tail, with ``psi = p_b + p_c`` and ``delta = p_b - p_c``.

    Parameters
    ----------
    n : int or sequence of int
        Test-set size(s), ``>= 0``.
    p_b, p_c : float
        Discordant probabilities, each in [0, 1], ``p_b + p_c <= 1``.
    alpha : float
        Significance level, in (0, 1) (below 0.5 for a one-sided test).
    method : {"exact", "mid-p", "chi2"}
        The test (the names of :func:`evallib.onetestset.mcnemar`'s ``method=``);
        ``"asymptotic"``, 0.1.0's name of ``"chi2"``, still works until 0.3.0, with a
        ``DeprecationWarning``.
    alternative : {"two-sided", "greater", "less"}
        The test's alternative, as in :func:`evallib.onetestset.mcnemar`:
        ``"greater"`` rejects only when ``b`` is large (H1: ``p_b > p_c``), in the one tail
        ``P(X >= b) <= alpha`` (exact; its mid-p version for ``"mid-p"``), or, for
        ``"chi2"``, Connor's formula with ``z_alpha`` and the signed ``delta``:
        ``Phi((sqrt(n) delta - z_alpha sqrt(psi)) / sqrt(psi - delta^2))``.

    Returns
    -------
    float or numpy.ndarray
        The power (one value per ``n`` if ``n`` is a sequence).

    Notes
    -----
    Given ``m`` discordant cases the exact power saw-tooths in ``m``: the rejection
    region is a set of whole counts whose true size jumps as ``m`` grows. Averaging over
    the binomial number of discordant cases smooths the teeth when the classifiers
    rarely disagree, but when they disagree on most cases the exact power is not
    monotone in ``n`` either (see :func:`mcnemar_sample_size`). With ``p_b = p_c`` the
    result is the test's actual size (at most ``alpha`` for ``"exact"``). ``n = 0`` or ``p_b = p_c = 0`` (the
    classifiers never disagree) gives power 0: the test never rejects.

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions for the
    paired-sample design. *Biometrics* 43(1), 207-211.
    Lachin, J. M. (1992). Power and sample size evaluation for the McNemar test with
    application to matched case-control studies. *Statistics in Medicine* 11, 1239-1251.
    Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
    matched-pairs data: mid-p and asymptotic are better than exact conditional.
    *BMC Medical Research Methodology* 13, 91.

    Examples
    --------
    A published Connor-formula calculation (disagreement 0.45, discordant odds ratio 2,
    i.e. p_b = 0.30, p_c = 0.15) prints 155 pairs with power 80.1%:

    >>> round(float(mcnemar_power(155, 0.30, 0.15, method="chi2")), 3)
    0.801
    """
    method = check_choice(renamed_choice(method, "method", _POWER_RENAMES), "method", POWER_METHODS)
    p_b, p_c = _check_discordant(p_b, p_c)
    alpha = _check_one_sided_alpha(alpha, check_alternative(alternative))
    scalar = np.ndim(n) == 0
    ns = [check_count(n, "n")] if scalar else [check_count(v, "n") for v in np.asarray(n).ravel()]
    if method == "chi2":
        out = _asymptotic_power(np.array(ns), p_b, p_c, alpha, alternative)
    else:
        out = np.array([_exact_power_one(v, p_b, p_c, alpha, method, alternative) for v in ns])
    return float(out[0]) if scalar else out


def mcnemar_power_curve(ns: Any, p_b: float, p_c: float, *, alpha: float = 0.05,
                        methods: tuple[str, ...] = ("exact", "chi2"),
                        alternative: str = "two-sided") -> pd.DataFrame:
    """Power against the test-set size: a tidy table with columns ``n, method, power``.

    The exact and mid-p curves come from one pass over ``n = 0 ... max(ns)`` (the
    binomial recursion of the number of discordant cases) when that is cheap, otherwise
    from one windowed sum per ``n``; a slider needs either in well under a second.

    Parameters
    ----------
    ns : int or sequence of int
        Test-set sizes, each ``>= 0``, at least one.
    p_b, p_c, alpha
        As in :func:`mcnemar_power`.
    methods : str or sequence of str
        The tests, each one of ``"exact"``, ``"mid-p"`` and ``"chi2"`` as in
        :func:`mcnemar_power`'s ``method`` (default ``("exact", "chi2")``).
    alternative
        As in :func:`mcnemar_power`.

    Returns
    -------
    pandas.DataFrame
        One row per method and size, methods in the order given and sizes in the order
        of ``ns``: ``n``, ``method`` and ``power``.
    """
    p_b, p_c = _check_discordant(p_b, p_c)
    alpha = _check_one_sided_alpha(alpha, check_alternative(alternative))
    if isinstance(methods, str):
        methods = (methods,)
    methods = tuple(check_choice(renamed_choice(m, "methods", _POWER_RENAMES, stacklevel=5), "methods", POWER_METHODS)
                    for m in methods)
    ns = np.array([check_count(v, "ns") for v in np.atleast_1d(np.asarray(ns)).ravel()], dtype=np.int64)
    if ns.size == 0:
        raise ValueError("ns must hold at least one test-set size")
    rows = []
    for method in methods:
        if method == "chi2":
            power = _asymptotic_power(ns, p_b, p_c, alpha, alternative)
        elif ns.max() <= 3000 or ns.size > 0.2 * ns.max():
            power = _exact_power_all(int(ns.max()), p_b, p_c, alpha, method, alternative)[ns]
        else:  # a few large n: one windowed sum each is cheaper than the recursion
            power = _exact_power_many(ns, p_b, p_c, alpha, method, alternative)
        rows.append(pd.DataFrame({"n": ns, "method": method, "power": power}))
    return pd.concat(rows, ignore_index=True)


def mcnemar_sample_size(p_b: float, p_c: float, *, power: float = 0.8, alpha: float = 0.05,
                        method: str = "chi2", max_n: int = 20_000, alternative: str = "two-sided") -> int:
    """The number of test cases McNemar's test needs to reach ``power``.

    * ``"chi2"`` (the chi-square test): Connor's (1987) formula
      ``n = [z_{alpha/2} sqrt(psi) + z_beta sqrt(psi - delta^2)]^2 / delta^2``, rounded up
      (``psi = p_b + p_c``, ``delta = p_b - p_c``, ``z_beta`` the ``power`` quantile).
    * ``"exact"`` / ``"mid-p"``: exact power can saw-tooth in ``n`` (markedly when the
      classifiers disagree on most cases; see :func:`mcnemar_power`), so "the smallest
      n with power >= target" can be followed by larger n' that fall short again. Returned here: the smallest ``n`` at which the exact power
      reaches ``power`` **and stays there for the next 10% of n** (every ``n'`` in
      ``[n, ceil(1.1 n)]``). That is a choice (this workbook's), stated so.

    Parameters
    ----------
    p_b, p_c : float
        Discordant probabilities, each in [0, 1], ``p_b + p_c <= 1``, ``p_b != p_c``.
    power : float
        Target power, in (0, 1).
    alpha : float
        Significance level, in (0, 1).
    method : {"chi2", "exact", "mid-p"}
    max_n : int
        Largest ``n`` the exact search examines (its cost grows as ``max_n^2``).
    alternative : {"two-sided", "greater", "less"}
        The test's alternative (see :func:`mcnemar_power`); one-sided, Connor's formula
        has ``z_alpha`` in place of ``z_{alpha/2}``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``p_b == p_c`` (no difference to detect: no ``n`` is enough), if the difference
        points against a one-sided ``alternative`` (``p_b < p_c`` with ``"greater"``), or if
        the exact search passes ``max_n``.

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions for the
    paired-sample design. *Biometrics* 43(1), 207-211 (example on p. 209).
    Lachin, J. M. (1992). Power and sample size evaluation for the McNemar test with
    application to matched case-control studies. *Statistics in Medicine* 11, 1239-1251.

    Examples
    --------
    Connor (1987, p. 209): p_b = 0.45, p_c = 0.05, alpha = 0.05, power 0.8 gives 23.

    >>> mcnemar_sample_size(0.45, 0.05, power=0.8)
    23
    """
    method = check_choice(renamed_choice(method, "method", _POWER_RENAMES), "method", POWER_METHODS)
    p_b, p_c = _check_discordant(p_b, p_c)
    target = _check_power(power)
    alternative = check_alternative(alternative)
    alpha = _check_one_sided_alpha(alpha, alternative)
    max_n = check_count(max_n, "max_n", minimum=1)
    if p_b == p_c:
        raise ValueError(f"p_b must differ from p_c: with p_b = p_c = {p_b:g} there is no difference "
                         f"to detect, and no test-set size reaches power {target:g}")
    if (alternative == "greater" and p_b < p_c) or (alternative == "less" and p_b > p_c):
        raise ValueError(f"p_b = {p_b:g} and p_c = {p_c:g} point against alternative={alternative!r}: the "
                         f"one-sided test has power below alpha there, and no test-set size reaches {target:g}")
    psi, delta = p_b + p_c, p_b - p_c
    z_a = stats.norm.isf(alpha / 2.0 if alternative == "two-sided" else alpha)
    z_b = stats.norm.ppf(target)
    n_connor = (z_a * math.sqrt(psi) + z_b * math.sqrt(max(psi - delta * delta, 0.0))) ** 2 / delta ** 2
    if method == "chi2":
        return max(1, math.ceil(n_connor - 1e-9))
    n_hi = min(max_n, int(2 * n_connor) + 50)
    while True:
        curve = _exact_power_all(n_hi, p_b, p_c, alpha, method, alternative)
        ok = curve >= target
        for n in np.flatnonzero(ok):
            if n == 0:
                continue
            stop = math.ceil(1.1 * n)
            if stop > n_hi:
                break
            if ok[n:stop + 1].all():
                return int(n)
        if n_hi >= max_n:
            raise ValueError(f"the exact power does not stay at {target:g} up to max_n = {max_n}; "
                             f"raise max_n or use method='chi2' (Connor's n = {math.ceil(n_connor)})")
        n_hi = min(max_n, 2 * n_hi)


def minimum_detectable_difference(n: int, discordance: float, *, power: float = 0.8,
                                  alpha: float = 0.05, method: str = "chi2") -> float:
    """The smallest error-rate difference McNemar's test detects with ``power``.

    For a test set of ``n`` cases on which the classifiers disagree with probability
    ``discordance = psi``:

    * ``"chi2"`` (the chi-square test): Connor's (1987) equation solved for ``delta``:
      ``sqrt(n) |delta| = z_{alpha/2} sqrt(psi) + z_beta sqrt(psi - delta^2)``;
    * ``"exact"`` / ``"mid-p"``: the ``delta`` at which the exact power of that test
      (:func:`mcnemar_power`, by enumeration) equals ``power``. At fixed ``n`` and
      ``psi`` the exact power increases with ``|delta|`` (given ``m`` disagreements the
      rejection region is the two symmetric tails ``b <= k`` or ``b >= m - k``, whose
      probability grows as ``p_b / psi`` moves away from 1/2, and the law of ``m`` does
      not depend on ``delta``), so the root is found by bisection (Brent's method).

    It is a property of the design, computed before any data are seen: a true
    difference smaller than this is detected with less than ``power`` (at the defaults,
    one of 0.8 times it with probability about 0.6 only, by the normal approximation
    ``Phi(0.8 (z_{alpha/2} + z_beta) - z_{alpha/2})``). It is not a bound on the
    true or the observed difference. A non-significant result shows neither that the
    classifiers are equally good nor that their difference is below this value; the
    confidence interval of the observed difference says which differences the data
    leave open.

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    discordance : float
        ``p_b + p_c``, the disagreement rate, in (0, 1].
    power : float
        In (0, 1).
    alpha : float
        In (0, 1).
    method : {"chi2", "exact", "mid-p"}
        Whose power: the chi-square test's by Connor's normal approximation, or the exact power of the exact
        conditional or the mid-p test.

    Returns
    -------
    float
        ``delta`` in ``(0, discordance]``; ``math.inf`` when even ``|delta| = discordance``
        (all disagreements in one direction) is not detected with that power, i.e. no
        possible difference is.

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions for the
    paired-sample design. *Biometrics* 43(1), 207-211.

    Examples
    --------
    Inverse of Connor's example: 23 pairs, disagreement 0.5, detect 0.40 with 80% power
    (a little below 0.40, because 23 rounds the sample size up):

    >>> round(minimum_detectable_difference(23, 0.5), 3)
    0.392
    """
    n = check_count(n, "n", minimum=1)
    psi = check_real(discordance, "discordance", low=0.0, high=1.0, low_open=True)
    target = _check_power(power)
    alpha = check_alpha(alpha)
    method = check_choice(renamed_choice(method, "method", _POWER_RENAMES), "method", POWER_METHODS)
    z_a, z_b = stats.norm.isf(alpha / 2.0), stats.norm.ppf(target)

    if method == "chi2":
        def gap(delta: float) -> float:
            return math.sqrt(n) * delta - z_a * math.sqrt(psi) - z_b * math.sqrt(max(psi - delta * delta, 0.0))
    else:
        def gap(delta: float) -> float:
            p_b, p_c = max((psi + delta) / 2, 0.0), max((psi - delta) / 2, 0.0)
            return _exact_power_one(n, p_b, p_c, alpha, method) - target

    if gap(psi) < 0:
        return math.inf
    if gap(0.0) >= 0:  # power below alpha/2: any difference "detected"
        return 0.0
    from scipy.optimize import brentq

    return float(brentq(gap, 0.0, psi, xtol=1e-12 if method == "chi2" else 1e-9))


#: the intervals :func:`expected_interval_width` can plan for.
_WIDTH_METHODS = ("bonett_price", "qh")


def expected_interval_width(n: int, p_b: float, p_c: float, *, alpha: float = 0.05,
                            method: str = "bonett_price") -> float:
    """Width of the interval for ``err_A - err_B`` at the expected counts of a planned test set.

    Plugs ``b = n p_b`` and ``c = n p_c`` into the interval's formula: what a planned
    test set of ``n`` cases buys in precision, beside the power it buys. Both widths are
    roughly ``2 z sqrt((psi - delta^2) / n)`` (``psi = p_b + p_c``, ``delta = p_b - p_c``).

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    p_b, p_c : float
        Discordant probabilities, each in [0, 1], ``p_b + p_c <= 1``.
    alpha : float
        The interval has level ``1 - alpha``; ``alpha`` in (0, 1).
    method : {"bonett_price", "qh"}
        ``"bonett_price"``: Bonett & Price (2012), the interval Fagerland, Lydersen & Laake
        (2014) recommend and notebook 00 and the report use, adjusted proportions
        ``(b + 1) / (n + 2)``; ``"qh"``: Quesenberry–Hurst (Berrar & Lozano eqs. 4-5).

    Returns
    -------
    float

    References
    ----------
    Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
    difference of binomial proportions based on paired data. *Journal of Educational and
    Behavioral Statistics* 37, 479-488.
    Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and confidence
    intervals for paired binomial proportions. *Statistics in Medicine* 33, 2850-2875.

    Examples
    --------
    200 cases, p_b = 0.1, p_c = 0.04: ``2 z sqrt((p~_b + p~_c - (p~_b - p~_c)^2) / 202)``
    with ``p~_b = 21 / 202``, ``p~_c = 9 / 202``:

    >>> round(expected_interval_width(200, 0.1, 0.04), 4)
    0.105
    """
    n = check_count(n, "n", minimum=1)
    p_b, p_c = _check_discordant(p_b, p_c)
    alpha = check_alpha(alpha)
    method = check_choice(method, "method", _WIDTH_METHODS)
    low, high = _interval_bounds(method, n * (1.0 - p_b - p_c), n * p_b, n * p_c, 0.0, n, alpha)
    return float(high - low)


def _check_plan(difference: Any, discordance: Any) -> tuple[float, float, bool]:
    """``difference`` in [-1, 1], ``discordance`` in [0, 1], and whether such classifiers exist."""
    difference = check_real(difference, "difference", low=-1.0, high=1.0, note="err_A - err_B")
    discordance = check_real(discordance, "discordance", low=0.0, high=1.0)
    return difference, discordance, abs(difference) <= discordance + 1e-12


def _impossible(difference: float, discordance: float) -> str:
    return (f"no such pair of classifiers: a difference of {difference:+.3f} needs them to disagree on at "
            f"least {abs(difference):.3f} of the cases, not {discordance:.3f} (they can differ in error only "
            f"where they disagree)")


def interval_and_power_summary(difference: float, discordance: float, n: int, *, alpha: float = 0.05,
                               test: str = "exact") -> str:
    """One sentence: what a test set of ``n`` cases buys, in interval width and in power.

    For two classifiers whose error rates differ by ``difference = err_A - err_B`` and
    which disagree on a fraction ``discordance`` of the cases: the width of the Bonett–Price
    interval at the expected counts ``b = n p_b``, ``c = n p_c`` (:func:`expected_interval_width`;
    not the mean width over the tables a test set can produce) and the exact power of
    McNemar's test (:func:`mcnemar_power`) at ``n`` cases. When ``|difference| >
    discordance`` no such classifiers exist (they differ in error only where they
    disagree) and the sentence says so instead of raising: a pair of sliders can reach
    that corner.

    Parameters
    ----------
    difference : float
        ``err_A - err_B``, in [-1, 1].
    discordance : float
        The disagreement rate ``p_b + p_c``, in [0, 1].
    n : int
        Test-set size, ``>= 1``.
    alpha : float
        Level of the test; the interval has level ``1 - alpha``.
    test : {"exact", "mid-p"}
        Whose power: McNemar's exact conditional test or its mid-p version
        (Fagerland, Lydersen & Laake 2013).

    Returns
    -------
    str

    Examples
    --------
    >>> print(interval_and_power_summary(0.05, 0.1, 300))
    n = 300: width of the 95% interval at the expected counts 0.073, power of McNemar's exact test 0.74
    >>> interval_and_power_summary(0.08, 0.05, 300)[:27]
    'no such pair of classifiers'
    """
    difference, discordance, possible = _check_plan(difference, discordance)
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    test = _check_test(test)
    if not possible:
        return _impossible(difference, discordance)
    p_b, p_c = discordant_probabilities(difference, discordance)
    width = expected_interval_width(n, p_b, p_c, alpha=alpha)
    pw = mcnemar_power(n, p_b, p_c, alpha=alpha, method=test)
    return (f"n = {n}: width of the {100 * (1 - alpha):g}% interval at the expected counts {width:.3f}, "
            f"power of McNemar's {_TEST_NAMES[test]} test {pw:.2f}")


def sample_size_summary(difference: float, discordance: float, *, power: float = 0.8,
                        alpha: float = 0.05) -> str:
    """One sentence: the test cases Connor's formula asks for, and the exact power there.

    :func:`mcnemar_sample_size` (Connor 1987) for ``p_b, p_c`` from
    :func:`discordant_probabilities`, and :func:`mcnemar_power` of the exact test at that
    size (usually a little below ``power``: the exact test is conservative). When
    ``difference`` is 0 there is nothing to detect, and when ``|difference| >
    discordance`` no such classifiers exist; the sentence says so instead of raising.

    Parameters
    ----------
    difference : float
        ``err_A - err_B``, in [-1, 1].
    discordance : float
        The disagreement rate, in [0, 1].
    power, alpha : float
        Target power and level, in (0, 1).

    Returns
    -------
    str

    Examples
    --------
    >>> print(sample_size_summary(0.03, 0.10))
    Connor: 870 test cases for 80% power; the exact test has power 0.776 there
    """
    difference, discordance, possible = _check_plan(difference, discordance)
    target = _check_power(power)
    alpha = check_alpha(alpha)
    if not possible:
        return _impossible(difference, discordance)
    p_b, p_c = discordant_probabilities(difference, discordance)
    if p_b == p_c:
        return "no difference to detect: no test set is large enough to detect a difference of 0"
    n_needed = mcnemar_sample_size(p_b, p_c, power=target, alpha=alpha)
    exact = mcnemar_power(n_needed, p_b, p_c, alpha=alpha)
    return (f"Connor: {n_needed} test cases for {100 * target:g}% power; "
            f"the exact test has power {exact:.3f} there")


# ------------------------------------------------------------------------ plots
def plot_mcnemar_power(p_b: float, p_c: float, *, n_max: int | None = None, alpha: float = 0.05,
                       power: float = 0.8, methods: tuple[str, ...] = ("exact", "chi2"),
                       ax=None):
    """Power of McNemar's test against the test-set size, one line per method.

    Marks the target ``power`` and Connor's sample size. ``n_max`` defaults to twice
    that sample size (at least 20, at most 20,000). Returns the Axes.

    Parameters
    ----------
    p_b, p_c : float
        Discordant probabilities, each in [0, 1], ``p_b + p_c <= 1``.
    n_max : int, optional
        The largest test-set size drawn, ``>= 2`` (every size up to 3,000, 400 sizes
        beyond); by default as above (100 doubled when ``p_b = p_c``).
    alpha : float
        Significance level, in (0, 1) (default 0.05).
    power : float
        The target power marked, in (0, 1) (default 0.8); Connor's sample size
        (:func:`mcnemar_sample_size`, ``method="chi2"``) is the one that reaches it.
    methods : sequence of str
        The curves, as in :func:`mcnemar_power_curve` (default ``("exact", "chi2")``).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The power curves, the target power, and Connor's sample size when it is at most
        ``n_max`` (none when ``p_b = p_c``).
    """
    p_b, p_c = _check_discordant(p_b, p_c)
    target = _check_power(power)
    n_star = mcnemar_sample_size(p_b, p_c, power=target, alpha=alpha) if p_b != p_c else None
    if n_max is None:
        n_max = min(20_000, max(20, 2 * (n_star or 100)))
    n_max = check_count(n_max, "n_max", minimum=2)
    ns = np.arange(1, n_max + 1) if n_max <= 3000 else np.unique(np.linspace(1, n_max, 400).astype(int))
    curve = mcnemar_power_curve(ns, p_b, p_c, alpha=alpha, methods=methods)
    ax = get_axes(ax, figsize=(6.4, 3.6))
    styles = {"exact": dict(color="C0", lw=1.0), "mid-p": dict(color="C2", lw=1.0),
              "chi2": dict(color="C1", lw=1.5, ls="--")}
    labels = {"exact": "exact conditional", "mid-p": "mid-p", "chi2": "Connor (normal approx.)"}
    for method, part in curve.groupby("method", sort=False):
        ax.plot(part["n"], part["power"], label=labels[method], **styles[method])
    ax.axhline(target, color="grey", lw=0.8, ls=":")
    if n_star is not None and n_star <= n_max:
        ax.axvline(n_star, color="C1", lw=0.8, ls=":")
        ax.annotate(f"n = {n_star}", (n_star, 0.02), xytext=(3, 0), textcoords="offset points", fontsize=8)
    ax.set_xlabel("test-set size n")
    ax.set_ylabel("power")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"McNemar's test, p_b = {p_b:.3g}, p_c = {p_c:.3g}, alpha = {alpha:g}", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    return ax


def plot_minimum_detectable_difference(discordances: Any = (0.05, 0.1, 0.2), *, n_max: int = 2000,
                                       power: float = 0.8, alpha: float = 0.05, ax=None):
    """The minimum detectable difference against the test-set size, one line per disagreement rate.

    :func:`minimum_detectable_difference` on a grid of ``n`` from 10 to ``n_max``; sizes at
    which no difference is detectable are left blank. Returns the Axes.

    Parameters
    ----------
    discordances : float or sequence of float
        Disagreement rates ``p_b + p_c``, each in (0, 1]; one line each (default
        ``(0.05, 0.1, 0.2)``).
    n_max : int
        The largest test-set size, ``>= 20`` (default 2000); about 120 sizes spaced
        evenly on a log scale.
    power : float
        The power the difference is detected with, in (0, 1) (default 0.8).
    alpha : float
        Significance level, in (0, 1) (default 0.05).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The minimum detectable difference of the chi-square test (Connor's formula, the
        default ``method="chi2"``) against ``n`` on a log axis.
    """
    discordances = [check_real(d, "discordances", low=0.0, high=1.0, low_open=True)
                    for d in np.atleast_1d(np.asarray(discordances, dtype=float))]
    n_max = check_count(n_max, "n_max", minimum=20)
    target = _check_power(power)
    alpha = check_alpha(alpha)
    ns = np.unique(np.geomspace(10, n_max, 120).astype(int))
    ax = get_axes(ax, figsize=(6.4, 3.6))
    for i, psi in enumerate(discordances):
        mdd = np.array([minimum_detectable_difference(int(v), psi, power=target, alpha=alpha) for v in ns])
        ax.plot(ns, np.where(np.isfinite(mdd), mdd, np.nan), color=f"C{i}", label=f"disagreement {psi:g}")
    ax.set_xscale("log")
    ax.set_xlabel("test-set size n")
    ax.set_ylabel(f"difference detected with power {target:g}")
    ax.legend(fontsize=8)
    return ax


def _say_impossible(ax, difference: float, discordance: float):
    ax.axis("off")
    ax.text(0.5, 0.5, _impossible(difference, discordance).replace(": ", ":\n", 1), ha="center",
            va="center", fontsize=10, wrap=True, transform=ax.transAxes)
    return ax


def _bonett_price_widths(ns: np.ndarray, p_b: float, p_c: float, alpha: float) -> np.ndarray:
    """:func:`expected_interval_width` (Bonett–Price) at every ``n`` of ``ns`` at once."""
    ns = np.asarray(ns, dtype=float)
    z = stats.norm.isf(alpha / 2.0)
    q_b, q_c = (ns * p_b + 1.0) / (ns + 2.0), (ns * p_c + 1.0) / (ns + 2.0)
    return 2.0 * z * np.sqrt(np.maximum(q_b + q_c - (q_b - q_c) ** 2, 0.0) / (ns + 2.0))


def plot_interval_and_power(difference: float, n: int, *, discordance: float, alpha: float = 0.05,
                            n_max: int | None = None, test: str = "exact", points: int = 300, ax=None):
    """What a test set of ``n`` cases buys: power (left axis) and interval width (right axis).

    For an error-rate difference ``difference = err_A - err_B`` and a disagreement rate
    ``discordance``, draws the exact power of McNemar's test and the width of the
    Bonett–Price interval at the expected counts (:func:`expected_interval_width`) against
    the test-set size, marks ``n``, and writes the numbers at ``n`` in the title (those of
    :func:`interval_and_power_summary`). Notebook 00's sliders call it directly. When
    ``|difference| > discordance`` (no such classifiers) the Axes says so instead.

    Called again with an ``ax`` it drew on before, it updates that drawing in place
    (the curves' data, the marks, the title) instead of drawing anew: a slider's
    callback then costs one computation and one rendering.

    Parameters
    ----------
    difference : float
        ``err_A - err_B``, in [-1, 1].
    n : int
        The test-set size to mark, ``>= 1``.
    discordance : float
        The disagreement rate, in [0, 1].
    alpha : float
        Level of the test; the interval has level ``1 - alpha``.
    n_max : int, optional
        Right end of the curves; default ``max(2 n, 200)``. A fixed ``n_max`` (the
        largest ``n`` a slider reaches) keeps the curves when only ``n`` moves.
    test : {"exact", "mid-p"}
        Whose power: McNemar's exact conditional test or its mid-p version.
    points : int
        Number of test-set sizes on the curves (``>= 2``).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The (left) Axes; the width axis is its twin.

    Examples
    --------
    >>> ax = plot_interval_and_power(0.05, 300, discordance=0.1)
    >>> ax.get_title().splitlines()[1]
    'power of the exact test 0.74, width of the 95% interval at the expected counts 0.073'
    """
    difference, discordance, possible = _check_plan(difference, discordance)
    n = check_count(n, "n", minimum=1)
    alpha = check_alpha(alpha)
    test = _check_test(test)
    points = check_count(points, "points", minimum=2)
    n_max = max(2 * n, 200) if n_max is None else check_count(n_max, "n_max", minimum=2)
    drawn = getattr(ax, "_evallib_interval_power", None) if ax is not None else None
    ax = get_axes(ax, figsize=(6.4, 3.6))
    if not possible:
        if drawn is None:
            return _say_impossible(ax, difference, discordance)
        for artist in drawn["artists"]:
            artist.set_visible(False)
        drawn["twin"].set_visible(False)
        ax.set_title("")
        ax.set_axis_off()
        drawn["message"].set_text(_impossible(difference, discordance).replace(": ", ":\n", 1))
        drawn["message"].set_visible(True)
        return ax
    p_b, p_c = discordant_probabilities(difference, discordance)
    ns, power_curve, width = _interval_power_curves(p_b, p_c, alpha, test, n_max, points)
    pw = mcnemar_power(n, p_b, p_c, alpha=alpha, method=test)
    w_n = expected_interval_width(n, p_b, p_c, alpha=alpha)
    level = f"{100 * (1 - alpha):g}%"
    # the width at a handful of cases is huge (the adjusted interval's two pseudo-cases): let it leave
    # the top rather than squash the width near n
    top = 1.05 * min(float(width.max()), 4 * w_n)
    title = (f"difference {difference:+.3f}, disagreement {discordance:.2f}, n = {n}:\n"
             f"power of the {_TEST_NAMES[test]} test {pw:.2f}, width of the {level} interval at the expected counts {w_n:.3f}")
    if drawn is None:
        if ax.texts and not ax.lines:   # it said "no such classifiers" on a fresh Axes before
            ax.clear()
            ax.set_axis_on()
        power_line, = ax.plot(ns, power_curve, color="C0", label=f"power ({_TEST_NAMES[test]} McNemar)")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("test-set size n")
        ax.set_ylabel("power", color="C0")
        twin = ax.twinx()
        width_line, = twin.plot(ns, width, color="C3", ls="--", label="interval width")
        twin.set_ylabel(f"width of the {level} interval\nat the expected counts", color="C3")
        vline = ax.axvline(n, color="k", lw=0.8, ls=":")
        dot, = ax.plot([n], [pw], "o", color="C0")
        wdot, = twin.plot([n], [w_n], "o", color="C3")
        twin.set_ylim(0, top)
        ax.set_xlim(0, n_max * 1.02)
        from matplotlib.ticker import MaxNLocator

        for axis in (ax.xaxis, ax.yaxis, twin.yaxis):   # few tick labels: quicker to draw, easier to read
            axis.set_major_locator(MaxNLocator(5))
        ax.set_title(title, fontsize=10)
        message = ax.text(0.5, 0.5, "", ha="center", va="center", fontsize=10, wrap=True,
                          transform=ax.transAxes, visible=False)
        ax._evallib_interval_power = {"twin": twin, "message": message,
                                      "lines": (power_line, width_line, vline, dot, wdot),
                                      "artists": (power_line, vline, dot)}
        return ax
    power_line, width_line, vline, dot, wdot = drawn["lines"]
    drawn["message"].set_visible(False)
    ax.set_axis_on()
    drawn["twin"].set_visible(True)
    for artist in drawn["artists"]:
        artist.set_visible(True)
    power_line.set_data(ns, power_curve)
    width_line.set_data(ns, width)
    vline.set_xdata([n, n])
    dot.set_data([n], [pw])
    wdot.set_data([n], [w_n])
    drawn["twin"].set_ylim(0, top)
    ax.set_xlim(0, n_max * 1.02)
    drawn["twin"].set_ylabel(f"width of the {level} interval\nat the expected counts", color="C3")
    ax.set_title(title, fontsize=10)
    return ax


_CURVES: dict = {}


def _interval_power_curves(p_b: float, p_c: float, alpha: float, test: str, n_max: int, points: int):
    """Power and Bonett–Price width on ``points`` sizes up to ``n_max``, remembered (a slider
    that moves only ``n`` finds them computed). At most 64 are kept."""
    key = (p_b, p_c, alpha, test, n_max, points)
    if key not in _CURVES:
        ns = np.unique(np.linspace(1, n_max, points).astype(int))
        power = mcnemar_power_curve(ns, p_b, p_c, alpha=alpha, methods=(test,))["power"].to_numpy()
        if len(_CURVES) >= 64:
            _CURVES.pop(next(iter(_CURVES)))
        _CURVES[key] = (ns, power, _bonett_price_widths(ns, p_b, p_c, alpha))
    return _CURVES[key]


def plot_sample_size(difference: float, discordance: float, *, power: float = 0.8, alpha: float = 0.05,
                     methods: tuple[str, ...] = ("exact", "mid-p", "chi2"), ax=None):
    """Power of McNemar's test against n for a difference and a disagreement rate.

    :func:`plot_mcnemar_power` for ``p_b, p_c`` from :func:`discordant_probabilities`,
    with :func:`sample_size_summary` (Connor's n and the exact power there) in the title.
    Notebook 06's sliders call it directly. When ``|difference| > discordance`` (no such
    classifiers) the Axes says so instead.

    Parameters
    ----------
    difference : float
        ``err_A - err_B``, in [-1, 1].
    discordance : float
        The disagreement rate, in [0, 1].
    power, alpha : float
        Target power and level, in (0, 1).
    methods : tuple of {"exact", "mid-p", "chi2"}
        The curves to draw.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = plot_sample_size(0.03, 0.10)
    >>> ax.get_title().splitlines()[1]
    'Connor: 870 test cases for 80% power; the exact test has power 0.776 there'
    """
    difference, discordance, possible = _check_plan(difference, discordance)
    target = _check_power(power)
    alpha = check_alpha(alpha)
    ax = get_axes(ax, figsize=(6.4, 3.6))
    if not possible:
        return _say_impossible(ax, difference, discordance)
    p_b, p_c = discordant_probabilities(difference, discordance)
    plot_mcnemar_power(p_b, p_c, alpha=alpha, power=target, methods=methods, ax=ax)
    ax.set_title(f"difference {difference:+.3f}, disagreement {discordance:.2f} "
                 f"(p_b = {p_b:.3g}, p_c = {p_c:.3g}), alpha = {alpha:g}:\n"
                 + sample_size_summary(difference, discordance, power=target, alpha=alpha), fontsize=10)
    return ax


# ------------------------------------------------------------ F1 paired bootstrap
@renamed_fields(n_sim="repetitions", reps="n_resamples")
@dataclass(frozen=True)
class F1Power:
    """Simulated power of the F1 paired bootstrap test at one test-set size.

    Attributes
    ----------
    n : test-set size.
    power : the fraction of simulated test sets on which the bootstrap interval
        excluded 0 (the test rejected "dF1 = 0").
    mcse : its Monte Carlo standard error, ``sqrt(power (1 - power) / repetitions)``.
    estimate : dF1 = F1_B - F1_A of the population (from ``events``).
    repetitions, n_resamples, alpha : simulated test sets, bootstrap replicates per test set, level.
    """

    n: int
    power: float
    mcse: float
    estimate: float
    repetitions: int
    n_resamples: int
    alpha: float


def _check_event_probs(events: Any) -> np.ndarray:
    arr = np.asarray(events, dtype=float)
    if arr.shape != (8,):
        raise ValueError(f"events must hold 8 probabilities or counts (e1 ... e8), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or arr.sum() <= 0:
        raise ValueError("events must be 8 finite, non-negative numbers with a positive sum")
    if arr[:4].sum() <= 0:
        raise ValueError("events must give the positive class (e1 ... e4) a positive probability; "
                         "otherwise F1 is undefined")
    return arr / arr.sum()


@renamed_keywords(reps="n_resamples", n_sim="repetitions")
def f1_bootstrap_power(n: int, events: Any, *, alpha: float = 0.05, n_resamples: int = 1000,
                       repetitions: int = 400, rng: Any = None, chunk: int = 50) -> F1Power:
    """Power of the F1 paired bootstrap test (Keller, Bengio & Wong, eqs. 12-14), by simulation.

    A population is given by the probabilities of the eight joint events e1 ... e8
    (Table 1; for example a pilot test set's :func:`evallib.joint_events` counts). Each
    of ``repetitions`` simulated test sets of ``n`` cases is one Multinomial(n, events) draw;
    its bootstrap (``n_resamples`` replicates, each Multinomial(n, counts / n), as
    :func:`evallib.bootstrap_f1_difference` draws them) gives the percentile interval
    of dF1 (eq. 14), and the test rejects when 0 lies outside it. Because dF1 depends
    on a sample only through its eight counts, nothing but the multinomial is drawn.

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    events : 8 numbers
        Probabilities (or counts, normalised) of e1 ... e8; e1 ... e4 (the positive
        class) must have positive total probability.
    alpha : float
        Level of the bootstrap interval, in (0, 1).
    n_resamples : int
        Bootstrap replicates per simulated test set.
    repetitions : int
        Simulated test sets; the Monte Carlo standard error is at most ``0.5 / sqrt(repetitions)``.
    rng : None, int, SeedSequence or Generator
        Randomness (see :func:`evallib._validate.check_rng`).
    chunk : int
        Test sets bootstrapped at once (memory ``chunk * n_resamples * 8`` integers).

    Returns
    -------
    F1Power

    References
    ----------
    Keller, M., Bengio, S. & Wong, S. Y. Benchmarking non-parametric statistical tests
    (IDIAP), section 4, eqs. (12)-(14).
    Morris, T. P., White, I. R. & Crowther, M. J. (2019). Using simulation studies to
    evaluate statistical methods. *Statistics in Medicine* 38, 2074-2102 (Monte Carlo SE).

    Examples
    --------
    Two classifiers with the same F1 (here: identical) are never called different:

    >>> f1_bootstrap_power(100, [30, 0, 0, 20, 5, 0, 0, 45], repetitions=20, n_resamples=200, rng=0).power
    0.0
    """
    n = check_count(n, "n", minimum=1)
    probs = _check_event_probs(events)
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=10)
    repetitions = check_count(repetitions, "repetitions", minimum=1)
    chunk = check_count(chunk, "chunk", minimum=1)
    gen = check_rng(rng)
    rejected = 0
    for start in range(0, repetitions, chunk):
        size = min(chunk, repetitions - start)
        tests = gen.multinomial(n, probs, size=size)                       # (size, 8)
        boot = gen.multinomial(n, tests[:, None, :] / n, size=(size, n_resamples))  # (size, n_resamples, 8)
        d = f1_difference(boot)
        lo, hi = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0], axis=1)
        rejected += int(np.sum((lo > 0) | (hi < 0)))
    power = rejected / repetitions
    return F1Power(n=n, power=power, mcse=math.sqrt(power * (1 - power) / repetitions),
                   estimate=float(f1_difference(probs * 1e6)), repetitions=repetitions, n_resamples=n_resamples,
                   alpha=alpha)


@renamed_keywords(reps="n_resamples", n_sim="repetitions")
def f1_power_curve(ns: Any, events: Any, *, alpha: float = 0.05, n_resamples: int = 1000, repetitions: int = 400,
                   rng: Any = None) -> pd.DataFrame:
    """:func:`f1_bootstrap_power` at each test-set size: columns ``n, power, mcse``.

    One Generator (from ``rng``) feeds every size in turn, so the table is reproducible.

    Parameters
    ----------
    ns : int or sequence of int
        Test-set sizes, each ``>= 1``, at least one.
    events : 8 numbers
        Probabilities (or counts, normalised) of e1 ... e8, as in :func:`f1_bootstrap_power`.
    alpha : float
        Level of the bootstrap interval, in (0, 1) (default 0.05).
    n_resamples : int
        Bootstrap replicates per simulated test set, ``>= 10`` (default 1000).
    repetitions : int
        Simulated test sets per size, ``>= 1`` (default 400).
    rng : None, int, SeedSequence or Generator
        Randomness for the whole table.

    Returns
    -------
    pandas.DataFrame
        One row per size, in the order of ``ns``: ``n``, ``power`` (the share of
        simulated test sets whose interval excludes 0) and ``mcse`` (its Monte Carlo
        standard error).
    """
    gen = check_rng(rng)
    ns = [check_count(v, "ns", minimum=1) for v in np.atleast_1d(np.asarray(ns)).ravel()]
    if not ns:
        raise ValueError("ns must hold at least one test-set size")
    rows = [f1_bootstrap_power(v, events, alpha=alpha, n_resamples=n_resamples, repetitions=repetitions, rng=gen) for v in ns]
    return pd.DataFrame({"n": [r.n for r in rows], "power": [r.power for r in rows],
                         "mcse": [r.mcse for r in rows]})


def plot_f1_power(table: pd.DataFrame, *, power: float | None = 0.8, ax=None):
    """Simulated power of the F1 bootstrap against n, with ± 2 Monte Carlo SE bars.

    ``table`` is :func:`f1_power_curve`'s output. Returns the Axes.

    Parameters
    ----------
    table : pandas.DataFrame
        With the columns ``n``, ``power`` and ``mcse``, as :func:`f1_power_curve` returns.
    power : float or None
        A target power in (0, 1) to mark with a line (default 0.8); None marks none.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The simulated power against ``n`` with its error bars.
    """
    missing = {"n", "power", "mcse"} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must have the columns n, power, mcse (f1_power_curve's output); missing {sorted(missing)}")
    ax = get_axes(ax, figsize=(6.4, 3.6))
    ax.errorbar(table["n"], table["power"], yerr=2 * table["mcse"], marker="o", ms=3, capsize=2,
                color="C2", label="F1 bootstrap (simulated, ±2 MC SE)")
    if power is not None:
        ax.axhline(_check_power(power), color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("test-set size n")
    ax.set_ylabel("power")
    ax.legend(fontsize=8, loc="lower right")
    return ax


# ------------------------------------------- no worse than: Tango's test against a margin
__all__ += ["MARGIN_POWER_METHODS", "tango_power", "tango_sample_size"]

#: the ways :func:`tango_power` computes power.
MARGIN_POWER_METHODS = ("exact", "asymptotic")


def _check_margin_plan(p_b: Any, p_c: Any, margin: Any, hypothesis: Any, alpha: Any):
    p_b, p_c = _check_discordant(p_b, p_c)
    hypothesis = check_choice(hypothesis, "hypothesis", MARGIN_HYPOTHESES)
    margin, alpha = _check_margin(margin, alpha)
    return p_b, p_c, margin, hypothesis, alpha


def _null_sds(p_b: float, p_c: float, margin: float) -> tuple[float, float]:
    """sqrt(n) times the null standard error of ``(b - c)/n`` at ``+margin`` and ``-margin``.

    ``sqrt(2 q + delta (1 - delta))`` with ``q`` the restricted maximum-likelihood estimate of
    ``p_c`` under ``p_b - p_c = delta`` computed from the expected counts (Nam 1997).
    """
    out = []
    for delta in (margin, -margin):
        q = float(_tango_restricted_mle(delta, p_b, p_c, 1.0))
        out.append(math.sqrt(max(2.0 * q + delta * (1.0 - delta), 0.0)))
    return out[0], out[1]


def _asymptotic_margin_power(n: np.ndarray, p_b: float, p_c: float, margin: float, alpha: float,
                             hypothesis: str) -> np.ndarray:
    """Nam's (1997) normal approximation to the power of Tango's margin test."""
    n = np.asarray(n, dtype=float)
    delta, psi = p_b - p_c, p_b + p_c
    z = stats.norm.isf(alpha)
    s1 = math.sqrt(max(psi - delta * delta, 0.0))
    s_up, s_low = _null_sds(p_b, p_c, margin)

    def side(gap: float, s0: float) -> np.ndarray:
        shift = np.sqrt(n) * gap - z * s0
        if s1 == 0.0:   # (b - c)/n is the constant delta
            return np.where(shift > 0, 1.0, np.where(shift == 0, 0.5, 0.0))
        return stats.norm.cdf(shift / s1)

    power = side(margin - delta, s_up)
    if hypothesis == "equivalence":
        power = np.maximum(power + side(margin + delta, s_low) - 1.0, 0.0)
    return np.where(n > 0, power, 0.0)


def _exact_margin_power(n: int, p_b: float, p_c: float, margin: float, alpha: float, hypothesis: str) -> float:
    """``P(reject)`` by enumerating the trinomial ``(b, c, n - b - c)`` (windowed to 1e-30 of the mass)."""
    if n == 0:
        return 0.0
    z = float(stats.norm.isf(alpha))
    b_lo, b_hi = _window(n, p_b)
    c_lo, c_hi = _window(n, p_c)
    b = np.arange(b_lo, b_hi + 1, dtype=float)[:, None]
    c = np.arange(c_lo, c_hi + 1, dtype=float)[None, :]
    ok = b + c <= n
    bb, cc = np.broadcast_arrays(b, c)
    bb, cc = bb[ok], cc[ok]
    rest = n - bb - cc
    logpmf = (special.gammaln(n + 1.0) - special.gammaln(bb + 1) - special.gammaln(cc + 1) - special.gammaln(rest + 1)
              + special.xlogy(bb, p_b) + special.xlogy(cc, p_c) + special.xlogy(rest, 1.0 - p_b - p_c))
    statistic, _ = _tango_margin_pvalues(bb, cc, float(n), margin, hypothesis)
    return float(np.clip(np.sum(np.exp(logpmf) * (statistic >= z)), 0.0, 1.0))


def tango_power(n: Any, p_b: float, p_c: float, *, margin: float, hypothesis: str = "noninferiority",
                alpha: float = 0.05, method: str = "exact") -> Any:
    """Power of Tango's test that A is no worse than B (or equivalent) up to ``margin``.

    The test is :func:`evallib.onetestset.tango_test` on ``n`` cases whose discordant cells
    are trinomial with probabilities ``(p_b, p_c)`` (A wrong and B right, A right and B
    wrong); ``delta = p_b - p_c`` is the true difference of the error rates. At
    ``delta = margin`` (or ``-margin`` for ``"equivalence"``) the power is the test's size.

    * ``"exact"``: enumerate the trinomial and add the probabilities of the tables the
      test rejects (the same code as the test, so the size at the margin is exact);
    * ``"asymptotic"``: Nam's (1997) normal approximation,
      ``Phi((sqrt(n) (margin - delta) - z_alpha s0) / s1)`` with ``s1 = sqrt(psi - delta^2)``
      (``psi = p_b + p_c``) and ``s0 = sqrt(2 q + margin (1 - margin))``, ``q`` the restricted
      maximum-likelihood estimate of ``p_c`` under ``p_b - p_c = margin`` computed from the
      expected counts; for ``"equivalence"`` the two one-sided powers minus 1 (at least 0).

    Parameters
    ----------
    n : int or sequence of int
        Test-set size(s), ``>= 0``.
    p_b, p_c : float
        Discordant probabilities, each in [0, 1], ``p_b + p_c <= 1``.
    margin : float
        In (0, 1), as in :func:`evallib.onetestset.tango_test`.
    hypothesis : {"noninferiority", "equivalence"}
    alpha : float
        Level of each one-sided test, in (0, 0.5).
    method : {"exact", "asymptotic"}

    Returns
    -------
    float or numpy.ndarray
        One value per ``n`` if ``n`` is a sequence.

    References
    ----------
    Nam, J. (1997). Establishing equivalence of two treatments and sample size requirements
    in matched-pairs design. *Biometrics* 53, 1422-1430.
    Tango, T. (1998). Equivalence test and confidence interval for the difference in
    proportions for the paired-sample design. *Statistics in Medicine* 17, 891-908.

    Examples
    --------
    A and B disagree on 10% of the cases, equally often each way; margin 0.05. The exact
    power at the 274 cases :func:`tango_sample_size` plans for 80%:

    >>> round(float(tango_power(274, 0.05, 0.05, margin=0.05)), 3)
    0.812
    """
    method = check_choice(method, "method", MARGIN_POWER_METHODS)
    p_b, p_c, margin, hypothesis, alpha = _check_margin_plan(p_b, p_c, margin, hypothesis, alpha)
    scalar = np.ndim(n) == 0
    ns = [check_count(n, "n")] if scalar else [check_count(v, "n") for v in np.asarray(n).ravel()]
    if method == "asymptotic":
        out = _asymptotic_margin_power(np.array(ns), p_b, p_c, margin, alpha, hypothesis)
    else:
        out = np.array([_exact_margin_power(v, p_b, p_c, margin, alpha, hypothesis) for v in ns])
    return float(out[0]) if scalar else out


def tango_sample_size(p_b: float, p_c: float, *, margin: float, hypothesis: str = "noninferiority",
                      power: float = 0.8, alpha: float = 0.05) -> int:
    """Test cases Tango's margin test needs to show "no worse than" (or equivalence) with ``power``.

    Nam's (1997) formula for the one-sided score test,
    ``n = [z_alpha s0 + z_beta s1]^2 / (margin - delta)^2`` rounded up, with ``s0``, ``s1``
    and ``delta = p_b - p_c`` as in :func:`tango_power` and ``z_beta`` the ``power`` quantile.
    For ``"equivalence"``: the smallest ``n`` at which the normal approximation of
    :func:`tango_power` reaches ``power``. Check the plan with ``tango_power(n, ...,
    method="exact")``: the test is asymptotic, and its exact power at the planned ``n`` is
    within a few points of the target when ``n`` is not tiny.

    Parameters
    ----------
    p_b, p_c : float
        The discordant probabilities you expect, each in [0, 1], ``p_b + p_c <= 1``.
    margin : float
        In (0, 1); ``delta = p_b - p_c`` must lie below it (``|delta|`` for ``"equivalence"``).
    hypothesis : {"noninferiority", "equivalence"}
    power : float
        Target power, in (0, 1).
    alpha : float
        Level of each one-sided test, in (0, 0.5).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the expected difference is not inside the margin (then no ``n`` shows it), or an
        argument is out of range.

    References
    ----------
    Nam, J. (1997). Establishing equivalence of two treatments and sample size requirements
    in matched-pairs design. *Biometrics* 53, 1422-1430.

    Examples
    --------
    Equal error rates, disagreement on 10% of the cases, margin 0.05, alpha = 0.05, 80% power:
    under the margin ``W = 0`` and ``q = sqrt(8 * 0.05 * 0.05 * 0.95) / 4 = 0.03446``, so
    ``s0 = sqrt(2 q + 0.0475) = 0.3412``, ``s1 = sqrt(0.1) = 0.3162`` and
    ``n = (1.6449 * 0.3412 + 0.8416 * 0.3162)^2 / 0.05^2 = 273.8``:

    >>> tango_sample_size(0.05, 0.05, margin=0.05)
    274
    """
    p_b, p_c, margin, hypothesis, alpha = _check_margin_plan(p_b, p_c, margin, hypothesis, alpha)
    target = _check_power(power)
    delta = p_b - p_c
    gap = margin - (abs(delta) if hypothesis == "equivalence" else delta)
    if gap <= 0:
        what = "|p_b - p_c|" if hypothesis == "equivalence" else "p_b - p_c"
        raise ValueError(f"{what} = {abs(delta) if hypothesis == 'equivalence' else delta:g} must lie below "
                         f"margin = {margin:g}: the expected difference is not inside the margin, and no "
                         f"test-set size shows {hypothesis} with power {target:g}")
    s_up, _ = _null_sds(p_b, p_c, margin)
    s1 = math.sqrt(max(p_b + p_c - delta * delta, 0.0))
    z_a, z_b = stats.norm.isf(alpha), stats.norm.ppf(target)
    n = max(1, math.ceil((z_a * s_up + max(z_b, 0.0) * s1) ** 2 / gap ** 2 - 1e-9))
    if hypothesis == "noninferiority":
        return n

    def reached(m: int) -> bool:
        return bool(_asymptotic_margin_power(np.array([m]), p_b, p_c, margin, alpha, hypothesis)[0] >= target)

    lo, hi = 0, n
    while not reached(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return hi
