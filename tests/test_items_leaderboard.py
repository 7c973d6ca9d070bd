"""Tests of evallib.items._leaderboard against independent references.

References: statsmodels' ``multipletests`` (Holm, Benjamini–Hochberg, Bonferroni),
scipy's ``ttest_rel`` and statsmodels' ``DescrStatsW`` (paired t-tests and intervals),
the CR2 (Bell–McCaffrey) error and df written out with matrices on the paired differences; a row-copying bootstrap
written out here (copy the rows of the drawn clusters, average, rank with
``scipy.stats.rankdata``); the Poisson law of the bootstrap weights; and simulations of
whole leaderboards (family-wise error of the tie group under a global null) with their
Monte Carlo SE.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import DescrStatsW

from _references import cr2_dense as _cr2_dense

from evallib.items._leaderboard import (
    TieGroup,
    _draw_weights,
    leaderboard_pairs,
    plot_rank_intervals,
    rank_intervals,
    tie_group,
)



def _leaderboard(seed: int, n_items: int = 120, n_models: int = 6, spread: float = 0.8) -> pd.DataFrame:
    """0/1 scores: item difficulty shared by all models, model skills spread by ``spread``."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0, 1, n_items)
    skill = np.linspace(0, spread, n_models)
    p = 1 / (1 + np.exp(-(skill[None, :] - difficulty[:, None])))
    return pd.DataFrame((rng.random((n_items, n_models)) < p).astype(int),
                        columns=[f"M{j}" for j in range(n_models)],
                        index=[f"item-{i}" for i in range(n_items)])


# ------------------------------------------------------------------ pairs: tests and adjustments
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_adjusted_pvalues_and_decisions_match_statsmodels_multipletests(seed):
    table = leaderboard_pairs(_leaderboard(seed))
    p = table["pvalue"].to_numpy()
    assert table["pvalue_adj"].to_numpy() == pytest.approx(multipletests(p, method="holm")[1], abs=1e-14)
    bh = leaderboard_pairs(_leaderboard(seed), adjust="bh")
    assert bh["pvalue_adj"].to_numpy() == pytest.approx(multipletests(p, method="fdr_bh")[1], abs=1e-14)
    by = leaderboard_pairs(_leaderboard(seed), adjust="by")   # the leaderboard offers the whole menu
    assert by["pvalue_adj"].to_numpy() == pytest.approx(multipletests(p, method="fdr_by")[1], abs=1e-14)
    for adjust, method in (("holm", "holm"), ("bh", "fdr_bh"), ("by", "fdr_by"), ("bonferroni", "bonferroni")):
        for alpha in (0.01, 0.05, 0.2):
            ours = leaderboard_pairs(_leaderboard(seed), alpha=alpha, adjust=adjust)["reject"].to_numpy()
            assert np.array_equal(ours, multipletests(p, alpha=alpha, method=method)[0]), (adjust, alpha)
    none = leaderboard_pairs(_leaderboard(seed), adjust="none")
    assert np.array_equal(none["reject"].to_numpy(), p <= 0.05)
    assert np.array_equal(none["pvalue_adj"].to_numpy(), p)


def test_unclustered_pairs_are_scipys_paired_t_test_with_bonferroni_intervals():
    scores = _leaderboard(3)
    table = leaderboard_pairs(scores, alpha=0.1)
    m = len(table)
    assert m == 15
    for row in table.itertuples():
        d = scores[row.a].to_numpy(float) - scores[row.b].to_numpy(float)
        ref = stats.ttest_rel(scores[row.a], scores[row.b])
        assert row.estimate == pytest.approx(d.mean(), abs=1e-14)
        assert row.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert row.df == 119
        low, high = DescrStatsW(d).tconfint_mean(alpha=0.1 / m)
        assert (row.low, row.high) == pytest.approx((low, high), rel=1e-10, abs=1e-14)
        assert row.se == pytest.approx(DescrStatsW(d).std_mean, rel=1e-10)
    assert table.attrs["interval_level"] == pytest.approx(1 - 0.1 / 15)
    unadjusted = leaderboard_pairs(scores, alpha=0.1, adjust="none")
    d = scores[unadjusted["a"][0]].to_numpy(float) - scores[unadjusted["b"][0]].to_numpy(float)
    assert (unadjusted["low"][0], unadjusted["high"][0]) == pytest.approx(DescrStatsW(d).tconfint_mean(alpha=0.1))


def test_clustered_pairs_are_the_cr2_error_written_out_on_the_differences():
    scores = _leaderboard(4, n_items=90, n_models=4)
    rng = np.random.default_rng(4)
    labels = np.repeat([f"passage-{g}" for g in range(18)], rng.multinomial(90 - 18, np.full(18, 1 / 18)) + 1)
    table = leaderboard_pairs(scores, clusters=labels)
    for row in table.itertuples():
        d = scores[row.a].to_numpy(float) - scores[row.b].to_numpy(float)
        se, df = _cr2_dense(d, labels)
        assert row.se == pytest.approx(se, rel=1e-9)
        assert row.df == pytest.approx(df, rel=1e-9) and row.df < 17   # unequal clusters: fewer than G - 1
        assert row.pvalue == pytest.approx(2 * stats.t.sf(abs(d.mean()) / se, df), rel=1e-8)
        half = stats.t.isf(0.05 / 6 / 2, df) * se
        assert (row.low, row.high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-8, abs=1e-12)
    assert table.attrs["n_clusters"] == 18 and table.attrs["n_items"] == 90


def test_a_pair_row_agrees_with_paired_item_difference():
    from evallib.items._means import paired_item_difference

    scores = _leaderboard(6, n_items=120, n_models=3)
    labels = np.repeat(np.arange(15), 8)
    for row in leaderboard_pairs(scores, clusters=labels, adjust="none").itertuples():
        ref = paired_item_difference(scores[row.a].to_numpy(float), scores[row.b].to_numpy(float),
                                     clusters=labels, method="cr2")
        assert (row.estimate, row.se, row.df, row.pvalue) == pytest.approx(
            (ref.estimate, ref.se, ref.df, ref.pvalue), rel=1e-9)


def test_pairs_are_in_leaderboard_order_with_nonnegative_differences():
    scores = _leaderboard(5).iloc[:, ::-1]            # columns worst-first: the order must come from the means
    table = leaderboard_pairs(scores)
    means = scores.mean()
    ranked = list(means.sort_values(ascending=False, kind="stable").index)
    expected = [(a, b) for i, a in enumerate(ranked) for b in ranked[i + 1:]]
    assert list(zip(table["a"], table["b"])) == expected
    assert (table["estimate"] >= 0).all()
    assert table["mean_a"].to_numpy() == pytest.approx(means[table["a"]].to_numpy())


def test_identical_models_and_a_uniform_win_have_defined_answers():
    scores = {"A": [1, 1, 1, 1], "B": [0, 1, 0, 1], "C": [0, 1, 0, 1], "D": [0, 0, 0, 0]}
    table = leaderboard_pairs(scores).set_index(["a", "b"])
    assert (table.loc[("B", "C"), "statistic"], table.loc[("B", "C"), "pvalue"]) == (0.0, 1.0)
    assert table.loc[("A", "D"), "statistic"] == np.inf and table.loc[("A", "D"), "pvalue"] == 0.0
    assert not table.isna().any().any()


# ------------------------------------------------------------------ tie group
def test_tie_group_is_the_leaders_pairs_under_holm_over_all_pairs():
    scores = _leaderboard(6, n_items=300, n_models=5, spread=1.2)
    group = tie_group(scores)
    means = scores.mean()
    leader = means.idxmax()
    others = [m for m in scores.columns if m != leader]
    pairs = [(a, b) for i, a in enumerate(scores.columns) for b in scores.columns[i + 1:]]
    p = np.array([stats.ttest_rel(scores[a], scores[b]).pvalue for a, b in pairs])
    reject = dict(zip(pairs, multipletests(p, alpha=0.05, method="holm")[0]))
    separated = {m for m in others if reject.get((leader, m), reject.get((m, leader)))}
    assert group.leader == leader
    assert set(group.members) == {leader} | (set(others) - separated) and group.members[0] == leader
    assert set(group.separated) == separated and separated and len(group.members) > 1
    assert list(group.comparisons["a"].unique()) == [leader] and len(group.comparisons) == 4


def _holm_rejects_any(p: np.ndarray, alpha: float) -> bool:
    """Holm's step-down rejects something iff the smallest p-value is <= alpha / m.

    (statsmodels' multipletests, the reference above, runs gc.collect() on every call,
    too slow for a simulation loop.)"""
    return bool(p.min() <= alpha / p.size)


@pytest.mark.slow
def test_tie_group_under_a_global_null_keeps_the_family_wise_error():
    """5 equal models on 200 items (shared item difficulty), 2,000 simulated leaderboards.

    The tie group excludes a model (all are truly equal to the leader) in at most
    alpha + 3 MC SE of them, MC SE = sqrt(0.05 * 0.95 / 2000) = 0.0049. Holm over only the
    4 comparisons with the (data-selected) leader, computed from the same p-values,
    exceeds that bound: the selection of the leader is why the family is
    all pairs.
    """
    rng = np.random.default_rng(7)
    reps, alpha = 2000, 0.05
    excluded = leader_only = 0
    for _ in range(reps):
        p_item = rng.beta(2, 2, 200)
        x = rng.random((200, 5)) < p_item[:, None]
        group = tie_group({f"m{j}": x[:, j] for j in range(5)}, alpha=alpha)
        excluded += len(group.members) < 5
        leader_only += _holm_rejects_any(group.comparisons["pvalue"].to_numpy(), alpha)
    mc_se = math.sqrt(alpha * (1 - alpha) / reps)
    assert excluded / reps <= alpha + 3 * mc_se, excluded / reps
    assert leader_only / reps > alpha + 3 * mc_se, leader_only / reps


@pytest.mark.slow
def test_clustered_tie_group_keeps_the_error_where_ignoring_clusters_does_not():
    """5 equal models, 30 clusters of 6 items with a model x cluster effect (some models
    suit some passages), 1,000 leaderboards: the clustered tie group excludes an equal
    model in at most alpha + 3 MC SE (MC SE 0.0069); ignoring the clusters exceeds it."""
    rng = np.random.default_rng(8)
    reps, alpha, n_clusters, size = 1000, 0.05, 30, 6
    labels = np.repeat(np.arange(n_clusters), size)
    hits = np.zeros(2)
    for _ in range(reps):
        effect = rng.normal(0, 0.8, (n_clusters, 5))[labels] + rng.normal(0, 1, (n_clusters * size, 1))
        x = rng.random(effect.shape) < 1 / (1 + np.exp(-effect))
        scores = {f"m{j}": x[:, j] for j in range(5)}
        hits += [len(tie_group(scores, clusters=labels).members) < 5, len(tie_group(scores).members) < 5]
    mc_se = math.sqrt(alpha * (1 - alpha) / reps)
    assert hits[0] / reps <= alpha + 3 * mc_se, hits / reps
    assert hits[1] / reps > alpha + 3 * mc_se, hits / reps


def test_tie_group_sentences():
    scores = {"A": [1, 1, 1, 1, 1, 1, 1, 0], "B": [1, 0, 0, 1, 0, 0, 1, 0], "C": [1, 0, 0, 1, 0, 0, 0, 0]}
    group = tie_group(scores)
    assert isinstance(group, TieGroup) and str(group) == group.describe()
    assert group.members == ("A", "B") and group.separated == ("C",)
    assert group.describe().startswith("Model B is not shown to differ from the leader A at alpha = 0.05")
    everyone = tie_group(scores, alpha=0.01, clusters=[0, 0, 1, 1, 2, 2, 3, 3])
    assert everyone.members == ("A", "B", "C") and everyone.describe().startswith("Models B and C are not shown to differ")
    assert "8 items in 4 clusters" in everyone.describe() and "no model is separated" in everyone.describe()
    # the spellings of the conventions: t-test, never "cannot be separated"
    assert all("paired t-tests over" in g.describe() and "cannot be separated" not in g.describe()
               and "t tests" not in g.describe() for g in (group, everyone))
    clear = tie_group({"A": [1] * 6, "B": [0, 0, 0, 1, 0, 0], "C": [0] * 6}, alpha=0.1)
    assert clear.members == ("A",)
    assert clear.describe().startswith("Every other model (B and C) is separated from the leader A")
    assert "false discovery rate" in tie_group(scores, adjust="bh").describe()
    assert "Benjamini–Yekutieli" in tie_group(scores, adjust="by").describe()


# ------------------------------------------------------------------ rank intervals
def test_multinomial_bootstrap_is_the_row_copying_bootstrap():
    """Same seed, same draws: copy the rows of the drawn clusters (unequal sizes), rank with
    scipy's rankdata ('min' and 'max' for ties), take the percentiles by sorting."""
    scores = _leaderboard(9, n_items=60, n_models=5, spread=0.4)
    sizes = np.array([1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10])
    labels = np.repeat(np.arange(sizes.size), sizes)
    n_boot, alpha = 300, 0.1
    ours = rank_intervals(scores, clusters=labels, n_resamples=n_boot, alpha=alpha, rng=11, weights="multinomial")
    rng = np.random.default_rng(11)
    x = scores.to_numpy(float)
    rows_of = [np.flatnonzero(labels == g) for g in range(sizes.size)]
    best, worst, credits = [], [], []
    for _ in range(n_boot):
        drawn = rng.integers(sizes.size, size=sizes.size)
        copied = x[np.concatenate([rows_of[g] for g in drawn])]
        means = copied.mean(axis=0)
        best.append(stats.rankdata(-means, method="min"))
        worst.append(stats.rankdata(-means, method="max"))
        top = means == means.max()
        credits.append(top / top.sum())

    def percentile(v, q):             # the inverted-CDF quantile: the ceil(q n)-th smallest
        return np.sort(v, axis=0)[math.ceil(q * len(v)) - 1]

    ref = pd.DataFrame({"model": scores.columns, "rank_low": percentile(np.array(best), alpha / 2),
                        "rank_high": percentile(np.array(worst), 1 - alpha / 2),
                        "p_best": np.mean(credits, axis=0),
                        # the SE of the mean of the per-resample credits (1, 1/j or 0), written out
                        "p_best_se": np.sqrt(np.mean((np.array(credits) - np.mean(credits, axis=0)) ** 2, axis=0)
                                             / n_boot)})
    merged = ours.merge(ref, on="model", suffixes=("", "_ref"))
    assert merged["p_best_se"].to_numpy() == pytest.approx(merged["p_best_se_ref"].to_numpy(), abs=1e-12)
    assert (merged["rank_low"] == merged["rank_low_ref"]).all()
    assert (merged["rank_high"] == merged["rank_high_ref"]).all()
    assert merged["p_best"].to_numpy() == pytest.approx(merged["p_best_ref"].to_numpy(), abs=1e-12)


def test_poisson_weights_are_independent_poisson_1():
    """200 x 500 weights: mean 1, variance 1, P(0) = e^-1, no correlation between clusters.

    Tolerances are 4 MC SE: mean SE 1/sqrt(1e5); variance SE sqrt(Var((W-1)^2)/1e5) with
    Var((W - 1)^2) = mu4 - 1 = 3 for Poisson(1); P(0) SE sqrt(p(1-p)/1e5); the correlation of
    neighbouring clusters SE 1/sqrt(200 * 499).
    """
    w = _draw_weights(np.random.default_rng(12), 200, 500, "poisson")[0].astype(float)
    n = w.size
    assert abs(w.mean() - 1) <= 4 / math.sqrt(n)
    assert abs(w.var() - 1) <= 4 * math.sqrt(3 / n)
    p0 = math.exp(-1)
    assert abs((w == 0).mean() - p0) <= 4 * math.sqrt(p0 * (1 - p0) / n)
    r = np.corrcoef(w[:, :-1].ravel(), w[:, 1:].ravel())[0, 1]
    assert abs(r) <= 4 / math.sqrt(200 * 499)


def test_an_all_zero_poisson_replicate_is_drawn_again():
    """Two clusters: P(both weights 0) = e^-2 = 0.135 unconditionally; after the redraw no row
    is empty and P(W = (1, 0) | not empty) = e^-2 / (1 - e^-2), within 4 MC SE."""
    w, redrawn = _draw_weights(np.random.default_rng(13), 20_000, 2, "poisson")
    assert w.sum(axis=1).min() >= 1
    # the empty draws before 20,000 non-empty ones: negative binomial, mean 20,000 e^-2 / (1 - e^-2)
    p0 = math.exp(-2)
    assert abs(redrawn - 20_000 * p0 / (1 - p0)) <= 4 * math.sqrt(20_000 * p0) / (1 - p0)
    p = math.exp(-2) / (1 - math.exp(-2))
    share = np.mean((w[:, 0] == 1) & (w[:, 1] == 0))
    assert abs(share - p) <= 4 * math.sqrt(p * (1 - p) / 20_000)
    out = rank_intervals({"A": [1, 0, 1], "B": [0, 0, 1]}, clusters=[0, 0, 1], n_resamples=400, rng=0)
    assert out.notna().all().all() and out["p_best"].sum() == pytest.approx(1.0)


def test_a_clearly_best_model_has_rank_interval_1_1_and_identical_models_share_every_rank():
    rng = np.random.default_rng(14)
    base = rng.random(500) < 0.5
    scores = {"best": rng.random(500) < 0.95, "x": base, "y": base.copy(), "z": base.copy()}
    out = rank_intervals(scores, n_resamples=500, rng=1).set_index("model")
    assert (out.loc["best", "rank_low"], out.loc["best", "rank_high"], out.loc["best", "rank"]) == (1, 1, 1)
    assert out.loc["best", "p_best"] == 1.0
    for m in "xyz":
        assert (out.loc[m, "rank"], out.loc[m, "rank_low"], out.loc[m, "rank_high"]) == (2, 2, 4)
    same = rank_intervals({"x": base, "y": base, "z": base}, n_resamples=200, rng=2, weights="multinomial")
    assert same["p_best"].tolist() == pytest.approx([1 / 3] * 3) and set(same["rank_high"]) == {3}
    # a three-way tie for first in every resample: each share is 1/3 by construction, with no Monte Carlo
    # error (a binomial sqrt(p (1 - p) / B) would claim 0.033 here)
    assert same["p_best_se"].tolist() == [0.0, 0.0, 0.0]
    assert out.loc["best", "p_best_se"] == 0.0   # first in every resample
    assert (out.loc[["x", "y", "z"], "p_best_se"] == 0.0).all()   # never first


def test_p_best_of_two_models_matches_the_normal_approximation():
    """Two models on 4,000 items, 4,000 Poisson replicates: P(A best) = P(mean_A > mean_B)
    is close to Phi(estimate / SE) of the paired difference. Tolerance 3 MC SE of the share
    (<= 0.0079) plus 0.01 for the normal approximation of the bootstrap distribution."""
    rng = np.random.default_rng(15)
    p_item = rng.beta(2, 2, 4000)
    scores = {"A": rng.random(4000) < p_item + 0.004, "B": rng.random(4000) < p_item}
    out = rank_intervals(scores, n_resamples=4000, rng=3).set_index("model")
    d = np.asarray(scores["A"], float) - np.asarray(scores["B"], float)
    target = stats.norm.cdf(d.mean() / (d.std(ddof=1) / math.sqrt(d.size)))
    assert 0.05 < target < 0.95
    assert abs(out.loc["A", "p_best"] - target) <= 3 * math.sqrt(target * (1 - target) / 4000) + 0.01


def test_result_layout_and_reproducibility():
    scores = _leaderboard(16)
    a = rank_intervals(scores, n_resamples=300, rng=5)
    b = rank_intervals(scores, n_resamples=300, rng=np.random.default_rng(5))
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["model", "mean", "rank", "rank_low", "rank_high", "p_best", "p_best_se"]
    assert a["mean"].is_monotonic_decreasing and (a["rank_low"] <= a["rank"]).all()
    assert (a["rank_low"] <= a["rank_high"]).all() and a["p_best"].sum() == pytest.approx(1.0)
    assert a.attrs == {"alpha": 0.05, "n_resamples": 300, "weights": "poisson", "n_items": 120, "n_clusters": None,
                       "redrawn": 0, "unscored": {m: 0 for m in a["model"]}}


def test_plot_rank_intervals_draws_models_in_rank_order():
    out = rank_intervals(_leaderboard(17, n_models=4), n_resamples=200, rng=0)
    fig, ax = plt.subplots()
    assert plot_rank_intervals(out, ax=ax) is ax
    assert [t.get_text() for t in ax.get_yticklabels()] == list(out["model"])
    assert sum(t.get_text().startswith("first in ") for t in ax.texts) == 4
    assert ax.get_ylim()[0] > ax.get_ylim()[1]                   # best on top
    # a share of none, or one that rounds to 0%, is not printed as "0%" (nor all, or nearly all, as "100%")
    shares = out.assign(p_best=[0.0, 0.003, 0.997, 1.0])
    shares.attrs.update(out.attrs)
    ax.clear()
    labels = [t.get_text() for t in plot_rank_intervals(shares, ax=ax).texts]
    assert labels == ["first in none of 200", "first in <1%", "first in >99%", "first in all 200"], labels
    with pytest.raises(ValueError, match="^result must be the DataFrame returned by rank_intervals"):
        plot_rank_intervals(pd.DataFrame({"model": ["a"]}))
    plt.close("all")


# ------------------------------------------------------------------ input forms
def test_input_forms_agree():
    frame = _leaderboard(18, n_items=40, n_models=3)
    labels = np.repeat(np.arange(8), 5)
    ref = leaderboard_pairs(frame, clusters=labels)
    as_dict = leaderboard_pairs({m: frame[m].to_numpy() for m in frame}, clusters=labels)
    with_column = leaderboard_pairs(frame.assign(passage=labels), clusters="passage")
    shuffled = pd.Series(labels, index=frame.index).sample(frac=1, random_state=0)
    aligned = leaderboard_pairs(frame, clusters=shuffled)
    per_model = leaderboard_pairs(frame, clusters={m: labels for m in frame})
    series = {m: frame[m].sample(frac=1, random_state=1) for m in frame}   # aligned on the item ids
    by_index = leaderboard_pairs(series, clusters=pd.Series(labels, index=frame.index))
    for other in (as_dict, with_column, aligned, per_model, by_index):
        pd.testing.assert_frame_equal(ref, other)


def test_repeated_answers_are_reduced_to_item_means():
    rng = np.random.default_rng(19)
    answers = {m: rng.random((50, 4)) < p for m, p in (("A", 0.7), ("B", 0.5), ("C", 0.55))}
    two_d = leaderboard_pairs(answers)
    means = leaderboard_pairs({m: a.mean(axis=1) for m, a in answers.items()})
    pd.testing.assert_frame_equal(two_d, means)
    assert rank_intervals(answers, n_resamples=100, rng=0)["mean"].tolist() == pytest.approx(
        sorted((a.mean() for a in answers.values()), reverse=True))


def test_duplicated_item_ids_are_refused_with_their_count():
    frame = _leaderboard(20, n_items=10, n_models=3)
    doubled = pd.concat([frame, frame.iloc[[1, 1, 4]]])
    for fn in (leaderboard_pairs, tie_group, rank_intervals):
        with pytest.raises(ValueError, match="^scores has 2 item ids that appear more than once"):
            fn(doubled)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1, 0]}), ValueError,
     r"^scores\['B'\] has 2 items but the first model has 3"),
    (lambda: leaderboard_pairs({"A": pd.Series([1, 0, 1], index=list("xyz")),
                                "B": pd.Series([1, 0], index=list("xy"))}), ValueError,
     r"^scores\['B'\] lacks 1 of the 3 items scored by scores\['A'\] \(e.g. 'z'\)"),
    (lambda: leaderboard_pairs(pd.DataFrame({"A": [1, 0, 1], "B": [1, np.nan, 0]})), ValueError,
     r"^scores\['B'\] has 1 missing values"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1, 1], "B": [0, 0, 1, 1]},
                               clusters={"A": [0, 0, 1, 1], "B": [0, 1, 1, 1]}), ValueError,
     r"^clusters must give each item one label shared by all models; clusters\['B'\] differs .* on 1 items"),
    (lambda: leaderboard_pairs(pd.DataFrame({"A": [1, 0], "B": ["yes", "no"]})), TypeError,
     r"^scores\['B'\] must hold numbers"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": ["1", "0", "1"]}), TypeError, r"^scores\['B'\] must hold numbers"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1.5, 0, 1]}), ValueError,
     r"^scores\['B'\] must lie in \[0, 1\].*1 values outside, e.g. 1.5"),
    (lambda: leaderboard_pairs({"A": [1, 0, -0.1], "B": [1, 0, np.inf]}), ValueError, r"^scores\['A'\] must lie in"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1]}), ValueError, "^scores must hold at least 2 models"),
    (lambda: leaderboard_pairs({"A": [1], "B": [0]}), ValueError, "^scores must hold at least 2 items"),
    (lambda: leaderboard_pairs({"A": np.ones((2, 2, 2)), "B": np.ones((2, 2, 2))}), ValueError,
     r"^scores\['A'\] must be one-dimensional"),
    (lambda: leaderboard_pairs({"A": [], "B": []}), ValueError, r"^scores\['A'\] must hold at least one score"),
    (lambda: leaderboard_pairs({"A": 1, "B": 0}), TypeError, r"^scores\['A'\] must be a sequence of scores"),
    (lambda: leaderboard_pairs([[1, 0], [0, 1]]), TypeError, "^scores must be a pandas DataFrame"),
    (lambda: leaderboard_pairs(pd.DataFrame([[1, 0], [0, 1]], columns=["A", "A"])), ValueError,
     "^scores must name each model once"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1, 1, 0]}, clusters=[0, 0, 0]), ValueError,
     "^clusters must hold at least 2 distinct clusters"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1, 1, 0]}, clusters=[0, 1]), ValueError,
     "^clusters must hold one label per item: got 2 labels for 3 items"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1, 1, 0]}, clusters=[0, np.nan, 1]), ValueError,
     "^clusters must not contain NaN"),
    (lambda: leaderboard_pairs(pd.DataFrame({"A": [1, 0], "B": [0, 1]}), clusters="passage"), ValueError,
     "^clusters must be a column of scores or one label per item; 'passage' is not a column"),
    (lambda: leaderboard_pairs({"A": [1, 0, 1], "B": [1, 1, 0]}, clusters={"A": [0, 1, 1]}), ValueError,
     "^clusters must give labels for every model"),
    (lambda: leaderboard_pairs({"A": [1, 0], "B": [0, 1]}, adjust="fdr"), ValueError, "^adjust must be one of"),
    (lambda: tie_group({"A": [1, 0], "B": [0, 1]}, alpha=0), ValueError, "^alpha must lie in the open interval"),
    (lambda: rank_intervals({"A": [1, 0], "B": [0, 1]}, weights="bayes"), ValueError, "^weights must be one of"),
    (lambda: rank_intervals({"A": [1, 0], "B": [0, 1]}, n_resamples=0), ValueError, "^n_resamples must be a whole number >= 1"),
    (lambda: rank_intervals({"A": [1, 0], "B": [0, 1]}, rng=-1), ValueError, "^rng must be None, an int"),
])
def test_bad_input_is_one_sentence_naming_the_argument(call, exc, message):
    with pytest.raises(exc, match=message) as info:
        call()
    assert "\n" not in str(info.value)
