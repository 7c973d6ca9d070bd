"""The Bayesian hierarchical model and the Bayesian sign test (issue 26).

Validation of the NumPy sampler by simulation-based calibration (Talts et al. 2018):
parameters drawn from the prior, data from the model, and the rank of each true
parameter among the posterior draws must be uniform; a mis-specified sampler (wrong
correlation) must fail the same check. The sign test is checked against baycomp's
SignTest with the same prior, within Monte Carlo error, and against the Dirichlet
posterior's closed-form means.
"""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from evallib.manydatasets._bayesian import bayesian_sign_test, plot_simplex  # noqa: E402
from evallib.manydatasets._hierarchical import _gibbs, hierarchical_test  # noqa: E402
from evallib.studies import demsar_table_6  # noqa: E402


# -------------------------------------------------------- calibration (SBC)
def _simulate(gen, reps, q, m, rho):
    """Parameters from the model's prior (fixed bounds) and the data's sufficient statistics."""
    delta0 = gen.uniform(-3, 3, reps)
    std0 = gen.uniform(0, 2, reps)
    ga, gb = gen.uniform(1, 2, reps), gen.uniform(0.01, 0.1, reps)
    nu = 1 + gen.gamma(ga, 1 / gb)
    delta = delta0[:, None] + std0[:, None] * gen.standard_t(nu[:, None], (reps, q))
    sigma = gen.uniform(1e-3, 2, (reps, q))
    cvar = (1 + (m - 1) * rho) / m
    xbar = delta + sigma * math.sqrt(cvar) * gen.standard_normal((reps, q))
    ss = sigma ** 2 * (1 - rho) * gen.chisquare(m - 1, (reps, q))
    return dict(delta0=delta0, std0=std0, nu=nu), xbar, ss


def _sbc_pvalues(rho_data, rho_model, seed=0, reps=300, q=4, m=10):
    gen = np.random.default_rng(seed)
    truth, xbar, ss = _simulate(gen, reps, q, m, rho_data)
    bounds = {"delta_hi": np.full(reps, 3.0), "std0_hi": np.full(reps, 2.0), "std_hi": np.full(reps, 2.0)}
    draws, _ = _gibbs(xbar, ss, m, rho_model, bounds, n_keep=99, burn_in=400, thin=6, gen=gen)
    out = {}
    for name in ("delta0", "std0"):
        ranks = (draws[name] < truth[name][None, :]).sum(axis=0)          # 0 .. 99, uniform if calibrated
        counts = np.bincount(ranks // 10, minlength=10)
        out[name] = stats.chisquare(counts).pvalue
    return out


def test_sampler_is_calibrated_by_simulation():
    pvals = _sbc_pvalues(rho_data=0.1, rho_model=0.1)
    assert min(pvals.values()) > 1e-3, pvals


def test_calibration_check_catches_a_wrong_correlation():
    # data made with rho = 0.5 analysed as if rho = 0: the folds' shared noise is taken for
    # spread between data sets, and the ranks of the true sigma_0 pile up at one end
    pvals = _sbc_pvalues(rho_data=0.5, rho_model=0.0, seed=1)
    assert min(pvals.values()) < 1e-4, pvals


# ------------------------------------------------------------ the public test
def _cv_scores(seed, n=12, m=10, effect=0.0, noise=0.02, spread=0.005):
    gen = np.random.default_rng(seed)
    x = gen.uniform(0.7, 0.9, (n, 1)) + gen.normal(0, noise, (n, m))
    y = x + effect + gen.normal(0, spread, (n, 1)) + gen.normal(0, noise / 2, (n, m))
    return x, y


def test_clear_win_equivalence_and_symmetry():
    x, y = _cv_scores(0, effect=0.04)
    win = hierarchical_test(x, y, rope=0.01, n_resamples=4000, rng=0)
    assert win.p_right > 0.95 and win.p_left == 0.0
    assert win.rhat < 1.05
    mirror = hierarchical_test(y, x, rope=0.01, n_resamples=1000, rng=0)
    assert mirror.p_left > 0.95 and mirror.p_right == 0.0
    x, y = _cv_scores(1, effect=0.0, noise=0.005, spread=0.001)
    same = hierarchical_test(x, y, rope=0.02, n_resamples=1000, rng=0)
    assert same.p_rope > 0.9
    assert np.allclose(win.samples.sum(axis=1), 1.0)
    assert sum((win.p_left, win.p_rope, win.p_right)) == pytest.approx(1.0)
    assert all(e >= 0 for e in win.mc_error)


def test_population_mean_tracks_the_mean_difference_and_shrinks_data_sets():
    x, y = _cv_scores(2, n=30, effect=0.02, spread=0.01)
    res = hierarchical_test(x, y, rope=0.01, n_resamples=4000, rng=2)
    observed = (y - x).mean(axis=1)
    assert np.median(res.delta0) == pytest.approx(observed.mean(), abs=0.005)
    # partial pooling: the data sets' posterior means are pulled towards the population mean
    assert np.std(res.delta) < np.std(observed)


def test_reproducible_and_rope_zero():
    x, y = _cv_scores(3, effect=0.01)
    a = hierarchical_test(x, y, rope=0.0, n_resamples=500, rng=5)
    b = hierarchical_test(x, y, rope=0.0, n_resamples=500, rng=5)
    assert a.p_right == b.p_right and a.p_rope == 0.0
    assert a.p_left + a.p_right == pytest.approx(1.0)


def test_degenerate_inputs_have_defined_answers():
    x = np.full((5, 10), 0.8)
    same = hierarchical_test(x, x.copy(), rope=0.0, n_resamples=100)
    assert (same.p_left, same.p_rope, same.p_right) == (0.0, 1.0, 0.0)
    # one data set with identical differences on every fold: still a proper posterior
    x, y = _cv_scores(4, effect=0.03)
    y[0] = x[0] + 0.03
    res = hierarchical_test(x, y, rope=0.01, n_resamples=2000, rng=0)
    assert np.isfinite(res.delta0).all() and res.p_right > 0.9


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        (dict(x=np.ones(10), y=np.ones(10)), ValueError, "two-dimensional"),
        (dict(x=np.ones((3, 10)), y=np.ones((3, 9))), ValueError, "paired"),
        (dict(x=np.ones((1, 10)), y=np.ones((1, 10))), ValueError, "at least 2 data sets"),
        (dict(x=np.full((3, 10), np.nan), y=np.ones((3, 10))), ValueError, "NaN"),
        (dict(x=np.ones((3, 10)), y=np.ones((3, 10)), rope=-0.1), ValueError, "rope"),
        (dict(x=np.ones((3, 10)), y=np.ones((3, 10)), runs=3), ValueError, "runs"),
        (dict(x=np.ones((3, 10)), y=np.ones((3, 10)), chains=0), ValueError, "chains"),
        (dict(x=np.ones((3, 10)), y=np.ones((3, 10)), rng=-1), ValueError, "rng"),
        (dict(x="scores", y=np.ones((3, 10))), TypeError, "x"),
    ],
)
def test_hierarchical_bad_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        hierarchical_test(**kwargs)


# ---------------------------------------------------------------- sign test
@pytest.mark.parametrize("rope,prior", [(0.01, 1.0), (0.005, 0.5), (0.02, 2.0)])
def test_sign_test_within_monte_carlo_error_of_baycomp(rope, prior):
    baycomp = pytest.importorskip("baycomp")
    t6 = demsar_table_6()
    x, y = t6["C4.5"].to_numpy(), t6["C4.5+m+cf"].to_numpy()
    ours = bayesian_sign_test(x, y, rope=rope, prior=prior, n_resamples=50_000, rng=0, rtol=0)  # baycomp compares exactly
    ref = baycomp.SignTest.probs(x, y, rope=rope, prior=prior, nsamples=50_000, random_state=0)
    for p, r in zip((ours.p_left, ours.p_rope, ours.p_right), ref):
        assert p == pytest.approx(r, abs=5 * math.sqrt(max(r * (1 - r), 1e-4) / 50_000) * math.sqrt(2))


def test_sign_test_posterior_means_are_the_dirichlets():
    gen = np.random.default_rng(1)
    x = gen.uniform(0.6, 0.9, 25)
    y = x + gen.normal(0.005, 0.02, 25)
    res = bayesian_sign_test(x, y, rope=0.01, prior=1.0, prior_place="left", n_resamples=100_000, rng=2)
    d = y - x
    counts = np.array([(d < -0.01).sum(), (np.abs(d) <= 0.01).sum(), (d > 0.01).sum()], float)
    assert res.counts == tuple(int(c) for c in counts)
    alpha = counts + np.array([1.0, 0, 0])
    np.testing.assert_allclose(res.mean(), alpha / alpha.sum(), atol=0.003)
    assert res.pvalue == pytest.approx(stats.binomtest(int((d > 0).sum()), 25).pvalue)


def test_sign_test_zero_count_region_is_a_point_mass_and_plots():
    x = np.linspace(0.7, 0.8, 10)
    res = bayesian_sign_test(x, x + 0.05, rope=0.01, prior=0.0, n_resamples=1000, rng=0)
    assert res.counts == (0, 0, 10) and res.p_right == 1.0 and (res.samples[:, 2] == 1.0).all()
    ax = plot_simplex(res)
    assert ax is not None
    plt.close("all")
    with pytest.raises(ValueError, match="prior_place"):
        bayesian_sign_test(x, x, prior_place="middle")
    with pytest.raises(ValueError, match="prior"):
        bayesian_sign_test(x, x, prior=-1)
