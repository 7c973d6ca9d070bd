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

Why the naive test misleads, and two remedies from the literature the textbook
does not cover:

* Nadeau & Bengio (2003), *Inference for the generalization error*, Machine
  Learning 52: the corrected resampled t-test, which inflates the variance by
  ``1/J + n_test/n_train`` instead of ``1/J`` to account for the overlap of the
  training sets (:func:`corrected_resampled_ttest`);
* Dietterich (1998), *Approximate statistical tests for comparing supervised
  classification learning algorithms*, Neural Computation 10: the 5x2cv paired
  t-test (:func:`dietterich_5x2cv`).

:func:`cross_validate_scores` produces the per-fold scores of scikit-learn
learners on shared partitions (so that the scores are paired), and
:func:`simulate_equal_learners` / :func:`rejection_rates` /
:func:`plot_rejection_rates` measure how often each test rejects when the two
learners are equally good by construction.

:func:`simulate_unequal_learners` / :func:`power_by_repeats` /
:func:`plot_power_by_repeats` do the same when one learner is better by a known
accuracy difference: each test's power, and how it changes with the repeats.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_fields
from .._extras import require
from .._inference import ZERO_RTOL, check_alternative, critical_value, t_inference
from .._plotting import clear_artists, get_axes
from .._progress import progress_bar
from .._results import table_metadata
from .._validate import (
    align_items,
    check_alpha,
    check_array,
    check_choice,
    check_count,
    check_labels,
    check_real,
    check_rng,
    sklearn_random_state,
)

__all__ = [
    "CVTTestResult",
    "cv_ttest",
    "corrected_resampled_ttest",
    "dietterich_5x2cv",
    "CombinedFTestResult",
    "combined_5x2cv_ftest",
    "cross_validate_scores",
    "paired_scores",
    "compare_cv_scores",
    "equal_learners_data",
    "stratified_test_folds",
    "simulate_equal_learners",
    "rejection_rates",
    "plot_rejection_rates",
    "unequal_learners_data",
    "simulate_unequal_learners",
    "power_by_repeats",
    "plot_power_by_repeats",
    "rejection_study",
    "rejection_sweep",
    "SWEEP_PARAMETERS",
    "SIMULATED_TESTS",
]


# ------------------------------------------------------------------- validation
def _check_scores(values: Any, name: str) -> np.ndarray:
    """Return a 1-D float array of at least 2 finite per-fold scores."""
    return check_array(values, name, minimum=2, what="scores", each="one per fold or round")


def _scale(*arrays: np.ndarray) -> float:
    """The magnitude of the scores, at least 1: the ``scale`` of evallib's zero-variance rule."""
    return max(1.0, *(float(np.max(np.abs(x))) for x in arrays))


def _tolerance(*arrays: np.ndarray) -> float:
    """Absolute tolerance for "zero": ``ZERO_RTOL`` relative to the largest score (at least 1)."""
    return ZERO_RTOL * _scale(*arrays)


def _t_result(
    mean: float, var_of_mean: float, df: float, scale: float, alternative: str = "two-sided"
) -> tuple[float, float, float, float]:
    """Statistic, p-value, standard error and estimate by evallib's t core (:mod:`evallib._inference`)."""
    res = t_inference(mean, float(np.sqrt(max(var_of_mean, 0.0))), df=df, alternative=alternative, scale=scale)
    return res.statistic, res.pvalue, res.se, res.estimate


# ---------------------------------------------------------------------- results
@renamed_fields(std_error="se")
@dataclass(frozen=True)
class CVTTestResult:
    """Result of a t-test on cross-validation scores.

    Attributes
    ----------
    statistic : the t statistic, ``mean_difference / se``.
    df : degrees of freedom of the reference t distribution.
    pvalue : p-value for ``alternative`` (two-sided by default).
    mean_difference : mean score of model 1 minus mean score of model 2.
    se : the estimated standard error of ``mean_difference``.
    method : ``"paired"``, ``"non-paired"``, ``"corrected-resampled"`` or ``"5x2cv"``.
    n_1, n_2 : number of scores of each model.
    alternative : ``"two-sided"``, ``"less"`` (H1: model 1's mean score is below model 2's)
        or ``"greater"`` (above it).
    """

    statistic: float
    df: float
    pvalue: float
    mean_difference: float
    se: float
    method: str
    n_1: int
    n_2: int
    alternative: str = "two-sided"

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """The ``1 - alpha`` confidence interval ``mean_difference +- t_{1-alpha/2, df} * se``.

        The textbook's "confidence limits" for the difference of the two models. For a
        one-sided ``alternative`` the one-sided interval the test inverts:
        ``[mean_difference - t_{1-alpha, df} se, inf)`` for ``"greater"``,
        ``(-inf, mean_difference + t_{1-alpha, df} se]`` for ``"less"``.

        Parameters
        ----------
        alpha : float
            In (0, 1): the interval's coverage is ``1 - alpha`` (default 0.05).

        Returns
        -------
        tuple of float
            ``(low, high)``; ``low = -inf`` for ``"less"``, ``high = inf`` for ``"greater"``.
        """
        alpha = check_alpha(alpha)
        half = critical_value(alpha, self.df, self.alternative) * self.se
        return (self.mean_difference - half if self.alternative != "less" else -np.inf,
                self.mean_difference + half if self.alternative != "greater" else np.inf)

    def reject(self, alpha: float = 0.05) -> bool:
        """Whether the null hypothesis of equal performance is rejected: ``pvalue <= alpha``.

        Parameters
        ----------
        alpha : float
            The significance level, in (0, 1) (default 0.05).

        Returns
        -------
        bool
            ``pvalue <= alpha``.
        """
        return self.pvalue <= check_alpha(alpha)


# ------------------------------------------------------------------- the tests
NONPAIRED_DF = ("min", "welch")


def cv_ttest(
    scores_1: Any, scores_2: Any, *, paired: bool = True, nonpaired_df: str = "min",
    alternative: str = "two-sided",
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
    ``nonpaired_df="welch"`` the Welch–Satterthwaite df is used instead (the
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
    alternative : {"two-sided", "less", "greater"}
        H1: the models' mean scores differ (default), model 1's is lower (``"less"``) or
        higher (``"greater"``); scipy's ``ttest_rel`` / ``ttest_ind`` spelling.

    Returns
    -------
    CVTTestResult
        ``statistic, df, pvalue`` (for ``alternative``), ``mean_difference`` (model 1 minus
        model 2), ``se``, ``method``, ``n_1, n_2``, ``alternative``.

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
    pvalue = 0`` (1 for a one-sided alternative in the other direction). ``se``
    is 0 in both cases. "Zero" means at most ``1e-12`` times the largest absolute score
    (at least 1), so that floating-point rounding of equal differences does not produce
    a huge spurious t: evallib's one zero-variance rule (:mod:`evallib._inference`).

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.
    .. [2] The textbook section *Estimating Confidence Intervals* (in the style of Han & Kamber,
       *Data Mining: Concepts and Techniques*): the paired t-test over cross-validation rounds.

    Examples
    --------
    Example 12.6: naive Bayes against the decision tree over Example 12.4's ten folds;
    the book prints p = 0.0369.

    >>> from evallib import cv_ttest
    >>> from evallib.studies import flach_example_12_4
    >>> acc = flach_example_12_4()
    >>> round(cv_ttest(acc["Naive Bayes"], acc["Decision tree"]).pvalue, 4)
    0.0369
    """
    if not isinstance(paired, (bool, np.bool_)):
        raise TypeError(f"paired must be True or False, got {paired!r}")
    alternative = check_alternative(alternative)
    scores_1, scores_2 = align_items([("scores_1", scores_1), ("scores_2", scores_2)])
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
        stat, p, se, mean = _t_result(mean, float(np.var(d, ddof=1)) / k, df, _scale(a, b), alternative)
        return CVTTestResult(stat, float(df), p, mean, se, "paired", k, k, alternative)
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
    stat, p, se, mean = _t_result(mean, v1 + v2, df, _scale(a, b), alternative)
    return CVTTestResult(stat, float(df), p, mean, se, "non-paired", k1, k2, alternative)


def _check_paired(scores_1: Any, scores_2: Any) -> tuple[np.ndarray, np.ndarray]:
    scores_1, scores_2 = align_items([("scores_1", scores_1), ("scores_2", scores_2)])
    a = _check_scores(scores_1, "scores_1")
    b = _check_scores(scores_2, "scores_2")
    if a.size != b.size:
        raise ValueError(
            f"scores_1 has {a.size} scores but scores_2 has {b.size}; a paired test needs "
            "one score of each model per fold"
        )
    return a, b


def corrected_resampled_ttest(
    scores_1: Any, scores_2: Any, *, test_train_ratio: float, alternative: str = "two-sided"
) -> CVTTestResult:
    """Nadeau & Bengio's corrected resampled t-test over ``J`` paired fold scores.

    The ``J`` fold scores of (repeated) cross-validation are not independent: the
    training sets overlap, and every repetition reuses the same data. The naive
    paired t-test divides the sample variance of the differences by ``J`` and so
    underestimates the variance of their mean. Nadeau & Bengio (2003, Machine
    Learning 52, 239-281, the "corrected resampled t-test" in the form of
    Bouckaert & Frank 2004) replace ``1/J`` by ``1/J + n_test/n_train``::

        d_j = s1_j - s2_j,   t = mean(d) / sqrt((1/J + n_test/n_train) * var(d)),
        df = J - 1

    For ``r`` repetitions of ``k``-fold cross-validation, ``J = r k`` and
    ``n_test/n_train = 1/(k - 1)``.

    Parameters
    ----------
    scores_1, scores_2 : sequence of float
        Paired per-fold scores of the two learners (same partitions), at least two.
    test_train_ratio : float
        ``n_test / n_train``, >= 0. With 0 the test is the naive paired t-test.
    alternative : {"two-sided", "less", "greater"}
        As in :func:`cv_ttest`: ``"greater"`` is H1 "learner 1 scores higher".

    Returns
    -------
    CVTTestResult
        With ``method="corrected-resampled"`` and ``df = J - 1``.

    Raises
    ------
    ValueError
        Fewer than two scores, lengths that differ, NaN/infinite scores, or a
        negative, infinite or NaN ``test_train_ratio``.

    Notes
    -----
    Zero variance of the differences is answered as in :func:`cv_ttest`:
    ``statistic = 0, pvalue = 1`` if the mean difference is 0 too, else
    ``statistic = +-inf, pvalue = 0``.
    """
    a, b = _check_paired(scores_1, scores_2)
    ratio = check_real(test_train_ratio, "test_train_ratio", low=0, note="n_test / n_train")
    alternative = check_alternative(alternative)
    d = a - b
    j = d.size
    mean = float(np.mean(d))
    var_of_mean = (1.0 / j + ratio) * float(np.var(d, ddof=1))
    stat, p, se, mean = _t_result(mean, var_of_mean, j - 1, _scale(a, b), alternative)
    return CVTTestResult(stat, float(j - 1), p, mean, se, "corrected-resampled", j, j, alternative)


def _check_5x2(values: Any, name: str) -> np.ndarray:
    arr = check_array(values, name, ndim=(1, 2), minimum=0, what="scores", each="r replications x 2 folds")
    if arr.ndim == 1 and arr.size % 2 == 0:
        arr = arr.reshape(-1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] < 1:
        raise ValueError(
            f"{name} must have shape (r, 2): r replications of 2-fold cross-validation "
            f"(or 2r scores, replication by replication), got shape {np.shape(values)}"
        )
    return arr


def dietterich_5x2cv(scores_1: Any, scores_2: Any) -> CVTTestResult:
    """Dietterich's 5x2cv paired t-test.

    Five replications of 2-fold cross-validation; in replication ``i`` the two
    learners' score differences on the two folds are ``p_i1`` and ``p_i2``, with
    mean ``pbar_i`` and variance estimate ``s_i^2 = (p_i1 - pbar_i)^2 +
    (p_i2 - pbar_i)^2``. Dietterich (1998, Neural Computation 10, 1895-1923,
    eq. for t~)::

        t = p_11 / sqrt((1/5) * sum_i s_i^2),   df = 5

    Only the first fold's difference enters the numerator. The function accepts
    any number ``r`` of replications (``df = r``); Dietterich's test has ``r = 5``.

    Parameters
    ----------
    scores_1, scores_2 : array of shape (r, 2), or 2r scores
        Per-fold scores, row ``i`` holding replication ``i``'s two folds (a flat
        sequence is read replication by replication: ``[rep1 fold1, rep1 fold2,
        rep2 fold1, ...]``, the order of :func:`cross_validate_scores`).

    Returns
    -------
    CVTTestResult
        With ``method="5x2cv"``, ``df = r``, ``mean_difference = p_11`` (the
        numerator) and ``se = sqrt(mean_i s_i^2)``, so that
        ``statistic = mean_difference / se``.

    Raises
    ------
    ValueError
        Shapes other than (r, 2) or that differ, NaN/infinite scores.

    Notes
    -----
    If every replication's two differences are equal (all ``s_i^2 = 0``):
    ``statistic = 0, pvalue = 1`` when ``p_11 = 0``, else ``+-inf`` and ``0``.
    """
    scores_1, scores_2 = align_items([("scores_1", scores_1), ("scores_2", scores_2)])
    a = _check_5x2(scores_1, "scores_1")
    b = _check_5x2(scores_2, "scores_2")
    if a.shape != b.shape:
        raise ValueError(f"scores_1 has shape {a.shape} but scores_2 has {b.shape}; the scores must be paired")
    d = a - b
    r = d.shape[0]
    s2 = np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)
    stat, p, se, p11 = _t_result(float(d[0, 0]), float(np.mean(s2)), r, _scale(a, b))
    return CVTTestResult(stat, float(r), p, p11, se, "5x2cv", 2 * r, 2 * r)


@dataclass(frozen=True)
class CombinedFTestResult:
    """Alpaydın's combined 5x2cv F test.

    Attributes
    ----------
    statistic : ``f = sum_ij p_ij^2 / (2 sum_i s_i^2)``.
    df : ``(2r, r)``, the F distribution's degrees of freedom (``(10, 5)`` for 5x2cv).
    pvalue : ``P(F >= f)``.
    reject : ``pvalue <= alpha``.
    alpha : the level.
    method : ``"combined-5x2cv-F"``.
    """

    statistic: float
    df: tuple[int, int]
    pvalue: float
    reject: bool
    alpha: float
    method: str = "combined-5x2cv-F"


def combined_5x2cv_ftest(scores_1: Any, scores_2: Any, *, alpha: float = 0.05) -> CombinedFTestResult:
    """Alpaydın's combined 5x2cv F test.

    Dietterich's 5x2cv t statistic uses only one of the ten differences in its
    numerator, so its value depends on which fold happens to come first.
    Alpaydın (1999) combines all of them: with ``p_ij`` the score difference in
    fold ``j`` of replication ``i`` and ``s_i^2`` as in :func:`dietterich_5x2cv`,
    ::

        f = sum_i sum_j p_ij^2 / (2 sum_i s_i^2)

    is approximately F-distributed with ``2r = 10`` and ``r = 5`` degrees of freedom
    under the null hypothesis (eq. 4 of the paper). The test is one-sided in
    ``f`` (large values reject), two-sided in the direction of the difference.

    Parameters
    ----------
    scores_1, scores_2 : array of shape (r, 2), or 2r scores
        Per-fold scores as for :func:`dietterich_5x2cv`; ``r = 5`` is Alpaydın's test.
    alpha : float
        Level in (0, 1).

    Returns
    -------
    CombinedFTestResult

    Notes
    -----
    If every ``s_i^2 = 0`` (each replication's two differences equal): ``f = 0``,
    ``pvalue = 1`` when all differences are 0, else ``f = inf``, ``pvalue = 0``
    (the same tolerance as the t-tests here).

    References
    ----------
    Alpaydın, E. (1999). Combined 5x2 cv F test for comparing supervised
    classification learning algorithms. Neural Computation 11, 1885-1892.

    Examples
    --------
    Differences 0.02 and 0 in each of five replications: by hand, the numerator is
    ``5 x 0.02^2 = 0.002`` and each ``s_i^2 = 2 x 0.01^2``, so ``f = 0.002 / 0.002 = 1``,
    far below F(10, 5)'s 5% critical value 4.74:

    >>> res = combined_5x2cv_ftest([[0.82, 0.80]] * 5, [[0.80, 0.80]] * 5)
    >>> round(res.statistic, 6), res.df, res.reject
    (1.0, (10, 5), False)
    """
    alpha = check_alpha(alpha)
    scores_1, scores_2 = align_items([("scores_1", scores_1), ("scores_2", scores_2)])
    a = _check_5x2(scores_1, "scores_1")
    b = _check_5x2(scores_2, "scores_2")
    if a.shape != b.shape:
        raise ValueError(f"scores_1 has shape {a.shape} but scores_2 has {b.shape}; the scores must be paired")
    d = a - b
    r = d.shape[0]
    s2 = np.sum((d - d.mean(axis=1, keepdims=True)) ** 2, axis=1)
    tol = _tolerance(a, b)
    num = float(np.sum(d ** 2))
    if bool(np.all(np.abs(d[:, 0] - d[:, 1]) <= tol)):
        if np.all(np.abs(d) <= tol):
            f, p = 0.0, 1.0
        else:
            f, p = float("inf"), 0.0
    else:
        f = num / (2.0 * float(np.sum(s2)))
        p = float(stats.f.sf(f, 2 * r, r))
    return CombinedFTestResult(statistic=float(f), df=(2 * r, r), pvalue=p, reject=p <= alpha, alpha=alpha)


# ------------------------------------------------------------ cross-validation
def _check_learners(learners: Any) -> dict[str, Any]:
    require("sklearn", "cross_validate_scores")
    from sklearn.base import clone

    if isinstance(learners, Mapping):
        items = list(learners.items())
    elif isinstance(learners, (list, tuple)):
        items, seen = [], {}
        for est in learners:
            base = type(est).__name__
            seen[base] = seen.get(base, 0) + 1
            items.append((base if seen[base] == 1 else f"{base}_{seen[base]}", est))
    else:
        raise TypeError(
            "learners must be a dict {name: scikit-learn estimator} or a list of estimators, "
            f"got {type(learners).__name__}"
        )
    if not items:
        raise ValueError("learners must hold at least one estimator")
    out = {}
    for name, est in items:
        if not (hasattr(est, "fit") and hasattr(est, "get_params")):
            raise TypeError(f"learners[{name!r}] must be a scikit-learn estimator (with fit and get_params)")
        clone(est)  # fails early on estimators that cannot be cloned
        out[str(name)] = est
    if len(out) != len(items):
        raise ValueError("learners must have distinct names")
    return out


def _take(X: Any, idx: np.ndarray) -> Any:
    return X.iloc[idx] if hasattr(X, "iloc") else X[idx]


def cross_validate_scores(
    X: Any,
    y: Any,
    learners: Any,
    *,
    folds: int = 10,
    repeats: int = 1,
    stratified: bool = True,
    rng: Any = None,
    scoring: Any = "accuracy",
) -> pd.DataFrame:
    """Per-fold scores of learners under (repeated) k-fold cross-validation.

    Every learner is trained and tested on the *same* partitions, so that the
    scores are paired fold by fold, as the textbook's paired t-test requires
    ("for the ith round ... the same cross-validation partitioning is used to
    obtain an error rate for M1 and an error rate for M2"). Partitions come from
    scikit-learn's ``RepeatedStratifiedKFold`` (or ``RepeatedKFold``), each
    repetition an independent random partitioning; each learner is cloned and
    refitted on every training part.

    Parameters
    ----------
    X : array-like or DataFrame, shape (n, p)
    y : array-like, shape (n,)
        Class labels, no NaN.
    learners : dict {name: estimator} or list of estimators
        scikit-learn estimators (pipelines included). A list is named by class
        (``GaussianNB``, ``GaussianNB_2``, ...). Estimators with their own
        randomness keep their own ``random_state``.
    folds : int
        ``k >= 2``; with ``stratified`` at most the size of the smallest class.
    repeats : int
        Number of independent partitionings, ``>= 1`` (10 x 10-fold: ``repeats=10``).
    stratified : bool
        Keep the class proportions in every fold (Flach: "stratified cross-validation").
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The partitions: an int is passed to scikit-learn as ``random_state``;
        otherwise one is drawn from ``check_rng(rng)`` (``None``: fresh entropy,
        not reproducible).
    scoring : str or callable
        A scikit-learn scorer name or ``scorer(estimator, X, y)``; default accuracy.

    Returns
    -------
    pandas.DataFrame
        One row per learner, repetition and fold: ``learner``, ``repeat``
        (0-based), ``fold`` (0-based), ``score``, ``n_train``, ``n_test``. The
        settings are in ``.attrs`` (``folds``, ``repeats``, ``stratified``,
        ``random_state``, ``scoring``).

    Raises
    ------
    ValueError
        ``folds < 2``, ``repeats < 1``, more folds than cases (or than the smallest
        class when stratified), X and y of different lengths, NaN labels, no learners.
    TypeError
        Learners that are not estimators, a bad ``rng``.
    """
    require("sklearn", "cross_validate_scores")
    from sklearn.base import clone
    from sklearn.metrics import check_scoring
    from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold

    folds = check_count(folds, "folds", minimum=2)
    repeats = check_count(repeats, "repeats", minimum=1)
    if not isinstance(stratified, (bool, np.bool_)):
        raise TypeError(f"stratified must be True or False, got {stratified!r}")
    yv = check_labels(y, "y")
    Xv = X if hasattr(X, "iloc") else np.asarray(X)
    if Xv.ndim != 2:
        raise ValueError(f"X must be two-dimensional (cases x features), got shape {Xv.shape}")
    if Xv.shape[0] != yv.shape[0]:
        raise ValueError(f"X has {Xv.shape[0]} rows but y has {yv.shape[0]} labels; they must match")
    if folds > yv.shape[0]:
        raise ValueError(f"folds must be at most the number of cases ({yv.shape[0]}), got {folds}")
    if stratified:
        smallest = int(np.min(np.unique(yv, return_counts=True)[1]))
        if folds > smallest:
            raise ValueError(
                f"folds must be at most the size of the smallest class ({smallest}) for "
                f"stratified cross-validation, got {folds}; lower folds or use stratified=False"
            )
    models = _check_learners(learners)
    random_state = sklearn_random_state(rng)
    splitter_cls = RepeatedStratifiedKFold if stratified else RepeatedKFold
    splitter = splitter_cls(n_splits=folds, n_repeats=repeats, random_state=random_state)
    scorers = {name: check_scoring(est, scoring=scoring) for name, est in models.items()}
    rows = []
    for s, (train, test) in enumerate(splitter.split(np.zeros((yv.shape[0], 1)), yv)):
        Xtr, Xte, ytr, yte = _take(Xv, train), _take(Xv, test), yv[train], yv[test]
        for name, est in models.items():
            fitted = clone(est).fit(Xtr, ytr)
            score = float(scorers[name](fitted, Xte, yte))
            rows.append((name, s // folds, s % folds, score, train.size, test.size))
    table = pd.DataFrame(rows, columns=["learner", "repeat", "fold", "score", "n_train", "n_test"])
    table.attrs.update(folds=folds, repeats=repeats, stratified=bool(stratified),
                       random_state=random_state, scoring=scoring if isinstance(scoring, str) else "custom")
    return table


def paired_scores(
    table: pd.DataFrame, learner_1: str, learner_2: str, *, per: str = "fold"
) -> tuple[np.ndarray, np.ndarray]:
    """The two learners' scores from :func:`cross_validate_scores`, aligned.

    Parameters
    ----------
    table : DataFrame from :func:`cross_validate_scores`
    learner_1, learner_2 : str
        Learner names in ``table``.
    per : {"fold", "repeat"}
        ``"fold"``: the ``r k`` fold scores, ordered by repetition then fold;
        ``"repeat"``: the ``r`` per-repetition means (the textbook's "error rate
        of round i", one k-fold cross-validation each).

    Returns
    -------
    tuple of two numpy arrays
    """
    check_choice(per, "per", ("fold", "repeat"))
    missing = {"learner", "repeat", "fold", "score"} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with cross_validate_scores()")
    out = []
    for arg, name in (("learner_1", learner_1), ("learner_2", learner_2)):
        part = table[table["learner"] == name]
        if part.empty:
            known = ", ".join(repr(v) for v in pd.unique(table["learner"]))
            raise ValueError(f"{arg} = {name!r} is not in the table; its learners are {known}")
        part = part.sort_values(["repeat", "fold"])
        out.append(part.groupby("repeat")["score"].mean() if per == "repeat" else part.set_index(["repeat", "fold"])["score"])
    s1, s2 = out
    if not s1.index.equals(s2.index):
        raise ValueError(f"learner_1 = {learner_1!r} and learner_2 = {learner_2!r} were not scored on the same "
                         f"(repeat, fold) pairs; cannot pair them")
    return s1.to_numpy(dtype=float), s2.to_numpy(dtype=float)


def _cv_ttests(a: np.ndarray, b: np.ndarray, *, rounds: tuple | None, ratio: float,
               five_by_two: tuple | None) -> dict[str, CVTTestResult]:
    """The cross-validation t-tests of two learners, named as in :data:`SIMULATED_TESTS`.

    The one place they are assembled (for :func:`compare_cv_scores` and
    :func:`simulate_equal_learners`): the naive paired t-test on the fold scores ``a``,
    ``b``; the textbook's test on the per-repetition means ``rounds`` (when there are at
    least two); Nadeau & Bengio's corrected test with ``ratio = n_test / n_train``; and
    Dietterich's 5x2cv test on the ``(r, 2)`` score arrays ``five_by_two`` when given.
    """
    results = {SIMULATED_TESTS[0]: cv_ttest(a, b)}
    if rounds is not None and len(rounds[0]) >= 2:
        results[SIMULATED_TESTS[1]] = cv_ttest(*rounds)
    results[SIMULATED_TESTS[2]] = corrected_resampled_ttest(a, b, test_train_ratio=ratio)
    if five_by_two is not None:
        results[SIMULATED_TESTS[3]] = dietterich_5x2cv(*five_by_two)
    return results


def compare_cv_scores(table: pd.DataFrame, learner_1: str, learner_2: str) -> pd.DataFrame:
    """All the applicable t-tests for two learners of a :func:`cross_validate_scores` table.

    Rows (``test`` column):

    * ``"paired t, all folds"``: :func:`cv_ttest` on the ``r k`` fold scores
      (``r k - 1`` df; with ``r = 1`` this is Flach's Example 12.6);
    * ``"paired t, round means"``: the textbook's test on the ``r`` per-repetition
      means (``r - 1`` df; only when ``r >= 2``);
    * ``"corrected resampled t"``: :func:`corrected_resampled_ttest` with
      ``n_test / n_train`` from the table's fold sizes;
    * ``"5x2cv t"``: :func:`dietterich_5x2cv`, only when ``folds == 2``.

    Parameters
    ----------
    table : pandas.DataFrame
        What :func:`cross_validate_scores` returned (columns ``learner``, ``repeat``,
        ``fold``, ``score``; with ``n_train`` and ``n_test`` the corrected test uses their
        ratio, otherwise ``1 / (folds - 1)``).
    learner_1, learner_2 : str
        The two learners' names in ``table``'s ``learner`` column.

    Returns
    -------
    pandas.DataFrame
        Columns ``test, statistic, df, pvalue, mean_difference, se``
        (differences are learner_1 minus learner_2).
    """
    s1, s2 = paired_scores(table, learner_1, learner_2, per="fold")
    rounds = paired_scores(table, learner_1, learner_2, per="repeat")
    part = table[table["learner"] == learner_1]
    folds = int(table["fold"].max()) + 1
    if {"n_train", "n_test"} <= set(table.columns):
        ratio = float(part["n_test"].mean() / part["n_train"].mean())
    else:
        ratio = 1.0 / (folds - 1)
    five_by_two = (s1.reshape(-1, 2), s2.reshape(-1, 2)) if folds == 2 else None
    results = _cv_ttests(s1, s2, rounds=rounds, ratio=ratio, five_by_two=five_by_two)
    return pd.DataFrame(
        [{"test": name, "statistic": r.statistic, "df": r.df, "pvalue": r.pvalue,
          "mean_difference": r.mean_difference, "se": r.se} for name, r in results.items()]
    )


# ------------------------------------------------------------------ simulation
SIMULATED_TESTS = ("paired t, all folds", "paired t, round means", "corrected resampled t", "5x2cv t")


def _check_bayes_error(value: Any) -> float:
    return check_real(value, "bayes_error", low=0, high=0.5, low_open=True, high_open=True)


def equal_learners_data(
    n_samples: int, *, bayes_error: float = 0.25, rng: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """A data set on which two learners are equally good by construction.

    ``n_samples`` cases, half in each class (the odd one in class 1); given the
    class ``y``, the two features are independent normals with unit variance and
    means ``-mu`` (class 0) and ``+mu`` (class 1), ``mu = Phi^{-1}(1 - bayes_error)``.
    Each feature on its own therefore has Bayes error ``bayes_error``, and the two
    features are exchangeable: a learner that sees only feature 0 and the same
    learner that sees only feature 1 have the same expected error for every
    training-set size. They are different learners (their errors on a given case
    differ), but neither is better.

    Parameters
    ----------
    n_samples : int
        Number of cases, >= 2.
    bayes_error : float
        In (0, 0.5): the Bayes error of each feature on its own (default 0.25).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness for the class order and the features.

    Returns
    -------
    X : ndarray, shape (n_samples, 2)
        The two features.
    y : ndarray of int, shape (n_samples,)
        The classes, 0 or 1, in random order.
    """
    n = check_count(n_samples, "n_samples", minimum=2)
    err = _check_bayes_error(bayes_error)
    rng = check_rng(rng)
    mu = float(stats.norm.ppf(1.0 - err))
    y = np.zeros(n, dtype=int)
    y[n // 2:] = 1
    y = rng.permutation(y)
    X = rng.standard_normal((n, 2)) + np.where(y == 1, mu, -mu)[:, None]
    return X, y


def stratified_test_folds(
    n_per_class: Any, folds: int, repeats: int = 1, *, rng: Any = None
) -> np.ndarray:
    """Random stratified k-fold partitions, as integer fold labels.

    The cases are taken in class order (``n_per_class[0]`` cases of the first
    class, then the second, ...). Like scikit-learn's
    ``StratifiedKFold(shuffle=True)``, the class labels, sorted, are dealt to the
    folds in turn (the second class continuing where the first stopped), which
    fixes how many cases of each class every fold holds; within each class the
    fold labels are then shuffled uniformly at random, independently for each of
    the ``repeats`` partitions.

    Parameters
    ----------
    n_per_class : sequence of int
        Number of cases of each class, each at least ``folds`` (so that every
        class has a case in every fold).
    folds : int
        ``k >= 2``.
    repeats : int
        Number of independent partitions, >= 1.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator

    Returns
    -------
    ndarray of int, shape (repeats, n)
        ``out[r, i]`` is the test fold (0..k-1) of case ``i`` in partition ``r``.
    """
    folds = check_count(folds, "folds", minimum=2)
    repeats = check_count(repeats, "repeats", minimum=1)
    rng = check_rng(rng)
    sizes = [check_count(c, "n_per_class", minimum=folds) for c in np.atleast_1d(n_per_class).tolist()]
    parts, offset = [], 0
    for size in sizes:
        labels = (offset + np.arange(size)) % folds
        parts.append(rng.permuted(np.broadcast_to(labels, (repeats, size)), axis=1))
        offset += size
    return np.concatenate(parts, axis=1)


def _nb_fold_accuracy(x: np.ndarray, n0: int, test_folds: np.ndarray, folds: int) -> np.ndarray:
    """Accuracy of Gaussian naive Bayes on one feature, every fold of every partition at once.

    The closed form of scikit-learn's ``GaussianNB`` (default ``var_smoothing=1e-9``)
    for one feature and two classes: on each training set, class priors are the
    class shares, each class has the mean and (divisor ``n``) variance of its
    training cases plus ``1e-9`` times the variance of the whole training feature,
    and a case is predicted class 1 when its joint log-likelihood
    ``log prior - log(var)/2 - (x - mean)^2 / (2 var)`` is larger for class 1 than
    for class 0 (ties go to class 0, as ``argmax`` does); the difference of the two
    log-likelihoods is a quadratic in ``x`` whose three coefficients are computed
    once per training set. Training statistics are the data set's class sums minus
    the test fold's (``bincount``), so no model is fitted in a loop. The test suite
    checks the accuracies against ``GaussianNB`` fold by fold.

    Parameters
    ----------
    x : ndarray, shape (m, n, p)
        ``p`` features of ``m`` data sets of ``n`` cases each, in class order (the
        first ``n0`` cases are class 0, the rest class 1); one learner per feature.
    n0 : int
        Number of class-0 cases.
    test_folds : ndarray of int, shape (m, r, n)
        Test fold of each case in each of ``r`` partitions per data set, with the
        same number of cases of each class in fold ``f`` in every partition (as
        :func:`stratified_test_folds` makes them).
    folds : int
        ``k``: the fold labels are ``0..k-1``.

    Returns
    -------
    ndarray, shape (p, m, r, k)
        Accuracy of the learner on feature ``j`` on each test fold.
    """
    x = np.asarray(x, dtype=float)
    m, n, n_features = x.shape
    r, k = test_folds.shape[1], folds
    n_cells = m * r * k
    # Flat index of each case's (data set, partition, test fold), and its class.
    fold_cell = ((np.arange(m)[:, None, None] * r + np.arange(r)[None, :, None]) * k + test_folds).ravel()
    is_1 = np.broadcast_to(np.arange(n) >= n0, test_folds.shape).ravel()
    cell = 2 * fold_cell + is_1
    # Test-fold class counts are the same in every partition: take them from the first.
    first = test_folds[0, 0]
    cnt_test = np.stack([np.bincount(first[:n0], minlength=k), np.bincount(first[n0:], minlength=k)], axis=1)
    cnt = np.array([n0, n - n0], dtype=float) - cnt_test              # (k, 2) training counts
    n_train = cnt.sum(axis=1)                                         # (k,)
    log_prior = np.log(cnt / n_train[:, None])
    out = np.empty((n_features, m, r, k))
    for j in range(n_features):
        xj = x[:, :, j]
        tot = np.stack([xj[:, :n0].sum(axis=1), xj[:, n0:].sum(axis=1)], axis=1)[:, None, None, :]
        tot_sq = np.stack([(xj[:, :n0] ** 2).sum(axis=1), (xj[:, n0:] ** 2).sum(axis=1)],
                          axis=1)[:, None, None, :]
        xb = np.broadcast_to(xj[:, None, :], test_folds.shape).ravel()
        s = tot - np.bincount(cell, weights=xb, minlength=2 * n_cells).reshape(m, r, k, 2)
        q = tot_sq - np.bincount(cell, weights=xb * xb, minlength=2 * n_cells).reshape(m, r, k, 2)
        mean = s / cnt
        var = np.maximum(q / cnt - mean * mean, 0.0)
        pooled_mean = s.sum(axis=-1) / n_train
        pooled_var = np.maximum(q.sum(axis=-1) / n_train - pooled_mean * pooled_mean, 0.0)
        var += 1e-9 * pooled_var[..., None]
        const = log_prior - 0.5 * np.log(2.0 * np.pi * var)
        # jll_1 - jll_0 = qa x^2 + qb x + qc for the model trained without fold f.
        inv = 1.0 / var
        qa = 0.5 * (inv[..., 0] - inv[..., 1])
        qb = mean[..., 1] * inv[..., 1] - mean[..., 0] * inv[..., 0]
        qc = (const[..., 1] - const[..., 0]
              - 0.5 * (mean[..., 1] ** 2 * inv[..., 1] - mean[..., 0] ** 2 * inv[..., 0]))
        margin = ((np.take(qa.ravel(), fold_cell) * xb + np.take(qb.ravel(), fold_cell)) * xb
                  + np.take(qc.ravel(), fold_cell))
        hits = np.bincount(fold_cell, weights=(margin > 0) == is_1, minlength=n_cells)
        out[j] = hits.reshape(m, r, k) / cnt_test.sum(axis=1)
    return out


def simulate_equal_learners(
    n_samples: int = 100,
    *,
    folds: int = 10,
    repeats: int = 10,
    n_datasets: int = 100,
    bayes_error: float = 0.25,
    rng: Any = None,
    progress: bool = False,
) -> pd.DataFrame:
    """How the cross-validation t-tests behave when the null hypothesis is true.

    For each of ``n_datasets`` independent data sets from
    :func:`equal_learners_data`, learner A (Gaussian naive Bayes on feature 0)
    and learner B (the same on feature 1), equally good by construction, are
    compared by

    * ``repeats`` x ``folds``-fold stratified cross-validation (shared partitions),
      tested by the naive paired t-test on all ``r k`` folds (``r k - 1`` df), the
      textbook's paired t-test on the ``r`` round means (``r - 1`` df; only when
      ``repeats >= 2``) and Nadeau & Bengio's corrected resampled t-test
      (``n_test/n_train = 1/(k - 1)``);
    * a separate 5 x 2-fold cross-validation, tested by Dietterich's 5x2cv t-test.

    Every rejection is a false positive, so each test's rejection rate estimates
    its type I error (see :func:`rejection_rates`).

    The learners are fitted for all folds of all data sets at once
    (``_nb_fold_accuracy``, the closed form of scikit-learn's
    ``GaussianNB``) on partitions from :func:`stratified_test_folds` (distributed as
    scikit-learn's ``RepeatedStratifiedKFold``), so the default study (100 data sets,
    10 x 10 folds) runs in a few hundredths of a second and a slider can re-run it.
    Data set ``i`` draws from its own generator (``rng.spawn``), so the first 100
    data sets of a 1,000-set study are the 100 of the default one.

    Parameters
    ----------
    n_samples : int
        Cases per data set, at least ``2 * folds`` (each class must fill every fold)
        and at least 4.
    folds, repeats : int
        ``k >= 2`` and ``r >= 1`` of the repeated cross-validation.
    n_datasets : int
        Number of simulated data sets, >= 1 (the Monte Carlo sample size).
    bayes_error : float
        In (0, 0.5): the error of the best rule on either feature.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Everything random (data, partitions) is drawn from generators spawned from
        ``check_rng(rng)``; an int makes the study reproducible (default None: fresh entropy).
    progress : bool
        Show a ``tqdm.auto`` bar over the data sets (default off).

    Returns
    -------
    pandas.DataFrame
        One row per data set and test: ``dataset, test, statistic, df, pvalue,
        mean_difference`` (accuracy of A minus B). The settings are in ``.attrs``.
    """
    err = _check_bayes_error(bayes_error)
    return _simulate_two_learners(n_samples, (err, err), folds=folds, repeats=repeats, n_datasets=n_datasets,
                                  rng=rng, progress=progress)


def rejection_rates(simulation: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Rejection rate of each test in a simulation, with its Monte Carlo standard error.

    Parameters
    ----------
    simulation : DataFrame from :func:`simulate_equal_learners`
    alpha : float
        Significance level in (0, 1); a test rejects when ``pvalue <= alpha``.

    Returns
    -------
    pandas.DataFrame
        One row per test, in :data:`SIMULATED_TESTS` order: ``test, rejections,
        n_datasets, rate, mc_se`` with ``mc_se = sqrt(rate (1 - rate) / n_datasets)``
        (the binomial standard error; 0 when the rate is 0 or 1, where a
        ``n_datasets``-based bound such as 3/n is the better statement).
        ``.attrs`` holds ``alpha`` and the simulation's settings.
    """
    alpha = check_alpha(alpha)
    missing = {"test", "pvalue", "dataset"} - set(getattr(simulation, "columns", []))
    if missing:
        raise ValueError(f"simulation lacks the columns {sorted(missing)}; make it with simulate_equal_learners()")
    if len(simulation) == 0:
        raise ValueError("simulation must hold at least one data set")
    # one pass over the rows (a slider recounts at every move): test codes, then counts
    codes, names = pd.factorize(simulation["test"], use_na_sentinel=False)
    rejected = simulation["pvalue"].to_numpy(dtype=float) <= alpha
    sizes = np.bincount(codes, minlength=len(names))
    counts = np.bincount(codes, weights=rejected, minlength=len(names))
    position = {name: i for i, name in enumerate(names)}
    order = [t for t in SIMULATED_TESTS if t in position]
    order += [t for t in names if t not in order]
    rows = []
    for name in order:
        i = position[name]
        k, size = int(counts[i]), int(sizes[i])
        rate = k / size
        rows.append((name, k, size, rate, float(np.sqrt(rate * (1.0 - rate) / size))))
    out = pd.DataFrame(rows, columns=["test", "rejections", "n_datasets", "rate", "mc_se"])
    out.attrs.update(simulation.attrs)
    out.attrs["alpha"] = alpha
    return out


def plot_rejection_rates(rates: pd.DataFrame, *, alpha: float | None = None, ax=None, update: bool = False):
    """Bar chart of rejection rates with +-2 Monte Carlo standard errors and the level alpha.

    Parameters
    ----------
    rates : DataFrame from :func:`rejection_rates`
    alpha : float, optional
        The nominal level drawn as a line; by default ``rates.attrs["alpha"]``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.
    update : bool
        If ``ax`` already holds a chart drawn by this function for the same tests, move
        its artists (bar widths and colours, error bars, the level line, legend, limits
        and title) instead of drawing a new chart: the result looks the same, and a
        slider that redraws it many times costs less. If ``ax`` holds such a chart for
        other tests (a setting with one repeat has no round-means test), that chart is
        removed and the new one drawn in its place. Otherwise (default) draw anew.

    Returns
    -------
    matplotlib.axes.Axes
    """
    missing = {"test", "rate", "mc_se"} - set(getattr(rates, "columns", []))
    if missing:
        raise ValueError(f"rates lacks the columns {sorted(missing)}; make it with rejection_rates()")
    alpha = check_alpha(table_metadata(rates, "alpha", made_by="rejection_rates") if alpha is None else alpha)
    if not isinstance(update, (bool, np.bool_)):
        raise TypeError(f"update must be True or False, got {update!r}")
    colours = ["C3" if lo > alpha else "C0" for lo in rates["rate"] - 2 * rates["mc_se"]]
    drawn = getattr(ax, "_evallib_rejection_rates", None)
    if (update and drawn is not None and drawn["tests"] == list(rates["test"])
            and drawn["bars"].patches[0] in ax.patches):          # not cleared since it was drawn
        _move_rejection_rates(ax, drawn, rates, alpha, colours)
        return ax
    if update and drawn is not None:
        clear_artists(ax)              # the chart of other tests: replaced, not drawn over
    ax = get_axes(ax, figsize=(7, 3.2))
    y = np.arange(len(rates))[::-1]
    bars = ax.barh(y, rates["rate"], xerr=2 * rates["mc_se"], color=colours, alpha=0.8, capsize=3)
    level = ax.axvline(alpha, color="k", linestyle="--", linewidth=1, label=f"nominal level α = {alpha:g}")
    from matplotlib.patches import Patch

    handles = [Patch(color="C3", alpha=0.8, label="rate - 2 s.e. above α"),
               Patch(color="C0", alpha=0.8, label="compatible with α or below")]
    ax.set_yticks(y)
    ax.set_yticklabels(rates["test"])
    ax.set_xlim(0, _rejection_xmax(rates, alpha))
    ax.set_xlabel("rejection rate of a true null hypothesis (±2 MC s.e.)")
    ax.set_title(_rejection_title(rates), fontsize="medium")
    line_handles, _ = ax.get_legend_handles_labels()
    legend = ax.legend(handles=line_handles + handles, loc="lower right", fontsize="small", frameon=False)
    ax._evallib_rejection_rates = {"tests": list(rates["test"]), "bars": bars, "y": y, "level": level,
                                   "legend": legend}
    return ax


def _rejection_xmax(rates: pd.DataFrame, alpha: float) -> float:
    return max(1.05 * float((rates["rate"] + 2 * rates["mc_se"]).max()), 2 * alpha)


def _rejection_title(rates: pd.DataFrame) -> str:
    a = rates.attrs
    if {"n_samples", "folds", "repeats", "n_datasets"} <= set(a):
        return (f"Two equally good learners: n = {a['n_samples']}, {a['repeats']} x {a['folds']}-fold CV, "
                f"{a['n_datasets']} data sets")
    return ""


def _move_rejection_rates(ax, drawn: dict, rates: pd.DataFrame, alpha: float, colours: list) -> None:
    """Move the artists of a chart drawn by :func:`plot_rejection_rates` to new rates and alpha."""
    from matplotlib.colors import to_rgba

    rate = rates["rate"].to_numpy(dtype=float)
    err = 2 * rates["mc_se"].to_numpy(dtype=float)
    y = drawn["y"]
    bars = drawn["bars"]
    for rect, width, colour in zip(bars.patches, rate, colours):
        rect.set_width(width)
        rect.set_facecolor(to_rgba(colour, 0.8))
    _, caplines, barcols = bars.errorbar.lines
    barcols[0].set_segments([[(r - e, yy), (r + e, yy)] for r, e, yy in zip(rate, err, y)])
    if len(caplines) == 2:
        caplines[0].set_data(rate - err, y)
        caplines[1].set_data(rate + err, y)
    drawn["level"].set_xdata([alpha, alpha])
    drawn["legend"].get_texts()[0].set_text(f"nominal level α = {alpha:g}")
    ax.set_xlim(0, _rejection_xmax(rates, alpha))
    ax.set_title(_rejection_title(rates), fontsize="medium")


@functools.lru_cache(maxsize=32)
def _cached_simulation(n_samples, folds, repeats, n_datasets, bayes_error, rng, progress=False) -> pd.DataFrame:
    return simulate_equal_learners(n_samples, folds=folds, repeats=repeats, n_datasets=n_datasets,
                                   bayes_error=bayes_error, rng=rng, progress=progress)


def _simulation(n_samples, folds, repeats, n_datasets, bayes_error, rng, progress=False) -> pd.DataFrame:
    """:func:`simulate_equal_learners`, from the cache when every setting is a plain number (an int ``rng``).

    The cached frame is shared between callers: read it, never modify it.
    """
    args = (n_samples, folds, repeats, n_datasets, bayes_error, rng)
    if all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in args):
        return _cached_simulation(*args, bool(progress))
    return simulate_equal_learners(n_samples, folds=folds, repeats=repeats, n_datasets=n_datasets,
                                   bayes_error=bayes_error, rng=rng, progress=bool(progress))


def rejection_study(
    n_samples: int,
    folds: int,
    repeats: int,
    alpha: float,
    *,
    n_datasets: int = 100,
    bayes_error: float = 0.25,
    rng: Any = None,
    ax=None,
    progress: bool = False,
    update: bool = False,
) -> pd.DataFrame:
    """Simulate, summarise and plot in one call (the notebook's slider callback).

    Runs :func:`simulate_equal_learners`, then :func:`rejection_rates` at
    ``alpha``, draws :func:`plot_rejection_rates` on ``ax`` (a new figure if
    ``None``; with ``update=True`` a chart already on ``ax`` is moved in place)
    and returns the rates.

    With an int ``rng`` the simulation is deterministic, so its result is cached
    for the last 32 settings: moving only the ``alpha`` slider, or returning to an
    earlier setting, does not re-run it. Any other ``rng`` (None, a SeedSequence, a Generator) is never cached.
    ``progress`` shows a ``tqdm.auto`` bar over the simulated data sets while the
    simulation runs (it is part of the cache key, so keep it fixed between calls).

    Parameters
    ----------
    n_samples, folds, repeats
        As in :func:`simulate_equal_learners`.
    alpha : float
        The significance level of the rejections, in (0, 1).
    n_datasets, bayes_error, rng
        As in :func:`simulate_equal_learners` (defaults 100, 0.25 and None).
    ax : matplotlib.axes.Axes, optional
        Where :func:`plot_rejection_rates` draws; a new figure if None.
    progress : bool
        Show a ``tqdm.auto`` bar over the data sets (default off).
    update : bool
        Passed to :func:`plot_rejection_rates`: move a chart already on ``ax`` in place
        (default False).

    Returns
    -------
    pandas.DataFrame
        :func:`rejection_rates` of the simulation at ``alpha``: one row per test,
        ``test, rejections, n_datasets, rate, mc_se``.
    """
    alpha = check_alpha(alpha)
    sim = _simulation(n_samples, folds, repeats, n_datasets, bayes_error, rng, progress)
    rates = rejection_rates(sim, alpha)
    plot_rejection_rates(rates, ax=ax, update=update)
    return rates


SWEEP_PARAMETERS = ("n_samples", "folds", "repeats")


def rejection_sweep(
    parameter: str,
    values: Any,
    *,
    n_samples: int = 100,
    folds: int = 10,
    repeats: int = 10,
    alphas: Any = (0.05,),
    n_datasets: int = 1000,
    bayes_error: float = 0.25,
    rng: Any = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Rejection rates of the simulated tests as one setting of the study varies.

    Runs :func:`simulate_equal_learners` once per value of ``parameter`` (the other
    settings fixed) and :func:`rejection_rates` at each level in ``alphas``. With an
    int ``rng`` every run draws the same data sets (data set ``i`` has its own
    spawned generator and draws its cases first), so the values are compared on
    common random numbers when ``parameter`` is ``"folds"`` or ``"repeats"``. Like
    :func:`rejection_study`, and sharing its cache, a setting already simulated with
    an int ``rng`` is not simulated again.

    Parameters
    ----------
    parameter : {"n_samples", "folds", "repeats"}
        The setting that varies.
    values : sequence of int
        Its values, at least one.
    n_samples, folds, repeats
        As in :func:`simulate_equal_learners` (the one named by ``parameter`` is ignored).
    alphas : sequence of float
        Significance levels in (0, 1).
    n_datasets, bayes_error, rng
        As in :func:`simulate_equal_learners` (the one named by ``parameter`` is ignored).
    progress : bool
        Show a ``tqdm.auto`` bar over the values (default off).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``parameter, value, alpha, test, rejections, n_datasets, rate, mc_se``,
        one row per value, level and test.
    """
    check_choice(parameter, "parameter", SWEEP_PARAMETERS)
    if isinstance(values, (str, bytes)) or np.ndim(values) != 1 or len(values) == 0:
        raise TypeError(f"values must be a non-empty sequence of ints (values of {parameter}), got {values!r}")
    if isinstance(alphas, (str, bytes)) or np.ndim(alphas) != 1 or len(alphas) == 0:
        raise TypeError(f"alphas must be a non-empty sequence of levels in (0, 1), got {alphas!r}")
    levels = [check_alpha(a) for a in alphas]
    settings = dict(n_samples=n_samples, folds=folds, repeats=repeats)
    runs = list(values)
    bar = progress_bar(bool(progress), total=len(runs), unit="setting")
    frames = []
    for value in runs:
        run = settings | {parameter: value}
        sim = _simulation(run["n_samples"], run["folds"], run["repeats"], n_datasets, bayes_error, rng)
        for a in levels:
            rates = rejection_rates(sim, a)
            rates.insert(0, "alpha", a)
            rates.insert(0, "value", int(sim.attrs[parameter]))
            rates.insert(0, "parameter", parameter)
            frames.append(rates)
        bar.update(1)
    bar.close()
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(settings, n_datasets=n_datasets, bayes_error=bayes_error, varied=parameter)
    return out



# ------------------------------------------------- two learners that differ
def _simulate_two_learners(
    n_samples: Any, errors: tuple[float, float], *, folds: Any, repeats: Any, n_datasets: Any, rng: Any,
    progress: bool,
) -> pd.DataFrame:
    """The simulation behind :func:`simulate_equal_learners` and :func:`simulate_unequal_learners`.

    Naive Bayes on feature 0 (Bayes error ``errors[0]``) against naive Bayes on feature 1
    (``errors[1]``), on data from :func:`unequal_learners_data` (which draws exactly as
    :func:`equal_learners_data` when the two errors are equal).
    """
    folds = check_count(folds, "folds", minimum=2)
    repeats = check_count(repeats, "repeats", minimum=1)
    n = check_count(n_samples, "n_samples", minimum=2)
    if n < max(2 * folds, 4):
        raise ValueError(
            f"n_samples must be at least 2 * folds = {max(2 * folds, 4)} so that each of the two "
            f"equal classes fills every fold, got {n}"
        )
    m = check_count(n_datasets, "n_datasets", minimum=1)
    rng = check_rng(rng)
    n0 = n // 2
    ratio = 1.0 / (folds - 1)
    # Data sets in blocks of about a million case-partitions, so memory stays small.
    block = max(1, min(m, 1_000_000 // (n * (repeats + 5))))
    rows = []
    children = rng.spawn(m)
    bar = progress_bar(bool(progress), total=m, unit="data set")
    for first in range(0, m, block):
        gens = children[first:first + block]
        xs, cv, cv2 = [], [], []
        for g in gens:
            X, y = unequal_learners_data(n, bayes_errors=errors, rng=g)
            xs.append(X[np.argsort(y, kind="stable")])
            cv.append(stratified_test_folds([n0, n - n0], folds, repeats, rng=g))
            cv2.append(stratified_test_folds([n0, n - n0], 2, 5, rng=g))
        xs, cv, cv2 = np.stack(xs), np.stack(cv), np.stack(cv2)
        acc = _nb_fold_accuracy(xs, n0, cv, folds).reshape(2, len(gens), -1)
        acc2 = _nb_fold_accuracy(xs, n0, cv2, 2)
        for i in range(len(gens)):
            a, b = acc[0][i], acc[1][i]
            rounds = (a.reshape(repeats, folds).mean(axis=1), b.reshape(repeats, folds).mean(axis=1))
            results = _cv_ttests(a, b, rounds=rounds, ratio=ratio, five_by_two=(acc2[0][i], acc2[1][i]))
            for name, res in results.items():
                rows.append((first + i, name, res.statistic, res.df, res.pvalue, res.mean_difference))
        bar.update(len(gens))
    bar.close()
    out = pd.DataFrame(rows, columns=["dataset", "test", "statistic", "df", "pvalue", "mean_difference"])
    out.attrs.update(n_samples=n, folds=folds, repeats=repeats, n_datasets=m, bayes_error=float(errors[0]))
    return out


def unequal_learners_data(
    n_samples: int, *, bayes_errors: Any = (0.25, 0.30), rng: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """A data set with two features of chosen quality: two learners that differ by construction.

    As :func:`equal_learners_data`, but feature ``j`` has class means ``-mu_j`` and
    ``+mu_j`` with ``mu_j = Phi^{-1}(1 - bayes_errors[j])``, so the best rule on
    feature ``j`` alone errs with probability ``bayes_errors[j]``. The draws are those of
    :func:`equal_learners_data` (the class labels, then one standard normal per case and
    feature), so with two equal errors the data set is the same.

    Parameters
    ----------
    n_samples : int
        Cases, >= 2, half in each class (the odd one in class 1).
    bayes_errors : pair of float
        Bayes error of each feature, each in (0, 0.5).
    rng : None, int, SeedSequence or Generator
        Source of randomness (:func:`evallib._validate.check_rng`).

    Returns
    -------
    X : ndarray, shape (n_samples, 2)
    y : ndarray of int, shape (n_samples,)

    Examples
    --------
    >>> X, y = unequal_learners_data(6, bayes_errors=(0.1, 0.4), rng=0)
    >>> X.shape, int(y.sum())
    ((6, 2), 3)
    """
    n = check_count(n_samples, "n_samples", minimum=2)
    errors = _check_bayes_errors(bayes_errors)
    rng = check_rng(rng)
    mu = stats.norm.ppf(1.0 - errors)
    y = np.zeros(n, dtype=int)
    y[n // 2:] = 1
    y = rng.permutation(y)
    X = rng.standard_normal((n, 2)) + np.where(y == 1, 1.0, -1.0)[:, None] * mu[None, :]
    return X, y


def _check_bayes_errors(values: Any) -> np.ndarray:
    if isinstance(values, (str, bytes)) or np.ndim(values) != 1 or len(values) != 2:
        raise TypeError(f"bayes_errors must be a pair of numbers in (0, 0.5), got {values!r}")
    return np.array([check_real(v, "bayes_errors", low=0, high=0.5, low_open=True, high_open=True)
                     for v in values])


def simulate_unequal_learners(
    n_samples: int = 100,
    *,
    difference: float = 0.05,
    bayes_error: float = 0.25,
    folds: int = 10,
    repeats: int = 10,
    n_datasets: int = 100,
    rng: Any = None,
    progress: bool = False,
) -> pd.DataFrame:
    """How the cross-validation t-tests behave when one learner is truly better: their power.

    The construction of :func:`simulate_equal_learners` with features of unequal
    quality (:func:`unequal_learners_data`): learner A is Gaussian naive Bayes on
    feature 0, whose Bayes error is ``bayes_error``; learner B the same on feature 1,
    whose Bayes error is ``bayes_error + difference``. Learner A's accuracy is higher by

    * exactly ``difference`` for the best rules on each feature (the limit of large
      training sets), and
    * ``difference`` up to the two learners' excess errors at the training-set size of
      the cross-validation, which are of order ``1/n_train`` and nearly cancel: for
      100 cases, 10-fold cross-validation and ``difference = 0.05``, the mean accuracy
      difference over 20,000 simulated data sets was 0.0502 (Monte Carlo s.e. 0.0005).

    Every data set is compared by the four tests of :func:`simulate_equal_learners`
    (``repeats`` x ``folds``-fold stratified cross-validation on shared partitions:
    naive paired t on all folds, the textbook's t on round means, Nadeau & Bengio's
    corrected resampled t; a separate 5 x 2-fold cross-validation for Dietterich's 5x2cv
    t). With ``difference > 0`` a rejection is a correct decision, so each test's
    rejection rate (:func:`rejection_rates`) estimates its power; with
    ``difference = 0`` the result is exactly :func:`simulate_equal_learners`'s.

    The learner is *stable*: naive Bayes on one feature changes little when a tenth of
    its training set changes, so the fold results are less correlated than those of
    unstable learners (trees, nearest neighbours), and the tests' behaviour here may
    not carry over to them.

    Parameters
    ----------
    n_samples : int
        Cases per data set, at least ``2 * folds`` and at least 4.
    difference : float
        Bayes accuracy of A minus that of B, in ``[0, 0.5 - bayes_error)``.
    bayes_error : float
        In (0, 0.5): learner A's Bayes error.
    folds, repeats : int
        ``k >= 2`` and ``r >= 1`` of the repeated cross-validation.
    n_datasets : int
        Simulated data sets, >= 1.
    rng : None, int, SeedSequence or Generator
        Data set ``i`` draws from the ``i``-th generator spawned from it, its cases
        first: runs that differ only in ``folds``, ``repeats`` or ``difference`` share
        their standard normal draws (common random numbers).
    progress : bool
        Show a ``tqdm.auto`` bar over the data sets.

    Returns
    -------
    pandas.DataFrame
        One row per data set and test: ``dataset, test, statistic, df, pvalue,
        mean_difference`` (accuracy of A minus B). ``.attrs`` holds the settings,
        ``difference`` and ``bayes_errors``.

    References
    ----------
    C. Nadeau and Y. Bengio (2003), Inference for the generalization error, *Machine
    Learning* 52, 239-281. R. R. Bouckaert and E. Frank (2004), Evaluating the
    replicability of significance tests for comparing learning algorithms, PAKDD.
    T. G. Dietterich (1998), *Neural Computation* 10, 1895-1923.

    Examples
    --------
    >>> sim = simulate_unequal_learners(60, difference=0.1, folds=5, repeats=2, n_datasets=3, rng=1)
    >>> sorted(sim["test"].unique()) == sorted(SIMULATED_TESTS)
    True
    """
    err = _check_bayes_error(bayes_error)
    diff = check_real(difference, "difference", low=0, high=0.5 - err, high_open=True,
                      note="B's Bayes error bayes_error + difference must stay below 0.5")
    out = _simulate_two_learners(n_samples, (err, err + diff), folds=folds, repeats=repeats,
                                 n_datasets=n_datasets, rng=rng, progress=progress)
    out.attrs.update(difference=diff, bayes_errors=(err, err + diff))
    return out


@functools.lru_cache(maxsize=64)
def _cached_unequal(n_samples, difference, bayes_error, folds, repeats, n_datasets, rng) -> pd.DataFrame:
    return simulate_unequal_learners(n_samples, difference=difference, bayes_error=bayes_error, folds=folds,
                                     repeats=repeats, n_datasets=n_datasets, rng=rng)


def power_by_repeats(
    repeats: Any,
    *,
    difference: float = 0.05,
    n_samples: int = 100,
    folds: int = 10,
    alpha: float = 0.05,
    n_datasets: int = 1000,
    bayes_error: float = 0.25,
    rng: Any = None,
) -> pd.DataFrame:
    """Rejection rate of each test against the number of cross-validation repeats.

    Runs :func:`simulate_unequal_learners` once per value of ``repeats`` (the same data
    sets each time when ``rng`` is an int) and :func:`rejection_rates` at ``alpha``.
    With ``difference > 0`` the rates are powers; with ``difference = 0`` they are the
    type I error rates of :func:`simulate_equal_learners`. Runs with an int ``rng`` are
    cached (the last 64 settings).

    Parameters
    ----------
    repeats : sequence of int
        Values of ``r``, each >= 1.
    difference, n_samples, folds
        As in :func:`simulate_unequal_learners`.
    alpha : float
        Level in (0, 1); a test rejects when ``pvalue <= alpha``.
    n_datasets, bayes_error, rng
        As in :func:`simulate_unequal_learners`.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``repeats, difference, test, rejections, n_datasets, rate, mc_se``.

    Examples
    --------
    >>> t = power_by_repeats([1, 3], difference=0.1, n_samples=40, folds=5, n_datasets=20)
    >>> list(t.columns)
    ['repeats', 'difference', 'test', 'rejections', 'n_datasets', 'rate', 'mc_se']
    """
    if isinstance(repeats, (str, bytes)) or np.ndim(repeats) != 1 or len(repeats) == 0:
        raise TypeError(f"repeats must be a non-empty sequence of whole numbers >= 1, got {repeats!r}")
    alpha = check_alpha(alpha)
    values = [check_count(r, "repeats", minimum=1) for r in repeats]
    cacheable = all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                    for v in (difference, n_samples, folds, n_datasets, bayes_error)) \
        and isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_))
    frames = []
    for r in values:
        if cacheable:
            sim = _cached_unequal(n_samples, float(difference), float(bayes_error), folds, r, n_datasets, int(rng))
        else:
            sim = simulate_unequal_learners(n_samples, difference=difference, bayes_error=bayes_error,
                                            folds=folds, repeats=r, n_datasets=n_datasets, rng=rng)
        rates = rejection_rates(sim, alpha)
        rates.insert(0, "difference", sim.attrs["difference"])
        rates.insert(0, "repeats", r)
        frames.append(rates)
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(n_samples=n_samples, folds=folds, alpha=alpha, n_datasets=n_datasets,
                     bayes_error=bayes_error, difference=float(difference))
    return out


def plot_power_by_repeats(table: pd.DataFrame, *, tests: Any = None, ax=None):
    """Rejection rate against repeats, one line per test, with +-2 Monte Carlo s.e. bands.

    Parameters
    ----------
    table : DataFrame from :func:`power_by_repeats`
        Several of them may be concatenated (e.g. ``difference`` 0 and 0.05): each
        difference gets its own line style, the smallest solid, the next dashed.
    tests : sequence of str, optional
        The tests to draw (default: all in the table).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    missing = {"repeats", "difference", "test", "rate", "mc_se"} - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table lacks the columns {sorted(missing)}; make it with power_by_repeats()")

    ax = get_axes(ax, figsize=(7, 3.4))
    names = list(pd.unique(table["test"])) if tests is None else list(tests)
    styles = ["-", "--", ":", "-."]
    for j, diff in enumerate(sorted(pd.unique(table["difference"]))):      # the smallest solid
        for i, name in enumerate(names):
            part = table[(table["test"] == name) & (table["difference"] == diff)].sort_values("repeats")
            if part.empty:
                continue
            x, y, se = part["repeats"].to_numpy(), part["rate"].to_numpy(), part["mc_se"].to_numpy()
            ax.plot(x, y, styles[j % 4], marker="o", markersize=3, color=f"C{i}",
                    label=f"{name}, difference {diff:g}")
            ax.fill_between(x, y - 2 * se, y + 2 * se, color=f"C{i}", alpha=0.12, linewidth=0)
    alpha = table.attrs.get("alpha")
    if alpha is not None:
        ax.axhline(alpha, color="k", linewidth=1, linestyle=(0, (1, 3)), label=f"α = {alpha:g}")
    ax.set_ylim(0, 1.02)
    ax.set_xticks(sorted(pd.unique(table["repeats"])))
    ax.set_xlabel("repeats r of the cross-validation")
    ax.set_ylabel("rejection rate")
    # long legend handles, so that the dashed (power) and solid (size) lines can be told apart
    ax.legend(fontsize="x-small", frameon=False, loc="center left", bbox_to_anchor=(1.01, 0.5),
              handlelength=4)
    return ax
