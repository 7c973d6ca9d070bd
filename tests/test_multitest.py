"""The one multiple-testing module, evallib._multitest, against statsmodels' ``multipletests``.

Reference: statsmodels' ``multipletests`` for every procedure of the menu
(:data:`ADJUSTMENTS`) and of the post-hoc superset that it implements -- Holm, Bonferroni
(and Bonferroni–Dunn, the same adjustment against a control), Benjamini–Hochberg
(``fdr_bh``), Benjamini–Yekutieli (``fdr_by``), Hochberg (``simes-hochberg``) and
Holland–Copenhaver (Holm's step-down with Šidák's levels, ``holm-sidak``) -- over p-vectors
with ties, ones, zeros, tiny values, unsorted input and a single p-value; ``"none"`` against
the p-values themselves. The procedures statsmodels lacks keep their own independent tests:
Finner, Li, Shaffer and Bergmann–Hommel in test_posthoc.py (step-down rules and
definitions written out, brute-force exhaustive sets), Rom in
test_exact_pairs_and_adjustments.py (Rom's Table 1, Monte Carlo family-wise error, the
step-up rule written out).
"""

from __future__ import annotations

import gc
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import evallib
from evallib import _multitest as mt
from evallib.items import leaderboard_pairs
from evallib.manydatasets import _omnibus as omnibus
from evallib.manydatasets import _posthoc as posthoc
from evallib.onetestset import _pairwise as pairwise
from evallib.onetestset import _scoring as scoring
from evallib.report import _sections as sections
from evallib.report import _text as text

#: Our name -> statsmodels' name, for every procedure both have.
STATSMODELS = {
    "holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh", "by": "fdr_by",
    "bonferroni-dunn": "bonferroni", "hochberg": "simes-hochberg", "holland": "holm-sidak",
}
NOT_IN_STATSMODELS = {"none", "finner", "li", "rom", "shaffer", "bergmann"}

_rng = np.random.default_rng(20240531)
P_VECTORS = {
    "ties": [0.01, 0.03, 0.03, 0.03, 0.2, 0.01, 0.6],
    "ones": [1.0, 0.002, 1.0, 0.04, 1.0],
    "zeros and ones": [0.0, 1.0, 0.0, 0.3],
    "tiny": [1e-300, 3e-17, 2e-12, 0.5, 1e-9],
    "unsorted": [0.81, 0.004, 0.33, 0.012, 0.0009, 0.049, 0.27, 0.6, 0.02, 0.11],
    "length 1": [0.037],
    "all equal": [0.02, 0.02, 0.02, 0.02],
    "uniform 25": list(_rng.uniform(0, 1, 25)),
    "signal 30": list(np.concatenate([_rng.uniform(0, 0.005, 8), _rng.uniform(0, 1, 22)])[_rng.permutation(30)]),
}


@pytest.fixture(autouse=True)
def _no_full_collection_in_statsmodels_holm(monkeypatch):
    """statsmodels' Holm branch of ``multipletests`` ends in ``gc.collect()``, which costs
    0.1-0.2 s per call in a test process holding the whole suite; a collection changes no
    result, so the calls here run without it (the comparison is unchanged)."""
    monkeypatch.setattr(gc, "collect", lambda generation=2: 0)


def test_every_procedure_is_either_checked_here_or_elsewhere():
    assert set(STATSMODELS) | NOT_IN_STATSMODELS == set(mt.POSTHOC_ADJUSTMENTS)
    assert set(mt.ADJUSTMENTS) <= set(mt.POSTHOC_ADJUSTMENTS)          # the post-hoc set is a superset
    assert len(set(mt.POSTHOC_ADJUSTMENTS)) == len(mt.POSTHOC_ADJUSTMENTS)


@pytest.mark.parametrize("name", list(P_VECTORS))
@pytest.mark.parametrize("adjust", list(STATSMODELS))
def test_adjusted_pvalues_match_statsmodels(adjust, name):
    p = np.asarray(P_VECTORS[name], dtype=float)
    want = multipletests(p, method=STATSMODELS[adjust])[1]
    np.testing.assert_allclose(mt.adjust_pvalues(p, adjust), want, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("name", list(P_VECTORS))
def test_none_leaves_the_pvalues_alone(name):
    p = np.asarray(P_VECTORS[name], dtype=float)
    out = mt.adjust_pvalues(p, "none")
    np.testing.assert_array_equal(out, p)
    assert out is not p


@pytest.mark.parametrize("name", list(P_VECTORS))
@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "bh", "by"])
def test_levels_and_adjusted_pvalues_decide_as_statsmodels(adjust, name):
    """The per-comparison levels (alpha_adj, with the step-down / step-up rule) and the adjusted
    p-values (pvalue_adj <= alpha) both reject what statsmodels rejects, at several alphas."""
    p = np.asarray(P_VECTORS[name], dtype=float)
    for alpha in (0.01, 0.05, 0.1, 0.25):
        want = multipletests(p, alpha=alpha, method=STATSMODELS[adjust])[0]
        levels = mt.adjusted_alphas(p, alpha, adjust)
        np.testing.assert_array_equal(mt.rejections(p, levels, adjust), want)
        np.testing.assert_array_equal(mt.adjust_pvalues(p, adjust) <= alpha, want)
    np.testing.assert_array_equal(mt.rejections(p, mt.adjusted_alphas(p, 0.05, "none"), "none"), p <= 0.05)


def test_adjusted_pvalues_keep_the_input_order():
    p = np.array(P_VECTORS["unsorted"])
    order = np.argsort(p)
    for adjust in mt.POSTHOC_ADJUSTMENTS:
        if adjust in mt.PAIRS_ONLY_ADJUSTMENTS:
            continue
        np.testing.assert_allclose(mt.adjust_pvalues(p, adjust)[order], mt.adjust_pvalues(p[order], adjust),
                                   rtol=1e-12, err_msg=adjust)


def test_shaffer_and_bergmann_need_all_pairs():
    p = np.array([0.001, 0.01, 0.02, 0.2, 0.3, 0.5])          # the 6 pairs of 4 algorithms
    for adjust in mt.PAIRS_ONLY_ADJUSTMENTS:
        out = mt.adjust_pvalues(p, adjust, k=4)
        assert out.shape == p.shape and (out >= p).all() and (out <= 1).all()
        # both are at most Holm (Shaffer's t_i <= m - i + 1; Bergmann–Hommel improves on Shaffer)
        assert (out <= mt.adjust_pvalues(p, "holm") + 1e-15).all()
        with pytest.raises(ValueError, match=rf"adjust='{adjust}' needs k with k\(k-1\)/2 = 6"):
            mt.adjust_pvalues(p, adjust, k=3)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: mt.adjust_pvalues([0.1, 0.2], "fdr"), ValueError, "^adjust must be one of 'holm', 'bonferroni'"),
    (lambda: mt.adjust_pvalues([0.1, 1.2], "holm"), ValueError, r"^pvalues must all lie in \[0, 1\]"),
    (lambda: mt.adjust_pvalues([0.1, np.nan], "bh"), ValueError, r"^pvalues must all lie in \[0, 1\]"),
    (lambda: mt.adjust_pvalues([], "bh"), ValueError, "^pvalues must be a non-empty one-dimensional"),
    (lambda: mt.adjust_pvalues([[0.1, 0.2]], "bh"), ValueError, "^pvalues must be a non-empty one-dimensional"),
    (lambda: mt.adjust_pvalues(["a"], "bh"), TypeError, "^pvalues must be a sequence of numbers"),
    (lambda: mt.adjusted_alphas([0.1, 0.2], 0.05, "hochberg"), ValueError, "^adjust must be one of"),
    (lambda: mt.adjusted_alphas([0.1, 0.2], 1.5, "holm"), ValueError, "alpha"),
    (lambda: mt.rejections([0.1, 0.2], [0.05], "holm"), ValueError, "^levels must have one entry per p-value"),
])
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ------------------------------------------------------------------ one menu, one home
def test_every_menu_is_the_one_menu():
    assert pairwise.ADJUSTMENTS is scoring.ADJUSTMENTS is mt.ADJUSTMENTS is evallib.ADJUSTMENTS
    assert evallib.LEADERBOARD_ADJUSTMENTS is mt.ADJUSTMENTS and "by" in evallib.LEADERBOARD_ADJUSTMENTS
    assert sections.REPORT_ADJUSTMENTS is mt.ADJUSTMENTS
    assert pairwise.FDR_ADJUSTMENTS is evallib.FDR_ADJUSTMENTS is evallib.FDR_METHODS is text.FDR_ADJUSTMENTS
    assert mt.FDR_ADJUSTMENTS == ("bh", "by") and sections.JOINT_INTERVAL_ADJUSTMENTS is mt.FWER_ADJUSTMENTS
    # the post-hoc menus are the superset's procedures, plus Nemenyi's test on the z statistics
    for menu in (posthoc.ALL_PAIRS_METHODS, posthoc.CONTROL_METHODS):
        assert set(menu) - {"nemenyi"} <= set(mt.POSTHOC_ADJUSTMENTS)
        assert set(mt.FDR_ADJUSTMENTS) <= set(menu)


def test_the_public_names_are_the_one_implementation():
    assert evallib.adjust_pvalues is posthoc.adjust_pvalues is mt.adjust_pvalues
    assert evallib.adjusted_alphas is pairwise.adjusted_alphas is mt.adjusted_alphas
    assert evallib.holm_alphas is mt.holm_alphas
    for name in ("rom_levels", "shaffer_counts", "exhaustive_sets"):
        assert getattr(evallib, name) is getattr(posthoc, name) is getattr(mt, name)


def test_no_other_module_writes_a_step_down_or_step_up():
    """Adjusted p-values are written once: no running max/min of sorted p-values outside _multitest."""
    root = Path(mt.__file__).parent
    # a confidence sequence's running intersection is a running max (min) of its bounds over time,
    # not an adjustment of sorted p-values
    running_intersections = {Path("sequential/_confseq.py")}
    pattern = re.compile(r"(maximum|minimum)\.accumulate|\bdef _(holm|bh|by|bonferroni)\b|\(\"bh\", \"by\"\)")
    offenders = [str(path.relative_to(root)) for path in root.rglob("*.py")
                 if path.name != "_multitest.py" and path.relative_to(root) not in running_intersections and pattern.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_every_table_takes_every_adjustment_of_the_menu():
    scores = pd.DataFrame({"A": [1, 1, 1, 1, 1, 1, 1, 0, 1, 1], "B": [1, 0, 0, 1, 0, 0, 1, 0, 1, 0],
                           "C": [1, 0, 0, 1, 0, 0, 0, 0, 0, 1]})
    counts = {(1, 2): (0, 6), (1, 3): (2, 14), (2, 3): (4, 9)}
    for adjust in mt.ADJUSTMENTS:
        board = leaderboard_pairs(scores, adjust=adjust)
        np.testing.assert_allclose(board["pvalue_adj"], mt.adjust_pvalues(board["pvalue"], adjust))
        np.testing.assert_array_equal(board["reject"], board["pvalue_adj"] <= 0.05)
        table = pairwise.pairwise_table(counts, 60, adjust=adjust)
        np.testing.assert_allclose(table["alpha_adj"], mt.adjusted_alphas(table["pvalue"], 0.05, adjust))
        assert table.attrs["adjust"] == adjust


# ------------------------------------------------------------------ the old keyword
def test_method_keyword_still_works_with_a_warning():
    p = [0.01, 0.04, 0.03, 0.005]
    with pytest.warns(DeprecationWarning, match=r"adjust_pvalues\(method=...\) is deprecated.*use adjust="):
        old = evallib.adjust_pvalues(p, method="holm")
    np.testing.assert_array_equal(old, evallib.adjust_pvalues(p, "holm"))
    with pytest.warns(DeprecationWarning, match="use adjust="):
        old = evallib.adjusted_alphas(p, 0.05, method="bh")
    np.testing.assert_array_equal(old, evallib.adjusted_alphas(p, 0.05, "bh"))
    with pytest.raises(TypeError, match="got both method= .deprecated. and adjust="):
        evallib.adjust_pvalues(p, method="holm", adjust="bh")


def test_posthoc_functions_take_adjust_and_the_old_method_keyword():
    import matplotlib.pyplot as plt

    from evallib.studies import demsar_table_6

    ranks = demsar_table_6(ranks=True)
    new = posthoc.posthoc_friedman(ranks, adjust="li", control="C4.5", higher_is_better=False)
    assert new.attrs["adjust"] == "li" and "pvalue_adj" in new.columns
    np.testing.assert_allclose(new["pvalue_adj"], mt.adjust_pvalues(new["pvalue"], "li"))
    with pytest.warns(DeprecationWarning, match=r"posthoc_friedman\(method=...\)"):
        old = posthoc.posthoc_friedman(ranks, method="li", control="C4.5", higher_is_better=False)
    pd.testing.assert_frame_equal(old, new)
    table = np.array([[3, 4, 4], [4, 3, 3], [5, 2, 5], [6, 1, 6], [1, 2, 3], [5, 6, 7]])
    for func in (omnibus.posthoc_aligned_ranks, omnibus.posthoc_quade):
        with pytest.warns(DeprecationWarning, match=rf"{func.__name__}\(method=...\)"):
            old = func(table, method="bonferroni")
        pd.testing.assert_frame_equal(old, func(table, adjust="bonferroni"))
    fig, ax = plt.subplots()
    with pytest.warns(DeprecationWarning, match=r"posthoc_view\(method=...\)"):
        view = posthoc.posthoc_view(ranks, method="holm", higher_is_better=False, ax=ax)
    assert list(view.columns) == ["a", "b", "z", "pvalue", "pvalue_adj", "reject"]
    with pytest.warns(DeprecationWarning, match=r"plot_posthoc\(method=...\)"):
        assert posthoc.plot_posthoc(ranks, method="nemenyi", higher_is_better=False, ax=ax) is ax
    plt.close("all")
