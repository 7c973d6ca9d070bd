"""Eisinga et al.'s exact rank-sum difference p-values and the Holland, Rom, BH and BY
adjustments (issue 26): evallib.manydatasets._ranksums and evallib.manydatasets._posthoc.

References: the authors' printed p-value (pexactfrsd(100, 100, 100) = 0.8085251),
brute-force enumeration of all rankings for tiny k and n, statsmodels' multipletests
(fdr_bh, fdr_by, holm-sidak), Rom's (1990) Table 1 critical values, and Monte Carlo
family-wise error of Rom's step-up procedure under independence.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.manydatasets._posthoc import (
    ALL_PAIRS_METHODS,
    CONTROL_METHODS,
    adjust_pvalues,
    posthoc_friedman,
    rom_levels,
)
from evallib.manydatasets._ranksums import rank_sum_difference_null, rank_sum_difference_pvalue


# ------------------------------------------------------------------ Eisinga
def test_authors_printed_example():
    # pexactfrsd(d = 100, k = 100, n = 100) "returns a p-value of 0.8085251"
    assert round(rank_sum_difference_pvalue(100, 100, 100), 7) == 0.8085251


@pytest.mark.parametrize("k,n", [(2, 3), (3, 2), (3, 4), (4, 3)])
def test_closed_form_and_convolution_match_enumeration(k, n):
    counts = {}
    for perms in itertools.product(itertools.permutations(range(1, k + 1)), repeat=n):
        d = abs(sum(p[0] - p[1] for p in perms))
        counts[d] = counts.get(d, 0) + 1
    total = math.factorial(k) ** n
    null = rank_sum_difference_null(k, n)
    for d in range(n * (k - 1) + 1):
        tail = sum(c for dd, c in counts.items() if dd >= d) / total
        assert rank_sum_difference_pvalue(d, k, n) == pytest.approx(tail, abs=1e-15)
        assert null.loc[d, "pvalue"] == pytest.approx(tail, abs=1e-15)
        assert null.loc[d, "probability"] == pytest.approx(counts.get(d, 0) / total, abs=1e-15)


def test_closed_form_equals_convolution_for_larger_tables():
    null = rank_sum_difference_null(10, 50)
    for d in (0, 1, 17, 60, 120, 250, 449, 450):
        assert rank_sum_difference_pvalue(d, 10, 50) == pytest.approx(null.loc[d, "pvalue"], rel=1e-12)
    assert null["count"].sum() == (10 * 9) ** 50


def test_exact_and_normal_agree_in_the_body_and_differ_in_the_tail():
    k, n = 5, 20
    sd = math.sqrt(n * k * (k + 1) / 6)          # SD of a rank-sum difference (Demšar's z times n)
    assert rank_sum_difference_pvalue(10, k, n) == pytest.approx(2 * stats.norm.sf(9.5 / sd), abs=0.01)
    far = rank_sum_difference_pvalue(60, k, n)
    assert far < 2 * stats.norm.sf(59.5 / sd)     # the normal tail is too heavy far out


def test_pvalue_edges_and_half_integer_differences():
    assert rank_sum_difference_pvalue(0, 5, 10) == 1.0
    assert rank_sum_difference_pvalue(41, 5, 10) == 0.0
    assert rank_sum_difference_pvalue(-7, 5, 10) == rank_sum_difference_pvalue(7, 5, 10)
    assert rank_sum_difference_pvalue(6.5, 5, 10) == rank_sum_difference_pvalue(7, 5, 10)


def test_posthoc_friedman_exact_uses_the_rank_sum_differences():
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.normal(size=(12, 4)) + np.arange(4) * 0.5, columns=list("ABCD"))
    res = posthoc_friedman(scores, adjust="holm", distribution="exact")
    ranks = stats.rankdata(-scores.to_numpy(), axis=1)
    sums = dict(zip("ABCD", ranks.sum(axis=0)))
    for r in res.itertuples():
        assert r.pvalue == pytest.approx(rank_sum_difference_pvalue(sums[r.a] - sums[r.b], 4, 12))
    assert res.attrs["distribution"] == "exact"
    normal = posthoc_friedman(scores, adjust="holm")
    assert list(normal["z"]) == pytest.approx(list(res["z"]))


def test_eisinga_bad_input():
    with pytest.raises(ValueError, match="k"):
        rank_sum_difference_pvalue(1, 1, 5)
    with pytest.raises(ValueError, match="n"):
        rank_sum_difference_pvalue(1, 3, 0)
    with pytest.raises(ValueError, match="n \\(k - 1\\)"):
        rank_sum_difference_null(100, 100)
    with pytest.raises(TypeError, match="d"):
        rank_sum_difference_pvalue("3", 3, 4)
    with pytest.raises(ValueError, match="distribution"):
        posthoc_friedman(np.eye(3), adjust="nemenyi", distribution="exact")
    with pytest.raises(ValueError, match="distribution"):
        posthoc_friedman(np.eye(3), distribution="t")


# -------------------------------------------------------------- adjustments
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("method,sm", [("bh", "fdr_bh"), ("by", "fdr_by"),
                                       ("holland", "holm-sidak")])
def test_bh_by_holland_match_statsmodels(seed, method, sm):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 0.02, 3), rng.uniform(0, 1, 6)])
    np.testing.assert_allclose(adjust_pvalues(p, method), multipletests(p, method=sm)[1], rtol=1e-12)


def test_rom_levels_reproduce_roms_table():
    # Rom (1990), Table 1, alpha = 0.05 (also García et al. 2010's constants)
    assert rom_levels(10, 0.05).round(5).tolist() == [0.05, 0.025, 0.01688, 0.01271, 0.01019, 0.00851,
                                                      0.0073, 0.00639, 0.00568, 0.00511]


@pytest.mark.parametrize("m", [3, 5, 8])
def test_rom_familywise_error_is_alpha_under_independence(m):
    rng = np.random.default_rng(m)
    u = np.sort(rng.uniform(size=(200_000, m)), axis=1)[:, ::-1]   # largest first
    rejected_any = (u <= rom_levels(m, 0.05)).any(axis=1).mean()
    assert rejected_any == pytest.approx(0.05, abs=0.002)


@pytest.mark.parametrize("seed", range(4))
def test_rom_apvs_reject_exactly_what_the_step_up_rule_rejects(seed):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 0.03, 3), rng.uniform(0, 1, 4)])
    apv = adjust_pvalues(p, "rom")
    order = np.argsort(p)
    for alpha in np.linspace(0.002, 0.3, 60):
        crit = rom_levels(p.size, alpha)                 # alpha_1 for the largest p-value
        rej = np.zeros(p.size, bool)
        for j in range(p.size - 1, -1, -1):              # step up from the largest
            if p[order[j]] <= crit[p.size - 1 - j]:
                rej[order[: j + 1]] = True
                break
        assert np.array_equal(apv <= alpha, rej), alpha
    hoch = adjust_pvalues(p, "hochberg")
    assert (apv <= hoch + 1e-12).all()                    # Rom is at least as powerful as Hochberg


def test_fdr_methods_are_on_both_menus_and_reject_at_least_holm():
    assert "bh" in ALL_PAIRS_METHODS and "by" in CONTROL_METHODS
    assert "rom" in CONTROL_METHODS and "holland" in CONTROL_METHODS
    rng = np.random.default_rng(7)
    scores = pd.DataFrame(rng.normal(size=(20, 5)) + np.arange(5) * 0.4, columns=list("ABCDE"))
    holm = posthoc_friedman(scores, adjust="holm")
    bh = posthoc_friedman(scores, adjust="bh")
    assert bh["reject"].sum() >= holm["reject"].sum()
    ctrl = posthoc_friedman(scores, adjust="rom", control="E")
    assert len(ctrl) == 4 and set(ctrl["a"]) == {"E"}
    with pytest.raises(ValueError, match="adjust"):
        posthoc_friedman(scores, adjust="rom")            # Rom is against a control only
    with pytest.raises(ValueError, match="adjust"):
        adjust_pvalues([0.1, 0.2], "fdr")
