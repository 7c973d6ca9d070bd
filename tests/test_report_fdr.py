"""False-discovery-rate control in the predictions report: ``--adjust bh`` and ``--adjust by``.

References: statsmodels' ``multipletests(method="fdr_bh" / "fdr_by")`` for the adjusted
p-values and the decisions (on the report's own raw p-values, and on mid-p values computed
here from the discordant counts with scipy); the unadjusted intervals are the report's own
``1 - alpha`` intervals, so under FDR control the second interval column must equal the
first. One end-to-end run (the command line on a generated file); everything else in-process.
"""

from __future__ import annotations

import re
from itertools import combinations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests
from _references import mid_p as _mid_p
from conftest import dispatch_report, run_cli as _run_cli, write_csv as _write

from evallib import report as rp
from evallib.report import (
    EXAMPLE_PATH,
    adjusted_pvalues,
    balanced_accuracy_comparison,
    classifier_measures,
    format_balanced_pairs,
    format_pairwise,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    plot_pair_intervals,
    score_comparison,
    summary_text,
)
from evallib.report._text import pairwise_method_line

SM = {"bh": "fdr_bh", "by": "fdr_by", "holm": "holm", "bonferroni": "bonferroni"}


def five_classifiers(seed: int = 3, n: int = 160) -> pd.DataFrame:
    """0/1 labels, five classifiers of graded noise with labels and scores (ten pairs)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.45).astype(int)
    frame = pd.DataFrame({"label": y})
    for name, noise in (("a", 0.08), ("b", 0.15), ("c", 0.22), ("d", 0.3), ("e", 0.45)):
        wrong = rng.random(n) < noise
        frame[f"pred_{name}"] = np.where(wrong, 1 - y, y)
        frame[f"score_{name}"] = np.round(rng.normal(size=n) + (1.6 - 2 * noise) * (2 * y - 1), 4)
    return frame


@pytest.fixture(scope="module")
def example():
    return load_predictions(EXAMPLE_PATH, pos_label="ER-")


@pytest.mark.parametrize("method", ["holm", "bonferroni", "bh", "by", "none"])
def test_adjusted_pvalues_match_statsmodels(method):
    """The report's 0.1.0 name, deprecated: it warns, naming evallib.adjust_pvalues, and gives its values."""
    rng = np.random.default_rng(7)
    p = np.concatenate([rng.uniform(0, 0.01, 4), rng.uniform(0, 1, 8)])
    p[2] = p[9]  # a tie
    want = p if method == "none" else multipletests(p, method=SM[method])[1]
    with pytest.warns(DeprecationWarning, match="evallib.adjust_pvalues"):
        np.testing.assert_allclose(adjusted_pvalues(p, method), want, rtol=1e-12)


def test_adjusted_pvalues_refuse_an_unknown_method():
    with pytest.raises(ValueError, match="adjust"), pytest.warns(DeprecationWarning):
        adjusted_pvalues([0.1, 0.2], "fdr")
    with pytest.raises(ValueError, match="adjust"):
        rp.pairwise_comparison(load_predictions(five_classifiers()), adjust="fdr")


@pytest.mark.parametrize("method", ["bh", "by"])
def test_pairwise_fdr_against_statsmodels_on_mid_p_values(method):
    frame = five_classifiers()
    data = load_predictions(frame)
    table = pairwise_comparison(data, adjust=method)
    y = frame["label"].to_numpy()
    raw = {}
    for i, j in combinations("abcde", 2):
        wi, wj = frame[f"pred_{i}"].to_numpy() != y, frame[f"pred_{j}"].to_numpy() != y
        raw[(i, j)] = _mid_p(int(np.sum(wi & ~wj)), int(np.sum(~wi & wj)))
    pairs = list(raw)
    reject, padj, _, _ = multipletests([raw[k] for k in pairs], alpha=0.05, method=SM[method])
    got = table.set_index(table["pair"].map(tuple))
    np.testing.assert_allclose(got.loc[pairs, "pvalue"], [raw[k] for k in pairs], rtol=1e-9)
    np.testing.assert_allclose(got.loc[pairs, "pvalue_adj"], padj, rtol=1e-9)
    np.testing.assert_array_equal(got.loc[pairs, "reject"], reject)
    # no joint interval corresponds to the false discovery rate: the second interval is the first
    np.testing.assert_array_equal(table["adj_low"], table["diff_low"])
    np.testing.assert_array_equal(table["adj_high"], table["diff_high"])
    assert table.attrs["interval_adjust"] == "none"
    assert pairwise_comparison(data, adjust="holm").attrs["interval_adjust"] == "bonferroni"


def test_fdr_declares_at_least_what_holm_declares():
    """BH's adjusted p-values are never above Holm's (Benjamini & Hochberg 1995, section 3)."""
    data = load_predictions(five_classifiers())
    holm, bh = pairwise_comparison(data, adjust="holm"), pairwise_comparison(data, adjust="bh")
    assert (bh["pvalue_adj"].to_numpy() <= holm["pvalue_adj"].to_numpy() + 1e-15).all()
    assert bh["reject"].sum() >= holm["reject"].sum()


@pytest.mark.parametrize("method", ["bh", "by"])
def test_balanced_accuracy_pairs_under_fdr(example, method):
    table = balanced_accuracy_comparison(example, adjust=method)
    np.testing.assert_allclose(table["pvalue_adj"], multipletests(table["pvalue"], method=SM[method])[1],
                               rtol=1e-12)
    np.testing.assert_allclose(table["low_adj"], table["low"], rtol=1e-12)
    np.testing.assert_allclose(table["high_adj"], table["high"], rtol=1e-12)
    holm = balanced_accuracy_comparison(example, adjust="holm")
    assert (holm["high_adj"] - holm["low_adj"] > holm["high"] - holm["low"]).all()  # joint: wider


@pytest.mark.parametrize("method, name", [("bh", "Benjamini–Hochberg"), ("by", "Benjamini–Yekutieli")])
def test_tables_and_the_method_line_say_what_fdr_controls(example, method, name):
    pairs = format_pairwise(pairwise_comparison(example, adjust=method))
    balanced = format_balanced_pairs(balanced_accuracy_comparison(example, adjust=method))
    for table in (pairs, balanced):
        assert "interval (unadjusted: FDR has no joint interval)" in table.columns
        assert not any("joint interval (Bonferroni)" in c for c in table.columns)
    assert f"adjusted p ({name}; McNemar's mid-p test)" in pairs.columns
    assert f"adjusted p ({name}; stratified paired t-test)" in balanced.columns
    line = pairwise_method_line(pairwise_comparison(example, adjust=method))
    assert f"{name}-adjusted" in line and "controls the false discovery rate" in line
    assert "not the family-wise error rate" in line and "unadjusted" in line
    assert "Holm" not in line


def test_the_summary_says_false_discovery_rate(example):
    measures = classifier_measures(example)
    for method, name in (("bh", "Benjamini–Hochberg"), ("by", "Benjamini–Yekutieli")):
        pairs = pairwise_comparison(example, adjust=method)
        scores = score_comparison(example, adjust=method)
        text = summary_text(example, measures=measures, pairwise=pairs, scores=scores,
                            omnibus=omnibus_test(example), balanced=balanced_accuracy_comparison(example, adjust=method))
        assert f"with {name}'s adjustment for 10 comparisons (it controls the false discovery rate" in text
        assert "DeLong's paired test, adjusted p = " in scores.summary()
        assert f" ({name}, false discovery rate)" in scores.summary()
        assert "Holm" not in text
    holm = summary_text(example, measures=measures, pairwise=pairwise_comparison(example),
                        scores=score_comparison(example))
    assert "false discovery" not in holm and "Holm's adjustment for 10 comparisons" in holm


def test_the_summary_counts_the_fdr_rejections(example):
    """The number of significant pairs the summary states is statsmodels' count of BH rejections."""
    pairs = pairwise_comparison(example, adjust="bh")
    expected = int(multipletests(pairs["pvalue"], method="fdr_bh")[0].sum())
    text = summary_text(example, measures=classifier_measures(example), pairwise=pairs)
    assert f", {expected} of the pairwise differences are significant" in text


def test_class_scores_summary_names_the_fdr_adjustment():
    rng = np.random.default_rng(5)
    n, classes = 150, ["x", "y", "z"]
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame({"label": np.array(classes)[y]})
    for name, sharp in (("m1", 2.0), ("m2", 1.0), ("m3", 0.3)):
        logits = rng.normal(size=(n, 3)) + sharp * np.eye(3)[y]
        prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        frame[f"pred_{name}"] = np.array(classes)[prob.argmax(axis=1)]
        for k, c in enumerate(classes):
            frame[f"score_{name}_{c}"] = prob[:, k]
    scores = score_comparison(load_predictions(frame), adjust="by")
    np.testing.assert_allclose(scores.loss_pairs["pvalue_adj"],
                               multipletests(scores.loss_pairs["pvalue"], method="fdr_by")[1], rtol=1e-12)
    assert "paired t-test, adjusted p = " in scores.summary()
    assert " (Benjamini–Yekutieli, false discovery rate)" in scores.summary()


def test_the_figure_draws_joint_intervals_only_under_family_wise_control(example):
    for method, joint in (("holm", True), ("bonferroni", True), ("bh", False), ("by", False), ("none", False)):
        ax = plot_pair_intervals(pairwise_comparison(example, adjust=method))
        labels = ax.get_legend_handles_labels()[1]
        assert ("95% joint interval (Bonferroni)" in labels) is joint and labels.count("interval") == 1
        plt.close(ax.figure)


def test_run_report_refuses_an_unknown_adjustment_before_anything_runs(tmp_path):
    with pytest.raises(ValueError, match="adjust"):
        rp.run_report(EXAMPLE_PATH, tmp_path / "out" / "r.html", pos_label="ER-", adjust="fdr",
                      progress=False)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("method", ["bh", "by"])
def test_the_command_line_passes_fdr_to_the_predictions_report(monkeypatch, tmp_path, method):
    from conftest import ROOT

    status, seen = dispatch_report(monkeypatch, [str(ROOT / "data" / "example_predictions.csv"), "--pos-label",
                                           "ER-", "--adjust", method, "-o", str(tmp_path / "p.html")])
    assert status == 0 and seen["report"] == "predictions" and seen["adjust"] == method


@pytest.mark.slow
def test_report_with_benjamini_hochberg_end_to_end(tmp_path):
    """The command line with --adjust bh: the adjusted p-values the report writes are statsmodels'
    BH adjustment of the raw p-values it writes, and the page says false discovery rate."""
    frame = five_classifiers()
    html, nb = _run_cli(tmp_path, _write(frame, tmp_path / "five.csv"), "--adjust", "bh")
    pairs = pd.read_csv(tmp_path / "report" / "out_tables" / "3_pairs.csv")
    reject, padj, _, _ = multipletests(pairs["pvalue"], alpha=0.05, method="fdr_bh")
    np.testing.assert_allclose(pairs["pvalue_adj"], padj, rtol=1e-9)
    np.testing.assert_array_equal(pairs["reject"], reject)
    np.testing.assert_allclose(pairs["adj_low"], pairs["diff_low"], rtol=1e-12)
    text = re.sub(r"\s+", " ", html)
    assert "controls the false discovery rate" in text
    assert "Benjamini–Hochberg-adjusted" in text and "adjusted p (Benjamini–Hochberg; McNemar" in text
    assert "interval (unadjusted: FDR has no joint interval)" in text
    assert "joint interval (Bonferroni)" not in text
    assert f"{int(reject.sum())} of the pairwise differences are significant" in text
