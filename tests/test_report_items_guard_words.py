"""The per-item report's words where section 3 guards pairs (brief rep-items12): the labels of the pairs'
intervals and p-values name the standard error they rest on, the rank bootstrap's caveat, the planning
section's comparison with the standard error section 3 used, and the multiplicity family of a file with
identical models.

References: statsmodels' OLS of the per-item differences on a constant (its non-robust standard error is
the items-independent one), the CR2 variance written out with dense matrices (:func:`_references.cr2_variance`),
scipy's t law, and statsmodels' Holm adjustment.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from _references import cr2_variance
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import (
    format_item_pairs,
    item_planning,
    items_summary_text,
    leaderboard,
    model_means,
    pairs_guard_note,
    pairwise_items,
    sample_analysis,
    summarise_items,
)


def _cancelling_clusters() -> pd.DataFrame:
    """Six clusters of ten items; each model is right on an almost fixed number of items per cluster (placed
    at random), so the clusters' differences hardly vary and every pair's CR2 SE falls far below the
    items-independent one (the reader's a_clusters.csv)."""
    rng = np.random.default_rng(7)
    totals = {"alpha": [7, 7, 8, 7, 6, 7], "beta": [6, 6, 6, 7, 6, 5], "gamma": [6, 7, 6, 6, 6, 6],
              "delta": [5, 5, 6, 5, 5, 4]}
    frame = pd.DataFrame({"item": [f"q{i:02d}" for i in range(60)], "cluster": [f"p{i // 10}" for i in range(60)]})
    for model, per in totals.items():
        col = np.zeros(60, int)
        for g, t in enumerate(per):
            col[10 * g + rng.choice(10, t, replace=False)] = 1
        frame[model] = col
    return frame


def _summary(data, pairs, board):
    return items_summary_text(data, overview=summarise_items(data), means=model_means(data), pairs=pairs,
                              samples=sample_analysis(data), board=board, planning=item_planning(data))


def _guarded_by_hand(frame: pd.DataFrame, a: str, b: str) -> bool:
    d = (frame[a] - frame[b]).to_numpy(float)
    independent = float(sm.OLS(d, np.ones((d.size, 1))).fit().bse[0])
    return np.sqrt(cr2_variance(d, frame["cluster"].to_numpy())[0]) < 0.8 * independent


def test_the_labels_name_the_independent_se_where_pairs_are_guarded():
    frame = _cancelling_clusters()
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    pairs = pairwise_items(data)
    assert all(_guarded_by_hand(frame, a, b) for a, b in zip(pairs["a"], pairs["b"]))   # all 6 by hand
    shown = format_item_pairs(pairs)
    assert "99.17% joint interval (CR2 t, Bonferroni; the items-independent SE for every pair)" in shown.columns
    assert "adjusted p (Holm; CR2 t-test; the items-independent SE for every pair)" in shown.columns
    text = _summary(data, pairs, leaderboard(data, n_resamples=50, rng=0))
    assert "(paired CR2 t-tests, cluster-robust; section 3)" not in text
    assert ("none of the pairs is shown to differ at alpha = 0.05 (paired t-tests on the CR2 Bell–McCaffrey "
            "degrees of freedom, with the items-independent SE for every pair; section 3)") in text


def test_the_labels_say_cr2_alone_where_no_pair_is_guarded():
    # 30 clusters of two items: not few, so nothing is guarded and the labels stay CR2's
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"item": range(60), "cluster": np.repeat(range(30), 2),
                          "A": rng.binomial(1, 0.7, 60), "B": rng.binomial(1, 0.5, 60)})
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    pairs = pairwise_items(data)
    assert not pairs["guarded"].any()
    shown = format_item_pairs(pairs)
    assert "95% interval (CR2 t)" in shown.columns and "independent SE" not in " ".join(shown.columns)


def test_the_rank_bootstrap_is_said_to_rest_on_the_clusters_section_3_distrusts():
    from evallib.report._items_sections import rank_bootstrap_note

    frame = _cancelling_clusters()
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    pairs = pairwise_items(data)
    n = sum(_guarded_by_hand(frame, a, b) for a, b in zip(pairs["a"], pairs["b"]))
    note = rank_bootstrap_note(pairs)
    assert note.startswith(f"The cluster bootstrap rests on the same 6 clusters whose CR2 standard errors section 3 "
                           f"set aside for all {n} pairs")
    assert "as overconfident as the CR2 standard errors section 3 did not use" in note
    text = _summary(data, pairs, leaderboard(data, n_resamples=50, rng=0))
    rank_bullet = next(line for line in text.splitlines() if "bootstrap resamples of the clusters" in line)
    assert "; the cluster bootstrap rests on the same 6 clusters" in rank_bullet
    assert rank_bullet.endswith("did not use (section 5).")
    plain = load_item_scores(frame.drop(columns="cluster"), item_column="item")
    assert rank_bootstrap_note(pairwise_items(plain)) is None


def test_the_plan_is_set_beside_the_standard_error_section_3_used():
    frame = _cancelling_clusters()
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    plan = item_planning(data)
    sentences = plan.sentences()
    for (_, r), sentence in zip(plan.table.iterrows(), sentences):
        d = (frame[r["a"]] - frame[r["b"]]).to_numpy(float)
        independent = float(sm.OLS(d, np.ones((d.size, 1))).fit().bse[0])
        cr2 = float(np.sqrt(cr2_variance(d, frame["cluster"].to_numpy())[0]))
        assert r["observed_se"] == pytest.approx(independent, rel=1e-10)   # the guarded pair's SE in section 3
        assert (f"section 3's, {independent:.4f}, from the spread of the items' observed differences taken as "
                f"independent (the items-independent standard error, which section 3 used for this pair in place "
                f"of its CR2 one, {cr2:.4f}), and the plan's is {r['plan_se'] / independent:.2f} times section 3's"
                ) in sentence
        assert f"(the plan's is {r['plan_se'] / cr2:.2f} times it), which section 3 set aside" in sentence
        assert "which section 3's standard error reflects" not in sentence
    text = _summary(data, pairwise_items(data), leaderboard(data, n_resamples=50, rng=0))
    assert "section 3's being the items-independent standard errors it used in place of the CR2 ones" in text


def _twins() -> pd.DataFrame:
    """twin_a and twin_b answer every item alike; other agrees with them on most items (b_identical.csv)."""
    rng = np.random.default_rng(7)
    x = rng.binomial(1, 0.75, 150)
    z = np.where(rng.random(150) < 0.7, x, rng.binomial(1, 0.6, 150))
    return pd.DataFrame({"item": range(150), "twin_a": x, "twin_b": x.copy(), "other": z})


def test_identical_models_are_not_part_of_the_multiplicity_family():
    frame = _twins()
    data = load_item_scores(frame, item_column="item")
    pairs = pairwise_items(data, alpha=0.05, adjust="holm")
    tested = ~pairs["identical"].to_numpy(bool)
    assert tested.sum() == 2 and pairs.attrs["n_tested"] == 2
    p_ref = [stats.ttest_rel(frame[a], frame[b]).pvalue for a, b in zip(pairs["a"][tested], pairs["b"][tested])]
    assert pairs["pvalue_adj"][tested].to_numpy() == pytest.approx(multipletests(p_ref, method="holm")[1], rel=1e-9)
    assert pairs.attrs["interval_level"] == pytest.approx(1 - 0.05 / 2)
    for r in pairs[tested].itertuples():
        d = (frame[r.a] - frame[r.b]).to_numpy(float)
        se = float(sm.OLS(d, np.ones((d.size, 1))).fit().bse[0])
        q = stats.t.isf(0.05 / 2 / 2, d.size - 1)             # Bonferroni over the 2 pairs tested
        assert (r.low, r.high) == pytest.approx((d.mean() - q * se, d.mean() + q * se), rel=1e-9)
    assert "97.5% joint interval (paired t, Bonferroni)" in format_item_pairs(pairs).columns
    # McNemar's p-values are adjusted over the same family
    from _references import mid_p
    mc = [mid_p(int(((frame[a] == 1) & (frame[b] == 0)).sum()), int(((frame[a] == 0) & (frame[b] == 1)).sum()))
          for a, b in zip(pairs["a"][tested], pairs["b"][tested])]
    assert pairs["mcnemar_pvalue_adj"][tested].to_numpy() == pytest.approx(multipletests(mc, method="holm")[1])
    board = leaderboard(data, n_resamples=200, rng=0)
    text = _summary(data, pairs, board)
    assert "over all 3 pairs" not in text and "for 3 comparisons" not in text
    assert ("Holm over the 2 pairs tested; the pair that answered every item alike is not part of the family"
            in text)
    assert ("With Holm's adjustment for the 2 comparisons tested (the pair that answered every item alike is not "
            "part of the family), none of the pairs tested is shown to differ") in text
    from evallib.report._items_sections import tie_group_text
    assert "Holm over the 2 pairs tested" in tie_group_text(board.tie)


def test_models_that_share_the_highest_mean_are_said_to_share_it():
    frame = _twins()
    data = load_item_scores(frame, item_column="item")
    pairs = pairwise_items(data)
    board = leaderboard(data, n_resamples=200, rng=0)
    text = _summary(data, pairs, board)
    mean = frame["twin_a"].mean()
    assert f"**twin_a** and **twin_b** share the highest mean score, {mean:.4f}" in text
    assert "has the highest mean score" not in text
    # beside a third model the twins tie with each other in every resample but are first only in some:
    # their shares are not 1/2 and carry a Monte Carlo error, so section 5 must not say they are exact
    assert (board.ranks["p_best_se"] > 0).all() and (board.ranks["p_best"] < 0.5).all()
    import json
    from pathlib import Path

    cells = json.loads((Path(__file__).parents[1] / "notebooks" / "report_items.ipynb").read_text(encoding="utf-8"))
    section5 = next("".join(c["source"]) for c in cells["cells"] if "".join(c["source"]).startswith("## 5."))
    assert "tie for first in every resample, so each has exactly 1/2" not in section5


def test_a_machine_zero_correlation_prints_as_0_not_minus_0():
    from evallib.report._items_sections import format_item_planning

    frame = _cancelling_clusters()
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    plan = item_planning(data)
    shown = format_item_planning(plan)
    for (_, r), cell in zip(plan.table.iterrows(), shown["correlation"]):
        # the correlation of the two models' item scores, by numpy
        ref = float(np.corrcoef(frame[r["a"]], frame[r["b"]])[0, 1])
        assert cell == ("0" if abs(ref) < 1e-12 else f"{ref:.3f}")
        assert cell != "-0.000"
    assert "0" in list(shown["correlation"])   # alpha and delta: uncorrelated to machine precision, by construction


def _anova_icc(d: np.ndarray, clusters: np.ndarray) -> float:
    """The one-way ANOVA ICC of ``d`` within equal clusters, by hand: (MSB - MSW) / (MSB + (m - 1) MSW)."""
    labels = np.unique(clusters)
    groups = [d[clusters == g] for g in labels]
    m = groups[0].size
    msb = m * sum((g.mean() - d.mean()) ** 2 for g in groups) / (len(groups) - 1)
    msw = sum(((g - g.mean()) ** 2).sum() for g in groups) / (d.size - len(groups))
    return (msb - msw) / (msb + (m - 1) * msw)


@pytest.mark.parametrize("models", [["alpha", "beta", "gamma", "delta"], ["alpha", "delta"]])
def test_the_summary_counts_the_plans_estimates_read_as_a_bound(models):
    from evallib.report._items_sections import _planning_sentence

    frame = _cancelling_clusters()[["item", "cluster", *models]]
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    plan = item_planning(data)
    below = sum(_anova_icc((frame["alpha"] - frame[b]).to_numpy(float), frame["cluster"].to_numpy()) < 0
                for b in models[1:])
    assert below == len(models) - 1          # every ICC of the differences is below 0, by hand
    text = _planning_sentence(plan)
    assert "some of the plan's estimates" not in text
    assert (("one of the plan's estimates fell outside its range and was read as the nearest bound" if below == 1
             else f"{below} of the plan's estimates fell outside their range and were read as the nearest bound")
            in text)


def test_one_pair_has_a_plain_p_header():
    from evallib._format import pvalue_cell

    rng = np.random.default_rng(7)
    a = rng.binomial(1, 0.72, 200)
    b = np.where(rng.random(200) < 0.8, a, rng.binomial(1, 0.5, 200))
    data = load_item_scores(pd.DataFrame({"item": range(200), "left": a, "right": b}), item_column="item")
    shown = format_item_pairs(pairwise_items(data))
    assert not any(c.startswith("adjusted p") for c in shown.columns)
    assert shown["p (paired t-test)"].iloc[0] == pvalue_cell(stats.ttest_rel(a, b).pvalue)
    assert "p (McNemar's mid-p test)" in shown.columns


def test_a_pass_at_k_interval_clipped_at_1_is_said_to_be():
    from math import comb

    rng = np.random.default_rng(7)
    pa = rng.beta(6, 1, 40)
    rows = [dict(item=f"it{i}", model="m_one", epoch=e, score=int(rng.binomial(1, pa[i])))
            for i in range(40) for e in range(3)]
    rows += [dict(item=f"it{i}", model="m_two", epoch=e, score=int(rng.binomial(1, max(pa[i] - 0.3, 0.01))))
             for i in range(40) for e in range(3)]
    frame = pd.DataFrame(rows)
    data = load_item_scores(frame, item_column="item", model_column="model", score_column="score",
                            sample_column="epoch")
    right = frame[frame["model"] == "m_one"].groupby("item")["score"].sum().to_numpy()
    per_item = np.array([1 - comb(3 - c, 3) / comb(3, 3) for c in right])     # Chen et al.'s pass@3, by hand
    est, se = per_item.mean(), per_item.std(ddof=1) / np.sqrt(per_item.size)
    high = est + stats.t.isf(0.025, per_item.size - 1) * se
    text = _summary(data, pairwise_items(data), leaderboard(data, n_resamples=50, rng=0))
    if high > 1:
        assert f"to 100.0%, clipped at 100% from the t interval's {high:.1%})" in text
    else:
        assert "clipped" not in text
    assert high > 1                     # the construction: an easy benchmark on 40 items


def test_the_one_other_model_separated_from_the_leader_is_named():
    from evallib.report._items_sections import tie_group_text

    rng = np.random.default_rng(2)
    a = rng.binomial(1, 0.8, 300)
    b = np.where(rng.random(300) < 0.6, a, 0)          # right is wrong wherever left is, and more often
    frame = pd.DataFrame({"item": range(300), "left": a, "right": b})
    assert stats.ttest_rel(a, b).pvalue < 0.05          # separated, by scipy's paired t-test
    data = load_item_scores(frame, item_column="item")
    board = leaderboard(data, n_resamples=50, rng=0)
    text = _summary(data, pairwise_items(data), board)
    assert "Every other model" not in text and "Every other model" not in tie_group_text(board.tie)
    assert "right is separated from the leader at alpha = 0.05 (a paired test, one pair" in text
    assert tie_group_text(board.tie).startswith("right is separated from the leader left at alpha = 0.05")


def _reader_r10_files() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The cold reader r10's two files, from its generator (one seed-11 stream, in its order):
    e_graded.csv, graded scores on 36 clusters of 8 items for 5 models, 'skipper' leaving out about 15% of
    the items; f_ceiling.csv, 0/1 scores on 40 clusters of 5 items for 5 models, b1 and b2 answering each
    item 3 times."""
    from scipy.special import expit

    rng = np.random.default_rng(11)
    G, m = 36, 8
    cl_eff, diff = rng.normal(0, 0.12, G), rng.normal(0, 0.15, G * m)
    shift = {"m1": 0.06, "m2": 0.04, "m3": 0.035, "m4": 0.0, "skipper": 0.05}
    graded = []
    for g in range(G):
        for j in range(m):
            i = g * m + j
            base = 0.55 + cl_eff[g] + diff[i]
            for mo, s in shift.items():
                if mo == "skipper" and rng.random() < 0.15:
                    continue
                graded.append(dict(item=f"i{i:03d}", cluster=f"c{g:02d}", model=mo,
                                   score=round(float(np.clip(base + s + rng.normal(0, 0.08), 0, 1)), 3)))
    G, m = 40, 5
    ce, ie = rng.normal(0, 1.0, G), rng.normal(0, 1.0, G * m)
    eff = {"ace": 3.2, "b1": 1.2, "b2": 1.1, "b3": 1.0, "weak": 0.4}
    ceiling = []
    for g in range(G):
        for j in range(m):
            i = g * m + j
            for mo, e in eff.items():
                p = expit(e + ce[g] + ie[i] + rng.normal(0, 0.3))
                for s in range(1, (3 if mo in ("b1", "b2") else 1) + 1):
                    ceiling.append(dict(item=i, cluster=f"k{g}", model=mo, sample=s, score=int(rng.random() < p)))
    return pd.DataFrame(graded), pd.DataFrame(ceiling)


def _graded_with_a_skipper() -> pd.DataFrame:
    return _reader_r10_files()[0]


def test_a_bound_read_against_the_smallest_difference_prints_on_its_side():
    """The leader's largest lead over skipper that the joint interval allows is 0.029964 (the reader's
    hand computation): printed 0.0300 beside "rules out 0.03" it read as touching the margin. The rule:
    each printed bound lies on the same side of min_difference as the bound itself."""
    data = load_item_scores(_graded_with_a_skipper(), item_column="item", cluster_column="cluster",
                            model_column="model", score_column="score")
    pairs = pairwise_items(data)
    text = items_summary_text(data, overview=summarise_items(data), means=model_means(data), pairs=pairs,
                              samples=sample_analysis(data), board=leaderboard(data, n_resamples=200, rng=0),
                              min_difference=0.03, planning=item_planning(data, min_difference=0.03))
    (bullet,) = [b for b in text.split("\n") if "Not separated is not tied" in b]
    row = pairs[(pairs["a"] == "m1") & (pairs["b"] == "skipper")].iloc[0]
    assert row["high"] < 0.03 < row["high"] + 0.0001   # the case: a bound just below the margin
    lead = re.search(r"ahead by up to (.*?) and behind", bullet).group(1)
    shown = dict((name, float(v)) for v, name in re.findall(r"([0-9.]+) \(([^)]+)\)", lead))
    assert shown["skipper"] < 0.03 and f"{shown['skipper']}" != "0.03"
    assert "rule out a difference that large either way for skipper" in bullet


def _ceiling_file() -> pd.DataFrame:
    return _reader_r10_files()[1]


def test_a_low_ratio_on_many_clusters_is_said_with_the_independent_verdict():
    """40 clusters: CR2 decides (no guard), but b1 - weak's CR2 SE is 0.75 times the items-independent one,
    and with that one the pair would not be separated: the note says so, computed here by hand (the
    per-item mean differences' sd / sqrt(n), t on the pair's CR2 df, Holm by statsmodels)."""
    data = load_item_scores(_ceiling_file(), item_column="item", cluster_column="cluster", sample_column="sample",
                            model_column="model", score_column="score")
    pairs = pairwise_items(data)
    assert data.n_clusters == 40 and not pairs["guarded"].any()
    means = data.item_means()
    d = (means["b1"] - means["weak"]).to_numpy(float)
    independent = d.std(ddof=1) / np.sqrt(d.size)
    k = int(np.flatnonzero((pairs["a"] == "b1") & (pairs["b"] == "weak"))[0])
    row = pairs.iloc[k]
    assert row["clustered_se"] / independent < 0.8 and bool(row["low_ratio"]) and bool(row["reject"])
    p = pairs["pvalue"].to_numpy(float).copy()
    p[k] = 2 * stats.t.sf(abs(row["estimate"] / independent), row["df"])
    holm = multipletests(p, method="holm")[1]
    assert holm[k] > 0.05   # with the independent SE the pair would not be separated
    note = pairs_guard_note(pairs)
    assert note.startswith("This pair has a cluster-robust (CR2) standard error below 0.8 times")
    assert "With 40 clusters (at least 30) the report decides with CR2" in note
    assert (f"b1 - weak: CR2 SE {row['clustered_se']:.4f}, {row['clustered_se'] / independent:.2f} times the "
            f"{independent:.4f} if the items were independent") in note
    from evallib.report._prose import pvalue_cell
    assert (f"the verdict would be not separated (adjusted p {pvalue_cell(holm[k])}), where CR2 gives differ"
            in note)
