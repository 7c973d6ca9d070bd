"""alternative= ("two-sided", "less", "greater") and the one t/z core (evallib._inference).

Every one-sided p-value is checked against an independent source: scipy's tests with
``alternative=``, the binomial distribution, or brute-force enumeration; where the
relation is exact, ``p_less + p_greater`` is checked too.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from evallib._inference import ALTERNATIVES, ZERO_RTOL, critical_value, se_from_variance, t_inference, tail_pvalue
from evallib.items._means import paired_item_difference
from evallib.manydatasets._ranktests import sign_test, wilcoxon_signed_rank
from evallib.onetestset._mcnemar import mcnemar
from evallib.onetestset._scoring import delong_test
from evallib.planning import mcnemar_power, mcnemar_power_curve, mcnemar_sample_size
from evallib.resampling._cvtests import corrected_resampled_ttest, cv_ttest

ONE_SIDED = ("less", "greater")
RNG = np.random.default_rng(20240531)
X = np.round(RNG.normal(0.80, 0.03, 12), 4)
Y = np.round(X - RNG.normal(0.01, 0.02, 12), 4)


# ------------------------------------------------------------------------ the core
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("df", [None, 7])
def test_core_matches_scipy_one_sample_t(alternative, df):
    d = X - Y
    if df is None:  # the normal reference: a z test with a known se
        se = 0.01
        res = t_inference(d.mean(), se, alternative=alternative)
        z = d.mean() / se
        want = {"two-sided": 2 * stats.norm.sf(abs(z)), "greater": stats.norm.sf(z), "less": stats.norm.cdf(z)}
        assert res.pvalue == pytest.approx(want[alternative], rel=1e-12)
        return
    d = d[:8]
    ref = stats.ttest_1samp(d, 0.0, alternative=alternative)
    res = t_inference(d.mean(), d.std(ddof=1) / math.sqrt(8), df=df, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    ci = ref.confidence_interval(0.95)
    assert (res.low, res.high) == (pytest.approx(ci.low, rel=1e-10), pytest.approx(ci.high, rel=1e-10))


def test_core_one_sided_pvalues_sum_to_one():
    for df in (None, 3, 40.5):
        less = t_inference(0.3, 0.2, df=df, alternative="less").pvalue
        greater = t_inference(0.3, 0.2, df=df, alternative="greater").pvalue
        assert less + greater == pytest.approx(1.0, abs=1e-14)
        assert 2 * min(less, greater) == pytest.approx(t_inference(0.3, 0.2, df=df).pvalue, abs=1e-14)


def test_core_zero_variance_rule():
    # se = 0 and estimate = null: no evidence, whatever the alternative; the estimate is the null
    for alternative in ALTERNATIVES:
        res = t_inference(1e-17, 3e-18, df=4, alternative=alternative)
        assert (res.estimate, res.se, res.statistic, res.pvalue) == (0.0, 0.0, 0.0, 1.0)
    # se = 0, estimate above the null: +inf; p = 0 unless the alternative points the other way
    assert t_inference(0.2, 1e-14, df=4).statistic == math.inf
    assert t_inference(0.2, 0.0, df=4).pvalue == 0.0
    assert t_inference(0.2, 0.0, alternative="greater").pvalue == 0.0
    assert t_inference(0.2, 0.0, alternative="less").pvalue == 1.0
    assert t_inference(-0.2, 0.0).statistic == -math.inf
    res = t_inference(0.2, 0.0)
    assert (res.low, res.high) == (0.2, 0.2)
    # "zero" is relative to the scale of the data: 1e-10 is no round-off on data of size 1 ...
    assert t_inference(0.2, 1e-10).statistic == pytest.approx(2e9)
    # ... but it is on data of size 1e3 (1e-12 x 1e3 = 1e-9)
    assert t_inference(0.2, 1e-10, scale=1e3).statistic == math.inf
    assert ZERO_RTOL == 1e-12
    # a variance from a subtraction is judged against the variances it came from
    assert se_from_variance(1e-15, 1e-2) == 0.0 and se_from_variance(1e-13, 1e-2) == pytest.approx(math.sqrt(1e-13))


def test_core_one_sided_interval():
    res = t_inference(0.5, 0.1, alternative="greater", alpha=0.05)
    assert res.low == pytest.approx(0.5 - stats.norm.isf(0.05) * 0.1) and res.high == math.inf
    res = t_inference(0.5, 0.1, df=5, alternative="less", alpha=0.1)
    assert res.low == -math.inf and res.high == pytest.approx(0.5 + stats.t.isf(0.1, 5) * 0.1)
    assert critical_value(0.05, 10) == pytest.approx(stats.t.ppf(0.975, 10))


def test_core_vectorised():
    res = t_inference(np.array([0.0, 0.1, -0.2]), np.array([0.0, 0.05, 0.1]), df=9)
    assert res.pvalue[0] == 1.0
    assert res.pvalue[1:] == pytest.approx(2 * stats.t.sf(2.0, 9))
    assert tail_pvalue(np.array([np.inf, -np.inf]), 3, "greater").tolist() == [0.0, 1.0]


# ------------------------------------------------------------------ the paired t
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_cv_ttest_matches_scipy_ttest_rel(alternative):
    ref = stats.ttest_rel(X, Y, alternative=alternative)
    res = cv_ttest(X, Y, alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.alternative == alternative
    ci = ref.confidence_interval(0.9)
    assert res.interval(0.1) == (pytest.approx(ci.low, rel=1e-10), pytest.approx(ci.high, rel=1e-10))


@pytest.mark.parametrize("alternative", ONE_SIDED)
def test_cv_ttest_nonpaired_welch_matches_scipy(alternative):
    ref = stats.ttest_ind(X, Y[:9], equal_var=False, alternative=alternative)
    res = cv_ttest(X, Y[:9], paired=False, nonpaired_df="welch", alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_resampled_ttest_one_sided(alternative):
    # with n_test/n_train = 0 it is the paired t-test
    ref = stats.ttest_rel(X, Y, alternative=alternative)
    assert corrected_resampled_ttest(X, Y, test_train_ratio=0.0, alternative=alternative).pvalue == \
        pytest.approx(ref.pvalue, rel=1e-10)
    # the correction inflates the variance by (1/J + r) / (1/J): the t statistic shrinks by its root
    j, r = X.size, 0.25
    t = ref.statistic / math.sqrt((1 / j + r) * j)
    want = {"two-sided": 2 * stats.t.sf(abs(t), j - 1), "greater": stats.t.sf(t, j - 1),
            "less": stats.t.cdf(t, j - 1)}[alternative]
    assert corrected_resampled_ttest(X, Y, test_train_ratio=r, alternative=alternative).pvalue == \
        pytest.approx(want, rel=1e-10)


def test_paired_t_zero_variance_one_sided():
    res = cv_ttest([0.8, 0.7, 0.9], [0.7, 0.6, 0.8], alternative="less")   # d = 0.1 in every round
    assert (res.statistic, res.pvalue, res.std_error) == (math.inf, 1.0, 0.0)
    assert cv_ttest([0.8, 0.7, 0.9], [0.7, 0.6, 0.8], alternative="greater").pvalue == 0.0


# --------------------------------------------------------- paired item differences
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_item_difference_t_matches_scipy(alternative):
    a, b = RNG.uniform(0, 1, 30), RNG.uniform(0, 1, 30)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    res = paired_item_difference(a, b, method="t", alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.alternative == alternative
    ci = ref.confidence_interval(0.95)
    assert res.low == pytest.approx(max(-1.0, ci.low), rel=1e-10)
    assert res.high == pytest.approx(min(1.0, ci.high), rel=1e-10)


@pytest.mark.parametrize("alternative", ONE_SIDED)
def test_paired_item_difference_mcnemar_one_sided(alternative):
    a = np.array([1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0])
    b = np.array([1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1])
    n10 = int(np.sum((a == 1) & (b == 0)))   # a right, b wrong: 5
    m = n10 + int(np.sum((a == 0) & (b == 1)))
    res = paired_item_difference(a, b, alternative=alternative)
    assert res.method == "mcnemar"
    # mid-p of n10 ~ Binomial(m, 1/2): "greater" (a better) is the upper tail of n10
    k = n10 if alternative == "greater" else m - n10
    want = stats.binom.sf(k, m, 0.5) + 0.5 * stats.binom.pmf(k, m, 0.5)
    assert res.pvalue == pytest.approx(want, rel=1e-12)
    assert (res.high == 1.0) if alternative == "greater" else (res.low == -1.0)


def test_paired_item_difference_wild_is_two_sided_only():
    with pytest.raises(ValueError, match="method='wild'"):
        paired_item_difference([0.1, 0.5, 0.7], [0.2, 0.4, 0.5], method="wild", alternative="less")


# ------------------------------------------------------------------------ McNemar
def _mid_p_greater(b, m):
    return stats.binom.sf(b, m, 0.5) + 0.5 * stats.binom.pmf(b, m, 0.5)


@pytest.mark.parametrize("b, c", [(1, 7), (7, 1), (4, 4), (0, 5), (12, 30)])
def test_mcnemar_exact_and_mid_p_one_sided_match_the_binomial(b, c):
    m = b + c
    for alternative in ONE_SIDED:
        ref = stats.binomtest(b, m, 0.5, alternative=alternative).pvalue
        res = mcnemar(b, c, method="exact", alternative=alternative)
        assert res.pvalue == pytest.approx(ref, rel=1e-12)
        assert res.alternative == alternative
    # exact: p_less + p_greater = 1 + P(X = b); mid-p: exactly 1
    less, greater = (mcnemar(b, c, method="exact", alternative=a).pvalue for a in ONE_SIDED)
    assert less + greater == pytest.approx(1.0 + stats.binom.pmf(b, m, 0.5), rel=1e-12)
    less, greater = (mcnemar(b, c, method="mid-p", alternative=a).pvalue for a in ONE_SIDED)
    assert greater == pytest.approx(_mid_p_greater(b, m), rel=1e-12)
    assert less + greater == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("b, c", [(1, 7), (9, 3), (15, 15)])
def test_mcnemar_chi2_one_sided_is_the_signed_z(b, c):
    m = b + c
    less, greater = (mcnemar(b, c, method="chi2", alternative=a).pvalue for a in ONE_SIDED)
    assert greater == pytest.approx(stats.norm.sf((b - c) / math.sqrt(m)), rel=1e-12)
    assert less + greater == pytest.approx(1.0, abs=1e-14)
    assert 2 * min(less, greater) == pytest.approx(mcnemar(b, c, method="chi2").pvalue, rel=1e-12)
    # Yates: the one-sided tail of the continuity-corrected z; twice the smaller is the two-sided test
    # (b != c, where the two-sided statistic is not floored)
    less, greater = (mcnemar(b, c, alternative=a).pvalue for a in ONE_SIDED)
    assert greater == pytest.approx(stats.norm.sf((b - c - 1) / math.sqrt(m)), rel=1e-12)
    assert less == pytest.approx(stats.norm.cdf((b - c + 1) / math.sqrt(m)), rel=1e-12)
    if b != c:
        assert 2 * min(less, greater) == pytest.approx(mcnemar(b, c).pvalue, rel=1e-12)


def test_mcnemar_no_discordant_pairs_one_sided():
    assert mcnemar(0, 0, method="exact", alternative="greater").pvalue == 1.0
    assert mcnemar(0, 0, alternative="less").pvalue == 1.0


# ------------------------------------------------------------ McNemar's power
def _brute_force_power(n, p_b, p_c, alpha, alternative, mid_p):
    """Enumerate every table (b, c) of n cases and add the probabilities of those that reject."""
    total = 0.0
    for b, c in itertools.product(range(n + 1), repeat=2):
        if b + c > n:
            continue
        m = b + c
        if m == 0:
            continue
        if mid_p:
            x = b if alternative == "greater" else c
            p = _mid_p_greater(x, m)
        else:
            p = stats.binomtest(b, m, 0.5, alternative=alternative).pvalue
        if p <= alpha:
            total += stats.multinomial.pmf([b, c, n - m], n, [p_b, p_c, 1 - p_b - p_c])
    return total


@pytest.mark.parametrize("alternative", ONE_SIDED)
@pytest.mark.parametrize("method", ["exact", "midp"])
def test_mcnemar_power_one_sided_brute_force(alternative, method):
    n, p_b, p_c = 25, 0.3, 0.1
    want = _brute_force_power(n, p_b, p_c, 0.05, alternative, method == "midp")
    assert mcnemar_power(n, p_b, p_c, method=method, alternative=alternative) == pytest.approx(want, abs=1e-10)
    curve = mcnemar_power_curve([n], p_b, p_c, methods=(method,), alternative=alternative)
    assert curve["power"].iloc[0] == pytest.approx(want, abs=1e-10)


def test_mcnemar_power_one_sided_asymptotic():
    # Connor's formula with z_alpha, checked against the exact probability that the
    # uncorrected signed z = (b - c)/sqrt(n psi0) exceeds z_alpha at n = 400 (CLT: within 0.01)
    n, p_b, p_c, alpha = 400, 0.12, 0.08, 0.05
    psi = p_b + p_c
    b = np.arange(n + 1)[:, None]
    c = np.arange(n + 1)[None, :]
    ok = b + c <= n
    with np.errstate(divide="ignore", invalid="ignore"):
        logpmf = np.where(ok, stats.multinomial.logpmf(np.stack(np.broadcast_arrays(b, c, n - b - c), -1), n,
                                                       [p_b, p_c, 1 - psi]), -np.inf)
    reject = (b - c) / math.sqrt(n * psi) > stats.norm.isf(alpha)
    exact = float(np.exp(logpmf[ok & reject]).sum())
    got = mcnemar_power(n, p_b, p_c, method="chi2", alternative="greater")
    assert got == pytest.approx(exact, abs=0.01)
    # one-sided at alpha has more power than two-sided, and none in the wrong direction
    assert got > mcnemar_power(n, p_b, p_c, method="chi2")
    assert mcnemar_power(n, p_b, p_c, method="chi2", alternative="less") < alpha


@pytest.mark.parametrize("p_b, p_c", [(0.12, 0.08), (0.30, 0.15), (0.45, 0.05)])
def test_mcnemar_asymptotic_one_sided_matches_statsmodels(p_b, p_c):
    # Connor's formula is the normal test with sd sqrt(psi) under H0 and sqrt(psi - delta^2) under H1:
    # statsmodels' normal_power_het / normal_sample_size_one_tail with those two sds (per pair)
    sm_power = pytest.importorskip("statsmodels.stats.power")
    psi, delta = p_b + p_c, p_b - p_c
    sds = dict(std_null=math.sqrt(psi), std_alternative=math.sqrt(psi - delta ** 2))
    for n in (20, 150, 600):
        want = sm_power.normal_power_het(delta, n, 0.05, alternative="larger", **sds)
        assert mcnemar_power(n, p_b, p_c, method="chi2", alternative="greater") == pytest.approx(want, rel=1e-9)
        want = sm_power.normal_power_het(-delta, n, 0.05, alternative="smaller", **sds)
        assert mcnemar_power(n, p_c, p_b, method="chi2", alternative="less") == pytest.approx(want, rel=1e-9)
    n_sm = sm_power.normal_sample_size_one_tail(delta, 0.8, 0.05, **sds)
    assert mcnemar_sample_size(p_b, p_c, power=0.8, alternative="greater") == math.ceil(n_sm - 1e-9)


def test_mcnemar_sample_size_one_sided():
    # Connor (1987), p. 209: 23 pairs two-sided; one-sided needs fewer
    n2 = mcnemar_sample_size(0.45, 0.05, power=0.8)
    n1 = mcnemar_sample_size(0.45, 0.05, power=0.8, alternative="greater")
    assert n1 < n2 == 23
    assert mcnemar_power(n1, 0.45, 0.05, method="chi2", alternative="greater") >= 0.8
    n_exact = mcnemar_sample_size(0.3, 0.1, method="exact", alternative="greater")
    assert _brute_force_power(n_exact, 0.3, 0.1, 0.05, "greater", False) >= 0.8
    with pytest.raises(ValueError, match="point against alternative='less'"):
        mcnemar_sample_size(0.45, 0.05, alternative="less")
    with pytest.raises(ValueError, match=r"alpha must lie in \(0, 0.5\)"):
        mcnemar_power(20, 0.3, 0.1, alpha=0.6, alternative="greater")


# ------------------------------------------------------------------------ DeLong
def test_delong_one_sided():
    rng = np.random.default_rng(7)
    y = np.repeat([0, 1], 40)
    sa = y + rng.normal(0, 1.0, 80)
    sb = y + rng.normal(0, 1.5, 80)
    two = delong_test(y, sa, sb)
    less, greater = (delong_test(y, sa, sb, alternative=a) for a in ONE_SIDED)
    assert greater.pvalue == pytest.approx(stats.norm.sf(two.statistic), rel=1e-12)
    assert less.pvalue + greater.pvalue == pytest.approx(1.0, abs=1e-14)
    assert 2 * min(less.pvalue, greater.pvalue) == pytest.approx(two.pvalue, rel=1e-12)
    assert greater.low == pytest.approx(two.difference - stats.norm.isf(0.05) * two.se) and greater.high == 1.0
    assert less.low == -1.0 and greater.alternative == "greater"


# ---------------------------------------------------------- Wilcoxon, sign test
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_wilcoxon_matches_scipy(alternative):
    d = np.array([0.9, -0.3, 1.7, 2.2, 0.4, -1.1, 3.0, 0.6, 1.3, -0.2])
    ref = stats.wilcoxon(d, alternative=alternative, method="exact")
    assert wilcoxon_signed_rank(d, alternative=alternative).pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_sign_test_matches_binomtest(alternative):
    d = np.array([0.9, -0.3, 1.7, 2.2, 0.4, -1.1, 3.0, 0.6, 1.3, 0.2])
    want = stats.binomtest(int((d > 0).sum()), d.size, 0.5, alternative=alternative).pvalue
    assert sign_test(d, alternative=alternative).pvalue == pytest.approx(want, rel=1e-12)


# --------------------------------------------------------------- bad alternative
@pytest.mark.parametrize("call", [
    lambda: t_inference(0.1, 0.1, alternative="larger"),
    lambda: cv_ttest(X, Y, alternative="larger"),
    lambda: corrected_resampled_ttest(X, Y, test_train_ratio=0.1, alternative="two_sided"),
    lambda: paired_item_difference([1, 0, 1], [0, 0, 1], alternative="bigger"),
    lambda: mcnemar(3, 5, alternative="smaller"),
    lambda: mcnemar_power(20, 0.3, 0.1, alternative="one-sided"),
    lambda: mcnemar_sample_size(0.3, 0.1, alternative="up"),
    lambda: delong_test([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.2, 0.1, 0.5, 0.6], alternative="Greater"),
    lambda: wilcoxon_signed_rank([1.0, 2.0, -0.5], alternative="larger"),
    lambda: sign_test([1.0, 2.0, -0.5], alternative="larger"),
])
def test_bad_alternative_names_the_argument_and_the_choices(call):
    with pytest.raises(ValueError, match=r"alternative must be one of .*'two-sided'.*'greater'|"
                                         r"alternative must be one of .*'greater'.*'two-sided'"):
        call()
