"""Cold read of the predictions report, round 3 (a statistics lecturer on stress files): a verdict
says which procedure it is read from, and none is drawn where the procedures disagree or where
the same sentence calls the interval unreliable.

References: McNemar's mid-p and Bonett–Price's interval written out in tests/_references.py
(scipy's binomial and normal laws), counts of discordant cases set by construction here.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from _references import bonett_price, mid_p
from evallib import report as rp

DATA = Path(__file__).resolve().parents[1] / "data" / "example_predictions.csv"


def _against_majority(n: int, m: int, b: int, c: int) -> rp.Predictions:
    """``m`` positives of ``n`` (the majority class is 0); ``lead`` gets ``b`` positives right and
    raises ``c`` false alarms, so against always predicting 0 it has ``b`` wins and ``c`` losses;
    ``other`` is worse (it flips 45 cases)."""
    y = np.array([1] * m + [0] * (n - m))
    lead = y.copy()
    lead[b:m] = 0
    lead[m:m + c] = 1
    other = y.copy()
    flip = np.random.default_rng(0).choice(n, 45, replace=False)
    other[flip] = 1 - other[flip]
    return rp.load_predictions(pd.DataFrame({"label": y, "pred_lead": lead, "pred_other": other}), pos_label=1)


def _first_bullet(data: rp.Predictions) -> str:
    return rp.summary_text(data, measures=rp.classifier_measures(data)).split("\n")[0]


@pytest.mark.parametrize("n, m, b, c", [(60, 25, 21, 10), (100, 40, 12, 4)])
def test_interval_and_mid_p_test_that_disagree_give_no_verdict(n, m, b, c):
    # by hand: b wins and c losses for lead over the majority class, on n cases; Bonett–Price and
    # the mid-p test fall on opposite sides of alpha = 0.05 here (found by search over b, c)
    low, high = bonett_price(b, c, n, 0.05)
    p = mid_p(b, c)
    excludes = low > 0
    assert excludes != (p <= 0.05) and abs(p - 0.05) < 0.0011
    text = _first_bullet(_against_majority(n, m, b, c))
    assert "): lead beats the majority class" not in text
    assert "does not show that lead beats" not in text
    shown = f"p = {p:.3g}"   # three digits put 0.0501 above 0.05 and 0.049 below it
    assert (float(shown[4:]) <= 0.05) == (p <= 0.05) and shown in text
    assert not re.search(r"p = 0\.050?(?![0-9])", text)   # never printed as alpha itself
    if excludes:
        assert (f"borderline: the Bonett–Price interval excludes 0 but McNemar's mid-p test does not reject "
                f"equal accuracy at alpha = 0.05 ({shown}), so no verdict is drawn on whether lead beats the "
                "majority class") in text
    else:
        assert (f"borderline: McNemar's mid-p test rejects equal accuracy at alpha = 0.05 ({shown}) but the "
                "Bonett–Price interval includes 0, so no verdict is drawn on whether lead beats the majority "
                "class") in text


def test_a_verdict_against_the_majority_class_names_its_procedure():
    n, m, b, c = 100, 40, 30, 4   # far from alpha: both procedures reject
    low, p = bonett_price(b, c, n, 0.05)[0], mid_p(b, c)
    assert low > 0 and p < 0.001
    text = _first_bullet(_against_majority(n, m, b, c))
    assert ("lead beats the majority class (the verdict is read from the Bonett–Price interval, which excludes 0; "
            "McNemar's mid-p test agrees, rejecting equal accuracy at alpha = 0.05)") in text


def _few_discordant():
    """30 positives and 30 negatives; a misses 3 positives, b those 3 and 8 more: their predictions
    differ on exactly 8 cases, fewer than the 25 below which the bootstrap interval is unreliable."""
    y = np.array([1] * 30 + [0] * 30)
    a, b = y.copy(), y.copy()
    a[:3] = 0
    b[:11] = 0
    assert int(np.count_nonzero(a != b)) == 8
    return rp.load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}), pos_label=1)


def test_an_f_measure_interval_called_unreliable_gives_no_verdict():
    data = _few_discordant()
    m = rp.classifier_measures(data)
    boot = rp.top_two_bootstrap(data, m, n_resamples=2000, rng=0)
    assert boot.n_discordant == 8 and boot.excludes_zero   # the interval alone would say "differ"
    # F1 by hand: a finds 27 of 30 positives with no false alarm, b 19 of 30
    assert (boot.f1_best, boot.f1_second) == pytest.approx((2 * 27 / (2 * 27 + 3), 2 * 19 / (2 * 19 + 11)))
    summary = rp.summary_text(data, measures=m, pairwise=rp.pairwise_comparison(data), bootstrap=boot)
    (bullet,) = [line for line in summary.split("\n") if "By F-measure" in line]
    for text in (boot.summary(), boot.text(), bullet):
        assert "differ at alpha" not in text and "not shown to differ" not in text
        assert "excludes 0" not in text and "includes 0" not in text
        assert ("the bootstrap interval is unreliable here, as the two classifiers' predictions differ on only "
                "8 test cases (fewer than 25)") in text.replace("The bootstrap", "the bootstrap")
        assert "no verdict at alpha = 0.05 is drawn from it, and the report has no other test of the F-measure" in text
    d = 3   # the interval is still stated, with the shares
    assert f"interval {boot.low:+.{d}f} to {boot.high:+.{d}f}" in boot.summary()
    assert "of the 2,000 resamples" in boot.summary()


def test_an_unreliable_f_measure_interval_is_not_set_against_the_error_rate_test():
    from evallib.report._sections import F1Comparison
    from evallib.report._text import _bootstrap_sentence

    pairwise = pd.DataFrame({"pair": [("a", "b")], "reject": [False], "diff_low": [-0.1], "diff_high": [0.05],
                             "pvalue_adj": [0.3]})
    pairwise.attrs["adjust"] = "none"

    def boot(n_discordant):
        return F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.6, difference=0.2, low=0.05, high=0.35,
                            share_best_better=0.97, share_tied=0.01, n_resamples=2000, alpha=0.05,
                            n_classifiers=2, n_discordant=n_discordant, seed=0)

    reliable = _bootstrap_sentence(None, boot(40), pairwise)
    assert ("disagree on this pair (the bootstrap interval of the F-measure difference excludes 0, the 95% "
            "Bonett–Price interval of the error-rate difference does not; McNemar's mid-p test does not reject "
            "equal error rates at alpha = 0.05, p = 0.30)" in reliable)
    assert "finds a difference" not in reliable
    assert "disagree" not in _bootstrap_sentence(None, boot(8), pairwise)


def test_the_skew_sentences_print_the_smallest_share_below_the_rule_it_breaks():
    # 249 positives of 2,500: 9.96%, below the 10% of the rule; one decimal would print "10.0%"
    y = np.array([1] * 249 + [0] * 2251)
    a = y.copy()
    a[:40], a[300:340] = 0, 1
    b = y.copy()
    b[:60] = 0
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}), pos_label=1)
    (skew,) = [w for w in rp.summarise_data(data).warnings if w.startswith("heavy class skew")]
    assert "only 9.96% of the cases are in the minority class" in skew and "less than 10% of the cases" in skew
    text = _first_bullet(data)
    assert "the smallest class holds 9.96% of the cases" in text and "10.0%" not in text


def test_multiclass_majority_class_balanced_accuracy_is_one_over_k():
    # K = 4, the smallest class 6 of 236 cases (2.5%): skewed, as the rule's 1/5 of 1/4 is 5%
    rng = np.random.default_rng(1)
    y = np.array(["a"] * 120 + ["b"] * 60 + ["c"] * 50 + ["d"] * 6)
    m1 = y.copy()
    flip = rng.random(y.size) < 0.2
    m1[flip] = rng.choice(["a", "b", "c", "d"], flip.sum())
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_m1": m1, "pred_m2": np.full(y.size, "a")}))
    (skew,) = [w for w in rp.summarise_data(data).warnings if w.startswith("heavy class skew")]
    assert ("only 2.5% of the cases are in the smallest class, where 4 balanced classes would put 25% in each"
            in skew)
    assert "less than 5% of the cases, 1/5 of the 25% that 4 balanced classes give each" in skew
    text = _first_bullet(data)
    # always predicting "a": recall 1 on a, 0 on the other three, so balanced accuracy 1/4
    assert "Always predicting the majority class scores 25.0%" in text
    recalls = [np.mean(m1[y == c] == c) for c in "abcd"]
    assert f"**m1** has the highest balanced accuracy (average recall): {100 * np.mean(recalls):.1f}%" in text
    assert f"m1 is {100 * (np.mean(recalls) - 0.25):.1f} percentage points ahead" in text
    assert "50.0%" not in text and "1/2" not in text and "chance" not in text


def test_forman_cohen_says_what_its_critical_value_allows_for_and_does_not_test():
    data = rp.load_predictions(DATA, pos_label="ER-")
    chance = rp.chance_check(data, rp.classifier_measures(data), classifiers_tried=7)
    what = ("(Forman & Cohen, alpha = 0.05: the critical value allows for picking the best of C = 7 classifiers on "
            "the same test set, and it tests the winner against random rankings, not against the other classifiers)")
    for text in (chance.summary(), chance.headline()):
        assert what in text
        assert " vs " not in text and "pair" not in text


def test_one_pair_gets_one_bullet_and_no_adjustment_words():
    from evallib.report._text import pairwise_method_line

    data = _few_discordant()   # two classifiers: one pair, 8 discordant cases
    m = rp.classifier_measures(data)
    pw = rp.pairwise_comparison(data)   # default adjustment: Holm, which one comparison does not need
    ba = rp.balanced_accuracy_comparison(data)
    text = rp.summary_text(data, measures=m, pairwise=pw, balanced=ba, omnibus=rp.omnibus_test(data))
    pair_bullets = [line for line in text.split("\n") if "a and b" in line or "a vs b" in line]
    assert len(pair_bullets) == 1, pair_bullets
    assert pair_bullets[0].startswith("- The two classifiers, a and b: a makes 13.3 percentage points fewer errors")
    # a is wrong on 3 cases, b on 11, and a is never wrong where b is right: mid-p of b = 8, c = 0
    assert f"McNemar's mid-p test gives p = {mid_p(8, 0):.2g}" in pair_bullets[0]
    assert "leaders" not in text and "fewest errors" not in text
    assert "adjust" not in text.lower() and "Holm" not in text
    for table in (rp.format_pairwise(pw), rp.format_balanced_pairs(ba)):
        headers = " ".join(table.columns)
        assert "adjusted" not in headers.replace("unadjusted", "") and "joint" not in headers and "Holm" not in headers
    assert "p (unadjusted; McNemar's mid-p test)" in rp.format_pairwise(pw).columns
    assert "Holm" not in pairwise_method_line(pw) and "one comparison" in pairwise_method_line(pw)


def _delong_by_hand(pos, neg):
    """AUC and DeLong's standard error from the placement values, written out (DeLong et al. 1988)."""
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), np.sqrt(v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size)


def test_an_auc_interval_clipped_at_1_or_0_says_so():
    from scipy import stats

    y = np.array([1] * 8 + [0] * 8)
    s_a = np.r_[np.arange(8) + 5.5, np.arange(8)]   # positives 5.5..12.5 over negatives 0..7
    s_b = np.r_[np.arange(8) + 4.5, np.arange(8)]
    auc, se = _delong_by_hand(s_a[:8], s_a[8:])
    z = stats.norm.isf(0.025)
    assert auc == pytest.approx(61 / 64) and auc + z * se > 1 > auc - z * se > 0.5
    data = rp.load_predictions(pd.DataFrame({"label": y, "score_a": s_a, "score_b": s_b}), pos_label=1)
    text = rp.score_comparison(data).summary()
    assert (f"**a** leads with {auc:.3f} (95% DeLong interval {auc - z * se:.3f} to 1.000, the upper end clipped at "
            "the largest AUC possible, 1.000; random scores: 0.5)") in text
    # reversed: b's AUC is 1 - 0.906, its interval clipped at 0
    rev = rp.load_predictions(pd.DataFrame({"label": y, "score_a": -s_a, "score_b": -s_b, "pred_a": y,
                                            "pred_b": 1 - y}), pos_label=1)
    auc_b, se_b = _delong_by_hand(-s_b[:8], -s_b[8:])
    assert auc_b - z * se_b < 0
    (low,) = [w for w in rp.score_warnings(rev, rp.classifier_measures(rev)) if w.startswith("b's AUC")]
    assert (f"its 95% DeLong interval 0.000 to {auc_b + z * se_b:.3f} (the lower end clipped at the smallest AUC "
            "possible, 0.000) excludes 0.5") in low


# ------------------------------------------------------------------ cold read r8
def test_the_reason_an_f_measure_interval_is_unreliable_is_true():
    """F1 of a resample depends on every case's TP/FP/FN, so the resampled differences take many values
    (the reader counted 2,487 distinct ones on the example); what few discordant cases do is make each
    resample's difference turn on how many of them it draws. Counted here from the bootstrap itself."""
    data = _few_discordant()
    m = rp.classifier_measures(data)
    boot = rp.top_two_bootstrap(data, m, n_resamples=2000, rng=0)
    assert "take few distinct values" not in boot.summary() + boot.text()
    assert ("so each resample's difference turns on how many of those few cases it happens to draw, and the "
            "percentile interval's coverage is not assured") in boot.summary()


def test_one_pair_disagreement_is_not_blamed_on_an_adjustment():
    """With two classifiers section 3 makes one comparison, unadjusted: the sentence that sets the F-measure
    interval against the error-rate test must not say the test's verdict is adjusted for the number of pairs."""
    from evallib.report._sections import F1Comparison
    from evallib.report._text import _bootstrap_sentence

    pairwise = pd.DataFrame({"pair": [("a", "b")], "reject": [False], "diff_low": [-0.1], "diff_high": [0.05],
                             "pvalue_adj": [0.3]})
    pairwise.attrs["adjust"] = "holm"   # the default menu choice; with one pair it adjusts nothing
    boot = F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.6, difference=0.2, low=0.05, high=0.35,
                        share_best_better=0.97, share_tied=0.01, n_resamples=2000, alpha=0.05,
                        n_classifiers=2, n_discordant=40, seed=0)
    text = _bootstrap_sentence(None, boot, pairwise)
    assert "disagree on this pair" in text and "adjusted for the number of pairs" not in text


def test_equal_error_counts_are_not_a_verdict_of_equality():
    """b = c (each classifier right where the other is wrong equally often) is what this test set shows;
    the verdict is the test's, not shown to differ, never "equal"."""
    y = np.array([1] * 20 + [0] * 20)
    a, b = y.copy(), y.copy()
    a[:3] = 0          # a misses 3 positives
    b[20:23] = 1       # b raises 3 false alarms: 3 errors each, on different cases
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}), pos_label=1)
    pw = rp.pairwise_comparison(data)
    assert (int(pw["b"].iloc[0]), int(pw["c"].iloc[0])) == (3, 3)
    assert pw["verdict"].iloc[0] == "not shown to differ (the same number of errors here)"


def test_labels_that_are_no_threshold_of_good_scores_are_not_called_reversed():
    """Cold read r9 (f_folds.csv): labels at 0.880 accuracy beside scores ranking the classes with AUC above
    0.5 are two different classifiers, not reversed scores. Here one positive (0.3) sits below three of the
    six negatives (AUC by hand 1 - 3/24 = 0.875), and the best threshold (above 0.6) gets 9 of 10 cases
    right, while the labels get every case right."""
    from evallib.report._sections import score_warnings

    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    scores = np.array([0.9, 0.8, 0.7, 0.3, 0.6, 0.4, 0.35, 0.2, 0.1, 0.05])   # one negative (0.6) above a positive (0.3)
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": y, "score_a": scores,
                                             "pred_b": [1, 0] * 5}), pos_label=1)
    m = rp.classifier_measures(data)
    assert float(m.at["a", "AUC"]) == pytest.approx(1 - 3 / 24)
    (warning,) = [w for w in score_warnings(data, m) if w.startswith("a's")]
    assert "reversed" not in warning
    assert warning.startswith("a's predicted labels do not come from a threshold on its scores: no threshold on "
                              "the scores reaches the accuracy of the labels (0.900 at best against 1.000), although "
                              "the scores rank the classes better than random ones (AUC 0.875)")


def test_a_fold_t_test_without_variation_prints_no_statistic_or_p_value():
    """Every fold's difference 0: t = 0/0 is undefined, so neither the text nor the table holds a t or a p."""
    from evallib.report._text import _fold_tests

    frame = pd.DataFrame({"label": ["x", "y", "x", "y"], "pred_a": ["x", "y", "x", "x"],
                          "pred_b": ["x", "y", "x", "x"], "fold": [1, 1, 2, 2]})
    data = rp.load_predictions(frame, pos_label="y")
    folds = rp.fold_analysis(data)
    text = folds.text()
    assert "the per-fold differences are all 0 (no variation): the t statistic is undefined" in text
    assert "t = 0.00" not in text and "p = 1.0" not in text.split("Friedman")[0]
    row = _fold_tests(folds).iloc[0]
    assert np.isnan(row["statistic"]) and np.isnan(row["pvalue"])


def test_the_f_measure_bootstrap_of_identical_predictions_claims_no_monte_carlo_bound():
    y = np.array([1] * 10 + [0] * 10)
    pred = y.copy()
    pred[:2] = 0
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": pred, "pred_b": pred,
                                             "pred_c": 1 - y}), pos_label=1)
    boot = rp.top_two_bootstrap(data, rp.classifier_measures(data), n_resamples=500, rng=0)
    assert boot.n_discordant == 0
    text = boot.text()
    assert "rule of three" not in text and "differ on only 0" not in text
    assert "equal in every one of the 500 resamples by construction" in text


def test_the_chance_check_says_labels_beyond_their_scores_are_not_judged():
    """Cold read r10 (f_folds.csv): the check judges the scores' best threshold (0.900 here, by hand: 9 of
    10), so labels at 1.000 are another classifier, not judged; the summary must not leave "the best
    accuracy ... does not beat chance" as if it were the labels'."""
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    scores = np.array([0.9, 0.8, 0.7, 0.3, 0.6, 0.4, 0.35, 0.2, 0.1, 0.05])
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": y, "score_a": scores,
                                             "pred_b": [1, 0] * 5}), pos_label=1)
    headline = rp.chance_check(data, rp.classifier_measures(data)).headline()
    assert ("The predicted labels of a (1.000 accuracy, against 0.900 at its scores' best threshold) are more "
            "accurate than any threshold on the scores: this check judges the scores") in headline


def test_with_repeats_the_chance_checks_auc_is_named_as_the_mean_scores():
    """Cold read r10 (h_repeat.csv): with repeated cases the check ranks each case's mean score, whose AUC
    differs from section 4's AUC over every prediction; the summary names which one it is. By hand: case 0
    (positive) and case 1 (negative) with two repeats each; mean scores 0.6 and 0.5 rank them right (AUC 1),
    while the pooled predictions (0.9, 0.3 against 0.5, 0.5) put one positive below the negatives."""
    frame = pd.DataFrame({"case": [0, 0, 1, 1, 2, 2, 3, 3], "repeat": [1, 2] * 4,
                          "label": [1, 1, 0, 0, 1, 1, 0, 0],
                          "score_a": [0.9, 0.3, 0.5, 0.5, 0.8, 0.7, 0.2, 0.1],
                          "score_b": [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]})
    data = rp.load_predictions(frame, pos_label=1, case_column="case", repeat_column="repeat")
    headline = rp.chance_check(data, rp.classifier_measures(data)).headline()
    assert ("the best AUC of each case's mean score over its repeats (not section 4's AUC over every "
            "prediction) (a's, 1.000)") in headline
