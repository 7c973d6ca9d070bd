"""Cold read of the predictions report, round 2: with two classifiers nothing was picked by the data."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

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
