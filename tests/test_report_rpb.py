"""Cold read of the predictions report (read_rp, findings B1-B4 and C1-C5): what each compared figure is
computed from, no verdict on a pair picked by the data, the exit status of a bad option, the level in
the figure's legend, one order of the pairs.

References: F-measures at every threshold by brute force, counts set by construction, argparse's own
exit status for a bad option (2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

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
    assert ("the F1 values compared are not like with like: a's at the best threshold of its "
            "scores (a has predicted labels too, whose F1 of section 2 is set aside for the scores), "
            "b's at its own predicted labels") in headline
    # all of one kind: nothing to say
    only = rp.load_predictions(pd.DataFrame({"label": y.astype(int), "pred_a": y.astype(int),
                                             "pred_b": pred_b.astype(int)}), pos_label=1)
    assert "not like with like" not in rp.chance_check(only, rp.classifier_measures(only)).headline()


def _f1_frame(n_classifiers: int) -> pd.DataFrame:
    """200 cases, 100 positive; ``a`` misses 10 positives, ``b`` misses 40 and ``c`` (if any) 60: F1 of
    a 0.947, b 0.75, c 0.571, and a, b disagree on 30 cases, so the percentile interval is not
    unreliable and, by these counts, far from 0."""
    y = np.array([1] * 100 + [0] * 100)
    frame = {"label": y}
    for name, missed in (("a", 10), ("b", 40), ("c", 60))[:n_classifiers]:
        pred = y.copy()
        pred[:missed] = 0
        frame[f"pred_{name}"] = pred
    return pd.DataFrame(frame)


def test_no_f1_verdict_on_a_pair_picked_by_the_data_and_one_on_the_only_pair():
    """B2: with three classifiers the top two by F-measure are picked by the data and their interval is
    unadjusted: the texts describe it and draw no verdict (nor set it against the error-rate test);
    with two, the pair is the only one and the verdict stands. F1 by hand: a 2*90/(2*90+10) = 0.947,
    b 2*60/(2*60+40) = 0.750."""
    for k, verdict in ((3, False), (2, True)):
        data = rp.load_predictions(_f1_frame(k), pos_label=1)
        measures = rp.classifier_measures(data)
        res = rp.top_two_bootstrap(data, measures, n_resamples=2000, rng=0)
        assert (res.best, res.second) == ("a", "b")
        assert res.f1_best == pytest.approx(180 / 190) and res.f1_second == pytest.approx(120 / 160)
        assert res.low > 0   # 30 discordant cases, all in a's favour
        summary = rp.summary_text(data, measures=measures, bootstrap=res, pairwise=rp.pairwise_comparison(data))
        bullet = next(b for b in summary.split("\n") if b.startswith("- By F-measure"))
        if verdict:
            assert "it excludes 0, so the two differ at alpha = 0.05" in bullet and "no verdict" not in bullet
        else:
            assert "differ at alpha" not in bullet and "differ at alpha" not in res.text()
            assert ("the two are the leaders of 3 classifiers with predicted labels, a pair picked by the data, and "
                    "the interval, unadjusted, does not allow for that choice") in res.text()
            assert "no verdict at alpha = 0.05 is drawn from it" in bullet
            assert "disagree on this pair" not in summary


def test_a_bad_option_exits_2_and_bad_input_1_as_the_manuals_say(tmp_path):
    """B4: argparse's convention (its own usage errors exit 2, Python's argparse documentation) for an
    option the command line refuses, 1 for input the run refuses; both write nothing, and the manuals
    state both statuses."""
    from conftest import ROOT, run_main

    out = tmp_path / "r.html"
    example = ROOT / "data" / "example_predictions.csv"
    for option in (["--min-difference", "2"], ["--alpha", "2"], ["--bogus"]):
        usage = run_main(["report", str(example), "-o", str(out), "--pos-label", "ER-", *option], cwd=tmp_path)
        assert usage.returncode == 2 and "usage:" in usage.stderr, option
    bad = run_main(["report", str(example), "-o", str(out), "--pos-label", "ER-", "--classifiers-tried", "1"],
                   cwd=tmp_path)
    assert bad.returncode == 1 and "classifiers_tried must be at least the 5 classifiers" in bad.stderr
    assert list(tmp_path.iterdir()) == []
    for manual in ("predictions.md", "index.md"):
        text = " ".join((ROOT / "docs" / "report" / manual).read_text().split())
        assert "stop the run with one sentence and exit 1" in text, manual
        assert ("An option the command line itself refuses (an unknown option, or a value out of its range such as "
                "`--alpha 2` or `--min-difference 2`) stops it before it starts with the usage line and exit status 2"
                in text), manual


def test_the_summary_says_why_cochrans_q_and_the_pairwise_tests_disagree():
    """B3: the manual's promise that where two procedures disagree the summary says why. By construction
    x and y are identical (30 positive, 30 negative cases); on 10 cases they are right and z wrong, on 2 the reverse, the other 48 all
    right. Cochran's Q by its formula: 2 (3 (58^2 + 58^2 + 50^2) - 166^2) / (3 * 166 - (10*4 + 2 + 48*9))
    = 256 / 24 = 10.67, p = exp(-Q / 2) = 0.0048 (chi-square, 2 df): Q rejects. Each pair with z: b = 2,
    c = 10, mid-p = 92/4096 = 0.0225, Holm-adjusted 3 * 0.0225 = 0.067 > 0.05: no pair does."""
    from scipy import stats

    from _references import mid_p

    y = np.array([1] * 30 + [0] * 30)
    x = y.copy()
    x[50:52] = 1 - x[50:52]
    z = y.copy()
    z[:10] = 1 - z[:10]
    data = rp.load_predictions(pd.DataFrame({"label": y, "pred_x": x, "pred_y": x, "pred_z": z}), pos_label=1)
    q = 2 * (3 * (58 ** 2 + 58 ** 2 + 50 ** 2) - 166 ** 2) / (3 * 166 - (10 * 4 + 2 + 48 * 9))
    assert stats.chi2.sf(q, 2) < 0.05 and 3 * mid_p(2, 10) > 0.05 and mid_p(2, 10) == pytest.approx(92 / 4096)
    measures = rp.classifier_measures(data)
    pairwise = rp.pairwise_comparison(data)
    omnibus = rp.omnibus_test(data)
    assert omnibus.pvalue == pytest.approx(stats.chi2.sf(q, 2))
    summary = rp.summary_text(data, measures=measures, pairwise=pairwise, omnibus=omnibus)
    bullet = next(b for b in summary.split("\n") if "Cochran's Q, p" in b)
    assert "none of the pairs is shown to differ" in bullet
    assert ("Cochran's Q and the pairwise tests disagree because they ask different questions: Q pools the "
            "disagreements of all 3 classifiers into one test") in bullet
    assert "but not which of them differ." in bullet
    # the manual promises it, and no longer a single sentence the reasons do not fit in
    from conftest import ROOT
    manual = " ".join((ROOT / "docs" / "report" / "predictions.md").read_text().split())
    assert "the summary says so and why (Cochran's Q against the pairwise tests" in manual
    assert "says why in one sentence" not in manual


def test_one_pair_of_probability_columns_is_not_called_adjusted():
    """C1: with two classifiers' class probabilities the multi-class Brier comparison is a family of one:
    the summary gives its p unadjusted and says no adjustment is needed, under any --adjust. Reference:
    scipy's paired t-test on the per-case multi-class Brier scores, sum_k (p_k - [y = k])^2."""
    from scipy import stats

    from evallib._format import format_p

    rng = np.random.default_rng(4)
    classes = np.array(["a", "b", "c"])
    y = rng.integers(0, 3, 60)
    frame = {"label": classes[y]}
    brier = {}
    for name, sharp in (("m1", 2.0), ("m2", 1.0)):
        logits = rng.normal(size=(60, 3)) + sharp * np.eye(3)[y]
        prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        frame[f"pred_{name}"] = classes[prob.argmax(axis=1)]
        for k, c in enumerate(classes):
            frame[f"score_{name}_{c}"] = prob[:, k]
        brier[name] = ((prob - np.eye(3)[y]) ** 2).sum(axis=1)
    data = rp.load_predictions(pd.DataFrame(frame))
    p = stats.ttest_rel(brier["m1"], brier["m2"]).pvalue
    for adjust in ("holm", "bh", "by"):
        text = rp.score_comparison(data, adjust=adjust).summary()
        assert f"paired t-test, {format_p(p)}, one comparison, so no adjustment is needed)" in text, adjust
        assert "adjusted p" not in text
