"""Aligned ranks, Quade and Skillings–Mack (issue 26): evallib.manydatasets._omnibus.

References: R's quade.test example (Conover 1999, p. 375: F = 3.8293, p = 0.01519),
the STAC library's printed aligned-ranks statistic (3.7025), scikit-posthocs'
posthoc_quade (both versions) and test_durbin, scipy's friedmanchisquare, and
brute-force enumeration of within-data-set permutations.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.manydatasets._omnibus import (
    aligned_ranks_test,
    posthoc_aligned_ranks,
    posthoc_quade,
    quade_test,
    skillings_mack_test,
)
from evallib.manydatasets._posthoc import posthoc_friedman

#: Conover (1999, p. 375), R's ?quade.test: seven stores (rows) x five brands.
SALES = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35], [5, 4, 3, 5, 4],
         [10, 9, 7, 13, 10], [19, 18, 28, 37, 58], [10, 7, 6, 8, 7]]
#: STAC's unit-test table (three algorithms, six data sets).
STAC = [[3, 4, 4], [4, 3, 3], [5, 2, 5], [6, 1, 6], [1, 2, 3], [5, 6, 7]]
#: Skillings & Mack (1981), Table 1, as in R's Skillings.Mack example: 9 blocks x 4 methods.
SM_TABLE = np.array([
    [3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8], [3.5, 3.6, 3.9, 4.0],
    [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, np.nan], [np.nan, 4.2, 3.4, np.nan],
    [4.3, 4.6, 4.4, 4.9], [3.5, np.nan, 3.7, 3.9]])


def _random_table(seed, n=12, k=5, shift=0.03):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.9, (n, 1))
    return pd.DataFrame(base + rng.normal(0, 0.03, (n, k)) + np.linspace(0, shift * (k - 1), k),
                        columns=[f"L{j}" for j in range(k)])


# --------------------------------------------------------------------- Quade
def test_quade_reproduces_conover_and_r():
    res = quade_test(SALES)
    assert round(res.statistic, 4) == 3.8293          # R: Quade F = 3.8293
    assert res.df == (4, 24)                           # num df = 4, denom df = 24
    assert round(res.pvalue, 5) == 0.01519             # p-value = 0.01519
    assert quade_test(SALES, higher_is_better=False).statistic == pytest.approx(res.statistic)


def test_quade_stac_printed_value():
    # STAC's test prints F = 2.31374172185, p = 0.1493 for its table
    res = quade_test(STAC)
    assert res.statistic == pytest.approx(2.31374172185, abs=1e-9)
    assert round(res.pvalue, 4) == 0.1493


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_quade_t_posthoc_matches_scikit_posthocs(seed):
    # scikit-posthocs' dist="normal" puts n k where García et al. and scmamp have n, so
    # only Conover's t version is compared with it
    sp = pytest.importorskip("scikit_posthocs")
    table = _random_table(seed)
    ours = posthoc_quade(table, adjust="bonferroni", distribution="t", higher_is_better=False)
    ref = sp.posthoc_quade(table.to_numpy(), dist="t")
    names = list(table.columns)
    for r in ours.itertuples():
        assert r.pvalue == pytest.approx(ref.iloc[names.index(r.a), names.index(r.b)], rel=1e-9)


def test_quade_normal_posthoc_formula_and_t_statistic():
    table = _random_table(3)
    res = quade_test(table)
    n, k = res.n, res.k
    ph = posthoc_quade(table, adjust="holm", control="L4")
    se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18 * n * (n + 1)))
    for r in ph.itertuples():
        z = (res.avg_ranks[r.b] - res.avg_ranks[r.a]) / se
        assert r.z == pytest.approx(z) and r.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)))
    # Conover's t from the S_j directly
    s = (res.weights.to_numpy()[:, None] * (res.ranks.to_numpy() - (k + 1) / 2)).sum(axis=0)
    t_ph = posthoc_quade(table, adjust="holm", distribution="t")
    denom = math.sqrt(2 * n * (res.a - res.b) / ((n - 1) * (k - 1)))
    col = {c: j for j, c in enumerate(table.columns)}
    for r in t_ph.itertuples():
        assert abs(r.z) == pytest.approx(abs(s[col[r.a]] - s[col[r.b]]) / denom)


def test_quade_degenerate_tables():
    same = quade_test(np.tile([[0.7, 0.8, 0.9]], (5, 1)) + np.arange(5)[:, None] * 0.01)
    assert same.statistic == math.inf and same.pvalue == 0.0
    flat = quade_test(np.full((4, 3), 0.5))
    assert flat.statistic == 0.0 and flat.pvalue == 1.0
    ph = posthoc_quade(np.tile([[0.7, 0.8, 0.9]], (5, 1)), distribution="t")
    assert (ph["pvalue"] == 0.0).all() and np.isinf(ph["z"]).all()


def test_quade_untied_option_is_scmamps_a():
    table = np.array(SALES, dtype=float)
    n, k = table.shape
    res = quade_test(table, tie_correction=False)
    a2 = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72
    assert res.statistic == pytest.approx((n - 1) * res.b / (a2 - res.b))


# -------------------------------------------------------------- aligned ranks
def test_aligned_ranks_stac_printed_value_and_tie_correction():
    res = aligned_ranks_test(STAC, tie_correction=False)
    assert res.statistic == pytest.approx(3.702455111762549, abs=1e-9)   # STAC
    assert round(res.pvalue, 4) == 0.1570
    # STAC's average aligned ranks (ascending ranks; its dict order differs): 9.3333, 13.0, 6.1667
    low = aligned_ranks_test(STAC, higher_is_better=False, tie_correction=False)
    assert sorted(low.avg_ranks.round(4)) == [6.1667, 9.3333, 13.0]


@pytest.mark.parametrize("seed", [0, 1])
def test_aligned_ranks_statistic_from_its_definition(seed):
    table = _random_table(seed, n=8, k=4)
    x = table.to_numpy()
    aligned = x - x.mean(axis=1, keepdims=True)
    r = stats.rankdata(-aligned.ravel()).reshape(x.shape)
    n, k = x.shape
    num = (k - 1) * ((r.sum(0) ** 2).sum() - k * n ** 2 / 4 * (k * n + 1) ** 2)
    den = k * n * (k * n + 1) * (2 * k * n + 1) / 6 - (r.sum(1) ** 2).sum() / k
    res = aligned_ranks_test(table)
    assert res.statistic == pytest.approx(num / den, rel=1e-12)       # no ties: both forms agree
    assert res.pvalue == pytest.approx(stats.chi2.sf(num / den, k - 1))


def test_aligned_ranks_permutation_mean_is_k_minus_1_by_enumeration():
    # Permuting scores within each data set permutes the aligned scores; the tie-corrected
    # statistic has permutation mean exactly k - 1 (its denominator is that expectation).
    table = np.array([[0.71, 0.74, 0.80], [0.62, 0.60, 0.69], [0.90, 0.93, 0.91]])
    k = table.shape[1]
    stats_all = []
    for perms in itertools.product(itertools.permutations(range(k)), repeat=table.shape[0]):
        permuted = np.array([row[list(p)] for row, p in zip(table, perms)])
        stats_all.append(aligned_ranks_test(permuted).statistic)
    assert np.mean(stats_all) == pytest.approx(k - 1, rel=1e-12)


def test_aligned_posthoc_z_uses_scmamps_standard_error():
    table = _random_table(4)
    res = aligned_ranks_test(table)
    ph = posthoc_aligned_ranks(table, adjust="finner", control="L0")
    se = math.sqrt(res.k * (res.k * res.n + 1) / 6)
    for r in ph.itertuples():
        assert r.z == pytest.approx((res.avg_ranks[r.b] - res.avg_ranks[r.a]) / se)
    from statsmodels.stats.multitest import multipletests

    holm = posthoc_aligned_ranks(table, adjust="holm")
    np.testing.assert_allclose(holm["pvalue_adj"], multipletests(holm["pvalue"], method="holm")[1])
    assert holm.attrs["test"] == "aligned ranks"


def test_aligned_ranks_degenerate_table():
    res = aligned_ranks_test(np.tile([[0.5, 0.5, 0.5]], (4, 1)))
    assert res.statistic == 0.0 and res.pvalue == 1.0 and not res.reject


# ------------------------------------------------------------ Skillings–Mack
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_skillings_mack_equals_friedman_on_complete_tables(seed):
    table = _random_table(seed, n=9, k=4)
    res = skillings_mack_test(table)
    ref = stats.friedmanchisquare(*table.to_numpy().T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8) and res.df == 3


def test_skillings_mack_equals_durbin_on_a_balanced_incomplete_design():
    sp = pytest.importorskip("scikit_posthocs")
    # BIBD: 4 treatments in 4 blocks of 3 (each pair together twice)
    rng = np.random.default_rng(5)
    table = rng.normal(size=(4, 4)) + np.arange(4) * 0.8
    for i in range(4):
        table[i, i] = np.nan
    res = skillings_mack_test(table)
    long = pd.DataFrame([(table[i, j], j, i) for i in range(4) for j in range(4) if not np.isnan(table[i, j])],
                        columns=["y", "g", "b"])
    p, stat, df = sp.test_durbin(long, y_col="y", group_col="g", block_col="b", block_id_col="b",
                                 melted=True)
    assert res.statistic == pytest.approx(stat, rel=1e-10) and res.df == df == 3


def test_skillings_mack_1981_example_by_the_papers_recipe():
    res = skillings_mack_test(SM_TABLE, higher_is_better=False)
    # the recipe spelled out: ranks with missing cells at the mean rank, weights sqrt(12/(s+1))
    a = np.zeros(4)
    lam = np.zeros((4, 4))
    for row in SM_TABLE:
        obs = ~np.isnan(row)
        s = obs.sum()
        r = np.full(4, (s + 1) / 2)
        r[obs] = stats.rankdata(row[obs])
        a += math.sqrt(12 / (s + 1)) * (r - (s + 1) / 2)
        lam += np.outer(obs, obs)
    np.fill_diagonal(lam, 0)
    sigma = np.diag(lam.sum(1)) - lam
    expected = a @ np.linalg.pinv(sigma) @ a
    assert res.statistic == pytest.approx(expected, rel=1e-10)
    assert res.df == 3 and res.n == 9 and res.n_missing == 4
    np.testing.assert_allclose(res.adjusted_sums.to_numpy(), a)


def test_skillings_mack_permutation_pvalue_against_enumeration():
    table = np.array([[0.1, 0.5, np.nan], [0.2, 0.4, 0.9], [0.3, np.nan, 0.8], [0.15, 0.6, 0.7]])
    obs = skillings_mack_test(table).statistic
    rows = []
    for row in table:
        idx = np.flatnonzero(~np.isnan(row))
        rows.append([(idx, p) for p in itertools.permutations(row[idx])])
    hits = total = 0
    for combo in itertools.product(*rows):
        t = np.full(table.shape, np.nan)
        for i, (idx, vals) in enumerate(combo):
            t[i, idx] = vals
        total += 1
        hits += skillings_mack_test(t).statistic >= obs - 1e-9
    exact = hits / total
    mc = skillings_mack_test(table, method="permutation", n_resamples=20_000, rng=0)
    assert mc.pvalue == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 20_000) + 1e-4)


def test_skillings_mack_degenerate_rows_are_dropped_and_ties_give_zero():
    table = np.array([[0.1, np.nan, np.nan], [0.2, 0.4, 0.9], [0.3, 0.5, 0.8], [0.15, 0.6, 0.7]])
    res = skillings_mack_test(table)
    assert res.n == 3 and res.n_dropped == 1
    assert res.statistic == pytest.approx(skillings_mack_test(table[1:]).statistic)
    flat = skillings_mack_test(np.full((3, 3), 0.4))
    assert flat.statistic == 0.0 and flat.pvalue == 1.0


# -------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: quade_test(np.ones((1, 3))), ValueError, "at least 2 data sets"),
        (lambda: quade_test([[0.1, np.nan], [0.2, 0.3]]), ValueError, "NaN"),
        (lambda: quade_test(SALES, higher_is_better="yes"), TypeError, "higher_is_better"),
        (lambda: quade_test(SALES, tie_correction=1), TypeError, "tie_correction"),
        (lambda: aligned_ranks_test(SALES, alpha=1.5), ValueError, "alpha"),
        (lambda: aligned_ranks_test(np.ones((4, 1))), ValueError, "at least 2 algorithms"),
        (lambda: posthoc_quade(SALES, distribution="exact"), ValueError, "distribution"),
        (lambda: posthoc_quade(SALES, adjust="nemenyi", distribution="t"), ValueError, "distribution"),
        (lambda: posthoc_quade(SALES, adjust="li"), ValueError, "adjust"),
        (lambda: posthoc_aligned_ranks(SALES, control="zz"), ValueError, "control"),
        (lambda: skillings_mack_test([[1.0, np.nan], [np.nan, 2.0]]), ValueError, "at least 2 data sets"),
        (lambda: skillings_mack_test([[1.0, np.inf], [1.0, 2.0]]), ValueError, "infinite"),
        (lambda: skillings_mack_test(SM_TABLE, method="exact"), ValueError, "method"),
        (lambda: skillings_mack_test(SM_TABLE, n_resamples=0), ValueError, "n_resamples"),
        (lambda: skillings_mack_test(np.ones(4)), ValueError, "two-dimensional"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_tables_share_posthoc_friedmans_shape():
    table = _random_table(6)
    cols = list(posthoc_friedman(table).columns)
    assert list(posthoc_quade(table).columns) == cols == list(posthoc_aligned_ranks(table).columns)
    for method in ("rom", "holland", "bh"):
        assert len(posthoc_quade(table, adjust=method, control="L4")) == 4
