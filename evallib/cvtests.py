"""t-tests over cross-validation results.

The textbook section *Estimating Confidence Intervals* (Han & Kamber style) and
Flach (2012), *Machine Learning*, section 12.3 (Example 12.6):

* the paired t-test over ``k`` rounds of cross-validation, ``k - 1`` degrees of
  freedom: ``t = mean(d) / sqrt(var(d) / k)`` with ``d_i = err(M1)_i - err(M2)_i``
  and ``var`` the sample variance (divisor ``k - 1``) (:func:`cv_ttest`);
* the non-paired variant for two test sets: the variance of the difference of the
  means is ``var(M1)/k1 + var(M2)/k2`` and the degrees of freedom are the smaller
  of the two models' (``min(k1, k2) - 1``) (:func:`cv_ttest` with ``paired=False``).

The formulas of the textbook were images lost in extraction; the forms above are
the ones its text describes (and the README of the sources states).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from ._validate import check_alpha, check_choice

__all__ = [
    "CVTTestResult",
    "cv_ttest",
]


# ------------------------------------------------------------------- validation
def _check_scores(values: Any, name: str, *, minimum: int = 2) -> np.ndarray:
    """Return a 1-D float array of at least ``minimum`` finite scores."""
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"{name} must be a sequence of per-fold scores, got {type(values).__name__}")
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of numbers (per-fold scores)") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (one score per fold), got shape {arr.shape}")
    if arr.size < minimum:
        raise ValueError(
            f"{name} must hold at least {minimum} scores (folds or rounds), got {arr.size}"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite scores")
    return arr


_RTOL = 1e-12


def _tolerance(*arrays: np.ndarray) -> float:
    """Absolute tolerance for "zero": 1e-12 relative to the largest score (at least 1)."""
    return _RTOL * max(1.0, *(float(np.max(np.abs(x))) for x in arrays))


def _is_constant(values: np.ndarray, tol: float) -> bool:
    """Whether all values are equal up to ``tol``."""
    return float(np.ptp(values)) <= tol


def _t_result(
    mean: float, var_of_mean: float, constant: bool, df: float, tol: float
) -> tuple[float, float, float]:
    """Statistic, p-value and standard error, with the documented zero-variance answers."""
    if constant:
        if abs(mean) <= tol:
            return 0.0, 1.0, 0.0
        return float(np.copysign(np.inf, mean)), 0.0, 0.0
    se = float(np.sqrt(var_of_mean))
    t = mean / se
    return float(t), float(2.0 * stats.t.sf(abs(t), df)), se


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class CVTTestResult:
    """Result of a t-test on cross-validation scores.

    Attributes
    ----------
    statistic : the t statistic, ``mean_difference / std_error``.
    df : degrees of freedom of the reference t distribution.
    pvalue : two-sided p-value.
    mean_difference : mean score of model 1 minus mean score of model 2.
    std_error : the estimated standard error of ``mean_difference``.
    method : ``"paired"``, ``"non-paired"``, ``"corrected-resampled"`` or ``"5x2cv"``.
    n_1, n_2 : number of scores of each model.
    """

    statistic: float
    df: float
    pvalue: float
    mean_difference: float
    std_error: float
    method: str
    n_1: int
    n_2: int

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """The ``1 - alpha`` confidence interval ``mean_difference +- t_{1-alpha/2, df} * std_error``.

        The textbook's "confidence limits" for the difference of the two models.
        """
        alpha = check_alpha(alpha)
        half = float(stats.t.ppf(1.0 - alpha / 2.0, self.df)) * self.std_error
        return self.mean_difference - half, self.mean_difference + half

    def rejects(self, alpha: float = 0.05) -> bool:
        """Whether the null hypothesis of equal performance is rejected at level ``alpha``."""
        return self.pvalue < check_alpha(alpha)


# ------------------------------------------------------------------- the tests
NONPAIRED_DF = ("min", "welch")


def cv_ttest(
    scores_1: Any, scores_2: Any, *, paired: bool = True, nonpaired_df: str = "min"
) -> CVTTestResult:
    """The textbook's t-test comparing two models over cross-validation rounds.

    Paired (one partitioning shared by both models, round ``i`` gives
    ``err(M1)_i`` and ``err(M2)_i``)::

        d_i = s1_i - s2_i,   t = mean(d) / sqrt(var(d) / k),   df = k - 1

    where ``var`` is the sample variance (divisor ``k - 1``). This is also Flach's
    paired t-test of Example 12.6 (differences per fold, ``k - 1 = 9`` df).

    Non-paired (two test sets, ``k1`` and ``k2`` rounds)::

        t = (mean(s1) - mean(s2)) / sqrt(var(s1)/k1 + var(s2)/k2),
        df = min(k1, k2) - 1

    the textbook's "minimum number of degrees of the two models". With
    ``nonpaired_df="welch"`` the Welch-Satterthwaite df is used instead (the
    statistic is the same).

    Parameters
    ----------
    scores_1, scores_2 : sequence of float
        Per-round (or per-fold) scores of the two models: error rates, accuracies,
        any measure. At least two each; equal lengths when ``paired``.
    paired : bool
        Paired test (default) or the non-paired variant.
    nonpaired_df : {"min", "welch"}
        Degrees of freedom of the non-paired test; ignored when ``paired``.

    Returns
    -------
    CVTTestResult
        ``statistic, df, pvalue`` (two-sided), ``mean_difference`` (model 1 minus
        model 2), ``std_error``, ``method``, ``n_1, n_2``.

    Raises
    ------
    ValueError
        Fewer than two scores, lengths that differ (paired), NaN or infinite scores.
    TypeError
        Scores that are not a sequence of numbers.

    Notes
    -----
    Degenerate but legal input: when the differences (paired) or both score lists
    (non-paired) have zero variance the t statistic is 0/0 or x/0. The answer is
    defined, never NaN: if the mean difference is 0 too (e.g. identical scores)
    there is no evidence of a difference, ``statistic = 0, pvalue = 1``; otherwise
    the difference is the same in every round and ``statistic = +-inf,
    pvalue = 0``. ``std_error`` is 0 in both cases. "Zero" means equal up to
    ``1e-12`` relative to the largest absolute score (at least 1), so that floating-point
    rounding of equal differences does not produce a huge spurious t.
    """
    if not isinstance(paired, (bool, np.bool_)):
        raise TypeError(f"paired must be True or False, got {paired!r}")
    a = _check_scores(scores_1, "scores_1")
    b = _check_scores(scores_2, "scores_2")
    if paired:
        if a.size != b.size:
            raise ValueError(
                f"scores_1 has {a.size} scores but scores_2 has {b.size}; a paired test needs "
                "one score of each model per round"
            )
        d = a - b
        k = d.size
        df = k - 1
        mean = float(np.mean(d))
        tol = _tolerance(a, b)
        stat, p, se = _t_result(mean, float(np.var(d, ddof=1)) / k, _is_constant(d, tol), df, tol)
        return CVTTestResult(stat, float(df), p, mean, se, "paired", k, k)
    check_choice(nonpaired_df, "nonpaired_df", NONPAIRED_DF)
    k1, k2 = a.size, b.size
    v1, v2 = float(np.var(a, ddof=1)) / k1, float(np.var(b, ddof=1)) / k2
    mean = float(np.mean(a) - np.mean(b))
    if nonpaired_df == "min":
        df = float(min(k1, k2) - 1)
    elif v1 + v2 > 0:
        df = (v1 + v2) ** 2 / (v1**2 / (k1 - 1) + v2**2 / (k2 - 1))
    else:
        df = float(k1 + k2 - 2)
    tol = _tolerance(a, b)
    constant = _is_constant(a, tol) and _is_constant(b, tol)
    stat, p, se = _t_result(mean, v1 + v2, constant, df, tol)
    return CVTTestResult(stat, float(df), p, mean, se, "non-paired", k1, k2)
