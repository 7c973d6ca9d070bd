"""The Bayesian correlated t-test: two learners, one data set, cross-validation folds.

Corani & Benavoli (2015), in Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a
change" (JMLR 18(77), 1-36): a Student-t posterior for the mean difference of the fold
scores, its variance inflated by the Nadeau–Bengio correlation of overlapping training
sets. It answers "how probable is it that A is practically better than B, that they are
practically equivalent, or that B is better?" directly, with a region of practical
equivalence (the ROPE; see :mod:`evallib._bayes` for the conventions, those of
baycomp, the authors' package). Notebook 07 teaches it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._bayes import _check_pair, _check_rope
from .._inference import t_inference
from .._plotting import get_axes
from .._validate import check_alpha, check_real

__all__ = [
    "CorrelatedTTestResult",
    "bayesian_correlated_ttest",
    "plot_correlated_posterior",
]


# ------------------------------------------------------ correlated t-test
@dataclass(frozen=True)
class CorrelatedTTestResult:
    """The Bayesian correlated t-test on one data set (Corani & Benavoli 2015).

    Attributes
    ----------
    p_left, p_rope, p_right : posterior probabilities that the mean difference
        ``y - x`` lies below ``-rope`` (``x`` practically better), inside
        ``[-rope, rope]``, above ``rope`` (``y`` practically better); they sum to 1.
    mean : the posterior's location, the mean difference ``mean(y - x)``.
    scale : its scale, ``sqrt((1/n + test_train_ratio) var(y - x))``.
    df : its degrees of freedom, ``n - 1``.
    rope, test_train_ratio : the options.
    n : number of paired fold scores.
    pvalue : the frequentist reading: the two-sided p-value of the corrected
        resampled t-test (Nadeau & Bengio) on the same scores; with ``rope = 0`` it
        is ``2 min(p_left, p_right)``.
    """

    p_left: float
    p_rope: float
    p_right: float
    mean: float
    scale: float
    df: int
    rope: float
    test_train_ratio: float
    n: int
    pvalue: float

    def posterior(self):
        """The posterior of the mean difference as a frozen ``scipy.stats.t``
        (``None`` when the differences have zero variance: a point mass at ``mean``).

        Returns
        -------
        frozen scipy.stats.t distribution or None
            Student's t with ``df`` degrees of freedom, location ``mean`` and scale
            ``scale``; None when ``scale`` is 0.
        """
        if self.scale == 0:
            return None
        return stats.t(self.df, loc=self.mean, scale=self.scale)

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """The central ``1 - alpha`` posterior (credible) interval of the mean difference.

        It equals the corrected t-test's ``1 - alpha`` confidence interval (same t
        distribution), and takes ``alpha`` as :meth:`evallib.CVTTestResult.interval` does.

        Parameters
        ----------
        alpha : float
            In (0, 1): the interval holds ``1 - alpha`` of the posterior (default 0.05).

        Returns
        -------
        tuple of float
            ``(low, high)``, the ``alpha / 2`` and ``1 - alpha / 2`` quantiles of the
            posterior of ``mean(y - x)``; both ``mean`` when the posterior is a point mass.
        """
        alpha = check_alpha(alpha)
        post = self.posterior()
        if post is None:
            return self.mean, self.mean
        lo, hi = post.interval(1.0 - alpha)
        return float(lo), float(hi)


def bayesian_correlated_ttest(
    x: Any, y: Any, *, rope: float = 0.01, test_train_ratio: float,
) -> CorrelatedTTestResult:
    """Bayesian correlated t-test for two classifiers on one data set.

    The fold scores of cross-validation are correlated (training sets overlap).
    Corani & Benavoli (2015) model the differences ``d = y - x`` as normal with a
    correlation ``rho = n_test / n_total`` between folds; with a flat prior the
    posterior of the mean difference is a Student t with ``n - 1`` degrees of
    freedom, location ``mean(d)`` and scale ``sqrt((1/n + rho/(1 - rho)) s^2)``,
    ``s^2`` the sample variance of ``d`` (their Theorem 1; Benavoli et al. 2017,
    section 4). ``rho/(1 - rho) = n_test/n_train`` is ``test_train_ratio``;
    for (repeated) ``k``-fold cross-validation it is ``1/(k - 1)``.

    Parameters
    ----------
    x, y : sequence of float
        Paired per-fold scores of the two classifiers (same folds), at least 2.
    rope : float
        Half-width of the region of practical equivalence, >= 0, in the scores'
        units (0.01 = one percentage point of accuracy).
    test_train_ratio : float
        ``n_test / n_train`` of one fold, >= 0 (0.111... for 10-fold CV).

    Returns
    -------
    CorrelatedTTestResult

    Raises
    ------
    ValueError
        Fewer than 2 scores, lengths that differ, NaN, ``rope < 0`` or a negative
        ``test_train_ratio``.

    Notes
    -----
    The posterior is the corrected resampled t-test turned around: the same t
    distribution, read as a distribution of the mean difference given the data
    instead of the statistic given "no difference". If all differences are equal
    (zero variance) the posterior is a point mass at their value, as in baycomp.

    References
    ----------
    Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets. Machine Learning 100, 285-304.
    Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change:
    a tutorial for comparing multiple classifiers through Bayesian analysis.
    JMLR 18(77), 1-36.

    Examples
    --------
    Differences 0.01 and 0.03 alternating over 10 folds: by hand the mean is 0.02,
    ``s^2 = 10/9 x 0.0001`` and the scale ``sqrt((1/10 + 1/9) s^2) = 0.00484``;
    half of the posterior lies above 0.02, so ``p_right`` is between 0.5 and 1.

    >>> x = [0.80] * 10
    >>> y = [0.81, 0.83] * 5
    >>> res = bayesian_correlated_ttest(x, y, rope=0.01, test_train_ratio=1 / 9)
    >>> round(res.mean, 4), round(res.scale, 5), res.df
    (0.02, 0.00484, 9)
    >>> round(res.p_left + res.p_rope + res.p_right, 12)
    1.0
    """
    a, b = _check_pair(x, y, minimum=2, each="one per fold")
    rope = _check_rope(rope)
    ratio = check_real(test_train_ratio, "test_train_ratio", low=0)
    d = b - a
    n = d.size
    var = float(np.var(d, ddof=1))
    # the corrected t-test's p-value and evallib's zero-variance rule (evallib._inference), on the
    # scale of the scores (at least 1)
    test = t_inference(float(d.mean()), math.sqrt((1.0 / n + ratio) * var), df=n - 1,
                       scale=max(1.0, float(np.max(np.abs(a))), float(np.max(np.abs(b)))))
    mean, scale, pvalue = test.estimate, test.se, test.pvalue
    if scale == 0.0:
        if rope == 0:
            right = float(mean > 0) + 0.5 * float(mean == 0)
            pl, pe, pr = 1.0 - right, 0.0, right
        else:
            pl, pr = float(mean < -rope), float(mean > rope)
            pe = 1.0 - pl - pr
    else:
        post = stats.t(n - 1, loc=mean, scale=scale)
        pl = float(post.cdf(-rope))
        pr = float(post.sf(rope))
        pe = max(0.0, 1.0 - pl - pr)
    return CorrelatedTTestResult(p_left=pl, p_rope=pe, p_right=pr, mean=mean, scale=scale, df=n - 1,
                                 rope=rope, test_train_ratio=ratio, n=n, pvalue=pvalue)


def plot_correlated_posterior(result: CorrelatedTTestResult, *, names: tuple[str, str] = ("x", "y"), ax=None):
    """The Student-t posterior of :func:`bayesian_correlated_ttest`, with the ROPE shaded.

    Parameters
    ----------
    result : CorrelatedTTestResult
        What :func:`bayesian_correlated_ttest` returned.
    names : (str, str)
        The names of ``x`` and ``y``, for the axis label and the title (default
        ``("x", "y")``).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The posterior density of ``mean(y - x)`` (a vertical line for a point mass), the
        areas left of, inside and right of the ROPE shaded, and the three posterior
        probabilities in the title.
    """
    if not isinstance(result, CorrelatedTTestResult):
        raise TypeError("result must be a CorrelatedTTestResult from bayesian_correlated_ttest")
    ax = get_axes(ax, figsize=(6.4, 3.2))
    post = result.posterior()
    rope = result.rope
    if post is None:
        ax.axvline(result.mean, color="C0", linewidth=2, label="posterior (point mass)")
        lo, hi = min(result.mean, -rope) - 0.01, max(result.mean, rope) + 0.01
    else:
        lo = min(float(post.ppf(0.001)), -1.5 * rope)
        hi = max(float(post.ppf(0.999)), 1.5 * rope)
        xs = np.linspace(lo, hi, 400)
        ys = post.pdf(xs)
        ax.plot(xs, ys, color="C0", linewidth=2, label="posterior of mean(y - x)")
        for mask, color in ((xs < -rope, "C3"), ((xs >= -rope) & (xs <= rope), "0.6"), (xs > rope, "C2")):
            ax.fill_between(xs[mask], ys[mask], color=color, alpha=0.35)
    if rope > 0:
        ax.axvspan(-rope, rope, color="0.85", zorder=0, label=f"ROPE ±{rope:g}")
    ax.axvline(0, color="k", linewidth=0.8)
    ax.set_xlim(lo, hi)
    ax.set_xlabel(f"difference of mean score ({names[1]} - {names[0]})")
    ax.set_yticks([])
    ax.set_title(f"P({names[0]} better) = {result.p_left:.3f}, P(rope) = {result.p_rope:.3f}, "
                 f"P({names[1]} better) = {result.p_right:.3f}", fontsize="medium")
    ax.legend(fontsize="small", loc="upper left")
    return ax
