"""Bayesian alternatives to the null-hypothesis tests (Benavoli, Corani, Demšar & Zaffalon 2017).

"Time for a change" (JMLR 18(77), 1-36) argues that a p-value answers the wrong
question: it is the probability of data at least as extreme *if the two
classifiers were equal*, not the probability that they are. The Bayesian tests
here answer "how probable is it that A is practically better than B, that they
are practically equivalent, or that B is better?" directly.

**The ROPE** (region of practical equivalence) is the interval ``[-rope, rope]``
of differences too small to matter: e.g. ``rope = 0.01`` for accuracies, "within
one percentage point is the same to me". It is a choice about the application,
made *before* seeing the results (as alpha is): a difference of 0.5 points may
matter for a production fraud detector and be noise for a benchmark. With
``rope = 0`` the tests reduce to "which one is better", and the posterior
probability of the smaller side is close to a one-sided p-value; the ROPE is what
lets the data support *equivalence*, which a null-hypothesis test can never do.

Conventions follow baycomp (the authors' package): ``x`` and ``y`` are the two
classifiers' scores (higher is better), the differences are ``y - x``, and
``left`` = ``x`` practically better (difference < -rope), ``rope`` = practically
equivalent, ``right`` = ``y`` practically better (difference > rope).

* :func:`bayesian_correlated_ttest` -- one data set, the fold scores of (repeated)
  cross-validation (Corani & Benavoli 2015): a Student-t posterior for the mean
  difference, with the Nadeau-Bengio correlation.
* :func:`bayesian_signed_rank` -- many data sets, one mean score each (Benavoli et
  al. 2014): a Dirichlet-process posterior, sampled; :func:`plot_simplex` shows it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from ._validate import check_alpha, check_count, check_real, check_rng, check_vector

__all__ = [
    "CorrelatedTTestResult",
    "SignedRankResult",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
    "plot_correlated_posterior",
    "plot_simplex",
    "plot_bayesian_signed_rank",
    "REGIONS",
]

REGIONS = ("left", "rope", "right")


def _check_pair(x: Any, y: Any, *, minimum: int, each: str) -> tuple[np.ndarray, np.ndarray]:
    a = check_vector(x, "x", minimum=minimum, what="scores", each=each)
    b = check_vector(y, "y", minimum=minimum, what="scores", each=each)
    if a.size != b.size:
        raise ValueError(f"x has {a.size} scores but y has {b.size}; the scores must be paired")
    return a, b


def _check_rope(rope: Any) -> float:
    return check_real(rope, "rope", low=0)


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
        (``None`` when the differences have zero variance: a point mass at ``mean``)."""
        if self.scale == 0:
            return None
        return stats.t(self.df, loc=self.mean, scale=self.scale)

    def interval(self, alpha: float = 0.05) -> tuple[float, float]:
        """The central ``1 - alpha`` posterior (credible) interval of the mean difference.

        It equals the corrected t-test's ``1 - alpha`` confidence interval (same t
        distribution), and takes ``alpha`` as :meth:`evallib.CVTTestResult.interval` does.
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
    mean = float(d.mean())
    var = float(np.var(d, ddof=1))
    tol = 1e-12 * max(1.0, float(np.max(np.abs(a))), float(np.max(np.abs(b))))
    if np.ptp(d) <= tol:
        scale = 0.0
        if rope == 0:
            right = float(mean > tol) + 0.5 * float(abs(mean) <= tol)
            pl, pe, pr = 1.0 - right, 0.0, right
        else:
            pl, pr = float(mean < -rope), float(mean > rope)
            pe = 1.0 - pl - pr
        pvalue = 1.0 if abs(mean) <= tol else 0.0
    else:
        scale = math.sqrt((1.0 / n + ratio) * var)
        post = stats.t(n - 1, loc=mean, scale=scale)
        pl = float(post.cdf(-rope))
        pr = float(post.sf(rope))
        pe = max(0.0, 1.0 - pl - pr)
        pvalue = float(2.0 * stats.t.sf(abs(mean) / scale, n - 1))
    return CorrelatedTTestResult(p_left=pl, p_rope=pe, p_right=pr, mean=mean, scale=scale, df=n - 1,
                                 rope=rope, test_train_ratio=ratio, n=n, pvalue=pvalue)


def plot_correlated_posterior(result: CorrelatedTTestResult, *, names: tuple[str, str] = ("x", "y"), ax=None):
    """The Student-t posterior of :func:`bayesian_correlated_ttest`, with the ROPE shaded.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ._plotting import get_axes

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


# ---------------------------------------------------------- signed-rank test
@dataclass(frozen=True)
class SignedRankResult:
    """The Bayesian signed-rank test over many data sets (Benavoli et al. 2014).

    Attributes
    ----------
    p_left, p_rope, p_right : posterior probabilities that ``left`` (``x``
        practically better), ``rope`` or ``right`` (``y`` practically better) is
        the most probable region, estimated as the share of posterior samples in
        which it is (baycomp's ``probs``); Monte Carlo error about
        ``sqrt(p (1 - p) / n_samples)``.
    samples : array of shape ``(n_samples, 3)``: each row a posterior draw of
        ``(theta_left, theta_rope, theta_right)``, the probabilities that the mean
        of two differences (one pair of data sets) lies left of, in, or right of the ROPE.
    rope, prior, n_samples, n : the options and the number of data sets.
    pvalue : the frequentist reading: Wilcoxon's two-sided signed-rank p-value on
        the same differences (rope ignored; :func:`evallib.wilcoxon_signed_rank`).
    """

    p_left: float
    p_rope: float
    p_right: float
    samples: np.ndarray = field(repr=False)
    rope: float
    prior: float
    n_samples: int
    n: int
    pvalue: float

    def mean(self) -> tuple[float, float, float]:
        """The posterior means of ``theta_left``, ``theta_rope``, ``theta_right``."""
        m = self.samples.mean(axis=0)
        return float(m[0]), float(m[1]), float(m[2])


def _heaviside(a: np.ndarray, thresh: float) -> np.ndarray:
    return (a > thresh).astype(float) + 0.5 * (a == thresh)


def bayesian_signed_rank(
    x: Any, y: Any, *, rope: float = 0.01, n_samples: int = 50_000, prior: float = 0.5, rng: Any = None,
) -> SignedRankResult:
    """Bayesian signed-rank test for two classifiers over many data sets.

    Benavoli et al. (2014) put a Dirichlet-process prior on the distribution of
    the differences ``z_i = y_i - x_i`` (one per data set), with a pseudo-observation
    ``z_0 = 0`` of weight ``prior`` (the prior's strength ``s``). A posterior draw is
    a weight vector ``w ~ Dirichlet(prior, 1, ..., 1)`` over ``z_0, ..., z_n``, and
    gives

        ``theta_right = sum_ij w_i w_j H(z_i + z_j - 2 rope)``,
        ``theta_left = sum_ij w_i w_j H(-z_i - z_j - 2 rope)``,
        ``theta_rope = 1 - theta_left - theta_right``

    (``H`` the Heaviside step with ``H(0) = 1/2``): the probabilities that the
    mean of two differences (Walsh average, the quantity behind Wilcoxon's test)
    lies right of, left of, or inside the ROPE (Benavoli et al. 2017, section 5).
    Each region's probability is the share of draws in which it is the largest.

    Parameters
    ----------
    x, y : sequence of float
        One mean score per data set for each classifier (higher is better), at
        least 2 data sets.
    rope : float
        Half-width of the region of practical equivalence, >= 0.
    n_samples : int
        Posterior draws, >= 1 (Monte Carlo error of each probability <= 0.5/sqrt(n_samples)).
    prior : float
        Weight of the pseudo-observation at 0, >= 0 (baycomp's default 0.5).
    rng : None, int, SeedSequence or Generator
        Randomness for the Dirichlet draws.

    Returns
    -------
    SignedRankResult

    Raises
    ------
    ValueError
        Fewer than 2 data sets, lengths that differ, NaN, ``rope < 0``, ``prior <
        0`` or ``n_samples < 1``.

    References
    ----------
    Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A
    Bayesian Wilcoxon signed-rank test based on the Dirichlet process. ICML, PMLR
    32(2), 1026-1034.
    Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change.
    JMLR 18(77), 1-36.

    Examples
    --------
    On Demšar's Table 2 (C4.5 vs C4.5+m; his Wilcoxon T = 12 rejects), with a ROPE
    of 0.01 AUC, "C4.5+m practically better" and "equivalent" split the posterior;
    C4.5 being practically better gets no weight:

    >>> from evallib.manydatasets.ranktests import demsar_table_6
    >>> t6 = demsar_table_6()
    >>> res = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], rope=0.01, n_samples=20000, rng=0)
    >>> res.p_left
    0.0
    >>> round(res.p_left + res.p_rope + res.p_right, 12)
    1.0
    """
    from .manydatasets.ranktests import wilcoxon_signed_rank

    a, b = _check_pair(x, y, minimum=2, each="one per data set")
    rope = _check_rope(rope)
    prior = check_real(prior, "prior", low=0)
    n_samples = check_count(n_samples, "n_samples", minimum=1)
    gen = check_rng(rng)
    z = np.concatenate([[0.0], b - a])
    sums = z[:, None] + z[None, :]
    weights = np.ones(z.size)
    weights[0] = prior
    if prior == 0:  # a Dirichlet weight of 0 is a point mass at 0 weight
        z, sums, weights = z[1:], sums[1:, 1:], weights[1:]
    w = gen.dirichlet(weights, n_samples)
    # Sorted by increasing z_i (for theta_right) or decreasing z_i (theta_left), each row
    # of the step matrix H(+-(z_i + z_j) - 2 rope) is non-decreasing in j (0, then 1/2
    # on exact ties, then 1), so w^T H w needs only prefix sums of the sorted weights:
    # O(n_samples n) instead of the O(n_samples n^2) of the double sum.

    wt = np.ascontiguousarray(w.T)                  # atoms x samples: rows gather fast
    m = z.size

    def quadratic_form(sign: float) -> np.ndarray:
        order = np.argsort(sign * z, kind="stable")
        h = _heaviside(sign * sums[np.ix_(order, order)], 2 * rope)
        ws = wt[order]
        prefix = np.zeros((m + 1, n_samples))
        np.cumsum(ws, axis=0, out=prefix[1:])
        half = np.where((h > 0).any(axis=1), np.argmax(h > 0, axis=1), m)   # first j with H >= 1/2
        one = np.where((h == 1).any(axis=1), np.argmax(h == 1, axis=1), m)  # first j with H = 1
        hw = prefix[-1] - 0.5 * (prefix[one] + prefix[half])
        return np.einsum("is,is->s", ws, hw)

    theta_right = quadratic_form(1.0)
    theta_left = quadratic_form(-1.0) if rope > 0 else 1.0 - theta_right
    theta_rope = np.clip(1.0 - theta_left - theta_right, 0.0, 1.0)
    samples = np.column_stack([theta_left, theta_rope, theta_right])
    if rope > 0:
        counts = np.bincount(np.argmax(samples, axis=1), minlength=3) / n_samples
    else:
        counts = np.bincount(np.argmax(samples[:, [0, 2]], axis=1) * 2, minlength=3) / n_samples
    d = b - a
    try:
        pvalue = wilcoxon_signed_rank(d).pvalue
    except ValueError:  # all differences zero
        pvalue = 1.0
    return SignedRankResult(p_left=float(counts[0]), p_rope=float(counts[1]), p_right=float(counts[2]),
                            samples=samples, rope=rope, prior=prior, n_samples=n_samples, n=int(a.size),
                            pvalue=float(pvalue))


def plot_simplex(result: Any, *, names: tuple[str, str] = ("x", "y"), max_points: int = 5000, ax=None):
    """The posterior samples of :func:`bayesian_signed_rank` in the probability simplex.

    Each draw ``(theta_left, theta_rope, theta_right)`` is a point of the triangle
    whose corners are certainty of "``x`` better" (bottom left), "``y`` better"
    (bottom right) and "equivalent" (top); the three lines from the centre split
    it into the regions where each is the largest (Benavoli et al. 2017, Figure 5).

    Parameters
    ----------
    result : SignedRankResult or array of shape (m, 3)
    names : the two classifiers' names, for the corners.
    max_points : at most this many samples are drawn (the first ones).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ._plotting import get_axes

    samples = result.samples if isinstance(result, SignedRankResult) else np.asarray(result, dtype=float)
    if samples.ndim != 2 or samples.shape[1] != 3 or samples.shape[0] < 1:
        raise ValueError("result must be a SignedRankResult or an array of shape (m, 3)")
    max_points = check_count(max_points, "max_points", minimum=1)
    s = samples[:max_points]
    corners = np.array([[0.0, 0.0], [0.5, math.sqrt(3) / 2], [1.0, 0.0]])  # left, rope, right
    pts = s @ corners
    ax = get_axes(ax, figsize=(5, 4.6))
    winner = np.argmax(s, axis=1)
    colors = np.array(["C3", "0.45", "C2"])
    ax.scatter(pts[:, 0], pts[:, 1], s=3, c=colors[winner], alpha=0.35, linewidths=0)
    tri = np.vstack([corners, corners[:1]])
    ax.plot(tri[:, 0], tri[:, 1], color="k", linewidth=1)
    centre = corners.mean(axis=0)
    for i, j in ((0, 1), (1, 2), (0, 2)):
        mid = (corners[i] + corners[j]) / 2
        ax.plot([centre[0], mid[0]], [centre[1], mid[1]], color="k", linewidth=0.7, linestyle="--")
    if isinstance(result, SignedRankResult):
        probs = (result.p_left, result.p_rope, result.p_right)
    else:
        probs = tuple(np.bincount(winner, minlength=3) / winner.size)
    ax.text(-0.03, -0.05, f"{names[0]} better\n{probs[0]:.3f}", ha="center", va="top", fontsize="small")
    ax.text(1.03, -0.05, f"{names[1]} better\n{probs[2]:.3f}", ha="center", va="top", fontsize="small")
    ax.text(0.5, math.sqrt(3) / 2 + 0.03, f"equivalent (ROPE)\n{probs[1]:.3f}", ha="center", va="bottom",
            fontsize="small")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.2, 1.07)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def plot_bayesian_signed_rank(
    x: Any, y: Any, *, rope: float = 0.01, n_samples: int = 20_000, rng: Any = None,
    names: tuple[str, str] = ("x", "y"), ax=None,
):
    """Run :func:`bayesian_signed_rank` and draw its simplex (the notebook's ROPE slider).

    Returns
    -------
    matplotlib.axes.Axes
        Titled with the three probabilities and Wilcoxon's p-value beside them.
    """
    res = bayesian_signed_rank(x, y, rope=rope, n_samples=n_samples, rng=rng)
    ax = plot_simplex(res, names=names, ax=ax)
    ax.set_title(f"ROPE ±{res.rope:g}: P({names[0]} better) = {res.p_left:.3f}, P(equivalent) = "
                 f"{res.p_rope:.3f}, P({names[1]} better) = {res.p_right:.3f}\n"
                 f"(frequentist reading: Wilcoxon p = {res.pvalue:.3g}, which ignores the ROPE)",
                 fontsize="small")
    return ax
