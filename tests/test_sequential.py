"""evallib.sequential: confidence sequences, always-valid p-values, alpha-spending designs, peeking.

Reference values come from
- the authors' package confseq 0.0.11 (Waudby-Smith, Howard, Ramdas). It does not build on Python
  3.11 as released (its build pins pybind11~=2.6, which lacks 3.11 support, and it needs Boost's
  headers; it also uses numpy 1's ``np.float_``), so it is not in the ``peers`` extra. It was built
  once in a scratch environment (pybind11 2.13, ``pip install --no-build-isolation``, Debian's
  libboost-dev 1.74, ``np.float_ = np.float64`` set before the import) and run on the data below
  (``numpy.random.default_rng(20240601)``: ``x = binomial(1, 0.3, 400)``, then ``a =
  binomial(1, 0.75, 400)``, ``b = binomial(1, 0.65, 400)``); the calls are quoted at each value;
- Jennison & Turnbull (2000), Tables 2.1 and 2.3 (Pocock's and O'Brien & Fleming's constants,
  two-sided alpha = 0.05) and Table 1.1 (repeated significance tests at K looks);
- gsDesign's own test snapshot (keaven/gsDesign, tests/testthat/_snaps/independent-test-print.gsDesign.md,
  commit 2a5688846651a56f469cdb0997c2adf325c1b7d6): ``gsDesign(k=5, test.type=1, sfu=sfHSD,
  sfupar=-4, alpha=0.025, n.fix=1)`` prints Z = 3.25 2.99 2.69 2.37 2.03, spend 0.0006 0.0013
  0.0028 0.0063 0.0140;
- scipy's multivariate normal distribution (Genz's integration) for the exit probabilities;
- Monte Carlo with the stated sizes and standard errors for validity;
- brute force for the exact label-swap peeking rate: every one of the 2^m swaps enumerated.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

import evallib
from evallib import (
    alpha_spent,
    confidence_sequence,
    group_sequential_design,
    group_sequential_test,
    peeking_signflip_rate,
    peeking_study,
    plot_confidence_sequence,
    sequential_pvalue,
)
from evallib.sequential._confseq import _betting_log_martingale, _mixture_boundary, _mixture_log_martingale, _rho
from evallib.sequential._groupseq import _exit_by_look

LOOKS = [9, 49, 99, 199, 399]  # 0-based indices of the looks below (n = 10, 50, 100, 200, 400)


def _data():
    rng = np.random.default_rng(20240601)
    x = rng.binomial(1, 0.3, 400).astype(float)
    a = rng.binomial(1, 0.75, 400).astype(float)
    b = rng.binomial(1, 0.65, 400).astype(float)
    return x, a, b


# confseq.betting.hedged_cs(x, alpha=0.05, breaks=20000, running_intersection=True) at LOOKS
HEDGED_X = [(0.0687, 0.73835), (0.14985, 0.52745), (0.1989, 0.4814), (0.22325, 0.44155), (0.2399, 0.40515)]
# the same for z = (a - b + 1) / 2 (the mean of z is (1 + mean difference) / 2)
HEDGED_Z = [(0.3556, 0.94025), (0.51355, 0.7406), (0.51355, 0.6844), (0.5273, 0.6633), (0.5273, 0.6321)]
# confseq.betting.betting_lower_cs(x, alpha=0.05, breaks=20000, running_intersection=True)
LOWER_X = [0.0923, 0.16595, 0.2101, 0.23325, 0.24735]
# confseq.betting.betting_mart(x, 0.2, alpha=0.05, theta=0.5, trunc_scale=0.5, m_trunc=True)
MART_X_02 = [0.84438054, 1.963368, 14.895325, 118.02498, 1658.3195]
# confseq.boundaries.normal_mixture_bound(v, 0.05, 1000.0, 0.05, is_one_sided) at these v
V = np.array([10.0, 50.0, 100.0, 500.0, 1000.0, 10000.0])
NM_TWO = [28.72733015, 33.36690857, 38.55054634, 68.95069259, 95.98173584, 324.1723145]
NM_ONE = [28.09133235, 31.94829777, 36.3430509, 63.07245167, 87.4708416, 298.4997724]
# confseq.boundaries.normal_log_mixture([3, 5, 8], [10, 100, 1000], 1000.0, 0.05, is_one_sided)
NM_LOG_TWO = [-0.005097982107, -0.2368083348, -1.06663364]
NM_LOG_ONE = [0.1641848326, 0.02193881712, -0.7978069404]
BREAKS = 20000  # confseq's grid: its ends are rounded outwards by up to 2 / BREAKS


def _check_band(mine, theirs, centre, side):
    """confseq's grid end and ours both contain the exact end; ours lies at most 2% of its distance
    from the final mean outside it (the grid of evallib.sequential), confseq's at most 2/BREAKS."""
    slack = 2.0 / BREAKS
    outward = (theirs - mine) if side == "low" else (mine - theirs)
    distance = abs(centre - theirs)
    assert -slack <= outward <= 0.02 * distance + slack, (mine, theirs)


# ----------------------------------------------------------------------------- confseq's values
def test_betting_sequence_matches_confseq_hedged_cs():
    x, a, b = _data()
    cs = confidence_sequence(x)
    for i, (low, high) in zip(LOOKS, HEDGED_X):
        _check_band(cs.low[i], low, x.mean(), "low")
        _check_band(cs.high[i], high, x.mean(), "high")
    paired = confidence_sequence(a, b)
    assert paired.paired and paired.n[-1] == 400
    for i, (low, high) in zip(LOOKS, HEDGED_Z):
        _check_band(paired.low[i], 2 * low - 1, (a - b).mean(), "low")
        _check_band(paired.high[i], 2 * high - 1, (a - b).mean(), "high")


def test_one_sided_betting_sequence_matches_confseq_lower_cs():
    x, _, _ = _data()
    cs = confidence_sequence(x, alternative="greater")
    assert np.all(cs.high == 1.0)
    for i, low in zip(LOOKS, LOWER_X):
        _check_band(cs.low[i], low, x.mean(), "low")


def test_hedged_capital_and_pvalue_match_confseq_betting_mart():
    x, _, _ = _data()
    log_mart = _betting_log_martingale(x, 0.0, 1.0, 0.2, 0.05, "two-sided")
    np.testing.assert_allclose(np.exp(log_mart[LOOKS]), MART_X_02, rtol=1e-6)
    p = sequential_pvalue(x, null=0.2)
    expected = np.minimum(1.0, np.exp(-np.maximum.accumulate(log_mart)))
    np.testing.assert_allclose(p.pvalue, expected, rtol=1e-12)
    assert np.all(np.diff(p.pvalue) <= 0)


def test_normal_mixture_boundaries_match_confseq():
    np.testing.assert_allclose(_mixture_boundary(V, _rho(1000, 0.05, "two-sided"), 0.05, "two-sided"), NM_TWO,
                               rtol=1e-9)
    np.testing.assert_allclose(_mixture_boundary(V, _rho(1000, 0.05, "greater"), 0.05, "greater"), NM_ONE,
                               rtol=1e-8)
    s, v = np.array([3.0, 5.0, 8.0]), np.array([10.0, 100.0, 1000.0])
    np.testing.assert_allclose(_mixture_log_martingale(s, v, _rho(1000, 0.05, "two-sided"), "two-sided"),
                               NM_LOG_TWO, rtol=1e-8)
    np.testing.assert_allclose(_mixture_log_martingale(s, v, _rho(1000, 0.05, "greater"), "greater"),
                               NM_LOG_ONE, rtol=1e-8)


def test_asymptotic_sequence_is_the_running_mean_and_the_mixture_boundary():
    """Waudby-Smith et al.'s closed form, computed here from numpy's running mean and sd."""
    x = np.random.default_rng(5).beta(2, 5, 3000)
    cs = confidence_sequence(x, method="asymptotic", n_opt=1000, min_n=10)
    t = np.arange(10, 3001)
    mean = np.cumsum(x)[9:] / t
    sd = np.array([x[:k].std() for k in (10, 500, 3000)])
    rho2 = (2 * math.log(20) + math.log(1 + 2 * math.log(20))) / 1000
    kk = np.array([10, 500, 3000], dtype=float)
    half = sd * np.sqrt(2 * (kk * rho2 + 1) / (kk ** 2 * rho2) * np.log(np.sqrt(kk * rho2 + 1) / 0.05))
    raw_low = mean[[0, 490, 2990]] - half
    assert cs.n[0] == 10 and cs.n[-1] == 3000
    assert cs.low[0] == pytest.approx(max(raw_low[0], 0.0), rel=1e-10)
    np.testing.assert_allclose(cs.estimate[[0, 490, 2990]], mean[[0, 490, 2990]])
    assert np.all(cs.low[[490, 2990]] >= raw_low[1:] - 1e-12)          # the running intersection
    assert np.all(np.diff(cs.low) >= 0) and np.all(np.diff(cs.high) <= 0)


def test_unit_clusters_give_the_plain_asymptotic_sequence_and_pvalues_are_dual():
    rng = np.random.default_rng(8)
    a, b = rng.binomial(1, 0.7, 2000), rng.binomial(1, 0.6, 2000)
    plain = confidence_sequence(a, b, method="asymptotic", n_opt=500)
    clustered = confidence_sequence(a, b, method="asymptotic", n_opt=500, clusters=np.arange(2000))
    np.testing.assert_allclose(clustered.low, plain.low)
    np.testing.assert_allclose(clustered.high, plain.high)
    p = sequential_pvalue(a, b, method="asymptotic", n_opt=500)
    assert np.array_equal(p.pvalue <= 0.05, ~plain.covers(0.0))
    assert p.first_rejection() is not None


# ----------------------------------------------------------------------------- group-sequential
def _constant_alpha(c, k, obf):
    f = np.arange(1, k + 1) / k
    bounds = c * np.sqrt(k / np.arange(1, k + 1)) if obf else np.full(k, c)
    return _exit_by_look(f, bounds, True).sum()


@pytest.mark.parametrize("k,pocock,obf", [(2, 2.178, 1.977), (3, 2.289, 2.004), (4, 2.361, 2.024),
                                          (5, 2.413, 2.040)])
def test_recursion_reproduces_jennison_turnbull_tables_2_1_and_2_3(k, pocock, obf):
    """The constants that give two-sided alpha = 0.05 (Pocock C_P, O'Brien–Fleming C_B)."""
    c_p = optimize.brentq(lambda c: _constant_alpha(c, k, False) - 0.05, 1.5, 4.0)
    c_b = optimize.brentq(lambda c: _constant_alpha(c, k, True) - 0.05, 1.5, 4.0)
    assert round(c_p, 3) == pocock
    assert round(c_b, 3) == obf


def test_hwang_shih_decani_boundaries_match_gsdesign():
    d = group_sequential_design(100, 5, alpha=0.025, alternative="greater", spending="hsd", gamma=-4)
    np.testing.assert_array_equal(np.round(d.boundary, 2), [3.25, 2.99, 2.69, 2.37, 2.03])
    np.testing.assert_array_equal(np.round(np.diff(np.r_[0, d.alpha_spent]), 4),
                                  [0.0006, 0.0013, 0.0028, 0.0063, 0.0140])


@pytest.mark.parametrize("spending", ["obrien-fleming", "pocock"])
@pytest.mark.parametrize("fractions", [None, [0.2, 0.45, 0.7, 1.0]])
def test_spending_boundaries_exit_as_spent_under_scipy_multivariate_normal(spending, fractions):
    d = group_sequential_design(400, 4, fractions=fractions, alpha=0.05, spending=spending)
    f = d.fractions
    cov = np.sqrt(np.minimum.outer(f, f) / np.maximum.outer(f, f))
    spent = 2 * alpha_spent(f, 0.025, spending)
    for k in range(1, 5):
        c = d.boundary[:k]
        mvn = stats.multivariate_normal(np.zeros(k), cov[:k, :k], allow_singular=False)
        inside = mvn.cdf(c, lower_limit=-c, rng=np.random.default_rng(0))
        assert 1 - inside == pytest.approx(spent[k - 1], abs=2e-4)
    np.testing.assert_allclose(d.alpha_spent, spent, atol=1e-7)


def test_one_look_design_is_the_fixed_n_z_test_and_its_power():
    d = group_sequential_design(400, 1)
    assert d.boundary[0] == pytest.approx(stats.norm.isf(0.025), abs=1e-8)
    theta = 0.1 * math.sqrt(400)
    power = stats.norm.cdf(theta - d.boundary[0]) + stats.norm.cdf(-theta - d.boundary[0])
    assert d.rejection_probabilities(0.1, 1.0)[0] == pytest.approx(power, abs=1e-7)


def test_group_sequential_test_computes_z_at_the_looks_and_stops():
    rng = np.random.default_rng(4)
    a, b = rng.binomial(1, 0.8, 600), rng.binomial(1, 0.7, 600)
    design = group_sequential_design(600, 3, spending="pocock")
    r = group_sequential_test(a, b, design)
    d = a - b
    for n, z in zip(r.n, r.statistic):
        assert z == pytest.approx(d[:n].mean() / (d[:n].std(ddof=1) / math.sqrt(n)))
    crossed = np.abs(r.statistic) >= r.boundary
    assert r.reject == crossed.any() and (not r.reject or (crossed[-1] and not crossed[:-1].any()))
    np.testing.assert_allclose(r.boundary, design.boundary[: r.n.size], atol=1e-9)
    late = group_sequential_test(d, design=design, looks=[150, 420, 600])
    assert late.boundary[0] > design.boundary[0]  # less information at the first look: less alpha spent


# ----------------------------------------------------------------------------- validity
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bernoulli", "beta", "paired"])
def test_betting_sequence_time_uniform_coverage_up_to_10000(kind):
    """1000 paths of 10,000 items: the exact sequence misses the mean at some n <= 10,000 iff the
    hedged capital at the mean reaches 1/alpha. Its rate must be <= alpha = 0.05 (+2.5 MC SE, at
    most 0.0069); the fixed-n interval recomputed at every n misses far more often (so the check
    can fail)."""
    rng = np.random.default_rng({"bernoulli": 1, "beta": 2, "paired": 3}[kind])
    if kind == "bernoulli":
        v, lo, hi, mean = rng.binomial(1, 0.3, (1000, 10000)).astype(float), 0.0, 1.0, 0.3
    elif kind == "beta":
        v, lo, hi, mean = rng.beta(2, 5, (1000, 10000)), 0.0, 1.0, 2 / 7
    else:
        u = rng.random((1000, 10000))
        v, lo, hi, mean = (u < 0.15).astype(float) - (u >= 0.9), -1.0, 1.0, 0.05
    miss = (_betting_log_martingale(v, lo, hi, mean, 0.05, "two-sided").max(axis=1) >= math.log(20)).mean()
    se = math.sqrt(max(miss * (1 - miss), 0.01) / 1000)
    assert miss <= 0.05 + 2.5 * se
    t = np.arange(1, 10001)
    run = np.cumsum(v, axis=1) / t
    sd = np.sqrt(np.maximum(np.cumsum(v * v, axis=1) / t - run ** 2, 0) * t / np.maximum(t - 1, 1))
    naive = (np.abs(run - mean)[:, 29:] > 1.96 * sd[:, 29:] / np.sqrt(t[29:])).any(axis=1).mean()
    assert naive > 0.3


def test_public_betting_sequence_contains_the_exact_one():
    """Wherever the capital at the mean never crossed, the reported (grid) sequence covers the mean
    at every n; 100 paths of 2000 Bernoulli(0.3) scores."""
    rng = np.random.default_rng(11)
    for _ in range(100):
        x = rng.binomial(1, 0.3, 2000).astype(float)
        crossed = _betting_log_martingale(x, 0.0, 1.0, 0.3, 0.05, "two-sided").max() >= math.log(20)
        if not crossed:
            assert confidence_sequence(x).covers(0.3).all()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bernoulli", "beta", "paired", "clusters"])
def test_asymptotic_sequence_time_uniform_coverage_up_to_10000(kind):
    """400 paths of 10,000 items (2,000 clusters of 1-9 items with a shared cluster effect), looks
    from min_n = 30 units, n_opt = 1000: miscoverage at any look <= 0.05 + 2.5 MC SE (<= 0.011)."""
    rng = np.random.default_rng({"bernoulli": 4, "beta": 5, "paired": 6, "clusters": 7}[kind])
    misses = 0
    for _ in range(400):
        clusters = None
        if kind == "bernoulli":
            x, y, mean = rng.binomial(1, 0.3, 10000), None, 0.3
        elif kind == "beta":
            x, y, mean = rng.beta(2, 5, 10000), None, 2 / 7
        elif kind == "paired":
            x, y, mean = rng.binomial(1, 0.7, 10000), rng.binomial(1, 0.65, 10000), 0.05
        else:
            sizes = rng.integers(1, 10, 2000)
            p = np.repeat(rng.beta(3, 3, 2000), sizes)          # cluster means, overall mean 0.5
            x, y, mean = rng.binomial(1, p), None, 0.5
            clusters = np.repeat(np.arange(2000), sizes)
        cs = confidence_sequence(x, y, method="asymptotic", n_opt=1000, clusters=clusters)
        misses += not cs.covers(mean).all()
    miss = misses / 400
    assert miss <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / 400)


@pytest.mark.slow
def test_peeking_inflates_type_i_error_and_the_remedies_hold_it():
    """8,000 simulated null comparisons at 5 looks up to 1000 items (discordance 0.5, so the z
    statistic is near normal): Armitage et al.'s repeated test rejects 0.142 of the time
    (Jennison & Turnbull 2000, Table 1.1, K = 5), alpha-spending 0.05, the sequence at most 0.05."""
    s = peeking_study(0.0, looks=5, n_max=1000, discordance=0.5, n_resamples=8000, rng=2024)
    rate = dict(zip(s.rules, s.rejection_rate))
    se = dict(zip(s.rules, s.se))
    assert abs(rate["every look"] - 0.142) <= 3 * se["every look"] + 0.005
    assert abs(rate["alpha-spending"] - 0.05) <= 3 * se["alpha-spending"] + 0.003
    assert abs(rate["fixed-n"] - 0.05) <= 3 * se["fixed-n"] + 0.003
    assert rate["confidence sequence"] <= 0.05 + 3 * se["confidence sequence"]
    assert se["fixed-n"] == pytest.approx(math.sqrt(rate["fixed-n"] * (1 - rate["fixed-n"]) / 8000))


def test_peeking_study_under_an_effect_stops_earlier():
    s = peeking_study(0.08, looks=10, n_max=1000, n_resamples=400, rng=3)
    frame = s.to_frame()
    assert frame.loc["alpha-spending", "mean_n"] < 1000
    assert frame.loc["fixed-n", "mean_n"] == 1000
    assert (frame["rejection_rate"] > 0.5).all()


def _rejections_by_hand(effect, looks, n_max, discordance, alpha, n_resamples, seed):
    """Each stream's fixed-n and every-look outcomes, recomputed without evallib's simulation: the same uniforms
    (numpy's default_rng(seed).random((n_resamples, n_max)), as peeking_study draws them), the paired differences,
    numpy's sample SD and scipy's normal quantile for the two-sided z test at each look."""
    u = np.random.default_rng(seed).random((n_resamples, n_max))
    p_win, p_loss = (discordance + effect) / 2, (discordance - effect) / 2
    d = np.where(u < p_win, 1.0, 0.0) - np.where(u >= 1 - p_loss, 1.0, 0.0)
    at = np.round(np.arange(1, looks + 1) / looks * n_max).astype(int)
    z = np.empty((n_resamples, looks))
    for k, n in enumerate(at):
        sd = d[:, :n].std(axis=1, ddof=1)
        z[:, k] = np.divide(d[:, :n].mean(axis=1), sd / math.sqrt(n), out=np.zeros(n_resamples), where=sd > 0)
    hit = np.abs(z) >= stats.norm.isf(alpha / 2)
    return hit[:, -1], hit.any(axis=1)


def test_the_difference_of_two_rules_has_the_paired_se_of_its_streams():
    """The paired Monte Carlo SE, sqrt(mean((h_a - h_b)^2) - mean(h_a - h_b)^2) / sqrt(n), from outcomes recomputed
    by hand on the same uniforms; positively correlated outcomes make it smaller than the independent combination."""
    setting = dict(effect=0.03, looks=4, n_max=400, discordance=0.3, alpha=0.05)
    s = peeking_study(**setting, n_resamples=1500, rng=11)
    fixed, every = _rejections_by_hand(**setting, n_resamples=1500, seed=11)
    h = every.astype(float) - fixed
    i, j = s.rules.index("every look"), s.rules.index("fixed-n")
    assert s.rejection_rate[i] == pytest.approx(every.mean(), abs=1e-12)
    assert s.rejection_rate[j] == pytest.approx(fixed.mean(), abs=1e-12)
    estimate, se = s.difference("every look", "fixed-n")
    assert estimate == pytest.approx(h.mean(), abs=1e-12)
    assert se == pytest.approx(math.sqrt(np.mean(h ** 2) - np.mean(h) ** 2) / math.sqrt(1500), rel=1e-9)
    assert np.corrcoef(every, fixed)[0, 1] > 0.5                     # the same streams: strongly correlated
    assert se < math.hypot(s.se[i], s.se[j])
    back, se_back = s.difference("fixed-n", "every look")
    assert (back, se_back) == pytest.approx((-estimate, se), abs=1e-15)
    assert s.difference("every look", "every look") == (0.0, 0.0)
    assert s.rejected.shape == (4, 1500) and s.rejected.dtype == bool
    assert np.array_equal(s.rejected.mean(axis=1), s.rejection_rate)
    with pytest.raises(ValueError, match="read-only"):
        s.rejected[0, 0] = True
    assert "rejected" not in repr(s)


def test_a_seeded_study_reuses_its_streams_and_gives_the_numbers_of_a_fresh_run():
    """An integer seed's streams and betting martingale are computed once per setting and reused for other looks
    (_seeded_streams); every field equals that of an uncached run on the same uniforms (a Generator made from the
    seed, which is never cached), and the fixed-n and every-look outcomes those recomputed by hand."""
    from evallib.sequential._peeking import _seeded_streams

    setting = dict(n_max=600, discordance=0.25, alpha=0.05, n_resamples=300)
    _seeded_streams.cache_clear()
    for effect in (0.0, 0.04):
        for looks in (1, 4, 10, 25):
            cached = peeking_study(effect, looks=looks, rng=5, **setting)
            fresh = peeking_study(effect, looks=looks, rng=np.random.default_rng(5), **setting)
            for name in ("rejection_rate", "se", "mean_n", "rejected"):
                assert np.array_equal(getattr(cached, name), getattr(fresh, name)), (effect, looks, name)
            fixed, every = _rejections_by_hand(effect, looks, setting["n_max"], setting["discordance"],
                                               setting["alpha"], setting["n_resamples"], seed=5)
            assert np.array_equal(cached.rejected[0], fixed) and np.array_equal(cached.rejected[1], every)
    info = _seeded_streams.cache_info()
    assert (info.misses, info.hits) == (2, 6)                       # one simulation per true difference
    peeking_study(0.04, looks=3, rng=6, **setting)                 # another seed: other streams
    assert _seeded_streams.cache_info().misses == 3


def _every_swap_rate(x, y, looks, alpha):
    """Brute force: each of the 2^m sign patterns of the m discordant items, the paired z test (numpy's
    sample SD, scipy's normal tail) at each look, stopping at the first p <= alpha."""
    import itertools

    d = np.asarray(x, float) - np.asarray(y, float)
    where = np.flatnonzero(d != 0)
    at = np.round(np.arange(1, looks + 1) / looks * d.size).astype(int)
    hits = 0
    for signs in itertools.product((-1.0, 1.0), repeat=where.size):
        e = np.zeros(d.size)
        e[where] = signs
        for n in at:
            sd = e[:n].std(ddof=1)
            if sd > 0 and 2 * stats.norm.sf(abs(e[:n].mean() / (sd / math.sqrt(n)))) <= alpha:
                hits += 1
                break
    return hits / 2 ** where.size


@pytest.mark.parametrize("looks,alpha", [(1, 0.05), (3, 0.05), (6, 0.1), (12, 0.2)])
def test_the_signflip_peeking_rate_is_the_count_over_every_swap(looks, alpha):
    rng = np.random.default_rng(looks)
    x = rng.binomial(1, 0.6, 40).astype(float)
    y = np.where(rng.random(40) < 0.35, 1 - x, x)            # about a third of the items discordant
    assert 8 <= np.sum(x != y) <= 16
    assert peeking_signflip_rate(x, y, looks=looks, alpha=alpha) == pytest.approx(
        _every_swap_rate(x, y, looks, alpha), abs=1e-12)


def test_the_signflip_rate_is_what_a_simulation_of_swapped_streams_estimates():
    """20,000 swapped streams of one real-sized stream (600 items, 0.15 discordant), 5 looks: within 4 MC SEs."""
    rng = np.random.default_rng(7)
    x = rng.binomial(1, 0.7, 600).astype(float)
    y = np.where(rng.random(600) < 0.15, 1 - x, x)
    d = x - y
    at = np.round(np.arange(1, 6) / 5 * 600).astype(int)
    flips = np.where(rng.random((20_000, 600)) < 0.5, -1.0, 1.0) * d
    s, q = np.cumsum(flips, axis=1)[:, at - 1], np.cumsum(flips ** 2, axis=1)[:, at - 1]
    sd = np.sqrt(np.maximum(q / at - (s / at) ** 2, 0) * at / (at - 1))
    z = np.divide(s / at, sd / np.sqrt(at), out=np.zeros_like(s), where=sd > 0)
    rate = (2 * stats.norm.sf(np.abs(z)) <= 0.05).any(axis=1).mean()
    exact = peeking_signflip_rate(x, y, looks=5)
    assert abs(rate - exact) < 4 * math.sqrt(exact * (1 - exact) / 20_000)
    assert exact > 0.1                                       # five looks: well above the nominal 0.05


# ----------------------------------------------------------------------------- results, plots, input
def test_results_are_frozen_and_the_plot_draws_both_intervals():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.random.default_rng(0).binomial(1, 0.6, 300)
    cs = confidence_sequence(x)
    with pytest.raises(ValueError, match="read-only"):
        cs.low[0] = 0.5
    fig, ax = plt.subplots()
    assert plot_confidence_sequence(cs, truth=0.6, ax=ax) is ax
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:2] == ["confidence sequence (betting)", "fixed-n interval at each look"]
    low, high = cs.fixed_n_interval()
    assert high[-1] - low[-1] < cs.width[-1] and cs.to_frame().shape == (300, 5)  # the price of looking always
    plt.close(fig)
    assert "confidence_sequence" in evallib.__all__ and "group_sequential_design" in evallib.__all__


@pytest.mark.parametrize("call,message", [
    (lambda: confidence_sequence([0.2, 1.4]), r"x must hold scores in \[0, 1\]"),
    (lambda: confidence_sequence([0.2, 0.4], [0.1]), "same items"),
    (lambda: confidence_sequence([0.2, 0.4], alpha=1.5), r"alpha must lie in the open interval \(0, 1\)"),
    (lambda: confidence_sequence([0.2, 0.4], method="exact"), "method must be one of"),
    (lambda: confidence_sequence([0.2, 0.4], alternative="larger"), "alternative must be one of"),
    (lambda: confidence_sequence([0.2] * 40, method="asymptotic"), "n_opt must be given"),
    (lambda: confidence_sequence([0.2] * 40, n_opt=10), "belongs to method='asymptotic'"),
    (lambda: confidence_sequence([0.2] * 40, method="asymptotic", n_opt=10, min_n=50), "min_n must be at most"),
    (lambda: confidence_sequence([0.2] * 40, method="asymptotic", n_opt=10, clusters=[1, 2] * 20),
     "clusters must arrive whole"),
    (lambda: sequential_pvalue([0.2, 0.4]), "null must be given"),
    (lambda: sequential_pvalue([0.2, 0.4], null=2.0), r"null must lie in \[0, 1\]"),
    (lambda: group_sequential_design(100, 3, fractions=[0.5, 0.9, 0.95]), "fractions must increase"),
    (lambda: group_sequential_design(100, 3, spending="linear"), "spending must be one of"),
    (lambda: group_sequential_design(100, 3, gamma=-2), "gamma= belongs to spending='hsd'"),
    (lambda: group_sequential_test([0.1] * 10, design=None), "design must be a GroupSequentialDesign"),
    (lambda: peeking_study(0.3, discordance=0.2), "effect must lie in"),
    (lambda: peeking_study(looks=2, n_max=20, n_resamples=10, rng=0).difference("fixed n", "every look"),
     "rule_a must be one of 'fixed-n', 'every look', 'alpha-spending', 'confidence sequence', got 'fixed n'"),
    (lambda: peeking_study(looks=2, n_max=20, n_resamples=10, rng=0).difference("fixed-n", 1),
     "rule_b must be one of"),
    (lambda: peeking_signflip_rate([1, 0.5], [0, 1], looks=1), "x must hold 0/1 scores"),
    (lambda: peeking_signflip_rate([1, 0, 1], [0, 1], looks=1), "same items"),
    (lambda: peeking_signflip_rate([1, 0, 1, 1], [0, 1, 1, 0], looks=3), "at least 2 items a look"),
    (lambda: alpha_spent([0.5, 1.2]), r"t must hold information fractions in \[0, 1\]"),
])
def test_bad_input_is_one_sentence_naming_the_argument(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
