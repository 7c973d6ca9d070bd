"""Cold read of the per-item report: the planning section's skip reason, the ICC bound's cap, the two
standard errors of a model's mean, the paired t-test's size on few items, the interval's name without
clusters. Every reference value is recomputed here by hand, by enumeration or by simulation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from evallib.report import Skipped
from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import item_planning


def _wide(columns: dict, clusters=None) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(n)], **columns})
    if clusters is not None:
        frame["cluster"] = [f"c{c}" for c in clusters]
    return frame


# ------------------------------------------------------------------ F5: the planning section's skip reason
def test_planning_skip_names_the_size_weighted_rule_not_two_clusters():
    """Three clusters of 10, 1 and 1 items: the pair shares three clusters, so "no pair shares two clusters'
    worth of items" is false. The plan takes m* = sum m^2 / sum m = 102 / 12 = 8.5, rounded (half to even) to
    8, and its t-test on 12 / 8 = 1.5 planned clusters needs 2 * 8 = 16 items: that is the true reason."""
    rng = np.random.default_rng(3)
    cl = [0] * 10 + [1, 2]
    frame = _wide({"a": rng.integers(0, 2, 12), "b": rng.integers(0, 2, 12)}, cl)
    plan = item_planning(load_item_scores(frame, item_column="item", cluster_column="cluster"))
    assert isinstance(plan, Skipped)
    text = str(plan)
    assert "two clusters' worth" not in text
    assert (10 * 10 + 1 + 1) / 12 == 8.5 and round(8.5) == 8
    assert "they share 12 items in 3 clusters of unequal size" in text
    assert "sum m^2 / sum m = 102 / 12 = 8.50 items, rounded to 8" in text
    assert "12 / 8 = 1.50 clusters of that size" in text and "needs at least 2 of them, 16 items" in text
    assert "the file's 3 clusters would be enough" in text


def test_a_pair_left_out_of_the_plan_is_said_when_others_are_planned():
    """Model c scored only the 10 items of one cluster plus one item of another: with a (the leader) it
    shares 11 items in 2 clusters, m* = (100 + 1) / 11 = 9.18, rounded 9, needing 18 items; b shares all
    40 items in 4 clusters of 10 and is planned. The left-out pair is named, not dropped in silence."""
    rng = np.random.default_rng(4)
    cl = np.repeat(np.arange(4), 10)
    a = (rng.random(40) < 0.8).astype(float)
    b = (rng.random(40) < 0.5).astype(float)
    c = np.full(40, np.nan)
    c[:11] = (rng.random(11) < 0.5)
    a[:] = 1.0   # a leads
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(40)], "cluster": [f"c{g}" for g in cl],
                          "a": a, "b": b, "c": c})
    long = frame.melt(id_vars=["item", "cluster"], var_name="model", value_name="score").dropna()
    data = load_item_scores(long, item_column="item", cluster_column="cluster")
    plan = item_planning(data)
    assert not isinstance(plan, Skipped)
    assert list(plan.table["b"]) == ["b"]
    text = " ".join(plan.sentences())
    assert round(101 / 11) == 9
    assert ("No plan for a vs c: they share 11 items in 2 clusters of unequal size" in text
            and "= 101 / 11 = 9.18 items, rounded to 9" in text and "18 items, more than the 11 shared" in text)


# ------------------------------------------------------------------ F6: the ICC bound's cap at 1
def _icc_plan(G: int, m: int, seed: int, share: float = 1.0):
    """Two models, one answer per item, G clusters of m items whose differences are negatively correlated
    within a cluster (``share`` of each cluster's mean difference taken out; all of it gives the ANOVA ICC's
    minimum -1 / (m - 1)): an ICC estimate below 0."""
    rng = np.random.default_rng(seed)
    cl = np.repeat(np.arange(G), m)
    a = rng.uniform(0.3, 0.7, G * m)
    raw = rng.normal(0, 0.1, G * m)
    b = a - (raw - share * np.bincount(cl, raw)[cl] / m) - 0.02
    plan = item_planning(load_item_scores(_wide({"a": a.round(6), "b": b.round(6)}, cl), item_column="item",
                                          cluster_column="cluster"))
    return plan, plan.table.iloc[0]


def test_an_icc_bound_above_1_is_said_to_be_capped():
    """G = 3 clusters of m = 2 items: Fisher's SE at ICC 0 is sqrt(2 / (2 * 1 * 2)) = 0.7071, so the
    estimate plus 1.96 SE passes 1 unless the estimate is below -0.386; the sentence gives that sum and
    says it is capped at 1 (it used to print 1.000 as "the estimate plus 1.96 standard errors")."""
    plan, row = _icc_plan(3, 2, 0, share=0.8)
    se = math.sqrt(2 / (2 * 1 * 2))
    assert se == pytest.approx(0.70711, abs=1e-5)
    reach = row["icc_raw"] + 1.959964 * se
    assert row["icc_raw"] < 0 and reach > 1
    text = " ".join(plan.sentences())
    assert (f"the estimate plus 1.96 standard errors is {reach:.3f}, above 1, the largest an ICC can be, so the "
            "bound is capped at 1") in text
    assert "1.000 is the estimate plus" not in text


def test_an_icc_bound_inside_0_1_is_not_called_capped():
    """G = 40 clusters of m = 8: SE sqrt(2 / (8 * 7 * 39)) = 0.0303, the bound inside [0, 1], no cap said."""
    plan, row = _icc_plan(40, 8, 1, share=0.3)
    reach = row["icc_raw"] + 1.959964 * math.sqrt(2 / (8 * 7 * 39))
    assert row["icc_raw"] < 0 and 0 < reach < 1
    text = " ".join(plan.sentences())
    assert f"{reach:.3f} is the estimate plus 1.96 standard errors" in text and "capped" not in text


def test_an_icc_bound_below_0_is_said_to_be_taken_at_0():
    """Each cluster's mean difference taken out whole: the ANOVA ICC is at its minimum -1 / (m - 1) =
    -1/7 for m = 8, and -1/7 + 1.96 sqrt(2 / (8 * 7 * 39)) = -0.0835 < 0: the bound is taken at 0, said so."""
    plan, row = _icc_plan(40, 8, 1)
    assert row["icc_raw"] == pytest.approx(-1 / 7, abs=1e-6)
    reach = -1 / 7 + 1.959964 * math.sqrt(2 / (8 * 7 * 39))
    text = " ".join(plan.sentences())
    assert f"is {reach:.3f}, itself below 0, so the bound is taken at 0" in text


# ------------------------------------------------------------------ polish: the interval's name without clusters
def test_section_2_without_clusters_names_the_t_interval_over_items_not_cr2():
    """Scores in [0, 1], no clusters: the interval is mean -/+ t_{0.975, n-1} s / sqrt(n) over the item means
    (recomputed here), the ordinary t interval, and is named so; "CR2" and "Bell–McCaffrey" are for clusters."""
    from scipy import stats

    from evallib.report._items_sections import _interval_name, format_item_means, model_means

    rng = np.random.default_rng(7)
    a, b = rng.uniform(0, 1, 25).round(4), rng.uniform(0, 1, 25).round(4)
    means = model_means(load_item_scores(_wide({"a": a, "b": b}), item_column="item"))
    se = a.std(ddof=1) / math.sqrt(25)
    q = stats.t.ppf(0.975, 24)
    row = means.loc["a"]
    assert row["se"] == pytest.approx(se, rel=1e-9) and row["df"] == pytest.approx(24)
    assert (row["low"], row["high"]) == pytest.approx((a.mean() - q * se, a.mean() + q * se), rel=1e-9)
    assert row["method"] == "t"
    assert _interval_name(row) == "t over items, 24 df"
    cell = format_item_means(means).loc["a", "interval"]
    assert cell == "t over items, 24.0 df" and "CR2" not in cell
    clustered = model_means(load_item_scores(_wide({"a": a, "b": b}, np.arange(25) // 5), item_column="item",
                                             cluster_column="cluster"))
    assert clustered.loc["a", "method"] == "cr2" and "Bell–McCaffrey" in _interval_name(clustered.loc["a"])


@pytest.mark.parametrize("G", [6, 30])
def test_the_cluster_robust_claim_carries_the_small_cluster_guard(G):
    """Section 3 decides a pair on fewer than 30 clusters with the items-independent SE when its CR2 SE is
    below 0.8 times it (pairs_guard_note): "every interval and test is cluster-robust" then needs the
    exception, in the report and in the manual."""
    from pathlib import Path

    from evallib.report._items_sections import independence_note, pairwise_items

    rng = np.random.default_rng(G)
    m = 8
    cl = np.repeat(np.arange(G), m)
    a = rng.uniform(0.3, 0.7, G * m)
    raw = rng.normal(0, 0.1, G * m)
    b = np.clip(a - (raw - np.bincount(cl, raw)[cl] / m) - 0.02, 0, 1)     # equal cluster means: CR2 SE small
    data = load_item_scores(_wide({"a": a.round(6), "b": b.round(6)}, cl), item_column="item",
                            cluster_column="cluster")
    pairs = pairwise_items(data)
    assert bool(pairs["guarded"].iloc[0]) == (G < 30)
    text = independence_note(data)
    assert ("one exception is made" in text) == (G < 30)
    manual = (Path(__file__).parents[1] / "docs" / "report" / "items.md").read_text().replace("\n", " ")
    assert "every interval is cluster-robust (one exception: on fewer than 30 clusters" in manual


# ------------------------------------------------------------------ F7: two standard errors of one mean
def _long_answers(answers: dict[str, list[list[float]]]) -> pd.DataFrame:
    rows = [dict(item=f"q{i}", model=model, sample=k, score=v)
            for model, items in answers.items() for i, ys in enumerate(items) for k, v in enumerate(ys)]
    return pd.DataFrame(rows)


def test_section_4s_standard_error_is_reconciled_with_section_2s():
    """Unequal answers per item, no clusters: the one-way ANOVA's (between + within mean(1/K)) / n, written
    out here, differs from s^2 / n of the item means; the note gives both numbers and the reason. With equal
    answers per item MSB / K = s^2 and there is nothing to reconcile (no note)."""
    from evallib.report._items_sections import components_se_note, model_means, sample_analysis

    rng = np.random.default_rng(11)
    n = 30
    k = np.where(np.arange(n) % 3 == 0, 1, 4)
    p = rng.uniform(0.1, 0.9, n)
    items = [list((rng.random(kk) < pp).astype(float)) for kk, pp in zip(k, p)]
    other = [list((rng.random(kk) < 0.5).astype(float)) for kk in k]
    data = load_item_scores(_long_answers({"a": items, "b": other}), item_column="item")
    # the ANOVA by hand
    ybar = np.array([np.mean(v) for v in items])
    N = k.sum()
    grand = sum(sum(v) for v in items) / N
    msw = sum(((np.array(v) - np.mean(v)) ** 2).sum() for v in items) / (N - n)
    msb = (k * (ybar - grand) ** 2).sum() / (n - 1)
    k0 = (N - (k * k).sum() / N) / (n - 1)
    between = max((msb - msw) / k0, 0.0)
    inv = float(np.mean(1 / k))
    se4 = math.sqrt((between + msw * inv) / n)
    se2 = ybar.std(ddof=1) / math.sqrt(n)
    assert f"{se4:.4f}" != f"{se2:.4f}"
    note = components_se_note(model_means(data), sample_analysis(data))
    assert (f"For a, section 4's standard error of the mean, {se4:.4f}, is built from the variance components, "
            f"sqrt((between + within × mean(1/K)) / n) = sqrt(({between:.4f} + {msw:.4f} × {inv:.4f}) / {n})") in note
    assert f"section 2's, {se2:.4f}, is the spread of its item means, s / sqrt(n)" in note
    assert "here a answered its items between 1 and 4 times" in note
    balanced = [v + [v[0]] * (4 - len(v)) for v in items]
    data = load_item_scores(_long_answers({"a": balanced, "b": [v + [0.0] * (4 - len(v)) for v in other]}),
                            item_column="item")
    assert components_se_note(model_means(data), sample_analysis(data)) is None


def test_the_template_prints_the_standard_error_note():
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_items.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "components_se_note(means, samples)" in code


# ------------------------------------------------------------------ F8: the paired t-test's size on few items
def _brute_force_size(n: int, shares, alpha: float = 0.05) -> np.ndarray:
    """Every one of the 3^n sequences of item differences (+1, 0, -1) run through the report's paired test
    (leaderboard_pairs, adjust="none"; a pair that answered every item alike is not tested), weighted by its
    probability under H0 at each share q of disagreeing items."""
    from itertools import product

    from evallib.items import leaderboard_pairs

    sizes = np.zeros(len(shares))
    shares = np.asarray(shares, float)
    for d in product((1, 0, -1), repeat=n):
        d = np.array(d)
        if not d.any():
            continue
        x, y = (d == 1).astype(float), (d == -1).astype(float)
        if not leaderboard_pairs({"A": x, "B": y}, adjust="none", alpha=alpha)["reject"].iloc[0]:
            continue
        k = np.count_nonzero(d)
        sizes += (shares / 2) ** k * (1 - shares) ** (n - k)
    return sizes


def test_the_paired_t_size_matches_brute_force_and_exceeds_alpha():
    """n = 6: the largest rejection rate over q = 0.01, ..., 1 by brute force over 729 sequences equals the
    trinomial enumeration's, 0.0649 > 0.05; n = 7 at q = 1 (every item disagreeing): 0, 1, 6 or 7 of 7 signs
    reject, 2 (1 + 7) / 2^7 = 0.125."""
    from evallib.report._items_sections import _paired_t_size

    qs = np.arange(1, 101) / 100
    brute = _brute_force_size(6, qs)
    size, q = _paired_t_size(6, 0.05)
    assert size == pytest.approx(brute.max(), abs=1e-12) and q == pytest.approx(qs[int(np.argmax(brute))])
    assert size > 0.05
    assert _paired_t_size(7, 0.05) == (pytest.approx(2 * (1 + 7) / 2 ** 7, abs=1e-12), 1.0)


def test_few_items_warn_with_the_exact_size():
    """12 independent 0/1 items: the warning gives the exact size, checked against a Monte Carlo of
    scipy's one-sample t-test on the differences at the worst share (200,000 runs, within 4 MC SE; no spread
    and a mean other than 0 rejects, as in leaderboard_pairs), and 200 items do not warn."""
    from scipy import stats

    from evallib.report._items_sections import _paired_t_size, summarise_items

    size, q = _paired_t_size(12, 0.05)
    rng = np.random.default_rng(0)
    u = rng.random((200_000, 12))
    d = np.where(u < q / 2, 1.0, np.where(u < q, -1.0, 0.0))
    spread = d.std(axis=1) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        p = stats.ttest_1samp(d, 0.0, axis=1).pvalue
    reject = np.where(spread, p <= 0.05, d.mean(axis=1) != 0)
    mc = reject.mean()
    assert abs(mc - size) < 4 * math.sqrt(size * (1 - size) / 200_000)
    rng = np.random.default_rng(1)
    small = load_item_scores(_wide({"a": rng.integers(0, 2, 12), "b": rng.integers(0, 2, 12)}), item_column="item")
    text = " ".join(summarise_items(small).warnings)
    assert (f"on this file's 12 items the paired t-test of section 3, at its own level alpha = 0.05, declares "
            f"two equally good models different with probability up to {size:.3f}, not 0.05") in text
    many = load_item_scores(_wide({"a": rng.integers(0, 2, 200), "b": rng.integers(0, 2, 200)}), item_column="item")
    assert "level on few" not in " ".join(summarise_items(many).warnings)


def test_the_manuals_size_figures_are_the_enumerated_ones():
    from pathlib import Path

    from evallib.report._items_sections import _paired_t_size

    manual = (Path(__file__).parents[1] / "docs" / "report" / "items.md").read_text().replace("\n", " ")
    eight, fifteen = (_paired_t_size(n, 0.05)[0] for n in (8, 15))
    assert f"(up to {eight:.3f} at 8 items, {fifteen:.3f} at 15, at alpha 0.05)" in manual


def test_ignoring_clusters_is_said_to_narrow_the_intervals_only_where_cluster_items_are_alike():
    """Cold read r12: the example's CR2 standard errors are below the items-independent ones for all four models
    (negatively correlated items within a cluster), so "ignoring clusters makes the intervals too narrow" holds
    only where the items of one cluster are alike; the no-cluster sentence and the template say so."""
    import json
    from pathlib import Path

    from evallib.report._items_sections import independence_note

    flat = load_item_scores(_wide({"a": [1.0, 0.0, 1.0, 1.0], "b": [0.0, 0.0, 1.0, 1.0]}, None), item_column="item")
    assert "where the items of one cluster are alike, ignoring the clusters makes the intervals too narrow" \
        in independence_note(flat)
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_items.ipynb").read_text(encoding="utf-8"))
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("\n", " ")
    assert "where the clusters matter, it is too small" not in text
    assert "where items of one cluster are alike (positively correlated) it is too small" in text
