"""One verdict source per pair in the predictions report (cold read, A1 and A2): every sentence
about a pair of classifiers -- section 3's table, the method line above it, the summary's
bullets -- follows the adjusted test, and where the interval read beside the verdict (the joint
one under Holm and Bonferroni, else the interval) falls on the other side of 0 they all say so.

The reference values come from statsmodels (McNemar's exact test, Holm's and Bonferroni's
adjustments), scipy's binomial law (the mid-p value, by hand) and Bonett & Price's interval
written out in ``tests/_references.py``; none is read from the report's own output."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from _references import bonett_price
from conftest import predictions_summary
from evallib import report as rp
from evallib.report._text import pairwise_method_line

ALPHA = 0.05


def _file(tmp_path, name: str, patterns: list[tuple[tuple[int, ...], int]], names: str):
    """A predictions CSV with a case id: per pattern of right (1) / wrong (0) per classifier, that
    many cases, the true labels alternating between two classes."""
    rows = []
    for pattern, count in patterns:
        for _ in range(count):
            y = "pos" if len(rows) % 2 else "neg"
            other = "neg" if y == "pos" else "pos"
            rows.append({"case_id": f"c{len(rows) + 1:03d}", "label": y,
                         **{f"pred_{k}": (y if ok else other) for k, ok in zip(names, pattern)}})
    path = tmp_path / name
    pd.DataFrame(rows).to_csv(path, index=False)
    return rp.load_predictions(path, pos_label="pos")


def _three(tmp_path, c_only: int):
    """146 or 145 cases: A alone wrong on 40, C alone wrong on ``c_only``, all right on 100; so for
    B vs C, b = 0 and c = ``c_only``."""
    return _file(tmp_path, f"three{c_only}.csv", [((1, 1, 0), c_only), ((0, 1, 1), 40), ((1, 1, 1), 100)], "ABC")


def _mid_p_statsmodels(b: int, c: int) -> float:
    """The mid-p value from statsmodels' exact McNemar test: the exact p less the probability of
    the observed count (Fagerland, Lydersen & Laake 2013)."""
    exact = mcnemar(np.array([[0, b], [c, 0]]), exact=True).pvalue
    return exact - stats.binom.pmf(min(b, c), b + c, 0.5)


def _bullet(text: str, start: str) -> str:
    (line,) = [ln for ln in text.split("\n") if ln.startswith(start)]
    return line


def _references(data, pw, adjust: str):
    """Per pair (as a frozenset): b, c, the unadjusted mid-p, the adjusted p and the joint
    (Bonferroni) Bonett–Price interval, all computed here."""
    m = len(pw)
    counts = {frozenset(p): (int(b), int(c), p) for p, b, c in zip(pw["pair"], pw["b"], pw["c"])}
    keys = list(counts)
    raw = [_mid_p_statsmodels(*counts[k][:2]) for k in keys]
    adj = multipletests(raw, method=adjust)[1]
    n = len(data.case_truth)
    return {k: dict(b=counts[k][0], c=counts[k][1], pair=counts[k][2], p=raw[i], p_adj=adj[i],
                    joint=bonett_price(counts[k][0], counts[k][1], n, ALPHA / m),
                    interval=bonett_price(counts[k][0], counts[k][1], n, ALPHA))
            for i, k in enumerate(keys)}


@pytest.mark.parametrize("c_only, reason", [
    (6, "the interval and the test are different procedures that agree only approximately near the boundary"),
    (5, "Holm's step-down test needs less evidence for this pair than the joint intervals, each at 98.33% "
        "so that all 3 hold at once"),
])
def test_a_holm_verdict_whose_joint_interval_includes_0_is_one_verdict_everywhere(tmp_path, c_only, reason):
    """A1: B vs C is rejected by Holm while its joint interval includes 0; the table, the summary's
    two bullets and the method line all give the test's verdict and say that the joint interval
    points the other way, and why."""
    data = _three(tmp_path, c_only)
    text, parts = predictions_summary(data)
    pw = parts["pairwise"]
    ref = _references(data, pw, "holm")[frozenset("BC")]
    assert (ref["b"], ref["c"]) == (0, c_only) and ref["pair"] == ("B", "C")
    assert ref["p"] == pytest.approx(0.5 ** c_only)                 # mid-p of b = 0: 2 * 0.5^c - 0.5^c
    assert ref["p_adj"] <= ALPHA                                      # Holm rejects
    lo, hi = ref["joint"]
    assert lo < 0 < hi                                                # the joint interval includes 0
    if c_only == 5:
        assert 3 * ref["p"] > ALPHA    # Bonferroni would not reject: the step-down is why
    row = pw[[set(p) == {"B", "C"} for p in pw["pair"]]].iloc[0]
    assert float(row["pvalue_adj"]) == pytest.approx(ref["p_adj"], rel=1e-9)
    # section 3: the test's verdict, and the mark
    assert rp.format_pairwise(pw).loc["B vs C", "verdict"] == "B makes fewer errors (borderline: the joint interval includes 0)"
    assert "Verdict: the adjusted test's (adjusted p at most alpha = 0.05)" in pairwise_method_line(pw)
    # the summary: the leaders' bullet (B and C) and the pairs' bullet agree with it
    leaders = _bullet(text, "- The two classifiers with the fewest errors, B and C")
    assert f"adjusted p = {ref['p_adj']:.2g} (Holm), so B is shown to make fewer errors at alpha = 0.05" in leaders
    assert f"but the joint interval includes zero although the test rejects: {reason}" in leaders
    assert "not shown to differ" not in leaders and "the interval excludes zero" not in leaders
    pairs = _bullet(text, "- Over all 3 classifiers")
    assert "B vs C)" in pairs.split("significant at alpha = 0.05")[1].split(";")[0]
    advantage = f"{-100 * hi:.1f} to {-100 * lo:.1f} percentage points"   # B's advantage over C: -(B - C)
    assert (f"for B vs C the 95% joint interval of B's advantage over C, {advantage}, includes zero although "
            f"McNemar's mid-p test rejects equal error rates at alpha = 0.05, adjusted p = {ref['p_adj']:.2g} (Holm): "
            f"{reason}; the verdict follows the test, so read the difference as borderline") in pairs


def test_two_classifiers_whose_interval_and_mid_p_test_disagree_get_one_verdict(tmp_path):
    """A2: b = 0, c = 5 on 50 cases: the mid-p test rejects (p = 0.031), the Bonett–Price interval
    includes 0; the summary and section 3 both give the test's verdict, both say the interval
    points the other way."""
    data = _file(tmp_path, "two.csv", [((1, 0), 5), ((1, 1), 40), ((0, 0), 5)], "AB")
    text, parts = predictions_summary(data)
    pw = parts["pairwise"]
    p = _mid_p_statsmodels(0, 5)
    assert p == pytest.approx(1 / 32) and p <= ALPHA
    lo, hi = bonett_price(0, 5, 50, ALPHA)
    assert lo < 0 < hi
    assert rp.format_pairwise(pw).loc["A vs B", "verdict"] == "A makes fewer errors (borderline: the interval includes 0)"
    bullet = _bullet(text, "- The two classifiers, A and B")
    assert f"McNemar's mid-p test gives p = {p:.2g}, so A is shown to make fewer errors at alpha = 0.05" in bullet
    assert ("but the interval includes zero although the test rejects: the interval and the test are different "
            "procedures that agree only approximately near the boundary; the verdict follows the test") in bullet
    assert "not shown to differ" not in text
    assert "Verdict: the test's (p at most alpha = 0.05)" in pairwise_method_line(pw)


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "fdr_bh"])
def test_every_verdict_follows_the_adjusted_test_and_every_mark_the_interval_beside_it(tmp_path, adjust):
    """Over both constructed files and the three adjustments: a verdict names a winner exactly when
    the adjusted p (statsmodels) is at most alpha, and carries the borderline mark exactly when
    the interval read beside it (joint, Bonett–Price at alpha / m, under Holm and Bonferroni;
    else unadjusted) falls on the other side of 0."""
    ours = {"holm": "holm", "bonferroni": "bonferroni", "fdr_bh": "bh"}[adjust]
    for c_only in (5, 6):
        data = _three(tmp_path, c_only)
        pw = rp.pairwise_comparison(data, adjust=ours)
        refs = _references(data, pw, adjust)
        for (i, j), verdict in zip(pw["pair"], pw["verdict"]):
            ref = refs[frozenset((i, j))]
            lo, hi = ref["joint"] if ours in ("holm", "bonferroni") else ref["interval"]
            rejects = ref["p_adj"] <= ALPHA
            assert ("makes fewer errors" in verdict) == rejects, (i, j, verdict)
            assert ("interval" in verdict) == (rejects == (lo <= 0 <= hi)), (i, j, verdict, lo, hi)


def test_under_the_false_discovery_rate_an_unadjusted_interval_beyond_0_is_named_as_unadjusted(tmp_path):
    """Under Benjamini–Hochberg there is no joint interval: B vs C (b = 8, c = 1 of 112 cases) has
    mid-p 0.021 (rejects alone) but BH-adjusted 0.064 (does not), while its unadjusted interval
    excludes 0; the table and the summary both give the test's verdict and say the interval is
    unadjusted, not that the difference is borderline."""
    data = _file(tmp_path, "bh.csv", [((1, 0, 1), 8), ((1, 1, 0), 1), ((0, 1, 1), 3), ((1, 1, 1), 100)], "ABC")
    text, parts = predictions_summary(data, adjust="bh")
    pw = parts["pairwise"]
    ref = _references(data, pw, "fdr_bh")[frozenset("BC")]
    assert (ref["b"], ref["c"]) == (8, 1) and ref["p"] <= ALPHA < ref["p_adj"]
    lo, hi = ref["interval"]
    assert 0 < lo < hi
    assert (rp.format_pairwise(pw).loc["B vs C", "verdict"]
            == "not shown to differ (the unadjusted interval excludes 0: it does not allow for the 3 comparisons)")
    pairs = _bullet(text, "- Over all 3 classifiers")
    assert ("for B vs C a single 95% Bonett–Price interval excludes zero, but not once the 3 comparisons are "
            "taken into account") in pairs
    assert "none of the pairs is shown to differ at alpha = 0.05" in pairs
    assert "borderline" not in pairs
