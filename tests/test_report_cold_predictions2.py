"""Cold read of the predictions report, round 2: with two classifiers nothing was picked by the data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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
    y = np.array([1] * 3 + [0] * 34)
    p1 = np.where(y == 1, 0.6, 0.35)  # too high on the negatives: both Brier scores above pi(1 - pi)
    p2 = np.where(y == 1, 0.5, 0.3)
    frame = pd.DataFrame({"label": y, "score_m1": p1, "score_m2": p2})
    data = rp.load_predictions(frame, pos_label=1)
    sc = rp.score_comparison(data)
    pi = 3 / 37
    ref = pi * (1 - pi)  # by hand: the constant forecast pi scores pi(1 - pi)
    b1, b2 = np.mean((p1 - y) ** 2), np.mean((p2 - y) ** 2)
    assert b2 < b1 and b2 > ref
    text = sc.summary()
    assert (f"m2 has the lowest Brier score, {b2:.4f} (lower is better), worse than the {ref:.4f} of the "
            "prevalence forecast") in text
    (warning,) = sc.warnings()
    assert f"m1 ({b1:.4f}) and m2 ({b2:.4f}) are all worse than the {ref:.4f}" in warning
    m = rp.classifier_measures(data)
    assert "**Warning:** " + warning in rp.summary_text(data, measures=m, scores=sc)
    # a good forecaster beats the prevalence forecast: no warning, "better than"
    good = pd.DataFrame({"label": y, "score_m1": np.where(y == 1, 0.9, 0.02), "score_m2": p2})
    sc = rp.score_comparison(rp.load_predictions(good, pos_label=1))
    assert sc.warnings() == () and ", better than the" in sc.summary()


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
    assert f"the two leaders, a and b, have equal balanced accuracy ({ba:.1f}%)" in text
    assert "percentage points ahead" not in text.split("leaders")[1]
    # the one comparison is named with its effect: equal numbers of errors here
    assert "the one pair, a vs b, is not shown to differ at alpha = 0.05: a and b make equal numbers of errors" in text
