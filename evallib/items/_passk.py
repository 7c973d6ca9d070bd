"""pass@k and pass^k: the unbiased estimators of Chen et al. (2021) and Yao et al. (2024).

A generative model answers each of ``N`` items ``n`` times; ``c`` of the ``n`` answers
are correct. Two questions are asked of ``k`` answers drawn at random without
replacement from the ``n``:

* pass@k -- is *at least one* of them correct? Chen et al. (2021, eq. 1) estimate it
  per item without bias by ``1 - C(n - c, k) / C(n, k)``;
* pass^k ("pass-hat-k") -- are *all* of them correct? Yao et al. (2024)
  estimate it per item without bias by ``C(c, k) / C(n, k)``.

Both are averaged over the items; the interval is the t interval of an item mean, with
a cluster-robust standard error when the items come in clusters
(:func:`pass_at_k`). The binomial ratios are computed as products, never as
factorials (``C(200, 100)`` overflows a float):
``C(a, k) / C(n, k) = prod_{m = a + 1}^{n} (1 - k / m)`` for ``a >= k``, and 0 for
``a < k`` -- with ``a = n - c`` this is the product of Chen et al.'s numpy code.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._compat import renamed_fields
from .._cr2 import cr2_mean_se as _mean_se
from .._results import IntervalMixin
from .._validate import align_items, check_alpha, check_count, check_labels

__all__ = ["PassInterval", "PassAtK", "unbiased_pass_at_k", "unbiased_pass_hat_k", "pass_at_k"]


# ------------------------------------------------------------------ input checks
def _check_counts(value: Any, name: str, what: str) -> np.ndarray:
    """One whole number >= 0, or a one-dimensional sequence of them, as an int64 array.

    A scalar gives a 0-d array (it broadcasts against the other argument).
    """
    if isinstance(value, (bool, np.bool_)) or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a whole number >= 0 ({what}) or a sequence of them, "
                        f"got {type(value).__name__}")
    if isinstance(value, numbers.Number):
        return np.asarray(check_count(value, name))
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of whole numbers >= 0 ({what})") from None
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{name} must hold whole numbers >= 0 ({what}), got values of type {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a number or a one-dimensional sequence ({what}, one per item), "
                         f"got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one item, got an empty sequence")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{name} must hold whole numbers >= 0 ({what}), got {arr[i]!r} for item {i}")
    if (arr < 0).any():
        i = int(np.flatnonzero(arr < 0)[0])
        raise ValueError(f"{name} must hold whole numbers >= 0 ({what}), got {arr[i]!r} for item {i}")
    return arr.astype(np.int64)


def _check_nck(n: Any, c: Any, k: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """Validate ``n``, ``c`` (per item, broadcast) and ``k``; return 1-D arrays and ``k``."""
    n_arr = _check_counts(n, "n", "samples per item")
    c_arr = _check_counts(c, "c", "correct samples per item")
    k = check_count(k, "k", minimum=1)
    if n_arr.ndim == 1 and c_arr.ndim == 1 and n_arr.size != c_arr.size:
        raise ValueError(f"n and c must have the same length (one value per item) or be a single number, "
                         f"got {n_arr.size} and {c_arr.size}")
    n_arr, c_arr = (np.atleast_1d(v) for v in np.broadcast_arrays(n_arr, c_arr))
    if (c_arr > n_arr).any():
        i = int(np.flatnonzero(c_arr > n_arr)[0])
        raise ValueError(f"c must not exceed n (c counts the correct samples among the n of an item), "
                         f"got c = {c_arr[i]} > n = {n_arr[i]} for item {i}")
    if (n_arr < k).any():
        i = int(np.argmin(n_arr))
        raise ValueError(f"k must not exceed n, the number of samples of every item: got k = {k} > "
                         f"n = {n_arr[i]} for item {i}")
    return n_arr, c_arr, k


# ------------------------------------------------------------------ the estimators
def _binomial_ratio(a: np.ndarray, n: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``log(C(a, k) / C(n, k))`` per item, and whether the ratio is 0 (``a < k``).

    ``C(a, k) / C(n, k) = prod_{m=a+1}^{n} (1 - k/m)`` (from ``C(m-1, k) / C(m, k) =
    1 - k/m``). For each distinct ``n`` the partial sums of ``log1p(-k/m)`` from ``m = n``
    downwards are formed once and looked up, so ``a`` close to ``n`` sums few terms.
    """
    log_ratio = np.zeros(a.shape)
    zero = a < k
    for n_value in np.unique(n):
        at = (n == n_value) & ~zero
        if not at.any():
            continue
        m = np.arange(n_value, k, -1, dtype=float)            # n, n-1, ..., k+1
        partial = np.concatenate([[0.0], np.cumsum(np.log1p(-k / m))])  # index j = n - a
        log_ratio[at] = partial[n_value - a[at]]
    return log_ratio, zero


def _pass_at_k(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    log_ratio, zero = _binomial_ratio(n - c, n, k)
    return np.where(zero, 1.0, -np.expm1(log_ratio))


def _pass_hat_k(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    log_ratio, zero = _binomial_ratio(c, n, k)
    return np.where(zero, 0.0, np.exp(log_ratio))


def unbiased_pass_at_k(n: Any, c: Any, k: int) -> np.ndarray:
    """Per-item unbiased pass@k of Chen et al. (2021), eq. (1): ``1 - C(n - c, k) / C(n, k)``.

    The probability that at least one of ``k`` answers drawn without replacement from
    an item's ``n`` answers is correct, of which ``c`` are. It is the unbiased estimator
    of ``1 - (1 - p)^k`` for an item answered correctly with probability ``p``, whereas
    the plug-in ``1 - (1 - c/n)^k`` is biased low. Computed as the product
    ``1 - prod_{m=n-c+1}^{n} (1 - k/m)`` (Chen et al.'s numpy code) in log space.

    Parameters
    ----------
    n : int or sequence of int
        Answers sampled per item, each ``>= k``.
    c : int or sequence of int
        Correct answers per item, ``0 <= c <= n``. A single number broadcasts against
        a sequence in the other argument.
    k : int
        Answers drawn, ``1 <= k <= n``.

    Returns
    -------
    numpy.ndarray
        One estimate per item, in [0, 1]: 1 exactly when ``n - c < k`` (every draw of
        ``k`` holds a correct answer), 0 when ``c = 0``.

    Raises
    ------
    TypeError, ValueError
        On non-integer, negative or non-numeric counts, ``c > n``, ``k > n`` or
        sequences of different lengths; the message names the argument.

    References
    ----------
    .. [1] Chen, M., Tworek, J., Jun, H. et al. (2021). Evaluating large language models
       trained on code. arXiv:2107.03374, section 2.1, eq. (1) and Figure 3.

    Examples
    --------
    Five answers, two correct, draws of two: ``1 - C(3, 2)/C(5, 2) = 1 - 3/10``.

    >>> from evallib.items import unbiased_pass_at_k
    >>> unbiased_pass_at_k(5, [0, 2, 4], 2).round(4).tolist()
    [0.0, 0.7, 1.0]
    """
    n_arr, c_arr, k = _check_nck(n, c, k)
    return _pass_at_k(n_arr, c_arr, k)


def unbiased_pass_hat_k(n: Any, c: Any, k: int) -> np.ndarray:
    """Per-item unbiased pass^k of Yao et al. (2024): ``C(c, k) / C(n, k)``.

    The probability that all ``k`` answers drawn without replacement from an item's
    ``n`` answers are correct, of which ``c`` are; the unbiased estimator of ``p^k``.
    Computed as ``prod_{m=c+1}^{n} (1 - k/m)`` in log space (0 when ``c < k``).

    Parameters
    ----------
    n, c, k
        As in :func:`unbiased_pass_at_k`.

    Returns
    -------
    numpy.ndarray
        One estimate per item, in [0, 1]: 0 when ``c < k``, 1 when ``c = n``.

    References
    ----------
    .. [1] Yao, S., Shinn, N., Razavi, P. & Narasimhan, K. (2024). tau-bench: a benchmark
       for tool-agent-user interaction in real-world domains. arXiv:2406.12045 (the pass^k metric).

    Examples
    --------
    Five answers, four correct, draws of two: ``C(4, 2)/C(5, 2) = 6/10``.

    >>> from evallib.items import unbiased_pass_hat_k
    >>> unbiased_pass_hat_k(5, [1, 4, 5], 2).round(4).tolist()
    [0.0, 0.6, 1.0]
    """
    n_arr, c_arr, k = _check_nck(n, c, k)
    return _pass_hat_k(n_arr, c_arr, k)


# ------------------------------------------------------------------ item means
def _cluster_index(clusters: Any, n_items: int, name: str = "clusters") -> tuple[np.ndarray, int]:
    """Integer cluster codes ``0..G-1`` per item and ``G``; at least two clusters."""
    labels = check_labels(clusters, name)
    if labels.shape[0] != n_items:
        raise ValueError(f"{name} must hold one label per item: got {labels.shape[0]} labels for "
                         f"{n_items} items")
    try:
        _, codes = np.unique(labels, return_inverse=True)
    except TypeError:  # labels of mixed types that do not sort: code them in order of appearance
        seen: dict = {}
        codes = np.array([seen.setdefault(v, len(seen)) for v in labels.tolist()])
    n_groups = int(codes.max()) + 1
    if n_groups < 2:
        raise ValueError(f"{name} must hold at least 2 distinct clusters for a standard error, got 1")
    return codes.astype(np.intp), n_groups


@renamed_fields(std_error="se")
@dataclass(frozen=True)
class PassInterval(IntervalMixin):
    """An item-mean estimate with its standard error and interval (clipped to [0, 1]).

    Attributes
    ----------
    estimate : the mean over items of the per-item unbiased estimates.
    se : its standard error (cluster-robust when clusters were given).
    low, high : the t interval ``estimate -/+ t_{1-alpha/2, df} se``, clipped to [0, 1].
    """

    estimate: float
    se: float
    low: float
    high: float


@renamed_fields(std_error="se")
@dataclass(frozen=True)
class PassAtK(IntervalMixin):
    """pass@k over items with its interval, and pass^k (all ``k`` correct) with its own.

    Returned by :func:`pass_at_k`; ``str()`` gives :meth:`describe`.

    Attributes
    ----------
    estimate, se, low, high : pass@k, its standard error and its ``1 - alpha``
        t interval, clipped to [0, 1].
    df : the t interval's degrees of freedom, ``n_items - 1`` or ``n_clusters - 1``.
    alpha : the level; the intervals have nominal coverage ``1 - alpha``.
    k : answers drawn per item.
    n_items : number of items.
    n_clusters : number of clusters, or None when the items were not clustered.
    pass_hat_k : :class:`PassInterval` of pass^k, the estimate that all ``k`` are correct.
    """

    estimate: float
    se: float
    low: float
    high: float
    df: int
    alpha: float
    k: int
    n_items: int
    n_clusters: int | None
    pass_hat_k: PassInterval

    def describe(self) -> str:
        """One sentence: pass@k and pass^k with their intervals and what the intervals rest on.

        Returns
        -------
        str
            pass@k and pass^k (all ``k`` correct), each with its ``1 - alpha`` t interval, and
            the items (and clusters, cluster-robust) and df the intervals rest on.
        """
        level = f"{100 * (1 - self.alpha):g}%"
        over = (f"{self.n_items} items in {self.n_clusters} clusters, cluster-robust, {self.df:.3g} df"
                if self.n_clusters is not None else f"{self.n_items} items, {self.df:.3g} df")
        h = self.pass_hat_k
        return (f"pass@{self.k} = {self.estimate:.3f} ({level} interval {self.low:.3f} to {self.high:.3f}) "
                f"and pass^{self.k} (all {self.k} correct) = {h.estimate:.3f} ({level} interval "
                f"{h.low:.3f} to {h.high:.3f}), t intervals over {over}.")

    def __str__(self) -> str:
        return self.describe()


def pass_at_k(n: Any, c: Any, k: int, *, clusters: Any = None, alpha: float = 0.05) -> PassAtK:
    """pass@k averaged over items, with a t interval, and pass^k with its own.

    pass@k is ``(1/N) sum_i [1 - C(n_i - c_i, k) / C(n_i, k)]``, the mean over the ``N``
    items of Chen et al.'s (2021) unbiased per-item estimator (eq. 1,
    :func:`unbiased_pass_at_k`); pass^k is ``(1/N) sum_i C(c_i, k) / C(n_i, k)``
    (Yao et al. 2024, :func:`unbiased_pass_hat_k`), the chance that all ``k`` drawn
    answers are correct. Each item weighs the same.

    The interval treats the items as a sample from a population of items (Miller 2024):
    ``estimate -/+ t_{1-alpha/2, df} * se``.

    * Unclustered: ``se = s / sqrt(N)``, ``s`` the standard deviation of the
      per-item estimates, ``df = N - 1``.
    * With ``clusters``: the CR2 cluster-robust standard error of a mean (Bell &
      McCaffrey 2002), the convention of :func:`evallib.items.item_mean`,
      ``se^2 = sum_g e_g^2 / (1 - n_g/N) / N^2``, ``e_g`` the sum over cluster ``g``
      (of ``n_g`` items) of the per-item deviations from the mean, with the
      Bell–McCaffrey degrees of freedom (``G - 1`` for clusters of equal size, fewer for
      unequal ones). With clusters of equal size it is also statsmodels' CR1 error
      (``OLS(...).fit(cov_type="cluster", use_t=True)``) for a constant; with one item per
      cluster it equals the unclustered error.

    Parameters
    ----------
    n : int or sequence of int
        Answers sampled per item, each ``>= k``.
    c : int or sequence of int
        Correct answers per item, ``0 <= c <= n``; a single number broadcasts.
    k : int
        Answers drawn, ``1 <= k <= min(n)``.
    clusters : sequence of labels, optional
        One cluster label per item (questions on one passage, tasks of one repository);
        at least two distinct clusters.
    alpha : float
        In (0, 1); the intervals have nominal coverage ``1 - alpha``.

    Returns
    -------
    PassAtK
        ``estimate``, ``se``, ``low``, ``high``, ``df``, ``alpha``, ``k``,
        ``n_items``, ``n_clusters`` and ``pass_hat_k`` (a :class:`PassInterval`).

    Raises
    ------
    TypeError, ValueError
        On non-integer, negative or non-numeric counts, ``c > n``, ``k > n``, sequences
        of different lengths, fewer than two items, a cluster label per item missing or
        fewer than two clusters; one sentence naming the argument.

    Notes
    -----
    The intervals are clipped to [0, 1], the range of both quantities: a t interval
    around an estimate near 0 or 1 from few items can cross the bound. When every item
    (or every cluster's deviation sum) gives the same value the standard error is 0 and
    the interval is the single point ``[estimate, estimate]``: the items show no spread,
    which is the data's answer, not a claim of certainty. At ``k = 1`` pass@1 and pass^1
    are both the mean of ``c/n``.

    The t interval rests on the central limit theorem over items. With 100 items of
    ``p ~ Beta(2, 2)`` its coverage is within Monte Carlo error of 95% (the test suite
    checks it, and the clustered interval with 40 clusters); for a rare event from few
    items it under-covers: pass^3 = 0.05 (``p ~ Beta(1, 3)``, 10 answers) from 60 items
    was covered in 90% of 2,000 simulated benchmarks.

    References
    ----------
    .. [1] Chen, M., Tworek, J., Jun, H. et al. (2021). Evaluating large language models
       trained on code. arXiv:2107.03374, section 2.1, eq. (1).
    .. [2] Yao, S., Shinn, N., Razavi, P. & Narasimhan, K. (2024). tau-bench.
       arXiv:2406.12045 (pass^k).
    .. [3] Miller, E. (2024). Adding error bars to evals: a statistical approach to language
       model evaluations. arXiv:2411.00640.
    .. [4] Bell, R. M. & McCaffrey, D. F. (2002). Bias reduction in standard errors for
       linear regression with multi-stage samples. *Survey Methodology*, 28(2), 169-181.

    Examples
    --------
    Four items with five answers each and 0, 1, 3, 5 correct: the per-item pass@2 are
    0, 1 - 6/10, 1 - 1/10 and 1, so pass@2 = 2.3/4 = 0.575; the per-item pass^2 are 0,
    0, 3/10 and 1, so pass^2 = 0.325.

    >>> from evallib.items import pass_at_k
    >>> r = pass_at_k(5, [0, 1, 3, 5], 2)
    >>> round(r.estimate, 3), round(r.pass_hat_k.estimate, 3), r.df
    (0.575, 0.325, 3.0)
    >>> print(r)  # doctest: +ELLIPSIS
    pass@2 = 0.575 (95% interval 0.000 to 1.000) and pass^2 (all 2 correct) = 0.325 ...
    """
    n, c, clusters = align_items([("n", n), ("c", c), ("clusters", clusters)])
    n_arr, c_arr, k = _check_nck(n, c, k)
    alpha = check_alpha(alpha)
    n_items = int(n_arr.size)
    if n_items < 2:
        raise ValueError("n and c must describe at least 2 items for a standard error across items, got 1")
    codes, n_groups = (None, n_items) if clusters is None else _cluster_index(clusters, n_items)
    values = np.column_stack([_pass_at_k(n_arr, c_arr, k), _pass_hat_k(n_arr, c_arr, k)])
    mean, se, df = _mean_se(values, codes, n_groups)
    half = float(stats.t.isf(alpha / 2, df)) * se
    low = np.clip(mean - half, 0.0, 1.0)
    high = np.clip(mean + half, 0.0, 1.0)
    hat = PassInterval(float(mean[1]), float(se[1]), float(low[1]), float(high[1]))
    return PassAtK(float(mean[0]), float(se[0]), float(low[0]), float(high[0]), float(df), alpha, k,
                   n_items, None if codes is None else n_groups, hat)
