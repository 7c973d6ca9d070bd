"""Best-of-C critical values for classifier scores (Forman & Cohen, 2005).

Forman & Cohen, *Beware the Null Hypothesis: Critical Value Tables for Evaluating
Classifiers* (PKDD 2005). Under the null hypothesis a classifier learns nothing: its
ranking of a test set with ``P`` positives and ``N`` negatives is a uniformly random
shuffle. With ``C`` independent competitors the winner's score ``m`` is significant at
level ``alpha`` iff ``m > m*`` where (section 2)

    F(m*)^C = 1 - alpha,   i.e.   m* = F^-1((1 - alpha)^(1/C)),

``F`` being the CDF of one random ranking's score and ``F^-1(p)`` the smallest attainable
score ``x`` with ``F(x) >= p``. The paper estimates ``F^-1`` by Monte Carlo (Tables 2
and 3); here ``F`` is computed exactly for all four of its metrics:

* ``"accuracy"`` -- best accuracy over all thresholds of the ranking. A ranking is a
  lattice path with ``+1`` for a positive and ``-1`` for a negative; the best accuracy is
  ``(N + max_t(i_t - j_t)) / (P + N)`` and the maximum of the path has the ballot /
  reflection law ``P(max >= d) = C(P+N, N+d) / C(P+N, P)`` for ``d > max(0, P-N)``
  (exact integers).
* ``"f1"`` -- best F-measure over all thresholds. ``F1 = 2 i / (P + i + j)`` after ``i``
  positives and ``j`` negatives, which is increasing in ``rho = i / (P + j)``; so
  ``max F1 <= 2 r / (1 + r)`` iff the path stays below the line ``i <= r (P + j)``. That
  probability is a column-by-column dynamic programme over the lattice; the probability
  of crossing is summed over the first crossing point, so both tails are accurate.
* ``"auc"`` -- the exact Mann–Whitney distribution of ``U`` (AUC = U / (P N)): the
  Gaussian-binomial product ``prod_i (1 - q^(N+i)) / (1 - q^i)`` for small ``min(P, N)``,
  and exact inversion of its characteristic function (a discrete Fourier transform on the
  whole support, so no aliasing) for larger ones.
* ``"tp"`` -- true positives in the top ``k`` (the paper's TP10), hypergeometric
  (section 3, scipy.stats.hypergeom).

The Monte Carlo of Tables 2 and 3 is kept as the check and as the engine for any other
metric (:func:`simulate_null`, ``critical_value(..., method="montecarlo")``).
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import fft as sp_fft
from scipy import special, stats

from .._compat import renamed_keywords
from .._format import format_p
from .._progress import parallel_map, progress_bar
from .._resources import data_path
from .._results import freeze_arrays
from .._validate import check_alpha, check_count, check_rng

__all__ = [
    "best_over_thresholds",
    "auc_normal_critical",
    "METRICS",
    "NullCDF",
    "null_cdf",
    "critical_value",
    "best_of_pvalue",
    "mc_repetitions",
    "simulate_null",
    "critical_value_table",
    "tail_probability",
    "write_critical_values",
    "Verdict",
    "judge_winner",
    "simulate_scores",
    "load_critical_values",
]

METRICS = ("auc", "accuracy", "f1", "tp")
_RANGES = {"auc": "[0, 1]", "accuracy": "[0, 1]", "f1": "[0, 1]", "tp": "[0, k]"}
#: ``min(P, N)`` up to which the AUC law uses the product recurrence (validated against
#: exact integer arithmetic); above it, characteristic-function inversion.
_PRODUCT_MAX_M = 120
#: relative slack when comparing a tail probability with 1 - (1-alpha)^(1/C), so that a
#: rounding error of ~1e-15 cannot move a critical value that sits exactly on the boundary.
_REL_TOL = 1e-9
#: tolerance used to match a user's score (e.g. 0.67) to an attainable value.
_SCORE_TOL = 1e-9
#: largest P * N for the lattice-sized laws (AUC's P*N + 1 values, best F's attainable
#: fractions and its Monte Carlo lookup table): P, N up to 2000 each.
MAX_LATTICE = 4_000_000
#: up to this many thresholds the best-F programme sums row by row (only below the line).
_F1_ROW_LOOP = 4


# --------------------------------------------------------------------------- checks
def _check_metric(metric: Any) -> str:
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(map(repr, METRICS))}, got {metric!r}")
    return metric


def _check_sizes(P: Any, N: Any) -> tuple[int, int]:
    return check_count(P, "P", minimum=1), check_count(N, "N", minimum=1)


def _check_lattice(metric: str, P: int, N: int) -> None:
    if metric in ("auc", "f1") and P * N > MAX_LATTICE:
        raise ValueError(
            f"P * N must be at most {MAX_LATTICE:,} for {metric!r} (its law lives on the P x N "
            f"lattice), got P * N = {P * N:,}; 'accuracy' and 'tp' have no such limit"
        )


def _check_k(k: Any, P: int, N: int) -> int:
    k = check_count(k, "k", minimum=1)
    if k > P + N:
        raise ValueError(f"k must be a whole number in 1..P+N = 1..{P + N}, got {k}")
    return k


def _check_C(C: Any) -> int:
    return check_count(C, "C", minimum=1)


def tail_probability(C: int, alpha: float) -> float:
    """``1 - (1 - alpha)^(1/C)``: the single-ranking tail that the critical value cuts off.

    Computed as ``-expm1(log1p(-alpha) / C)`` because ``(1-alpha)^(1/C)`` is very close to
    1 (``0.99^(1/1000) = 0.99998995``): the direct formula would lose 5 digits.

    Parameters
    ----------
    C : int >= 1
        Number of competing classifiers.
    alpha : float in (0, 1)
        The level of the test of the winner.

    Returns
    -------
    float
        The tail probability ``g`` with ``1 - (1 - g)^C = alpha``.
    """
    C = _check_C(C)
    alpha = check_alpha(alpha)
    return float(-np.expm1(np.log1p(-alpha) / C))


# --------------------------------------------------------------------------- the CDF
@dataclass(frozen=True, eq=False)
class NullCDF:
    """The exact null distribution of one random ranking's score.

    Attributes
    ----------
    metric, P, N, k : what it is the distribution of (``k`` only matters for ``"tp"``).
    values : ndarray
        Attainable scores, increasing (for ``"f1"`` possibly a subset, see :func:`null_cdf`).
    cdf : ndarray
        ``F(v) = P(score <= v)`` at each value.
    sf : ndarray
        ``P(score > v)``, computed directly (not as ``1 - cdf``), so far upper tails keep
        full relative precision.
    complete : bool
        True when ``values`` holds every attainable score.
    """

    metric: str
    P: int
    N: int
    k: int
    values: np.ndarray
    cdf: np.ndarray
    sf: np.ndarray
    complete: bool

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def to_frame(self) -> pd.DataFrame:
        """The CDF as a tidy table: ``value``, ``cdf``, ``sf``.

        Returns
        -------
        pandas.DataFrame
            One row per attainable score: ``value``, ``cdf`` (``P(score <= value)``) and
            ``sf`` (``P(score > value)``).
        """
        return pd.DataFrame({"value": self.values, "cdf": self.cdf, "sf": self.sf})


def _lbinom(n, k):
    n = np.asarray(n, dtype=float)
    k = np.asarray(k, dtype=float)
    return special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)


# ---- best accuracy: ballot / reflection
#: up to this many cases the best-accuracy law uses exact integers; above, log-gamma.
_ACCURACY_EXACT_MAX = 2000


@lru_cache(maxsize=256)
def _accuracy_law(P: int, N: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The exact law of the best accuracy by reflection: ``sf(d) = C(P+N, N+d+1) / C(P+N, P)``.

    Exact big integers up to ``P + N = _ACCURACY_EXACT_MAX``; above, the same ratio in
    log space through ``gammaln`` (relative error about ``1e-16 * log C(P+N, P)``, below
    ``1e-9`` at a million cases), so a million cases cost milliseconds, not minutes.
    """
    d0 = max(0, P - N)
    d = np.arange(d0, P + 1)
    values = (N + d) / (P + N)
    if P + N > _ACCURACY_EXACT_MAX:
        log_sf = _lbinom(P + N, N + d + 1) - _lbinom(P + N, P)
        log_sf = np.where(d + 1 <= P, log_sf, -np.inf)
        sf = np.exp(log_sf)
        cdf = -np.expm1(log_sf)
        return values, cdf, sf
    total = math.comb(P + N, P)
    # paths whose maximum reaches d+1 (> endpoint P-N, >= 1): C(P+N, N+d+1) by reflection
    above = [math.comb(P + N, N + x + 1) if x + 1 <= P else 0 for x in d]
    sf = np.array([a / total for a in above])
    cdf = np.array([(total - a) / total for a in above])
    return values, cdf, sf


# ---- TPk: hypergeometric
@lru_cache(maxsize=256)
def _tp_law(P: int, N: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.arange(max(0, k - N), min(k, P) + 1)
    dist = stats.hypergeom(P + N, P, k)
    return x.astype(float), dist.cdf(x), dist.sf(x)


# ---- AUC: exact Mann–Whitney U
def _mw_pmf_product(m: int, n: int) -> np.ndarray:
    """pmf of U on 0..m*n by the Gaussian-binomial product, in probabilities.

    Multiplying by ``(1 - q^(n+i))`` is a shifted subtraction, dividing by ``(1 - q^i)``
    a cumulative sum with stride ``i``; each step is rescaled by ``i / (n + i)`` so the
    array stays the pmf of U for ``i`` positives. Numerically stable for small ``m``
    (checked against exact integers in the tests), used for ``m <= _PRODUCT_MAX_M``.
    """
    L = m * n + 1
    c = np.zeros(L)
    c[0] = 1.0
    for i in range(1, m + 1):
        s = n + i
        if s < L:
            c[s:] -= c[:-s].copy()
        pad = (-L) % i
        buf = np.concatenate([c, np.zeros(pad)]).reshape(-1, i)
        np.cumsum(buf, axis=0, out=buf)
        c = buf.reshape(-1)[:L] * (i / (n + i))
    np.maximum(c, 0.0, out=c)
    return c


def _mw_pmf_charfn(m: int, n: int) -> np.ndarray:
    """pmf of U on 0..m*n by exact inversion of its characteristic function.

    ``E exp(i w (U - mn/2)) = prod_i [i sin(w (n+i)/2)] / [(n+i) sin(w i/2)]`` is real.
    On ``L >= mn + 1`` equally spaced frequencies the inverse DFT returns the pmf with no
    aliasing. The factor is below ``exp(-60)`` for all frequencies beyond a Gaussian
    cut-off (the law of U is close to normal once ``min(P, N) >= 100``; at the other
    roots of unity its magnitude is ``C((m+n)/d, m/d) / C(m+n, m)``, negligible), so only
    those few hundred frequencies are summed; the pmf keeps an absolute error near 1e-18.
    """
    mn = m * n
    L = sp_fft.next_fast_len(mn + 1, real=True)
    sigma = math.sqrt(mn * (m + n + 1) / 12.0)
    # exp(-w^2 sigma^2 / 2) < exp(-60) for w > sqrt(120)/sigma
    R = min(L // 2, int(math.ceil(L * math.sqrt(120.0) / (2 * math.pi * sigma))) + 8)
    r = np.arange(1, R + 1, dtype=float)
    w_half = np.pi * r / L  # w/2 with w = 2 pi r / L
    i = np.arange(1, m + 1, dtype=float)
    logmag = np.zeros(R)
    sign = np.ones(R)
    for lo in range(0, m, 256):  # blocks keep memory at R x 256
        ib = i[lo:lo + 256]
        num = np.sin(np.outer(w_half, n + ib))
        den = np.sin(np.outer(w_half, ib))  # never 0: r i < L for r <= R
        with np.errstate(divide="ignore"):  # a zero numerator makes that factor exactly 0
            logmag += np.sum(np.log(np.abs(num)) - np.log(np.abs(den)) + np.log(ib / (n + ib)), axis=1)
        sign *= np.prod(np.sign(num) * np.sign(den), axis=1)
    psi = sign * np.exp(logmag)
    spec = np.zeros(L // 2 + 1, dtype=complex)
    spec[0] = 1.0
    # numpy's irfft computes (1/L) sum X_r exp(+2 pi i r u / L); X_r = conj(phi(w_r)).
    spec[1:R + 1] = psi * np.exp(-1j * (2 * np.pi * r / L) * (mn / 2.0))
    pmf = sp_fft.irfft(spec, n=L)[: mn + 1]
    np.maximum(pmf, 0.0, out=pmf)
    return pmf


@lru_cache(maxsize=8)  # up to 24 MB each at P = N = 1000
def _auc_law(P: int, N: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m, n = min(P, N), max(P, N)
    pmf = _mw_pmf_product(m, n) if m <= _PRODUCT_MAX_M else _mw_pmf_charfn(m, n)
    mn = m * n
    low = np.cumsum(pmf)  # P(U <= u), accurate where small
    half = mn // 2
    cdf = np.empty(mn + 1)
    sf = np.empty(mn + 1)
    # The law is symmetric: P(U > u) = P(U < mn - u) = P(U <= mn - u - 1).
    u = np.arange(mn + 1)
    mirror = mn - u - 1
    sf_mirror = np.where(mirror >= 0, low[np.maximum(mirror, 0)], 0.0)
    lower = u <= half
    cdf[lower] = low[lower]
    sf[lower] = 1.0 - low[lower]
    sf[~lower] = sf_mirror[~lower]
    cdf[~lower] = 1.0 - sf_mirror[~lower]
    values = u / mn
    for arr in (cdf, sf, values):
        arr.setflags(write=False)
    return values, np.clip(cdf, 0.0, 1.0), np.clip(sf, 0.0, 1.0)


# ---- best F-measure: lattice dynamic programme
@lru_cache(maxsize=16)  # up to ~15 MB each at P = N = 1000
def _f1_values(P: int, N: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Attainable best-F thresholds ``rho = a / b`` (``a`` positives, ``b = P + j``), sorted.

    The best F over a ranking is ``2 rho / (1 + rho)`` with ``rho = max_t i_t / (P + j_t)``;
    every fraction ``i / (P + j)`` at least ``P / (P + N)`` (the end of every path) is the
    maximum of some path, and nothing smaller is.
    """
    i = np.arange(1, P + 1)
    b = P + np.arange(N + 1)
    ii, bb = np.meshgrid(i, b, indexing="ij")
    ii, bb = ii.ravel(), bb.ravel()
    keep = ii * (P + N) >= P * bb
    ii, bb = ii[keep], bb[keep]
    rho, idx = np.unique(ii / bb, return_index=True)  # equal fractions give equal floats
    a, b = ii[idx], bb[idx]
    f1 = 2.0 * a / (a + b)
    for arr in (a, b, f1):
        arr.setflags(write=False)
    return a, b, f1


def _f1_path_probs(P: int, N: int, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For thresholds ``a/b`` (arrays), P(max rho <= a/b) and P(max rho > a/b).

    Column DP: ``h_j(i)`` counts the paths to ``(i, j)`` that never rose above the line
    ``i <= floor(a (P + j) / b)`` (integer arithmetic, so no rounding at the boundary);
    moving to the next column is a cumulative sum over ``i``. A path first crosses the
    line by a positive step from ``(b_j, j)``; the crossing probability sums those first
    crossings times the number of ways to finish, all in log space.
    """
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    K = a.size
    rows = np.arange(K)
    cols = np.arange(N + 1)
    bound = np.minimum((a[:, None] * (P + cols[None, :])) // b[:, None], P)  # (K, N+1)
    iota = np.arange(P + 1)
    h = np.zeros((K, P + 1))
    logscale = np.zeros(K)
    at = np.zeros((K, N + 1))
    scale_at = np.zeros((K, N + 1))
    first_free = int(np.argmax(bound.min(axis=0) >= P)) if np.any(bound.min(axis=0) >= P) else N + 1
    few = K <= _F1_ROW_LOOP
    if few:
        h[:] = 0.0
    for j in range(N + 1):
        bj = bound[:, j]
        if few:
            # Row by row, sum only up to the boundary: everything above it stays 0.
            for r in range(K):
                seg = h[r, : bj[r] + 1]
                if j == 0:
                    seg[:] = 1.0
                else:
                    np.cumsum(seg, out=seg)
                at[r, j] = seg[-1]
        else:
            if j == 0:
                h[:] = 1.0
            else:
                np.cumsum(h, axis=1, out=h)
            if j < first_free:  # from here on no row can cross, and nothing needs masking
                h *= iota[None, :] <= bj[:, None]
                at[:, j] = h[rows, bj]
        scale_at[:, j] = logscale  # the scale of at[:, j]
        if j % 16 == 15:
            mx = h.max(axis=1)
            mx[mx <= 0] = 1.0
            h /= mx[:, None]
            logscale += np.log(mx)
    lt = _lbinom(P + N, P)
    crossing = (bound < P) & (at > 0)
    with np.errstate(divide="ignore"):
        exit_log = np.where(
            crossing,
            np.log(np.where(crossing, at, 1.0)) + scale_at
            + _lbinom(np.maximum(P - bound - 1, 0) + (N - cols[None, :]), N - cols[None, :]) - lt,
            -np.inf,
        )
        end = h[:, P]
        stay = np.where(end > 0, np.exp(np.log(np.where(end > 0, end, 1.0)) + logscale - lt), 0.0)
    cross = np.exp(special.logsumexp(exit_log, axis=1))
    return np.clip(stay, 0.0, 1.0), np.clip(cross, 0.0, 1.0)


@lru_cache(maxsize=4096)
def _f1_probs_at(P: int, N: int, idx: int) -> tuple[float, float]:
    a, b, _ = _f1_values(P, N)
    stay, cross = _f1_path_probs(P, N, a[idx:idx + 1], b[idx:idx + 1])
    return float(stay[0]), float(cross[0])


# ---- dispatch
def _full_law(metric: str, P: int, N: int, k: int):
    if metric == "accuracy":
        return _accuracy_law(P, N)
    if metric == "auc":
        return _auc_law(P, N)
    if metric == "tp":
        return _tp_law(P, N, k)
    raise AssertionError(metric)


def null_cdf(metric: str, P: int, N: int, *, k: int = 10, max_points: int = 400) -> NullCDF:
    """Exact CDF of one random ranking's score (Forman & Cohen, section 3).

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        AUC, best accuracy over thresholds, best F-measure over thresholds, or true
        positives in the top ``k``.
    P, N : int >= 1
        Positives and negatives in the test set.
    k : int in 1..P+N, default 10
        Cut-off for ``"tp"`` (the paper's TP10).
    max_points : int >= 2, default 400
        Only for ``"f1"``: the number of attainable values can reach ~6e5 at
        ``P = N = 1000`` and each needs a lattice programme, so when there are more than
        ``max_points`` of them the CDF is returned (exactly) at the attainable values
        nearest to ``max_points`` evenly spaced scores, and ``complete`` is False.

    Returns
    -------
    NullCDF
        Attainable values with ``F`` and the survival probability at each.

    Notes
    -----
    Precision: best accuracy is exact (integer counts, one rounding), TPk comes from
    scipy's hypergeometric, best F from a lattice programme with relative error ~1e-12 in
    both tails. The AUC law is relative-exact for ``min(P, N) <= 120``; above that it comes
    from Fourier inversion with an absolute error near 1e-18, so tail probabilities far
    below 1e-15 are not resolved (a true 1e-359 may read 1e-19). Critical values need
    tails of ``1 - (1-alpha)^(1/C)`` (1e-5 for alpha = 0.01, C = 1000), far above that.

    Degenerate sizes are defined: with ``P = 1`` or ``N = 1`` the laws are the ballot /
    uniform-position laws (e.g. AUC is uniform on ``{0, 1/N, ..., 1}`` when ``P = 1``).
    """
    metric = _check_metric(metric)
    P, N = _check_sizes(P, N)
    _check_lattice(metric, P, N)
    k = _check_k(k, P, N) if metric == "tp" else check_count(k, "k", minimum=1)
    if metric != "f1":
        values, cdf, sf = _full_law(metric, P, N, k)
        return NullCDF(metric, P, N, k, np.array(values), np.array(cdf), np.array(sf), True)
    max_points = check_count(max_points, "max_points", minimum=2)
    a, b, f1 = _f1_values(P, N)
    if f1.size <= max_points:
        idx = np.arange(f1.size)
        complete = True
    else:
        grid = np.linspace(f1[0], f1[-1], max_points)
        idx = np.unique(np.clip(np.searchsorted(f1, grid), 0, f1.size - 1))
        complete = False
    stay, cross = _f1_path_probs(P, N, a[idx], b[idx])
    return NullCDF(metric, P, N, k, np.array(f1[idx]), stay, cross, complete)


# --------------------------------------------------------------------------- critical values
def _f1_critical_indices(P: int, N: int, limits: Sequence[float], per_tail: int = 8) -> list[int]:
    """For each limit, the smallest index into the attainable best-F values whose
    crossing probability P(best F > value) is <= limit.

    A multisection: each round places ``per_tail`` probes inside every open bracket and
    evaluates all of them in one batched lattice programme, so the ~20 single
    programmes of a bisection shrink to ~6 batched ones, shared by all limits.
    """
    a, b, f1 = _f1_values(P, N)
    n = f1.size
    lo = [0] * len(limits)   # answer lies in [lo, hi]; the last value has probability 0
    hi = [n - 1] * len(limits)
    while any(l < h for l, h in zip(lo, hi)):
        probes = set()
        for l, h in zip(lo, hi):
            if l < h:  # per_tail probes splitting [l, h) evenly (per_tail = 1: bisection)
                cut = l + ((h - l) * np.arange(1, per_tail + 1)) // (per_tail + 1)
                probes.update(np.clip(cut, l, h - 1).tolist())
        probes = np.array(sorted(probes))
        _, cross = _f1_path_probs(P, N, a[probes], b[probes])
        for t, limit in enumerate(limits):
            if lo[t] >= hi[t]:
                continue
            inside = (probes >= lo[t]) & (probes < hi[t])
            ok = probes[inside][cross[inside] <= limit]
            bad = probes[inside][cross[inside] > limit]
            if ok.size:
                hi[t] = int(ok.min())
            if bad.size:
                below = bad[bad < hi[t]]
                if below.size:
                    lo[t] = max(lo[t], int(below.max()) + 1)
    return lo


@lru_cache(maxsize=4096)  # slider positions repeat: answer them from memory
def _exact_critical(metric: str, P: int, N: int, k: int, tail: float) -> float:
    limit = tail * (1.0 + _REL_TOL)
    if metric == "f1":
        idx = _f1_critical_indices(P, N, [limit], per_tail=1)[0]
        return float(_f1_values(P, N)[2][idx])
    values, _, sf = _full_law(metric, P, N, k)
    idx = int(np.argmax(sf <= limit))  # sf is non-increasing and sf[-1] == 0
    return float(values[idx])


def mc_repetitions(C: int, alpha: float, *, top: int = 1000) -> int:
    """The paper's number of Monte Carlo repetitions, ``R = top / (1 - (1-alpha)^(1/C))``.

    Table 2 keeps the ``top`` best scores of ``R`` random rankings, so that the ``top``-th
    best estimates ``F^-1((1-alpha)^(1/C))``. Rounded to the nearest integer (the paper
    prints R = 9,950,416 for C = 100, alpha = 0.01).

    Parameters
    ----------
    C : int >= 1
        Number of competing classifiers.
    alpha : float in (0, 1)
        The level of the test of the winner.
    top : int >= 1, default 1000
        How many of the best random scores Table 2 keeps.

    Returns
    -------
    int
        ``R``, the number of random rankings to score.

    References
    ----------
    .. [1] Forman, G. & Cohen, I. (2005). Beware the null hypothesis: critical value tables for
       evaluating classifiers. *Machine Learning: ECML 2005 / PKDD 2005*, LNCS 3720, 133-145.

    Examples
    --------
    Section 3 prints R = 9,950,416 for C = 100 and alpha = 0.01.

    >>> from evallib import mc_repetitions
    >>> mc_repetitions(100, 0.01)
    9950416
    """
    top = check_count(top, "top", minimum=1)
    return int(round(top / tail_probability(C, alpha)))


@renamed_keywords(reps="n_resamples")
def critical_value(
    metric: str,
    P: int,
    N: int,
    *,
    C: int = 1,
    alpha: float = 0.01,
    k: int = 10,
    method: str = "exact",
    n_resamples: int | None = None,
    rng: Any = None,
    n_jobs: int = 2,
    progress: bool = False,
) -> float:
    """Critical value ``m* = F^-1((1-alpha)^(1/C))`` for the best of ``C`` random rankings.

    The winner of ``C`` competitors with score ``m`` is significant at level ``alpha``
    iff ``m > m*`` (Forman & Cohen, section 2: ``F(m*)^C = 1 - alpha``). ``F^-1(p)`` is the
    smallest attainable score ``x`` with ``F(x) >= p``.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"} or callable
        A callable (scoring a 0/1 ranking, as in :func:`simulate_null`) needs
        ``method="montecarlo"``.
    P, N : int >= 1
    C : int >= 1, default 1
        Number of competing classifiers.
    alpha : float in (0, 1), default 0.01
    k : int in 1..P+N, default 10 (``"tp"`` only)
    method : {"exact", "montecarlo"}
        ``"montecarlo"`` follows Tables 2/3: score ``n_resamples`` random rankings (default the
        paper's ``R = mc_repetitions(C, alpha)``), keep the ``t = max(1, round(n_resamples * tail))``
        best and return the ``t``-th best (with ``t = 1``, too few ``n_resamples`` for the tail:
        the estimate is then biased low).
    n_resamples, rng, n_jobs : Monte Carlo only (repetitions, randomness as in
        :func:`simulate_null`, threads).
    progress : bool
        Monte Carlo only: show a ``tqdm.auto`` bar counting the rankings scored.

    Returns
    -------
    float
        The critical value, in the metric's units (a fraction for AUC, accuracy and F,
        a count for TPk).

    References
    ----------
    .. [1] Forman, G. & Cohen, I. (2005). Beware the null hypothesis: critical value tables for
       evaluating classifiers. *Machine Learning: ECML 2005 / PKDD 2005*, LNCS 3720, 133-145.

    Examples
    --------
    Section 4: "at P=N=100, the critical value is 67% accuracy for C=1000 competitors".

    >>> from evallib import critical_value
    >>> f"{critical_value('accuracy', 100, 100, C=1000, alpha=0.01):.2f}"
    '0.67'
    """
    if method not in ("exact", "montecarlo"):
        raise ValueError(f"method must be 'exact' or 'montecarlo', got {method!r}")
    if callable(metric) and not isinstance(metric, str):
        if method == "exact":
            raise ValueError("a callable metric has no exact law: use method='montecarlo'")
    else:
        metric = _check_metric(metric)
    P, N = _check_sizes(P, N)
    if isinstance(metric, str) and (method == "exact" or metric == "f1"):
        _check_lattice(metric, P, N)
    k = _check_k(k, P, N) if metric == "tp" else 10
    tail = tail_probability(C, alpha)
    if method == "exact":
        return _exact_critical(metric, P, N, k, tail)
    n_resamples = mc_repetitions(C, alpha) if n_resamples is None else check_count(n_resamples, "n_resamples", minimum=1)
    top = max(1, int(round(n_resamples * tail)))
    best = _mc_top(metric, P, N, n_resamples, top, k=k, rng=rng, n_jobs=n_jobs, progress=bool(progress))
    return float(best[top - 1])


def _score_index(values: np.ndarray, score: float) -> int:
    """Index of the smallest attainable value >= score (len(values) if none)."""
    return int(np.searchsorted(values, score - _SCORE_TOL, side="left"))


def best_of_pvalue(metric: str, score: float, P: int, N: int, *, C: int = 1, k: int = 10) -> float:
    """P-value of a winner: P(the best of ``C`` random rankings scores >= ``score``).

    ``1 - (1 - g)^C`` with ``g = P(one random ranking scores >= score)``, computed as
    ``-expm1(C log1p(-g))``. ``score`` is matched to the attainable values with a
    tolerance of 1e-9, so a printed 0.67 means the attainable 0.67. For AUC with
    ``min(P, N) > 120``, ``g`` below ~1e-15 is not resolved (see :func:`null_cdf`).

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        AUC, best accuracy over thresholds, best F-measure over thresholds, or true
        positives in the top ``k``.
    score : float
        The winner's score, in [0, 1] (``[0, k]`` for ``"tp"``).
    P, N : int >= 1
        Positives and negatives in the test set.
    C : int >= 1, default 1
        Number of competing classifiers (the winner is the best of ``C``).
    k : int in 1..P+N, default 10
        Cut-off for ``"tp"`` (the paper's TP10); unused for the other metrics.

    Returns
    -------
    float
        The p-value, in [0, 1].

    Raises
    ------
    ValueError
        For a score outside the metric's range (``[0, 1]``, or ``[0, k]`` for TPk).
    """
    metric = _check_metric(metric)
    P, N = _check_sizes(P, N)
    _check_lattice(metric, P, N)
    C = _check_C(C)
    k = _check_k(k, P, N) if metric == "tp" else 10
    if isinstance(score, (bool, np.bool_)) or not isinstance(score, numbers.Real):
        raise TypeError(f"score must be a number, got {score!r}")
    score = float(score)
    hi = float(k) if metric == "tp" else 1.0
    if not (0.0 <= score <= hi):
        raise ValueError(f"score must lie in the range of {metric!r}, {_RANGES[metric]}, got {score!r}")
    if metric == "f1":
        a, b, values = _f1_values(P, N)
        idx = _score_index(values, score)
        g = 1.0 if idx == 0 else (0.0 if idx >= values.size else _f1_probs_at(P, N, idx - 1)[1])
    else:
        values, _, sf = _full_law(metric, P, N, k)
        idx = _score_index(values, score)
        g = 1.0 if idx == 0 else (0.0 if idx >= values.size else float(sf[idx - 1]))
    return float(-np.expm1(C * np.log1p(-min(g, 1.0)))) if g < 1.0 else 1.0


@dataclass(frozen=True)
class Verdict:
    """The significance test of Table 2 for one competition.

    Attributes
    ----------
    metric, P, N, C, alpha, score : the question asked.
    critical_value : m*, the smallest attainable score with ``F(m*) >= (1-alpha)^(1/C)``.
    pvalue : P(best of C random rankings >= score).
    reject : the winner beats random rankings: ``pvalue <= alpha``. The paper states the
        rule as ``score > critical_value``; over the attainable scores the two agree
        (``F(m*) >= (1 - alpha)^(1/C)`` and ``m*`` is the smallest such score), which the
        test suite checks.
    k : the length of the top list for ``metric="tp"`` (TPk); 10 otherwise, unused.
    """

    metric: str
    P: int
    N: int
    C: int
    alpha: float
    score: float
    critical_value: float
    pvalue: float
    reject: bool
    k: int = 10

    def describe(self) -> str:
        """One plain sentence: the verdict with its numbers.

        Fractions (AUC, best accuracy, best F-measure) print with four decimals; TPk is a
        count of true positives and prints as one. When the critical value is the largest
        attainable score (1 for the fractions; ``min(k, P)`` true positives for TPk, since
        the top ``k`` cannot hold more positives than the test set has), the sentence says
        that no score can beat it.

        Returns
        -------
        str
            The sentence, ending in "significant." or "not significant: ...".
        """
        word = "beats" if self.reject else "does not beat"
        if self.metric == "tp":
            what = f"a winner with {self.score:g} true positives in its top {self.k}"
            bar, top = f"{self.critical_value:.0f}", float(min(self.k, self.P))
        else:
            what = f"a winner with {_METRIC_NAMES[self.metric]} {self.score:.4f}"
            bar, top = f"{self.critical_value:.4f}", 1.0
        unbeatable = ("" if self.critical_value < top - _SCORE_TOL
                      else ", the largest attainable score, so no winner can be significant here")
        return (f"P={self.P}, N={self.N}, C={self.C}, alpha={self.alpha:g}: {what} {word} the critical "
                f"value {bar}{unbeatable} ({format_p(self.pvalue)}); "
                + ("significant." if self.reject else "not significant: random rankings could do it."))


_METRIC_NAMES = {"auc": "AUC", "accuracy": "best accuracy", "f1": "best F-measure"}


def judge_winner(metric: str, score: float, P: int, N: int, *, C: int = 1, alpha: float = 0.01,
                 k: int = 10) -> Verdict:
    """Decide whether the winner of ``C`` classifiers beats the best of ``C`` random rankings.

    Table 2 of Forman & Cohen, computed exactly: ``reject`` (significant) iff
    ``score > m*``, which over the attainable scores is ``pvalue <= alpha``. This is the
    callback behind the notebook's "your winner scored m" slider.

    Parameters
    ----------
    metric : {"auc", "accuracy", "f1", "tp"}
        AUC, best accuracy over thresholds, best F-measure over thresholds, or true
        positives in the top ``k``.
    score : float
        The winner's score, in [0, 1] (``[0, k]`` for ``"tp"``).
    P, N : int >= 1
        Positives and negatives in the test set.
    C : int >= 1, default 1
        Number of competing classifiers (the winner is the best of ``C``).
    alpha : float in (0, 1), default 0.01
        The level of the test.
    k : int in 1..P+N, default 10
        Cut-off for ``"tp"`` (the paper's TP10); unused for the other metrics.

    Returns
    -------
    Verdict
        The question asked, the critical value ``m*``, the p-value and ``reject``.

    References
    ----------
    .. [1] Forman, G. & Cohen, I. (2005). Beware the null hypothesis: critical value tables for
       evaluating classifiers. *Machine Learning: ECML 2005 / PKDD 2005*, LNCS 3720, 133-145.

    Examples
    --------
    Section 4: with P = N = 10 and C = 1000 competitors "the critical value for best accuracy
    climbs to 95%", so a winner with 95% accuracy is not significant at alpha = 0.01.

    >>> from evallib import judge_winner
    >>> v = judge_winner("accuracy", 0.95, 10, 10, C=1000, alpha=0.01)
    >>> round(v.critical_value, 2), v.reject
    (0.95, False)
    """
    p = best_of_pvalue(metric, score, P, N, C=C, k=k)  # validates every argument
    alpha = check_alpha(alpha)
    m_star = critical_value(metric, P, N, C=C, alpha=alpha, k=k)
    reject = float(score) > m_star + _SCORE_TOL
    return Verdict(metric, int(P), int(N), int(C), alpha, float(score), m_star, p, reject,
                   k=int(k) if metric == "tp" else 10)


# --------------------------------------------------------------------------- on real scores
def best_over_thresholds(y: np.ndarray, score: np.ndarray) -> tuple[float, float]:
    """Best accuracy and best F-measure over all thresholds of a score (Forman & Cohen).

    The cases are ranked by decreasing score and every cut between two distinct score
    values (and the cut above all of them, calling everything negative) is tried, as in
    Forman & Cohen's walk along the ROC curve; tied scores stay on the same side.

    Parameters
    ----------
    y : array of bool, True for the positive class (at least one of each class)
    score : array of float, higher = more likely positive

    Returns
    -------
    (best_accuracy, best_f1)
        ``max (TP + TN) / n`` and ``max 2 TP / (P + TP + FP)`` over the cuts.

    References
    ----------
    G. Forman and I. Cohen (2005), Beware the null hypothesis: critical value tables for
    evaluating classifiers, PKDD, section 2 (accuracy and F-measure at the best threshold).

    Examples
    --------
    Ranked positives and negatives ``+ + - + - -``: the cut after the fourth case gives
    TP = 3, FP = 1, accuracy 5/6 and F1 = 6/7.

    >>> acc, f1 = best_over_thresholds([1, 1, 0, 1, 0, 0], [6, 5, 4, 3, 2, 1])
    >>> round(acc, 4), round(f1, 4)
    (0.8333, 0.8571)
    """
    y = np.asarray(y, dtype=bool)
    score = np.asarray(score, dtype=float)
    order = np.argsort(-score, kind="stable")
    ys, ss = y[order], score[order]
    last = np.r_[ss[1:] != ss[:-1], True]  # end of each group of tied scores
    tp = np.r_[0, np.cumsum(ys)[last]]
    fp = np.r_[0, np.cumsum(~ys)[last]]
    P, N = int(y.sum()), int((~y).sum())
    accuracy = (tp + (N - fp)) / (P + N)
    f1 = 2 * tp / (P + tp + fp)
    return float(accuracy.max()), float(f1.max())


def auc_normal_critical(auc: float, P: int, N: int, *, C: int = 1, alpha: float = 0.05) -> tuple[float, float]:
    """Forman & Cohen's critical AUC and p-value from the normal law of Mann–Whitney's U.

    For test sets too large for the exact law (``P * N`` above
    :data:`evallib.onetestset.MAX_LATTICE`). Under the null hypothesis ``U = AUC * P * N``
    has mean ``P N / 2`` and variance ``P N (P + N + 1) / 12``; with a continuity
    correction, ``m*`` is the smallest attainable AUC ``u / (P N)`` with
    ``Phi((u + 1/2 - mean) / sd) >= (1 - alpha)^(1/C)``, and the p-value is
    ``1 - (1 - g)^C`` with ``g = 1 - Phi((u - 1/2 - mean) / sd)``.

    Parameters
    ----------
    auc : float
        The winner's AUC, in [0, 1].
    P, N : int >= 1
        Positives and negatives in the test set.
    C : int >= 1, default 1
        Number of competing classifiers (the winner is the best of ``C``).
    alpha : float in (0, 1), default 0.05
        The level of the test.

    Returns
    -------
    (critical_auc, pvalue)

    References
    ----------
    G. Forman and I. Cohen (2005), PKDD, section 2 (``F(m*)^C = 1 - alpha``); H. B. Mann and
    D. R. Whitney (1947), the mean and variance of U.

    Examples
    --------
    At P = N = 100 and C = 1 it gives the exact law's critical AUC:

    >>> crit, p = auc_normal_critical(0.6, 100, 100, C=1, alpha=0.05)
    >>> round(crit, 3), round(critical_value("auc", 100, 100, C=1, alpha=0.05), 3)
    (0.567, 0.567)
    """
    alpha = check_alpha(alpha)
    C = check_count(C, "C", minimum=1)
    P, N = check_count(P, "P", minimum=1), check_count(N, "N", minimum=1)
    mean, sd = P * N / 2.0, math.sqrt(P * N * (P + N + 1) / 12.0)
    u_star = math.ceil(mean + sd * float(stats.norm.isf(tail_probability(C, alpha))) - 0.5 - 1e-9)
    u = round(float(auc) * P * N)
    g = float(stats.norm.sf((u - 0.5 - mean) / sd))
    p = float(-np.expm1(C * np.log1p(-g))) if g < 1.0 else 1.0
    return min(u_star, P * N) / (P * N), p


# --------------------------------------------------------------------------- Monte Carlo
_CHUNK = 50_000
_BLOCK = 16
_FAST = ("auc", "accuracy", "f1", "tp")


def _fast_chunk(P: int, N: int, B: int, rng: np.random.Generator, metrics: tuple[str, ...], k: int) -> dict:
    """Score ``B`` random rankings at once by stepping their lattice paths.

    At step ``t`` (``T - t`` cases left, ``pl`` positives left) the next case is positive
    with probability ``pl / (T - t)``: sequential sampling without replacement, which
    gives a uniformly random ordering. A float32 uniform ``u`` decides it by
    ``u (T - t) < pl`` (bias below 6e-8 per step). A running sum of ``pl`` gives ``U``
    (AUC); running maxima of per-step lookup tables indexed by ``pl`` give the best
    ``i - j`` (best accuracy) and the rank of the best ``i / (P + j)`` among the attainable
    fractions (best F, mapped back to its exact value at the end).
    """
    T = P + N
    want_auc, want_acc, want_f1, want_tp = (m in metrics for m in _FAST)
    u = np.empty((_BLOCK, B), dtype=np.float32)
    small = T < 2**15  # int16 counters suffice (always for P, N <= 1000)
    pl = np.full(B, P, dtype=np.int16 if small else np.int32)
    y = np.empty(B, dtype=bool)
    tmp = np.empty(B, dtype=np.float32)
    S = np.zeros(B, dtype=np.int32 if T * P < 2**31 else np.int64)
    best_d = np.zeros(B, dtype=np.int16 if small else np.int32)
    best_r = np.zeros(B, dtype=np.int32)
    gather16 = np.empty(B, dtype=best_d.dtype)
    gather32 = np.empty(B, dtype=np.int32)
    tp = None
    acc_lut = _acc_lut(P, N) if want_acc else None
    f1_lut = _f1_rank_lut(P, N) if want_f1 else None
    for t in range(T):
        if t % _BLOCK == 0:  # uniforms for the next _BLOCK steps, small enough to stay in cache
            rng.random(out=u[: min(_BLOCK, T - t)], dtype=np.float32)
        np.multiply(u[t % _BLOCK], np.float32(T - t), out=tmp)
        np.less(tmp, pl, out=y)
        pl -= y
        if want_auc:
            S += pl
        if want_acc:
            acc_lut[t].take(pl, out=gather16)
            np.maximum(best_d, gather16, out=best_d)
        if want_f1:
            f1_lut[t].take(pl, out=gather32)
            np.maximum(best_r, gather32, out=best_r)
        if want_tp and t == k - 1:
            tp = (P - pl).astype(np.float64)
    out = {}
    if want_auc:
        U = T * P - S.astype(np.int64) - P * (P + 1) // 2
        out["auc"] = U / (P * N)
    if want_acc:
        out["accuracy"] = (N + best_d.astype(np.int64)) / T
    if want_f1:
        out["f1"] = _f1_values(P, N)[2][best_r]
    if want_tp:
        out["tp"] = tp
    return out


@lru_cache(maxsize=16)
def _acc_lut(P: int, N: int) -> np.ndarray:
    """``lut[t, pl] = i - j`` after ``t + 1`` cases with ``pl`` positives left."""
    t = np.arange(P + N)[:, None]
    pl = np.arange(P + 1)[None, :]
    lut = (2 * (P - pl) - (t + 1)).astype(np.int16 if P + N < 2**15 else np.int32)
    lut.setflags(write=False)
    return lut


@lru_cache(maxsize=16)
def _f1_rank_lut(P: int, N: int) -> np.ndarray:
    """``lut[t, pl]`` = rank, among the attainable best-F thresholds, of ``i / (P + j)``
    after ``t + 1`` cases with ``pl`` positives left (0 when below the smallest one,
    which every path reaches at its end anyway)."""
    _, _, f1 = _f1_values(P, N)
    t = np.arange(P + N)[:, None]
    pl = np.arange(P + 1)[None, :]
    i = P - pl
    j = t + 1 - i
    ok = (j >= 0) & (j <= N) & (i >= 1)
    a = np.where(ok, i, 0)
    b = P + np.clip(j, 0, N)
    f = 2.0 * a / (a + b)  # computed exactly as in _f1_values, so equal fractions match
    rank = np.clip(np.searchsorted(f1, f, side="left"), 0, f1.size - 1)
    rank = np.where(ok & (f1[rank] == f), rank, 0)
    lut = rank.astype(np.int32)
    lut.setflags(write=False)
    return lut


def _generic_chunk(metric: Callable, P: int, N: int, B: int, rng: np.random.Generator) -> dict:
    base = np.zeros((B, P + N), dtype=np.int8)
    base[:, :P] = 1
    rankings = rng.permuted(base, axis=1)
    return {"custom": np.array([float(metric(r)) for r in rankings])}


def _chunks(reps: int) -> list[int]:
    sizes = [_CHUNK] * (reps // _CHUNK)
    if reps % _CHUNK:
        sizes.append(reps % _CHUNK)
    return sizes


def _run_chunks(work: Callable, reps: int, rng: Any, n_jobs: int, consume: Callable, progress: bool = False):
    """Run ``work(size, rng)`` over chunks (own child generator each: reproducible for any
    ``n_jobs``), passing results to ``consume`` in chunk order; at most ``2 n_jobs``
    chunks in flight, so memory stays bounded at any ``reps``."""
    sizes = _chunks(reps)
    rngs = check_rng(rng).spawn(len(sizes))
    n_jobs = max(1, min(int(n_jobs), os.cpu_count() or 1))
    with progress_bar(bool(progress), total=reps, unit="rankings") as bar:
        if n_jobs == 1:
            for size, rng in zip(sizes, rngs):
                consume(work(size, rng))
                bar.update(size)
        else:
            with ThreadPoolExecutor(max_workers=n_jobs) as pool:
                pending = []
                for size, rng in zip(sizes, rngs):
                    pending.append((size, pool.submit(work, size, rng)))
                    if len(pending) >= 2 * n_jobs:
                        s, fut = pending.pop(0)
                        consume(fut.result())
                        bar.update(s)
                for s, fut in pending:
                    consume(fut.result())
                    bar.update(s)


def _resolve_metric(metric: Any) -> tuple[str, Callable | None]:
    if callable(metric) and not isinstance(metric, str):
        return "custom", metric
    return _check_metric(metric), None


def _chunk_scorer(name: str, fn: Callable | None, P: int, N: int, k: int) -> Callable:
    """``work(size, rng)`` for :func:`_run_chunks`: the scores of ``size`` random rankings
    under one metric (the vectorised engine for a named metric, the loop for a callable)."""
    def work(size, rng):
        if fn is not None:
            return _generic_chunk(fn, P, N, size, rng)["custom"]
        return _fast_chunk(P, N, size, rng, (name,), k)[name]
    return work


@renamed_keywords(reps="n_resamples")
def simulate_null(
    metric: Any,
    P: int,
    N: int,
    n_resamples: int,
    *,
    k: int = 10,
    rng: Any = None,
    n_jobs: int = 2,
    progress: bool = False,
) -> np.ndarray:
    """Scores of ``n_resamples`` uniformly random rankings (the loop of the paper's Table 2).

    Parameters
    ----------
    metric : str or callable
        One of ``"auc"``, ``"accuracy"``, ``"f1"``, ``"tp"`` (vectorised engine, scoring
        ~1e6 rankings/s at P = N = 100 on two cores), or any callable taking a 0/1
        int8 array (1 = positive, ranked best first) and returning a number.
    P, N : int >= 1
    n_resamples : int >= 1
    k : int, cut-off for ``"tp"``
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Normalised by ``check_rng``. Each chunk of 50,000 rankings gets its own child
        generator, so the result does not depend on ``n_jobs``.
    n_jobs : int, threads (numpy releases the GIL in the inner loops).
    progress : bool
        Show a ``tqdm.auto`` bar counting the rankings scored (default off).

    Returns
    -------
    ndarray of shape (n_resamples,)
    """
    name, fn = _resolve_metric(metric)
    P, N = _check_sizes(P, N)
    if name == "f1":
        _check_lattice(name, P, N)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    k = _check_k(k, P, N) if name == "tp" else 10
    out = np.empty(n_resamples)
    pos = [0]

    def consume(scores):
        out[pos[0]:pos[0] + scores.size] = scores
        pos[0] += scores.size

    _run_chunks(_chunk_scorer(name, fn, P, N, k), n_resamples, rng, n_jobs, consume, progress=bool(progress))
    return out


@renamed_keywords(reps="n_resamples")
def simulate_scores(P: int, N: int, n_resamples: int, *, metrics: Sequence[str] = ("auc", "accuracy", "f1"),
                    k: int = 10, rng: Any = None, n_jobs: int = 2, progress: bool = False) -> dict[str, np.ndarray]:
    """As :func:`simulate_null` for several named metrics scored on the same rankings.

    Parameters
    ----------
    P, N : int >= 1
        Positives and negatives in the test set.
    n_resamples : int >= 1
        Number of random rankings scored.
    metrics : sequence of {"auc", "accuracy", "f1", "tp"}, default ("auc", "accuracy", "f1")
        The metrics, each scored on every ranking.
    k : int in 1..P+N, default 10
        Cut-off for ``"tp"`` (the paper's TP10); unused for the other metrics.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Normalised by ``check_rng``; each chunk of rankings gets its own child
        generator, so the result does not depend on ``n_jobs``.
    n_jobs : int, default 2
        Threads.
    progress : bool, default False
        Show a ``tqdm.auto`` bar counting the rankings scored.

    Returns
    -------
    dict of str to numpy.ndarray
        ``metric -> n_resamples`` scores, row ``i`` of every array from the same ranking.
    """
    P, N = _check_sizes(P, N)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    metrics = tuple(_check_metric(m) for m in metrics)
    if "f1" in metrics:
        _check_lattice("f1", P, N)
    k = _check_k(k, P, N) if "tp" in metrics else 10
    out = {m: np.empty(n_resamples) for m in metrics}
    pos = [0]

    def consume(res):
        n = next(iter(res.values())).size
        for m in metrics:
            out[m][pos[0]:pos[0] + n] = res[m]
        pos[0] += n

    _run_chunks(lambda s, r: _fast_chunk(P, N, s, r, metrics, k), n_resamples, rng, n_jobs, consume,
                progress=bool(progress))
    return out


def _mc_top(metric: Any, P: int, N: int, reps: int, top: int, *, k: int, rng: Any, n_jobs: int,
            progress: bool = False) -> np.ndarray:
    """The ``top`` best of ``reps`` random scores, best first, in bounded memory (Table 2's heap)."""
    name, fn = _resolve_metric(metric)
    kept = [np.empty(0)]

    def consume(scores):
        merged = np.concatenate([kept[0], scores])
        if merged.size > top:
            merged = np.partition(merged, merged.size - top)[merged.size - top:]
        kept[0] = merged

    _run_chunks(_chunk_scorer(name, fn, P, N, k), reps, rng, n_jobs, consume, progress=progress)
    return np.sort(kept[0])[::-1]


# --------------------------------------------------------------------------- tables
#: The sizes P and N of the shipped table's grid (the defaults of :func:`critical_value_table`):
#: 34 values log-spaced over 2..1000 and the 10, 100 and 300 that Forman & Cohen quote (35 sizes).
_TABLE_SIZES = tuple(sorted(set(np.round(np.geomspace(2, 1000, 34)).astype(int).tolist()) | {10, 100, 300}))


def _table_cell(metric: str, P: int, N: int, Cs: Sequence[int], alphas: Sequence[float], k: int) -> list[dict]:
    if metric == "tp" and k > P + N:
        return []
    pairs = [(C, alpha) for alpha in alphas for C in Cs]
    if metric == "f1":  # one shared multisection for all (C, alpha)
        limits = [tail_probability(C, alpha) * (1.0 + _REL_TOL) for C, alpha in pairs]
        f1 = _f1_values(P, N)[2]
        values = [float(f1[i]) for i in _f1_critical_indices(P, N, limits)]
    else:
        values = [critical_value(metric, P, N, C=C, alpha=alpha, k=k) for C, alpha in pairs]
    return [{"metric": metric, "P": P, "N": N, "C": C, "alpha": alpha, "critical_value": m}
            for (C, alpha), m in zip(pairs, values)]


def critical_value_table(
    metrics: Iterable[str] = METRICS,
    Ps: Iterable[int] = _TABLE_SIZES,
    Ns: Iterable[int] = _TABLE_SIZES,
    Cs: Iterable[int] = (10, 100, 1000),
    alphas: Iterable[float] = (0.01, 0.05),
    *,
    k: int = 10,
    n_jobs: int = 1,
    progress: bool = False,
) -> pd.DataFrame:
    """Exact critical values over a grid, as a tidy DataFrame.

    One row per (metric, P, N, C, alpha) with column ``critical_value``; for ``"tp"`` the
    value is a count out of ``k`` and rows with ``k > P + N`` are left out. With
    ``n_jobs > 1`` the (metric, P, N) cells run in worker processes;
    ``progress`` shows a tqdm bar.

    The defaults are the grid of the shipped table (``data/critical_values.csv``, made by
    :func:`write_critical_values`): Forman & Cohen's conditions (Table 1) extended to
    ``alpha = 0.05``: the four metrics, 35 sizes P and N (34 log-spaced over 2..1000, and the
    10, 100 and 300 that the paper quotes), C = 10, 100, 1000 and alpha = 0.01, 0.05.
    :data:`evallib.studies.PAPER_GRID` names that grid.

    Parameters
    ----------
    metrics : iterable of {"auc", "accuracy", "f1", "tp"}, default METRICS
        The metrics.
    Ps, Ns : iterable of int >= 1, default: the shipped grid
        Positives and negatives (every combination is a cell).
    Cs : iterable of int >= 1, default (10, 100, 1000)
        Numbers of competing classifiers.
    alphas : iterable of float in (0, 1), default (0.01, 0.05)
        Levels.
    k : int >= 1, default 10
        Cut-off for ``"tp"``.
    n_jobs : int, default 1
        Worker processes.
    progress : bool, default False
        Show a ``tqdm.auto`` bar counting the cells.

    Returns
    -------
    pandas.DataFrame
        Columns ``metric, P, N, C, alpha, critical_value``, sorted by metric, alpha, C,
        P and N.
    """
    metrics = [_check_metric(m) for m in metrics]
    Ps = [check_count(p, "Ps", minimum=1) for p in Ps]
    Ns = [check_count(n, "Ns", minimum=1) for n in Ns]
    Cs = [_check_C(c) for c in Cs]
    alphas = [check_alpha(a) for a in alphas]
    k = check_count(k, "k", minimum=1)
    # Largest cells first, so the pool is not left waiting for one big cell at the end.
    cells = sorted(((m, p, n) for m in metrics for p in Ps for n in Ns), key=lambda c: -(c[1] * c[2]))
    parts = parallel_map(_table_cell, ((m, p, n, Cs, alphas, k) for m, p, n in cells),
                         n_jobs=n_jobs, total=len(cells),
                         progress=bool(progress), unit="cell")
    rows = [row for part in parts for row in part]
    table = pd.DataFrame(rows, columns=["metric", "P", "N", "C", "alpha", "critical_value"])
    return table.sort_values(["metric", "alpha", "C", "P", "N"], kind="stable").reset_index(drop=True)


#: The shipped table (``data/critical_values.csv`` in the repository; see evallib._resources).
CSV_PATH = data_path("critical_values.csv")


def load_critical_values(path: str | Path | None = None) -> pd.DataFrame:
    """Read ``data/critical_values.csv`` (made by :func:`write_critical_values`).

    Parameters
    ----------
    path : str or pathlib.Path, optional
        The CSV file; None reads the shipped table (:data:`CSV_PATH`).

    Returns
    -------
    pandas.DataFrame
        :func:`critical_value_table`'s columns.

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    """
    path = CSV_PATH if path is None else Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist; run `make critical-values` to make it")
    return pd.read_csv(path)


def write_critical_values(path: str = "data/critical_values.csv", *, n_jobs: int = 2, progress: bool = True) -> pd.DataFrame:
    """Regenerate the paper's lost appendix (``data/critical_values.csv``) on the default grid.

    Parameters
    ----------
    path : str, default "data/critical_values.csv"
        Where the CSV is written.
    n_jobs : int, default 2
        Worker processes (:func:`critical_value_table`).
    progress : bool, default True
        Show a ``tqdm.auto`` bar counting the cells.

    Returns
    -------
    pandas.DataFrame
        The table written, as :func:`critical_value_table` returns it.
    """
    table = critical_value_table(n_jobs=n_jobs, progress=progress)
    table.to_csv(path, index=False, float_format="%.10g")
    return table
