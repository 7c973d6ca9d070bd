"""Models scored on partly different items (failed samples dropped, a subset rerun): the per-item
report compares each pair on the items both scored and says how many; each mean is on its own items.

References: the item means with pandas, the pairs' CR2 standard error written out
(``sum_g e_g^2 / (1 - n_g / N) / N^2`` on the shared items), Holm from statsmodels, and
the paired t-test of scipy where there are no clusters.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.items import leaderboard_pairs, rank_intervals, tie_group
from evallib.report import ReportInputError
from evallib.report._items_inputs import load_item_scores
from evallib.report._items_sections import format_item_pairs, leaderboard, model_means, pairwise_items


@pytest.fixture(scope="module")
def partial():
    rng = np.random.default_rng(41)
    n, G = 150, 30
    passage = np.repeat(np.arange(G), n // G)
    p = rng.beta(4, 2, n)
    wide = pd.DataFrame({"item": [f"q{i:03d}" for i in range(n)], "cluster": [f"p{g}" for g in passage],
                         "A": (rng.random(n) < p).astype(int), "B": (rng.random(n) < p - 0.08).astype(int),
                         "C": (rng.random(n) < p - 0.15).astype(int)})
    long = wide.melt(id_vars=["item", "cluster"], var_name="model", value_name="score")
    # C failed on 20 items, B was rerun without 10 others
    lost = (long["model"] == "C") & long["item"].isin(wide["item"][:20]) | \
           (long["model"] == "B") & long["item"].isin(wide["item"][100:110])
    return wide, long[~lost].reset_index(drop=True)


def _cr2(d: np.ndarray, groups: np.ndarray) -> float:
    e = pd.Series(d - d.mean()).groupby(groups).sum()
    sizes = pd.Series(1, index=range(d.size)).groupby(groups).sum()
    return math.sqrt(float((e ** 2 / (1 - sizes / d.size)).sum())) / d.size


def test_each_pair_on_the_items_both_scored(partial):
    wide, long = partial
    data = load_item_scores(long, item_column="item", cluster_column="cluster")
    assert "Not every model scored every item: of the 150 items, 'B' scored 140; 'C' scored 130." in data.read_note
    means = model_means(data)
    scored = {"A": wide.index >= 0, "B": ~wide.index.isin(range(100, 110)), "C": wide.index >= 20}
    for m in "ABC":
        assert means.loc[m, "n_items"] == scored[m].sum()
        assert means.loc[m, "mean"] == pytest.approx(wide.loc[scored[m], m].mean())
    pairs = pairwise_items(data, alpha=0.05, adjust="holm")
    raw = []
    for _, row in pairs.iterrows():
        both = scored[row["a"]] & scored[row["b"]]
        d = (wide.loc[both, row["a"]] - wide.loc[both, row["b"]]).to_numpy(float)
        assert row["n_items"] == both.sum()
        assert row["estimate"] == pytest.approx(d.mean()) and row["se"] == pytest.approx(_cr2(d, wide.loc[both, "cluster"].to_numpy()))
        raw.append(row["pvalue"])
    assert sorted(pairs["n_items"]) == [120, 130, 140]
    assert pairs["pvalue_adj"].to_numpy() == pytest.approx(multipletests(raw, method="holm")[1])
    shown = format_item_pairs(pairs)
    assert "A - B on the items both scored" in shown.columns and sorted(shown["items"]) == ["120", "130", "140"]
    board = leaderboard(data, n_resamples=300, rng=0)
    assert board.ranks.set_index("model")["mean"].to_dict() == pytest.approx(means["mean"].to_dict())
    assert "each pair on the items both models scored" in board.tie.describe()
    assert "tied" not in board.tie.describe()


def test_leaderboard_pairs_missing_drop_matches_scipys_paired_t_on_the_shared_items(partial):
    wide, _ = partial
    frame = wide[["A", "B", "C"]].astype(float)
    frame.loc[:19, "C"] = np.nan
    frame.loc[100:109, "B"] = np.nan
    with pytest.raises(ValueError, match=r"missing='drop'"):
        leaderboard_pairs(frame)
    table = leaderboard_pairs(frame, missing="drop", adjust="none")
    for _, row in table.iterrows():
        both = frame[[row["a"], row["b"]]].dropna()
        ref = stats.ttest_rel(both[row["a"]], both[row["b"]])
        assert row["n_items"] == len(both) and row["pvalue"] == pytest.approx(ref.pvalue)
        assert row["mean_a"] == pytest.approx(frame[row["a"]].mean())   # pandas skips NaN: own items
    assert tie_group(frame, missing="drop").n_items == 150
    ranks = rank_intervals(frame, missing="drop", n_resamples=200, rng=1)
    assert ranks.set_index("model")["mean"].to_dict() == pytest.approx(frame.mean().to_dict())


def test_two_models_without_two_shared_items_are_refused_in_one_sentence(partial):
    wide, long = partial
    keep = ~((long["model"] == "C") & ~long["item"].isin(wide["item"][30:33])) & \
           ~((long["model"] == "B") & long["item"].isin(wide["item"][30:32]))
    with pytest.raises(ReportInputError, match=r"^Models 'B' and 'C' have 1 scored item in common of the 150"):
        load_item_scores(long[keep], item_column="item", cluster_column="cluster")


@pytest.mark.slow
def test_cli_report_on_partly_different_items(partial, tmp_path, capsys):
    from evallib.__main__ import main

    _, long = partial
    source = tmp_path / "partial.csv"
    long.to_csv(source, index=False)
    out = tmp_path / "partial.html"
    status = main(["report", str(source), "--item-column", "item", "--cluster-column", "cluster",
                   "--bootstrap-reps", "200", "-o", str(out), "-q"])
    assert status == 0, capsys.readouterr().err
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8"))))
    assert "Not every model scored every item" in text and "A - B on the items both scored" in text
    assert "has no score for" not in text
