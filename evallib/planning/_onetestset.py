"""Planning a comparison: power and sample size for the tests of the workbook.

How many test cases does a comparison need to show a difference of the size one cares
about, and what does a "non-significant" result on a small test set rule out?

* McNemar's test (Berrar & Lozano 2013, eq. 2): its power by exact enumeration of the
  trinomial (b, c, the rest) with the exact conditional test or its mid-p version, and
  by Connor's (1987) normal approximation (:func:`mcnemar_power`); the sample size
  (:func:`mcnemar_sample_size`) and the minimum detectable difference
  (:func:`minimum_detectable_difference`).
* The F1 paired bootstrap of Keller, Bengio & Wong (eqs. 12-14): its power by
  simulation over the eight joint events (:func:`f1_bootstrap_power`).
* Cross-validation: the power of the CV t-tests for two learners that truly differ,
  beside their type I error (:func:`cv_ttest_power`, on
  :func:`evallib.simulate_unequal_learners`).
* Many data sets: how many data sets the Nemenyi test needs before a given difference
  of average ranks exceeds the critical difference (Demšar 2006, Flach eq. 12.1;
  :func:`nemenyi_datasets`), and its power against the number of data sets by
  simulation, with a normal approximation beside it (:func:`nemenyi_power_curve`,
  :func:`nemenyi_power_datasets`).
* Per-item evaluation (design 4: benchmark and LLM evals that score items 0/1 or in
  [0, 1], items in clusters, K answers per item): the variance of the paired difference
  of two models' mean scores (:func:`item_difference_variance`: between-item variance
  from the two models' item-score SDs and correlation, within-item noise shrinking as
  1/K, Kish's design effect for clusters), the items needed (:func:`item_sample_size`),
  the power (:func:`item_power`) and the minimum detectable difference
  (:func:`item_minimum_detectable_difference`) of Miller's (2024, arXiv:2411.00640)
  power analysis, and the items needed against the correlation
  (:func:`plot_item_sample_size`).
* The sliders of notebooks 00 and 06 call :func:`plot_interval_and_power` (power and the
  expected interval width at a test-set size; its sentence: :func:`interval_and_power_summary`)
  and :func:`plot_sample_size` (the power curves and Connor's n; :func:`sample_size_summary`).

Notation. For two classifiers A and B on the same test set of ``n`` cases,
``p_b = P(A wrong, B right)`` and ``p_c = P(A right, B wrong)`` are the discordant
probabilities, ``discordance = p_b + p_c`` is how often they disagree and
``difference = p_b - p_c = err_A - err_B`` is the difference of their error rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ._compat import MID_P, renamed_choice, renamed_keywords
from ._inference import check_alternative
from ._plotting import get_axes
from ._validate import check_alpha, check_choice, check_count, check_real, check_rng
from .manydatasets.ranktests import critical_difference
from .onetestset.bizarre import f1_difference
from .onetestset.pairwise import Contingency, _interval_bounds, mcnemar, paired_difference_interval
from .resampling.cvtests import simulate_unequal_learners

__all__ = [
    "F1Power",
    "ITEM_METHODS",
    "ItemSampleSize",
    "POWER_METHODS",
    "comparison_write_up",
    "cv_power_curve",
    "cv_ttest_power",
    "discordant_probabilities",
    "expected_interval_width",
    "f1_bootstrap_power",
    "f1_power_curve",
    "interval_and_power_summary",
    "item_difference_variance",
    "item_minimum_detectable_difference",
    "item_power",
    "item_sample_size",
    "mcnemar_power",
    "mcnemar_power_curve",
    "mcnemar_sample_size",
    "minimum_detectable_difference",
    "nemenyi_datasets",
    "nemenyi_power_curve",
    "nemenyi_power_datasets",
    "plot_design_map",
    "plot_cv_power",
    "plot_f1_power",
    "plot_interval_and_power",
    "plot_item_sample_size",
    "plot_mcnemar_power",
    "plot_minimum_detectable_difference",
    "plot_nemenyi_datasets",
    "plot_nemenyi_power",
    "plot_sample_size",
    "sample_size_summary",
]

#: the ways :func:`mcnemar_power` computes power.
POWER_METHODS = ("exact", "mid-p", "asymptotic")


# ------------------------------------------------------------------ validation
def _check_discordant(p_b: Any, p_c: Any) -> tuple[float, float]:
    p_b = check_real(p_b, "p_b", low=0.0, high=1.0, note="P(A wrong, B right)")
    p_c = check_real(p_c, "p_c", low=0.0, high=1.0, note="P(A right, B wrong)")
    if p_b + p_c > 1.0 + 1e-12:
        raise ValueError(f"p_b + p_c must not exceed 1 (they are probabilities of two disjoint "
                         f"events), got p_b + p_c = {p_b + p_c:g}")
    return p_b, p_c


def _check_power(power: Any) -> float:
    return check_real(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)


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
    ``X ~ Binomial(m, 1/2)`` (evallib.onetestset.pairwise.mcnemar with ``exact=True``); the mid-p
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
    # the binomial mass of M outside mean +/- 12 sd (and 40 cases) is below 1e-30
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
    * ``"asymptotic"``: Connor's (1987) normal approximation,
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
    method : {"exact", "mid-p", "asymptotic"}
    alternative : {"two-sided", "greater", "less"}
        The test's alternative, as in :func:`evallib.onetestset.pairwise.mcnemar`:
        ``"greater"`` rejects only when ``b`` is large (H1: ``p_b > p_c``), in the one tail
        ``P(X >= b) <= alpha`` (exact; its mid-p version for ``"mid-p"``), or, for
        ``"asymptotic"``, Connor's formula with ``z_alpha`` and the signed ``delta``:
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

    >>> round(float(mcnemar_power(155, 0.30, 0.15, method="asymptotic")), 3)
    0.801
    """
    method = check_choice(renamed_choice(method, "method", MID_P), "method", POWER_METHODS)
    p_b, p_c = _check_discordant(p_b, p_c)
    alpha = _check_one_sided_alpha(alpha, check_alternative(alternative))
    scalar = np.ndim(n) == 0
    ns = [check_count(n, "n")] if scalar else [check_count(v, "n") for v in np.asarray(n).ravel()]
    if method == "asymptotic":
        out = _asymptotic_power(np.array(ns), p_b, p_c, alpha, alternative)
    else:
        out = np.array([_exact_power_one(v, p_b, p_c, alpha, method, alternative) for v in ns])
    return float(out[0]) if scalar else out


def mcnemar_power_curve(ns: Any, p_b: float, p_c: float, *, alpha: float = 0.05,
                        methods: tuple[str, ...] = ("exact", "asymptotic"),
                        alternative: str = "two-sided") -> pd.DataFrame:
    """Power against the test-set size: a tidy table with columns ``n, method, power``.

    The exact and mid-p curves come from one pass over ``n = 0 ... max(ns)`` (the
    binomial recursion of the number of discordant cases) when that is cheap, otherwise
    from one windowed sum per ``n``; a slider needs either in well under a second.
    Arguments as in :func:`mcnemar_power`.
    """
    p_b, p_c = _check_discordant(p_b, p_c)
    alpha = _check_one_sided_alpha(alpha, check_alternative(alternative))
    if isinstance(methods, str):
        methods = (methods,)
    methods = tuple(check_choice(renamed_choice(m, "methods", MID_P, stacklevel=5), "methods", POWER_METHODS)
                    for m in methods)
    ns = np.array([check_count(v, "ns") for v in np.atleast_1d(np.asarray(ns)).ravel()], dtype=np.int64)
    if ns.size == 0:
        raise ValueError("ns must hold at least one test-set size")
    rows = []
    for method in methods:
        if method == "asymptotic":
            power = _asymptotic_power(ns, p_b, p_c, alpha, alternative)
        elif ns.max() <= 3000 or ns.size > 0.2 * ns.max():
            power = _exact_power_all(int(ns.max()), p_b, p_c, alpha, method, alternative)[ns]
        else:  # a few large n: one windowed sum each is cheaper than the recursion
            power = _exact_power_many(ns, p_b, p_c, alpha, method, alternative)
        rows.append(pd.DataFrame({"n": ns, "method": method, "power": power}))
    return pd.concat(rows, ignore_index=True)


def mcnemar_sample_size(p_b: float, p_c: float, *, power: float = 0.8, alpha: float = 0.05,
                        method: str = "asymptotic", max_n: int = 20_000, alternative: str = "two-sided") -> int:
    """The number of test cases McNemar's test needs to reach ``power``.

    * ``"asymptotic"``: Connor's (1987) formula
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
    method : {"asymptotic", "exact", "mid-p"}
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
    method = check_choice(renamed_choice(method, "method", MID_P), "method", POWER_METHODS)
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
    if method == "asymptotic":
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
                             f"raise max_n or use method='asymptotic' (Connor's n = {math.ceil(n_connor)})")
        n_hi = min(max_n, 2 * n_hi)


def minimum_detectable_difference(n: int, discordance: float, *, power: float = 0.8,
                                  alpha: float = 0.05, method: str = "asymptotic") -> float:
    """The smallest error-rate difference McNemar's test detects with ``power``.

    For a test set of ``n`` cases on which the classifiers disagree with probability
    ``discordance = psi``:

    * ``"asymptotic"``: Connor's (1987) equation solved for ``delta``:
      ``sqrt(n) |delta| = z_{alpha/2} sqrt(psi) + z_beta sqrt(psi - delta^2)``;
    * ``"exact"`` / ``"mid-p"``: the ``delta`` at which the exact power of that test
      (:func:`mcnemar_power`, by enumeration) equals ``power``. At fixed ``n`` and
      ``psi`` the exact power increases with ``|delta|`` (given ``m`` disagreements the
      rejection region is the two symmetric tails ``b <= k`` or ``b >= m - k``, whose
      probability grows as ``p_b / psi`` moves away from 1/2, and the law of ``m`` does
      not depend on ``delta``), so the root is found by bisection (Brent's method).

    A difference smaller than this would usually be missed, so a non-significant
    result on this test set does not show that the classifiers are equally good;
    it only makes differences much larger than this unlikely.

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
    method : {"asymptotic", "exact", "mid-p"}
        Whose power: Connor's normal approximation, or the exact power of the exact
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
    method = check_choice(renamed_choice(method, "method", MID_P), "method", POWER_METHODS)
    z_a, z_b = stats.norm.isf(alpha / 2.0), stats.norm.ppf(target)

    if method == "asymptotic":
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

    return float(brentq(gap, 0.0, psi, xtol=1e-12 if method == "asymptotic" else 1e-9))


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
        ``(b + 1) / (n + 2)``; ``"qh"``: Quesenberry-Hurst (Berrar & Lozano eqs. 4-5).

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


#: the McNemar tests whose power the planning sentences and plots can show, with their names.
_TEST_NAMES = {"exact": "exact", "mid-p": "mid-p"}


def _check_test(test: Any) -> str:
    return check_choice(renamed_choice(test, "test", MID_P, stacklevel=5), "test", tuple(_TEST_NAMES))


def interval_and_power_summary(difference: float, discordance: float, n: int, *, alpha: float = 0.05,
                               test: str = "exact") -> str:
    """One sentence: what a test set of ``n`` cases buys, in interval width and in power.

    For two classifiers whose error rates differ by ``difference = err_A - err_B`` and
    which disagree on a fraction ``discordance`` of the cases: the expected width of the
    Bonett-Price interval (:func:`expected_interval_width`) and the exact power of
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
    n = 300: expected width of the 95% interval 0.073, power of McNemar's exact test 0.74
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
    return (f"n = {n}: expected width of the {100 * (1 - alpha):g}% interval {width:.3f}, "
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
                       power: float = 0.8, methods: tuple[str, ...] = ("exact", "asymptotic"),
                       ax=None):
    """Power of McNemar's test against the test-set size, one line per method.

    Marks the target ``power`` and Connor's sample size. ``n_max`` defaults to twice
    that sample size (at least 20, at most 20,000). Returns the Axes.
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
              "asymptotic": dict(color="C1", lw=1.5, ls="--")}
    labels = {"exact": "exact conditional", "mid-p": "mid-p", "asymptotic": "Connor (normal approx.)"}
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
    """:func:`expected_interval_width` (Bonett-Price) at every ``n`` of ``ns`` at once."""
    ns = np.asarray(ns, dtype=float)
    z = stats.norm.isf(alpha / 2.0)
    q_b, q_c = (ns * p_b + 1.0) / (ns + 2.0), (ns * p_c + 1.0) / (ns + 2.0)
    return 2.0 * z * np.sqrt(np.maximum(q_b + q_c - (q_b - q_c) ** 2, 0.0) / (ns + 2.0))


def plot_interval_and_power(difference: float, n: int, *, discordance: float, alpha: float = 0.05,
                            n_max: int | None = None, test: str = "exact", points: int = 300, ax=None):
    """What a test set of ``n`` cases buys: power (left axis) and interval width (right axis).

    For an error-rate difference ``difference = err_A - err_B`` and a disagreement rate
    ``discordance``, draws the exact power of McNemar's test and the expected width of
    the Bonett-Price interval (:func:`expected_interval_width`) against the test-set
    size, marks ``n``, and writes the numbers at ``n`` in the title (those of
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
    'power of the exact test 0.74, expected width of the 95% interval 0.073'
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
             f"power of the {_TEST_NAMES[test]} test {pw:.2f}, expected width of the {level} interval {w_n:.3f}")
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
        twin.set_ylabel(f"expected width of the {level} interval", color="C3")
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
    drawn["twin"].set_ylabel(f"expected width of the {level} interval", color="C3")
    ax.set_title(title, fontsize=10)
    return ax


_CURVES: dict = {}


def _interval_power_curves(p_b: float, p_c: float, alpha: float, test: str, n_max: int, points: int):
    """Power and Bonett-Price width on ``points`` sizes up to ``n_max``, remembered (a slider
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
                     methods: tuple[str, ...] = ("exact", "mid-p", "asymptotic"), ax=None):
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
    methods : tuple of {"exact", "mid-p", "asymptotic"}
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


def plot_design_map(ax=None):
    """The decision figure of notebook 00: which design, which estimand, which function.

    Four boxes, one per design (one test set, resampling on one data set, many data
    sets, per-item evaluation), each with what varies, what is fixed, the evallib
    functions, the subpackage that holds them and the notebooks that teach it. Drawn
    with matplotlib patches; returns the Axes.

    Examples
    --------
    >>> from evallib import plot_design_map
    >>> ax = plot_design_map()
    >>> sum("evallib.items" in t.get_text() for t in ax.texts)
    1
    """
    from matplotlib.patches import FancyBboxPatch

    ax = get_axes(ax, figsize=(12.5, 5.8))
    ax.set_xlim(0, 16)
    ax.set_ylim(-0.15, 7)
    ax.axis("off")

    def box(x, y, w, h, text, color, size=8.5, weight="normal"):
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.08", fc=color, ec="0.3", lw=0.8))
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size, weight=weight, wrap=True)

    box(4.5, 5.9, 7.0, 0.9, "What do your repeated results come from?\n(what varies between the numbers you compare)",
        "#eeeeee", size=10, weight="bold")
    designs = [
        ("1. One test set,\npaired per case", "#dbe9f6",
         "varies: the test cases\nfixed: the trained models\nestimand: err_A - err_B on\nthe population of cases",
         "contingency, mcnemar,\npaired_difference_interval,\nbootstrap_f1_difference\nplan: mcnemar_sample_size,\nf1_bootstrap_power",
         "evallib.onetestset\nnotebooks 01, 03 (plan: 06);\n02: best of many vs chance"),
        ("2. Resampling on\none data set", "#e2f0d9",
         "varies: training and test splits\n(they overlap)\nfixed: the data set\nestimand: expected difference\nof the learners at this size",
         "cross_validate_scores,\ncorrected_resampled_ttest,\ndietterich_5x2cv\nplan: cv_ttest_power",
         "evallib.resampling\nnotebooks 04, 05, 07 (plan: 06)"),
        ("3. Many data sets", "#fbe5d6",
         "varies: the data sets\nfixed: the learners\nestimand: which learner ranks\nbetter across tasks",
         "friedman, critical_difference,\nwilcoxon_signed_rank,\nplot_cd_diagram\nplan: nemenyi_datasets",
         "evallib.manydatasets\nnotebooks 04, 07 (plan: 06)"),
        ("4. Per-item evaluation\n(items, clusters, samples)", "#ede2f6",
         "varies: the items, their clusters,\nthe answers (K per item)\nfixed: the trained models\nestimand: the difference of mean\nscores on the population of items",
         "item_mean, paired_item_difference,\nvariance_components, pass_at_k,\ntie_group, rank_intervals\nplan: item_sample_size",
         "evallib.items\nnotebook 08 (plan: 06)"),
    ]
    for i, (title, color, what, funcs, where) in enumerate(designs):
        x = 0.1 + 4.0 * i
        ax.annotate("", xy=(x + 1.8, 5.0), xytext=(8.0, 5.85),
                    arrowprops=dict(arrowstyle="->", color="0.3", lw=1.0))
        box(x, 4.3, 3.6, 0.7, title, color, size=9.5, weight="bold")
        box(x, 2.45, 3.6, 1.6, what, color, size=8)
        box(x, 1.05, 3.6, 1.2, funcs, "white", size=7.5)
        box(x, 0.05, 3.6, 0.75, where, "white", size=8.5, weight="bold")
    return ax


# ------------------------------------------------------------ F1 paired bootstrap
@dataclass(frozen=True)
class F1Power:
    """Simulated power of the F1 paired bootstrap test at one test-set size.

    Attributes
    ----------
    n : test-set size.
    power : the fraction of simulated test sets on which the bootstrap interval
        excluded 0 (the test rejected "dF1 = 0").
    mcse : its Monte Carlo standard error, ``sqrt(power (1 - power) / n_sim)``.
    estimate : dF1 = F1_B - F1_A of the population (from ``events``).
    n_sim, reps, alpha : simulated test sets, bootstrap replicates per test set, level.
    """

    n: int
    power: float
    mcse: float
    estimate: float
    n_sim: int
    reps: int
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
                   estimate=float(f1_difference(probs * 1e6)), n_sim=repetitions, reps=n_resamples, alpha=alpha)


@renamed_keywords(reps="n_resamples", n_sim="repetitions")
def f1_power_curve(ns: Any, events: Any, *, alpha: float = 0.05, n_resamples: int = 1000, repetitions: int = 400,
                   rng: Any = None) -> pd.DataFrame:
    """:func:`f1_bootstrap_power` at each test-set size: columns ``n, power, mcse``.

    One Generator (from ``rng``) feeds every size in turn, so the table is reproducible.
    """
    gen = check_rng(rng)
    ns = [check_count(v, "ns", minimum=1) for v in np.atleast_1d(np.asarray(ns)).ravel()]
    if not ns:
        raise ValueError("ns must hold at least one test-set size")
    rows = [f1_bootstrap_power(v, events, alpha=alpha, n_resamples=n_resamples, repetitions=repetitions, rng=gen) for v in ns]
    return pd.DataFrame({"n": [r.n for r in rows], "power": [r.power for r in rows],
                         "mcse": [r.mcse for r in rows]})


def plot_f1_power(table: pd.DataFrame, *, power: float | None = 0.8, ax=None):
    """Simulated power of the F1 bootstrap against n, with +/- 2 Monte Carlo SE bars.

    ``table`` is :func:`f1_power_curve`'s output. Returns the Axes.
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


# -------------------------------------------------------------- cross-validation
def cv_ttest_power(n_samples: int, difference: float, *, folds: int = 10, repeats: int = 10,
                   alpha: float = 0.05, n_datasets: int = 500, bayes_error: float = 0.25,
                   rng: Any = None) -> pd.DataFrame:
    """Power of the cross-validation t-tests for two learners that truly differ, beside their size.

    Runs :func:`evallib.simulate_unequal_learners` (learner A's Bayes accuracy higher by
    ``difference``) and, on the same random numbers, the same study with ``difference = 0``
    (equal learners). A test rejects when ``pvalue <= alpha``; the rejection rate is its
    power in the first study and its type I error rate (size) in the second. The naive
    paired t-test over all folds "wins" on power only because its size is far above
    ``alpha`` (the training sets overlap); the corrected resampled t-test of Nadeau &
    Bengio (2003) and Dietterich's 5x2cv keep their size near ``alpha`` and pay in power.

    Parameters
    ----------
    n_samples : int
        Cases per simulated data set (see :func:`evallib.simulate_unequal_learners`).
    difference : float
        A's Bayes accuracy minus B's, in ``[0, 0.5 - bayes_error)``.
    folds, repeats : int
        The repeated cross-validation (``repeats`` x ``folds``-fold).
    alpha : float
        Level, in (0, 1).
    n_datasets : int
        Simulated data sets per study; Monte Carlo SE at most ``0.5 / sqrt(n_datasets)``.
    bayes_error : float
        Learner A's Bayes error, in (0, 0.5).
    rng : None, int, SeedSequence or Generator
        One integer seed is drawn from it and shared by the two studies (common random
        numbers).

    Returns
    -------
    pandas.DataFrame
        One row per test: ``n_samples, test, power, power_mcse, size, size_mcse``.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. *Machine
    Learning* 52, 239-281.
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. *Neural Computation* 10, 1895-1923.
    Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD.

    Examples
    --------
    With equal learners (``difference = 0``) power and size are the same numbers:

    >>> t = cv_ttest_power(40, 0.0, folds=5, repeats=2, n_datasets=20, rng=0)
    >>> bool((t["power"] == t["size"]).all())
    True
    """
    alpha = check_alpha(alpha)
    difference = check_real(difference, "difference", low=0.0, high=0.5)
    seed = int(check_rng(rng).integers(2**31 - 1))
    settings = dict(bayes_error=bayes_error, folds=folds, repeats=repeats, n_datasets=n_datasets, rng=seed)
    out = {}
    for name, delta in (("power", difference), ("size", 0.0)):
        sim = simulate_unequal_learners(n_samples, difference=delta, **settings)
        rej = (sim["pvalue"] <= alpha).groupby(sim["test"], sort=False)
        rate, count = rej.mean(), rej.size()
        out[name] = rate
        out[f"{name}_mcse"] = np.sqrt(rate * (1 - rate) / count)
    table = pd.DataFrame(out).rename_axis("test").reset_index()
    table.insert(0, "n_samples", check_count(n_samples, "n_samples"))
    return table


def cv_power_curve(ns: Any, difference: float, *, folds: int = 10, repeats: int = 10, alpha: float = 0.05,
                   n_datasets: int = 500, bayes_error: float = 0.25, rng: Any = None) -> pd.DataFrame:
    """:func:`cv_ttest_power` at each data-set size in ``ns`` (one table, tidy)."""
    gen = check_rng(rng)
    ns = [check_count(v, "ns", minimum=1) for v in np.atleast_1d(np.asarray(ns)).ravel()]
    if not ns:
        raise ValueError("ns must hold at least one data-set size")
    return pd.concat([cv_ttest_power(v, difference, folds=folds, repeats=repeats, alpha=alpha,
                                     n_datasets=n_datasets, bayes_error=bayes_error, rng=gen) for v in ns],
                     ignore_index=True)


def plot_cv_power(table: pd.DataFrame, *, alpha: float | None = None, ax=None):
    """Power (solid, +/- 2 MC SE) and size (dotted) of each CV t-test against the data-set size.

    ``table`` is :func:`cv_power_curve`'s output. Returns the Axes.
    """
    need = {"n_samples", "test", "power", "power_mcse", "size"}
    missing = need - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be cv_power_curve's output; missing columns {sorted(missing)}")
    ax = get_axes(ax, figsize=(8.5, 3.8))
    for i, (test, part) in enumerate(table.groupby("test", sort=False)):
        ax.errorbar(part["n_samples"], part["power"], yerr=2 * part["power_mcse"], color=f"C{i}", marker="o",
                    ms=3, capsize=2, label=f"{test}: power")
        ax.plot(part["n_samples"], part["size"], color=f"C{i}", ls=":", lw=1)
    if alpha is not None:
        ax.axhline(check_alpha(alpha), color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("cases per data set")
    ax.set_ylabel("rejection rate (solid: power, dotted: size)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax


# ------------------------------------------------------------------ many data sets
def nemenyi_datasets(k: int, rank_difference: float, *, alpha: float = 0.05, test: str = "nemenyi") -> int:
    """How many data sets make a difference of average ranks significant.

    The Nemenyi test (Demšar 2006; Flach eq. 12.1) calls two of ``k`` algorithms
    different when their average ranks differ by at least
    ``CD = q_alpha sqrt(k (k + 1) / (6 N))``. Solving ``CD <= rank_difference`` for the
    number of data sets gives ``N >= q_alpha^2 k (k + 1) / (6 rank_difference^2)``;
    returned is the smallest such whole ``N`` (at least 2). It is the number of data sets
    at which an observed gap of ``rank_difference`` would just be significant - a
    planning floor, not a power calculation (the observed gap itself varies).

    Parameters
    ----------
    k : int
        Number of algorithms, ``>= 2``.
    rank_difference : float
        The gap in average ranks to separate, in ``(0, k - 1]``.
    alpha : float
        Family-wise level, in (0, 1).
    test : {"nemenyi", "bonferroni-dunn"}
        As in :func:`evallib.critical_difference`.

    Returns
    -------
    int

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    *Journal of Machine Learning Research* 7, 1-30 (section 3.2.2, Table 5).
    Flach, P. (2012). *Machine Learning*, section 12.4, eq. (12.1).

    Examples
    --------
    Flach's three algorithms (q = 2.343): a gap of 1.047 needs the ten data sets of
    Example 12.8 (at the rounded q; with the exact studentized range, 11):

    >>> import math
    >>> math.ceil(2.343 ** 2 * 3 * 4 / (6 * 1.047 ** 2))
    11
    >>> nemenyi_datasets(3, 1.0)
    11
    """
    k = check_count(k, "k", minimum=2)
    d = check_real(rank_difference, "rank_difference", low=0.0, high=float(k - 1), low_open=True,
                   note="average ranks of k algorithms differ by at most k - 1")
    q = critical_difference(k, 2, alpha=alpha, test=test).q_alpha
    n = max(2, math.ceil(q * q * k * (k + 1) / (6.0 * d * d) - 1e-9))
    # guard the rounding against the function the notebooks use
    while critical_difference(k, n, alpha=alpha, test=test).cd > d:
        n += 1
    while n > 2 and critical_difference(k, n - 1, alpha=alpha, test=test).cd <= d:
        n -= 1
    return n


def plot_nemenyi_datasets(k: int, rank_difference: float, *, alpha: float = 0.05, n_max: int | None = None,
                          ax=None):
    """The critical difference against the number of data sets, with the gap to separate.

    Returns the Axes.
    """
    n_star = nemenyi_datasets(k, rank_difference, alpha=alpha)
    n_max = max(2 * n_star, 10) if n_max is None else check_count(n_max, "n_max", minimum=3)
    ns = np.arange(2, n_max + 1)
    cds = [critical_difference(k, int(v), alpha=alpha).cd for v in ns]
    ax = get_axes(ax, figsize=(6.4, 3.6))
    ax.plot(ns, cds, color="C4", label=f"Nemenyi CD, k = {k}")
    ax.axhline(rank_difference, color="grey", ls=":", lw=0.8)
    ax.axvline(n_star, color="C4", ls=":", lw=0.8)
    ax.annotate(f"N = {n_star}", (n_star, rank_difference), xytext=(4, 6), textcoords="offset points", fontsize=8)
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("critical difference of average ranks")
    ax.legend(fontsize=8)
    return ax


def _nemenyi_spacing(k: int, rank_difference: float) -> float:
    """Spacing ``s`` of ``k`` evenly spaced means (sd-1 normal noise) whose extremes differ by
    ``rank_difference`` in expected rank: ``E r_first - E r_last = sum_l Phi(mu_l / sqrt 2)
    - sum_l Phi((mu_l - mu_last) / sqrt 2)`` over the other algorithms, solved for ``s``."""
    from scipy.optimize import brentq

    unit = np.arange(k) / (k - 1)

    def gap(s: float) -> float:
        mu = unit * s
        return float(stats.norm.cdf(mu[1:] / math.sqrt(2.0)).sum()
                     - stats.norm.cdf((mu[:-1] - mu[-1]) / math.sqrt(2.0)).sum()) - rank_difference

    hi = 1.0
    while gap(hi) < 0:
        hi *= 2.0
    return brentq(gap, 0.0, hi, xtol=1e-12)


@renamed_keywords(n_sim="n_resamples")
def nemenyi_power_curve(k: int, rank_difference: float, n_max: int, *, alpha: float = 0.05,
                        n_resamples: int = 2000, rng: Any = None) -> pd.DataFrame:
    """Power of the Nemenyi test to separate two algorithms, against the number of data sets.

    :func:`nemenyi_datasets` gives the ``N`` at which an *observed* gap of average ranks
    equal to ``rank_difference`` would just be significant; the observed gap scatters
    around its expectation, so at that ``N`` the test finds a true gap of that size only
    about half the time. This function simulates the power. The model: on each data set
    the ``k`` algorithms score ``mu_j + e_j`` with independent standard normal ``e_j``,
    the ``mu_j`` evenly spaced with the spacing chosen so that the expected average ranks
    of the best and the worst algorithm differ by exactly ``rank_difference`` (computed
    exactly: ``E r_j = 1 + sum_l Phi((mu_l - mu_j)/sqrt 2)``). Each simulated study
    draws ``n_max`` data sets; the study of its first ``N`` data sets rejects when the
    two extremes' average ranks differ by at least ``CD(k, N)``
    (:func:`evallib.critical_difference`). The studies for different ``N`` are nested
    (the same draws, more of them), so the curve is smooth but its points are correlated.

    Beside the simulation, a normal approximation: the observed gap ``D`` is the mean of
    ``N`` independent per-data-set rank differences, ``D ~ N(rank_difference, sigma^2 / N)``
    with ``sigma^2`` their variance (estimated from every simulated data set), so
    ``power ~ Phi((rank_difference - CD) sqrt(N) / sigma) + Phi((-rank_difference - CD) sqrt(N) / sigma)``.

    Parameters
    ----------
    k : int
        Number of algorithms, ``>= 2``.
    rank_difference : float
        Expected difference of the two algorithms' average ranks, in ``(0, k - 1)``.
    n_max : int
        Largest number of data sets, ``>= 2``; every ``N`` from 2 to ``n_max`` is reported.
    alpha : float
        Family-wise level of the Nemenyi test, in (0, 1).
    n_resamples : int
        Simulated studies, ``>= 10`` (Monte Carlo SE at most ``0.5 / sqrt(n_resamples)``).
    rng : None, int, SeedSequence or Generator

    Returns
    -------
    pandas.DataFrame
        ``n_datasets``, ``cd`` (the critical difference), ``power`` (simulated), ``mcse``
        (its Monte Carlo standard error ``sqrt(power (1 - power) / n_resamples)``) and
        ``normal`` (the approximation). ``attrs["spacing"]`` holds the spacing of the
        means and ``attrs["sigma"]`` the per-data-set SD of the rank difference.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    *JMLR* 7, 1-30 (section 3.2.2). Morris, T. P., White, I. R. & Crowther, M. J. (2019).
    Using simulation studies to evaluate statistical methods. *Statistics in Medicine* 38,
    2074-2102 (Monte Carlo SE).

    Examples
    --------
    At the floor of :func:`nemenyi_datasets` the power is near one half:

    >>> n0 = nemenyi_datasets(5, 1.0)
    >>> table = nemenyi_power_curve(5, 1.0, n0, n_resamples=2000, rng=0).set_index("n_datasets")
    >>> 0.4 < float(table.loc[n0, "power"]) < 0.6
    True
    """
    k = check_count(k, "k", minimum=2)
    d = check_real(rank_difference, "rank_difference", low=0.0, high=float(k - 1), low_open=True,
                   high_open=True, note="the expected average ranks of k algorithms differ by less than k - 1")
    n_max = check_count(n_max, "n_max", minimum=2)
    alpha = check_alpha(alpha)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=10)
    gen = check_rng(rng)
    spacing = _nemenyi_spacing(k, d)
    mu = np.arange(k) / (k - 1) * spacing
    ns = np.arange(2, n_max + 1)
    cds = np.array([critical_difference(k, int(v), alpha=alpha).cd for v in ns])
    hits = np.zeros(ns.size)
    total, total_sq, count = 0.0, 0.0, 0
    step = max(1, 4_000_000 // (n_max * k))
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        scores = mu + gen.standard_normal((size, n_max, k))
        # rank 1 = best: one plus the number of algorithms that score higher
        rank_first = 1 + (scores > scores[..., :1]).sum(axis=-1)
        rank_last = 1 + (scores > scores[..., -1:]).sum(axis=-1)
        diff = (rank_first - rank_last).astype(float)          # expected value: +rank_difference
        total += diff.sum()
        total_sq += (diff * diff).sum()
        count += diff.size
        mean_gap = np.cumsum(diff, axis=1)[:, ns - 1] / ns
        hits += (np.abs(mean_gap) >= cds - 1e-12).sum(axis=0)
    power = hits / n_resamples
    mean = total / count
    sigma = math.sqrt(max(total_sq / count - mean * mean, 0.0))
    root = np.sqrt(ns) / sigma if sigma > 0 else np.full(ns.size, np.inf)
    normal = stats.norm.cdf((d - cds) * root) + stats.norm.cdf((-d - cds) * root)
    table = pd.DataFrame({"n_datasets": ns, "cd": cds, "power": power,
                          "mcse": np.sqrt(power * (1.0 - power) / n_resamples), "normal": normal})
    table.attrs.update(spacing=float(spacing), sigma=sigma, k=k, rank_difference=d, alpha=alpha, n_resamples=n_resamples)
    return table


def nemenyi_power_datasets(table: pd.DataFrame, *, power: float = 0.8, column: str = "power") -> int | None:
    """The smallest number of data sets at which ``table``'s power reaches ``power`` and stays there.

    ``table`` is :func:`nemenyi_power_curve`'s output; ``column`` is ``"power"`` (the
    simulation) or ``"normal"`` (the approximation). Returns None when the power stays
    below the target up to the table's largest ``N`` (simulate further).
    """
    target = _check_power(power)
    if column not in ("power", "normal"):
        raise ValueError(f"column must be 'power' or 'normal', got {column!r}")
    missing = {"n_datasets", column} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be nemenyi_power_curve's output; missing {sorted(missing)}")
    below = np.flatnonzero(table[column].to_numpy() < target)
    ns = table["n_datasets"].to_numpy()
    if below.size == 0:
        return int(ns[0])
    if below[-1] == ns.size - 1:
        return None
    return int(ns[below[-1] + 1])


def plot_nemenyi_power(table: pd.DataFrame, *, power: float | None = 0.8, ax=None):
    """Simulated power of the Nemenyi test against the number of data sets (``nemenyi_power_curve``).

    The simulation with a band of +/- 2 Monte Carlo SE, the normal approximation dashed,
    the target power and the critical-difference floor of :func:`nemenyi_datasets`
    (where the power is about one half) marked. Returns the Axes.
    """
    missing = {"n_datasets", "power", "mcse", "normal"} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be nemenyi_power_curve's output; missing {sorted(missing)}")
    ax = get_axes(ax, figsize=(6.4, 3.6))
    n, p, se = table["n_datasets"], table["power"], table["mcse"]
    ax.fill_between(n, p - 2 * se, p + 2 * se, color="C4", alpha=0.25, linewidth=0)
    ax.plot(n, p, color="C4", lw=1.2, label="simulated (band: ±2 MC SE)")
    ax.plot(n, table["normal"], color="k", lw=1, ls="--", label="normal approximation")
    attrs = table.attrs
    if {"k", "rank_difference", "alpha"} <= set(attrs):
        floor = nemenyi_datasets(attrs["k"], attrs["rank_difference"], alpha=attrs["alpha"])
        ax.axvline(floor, color="grey", ls=":", lw=0.8)
        ax.annotate(f"CD floor N = {floor}", (floor, 0.03), xytext=(3, 0), textcoords="offset points",
                    fontsize=8)
        ax.set_title(f"Nemenyi test, k = {attrs['k']}, expected rank gap {attrs['rank_difference']:g}, "
                     f"alpha = {attrs['alpha']:g}", fontsize=10)
    if power is not None:
        target = _check_power(power)
        ax.axhline(target, color="grey", ls=":", lw=0.8)
        reach = nemenyi_power_datasets(table, power=target)
        if reach is not None:
            ax.axvline(reach, color="C4", ls=":", lw=0.8)
            ax.annotate(f"{100 * target:g}% power: N = {reach}", (reach, target), xytext=(4, -12),
                        textcoords="offset points", fontsize=8)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of data sets N")
    ax.set_ylabel("power")
    ax.legend(fontsize=8, loc="lower right")
    return ax


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
    means (:func:`item_power`) has power ``power``. A difference below it would usually be
    missed, so a non-significant comparison on these items does not show that the models
    are equally good.

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
    sd_a, sd_b, within_sd_a, within_sd_b, cluster_size
        As in :func:`item_difference_variance`.
    correlation : float, optional
        The correlation to mark, in [-1, 1].
    samples : int or sequence of int, optional
        Answers per item and model; a sequence draws one line each. Default: ``(1, 4, 16)``,
        or 1 when ``icc`` is a sequence.
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


# --------------------------------------------------------------------- write-up
def _sentence(text: str) -> str:
    text = str(text).strip()
    return text + "." if text and text[-1] not in ".!?" else text


def comparison_write_up(b: int, c: int, n: int, *, alpha: float = 0.05, power: float = 0.8,
                        names: tuple[str, str] = ("A", "B"), tried: str = "", test: str = "exact") -> str:
    """A reporting template for two classifiers on one test set, filled in (Markdown).

    Effect size (difference of error rates), its Bonett-Price interval (the interval
    Fagerland, Lydersen & Laake 2014 recommend and the report uses; it needs only b, c
    and n, see :func:`evallib.paired_difference_interval`), McNemar's test (``test``:
    the exact conditional test of Berrar & Lozano eq. 2, or its mid-p version, which
    Fagerland, Lydersen & Laake 2013 recommend), the test-set size, the minimum
    difference this test set detects with ``power`` and the test cases a difference of
    the observed size would need, both from the exact power *of the test reported*
    (:func:`minimum_detectable_difference` and :func:`mcnemar_sample_size` with
    ``method=test``; Connor's 1987 formula is the approximation to them), and what was
    tried.

    Parameters
    ----------
    b, c : int
        Discordant counts: A wrong and B right, A right and B wrong.
    n : int
        Test-set size, ``b + c <= n``.
    alpha, power : float
        Level and target power, in (0, 1).
    names : two strings
        The classifiers' names.
    tried : str
        What was tried before this comparison (models, settings, test sets): the reader
        needs it to judge multiplicity.
    test : {"exact", "mid-p"}
        The version of McNemar's test reported, and whose power the planning numbers use.
    """
    method = _check_test(test)
    test = mcnemar(b, c, exact=method == "exact", mid_p=method == "mid-p")  # checks b and c
    n = check_count(n, "n", minimum=max(1, b + c))
    # Bonett-Price uses only b, c and n: how the concordant cases split does not matter
    iv = paired_difference_interval(Contingency(a=n - b - c, b=b, c=c, d=0, n=n), alpha=alpha)
    target = _check_power(power)
    a_name, b_name = (str(x) for x in names)
    diff = (b - c) / n
    psi = (b + c) / n
    mdd = (minimum_detectable_difference(n, psi, power=target, alpha=alpha, method=method)
           if psi > 0 else math.inf)
    try:
        need = (mcnemar_sample_size(b / n, c / n, power=target, alpha=alpha, method=method)
                if b != c else None)
    except ValueError:   # the exact search passed its limit: a tiny difference
        need = None
    verdict = "rejects" if test.pvalue <= alpha else "does not reject"
    lines = [
        f"- **Effect size**: error rate of {a_name} minus {b_name} = {diff:+.3f} "
        f"({b} cases only {a_name} got wrong, {c} only {b_name} got wrong).",
        f"- **Interval**: {100 * (1 - alpha):g}% Bonett-Price interval [{iv.low:+.3f}, {iv.high:+.3f}].",
        f"- **Test**: McNemar's {_TEST_NAMES[method]} test, p = {test.pvalue:.3g}; it {verdict} equal "
        f"error rates at alpha = {alpha:g}.",
        f"- **n**: {n} test cases, of which {b + c} discordant ({100 * psi:.1f}%).",
        (f"- **Power** (exact power of the {_TEST_NAMES[method]} test): with this disagreement rate, {n} cases "
         f"detect a difference of {mdd:.3f} with {100 * target:g}% power" if math.isfinite(mdd) else
         f"- **Power** (exact power of the {_TEST_NAMES[method]} test): at this disagreement rate no difference "
         f"is detected with {100 * target:g}% power")
        + (f"; a difference of the observed size needs about {need} cases." if need else "."),
        f"- **What was tried**: {_sentence(tried) or 'say which models, settings and test sets were tried before this one.'}",
    ]
    return "\n".join(lines)
