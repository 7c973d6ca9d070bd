"""The per-item report's guards in section 3: a CR2 standard error far below the items-independent one on
few clusters, and two models that answered every item alike.

References: statsmodels' OLS of the per-item differences on a constant (its non-robust standard error of
the intercept is ``sd(d) / sqrt(n)``, the paired SE if the items were independent), the CR2 variance
written out with dense matrices (:func:`_references.cr2_variance`), scipy's t law for the p-values and
quantiles, and Holm's adjustment from statsmodels.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pandas as pd
import pytest
from _references import cr2_variance
from scipy import stats

from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import (
    format_item_pairs,
    item_planning,
    items_summary_text,
    leaderboard,
    model_means,
    pairs_guard_note,
    pairs_identical_note,
    pairwise_items,
    sample_analysis,
    summarise_items,
)


def _few_clusters() -> pd.DataFrame:
    """Six passages of ten items; in each, A alone is right on 3 or 4 items and B alone on 1, so the
    passages' differences hardly vary and the CR2 SE comes out far below the items-independent one."""
    rng = np.random.default_rng(1)
    rows = []
    for g, a_only in enumerate([3, 3, 4, 3, 3, 4]):
        for i in range(10):
            both = int(rng.random() < 0.5)
            a, b = (1, 0) if i < a_only else (0, 1) if i == a_only else (both, both)
            rows.append(dict(item=f"p{g}q{i}", cluster=f"p{g}", A=a, B=b, C=int(rng.random() < 0.5)))
    return pd.DataFrame(rows)


def test_a_small_cr2_se_on_few_clusters_is_flagged_and_not_decisive():
    frame = _few_clusters()
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    pairs = pairwise_items(data, alpha=0.05, adjust="holm")
    import statsmodels.api as sm
    from statsmodels.stats.multitest import multipletests

    row = pairs[(pairs["a"] == "A") & (pairs["b"] == "B")].iloc[0]
    d = (frame["A"] - frame["B"]).to_numpy(float)
    ols = sm.OLS(d, np.ones((d.size, 1))).fit()
    var, df = cr2_variance(d, frame["cluster"].to_numpy())
    assert row["independent_se"] == pytest.approx(float(ols.bse[0]), rel=1e-10)
    assert row["clustered_se"] == pytest.approx(np.sqrt(var), rel=1e-10) and row["df"] == pytest.approx(df)
    assert row["clustered_se"] < 0.3 * row["independent_se"]             # the stress: about 4 times smaller
    # decided with the larger SE on the CR2 df; the p-values adjusted again by Holm over the 3 pairs
    assert bool(row["guarded"])
    p_ref = 2 * stats.t.sf(d.mean() / ols.bse[0], df)
    assert row["pvalue"] == pytest.approx(p_ref, rel=1e-9)
    others = []
    for a, b in zip(pairs["a"], pairs["b"]):
        e = (frame[a] - frame[b]).to_numpy(float)
        se_ind = float(sm.OLS(e, np.ones((e.size, 1))).fit().bse[0])
        v, f = cr2_variance(e, frame["cluster"].to_numpy())
        se = max(se_ind, np.sqrt(v)) if np.sqrt(v) < 0.8 * se_ind else np.sqrt(v)
        others.append(2 * stats.t.sf(abs(e.mean()) / se, f))
    holm = multipletests(others, method="holm")[1]
    assert pairs["pvalue_adj"].to_numpy() == pytest.approx(holm, rel=1e-9)
    q = stats.t.isf(0.05 / 3 / 2, df)
    assert (row["low"], row["high"]) == pytest.approx((d.mean() - q * ols.bse[0], d.mean() + q * ols.bse[0]))
    # CR2 alone rejects, the larger SE does not: the verdict is "not separated" and says why
    assert bool(row["clustered_reject"]) and not bool(row["reject"])
    cr2_holm = multipletests([2 * stats.t.sf(abs((frame[a] - frame[b]).mean())
                                             / np.sqrt(cr2_variance((frame[a] - frame[b]).to_numpy(float),
                                                                    frame["cluster"].to_numpy())[0]), df)
                              for a, b in zip(pairs["a"], pairs["b"])], method="holm")[1]
    shown = format_item_pairs(pairs)
    i = int(np.flatnonzero((pairs["a"] == "A") & (pairs["b"] == "B"))[0])
    assert shown["SE if items independent"].iloc[i] == f"{ols.bse[0]:.4f}"
    assert shown["SE (CR2)"].iloc[i] == f"{np.sqrt(var):.4f}"
    assert shown["verdict"].iloc[i] == "not separated by the independent SE, the larger"
    note = pairs_guard_note(pairs)
    ratio = np.sqrt(var) / ols.bse[0]
    icc = (ratio ** 2 - 1) / 9
    assert "below 0.8 times the one that takes the items as independent, on only 6 clusters" in note
    assert (f"A - B: CR2 SE {np.sqrt(var):.4f}, {ratio:.2f} times the {ols.bse[0]:.4f} if the items were "
            f"independent; the implied ICC of the differences within a cluster, ((SE ratio)^2 - 1) / (m - 1) = "
            f"{icc:.3f}, is {icc / (-1 / 9):.0%} of the way to -0.111" in note)
    assert f"where the CR2 SE alone would give differ (adjusted p {cr2_holm[i]:.2g})" in note
    # section 5's not-separated group follows section 3's guarded verdicts
    board = leaderboard(data, alpha=0.05, adjust="holm", n_resamples=50, rng=0)
    assert "B" in board.tie.members and not board.tie.separated


def test_many_clusters_or_no_clusters_are_not_guarded():
    frame = _few_clusters()
    plain = load_item_scores(frame.drop(columns="cluster"), item_column="item")
    pairs = pairwise_items(plain)
    assert not pairs["guarded"].any() and pairs_guard_note(pairs) is None
    assert pairs["se"].to_numpy() == pytest.approx(pairs["independent_se"].to_numpy(), rel=1e-10)
    assert "SE (CR2)" not in format_item_pairs(pairs).columns


def _page_text(path) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


def test_identical_models_get_no_test_interval_or_power():
    frame = _few_clusters()[["item", "cluster", "A"]]
    frame = frame.assign(B=frame["A"])
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    pairs = pairwise_items(data)
    row = pairs.iloc[0]
    assert bool(row["identical"]) and not bool(row["reject"])
    assert np.isnan([row["se"], row["statistic"], row["pvalue"], row["low"], row["high"], row["pvalue_adj"]]).all()
    shown = format_item_pairs(pairs).iloc[0]
    assert shown["mean A - mean B"] == "0"                        # an exact zero has no sign
    assert shown["verdict"] == "answered every item alike: no difference to test"
    assert set(shown.drop(["A", "B", "mean A - mean B", "verdict"])) == {"-"}
    assert "A and B answered every item they both scored alike" in pairs_identical_note(pairs)
    plan = item_planning(data, min_difference=0.05)
    assert "no power statement can be made" in str(plan)
    means = model_means(data)
    board = leaderboard(data, n_resamples=50, rng=0)
    text = items_summary_text(data, overview=summarise_items(data), means=means, pairs=pairs,
                              samples=sample_analysis(data), board=board, min_difference=0.05, planning=plan)
    assert "B answered every item as the leader did: there is no difference to test" in text
    assert "rule out a difference that large" not in text and "0.0000" not in text
    assert "the one pair answered every item alike, so there is nothing to test" in text
    assert "has power" not in text and "not shown to differ at alpha" not in text


def test_a_model_that_answered_as_the_leader_did_is_not_said_to_be_tested():
    """A and D answer every item alike and C differs: the sentences that say who is not shown to differ
    "(paired t-tests ...)" must not count D, for which no test was made; D gets its own words."""
    from evallib.report._items_sections import tie_group_text

    frame = _few_clusters().drop(columns="cluster")[["item", "A", "B"]]
    frame = frame.assign(D=frame["A"])
    data = load_item_scores(frame, item_column="item")
    board = leaderboard(data, n_resamples=50, rng=0)
    assert board.tie.leader == "A"   # A is right on 20 of the 60 items where B is right on 6 (by construction)
    section5 = tie_group_text(board.tie)
    pairs = pairwise_items(data)
    text = items_summary_text(data, overview=summarise_items(data), means=model_means(data), pairs=pairs,
                              samples=sample_analysis(data), board=board, min_difference=None,
                              planning=item_planning(data))
    assert section5 == ("D answered every item as the leader A did, so there is no difference to test; B is "
                        "separated from it at alpha = 0.05 (paired t-tests over 60 items, Holm over the 2 pairs "
                        "tested; the pair that answered every item alike is not part of the family).")
    assert ("1 model is separated from the leader at alpha = 0.05 (paired tests, Holm over the 2 pairs tested; the "
            "pair that answered every item alike is not part of the family; section 5). "
            "D answered every item as the leader did: there is no difference to test") in text
    assert "not shown to differ from the leader" not in text
    # McNemar's agreement is claimed only for the pairs it tested (the identical pair has no test)
    assert "the same verdict as the paired t-test for each of the 2 pairs tested" in text


def test_identical_models_share_first_place_exactly_with_no_monte_carlo_error():
    """Issue rep-items11 #1: two models that answered every item alike tie for first in every resample, so
    each one's share is exactly 1/2; the binomial sqrt(p (1 - p) / B) = sqrt(0.25 / 50) = 0.071 claimed a
    Monte Carlo error that a share exact by construction does not have. By hand: every credit is 1/2, SE 0."""
    from evallib.report._items_sections import format_ranks

    frame = _few_clusters()[["item", "cluster", "A"]]
    frame = frame.assign(B=frame["A"])
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    board = leaderboard(data, n_resamples=50, rng=0)
    assert board.ranks["p_best"].tolist() == [0.5, 0.5] and board.ranks["p_best_se"].tolist() == [0.0, 0.0]
    exact = "0: every one of the 50 resamples ties it for first with 1 other model, so each gives it 1/2"
    table = format_ranks(board)
    assert list(table["ranked first (share of resamples)"]) == ["0.500", "0.500"]
    assert list(table["Monte Carlo SE of the share (50 resamples)"]) == [exact, exact]
    pairs = pairwise_items(data)
    text = items_summary_text(data, overview=summarise_items(data), means=model_means(data), pairs=pairs,
                              samples=sample_analysis(data), board=board, min_difference=None,
                              planning=item_planning(data))
    assert ("(a share of resamples, not a probability that it is best; a first place shared by j models whose "
            f"means coincide counts 1/j to each) is 0.500, MC SE {exact}; the other model that ranks first in a "
            f"share of at least 0.05 of them: B (0.500, MC SE {exact}) (section 5)") in text
    assert "0.071" not in text and text.count("counts 1/j") == 1


def test_an_identical_pair_beside_others_is_left_out_of_the_plan():
    frame = _few_clusters().drop(columns="cluster")
    frame = frame.assign(D=frame["A"])
    data = load_item_scores(frame, item_column="item")
    plan = item_planning(data, min_difference=0.05)
    assert "D" not in set(plan.table["b"]) and plan.identical == ("D",)
    assert plan.sentences()[-1].startswith("D answered every item as A did: the paired differences are all 0")
    pairs = pairwise_items(data)
    assert pairs["identical"].sum() == 1
    # the identical pair has no test and is not part of the family: Holm over the pairs tested only
    # (brief rep-items12 #4)
    from statsmodels.stats.multitest import multipletests
    ok = ~pairs["identical"].to_numpy()
    ref = multipletests(pairs["pvalue"].to_numpy()[ok], method="holm")[1]
    assert pairs["pvalue_adj"].to_numpy()[ok] == pytest.approx(ref, rel=1e-12)


@pytest.mark.slow
def test_cli_report_flags_the_few_clusters_pair(tmp_path, capsys):
    from evallib.__main__ import main

    source = tmp_path / "few.csv"
    _few_clusters().to_csv(source, index=False)
    out = tmp_path / "few.html"
    status = main(["report", str(source), "--item-column", "item", "--cluster-column", "cluster",
                   "--bootstrap-reps", "100", "-o", str(out), "-q"])
    assert status == 0, capsys.readouterr().err
    text = _page_text(out)
    assert "SE if items independent" in text and "not separated by the independent SE, the larger" in text
    assert "where the CR2 SE alone would give differ" in text
    assert "decided with the items-independent standard error, the larger, as section 3 says" in text


def test_ratios_and_design_effects_from_few_clusters_are_called_noisy():
    """Issue rep-items11 #4: a variance ratio, a design effect or a clustered standard error estimated from fewer
    than 30 clusters is itself noisy, and the summary and section 2 say so with the count of clusters (6 here, by
    hand: the six passages), in the summary's variance-ratio sentence, section 2's note and section 4's bullet;
    with 30 clusters none of them does."""
    from evallib.report._items_sections import effective_n_note

    def summary(frame, **columns):
        data = load_item_scores(frame, item_column="item", cluster_column="cluster", **columns)
        means = model_means(data)
        text = items_summary_text(data, overview=summarise_items(data), means=means, pairs=pairwise_items(data),
                                  samples=sample_analysis(data), board=leaderboard(data, n_resamples=50, rng=0),
                                  min_difference=None, planning=item_planning(data))
        return text, effective_n_note(means)

    few = _few_clusters()
    assert few["cluster"].nunique() == 6
    text, note = summary(few)
    caveat = "rest on only 6 clusters (fewer than 30), so they are themselves noisy"
    (bullet,) = [t for t in text.split("\n") if "variance ratio" in t]
    assert f"; this ratio and the design effect from it {caveat}" in bullet
    assert (f"narrows no model's interval; the cluster-robust variances, and so the effective sample sizes and design effects "
            f"{caveat}.") in note
    # repeated answers in the six passages: section 4's bullet quotes clustered standard errors and a floor
    rng = np.random.default_rng(2)
    rows = [dict(item=r.item, cluster=r.cluster, sample=s, A=int(rng.random() < 0.7), B=int(rng.random() < 0.5))
            for r in few.itertuples() for s in (1, 2, 3)]
    text, _ = summary(pd.DataFrame(rows), sample_column="sample")
    assert f"the floor is the clustered one; these standard errors and the floor {caveat}" in text
    # 30 clusters: no caveat anywhere
    many = pd.concat([few.assign(cluster=few["cluster"] + f"-{k}", item=few["item"] + f"-{k}") for k in range(5)],
                     ignore_index=True)
    assert many["cluster"].nunique() == 30
    text, note = summary(many)
    assert "clusters (fewer than 30), so" not in text and "fewer than 30" not in note
