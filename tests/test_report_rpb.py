"""Cold read of the predictions report (read_rp, findings B1-B4 and C1-C5): what each compared figure is
computed from, no verdict on a pair picked by the data, the exit status of a bad option, the level in
the figure's legend, one order of the pairs.

References: F-measures at every threshold by brute force, counts set by construction, argparse's own
exit status for a bad option (2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from evallib import report as rp


def _f1(y: np.ndarray, pred: np.ndarray) -> float:
    tp = int(np.sum(pred & y))
    return 2 * tp / (2 * tp + int(np.sum(pred & ~y)) + int(np.sum(~pred & y)))


def test_chance_check_says_what_each_f1_is_computed_from_when_scores_and_labels_mix():
    """B1: a's labels are perfect (F1 1.000), but the check judges its scores; b has labels only. The
    best F1 of the check is then the highest of a's best-threshold F1 and b's labels' F1, not like with
    like: the headline names both values and their kinds (brute force over every threshold)."""
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], dtype=bool)
    score_a = np.array([0.9, 0.2, 0.7, 0.3, 0.6, 0.4, 0.35, 0.8, 0.1, 0.05])
    pred_b = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0], dtype=bool)
    data = rp.load_predictions(pd.DataFrame({"label": y.astype(int), "pred_a": y.astype(int), "score_a": score_a,
                                             "pred_b": pred_b.astype(int)}), pos_label=1)
    best_a = max(_f1(y, score_a >= t) for t in np.unique(score_a))
    f1_b = _f1(y, pred_b)
    assert f1_b > best_a   # b "wins" only against a's scores, not against a's labels (F1 1)
    headline = rp.chance_check(data, rp.classifier_measures(data)).headline()
    assert (f"the best F1, b's at its own threshold, beats chance" in headline
            or "the best F1, b's at its own threshold, does not beat chance" in headline)
    assert (f"the F1 values compared are not like with like: a's {best_a:.3f} at the best threshold of its "
            "scores (a has predicted labels too, whose F1 of section 2 is set aside for the scores), "
            f"b's {f1_b:.3f} at its own predicted labels") in headline
    # all of one kind: nothing to say
    only = rp.load_predictions(pd.DataFrame({"label": y.astype(int), "pred_a": y.astype(int),
                                             "pred_b": pred_b.astype(int)}), pos_label=1)
    assert "not like with like" not in rp.chance_check(only, rp.classifier_measures(only)).headline()
