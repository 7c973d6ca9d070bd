"""Notebook 09's slider callbacks (evallib.lessons._peeking): they draw what the statistics computed.

The bars are checked against the study's arrays and against an independent brute-force count
(the z test at each look, written out with scipy); the margin picture against statsmodels'
one-sided paired t bound; each callback replaces its drawing in place, and bad input raises.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from scipy import stats

from evallib import confidence_sequence, paired_item_margin_test, peeking_study
from evallib.lessons import describe_peeking, plot_margin_decision, plot_peeking_rates
from evallib.lessons.live import figure


def _every_look_rate(looks, n_max, discordance, n_resamples, seed, alpha=0.05):
    """Brute force: the two-sided z test of the paired mean at each look, loop by loop (same draws)."""
    u = np.random.default_rng(seed).random((n_resamples, n_max))
    d = (u < discordance / 2).astype(float) - (u >= 1 - discordance / 2)
    at = np.round(np.arange(1, looks + 1) / looks * n_max).astype(int)
    hits = 0
    for row in d:
        for n in at:
            x = row[:n]
            sd = x.std(ddof=1)
            if sd > 0 and 2 * stats.norm.sf(abs(x.mean() / (sd / np.sqrt(n)))) <= alpha:
                hits += 1
                break
    return hits / n_resamples


def test_bars_show_the_studys_rates_and_the_every_look_rate_is_the_brute_force_count():
    s = peeking_study(0.0, looks=5, n_max=300, discordance=0.2, n_resamples=400, rng=3)
    ax = plot_peeking_rates(s)
    assert [p.get_height() for p in ax.patches] == list(s.rejection_rate)
    assert s.rejection_rate[1] == pytest.approx(_every_look_rate(5, 300, 0.2, 400, 3))
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0] == "fixed-n\nmean n = 300" and all(f"{m:,.0f}" in lab for m, lab in zip(s.mean_n, labels))
    # whiskers of two Monte Carlo SEs, recomputed from the binomial formula
    se = np.sqrt(s.rejection_rate * (1 - s.rejection_rate) / 400)
    err = next(c for c in ax.containers if isinstance(c, ErrorbarContainer))
    segs = err.lines[2][0].get_segments()
    assert np.allclose([seg[1, 1] - seg[0, 1] for seg in segs], 4 * se)
    assert any(line.get_ydata()[0] == 0.05 for line in ax.lines)          # the dashed alpha line


def test_peeking_under_the_null_inflates_the_error_and_the_remedies_do_not():
    """Armitage, McPherson & Rowe (1969, Table 2): 5 looks at a normal mean at nominal 5% reject in 14.2%;
    the simulation's every-look rate must be within 3 MC SEs of it, the remedies at or below alpha."""
    s = peeking_study(0.0, looks=5, n_max=1000, discordance=0.3, n_resamples=4000, rng=11)
    rate = dict(zip(s.rules, s.rejection_rate))
    se = dict(zip(s.rules, s.se))
    assert abs(rate["every look"] - 0.142) < 3 * se["every look"]
    assert rate["alpha-spending"] < 0.05 + 3 * se["alpha-spending"]
    assert rate["confidence sequence"] < 0.05 + 3 * se["confidence sequence"]
    text = describe_peeking(s)
    assert f"every look           rejects in {100 * rate['every look']:4.1f}%" in text
    assert text.splitlines()[0] == ("5 looks up to 1,000 items, true difference +0, 4,000 simulated comparisons at "
                                    "alpha = 0.05 (± two Monte Carlo SEs)")


def test_the_plus_minus_is_said_to_be_two_monte_carlo_ses_and_is_two_binomial_ses():
    """The ± under a slider is two Monte Carlo SEs, sqrt(r (1 - r) / n) written out here, in percentage points, and the
    header says so; with no spread to report (all or none rejected) the header does not mention a ± it does not use."""
    s = peeking_study(0.0, looks=5, n_max=500, discordance=0.3, n_resamples=300, rng=4)
    text = describe_peeking(s)
    assert text.splitlines()[0].endswith("(± two Monte Carlo SEs)")
    for rule, rate in zip(s.rules, s.rejection_rate):
        two_se = 200 * np.sqrt(rate * (1 - rate) / 300)
        assert f"{rule:<20} rejects in {100 * rate:4.1f}% (± {two_se:.1f})" in text, rule
    every = peeking_study(0.2, looks=4, n_max=400, discordance=0.2, n_resamples=200, rng=0)
    assert "±" not in describe_peeking(every) and "Clopper–Pearson 95% CI" in describe_peeking(every)


def test_a_rate_of_all_or_none_shows_its_exact_binomial_interval_not_a_zero_spread():
    """Every comparison rejects (a large effect) or none does: the binomial SE is 0, so the text gives the count and
    the two-sided 95% Clopper–Pearson interval (scipy's beta quantiles) and the whisker spans the same interval."""
    s = peeking_study(0.2, looks=4, n_max=400, discordance=0.2, n_resamples=200, rng=0)
    assert (s.rejection_rate == 1.0).all() and (s.se == 0).all()
    low = stats.beta.ppf(0.025, 200, 1)                         # Clopper–Pearson lower end at 200 of 200
    text = describe_peeking(s, rules=("fixed-n",))
    assert f"rejects in 100.0% (200 of 200; Clopper–Pearson 95% CI {100 * low:.1f} to 100)" in text and "± 0.0" not in text
    ax = plot_peeking_rates(s, rules=("fixed-n", "every look"))
    err = next(c for c in ax.containers if isinstance(c, ErrorbarContainer))
    ends = [seg[:, 1] for seg in err.lines[2][0].get_segments()]
    assert all(e == pytest.approx([low, 1.0]) for e in ends)
    none = peeking_study(0.0, looks=1, n_max=20, discordance=0.05, n_resamples=50, rng=0)
    assert none.rejection_rate[0] == 0.0
    high = stats.beta.ppf(0.975, 1, 50)                         # Clopper–Pearson upper end at 0 of 50
    assert f"rejects in  0.0% (0 of 50; Clopper–Pearson 95% CI 0 to {100 * high:.1f})" in describe_peeking(none, rules="fixed-n")


def test_a_slider_redraw_replaces_the_bars_in_place():
    fig = figure((6, 3))
    ax = fig.subplots()
    for looks in (2, 8, 2):
        s = peeking_study(0.02, looks=looks, n_max=200, n_resamples=100, rng=0)
        assert plot_peeking_rates(s, rules=("fixed-n", "every look"), ax=ax) is ax
        assert len(ax.patches) == 2 and len(ax.containers) == 2 and len(ax.texts) == 1
    assert "power at true difference +0.02" in ax.get_ylabel()


def test_peeking_callbacks_reject_bad_input():
    s = peeking_study(0.0, looks=2, n_max=50, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="rules must be a non-empty selection"):
        plot_peeking_rates(s, rules=("sometimes",))
    with pytest.raises(ValueError, match="rules"):
        describe_peeking(s, rules=())
    with pytest.raises(TypeError, match="study must be a PeekingStudy"):
        plot_peeking_rates(s.to_frame())


def test_margin_picture_draws_the_one_sided_bound_statsmodels_gives():
    rng = np.random.default_rng(5)
    b = (rng.random(400) < 0.75).astype(float)
    a = np.where(rng.random(400) < 0.1, 1 - b, b)
    res = paired_item_margin_test(a, b, margin=0.03, method="t")
    d = a - b
    # statsmodels' one-sided paired t interval: DescrStatsW(d).tconfint_mean(alpha=2 * 0.05)
    sm = pytest.importorskip("statsmodels.stats.weightstats")
    low = sm.DescrStatsW(d).tconfint_mean(alpha=0.10)[0]
    assert res.low == pytest.approx(low, rel=1e-10)
    cs = confidence_sequence(a, b, alternative="greater")
    ax = plot_margin_decision(res, sequential_low=cs.low[-1])
    assert ax.lines[0].get_xdata()[0] == pytest.approx(-0.03)
    bars = [line for line in ax.lines if line.get_linewidth() == 5]
    assert [line.get_xdata()[0] for line in bars] == pytest.approx([low, cs.low[-1]])
    shown = "shown" if low > -0.03 else "not shown"
    assert ax.get_title(loc="left") == f"non-inferiority {shown} at alpha = 0.05"
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"lower bound {low:+.3f}" in texts and ax.get_xlabel().startswith("a - b over 400 items")
    named = plot_margin_decision(res, names=("forest", "logistic"))
    assert named.get_xlabel().startswith("forest - logistic over 400 items")
    # redrawn in place with one bar
    again = plot_margin_decision(paired_item_margin_test(a, b, margin=0.01, method="t"), ax=ax)
    assert again is ax and len([line for line in ax.lines if line.get_linewidth() == 5]) == 1


def test_margin_picture_rejects_what_it_cannot_draw():
    a, b = [0.8, 0.6, 0.9, 0.7], [0.7, 0.6, 0.8, 0.75]
    with pytest.raises(ValueError, match="non-inferiority test with higher_is_better=True"):
        plot_margin_decision(paired_item_margin_test(a, b, margin=0.1, hypothesis="equivalence"))
    with pytest.raises(ValueError, match="higher_is_better"):
        plot_margin_decision(paired_item_margin_test(a, b, margin=0.1, higher_is_better=False))
    with pytest.raises(ValueError, match=r"sequential_low must be in \[-1, 1\]"):
        plot_margin_decision(paired_item_margin_test(a, b, margin=0.1), sequential_low=2.0)
    with pytest.raises(TypeError, match="PairedItemMarginTest"):
        plot_margin_decision({"low": 0.1})
    with pytest.raises(ValueError, match="names must be two different non-empty strings"):
        plot_margin_decision(paired_item_margin_test(a, b, margin=0.1), names=("a", ""))


def _planted(rejected, alpha=0.05):
    """A PeekingStudy with planted rejections (rows: the four rules), rates and SEs from the binomial formula."""
    from evallib.sequential import PeekingStudy
    rej = np.asarray(rejected, bool)
    n = rej.shape[1]
    rate = rej.mean(axis=1)
    return PeekingStudy(rules=("fixed-n", "every look", "alpha-spending", "confidence sequence"), rejection_rate=rate,
                        se=np.sqrt(rate * (1 - rate) / n), mean_n=np.full(4, 100.0), effect=0.0, discordance=0.1,
                        alpha=alpha, n_max=100, looks=3, n_resamples=n, rejected=rej)


def test_describe_rate_reads_each_rate_as_describe_mc_share_does_with_statsmodels_clopper_pearson():
    """From 10 rejections and non-rejections on, the rate and its MC SE sqrt(r (1 - r) / n) by hand; below, the count
    and the exact interval, here statsmodels' proportion_confint(method="beta"), an independent source."""
    from statsmodels.stats.proportion import proportion_confint

    from evallib.lessons import describe_rate
    rej = np.zeros((4, 20), bool)
    rej[1, :5] = True            # 5 of 20: fewer than 10 rejections, so the exact interval
    rej[3, :] = True             # 20 of 20
    s = _planted(rej)
    low, high = proportion_confint(5, 20, alpha=0.05, method="beta")
    assert describe_rate(s, "every look") == (
        f"25.00% (5 of 20; Clopper–Pearson 95% interval {100 * low:.2f}% to {100 * high:.2f}%)")
    up = proportion_confint(0, 20, alpha=0.05, method="beta")[1]
    assert describe_rate(s, "fixed-n") == f"none of 20 (Clopper–Pearson 95% upper bound {100 * up:.2f}%)"
    assert "16.84%" in describe_rate(s, "fixed-n")
    down = proportion_confint(20, 20, alpha=0.05, method="beta")[0]
    assert describe_rate(s, "confidence sequence") == f"all 20 (Clopper–Pearson 95% lower bound {100 * down:.2f}%)"
    rej = np.zeros((4, 40), bool)
    rej[1, :12] = True           # 12 of 40, 28 not: the MC SE sqrt(0.3 * 0.7 / 40) = 7.25 percentage points
    assert describe_rate(_planted(rej), "every look") == "30.0% (MC SE 7.2 percentage points)"
    with pytest.raises(ValueError, match="rule"):
        describe_rate(s, "sometimes")
    with pytest.raises(ValueError, match="rule"):
        describe_rate(s, ["fixed-n", "every look"])


def test_rule_difference_decides_with_the_exact_mcnemar_test_on_the_discordant_streams():
    from evallib.lessons import rule_difference
    # 4 discordant of 20, all one way: exact p = 2 * 0.5^4 = 0.125 > 0.05, and no split of 4 could reach 0.05
    rej = np.zeros((4, 20), bool)
    rej[0, :10] = True
    rej[3, 4:10] = True
    r = rule_difference(_planted(rej), "fixed-n", "confidence sequence")
    assert (r.only_a, r.only_b, r.verdict) == (4, 0, "too small")
    assert r.pvalue == pytest.approx(stats.binomtest(4, 4, 0.5).pvalue) == pytest.approx(0.125)
    assert r.gap == pytest.approx(0.2) and "too small to judge" in r.text
    # no discordant stream at all
    r0 = rule_difference(_planted(np.zeros((4, 20), bool)), "fixed-n", "alpha-spending")
    assert (r0.only_a + r0.only_b, r0.verdict) == (0, "too small")
    # 8 one way, 0 the other: p = 2 / 256 = 0.0078 <= 0.05, the first rule higher
    rej = np.zeros((4, 40), bool)
    rej[0, :12] = True
    rej[3, 8:12] = True
    r = rule_difference(_planted(rej), "fixed-n", "confidence sequence")
    assert (r.only_a, r.only_b, r.verdict) == (8, 0, "a higher")
    assert r.pvalue == pytest.approx(stats.binomtest(0, 8, 0.5).pvalue) and "differ at α = 0.05" in r.text
    r = rule_difference(_planted(rej), "confidence sequence", "fixed-n")
    assert r.verdict == "b higher" and r.gap == pytest.approx(-0.2)
    # 6 and 3: p = 0.51, enough streams to judge, not shown to differ
    rej = np.zeros((4, 40), bool)
    rej[0, :6] = True
    rej[3, 6:9] = True
    r = rule_difference(_planted(rej), "fixed-n", "confidence sequence")
    assert (r.only_a, r.only_b, r.verdict) == (6, 3, "not shown")
    assert r.pvalue == pytest.approx(stats.binomtest(3, 9, 0.5).pvalue) and "not shown to differ" in r.text
    assert "6 were rejected by fixed-n alone and 3 by confidence sequence alone" in r.text
    # one stream one way: the verb agrees with the count
    rej = np.zeros((4, 20), bool)
    rej[0, :1] = True
    rej[3, 1:3] = True
    r1 = rule_difference(_planted(rej), "fixed-n", "confidence sequence")
    assert (r1.only_a, r1.only_b) == (1, 2)
    assert "of the 20 streams, 1 was rejected by fixed-n alone and 2 by confidence sequence alone" in r1.text
    with pytest.raises(ValueError, match="two different"):
        rule_difference(_planted(rej), "fixed-n", "fixed-n")
    with pytest.raises(ValueError, match="rules"):
        rule_difference(_planted(rej), "fixed-n", "never")


def _one_look_by_hand(n, m, alpha):
    """The exact one-look size by brute force: S = 2k - m with k ~ Binomial(m, 1/2), the sample-SD z test."""
    k = np.arange(m + 1)
    s = 2 * k - m
    sd = np.sqrt(np.maximum(m / n - (s / n) ** 2, 0) * n / (n - 1))
    z = np.divide(s / n, sd / np.sqrt(n), out=np.zeros(m + 1), where=sd > 0)
    return float(stats.binom.pmf(k, m, 0.5)[np.abs(z) >= stats.norm.isf(alpha / 2)].sum())


def test_one_look_reason_gives_the_exact_size_and_both_sides_of_alpha():
    from evallib.lessons import one_look_reason
    text = one_look_reason(100, 11, alpha=0.05, spread=3)
    here = _one_look_by_hand(100, 11, 0.05)
    near = {m: _one_look_by_hand(100, m, 0.05) for m in range(8, 15)}
    assert "m = 11 discordant signs (an odd number from −11 to 11 in steps of 2)" in text
    assert f"{100 * here:.2f}% here, {'above' if here > 0.05 else 'below'} α = 5%" in text
    lo, hi = min(near, key=near.get), max(near, key=near.get)
    assert near[lo] < 0.05 < near[hi] and "It can fall on either side of α" in text
    assert f"from {100 * near[lo]:.2f}% (m = {lo}, below α) to {100 * near[hi]:.2f}% (m = {hi}, above α)" in text
    assert "an even number" in one_look_reason(100, 10, spread=0)
    # spread 0: only m itself, so nothing crosses alpha
    assert "Nearby counts do not cross α here" in one_look_reason(100, 11, spread=0)
    for bad in (dict(n_items=1, discordant=1), dict(n_items=10, discordant=0), dict(n_items=10, discordant=11)):
        with pytest.raises(ValueError, match="n_items|discordant"):
            one_look_reason(**bad)
    with pytest.raises(ValueError, match="spread"):
        one_look_reason(10, 3, spread=-1)


def test_one_share_formatter_and_one_copy_of_the_clopper_pearson_limits():
    """describe_share is gone: describe_rate prints through describe_mc_share; the Clopper–Pearson limits have one
    copy (_items._clopper_pearson), checked against statsmodels' proportion_confint(method="beta"), and the whiskers
    of plot_peeking_rates (_rate_interval) take their exact ends from it."""
    import inspect

    from statsmodels.stats.proportion import proportion_confint

    import evallib.lessons as lessons
    from evallib.lessons import _items, _peeking
    assert not hasattr(lessons, "describe_share") and not hasattr(_peeking, "describe_share")
    for n in (1, 7, 20, 200, 2000):
        for k in sorted({0, 1, n // 3, n - 1, n}):
            low, high = _items._clopper_pearson(k, n)
            ref = proportion_confint(k, n, alpha=0.05, method="beta")
            assert (float(low), float(high)) == pytest.approx(ref, rel=1e-9, abs=1e-12), (k, n)
    rej = np.zeros((4, 50), bool)
    rej[3, :] = True                                   # 0 of 50 for fixed-n, 50 of 50 for the sequence
    low, high = _peeking._rate_interval(_planted(rej), [0, 3])
    assert high[0] == pytest.approx(proportion_confint(0, 50, method="beta")[1], rel=1e-9)
    assert low[1] == pytest.approx(proportion_confint(50, 50, method="beta")[0], rel=1e-9)
    source = inspect.getsource(_peeking)
    assert "beta" not in source.replace("alpha", "") and "0.025 **" not in source
    assert "_clopper_pearson(" in inspect.getsource(_peeking._rate_interval)
    assert "describe_mc_share(" in inspect.getsource(_peeking.describe_rate)
    assert inspect.getsource(_items).count("stats.beta.ppf(") == 1
