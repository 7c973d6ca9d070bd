"""evallib.planning against independent references.

References: Connor's (1987) worked example (p. 209: p_b = 0.45, p_c = 0.05 -> 23 pairs)
and a published Connor-formula calculation (discordance 0.45, discordant odds ratio 2
-> 155 pairs, power 80.1%); statsmodels' heterogeneous-variance normal power and
sample size (the same normal approximation, written by others); brute-force
enumeration of every 2 x 2 table at small n with statsmodels' exact McNemar test;
statsmodels' binomial rejection interval; Monte Carlo with a stated tolerance; an
index-level F1 bootstrap written from scratch; Demšar's (2006) printed q values.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from scipy import stats

import evallib
from evallib import planning
from evallib.planning import _onetestset as _mcnemar_plan  # its private helpers
from evallib.planning import (
    comparison_write_up,
    discordant_probabilities,
    expected_interval_width,
    f1_bootstrap_power,
    f1_power_curve,
    mcnemar_power,
    mcnemar_power_curve,
    mcnemar_sample_size,
    minimum_detectable_difference,
    nemenyi_datasets,
)

sm_power = pytest.importorskip("statsmodels.stats.power")


# ------------------------------------------------------------------ published values
def test_connor_1987_worked_example():
    # Connor (1987), p. 209: p10 = 0.05, p01 = 0.45, alpha = 0.05 two-sided, power 0.8 -> 23
    assert mcnemar_sample_size(0.45, 0.05, power=0.8) == 23
    assert mcnemar_sample_size(0.05, 0.45, power=0.8) == 23   # the direction does not matter


def test_published_connor_calculation_155_pairs():
    # discordance 0.45, discordant odds ratio 2 (p10 = 0.15, p01 = 0.30): 155 pairs, power 80.1%
    assert mcnemar_sample_size(0.30, 0.15) == 155
    assert round(mcnemar_power(155, 0.30, 0.15, method="chi2"), 3) == 0.801


# ------------------------------------------------------------------ statsmodels
@pytest.mark.parametrize("n, p_b, p_c, alpha", [(23, 0.45, 0.05, 0.05), (200, 0.08, 0.03, 0.05),
                                                 (1000, 0.02, 0.035, 0.01), (50, 0.1, 0.1, 0.1)])
def test_asymptotic_power_is_statsmodels_normal_power_het(n, p_b, p_c, alpha):
    psi, delta = p_b + p_c, p_b - p_c
    ref = sm_power.normal_power_het(abs(delta), n, alpha, std_null=math.sqrt(psi),
                                    std_alternative=math.sqrt(psi - delta ** 2), alternative="two-sided")
    assert mcnemar_power(n, p_b, p_c, alpha=alpha, method="chi2") == pytest.approx(float(ref), rel=1e-9)


@pytest.mark.parametrize("p_b, p_c, power", [(0.45, 0.05, 0.8), (0.1, 0.05, 0.9), (0.03, 0.01, 0.8)])
def test_asymptotic_sample_size_is_statsmodels_one_tail(p_b, p_c, power):
    psi, delta = p_b + p_c, p_b - p_c
    ref = sm_power.normal_sample_size_one_tail(abs(delta), power, 0.05 / 2, std_null=math.sqrt(psi),
                                               std_alternative=math.sqrt(psi - delta ** 2))
    assert mcnemar_sample_size(p_b, p_c, power=power) == math.ceil(ref)


# ------------------------------------------------------------------ exact power
def _brute_force_power(n, p_b, p_c, alpha, pvalue):
    """Sum the trinomial probability of every table (b, c, rest) whose test rejects."""
    b, c = (grid.ravel() for grid in np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"))
    b, c = b[b + c <= n], c[b + c <= n]
    many = getattr(pvalue, "many", None)          # a p-value written for whole arrays, where one exists
    p = many(b, c) if many is not None else np.array([pvalue(x, y) for x, y in zip(b.tolist(), c.tolist())])
    tables = np.stack([b, c, n - b - c], axis=1)[p <= alpha]
    if not len(tables):
        return 0.0
    return float(stats.multinomial.pmf(tables, n, [p_b, p_c, 1 - p_b - p_c]).sum())


@functools.cache
def _sm_exact_p(b, c):
    # cached: a table's p-value depends only on (b, c), and the enumerations revisit tables
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    return sm_mcnemar([[0, b], [c, 0]], exact=True).pvalue


@functools.cache
def _midp(b, c):
    m, k = b + c, min(b, c)
    if m == 0:
        return 1.0
    return min(1.0, 2 * (stats.binom.cdf(k, m, 0.5) - 0.5 * stats.binom.pmf(k, m, 0.5)))


def _midp_many(b, c):
    """`_midp` over arrays of tables at once: the same formula, so the enumerations of large n stay quick."""
    m, k = b + c, np.minimum(b, c)
    p = np.minimum(1.0, 2 * (stats.binom.cdf(k, m, 0.5) - 0.5 * stats.binom.pmf(k, m, 0.5)))
    return np.where(m == 0, 1.0, p)


_midp.many = _midp_many


@pytest.mark.parametrize("n, p_b, p_c", [(12, 0.3, 0.05), (20, 0.2, 0.1), (25, 0.15, 0.15)])
def test_exact_power_by_enumerating_every_table(n, p_b, p_c):
    ref = _brute_force_power(n, p_b, p_c, 0.05, _sm_exact_p)
    assert mcnemar_power(n, p_b, p_c) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("n, p_b, p_c, alpha", [(15, 0.3, 0.05, 0.05), (22, 0.2, 0.1, 0.1)])
def test_midp_power_by_enumerating_every_table(n, p_b, p_c, alpha):
    ref = _brute_force_power(n, p_b, p_c, alpha, _midp)
    assert mcnemar_power(n, p_b, p_c, alpha=alpha, method="mid-p") == pytest.approx(ref, abs=1e-12)


def test_conditional_rejection_region_matches_statsmodels():
    from statsmodels.stats.proportion import binom_test_reject_interval

    for m in range(1, 80):
        low, upp = binom_test_reject_interval(0.5, m, alpha=0.05, alternative="two-sided")
        k = int(_mcnemar_plan._lower_critical(np.array([m]), 0.05, "exact")[0])
        # statsmodels rejects x <= low or x >= upp; here min(b, c) <= k
        assert (k, m - k) == (int(low), int(upp)) if k >= 0 else low < 0, m


def test_exact_power_against_monte_carlo():
    # 40,000 simulated test sets: SE <= 0.0025; tolerance 4 SE = 0.01
    n, p_b, p_c, reps = 150, 0.10, 0.04, 40_000
    rng = np.random.default_rng(12345)
    tab = rng.multinomial(n, [p_b, p_c, 1 - p_b - p_c], size=reps)
    b, c = tab[:, 0], tab[:, 1]
    m = b + c
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(b, c), m, 0.5))
    p[m == 0] = 1.0
    mc = np.mean(p <= 0.05)
    assert mcnemar_power(n, p_b, p_c) == pytest.approx(mc, abs=4 * math.sqrt(mc * (1 - mc) / reps))


def test_exact_size_never_exceeds_alpha_and_asymptotic_size_is_alpha():
    for n in (10, 37, 120, 500):
        assert mcnemar_power(n, 0.1, 0.1) <= 0.05
        assert mcnemar_power(n, 0.1, 0.1, method="chi2") == pytest.approx(0.05)
    # the mid-p test is allowed above alpha at some n, but not by much
    assert max(mcnemar_power(n, 0.1, 0.1, method="mid-p") for n in range(20, 200, 7)) < 0.07


def _power_over_every_discordant_count(n, p_b, p_c, alpha=0.05):
    """The exact test's power as the full sum over m = 0..n discordant pairs (scipy's binomials)."""
    m = np.arange(n + 1)
    k = _mcnemar_plan._lower_critical(m, alpha, "exact")
    m, k = m[k >= 0], k[k >= 0]
    q = p_b / (p_b + p_c)
    return np.sum(stats.binom.pmf(m, n, p_b + p_c) * (stats.binom.cdf(k, m, q) + stats.binom.sf(m - k - 1, m, q)))


def test_curve_agrees_with_pointwise_power_and_accepts_sequences():
    ns = [0, 1, 5, 33, 120, 401]
    for method in ("exact", "mid-p"):
        curve = mcnemar_power_curve(ns, 0.12, 0.05, methods=(method,))
        direct = mcnemar_power(ns, 0.12, 0.05, method=method)
        assert np.allclose(curve["power"], direct, atol=1e-12)
    assert list(mcnemar_power_curve(ns, 0.12, 0.05).columns) == ["n", "method", "power"]
    # a few large n take the windowed path: same numbers as the full enumeration
    big = [3500, 5000]
    curve = mcnemar_power_curve(big, 0.03, 0.02)
    full = [_power_over_every_discordant_count(n, 0.03, 0.02) for n in big]
    assert np.allclose(curve.loc[curve["method"] == "exact", "power"], full, atol=1e-10)


def test_exact_sample_size_follows_its_stated_rule():
    p_b, p_c, target = 0.7, 0.3, 0.8     # frequent disagreement: a saw-toothed curve
    n = mcnemar_sample_size(p_b, p_c, power=target, method="exact")
    powers = {v: mcnemar_power(v, p_b, p_c) for v in range(1, math.ceil(1.1 * (n + 40)) + 1)}

    def holds(v):
        return all(powers[w] >= target for w in range(v, math.ceil(1.1 * v) + 1))

    assert holds(n)
    assert not any(holds(v) for v in range(1, n))
    # the saw-tooth: the exact power first touches the target well before n
    first = min(v for v, pw in powers.items() if pw >= target)
    assert first < n
    assert mcnemar_sample_size(p_b, p_c, power=target, method="mid-p") <= n


def test_exact_power_saw_tooths():
    # given m discordant cases (statsmodels' rejection interval, scipy's binomial)
    from statsmodels.stats.proportion import binom_test_reject_interval

    cond = []
    for m in range(20, 40):
        low, upp = binom_test_reject_interval(0.5, m, alpha=0.05, alternative="two-sided")
        cond.append(stats.binom.cdf(low, m, 0.75) + stats.binom.sf(upp - 1, m, 0.75))
    assert np.allclose(_mcnemar_plan._conditional_power(np.arange(20, 40), 0.75, 0.05, "exact"), cond)
    assert np.sum(np.diff(cond) < -0.02) >= 5
    # averaged over the number of discordant cases: teeth when the classifiers disagree often ...
    assert np.any(np.diff(mcnemar_power(np.arange(20, 120), 0.7, 0.3)) < -0.01)
    # ... smoothed when they rarely do
    assert np.all(np.diff(mcnemar_power(np.arange(20, 300, 3), 0.12, 0.04)) > -1e-6)


def test_degenerate_cases_have_defined_answers():
    assert mcnemar_power(0, 0.3, 0.1) == 0.0
    assert mcnemar_power(50, 0.0, 0.0) == 0.0
    assert mcnemar_power(50, 0.0, 0.0, method="chi2") == 0.0
    assert mcnemar_power(10, 1.0, 0.0) == 1.0           # b = 10 always: p = 2 / 1024
    assert mcnemar_power(10, 1.0, 0.0, method="chi2") == 1.0
    assert minimum_detectable_difference(5, 0.01) == math.inf


# ------------------------------------------------------------------ detectable difference
@pytest.mark.parametrize("n, psi, power", [(23, 0.5, 0.8), (200, 0.1, 0.9), (1000, 0.05, 0.8)])
def test_minimum_detectable_difference_inverts_connor(n, psi, power):
    delta = minimum_detectable_difference(n, psi, power=power)
    # the one-tailed normal power at alpha / 2 equals the target
    ref = sm_power.normal_power_het(delta, n, 0.025, std_null=math.sqrt(psi),
                                    std_alternative=math.sqrt(psi - delta ** 2), alternative="larger")
    assert float(ref) == pytest.approx(power, abs=1e-8)
    assert 0 < delta <= psi


def test_discordant_probabilities_and_interval_width():
    assert discordant_probabilities(0.4, 0.5) == (0.45, 0.05)
    assert discordant_probabilities(-0.02, 0.1) == (0.04, 0.06)
    # the QH interval at the expected counts is the one pairwise.qh_interval gives for those counts
    w = expected_interval_width(200, 0.1, 0.04, method="qh")
    iv = evallib.qh_interval(20, 8, 200, signed=True)
    assert w == pytest.approx(iv.high - iv.low)
    # and roughly 2 z sqrt((psi - delta^2) / n)
    assert w == pytest.approx(2 * 1.96 * math.sqrt((0.14 - 0.06 ** 2) / 200), rel=0.05)


def _bonett_price_width(b, c, n, alpha=0.05):
    """Bonett & Price (2012) as Fagerland, Lydersen & Laake (2014) write it: adjusted (b + 1)/(n + 2)."""
    z = stats.norm.isf(alpha / 2)
    p12, p21 = (b + 1) / (n + 2), (c + 1) / (n + 2)
    return 2 * z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / (n + 2))


@pytest.mark.parametrize("n, p_b, p_c, alpha", [(200, 0.1, 0.04, 0.05), (75, 0.02, 0.06, 0.1), (1000, 0.3, 0.3, 0.01)])
def test_expected_width_is_bonett_price_at_the_expected_counts(n, p_b, p_c, alpha):
    w = expected_interval_width(n, p_b, p_c, alpha=alpha)
    assert w == pytest.approx(_bonett_price_width(n * p_b, n * p_c, n, alpha), rel=1e-12)
    b, c = round(n * p_b), round(n * p_c)
    if b == n * p_b and c == n * p_c:   # whole expected counts: the interval the workbook computes from a table
        iv = evallib.paired_difference_interval(evallib.Contingency(a=n - b - c, b=b, c=c, d=0, n=n), alpha=alpha)
        assert w == pytest.approx(iv.width, rel=1e-12)
    with pytest.raises(ValueError, match="method"):
        expected_interval_width(n, p_b, p_c, method="wald")


# ------------------------------------------------------------------ the sliders' callbacks
# difference 0.15, disagreement 0.35: p_b = 0.25, p_c = 0.10; 24 cases, small enough to enumerate
PLAN = dict(difference=0.15, discordance=0.35, n=24)


def test_interval_and_power_summary_by_enumeration():
    for alpha in (0.05, 0.1):
        ref_power = _brute_force_power(24, 0.25, 0.10, alpha, _sm_exact_p)
        ref_width = _bonett_price_width(24 * 0.25, 24 * 0.10, 24, alpha)
        text = planning.interval_and_power_summary(**PLAN, alpha=alpha)
        assert text == (f"n = 24: width of the {100 * (1 - alpha):g}% interval at the expected counts {ref_width:.3f}, "
                        f"power of McNemar's exact test {ref_power:.2f}")
    # a difference larger than the disagreement rate: no such classifiers, said rather than raised
    assert planning.interval_and_power_summary(0.08, 0.05, 300).startswith("no such pair of classifiers")
    assert "0.080" in planning.interval_and_power_summary(-0.08, 0.05, 300)


def test_sample_size_summary_against_statsmodels_and_enumeration():
    # difference 0.3, disagreement 0.5: p_b = 0.4, p_c = 0.1; Connor's n from statsmodels' one-tail formula
    ref_n = math.ceil(sm_power.normal_sample_size_one_tail(0.3, 0.8, 0.025, std_null=math.sqrt(0.5),
                                                           std_alternative=math.sqrt(0.5 - 0.09)))
    ref_power = _brute_force_power(ref_n, 0.4, 0.1, 0.05, _sm_exact_p)
    assert planning.sample_size_summary(0.3, 0.5) == (
        f"Connor: {ref_n} test cases for 80% power; the exact test has power {ref_power:.3f} there")
    assert planning.sample_size_summary(0.0, 0.2).startswith("no difference to detect")
    assert planning.sample_size_summary(0.2, 0.1).startswith("no such pair of classifiers")


def test_plot_interval_and_power_marks_the_enumerated_power_and_width():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    assert planning.plot_interval_and_power(PLAN["difference"], PLAN["n"], discordance=PLAN["discordance"], ax=ax) is ax
    ref_power = _brute_force_power(24, 0.25, 0.10, 0.05, _sm_exact_p)
    ref_width = _bonett_price_width(6, 2.4, 24)
    dot = [line for line in ax.lines if line.get_marker() == "o"][0]
    assert tuple(dot.get_xydata()[0]) == pytest.approx((24, ref_power), abs=1e-12)
    twin = [a for a in fig.axes if a is not ax][0]
    wdot = [line for line in twin.lines if line.get_marker() == "o"][0]
    assert wdot.get_xydata()[0][1] == pytest.approx(ref_width, rel=1e-12)
    assert f"n = 24:\npower of the exact test {ref_power:.2f}" in ax.get_title()
    # the width is the interval's at the expected counts b = n p_b, c = n p_c, and says so (not a mean width)
    assert ax.get_title().endswith(f"width of the 95% interval at the expected counts {ref_width:.3f}")
    assert twin.get_ylabel() == "width of the 95% interval\nat the expected counts"
    # the corner a pair of sliders can reach: the Axes says so, nothing is drawn
    ax = planning.plot_interval_and_power(0.1, 300, discordance=0.05)
    assert not ax.lines and "no such pair of classifiers" in ax.texts[0].get_text()
    with pytest.raises(ValueError, match="difference"):
        planning.plot_interval_and_power(1.5, 300, discordance=0.05)
    plt.close("all")


def test_plot_sample_size_marks_connors_n():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ref_n = math.ceil(sm_power.normal_sample_size_one_tail(0.3, 0.8, 0.025, std_null=math.sqrt(0.5),
                                                           std_alternative=math.sqrt(0.5 - 0.09)))
    fig, ax = plt.subplots()
    assert planning.plot_sample_size(0.3, 0.5, ax=ax) is ax
    assert len(ax.lines) == 3 + 2        # exact, mid-p, Connor; the target power and Connor's n
    assert [line.get_xdata()[0] for line in ax.lines[3:]] == [0, ref_n]
    exact = ax.lines[0]
    x, y = exact.get_xdata(), exact.get_ydata()
    assert y[list(x).index(ref_n)] == pytest.approx(_brute_force_power(ref_n, 0.4, 0.1, 0.05, _sm_exact_p), abs=1e-12)
    assert ax.get_title().splitlines()[1].startswith(f"Connor: {ref_n} test cases")
    ax = planning.plot_sample_size(0.2, 0.1)
    assert not ax.lines and "no such pair of classifiers" in ax.texts[0].get_text()
    plt.close("all")


# ------------------------------------------------------------------ F1 bootstrap
def _f1(tp, fp, fn):
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)


def test_f1_bootstrap_power_against_an_index_level_simulation():
    # population: 8 joint events; B finds more positives than A
    probs = np.array([0.12, 0.06, 0.01, 0.03, 0.01, 0.02, 0.01, 0.74])
    n, n_sim, reps = 150, 300, 300
    got = f1_bootstrap_power(n, probs, repetitions=n_sim, n_resamples=reps, rng=1)
    # independent: draw cases, resample case indices, F1 from label vectors
    rng = np.random.default_rng(2)
    y_of = np.array([1, 1, 1, 1, 0, 0, 0, 0], bool)
    a_of = np.array([1, 0, 1, 0, 1, 0, 1, 0], bool)   # A predicts positive in e1, e3, e5, e7
    b_of = np.array([1, 1, 0, 0, 1, 1, 0, 0], bool)   # B predicts positive in e1, e2, e5, e6
    hits = 0
    for _ in range(n_sim):
        ev = rng.choice(8, size=n, p=probs)
        idx = rng.integers(0, n, size=(reps, n))
        y, a, b = y_of[ev][idx], a_of[ev][idx], b_of[ev][idx]
        f1a = _f1((y & a).sum(1), (~y & a).sum(1), (y & ~a).sum(1))
        f1b = _f1((y & b).sum(1), (~y & b).sum(1), (y & ~b).sum(1))
        lo, hi = np.quantile(f1b - f1a, [0.025, 0.975])
        hits += (lo > 0) or (hi < 0)
    ref = hits / n_sim
    se = math.sqrt(got.mcse ** 2 + ref * (1 - ref) / n_sim)
    assert abs(got.power - ref) <= 4 * se + 1e-9, (got.power, ref)
    assert got.mcse == pytest.approx(math.sqrt(got.power * (1 - got.power) / n_sim))
    # dF1 of the population, from F1 = 2 tp / (2 tp + fp + fn)
    f1a = 2 * 0.13 / (2 * 0.13 + 0.02 + 0.09)
    f1b = 2 * 0.18 / (2 * 0.18 + 0.03 + 0.04)
    assert got.estimate == pytest.approx(f1b - f1a, abs=1e-6)


def test_f1_power_is_reproducible_and_grows_with_n():
    probs = [0.12, 0.06, 0.01, 0.03, 0.01, 0.02, 0.01, 0.74]
    t1 = f1_power_curve([50, 400], probs, repetitions=150, n_resamples=200, rng=5)
    t2 = f1_power_curve([50, 400], probs, repetitions=150, n_resamples=200, rng=5)
    assert t1.equals(t2)
    assert t1["power"].iloc[1] > t1["power"].iloc[0] + 3 * t1["mcse"].max()


# ------------------------------------------------------------------ many data sets
# Demšar (2006), Table 5(a): q_0.05 for the Nemenyi test, k = 2 ... 10
DEMSAR_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}


@pytest.mark.parametrize("k, gap", [(k, gap) for k in sorted(DEMSAR_Q05) for gap in (0.5, 0.8, 1.3) if gap <= k - 1])
def test_nemenyi_datasets_from_demsar_table(k, gap):
    q = DEMSAR_Q05[k]
    exact = q * q * k * (k + 1) / (6 * gap * gap)
    n = nemenyi_datasets(k, gap)
    # the printed q has three decimals: the answer may differ only if the bound is within its rounding
    lo = (q - 0.0005) ** 2 * k * (k + 1) / (6 * gap * gap)
    hi = (q + 0.0005) ** 2 * k * (k + 1) / (6 * gap * gap)
    assert max(2, math.ceil(lo)) <= n <= max(2, math.ceil(hi)), (n, exact)
    assert evallib.critical_difference(k, n).cd <= gap
    if n > 2:
        assert evallib.critical_difference(k, n - 1).cd > gap


# ------------------------------------------------------------------ write-up
def test_write_up_carries_the_numbers_of_the_tests():
    text = comparison_write_up(20, 8, 200, names=("tree", "forest"), tried="two models, one split")
    p = stats.binomtest(8, 28, 0.5).pvalue
    assert f"p = {p:#.2g}" in text
    assert "+0.060" in text and "tree minus forest" in text and "two models, one split" in text
    assert "rejects" in text
    assert text.endswith("- **What was tried**: two models, one split.")   # every item ends as a sentence


def test_write_up_interval_is_bonett_price():
    """The template reports the recommended interval, written out here from Bonett & Price
    (2012) as Fagerland, Lydersen & Laake (2014) give it: adjusted proportions (b + 1)/(n + 2)."""
    b, c, n, z = 20, 8, 200, stats.norm.ppf(0.975)
    p12, p21 = (b + 1) / (n + 2), (c + 1) / (n + 2)
    half = z * np.sqrt((p12 + p21 - (p12 - p21) ** 2) / (n + 2))
    text = comparison_write_up(b, c, n)
    assert f"95% Bonett–Price interval [{p12 - p21 - half:+.3f}, {p12 - p21 + half:+.3f}]" in text
    with pytest.raises(ValueError, match="n"):
        comparison_write_up(20, 8, 27)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call, match", [
    (lambda: mcnemar_power(10, 1.2, 0.1), "p_b"),
    (lambda: mcnemar_power(10, 0.1, -0.1), "p_c"),
    (lambda: mcnemar_power(10, 0.6, 0.5), "p_b \\+ p_c"),
    (lambda: mcnemar_power(-1, 0.1, 0.1), "n"),
    (lambda: mcnemar_power(10, 0.1, 0.1, method="wald"), "method"),
    (lambda: mcnemar_power(10, 0.1, 0.1, alpha=1.5), "alpha"),
    (lambda: mcnemar_sample_size(0.1, 0.05, power=1.0), "power"),
    (lambda: mcnemar_sample_size(0.1, 0.05, power=0.0), "power"),
    (lambda: mcnemar_sample_size(0.1, 0.1), "p_b must differ"),
    (lambda: mcnemar_sample_size(0.6, 0.5), "p_b \\+ p_c"),
    (lambda: minimum_detectable_difference(0, 0.1), "n"),
    (lambda: minimum_detectable_difference(10, 1.5), "discordance"),
    (lambda: minimum_detectable_difference(10, 0.1, power=2), "power"),
    (lambda: discordant_probabilities(0.3, 0.2), "difference"),
    (lambda: f1_bootstrap_power(10, [1, 2, 3]), "events"),
    (lambda: f1_bootstrap_power(10, [0, 0, 0, 0, 1, 1, 1, 1]), "positive class"),
    (lambda: f1_bootstrap_power(10, [1] * 8, rng=-3), "rng"),
    (lambda: nemenyi_datasets(3, 2.5), "rank_difference"),
    (lambda: nemenyi_datasets(1, 0.5), "k"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_exact_sample_size_beyond_max_n_says_so():
    with pytest.raises(ValueError, match="max_n"):
        mcnemar_sample_size(0.051, 0.05, method="exact", max_n=500)


# ------------------------------------------------------------------ plots
def test_plots_return_their_axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    assert planning.plot_mcnemar_power(0.1, 0.04, methods=("exact", "mid-p", "chi2"), ax=ax) is ax
    assert len(ax.lines) >= 3
    assert planning.plot_interval_and_power(0.03, 300, discordance=0.1) is not None
    table = f1_power_curve([50, 100], [0.12, 0.06, 0.01, 0.03, 0.01, 0.02, 0.01, 0.74], repetitions=20, n_resamples=50, rng=0)
    assert planning.plot_f1_power(table).get_ylabel() == "power"
    assert planning.plot_nemenyi_datasets(5, 1.0).get_xlabel() == "number of data sets N"
    assert len(planning.plot_design_map().patches) >= 13
    ax = planning.plot_minimum_detectable_difference((0.05, 0.2), n_max=500)
    y = ax.lines[1].get_ydata()
    assert len(ax.lines) == 2 and np.nanmin(y) == pytest.approx(minimum_detectable_difference(500, 0.2), rel=1e-9)
    plt.close("all")


def test_exported_from_evallib():
    for name in _mcnemar_plan.__all__:
        assert getattr(evallib, name) is getattr(planning, name)


# ------------------------------------------------------------------ cross-validation
def test_cv_power_aggregates_the_simulation_as_rejection_rates_does():
    from evallib.resampling._cvtests import rejection_rates, simulate_unequal_learners

    table = planning.cv_ttest_power(60, 0.1, folds=5, repeats=3, n_datasets=80, rng=11).set_index("test")
    seed = int(np.random.default_rng(11).integers(2**31 - 1))
    for col, delta in (("power", 0.1), ("size", 0.0)):
        sim = simulate_unequal_learners(60, difference=delta, folds=5, repeats=3, n_datasets=80, rng=seed)
        ref = rejection_rates(sim, 0.05).set_index("test")
        assert np.allclose(table[col], ref.loc[table.index, "rate"])
        assert np.allclose(table[f"{col}_mcse"], np.sqrt(ref.loc[table.index, "rate"] * (1 - ref.loc[table.index, "rate"]) / 80))


def test_cv_power_corrected_test_keeps_its_level_and_gains_power_with_the_difference():
    # one call, two studies of 400 data sets (5 x 5-fold CV, 80 cases): the size study
    # (difference 0) and the power study (difference 0.2). The SE of a rate near 0.05 is 0.011,
    # so the tolerance 0.035 is 3.2 SE: the corrected test is approximately at level
    table = planning.cv_ttest_power(80, 0.2, folds=5, repeats=5, n_datasets=400, rng=3).set_index("test")
    corrected = "corrected resampled t"
    assert abs(table.loc[corrected, "size"] - 0.05) < 0.035
    assert table.loc[corrected, "power"] > table.loc[corrected, "size"] + 4 * table.loc[corrected, "power_mcse"]
    # the naive test's power comes with a size far above alpha
    assert table.loc["paired t, all folds", "size"] > 0.05 + 4 * table.loc["paired t, all folds", "size_mcse"]


def test_cv_power_curve_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = planning.cv_power_curve([40, 80], 0.1, folds=5, repeats=2, n_datasets=30, rng=0)
    assert list(table["n_samples"].unique()) == [40, 80] and len(table) == 8
    ax = planning.plot_cv_power(table, alpha=0.05)
    assert len(ax.lines) >= 8
    plt.close("all")
    with pytest.raises(ValueError, match="difference"):
        planning.cv_ttest_power(40, -0.1)
    with pytest.raises(ValueError, match="ns"):
        planning.cv_power_curve([], 0.1)


@pytest.mark.parametrize("method", ["exact", "mid-p"])
def test_critical_counts_at_large_m_by_direct_search(method):
    ms = np.array([1, 2, 5, 17, 100, 333, 1000, 2501, 4000])
    got = _mcnemar_plan._lower_critical(ms, 0.05, method)
    for m, k in zip(ms, got):
        x = np.arange(m + 1)
        cdf = stats.binom.cdf(x, m, 0.5)
        p = 2 * (cdf - 0.5 * stats.binom.pmf(x, m, 0.5)) if method == "mid-p" else 2 * cdf
        ok = np.flatnonzero((p <= 0.05) & (2 * x < m))
        assert k == (ok.max() if ok.size else -1), m


# ------------------------------------------------------------- Nemenyi power (simulated)
def _cd_scipy(k: int, n: int, alpha: float = 0.05) -> float:
    # Demšar (2006), section 3.2.2: q_alpha is the studentized range quantile over sqrt(2)
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
    return q * math.sqrt(k * (k + 1) / (6 * n))


def test_nemenyi_power_model_has_the_requested_expected_rank_gap():
    # independent check of the solved spacing: ranks by scipy's rankdata on 200,000 data sets
    table = planning.nemenyi_power_curve(5, 1.0, 10, n_resamples=20, rng=0)
    mu = np.arange(5) / 4 * table.attrs["spacing"]
    scores = mu + np.random.default_rng(7).standard_normal((200_000, 5))
    ranks = stats.rankdata(-scores, axis=1)
    gap = ranks[:, 0] - ranks[:, -1]
    assert abs(gap.mean() - 1.0) < 4 * gap.std() / math.sqrt(gap.size)
    assert abs(gap.std() - table.attrs["sigma"]) < 0.05


@pytest.mark.parametrize("k, gap, n", [(5, 1.0, 38), (3, 0.5, 30)])
def test_nemenyi_power_matches_a_brute_force_simulation(k, gap, n):
    # a loop written from scratch: scipy ranks, scipy's studentized range, another seed
    table = planning.nemenyi_power_curve(k, gap, n, n_resamples=3000, rng=1).set_index("n_datasets")
    mu = np.arange(k) / (k - 1) * table.attrs["spacing"]
    gen = np.random.default_rng(99)
    cd = _cd_scipy(k, n)
    reps = 3000
    hits = 0
    for _ in range(reps):
        ranks = stats.rankdata(-(mu + gen.standard_normal((n, k))), axis=1).mean(axis=0)
        hits += abs(ranks[0] - ranks[-1]) >= cd
    ref = hits / reps
    ours = float(table.loc[n, "power"])
    se = math.sqrt(ref * (1 - ref) / reps + ours * (1 - ours) / 3000)
    assert abs(ours - ref) < 4 * se
    assert float(table.loc[n, "cd"]) == pytest.approx(cd, rel=1e-6)


def test_nemenyi_power_is_about_one_half_at_the_cd_floor_and_the_normal_curve_agrees():
    # at nemenyi_datasets' N the critical difference equals the gap (to rounding): the observed gap,
    # centred on it, exceeds it about half the time (Demšar's N is not a sample size for 80% power)
    n0 = nemenyi_datasets(5, 1.0)
    table = planning.nemenyi_power_curve(5, 1.0, 3 * n0, n_resamples=4000, rng=2).set_index("n_datasets")
    assert 0.42 < table.loc[n0, "power"] < 0.6
    assert np.max(np.abs(table["power"] - table["normal"]).to_numpy()[5:]) < 0.05
    n80 = planning.nemenyi_power_datasets(table.reset_index())
    assert n80 is not None and n80 > 1.4 * n0
    assert table.loc[n80, "power"] >= 0.8 and table.loc[n80 - 1, "power"] < 0.8


def test_nemenyi_power_datasets_reads_the_table():
    import pandas as pd
    table = pd.DataFrame({"n_datasets": [2, 3, 4, 5, 6], "power": [0.1, 0.81, 0.79, 0.85, 0.9],
                          "normal": [0.1, 0.2, 0.3, 0.4, 0.5]})
    assert planning.nemenyi_power_datasets(table) == 5          # reaches 0.8 and stays there from N = 5
    assert planning.nemenyi_power_datasets(table, column="normal") is None
    assert planning.nemenyi_power_datasets(table, power=0.05) == 2
    with pytest.raises(ValueError, match="column"):
        planning.nemenyi_power_datasets(table, column="size")
    with pytest.raises(ValueError, match="n_datasets"):
        planning.nemenyi_power_datasets(table.drop(columns="n_datasets"))


@pytest.mark.parametrize("call, name", [
    (lambda: planning.nemenyi_power_curve(3, 2.0, 20), "rank_difference"),
    (lambda: planning.nemenyi_power_curve(3, 0.0, 20), "rank_difference"),
    (lambda: planning.nemenyi_power_curve(1, 0.5, 20), "k"),
    (lambda: planning.nemenyi_power_curve(3, 0.5, 1), "n_max"),
    (lambda: planning.nemenyi_power_curve(3, 0.5, 20, n_resamples=5), "n_resamples"),
    (lambda: planning.nemenyi_power_curve(3, 0.5, 20, alpha=1.5), "alpha"),
])
def test_nemenyi_power_curve_rejects_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_plot_nemenyi_power_draws_on_the_given_axes():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    table = planning.nemenyi_power_curve(4, 1.0, 60, n_resamples=200, rng=0)
    fig, ax = plt.subplots()
    assert planning.plot_nemenyi_power(table, ax=ax) is ax
    assert ax.get_xlabel() == "number of data sets N" and len(ax.get_lines()) >= 2
    with pytest.raises(ValueError, match="nemenyi_power_curve"):
        planning.plot_nemenyi_power(table.drop(columns="normal"))
    plt.close(fig)


@pytest.mark.parametrize("alpha, method", [(0.05, "exact"), (0.1, "mid-p"), (0.01, "exact")])
def test_cached_critical_values_equal_the_direct_computation(alpha, method):
    # the lookup table grows as larger m are asked for; every answer must equal the binomial one
    _mcnemar_plan._CRITICAL_CACHE.clear()
    for ms in (np.arange(0, 40), np.array([5000, 17, 0, 2999]), np.arange(0, 6000, 7)):
        assert np.array_equal(_mcnemar_plan._lower_critical(ms, alpha, method),
                              _mcnemar_plan._lower_critical_direct(ms, alpha, method))
    big = np.array([250_000])       # beyond the cache: computed directly
    assert np.array_equal(_mcnemar_plan._lower_critical(big, alpha, method), _mcnemar_plan._lower_critical_direct(big, alpha, method))


# ------------------------------------------------------------------ the test reported: mid-p and exact
@pytest.mark.parametrize("method, pvalue", [("exact", "_sm_exact_p"), ("mid-p", "_midp")])
def test_minimum_detectable_difference_exact_is_where_the_enumerated_power_reaches_the_target(method, pvalue):
    n, psi, target = 40, 0.3, 0.8
    pv = globals()[pvalue]
    delta = minimum_detectable_difference(n, psi, power=target, method=method)
    assert 0 < delta < psi
    # brute force over every table: just above the root the power reaches the target, just below it does not
    assert _brute_force_power(n, (psi + delta + 1e-4) / 2, (psi - delta - 1e-4) / 2, 0.05, pv) >= target
    assert _brute_force_power(n, (psi + delta - 1e-4) / 2, (psi - delta + 1e-4) / 2, 0.05, pv) < target
    # the asymptotic answer is Connor's, a different number
    assert minimum_detectable_difference(n, psi, power=target) != pytest.approx(delta, abs=1e-4)
    with pytest.raises(ValueError, match="method"):
        minimum_detectable_difference(n, psi, method="wald")


def test_interval_and_power_summary_for_the_midp_test_by_enumeration():
    ref_power = _brute_force_power(24, 0.25, 0.10, 0.05, _midp)
    text = planning.interval_and_power_summary(**PLAN, test="mid-p")
    assert text.endswith(f"power of McNemar's mid-p test {ref_power:.2f}")
    with pytest.raises(ValueError, match="test"):
        planning.interval_and_power_summary(**PLAN, test="yates")


def test_plot_interval_and_power_updates_its_drawing_in_place():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    planning.plot_interval_and_power(0.15, 24, discordance=0.35, n_max=60, test="mid-p", ax=ax)
    lines, n_axes = list(ax.lines), len(fig.axes)
    planning.plot_interval_and_power(0.10, 30, discordance=0.30, n_max=60, test="mid-p", ax=ax)
    assert list(ax.lines) == lines and len(fig.axes) == n_axes      # the same artists, moved
    ref_power = _brute_force_power(30, 0.20, 0.10, 0.05, _midp)
    dot = [line for line in ax.lines if line.get_marker() == "o"][0]
    assert tuple(dot.get_xydata()[0]) == pytest.approx((30, ref_power), abs=1e-12)
    curve = ax.lines[0].get_xydata()
    i = int(np.flatnonzero(curve[:, 0] == 30)[0])
    assert curve[i, 1] == pytest.approx(ref_power, abs=1e-12)
    twin = [a for a in fig.axes if a is not ax][0]
    widths = twin.lines[0].get_xydata()
    assert widths[i, 1] == pytest.approx(_bonett_price_width(6.0, 3.0, 30), rel=1e-12)
    assert "n = 30:\npower of the mid-p test" in ax.get_title()
    # an impossible pair hides the curves and says so; a possible one brings them back
    planning.plot_interval_and_power(0.4, 30, discordance=0.30, n_max=60, ax=ax)
    assert not any(line.get_visible() for line in ax.lines)
    assert any("no such pair of classifiers" in t.get_text() and t.get_visible() for t in ax.texts)
    planning.plot_interval_and_power(0.10, 30, discordance=0.30, n_max=60, test="mid-p", ax=ax)
    assert all(line.get_visible() for line in ax.lines)
    assert not any(t.get_visible() and "no such pair" in t.get_text() for t in ax.texts)


@pytest.mark.parametrize("test, pvalue, b, c, n", [("exact", "_sm_exact_p", 10, 2, 40), ("mid-p", "_midp", 10, 2, 40),
                                                  ("mid-p", "_midp", 11, 4, 228)])
def test_write_up_plans_with_the_power_of_the_test_it_reports(test, pvalue, b, c, n):
    # a large difference keeps the enumerations small (61 pairs for the exact test, 53 for mid-p:
    # the two tests plan different sizes, so a write-up planning with the other test fails); 11, 4 of 228
    # is notebook 00's running example, whose detectable difference (0.04535) rounds to the nearest as 0.045,
    # where the power is 0.79
    pv = globals()[pvalue]
    text = comparison_write_up(b, c, n, test=test)
    assert f"p = {pv(b, c):#.2g}" in text
    line = next(s for s in text.splitlines() if s.startswith("- **Power**"))
    need = int(line.split("needs about ")[1].split()[0])
    # the sample size of the reported test: its enumerated power reaches 80% there
    assert _brute_force_power(need, b / n, c / n, 0.05, pv) >= 0.8
    assert need == mcnemar_sample_size(b / n, c / n, method=test)
    mdd = float(line.split("detect a difference of ")[1].split()[0])
    psi = (b + c) / n
    # the printed difference is detected with 80% power; 0.001 less is not (printed rounded up)
    assert _brute_force_power(n, (psi + mdd) / 2, (psi - mdd) / 2, 0.05, pv) >= 0.8
    assert _brute_force_power(n, (psi + mdd - 1e-3) / 2, (psi - mdd + 1e-3) / 2, 0.05, pv) < 0.8


def test_cv_power_curve_returns_the_rejections_behind_its_power():
    """Review nb0006c: the paired power comparison needs the per-data-set rejections; their means are the powers."""
    import pandas as pd

    table = planning.cv_power_curve([40, 80], 0.1, folds=5, repeats=2, n_datasets=30, rng=0)
    again, rejections = planning.cv_power_curve([40, 80], 0.1, folds=5, repeats=2, n_datasets=30, rng=0,
                                                return_rejections=True)
    pd.testing.assert_frame_equal(table, again)
    assert rejections.index.names == ["n_samples", "dataset"] and len(rejections) == 60
    assert set(rejections.columns) == set(table["test"]) and (rejections.dtypes == bool).all()
    for row in table.itertuples():
        assert rejections.loc[row.n_samples, row.test].mean() == pytest.approx(row.power)


def test_write_up_never_prints_an_interval_with_0_inside_as_starting_at_it():
    """Cold read h3 (notebook 00, seed 1): b = 9, c = 2 of 228 gave "interval [-0.000, +0.061]" beside "the error
    rates differ" (mid-p p = 0.039). The Bonett–Price interval (written out in tests/_references.py) has its low
    end at -0.0000374: printed so that its sign shows, and the clash of interval and test said in words."""
    from _references import bonett_price

    low, high = bonett_price(9, 2, 228, 0.05)
    assert -1e-4 < low < 0 < high
    assert _midp(9, 2) < 0.05
    text = comparison_write_up(9, 2, 228, test="mid-p")
    line = next(s for s in text.splitlines() if s.startswith("- **Interval**"))
    assert f"[{low:+.5f}, {high:+.5f}]" in line
    assert "contains 0 although the test rejects" in line and "borderline" in line
    # the running example (11, 4): interval and test agree (both not separated), so no clash is claimed
    quiet = next(s for s in comparison_write_up(11, 4, 228, test="mid-p").splitlines() if s.startswith("- **Interval**"))
    assert "although" not in quiet
