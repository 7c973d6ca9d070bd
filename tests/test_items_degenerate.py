"""The per-item statistics and report where the scores leave nothing to estimate from.

A model that answers every item right, a variance with no spread to split, a pass@k that is
the same on every item, and pairwise intervals that few uneven clusters push past the range
of a difference. References are independent: Wilson's interval from statsmodels on an
effective sample size written out here, the CR2 variance and its Bell–McCaffrey df from the
dense-matrix reference (``_references.cr2_variance``), and scipy's t quantile.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from _references import cr2_variance as cr2_reference
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from evallib.items import item_mean, leaderboard_pairs, variance_components
from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import (
    effective_n_note,
    format_components,
    format_passk,
    model_means,
    pairs_clipped_note,
    pairwise_items,
    sample_analysis,
)

N, G = 60, 10


def _perfect_frame(answers: int) -> pd.DataFrame:
    """A long file: 60 items in 10 clusters; ``perfect`` answers each ``answers`` times, all right;
    ``other`` once, right on a fixed pattern."""
    rows = []
    for i in range(N):
        for s in range(answers):
            rows.append((f"i{i}", f"c{i % G}", "perfect", s + 1, 1))
        rows.append((f"i{i}", f"c{i % G}", "other", 1, int(i % 5 != 0)))
    return pd.DataFrame(rows, columns=["item", "cluster", "model", "sample", "score"])


@pytest.mark.parametrize("answers", [1, 5])
def test_a_perfect_models_effective_sample_size_is_its_number_of_items(answers):
    """Identical answers to one item carry one item's information: the interval is Wilson's on
    n_eff = 60 items (not 60 x answers), with the df adjustment n_eff (z / t_df)^2."""
    clusters = np.arange(N) % G
    r = item_mean(np.ones((N, answers)), clusters=clusters, method="wilson")
    # Bell-McCaffrey df depends on the design only: the reference's df for any non-constant scores
    df = cr2_reference(np.arange(N) % 7, clusters)[1]
    z, t = stats.norm.isf(0.025), stats.t.isf(0.025, df)
    n_adj = N * (z / t) ** 2
    low, high = proportion_confint(n_adj, n_adj, alpha=0.05, method="wilson")
    assert (r.low, r.high) == pytest.approx((low, high), abs=1e-12)
    assert "number of items" in r.note


def test_more_identical_answers_do_not_narrow_a_perfect_models_interval():
    clusters = np.arange(N) % G
    once = item_mean(np.ones((N, 1)), clusters=clusters, method="wilson")
    many = item_mean(np.ones((N, 5)), clusters=clusters, method="wilson")
    assert (many.low, many.high) == pytest.approx((once.low, once.high), abs=1e-12)


def test_the_reports_section_2_says_a_perfect_models_effective_n_is_its_items():
    data = load_item_scores(_perfect_frame(5), item_column="item", cluster_column="cluster",
                            model_column="model", sample_column="sample", score_column="score")
    means = model_means(data)
    assert means.loc["perfect", "effective_n"] == pytest.approx(N)
    note = effective_n_note(means)
    assert "Every answer of perfect is 1" in note and "not its 300 answers" in note


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_the_icc_of_scores_with_no_spread_is_undefined(value):
    vc = variance_components(np.full((20, 3), value))
    assert math.isnan(vc.icc) and math.isnan(vc.icc_raw)
    assert vc.between == 0 and vc.within == 0
    assert "undefined" in vc.describe() and "undefined" in vc.note


def test_a_zero_width_passk_interval_is_not_printed_as_an_interval():
    data = load_item_scores(_perfect_frame(5).query("model == 'perfect'"), item_column="item",
                            cluster_column="cluster", model_column="model", sample_column="sample",
                            score_column="score", min_models=1)
    samples = sample_analysis(data)
    table = format_passk(samples)
    interval = [c for c in table.columns if c.startswith("pass@k") and "interval" in c][0]
    assert set(table[interval]) == {"- (SE 0)"}
    comps = format_components(samples)
    assert (comps.astype(str).apply(lambda col: col.str.contains("nan", case=False)).to_numpy().sum()) == 0


def _uneven_clusters():
    """Three clusters of 2, 3 and 150 items; the two models differ only in the two small ones."""
    sizes = [2, 3, 150]
    labels = np.repeat(np.arange(len(sizes)), sizes)
    rng = np.random.default_rng(3)
    a = (rng.random(labels.size) < 0.7).astype(float)
    b = a.copy()
    small = labels < 2
    b[small] = 1 - a[small]
    return a, b, labels


def test_pairwise_intervals_are_clipped_to_the_range_of_a_difference():
    a, b, labels = _uneven_clusters()
    table = leaderboard_pairs(pd.DataFrame({"A": a, "B": b}), clusters=labels, adjust="none")
    row = table.iloc[0]
    sign = 1.0 if row["a"] == "A" else -1.0
    d = sign * (a - b)
    V, df = cr2_reference(d, labels)
    half = stats.t.isf(0.025, df) * math.sqrt(V)
    assert row["estimate"] == pytest.approx(d.mean(), abs=1e-12)
    assert d.mean() - half < -1 or d.mean() + half > 1   # the case the clip exists for
    assert row["low"] == pytest.approx(max(-1.0, d.mean() - half), abs=1e-9)
    assert row["high"] == pytest.approx(min(1.0, d.mean() + half), abs=1e-9)


def test_the_report_clips_and_says_which_pair_was_clipped():
    a, b, labels = _uneven_clusters()
    frame = pd.DataFrame({"item": np.arange(a.size), "cluster": labels, "A": a, "B": b})
    pairs = pairwise_items(load_item_scores(frame, item_column="item", cluster_column="cluster"))
    assert pairs["low"].min() >= -1 and pairs["high"].max() <= 1
    note = pairs_clipped_note(pairs)
    assert note is not None and "clipped to [-1, 1]" in note
    unclipped = pairs[["unclipped_low", "unclipped_high"]].to_numpy(float)
    assert ((unclipped[:, 0] < -1) | (unclipped[:, 1] > 1)).all()
