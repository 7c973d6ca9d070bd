"""The predictions report on a skewed file (a rare class of a few cases): balanced accuracy's
stratified t interval and how the summary reads it.

References: the by-hand variance of a class mean (``p(1-p) n/(n-1)``), the Jeffreys-style
plug-in ``(x + 1/2)/(n + 1)`` and scipy's t distribution; the coverage check simulates files
from known recalls.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import stats

from evallib.report import _percase as percase


def _by_hand(classes_correct: list[tuple[int, int]], alpha: float = 0.05):
    """Balanced accuracy's se, Welch–Satterthwaite df and t interval from (right, n) per class,
    with the Jeffreys-style floor written out independently of evallib."""
    k = len(classes_correct)
    parts, dfs, means = [], [], []
    for x, n in classes_correct:
        p = x / n
        s2 = p * (1 - p) * n / (n - 1)
        share = (x + 0.5) / (n + 1)
        s2 = max(s2, share * (1 - share))
        parts.append(s2 / n / k**2)
        dfs.append(n - 1)
        means.append(p)
    var = sum(parts)
    df = var**2 / sum(q**2 / d for q, d in zip(parts, dfs))
    est = sum(means) / k
    half = stats.t.ppf(1 - alpha / 2, df) * math.sqrt(var)
    return est, math.sqrt(var), df, max(0.0, est - half), min(1.0, est + half)


def test_a_class_with_every_case_right_does_not_give_se_zero():
    # 3 positives all right, 34 negatives with 27 right; and a difference that is +1 on every positive
    classes = np.array([1] * 3 + [0] * 34)
    correct = np.array([1.0] * 3 + [1.0] * 27 + [0.0] * 7)
    res = percase.stratified_mean(correct, classes, alpha=0.05, bounds=(0.0, 1.0))
    est, se, df, low, high = _by_hand([(27, 34), (3, 3)])
    assert res.estimate == pytest.approx(est)
    assert res.se == pytest.approx(se) and res.se > 0.09
    assert res.df == pytest.approx(df)
    assert (res.low, res.high) == pytest.approx((low, high))
    # the positive class alone held the variance down before: its floor 0.875 * 0.125 / 3 / 4
    assert res.se**2 >= 0.875 * 0.125 / 12
    # the difference from always predicting the majority class: d = +1 on each positive, 0 on each
    # negative the classifier gets right, -1 on the 7 it gets wrong
    base = (classes == 0).astype(float)
    diff = percase.stratified_mean(correct - base, classes, alpha=0.05)
    share_p = 3.5 / 4                     # all 3 positives discordant
    s2_n = (7 / 34) * (27 / 34) * 34 / 33  # the negatives' d is 0 or -1: a proportion's variance
    s2_n = max(s2_n, (7.5 / 35) * (1 - 7.5 / 35))
    var = (share_p * (1 - share_p) / 3 + s2_n / 34) / 4
    assert diff.se == pytest.approx(math.sqrt(var))
    assert diff.pvalue > 1e-4   # p was 2.8e-10 with the positives' variance 0


def test_a_difference_of_zero_on_a_whole_class_has_a_floor():
    classes = np.array([1] * 3 + [0] * 10)
    d = np.array([0.0] * 3 + [1.0, -1.0] + [0.0] * 8)
    res = percase.stratified_mean(d, classes, alpha=0.05)
    share = 0.5 / 4
    s2_n = max(np.var([1, -1] + [0] * 8, ddof=1), (2.5 / 11) * (1 - 2.5 / 11))
    assert res.se == pytest.approx(math.sqrt((share * (1 - share) / 3 + s2_n / 10) / 4))


def test_other_bounds_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="bounds"):
        percase.stratified_mean(np.ones(4), np.array([0, 0, 1, 1]), alpha=0.05, bounds=(0.0, 2.0))
    with pytest.raises(ValueError, match="bounds"):
        percase.stratified_mean(np.ones(4), np.array([0, 0, 1, 1]), alpha=0.05, bounds=(0.5, 0.5))


def test_the_balanced_accuracy_interval_covers_on_a_rare_class():
    # 2000 simulated files of 3 positives + 34 negatives, true recalls 0.9 and 0.8 (balanced accuracy
    # 0.85), seeded. Monte Carlo SE of a coverage near 0.95 over 2000 files: sqrt(.95 * .05 / 2000) =
    # 0.005 (0.009 at the 0.78 measured without the floor), so 0.90 is about 10 SE below 0.95. Without
    # the variance floor this check measured 0.780 (MC SE 0.009): the 73% of files with all 3 positives
    # right got an interval from the negatives alone. With it, 0.999 (MC SE 0.0007; enumerating every
    # (right positives, right negatives) outcome gives 0.9990): conservative, not too narrow.
    rng = np.random.default_rng(20261203)
    classes = np.array([1] * 3 + [0] * 34)
    covered = 0
    reps = 2000
    for _ in range(reps):
        correct = np.concatenate([rng.random(3) < 0.9, rng.random(34) < 0.8]).astype(float)
        res = percase.stratified_mean(correct, classes, alpha=0.05, bounds=(0.0, 1.0))
        covered += res.low <= 0.85 <= res.high
    coverage = covered / reps
    assert coverage >= 0.90, f"coverage {coverage:.3f} (MC SE {math.sqrt(coverage * (1 - coverage) / reps):.3f})"


def _disagreeing_file():
    """10 positives, 190 negatives: a misses 1 positive and raises 10 false alarms, b misses every
    positive. By hand: balanced accuracy differs (a: (0.9 + 180/190)/2 against b: 1/2), McNemar's
    mid-p test on b = 10, c = 9 discordant cases does not reject."""
    import pandas as pd

    y = np.array(["pos"] * 10 + ["neg"] * 190)
    a = y.copy()
    a[10:20], a[0] = "pos", "neg"
    b = y.copy()
    b[:10] = "neg"
    return pd.DataFrame({"label": y, "pred_a": a, "pred_b": b})


def _summary(frame, pos_label):
    from evallib import report as rp

    data = rp.load_predictions(frame, pos_label=pos_label)
    return rp.summary_text(data, measures=rp.classifier_measures(data), pairwise=rp.pairwise_comparison(data),
                           omnibus=rp.omnibus_test(data), balanced=rp.balanced_accuracy_comparison(data))


def test_on_a_skewed_file_the_pairs_bullet_leads_with_balanced_accuracy():
    from _references import mid_p

    frame = _disagreeing_file()
    y = frame["label"].to_numpy()
    wa, wb = frame["pred_a"].to_numpy() != y, frame["pred_b"].to_numpy() != y
    assert mid_p(int(np.sum(wa & ~wb)), int(np.sum(~wa & wb))) > 0.05   # McNemar: not shown to differ
    # two classifiers, one pair: one bullet for it, balanced accuracy first, each test's verdict said
    text = _summary(frame, "pos")
    (bullet,) = [line for line in text.splitlines() if "for the same pair" in line]
    assert bullet.startswith("- By balanced accuracy the two classifiers are a and b: a is ")
    assert "the two differ at alpha = 0.05; McNemar's mid-p test" in bullet
    assert bullet.endswith("for the same pair, not rejecting equal error rates at alpha = 0.05.")
    assert bullet.index("stratified paired t-test") < bullet.index("McNemar")
    assert "two leaders" not in text and "with a single comparison" not in text
    # the disagreement is said once, in the verdicts bullet
    assert text.count("disagree") == 1
    assert ("disagree on the one pair: only the stratified paired t-test rejects equal balanced accuracy at "
            "alpha = 0.05, for a vs b") in text


def test_the_disagreement_sentence_is_only_said_when_they_disagree():
    # both verdicts agree (a perfect, b misses every positive and 40 negatives): no disagreement sentence
    y = np.array(["pos"] * 10 + ["neg"] * 190)
    b = y.copy()
    b[:10], b[10:50] = "neg", "pos"
    import pandas as pd

    text = _summary(pd.DataFrame({"label": y, "pred_a": y, "pred_b": b}), "pos")
    assert "By balanced accuracy the two classifiers are a and b" in text and "the two differ at alpha = 0.05" in text
    assert "answer different questions" not in text and "disagree" not in text
    # a balanced file: accuracy leads, no balanced-accuracy lead-in
    y2 = np.array(["pos"] * 50 + ["neg"] * 50)
    b2 = y2.copy()
    b2[:10] = "neg"
    text2 = _summary(pd.DataFrame({"label": y2, "pred_a": y2, "pred_b": b2}), "pos")
    assert "By balanced accuracy (stratified" not in text2


def test_a_balanced_accuracy_interval_clipped_at_100_percent_says_so():
    # 3 positives all right, 34 negatives with 30 right: the t interval, by hand, reaches past 100%
    import pandas as pd

    y = np.array([1] * 3 + [0] * 34)
    pred = y.copy()
    pred[3:7] = 1
    est, se, df, low, high = _by_hand([(30, 34), (3, 3)])
    assert est + stats.t.isf(0.025, df) * se > 1.0 and high == 1.0
    text = _summary(pd.DataFrame({"label": y, "pred_m1": pred, "pred_m2": np.zeros_like(y)}), 1)
    assert (f"{100 * est:.1f}% (95% stratified t interval {100 * low:.1f} to 100.0%, the upper end clipped at the "
            "largest balanced accuracy possible, 100.0%)") in text
    # not clipped: 20 positives (16 right) and 200 negatives (180 right); the t interval, by hand, ends below 100%
    y = np.array([1] * 20 + [0] * 200)
    pred = y.copy()
    pred[:4], pred[20:40] = 0, 1
    est, se, df, low, high = _by_hand([(180, 200), (16, 20)])
    assert est + stats.t.isf(0.025, df) * se < 1.0
    text = _summary(pd.DataFrame({"label": y, "pred_m1": pred, "pred_m2": np.zeros_like(y)}), 1)
    assert f"{100 * est:.1f}% (95% stratified t interval {100 * low:.1f} to {100 * high:.1f}%)" in text
    assert "largest balanced accuracy possible" not in text


def test_the_summary_says_equal_values_without_tie():
    # two classifiers with the same error rate below a better one (by hand: 2, 4 and 4 errors)
    import pandas as pd

    y = np.array([1] * 20 + [0] * 20)
    frame = pd.DataFrame({"label": y})
    for name, wrong in (("a", [0, 20]), ("b", [1, 2, 21, 22]), ("c", [3, 4, 23, 24])):
        pred = y.copy()
        pred[wrong] = 1 - pred[wrong]
        frame[f"pred_{name}"] = pred
    text = _summary(frame, 1)
    assert "b and c have the same error rate (10.0%), in second place" in text
    assert not re.search(r"\btie[ds]?\b", text)
