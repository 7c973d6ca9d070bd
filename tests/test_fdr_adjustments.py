"""Benjamini–Hochberg and Benjamini–Yekutieli in every ``adjust=`` menu (issue 26).

References: Benjamini & Hochberg (1995), section 4, the fifteen p-values of Neuhauser et
al.'s myocardial infarction study, where the procedure at q = 0.05 rejects the four
smallest and Bonferroni three; statsmodels' ``multipletests(method="fdr_bh" / "fdr_by" /
"holm")`` for the adjusted p-values and decisions; the step-up rule written out here.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from evallib._multitest import adjust_pvalues, rejections
from evallib.onetestset import _scoring as sc
from evallib.onetestset._pairwise import (
    ADJUSTMENTS,
    FDR_ADJUSTMENTS,
    adjusted_alphas,
    compare_pairwise,
    format_table,
    pairwise_table,
    plot_intervals,
)

BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
           0.5719, 0.6528, 0.7590, 1.0]
SM_NAMES = {"bh": "fdr_bh", "by": "fdr_by", "holm": "holm", "bonferroni": "bonferroni"}


def test_menus_offer_bh_and_by():
    assert {"bh", "by"} <= set(ADJUSTMENTS) and set(FDR_ADJUSTMENTS) == {"bh", "by"}
    assert sc.ADJUSTMENTS is ADJUSTMENTS


def test_benjamini_hochberg_1995_example():
    p = np.array(BH_1995)
    assert rejections(p, adjusted_alphas(p, 0.05, "bh"), "bh").sum() == 4
    assert rejections(p, adjusted_alphas(p, 0.05, "bonferroni"), "bonferroni").sum() == 3
    assert (adjust_pvalues(p, "bh") <= 0.05).sum() == 4


# the adjusted p-values and decisions of every procedure against statsmodels: tests/test_multitest.py


def test_step_up_rejects_above_its_own_level():
    """p = (0.03, 0.04), alpha = 0.05: BH's levels are 0.025 and 0.05; the larger p-value
    meets its level, so both are rejected though 0.03 > 0.025 (Holm rejects neither)."""
    p = np.array([0.03, 0.04])
    assert adjusted_alphas(p, 0.05, "bh").tolist() == pytest.approx([0.025, 0.05])
    assert rejections(p, adjusted_alphas(p, 0.05, "bh"), "bh").tolist() == [True, True]
    assert rejections(p, adjusted_alphas(p, 0.05, "holm"), "holm").tolist() == [False, False]
    c3 = 1 + 1 / 2 + 1 / 3
    assert adjusted_alphas([0.2, 0.01, 0.5], 0.06, "by").tolist() == pytest.approx(
        [2 * 0.06 / (3 * c3), 0.06 / (3 * c3), 3 * 0.06 / (3 * c3)])


COUNTS = {(1, 2): (0, 6), (1, 3): (2, 14), (1, 4): (3, 21), (2, 3): (4, 9), (2, 4): (5, 13), (3, 4): (8, 9)}


@pytest.mark.parametrize("adjust", ["bh", "by"])
def test_pairwise_table_decisions_and_unadjusted_intervals(adjust):
    t = pairwise_table(COUNTS, 60, alpha=0.05, adjust=adjust)
    reject, _, _, _ = multipletests(t["pvalue"], alpha=0.05, method=SM_NAMES[adjust])
    np.testing.assert_array_equal(t["reject"], reject)
    np.testing.assert_array_equal(t["ci_adj_low"], t["low"])
    np.testing.assert_array_equal(t["ci_adj_high"], t["high"])
    assert t.attrs["adjust"] == adjust and t.attrs["interval_adjust"] == "none"
    assert "CI (unadjusted: FDR has no joint CI)" in format_table(t).columns
    title = plot_intervals(t).get_title()
    assert "false discovery rate" in title and "grey = unadjusted" in title
    plt.close("all")
    holm = pairwise_table(COUNTS, 60, alpha=0.05, adjust="holm")
    assert holm.attrs["interval_adjust"] == "holm" and "adjusted CI" in format_table(holm).columns
    assert t["reject"].sum() >= holm["reject"].sum()  # BH rejects at least what Holm rejects


def test_compare_pairwise_accepts_bh():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    preds = {name: np.where(rng.random(200) < acc, y, 1 - y) for name, acc in
             (("a", 0.9), ("b", 0.8), ("c", 0.7))}
    t = compare_pairwise(y, preds, adjust="bh")
    assert t.attrs["adjust"] == "bh" and len(t) == 3
    with pytest.raises(ValueError, match="adjust must be one of 'holm', 'bonferroni', 'bh', 'by', 'none'"):
        compare_pairwise(y, preds, adjust="fdr")


def _scores(seed=12, n=150, k=5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    latent = y + rng.normal(size=n)
    return y, pd.DataFrame({f"c{j}": latent + rng.normal(scale=0.3 + 0.4 * j, size=n) for j in range(k)})


@pytest.mark.parametrize("adjust", ["bh", "by"])
def test_scoring_pair_tables(adjust):
    y, scores = _scores()
    table = sc.delong_pairwise(y, scores, adjust=adjust)
    reject, padj, _, _ = multipletests(table["pvalue"], alpha=0.05, method=SM_NAMES[adjust])
    np.testing.assert_allclose(table["pvalue_adj"], padj, rtol=1e-12)
    np.testing.assert_array_equal(table["reject_adj"], reject)
    np.testing.assert_allclose(table["low_adj"], table["low"], rtol=0, atol=1e-15)
    np.testing.assert_allclose(table["high_adj"], table["high"], rtol=0, atol=1e-15)
    assert table.attrs["interval_adjust"] == "none"
    text = sc.format_auc_pairwise(table)
    assert "interval (unadjusted: FDR has no joint interval)" in text.columns
    name = {"bh": "Benjamini–Hochberg", "by": "Benjamini–Yekutieli"}[adjust]
    assert f"adjusted p ({name}; DeLong's test)" in text.columns
    losses = sc.loss_pairwise(y, 1 / (1 + np.exp(-scores)), adjust=adjust)
    np.testing.assert_allclose(losses["pvalue_adj"],
                               multipletests(losses["pvalue"], method=SM_NAMES[adjust])[1], rtol=1e-12)
    assert sc.format_loss_pairwise(losses).shape[0] == 10


def test_scoring_holm_and_bonferroni_keep_their_joint_intervals():
    y, scores = _scores()
    for adjust in ("holm", "bonferroni", "none"):
        table = sc.delong_pairwise(y, scores, adjust=adjust)
        assert table.attrs["interval_adjust"] == ("none" if adjust == "none" else "bonferroni")
    empty = sc.loss_pairwise(y, {"p": np.full(150, 0.5)}, adjust="by")
    assert len(empty) == 0 and empty.attrs["adjust"] == "by"


def test_case_study_with_bh_says_the_intervals_are_unadjusted():
    """Notebook 01's case-study dropdown lists every adjustment: BH must run end to end."""
    from evallib.studies._casestudy import plot_case_study, run_case_study

    gen = np.random.default_rng(1)
    y = np.repeat([0, 1], 20)
    x = gen.normal(size=(40, 12)) + y[:, None]
    study = run_case_study(x, y, test_size=20, n_genes_1=6, n_genes_2=3, n_swap=2, rng=0, adjust="bh")
    assert study.table.attrs["adjust"] == "bh"
    assert "BH controls the FDR" in plot_case_study(study).get_title()
    plt.close("all")
