"""Tests of evallib.items._coverage: the simulated coverage of the item-mean intervals.

References: exact coverage by enumerating every binomial outcome (scipy's binomial pmf,
statsmodels' Wilson interval, the normal and t intervals written out) for the design
without clusters; the nominal level with the Monte Carlo standard error of the
simulation for the clustered designs; the intervals of ``item_mean`` (themselves
checked against statsmodels and dense matrices in test_items_means.py) for the
vectorised computation; the beta-binomial moments for the simulation model.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from evallib.items._coverage import (
    ITEM_COVERAGE_METHODS,
    _bounds,
    _simulate_scores,
    item_interval_coverage,
    plot_item_interval_coverage,
)
from evallib.items._means import item_mean


def coverage_of(table, method):
    row = table.set_index("method").loc[method]
    return float(row["coverage"]), float(row["mc_se"])


# ------------------------------------------- the vectorised intervals are item_mean's
@pytest.mark.parametrize("sizes, samples", [([25] * 8, 1), ([3, 9, 1, 14, 6, 7], 1), ([4] * 10, 3), ([1] * 30, 1),
                                            ([1] * 30, 4)])
def test_vectorised_bounds_equal_item_mean(sizes, samples):
    sizes = np.array(sizes)
    rng = np.random.default_rng(0)
    Y = _simulate_scores(rng, 5, sizes, 0.2, 0.3, samples)
    bounds = _bounds(Y, sizes, samples, ITEM_COVERAGE_METHODS, 0.05)
    g = np.repeat(np.arange(sizes.size), sizes)
    clusters = None if sizes.size == sizes.sum() else g
    for i in range(Y.shape[0]):
        # item_mean sees the answers themselves: items x samples of 0/1
        k = np.rint(Y[i] * samples).astype(int)
        answers = (np.arange(samples)[None, :] < k[:, None]).astype(float)
        for method in ITEM_COVERAGE_METHODS:
            res = item_mean(answers, clusters=clusters, method=method)
            assert (res.low, res.high) == pytest.approx((bounds[method][0][i], bounds[method][1][i]), abs=1e-12), \
                (method, i)


# ------------------------------------------------------------- the simulation model
def test_simulated_scores_have_the_stated_mean_and_icc():
    rng = np.random.default_rng(1)
    Y = _simulate_scores(rng, 40_000, np.array([2, 2]), 0.3, 0.2, 1)
    # two 0/1 items of one cluster: E = 0.2, correlation = icc (beta-binomial)
    assert Y.mean() == pytest.approx(0.2, abs=4 * math.sqrt(0.16 / Y.size) * 2)
    r = np.corrcoef(Y[:, 0], Y[:, 1])[0, 1]
    assert r == pytest.approx(0.3, abs=4 / math.sqrt(40_000))
    r_other = np.corrcoef(Y[:, 0], Y[:, 2])[0, 1]
    assert abs(r_other) < 4 / math.sqrt(40_000)


# ---------------------------------------------------- exact enumeration, no clusters
@pytest.mark.parametrize("n, p", [(30, 0.1), (50, 0.5), (20, 0.03)])
def test_coverage_without_clusters_agrees_with_exact_enumeration(n, p):
    k = np.arange(n + 1)
    pmf = stats.binom.pmf(k, n, p)
    m = k / n
    s = np.sqrt(k * (n - k) / (n * (n - 1)))  # sd of n 0/1 scores, ddof = 1
    z, t = stats.norm.isf(0.025), stats.t.isf(0.025, n - 1)
    wl, wh = proportion_confint(k, n, method="wilson")
    exact = {
        "naive": pmf @ ((m - z * s / math.sqrt(n) <= p) & (p <= m + z * s / math.sqrt(n))),
        "t": pmf @ ((m - t * s / math.sqrt(n) <= p) & (p <= m + t * s / math.sqrt(n))),
        "wilson": pmf @ ((wl <= p) & (p <= wh)),
    }
    simulated = item_interval_coverage(n_items=n, mean=p, methods=tuple(exact), n_resamples=20_000, rng=2, exact=False)
    enumerated = item_interval_coverage(n_items=n, mean=p, icc=0.3, methods=tuple(exact))
    assert enumerated.attrs["exact"] and not simulated.attrs["exact"]
    for method, value in exact.items():
        cov, _ = coverage_of(simulated, method)
        assert abs(cov - value) < 4 * math.sqrt(value * (1 - value) / 20_000) + 1e-9, method
        assert coverage_of(enumerated, method) == pytest.approx((value, 0.0), abs=1e-12)
    if n <= 30 and p <= 0.1:  # Bowyer et al. (2025): the CLT interval fails on small benchmarks
        assert exact["naive"] < 0.9 and exact["wilson"] > 0.93


# ---------------------------------------------------------- clustered: the lessons
def test_cr2_keeps_the_level_with_eight_clusters_where_naive_and_cr1_normal_do_not():
    n_sim = 4000
    table = item_interval_coverage(n_items=200, cluster_size=25, icc=0.1, methods=ITEM_COVERAGE_METHODS,
                                   n_resamples=n_sim, rng=3)
    se0 = math.sqrt(0.95 * 0.05 / n_sim)  # Monte Carlo SE at the nominal level: 0.0034
    cr2, _ = coverage_of(table, "cr2")
    assert abs(cr2 - 0.95) < 3.5 * se0
    assert coverage_of(table, "cr1_normal")[0] < 0.95 - 6 * se0
    assert coverage_of(table, "naive")[0] < 0.80
    assert coverage_of(table, "wilson")[0] > 0.95 - 3.5 * se0
    assert table.attrs["n_clusters"] == 8 and table.attrs["df"] == pytest.approx(7)


def test_uneven_clusters_cr2_beats_cr1():
    sizes = [5] * 20 + [50, 50]
    table = item_interval_coverage(n_items=200, cluster_size=sizes, icc=0.1, methods=("cr1", "cr2"),
                                   n_resamples=4000, rng=4)
    cr1, se1 = coverage_of(table, "cr1")
    cr2, se2 = coverage_of(table, "cr2")
    assert cr2 - cr1 > 4 * math.hypot(se1, se2)
    assert cr2 > 0.92


def test_near_zero_with_clusters_wilson_keeps_the_level_where_cr2_does_not():
    """The measurement behind item_mean's choice of Wilson with the effective n for 0/1 scores."""
    table = item_interval_coverage(n_items=200, cluster_size=25, icc=0.1, mean=0.05, methods=("cr2", "wilson"),
                                   n_resamples=4000, rng=5)
    se0 = math.sqrt(0.95 * 0.05 / 4000)
    assert coverage_of(table, "cr2")[0] < 0.95 - 10 * se0
    assert coverage_of(table, "wilson")[0] > 0.95 - 4 * se0


def test_real_valued_item_scores_cr2_covers():
    """Five answers per item make the item scores real-valued; CR2 holds with 20 clusters."""
    table = item_interval_coverage(n_items=200, cluster_size=10, icc=0.3, samples=5, mean=0.7,
                                   methods=("naive", "cr2"), n_resamples=4000, rng=6)
    se0 = math.sqrt(0.95 * 0.05 / 4000)
    assert abs(coverage_of(table, "cr2")[0] - 0.95) < 4 * se0
    assert coverage_of(table, "naive")[0] < 0.7


def test_wild_bootstrap_covers_with_eight_clusters():
    """Monte Carlo check of the wild interval (each simulation runs its own bootstrap)."""
    rng = np.random.default_rng(7)
    sizes = np.array([25] * 8)
    g = np.repeat(np.arange(8), sizes)
    Y = _simulate_scores(rng, 300, sizes, 0.1, 0.5, 1)
    wild = [item_mean(y, clusters=g, method="wild", n_resamples=199, rng=rng) for y in Y]
    cov = np.mean([r.contains(0.5) for r in wild])
    assert cov > 0.95 - 4 * math.sqrt(0.95 * 0.05 / 300)  # MC SE 0.0126
    cr2_width = np.mean([item_mean(y, clusters=g, method="cr2").width for y in Y])
    assert np.mean([r.width for r in wild]) < 1.3 * cr2_width  # not bought with uninformative intervals


# ------------------------------------------------------------------ table and speed
def test_exact_expected_width_of_the_wilson_interval():
    n, p = 40, 0.2
    k = np.arange(n + 1)
    low, high = proportion_confint(k, n, method="wilson")
    table = item_interval_coverage(n_items=n, mean=p, methods=("wilson",))
    assert table["mean_width"].item() == pytest.approx(stats.binom.pmf(k, n, p) @ (high - low), rel=1e-12)


def test_table_columns_reproducibility_and_speed():
    kwargs = dict(n_items=200, cluster_size=10, icc=0.05, n_resamples=1000)
    t1 = item_interval_coverage(**kwargs, rng=8)
    t2 = item_interval_coverage(**kwargs, rng=8)
    assert list(t1.columns) == ["method", "coverage", "mc_se", "mean_width"]
    assert t1.equals(t2)
    assert t1["method"].tolist() == ["naive", "cr1_normal", "cr2", "wilson"]
    cov = t1["coverage"].to_numpy()
    assert np.allclose(t1["mc_se"], np.sqrt(cov * (1 - cov) / 1000))


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(n_items=20, cluster_size=20), ValueError, "one cluster"),
        (dict(n_items=20, cluster_size=[5, 5]), ValueError, "must sum to n_items = 20"),
        (dict(n_items=20, icc=1.0), ValueError, r"icc must lie in \[0, 1\)"),
        (dict(n_items=20, mean=0.0), ValueError, "mean must lie in the open interval"),
        (dict(n_items=20, methods=("wild",)), ValueError, "methods must hold only"),
        (dict(n_items=20, n_resamples=0), ValueError, "n_resamples must be a whole number >= 1"),
        (dict(n_items=1), ValueError, "n_items must be a whole number >= 2"),
        (dict(n_items=20, samples=0), ValueError, "samples must be"),
        (dict(n_items=20, cluster_size=5, exact=True), ValueError, "exact=True needs one item per cluster"),
        (dict(n_items=20, exact="yes"), TypeError, "exact must be True, False or None"),
    ],
)
def test_bad_settings_are_refused_in_one_sentence(kwargs, exc, match):
    with pytest.raises(exc, match=match) as info:
        item_interval_coverage(**kwargs)
    assert "\n" not in str(info.value)


def test_plot_draws_bars_error_bars_and_the_promised_level():
    table = item_interval_coverage(n_items=100, cluster_size=10, icc=0.1, n_resamples=300, rng=10)
    fig, ax = plt.subplots()
    out = plot_item_interval_coverage(table, ax=ax)
    assert out is ax
    assert len(ax.patches) == len(table)
    assert [round(p.get_height(), 10) for p in ax.patches] == [round(c, 10) for c in table["coverage"]]
    assert any(np.allclose(line.get_ydata(), 0.95) for line in ax.get_lines())
    assert "10 clusters" in ax.get_title()
    plt.close(fig)
    with pytest.raises(ValueError, match="lacks the columns"):
        plot_item_interval_coverage(table.drop(columns="mc_se"))


def test_plot_keeps_its_labels_off_the_bars_and_whiskers():
    """No label covers data: each width label sits above its whisker, the promised level is
    labelled outside the axes (no legend box over a bar), and the title rounds the mean."""
    table = item_interval_coverage(n_items=1191, cluster_size=[17] * 70 + [1], icc=0.1, mean=0.729849, n_resamples=300, rng=3)
    ax = plot_item_interval_coverage(table)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    assert ax.get_legend() is None
    bars = [p.get_window_extent(renderer) for p in ax.patches]
    whisker_tops = table["coverage"].to_numpy() + 2 * table["mc_se"].to_numpy()
    widths = [t for t in ax.texts if t.get_text().startswith("width ")]
    assert len(widths) == len(table)
    for t, top in zip(widths, whisker_tops):
        assert t.get_position()[1] >= min(top, 1.0)
        assert not any(t.get_window_extent(renderer).overlaps(b) for b in bars)
    promised = next(t for t in ax.texts if t.get_text().startswith("promised"))
    box = promised.get_window_extent(renderer)
    assert box.x0 >= ax.get_window_extent(renderer).x1 and not any(box.overlaps(b) for b in bars)
    assert "mean 0.73," in ax.get_title() and "0.729849" not in ax.get_title()
    plt.close(fig)
