"""Cold read of the predictions report, round 5: Friedman's p over few folds from its exact law, the
smallest difference that matters read against the interval the verdict uses, the omnibus note of a
repeated file, the Brier comparison's direction and two range phrasings.

References: the exact Friedman law of two classifiers enumerated here by brute force over the sign
flips of the untied folds; Bonett–Price's interval written out in tests/_references.py; counts set by
construction.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from _references import bonett_price
from conftest import predictions_summary
from evallib import report as rp


def _summary(data, **options) -> tuple[str, dict]:
    """The report's summary and its sections (conftest.predictions_summary), 300 bootstrap resamples."""
    return predictions_summary(data, **{"n_resamples": 300, **options})


# ------------------------------------------------------------------ 1. Friedman over few folds
def _four_folds() -> pd.DataFrame:
    """Two classifiers over 4 folds of 10 cases: a wins 3 folds, the fourth is tied."""
    rows = []
    wrong_a = [1, 2, 1, 3]
    wrong_b = [3, 4, 3, 3]
    for f in range(4):
        for i in range(10):
            y = "pos" if i % 2 else "neg"
            other = "neg" if y == "pos" else "pos"
            rows.append(dict(fold=f + 1, label=y, pred_a=other if i < wrong_a[f] else y,
                             pred_b=other if i < wrong_b[f] else y))
    return pd.DataFrame(rows)


def _brute_force_friedman_two(acc_a, acc_b) -> float:
    """Exact p of Friedman's statistic for two classifiers given the tied folds: under the null each
    untied fold's order flips with probability 1/2; the statistic grows with |wins - losses|."""
    signs = [np.sign(a - b) for a, b in zip(acc_a, acc_b) if a != b]
    observed = abs(sum(signs))
    flips = list(itertools.product((-1, 1), repeat=len(signs)))
    return sum(abs(sum(f)) >= observed for f in flips) / len(flips)


def test_friedman_over_few_folds_is_read_from_its_exact_law():
    data = rp.load_predictions(_four_folds(), pos_label="pos")
    text, parts = _summary(data)
    folds = parts["folds"]
    acc = folds.per_fold
    exact = _brute_force_friedman_two(acc["a"], acc["b"])
    assert exact == pytest.approx(0.25)
    assert folds.friedman.pvalue < 0.1          # the chi-square approximation: 3.0 on 1 df, p = 0.083
    assert f"Friedman's test over the folds gives p = {exact:.2f}" in text
    assert "p = 0.083" not in text.split("Friedman's test over the folds gives")[1]
    assert f"p = {exact:.2f} from its exact permutation law" in folds.text()


# ------------------------------------------------------------------ 2. the margin and the verdict
def _three_classifiers() -> pd.DataFrame:
    """200 cases; a errs on 20, b on 40 (a subset shifted so that b = 30, c = 10 for a vs b), c on 45."""
    n = 200
    y = np.array(["pos", "neg"] * (n // 2))
    flip = {"pos": "neg", "neg": "pos"}
    wrong = {"a": set(range(0, 20)), "b": set(range(10, 50)), "c": set(range(100, 145))}
    frame = pd.DataFrame({"label": y})
    for name, bad in wrong.items():
        frame[f"pred_{name}"] = [flip[v] if i in bad else v for i, v in enumerate(y)]
    return frame


def test_the_margin_is_read_against_the_interval_the_verdict_uses():
    """Holm over 3 pairs: a pair whose joint interval includes 0 (not shown to differ) must not be
    called 'matters' from its unadjusted interval."""
    data = rp.load_predictions(_three_classifiers(), pos_label="pos")
    delta = 0.03
    text, parts = _summary(data, min_difference=delta)
    pw = parts["pairwise"]
    table = rp.format_pairwise(pw)
    column = [c for c in table.columns if c.endswith(f"±{100 * delta:g} percentage points")]
    assert column == [f"joint interval against ±{100 * delta:g} percentage points"]
    for _, row in pw.iterrows():
        i, j = row["pair"]
        b, c = int(row["b"]), int(row["c"])
        lo, hi = bonett_price(b, c, len(data.case_truth), alpha=0.05 / 3)   # joint, independent formula
        expected = ("matters" if lo >= delta or hi <= -delta else
                    "negligible" if -delta < lo and hi < delta else "undecided")
        assert row["matters"] == expected, (i, j, lo, hi)
        if not row["reject"]:
            assert row["matters"] != "matters"
    # a vs b: b = 10 (a worse), c = 30: unadjusted interval beyond 3 points, joint one not
    ab = pw[[set(p) == {"a", "b"} for p in pw["pair"]]].iloc[0]
    n = len(data.case_truth)
    u_lo, u_hi = bonett_price(int(ab["b"]), int(ab["c"]), n, alpha=0.05)
    j_lo, j_hi = bonett_price(int(ab["b"]), int(ab["c"]), n, alpha=0.05 / 3)
    assert max(abs(u_lo), abs(u_hi)) > delta and min(abs(u_lo), abs(u_hi)) >= delta   # unadjusted: beyond
    assert min(abs(j_lo), abs(j_hi)) < delta                                          # joint: reaches inside
    assert table.loc["a vs b", column[0]] == "cannot tell"
    bal = rp.format_balanced_pairs(parts["balanced"])
    assert f"joint interval against ±{100 * delta:g} percentage points" in bal.columns


# ------------------------------------------------------------------ 3. wording on stress files
def _repeated_two() -> pd.DataFrame:
    """30 cases, 2 repeats of 3-fold CV, two classifiers whose predictions vary between repeats."""
    rng = np.random.default_rng(3)
    y = np.where(np.arange(30) % 3 == 0, "pos", "neg")
    rows = []
    for r in (1, 2):
        folds = rng.permutation(np.arange(30) % 3) + 1
        for i in range(30):
            flip = {"pos": "neg", "neg": "pos"}[y[i]]
            rows.append(dict(case_id=f"c{i}", repeat=r, fold=folds[i], label=y[i],
                             pred_a=flip if rng.random() < 0.2 else y[i], pred_b=flip if rng.random() < 0.3 else y[i]))
    return pd.DataFrame(rows)


def test_two_classifiers_of_a_repeated_file_are_not_said_to_be_compared_by_mcnemar():
    data = rp.load_predictions(_repeated_two(), pos_label="pos")
    pw = rp.pairwise_comparison(data)
    assert pw.attrs["test"] == "paired t-test on per-case error rates"   # the test section 3 uses here
    skipped = str(rp.omnibus_test(data))
    assert "McNemar" not in skipped and "compared pairwise below" in skipped


def test_the_brier_comparison_names_the_direction_of_its_interval():
    y = np.array([1, 0] * 20)
    p_good = np.where(y == 1, 0.8, 0.2) + np.tile([0.1, 0.1, -0.1, -0.1], 10)
    frame = pd.DataFrame({"label": y, "pred_a": y, "pred_b": 1 - y, "score_a": p_good})
    data = rp.load_predictions(frame)
    text, _ = _summary(data)
    brier = float(np.mean((p_good - y) ** 2))
    prevalence = float(np.mean((0.5 - y) ** 2))          # 0.25
    assert brier - prevalence < 0
    sentence = re.search(r"it is ([0-9.]+) better \(95% interval of the difference, a's Brier score minus the "
                         r"forecast's, (-[0-9.]+) to (-[0-9.]+)", text)
    assert sentence, text
    assert float(sentence.group(1)) == pytest.approx(prevalence - brier, abs=5e-5)
    assert float(sentence.group(2)) < -(prevalence - brier) < float(sentence.group(3))


def test_interval_widths_that_print_alike_are_one_width_and_a_level_leader_is_not_ahead():
    """Two classifiers with 30 of 40 right (the same Wilson interval), the majority class 30 of 40 too."""
    y = np.array(["neg"] * 30 + ["pos"] * 10)
    a = np.array(["neg"] * 25 + ["pos"] * 5 + ["pos"] * 5 + ["neg"] * 5)   # 25 + 5 right
    b = np.array(["neg"] * 24 + ["pos"] * 6 + ["pos"] * 6 + ["neg"] * 4)   # 24 + 6 right
    frame = pd.DataFrame({"label": y, "pred_a": a, "pred_b": b})
    data = rp.load_predictions(frame, pos_label="pos")
    text, parts = _summary(data)
    m = parts["measures"]
    assert (m["accuracy"] == 30 / 40).all()
    widths = {f"{100 * (h - lo):.1f}" for lo, h in zip(m["acc_low"], m["acc_high"])}
    assert len(widths) == 1
    (w,) = widths
    assert f"are {w} percentage points wide" in text and f"{w} to {w}" not in text
    assert "0.0 percentage points ahead" not in text
    assert "is level with it, 0.0 percentage points apart" in text


# ------------------------------------------------------------------ 4. the bootstrap ends' Monte Carlo error
def test_the_bootstrap_interval_ends_carry_a_monte_carlo_error_that_matches_reseeding():
    """The stated Monte Carlo error of each end against the spread of that end over 60 seeds."""
    rng = np.random.default_rng(11)
    n = 300
    y = np.where(rng.random(n) < 0.3, "pos", "neg")
    flip = {"pos": "neg", "neg": "pos"}
    frame = pd.DataFrame({"label": y,
                          "pred_a": [flip[v] if rng.random() < 0.15 else v for v in y],
                          "pred_b": [flip[v] if rng.random() < 0.25 else v for v in y]})
    data = rp.load_predictions(frame, pos_label="pos")
    m = rp.classifier_measures(data)
    runs = [rp.top_two_bootstrap(data, m, n_resamples=1000, rng=seed) for seed in range(60)]
    for end, se_name in (("low", "low_mc_se"), ("high", "high_mc_se")):
        spread = float(np.std([getattr(r, end) for r in runs], ddof=1))
        stated = float(np.median([getattr(r, se_name) for r in runs]))
        # the SD of 60 draws is itself uncertain by about 1/sqrt(2 * 59) = 9%: a factor 1.5 either way
        assert spread / 1.5 < stated < spread * 1.5, (end, spread, stated)
    one = runs[0]
    words = f"Monte Carlo standard errors of its ends {one.low_mc_se:.3f} and {one.high_mc_se:.3f}"
    assert words in one.summary() and words in one.text()


def test_identical_classifiers_have_nothing_to_test_in_the_balanced_accuracy_table_too():
    y = np.array(["pos", "neg", "neg", "neg"] * 10)
    a = np.where(np.arange(40) % 5 == 0, np.where(y == "pos", "neg", "pos"), y)
    frame = pd.DataFrame({"label": y, "pred_a": a, "pred_copy": a})
    data = rp.load_predictions(frame, pos_label="pos")
    assert (data.predicted["a"] == data.predicted["copy"]).all()
    pw = rp.format_pairwise(rp.pairwise_comparison(data))
    bal = rp.format_balanced_pairs(rp.balanced_accuracy_comparison(data))
    assert "nothing to test" in pw["verdict"].iloc[0]
    assert "nothing to test" in bal["verdict"].iloc[0]
    p_col = [c for c in bal.columns if c.startswith("p (")][0]
    assert bal[p_col].iloc[0] == "-"


def test_a_bootstrap_verdict_with_an_end_within_its_monte_carlo_error_of_zero_says_so():
    near = rp.F1Comparison(best="a", second="b", f1_best=0.6, f1_second=0.5, difference=0.1, low=-0.001,
                           high=0.2, share_best_better=0.97, share_tied=0.0, n_resamples=1000, alpha=0.05,
                           n_classifiers=2, n_discordant=100, seed=0, low_mc_se=0.002, high_mc_se=0.003)
    far = rp.F1Comparison(best="a", second="b", f1_best=0.6, f1_second=0.5, difference=0.1, low=-0.05,
                          high=0.2, share_best_better=0.9, share_tied=0.0, n_resamples=1000, alpha=0.05,
                          n_classifiers=2, n_discordant=100, seed=0, low_mc_se=0.002, high_mc_se=0.003)
    assert abs(near.low) <= 2 * near.low_mc_se and abs(far.low) > 2 * far.low_mc_se
    for text in (near.summary(), near.text()):
        assert "another seed could turn this verdict" in text
    for text in (far.summary(), far.text()):
        assert "another seed" not in text


def test_the_share_of_tied_resamples_carries_its_monte_carlo_error():
    """Cold read r12: "the two are equal in 11.3%" of the resamples is a Monte Carlo share like the leader's and
    carries its binomial standard error, sqrt(t (1 - t) / n) (here 0.1135 of 2,000: 0.709 points)."""
    from evallib.report._sections import F1Comparison

    boot = F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.6, difference=0.2, low=0.05, high=0.35,
                        share_best_better=0.8, share_tied=0.1135, n_resamples=2000, alpha=0.05,
                        n_classifiers=2, n_discordant=40, seed=0)
    se = 100 * np.sqrt(0.1135 * (1 - 0.1135) / 2000)
    assert f"the two are equal in 11.3% (Monte Carlo standard error {se:.1f} percentage points)" in boot.summary()


def test_both_shares_of_resamples_word_their_monte_carlo_error_alike():
    """The leader's share and the tied share go through one helper: the same words, one decimal of
    a percentage point, and "under 0.1" below 0.05 points (sqrt(s (1 - s) / n) by hand)."""
    from evallib.report._sections import F1Comparison

    boot = F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.6, difference=0.2, low=0.05, high=0.35,
                        share_best_better=0.9, share_tied=0.00002, n_resamples=100_000, alpha=0.05,
                        n_classifiers=2, n_discordant=40, seed=0)
    lead = 100 * np.sqrt(0.9 * 0.1 / 100_000)      # 0.095 points: printed 0.1
    tied = 100 * np.sqrt(0.00002 * (1 - 0.00002) / 100_000)   # 0.0014 points: under 0.1
    assert lead >= 0.05 > tied
    text = boot.summary()
    assert (f"a's is the higher in 90.0% of the 100,000 resamples (Monte Carlo standard error {lead:.1f} "
            "percentage points; seed 0)") in text
    assert "the two are equal in under 0.1% (Monte Carlo standard error under 0.1 percentage points)" in text


def test_section_6s_tied_share_carries_its_monte_carlo_error_as_the_summary_does():
    """Section 6's text printed "(in 11.3% the two are equal)" with no error while the summary gave it one:
    the same share, sqrt(t (1 - t) / n) by hand (0.1135 of 2,000: 0.709 points), in both places."""
    from evallib.report._sections import F1Comparison

    boot = F1Comparison(best="a", second="b", f1_best=0.8, f1_second=0.6, difference=0.2, low=0.05, high=0.35,
                        share_best_better=0.8, share_tied=0.1135, n_resamples=2000, alpha=0.05,
                        n_classifiers=2, n_discordant=40, seed=0)
    se = 100 * np.sqrt(0.1135 * (1 - 0.1135) / 2000)
    assert f"(in 11.3% the two are equal, Monte Carlo standard error {se:.1f} percentage points)" in boot.text()
