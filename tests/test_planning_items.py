"""Planning a per-item comparison of two models (design 4) against independent references.

References: statsmodels' power machinery for one sample of paired differences
(``normal_sample_size_one_tail`` - the closed form Miller (2024) writes, ``NormalIndPower``
with ``ratio=0`` and ``TTestPower``) for items, and for cluster means; McNemar's notation
for 0/1 scores (the variance of one item's difference is ``p_b + p_c - (p_b - p_c)^2``,
computed from the generating model); and Monte Carlo simulations of 0/1-scored items in
clusters, answered K times by each model, analysed by a cluster-level paired t-test (or an
item-level z-test), whose rejection rate must match the planned power within 3 Monte
Carlo standard errors. The population parameters the plans get (SDs, correlation,
within-item SDs, ICC) are worked out by hand from the generating model, below.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

import evallib
from evallib import planning
from evallib.planning import (
    ItemSampleSize,
    item_difference_variance,
    item_minimum_detectable_difference,
    item_power,
    item_sample_size,
    plot_item_sample_size,
)

sm_power = pytest.importorskip("statsmodels.stats.power")

# (sd_a, sd_b, correlation, within_sd_a, within_sd_b)
SETTINGS = [(0.3, 0.3, 0.5, 0.3, 0.3), (0.2, 0.25, 0.8, 0.4, 0.35), (0.1, 0.4, 0.0, 0.45, 0.2),
            (0.35, 0.3, -0.3, 0.1, 0.3)]


def _var_d(sd_a, sd_b, rho, w_a, w_b, k=1):
    """Variance of a difference of two correlated item scores plus independent noise (textbook)."""
    return sd_a ** 2 + sd_b ** 2 - 2 * rho * sd_a * sd_b + (w_a ** 2 + w_b ** 2) / k


def _kw(sd_a, sd_b, rho, w_a, w_b):
    return dict(sd_a=sd_a, sd_b=sd_b, correlation=rho, within_sd_a=w_a, within_sd_b=w_b)


# ------------------------------------------------------------------ statsmodels, K = 1, no clusters
@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("difference, alpha, power", [(0.03, 0.05, 0.8), (-0.05, 0.01, 0.9), (0.1, 0.1, 0.7)])
def test_normal_sample_size_is_statsmodels_one_tail(setting, difference, alpha, power):
    sd = math.sqrt(_var_d(*setting))
    ref = sm_power.normal_sample_size_one_tail(abs(difference), power, alpha / 2, std_null=sd, std_alternative=sd)
    plan = item_sample_size(difference, **_kw(*setting), alpha=alpha, power=power)
    assert plan.n_items == plan.n_clusters == max(2, math.ceil(ref))
    # NormalIndPower (ratio=0: one sample) counts the far tail too; it needs a hair fewer items
    both_tails = sm_power.NormalIndPower().solve_power(abs(difference) / sd, alpha=alpha, power=power, ratio=0)
    assert both_tails <= ref and plan.n_items - 1 < both_tails + 1e-6 * ref


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("n", [10, 57, 400])
def test_power_is_statsmodels(setting, n):
    sd = math.sqrt(_var_d(*setting))
    for difference in (0.0, 0.02, 0.08):
        es = difference / sd
        z_ref = sm_power.NormalIndPower().power(es, n, 0.05, ratio=0)
        t_ref = sm_power.TTestPower().power(es, n, 0.05)
        assert item_power(n, difference, **_kw(*setting)) == pytest.approx(z_ref, rel=1e-9, abs=1e-12)
        assert item_power(n, difference, **_kw(*setting), method="t") == pytest.approx(t_ref, rel=1e-7, abs=1e-12)


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("difference, power", [(0.04, 0.8), (0.15, 0.9), (0.3, 0.8)])
def test_t_sample_size_is_statsmodels_ttestpower(setting, difference, power):
    sd = math.sqrt(_var_d(*setting))
    ref = sm_power.TTestPower().solve_power(difference / sd, alpha=0.05, power=power)
    plan = item_sample_size(difference, **_kw(*setting), power=power, method="t")
    assert plan.n_items == max(2, math.ceil(ref - 1e-9))
    assert plan.achieved_power >= power
    assert sm_power.TTestPower().power(difference / sd, plan.n_items, 0.05) == pytest.approx(plan.achieved_power)


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("n, power", [(30, 0.8), (250, 0.9), (3000, 0.8)])
def test_minimum_detectable_difference_is_statsmodels(setting, n, power):
    sd = math.sqrt(_var_d(*setting))
    z_es = sm_power.NormalIndPower().solve_power(None, nobs1=n, alpha=0.05, power=power, ratio=0)
    t_es = sm_power.TTestPower().solve_power(None, nobs=n, alpha=0.05, power=power)
    z_mdd = item_minimum_detectable_difference(n, **_kw(*setting), power=power)
    t_mdd = item_minimum_detectable_difference(n, **_kw(*setting), power=power, method="t")
    for mine, ref in ((z_mdd, z_es * sd), (t_mdd, t_es * sd)):
        if ref <= 1:   # statsmodels' root finder stops at about 1e-5 relative
            assert mine == pytest.approx(ref, rel=1e-4)
        else:
            assert mine == math.inf
    # statsmodels' power at our difference is the target: exactly for the t-test, and to 1e-6 for
    # the z-test (Miller's closed form leaves out the far tail, which NormalIndPower counts)
    if t_mdd < math.inf:
        assert sm_power.TTestPower().power(t_mdd / sd, n, 0.05) == pytest.approx(power, abs=1e-9)
    if z_mdd < math.inf:
        assert sm_power.NormalIndPower().power(z_mdd / sd, n, 0.05, ratio=0) == pytest.approx(power, abs=1e-6)


def test_minimum_detectable_difference_by_hand():
    # (z_.975 + z_.8) sqrt(V / n) with V = 0.3^2 + 0.3^2 - 2 (0.5) 0.3^2 + 2 (0.3^2)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    mdd = item_minimum_detectable_difference(500, sd_a=0.3, correlation=0.5, within_sd_a=0.3)
    assert mdd == pytest.approx(z * math.sqrt(0.27 / 500), rel=1e-12)


# ------------------------------------------------------------------ clusters: statsmodels on cluster means
@pytest.mark.parametrize("m, icc, k", [(5, 0.1, 1), (10, 0.3, 4), (3, 0.0, 2), (20, 0.05, 8)])
def test_clustered_plans_are_statsmodels_on_cluster_means(m, icc, k):
    sd_a, sd_b, rho, w_a, w_b = 0.25, 0.2, 0.6, 0.35, 0.4
    omega2 = sd_a ** 2 + sd_b ** 2 - 2 * rho * sd_a * sd_b
    # a cluster mean of m item differences: m items' between parts correlated icc, noise independent
    unit_var = (m * omega2 + m * (m - 1) * icc * omega2 + m * (w_a ** 2 + w_b ** 2) / k) / m ** 2
    kw = dict(sd_a=sd_a, sd_b=sd_b, correlation=rho, within_sd_a=w_a, within_sd_b=w_b, samples=k,
              cluster_size=m, icc=icc)
    assert item_difference_variance(**kw) == pytest.approx(m * unit_var, rel=1e-12)
    delta = 0.05
    sd = math.sqrt(unit_var)
    z_plan, t_plan = item_sample_size(delta, **kw), item_sample_size(delta, **kw, method="t")
    z_ref = sm_power.normal_sample_size_one_tail(delta, 0.8, 0.025, std_null=sd, std_alternative=sd)
    t_ref = sm_power.TTestPower().solve_power(delta / sd, alpha=0.05, power=0.8)
    assert (z_plan.n_clusters, z_plan.n_items) == (max(2, math.ceil(z_ref)), m * max(2, math.ceil(z_ref)))
    assert (t_plan.n_clusters, t_plan.n_items) == (max(2, math.ceil(t_ref)), m * max(2, math.ceil(t_ref)))
    assert t_plan.design_effect == pytest.approx(1 + (m - 1) * icc)
    assert item_power(t_plan.n_items, delta, **kw, method="t") == pytest.approx(
        sm_power.TTestPower().power(delta / sd, t_plan.n_clusters, 0.05), rel=1e-9)


# ------------------------------------------------------------------ 0/1 scores, McNemar's notation
def test_variance_of_a_01_item_difference_is_mcnemars():
    # p_A = 0.6 + 0.3 e, p_B = 0.5 + 0.25 e + 0.2 f, e, f ~ U(-1, 1): moments by hand (Var U = 1/3)
    mu_a, mu_b = 0.6, 0.5
    var_a, var_b, cov = 0.09 / 3, (0.0625 + 0.04) / 3, 0.075 / 3
    within_a, within_b = mu_a * (1 - mu_a) - var_a, mu_b * (1 - mu_b) - var_b   # E[p (1 - p)]
    psi = mu_a + mu_b - 2 * (cov + mu_a * mu_b)   # P(A, B disagree) = E[p_A (1 - p_B) + p_B (1 - p_A)]
    delta = mu_a - mu_b
    v = item_difference_variance(sd_a=math.sqrt(var_a), sd_b=math.sqrt(var_b),
                                 correlation=cov / math.sqrt(var_a * var_b),
                                 within_sd_a=math.sqrt(within_a), within_sd_b=math.sqrt(within_b))
    assert v == pytest.approx(psi - delta ** 2, rel=1e-12)


# ------------------------------------------------------------------ Monte Carlo
def _simulate_01(gen, n_sim, n_clusters, m, k, mu, a, b):
    """0/1 answers: p_A = mu_A + a1 u + a2 e, p_B = mu_B + b1 u + b2 e + b3 f (u per cluster; e, f
    per item; all U(-1, 1)); each model answers each item k times. Returns item differences
    of the k-answer means, shape (n_sim, n_clusters, m)."""
    u = gen.uniform(-1, 1, size=(n_sim, n_clusters, 1))
    e = gen.uniform(-1, 1, size=(n_sim, n_clusters, m))
    f = gen.uniform(-1, 1, size=(n_sim, n_clusters, m))
    p_a = mu[0] + a[0] * u + a[1] * e
    p_b = mu[1] + b[0] * u + b[1] * e + b[2] * f
    return (gen.binomial(k, p_a) - gen.binomial(k, p_b)) / k


def _population(mu, a, b):
    """The variance-model parameters of that generator, by hand (Var U(-1, 1) = 1/3)."""
    var_a, var_b = (a[0] ** 2 + a[1] ** 2) / 3, (b[0] ** 2 + b[1] ** 2 + b[2] ** 2) / 3
    cov = (a[0] * b[0] + a[1] * b[1]) / 3
    between_clusters = (a[0] - b[0]) ** 2 / 3
    omega2 = var_a + var_b - 2 * cov
    return dict(sd_a=math.sqrt(var_a), sd_b=math.sqrt(var_b), correlation=cov / math.sqrt(var_a * var_b),
                within_sd_a=math.sqrt(mu[0] * (1 - mu[0]) - var_a),
                within_sd_b=math.sqrt(mu[1] * (1 - mu[1]) - var_b),
                icc=between_clusters / omega2 if omega2 > 0 else 0.0)


def test_monte_carlo_clusters_and_k_answers_reach_the_planned_power():
    """Clusters of 5 items (ICC 0.31), 4 answers per item, 0/1 scores: a cluster-level paired
    t-test at the planned number of clusters rejects at the planned power (within 3 MC SE)."""
    mu, a, b = (0.58, 0.5), (0.2, 0.2), (0.1, 0.2, 0.15)
    pop = _population(mu, a, b)
    m, k, n_sim = 5, 4, 10_000
    plan = item_sample_size(mu[0] - mu[1], **pop, samples=k, cluster_size=m, method="t")
    assert plan.achieved_power >= 0.8 and plan.n_items == plan.n_clusters * m
    gen = np.random.default_rng(20241101)
    d = _simulate_01(gen, n_sim, plan.n_clusters, m, k, mu, a, b)
    means = d.mean(axis=2)                                    # one mean difference per cluster
    j = plan.n_clusters
    t = means.mean(axis=1) / (means.std(axis=1, ddof=1) / math.sqrt(j))
    rate = float(np.mean(np.abs(t) > stats.t.isf(0.025, j - 1)))
    mcse = math.sqrt(rate * (1 - rate) / n_sim)
    assert abs(rate - plan.achieved_power) <= 3 * mcse, (rate, plan.achieved_power, mcse)
    assert abs(rate - 0.8) <= 3 * mcse + (plan.achieved_power - 0.8)
    # the check can fail: ignoring the clusters, or the K answers, predicts a power far from it
    no_icc = item_power(plan.n_items, mu[0] - mu[1], **{**pop, "icc": 0.0}, samples=k, cluster_size=m, method="t")
    k_one = item_power(plan.n_items, mu[0] - mu[1], **pop, samples=1, cluster_size=m, method="t")
    assert abs(no_icc - rate) > 8 * mcse and abs(k_one - rate) > 8 * mcse


def test_monte_carlo_independent_items_z_test_reaches_the_planned_power():
    """Independent items, 2 answers each, 0/1 scores, Miller's normal plan and an item-level
    paired z-test: rejection rate = planned power within 3 MC SE."""
    mu, a, b = (0.6, 0.5), (0.0, 0.3), (0.0, 0.25, 0.2)
    pop = _population(mu, a, b)
    k, n_sim = 2, 10_000
    plan = item_sample_size(mu[0] - mu[1], **pop, samples=k)
    gen = np.random.default_rng(11)
    d = _simulate_01(gen, n_sim, plan.n_items, 1, k, mu, a, b)[:, :, 0]
    z = d.mean(axis=1) / (d.std(axis=1, ddof=1) / math.sqrt(plan.n_items))
    rate = float(np.mean(np.abs(z) > stats.norm.isf(0.025)))
    mcse = math.sqrt(rate * (1 - rate) / n_sim)
    assert abs(rate - plan.achieved_power) <= 3 * mcse, (rate, plan.achieved_power, mcse)
    k_one = item_power(plan.n_items, mu[0] - mu[1], **pop, samples=1)
    assert abs(k_one - rate) > 8 * mcse


# ------------------------------------------------------------------ behaviour
def test_k_answers_shrink_only_the_within_item_part():
    kw = dict(sd_a=0.3, correlation=0.5, within_sd_a=0.3)
    v1, v4, v_inf = (item_difference_variance(**kw, samples=k) for k in (1, 4, 10 ** 9))
    assert v_inf == pytest.approx(0.09, rel=1e-6)                     # omega^2 stays
    assert (v1 - v_inf) / (v4 - v_inf) == pytest.approx(4.0, rel=1e-6)
    assert item_sample_size(0.03, **kw, samples=4).n_items < item_sample_size(0.03, **kw).n_items


def test_sign_of_the_difference_does_not_matter_and_results_are_frozen():
    kw = dict(sd_a=0.2, sd_b=0.25, correlation=0.4, within_sd_a=0.3, cluster_size=4, icc=0.2, samples=3)
    up, down = item_sample_size(0.04, **kw), item_sample_size(-0.04, **kw)
    assert (up.n_items, up.n_clusters) == (down.n_items, down.n_clusters)
    assert item_power(400, 0.04, **kw) == item_power(400, -0.04, **kw)
    assert isinstance(up, ItemSampleSize)
    with pytest.raises(dataclasses.FrozenInstanceError):
        up.n_items = 1
    text = up.describe()
    assert text.startswith(f"{up.n_items} items in {up.n_clusters} clusters of 4, each answered 3 times")
    assert "design effect 1.6" in text and text.endswith(".") and "\n" not in text


def test_degenerate_inputs_have_defined_answers():
    # no variance at all: every item shows the difference, without noise
    still = dict(sd_a=0.2, correlation=1.0)
    assert item_difference_variance(**still) == 0.0
    for method in ("normal", "t"):
        plan = item_sample_size(0.01, **still, cluster_size=3, method=method)
        assert (plan.n_clusters, plan.n_items, plan.achieved_power) == (2, 6, 1.0)
        assert item_minimum_detectable_difference(6, **still, cluster_size=3, method=method) == 0.0
    assert item_power(2, 0.01, **still) == 1.0 and item_power(2, 0.0, **still, alpha=0.1) == 0.1
    # a target power below alpha/2 is met by the smallest design; an MDE of 0
    assert item_sample_size(0.05, sd_a=0.3, correlation=0.0, power=0.01).n_items == 2
    assert item_minimum_detectable_difference(50, sd_a=0.3, correlation=0.0, power=0.01) == 0.0
    # two items with the largest noise detect no difference of mean scores in [0, 1]
    loud = dict(sd_a=0.35, sd_b=0.35, correlation=-1.0, within_sd_a=0.35)
    assert item_minimum_detectable_difference(2, **loud) == math.inf
    assert item_minimum_detectable_difference(2, **loud, method="t") == math.inf
    # sd_b and within_sd_b default to model A's
    assert item_difference_variance(sd_a=0.2, correlation=0.3, within_sd_a=0.1) == pytest.approx(
        item_difference_variance(sd_a=0.2, sd_b=0.2, correlation=0.3, within_sd_a=0.1, within_sd_b=0.1))
    # icc has no effect without clusters
    assert item_difference_variance(sd_a=0.2, correlation=0.3, icc=0.9) == item_difference_variance(
        sd_a=0.2, correlation=0.3)


# ------------------------------------------------------------------ errors: one sentence naming the argument
BASE = dict(sd_a=0.3, correlation=0.5)


@pytest.mark.parametrize("kwargs, exc, name", [
    (dict(sd_a=-0.1), ValueError, "sd_a"),
    (dict(sd_a=0.6), ValueError, "sd_a"),
    (dict(sd_a=float("nan")), ValueError, "sd_a"),
    (dict(sd_a="0.3"), TypeError, "sd_a"),
    (dict(sd_b=0.7), ValueError, "sd_b"),
    (dict(correlation=1.5), ValueError, "correlation"),
    (dict(correlation=None), TypeError, "correlation"),
    (dict(within_sd_a=-0.2), ValueError, "within_sd_a"),
    (dict(within_sd_b=0.9), ValueError, "within_sd_b"),
    (dict(sd_a=0.4, within_sd_a=0.4), ValueError, "sd_a**2 + within_sd_a**2"),
    (dict(sd_b=0.45, within_sd_a=0.1, within_sd_b=0.3), ValueError, "sd_b**2 + within_sd_b**2"),
    (dict(samples=0), ValueError, "samples"),
    (dict(samples=2.5), ValueError, "samples"),
    (dict(samples=True), TypeError, "samples"),
    (dict(cluster_size=0), ValueError, "cluster_size"),
    (dict(icc=1.2), ValueError, "icc"),
    (dict(icc=-0.1), ValueError, "icc"),
])
def test_variance_model_errors_name_the_argument(kwargs, exc, name):
    for call in (lambda kw: item_difference_variance(**kw), lambda kw: item_sample_size(0.05, **kw),
                 lambda kw: item_power(100, 0.05, **kw), lambda kw: item_minimum_detectable_difference(100, **kw)):
        with pytest.raises(exc) as info:
            call({**BASE, **kwargs})
        message = str(info.value)
        assert message.startswith(name) and "\n" not in message and message.count(". ") == 0, message


@pytest.mark.parametrize("call, exc, name", [
    (lambda: item_sample_size(0.0, **BASE), ValueError, "difference"),
    (lambda: item_sample_size(1.5, **BASE), ValueError, "difference"),
    (lambda: item_power(100, -1.2, **BASE), ValueError, "difference"),
    (lambda: item_sample_size(0.05, **BASE, alpha=0.0), ValueError, "alpha"),
    (lambda: item_sample_size(0.05, **BASE, power=1.0), ValueError, "power"),
    (lambda: item_minimum_detectable_difference(100, **BASE, power=0.0), ValueError, "power"),
    (lambda: item_sample_size(0.05, **BASE, method="z"), ValueError, "method"),
    (lambda: item_power(100, 0.05, **BASE, method="exact"), ValueError, "method"),
    (lambda: item_power(1, 0.05, **BASE), ValueError, "n_items"),
    (lambda: item_minimum_detectable_difference(9, **BASE, cluster_size=5), ValueError, "n_items"),
    (lambda: item_minimum_detectable_difference(20.5, **BASE), ValueError, "n_items"),
    (lambda: item_power("100", 0.05, **BASE), TypeError, "n_items"),
    (lambda: plot_item_sample_size(0.05, **BASE, samples=(1, 2), icc=(0.0, 0.1)), ValueError, "samples and icc"),
    (lambda: plot_item_sample_size(0.05, **BASE, samples=(1, 0)), ValueError, "samples"),
    (lambda: plot_item_sample_size(0.05, **BASE, icc=(0.1, "high")), TypeError, "icc"),
    (lambda: plot_item_sample_size(0.05, **BASE, samples=()), ValueError, "samples and icc"),
    (lambda: plot_item_sample_size(0.0, **BASE), ValueError, "difference"),
])
def test_other_errors_name_the_argument(call, exc, name):
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    assert message.startswith(name) and "\n" not in message, message


# ------------------------------------------------------------------ plot
def test_plot_lines_are_the_sample_sizes_and_fast_enough_for_a_slider():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    kw = dict(sd_a=0.25, sd_b=0.3, within_sd_a=0.3, cluster_size=4, icc=0.1)
    out = plot_item_sample_size(0.04, **kw, correlation=0.6, samples=(1, 4, 16), ax=ax)
    assert out is ax and len(ax.get_lines()) == 4           # three K and the marked correlation
    for line, k in zip(ax.get_lines()[:3], (1, 4, 16)):
        rhos, items = line.get_data()
        for i in (0, 77, 200):
            assert items[i] == item_sample_size(0.04, **kw, correlation=float(rhos[i]), samples=k).n_items
    assert ax.get_yscale() == "log"
    n_k4 = item_sample_size(0.04, **kw, correlation=0.6, samples=4).n_items
    assert f"K = 4: {n_k4} items" in ax.get_title()
    ax.clear()
    plot_item_sample_size(0.04, **{**kw, "icc": (0.0, 0.05, 0.2)}, correlation=0.6, samples=4, ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ICC = 0", "ICC = 0.05", "ICC = 0.2"]
    # by default one line per K = 1, 4, 16; with several ICCs, one line per ICC at K = 1
    ax.clear()
    plot_item_sample_size(0.04, **kw, ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["K = 1", "K = 4", "K = 16"]
    ax.clear()
    plot_item_sample_size(0.04, **{**kw, "icc": [0.0, 0.3]}, ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ICC = 0", "ICC = 0.3"]
    assert ax.get_title().endswith("K = 1")
    plt.close(fig)


def test_new_names_are_exported():
    for name in ("ITEM_METHODS", "ItemSampleSize", "item_difference_variance", "item_power", "item_sample_size",
                 "item_minimum_detectable_difference", "plot_item_sample_size"):
        assert name in planning.__all__ and getattr(evallib, name) is getattr(planning, name)


def test_a_difference_below_the_detectable_one_is_not_usually_missed():
    # the docstring's claim, by hand from the normal quantiles: at 0.8 times the detectable difference the
    # power is about 0.61, so such a difference is detected more often than missed, not "usually missed"
    from scipy.stats import norm
    z, b = norm.ppf(0.975), norm.ppf(0.8)
    by_hand = norm.cdf(0.8 * (z + b) - z) + norm.cdf(-0.8 * (z + b) - z)
    assert by_hand == pytest.approx(0.61, abs=0.005)
    mdd = item_minimum_detectable_difference(200, sd_a=0.4, correlation=0.5, method="normal")
    assert item_power(200, 0.8 * mdd, sd_a=0.4, correlation=0.5, method="normal") == pytest.approx(by_hand, abs=1e-6)
    doc = item_minimum_detectable_difference.__doc__
    assert "would usually be" not in doc and "probability only about\n    0.6" in doc
