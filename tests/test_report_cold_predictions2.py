"""Cold read of the predictions report, round 2: with two classifiers nothing was picked by the data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pandas as pd
from sklearn.metrics import roc_auc_score

from evallib import report as rp

DATA = Path(__file__).resolve().parents[1] / "data" / "example_predictions.csv"


def _two(tmp_path):
    d = pd.read_csv(DATA)
    t = pd.DataFrame({"label": d.label, "pred_dlda30": d.pred_dlda30, "pred_dlda10": d.pred_dlda10,
                      "score_dlda30": d.score_dlda30, "score_dlda10": d.score_dlda10})
    p = tmp_path / "two.csv"
    t.to_csv(p, index=False)
    return rp.load_predictions(p, pos_label="ER-")


def test_two_scores_auc_sentence_says_only_pair_and_raw_p(tmp_path):
    data = _two(tmp_path)
    sc = rp.score_comparison(data)
    text = sc.summary()
    assert "picked by the data" not in text
    assert "the only pair" in text
    assert "Holm" not in text


def test_two_labelled_f1_sentence_says_only_pair(tmp_path):
    data = _two(tmp_path)
    boot = rp.top_two_bootstrap(data, rp.classifier_measures(data), n_resamples=200, rng=1)
    assert boot.n_classifiers == 2
    for text in (boot.summary(), boot.text()):
        assert "picked by the data" not in text
        assert "the only pair" in text


def test_three_labelled_f1_sentence_keeps_picked_pair():
    data = rp.load_predictions(DATA, pos_label="ER-")
    boot = rp.top_two_bootstrap(data, rp.classifier_measures(data), n_resamples=200, rng=1)
    assert boot.n_classifiers == len(data.predicted) > 2
    assert "picked by the data" in boot.summary()


def _perfect_and_two_alike():
    """One perfect ranking (AUC 1 by construction) and two columns of identical, imperfect scores."""
    rng = np.random.default_rng(3)
    y = np.array([1] * 12 + [0] * 30)
    noisy = y + rng.normal(0, 0.8, y.size)
    frame = pd.DataFrame({"label": y, "score_x": noisy, "score_y": noisy,
                          "score_best": y * 10.0 + rng.uniform(0, 1, y.size)})
    return rp.load_predictions(frame, pos_label=1), frame


def test_perfect_separation_prints_no_delong_interval():
    data, frame = _perfect_and_two_alike()
    assert roc_auc_score(frame.label, frame.score_best) == 1.0  # independent: scikit-learn
    sc = rp.score_comparison(data)
    text = sc.summary()
    assert "leads with 1.000 (DeLong's interval is degenerate (perfect separation);" in text
    assert "1.000 to 1.000" not in text
    # the leading pair: best against x, whose AUC is not 1, so the pair's variance is x's alone
    assert "it rests on x's variance alone, as best's AUC of 1.000 (perfect separation) has DeLong variance 0" in text
    table = rp.format_auc(sc)
    assert table.loc["best", "95% interval (DeLong)"] == "-"
    assert "degenerate (perfect separation)" in table.loc["best", "note"]
    assert table.loc["x", "95% interval (DeLong)"].startswith("[")
    pairs = rp.format_auc_pairs(sc)
    assert pairs.loc["x vs y", "verdict"] == "identical scores"
    assert pairs.loc["x vs y", "95% interval"] == "-"
    assert "rests on x's variance alone" in pairs.loc["x vs best", "note"]


def test_brier_is_read_against_the_prevalence_forecast():
    from scipy import stats

    y = np.array([1] * 3 + [0] * 34)
    pi = 3 / 37
    ref = pi * (1 - pi)  # by hand: the constant forecast pi scores pi(1 - pi)
    ref_loss = (pi - y) ** 2
    # a small gap (0.103 against 0.0745 on 37 cases) is not shown: no warning, "not shown to differ"
    p1 = np.where(y == 1, 0.6, 0.35)
    p2 = np.where(y == 1, 0.5, 0.3)
    data = rp.load_predictions(pd.DataFrame({"label": y, "score_m1": p1, "score_m2": p2}), pos_label=1)
    sc = rp.score_comparison(data)
    b1, b2 = np.mean((p1 - y) ** 2), np.mean((p2 - y) ** 2)
    assert b2 < b1 and b2 > ref
    t = stats.ttest_rel((p2 - y) ** 2, ref_loss)  # independent: scipy on the per-case Brier losses
    assert t.pvalue > 0.05
    ci = t.confidence_interval(0.95)
    text = sc.summary()
    assert (f"m2 has the lowest Brier score, {b2:.4f} (lower is better); against the prevalence forecast, which "
            "gives every case the test set's own share of positive cases, 8.1%, as its probability (the best "
            f"constant forecast fitted on this test set; Brier score {ref:.4f}), it is {b2 - ref:.4f} worse (95% "
            f"interval of the difference, m2's Brier score minus the forecast's, {ci.low:+.4f} to {ci.high:+.4f}, paired t-test over cases, "
            f"p = {t.pvalue:.2f}): not shown to differ from the prevalence forecast at alpha = 0.05.") in text
    assert sc.warnings() == ()
    rows = sc.reference_pairs.set_index("a")
    for name, p in (("m1", p1), ("m2", p2)):
        t = stats.ttest_rel((p - y) ** 2, ref_loss)
        assert rows.loc[name, "pvalue"] == pytest.approx(t.pvalue, rel=1e-9)
        assert rows.loc[name, "difference"] == pytest.approx(np.mean((p - y) ** 2) - ref, abs=1e-12)
    # both clearly worse (0.5 and 0.4 on the 34 negatives): the warning, "both", "neither"
    q1, q2 = np.full(y.size, 0.5), np.where(y == 1, 0.5, 0.4)
    data = rp.load_predictions(pd.DataFrame({"label": y, "score_m1": q1, "score_m2": q2}), pos_label=1)
    sc = rp.score_comparison(data)
    t1, t2 = (stats.ttest_rel((q - y) ** 2, ref_loss) for q in (q1, q2))
    assert t1.pvalue <= 0.05 and t2.pvalue <= 0.05 and t1.statistic > 0 and t2.statistic > 0
    (warning,) = sc.warnings()
    c1, _c2 = np.mean((q1 - y) ** 2), np.mean((q2 - y) ** 2)
    assert warning.startswith(f"The Brier scores of m1 ({c1:.4f}; ")
    assert "are both worse than the prevalence forecast" in warning
    assert "both do worse than that share alone" in warning and "better than that share" not in warning
    # one column of probabilities shown worse: "it does worse" (it once read "it does better")
    one = rp.score_comparison(rp.load_predictions(pd.DataFrame({"label": y, "score_m1": q1, "score_m2": 100 * q2}),
                                                 pos_label=1))  # m2's scores are not probabilities
    (alone,) = one.warnings()
    assert f"The Brier score of m1 ({c1:.4f}; " in alone and "is worse than the prevalence forecast" in alone
    assert "it does worse than that share alone" in alone and "better than that share" not in alone
    m = rp.classifier_measures(data)
    assert "**Warning:** " + warning in rp.summary_text(data, measures=m, scores=sc)
    # one clearly worse, one not shown worse: no warning
    data = rp.load_predictions(pd.DataFrame({"label": y, "score_m1": q1, "score_m2": p2}), pos_label=1)
    assert rp.score_comparison(data).warnings() == ()
    # a good forecaster beats the prevalence forecast (with 3 positives the test cannot show it;
    # with 15 it can): no warning, "better than"
    y = np.array([1] * 15 + [0] * 45)
    assert stats.ttest_rel(np.where(y == 1, 0.05, 0.01) ** 2, (0.25 - y) ** 2).pvalue <= 0.05
    good = pd.DataFrame({"label": y, "score_m1": np.where(y == 1, 0.95, 0.01), "score_m2": np.full(y.size, 0.3)})
    sc = rp.score_comparison(rp.load_predictions(good, pos_label=1))
    assert sc.warnings() == () and "better than the prevalence forecast at alpha = 0.05." in sc.summary()


def test_two_leaders_with_equal_balanced_accuracy_are_said_equal():
    y = np.array([1] * 4 + [0] * 46)  # skewed: the report leads with balanced accuracy
    a, b = y.copy(), y.copy()
    a[0], a[10] = 0, 1  # each misses one positive and one negative, different cases
    b[1], b[11] = 0, 1
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}), pos_label=1)
    m = rp.classifier_measures(data)
    pairs = rp.pairwise_comparison(data)
    text = rp.summary_text(data, measures=m, pairwise=pairs, balanced=rp.balanced_accuracy_comparison(data))
    assert rp.format_pairwise(pairs).loc["a vs b", "fewer errors"] == "neither (equal)"  # 2 errors each
    ba = 100 * (3 / 4 + 45 / 46) / 2  # by hand
    assert f"the two classifiers, a and b, have equal balanced accuracy here ({ba:.1f}%)" in text
    assert "percentage points ahead" not in text.split("two classifiers")[1]
    # the one comparison, in one bullet, with both tests' verdicts: 2 discordant cases each way, so
    # McNemar's mid-p with b = c is 1 - P(X = 2)/2 for X ~ Binomial(4, 1/2) (Fagerland, Lydersen &
    # Laake 2013, supplement eq. 2) = 1 - 3/16 = 0.8125
    assert "they are not shown to differ at alpha = 0.05" in text
    assert f"gives p = {1 - 3 / 16:.2f} for the same pair, not rejecting equal error rates at alpha = 0.05" in text
    assert "two leaders" not in text


def test_balanced_accuracy_gap_over_the_majority_class_is_clipped_to_what_is_possible():
    from scipy import stats

    # 3 positives (2 caught), 34 negatives (1 false alarm): the majority class has balanced accuracy
    # 1/2, so the gap cannot exceed +50 percentage points
    y = np.array([1] * 3 + [0] * 34)
    pred = y.copy()
    pred[2], pred[3] = 0, 1
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_m1": pred, "pred_m2": np.zeros_like(y)}), pos_label=1)
    m = rp.classifier_measures(data)
    text = rp.summary_text(data, measures=m)
    # by hand: per-case differences d = correct - majority correct; positives d = correct (majority
    # misses them), negatives d = correct - 1; Welch–Satterthwaite over the two class means
    d_pos = (pred[:3] == 1).astype(float)
    d_neg = (pred[3:] == 0).astype(float) - 1.0
    est = (d_pos.mean() + d_neg.mean()) / 2
    # each class's variance floored by the Jeffreys-style p~(1 - p~), p~ = (discordant + 1/2) / (n + 1):
    # it binds for the negatives (1 discordant of 34)
    floor = [(x + 0.5) / (n + 1) * (1 - (x + 0.5) / (n + 1)) for x, n in ((2, 3), (1, 34))]
    parts = np.array([max(d_pos.var(ddof=1), floor[0]) / 3, max(d_neg.var(ddof=1), floor[1]) / 34]) / 4
    df = parts.sum() ** 2 / np.sum(parts ** 2 / np.array([2, 33]))
    half = stats.t.isf(0.025, df) * np.sqrt(parts.sum())
    assert est + half > 0.5 and est - half > -0.5  # only the upper end is clipped
    assert (f"m1 is {100 * est:.1f} percentage points ahead (95% stratified t interval {100 * (est - half):.1f} "
            "to 50.0 percentage points, the upper end clipped at the largest difference possible, +50.0; "
            "stratified paired t-test") in text
    assert f"{100 * (est + half):.1f} percentage points" not in text


def test_f_measure_bootstrap_says_identical_predictions_and_bounds_a_share_of_all_resamples():
    y = np.array([1] * 30 + [0] * 30)
    same = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": y, "pred_b": y, "pred_c": y}), pos_label=1)
    text = rp.top_two_bootstrap(same, rp.classifier_measures(same), n_resamples=2000, rng=0).summary()
    assert ": by F-measure a and b are equal (1.000)" in text
    assert "their predictions are identical, so the bootstrap interval has zero width" in text
    assert "where their predictions differ" not in text
    # a is perfect; b errs on 17 of 60 cases, so a resample without any of them has chance
    # (43/60)^60 < 1e-8: a's F1 is the higher in every one of the 2,000 resamples
    b = y.copy()
    b[:12], b[30:35] = 0, 1
    assert (43 / 60) ** 60 * 2000 < 1e-5
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": y, "pred_b": b}), pos_label=1)
    res = rp.top_two_bootstrap(data, rp.classifier_measures(data), n_resamples=2000, rng=0)
    bound = 100 * (1 - 3 / 2000)  # the rule of three, by hand
    words = (f"all of the 2,000 resamples (the share over endless resamples is at least {bound:.2f}% at 95% "
             "confidence, the rule of three, 3/2,000; seed 0)")
    assert words in res.summary() and words in res.text()
    assert "Monte Carlo standard error under 0.1" not in res.summary()


def test_cochran_q_without_informative_cases_is_not_shown_to_differ():
    from evallib.onetestset import cochran_q

    res = cochran_q(np.array([[1, 1, 1], [0, 0, 0], [1, 1, 1]]))  # every case alike: Q is 0/0
    assert res.pvalue == 1.0 and res.statistic == 0.0
    assert res.note.endswith("not shown to differ (no informative cases)")
    assert "no evidence" not in res.note


def test_section_four_tables_with_one_pair_name_no_adjustment():
    from scipy import stats

    from evallib.onetestset import format_loss_pairwise

    rng = np.random.default_rng(3)
    y = np.array([1] * 20 + [0] * 40)
    p1 = np.clip(0.3 * y + rng.uniform(0, 0.7, y.size), 0, 1)
    p2 = np.clip(0.2 * y + rng.uniform(0, 0.8, y.size), 0, 1)
    data = rp.load_predictions(pd.DataFrame({"label": y, "score_m1": p1, "score_m2": p2}), pos_label=1)
    sc = rp.score_comparison(data)
    auc = rp.format_auc_pairs(sc)
    assert list(auc.columns) == ["AUC a - b", "95% interval", "p (unadjusted; DeLong's test)", "verdict"]
    loss = format_loss_pairwise(sc.loss_pairs)
    assert list(loss.columns) == ["Brier a - b", "95% interval", "p (unadjusted; paired t-test)", "verdict"]
    t = stats.ttest_rel((p1 - y) ** 2, (p2 - y) ** 2)  # independent: scipy
    assert loss.iloc[0]["p (unadjusted; paired t-test)"] == f"{t.pvalue:.2g}" or float(
        loss.iloc[0]["p (unadjusted; paired t-test)"]) == pytest.approx(t.pvalue, abs=5e-3)
    assert not any("Holm" in c or "Bonferroni" in c for c in list(auc.columns) + list(loss.columns))


def test_the_small_class_warning_names_every_measure_it_weakens():
    y = np.array([1] * 3 + [0] * 34)  # 3 positives, fewer than 10
    labels = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": y, "pred_b": 1 - y}), pos_label=1)
    (few,) = [w for w in rp.summarise_data(labels).warnings if "very few" in w]
    assert few == ("only 3 cases of the minority class: recall, balanced accuracy (average recall) and F-measure "
                   "rest on very few cases.")
    scores = rp.load_predictions(pd.DataFrame({"label": y, "score_a": y * 0.8, "score_b": 0.5 + 0 * y}), pos_label=1)
    (few,) = [w for w in rp.summarise_data(scores).warnings if "very few" in w]
    assert "balanced accuracy (average recall)" in few and "AUC (with its DeLong interval)" in few


def test_the_gap_over_the_majority_class_says_when_it_is_from_unrounded_figures():
    import re

    # 200 cases, 170 of the majority class (85.0%), a right on 183 (91.5%): 91.5 - 85.0 = 6.5, the gap itself;
    # 301 cases, 200 of the majority class (66.45%, printed 66.4), a right on 201 (66.78%, printed 66.8):
    # the printed figures give 0.4, the gap is 1/301 = 0.33 (found by brute force)
    for n_major, n, right in ((170, 200, 183), (200, 301, 201)):
        y = np.array([0] * n_major + [1] * (n - n_major))
        a = y.copy()
        wrong = n - right
        a[:wrong] = 1  # wrong on `wrong` majority cases
        b = np.zeros_like(y)
        data = rp.load_predictions(pd.DataFrame({"label": y, "pred_a": a, "pred_b": b}), pos_label=1)
        text = rp.summary_text(data, measures=rp.classifier_measures(data))
        acc, base = right / n, n_major / n
        gap = re.search(r"a is ([0-9.]+) percentage points ahead", text).group(1)
        printed = round(100 * acc, 1) - round(100 * base, 1)
        assert (f"{printed:.{len(gap.split('.')[1])}f}" == gap) == ("from unrounded accuracies" not in text)
        if n == 301:
            assert "from unrounded accuracies; " in text


def test_accuracy_is_said_to_flatter_only_when_it_is_above_the_balanced_accuracy():
    # 3 positives, 34 negatives. x catches every positive and raises 10 false alarms; y misses one positive
    # and raises none. By hand: x accuracy 27/37 = 73.0% < balanced (1 + 24/34)/2 = 85.3%;
    # y accuracy 36/37 = 97.3% > balanced (2/3 + 1)/2 = 83.3%.
    y = np.array([1] * 3 + [0] * 34)
    x = y.copy()
    x[3:13] = 1
    z = y.copy()
    z[0] = 0
    for pred, acc, bal in ((x, 27 / 37, (1 + 24 / 34) / 2), (z, 36 / 37, (2 / 3 + 1) / 2)):
        data = rp.load_predictions(pd.DataFrame({"label": y, "pred_m": pred, "pred_none": np.zeros_like(y)}),
                                   pos_label=1)
        text = rp.summary_text(data, measures=rp.classifier_measures(data))
        assert f"{100 * bal:.1f}%" in text
        flatters = f"its accuracy, {100 * acc:.1f}%, would flatter it" in text
        assert flatters == (acc > bal)
        if not flatters:
            assert f"its accuracy is {100 * acc:.1f}%, against {100 * 34 / 37:.1f}% for always predicting" in text
