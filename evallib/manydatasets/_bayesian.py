"""The Bayesian signed-rank and sign tests: two learners compared over many data sets.

Benavoli, Mangili, Corani, Zaffalon & Ruggeri (2014), in Benavoli, Corani, Demšar &
Zaffalon (2017), "Time for a change" (JMLR 18(77), 1-36): a Dirichlet-process posterior
over the differences of the mean scores, sampled, giving the probabilities that the
first learner is practically better, that the two are practically equivalent (the ROPE),
or that the second is better; :func:`plot_simplex` shows the samples. The Bayesian
sign test (:func:`bayesian_sign_test`) counts the data sets on each side of the ROPE and
puts a Dirichlet posterior on the three shares. Conventions are baycomp's (see
:mod:`evallib._bayes`). Notebook 07 teaches them; :mod:`evallib.manydatasets._hierarchical`
adds the hierarchical model, which uses every fold of every data set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._bayes import REGIONS, _check_pair, _check_rope
from .._compat import renamed_fields, renamed_keywords
from .._format import format_p, share_text
from .._plotting import get_axes
from .._results import freeze_arrays
from .._validate import check_choice, check_count, check_real, check_rng
from ._ranktests import TIE_RTOL, _check_rtol, sign_test, wilcoxon_signed_rank

__all__ = [
    "SignedRankResult",
    "bayesian_signed_rank",
    "SignTestPosterior",
    "bayesian_sign_test",
    "plot_simplex",
    "plot_bayesian_signed_rank",
    "REGIONS",
]


# ---------------------------------------------------------- signed-rank test
@renamed_fields(n_samples="n_resamples")
@dataclass(frozen=True, eq=False)
class SignedRankResult:
    """The Bayesian signed-rank test over many data sets (Benavoli et al. 2014).

    Attributes
    ----------
    p_left, p_rope, p_right : posterior probabilities that ``left`` (``x``
        practically better), ``rope`` or ``right`` (``y`` practically better) is
        the most probable region, estimated as the share of posterior samples in
        which it is (baycomp's ``probs``); Monte Carlo error about
        ``sqrt(p (1 - p) / n_resamples)``.
    samples : array of shape ``(n_resamples, 3)``: each row a posterior draw of
        ``(theta_left, theta_rope, theta_right)``, the probabilities that the mean
        of two differences (one pair of data sets) lies left of, in, or right of the ROPE.
    rope, prior, n_resamples, n : the options (``n_resamples`` posterior draws) and the number of
        data sets.
    pvalue : the frequentist reading: Wilcoxon's two-sided signed-rank p-value on
        the same differences (rope ignored; :func:`evallib.wilcoxon_signed_rank`).
    on_edge, pair_means : how many of the test's pair means ``(z_i + z_j) / 2`` (``i <= j``, each
        difference with itself and, with ``prior > 0``, with the prior's ``z_0 = 0``) lie exactly on
        the ROPE's edge ``±rope`` (up to ``rtol``), and how many pair means there are. Such a pair
        mean counts half inside the ROPE and half beyond it (Benavoli et al.'s ``H(0) = 1/2``).
    edge_inside, edge_beyond : when ``on_edge > 0``, ``(p_left, p_rope, p_right)`` from the same
        posterior draws with every pair mean on the edge counted inside the ROPE, or beyond it:
        the range the half-weight convention sits in. Empty tuples when ``on_edge == 0``.
    without_prior : with ``prior > 0``, ``(p_left, p_rope, p_right)`` from the same posterior draws
        with the prior's pseudo-observation ``z_0 = 0`` removed, each draw's weights on the ``n``
        differences renormalised to sum to 1 (by the Dirichlet's aggregation property, a draw of the
        posterior with ``prior = 0``): what the probabilities rest on without the prior, so that the
        direction of its pull is computed, not assumed. An empty tuple with ``prior = 0``.
    """

    p_left: float
    p_rope: float
    p_right: float
    samples: np.ndarray = field(repr=False)
    rope: float
    prior: float
    n_resamples: int
    n: int
    pvalue: float
    on_edge: int = 0
    pair_means: int = 0
    edge_inside: tuple[float, ...] = ()
    edge_beyond: tuple[float, ...] = ()
    without_prior: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def mean(self) -> tuple[float, float, float]:
        """The posterior means of ``theta_left``, ``theta_rope``, ``theta_right``.

        Returns
        -------
        tuple of float
            ``(theta_left, theta_rope, theta_right)`` averaged over the posterior draws in
            ``samples``: the posterior probability that the mean of two differences lies left
            of, inside or right of the ROPE (they sum to 1).
        """
        m = self.samples.mean(axis=0)
        return float(m[0]), float(m[1]), float(m[2])


def _edge_tolerance(values: np.ndarray, edge: float, rtol: float, scores: tuple[np.ndarray, ...] = ()) -> float:
    """How close to the ROPE's edge a value counts as on it: ``rtol`` times the data's scale.

    The data's scale is the largest of ``edge``, the largest ``|value|`` and the largest
    ``|score|`` the values were computed from (``scores``, the two classifiers' scores): a
    difference ``y_i - x_i`` carries the binary rounding of the scores, about ``1e-16`` of
    *their* magnitude, not of its own, so scores near ``1e6`` with two decimals put a
    difference of ``0.01`` some ``1e-10`` off, which a tolerance at the differences' scale
    (``1e-9 * 0.02``) missed. With the scores in the scale, the same data in other units
    (percentage points instead of fractions, the ROPE scaled alike) or shifted by a constant
    put the same values on the edge as long as the scores have at most nine significant
    digits (``rtol = 1e-9``): far above binary rounding, far below any difference a study
    reports.
    """
    scale = max([float(edge), float(np.max(np.abs(values))) if values.size else 0.0]
                + [float(np.max(np.abs(s))) for s in scores if np.size(s)])
    return rtol * scale


@renamed_keywords(n_samples="n_resamples")
def bayesian_signed_rank(
    x: Any, y: Any, *, rope: float = 0.01, n_resamples: int = 50_000, prior: float = 0.5, rng: Any = None,
    rtol: float = TIE_RTOL,
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

    **On the ROPE's edge.** Scores such as ``0.53 - 0.52`` are not exact in binary
    floating point, so a sum ``z_i + z_j`` that is ``2 rope`` in decimal may land a
    rounding error above or below it, and ``H`` would then give it 1 or 0 depending on
    the units. One rule, as :func:`evallib.wilcoxon_signed_rank` treats near-zero
    differences: a sum within ``rtol * max(2 rope, max |z_i + z_j|, max |x_i|, max |y_i|)`` of
    ``+-2 rope`` is on the edge and gets ``H = 1/2``. The scale includes the scores, because
    a difference carries their rounding (scores near ``1e6`` with two decimals put ``0.01``
    about ``1e-10`` off). The same data in percentage points with the ROPE scaled alike
    (``rope=1`` instead of ``0.01``), or shifted by a constant, therefore give the same draws
    the same probabilities, for scores with up to nine significant digits.

    Parameters
    ----------
    x, y : sequence of float
        One mean score per data set for each classifier (higher is better), at
        least 2 data sets.
    rope : float
        Half-width of the region of practical equivalence, >= 0.
    n_resamples : int
        Posterior draws, >= 1 (Monte Carlo error of each probability <= 0.5/sqrt(n_resamples)).
    prior : float
        Weight of the pseudo-observation at 0, >= 0 (baycomp's default 0.5).
    rng : None, int, SeedSequence or Generator
        Randomness for the Dirichlet draws.
    rtol : float
        Relative tolerance in ``[0, 1e-3]`` within which a Walsh sum counts as on the ROPE's
        edge (default ``1e-9``, :data:`evallib.manydatasets.TIE_RTOL`); 0 compares exactly.

    Returns
    -------
    SignedRankResult

    Raises
    ------
    ValueError
        Fewer than 2 data sets, lengths that differ, NaN, ``rope < 0``, ``prior <
        0``, ``n_resamples < 1`` or ``rtol`` outside ``[0, 1e-3]``.

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

    >>> from evallib.studies import demsar_table_6
    >>> t6 = demsar_table_6()
    >>> res = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], rope=0.01, n_resamples=20000, rng=0)
    >>> res.p_left
    0.0
    >>> round(res.p_left + res.p_rope + res.p_right, 12)
    1.0
    """
    a, b = _check_pair(x, y, minimum=2, each="one per data set")
    rope = _check_rope(rope)
    prior = check_real(prior, "prior", low=0)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    rtol = _check_rtol(rtol)
    gen = check_rng(rng)
    on_edge, pair_means = _walsh_edge_count(a, b, rope=rope, prior=prior, rtol=rtol)
    # the edge's range from the same Dirichlet draws: weight 0 (edge inside the ROPE) and 1 (beyond it)
    draws = _signed_rank_draws(a, b, rope, n_resamples, prior, gen, rtol,
                               edges=(0.5, 0.0, 1.0) if on_edge else (0.5,), without_prior=prior > 0)
    counts, samples = draws[0]
    inside, beyond = (tuple(float(v) for v in c) for c, _ in draws[1:3]) if on_edge else ((), ())
    no_prior = tuple(float(v) for v in draws[-1][0]) if prior > 0 else ()
    d = b - a
    try:
        pvalue = wilcoxon_signed_rank(d).pvalue
    except ValueError:  # all differences zero
        pvalue = 1.0
    return SignedRankResult(p_left=float(counts[0]), p_rope=float(counts[1]), p_right=float(counts[2]),
                            samples=samples, rope=rope, prior=prior, n_resamples=n_resamples, n=int(a.size),
                            pvalue=float(pvalue), on_edge=on_edge, pair_means=pair_means, edge_inside=inside,
                            edge_beyond=beyond, without_prior=no_prior)



def _walsh_edge_count(x: Any, y: Any, *, rope: float, prior: float = 0.5,
                      rtol: float = TIE_RTOL) -> tuple[int, int]:
    """How many of :func:`bayesian_signed_rank`'s pair means ``(z_i + z_j) / 2`` (``i <= j``: each
    difference with itself included, and the prior's ``z_0 = 0`` with each difference when
    ``prior > 0``) lie on the ROPE's edge ``±rope``, with the test's own tolerance; returns
    ``(on_edge, pair_means)``. 0 on edge with ``rope = 0``."""
    a, b = _check_pair(x, y, minimum=2, each="one per data set")
    rope = _check_rope(rope)
    prior = check_real(prior, "prior", low=0)
    z = np.concatenate([[0.0], b - a])
    sums = z[:, None] + z[None, :]
    tol = _edge_tolerance(sums, 2 * rope, _check_rtol(rtol), (a, b))
    first = 1 if prior == 0 else 0
    s = sums[first:, first:][np.triu_indices(z.size - first)]
    if rope == 0:
        return 0, int(s.size)
    return int(np.count_nonzero(np.abs(np.abs(s) - 2 * rope) <= tol)), int(s.size)


def _signed_rank_draws(a: np.ndarray, b: np.ndarray, rope: float, n_resamples: int, prior: float, gen: Any,
                       rtol: float, edges: tuple[float, ...] = (0.5,),
                       without_prior: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """The signed-rank posterior's region shares and draws, one ``(counts, samples)`` per weight in
    ``edges`` that a pair mean exactly on the ROPE's edge gets beyond it (0.5: Benavoli et al.'s
    ``H(0) = 1/2``; 0: the edge inside the ROPE; 1: the edge beyond it), all from the same Dirichlet draws.
    ``without_prior`` (with ``prior > 0``): one more entry, last, from the same draws with the prior's
    pseudo-observation removed and each draw's weights on the differences renormalised (edge weight 0.5);
    by the Dirichlet's aggregation property that is a draw of the posterior with ``prior = 0``."""
    z = np.concatenate([[0.0], b - a])
    sums = z[:, None] + z[None, :]
    tol = _edge_tolerance(sums, 2 * rope, rtol, (a, b))
    weights = np.ones(z.size)
    weights[0] = prior
    if prior == 0:  # a Dirichlet weight of 0 is a point mass at 0 weight
        z, sums, weights = z[1:], sums[1:, 1:], weights[1:]
    w = gen.dirichlet(weights, n_resamples)
    out = [_region_shares(z, sums, w, rope, tol, edge) for edge in edges]
    if without_prior and prior > 0:  # the same draws, the pseudo-observation's weight removed
        rest = w[:, 1:]
        out.append(_region_shares(z[1:], sums[1:, 1:], rest / rest.sum(axis=1, keepdims=True), rope, tol, 0.5))
    return out


def _region_shares(z: np.ndarray, sums: np.ndarray, w: np.ndarray, rope: float, tol: float,
                   edge: float) -> tuple[np.ndarray, np.ndarray]:
    """The region shares and the draws ``(theta_left, theta_rope, theta_right)`` for the Dirichlet
    weights ``w`` (draws x atoms) over the atoms ``z`` (``sums`` their pairwise sums), a pair mean on
    the ROPE's edge weighing ``edge`` beyond it."""
    n_resamples = w.shape[0]
    # Sorted by increasing z_i (for theta_right) or decreasing z_i (theta_left), each row
    # of the step matrix H(+-(z_i + z_j) - 2 rope) is non-decreasing in j (0, then the edge
    # weight on exact ties, then 1), so w^T H w needs only prefix sums of the sorted weights:
    # O(n_resamples n) instead of the O(n_resamples n^2) of the double sum.
    wt = np.ascontiguousarray(w.T)                  # atoms x samples: rows gather fast
    m = z.size

    def quadratic_form(sign: float) -> np.ndarray:
        order = np.argsort(sign * z, kind="stable")
        s = sign * sums[np.ix_(order, order)]
        on = np.abs(s - 2 * rope) <= tol
        above = (s > 2 * rope) & ~on
        ws = wt[order]
        prefix = np.zeros((m + 1, n_resamples))
        np.cumsum(ws, axis=0, out=prefix[1:])
        start = np.where((on | above).any(axis=1), np.argmax(on | above, axis=1), m)  # first j on or above
        one = np.where(above.any(axis=1), np.argmax(above, axis=1), m)                 # first j above
        hw = prefix[-1] - prefix[one] + edge * (prefix[one] - prefix[start])
        return np.einsum("is,is->s", ws, hw)

    theta_right = quadratic_form(1.0)
    theta_left = quadratic_form(-1.0) if rope > 0 else 1.0 - theta_right  # H(s) + H(-s) = 1 at rope 0
    theta_rope = np.clip(1.0 - theta_left - theta_right, 0.0, 1.0)
    samples = np.column_stack([theta_left, theta_rope, theta_right])
    if rope > 0:
        counts = np.bincount(np.argmax(samples, axis=1), minlength=3) / n_resamples
    else:
        counts = np.bincount(np.argmax(samples[:, [0, 2]], axis=1) * 2, minlength=3) / n_resamples
    return counts, samples


# ------------------------------------------------------------------ sign test
@renamed_fields(n_samples="n_resamples")
@dataclass(frozen=True, eq=False)
class SignTestPosterior:
    """The Bayesian sign test over many data sets (Benavoli et al. 2014, 2017).

    Attributes
    ----------
    p_left, p_rope, p_right : posterior probabilities that ``left``, ``rope`` or
        ``right`` is the most probable region (the share of posterior draws in which
        it is), as baycomp's ``SignTest.probs``; Monte Carlo error about
        ``sqrt(p (1 - p) / n_resamples)``.
    samples : array ``(n_resamples, 3)`` of Dirichlet draws
        of ``(theta_left, theta_rope, theta_right)``, the shares of data sets (of the
        population they stand for) on which ``x`` is practically better, the two are
        equivalent, or ``y`` is practically better.
    counts : ``(n_left, n_rope, n_right)``, the data sets in each region.
    rope, prior, prior_place, n_resamples, n : the options (``n_resamples`` posterior draws) and
        the number of data sets.
    pvalue : the frequentist reading: the two-sided exact sign test on the same
        differences (rope ignored, ties shared as Demšar does; :func:`evallib.sign_test`).
    """

    p_left: float
    p_rope: float
    p_right: float
    samples: np.ndarray = field(repr=False)
    counts: tuple[int, int, int]
    rope: float
    prior: float
    prior_place: str
    n_resamples: int
    n: int
    pvalue: float

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def mean(self) -> tuple[float, float, float]:
        """The posterior means of ``theta_left``, ``theta_rope``, ``theta_right``: ``(n_r + a_r) / (n + s)``.

        Returns
        -------
        tuple of float
            ``(theta_left, theta_rope, theta_right)`` averaged over the posterior draws in
            ``samples`` (a Monte Carlo estimate of ``(n_r + a_r) / (n + s)``): the posterior
            shares of data sets left of, inside and right of the ROPE (they sum to 1).
        """
        m = self.samples.mean(axis=0)
        return float(m[0]), float(m[1]), float(m[2])


@renamed_keywords(n_samples="n_resamples")
def bayesian_sign_test(
    x: Any, y: Any, *, rope: float = 0.01, prior: float = 1.0, prior_place: str = "rope",
    n_resamples: int = 50_000, rng: Any = None, rtol: float = TIE_RTOL,
) -> SignTestPosterior:
    """Bayesian sign test for two classifiers over many data sets.

    Each data set's difference ``z_i = y_i - x_i`` falls left of the ROPE (``z_i <
    -rope``), inside it, or right of it (``z_i > rope``); with counts ``n_left``,
    ``n_rope``, ``n_right`` and a Dirichlet-process prior of strength ``prior``
    whose pseudo-observation sits in ``prior_place``, the posterior of the three
    population shares is (Benavoli et al. 2014, section 3; 2017, section 4.2)

        ``(theta_left, theta_rope, theta_right) ~ Dirichlet(n_left + a_left, n_rope + a_rope, n_right + a_right)``

    with ``a = prior`` in ``prior_place`` and 0 elsewhere. Each region's probability
    is the share of draws in which its ``theta`` is the largest. Unlike the
    signed-rank test it ignores how far outside the ROPE a difference lies, so it
    is robust to a few extreme data sets and less powerful otherwise.

    Parameters
    ----------
    x, y : sequence of float
        One mean score per data set for each classifier (higher is better), at
        least 2 data sets.
    rope : float
        Half-width of the region of practical equivalence, >= 0.
    prior : float
        Strength of the prior pseudo-observation, >= 0 (baycomp's default 1).
    prior_place : {"rope", "left", "right"}
        Where it sits (baycomp's default: the ROPE, a prior lean towards equivalence).
    n_resamples : int
        Posterior draws, >= 1.
    rng : None, int, SeedSequence or Generator
    rtol : float
        Relative tolerance in ``[0, 1e-3]`` within which a difference counts as on the ROPE's
        edge, and so inside the ROPE (default ``1e-9``); 0 compares exactly.

    Returns
    -------
    SignTestPosterior

    Raises
    ------
    ValueError
        Fewer than 2 data sets, lengths that differ, NaN, ``rope < 0``, ``prior <
        0``, an unknown ``prior_place``, ``n_resamples < 1`` or ``rtol`` outside ``[0, 1e-3]``.

    Notes
    -----
    A Dirichlet parameter of 0 (a region with no data set and no prior weight) is
    a point mass at 0: that ``theta`` is exactly 0 in every draw (baycomp adds
    0.0001 to every count instead; the two differ by far less than the Monte Carlo
    error). A difference on the ROPE's edge counts in the ROPE, and "on the edge" has a
    tolerance, as in :func:`bayesian_signed_rank`: ``|z_i| - rope`` within ``rtol *
    max(rope, max |z_i|, max |x_i|, max |y_i|)`` of 0, so that ``0.53 - 0.52`` (``0.010000000000000009`` in
    binary) is on the edge of ``rope=0.01`` just as ``53 - 52`` is on that of ``rope=1``.
    With ``rope = 0`` a difference of 0 (up to the same tolerance) counts in the ROPE.

    References
    ----------
    Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A
    Bayesian Wilcoxon signed-rank test based on the Dirichlet process. ICML, PMLR
    32(2), 1026-1034.
    Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change.
    JMLR 18(77), 1-36, section 4.2.

    Examples
    --------
    Demšar's Table 2 (C4.5 vs C4.5+m), ROPE 0.01 AUC: no data set left of the ROPE,
    8 inside, 6 right, so the posterior mean of ``theta_right`` is (6 + 0)/(14 + 1),
    and "equivalent" is the most probable region in most draws:

    >>> from evallib.studies import demsar_table_6
    >>> t6 = demsar_table_6()
    >>> res = bayesian_sign_test(t6["C4.5"], t6["C4.5+m"], rope=0.01, n_resamples=20000, rng=0)
    >>> res.counts
    (0, 8, 6)
    >>> round(res.mean()[2], 2), round(6 / 15, 2)
    (0.4, 0.4)
    >>> res.p_left, res.p_rope > 0.5
    (0.0, True)
    """
    a, b = _check_pair(x, y, minimum=2, each="one per data set")
    rope = _check_rope(rope)
    prior = check_real(prior, "prior", low=0)
    prior_place = check_choice(prior_place, "prior_place", REGIONS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    rtol = _check_rtol(rtol)
    gen = check_rng(rng)
    d = b - a
    tol = _edge_tolerance(d, rope, rtol, (a, b))
    counts = (int((d < -rope - tol).sum()), 0, int((d > rope + tol).sum()))
    counts = (counts[0], int(d.size - counts[0] - counts[2]), counts[2])
    alpha = np.array(counts, dtype=float)
    alpha[REGIONS.index(prior_place)] += prior
    samples = np.zeros((n_resamples, 3))
    live = np.flatnonzero(alpha > 0)
    if live.size == 1:
        samples[:, live[0]] = 1.0
    else:
        samples[:, live] = gen.dirichlet(alpha[live], n_resamples)
    winners = np.bincount(np.argmax(samples, axis=1), minlength=3) / n_resamples
    try:
        pvalue = sign_test(d).pvalue
    except ValueError:
        pvalue = 1.0
    return SignTestPosterior(p_left=float(winners[0]), p_rope=float(winners[1]), p_right=float(winners[2]),
                             samples=samples, counts=counts, rope=rope, prior=prior, prior_place=prior_place,
                             n_resamples=n_resamples, n=int(d.size), pvalue=float(pvalue))


def plot_simplex(result: Any, *, names: tuple[str, str] = ("x", "y"), max_points: int = 5000, ax=None):
    """The posterior samples of :func:`bayesian_signed_rank` in the probability simplex.

    Each draw ``(theta_left, theta_rope, theta_right)`` is a point of the triangle
    whose corners are certainty of "``x`` practically better" (bottom left), "``y`` practically
    better" (bottom right) and "practically equivalent" (top), as the labels read; the three lines from the centre split
    it into the regions where each is the largest (Benavoli et al. 2017, Figure 5).

    Parameters
    ----------
    result : SignedRankResult, SignTestPosterior or array of shape (m, 3)
    names : the two classifiers' names, for the corners.
    max_points : at most this many samples are drawn (the first ones); when there are more, a caption
        under the triangle says how many of them it shows, and that the probabilities at the corners
        use all of them.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    is_result = isinstance(result, (SignedRankResult, SignTestPosterior))
    samples = result.samples if is_result else np.asarray(result, dtype=float)
    if samples.ndim != 2 or samples.shape[1] != 3 or samples.shape[0] < 1:
        raise ValueError("result must be a SignedRankResult, a SignTestPosterior or an array of shape (m, 3)")
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
    if is_result:
        probs = (result.p_left, result.p_rope, result.p_right)
    else:
        probs = tuple(np.bincount(winner, minlength=3) / winner.size)
    # a share of the draws, printed by the one rule the reports use (never 1.000 for 0.99986)
    shown = [share_text(p, samples.shape[0]) for p in probs]
    # the regions spelled as the reports' sentences spell them: "P(A practically better)", "P(practically equivalent)"
    ax.text(-0.03, -0.05, f"{names[0]} practically better\n{shown[0]}", ha="center", va="top", fontsize="small")
    ax.text(1.03, -0.05, f"{names[1]} practically better\n{shown[2]}", ha="center", va="top", fontsize="small")
    ax.text(0.5, math.sqrt(3) / 2 + 0.03, f"practically equivalent (ROPE)\n{shown[1]}", ha="center", va="bottom",
            fontsize="small")
    if samples.shape[0] > max_points:
        ax.text(0.5, 0.0, f"{max_points:,} of the {samples.shape[0]:,} posterior draws shown (the first); "
                "the probabilities use all of them", transform=ax.transAxes, ha="center", va="top",
                fontsize="x-small")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.2, 1.07)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


@renamed_keywords(n_samples="n_resamples")
def plot_bayesian_signed_rank(
    x: Any, y: Any, *, rope: float = 0.01, n_resamples: int = 20_000, rng: Any = None,
    names: tuple[str, str] = ("x", "y"), ax=None,
):
    """Run :func:`bayesian_signed_rank` and draw its simplex (the notebook's ROPE slider).

    Parameters
    ----------
    x, y, rope
        As for :func:`bayesian_signed_rank`.
    n_resamples : int
        Posterior draws, >= 1 (default 20,000, fewer than :func:`bayesian_signed_rank`'s
        50,000, so that a slider move stays quick).
    rng : None, int, SeedSequence or Generator
        Randomness for the Dirichlet draws.
    names : (str, str)
        The two classifiers' names, for the corners and the title (default ``("x", "y")``).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure (as :func:`plot_simplex`).

    Returns
    -------
    matplotlib.axes.Axes
        Titled with the share of posterior samples in which each outcome is the most probable
        (``p_left``, ``p_rope``, ``p_right``; not the posterior probability of each region, which
        is the mean of ``samples``) and Wilcoxon's p-value beside them.
    """
    res = bayesian_signed_rank(x, y, rope=rope, n_resamples=n_resamples, rng=rng)
    ax = plot_simplex(res, names=names, ax=ax)
    ax.set_title(f"ROPE ±{res.rope:g}, share of posterior samples in which each outcome is the most probable:\n"
                 f"{names[0]} better {share_text(res.p_left, res.n_resamples)}, equivalent "
                 f"{share_text(res.p_rope, res.n_resamples)}, {names[1]} better {share_text(res.p_right, res.n_resamples)}\n"
                 f"(frequentist reading: Wilcoxon {format_p(res.pvalue)}, which ignores the ROPE)",
                 fontsize="small")
    return ax
