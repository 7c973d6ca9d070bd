"""Findings of a cold reading of the three report templates: sentences that were not true for
every file and option, fixed in the report code.

References: discordant counts and differences counted here on files built case by case,
scipy's binomial law (McNemar's mid-p, :func:`test_report._mid_p`) with statsmodels' Holm
adjustment, a one-way analysis of variance written out with numpy, pandas' own ranking of
Demšar's Table 6, and nbconvert's Markdown renderer for what reaches the page.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests
from _references import mid_p as _mid_p

from evallib.report import (
    classifier_measures,
    load_predictions,
    pairwise_comparison,
    summary_text,
)


# ------------------------------------------------------------------ the predictions report
def _errors_frame(n: int, errors: dict[str, set[int]]) -> pd.DataFrame:
    """0/1 labels (alternating) and one classifier per entry, wrong exactly on the given cases."""
    y = np.arange(n) % 2
    frame = pd.DataFrame({"label": y})
    for name, wrong in errors.items():
        mask = np.isin(np.arange(n), sorted(wrong))
        frame[f"pred_{name}"] = np.where(mask, 1 - y, y)
    return frame


def test_the_largest_significant_difference_is_named_not_the_largest_of_all():
    """a vs b: 0 and 12 discordant cases (3 points, mid-p 0.00024); a vs c: 30 and 50 (5 points,
    mid-p 0.03, Holm 0.07): the largest difference is not significant, and the summary's
    "largest" must be a vs b's."""
    a = set(range(40))
    b = a | set(range(40, 52))
    c = set(range(10)) | set(range(100, 150))
    frame = _errors_frame(400, {"a": a, "b": b, "c": c})
    disc = {("a", "b"): (0, 12), ("a", "c"): (30, 50), ("b", "c"): (42, 50)}
    reject = multipletests([_mid_p(*bc) for bc in disc.values()], method="holm")[0]
    assert reject.tolist() == [True, False, False]  # the reference: only a vs b
    data = load_predictions(frame)
    pairs = pairwise_comparison(data)
    assert pairs.iloc[0]["pair"] == ("a", "c") and not pairs.iloc[0]["reject"]  # largest first, not significant
    text = summary_text(data, measures=classifier_measures(data), pairwise=pairs)
    assert "1 of the pairwise differences is significant at alpha = 0.05 (a vs b); a makes 3.0 percentage " \
           "points fewer errors than b" in text
    assert "5.0 percentage points fewer errors" not in text


def test_pairs_with_few_disagreements_are_not_called_wide():
    """a vs b disagree on 3 cases of 400: the interval of the difference is narrow (it cannot pass
    3/400 by much), so the summary must not call it wide; it says the comparison rests on little."""
    frame = _errors_frame(400, {"a": set(range(40)), "b": set(range(40)) | {100, 101, 102}})
    data = load_predictions(frame)
    pairs = pairwise_comparison(data)
    row = pairs.iloc[0]
    assert row["b"] + row["c"] == 3 and row["diff_high"] - row["diff_low"] < 0.04
    text = summary_text(data, measures=classifier_measures(data), pairwise=pairs)
    assert "intervals are wide" not in text
    assert ("it rests on fewer than 25 disagreements (flagged in section 3): only those cases tell two "
            "classifiers apart, so the comparison rests on little evidence") in text   # the one pair


# ------------------------------------------------------------------ text from the file, in all three
NAMES = ["see http://example.com/x", "[l](https://e.com)", "<https://e.com>", "<img src=x onerror=alert(1)>",
         "*b* _i_ `c` $m$ ~s~", "a|b #h", "&amp; &lt;", "gpt-4o: run 2"]


@pytest.mark.parametrize("name", NAMES)
def test_text_from_the_file_reaches_the_page_as_written(name):
    """The three reports' one escaper (md, md_text and md_escape before 0.2.0), rendered by the
    page's own Markdown renderer: no element (no link, no image, no emphasis, no maths) is made
    from the text, and the page shows it as written."""
    import html
    import re

    from evallib.report.htmlexport import markdown_to_html
    from evallib.report._prose import escape

    page = markdown_to_html(f"Model {escape(name)} leads.").strip()
    assert page.startswith("<p>") and page.endswith("</p>"), page
    inner = page[3:-4]
    assert not re.search(r"<[A-Za-z/]", inner), page  # no element at all
    assert html.unescape(inner) == f"Model {name} leads.", page


# ------------------------------------------------------------------ the per-item report
def _items_frame(seed: int = 0, n: int = 60, answers: int = 4, leader: str = "many") -> pd.DataFrame:
    """Long per-item 0/1 scores in 10 clusters: model "many" answers every item ``answers`` times,
    model "once" once; ``leader`` names the model with the higher mean."""
    rng = np.random.default_rng(seed)
    difficulty = rng.uniform(0.2, 0.9, n)
    bump = {"many": 0.08 if leader == "many" else -0.08, "once": 0.0}
    rows = []
    for i in range(n):
        for model, k in (("many", answers), ("once", 1)):
            p = min(1.0, max(0.0, difficulty[i] + bump[model]))
            for s in range(1, k + 1):
                rows.append({"item": f"q{i}", "cluster": f"c{i % 10}", "model": model, "sample": s,
                             "score": int(rng.random() < p)})
    return pd.DataFrame(rows)


def _items_summary(frame: pd.DataFrame, **options):
    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import (
        items_summary_text,
        leaderboard,
        model_means,
        pairwise_items,
        sample_analysis,
        summarise_items,
    )

    data = load_item_scores(frame, item_column="item", **options)
    parts = dict(overview=summarise_items(data), means=model_means(data), pairs=pairwise_items(data),
                 samples=sample_analysis(data), board=leaderboard(data, n_resamples=400, rng=0))
    return data, parts, items_summary_text(data, **parts)


def test_variance_components_table_is_readable_and_matches_a_written_out_anova():
    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import format_components, sample_analysis

    frame = _items_frame()
    # the written-out ANOVA standard errors are the unclustered ones: read the file without its cluster
    # column (with clusters, section 4's standard errors are the CR2 ones since issue 33; test_report_items
    # checks those against a written-out CR2)
    samples = sample_analysis(load_item_scores(frame.drop(columns="cluster"), item_column="item"))
    table = format_components(samples)
    y = frame[frame["model"] == "many"].pivot(index="item", columns="sample", values="score").to_numpy(float)
    n, k = y.shape
    msw = np.sum((y - y.mean(axis=1, keepdims=True)) ** 2) / (n * (k - 1))
    msb = k * np.sum((y.mean(axis=1) - y.mean()) ** 2) / (n - 1)
    between = max(0.0, (msb - msw) / k)
    row = table.loc["many"]
    assert row["answers per item"] == "4"
    assert row["between items (variance)"] == f"{between:.4f}" and row["within items (variance)"] == f"{msw:.4f}"
    assert row["between-item share of an answer's variance"] == f"{between / (between + msw):.3f}"
    assert row["SE of the mean"] == f"{np.sqrt((between + msw / k) / n):.4f}"
    assert row["SE with twice the answers"] == f"{np.sqrt((between + msw / (2 * k)) / n):.4f}"
    assert row["SE with unlimited answers"] == f"{np.sqrt(between / n):.4f}"
    once = table.loc["once"]
    assert once["within items (variance)"] == "-" and once["SE of the mean"] == "-"
    assert "nan" not in table.to_string().lower()


def test_pass_at_k_table_against_enumerated_subsets():
    from itertools import combinations

    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import format_passk, sample_analysis

    frame = _items_frame()
    samples = sample_analysis(load_item_scores(frame, item_column="item"))
    table = format_passk(samples)
    answers = frame[frame["model"] == "many"].groupby("item")["score"].apply(list)
    for k in (2, 4):
        pass_k = np.mean([np.mean([max(c) for c in combinations(a, k)]) for a in answers])
        hat_k = np.mean([np.mean([min(c) for c in combinations(a, k)]) for a in answers])
        assert table.loc[("many", k), "pass@k"] == f"{pass_k:.4f}"
        assert table.loc[("many", k), "pass^k"] == f"{hat_k:.4f}"
    assert list(table.columns) == ["pass@k", "pass@k 95% CR2 t interval", "pass^k", "pass^k 95% CR2 t interval"]  # the cluster column is found by name


def test_the_leaders_answers_are_its_own():
    """The first bullet says how often the leader answered each item, not the range over all models."""
    _, _, text = _items_summary(_items_frame(leader="once"))
    assert "**once** has the highest mean score" in text and "answered 1 to 4 times" not in text
    assert "each answered" not in text.split("\n")[0]
    _, _, text = _items_summary(_items_frame(leader="many"))
    assert "**many** has the highest mean score" in text and "each answered 4 times by it (section 2)." in text


def test_the_variance_bullet_says_its_standard_errors_take_the_clusters_into_account():
    """Issue 33: with clusters, section 4's standard errors and floor are the clustered ones (they
    ignored the clusters before, and the bullet said so)."""
    from evallib.items import item_mean

    data, parts, text = _items_summary(_items_frame(leader="many"), cluster_column="cluster")
    se = item_mean(data.model_scores("many"), clusters=data.clusters, method="cr2", missing="drop").se
    assert f"standard error of its mean from {se:.4f}" in text
    assert "; these are CR2 cluster-robust standard errors, which take the clusters into account" in text
    _, _, flat = _items_summary(_items_frame(leader="many").drop(columns="cluster"))
    assert "CR2 cluster-robust standard errors" not in flat
    assert "- **Assumption:** No cluster column was given, so the items are taken as independent" in flat


def test_rivals_for_first_place_are_said_to_pass_five_percent():
    frame = _items_frame(leader="many")
    twin = frame[frame["model"] == "many"].assign(model="twin")
    _, parts, text = _items_summary(pd.concat([frame, twin], ignore_index=True))
    ranks = parts["board"].ranks
    rivals = ranks.iloc[1:][ranks["p_best"].iloc[1:] >= 0.05]
    assert len(rivals) >= 1  # "many" and its exact twin share first place
    lead = "the other model that ranks first" if len(rivals) == 1 else "the other models that rank first"
    assert f"{lead} in a share of at least 0.05 of them: " in text and "in some" not in text
    b = ranks.attrs["n_resamples"]
    # "many" and "twin" tie in every resample, so the pair is first in a share q = 2 p of them and each such
    # resample credits either 1/2: the MC SE of p is (1/2) sqrt(q (1 - q) / B), written out; 0 when q = 1
    p = float(ranks.set_index("model").loc["twin", "p_best"])
    q = 2 * p
    assert 0.5 * math.sqrt(q * (1 - q) / b) >= 0.0005
    assert f"twin ({p:.3f}, MC SE {0.5 * math.sqrt(q * (1 - q) / b):.3f})" in text


# ------------------------------------------------------------------ the many-data-sets report
def _demsar_summary(**options):
    from evallib.report._datasets_inputs import load_results
    from evallib.report._datasets_sections import describe_results, friedman_test, posthoc_tests
    from evallib.report._datasets_text import results_summary
    from evallib.studies import demsar_table_6

    res = load_results(demsar_table_6())
    overview, fs = describe_results(res), friedman_test(res)
    ph = posthoc_tests(res, friedman_rejects=fs.reject, **options)
    return demsar_table_6(), ph, results_summary(res, overview=overview, friedman=fs, posthoc=ph, bayes=None)


def test_best_on_says_how_many_wins_are_shared():
    """Demšar's Table 6: C4.5+m+cf has the highest AUC on 7 data sets, on one of them (mushroom,
    1.000 for all four) shared; the summary must not count a shared best as a win unsaid."""
    table, _, text = _demsar_summary()
    leader = "C4.5+m+cf"
    top = table.max(axis=1)
    best = int((table[leader] == top).sum())
    alone = int(((table[leader] == top) & (table.eq(top, axis=0).sum(axis=1) == 1)).sum())
    assert (best, alone) == (7, 6)
    assert (f"it is best on {best} of the 14 data sets (alone on {alone}, tied for the best score on "
            f"{best - alone})") in text


def test_wilcoxon_and_control_sentences_say_what_they_count():
    """The Wilcoxon clause says what it counts ("finds 1: ..." did not), and each classifier that
    differs from the control is said to rank ahead of it or behind it."""
    table, ph, text = _demsar_summary(control="C4.5")
    hits = ph.pairs[ph.pairs["wilcoxon_reject"]]
    assert len(hits) == 1  # C4.5+m vs C4.5 (test_report_datasets checks the p-values)
    assert (f"with Holm's adjustment finds 1 pair that differs: "
            f"{hits.iloc[0]['a']} vs {hits.iloc[0]['b']}, adjusted p = {hits.iloc[0]['wilcoxon_pvalue_adj']:.2g} (Holm)") in text
    ranks = table.rank(axis=1, ascending=False).mean()
    for name in ("C4.5+m+cf", "C4.5+m"):  # both differ from the control (Demšar, section 3.2.4) and rank ahead
        assert f"{name} (rank {ranks[name]:.3f}, ahead of it;" in text


def test_pass_at_k_bullet_is_true_when_items_have_different_numbers_of_answers():
    """"With k answers per item" is said only when every item has k; with 3 to 5 answers the bullet says
    so and that k is the fewest (the k pass@k can draw on every item), the counts taken from the frame."""
    frame = _items_frame(answers=5, leader="many")
    short = frame["item"].isin([f"q{i}" for i in range(0, 60, 2)]) & (frame["sample"] > 3)
    frame = frame[~short]
    per_item = frame[frame["model"] == "many"].groupby("item").size()
    _, _, text = _items_summary(frame)
    (bullet,) = [b for b in text.split("\n") if "pass@" in b]
    assert f"many answered each item {per_item.min()} to {per_item.max()} times; drawing {per_item.min()} of an item's " \
           "answers (the fewest any item has), it gets at least one right on" in bullet
    assert "With 3 answers per item" not in bullet and f"(pass@{per_item.min()};" in bullet
    _, _, equal = _items_summary(_items_frame(answers=4, leader="many"))
    assert "With 4 answers per item, many gets at least one right on" in equal


def test_the_only_model_with_repeated_answers_is_not_said_to_have_the_highest_mean():
    """With one model that answered items more than once there is nothing to compare it with."""
    _, _, text = _items_summary(_items_frame(leader="once"))
    (bullet,) = [b for b in text.split("\n") if "vary:" in b or "are not shown to be more alike" in b]
    assert bullet.startswith("- The leader answered each item once; many is the only model that answered items "
                             "more than once, and its answers")
    assert "highest mean" not in bullet
