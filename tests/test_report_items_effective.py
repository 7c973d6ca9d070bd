"""Section 2's note on Wilson's effective sample size (effective_n_note) and the ``effective_n``,
``independent_effective_n`` columns of model_means, on small constructed files of 0/1 answers, 4 per
item, whose clusters mix easy and hard items (so the cluster-robust variance is below the
items-independent one).

References, by hand with numpy: Korn and Graubard's ``n_eff = p (1 - p) / V`` capped at the smaller of the
number of 0/1 scores and the items-independent ``p (1 - p) / V_alone`` (one cap for every model), with ``V`` the CR2 variance of the mean of the item means written out with dense
matrices (:func:`_references.cr2_variance`, which also gives the Bell–McCaffrey df), the
items-independent ``V`` the sample variance of the item means over ``N``; the intervals from
statsmodels' Wilson interval on ``n_eff (z / t_df)^2``; the quantiles from scipy.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from _references import cr2_variance as cr2_reference, wilson_effective as wilson_effective_reference

from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import effective_n_note, model_means

K = 4  # answers per item


def _answers(counts) -> np.ndarray:
    """Items x K answers, item i right on its first counts[i] answers."""
    return np.array([[1.0] * c + [0.0] * (K - c) for c in counts])


def _file(models: dict[str, list[list[int]]]):
    """Each model's right answers per item, the items grouped in clusters (the inner lists)."""
    frames, answers = [], {}
    for model, clusters in models.items():
        y = _answers([c for cluster in clusters for c in cluster])
        labels = np.concatenate([[g] * len(cluster) for g, cluster in enumerate(clusters)])
        answers[model] = (y, labels)
        n = y.shape[0]
        frames.append(pd.DataFrame({"item": np.repeat([f"q{i:02d}" for i in range(n)], K), "model": model,
                                    "sample": np.tile(np.arange(K), n), "score": y.ravel(),
                                    "cluster": np.repeat([f"c{g}" for g in labels], K)}))
    data = load_item_scores(pd.concat(frames, ignore_index=True), item_column="item", cluster_column="cluster",
                            sample_column="sample")
    return data, answers


def _reference(y: np.ndarray, labels: np.ndarray, alpha: float = 0.05) -> dict:
    m = y.mean(axis=1)                       # the item means (every item answered K times)
    p, N, n_obs = m.mean(), m.size, y.size
    V, df = cr2_reference(m, labels)
    V_alone = float(np.var(m, ddof=1)) / N   # the items taken as independent, N - 1 df
    alone = min(p * (1 - p) / V_alone, n_obs)
    cap = min(n_obs, alone)                  # one cap for every model: the items-independent sample size too
    low, high = wilson_effective_reference(p, V, df, cap, alpha)
    alone_low, alone_high = wilson_effective_reference(p, V_alone, N - 1, n_obs, alpha)
    return dict(p=p, N=N, n_obs=n_obs, df=df, ratio=V / V_alone, raw=p * (1 - p) / V, cap=cap, low=low, high=high,
                n_eff=min(p * (1 - p) / V, cap), alone=alone, width=(high - low) / (alone_high - alone_low))


#: 8 clusters of 3 items: A's cluster totals vary (cap does not bind), B's hardly (cap binds)
FEW = {"A": [[4, 2, 0], [4, 3, 2], [1, 1, 0], [4, 2, 1], [4, 4, 1], [3, 0, 0], [4, 2, 0], [4, 3, 0]],
       "B": [[4, 2, 0], [3, 2, 1], [4, 1, 1], [2, 2, 1], [4, 2, 0], [3, 3, 1], [4, 1, 1], [3, 2, 1]]}
#: 20 clusters of 2 items, an easy one and a hard one more often than not
MANY = [[2, 3], [2, 0], [2, 4], [1, 4], [4, 2], [1, 0], [3, 4], [1, 4], [2, 3], [4, 2], [0, 4], [3, 3], [2, 0],
        [3, 0], [3, 0], [1, 1], [3, 1], [3, 3], [2, 4], [0, 4]]


def test_effective_n_columns_match_korn_graubard_by_hand():
    data, answers = _file(FEW)
    means = model_means(data)
    for model, (y, labels) in answers.items():
        ref = _reference(y, labels)
        row = means.loc[model]
        assert row["effective_n"] == pytest.approx(ref["n_eff"], rel=1e-9)
        assert row["independent_effective_n"] == pytest.approx(ref["alone"], rel=1e-9)
        assert row["cap"] == pytest.approx(ref["cap"], rel=1e-9)
        assert (row["low"], row["high"]) == (pytest.approx(ref["low"], abs=1e-12), pytest.approx(ref["high"], abs=1e-12))
        assert row["design_effect"] == pytest.approx(ref["ratio"], rel=1e-9)
        assert (row["scores"], row["n_items"]) == (ref["n_obs"], ref["N"])
    a, b = _reference(*answers["A"]), _reference(*answers["B"])
    # the constructed file has what the cap is about: A's variance ratio below 1 would give an effective sample
    # size above the items-independent one (the answers' cap, its 0/1 scores, would not stop it); B's is above
    # the answers' cap itself
    assert a["ratio"] < 1 and a["alone"] < a["raw"] < a["n_obs"]
    assert b["raw"] > b["n_obs"]


def test_one_cap_for_every_model_no_interval_is_narrowed_by_a_variance_ratio_below_1():
    """Cold read I3: with several answers per item a cluster-robust variance below the items-independent one
    narrowed the interval (the example's forest), while with one answer per item the same chance was capped.
    Now every model's effective sample size stops at its items-independent sample size: A's sits there."""
    data, answers = _file(FEW)
    means = model_means(data)
    a = _reference(*answers["A"])
    assert means.loc["A", "effective_n"] == pytest.approx(a["alone"], rel=1e-9)
    assert means.loc["A", "effective_n"] < a["raw"]


def test_effective_n_note_says_where_the_cap_binds_and_at_which_bound():
    data, answers = _file(FEW)
    note = effective_n_note(model_means(data))
    a, b = _reference(*answers["A"]), _reference(*answers["B"])
    assert note.startswith("Wilson's effective sample size is p(1 - p) / variance, capped, for every model, at the "
                           "smaller of its number of 0/1 scores")
    assert b["cap"] < b["n_obs"]
    assert (f"The cap binds for A (at its items-independent sample size, {a['alone']:,.1f}, below its "
            f"{a['n_obs']} 0/1 scores ({K} answers per item)) and B (at its items-independent sample size, "
            f"{b['alone']:,.1f}, below its {b['n_obs']} 0/1 scores ({K} answers per item)).") in note
    assert "does not bind" not in note


def test_effective_n_note_with_many_clusters_caps_both():
    data, answers = _file({"A": MANY, "B": [c[::-1] for c in MANY[::-1]]})
    means = model_means(data)
    note = effective_n_note(means)
    for model in "AB":
        ref = _reference(*answers[model])
        assert ref["ratio"] < 1 and ref["alone"] < ref["raw"]
        assert means.loc[model, "effective_n"] == pytest.approx(ref["alone"], rel=1e-9)
        # capped at the items-independent sample size, on 19 df against 39: no narrower than independent items
        assert ref["width"] >= 1
        assert f"{model} (at its items-independent sample size, {ref['alone']:,.1f}" in note


def test_effective_n_note_is_silent_where_no_interval_uses_an_effective_sample_size():
    # one answer per item, no clusters: Wilson's own interval, no effective sample size
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(50)], "A": rng.integers(0, 2, 50),
                          "B": rng.integers(0, 2, 50)})
    means = model_means(load_item_scores(frame, item_column="item"))
    assert means["effective_n"].isna().all() and effective_n_note(means) is None
    # fractional scores: a CR2 t interval
    frame[["A", "B"]] = rng.random((50, 2)).round(3)
    assert effective_n_note(model_means(load_item_scores(frame, item_column="item"))) is None


def test_effective_n_note_above_one_only_restates_the_rule():
    """A variance ratio above 1 (clusters of alike items) below the cap: neither sentence."""
    data, answers = _file({"A": [[4, 4, 3], [0, 0, 1], [4, 3, 4], [1, 0, 0], [2, 3, 2], [4, 4, 4]],
                           "B": [[0, 1, 0], [4, 4, 4], [3, 2, 2], [4, 3, 4], [0, 0, 0], [1, 1, 2]]})
    note = effective_n_note(model_means(data))
    for model in "AB":
        ref = _reference(*answers[model])
        assert ref["ratio"] > 1 and ref["n_eff"] < ref["n_obs"]
    # six clusters, fewer than 30: the note adds that the estimates from them are noisy, and that the cap does
    # not bind, with both models' numbers
    refs = {m: _reference(*answers[m]) for m in "AB"}
    assert ("narrows no model's interval; the cluster-robust variances, and so the effective sample sizes and "
            "design effects rest on only 6 clusters (fewer than 30), so they are themselves noisy.") in note
    assert note.endswith(f"It does not bind for A (effective sample size {refs['A']['n_eff']:,.1f} below its cap "
                         f"{refs['A']['cap']:,.1f}) and B (effective sample size {refs['B']['n_eff']:,.1f} below its "
                         f"cap {refs['B']['cap']:,.1f}): their cluster-robust variance is above the "
                         "items-independent one.")
    assert math.isfinite(model_means(data)["effective_n"].iloc[0])
