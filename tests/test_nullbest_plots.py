"""Tests of evallib.onetestset._nullbest_plots and the notebook callbacks of evallib.onetestset._nullbest."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from evallib.onetestset._nullbest import critical_value, critical_value_table, judge_winner  # noqa: E402
from evallib.onetestset._nullbest_plots import (  # noqa: E402
    critical_value_grid,
    mc_cdf_distance,
    plot_contour_panels,
    plot_critical_contours,
    plot_critical_surface,
    plot_mc_convergence,
    plot_null_cdfs,
)


@pytest.fixture(scope="module")
def small_table() -> pd.DataFrame:
    sizes = [2, 5, 12, 30, 80]
    return critical_value_table(["auc", "accuracy", "f1", "tp"], sizes, sizes, [10, 1000], [0.01])


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_grid_is_the_table_pivoted(small_table):
    g = critical_value_grid(small_table, "auc", C=1000)
    assert g.shape == (5, 5)
    assert g.loc[12, 30] == critical_value("auc", 12, 30, C=1000)
    with pytest.raises(ValueError, match="no rows"):
        critical_value_grid(small_table, "auc", C=7)
    with pytest.raises(ValueError, match="metric must be one of"):
        critical_value_grid(small_table, "roc", C=10)
    with pytest.raises(ValueError, match="lacks the columns"):
        critical_value_grid(small_table.drop(columns="alpha"), "auc", C=10)


def test_figure_1_marks_the_99th_percentile_and_critical_values():
    ax = plot_null_cdfs(10, 1000, Cs=(10, 1000))
    assert any(np.allclose(line.get_ydata(), 0.99) for line in ax.get_lines())
    xs = [line.get_xdata()[0] for line in ax.get_lines() if len(line.get_xdata()) == 1]
    assert any(x == pytest.approx(critical_value("auc", 10, 1000, C=1000)) for x in xs)
    assert any(x == pytest.approx(critical_value("f1", 10, 1000, C=10)) for x in xs)


def test_surface_and_contours_draw(small_table):
    ax = plot_critical_surface(small_table, "accuracy", C=1000)
    assert ax.name == "3d"
    ax2 = plot_critical_contours(small_table, "auc", C=10)
    assert ax2.get_xscale() == "log" and ax2.texts  # labelled contours
    axes = plot_contour_panels(small_table, C=1000)
    assert axes.shape == (2, 2)
    with pytest.raises(ValueError, match="one per metric"):
        plot_contour_panels(small_table, axes=[plt.gca()])


def test_monte_carlo_converges_within_the_dkw_bound():
    # Dvoretzky–Kiefer–Wolfowitz: P(sup |F_n - F| > eps) <= 2 exp(-2 n eps^2); eps at 1e-6.
    for reps in (2_000, 50_000):
        eps = math.sqrt(math.log(2 / 1e-6) / (2 * reps))
        assert mc_cdf_distance("auc", 20, 30, reps, rng=1) < eps
    ax = plot_mc_convergence("f1", 15, 40, 5_000, rng=2)
    assert "5,000 rankings" in ax.get_legend().get_texts()[1].get_text()


@pytest.mark.parametrize("metric,scores", [("auc", np.linspace(0.5, 1, 41)), ("accuracy", np.linspace(0.5, 1, 41)),
                                           ("f1", np.linspace(0.3, 1, 41)), ("tp", np.arange(0, 11))])
def test_verdict_is_significant_exactly_when_p_is_at_most_alpha(metric, scores):
    for s in scores:
        v = judge_winner(metric, float(s), 30, 70, C=100, alpha=0.05)
        assert v.reject == (v.pvalue <= 0.05), (metric, s, v)
        assert ("significant." in v.describe()) == v.reject


def test_verdict_rejects_bad_input():
    with pytest.raises(ValueError, match="alpha must lie"):
        judge_winner("auc", 0.7, 10, 10, alpha=2)
    with pytest.raises(ValueError, match="score must lie"):
        judge_winner("f1", -0.1, 10, 10)


# ------------------------------------------------------------ the tails (issue 13)
def test_null_tail_marks_each_critical_value_on_its_level():
    """The markers sit at (m*, 1 - (1 - alpha)^(1/C)); the curve is the exact survival
    function, checked against scipy's hypergeometric for TP10 and against the closed
    form 1 - (1 - alpha)^(1/C) for the levels."""
    from scipy import stats

    from evallib.onetestset._nullbest_plots import plot_null_tail

    ax = plot_null_tail("tp", 10, 1000, Cs=(10, 1000), alpha=0.01)
    assert ax.get_yscale() == "log"
    marks = [line for line in ax.get_lines() if len(line.get_xdata()) == 1]
    for line, C in zip(marks, (10, 1000)):
        assert line.get_xdata()[0] == critical_value("tp", 10, 1000, C=C, alpha=0.01)
        assert line.get_ydata()[0] == pytest.approx(1 - 0.99 ** (1 / C))
    curve = ax.get_lines()[0]
    x, y = np.asarray(curve.get_xdata()), np.asarray(curve.get_ydata())
    assert np.allclose(y, stats.hypergeom.sf(x, 1010, 10, 10), rtol=1e-9)
    ax2 = plot_null_tail("accuracy", 10, 1000)
    assert ax2.get_xlim()[0] > 0.98        # best accuracy's range, not [0, 1]
    with pytest.raises(ValueError, match="alpha"):
        plot_null_tail("auc", 10, 10, alpha=2)


def test_mc_tail_reports_the_expected_count_beyond_m_star():
    from evallib.onetestset._nullbest import tail_probability
    from evallib.onetestset._nullbest_plots import plot_mc_tail

    ax = plot_mc_tail("auc", 30, 40, 2000, C=100, alpha=0.01, rng=0)
    assert ax.get_yscale() == "log"
    assert f"{2000 * tail_probability(100, 0.01):.3g}" in ax.get_title()
    levels = [line.get_ydata()[0] for line in ax.get_lines() if len(set(line.get_ydata())) == 1]
    assert any(v == pytest.approx(1 / 2000) for v in levels)
    assert any(v == pytest.approx(1 - 0.99 ** (1 / 100)) for v in levels)
    with pytest.raises(ValueError, match="n_resamples"):
        plot_mc_tail("auc", 30, 40, 0)


def test_contour_labels_are_legible(small_table):
    ax = plot_critical_contours(small_table, "auc", C=10)
    texts = ax.texts
    assert texts and all(t.get_fontsize() >= 9 for t in texts)
    assert all(t.get_bbox_patch() is not None for t in texts)


def test_mc_tail_curves_are_prefixes_of_one_sample_counted_by_brute_force():
    """Each Monte Carlo tail is the share of the sample's first r rankings scoring above
    each value, recounted here by a plain comparison on the same seeded sample; the exact
    tail is the survival function of null_cdf at the kept values."""
    from evallib.onetestset._nullbest import null_cdf, simulate_null
    from evallib.onetestset._nullbest_plots import mc_tail_curves

    reps = [50, 400, 3000]
    for metric in ("auc", "accuracy", "tp"):
        curves = mc_tail_curves(metric, 12, 30, reps, rng=7, max_points=40)
        sample = simulate_null(metric, 12, 30, 3000, rng=7)
        law = null_cdf(metric, 12, 30)
        assert curves.values.size <= 40 and curves.values[0] == law.values[0] and curves.values[-1] == law.values[-1]
        pos = np.searchsorted(law.values, curves.values)
        assert np.allclose(curves.exact_sf, law.sf[pos])
        for r in reps:
            brute = np.array([np.mean(sample[:r] > v + 1e-12) for v in curves.values])
            assert np.allclose(curves.mc_sf[r], brute, rtol=0, atol=1e-12), (metric, r)
    with pytest.raises(ValueError, match="n_resamples"):
        mc_tail_curves("auc", 5, 5, [0])
    with pytest.raises(ValueError, match="metric"):
        mc_tail_curves("gini", 5, 5, [10])


def test_critical_lines_are_rows_of_the_table(small_table):
    from evallib.onetestset._nullbest_plots import plot_critical_lines

    ax = plot_critical_lines(small_table, "f1", C=10, Ps=(2, 30))
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["P = 2", "P = 30"]
    assert ax.get_xscale() == "log"
    for line, p in zip(lines, (2, 30)):
        for n, v in zip(line.get_xdata(), line.get_ydata()):
            assert v == pytest.approx(critical_value("f1", p, int(n), C=10, alpha=0.01))
    with pytest.raises(ValueError, match="Ps"):
        plot_critical_lines(small_table, "auc", Ps=(3,))
