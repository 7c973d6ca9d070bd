"""What a cold reader found in the predictions report's text: the verdicts at level alpha ("not
shown to differ", never "real"), the data-picked leaders' intervals labelled optimistic with the
joint interval beside them, every pair on which the error-rate and balanced-accuracy verdicts
differ named, the skew rule and the small-test-set widths computed, names never capitalised,
and the one spelling of each term. Reference values come from statsmodels, scikit-learn and
formulas written out here (tests/_references.py), never from the report's own output."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint
from _references import bonett_price, mid_p

from evallib.report import (
    EXAMPLE_PATH,
    balanced_accuracy_comparison,
    classifier_measures,
    load_predictions,
    omnibus_test,
    pairwise_comparison,
    score_comparison,
    summarise_data,
    summary_text,
)

ROOT = Path(__file__).resolve().parents[1]


def _summary(data, **kw):
    return summary_text(data, measures=classifier_measures(data), pairwise=pairwise_comparison(data),
                        omnibus=omnibus_test(data), balanced=balanced_accuracy_comparison(data), **kw)


def _stratified_p(right_a, right_b, y):
    """The stratified paired t-test of a balanced-accuracy difference, written out: the mean of the
    class means of the per-case differences, its variance the sum of the class variances of the
    mean over K^2, Welch–Satterthwaite degrees of freedom."""
    d = right_a.astype(float) - right_b.astype(float)
    classes = np.unique(y)
    k = len(classes)
    est = np.mean([d[y == c].mean() for c in classes])
    v = [d[y == c].var(ddof=1) / np.sum(y == c) / k ** 2 for c in classes]
    se2 = sum(v)
    if se2 == 0:
        return 1.0 if est == 0 else 0.0
    df = se2 ** 2 / sum(vi ** 2 / (np.sum(y == c) - 1) for vi, c in zip(v, classes))
    return float(2 * stats.t.sf(abs(est) / np.sqrt(se2), df))


def test_every_pair_where_the_error_rate_and_balanced_accuracy_verdicts_differ_is_named():
    raw = pd.read_csv(EXAMPLE_PATH)
    y = raw["label"].to_numpy()
    names = [c[5:] for c in raw.columns if c.startswith("pred_")]
    right = {n: raw[f"pred_{n}"].to_numpy() == y for n in names}
    pairs = list(combinations(names, 2))
    p_mc = [mid_p(int(np.sum(right[a] & ~right[b])), int(np.sum(~right[a] & right[b]))) for a, b in pairs]
    p_ba = [_stratified_p(right[a], right[b], y) for a, b in pairs]
    rej_mc = multipletests(p_mc, alpha=0.05, method="holm")[0]
    rej_ba = multipletests(p_ba, alpha=0.05, method="holm")[0]
    differ = [(a, b, m) for (a, b), m, s in zip(pairs, rej_mc, rej_ba) if m != s]
    assert differ  # the example file has at least one such pair
    data = load_predictions(EXAMPLE_PATH, pos_label="ER+")
    text = _summary(data)
    line = next(x for x in text.splitlines() if "balanced-accuracy verdicts" in x)
    n = len(differ)
    assert f"disagree on {n} pair{'s' if n > 1 else ''} of {len(pairs)}" in line
    for a, b, _ in differ:
        assert f"{a} vs {b}" in line or f"{b} vs {a}" in line
    # each pair's two estimates, by hand, with their direction and where the unadjusted tests fall
    for (a, b), pm, pb, m, s_ in zip(pairs, p_mc, p_ba, rej_mc, rej_ba):
        if m == s_:
            continue
        i, j = (a, b) if f"for {a} vs {b} ({a} minus {b})" in line else (b, a)
        assert f"for {i} vs {j} ({i} minus {j})" in line
        acc = right[i].mean() - right[j].mean()
        d = right[i].astype(float) - right[j].astype(float)
        ba = np.mean([d[y == c].mean() for c in np.unique(y)])
        assert f"the accuracy difference is {100 * acc:+.1f} percentage points" in line
        assert f"the balanced-accuracy difference {100 * ba:+.1f} percentage points" in line
        if acc * ba > 0:
            assert f"both estimates put {i if acc > 0 else j} ahead" in line
        else:
            assert "the estimates point in opposite directions" in line
        if (pm <= 0.05) == (pb <= 0.05):
            assert "so only the adjusted tests fall on opposite sides of it" in line
        else:
            assert "the unadjusted tests fall on opposite sides of alpha too" in line


def test_the_leaders_interval_is_labelled_optimistic_with_the_joint_interval_beside_it():
    raw = pd.read_csv(EXAMPLE_PATH)
    y = raw["label"].to_numpy()
    wrong = {n: raw[f"pred_{n}"].to_numpy() != y for n in ("dlda30", "dlda10")}
    b = int(np.sum(wrong["dlda10"] & ~wrong["dlda30"]))  # dlda30 (fewest errors) ahead on these
    c = int(np.sum(wrong["dlda30"] & ~wrong["dlda10"]))
    lo, hi = bonett_price(b, c, len(y), 0.05 / 10)  # 10 pairs, Bonferroni
    data = load_predictions(EXAMPLE_PATH, pos_label="ER+")
    text = _summary(data)
    line = next(x for x in text.splitlines() if "fewest errors" in x)
    assert "a pair picked by the data, so optimistic" in line
    assert (f"the joint (Bonferroni) interval, which holds for all 10 pairs at once and so for whichever pair "
            f"the data pick, is {100 * lo:.1f} to {100 * hi:.1f} percentage points") in line
    assert "not shown to differ" in line and "cannot tell them apart" not in line


def test_cochran_non_rejection_reads_not_shown_to_differ_with_its_p():
    rng = np.random.default_rng(5)
    y = np.array([0, 1] * 60)
    frame = pd.DataFrame({"label": y})
    for name in ("ua", "ub", "uc"):
        pred = y.copy()
        flip = rng.random(len(y)) < 0.25
        pred[flip] = 1 - pred[flip]
        frame[f"pred_{name}"] = pred
    right = np.column_stack([frame[f"pred_{n}"].to_numpy() == y for n in ("ua", "ub", "uc")]).astype(int)
    ref = cochrans_q(right)
    assert ref.pvalue > 0.05  # the case under test
    data = load_predictions(frame, pos_label=1)
    text = _summary(data)
    assert (f"their accuracies are not shown to differ at alpha = 0.05 (Cochran's Q, p = {ref.pvalue:#.2g})"
            in text)
    assert "no evidence" not in text


def test_the_skew_rule_and_the_small_test_set_widths_are_stated_and_computed():
    # 60 cases, 4 of them positive (6.7%): below 10% = 1/5 of the 50% that two balanced classes give
    y = np.array([1] * 4 + [0] * 56)
    pred_a, pred_b = y.copy(), y.copy()
    pred_a[[0, 10, 11]] = 1 - pred_a[[0, 10, 11]]
    pred_b[[1, 2, 20, 21, 22]] = 1 - pred_b[[1, 2, 20, 21, 22]]
    frame = pd.DataFrame({"label": y, "pred_sa": pred_a, "pred_sb": pred_b})
    data = load_predictions(frame, pos_label=1)
    rule = "less than 10% of the cases, 1/5 of the 50% that 2 balanced classes give each"
    assert rule in summarise_data(data).text()
    text = _summary(data)
    first = text.splitlines()[0] if not text.startswith("- **Warning") else text.splitlines()[1]
    assert rule in first and "smallest class holds 6.7% of the cases" in first
    # the widths: Wilson's accuracy intervals (statsmodels) and the Bonett–Price interval of the one pair
    widths = [100 * np.diff(proportion_confint(int(np.sum(p == y)), len(y), alpha=0.05, method="wilson"))[0]
              for p in (pred_a, pred_b)]
    wa, wb = pred_a != y, pred_b != y
    bp = bonett_price(int(np.sum(wa & ~wb)), int(np.sum(~wa & wb)), len(y), 0.05)
    small = next(x for x in text.splitlines() if "With only 60 test cases" in x)
    assert (f"the 95% Wilson accuracy intervals of section 2 are {min(widths):.1f} to {max(widths):.1f} percentage "
            "points wide") in small
    assert f"95% Bonett–Price intervals of the pairwise differences in section 3 are {100 * (bp[1] - bp[0]):.1f} percentage points wide" in small
    assert "every interval" not in small


def test_tied_names_are_never_capitalised():
    y = np.array([0, 1] * 30)
    frame = pd.DataFrame({"label": y})
    for i, name in enumerate(("xa", "xb", "xc")):  # three with the fewest errors
        pred = y.copy()
        pred[[2 * i, 2 * i + 1]] = 1 - pred[[2 * i, 2 * i + 1]]
        frame[f"pred_{name}"] = pred
    frame["score_xa"] = np.linspace(0, 1, len(y))
    data = load_predictions(frame, pos_label=1)
    text = _summary(data)
    assert "xa, xb and xc have the same error rate" in text and "in first place" in text
    assert "Xa" not in text and "Xb" not in text


def test_delong_verdict_is_differ_at_alpha_not_real():
    data = load_predictions(EXAMPLE_PATH, pos_label="ER+")
    text = score_comparison(data).summary()
    assert "a real difference" not in text and "real" not in text
    assert "DeLong interval of the difference" in text and "a pair picked by the data, so optimistic" in text
    assert "the two differ at alpha = 0.05" in text or "not shown to differ at alpha = 0.05" in text


def test_report_template_headings_say_level_not_real():
    nb = json.loads((ROOT / "notebooks" / "report.ipynb").read_text(encoding="utf-8"))
    md = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "which differences are real" not in md and "differences are shown at level α" in md
    assert "Bonett-Price" not in md and "Keller, Bengio & Wong 2005" in md
