"""Post-hoc tests after Friedman (issue 17): evallib.manydatasets._posthoc.

References: scikit-posthocs (Nemenyi, Siegel–Friedman z-tests), statsmodels'
multipletests (Bonferroni, Holm, Hochberg), Demšar (2006)'s printed worked example,
brute-force enumeration of exhaustive sets (Shaffer, Bergmann–Hommel) and the
procedures' step-wise decision rules (Finner, Li) at many levels.
"""

from __future__ import annotations

import gc
import itertools
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from evallib.manydatasets._posthoc import (  # noqa: E402
    adjust_pvalues,
    exhaustive_sets,
    posthoc_cliques,
    posthoc_friedman,
    posthoc_summary,
    shaffer_counts,
)
from evallib.manydatasets._posthoc import plot_cd_diagram  # noqa: E402
from evallib.manydatasets._ranktests import cd_cliques, critical_difference, friedman  # noqa: E402
from evallib.studies import demsar_table_6  # noqa: E402

ALPHAS = np.linspace(0.001, 0.3, 120)


@pytest.fixture(autouse=True)
def _no_full_collection_in_statsmodels_holm(monkeypatch):
    """statsmodels' Holm branch of ``multipletests`` ends in ``gc.collect()``, which costs
    0.1-0.2 s per call in a test process holding the whole suite; a collection changes no
    result, so the calls here run without it (the comparison is unchanged)."""
    monkeypatch.setattr(gc, "collect", lambda generation=2: 0)


def _scores(seed, n=12, k=5, spread=0.04):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.9, (n, 1))
    return pd.DataFrame(base + rng.normal(0, 0.03, (n, k)) + np.linspace(0, spread * (k - 1), k),
                        columns=[f"L{j}" for j in range(k)])


# ----------------------------------------------------------------- references
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nemenyi_matches_scikit_posthocs(seed):
    sp = pytest.importorskip("scikit_posthocs")
    scores = _scores(seed)
    ours = posthoc_friedman(scores, adjust="nemenyi")
    ref = sp.posthoc_nemenyi_friedman(scores.to_numpy())
    names = list(scores.columns)
    for r in ours.itertuples():
        assert r.pvalue_adj == pytest.approx(ref.iloc[names.index(r.a), names.index(r.b)], abs=1e-6)


def test_unadjusted_z_matches_scikit_posthocs_siegel():
    sp = pytest.importorskip("scikit_posthocs")
    scores = _scores(4)
    ours = posthoc_friedman(scores, adjust="bonferroni")
    ref = sp.posthoc_siegel_friedman(scores.to_numpy(), p_adjust=None)
    names = list(scores.columns)
    for r in ours.itertuples():
        assert r.pvalue == pytest.approx(ref.iloc[names.index(r.a), names.index(r.b)], rel=1e-9)


@pytest.mark.parametrize("method,sm", [("bonferroni", "bonferroni"), ("holm", "holm")])
def test_all_pairs_holm_bonferroni_match_statsmodels(method, sm):
    from statsmodels.stats.multitest import multipletests

    res = posthoc_friedman(_scores(5), adjust=method)
    ref = multipletests(res["pvalue"], method=sm)[1]
    np.testing.assert_allclose(res["pvalue_adj"], ref, rtol=1e-12)


@pytest.mark.parametrize("method,sm", [("bonferroni-dunn", "bonferroni"), ("holm", "holm"),
                                       ("hochberg", "simes-hochberg")])
def test_control_procedures_match_statsmodels(method, sm):
    from statsmodels.stats.multitest import multipletests

    for seed in range(5):
        res = posthoc_friedman(_scores(seed, k=6), adjust=method, control="L0")
        assert len(res) == 5 and set(res["a"]) == {"L0"}
        ref = multipletests(res["pvalue"], method=sm)[1]
        np.testing.assert_allclose(res["pvalue_adj"], ref, rtol=1e-12)


def test_demsar_worked_example_with_control():
    ranks = demsar_table_6(ranks=True)
    res = posthoc_friedman(ranks, adjust="holm", control="C4.5", higher_is_better=False)
    # Demšar prints z = 2.416, 2.342, 0.512 from ranks rounded to 3 decimals
    se = 0.488
    printed_ranks = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    for r in res.itertuples():
        z_printed = (printed_ranks["C4.5"] - printed_ranks[r.b]) / se
        assert -r.z == pytest.approx(z_printed, abs=2e-3)
    assert list(res["b"]) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    assert res["pvalue"].round(2).tolist() == [0.02, 0.02, 0.61]  # printed 0.016, 0.019, 0.607
    assert res["reject"].tolist() == [True, True, False]          # Holm: first two
    hoch = posthoc_friedman(ranks, adjust="hochberg", control="C4.5", higher_is_better=False)
    assert hoch["reject"].tolist() == [True, True, False]         # Hochberg: the same
    bd = posthoc_friedman(ranks, adjust="bonferroni-dunn", control="C4.5", higher_is_better=False)
    assert bd["reject"].tolist() == [True, False, False]          # only C4.5+m+cf (1.179 > CD 1.16)
    nem = posthoc_friedman(ranks, adjust="nemenyi", higher_is_better=False)
    assert not nem["reject"].any()                                # "not powerful enough"
    nem10 = posthoc_friedman(ranks, adjust="nemenyi", alpha=0.10, higher_is_better=False)
    rejected = {frozenset((r.a, r.b)) for r in nem10.itertuples() if r.reject}
    assert rejected == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}


# ------------------------------------------------- step-wise rules at many levels
def _stepdown_reject(p, thresholds):
    order = np.argsort(p, kind="stable")
    rej = np.zeros(p.size, bool)
    for i, idx in enumerate(order):
        if p[idx] <= thresholds[i]:
            rej[idx] = True
        else:
            break
    return rej


@pytest.mark.parametrize("seed", range(6))
def test_finner_and_li_apvs_agree_with_their_rules(seed):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 0.05, 3), rng.uniform(0, 1, 4)])
    m = p.size
    fin = adjust_pvalues(p, "finner")
    li = adjust_pvalues(p, "li")
    for a in ALPHAS:
        # Finner: step-down against 1 - (1 - alpha)^(i/m)
        thr = 1 - (1 - a) ** (np.arange(1, m + 1) / m)
        np.testing.assert_array_equal(fin <= a, _stepdown_reject(p, thr))
        # Li: reject all if the largest p <= alpha, else p_i <= (1 - p_max) / (1 - alpha) * alpha
        pmax = p.max()
        rule = np.ones(m, bool) if pmax <= a else p <= (1 - pmax) / (1 - a) * a
        np.testing.assert_array_equal(li <= a + 1e-15, rule)


def _brute_exhaustive(k):
    """Sets of pair indices closed under transitivity, by enumerating all subsets."""
    pairs = list(itertools.combinations(range(k), 2))
    out = set()
    for mask in range(1, 2 ** len(pairs)):
        chosen = {pairs[i] for i in range(len(pairs)) if mask >> i & 1}
        closed = all(
            ((min(a, c), max(a, c)) in chosen)
            for (a, b) in chosen for (b2, c) in chosen if b == b2 and a != c
        ) and all(
            ((min(a, c), max(a, c)) in chosen)
            for (a, b) in chosen for (c, b2) in chosen if b == b2 and a != c
        ) and all(
            ((min(b, c), max(b, c)) in chosen)
            for (a, b) in chosen for (a2, c) in chosen if a == a2 and b != c
        )
        if closed:
            out.add(tuple(sorted(pairs.index(p) for p in chosen)))
    return out


@pytest.mark.parametrize("k", [3, 4, 5])
def test_exhaustive_sets_and_shaffer_counts_by_brute_force(k):
    brute = _brute_exhaustive(k)
    assert set(exhaustive_sets(k)) == brute
    m = k * (k - 1) // 2
    sizes = {len(s) for s in brute} | {0}
    t = [max(s for s in sizes if s <= m - i + 1) for i in range(1, m + 1)]
    assert shaffer_counts(k).tolist() == t


@pytest.mark.parametrize("k", [4, 5])
def test_bergmann_hommel_apv_agrees_with_its_definition(k):
    """Reject H_i iff i lies in no exhaustive I with min_{j in I} p_j > alpha/|I|."""
    brute = _brute_exhaustive(k)
    rng = np.random.default_rng(k)
    m = k * (k - 1) // 2
    for _ in range(5):
        p = np.sort(rng.uniform(0, 0.2, m) ** 1.5)[rng.permutation(m)]
        apv = adjust_pvalues(p, "bergmann", k=k)
        shaffer = adjust_pvalues(p, "shaffer", k=k)
        holm = adjust_pvalues(p, "holm")
        assert np.all(apv <= shaffer + 1e-15) and np.all(shaffer <= holm + 1e-15)
        for a in ALPHAS[::4]:
            accepted = set()
            for s in brute:
                if p[list(s)].min() > a / len(s):
                    accepted |= set(s)
            expected = np.array([i not in accepted for i in range(m)])
            np.testing.assert_array_equal(apv <= a, expected)
        # Shaffer's static rule: step down against alpha / t_i
        t = shaffer_counts(k)
        for a in ALPHAS[::4]:
            np.testing.assert_array_equal(shaffer <= a, _stepdown_reject(p, a / t))


# ---------------------------------------------------------------- the table
def test_table_columns_and_orientation():
    scores = _scores(7)
    res = posthoc_friedman(scores, adjust="shaffer")
    assert list(res.columns) == ["a", "b", "rank_a", "rank_b", "z", "pvalue", "pvalue_adj", "reject"]
    assert len(res) == 10 and (res["rank_a"] <= res["rank_b"]).all() and (res["z"] >= 0).all()
    assert res["pvalue"].is_monotonic_increasing
    se = math.sqrt(5 * 6 / (6 * 12))
    avg = friedman(scores).avg_ranks
    r = res.iloc[0]
    assert r.z == pytest.approx((avg[r.b] - avg[r.a]) / se)
    assert r.pvalue == pytest.approx(2 * stats.norm.sf(r.z))
    assert res.attrs["adjust"] == "shaffer" and res.attrs["k"] == 5


def test_nemenyi_cliques_equal_cd_cliques_and_plot_accepts_posthoc():
    for seed in range(4):
        scores = _scores(seed, n=20, k=6, spread=0.01)
        fr = friedman(scores)
        res = posthoc_friedman(scores, adjust="nemenyi")
        cd = critical_difference(6, 20)
        assert posthoc_cliques(fr.avg_ranks, res) == cd_cliques(fr.avg_ranks, cd)
    scores = _scores(1, n=20, k=6, spread=0.01)
    fr = friedman(scores)
    res = posthoc_friedman(scores, adjust="bergmann")
    # a p-value matrix gives the same groups as the table
    names = list(scores.columns)
    mat = pd.DataFrame(np.nan, index=names, columns=names)
    for r in res.itertuples():
        mat.loc[r.a, r.b] = mat.loc[r.b, r.a] = r.pvalue_adj
    assert posthoc_cliques(fr.avg_ranks, mat) == posthoc_cliques(fr.avg_ranks, res)
    ax = plot_cd_diagram(fr.avg_ranks, posthoc=res)
    assert "bergmann" in ax.get_title()
    plt.close("all")
    ctrl = posthoc_friedman(scores, adjust="holm", control="L0")
    groups = posthoc_cliques(fr.avg_ranks, ctrl)
    assert all("L0" in g for g in groups)
    ax = plot_cd_diagram(fr.avg_ranks, posthoc=ctrl)
    plt.close("all")


def test_summary_counts_rejections_per_method():
    scores = _scores(3, n=30, k=5)
    summary = posthoc_summary(scores)
    assert list(summary["method"]) == ["nemenyi", "bonferroni", "holm", "shaffer", "bergmann"]
    rej = dict(zip(summary["method"], summary["rejected"]))
    assert rej["bonferroni"] <= rej["holm"] <= rej["shaffer"] <= rej["bergmann"]
    ctrl = posthoc_summary(scores, control="L0")
    r = dict(zip(ctrl["method"], ctrl["rejected"]))
    assert r["bonferroni-dunn"] <= r["holm"] <= r["hochberg"]


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: posthoc_friedman(np.ones((1, 3))), ValueError, "at least 2 data sets"),
        (lambda: posthoc_friedman(np.ones((5, 1))), ValueError, "at least 2 algorithms"),
        (lambda: posthoc_friedman([[0.1, np.nan], [0.2, 0.3]]), ValueError, "NaN"),
        (lambda: posthoc_friedman(np.eye(3), adjust="tukey"), ValueError, "adjust"),
        (lambda: posthoc_friedman(np.eye(3), adjust="shaffer", control="algorithm 1"), ValueError, "adjust"),
        (lambda: posthoc_friedman(np.eye(3), adjust="li"), ValueError, "adjust"),
        (lambda: posthoc_friedman(np.eye(3), adjust="holm", control="zz"), ValueError, "control"),
        (lambda: posthoc_friedman(np.eye(3), alpha=0), ValueError, "alpha"),
        (lambda: posthoc_friedman(np.eye(3), adjust=3), TypeError, "adjust"),
        (lambda: adjust_pvalues([0.1, 1.2], "holm"), ValueError, "pvalues"),
        (lambda: adjust_pvalues([0.1, 0.2, 0.3], "bergmann"), ValueError, "k"),
        (lambda: exhaustive_sets(11), ValueError, "k"),
        (lambda: posthoc_cliques({"a": 1.0, "b": 2.0}, "x"), TypeError, "posthoc"),
    ],
)
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_plot_posthoc_draws_the_groups_of_the_procedure():
    from evallib.manydatasets._posthoc import plot_posthoc

    ranks = demsar_table_6(ranks=True)
    ax = plot_posthoc(ranks, adjust="nemenyi", alpha=0.10, higher_is_better=False)
    assert "nemenyi" in ax.get_title() and any("CD = " in t.get_text() for t in ax.texts)
    # Demšar at 0.10: C4.5 differs from C4.5+m and C4.5+m+cf; C4.5+cf joins both groups
    fr = friedman(ranks, higher_is_better=False)
    groups = posthoc_cliques(fr.avg_ranks, posthoc_friedman(ranks, adjust="nemenyi", alpha=0.10,
                                                            higher_is_better=False))
    assert groups == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    fig, ax2 = plt.subplots()
    assert plot_posthoc(ranks, adjust="holm", control="C4.5", higher_is_better=False, ax=ax2) is ax2
    plt.close("all")


def test_adjusted_pvalues_edge_cases():
    assert adjust_pvalues([0.0, 1.0], "li").tolist() == [0.0, 1.0]
    assert adjust_pvalues([0.03], "holm").tolist() == [0.03]
    np.testing.assert_allclose(adjust_pvalues([0.01, 0.04, 0.03], "bonferroni"), [0.03, 0.12, 0.09])
    # García & Herrera's S(4) = {0, 1, 2, 3, 6}
    assert shaffer_counts(4).tolist() == [6, 3, 3, 3, 2, 1]
    assert len(exhaustive_sets(4)) == 14  # Bell(4) = 15 partitions, minus "all different"


def test_mean_rank_dependence_against_direct_formula():
    from evallib.manydatasets._posthoc import mean_rank_dependence

    scores = _scores(11, n=15, k=4)
    out = mean_rank_dependence(scores, alpha=0.05)
    assert len(out) == 6 and (out["studies"] == 3).all()   # 2 others: {c}, {d}, {c, d}
    names = list(scores.columns)
    a, b = "L0", "L3"
    ps = []
    for extra in (["L1"], ["L2"], ["L1", "L2"]):
        cols = [a, b, *extra]
        r = stats.rankdata(-scores[cols].to_numpy(), axis=1).mean(axis=0)
        k, n = len(cols), len(scores)
        z = (r[0] - r[1]) / math.sqrt(k * (k + 1) / (6 * n))
        ps.append(2 * stats.norm.sf(abs(z)))
    row = out[(out["a"] == a) & (out["b"] == b)].iloc[0]
    assert (row.p_min, row.p_max) == pytest.approx((min(ps), max(ps)), rel=1e-12)
    assert row.wilcoxon_p == pytest.approx(stats.wilcoxon(scores[a] - scores[b]).pvalue, rel=1e-10)
    assert row.verdict_depends == (min(ps) <= 0.05 < max(ps))
    assert names == list(scores.columns)
    with pytest.raises(ValueError, match="at least 3 algorithms"):
        mean_rank_dependence(scores[["L0", "L1"]])


def test_describe_posthoc_summary_names_who_rejects_most_on_demsars_ranks():
    from evallib.manydatasets._posthoc import describe_posthoc_summary

    ranks = demsar_table_6(ranks=True)
    n, k = ranks.shape
    avg = ranks.mean()
    z = (avg.max() - avg.min()) / math.sqrt(k * (k + 1) / (6 * n))
    # independent references for the pair C4.5 vs C4.5+m+cf: Nemenyi's studentized range
    # (scipy) and the Bonferroni/Holm first step 6 p (all three step-down procedures start there)
    nemenyi_p = stats.studentized_range.sf(math.sqrt(2) * z, k, np.inf)
    holm_p = 6 * 2 * stats.norm.sf(z)
    level = 0.08
    assert nemenyi_p < level < holm_p  # at 0.08 only Nemenyi rejects this pair (0.074 against 0.094)
    text = describe_posthoc_summary(posthoc_summary(ranks, alpha=level, higher_is_better=False),
                                    alpha=level, label="All pairs")
    assert text == ("All pairs: at alpha = 0.08 the procedures declare between 0 and 1 of 6 comparisons "
                    "different; most: nemenyi; fewest: bonferroni, holm, shaffer, bergmann.")
    same = describe_posthoc_summary(posthoc_summary(ranks, alpha=0.05, higher_is_better=False), alpha=0.05)
    assert same == "At alpha = 0.05 no procedure declares any of the 6 comparisons different."
    all_same = pd.DataFrame({"method": ["x", "y"], "comparisons": [3, 3], "rejected": [2, 2]})
    assert describe_posthoc_summary(all_same, alpha=0.1) == (
        "At alpha = 0.1 every procedure declares the same 2 of 3 comparisons different.")
    by_hand = pd.DataFrame({"method": ["x", "y", "z"], "comparisons": [3, 3, 3], "rejected": [1, 3, 3]})
    assert describe_posthoc_summary(by_hand, alpha=0.1, label="L").endswith(
        "between 1 and 3 of 3 comparisons different; most: y, z; fewest: x.")
    with pytest.raises(TypeError, match="summary"):
        describe_posthoc_summary(by_hand[["method"]], alpha=0.1)
    with pytest.raises(ValueError, match="alpha"):
        describe_posthoc_summary(by_hand, alpha=1.5)


def test_posthoc_view_draws_and_tables_the_chosen_procedure():
    from evallib.manydatasets._posthoc import CONTROL_ONLY_METHODS, posthoc_view

    assert CONTROL_ONLY_METHODS == ("bonferroni-dunn", "hochberg", "finner", "li", "holland", "rom")
    ranks = demsar_table_6(ranks=True)
    fig, ax = plt.subplots()
    li = posthoc_view(ranks, adjust="li", alpha=0.05, control="C4.5", higher_is_better=False, ax=ax)
    assert "li" in ax.get_title() and "C4.5" in ax.get_title()
    # Li's adjusted p-values (García & Herrera 2008): p_i / (p_i + 1 - p_max), p_max the largest
    p = li["pvalue"].to_numpy()
    raw = 2 * stats.norm.sf(np.abs(li["z"].to_numpy()))
    np.testing.assert_allclose(li["pvalue_adj"].iloc[:2], (raw / (raw + 1 - raw.max()))[:2], atol=1e-4)
    assert list(li.columns) == ["a", "b", "z", "pvalue", "pvalue_adj", "reject"]
    assert li["reject"].tolist() == [True, True, False] and np.allclose(p, p.round(4))
    # an all-pairs procedure compares all 6 pairs whatever the control
    holm = posthoc_view(ranks, adjust="holm", control="C4.5", higher_is_better=False, ax=ax)
    assert len(holm) == 6 and math.isclose(holm["pvalue_adj"].iloc[0], round(min(1, 6 * raw.min()), 4))
    with pytest.raises(ValueError, match="control"):
        posthoc_view(ranks, adjust="finner", higher_is_better=False, ax=ax)
    with pytest.raises(ValueError, match="adjust"):
        posthoc_view(ranks, adjust="tukey", ax=ax)
    plt.close("all")
