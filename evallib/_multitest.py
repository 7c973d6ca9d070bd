"""Multiple-testing adjustment: the one implementation every table's ``adjust=`` uses.

One menu, :data:`ADJUSTMENTS` (Holm, Bonferroni, Benjamini–Hochberg, Benjamini–Yekutieli,
none), offered by every pairwise table of the library and of the reports (McNemar tables,
DeLong, score and loss tables, the leaderboard); its false-discovery-rate members,
:data:`FDR_ADJUSTMENTS`, and its family-wise members, :data:`FWER_ADJUSTMENTS`, are
defined here once. The post-hoc procedures after the Friedman test (García & Herrera
2008; García et al. 2010) are a superset of the same menu, :data:`POSTHOC_ADJUSTMENTS`,
computed by the same code: Bonferroni–Dunn, Hochberg, Finner, Li, Holland and Rom, and for
all pairs of ``k`` algorithms Shaffer's static procedure and Bergmann–Hommel.

- :func:`adjust_pvalues` -- adjusted p-values (APVs): rejecting where the APV is
  ``<= alpha`` is the procedure's decision at ``alpha``, and the APV says at which level
  a hypothesis would just be rejected;
- :func:`adjusted_alphas` (and :func:`holm_alphas`) -- the per-comparison *levels*
  ``alpha_adj`` of the menu's procedures at one ``alpha`` (a level, not a p-value), with
  :func:`rejections` the step-down / step-up decisions they give;
- :func:`rom_levels`, :func:`shaffer_counts`, :func:`exhaustive_sets` -- the constants
  of Rom's, Shaffer's and Bergmann–Hommel's procedures.

With the ``m`` p-values sorted, ``p_(1) <= ... <= p_(m)``, every adjusted p-value here is a
*step-down* APV, ``min(1, max_{j <= i} v_j)`` (Holm, Holland, Finner, Shaffer), a
*step-up* APV, ``min(1, min_{j >= i} v_j)`` (Hochberg, Benjamini–Hochberg,
Benjamini–Yekutieli, Rom), a single-step one (Bonferroni, Li) or Bergmann–Hommel's
maximum over exhaustive sets; ties are ranked by position (a stable sort).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ._compat import renamed_keywords
from ._validate import check_alpha, check_choice, check_count

__all__ = [
    "ADJUSTMENTS",
    "ADJUSTMENT_NAMES",
    "BERGMANN_MAX_K",
    "FDR_ADJUSTMENTS",
    "FWER_ADJUSTMENTS",
    "PAIRS_ONLY_ADJUSTMENTS",
    "POSTHOC_ADJUSTMENTS",
    "adjust_pairs_table",
    "adjust_pvalues",
    "adjusted_alphas",
    "exhaustive_sets",
    "holm_alphas",
    "rejections",
    "rom_levels",
    "shaffer_counts",
]

#: The multiplicity adjustments of every pairwise table. ``"holm"`` (step-down) and
#: ``"bonferroni"`` control the family-wise error rate; ``"bh"`` (Benjamini & Hochberg 1995)
#: and ``"by"`` (Benjamini & Yekutieli 2001) are step-up procedures that control the false
#: discovery rate; ``"none"`` leaves each comparison at ``alpha``.
ADJUSTMENTS = ("holm", "bonferroni", "bh", "by", "none")

#: The adjustments that control the false discovery rate (the expected share of false
#: rejections among the rejections), not the family-wise error: no joint intervals
#: correspond to them.
FDR_ADJUSTMENTS = ("bh", "by")

#: The adjustments of :data:`ADJUSTMENTS` that control the family-wise error rate: under
#: them a pairwise table's intervals are the joint (Bonferroni, ``alpha / m``) ones.
FWER_ADJUSTMENTS = ("holm", "bonferroni")

#: The procedures that need all ``k(k-1)/2`` pairs of ``k`` algorithms (``k=`` of
#: :func:`adjust_pvalues`): Shaffer's static procedure and Bergmann–Hommel's.
PAIRS_ONLY_ADJUSTMENTS = ("shaffer", "bergmann")

#: What :func:`adjust_pvalues` accepts: the menu, then the post-hoc procedures of García &
#: Herrera (2008) and García et al. (2010) beyond it.
POSTHOC_ADJUSTMENTS = ADJUSTMENTS + ("bonferroni-dunn", "hochberg", "finner", "li", "holland", "rom",
                                     *PAIRS_ONLY_ADJUSTMENTS)

#: Each procedure's name in a table header or a sentence, one spelling for the library's tables and
#: the reports (``"none"`` has no name: it adjusts nothing). Nemenyi's all-pairs test, which the
#: many-data-sets tables offer beside these, is named here too.
ADJUSTMENT_NAMES = {
    "holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini–Hochberg", "by": "Benjamini–Yekutieli",
    "nemenyi": "Nemenyi", "bonferroni-dunn": "Bonferroni–Dunn", "hochberg": "Hochberg", "finner": "Finner",
    "li": "Li", "holland": "Holland", "rom": "Rom", "shaffer": "Shaffer", "bergmann": "Bergmann–Hommel",
}

#: Largest k for which Bergmann–Hommel's exhaustive sets are enumerated (Bell(10) = 115,975 partitions).
BERGMANN_MAX_K = 10


# ------------------------------------------------------------------ input
def _check_pvalues(pvalues: Any) -> np.ndarray:
    """``pvalues`` as a non-empty one-dimensional float array in [0, 1]."""
    try:
        p = np.asarray(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("pvalues must be a sequence of numbers in [0, 1]") from None
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"pvalues must be a non-empty one-dimensional sequence, got shape {p.shape}")
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("pvalues must all lie in [0, 1] (no NaN)")
    return p


# ------------------------------------------------------------ step-down and step-up
def _step_down(values: np.ndarray) -> np.ndarray:
    """``min(1, max_{j <= i} values_j)``: the APVs of a step-down procedure (sorted p-values)."""
    return np.minimum(1.0, np.maximum.accumulate(values))


def _step_up(values: np.ndarray) -> np.ndarray:
    """``min(1, min_{j >= i} values_j)``: the APVs of a step-up procedure (sorted p-values)."""
    return np.minimum(1.0, np.minimum.accumulate(values[::-1])[::-1])


def _by_constant(m: int) -> float:
    """Benjamini & Yekutieli's (2001) ``c(m) = sum_{k=1}^{m} 1/k``."""
    return float(np.sum(1.0 / np.arange(1, m + 1)))


# ------------------------------------------------------------ exhaustive sets
def _partitions(items: list) -> list[list[list]]:
    """All set partitions of ``items`` (Bell(len(items)) of them)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _partitions(rest):
        out.append([[first]] + part)
        for i in range(len(part)):
            out.append(part[:i] + [[first] + part[i]] + part[i + 1:])
    return out


@lru_cache(maxsize=None)
def exhaustive_sets(k: int) -> tuple[tuple[int, ...], ...]:
    """The exhaustive sets of hypotheses ``H_ij: algorithm i = algorithm j``.

    A set of pairwise equalities can all be true at once exactly when it is the
    set of all pairs inside the blocks of some partition of the ``k`` algorithms
    (equality is transitive). Each set is returned as the indices of its pairs in
    the order of ``itertools.combinations(range(k), 2)``; the empty set (every
    algorithm different) is left out.

    Parameters
    ----------
    k : int
        Number of algorithms, 2 to 10.

    Returns
    -------
    tuple of tuple of int

    References
    ----------
    Bergmann, B. & Hommel, G. (1988). Improvements of general multiple test procedures
    for redundant systems of hypotheses. In *Multiple Hypothesenprüfung*, 100-115.

    Examples
    --------
    Three algorithms: each single equality, and all three at once.

    >>> exhaustive_sets(3)
    ((0,), (1,), (2,), (0, 1, 2))
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= BERGMANN_MAX_K:
        raise ValueError(f"k must be an integer from 2 to {BERGMANN_MAX_K} for the exhaustive sets, got {k!r}")
    index = {pair: n for n, pair in enumerate(itertools.combinations(range(k), 2))}
    sets = set()
    for part in _partitions(list(range(k))):
        pairs = tuple(sorted(index[p] for block in part for p in itertools.combinations(sorted(block), 2)))
        if pairs:
            sets.add(pairs)
    return tuple(sorted(sets, key=lambda s: (len(s), s)))


@lru_cache(maxsize=None)
def _shaffer_possible(k: int) -> frozenset[int]:
    """S(k): the possible numbers of true hypotheses among k(k-1)/2 (Shaffer 1986)."""
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):
        out |= {math.comb(j, 2) + x for x in _shaffer_possible(k - j)}
    return frozenset(out)


def shaffer_counts(k: int) -> np.ndarray:
    """Shaffer's ``t_i``: the most hypotheses that can be true when ``i - 1`` are false.

    ``t_i = max{s in S(k): s <= m - i + 1}``, ``m = k(k-1)/2``, with ``S(k)`` the
    possible numbers of true pairwise hypotheses (Shaffer 1986; García & Herrera
    2008, section 5.1): ``S(k) = union_j {C(j, 2) + x : x in S(k - j)}``.

    Parameters
    ----------
    k : int
        Number of algorithms, >= 2.

    Returns
    -------
    numpy.ndarray of int, length ``m``.

    References
    ----------
    Shaffer, J. P. (1986). Modified sequentially rejective multiple test procedures.
    *JASA* 81, 826-831.

    Examples
    --------
    For four algorithms (García & Herrera 2008): S(4) = {0, 1, 2, 3, 6}.

    >>> shaffer_counts(4).tolist()
    [6, 3, 3, 3, 2, 1]
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    m = k * (k - 1) // 2
    possible = sorted(_shaffer_possible(int(k)))
    return np.array([max(s for s in possible if s <= m - i + 1) for i in range(1, m + 1)])


def _bergmann(p: np.ndarray, k: int) -> np.ndarray:
    """Bergmann–Hommel APVs over the exhaustive sets (input order)."""
    if k > BERGMANN_MAX_K:
        raise ValueError(f"Bergmann–Hommel enumerates the exhaustive sets; k must be at most "
                         f"{BERGMANN_MAX_K}, got {k}")
    out = np.zeros(p.size)
    for pairs in exhaustive_sets(int(k)):
        idx = np.asarray(pairs)
        value = len(idx) * float(p[idx].min())
        np.maximum.at(out, idx, value)
    return np.minimum(1.0, out)


# ------------------------------------------------------------------ Rom
def _rom_table(alphas: np.ndarray, m: int) -> np.ndarray:
    """Rom's critical values ``alpha_1 .. alpha_m`` for each level in ``alphas`` (shape ``(L, m)``)."""
    alphas = np.asarray(alphas, dtype=float)
    out = np.empty((alphas.size, m))
    out[:, 0] = alphas
    if m >= 2:
        out[:, 1] = alphas / 2.0
    powers = alphas[:, None] ** np.arange(1, m + 1)[None, :]          # alpha^1 .. alpha^m
    for i in range(3, m + 1):
        j = np.arange(1, i - 1)                                       # 1 .. i-2
        coef = np.array([math.comb(i, int(t)) for t in j], dtype=float)
        # alpha_{j+1} ** (i - j), García et al. (2010)'s indexing of Rom (1990)
        s2 = (coef[None, :] * out[:, j] ** (i - j)[None, :]).sum(axis=1)
        out[:, i - 1] = (powers[:, : i - 1].sum(axis=1) - s2) / i
    return out


def rom_levels(m: int, alpha: float = 0.05) -> np.ndarray:
    """Rom's (1990) critical values ``alpha_1 >= alpha_2 >= ... >= alpha_m``.

    Rom's step-up procedure compares the largest p-value with ``alpha_1 = alpha``,
    the second largest with ``alpha_2 = alpha/2``, ..., the ``i``-th largest with

        ``alpha_i = [sum_{j=1}^{i-1} alpha^j - sum_{j=1}^{i-2} C(i, j) alpha_{j+1}^{i-j}] / i``

    (García et al. 2010, section 4, who index the same recursion from the other end),
    and rejects every hypothesis from the first p-value that passes downward. The
    values make the family-wise error exactly ``alpha`` for independent p-values
    when all ``m`` hypotheses are true; they are slightly larger than Hochberg's
    ``alpha / i``, so Rom rejects at least what Hochberg rejects.

    Parameters
    ----------
    m : int
        Number of hypotheses, >= 1.
    alpha : float
        Family-wise level in (0, 1).

    Returns
    -------
    numpy.ndarray
        ``alpha_1, ..., alpha_m``.

    References
    ----------
    Rom, D. M. (1990). A sequentially rejective test procedure based on a modified
    Bonferroni inequality. Biometrika 77(3), 663-665.

    Examples
    --------
    Rom's Table 1 for alpha = 0.05 begins 0.05, 0.025, 0.0169, 0.0127, 0.0102:

    >>> rom_levels(5, 0.05).round(4).tolist()
    [0.05, 0.025, 0.0169, 0.0127, 0.0102]
    """
    m = check_count(m, "m", minimum=1)
    alpha = check_alpha(alpha)
    return _rom_table(np.array([alpha]), m)[0]


def _rom_apv(ps: np.ndarray) -> np.ndarray:
    """Rom APVs of sorted p-values: the smallest level at which each is rejected.

    ``H_(i)`` is rejected at level ``a`` when some ``p_(j) <= alpha_{m-j+1}(a)``,
    ``j >= i``; the critical values grow with ``a``, so the level at which
    ``p_(j)`` first passes is found by bisection, and the APV is the smallest of
    those over ``j >= i``.
    """
    m = ps.size
    t = m - np.arange(m)                       # p_(j) is compared with alpha_t, t = m - j + 1
    lo, hi = np.zeros(m), np.ones(m)
    top = _rom_table(np.ones(1), m)[0][t - 1]  # alpha_t at level 1
    never = ps > top
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        crit = _rom_table(mid, m)[np.arange(m), t - 1]
        passes = ps <= crit
        hi = np.where(passes, mid, hi)
        lo = np.where(passes, lo, mid)
    level = np.where(never, 1.0, hi)
    level = np.where(t == 1, ps, np.where(t == 2, np.minimum(1.0, 2.0 * ps), level))
    return _step_up(level)


# ------------------------------------------------------------ adjusted p-values
@renamed_keywords(method="adjust")
def adjust_pvalues(pvalues: Any, adjust: str, *, k: int | None = None) -> np.ndarray:
    """Adjusted p-values (García & Herrera 2008, section 5; Demšar 2006, section 3.2.2).

    With the p-values sorted, ``p_1 <= ... <= p_m``:

    * ``"holm"``: ``min(1, max_{j<=i} (m - j + 1) p_j)`` (step-down);
    * ``"bonferroni"`` / ``"bonferroni-dunn"``: ``min(1, m p_i)``;
    * ``"bh"`` (Benjamini–Hochberg): ``min(1, min_{j>=i} m p_j / j)`` (step-up);
    * ``"by"`` (Benjamini–Yekutieli): ``min(1, min_{j>=i} c_m m p_j / j)``,
      ``c_m = 1 + 1/2 + ... + 1/m``;
    * ``"none"``: the p-values unchanged;
    * ``"hochberg"``: ``min(1, min_{j>=i} (m - j + 1) p_j)`` (step-up);
    * ``"finner"``: ``min(1, max_{j<=i} 1 - (1 - p_j)^(m/j))``;
    * ``"li"``: ``p_i / (p_i + 1 - p_m)``;
    * ``"holland"`` (Holland & Copenhaver 1987; Holm's step-down with Šidák's
      levels): ``min(1, max_{j<=i} 1 - (1 - p_j)^(m - j + 1))``;
    * ``"rom"`` (Rom 1990): step-up with the critical values of :func:`rom_levels`;
      the APV is the smallest level ``a`` at which Rom's procedure rejects,
      ``min_{j>=i} a_j`` with ``a_j`` solving ``p_j = alpha_{m-j+1}(a)`` (García et
      al. 2010 print instead ``min_{j>=i} (alpha / alpha_{m-j+1}) p_j`` at one
      ``alpha``, which agrees with it at that ``alpha`` and rejects the same
      hypotheses there);
    * ``"shaffer"``: ``min(1, max_{j<=i} t_j p_j)`` with :func:`shaffer_counts`
      (all pairs of ``k`` algorithms only);
    * ``"bergmann"``: ``min(1, max{|I| min_{j in I} p_j : I exhaustive, i in I})``
      over :func:`exhaustive_sets` (all pairs only, ``k <= 10``).

    ``"bh"`` and ``"by"`` (:data:`FDR_ADJUSTMENTS`) control the *false discovery rate*
    -- the expected share of false rejections among all rejections -- at ``alpha``, not
    the family-wise error (the probability of any false rejection) that every other
    procedure here except ``"none"`` controls: they reject more, and a rejection is a
    discovery to follow up rather than a guarantee. Benjamini–Hochberg is valid for
    independent or positively dependent p-values, Benjamini–Yekutieli under any
    dependence. Hochberg, Rom and Holland likewise rest on independence (or positive
    dependence) of the p-values; the pairwise rank statistics are positively correlated
    when they share an algorithm. Rejecting where the adjusted p-value is ``<= alpha`` is
    the procedure's decision at ``alpha``.

    Parameters
    ----------
    pvalues : sequence of float in [0, 1]
        Unadjusted p-values, in any order; for ``"shaffer"`` and ``"bergmann"``,
        one per pair in the order of ``itertools.combinations(range(k), 2)``.
    adjust : str
        One of :data:`POSTHOC_ADJUSTMENTS`: the menu :data:`ADJUSTMENTS` or one of the
        post-hoc procedures above. (``method=`` is its deprecated name.)
    k : int, optional
        Number of algorithms; required by ``"shaffer"`` and ``"bergmann"``.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values in the input order.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure.
    Scandinavian Journal of Statistics 6, 65-70.
    Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate. JRSS B
    57(1), 289-300.
    Benjamini, Y. & Yekutieli, D. (2001). The control of the false discovery rate in
    multiple testing under dependency. Annals of Statistics 29(4), 1165-1188.
    Wright, S. P. (1992). Adjusted p-values for simultaneous inference. Biometrics 48,
    1005-1013.
    García, S. & Herrera, F. (2008). JMLR 9, 2677-2694, section 5.
    García, S., Fernández, A., Luengo, J. & Herrera, F. (2010). Advanced nonparametric
    tests for multiple comparisons in the design of experiments in computational
    intelligence and data mining. Information Sciences 180, 2044-2064, section 4.
    Holland, B. S. & Copenhaver, M. D. (1987). An improved sequentially rejective
    Bonferroni test procedure. Biometrics 43, 417-423.
    Rom, D. M. (1990). Biometrika 77(3), 663-665.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], "bh").round(4).tolist()
    [0.02, 0.04, 0.04, 0.02]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], "holland").round(4).tolist()
    [0.0297, 0.0591, 0.0591, 0.0199]

    Three p-values: Holm multiplies the smallest by 3, the next by 2, the largest by 1
    (keeping the order):

    >>> [round(float(v), 6) for v in adjust_pvalues([0.000532, 0.001336, 0.5], "holm")]
    [0.001596, 0.002672, 0.5]
    """
    p = _check_pvalues(pvalues)
    adjust = check_choice(adjust, "adjust", POSTHOC_ADJUSTMENTS)
    m = p.size
    if adjust in PAIRS_ONLY_ADJUSTMENTS and (k is None or k * (k - 1) // 2 != m):
        raise ValueError(f"adjust={adjust!r} needs k with k(k-1)/2 = {m} p-values (all pairs), got k={k!r}")
    if adjust == "none":
        return p.copy()
    if adjust == "bergmann":
        return _bergmann(p, k)          # computed in the input order
    order = np.argsort(p, kind="stable")
    ps = p[order]
    i = np.arange(1, m + 1)
    if adjust in ("bonferroni", "bonferroni-dunn"):
        adj = np.minimum(1.0, m * ps)
    elif adjust == "holm":
        adj = _step_down((m - i + 1.0) * ps)
    elif adjust == "bh":
        adj = _step_up(m * ps / i)
    elif adjust == "by":
        adj = _step_up(_by_constant(m) * m * ps / i)
    elif adjust == "hochberg":
        adj = _step_up((m - i + 1.0) * ps)
    elif adjust == "finner":
        adj = _step_down(1.0 - (1.0 - ps) ** (m / i))
    elif adjust == "li":
        denom = ps + 1.0 - ps[-1]
        # denom = 0 only when p_i = 0 and p_m = 1: Li's rule rejects (p_i <= 0), so the APV is 0
        adj = np.where(denom > 0, ps / np.where(denom > 0, denom, 1.0), 0.0)
    elif adjust == "holland":
        with np.errstate(divide="ignore"):      # p = 1: log1p(-1) = -inf, and the APV is 1
            adj = _step_down(-np.expm1((m - i + 1.0) * np.log1p(-ps)))
    elif adjust == "rom":
        adj = _rom_apv(ps)
    else:  # "shaffer"
        adj = _step_down(shaffer_counts(k).astype(float) * ps)
    out = np.empty(m)
    out[order] = adj
    return out


# ------------------------------------------------------------ per-comparison levels
def holm_alphas(pvalues: Sequence[float], alpha: float = 0.05) -> np.ndarray:
    """Holm-adjusted significance level of each comparison (Table 2's alpha column).

    Holm (1979): sort the ``m`` p-values in increasing order; the comparison of
    rank ``i`` (1-based) is tested at ``alpha / (m - i + 1)``, i.e. the smallest
    p-value at ``alpha/m``, the next at ``alpha/(m - 1)``, ... (the paper: "each time
    with a decrement of n by 1"). The step-down procedure rejects ranks
    ``1..k`` where ``k`` is the last rank before the first p-value above its level.

    Parameters
    ----------
    pvalues : sequence of float
        The unadjusted p-values, in [0, 1].
    alpha : float
        Family-wise error rate, in (0, 1).

    Returns
    -------
    numpy.ndarray
        The level of each comparison, in the order of ``pvalues``. Ties are ranked
        by their position (a stable sort).

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       *Scandinavian Journal of Statistics*, 6, 65-70.

    Examples
    --------
    Table 2's alpha column from its printed p-values: 0.005, 0.006, 0.006, 0.007, 0.008, 0.010, ...

    >>> from evallib import holm_alphas
    >>> p = [5.3e-4, 1.1e-3, 2.2e-3, 3.6e-3, 5.8e-3, 8.6e-3, 0.40, 0.48, 0.58, 0.99]
    >>> [round(float(a), 3) for a in holm_alphas(p, 0.05)[:6]]
    [0.005, 0.006, 0.006, 0.007, 0.008, 0.01]
    """
    return adjusted_alphas(pvalues, alpha, "holm")


@renamed_keywords(method="adjust")
def adjusted_alphas(pvalues: Sequence[float], alpha: float = 0.05, adjust: str = "holm") -> np.ndarray:
    """Per-comparison significance levels for ``adjust`` in :data:`ADJUSTMENTS`.

    With the ``m`` p-values ranked increasingly (rank ``i`` = 1, ..., m; ties ranked by
    position, a stable sort), the comparison of rank ``i`` is compared with:

    ``"holm"``
        ``alpha / (m - i + 1)`` (step-down; see :func:`holm_alphas`).
    ``"bonferroni"``
        ``alpha / m`` for every comparison.
    ``"bh"`` (Benjamini & Hochberg 1995)
        ``i alpha / m`` (step-up).
    ``"by"`` (Benjamini & Yekutieli 2001, Theorem 1.3)
        ``i alpha / (m c(m))`` with ``c(m) = 1 + 1/2 + ... + 1/m`` (step-up).
    ``"none"``
        ``alpha``.

    Holm and Bonferroni control the family-wise error rate (the probability of any false
    rejection) at ``alpha``. BH and BY control the false discovery rate instead, the
    expected share of false rejections among the rejections: BH when the p-values are
    independent or positively dependent (PRDS), BY under any dependence (the pairwise
    tests of classifiers on one test set share cases, so their dependence is unknown).
    The step-up procedures reject every comparison up to the *largest* rank whose
    p-value is at or below its level, so a comparison can be rejected with a p-value
    above its own level (Holm, step-down, stops at the first p-value above its level):
    the decisions are :func:`rejections` (``reject`` in
    :func:`evallib.pairwise_table`), not ``p <= level``. A level is not a p-value: the
    adjusted p-values are :func:`adjust_pvalues`.

    Parameters
    ----------
    pvalues : sequence of float
        The unadjusted p-values, in [0, 1].
    alpha : float
        The family-wise error rate or false discovery rate, in (0, 1).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        The procedure (``method=`` is its deprecated name).

    Returns
    -------
    numpy.ndarray
        The level of each comparison, in the order of ``pvalues``.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       *Scandinavian Journal of Statistics*, 6, 65-70.
    .. [2] Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate: a
       practical and powerful approach to multiple testing. *JRSS B* 57, 289-300.
    .. [3] Benjamini, Y. & Yekutieli, D. (2001). The control of the false discovery rate
       in multiple testing under dependency. *Annals of Statistics* 29, 1165-1188.

    Examples
    --------
    Benjamini & Hochberg's (1995, section 4) fifteen p-values: at ``alpha = 0.05`` the
    procedure rejects the four smallest (0.0001 to 0.0095, the fourth compared with
    4 x 0.05/15 = 0.0133), as the paper reports.

    >>> from evallib.onetestset import adjusted_alphas
    >>> p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
    ...      0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0]
    >>> levels = adjusted_alphas(p, 0.05, "bh")
    >>> [round(float(v), 4) for v in levels[:5]]
    [0.0033, 0.0067, 0.01, 0.0133, 0.0167]
    """
    p = _check_pvalues(pvalues)
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    m = p.size
    if adjust == "none":
        return np.full(m, alpha)
    if adjust == "bonferroni":
        return np.full(m, alpha / m)
    order = np.argsort(p, kind="stable")
    rank = np.arange(1, m + 1)
    levels = np.empty(m)
    if adjust == "holm":
        levels[order] = alpha / (m - rank + 1)
    elif adjust == "bh":
        levels[order] = rank * alpha / m
    else:  # "by"
        levels[order] = rank * alpha / (m * _by_constant(m))
    return levels


def rejections(pvalues: Any, levels: Any, adjust: str) -> np.ndarray:
    """The decisions of :func:`adjusted_alphas`' ``levels``: step-down for Holm, step-up for BH/BY.

    Holm stops at the first p-value (in increasing order) above its level; Benjamini–Hochberg
    and Benjamini–Yekutieli reject every rank up to the largest one whose p-value meets its
    level; Bonferroni and ``"none"`` compare each p-value with its level.

    Parameters
    ----------
    pvalues : sequence of float
        The unadjusted p-values, in [0, 1].
    levels : sequence of float
        ``adjusted_alphas(pvalues, alpha, adjust)``.
    adjust : {"holm", "bonferroni", "bh", "by", "none"}

    Returns
    -------
    numpy.ndarray of bool
        One decision per p-value, in their order.

    Examples
    --------
    p = (0.03, 0.04) at alpha = 0.05: BH's levels are 0.025 and 0.05; the larger p-value
    meets its level, so both are rejected though 0.03 > 0.025, while Holm rejects neither.

    >>> p = [0.03, 0.04]
    >>> rejections(p, adjusted_alphas(p, 0.05, "bh"), "bh").tolist()
    [True, True]
    >>> rejections(p, adjusted_alphas(p, 0.05, "holm"), "holm").tolist()
    [False, False]
    """
    p = _check_pvalues(pvalues)
    levels = np.asarray(levels, dtype=float)
    if levels.shape != p.shape:
        raise ValueError(f"levels must have one entry per p-value ({p.size}), got shape {levels.shape}")
    adjust = check_choice(adjust, "adjust", ADJUSTMENTS)
    reject = p <= levels
    order = np.argsort(p, kind="stable")
    out = np.empty_like(reject)
    if adjust == "holm":
        out[order] = np.cumprod(reject[order]).astype(bool)
        return out
    if adjust in FDR_ADJUSTMENTS:
        passed = np.flatnonzero(reject[order])
        last = passed[-1] + 1 if passed.size else 0
        out[order] = np.arange(p.size) < last
        return out
    return reject


def adjust_pairs_table(table: pd.DataFrame, alpha: float, adjust: str, quantile) -> pd.DataFrame:
    """Add ``alpha_adj``, ``pvalue_adj``, ``reject_adj``, ``low_adj``, ``high_adj`` to a pairs table.

    Holm (1979): the pair with the ``i``-th smallest p-value (1-based, ties in table
    order) is tested at ``alpha / (m - i + 1)``; its adjusted p-value is
    ``max_{j <= i} min(1, (m - j + 1) p_(j))`` and ``reject_adj = pvalue_adj <= alpha``
    is Holm's step-down decision. Bonferroni: level ``alpha / m``, ``min(1, m p)``.
    Benjamini & Hochberg (1995), ``"bh"``: level ``i alpha / m``, adjusted p-value
    ``min_{j >= i} min(1, m p_(j) / j)``, the step-up decision; Benjamini & Yekutieli
    (2001), ``"by"``: the same with ``m`` replaced by ``m c(m)``, ``c(m) = sum_{k<=m} 1/k``.
    BH and BY control the false discovery rate (the expected share of false rejections
    among the rejections), not the family-wise error rate. ``"none"``: unchanged.

    The adjusted interval of a pair is its **joint** interval under the family-wise
    adjustments: the interval at level ``1 - alpha / m`` (Bonferroni) whatever the test's
    adjustment, so that all ``m`` cover their true differences together with probability
    at least ``1 - alpha``. (Intervals at Holm's step-down levels have no joint coverage,
    and one can exclude 0 while Holm's test does not reject; a joint interval that
    excludes 0 implies that Holm rejects.) No joint intervals correspond to the false
    discovery rate, so under ``"bh"`` and ``"by"`` (and ``"none"``) the adjusted interval
    is the unadjusted one; ``attrs["interval_adjust"]`` says which (``"bonferroni"`` or
    ``"none"``) and the formatted tables label the column accordingly.
    ``quantile(level)`` gives the two-sided critical value.
    """
    p = table["pvalue"].to_numpy(dtype=float)
    m = p.size
    joint = adjust in FWER_ADJUSTMENTS
    table.attrs["adjust"] = adjust
    table.attrs["interval_adjust"] = "bonferroni" if joint else "none"
    if m == 0:
        for c in ("alpha_adj", "pvalue_adj", "low_adj", "high_adj"):
            table[c] = pd.Series(dtype=float)
        table["reject_adj"] = pd.Series(dtype=bool)
        return table
    levels = adjusted_alphas(p, alpha, adjust)
    padj = adjust_pvalues(p, adjust)
    half = quantile(alpha / m if joint else alpha) * table["se"].to_numpy(dtype=float)
    d = table["difference"].to_numpy(dtype=float)
    table["alpha_adj"] = levels
    table["pvalue_adj"] = padj
    table["reject_adj"] = padj <= alpha
    table["low_adj"] = d - half
    table["high_adj"] = d + half
    return table
