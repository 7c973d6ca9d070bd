"""evallib.lessons._items: two models on the same clustered items -- the simulation and the paired intervals' coverage.

References, independent of the module: the variance of the mean paired difference in
closed form (bivariate normal probabilities, ``E[Phi(a + X) Phi(b + Y)] =
Phi_2(a / sqrt(1 + var X), b / sqrt(1 + var Y); cov / sqrt((1 + var X)(1 + var Y)))``,
integrated with scipy's quad); statsmodels' cluster-robust OLS (CR1) and scipy's
two-sample and paired t statistics; CR2 written out with matrices,
``(I - H_gg)^(-1/2)`` per cluster (Bell & McCaffrey 2002); and the intervals counted one
benchmark at a time with :func:`evallib.paired_item_difference`.
"""

from __future__ import annotations

import math

import re

import numpy as np
import pytest
from scipy import integrate, stats

from evallib import (
    PAIRED_COVERAGE_METHODS,
    paired_item_coverage,
    paired_item_difference,
    plot_paired_item_coverage,
    simulate_paired_items,
)


# ------------------------------------------------------------------ closed form
def _phi2(x: float, y: float, rho: float) -> float:
    """P(X <= x, Y <= y) for standard normals with correlation ``rho`` (|rho| < 1), by quadrature:
    the integral over ``z <= x`` of ``phi(z) Phi((y - rho z) / sqrt(1 - rho^2))``."""
    s = math.sqrt(1.0 - rho * rho)
    value, _ = integrate.quad(lambda z: stats.norm.pdf(z) * stats.norm.cdf((y - rho * z) / s), -np.inf, x,
                              epsabs=1e-13, epsrel=1e-12)
    return float(value)


def exact_moments(*, n_items, cluster_size, icc, samples, correlation, mean_a, mean_b, spread):
    """Variance of the mean difference and the correlation of one item's two scores, in closed form.

    Equal clusters of ``cluster_size``. ``h_m = Phi^-1(mean_m)``; latent variances
    ``spread^2``; same-item cross-model covariance ``correlation spread^2``; same-cluster,
    other-item covariances ``icc spread^2`` (same model) and ``correlation icc spread^2``.
    """
    r = spread ** 2 / (1 + spread ** 2)
    h = {"a": stats.norm.ppf(mean_a), "b": stats.norm.ppf(mean_b)}
    mu = {"a": mean_a, "b": mean_b}
    e_pp = {m: _phi2(h[m], h[m], r) for m in "ab"}                       # E[p_m(i)^2]
    var_p = {m: e_pp[m] - mu[m] ** 2 for m in "ab"}
    within = {m: mu[m] - e_pp[m] for m in "ab"}                           # E[p (1 - p)]
    var_score = {m: var_p[m] + within[m] / samples for m in "ab"}
    cov_ab = _phi2(h["a"], h["b"], correlation * r) - mean_a * mean_b
    var_d = var_score["a"] + var_score["b"] - 2 * cov_ab
    cov_cluster = (_phi2(h["a"], h["a"], icc * r) - mean_a ** 2 + _phi2(h["b"], h["b"], icc * r) - mean_b ** 2
                   - 2 * (_phi2(h["a"], h["b"], correlation * icc * r) - mean_a * mean_b))
    var_mean = (var_d + (cluster_size - 1) * cov_cluster) / n_items
    return var_mean, cov_ab / math.sqrt(var_score["a"] * var_score["b"])


DESIGNS = [
    dict(n_items=400, cluster_size=1, icc=0.0, samples=1, correlation=0.0, mean_a=0.7, mean_b=0.7, spread=1.0),
    dict(n_items=400, cluster_size=1, icc=0.0, samples=3, correlation=0.8, mean_a=0.6, mean_b=0.5, spread=1.5),
    dict(n_items=400, cluster_size=10, icc=0.3, samples=1, correlation=0.6, mean_a=0.8, mean_b=0.7, spread=1.0),
    dict(n_items=400, cluster_size=20, icc=0.5, samples=4, correlation=-0.3, mean_a=0.3, mean_b=0.35, spread=2.0),
]


@pytest.mark.parametrize("design", DESIGNS, ids=range(len(DESIGNS)))
def test_simulation_has_the_closed_form_moments(design):
    n_sim = 4000
    a, b, clusters = simulate_paired_items(**design, n_resamples=n_sim, rng=11)
    assert a.shape == b.shape == (n_sim, design["n_items"])
    assert clusters.tolist() == np.repeat(np.arange(design["n_items"] // design["cluster_size"]),
                                          design["cluster_size"]).tolist()
    var_mean, item_corr = exact_moments(**design)
    est = a.mean(axis=1) - b.mean(axis=1)
    truth = design["mean_a"] - design["mean_b"]
    assert abs(est.mean() - truth) < 4 * math.sqrt(var_mean / n_sim)
    # the sample variance of n_sim estimates has relative SE sqrt(2 / (n_sim - 1)) (normal estimates)
    assert est.var(ddof=1) / var_mean == pytest.approx(1.0, abs=4 * math.sqrt(2 / (n_sim - 1)))
    # what paired_item_coverage measures on the same benchmarks
    tab = paired_item_coverage(**design, n_resamples=n_sim, rng=11)
    assert tab.attrs["sd_estimate"] == pytest.approx(float(np.std(est, ddof=1)), rel=1e-12)
    assert tab.attrs["item_correlation"] == pytest.approx(item_corr, abs=0.02)
    assert tab.attrs["difference"] == pytest.approx(truth)


def test_mean_scores_and_answers_are_as_specified():
    a, b, _ = simulate_paired_items(n_items=500, cluster_size=5, icc=0.2, samples=4, mean_a=0.9, mean_b=0.2,
                                    spread=1.2, n_resamples=400, rng=2)
    assert set(np.unique(a * 4).tolist()) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    assert a.mean() == pytest.approx(0.9, abs=0.01) and b.mean() == pytest.approx(0.2, abs=0.01)


def test_without_spread_every_item_has_the_same_probability():
    """spread = 0: each score is Binomial(K, mean)/K, independent across items and models."""
    n, k, p = 300, 2, 0.6
    tab = paired_item_coverage(n_items=n, samples=k, correlation=0.9, mean_a=p, mean_b=p, spread=0.0, n_resamples=4000, rng=3)
    exact_sd = math.sqrt(2 * p * (1 - p) / (k * n))
    assert tab.attrs["sd_estimate"] == pytest.approx(exact_sd, rel=4 * math.sqrt(1 / (2 * 3999)))
    assert abs(tab.attrs["item_correlation"]) < 0.01


def test_more_answers_keep_the_earlier_ones():
    """The answers are drawn one at a time after the latent effects: K = 2 extends K = 1 (common random numbers)."""
    kw = dict(n_items=50, cluster_size=5, icc=0.3, n_resamples=20)
    one, _, _ = simulate_paired_items(**kw, samples=1, rng=5)
    two, _, _ = simulate_paired_items(**kw, samples=2, rng=5)
    assert set(np.unique(2 * two - one).tolist()) <= {0.0, 1.0}


# ------------------------------------------------------------------ intervals
def _benchmarks(sizes, **kw):
    labels = np.repeat(np.arange(len(sizes)), sizes)
    a, b, clusters = simulate_paired_items(n_items=int(sum(sizes)), cluster_size=list(sizes), **kw)
    assert clusters.tolist() == labels.tolist()
    return a, b, clusters


def test_intervals_are_those_of_paired_item_difference_and_coverage_counts_them():
    sizes = [3, 8, 5, 12, 2, 10]
    kw = dict(icc=0.4, samples=2, correlation=0.5, mean_a=0.65, mean_b=0.6, spread=1.3, n_resamples=60, rng=17)
    a, b, clusters = _benchmarks(sizes, **kw)
    methods = PAIRED_COVERAGE_METHODS
    tab = paired_item_coverage(n_items=sum(sizes), cluster_size=sizes, methods=methods, **kw).set_index("method")
    truth = 0.05
    for m in methods:
        lows, highs, ses = [], [], []
        for i in range(a.shape[0]):
            res = paired_item_difference(a[i], b[i], clusters=clusters, method="naive" if m == "unpaired" else m)
            if m == "unpaired":
                se = res.unpaired_se
                low, high = res.estimate - 1.959963984540054 * se, res.estimate + 1.959963984540054 * se
            else:
                se, low, high = res.se, res.low, res.high
            lows.append(low)
            highs.append(high)
            ses.append(se)
        lows, highs = np.array(lows), np.array(highs)
        assert tab.loc[m, "coverage"] == np.mean((lows <= truth) & (truth <= highs))
        assert tab.loc[m, "rejection"] == np.mean((lows > 0) | (highs < 0))
        assert tab.loc[m, "mean_width"] == pytest.approx(np.mean(highs - lows), rel=1e-10)
        assert tab.loc[m, "mean_se"] == pytest.approx(np.mean(ses), rel=1e-10)
    cov = tab["coverage"].to_numpy()
    assert np.allclose(tab["mc_se"], np.sqrt(cov * (1 - cov) / 60))
    corr = np.mean([np.corrcoef(a[i], b[i])[0, 1] for i in range(60)])
    assert tab.attrs["item_correlation"] == pytest.approx(corr, rel=1e-10)
    naive_se = np.array([paired_item_difference(a[i], b[i], method="naive").se for i in range(60)])
    est = a.mean(axis=1) - b.mean(axis=1)
    assert tab.attrs["design_effect"] == pytest.approx(est.var(ddof=1) / np.mean(naive_se ** 2), rel=1e-10)
    assert tab.attrs["n_clusters"] == len(sizes)


def test_standard_errors_against_statsmodels_scipy_and_cr2_by_matrices():
    sm = pytest.importorskip("statsmodels.api")
    sizes = [4, 4, 4, 4, 4, 4, 4]
    a, b, clusters = _benchmarks(sizes, icc=0.3, samples=1, correlation=0.4, n_resamples=3, rng=23)
    for i in range(3):
        d = a[i] - b[i]
        n = d.size
        tab = {m: paired_item_difference(a[i], b[i], clusters=clusters, method=m) for m in ("naive", "cr1", "cr2")}
        # paired t statistic (scipy) and the unpaired one with unequal variances (Welch's standard error)
        assert tab["naive"].statistic == pytest.approx(stats.ttest_rel(a[i], b[i]).statistic, rel=1e-10)
        welch = stats.ttest_ind(a[i], b[i], equal_var=False).statistic
        assert tab["naive"].estimate / tab["naive"].unpaired_se == pytest.approx(welch, rel=1e-10)
        # CR1 (statsmodels' cluster-robust OLS on a constant), and CR2 equals it for equal clusters
        fit = sm.OLS(d, np.ones((n, 1))).fit(cov_type="cluster", cov_kwds={"groups": clusters}, use_t=True)
        assert tab["cr1"].se == pytest.approx(float(fit.bse[0]), rel=1e-10)
        assert tab["cr2"].se == pytest.approx(float(fit.bse[0]), rel=1e-10)
    # unequal clusters: CR2 with matrices, sum_g X_g' A_g e_g e_g' A_g X_g, A_g = (I - H_gg)^(-1/2), X = 1
    sizes = [2, 7, 3, 9, 4]
    a, b, clusters = _benchmarks(sizes, icc=0.3, samples=2, correlation=0.4, n_resamples=2, rng=29)
    lesson = paired_item_coverage(n_items=sum(sizes), cluster_size=sizes, icc=0.3, samples=2, correlation=0.4,
                                  methods=("cr2",), n_resamples=2, rng=29)
    ses = []
    for i in range(2):
        d = a[i] - b[i]
        n = d.size
        e = d - d.mean()
        meat = 0.0
        for g in range(len(sizes)):
            idx = clusters == g
            h = np.full((idx.sum(), idx.sum()), 1.0 / n)
            w, v = np.linalg.eigh(np.eye(idx.sum()) - h)
            amat = v @ np.diag(w ** -0.5) @ v.T
            u = np.ones(idx.sum()) @ amat @ e[idx]
            meat += u * u
        ses.append(math.sqrt(meat) / n)
        assert paired_item_difference(a[i], b[i], clusters=clusters, method="cr2").se == pytest.approx(
            ses[-1], rel=1e-10)
    assert lesson["mean_se"].item() == pytest.approx(np.mean(ses), rel=1e-10)


def test_the_right_interval_keeps_its_level_and_the_naive_ones_do_not():
    clustered = paired_item_coverage(n_items=1000, cluster_size=10, icc=0.4, samples=4, correlation=0.6,
                                     mean_a=0.7, mean_b=0.7, spread=1.5, n_resamples=3000, rng=31).set_index("method")
    cr2 = clustered.loc["cr2"]
    assert abs(cr2["coverage"] - 0.95) < 4 * cr2["mc_se"]
    assert abs(cr2["rejection"] - 0.05) < 4 * cr2["mc_se"]          # equal means: rejection is the size
    assert clustered.loc["naive", "coverage"] < 0.85                 # design effect well above 1
    # independent items, correlated models: the paired interval keeps its level, the unpaired one over-covers
    paired = paired_item_coverage(n_items=500, correlation=0.9, spread=2.0, samples=4, n_resamples=3000,
                                  rng=37).set_index("method")
    assert abs(paired.loc["naive", "coverage"] - 0.95) < 4 * paired.loc["naive", "mc_se"]
    assert paired.loc["unpaired", "coverage"] > 0.98
    assert paired.loc["unpaired", "mean_width"] > 1.5 * paired.loc["naive", "mean_width"]


def test_reproducible_and_bad_settings_are_refused_in_one_sentence():
    kw = dict(n_items=100, cluster_size=10, icc=0.2, n_resamples=50)
    assert paired_item_coverage(**kw, rng=4).equals(paired_item_coverage(**kw, rng=4))
    for bad, exc, match in [
        (dict(n_items=10, cluster_size=10), ValueError, "one cluster"),
        (dict(n_items=20, icc=1.0), ValueError, r"icc must lie in \[0, 1\)"),
        (dict(n_items=20, correlation=1.5), ValueError, r"correlation must lie in \[-1, 1\]"),
        (dict(n_items=20, mean_a=1.0), ValueError, "mean_a must lie in the open interval"),
        (dict(n_items=20, spread=-1.0), ValueError, "spread must be a finite number >= 0"),
        (dict(n_items=20, samples=0), ValueError, "samples must be a whole number >= 1"),
        (dict(n_items=20, methods=("wild",)), ValueError, "methods must hold only"),
        (dict(n_items=20, n_resamples=1), ValueError, "n_resamples must be a whole number >= 2"),
        (dict(n_items=20, alpha=0.0), ValueError, "alpha must lie in the open interval"),
        (dict(n_items=20, rng=-1), ValueError, "rng must be"),
    ]:
        with pytest.raises(exc, match=match):
            paired_item_coverage(**bad)


# ------------------------------------------------------------------ figure
def test_plot_draws_the_table_at_every_explorer_setting():
    import matplotlib.pyplot as plt

    kw = dict(n_items=200, cluster_size=20, icc=0.4, samples=4, correlation=0.7, n_resamples=150, rng=0)
    fig, ax = plt.subplots()
    out = plot_paired_item_coverage(**kw, ax=ax)
    tab = paired_item_coverage(**{**kw, "rng": 0})
    assert out is ax and len(ax.patches) == len(tab) == 3
    assert [p.get_height() for p in ax.patches] == pytest.approx(tab["coverage"].tolist())
    short = (tab["coverage"] + 2 * tab["mc_se"] < 0.95).tolist()
    assert short == [p.get_facecolor()[:3] == pytest.approx((0.839, 0.153, 0.157), abs=0.01) for p in ax.patches]
    assert any(short)                                   # the paired interval that ignores the clusters
    texts = [t.get_text() for t in ax.texts]
    assert texts[2].startswith(f"width {tab['mean_width'].iloc[2]:.3f}")
    assert f"design effect {tab.attrs['design_effect']:.2f}" in ax.get_title()
    assert "200 items in 10 clusters, latent ICC 0.4, K = 4 answers" in ax.get_title()
    # one cluster: a sentence on the axes, no exception (a slider may pass through it)
    ax.clear()
    plot_paired_item_coverage(n_items=30, cluster_size=30, ax=ax)
    assert not ax.patches and "make one cluster" in ax.texts[0].get_text()
    # 40 items in clusters of 30 are two clusters, 30 and 10 (ceil(40 / 30) = 2): bars, not "one cluster"
    ax.clear()
    plot_paired_item_coverage(n_items=40, cluster_size=30, n_resamples=50, rng=0, ax=ax)
    assert len(ax.patches) == 3 and not any("one cluster" in t.get_text() for t in ax.texts)
    assert f"40 items in {int(np.ceil(40 / 30))} clusters" in ax.get_title()
    # the widest settings of notebook 08's explorer draw bars too (their speed behind a slider is measured by
    # benchmarks/bench_sliders.py, not here: a timed assertion fails on a loaded shared machine)
    for setting in (dict(n_items=1000, cluster_size=1, samples=16), dict(n_items=1000, cluster_size=40, samples=16)):
        ax.clear()
        plot_paired_item_coverage(**setting, icc=0.6, correlation=0.95, n_resamples=200, ax=ax)
        assert len(ax.patches) == 3, setting
    ax.clear()
    plot_paired_item_coverage(n_items=40, cluster_size=20, samples=1, icc=0.6, correlation=0.95, n_resamples=200,
                              ax=ax)
    assert len(ax.patches) == 3
    plt.close(fig)


def test_plot_reuse_updates_the_same_artists_for_a_slider():
    """``reuse=True``: a second call on the same Axes updates the bars, whiskers and texts drawn by the first
    (no new artists), to the numbers of ``paired_item_coverage`` with the new settings; a one-cluster setting
    hides them behind a sentence and a later valid setting shows them again; other methods redraw anew."""
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.subplots()
    first = dict(n_items=200, cluster_size=20, icc=0.4, samples=4, correlation=0.7, n_resamples=150, rng=0)
    plot_paired_item_coverage(**first, ax=ax, reuse=True)
    bars, texts, n_lines = list(ax.patches), list(ax.texts), len(ax.lines)
    second = dict(first, cluster_size=5, icc=0.1, samples=1)
    assert plot_paired_item_coverage(**second, ax=ax, reuse=True) is ax
    assert list(ax.patches) == bars and list(ax.texts) == texts and len(ax.lines) == n_lines
    tab = paired_item_coverage(**second)
    assert [p.get_height() for p in ax.patches] == pytest.approx(tab["coverage"].tolist())
    # the whiskers span coverage -/+ 2 MC SE (independently: the binomial SE of each coverage)
    se = np.sqrt(tab["coverage"] * (1 - tab["coverage"]) / 150).to_numpy()
    segments = ax.collections[0].get_segments()
    assert [s[1][1] - s[0][1] for s in segments] == pytest.approx((4 * se).tolist())
    assert texts[1].get_text() == (f"width {tab['mean_width'].iloc[1]:.3f}\n"
                                   f"excludes 0: {100 * tab['rejection'].iloc[1]:.0f}%")
    assert "200 items in 40 clusters, latent ICC 0.1, K = 1 answer," in ax.get_title()
    assert all(t.get_position()[1] > 1 for t in texts[:3])              # the notes sit above coverage 1
    # one cluster: the bars hide, a sentence shows; then back
    plot_paired_item_coverage(**dict(second, n_items=30, cluster_size=30), ax=ax, reuse=True)
    visible = [t.get_text() for t in ax.texts if t.get_visible()]
    assert not any(p.get_visible() for p in ax.patches) and len(visible) == 1 and "make one cluster" in visible[0]
    plot_paired_item_coverage(**second, ax=ax, reuse=True)
    assert all(p.get_visible() for p in ax.patches) and list(ax.patches) == bars
    assert not any("make one cluster" in t.get_text() for t in ax.texts if t.get_visible())
    # other methods: cleared and drawn anew
    plot_paired_item_coverage(**second, methods=("naive", "cr2"), ax=ax, reuse=True)
    assert len(ax.patches) == 2 and not set(ax.patches) & set(bars)
    with pytest.raises(TypeError, match="reuse must be True or False"):
        plot_paired_item_coverage(**second, ax=ax, reuse="yes")


def test_plot_draws_a_given_table_without_its_texts_and_describe_names_the_design():
    """``table=``: the bars show that table and nothing is simulated again; ``annotate=False``: no title, no
    visible notes; a table of another design or other methods is refused. ``describe_paired_item_coverage``
    gives the design and the measured numbers, which are recomputed here from the simulated scores."""
    from unittest import mock

    import pandas as pd
    from matplotlib.figure import Figure

    from evallib import describe_paired_item_coverage
    import evallib.lessons._items as lesson

    kw = dict(n_items=120, cluster_size=12, icc=0.3, samples=2, correlation=0.6, n_resamples=120, rng=3)
    tab = paired_item_coverage(**kw)
    ax = Figure().subplots()
    with mock.patch.object(lesson, "paired_item_coverage", side_effect=AssertionError("simulated again")):
        plot_paired_item_coverage(**{k: kw[k] for k in ("n_items", "cluster_size", "icc", "samples", "correlation")},
                                  table=tab, ax=ax, reuse=True, annotate=False)
    assert [p.get_height() for p in ax.patches] == pytest.approx(tab["coverage"].tolist())
    assert ax.get_title() == "" and not any(t.get_visible() and t.get_text() for t in ax.texts)
    with pytest.raises(ValueError, match="for these n_items, cluster_size and samples"):
        plot_paired_item_coverage(n_items=120, cluster_size=10, samples=2, table=tab, ax=ax, reuse=True)
    with pytest.raises(ValueError, match="of the methods"):
        plot_paired_item_coverage(**{k: kw[k] for k in ("n_items", "cluster_size", "samples")}, methods=("naive",),
                                  table=tab, ax=ax)
    with pytest.raises(TypeError, match="annotate must be True or False"):
        plot_paired_item_coverage(n_items=120, annotate=1, ax=ax)
    text = describe_paired_item_coverage(tab)
    first, second = text.splitlines()
    assert first == "120 items in 10 clusters, latent ICC 0.3, K = 2 answers, difficulty correlation 0.6, true difference +0"
    a, b, _ = simulate_paired_items(**{k: v for k, v in kw.items()})
    d = (a - b).mean(axis=1)
    r = np.mean([np.corrcoef(x, y)[0, 1] for x, y in zip(a, b)])
    assert f"SD of estimate {np.std(d, ddof=1):.4f}" in second and f"item-score correlation {r:.2f}" in second
    assert second.startswith("measured in 120 simulations")
    # the design effect carries its Monte Carlo error: its relative spread over independent seeds, measured here
    said = float(re.search(r"design effect [\d.]+ \(relative Monte Carlo error about (\d+)%\)", second).group(1)) / 100
    deffs = [paired_item_coverage(**{**kw, "rng": s}, methods=("naive",)).attrs["design_effect"] for s in range(40)]
    assert np.std(deffs, ddof=1) / np.mean(deffs) == pytest.approx(said, rel=0.35)
    with pytest.raises(TypeError, match="what paired_item_coverage returned"):
        describe_paired_item_coverage(pd.DataFrame({"coverage": [0.9]}))


def test_bar_colours_follow_the_monte_carlo_interval_not_a_threshold_inside_it():
    """Issue 33: a coverage within +-2 MC SE of the promise is neither red nor blue; red only when the
    whole +-2 MC SE interval lies below the promise, blue only when above. The MC SE is the binomial
    standard error sqrt(c (1 - c) / n), written out here."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba

    from evallib.lessons import COVERAGE_VERDICTS, coverage_verdicts

    n = 2000
    cov = np.array([0.935, 0.941, 0.95, 0.958, 0.965])
    se = np.sqrt(cov * (1 - cov) / n)           # 0.0055, 0.0053, 0.0049, 0.0045, 0.0041
    assert coverage_verdicts(cov, se, 0.95) == ["short", "within", "within", "within", "above"]
    # exact coverage (no MC error): any difference from the promise counts
    assert coverage_verdicts([0.949, 0.95, 0.951], [0, 0, 0], 0.95) == ["short", "within", "above"]
    with pytest.raises(ValueError, match="promise"):
        coverage_verdicts([0.9], [0.01], 1.5)
    with pytest.raises(ValueError, match="same length"):
        coverage_verdicts([0.9, 0.8], [0.01], 0.95)
    with pytest.raises(ValueError, match="mc_se"):
        coverage_verdicts([0.9], [-0.01], 0.95)

    # the explorer's bars take those colours, and its cut y axis is marked
    ax = plot_paired_item_coverage(n_items=600, cluster_size=20, icc=0.3, correlation=0.8, mean_a=0.72, mean_b=0.70,
                                   spread=1.5, n_resamples=200, rng=0)
    tab = paired_item_coverage(n_items=600, cluster_size=20, icc=0.3, correlation=0.8, mean_a=0.72, mean_b=0.70,
                               spread=1.5, n_resamples=200, rng=0)
    want = coverage_verdicts(tab["coverage"], np.sqrt(tab["coverage"] * (1 - tab["coverage"]) / 200), 0.95)
    assert [p.get_facecolor() for p in ax.patches] == [to_rgba(COVERAGE_VERDICTS[v][0]) for v in want]
    assert ax.get_ylim()[0] > 0 and f"axis cut at {ax.get_ylim()[0]:.2f}" in ax.get_ylabel()
    assert ax.get_legend() is not None and ax.get_legend().get_visible()


def test_library_coverage_figure_recoloured_and_its_cut_axis_marked():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba

    from evallib import item_interval_coverage, plot_item_interval_coverage
    from evallib.lessons import COVERAGE_VERDICTS, coverage_verdicts, mark_coverage_verdicts

    tab = item_interval_coverage(n_items=200, cluster_size=10, icc=0.2, n_resamples=300, rng=2)
    ax = mark_coverage_verdicts(plot_item_interval_coverage(tab), tab)
    want = coverage_verdicts(tab["coverage"], tab["mc_se"], 1 - tab.attrs["alpha"])
    assert "short" in want                       # the naive interval at design effect 2.8
    assert [p.get_facecolor() for p in ax.patches] == [to_rgba(COVERAGE_VERDICTS[v][0]) for v in want]
    assert "axis cut at" in ax.get_ylabel()
    with pytest.raises(ValueError, match="bars"):
        mark_coverage_verdicts(ax, tab.iloc[:2])


def test_few_events_are_read_by_the_exact_clopper_pearson_interval():
    """Fewer than 10 events or non-events: the verdict follows the exact (Clopper–Pearson) 95% interval,
    its limits from statsmodels' proportion_confint(method="beta"), a second library."""
    from statsmodels.stats.proportion import proportion_confint

    from evallib.lessons import EXACT_BELOW, coverage_verdicts, describe_coverage_reading, describe_mc_share

    assert EXACT_BELOW == 10
    n = 400
    # 1 false separation in 400 against a promise of at most 1%: 2 MC SE (0.25 +- 0.50) clears 1%, the exact upper
    # limit 1.385% does not; read as coverage 399/400 against 0.99
    low, high = proportion_confint(1, n, alpha=0.05, method="beta")
    assert high > 0.01 and 1 / n + 2 * np.sqrt(1 / n * (1 - 1 / n) / n) < 0.01
    se = np.sqrt(0.0025 * 0.9975 / n)
    assert coverage_verdicts([0.9975], [se], 0.99) == ["above"]
    assert coverage_verdicts([0.9975], [se], 0.99, n_resamples=n) == ["within"]
    assert describe_mc_share(1 / n, n) == (f"0.25% (1 of 400; Clopper–Pearson 95% interval {100 * low:.2f}% to "
                                           f"{100 * high:.2f}%)")
    # none of n: the exact upper bound, never an MC SE of 0
    _, high0 = proportion_confint(0, n, alpha=0.05, method="beta")
    assert describe_mc_share(0.0, n) == f"none of 400 (Clopper–Pearson 95% upper bound {100 * high0:.2f}%)"
    low_all, _ = proportion_confint(n, n, alpha=0.05, method="beta")   # 0.9908
    assert coverage_verdicts([1.0, 1.0], [0.0, 0.0], 0.99, n_resamples=n) == ["above", "above"]
    assert coverage_verdicts([1.0], [0.0], 0.995, n_resamples=n) == ["within"] and low_all < 0.995
    assert describe_mc_share(1.0, n) == f"all 400 (Clopper–Pearson 95% lower bound {100 * low_all:.2f}%)"
    # at 10 events and more the +-2 MC SE rule stands; per-coverage counts may differ
    c = np.array([0.5, 0.9975])
    assert coverage_verdicts(c, np.sqrt(c * (1 - c) / n), 0.6, n_resamples=[n, n]) == ["short", "above"]
    assert describe_mc_share(0.5, n) == f"50.0% (MC SE {100 * np.sqrt(0.25 / n):.1f} percentage points)"
    # 9 events: exact; the interval from statsmodels decides
    _, hi9 = proportion_confint(9, n, alpha=0.05, method="beta")   # misses 9 of 400: coverage 0.9775
    se9 = np.sqrt(9 / n * (1 - 9 / n) / n)
    assert 1 - hi9 < 0.96 < 1 - 9 / n - 2 * se9
    assert coverage_verdicts([1 - 9 / n], [se9], 0.96, n_resamples=n) == ["within"]
    assert coverage_verdicts([1 - 9 / n], [se9], 0.96) == ["above"]
    with pytest.raises(ValueError, match="n_resamples"):
        coverage_verdicts([0.9], [0.01], 0.95, n_resamples=0)
    with pytest.raises(ValueError, match="n_resamples"):
        describe_mc_share(0.5, 0)
    with pytest.raises(ValueError, match="share"):
        describe_mc_share(1.5, 10)
    # the reader takes the same rule: n_resamples is given to it
    reading = describe_coverage_reading(0.9975, se, 0.99, n)
    assert reading.startswith("is not shown to fall short of its 99% at 400 simulations")
    assert f"exact Clopper–Pearson 95% interval {100 * (1 - high):.2f}% to" in reading


def test_coverage_reading_says_short_or_above_only_beyond_two_mc_se():
    """Planted coverages around a 95% promise, one per branch; the thresholds are the +-2 MC SE band written out."""
    from evallib.lessons import describe_coverage_reading

    # the size of the gap is a Monte Carlo estimate: it carries its MC SE (cold read h3, 08-1)
    assert describe_coverage_reading(0.93, 0.005, 0.95, 2000) == (
        "falls short of its 95%, by an estimated 2.00 percentage points (Monte Carlo SE 0.50; beyond two Monte Carlo "
        "SEs, 1.00)")
    assert describe_coverage_reading(0.97, 0.004, 0.95, 2000) == (
        "covers more than its 95%, by an estimated 2.00 percentage points (Monte Carlo SE 0.40; beyond two Monte Carlo "
        "SEs, 0.80)")
    # read by the exact interval (3 misses in 400: 99.25% against 99.9%), the gap names its simulations instead
    exact_short = describe_coverage_reading(397 / 400, np.sqrt(397 / 400 * 3 / 400 / 400), 0.999, 400)
    assert exact_short.startswith("falls short of its 99.9%, by an estimated 0.65 percentage points (from 400 "
                                  "simulations; beyond its exact Clopper–Pearson 95% interval"), exact_short
    # 0.941 + 2 x 0.005 = 0.951 >= 0.95: not told apart, whichever side of the promise it lies
    within = describe_coverage_reading(0.941, 0.005, 0.95, 400)
    assert within.startswith("is not shown to fall short of its 95% at 400 simulations")
    assert "falls short" not in within
    assert describe_coverage_reading(0.955, 0.005, 0.95, 400).startswith("is not shown to fall short")
    with pytest.raises(ValueError, match="n_resamples"):
        describe_coverage_reading(0.95, 0.005, 0.95, 0)
    with pytest.raises(ValueError, match="promise"):
        describe_coverage_reading(0.95, 0.005, 1.2, 100)


def test_pooled_coverage_text_follows_the_pooled_and_the_bar_verdicts():
    from evallib.lessons import describe_pooled_coverage

    head = "A bar whose ±2 MC SE interval is consistent with the promise is not evidence that the interval keeps its level"
    short_some = describe_pooled_coverage(0.94, 0.003, 0.95, ["within", "short"], 2000)
    # a bar of 2,000 simulations at a true 94% is flagged less than half the time, not never: the text says how often
    # (bar_flag_probability, checked against simulated bars below) and how many of the bars did
    assert short_some.startswith(head) and "cannot tell" not in short_some
    # the pooled shortfall is an estimate (cold read h3, 08-1): its MC SE is printed, and the chance that a bar flags
    # it is given at the estimate and at both ends of its ±2 MC SE interval, 0.40 and 1.60 percentage points
    assert ("were the true shortfall the pooled estimate, 1.00 percentage points (Monte Carlo SE 0.30), a bar of 2,000 "
            "simulations would flag it with probability about 0.44") in short_some and "(here 1 of the 2 bars did)" in short_some
    ends = re.search(r"within two Monte Carlo SEs of that estimate \(0\.40 to 1\.60 percentage points\) with probability "
                     r"from about (0\.\d\d) to (0\.\d\d)", short_some)
    assert ends, short_some
    k = np.arange(2001)
    share = k / 2000
    flagged = share + 2 * np.sqrt(share * (1 - share) / 2000) < 0.95        # the ±2 MC SE rule written out
    for said, truth in zip(ends.groups(), (0.946, 0.934)):
        assert float(said) == pytest.approx(stats.binom.pmf(k[flagged], 2000, truth).sum(), abs=0.006)
    assert "(here none of the 2 bars did)" in describe_pooled_coverage(0.94, 0.003, 0.95, ["within", "within"], 2000)
    assert "a bar of 2,000 simulations" in short_some
    assert "every bar alone lies below" in describe_pooled_coverage(0.94, 0.003, 0.95, ["short", "short"], 2000)
    within = describe_pooled_coverage(0.948, 0.003, 0.95, ["within", "within"], 400)
    assert "neither is the pooled coverage" in within and "smaller than about 0.60 percentage points" in within
    assert "shortfall of" not in within
    assert "lies above the promise" in describe_pooled_coverage(0.97, 0.003, 0.95, ["within"], 400)
    with pytest.raises(ValueError, match="bar_verdicts"):
        describe_pooled_coverage(0.94, 0.003, 0.95, [], 400)
    with pytest.raises(ValueError, match="bar_verdicts"):
        describe_pooled_coverage(0.94, 0.003, 0.95, ["tied"], 400)


def test_bar_flag_probability_matches_simulated_bars():
    """The chance that one bar lies below its promise, against bars simulated and read by the ±2 MC SE rule by hand."""
    from evallib.lessons import bar_flag_probability

    rng = np.random.default_rng(20261204)
    for coverage, n in ((0.94, 2000), (0.9398, 2000), (0.93, 400), (0.95, 1000)):
        share = rng.binomial(n, coverage, size=200_000) / n
        flagged = np.mean(share + 2 * np.sqrt(share * (1 - share) / n) < 0.95)
        mc = np.sqrt(flagged * (1 - flagged) / 200_000)
        assert bar_flag_probability(coverage, 0.95, n) == pytest.approx(flagged, abs=4 * mc + 1e-4), (coverage, n)
    for bad, name in ((dict(coverage=1.2, promise=0.95, n_resamples=10), "coverage"),
                      (dict(coverage=0.9, promise=1.0, n_resamples=10), "promise"),
                      (dict(coverage=0.9, promise=0.95, n_resamples=0), "n_resamples")):
        with pytest.raises(ValueError, match=name):
            bar_flag_probability(**bad)


def test_gap_split_attributes_a_part_only_beyond_two_mc_se():
    from evallib.lessons import describe_gap_split

    text = describe_gap_split({"the pairwise intervals": (0.005, 0.0197), "the union bound's slack": (0.0275, 0.0102)})
    # 0.005 / 0.0197 = 0.25 and 0.0275 / 0.0102 = 2.70 MC SEs from 0, by hand
    assert ("the pairwise intervals are not shown to contribute (+0.50 percentage points, MC SE 1.97, 0.3 MC SEs from 0, "
            "within two)") in text
    assert "the union bound's slack contributes (+2.75 percentage points, MC SE 1.02, 2.7 MC SEs from 0)" in text
    # exactly 2 MC SE is not beyond it; a negative part beyond 2 MC SE is said to contribute, with its sign
    assert "is not shown to contribute" in describe_gap_split({"the bound": (0.02, 0.01)})
    assert "the bound contributes (-3.00 percentage points" in describe_gap_split({"the bound": (-0.03, 0.01)})
    # no event behind the MC SE: an MC SE of 0 is not read as certainty, either way
    for estimate in (0.0, 0.05):
        text = describe_gap_split({"the bound": (estimate, 0.0)})
        assert "MC SE 0.00" not in text and "not certainty" in text and "contributes" not in text
    # a tiny negative estimate rounds to +0.00 percentage points, never "-0.00"
    assert "-0.00" not in describe_gap_split({"the bound": (-0.00004, 0.01), "the slack": (-0.00004, 0.0)})
    with pytest.raises(ValueError, match="parts"):
        describe_gap_split({})
    with pytest.raises(ValueError, match="parts"):
        describe_gap_split({"the bound": (0.01, -0.1)})


def test_clustering_screen_reads_each_branch_from_planted_ratios():
    """Notebook 08, cell 11: planted SE ratios against noise 0.1 (band 1 +- 0.2), one table per branch."""
    import pandas as pd

    from evallib.lessons import describe_clustering_screen

    def table(ratios, df=50.0):
        t_over_z = stats.t.isf(0.025, df) / stats.norm.isf(0.025)
        return pd.DataFrame({"model": [f"m{i}" for i in range(len(ratios))], "score": "p(truth)", "ratio": ratios,
                             "width ratio": [r * t_over_z for r in ratios], "df": df,
                             "implied ICC": [(r ** 2 - 1) / 19 for r in ratios]})

    within = describe_clustering_screen(table([1.0, 1.1]), 0.1, 0.05)
    assert "all within 1 ± 0.20" in within and "absence of evidence" in within
    # a true ratio of 1.1 passes the screen 1 + 0.2 unflagged with probability Phi((1.2 - 1.1) / (1.1 x 0.1))
    assert f"probability about {stats.norm.cdf(0.1 / 0.11):.2f}" in within
    assert f"design effects from about {(1.1 / 1.2) ** 2:.2f} to {(1.1 / 0.8) ** 2:.2f}" in within
    # a CR2 interval narrower than the naive one (0.9 x t_50 / z = 0.92) is counted, not hidden behind "at most"
    mixed = describe_clustering_screen(table([0.9, 1.0, 1.1]), 0.1, 0.05)
    assert "at a cost in width for 2 of the 3 models" in mixed
    assert "not the Wilson interval item_mean reports by default) is narrower than the naive one for 1 of the 3" in mixed
    assert "cost in width here" in within and "narrower than" not in within
    t_over_z = stats.t.isf(0.025, 50.0) / stats.norm.isf(0.025)   # the widest's width ratio, by hand
    widens = describe_clustering_screen(table([1.3, 1.5]), 0.1, 0.05)
    assert "all beyond 1 + 0.20, twice the noise of the clustered SE, a sign of clustering for this score" in widens
    assert "ratios from 1.30 to 1.50 (design effects 1.69 to 2.25)" in widens and "widens" not in widens
    assert widens.endswith(f"1.50 × {t_over_z:.3f} = {1.5 * t_over_z:.2f}")
    # the screen is two noises, not a test: the largest ratio beyond 1.2 is "a sign", and the widths are still given
    some = describe_clustering_screen(table([1.0, 1.2003]), 0.1, 0.05)
    assert "the largest ratio is beyond 1 + 0.20, twice the noise of the clustered SE, a sign of clustering" in some
    assert "widens" not in some and "a screen, not a test" in some
    assert f"at most {1.2003 * t_over_z:.2f} times as wide as the naive CLT interval" in some
    # a largest ratio of 1.1 > 1 is some clustering the screen cannot tell from none; with every ratio at most 1
    # (0.9, 0.95, 1.0: planted, within 1 ± 0.2) there is no clustering to tell apart, only none ruled out
    assert "cannot tell this much clustering from none" in within
    none_seen = describe_clustering_screen(table([0.9, 0.95, 1.0]), 0.1, 0.05)
    assert "absence of evidence" in none_seen and "the screen cannot rule out clustering." in none_seen
    assert "cannot tell this much clustering" not in none_seen
    below = describe_clustering_screen(table([0.7, 1.0]), 0.1, 0.05)
    assert "some below 1 − 0.20" in below and "widens" not in below
    with pytest.raises(ValueError, match="part"):
        describe_clustering_screen(table([1.0]).drop(columns="df"), 0.1, 0.05)
    with pytest.raises(ValueError, match="noise"):
        describe_clustering_screen(table([1.0]), 0.0, 0.05)
