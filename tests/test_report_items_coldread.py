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
