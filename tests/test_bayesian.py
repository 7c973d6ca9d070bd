"""Bayesian tests (issue 17): evallib.resampling._bayesian and evallib.manydatasets._bayesian against baycomp (the authors' package),
the corrected resampled t-test of evallib.resampling._cvtests, and Monte Carlo checks."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import evallib  # noqa: E402
from evallib.manydatasets._bayesian import bayesian_signed_rank, plot_simplex  # noqa: E402
from evallib.resampling._bayesian import (  # noqa: E402
    CorrelatedTTestResult,
    bayesian_correlated_ttest,
    plot_correlated_posterior,
)
from evallib.resampling._cvtests import corrected_resampled_ttest  # noqa: E402
from evallib.studies import demsar_table_6  # noqa: E402

baycomp = pytest.importorskip("baycomp")


def _folds(seed, n=30, shift=0.01, sd=0.02):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.7, 0.8, n)
    return x, x + shift + rng.normal(0, sd, n)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.05])
def test_correlated_ttest_equals_baycomp_probs(seed, rope):
    x, y = _folds(seed)
    runs = 3  # 3 x 10-fold: test/train ratio 1/9
    ref = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=runs)
    ours = bayesian_correlated_ttest(x, y, rope=rope, test_train_ratio=1 / 9)
    if rope == 0:
        assert (ours.p_left, ours.p_right) == pytest.approx(ref, rel=1e-12, abs=1e-15)
        assert ours.p_rope == 0.0
    else:
        assert (ours.p_left, ours.p_rope, ours.p_right) == pytest.approx(ref, rel=1e-12, abs=1e-15)
    mean, var, df = baycomp.CorrelatedTTest.compute_statistics(x, y, runs)
    assert (ours.mean, ours.scale ** 2, ours.df) == pytest.approx((mean, var, df), rel=1e-12)


def test_correlated_ttest_frequentist_reading_is_corrected_ttest():
    x, y = _folds(9, shift=0.004)
    ours = bayesian_correlated_ttest(x, y, rope=0, test_train_ratio=1 / 9)
    freq = corrected_resampled_ttest(y, x, test_train_ratio=1 / 9)
    assert ours.pvalue == pytest.approx(freq.pvalue, rel=1e-10)
    assert ours.pvalue == pytest.approx(2 * min(ours.p_left, ours.p_right), rel=1e-10)
    assert ours.interval(0.05) == pytest.approx(freq.interval(0.05), rel=1e-10)


def test_correlated_ttest_zero_variance_point_mass():
    res = bayesian_correlated_ttest([0.8] * 5, [0.82] * 5, rope=0.01, test_train_ratio=0.25)
    assert (res.p_left, res.p_rope, res.p_right, res.scale) == (0.0, 0.0, 1.0, 0.0)
    assert res.posterior() is None and res.pvalue == 0.0
    same = bayesian_correlated_ttest([0.8] * 5, [0.8] * 5, rope=0, test_train_ratio=0.25)
    assert (same.p_left, same.p_right, same.pvalue) == (0.5, 0.5, 1.0)
    assert baycomp.CorrelatedTTest.probs(np.full(5, 0.8), np.full(5, 0.82), rope=0.01) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_signed_rank_within_monte_carlo_error_of_baycomp(rope):
    t6 = demsar_table_6()
    x, y = t6["C4.5"].to_numpy(), t6["C4.5+cf"].to_numpy()
    n = 20_000
    # baycomp compares the Walsh sums with 2 rope exactly in binary floating point (rtol=0);
    # evallib's default puts sums within 1e-9 of the edge on it (see the tests of the ROPE's edge)
    ours = bayesian_signed_rank(x, y, rope=rope, n_resamples=n, rng=1, rtol=0)
    ref = baycomp.SignedRankTest.probs(x, y, rope=rope, nsamples=n, random_state=1)
    ref3 = (ref[0], 0.0, ref[1]) if rope == 0 else ref
    for p_ours, p_ref in zip((ours.p_left, ours.p_rope, ours.p_right), ref3):
        se = np.sqrt(max(p_ref * (1 - p_ref), 1e-4) * 2 / n)  # two independent estimates
        assert abs(p_ours - p_ref) <= 5 * se
    # the posterior means of theta agree as well
    ref_samples = baycomp.SignedRankTest.sample(x, y, rope=rope, nsamples=n, random_state=2)
    np.testing.assert_allclose(ours.samples.mean(axis=0), ref_samples.mean(axis=0), atol=0.01)


def test_signed_rank_theta_against_direct_double_sum():
    """One draw recomputed by the definition's double sum over Walsh pairs."""
    x = np.array([0.70, 0.72, 0.80, 0.75, 0.66])
    y = np.array([0.71, 0.75, 0.79, 0.79, 0.66])
    # the double sum below compares in binary floating point, as rtol=0 does (the edge rule
    # with its tolerance has its own exact-integer reference further down)
    res = bayesian_signed_rank(x, y, rope=0.01, n_resamples=3, rng=5, rtol=0)
    w = np.random.default_rng(5).dirichlet([0.5, 1, 1, 1, 1, 1], 3)
    z = np.concatenate([[0.0], y - x])
    for s in range(3):
        right = left = 0.0
        for i in range(6):
            for j in range(6):
                t = z[i] + z[j]
                right += w[s, i] * w[s, j] * ((t > 0.02) + 0.5 * (t == 0.02))
                left += w[s, i] * w[s, j] * ((-t > 0.02) + 0.5 * (-t == 0.02))
        assert res.samples[s] == pytest.approx([left, 1 - left - right, right], abs=1e-12)


def test_signed_rank_reproducible_and_frequentist_reading():
    t6 = demsar_table_6()
    a = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], n_resamples=500, rng=3)
    b = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], n_resamples=500, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a.samples, b.samples)
    assert a.pvalue == pytest.approx(evallib.wilcoxon_signed_rank((t6["C4.5+m"] - t6["C4.5"]).to_numpy()).pvalue)
    assert a.samples.shape == (500, 3) and np.allclose(a.samples.sum(axis=1), 1)


def test_plots_return_axes():
    x, y = _folds(0)
    ax = plot_correlated_posterior(bayesian_correlated_ttest(x, y, rope=0.01, test_train_ratio=1 / 9))
    assert "better" in ax.get_title()
    t6 = demsar_table_6()
    fig, ax2 = plt.subplots()
    out = plot_simplex(bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], n_resamples=300, rng=0), ax=ax2)
    assert out is ax2 and len(ax2.collections) == 1
    plt.close("all")


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: bayesian_correlated_ttest([0.8], [0.7], test_train_ratio=0.1), ValueError, "x"),
        (lambda: bayesian_correlated_ttest([0.8, np.nan], [0.7, 0.6], test_train_ratio=0.1), ValueError, "NaN"),
        (lambda: bayesian_correlated_ttest([0.8, 0.7], [0.7, 0.6, 0.5], test_train_ratio=0.1), ValueError, "paired"),
        (lambda: bayesian_correlated_ttest([0.8, 0.7], [0.7, 0.6], rope=-0.1, test_train_ratio=0.1),
         ValueError, "rope"),
        (lambda: bayesian_correlated_ttest([0.8, 0.7], [0.7, 0.6], test_train_ratio=-1), ValueError,
         "test_train_ratio"),
        (lambda: bayesian_signed_rank([0.8], [0.7]), ValueError, "x"),
        (lambda: bayesian_signed_rank([0.8, 0.7], [0.7, np.nan]), ValueError, "NaN"),
        (lambda: bayesian_signed_rank([0.8, 0.7], [0.7, 0.6], rope=-0.01), ValueError, "rope"),
        (lambda: bayesian_signed_rank([0.8, 0.7], [0.7, 0.6], n_resamples=0), ValueError, "n_resamples"),
        (lambda: bayesian_signed_rank([0.8, 0.7], [0.7, 0.6], prior=-1), ValueError, "prior"),
        (lambda: bayesian_signed_rank([0.8, 0.7], [0.7, 0.6], rng=1.5), TypeError, "rng"),
        (lambda: plot_simplex(np.ones((3, 2))), ValueError, "result"),
        (lambda: plot_correlated_posterior("x"), TypeError, "result"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_the_correlated_ttest_returns_its_result_object():
    """(Its export is checked by tests/test_exports.py's parametrised test.)"""
    assert isinstance(evallib.bayesian_correlated_ttest([0.8, 0.7], [0.7, 0.75], test_train_ratio=0.1),
                      CorrelatedTTestResult)


def test_plot_bayesian_signed_rank_titles_probabilities_and_wilcoxon():
    from evallib.manydatasets._bayesian import plot_bayesian_signed_rank

    t6 = demsar_table_6()
    ax = plot_bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], rope=0.01, n_resamples=500, rng=0,
                                   names=("C4.5", "C4.5+m"))
    res = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], rope=0.01, n_resamples=500, rng=0)
    assert f"C4.5+m better {res.p_right:.3f}" in ax.get_title()
    assert "share of posterior samples in which each outcome is the most probable" in ax.get_title()
    assert "P(equivalent)" not in ax.get_title()
    assert "Wilcoxon p" in ax.get_title()
    plt.close("all")


# ------------------------------------------------------------- the ROPE's edge (issue 33)
def _grid_scores():
    """Accuracies on 100 items (a 0.01 grid), so that many Walsh sums fall exactly on +-2 rope."""
    rng = np.random.default_rng(3)
    x = np.round(rng.uniform(0.6, 0.9, 14), 2)
    y = np.round(x + rng.choice([-0.02, -0.01, 0.0, 0.01, 0.02, 0.03], 14), 2)
    return x, y


def _integer_reference(x, y, rope_points, n_resamples, seed, prior=0.5):
    """Brute-force double sum on exact integers (percentage points): H(0) = 1/2 with no rounding."""
    z = np.concatenate([[0], np.rint((y - x) * 100).astype(int)])
    sums = z[:, None] + z[None, :]
    weights = np.ones(z.size)
    weights[0] = prior
    w = np.random.default_rng(seed).dirichlet(weights, n_resamples)

    def theta(h):
        return np.einsum("si,ij,sj->s", w, h, w)

    right = theta((sums > 2 * rope_points) + 0.5 * (sums == 2 * rope_points))
    left = theta((-sums > 2 * rope_points) + 0.5 * (-sums == 2 * rope_points))
    samples = np.column_stack([left, 1 - left - right, right])
    return tuple(np.bincount(np.argmax(samples, axis=1), minlength=3) / n_resamples)


def test_signed_rank_probabilities_do_not_depend_on_the_units():
    x, y = _grid_scores()
    z = np.rint((y - x) * 100).astype(int)
    on_edge = np.count_nonzero(np.abs(z[:, None] + z[None, :]) == 2)
    assert on_edge >= 10  # the case the rule is for: many sums exactly on the edge in decimal
    fractions = bayesian_signed_rank(x, y, rope=0.01, n_resamples=4000, rng=7)
    points = bayesian_signed_rank(x * 100, y * 100, rope=1, n_resamples=4000, rng=7)
    probs = (fractions.p_left, fractions.p_rope, fractions.p_right)
    assert probs == (points.p_left, points.p_rope, points.p_right)
    assert probs == pytest.approx(_integer_reference(x, y, 1, 4000, 7), abs=1e-12)
    # without the tolerance the binary rounding of 0.01-grid differences decides instead
    exact = bayesian_signed_rank(x, y, rope=0.01, n_resamples=4000, rng=7, rtol=0)
    assert abs(exact.p_right - fractions.p_right) > 10 * 0.5 / np.sqrt(4000)


def test_sign_test_counts_edge_differences_in_the_rope_in_any_units():
    x, y = _grid_scores()
    z = np.rint((y - x) * 100).astype(int)
    expected = (int((z < -1).sum()), int((np.abs(z) <= 1).sum()), int((z > 1).sum()))
    assert evallib.bayesian_sign_test(x, y, rope=0.01, n_resamples=10, rng=0).counts == expected
    assert evallib.bayesian_sign_test(x * 100, y * 100, rope=1, n_resamples=10, rng=0).counts == expected


@pytest.mark.parametrize("rtol", [-1e-9, 0.01])
def test_edge_tolerance_is_checked(rtol):
    with pytest.raises(ValueError, match="rtol"):
        bayesian_signed_rank([0.8, 0.7], [0.7, 0.6], rtol=rtol)
    with pytest.raises(ValueError, match="rtol"):
        evallib.bayesian_sign_test([0.8, 0.7], [0.7, 0.6], rtol=rtol)


def test_edge_rule_holds_at_the_scores_scale_not_only_the_differences():
    """Scores near a million with two decimals (a cost, say): each difference carries the scores'
    rounding, about 1e-10, which a tolerance at the differences' scale (1e-9 * 0.02) missed, so
    with the same draws the probabilities moved 0.007 off the exact-integer reference, more than
    three times the Monte Carlo error (0.002) the report states for its 50,000 draws (issue 33)."""
    x, y = _grid_scores()
    big_x, big_y = 1e6 + x, 1e6 + y
    z = np.concatenate([[0.0], big_y - big_x])
    off = np.abs(np.abs(z[:, None] + z[None, :]) - 0.02)
    assert np.count_nonzero((off > 1e-9 * 0.06) & (off < 1e-6)) >= 2  # on the edge in decimal, off it in binary
    reference = _integer_reference(x, y, 1, 4000, 7)
    shifted = bayesian_signed_rank(big_x, big_y, rope=0.01, n_resamples=4000, rng=7)
    assert (shifted.p_left, shifted.p_rope, shifted.p_right) == pytest.approx(reference, abs=1e-12)
    expected = evallib.bayesian_sign_test(x, y, rope=0.01, n_resamples=10, rng=0).counts
    assert evallib.bayesian_sign_test(big_x, big_y, rope=0.01, n_resamples=10, rng=0).counts == expected


def test_signed_rank_edge_weights_match_a_brute_force_double_sum():
    """The edge weight 0 / 0.5 / 1 of the pair sums on ±2 rope, on the same Dirichlet draws, against the
    O(n^2) double sum written out with numpy (0.5 is the public test's)."""
    from evallib.manydatasets._bayesian import _signed_rank_draws
    a = np.full(6, 0.5)
    b = np.array([0.505, 0.515, 0.52, 0.49, 0.51, 0.50])
    rope, n = 0.01, 400
    out = _signed_rank_draws(a, b, rope, n, 0.5, np.random.default_rng(7), 1e-9, edges=(0.0, 0.5, 1.0))
    w = np.random.default_rng(7).dirichlet(np.r_[0.5, np.ones(6)], n)
    z = np.r_[0.0, b - a]
    s = z[:, None] + z[None, :]
    for edge, (counts, samples) in zip((0.0, 0.5, 1.0), out):
        def h(v):
            return np.where(np.isclose(v, 2 * rope, rtol=0, atol=1e-12), edge, (v > 2 * rope).astype(float))
        right = np.einsum("si,ij,sj->s", w, h(s), w)
        left = np.einsum("si,ij,sj->s", w, h(-s), w)
        assert np.allclose(samples[:, 2], right) and np.allclose(samples[:, 0], left)
    public = bayesian_signed_rank(a, b, rope=rope, n_resamples=n, rng=7)
    assert np.allclose(public.samples, out[1][1])
    # the public result carries the edge's range from the same draws: weight 0 (inside) and 1 (beyond)
    brute = {}
    for edge in (0.0, 1.0):
        def h(v):
            return np.where(np.isclose(v, 2 * rope, rtol=0, atol=1e-12), edge, (v > 2 * rope).astype(float))
        th = np.stack([np.einsum("si,ij,sj->s", w, h(-s), w), np.einsum("si,ij,sj->s", w, h(s), w)], axis=1)
        th = np.insert(th, 1, 1 - th.sum(axis=1), axis=1)
        brute[edge] = tuple(np.bincount(th.argmax(axis=1), minlength=3) / n)
    assert public.edge_inside == pytest.approx(brute[0.0]) and public.edge_beyond == pytest.approx(brute[1.0])
    on = np.isclose(np.abs(s[np.triu_indices(7)]), 2 * rope, rtol=0, atol=1e-12)
    assert (public.on_edge, public.pair_means) == (int(on.sum()), 28) and public.on_edge > 0
    assert not np.allclose(out[0][1], out[2][1])  # the edge pairs move the draws: the check can fail


def _brute_shares(z, w, rope):
    """Region shares by the definition's double sum over Walsh pairs, one draw per row of ``w``."""
    wins = np.zeros(3)
    for s in range(w.shape[0]):
        right = left = 0.0
        for i in range(z.size):
            for j in range(z.size):
                t = z[i] + z[j]
                right += w[s, i] * w[s, j] * ((t > 2 * rope) + 0.5 * (t == 2 * rope))
                left += w[s, i] * w[s, j] * ((-t > 2 * rope) + 0.5 * (-t == 2 * rope))
        wins[int(np.argmax([left, 1 - left - right, right]))] += 1
    return tuple(wins / w.shape[0])


def test_without_prior_is_the_same_draws_renormalised_over_the_differences():
    """The prior's pseudo-observation removed from each Dirichlet draw and the rest renormalised
    (the aggregation property: a draw of the posterior with prior 0), by the double sum."""
    x = np.array([0.70, 0.72, 0.80, 0.75, 0.66])
    y = np.array([0.715, 0.745, 0.79, 0.79, 0.675])
    res = bayesian_signed_rank(x, y, rope=0.01, n_resamples=300, rng=11, rtol=0)
    w = np.random.default_rng(11).dirichlet([0.5, 1, 1, 1, 1, 1], 300)
    rest = w[:, 1:] / w[:, 1:].sum(axis=1, keepdims=True)
    assert res.without_prior == pytest.approx(_brute_shares(y - x, rest, 0.01), abs=1e-12)
    assert (res.p_left, res.p_rope, res.p_right) == pytest.approx(
        _brute_shares(np.concatenate([[0.0], y - x]), w, 0.01), abs=1e-12)
    assert bayesian_signed_rank(x, y, rope=0.01, n_resamples=10, prior=0, rng=0).without_prior == ()


def test_without_prior_every_difference_beyond_twice_the_rope_is_certain():
    """By hand: every Walsh mean of differences above 2 rope is beyond the ROPE, so without the
    prior every draw puts all of theta on the right; the pseudo-observation at 0 adds Walsh means
    0 and z_i / 2 inside the ROPE and can only pull the share down."""
    x = np.array([0.70, 0.71, 0.72, 0.73])
    y = x + np.array([0.03, 0.04, 0.05, 0.03])  # all > 2 * 0.01
    res = bayesian_signed_rank(x, y, rope=0.01, n_resamples=5000, rng=0)
    assert res.without_prior == (0.0, 0.0, 1.0)
    assert res.p_right < 1.0  # with 4 data sets the prior's weight shows


def test_simplex_says_how_many_of_the_draws_it_shows():
    t6 = demsar_table_6()
    res = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], n_resamples=6000, rng=0)
    texts = [t.get_text() for t in plot_simplex(res).texts]
    assert "5,000 of the 6,000 posterior draws shown (the first); the probabilities use all of them" in texts
    small = bayesian_signed_rank(t6["C4.5"], t6["C4.5+m"], n_resamples=300, rng=0)
    assert not any("posterior draws shown" in t.get_text() for t in plot_simplex(small).texts)
    plt.close("all")
