"""Exact p-values for the difference of two Friedman rank sums (Eisinga et al. 2017).

After a Friedman test, a pair of algorithms ``a``, ``b`` is compared through the
difference of their rank sums ``D = S_a - S_b`` over the ``n`` data sets (``S_j =
n R_j``, ``R_j`` the average rank). Demšar's ``z`` and scmamp, autorank and
scikit-posthocs refer ``D`` to a normal distribution; Eisinga, Heskes, Pelzer &
te Grotenhuis (2017) give its exact null distribution in closed form, and show
that the normal approximation errs most in the far tail, where the p-values that
survive a multiplicity adjustment live.

Under the null hypothesis each data set ranks the ``k`` algorithms in one of the
``k!`` orders, uniformly and independently, so the rank difference of the pair on
one data set takes the value ``t`` (``0 < |t| <= k - 1``) with probability
``(k - |t|) / (k (k - 1))``, and ``D`` is the sum of ``n`` such independent terms.

* :func:`rank_sum_difference_pvalue` -- ``P(|D| >= |d|)`` by Eisinga et al.'s
  closed-form sum, evaluated in exact integer arithmetic;
* :func:`rank_sum_difference_null` -- the whole distribution of ``|D|``, by
  convolving the ``n`` one-data-set distributions (exact integers too); a second,
  independent route to the same numbers;
* :func:`evallib.manydatasets.posthoc_friedman` with
  ``distribution="exact"`` uses them for every pair.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from .._validate import check_count, check_real

__all__ = ["rank_sum_difference_pvalue", "rank_sum_difference_null", "EXACT_PAIRS_MAX_N",
           "EXACT_NULL_MAX_N"]

#: Largest ``n (k - 1)`` (the largest possible ``|D|``) :func:`rank_sum_difference_pvalue`
#: accepts; ``k = 100, n = 100`` (Eisinga et al.'s example) takes a few hundredths of a second.
EXACT_PAIRS_MAX_N = 20_000
#: Largest ``n (k - 1)`` :func:`rank_sum_difference_null` convolves (about two seconds at the limit).
EXACT_NULL_MAX_N = 2_000


def _check_kn(k: Any, n: Any, limit: int = EXACT_PAIRS_MAX_N) -> tuple[int, int]:
    k = check_count(k, "k", minimum=2)
    n = check_count(n, "n", minimum=1)
    if n * (k - 1) > limit:
        raise ValueError(f"n (k - 1) must be at most {limit} for the exact rank-sum "
                         f"difference distribution, got n = {n}, k = {k}")
    return k, n


@lru_cache(maxsize=4096)
def _upper_count(d: int, k: int, n: int) -> int:
    """``W(D >= d)``: the number of the ``(k (k-1))^n`` equally likely outcomes with ``D >= d``, ``d >= 1``.

    Eisinga et al. (2017), eq. (6) and their Additional file 1, multiplied through
    by ``(k (k - 1))^n`` so that every term is an integer:
    ``W = (-1)^n sum_h C(n, h) k^(n-h) sum_s (-1)^s C(2h, h+s) C(ks - d + h, 2h)``
    over ``0 <= s <= h <= n`` with ``ks - d - h >= 0``.
    """
    total = 0
    for h in range(n + 1):
        inner = 0
        s0 = max(0, -(-(d + h) // k))          # smallest s with k s - d - h >= 0
        for s in range(s0, h + 1):
            term = math.comb(2 * h, h + s) * math.comb(k * s - d + h, 2 * h)
            inner += -term if s % 2 else term
        if inner:
            total += math.comb(n, h) * k ** (n - h) * inner
    return -total if n % 2 else total


def rank_sum_difference_pvalue(d: Any, k: Any, n: Any) -> float:
    """Exact two-sided p-value ``P(|D| >= |d|)`` of a difference of two Friedman rank sums.

    Eisinga, Heskes, Pelzer & te Grotenhuis (2017), eq. (6): for ``k`` algorithms
    ranked on ``n`` data sets without ties, the difference ``D = S_a - S_b`` of two
    rank sums is symmetric about 0 on ``-n(k-1), ..., n(k-1)``, and

        ``P(D >= d) = sum_h C(n, h) / (k^h (1 - k)^n) sum_s (-1)^s C(2h, h + s) C(ks - d + h, ks - d - h)``

    (``0 <= s <= h <= n``, terms with ``ks - d - h < 0`` omitted); the two-sided
    p-value is twice that for ``d > 0`` and 1 for ``d = 0``. The alternating sum
    cancels catastrophically in floating point (the authors use 2048-bit
    arithmetic), so it is evaluated here in exact integers and divided once.

    Parameters
    ----------
    d : float
        The observed rank-sum difference (either sign). With ties the rank sums are
        sums of average ranks and ``d`` may be a multiple of 1/2; ``D`` of untied
        data is an integer, so ``P(|D| >= |d|) = P(|D| >= ceil(|d|))``, which is
        what is returned (the distribution conditional on the ties is not this one;
        with few ties the difference is small).
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 1; ``n (k - 1) <= 20,000``.

    Returns
    -------
    float
        In (0, 1]; 1 when ``d = 0``, 0 when ``|d| > n (k - 1)``.

    References
    ----------
    Eisinga, R., Heskes, T., Pelzer, B. & te Grotenhuis, M. (2017). Exact p-values
    for pairwise comparison of Friedman rank sums, with application to comparing
    classifiers. BMC Bioinformatics 18, 68.

    Examples
    --------
    The authors' R function ``pexactfrsd`` documents ``d = k = n = 100`` as giving
    0.8085251:

    >>> from evallib.manydatasets import rank_sum_difference_pvalue
    >>> round(rank_sum_difference_pvalue(100, 100, 100), 7)
    0.8085251
    """
    k, n = _check_kn(k, n)
    d = abs(check_real(d, "d"))
    di = math.ceil(d - 1e-9)
    if di == 0:
        return 1.0
    if di > n * (k - 1):
        return 0.0
    p = Fraction(2 * _upper_count(di, k, n), (k * (k - 1)) ** n)
    return float(min(p, Fraction(1)))


def rank_sum_difference_null(k: Any, n: Any) -> pd.DataFrame:
    """The exact null distribution of ``|D|``, the absolute difference of two Friedman rank sums.

    Built by convolution: on one data set the pair's rank difference is ``t`` with
    probability ``(k - |t|) / (k (k - 1))`` (``1 <= |t| <= k - 1``); ``D`` sums ``n``
    independent copies, so its counts are the coefficients of the ``n``-th power of
    the polynomial ``sum_t (k - |t|) x^t``, computed in exact integers. This does not
    use Eisinga et al.'s closed form, so the two check each other.

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.
    n : int
        Number of data sets, >= 1; ``n (k - 1) <= 2,000``.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``d = 0, 1, ..., n (k - 1)``: ``count`` (outcomes with ``|D| = d``
        out of ``(k (k - 1))^n``, Python ints), ``probability`` and ``pvalue``
        (``P(|D| >= d)``).

    Examples
    --------
    Two algorithms on two data sets: ``D`` is -2, 0 or 2 with probabilities 1/4,
    1/2, 1/4.

    >>> from evallib.manydatasets import rank_sum_difference_null
    >>> rank_sum_difference_null(2, 2)["probability"].tolist()
    [0.5, 0.0, 0.5]
    """
    k, n = _check_kn(k, n, EXACT_NULL_MAX_N)
    kernel = [k - abs(t) for t in range(-(k - 1), k)]       # t = -(k-1) .. k-1, t = 0 has weight 0
    kernel[k - 1] = 0
    counts = [1]
    for _ in range(n):
        new = [0] * (len(counts) + len(kernel) - 1)
        for i, c in enumerate(counts):
            if c:
                for j, w in enumerate(kernel):
                    if w:
                        new[i + j] += c * w
        counts = new
    centre = n * (k - 1)
    folded = [counts[centre]] + [counts[centre + d] + counts[centre - d] for d in range(1, centre + 1)]
    total = (k * (k - 1)) ** n
    tail = list(np.cumsum(np.array(folded[::-1], dtype=object))[::-1])
    out = pd.DataFrame({
        "count": folded,
        "probability": [float(Fraction(c, total)) for c in folded],
        "pvalue": [float(Fraction(int(t), total)) for t in tail],
    }, index=pd.Index(range(centre + 1), name="d"))
    return out
