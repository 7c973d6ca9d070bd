"""Cold read of the predictions report, round 4 (six findings of a reader on stress files): the
interval quoted for two classifiers alike on every case, which procedures disagree, a p-value in a
table beside its verdict, leaders that differ between pooled and per-fold accuracy, a clipped
balanced-accuracy interval and the largest pairwise difference against the margin.

References: Bonett–Price's interval and McNemar's mid-p written out in tests/_references.py (scipy's
normal and binomial laws), per-fold accuracies and ratios computed here with pandas, counts set by
construction.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from _references import bonett_price, mid_p
from conftest import predictions_summary
from evallib import report as rp


def _summary(data, **options) -> tuple[str, dict]:
    """The report's summary and its sections (conftest.predictions_summary), 500 bootstrap resamples."""
    return predictions_summary(data, **{"n_resamples": 500, **options})


# ------------------------------------------------------------------ 1. alike on every case, repeated
def _repeated_identical(extra: bool) -> pd.DataFrame:
    """60 cases, 3 repeats of 5-fold CV; a and b predict alike in every row, and each case's
    predictions vary between repeats (so the per-case error rates are fractional)."""
    rng = np.random.default_rng(1)
    y = np.where(rng.random(60) < 0.5, "yes", "no")
    rows = []
    for r in range(1, 4):
        folds = rng.permutation(np.arange(60) % 5) + 1
        for i in range(60):
            p = y[i] if rng.random() < 0.8 else ("no" if y[i] == "yes" else "yes")
            rows.append(dict(case_id=f"c{i:02d}", repeat=r, fold=folds[i], label=y[i], pred_a=p, pred_b=p))
    frame = pd.DataFrame(rows)
    if extra:
        flip = np.random.default_rng(5).random(len(frame)) < 0.3
        frame["pred_c"] = np.where(flip, np.where(frame["label"] == "yes", "no", "yes"), frame["label"])
    return frame


@pytest.mark.parametrize("extra", [False, True])
def test_classifiers_alike_on_every_repeated_case_quote_the_interval_of_the_cases(extra):
    frame = _repeated_identical(extra)
    data = rp.load_predictions(frame, pos_label="yes")
    rates = frame.assign(w=frame["pred_a"] != frame["label"]).groupby("case_id")["w"].mean()
    assert not rates.isin([0.0, 1.0]).all()   # the paired t path, not McNemar's
    text, parts = _summary(data)
    # b = c = 0 on 60 cases: Bonett–Price written out, about ±4.5 points, not a zero-width interval
    low, high = bonett_price(0, 0, 60, 0.05)
    assert 0.04 < high < 0.05
    assert (f"the 95% Bonett–Price interval of the difference, {100 * low:.1f} to {100 * high:.1f} percentage "
            "points, is what 60 cases leave open, not a difference known to be 0") in text
    assert "0.0 to 0.0 percentage points" not in text
    assert "the paired t interval of per-case differences that are all 0 has zero width" in text
    # the table agrees: no p-value for the pair with nothing to test, and the verdict says why
    table = rp.format_pairwise(parts["pairwise"])
    row = table.loc["a vs b"]
    p_col = [c for c in table.columns if c.startswith(("p (", "adjusted p"))][0]
    assert row[p_col] == "-"
    assert row["verdict"].startswith("identical error rates on every case: nothing to test")
    assert row["95% interval"] == f"{100 * low:.1f} to {100 * high:.1f}"
    # the small-test-set bullet names the interval the a-b pair has
    if not extra:
        assert "the 95% Bonett–Price intervals of the pairwise differences" in text
    else:
        assert "(Bonett–Price where the error rates are equal on every case)" in text


# ------------------------------------------------------------------ 2, 3. interval and test disagree
def _borderline_pair() -> pd.DataFrame:
    """60 cases, m and k: k errs alone on 21 positives, m alone on 10 negatives (b = 10, c = 21), so
    m makes 18.3 points fewer errors; both right on the other 29. The F-measures differ widely."""
    rows = ([("yes", "yes", "no")] * 21 + [("no", "yes", "no")] * 10 + [("yes", "yes", "yes")] * 9
            + [("no", "no", "no")] * 20)
    return pd.DataFrame(rows, columns=["label", "pred_m", "pred_k"])


def test_a_borderline_pair_prints_its_p_value_beside_the_verdict_on_its_side_of_alpha():
    data = rp.load_predictions(_borderline_pair(), pos_label="yes")
    low, high = bonett_price(10, 21, 60, 0.05)   # m minus k
    p = mid_p(10, 21)
    assert high < 0 and 0.05 < p < 0.0502   # the interval excludes 0, the test does not reject
    pw = rp.pairwise_comparison(data)
    table = rp.format_pairwise(pw)
    row = table.loc["m vs k"]
    cell = row["p (unadjusted; McNemar's mid-p test)"]
    assert cell == f"{p:.3g}" == "0.0501" and float(cell) > 0.05   # not "0.050", which reads as alpha
    assert row["verdict"] == "not shown to differ (borderline: the interval excludes 0)"
    text, _ = _summary(data)
    assert "read the difference as borderline" in text   # the summary's mark for the same pair


def test_the_f_measure_disagreement_names_every_interval_that_excludes_0_and_the_test_that_does_not_reject():
    data = rp.load_predictions(_borderline_pair(), pos_label="yes")
    low, high = bonett_price(10, 21, 60, 0.05)
    p = mid_p(10, 21)
    text, parts = _summary(data, n_resamples=2000)
    boot = parts["bootstrap"]
    # F-measures by hand: m has TP 30, FP 10, FN 0; k has TP 9, FP 0, FN 21
    assert boot.f1_best == pytest.approx(60 / 70) and boot.f1_second == pytest.approx(18 / 39)
    assert boot.excludes_zero and high < 0 and p > 0.05   # both intervals exclude 0; the test does not reject
    assert "only the bootstrap interval" not in text
    assert ("It and the error-rate test disagree on this pair (the bootstrap interval of the F-measure difference "
            "excludes 0, and so does the 95% Bonett–Price interval of the error-rate difference; McNemar's mid-p "
            f"test does not reject equal error rates at alpha = 0.05, p = {p:.3g})") in text


def test_the_f_measure_disagreement_the_other_way_says_which_interval_includes_0():
    from evallib.report._sections import F1Comparison
    from evallib.report._text import _bootstrap_sentence

    pairwise = pd.DataFrame({"pair": [("a", "b")], "reject": [True], "diff_low": [0.01], "diff_high": [0.2],
                             "pvalue_adj": [0.004]})
    pairwise.attrs.update(adjust="none", method="Bonett–Price", test="McNemar's mid-p test")
    boot = F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.7, difference=0.1, low=-0.05, high=0.25,
                        share_best_better=0.9, share_tied=0.01, n_resamples=2000, alpha=0.05,
                        n_classifiers=2, n_discordant=40, seed=0)
    text = _bootstrap_sentence(None, boot, pairwise)
    assert ("(McNemar's mid-p test rejects equal error rates at alpha = 0.05, p = 0.0040; the bootstrap interval "
            "of the F-measure difference includes 0, the 95% Bonett–Price interval of the error-rate difference "
            "does not)") in text


# ------------------------------------------------------------------ 4. pooled and per-fold leaders
def _unequal_folds(sizes=(5, 10, 15, 20, 30), err_a=(3, 4, 0, 0, 0), err_b=(0, 0, 2, 2, 4)) -> pd.DataFrame:
    """Folds of ``sizes`` cases; a errs on the first ``err_a`` cases of each fold, b on the last ``err_b``."""
    rows = []
    for f, (n, ea, eb) in enumerate(zip(sizes, err_a, err_b), 1):
        for i in range(n):
            y = "yes" if i % 2 == 0 else "no"
            other = "no" if y == "yes" else "yes"
            rows.append(dict(fold=f, label=y, pred_a=other if i < ea else y, pred_b=other if n - 1 - i < eb else y))
    return pd.DataFrame(rows)


def test_leaders_that_differ_between_pooled_and_per_fold_accuracy_are_explained():
    frame = _unequal_folds()
    right = frame.assign(a=frame["pred_a"] == frame["label"], b=frame["pred_b"] == frame["label"])
    pooled = right[["a", "b"]].mean()
    per_fold = right.groupby("fold")[["a", "b"]].mean().mean()
    assert pooled.idxmax() == "a" and per_fold.idxmax() == "b"   # the leaders differ by construction
    sizes = frame.groupby("fold").size()
    ratio = float(np.mean(sizes / (len(frame) - sizes)))
    assert abs(ratio - 1 / 4) > 0.02   # not 1/(k - 1)
    data = rp.load_predictions(frame, pos_label="yes")
    text, parts = _summary(data)
    folds = parts["folds"]
    assert folds.test_train_ratio == pytest.approx(ratio)
    assert (f"The leader by mean per-fold accuracy, b ({100 * per_fold['b']:.1f}%), is not the leader by accuracy "
            f"pooled over the cases (section 2), a ({100 * pooled['a']:.1f}% against b's {100 * pooled['b']:.1f}%): "
            "the mean over the folds weighs each fold equally, whatever its size, while pooled accuracy weighs each "
            "case equally, and these folds are unequal (5 to 30 cases).") in text
    assert (f"(n_test/n_train = {ratio:.3f}, the mean over the folds of fold size / rest of its repeat, since the "
            "folds are unequal (5 to 30 cases): not 1/(k - 1), which holds for k equal folds)") in folds.text()


def test_equal_folds_have_one_leader_and_the_plain_ratio():
    frame = _unequal_folds(sizes=(16,) * 5, err_a=(3, 4, 0, 0, 0), err_b=(0, 0, 2, 2, 4))
    data = rp.load_predictions(frame, pos_label="yes")
    text, parts = _summary(data)
    assert "The leader by mean per-fold accuracy" not in text   # equal folds: the two means are one
    assert "(n_test/n_train = 0.250):" in parts["folds"].text()


# ------------------------------------------------------------------ 5. a difference beyond the possible
def test_a_balanced_accuracy_difference_from_a_constant_classifier_is_clipped_at_the_largest_possible():
    from scipy import stats

    y = np.array(["yes"] * 10 + ["no"] * 190)
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_perfect": y, "pred_allno": "no"}), pos_label="yes")
    # allno's balanced accuracy is 1/2 whatever the cases, so perfect - allno is at most 1 - 1/2
    largest = 1.0 - 0.5
    # the stratified t interval written out: d = 1 on the 10 positives, 0 on the 190 negatives, each
    # class's variance floored at p~(1 - p~), p~ = (discordant + 1/2) / (n_k + 1); Welch–Satterthwaite df
    parts, dfs = [], []
    for disc, n_k in ((10, 10), (0, 190)):
        share = (disc + 0.5) / (n_k + 1)
        parts.append(share * (1 - share) / n_k / 4)
        dfs.append(n_k - 1)
    var = sum(parts)
    df = var ** 2 / sum(p_ ** 2 / d for p_, d in zip(parts, dfs))
    half = stats.t.isf(0.025, df) * np.sqrt(var)
    assert 0.5 + half > largest   # unclipped, the upper end is beyond the possible
    text, parts_ = _summary(data)
    row = parts_["balanced"].iloc[0]
    assert (row["a"], row["b"]) == ("perfect", "allno")
    assert row["high"] == largest and row["low"] == pytest.approx(0.5 - half)
    clause = "the upper end clipped at the largest difference possible, +50.0"
    assert (f"perfect is 50.0 percentage points ahead (95% stratified t interval {100 * (0.5 - half):.1f} to 50.0 "
            f"percentage points, {clause}") in text
    cell = rp.format_balanced_pairs(parts_["balanced"]).loc["perfect vs allno", "95% interval"]
    assert cell == f"{100 * (0.5 - half):.1f} to 50.0 ({clause})"
    assert f"{100 * (0.5 + half):.1f}" not in text   # never the unclipped 57.5


# ------------------------------------------------------------------ 6. the largest difference against the margin
@pytest.mark.parametrize("margin", [0.02, 0.04, 0.10])
def test_the_largest_pairwise_difference_is_read_against_the_margin(margin):
    rng = np.random.default_rng(6)
    n = 5000
    y = np.where(rng.random(n) < 0.5, "yes", "no")

    def clf(acc):
        return np.where(rng.random(n) < acc, y, np.where(y == "yes", "no", "yes"))

    frame = pd.DataFrame({"label": y, "pred_a": clf(0.90), "pred_b": clf(0.86), "pred_c": clf(0.85)})
    wrong = {k: frame[f"pred_{k}"] != frame["label"] for k in "abc"}
    # the largest difference by hand: a vs c; b = a wrong alone, c = c wrong alone
    b, c = int((wrong["a"] & ~wrong["c"]).sum()), int((~wrong["a"] & wrong["c"]).sum())
    assert abs(b - c) == max(abs(int(wrong[i].sum()) - int(wrong[j].sum())) for i, j in ("ab", "ac", "bc"))
    lo, hi = sorted(-v for v in bonett_price(b, c, n, 0.05 / 3))   # a's advantage, joint (Bonferroni) level
    data = rp.load_predictions(frame, pos_label="yes")
    text, _ = _summary(data, min_difference=margin)
    line = next(s for s in text.splitlines() if "the largest of them" in s)
    assert f"95% joint Bonett–Price interval {100 * lo:.1f} to {100 * hi:.1f} percentage points" in line
    points = f"{100 * margin:g} points"
    if lo > margin:
        expected = f"; the whole interval lies beyond the {points} that matter"
    elif hi < margin:
        expected = f"; the whole interval lies within ±{points}: too small to matter"
    else:
        expected = f"; the interval reaches past ±{points}, so whether the difference matters is open"
    assert f"so that all 3 hold together){expected}" in line
