"""Tests of evallib.onetestset._nullbest (Forman & Cohen 2005, best-of-C critical values).

Reference values come from sources independent of the module's algorithms:
brute-force enumeration of every ordering, exact integer arithmetic (Gaussian binomial
coefficients, lattice-path counts with Python ints and fractions), scipy's hypergeometric
and Mann–Whitney code, seeded Monte Carlo with a stated tolerance, and the numbers
printed in the paper.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import evallib
from evallib.onetestset import _nullbest as nb
from evallib.onetestset._nullbest import (
    METRICS,
    best_of_pvalue,
    critical_value,
    critical_value_table,
    mc_repetitions,
    null_cdf,
    simulate_null,
    simulate_scores,
    tail_probability,
)
from conftest import ROOT

CSV = ROOT / "data" / "critical_values.csv"


# --------------------------------------------------------------------------- brute force
def _scores_of_ranking(labels: np.ndarray, k: int) -> dict[str, Fraction]:
    """Every metric straight from its definition, on one ranking (best first)."""
    P = int(labels.sum())
    N = labels.size - P
    T = labels.size
    best_acc = Fraction(0)
    best_f = Fraction(0)
    for t in range(T + 1):  # threshold after the first t cases
        tp = int(labels[:t].sum())
        fp = t - tp
        fn = P - tp
        tn = N - fp
        best_acc = max(best_acc, Fraction(tp + tn, T))
        if tp:
            best_f = max(best_f, Fraction(2 * tp, 2 * tp + fp + fn))
    pairs = sum(1 for a in range(T) for b in range(a + 1, T) if labels[a] == 1 and labels[b] == 0)
    return {
        "auc": Fraction(pairs, P * N),
        "accuracy": best_acc,
        "f1": best_f,
        "tp": Fraction(int(labels[:k].sum())),
    }


def _enumerate(P: int, N: int, k: int) -> dict[str, list[Fraction]]:
    out = {m: [] for m in METRICS}
    for pos in combinations(range(P + N), P):
        labels = np.zeros(P + N, dtype=int)
        labels[list(pos)] = 1
        for m, v in _scores_of_ranking(labels, k).items():
            out[m].append(v)
    return out


@pytest.mark.parametrize("P,N", [(1, 1), (1, 4), (4, 1), (2, 3), (3, 4), (5, 5), (4, 7), (7, 3)])
def test_null_cdf_matches_enumeration_of_all_orderings(P, N):
    k = min(3, P + N)
    scores = _enumerate(P, N, k)
    total = math.comb(P + N, P)
    for metric in METRICS:
        law = null_cdf(metric, P, N, k=k, max_points=10**6)
        observed = sorted(set(scores[metric]))
        assert law.complete
        np.testing.assert_allclose(law.values, [float(v) for v in observed], rtol=0, atol=1e-12,
                                   err_msg=f"{metric}: attainable values")
        counts = np.array([sum(1 for s in scores[metric] if s <= v) for v in observed])
        np.testing.assert_allclose(law.cdf, counts / total, rtol=1e-12, atol=1e-15, err_msg=metric)
        np.testing.assert_allclose(law.sf, 1 - counts / total, rtol=1e-12, atol=1e-15, err_msg=metric)


def test_auc_scoring_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    for _ in range(20):
        labels = rng.permutation(np.r_[np.ones(4, int), np.zeros(6, int)])
        mine = _scores_of_ranking(labels, 3)["auc"]
        ref = roc_auc_score(labels, -np.arange(labels.size))  # earlier = higher score
        assert float(mine) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("P,N,C", [(3, 4, 1), (4, 4, 3), (2, 6, 10)])
def test_best_of_pvalue_matches_enumeration(P, N, C):
    scores = _enumerate(P, N, 3)
    total = math.comb(P + N, P)
    for metric in METRICS:
        for s in sorted(set(scores[metric])):
            below = Fraction(sum(1 for x in scores[metric] if x < s), total)
            expected = 1 - below**C
            got = best_of_pvalue(metric, float(s), P, N, C=C, k=3)
            assert got == pytest.approx(float(expected), rel=1e-10, abs=1e-15), (metric, s)


# --------------------------------------------------------------------------- exact integers
def _gaussian_binomial(m: int, n: int) -> np.ndarray:
    """Coefficients of [m+n choose m]_q as Python ints (exact)."""
    L = m * n + 1
    c = np.zeros(L, dtype=object)
    c[0] = 1
    for i in range(1, m + 1):
        s = n + i
        if s < L:
            c[s:] = c[s:] - c[:-s]
        for r in range(i):  # divide by (1 - q^i): running sums with stride i
            c[r::i] = np.cumsum(c[r::i])
    return c


@pytest.mark.parametrize("m,n,method", [(40, 60, "product"), (100, 100, "product"), (120, 130, "product"),
                                        (100, 100, "charfn"), (121, 160, "charfn")])
def test_mann_whitney_law_matches_exact_integers(m, n, method):
    exact = _gaussian_binomial(m, n)
    total = math.comb(m + n, m)
    cum = np.cumsum(exact)
    half = m * n // 2
    ref = np.array([Fraction(int(x), total) for x in cum[: half + 1]], dtype=object)
    pmf = nb._mw_pmf_product(m, n) if method == "product" else nb._mw_pmf_charfn(m, n)
    got = np.cumsum(pmf)[: half + 1]
    ref_f = ref.astype(float)
    if method == "product":
        # relative accuracy everywhere, down to the far lower tail
        mask = ref_f > 1e-280
        assert np.max(np.abs(got[mask] / ref_f[mask] - 1)) < 1e-10
    else:
        # absolute accuracy ~1e-15: relative 1e-6 at tails >= 1e-8, 1e-9 at >= 1e-5
        for floor, rel in [(1e-8, 1e-6), (1e-5, 1e-9)]:
            mask = ref_f > floor
            assert np.max(np.abs(got[mask] / ref_f[mask] - 1)) < rel
        assert np.max(np.abs(got - ref_f)) < 1e-14


def test_mann_whitney_methods_agree_where_they_meet():
    for m, n in [(100, 300), (120, 1000)]:
        a = np.cumsum(nb._mw_pmf_product(m, n))
        b = np.cumsum(nb._mw_pmf_charfn(m, n))
        mask = a > 1e-7
        assert np.max(np.abs(a[mask] / b[mask] - 1)) < 1e-7
        assert abs(b[-1] - 1) < 1e-12


def test_auc_tail_matches_scipy_exact_mann_whitney():
    rng = np.random.default_rng(5)
    x, y = rng.normal(0.4, 1, 30), rng.normal(0, 1, 40)
    res = stats.mannwhitneyu(x, y, alternative="greater", method="exact")
    u = int(res.statistic)  # pairs with x > y
    law = null_cdf("auc", 30, 40)
    # P(U >= u) = P(U > u - 1)
    assert law.sf[u - 1] == pytest.approx(res.pvalue, rel=1e-9)


def _count_paths(P: int, N: int, allowed) -> int:
    """Number of lattice paths (0,0) -> (P,N) whose every point satisfies allowed(i, j)."""
    h = [[0] * (N + 1) for _ in range(P + 1)]
    for i in range(P + 1):
        for j in range(N + 1):
            if not allowed(i, j):
                continue
            if i == 0 and j == 0:
                h[i][j] = 1
            else:
                h[i][j] = (h[i - 1][j] if i else 0) + (h[i][j - 1] if j else 0)
    return h[P][N]


def _exact_cdf_accuracy(P, N, d) -> Fraction:
    return Fraction(_count_paths(P, N, lambda i, j: i - j <= d), math.comb(P + N, P))


def _check_is_quantile(cdf_at, value, prev, C, alpha):
    q = Fraction(1) - Fraction(alpha).limit_denominator(10**6)
    # F(m*)^C >= 1 - alpha > F(previous attainable)^C
    assert cdf_at(value) ** C >= q
    assert cdf_at(prev) ** C < q


@pytest.mark.parametrize("C,expected", [(100, 0.65), (1000, 0.665)])
def test_paper_best_accuracy_at_P_N_100(C, expected):
    # Paper, section 4: "at P=N=100, the critical value is 67% accuracy for C=1000
    # competitors, and 65% for C=100" (67% is 66.5% rounded).
    m = critical_value("accuracy", 100, 100, C=C, alpha=0.01)
    assert m == pytest.approx(expected, abs=1e-12)
    assert f"{m:.2f}" == {100: "0.65", 1000: "0.67"}[C]  # the paper's rounding
    d = round(m * 200) - 100
    _check_is_quantile(lambda dd: _exact_cdf_accuracy(100, 100, dd), d, d - 1, C, 0.01)


def test_paper_best_accuracy_at_P_N_10():
    # Paper: "with C=1000 competitors, the critical value for best accuracy climbs to 95%".
    m = critical_value("accuracy", 10, 10, C=1000)
    assert m == pytest.approx(0.95)
    d = round(m * 20) - 10
    _check_is_quantile(lambda dd: _exact_cdf_accuracy(10, 10, dd), d, d - 1, 1000, 0.01)


def test_paper_auc_at_100_300():
    # Paper: "given a test set of 100 positives and 300 negatives, the critical value for
    # AUC with 1000 competitors is about 0.65" (read off Figure 2). Exact: U* = 19234.
    m = critical_value("auc", 100, 300, C=1000, alpha=0.01)
    assert abs(m - 0.65) < 0.015
    exact = _gaussian_binomial(100, 300)
    total = math.comb(400, 100)
    cum = np.cumsum(exact[::-1])  # upper tail counts: cum[r] = #{U >= 30000 - r}
    tail = 1 - 0.99 ** (1 / 1000)
    # smallest u with P(U > u) <= tail, computed with exact counts
    u_star = next(u for u in range(30001) if Fraction(int(cum[30000 - u - 1]) if u < 30000 else 0, total) <= tail)
    assert m == pytest.approx(u_star / 30000, abs=1e-15)
    assert u_star == 19234


def test_paper_monte_carlo_repetitions():
    assert mc_repetitions(100, 0.01) == 9_950_416  # section 3, "Computational Efficiency"
    assert mc_repetitions(10, 0.01) == round(1000 / (1 - 0.99 ** 0.1))
    assert tail_probability(1000, 0.01) == pytest.approx(1 - 0.99 ** (1 / 1000), rel=1e-11)


def test_f1_critical_value_against_integer_path_count():
    P, N, C = 12, 30, 100
    m = critical_value("f1", P, N, C=C)
    total = math.comb(P + N, P)
    values = sorted({Fraction(2 * i, P + i + j) for i in range(1, P + 1) for j in range(N + 1)} | {Fraction(0)})

    def cdf(f):  # every point has F1 = 2i/(P+i+j) <= f
        return Fraction(_count_paths(P, N, lambda i, j: (i == 0) or Fraction(2 * i, P + i + j) <= f), total)

    idx = min(range(len(values)), key=lambda r: abs(float(values[r]) - m))
    assert float(values[idx]) == pytest.approx(m, abs=1e-12)
    _check_is_quantile(cdf, values[idx], values[idx - 1], C, 0.01)


def test_f1_law_matches_integer_path_counts_in_both_tails():
    # 61 columns: exercises the rescaling of the lattice programme (every 16 columns)
    P, N = 40, 60
    a, b, f1 = nb._f1_values(P, N)
    total = math.comb(P + N, P)
    picks = np.unique(np.r_[np.linspace(0, f1.size - 1, 12).astype(int), f1.size - 40, f1.size - 200])
    stay, cross = nb._f1_path_probs(P, N, a[picks], b[picks])  # many thresholds: vectorised sweep
    assert picks.size > nb._F1_ROW_LOOP
    for r, idx in enumerate(picks):
        ai, bi = int(a[idx]), int(b[idx])
        good = _count_paths(P, N, lambda i, j: i * bi <= ai * (P + j))
        one_stay, one_cross = nb._f1_path_probs(P, N, a[idx:idx + 1], b[idx:idx + 1])  # row-by-row sweep
        for st, cr in [(stay[r], cross[r]), (one_stay[0], one_cross[0])]:
            assert st == pytest.approx(good / total, rel=1e-10, abs=1e-300)
            assert cr == pytest.approx((total - good) / total, rel=1e-9, abs=1e-300)


def test_tp_law_matches_exact_hypergeometric_counts():
    P, N, k = 13, 40, 10
    law = null_cdf("tp", P, N, k=k)
    total = math.comb(P + N, k)
    for x, F in zip(law.values, law.cdf):
        exact = Fraction(sum(math.comb(P, i) * math.comb(N, k - i) for i in range(int(x) + 1)), total)
        assert F == pytest.approx(float(exact), rel=1e-12)
    assert critical_value("tp", 10, 1000, C=1000) == 3.0
    # the paper's TP10 recipe: smallest x with F(x) >= (1-alpha)^(1/C)
    q = 0.99 ** (1 / 1000)
    assert stats.hypergeom(1010, 10, 10).ppf(q) == 3


@pytest.mark.parametrize("P,N", [(1000, 1000), (10, 1000), (1000, 10)])
def test_auc_law_is_a_distribution_at_the_largest_size(P, N):
    law = null_cdf("auc", P, N)
    assert law.values.size == P * N + 1
    assert np.all(np.diff(law.cdf) >= -1e-15)
    assert law.cdf[-1] == pytest.approx(1.0, abs=1e-12)
    mean = np.sum(law.values * np.diff(np.r_[0.0, law.cdf]))
    assert mean == pytest.approx(0.5, abs=1e-9)


# --------------------------------------------------------------------------- Monte Carlo
def _mc_tolerance_check(metric, P, N, C, alpha, reps, seed):
    """The Monte Carlo critical value must cut off the exact tail within 4 standard errors."""
    tail = tail_probability(C, alpha)
    m_mc = critical_value(metric, P, N, C=C, alpha=alpha, method="montecarlo", n_resamples=reps, rng=seed)
    law = null_cdf(metric, P, N, max_points=10**7) if metric != "f1" else None
    se = math.sqrt(tail * (1 - tail) / reps)
    if metric == "f1":
        a, b, f1 = nb._f1_values(P, N)
        idx = int(np.searchsorted(f1, m_mc - 1e-12))
        above = nb._f1_probs_at(P, N, idx)[1]
        at_or_above = nb._f1_probs_at(P, N, idx - 1)[1] if idx else 1.0
    else:
        idx = int(np.searchsorted(law.values, m_mc - 1e-12))
        above = law.sf[idx]
        at_or_above = law.sf[idx - 1] if idx else 1.0
    # P(X > m_mc) <= tail + 4 se and P(X >= m_mc) >= tail - 4 se
    assert above <= tail + 4 * se, (metric, m_mc, above, tail)
    assert at_or_above >= tail - 4 * se, (metric, m_mc, at_or_above, tail)
    return m_mc


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["auc", "accuracy", "f1", "tp"])
@pytest.mark.parametrize("P,N,C", [(20, 30, 10), (100, 100, 10), (10, 300, 3)])
def test_monte_carlo_agrees_with_exact(metric, P, N, C):
    _mc_tolerance_check(metric, P, N, C, 0.05, 200_000, seed=11)


def test_monte_carlo_critical_value_of_a_callable_metric():
    # best accuracy written by hand; the exact law of "accuracy" is the reference
    def best_acc(r):
        tp = np.r_[0, np.cumsum(r)]
        fp = np.arange(r.size + 1) - tp
        return np.max(tp + (r.size - r.sum()) - fp) / r.size

    P, N, C, alpha, reps = 8, 12, 5, 0.05, 40_000
    m_mc = critical_value(best_acc, P, N, C=C, alpha=alpha, method="montecarlo", n_resamples=reps, rng=3)
    law = null_cdf("accuracy", P, N)
    tail = tail_probability(C, alpha)
    idx = int(np.searchsorted(law.values, m_mc - 1e-12))
    se = math.sqrt(tail / reps)
    assert law.sf[idx] <= tail + 4 * se and (law.sf[idx - 1] if idx else 1.0) >= tail - 4 * se
    with pytest.raises(ValueError, match="callable metric has no exact law"):
        critical_value(best_acc, P, N)


def test_monte_carlo_is_seeded_and_independent_of_threads():
    a = simulate_null("auc", 30, 40, 120_000, rng=3, n_jobs=1)
    b = simulate_null("auc", 30, 40, 120_000, rng=3, n_jobs=2)
    np.testing.assert_array_equal(a, b)
    c = simulate_null("auc", 30, 40, 1000, rng=4)
    assert not np.array_equal(a[:1000], c)


def test_simulate_null_with_a_callable_metric():
    top3 = lambda r: r[:3].sum()  # TP3 by hand; the hypergeometric is the reference
    s = simulate_null(top3, 6, 9, 20_000, rng=1)
    ref = stats.hypergeom(15, 6, 3)
    for x in range(4):
        assert np.mean(s == x) == pytest.approx(ref.pmf(x), abs=4 * math.sqrt(0.25 / 20_000))
    # and the named engine agrees with the generic one on the law
    fast = simulate_null("tp", 6, 9, 20_000, k=3, rng=2)
    assert fast.mean() == pytest.approx(ref.mean(), abs=4 * ref.std() / math.sqrt(20_000))


def test_simulate_scores_means_match_exact_laws():
    P, N, reps = 15, 25, 100_000
    r = simulate_scores(P, N, reps, metrics=("auc", "accuracy", "f1", "tp"), rng=9)
    for metric in METRICS:
        law = null_cdf(metric, P, N, max_points=10**6)
        pmf = np.diff(np.r_[0.0, law.cdf])
        mean = float(np.sum(pmf * law.values))
        sd = math.sqrt(float(np.sum(pmf * (law.values - mean) ** 2)))
        assert r[metric].mean() == pytest.approx(mean, abs=4 * sd / math.sqrt(reps)), metric


def test_monte_carlo_top_keeps_the_best_scores():
    scores = simulate_null("auc", 8, 9, 70_001, rng=5)
    top = nb._mc_top("auc", 8, 9, 70_001, 37, k=10, rng=5, n_jobs=2)
    np.testing.assert_array_equal(top, np.sort(scores)[::-1][:37])


# --------------------------------------------------------------------------- tables and CSV
def test_critical_value_table_is_tidy_and_matches_single_calls():
    tab = critical_value_table(["auc", "f1", "tp"], [3, 20], [5, 40], [10, 1000], [0.01, 0.05])
    assert list(tab.columns) == ["metric", "P", "N", "C", "alpha", "critical_value"]
    assert len(tab) == 3 * 2 * 2 * 2 * 2 - 4  # tp with k=10 > P+N=8 is left out
    for row in tab.sample(8, random_state=0).itertuples():
        assert row.critical_value == critical_value(row.metric, row.P, row.N, C=row.C, alpha=row.alpha)


@pytest.mark.skipif(not CSV.exists(), reason="data/critical_values.csv not generated")
def test_csv_covers_the_grid_and_sampled_rows_recompute():
    tab = pd.read_csv(CSV)
    assert set(tab["metric"]) == set(METRICS)
    assert set(tab["C"]) == {10, 100, 1000}
    assert set(tab["alpha"]) == {0.01, 0.05}
    assert tab["P"].nunique() >= 30 and tab["N"].nunique() >= 30
    assert tab["P"].min() == 2 and tab["P"].max() == 1000
    sample = tab[(tab.P <= 300) & (tab.N <= 300)].sample(15, random_state=1)
    for row in sample.itertuples():
        assert row.critical_value == pytest.approx(
            critical_value(row.metric, row.P, row.N, C=row.C, alpha=row.alpha), abs=1e-9), row
    # the paper's quoted cells
    cell = tab.set_index(["metric", "P", "N", "C", "alpha"])["critical_value"]
    assert cell[("accuracy", 100, 100, 1000, 0.01)] == pytest.approx(0.665)
    assert cell[("accuracy", 10, 10, 1000, 0.01)] == pytest.approx(0.95)


@pytest.mark.skipif(not CSV.exists(), reason="data/critical_values.csv not generated")
def test_the_paper_grid_is_the_shipped_tables_grid_and_the_default():
    """evallib.studies.PAPER_GRID (Forman & Cohen's conditions, extended) is the grid of the shipped
    data/critical_values.csv, and critical_value_table computes on it by default."""
    import inspect

    from evallib.studies import PAPER_GRID

    tab = pd.read_csv(CSV)
    assert set(PAPER_GRID) == {"metrics", "Ps", "Cs", "alphas"}
    assert list(PAPER_GRID["metrics"]) == sorted(set(tab["metric"]), key=list(METRICS).index)
    assert sorted(PAPER_GRID["Ps"]) == sorted(set(tab["P"])) == sorted(set(tab["N"]))
    assert len(PAPER_GRID["Ps"]) == 35 and {10, 100, 300} <= set(PAPER_GRID["Ps"])
    assert set(PAPER_GRID["Cs"]) == set(tab["C"]) and set(PAPER_GRID["alphas"]) == set(tab["alpha"])
    defaults = {name: p.default for name, p in inspect.signature(critical_value_table).parameters.items()}
    assert defaults["Ns"] == defaults["Ps"] == PAPER_GRID["Ps"]
    assert (defaults["metrics"], defaults["Cs"], defaults["alphas"]) == \
        (PAPER_GRID["metrics"], PAPER_GRID["Cs"], PAPER_GRID["alphas"])


# --------------------------------------------------------------------------- degenerate sizes
def test_degenerate_sizes_have_defined_answers():
    # P = 1: the positive's position is uniform, so U is uniform on 0..N
    law = null_cdf("auc", 1, 7)
    np.testing.assert_allclose(law.cdf, (np.arange(8) + 1) / 8)
    # P = N = 1: best accuracy 1 half of the time
    acc = null_cdf("accuracy", 1, 1)
    np.testing.assert_allclose(acc.values, [0.5, 1.0])
    np.testing.assert_allclose(acc.cdf, [0.5, 1.0])
    assert critical_value("accuracy", 1, 1, C=1, alpha=0.6) == 0.5
    assert critical_value("auc", 1, 1, C=10) == 1.0
    # with N = 1 a random ranking always reaches F1 >= 2P/(2P+1)
    f = null_cdf("f1", 3, 1)
    assert f.values[0] == pytest.approx(6 / 7)
    assert best_of_pvalue("f1", 0.0, 3, 1) == 1.0
    assert best_of_pvalue("auc", 1.0, 1000, 1000, C=1000) == pytest.approx(0.0, abs=1e-300)


def test_null_cdf_f1_subset_is_exact_where_given():
    full = null_cdf("f1", 9, 40, max_points=10**6)
    part = null_cdf("f1", 9, 40, max_points=20)
    assert full.complete and not part.complete
    idx = np.searchsorted(full.values, part.values)
    np.testing.assert_allclose(full.cdf[idx], part.cdf, rtol=1e-12)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(P=0), ValueError, "P must be a whole number >= 1"),
    (dict(P=2.5), ValueError, "P must be a whole number"),
    (dict(N=-3), ValueError, "N must be a whole number >= 1"),
    (dict(N="7"), TypeError, "N must be a whole number"),
    (dict(C=0), ValueError, "C must be a whole number >= 1"),
    (dict(alpha=0.0), ValueError, "alpha must lie in the open interval"),
    (dict(alpha=1.0), ValueError, "alpha must lie in the open interval"),
    (dict(alpha=float("nan")), ValueError, "alpha"),
    (dict(metric="precision"), ValueError, "'auc', 'accuracy', 'f1', 'tp'"),
    (dict(metric="tp", k=0), ValueError, "k must be a whole number >= 1"),
    (dict(metric="tp", k=51), ValueError, r"k must be a whole number in 1..P\+N = 1..50"),
    (dict(method="bootstrap"), ValueError, "method must be 'exact' or 'montecarlo'"),
])
def test_critical_value_rejects_bad_input(kwargs, exc, match):
    args = dict(metric="auc", P=20, N=30, C=10, alpha=0.01)
    args.update(kwargs)
    metric, P, N = args.pop("metric"), args.pop("P"), args.pop("N")
    with pytest.raises(exc, match=match):
        critical_value(metric, P, N, **args)


def test_other_functions_reject_bad_input():
    with pytest.raises(ValueError, match=r"score must lie in the range of 'auc', \[0, 1\]"):
        best_of_pvalue("auc", 1.2, 10, 10)
    with pytest.raises(ValueError, match=r"score must lie in the range of 'tp', \[0, k\]"):
        best_of_pvalue("tp", 11, 10, 10)
    with pytest.raises(TypeError, match="score must be a number"):
        best_of_pvalue("auc", "0.7", 10, 10)
    with pytest.raises(ValueError, match="C must be"):
        best_of_pvalue("auc", 0.7, 10, 10, C=0)
    with pytest.raises(ValueError, match="metric must be one of"):
        null_cdf("AUC", 10, 10)
    with pytest.raises(ValueError, match="n_resamples must be a whole number >= 1"):
        simulate_null("auc", 10, 10, 0)
    with pytest.raises(ValueError, match="top must be a whole number >= 1"):
        mc_repetitions(10, 0.01, top=0)
    with pytest.raises(ValueError, match="alpha must lie in the open interval"):
        mc_repetitions(10, 1.5)
    with pytest.raises(ValueError, match="Ps must be a whole number >= 1"):
        critical_value_table(["auc"], [0], [3], [10], [0.01])


def test_lattice_sized_laws_refuse_sizes_that_would_exhaust_memory():
    with pytest.raises(ValueError, match=r"P \* N must be at most 4,000,000 for 'f1'"):
        critical_value("f1", 3000, 2000)
    with pytest.raises(ValueError, match=r"P \* N must be at most 4,000,000 for 'auc'"):
        null_cdf("auc", 5000, 1000)
    with pytest.raises(ValueError, match="for 'f1'"):
        simulate_scores(3000, 2000, 10)
    # no lattice needed: best accuracy and TPk at any size, AUC by Monte Carlo
    assert critical_value("accuracy", 5000, 5000, C=10) < 0.52
    assert critical_value("tp", 5000, 5000, C=10) <= 10
    assert simulate_null("auc", 5000, 5000, 10, rng=0).shape == (10,)


def test_public_api_is_importable_from_evallib():
    for name in ("null_cdf", "critical_value", "best_of_pvalue", "mc_repetitions",
                 "simulate_null", "critical_value_table"):
        assert getattr(evallib, name) is getattr(nb, name)


def test_verdict_prints_a_tp_count_as_a_count_and_its_p_value_from_scipy():
    """TP10 is an integer count: its verdict names the count ("9 true positives in its top
    10", critical value "9"), never "9.0000". The p-value is checked against scipy's
    hypergeometric law: 1 - (1 - P(X >= 9))^C with X ~ Hypergeom(400, 100, 10)."""
    v = evallib.judge_winner("tp", 9, 100, 300, C=1000, alpha=0.01)
    text = v.describe()
    g = stats.hypergeom.sf(8, 400, 100, 10)
    assert v.pvalue == pytest.approx(-math.expm1(1000 * math.log1p(-g)), rel=1e-9)
    assert v.critical_value == stats.hypergeom.ppf(0.99 ** (1 / 1000), 400, 100, 10) == 9
    assert "a winner with 9 true positives in its top 10 does not beat the critical value 9 " in text
    assert "9.0000" not in text and not v.reject
    # another k is named as such
    assert "in its top 5 " in evallib.judge_winner("tp", 3, 10, 1000, C=1, k=5).describe()
    # fractions keep four decimals
    assert "AUC 0.7000 beats the critical value 0.6411" in evallib.judge_winner(
        "auc", 0.70, 100, 300, C=1000).describe()


def test_verdict_says_when_no_score_can_beat_the_bar():
    """Wisconsin (241, 458) with C = 1000: P(top 10 all malignant) = C(241,10)/C(699,10) is
    above 1 - 0.99^(1/1000), so the TP10 bar is 10 of 10 and cannot be beaten."""
    g = math.comb(241, 10) / math.comb(699, 10)
    assert g > 1 - 0.99 ** (1 / 1000)
    v = evallib.judge_winner("tp", 10, 241, 458, C=1000, alpha=0.01)
    assert v.critical_value == 10 and not v.reject
    assert "no winner can be significant" in v.describe()
    beatable = evallib.judge_winner("tp", 10, 241, 458, C=10, alpha=0.01)
    assert "no winner can be significant" not in beatable.describe()


def test_verdict_says_no_tp_score_can_beat_the_bar_when_p_is_below_k():
    """With P = 2 positives the top 10 holds at most 2 of them. At N = 1000 both land in
    the top 10 with probability C(10, 2)/C(1002, 2) = 45/501501 = 9.0e-5 (scipy's
    hypergeometric law), above 1 - 0.99^(1/1000) = 1.0e-5, so the bar is 2, the largest
    attainable count: the sentence must say that no winner can be significant."""
    g = stats.hypergeom.sf(1, 1002, 2, 10)
    assert g == pytest.approx(45 / 501501, rel=1e-9) and g > 1 - 0.99 ** (1 / 1000)
    v = evallib.judge_winner("tp", 2, 2, 1000, C=1000, alpha=0.01)
    assert v.critical_value == 2 and not v.reject
    assert "the largest attainable score, so no winner can be significant" in v.describe()
    # with one competitor 9.0e-5 < 0.01: the bar is 1, and 2 of 2 beats it
    one = evallib.judge_winner("tp", 2, 2, 1000, C=1, alpha=0.01)
    assert one.critical_value == 1 and one.reject and "no winner can be significant" not in one.describe()
