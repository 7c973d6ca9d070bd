"""Tests of evallib.studies._casestudy.case_study_table and plot_case_study, the re-run of
Berrar & Lozano's case study that notebook 01's sliders show.

References: the error rates and discordant counts are counted again here by brute force
from the run's predictions (a loop over the test cases), the p-values come from scipy's
chi-square tail and binomial test, and the intervals from eqs. (4)-(5) written out below.
"""

from __future__ import annotations

from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

from evallib import case_study_table, plot_case_study, run_case_study


def _data(seed=3, n=60, genes=20):
    gen = np.random.default_rng(seed)
    y = np.repeat([0, 1], [n // 3, n - n // 3])
    X = gen.normal(size=(n, genes)) + 0.8 * y[:, None]
    return X, y


def _qh(b, c, n, alpha):
    """Eqs. (4)-(5) of the paper, written out: bounds for |pi_b - pi_c|."""
    chi = stats.chi2.ppf(1 - alpha, 1)
    pb, pc = b / n, c / n
    centre = n * abs(pb - pc) / (n + chi)
    half = np.sqrt(chi * ((pb + pc) * (n + chi) - n * (pb - pc) ** 2)) / (n + chi)
    return centre - half, centre + half


@pytest.fixture(scope="module")
def study():
    X, y = _data()
    return run_case_study(X, y, test_size=30, n_genes_1=8, n_genes_2=3, n_swap=3, alpha=0.05, rng=4)


def test_table_counts_and_error_rates_by_brute_force(study):
    t = case_study_table(study)
    y, preds = study.y_test, study.predictions
    assert len(t) == 10 and t.attrs["n"] == len(y) == 30
    for i, j in combinations(range(1, 6), 2):
        row = t.loc[f"({i}, {j})"]
        b = c = 0
        for k in range(len(y)):
            wrong_i, wrong_j = preds[i][k] != y[k], preds[j][k] != y[k]
            b += wrong_i and not wrong_j
            c += wrong_j and not wrong_i
        assert (row["b"], row["c"]) == (b, c)
        assert row["error i"] == f"{sum(p != t_ for p, t_ in zip(preds[i], y)) / len(y):.3f}"
        assert row["error j"] == f"{sum(p != t_ for p, t_ in zip(preds[j], y)) / len(y):.3f}"
        # the interval and the tests from independent formulas
        low, high = _qh(b, c, len(y), 0.05)
        assert row["CI"] == f"[{low:+.2f}, {high:+.2f}]"
        if b + c:
            assert row["p"] == f"{stats.chi2.sf(max(abs(b - c) - 1, 0) ** 2 / (b + c), 1):#.2g}"
            assert row["exact p"] == f"{stats.binomtest(b, b + c, 0.5).pvalue:#.2g}"


def test_table_is_in_increasing_p_order_and_holm_levels(study):
    t = case_study_table(study)
    p = study.table["pvalue"].to_numpy()
    assert np.all(np.diff(p) >= 0)
    # Holm: the k-th smallest p-value (k = 0..9) is tested at 0.05 / (10 - k)
    assert list(t["alpha"]) == [f"{0.05 / (10 - k):.3f}" for k in range(10)]
    assert t.attrs["alpha"] == 0.05 and t.attrs["adjust"] == "holm"


def test_table_readable_strings(study):
    t = case_study_table(study)
    assert list(t.columns[:2]) == ["error i", "error j"]
    assert all(len(v.split(".")[1]) == 3 for v in t["error i"])
    assert set(t["reject H0"]) <= {"yes", "no"}


@pytest.mark.parametrize("alpha, adjust, words", [
    (0.05, "holm", "95% intervals (grey: at Holm levels, not joint intervals)"),
    (0.01, "bonferroni", "99% intervals (grey: at Bonferroni levels, jointly valid)"),
    (0.1, "none", "90% intervals (no adjustment: grey = unadjusted)"),
])
def test_plot_title_says_what_the_grey_intervals_are(alpha, adjust, words):
    X, y = _data()
    st = run_case_study(X, y, test_size=24, n_genes_1=8, n_genes_2=3, n_swap=2, alpha=alpha, adjust=adjust,
                        rng=1)
    ax = plot_case_study(st)
    assert ax.get_title() == f"24 test cases: {words}"
    plt.close(ax.figure)


def test_plot_draws_the_intervals_of_eqs_4_5(study):
    fig, ax = plt.subplots()
    assert plot_case_study(study, ax=ax) is ax
    assert [tl.get_text() for tl in ax.get_xticklabels()] == list(case_study_table(study).index)
    thick = [coll for coll in ax.collections if coll.get_label() == "unadjusted interval"][0]
    n = len(study.y_test)
    for seg, (b, c) in zip(thick.get_segments(), zip(study.table["b"], study.table["c"])):
        low, high = _qh(int(b), int(c), n, 0.05)
        assert np.allclose(sorted(seg[:, 1]), [low, high])
    plt.close(fig)


def test_rejects_what_is_not_a_case_study(study):
    with pytest.raises(TypeError, match="study must be a CaseStudy"):
        case_study_table(study.table)
    with pytest.raises(TypeError, match="study must be a CaseStudy"):
        plot_case_study({"table": study.table})


def test_exported():
    import evallib.studies
    assert evallib.studies.case_study_table is case_study_table and "plot_case_study" in evallib.studies.__all__
