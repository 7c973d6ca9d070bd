"""The Bayesian hierarchical model for two classifiers on many data sets, with a NumPy sampler.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017) model every cross-validation score,
not one mean per data set: on data set ``i`` the ``m`` differences ``x_ij`` (``y`` minus
``x``, one per fold of repeated cross-validation) are correlated normal,

    ``x_i ~ MVN(delta_i 1, sigma_i^2 M)``, ``M = (1 - rho) I + rho 1 1'``, ``rho = 1/folds``

(Nadeau & Bengio's correlation of overlapping training sets), and the data sets' mean
differences come from a Student t population,

    ``delta_i ~ t(nu, delta_0, sigma_0)``,

with ``delta_0 ~ U(-max|x|, max|x|)``, ``sigma_0 ~ U(0, 1000 s_among)``, ``sigma_i ~
U(0, 1000 s_within)``, ``nu - 1 ~ Gamma(a, b)``, ``a ~ U(1, 2)``, ``b ~ U(0.01, 0.1)``
(baycomp's defaults, on differences divided by the mean within-data-set SD). The
answer is about the *next* data set: ``P(delta_new < -rope)``, ``P(|delta_new| <=
rope)``, ``P(delta_new > rope)`` under the population t, one triple per posterior
draw, and the share of draws in which each region is the most probable.

baycomp's ``HierarchicalTest`` runs this in Stan, which needs a C++ toolchain
(baycomp issue #1). :func:`hierarchical_test` samples the same posterior with a Gibbs
sampler in NumPy: the compound-symmetric likelihood reduces to each data set's mean
and within sum of squares, the t population is a scale mixture of normals, and every
conditional but two is a (truncated) normal or gamma; ``nu`` is updated by a
Metropolis step on ``log(nu - 1)`` with the mixing weights integrated out, and ``a``
by an independence Metropolis step. Several chains run side by side, vectorised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._bayes import _check_rope
from .._compat import renamed_fields, renamed_keywords
from .._results import freeze_arrays
from .._validate import align_items, check_array, check_count, check_rng

__all__ = ["HierarchicalResult", "hierarchical_test"]

#: Lower bound of every ``sigma_i`` on the standardised scale (1/1000 of the mean
#: within-data-set SD): keeps the posterior proper when a data set's differences are all equal.
SIGMA_FLOOR = 1e-3
#: Lower bound of ``sigma_0`` on the standardised scale: when the data sets agree almost
#: exactly the conditional of ``1/sigma_0^2`` can put mass at values that overflow.
STD0_FLOOR = 1e-6


@renamed_fields(n_samples="n_resamples")
@dataclass(frozen=True, eq=False)
class HierarchicalResult:
    """The Bayesian hierarchical test (Corani et al. 2017).

    Attributes
    ----------
    p_left, p_rope, p_right : posterior probabilities that, for the next data set,
        ``left`` (``x`` practically better), ``rope`` or ``right`` is the most probable
        region (baycomp's ``probs``).
    mc_error : Monte Carlo standard errors of the three probabilities (batch means
        over each chain, so autocorrelation is accounted for).
    samples : array ``(n_resamples, 3)``, per posterior draw the probabilities of the
        three regions for the next data set (:func:`evallib.plot_simplex` draws them).
    delta0, std0, nu : arrays ``(n_resamples,)``, draws of the population mean
        difference, its scale and degrees of freedom, in the scores' units.
    delta : pandas.Series, the posterior mean of each data set's mean difference
        ``delta_i`` (shrunk towards ``delta0``).
    rhat : the largest split-R-hat of ``delta0``, ``std0`` and ``log(nu)`` over the
        chains (near 1 when they agree; above 1.05 run longer).
    rope, rho, n, m, chains, burn_in, n_resamples : the options (``n_resamples`` posterior
        draws), the numbers of data sets and of scores per data set.
    """

    p_left: float
    p_rope: float
    p_right: float
    mc_error: tuple[float, float, float]
    samples: np.ndarray = field(repr=False)
    delta0: np.ndarray = field(repr=False)
    std0: np.ndarray = field(repr=False)
    nu: np.ndarray = field(repr=False)
    delta: pd.Series = field(repr=False)
    rhat: float
    rope: float
    rho: float
    n: int
    m: int
    chains: int
    burn_in: int
    n_resamples: int

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def mean(self) -> tuple[float, float, float]:
        """Posterior means of the three region probabilities for the next data set.

        Returns
        -------
        tuple of float
            ``(left, rope, right)``: the probabilities, for the next data set, that the mean
            difference lies left of the ROPE (``x`` practically better), inside it, or right
            of it, averaged over the posterior draws in ``samples`` (they sum to 1).
        """
        mu = self.samples.mean(axis=0)
        return float(mu[0]), float(mu[1]), float(mu[2])


# ------------------------------------------------------------------ the sampler
def _truncated_gamma(gen, shape, rate, lo, hi):
    """Gamma(shape, rate) draws truncated to ``[lo, hi]`` (arrays broadcast together)."""
    shape, rate, lo, hi = np.broadcast_arrays(shape, rate, lo, hi)
    x = gen.gamma(shape, 1.0 / rate)
    bad = (x < lo) | (x > hi)
    if bad.any():
        a, r = shape[bad], rate[bad]
        plo, phi = special.gammainc(a, lo[bad] * r), special.gammainc(a, hi[bad] * r)
        u = plo + gen.random(a.shape) * (phi - plo)
        y = np.where(u < 0.5, special.gammaincinv(a, u), special.gammainccinv(a, 1.0 - u))
        x = x.copy()
        x[bad] = np.clip(y / r, lo[bad], hi[bad])
    return x


def _truncated_normal(gen, mean, sd, lo, hi):
    a, b = special.ndtr((lo - mean) / sd), special.ndtr((hi - mean) / sd)
    u = a + gen.random(np.shape(mean)) * (b - a)
    return np.clip(mean + sd * special.ndtri(np.clip(u, 1e-300, 1 - 1e-16)), lo, hi)


def _t_loglik(nu, delta, delta0, std0):
    """Sum over data sets of log t_nu(delta_i; delta0, std0); arrays (C,), (C, q), (C,), (C,)."""
    z2 = ((delta - delta0[:, None]) / std0[:, None]) ** 2
    q = delta.shape[1]
    return (q * (special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2) - 0.5 * np.log(nu * math.pi)
                 - np.log(std0))
            - (nu + 1) / 2 * np.log1p(z2 / nu[:, None]).sum(axis=1))


def _gibbs(xbar, ss, m, rho, bounds, *, n_keep, burn_in, thin, gen):
    """Run ``C`` chains of the Gibbs sampler; each chain may have its own data and bounds.

    ``xbar`` and ``ss`` are ``(C, q)``: each data set's mean difference and within sum of
    squares (standardised units); ``bounds`` a dict of ``(C,)`` arrays ``delta_hi``,
    ``std0_hi``, ``std_hi``; the Gamma hyper-prior bounds are baycomp's. Returns draws
    of ``delta0``, ``std0``, ``nu`` ``(n_keep, C)`` and the running sum of ``delta``.
    """
    c_chains, q = xbar.shape
    cvar = (1.0 + (m - 1) * rho) / m                # Var(xbar_i) / sigma_i^2
    within = ss / (1.0 - rho)
    d_hi, s0_hi, s_hi = bounds["delta_hi"], bounds["std0_hi"], bounds["std_hi"]
    # a start inside the support, from the data
    delta = xbar.copy()
    sigma2 = np.maximum(ss / max(m - 1, 1), SIGMA_FLOOR ** 2)
    delta0 = np.clip(xbar.mean(axis=1), -d_hi, d_hi)
    std0 = np.clip(xbar.std(axis=1) + 0.1, 1e-3, s0_hi)
    nu = np.full(c_chains, 10.0)
    lam = np.ones((c_chains, q))
    ga, gb = np.full(c_chains, 1.5), np.full(c_chains, 0.05)
    step = np.full(c_chains, 0.7)
    out = {k: np.empty((n_keep, c_chains)) for k in ("delta0", "std0", "nu")}
    delta_sum = np.zeros((c_chains, q))
    total = burn_in + n_keep * thin
    kept = 0
    for it in range(total):
        # delta_i | lambda_i, sigma_i, delta0, std0: normal prior x normal likelihood
        prec = lam / std0[:, None] ** 2 + 1.0 / (sigma2 * cvar)
        mean = (lam * delta0[:, None] / std0[:, None] ** 2 + xbar / (sigma2 * cvar)) / prec
        delta = mean + gen.standard_normal((c_chains, q)) / np.sqrt(prec)
        # 1/sigma_i^2 | delta_i: Gamma((m - 1)/2, B/2), sigma_i in [floor, std_hi]
        rate = 0.5 * (within + (xbar - delta) ** 2 / cvar)
        tau = _truncated_gamma(gen, (m - 1) / 2.0, np.maximum(rate, 1e-300),
                               1.0 / s_hi[:, None] ** 2, 1.0 / SIGMA_FLOOR ** 2)
        sigma2 = 1.0 / tau
        # delta0 | lambda, delta, std0: normal truncated to [-delta_hi, delta_hi]
        wsum = lam.sum(axis=1)
        delta0 = _truncated_normal(gen, (lam * delta).sum(axis=1) / wsum, std0 / np.sqrt(wsum), -d_hi, d_hi)
        # 1/std0^2 | lambda, delta, delta0: Gamma((q - 1)/2, S/2), std0 in (0, std0_hi]
        spread = 0.5 * (lam * (delta - delta0[:, None]) ** 2).sum(axis=1)
        tau0 = _truncated_gamma(gen, max((q - 1) / 2.0, 1e-3), np.maximum(spread, 1e-300),
                                1.0 / s0_hi ** 2, np.full(c_chains, 1.0 / STD0_FLOOR ** 2))
        std0 = 1.0 / np.sqrt(tau0)
        # nu | delta, delta0, std0 (lambda integrated out): random-walk Metropolis on log(nu - 1)
        eta = np.log(nu - 1.0)
        prop = eta + step * gen.standard_normal(c_chains)
        nu_new = 1.0 + np.exp(prop)

        def log_target(nu_, eta_):
            return (_t_loglik(nu_, delta, delta0, std0)
                    + (ga - 1.0) * eta_ - gb * np.exp(eta_) + eta_)   # Gamma(nu - 1; a, b) and the Jacobian

        accept = np.log(gen.random(c_chains)) < log_target(nu_new, prop) - log_target(nu, eta)
        nu = np.where(accept, nu_new, nu)
        if it < burn_in:                                              # adapt the step during burn-in only
            step *= np.exp(0.05 * (accept - 0.44))
        # lambda_i | nu, delta, delta0, std0
        z2 = ((delta - delta0[:, None]) / std0[:, None]) ** 2
        lam = gen.gamma((nu[:, None] + 1.0) / 2.0, 2.0 / (nu[:, None] + z2))
        # b | a, nu: Gamma(a + 1, nu - 1) on [0.01, 0.1]; a | b, nu: independence Metropolis on [1, 2]
        gb = _truncated_gamma(gen, ga + 1.0, nu - 1.0, np.full(c_chains, 0.01), np.full(c_chains, 0.1))
        ga_new = 1.0 + gen.random(c_chains)
        log_ratio = ((ga_new - ga) * (np.log(gb) + np.log(nu - 1.0))
                     - special.gammaln(ga_new) + special.gammaln(ga))
        ga = np.where(np.log(gen.random(c_chains)) < log_ratio, ga_new, ga)
        if it >= burn_in and (it - burn_in) % thin == thin - 1:
            out["delta0"][kept], out["std0"][kept], out["nu"][kept] = delta0, std0, nu
            delta_sum += delta
            kept += 1
    return out, delta_sum / max(kept, 1)


def _split_rhat(draws: np.ndarray) -> float:
    """Split-R-hat (Gelman et al. 2013) of draws ``(n, chains)``."""
    n = draws.shape[0] // 2
    if n < 2:
        return math.nan
    halves = np.concatenate([draws[:n], draws[n:2 * n]], axis=1)
    w = halves.var(axis=0, ddof=1).mean()
    b = n * halves.mean(axis=0).var(ddof=1)
    if w <= 0:
        return 1.0
    return float(math.sqrt(((n - 1) / n * w + b / n) / w))


def _check_scores_2d(values: Any, name: str) -> np.ndarray:
    arr = check_array(values, name, ndim=2, minimum=0, what="scores", each="data sets x folds")
    if arr.shape[0] < 2 or arr.shape[1] < 2:
        raise ValueError(f"{name} must have at least 2 data sets and 2 scores per data set, got shape {arr.shape}")
    return arr


@renamed_keywords(n_samples="n_resamples")
def hierarchical_test(
    x: Any, y: Any, *, rope: float = 0.01, runs: int = 1, n_resamples: int = 10_000, chains: int = 4,
    burn_in: int = 1_000, thin: int = 1, rng: Any = None,
) -> HierarchicalResult:
    """Bayesian hierarchical comparison of two classifiers on many data sets (Corani et al. 2017).

    The model, its priors and its answer are those of baycomp's ``HierarchicalTest``
    (see the module docstring): for each posterior draw of the population's
    ``(delta_0, sigma_0, nu)``,

        ``theta_left = T_nu((-rope - delta_0)/sigma_0)``,
        ``theta_right = 1 - T_nu((rope - delta_0)/sigma_0)``,
        ``theta_rope = 1 - theta_left - theta_right``

    (``T_nu`` the Student t CDF), the probabilities that the next data set's mean
    difference lies left of, in, or right of the ROPE; a region's probability is
    the share of draws in which it is the largest. The posterior is sampled by
    Gibbs/Metropolis-within-Gibbs in NumPy (no Stan, no compiler).

    Parameters
    ----------
    x, y : 2-D array
        The two classifiers' scores (higher is better), one row per data set (at
        least 2), one column per fold of (repeated) cross-validation (at least 2),
        the same folds for both: ``runs`` repetitions of ``m / runs``-fold CV.
    rope : float
        Half-width of the region of practical equivalence, >= 0, in the scores' units.
    runs : int
        Repetitions of cross-validation in each row; the correlation is ``rho =
        runs / m`` (one over the folds), which needs ``m / runs >= 2``.
    n_resamples : int
        Posterior draws kept, over all chains (>= ``chains``).
    chains : int
        Independent chains run side by side (>= 1; R-hat needs 2 or more).
    burn_in : int
        Iterations discarded at the start of each chain (>= 0); the Metropolis step
        for ``nu`` adapts during them.
    thin : int
        Keep every ``thin``-th iteration (>= 1).
    rng : None, int, SeedSequence or Generator

    Returns
    -------
    HierarchicalResult

    Raises
    ------
    ValueError
        Shapes that differ or are not 2-D, fewer than 2 data sets or scores, NaN,
        ``rope < 0``, ``runs`` that does not divide the scores into folds of at
        least 2, bad counts.

    Notes
    -----
    The differences are divided by ``s``, the mean over data sets of the SD of the
    differences (baycomp's scaling), so the priors are scale-free. Degenerate but
    legal input: a data set whose differences are all equal (identical predictions
    on every fold) has a likelihood that grows without bound as its ``sigma_i``
    shrinks, so ``sigma_i`` is kept above 1/1000 of ``s``, and ``sigma_0`` above
    ``10^-6 s`` for the same reason (baycomp instead replaces
    such a data set's scores by noise inside the ROPE); if every data set is like
    that, ``s`` is the largest absolute difference; if every difference is 0 the
    classifiers never differ and the answer is ``p_rope = 1`` without sampling
    (all mass at a difference of 0, inside even a ROPE of width 0).

    References
    ----------
    Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017).
    Statistical comparison of classifiers through Bayesian hierarchical modelling.
    Machine Learning 106(11), 1817-1837.
    Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change.
    JMLR 18(77), 1-36, section 6.
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine
    Learning 52(3), 239-281.

    Examples
    --------
    Ten data sets, 10-fold CV; ``y`` is better by 0.03 on every data set, far
    outside a ROPE of 0.01, so the next data set is almost surely "right":

    >>> import numpy as np
    >>> from evallib.manydatasets import hierarchical_test
    >>> gen = np.random.default_rng(0)
    >>> x = gen.uniform(0.7, 0.9, (10, 1)) + gen.normal(0, 0.02, (10, 10))
    >>> y = x + 0.03 + gen.normal(0, 0.01, (10, 10))
    >>> res = hierarchical_test(x, y, rope=0.01, n_resamples=4000, rng=1)
    >>> res.p_right > 0.95, res.p_left
    (True, 0.0)
    """
    x, y = align_items([("x", x), ("y", y)])
    a = _check_scores_2d(x, "x")
    b = _check_scores_2d(y, "y")
    if a.shape != b.shape:
        raise ValueError(f"x has shape {a.shape} but y has {b.shape}; the scores must be paired fold by fold")
    rope = _check_rope(rope)
    q, m = a.shape
    runs = check_count(runs, "runs", minimum=1)
    if m % runs or m // runs < 2:
        raise ValueError(f"runs must divide the {m} scores per data set into folds of at least 2, got {runs}")
    chains = check_count(chains, "chains", minimum=1)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=chains)
    burn_in = check_count(burn_in, "burn_in", minimum=0)
    thin = check_count(thin, "thin", minimum=1)
    gen = check_rng(rng)
    rho = runs / m
    diff = b - a
    scale = float(np.mean(np.std(diff, axis=1)))
    if scale <= 0:
        scale = float(np.max(np.abs(diff)))
    if scale <= 0:   # the classifiers never differ
        point = np.tile([0.0, 1.0, 0.0], (n_resamples, 1))
        zeros = np.zeros(n_resamples)
        return HierarchicalResult(p_left=0.0, p_rope=1.0, p_right=0.0, mc_error=(0.0, 0.0, 0.0), samples=point,
                                  delta0=zeros, std0=zeros, nu=zeros + np.inf,
                                  delta=pd.Series(np.zeros(q), name="delta"), rhat=1.0, rope=rope, rho=rho,
                                  n=q, m=m, chains=chains, burn_in=burn_in, n_resamples=n_resamples)
    z = diff / scale
    xbar = z.mean(axis=1)
    ss = ((z - xbar[:, None]) ** 2).sum(axis=1)
    std_within = float(np.mean(np.std(z, axis=1)))
    std_among = float(np.std(xbar))
    delta_hi = float(np.max(np.abs(z)))
    bounds = {"delta_hi": np.full(chains, delta_hi),
              "std0_hi": np.full(chains, 1000.0 * max(std_among, std_within, 1e-12)),
              "std_hi": np.full(chains, 1000.0 * max(std_within, 1e-12))}
    per_chain = -(-n_resamples // chains)
    draws, delta_mean = _gibbs(np.tile(xbar, (chains, 1)), np.tile(ss, (chains, 1)), m, rho, bounds,
                               n_keep=per_chain, burn_in=burn_in, thin=thin, gen=gen)
    r = rope / scale
    d0, s0, nu = draws["delta0"], draws["std0"], draws["nu"]
    left = stats.t.cdf((-r - d0) / s0, nu)
    right = stats.t.sf((r - d0) / s0, nu)
    theta = np.stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right], axis=-1)   # (n, chains, 3)
    if rope == 0:
        winner = np.where(right > left, 2, 0)
    else:
        winner = np.argmax(theta, axis=-1)
    onehot = np.stack([winner == j for j in range(3)], axis=-1).astype(float)          # (n, chains, 3)
    flat = onehot.reshape(-1, 3)[:n_resamples]
    probs = flat.mean(axis=0)
    n_batches = min(20, per_chain)
    usable = per_chain // n_batches * n_batches
    batch = onehot[:usable].reshape(n_batches, usable // n_batches, chains, 3).mean(axis=1).reshape(-1, 3)
    mc_error = tuple(float(v) for v in batch.std(axis=0, ddof=1) / math.sqrt(batch.shape[0])) \
        if batch.shape[0] > 1 else (math.nan, math.nan, math.nan)
    rhat = max(_split_rhat(d0), _split_rhat(s0), _split_rhat(np.log(nu))) if chains >= 2 or per_chain >= 4 \
        else math.nan
    keep = slice(0, n_resamples)
    return HierarchicalResult(
        p_left=float(probs[0]), p_rope=float(probs[1]), p_right=float(probs[2]), mc_error=mc_error,
        samples=theta.reshape(-1, 3)[keep], delta0=(d0 * scale).reshape(-1)[keep],
        std0=(s0 * scale).reshape(-1)[keep], nu=nu.reshape(-1)[keep],
        delta=pd.Series(delta_mean.mean(axis=0) * scale, name="delta"), rhat=float(rhat), rope=rope, rho=rho,
        n=q, m=m, chains=chains, burn_in=burn_in, n_resamples=n_resamples)
