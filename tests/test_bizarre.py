"""Tests of evallib.onetestset._bizarre against independent references.

References: a direct loop for the eight counts, scikit-learn's ``f1_score`` for
eq. (12), statsmodels for the proportion and disagreement tests, brute-force
enumeration of small tables for the variances of eqs. (8)-(9), index resampling
for the multinomial bootstrap (a seeded two-sample test), and the overlap figures
the paper quotes in section 5, recomputed by Monte Carlo.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.proportion import proportions_ztest

from evallib.onetestset import _bizarre as bz
import evallib.studies


def _random_task(n, rng, prior=0.3, err_a=0.2, err_b=0.25):
    y = (rng.random(n) < prior).astype(int)
    a = np.where(rng.random(n) < err_a, 1 - y, y)
    b = np.where(rng.random(n) < err_b, 1 - y, y)
    return y, a, b


# ------------------------------------------------------------------ Table 1
def test_joint_events_match_a_direct_loop():
    rng = np.random.default_rng(1)
    y, a, b = _random_task(500, rng)
    table = {  # (y, A says positive, B says positive) -> event, read off Tables 1 and 2
        (1, 1, 1): 0, (1, 0, 1): 1, (1, 1, 0): 2, (1, 0, 0): 3,
        (0, 1, 1): 4, (0, 0, 1): 5, (0, 1, 0): 6, (0, 0, 0): 7,
    }
    expected = np.zeros(8, int)
    for yi, ai, bi in zip(y, a, b):
        expected[table[(yi, ai, bi)]] += 1
    assert np.array_equal(bz.joint_events(y, a, b), expected)
    # The paper's {-1, 1} coding gives the same counts.
    assert np.array_equal(bz.joint_events(2 * y - 1, 2 * a - 1, 2 * b - 1), expected)


def test_table2_illustration_events():
    # Table 2: doc1 TP_A TP_B -> e1, doc2 FP_A TN_B -> e7, doc3 FN_A TP_B -> e2,
    # doc4 TP_A FN_B -> e3, docN TN_A FP_B -> e6.
    y = [1, -1, 1, 1, -1]
    a = [1, 1, -1, 1, -1]
    b = [1, -1, 1, -1, 1]
    assert bz.event_codes(y, a, b).tolist() == [0, 6, 1, 2, 5]


# ------------------------------------------------------------------ eq. (12)
@pytest.mark.parametrize("seed", range(5))
def test_f1_difference_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y, a, b = _random_task(int(rng.integers(20, 400)), rng, prior=rng.uniform(0.05, 0.6))
    ev = bz.joint_events(y, a, b)
    f1a, f1b = bz.f1_scores(ev)
    assert f1a == pytest.approx(f1_score(y, a))
    assert f1b == pytest.approx(f1_score(y, b))
    assert bz.f1_difference(ev) == pytest.approx(f1_score(y, b) - f1_score(y, a))


def test_printed_eq12_is_not_the_f1_difference():
    rng = np.random.default_rng(0)
    y, a, b = _random_task(400, rng)
    ev = bz.joint_events(y, a, b)
    truth = f1_score(y, b) - f1_score(y, a)
    assert abs(evallib.studies.printed_eq12(ev) - truth) > 0.01


def test_f1_difference_vectorised_rows_and_zero_division():
    ev = np.array([[3, 1, 2, 0, 1, 0, 2, 10], [0, 0, 0, 0, 0, 2, 0, 5], [0, 0, 0, 0, 0, 0, 0, 5]])
    d = bz.f1_difference(ev)
    assert d[0] == pytest.approx(2 * 4 / (2 * 4 + 2 + 1) - 2 * 5 / (2 * 5 + 1 + 3))
    # row 2: no positives; B has 2 false positives (F1_B = 0), A is 0/0 -> 0 by default
    assert d[1] == 0.0
    assert bz.f1_difference(ev, zero_division=1.0)[1] == -1.0
    # sklearn agrees on the 0/0 convention
    assert f1_score([0, 0], [0, 0], zero_division=0.0) == 0.0
    assert d[2] == 0.0


# ------------------------------------------------------------ eqs. (1)-(6)
@pytest.mark.parametrize("ea,eb,n", [(30, 45, 200), (7, 2, 50), (120, 100, 1000)])
def test_proportion_test_matches_statsmodels(ea, eb, n):
    res = bz.proportion_test(ea, eb, n)
    z, p = proportions_ztest([ea, eb], [n, n])
    assert res.difference == pytest.approx((ea - eb) / n)
    assert res.statistic == pytest.approx(z)
    assert res.pvalue == pytest.approx(p)


def test_disagreement_test_matches_mcnemar_without_correction():
    rng = np.random.default_rng(3)
    y, a, b = _random_task(300, rng)
    res = bz.disagreement_test(y, a, b)
    wa, wb = a != y, b != y
    table = [[np.sum(~wa & ~wb), np.sum(~wa & wb)], [np.sum(wa & ~wb), np.sum(wa & wb)]]
    sm = sm_mcnemar(table, exact=False, correction=False)
    assert res.statistic**2 == pytest.approx(sm.statistic)
    assert res.pvalue == pytest.approx(sm.pvalue)
    assert res.difference == pytest.approx(np.mean(wa) - np.mean(wb))


def test_degenerate_tests_are_defined():
    assert bz.proportion_test(0, 0, 10).pvalue == 1.0
    y = np.array([0, 1, 1, 0])
    res = bz.disagreement_test(y, y, y)
    assert (res.difference, res.statistic, res.pvalue) == (0.0, 0.0, 1.0)
    assert bz.dcf_test(y, y, y).pvalue == 1.0
    assert bz.dcf_test(y, y, y, paired=False).pvalue == 1.0


# --------------------------------------------------------------- eqs. (7)-(9)
def test_dcf_by_hand():
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    p = np.array([1, 1, 0, 0, 1, 0, 0, 0, 0, 0])   # fn = 2 of 4, fp = 1 of 6
    assert bz.dcf(y, p) == pytest.approx(0.5 * 0.5 + 0.5 * 1 / 6)
    assert bz.dcf(y, p, cost_fn=10, cost_fp=1, prior_pos=0.01) == pytest.approx(10 * 0.01 * 0.5 + 0.99 / 6)


def _dcf_diff(fn_a, fn_b, fp_a, fp_b, n_pos, n_neg, wp, wn):
    return wp * (fn_a - fn_b) / n_pos + wn * (fp_a - fp_b) / n_neg


@pytest.mark.parametrize("n_pos,n_neg,kw", [
    (4, 5, dict(cost_fn=1.0, cost_fp=1.0, prior_pos=0.5)),
    (3, 6, dict(cost_fn=10.0, cost_fp=1.0, prior_pos=0.2)),
])
def test_eq9_variance_by_enumerating_sign_patterns(n_pos, n_neg, kw):
    """Eq. (9): under H0 each disagreement goes either way with probability 1/2."""
    rng = np.random.default_rng(n_pos)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    a = rng.integers(0, 2, n_pos + n_neg)
    b = a.copy()
    dis = np.array([0, 1, 2, n_pos, n_pos + 1])     # 3 positive and 2 negative disagreements
    b[dis] = 1 - a[dis]
    wp, wn = kw["cost_fn"] * kw["prior_pos"], kw["cost_fp"] * (1 - kw["prior_pos"])
    values = []
    for signs in itertools.product([0, 1], repeat=dis.size):
        aa, bb = a.copy(), b.copy()
        for k, s in zip(dis, signs):   # who is right on disagreement k
            aa[k], bb[k] = (y[k], 1 - y[k]) if s else (1 - y[k], y[k])
        fn_a = np.sum((y == 1) & (aa == 0)); fn_b = np.sum((y == 1) & (bb == 0))
        fp_a = np.sum((y == 0) & (aa == 1)); fp_b = np.sum((y == 0) & (bb == 1))
        values.append(_dcf_diff(fn_a, fn_b, fp_a, fp_b, n_pos, n_neg, wp, wn))
    brute_sd = np.sqrt(np.mean(np.square(values)))   # mean is 0 by symmetry
    assert np.mean(values) == pytest.approx(0.0, abs=1e-12)
    assert bz.dcf_test(y, a, b, paired=True, **kw).se == pytest.approx(brute_sd)


@pytest.mark.parametrize("n_pos,n_neg,kw", [
    (4, 6, dict(cost_fn=1.0, cost_fp=1.0, prior_pos=0.5)),
    (5, 3, dict(cost_fn=2.0, cost_fp=0.5, prior_pos=0.7)),
])
def test_eq8_variance_by_enumerating_independent_binomials(n_pos, n_neg, kw):
    """Eq. (8): four independent binomials with the pooled rates, enumerated exactly."""
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    a = y.copy(); b = y.copy()
    a[[0]] = 0; b[[0, 1]] = 0          # fn_a = 1, fn_b = 2
    a[[n_pos]] = 1; b[[n_pos, n_pos + 1, n_pos + 2]] = 1     # fp_a = 1, fp_b = 3 (when n_neg allows)
    fn_a, fn_b = np.sum((y == 1) & (a == 0)), np.sum((y == 1) & (b == 0))
    fp_a, fp_b = np.sum((y == 0) & (a == 1)), np.sum((y == 0) & (b == 1))
    q_fn, q_fp = (fn_a + fn_b) / (2 * n_pos), (fp_a + fp_b) / (2 * n_neg)
    wp, wn = kw["cost_fn"] * kw["prior_pos"], kw["cost_fp"] * (1 - kw["prior_pos"])
    m1 = m2 = 0.0
    for i, j, k, l in itertools.product(range(n_pos + 1), range(n_pos + 1), range(n_neg + 1), range(n_neg + 1)):
        w = (stats.binom.pmf(i, n_pos, q_fn) * stats.binom.pmf(j, n_pos, q_fn)
             * stats.binom.pmf(k, n_neg, q_fp) * stats.binom.pmf(l, n_neg, q_fp))
        v = _dcf_diff(i, j, k, l, n_pos, n_neg, wp, wn)
        m1 += w * v; m2 += w * v * v
    res = bz.dcf_test(y, a, b, paired=False, **kw)
    assert res.se == pytest.approx(np.sqrt(m2 - m1**2))
    assert res.difference == pytest.approx(_dcf_diff(fn_a, fn_b, fp_a, fp_b, n_pos, n_neg, wp, wn))


def test_dcf_difference_from_events_matches_dcf():
    rng = np.random.default_rng(5)
    y, a, b = _random_task(300, rng)
    kw = dict(cost_fn=3.0, cost_fp=1.0, prior_pos=0.1)
    ev = bz.joint_events(y, a, b)
    assert bz.dcf_difference(ev, **kw) == pytest.approx(bz.dcf(y, a, **kw) - bz.dcf(y, b, **kw))
    assert bz.dcf_test(y, a, b, **kw).difference == pytest.approx(bz.dcf(y, a, **kw) - bz.dcf(y, b, **kw))


def test_dcf_bootstrap_sd_is_close_to_eq9_under_a_null():
    # Two models that err independently at the same rates: eq. (9) and the bootstrap
    # estimate the same spread (Monte Carlo tolerance 10%).
    rng = np.random.default_rng(11)
    y, a, b = _random_task(4000, rng, prior=0.3, err_a=0.2, err_b=0.2)
    kw = dict(cost_fn=1.0, cost_fp=1.0, prior_pos=0.5)
    boot = bz.bootstrap_dcf_difference(y, a, b, n_resamples=4000, rng=0, **kw)
    assert boot.se == pytest.approx(bz.dcf_test(y, a, b, **kw).se, rel=0.10)


# ------------------------------------------------------------ the bootstrap
def test_multinomial_bootstrap_has_the_distribution_of_index_resampling():
    rng = np.random.default_rng(2026)
    y, a, b = _random_task(800, rng, prior=0.25, err_a=0.15, err_b=0.18)
    multi = bz.bootstrap_f1_difference(y, a, b, n_resamples=5000, rng=1)
    index = bz.bootstrap_f1_difference(y, a, b, n_resamples=5000, rng=2, method="index")
    assert multi.observed == index.observed
    # Seeded two-sample tests on the dF1* replicates; "same distribution" passes at
    # the 1% level in both.
    assert stats.ks_2samp(multi.replicates, index.replicates).pvalue > 0.01
    assert stats.anderson_ksamp([multi.replicates, index.replicates], variant="midrank",
                                method=stats.PermutationMethod(n_resamples=200, random_state=0)
                                ).pvalue > 0.01
    # ... and the same tests have power: a bootstrap of half the size is told apart.
    half = bz.f1_difference(rng.multinomial(400, multi.events / 800, size=5000))
    assert stats.ks_2samp(half, index.replicates).pvalue < 1e-6


def test_bootstrap_eq13_eq14_and_reproducibility():
    rng = np.random.default_rng(4)
    y, a, b = _random_task(600, rng, err_a=0.25, err_b=0.15)
    res = bz.bootstrap_f1_difference(y, a, b, n_resamples=3000, rng=9, alpha=0.1)
    assert res.replicates.shape == (3000,)
    assert res.p_positive == pytest.approx(np.mean(res.replicates > 0))
    assert res.interval == pytest.approx(tuple(np.quantile(res.replicates, [0.05, 0.95])))
    assert res.observed == pytest.approx(f1_score(y, b) - f1_score(y, a))
    assert res.winner == "B" and res.confidence == res.p_positive
    again = bz.bootstrap_f1_difference(y, a, b, n_resamples=3000, rng=9, alpha=0.1)
    assert np.array_equal(res.replicates, again.replicates)
    # Monte Carlo: the replicates' mean is the observed dF1 up to its bias (tolerance 0.01)
    assert np.mean(res.replicates) == pytest.approx(res.observed, abs=0.01)


def test_section5_overlap_figures():
    """Footnote claims: bootstrap samples overlap ~40%; 1%-subsamples overlap < 1%."""
    rng = np.random.default_rng(0)
    n = 7909
    s1, s2 = rng.integers(0, n, n), rng.integers(0, n, n)
    both = np.intersect1d(s1, s2).size / n
    assert both == pytest.approx((1 - np.exp(-1)) ** 2, abs=0.02)      # 0.40
    big = 100 * n
    t1, t2 = rng.integers(0, big, n), rng.integers(0, big, n)
    assert np.intersect1d(t1, t2).size / n < 0.0125                    # about 1%


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call,match", [
    (lambda: bz.joint_events([0, 1], [0, 1, 1], [0, 1]), "pred_a has 3 labels"),
    (lambda: bz.joint_events([0, 2], [0, 1], [0, 1]), "y_true must hold labels"),
    (lambda: bz.joint_events([0, 1], [0, 1], [-1, 1]), "pred_b contains labels"),
    (lambda: bz.joint_events(["a", "b"], [0, 1], [0, 1]), "y_true must hold numeric"),
    (lambda: bz.joint_events([0, np.nan], [0, 1], [0, 1]), "NaN"),
    (lambda: bz.dcf([0, 0, 0], [0, 1, 0]), "no positive"),
    (lambda: bz.dcf([1, 1], [0, 1]), "no negative"),
    (lambda: bz.dcf([0, 1], [0, 1], cost_fn=-1), "cost_fn"),
    (lambda: bz.dcf([0, 1], [0, 1], cost_fp=np.inf), "cost_fp"),
    (lambda: bz.dcf([0, 1], [0, 1], prior_pos=1.0), "prior_pos"),
    (lambda: bz.dcf([0, 1], [0, 1, 1]), "y_pred has 3 labels"),
    (lambda: bz.dcf_test([0, 1], [0, 1], [1, 1], prior_pos=0.0), "prior_pos"),
    (lambda: bz.bootstrap_f1_difference([0, 0], [0, 1], [0, 0]), "F1 is undefined"),
    (lambda: bz.bootstrap_f1_difference([0, 1], [0, 1], [0, 0], n_resamples=0), "n_resamples"),
    (lambda: bz.bootstrap_f1_difference([0, 1], [0, 1], [0, 0], alpha=1.5), "alpha"),
    (lambda: bz.bootstrap_f1_difference([0, 1], [0, 1], [0, 0], method="jackknife"), "method"),
    (lambda: bz.proportion_test(11, 2, 10), "errors_a"),
    (lambda: bz.proportion_test(1, 2, 0), "n must"),
    (lambda: bz.f1_difference([1, 2, 3]), "8 counts"),
    (lambda: bz.f1_difference([1, 2, 3, 4, 5, 6, 7, -1]), ">= 0"),
    (lambda: bz.f1_difference(np.ones(8), zero_division=0.5), "zero_division"),
    (lambda: bz.dcf_difference([1, 1, 1, 1, 0, 0, 0, 0]), "both classes"),
])
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call", [
    lambda: bz.dcf([0, 1], [0, 1], cost_fn="1"),
    lambda: bz.dcf_test([0, 1], [0, 1], [0, 1], paired="yes"),
    lambda: bz.bootstrap_f1_difference([0, 1], [0, 1], [0, 0], rng="x"),
    lambda: bz.bootstrap_f1_difference([0, 1], [0, 1], [0, 0], n_resamples=2.5),
])
def test_bad_types_are_type_errors(call):
    with pytest.raises((TypeError, ValueError)):
        call()


# ------------------------------------------ size and coverage of the F1 test
TOY_EVENTS = [266, 9, 15, 13, 51, 33, 21, 592]


def _documents(events):
    """Labels and the two models' predictions of documents with these event counts."""
    codes = np.repeat(np.arange(8), events)
    y = (codes < 4).astype(int)
    a = np.isin(codes, (0, 2, 4, 6)).astype(int)
    b = np.isin(codes, (0, 1, 4, 5)).astype(int)
    return y, a, b


def test_null_population_ties_f1_by_scikit_learn():
    p = bz.null_population(TOY_EVENTS)
    assert p.sum() == pytest.approx(1.0)
    # (9 + 15)/2 = 12 and (33 + 21)/2 = 27: whole documents, so scikit-learn can score them
    counts = np.rint(p * sum(TOY_EVENTS)).astype(int)
    assert counts.tolist() == [266, 12, 12, 13, 51, 27, 27, 592]
    y, a, b = _documents(counts)
    assert f1_score(y, a) == pytest.approx(f1_score(y, b))
    assert float(bz.f1_difference(p)) == 0.0
    # the agreements (shared mistakes e4, e5) and the prior are untouched
    assert counts[[0, 3, 4, 7]].tolist() == [266, 13, 51, 592]


def test_percentile_intervals_match_scipy_bootstrap():
    """Our multinomial intervals against scipy.stats.bootstrap resampling documents.

    Tolerance 0.003: the 2.5% / 97.5% quantiles of 10,000 replicates each have a Monte
    Carlo standard error near 0.0006 here (sd of dF1 about 0.013)."""
    y, a, b = _documents(TOY_EVENTS)

    def d_f1(y_, a_, b_, axis=-1):
        tp_a = np.sum((y_ == 1) & (a_ == 1), axis=axis)
        tp_b = np.sum((y_ == 1) & (b_ == 1), axis=axis)
        pos = np.sum(y_ == 1, axis=axis)
        pa, pb = np.sum(a_ == 1, axis=axis), np.sum(b_ == 1, axis=axis)
        return 2 * tp_b / (pos + pb) - 2 * tp_a / (pos + pa)

    ref = stats.bootstrap((y, a, b), d_f1, paired=True, vectorized=True, method="percentile",
                          n_resamples=10_000, batch=1000, confidence_level=0.95, random_state=5)
    ours = bz.f1_percentile_intervals(TOY_EVENTS, n_resamples=10_000, rng=6).iloc[0]
    assert ours["observed"] == pytest.approx(f1_score(y, b) - f1_score(y, a))
    assert ours["low"] == pytest.approx(ref.confidence_interval.low, abs=0.003)
    assert ours["high"] == pytest.approx(ref.confidence_interval.high, abs=0.003)
    assert bool(ours["reject"]) == (ours["high"] < 0 or ours["low"] > 0)


def test_percentile_intervals_rows_are_independent_tests():
    rows = np.array([TOY_EVENTS, [200, 40, 5, 10, 30, 5, 40, 670]])
    res = bz.f1_percentile_intervals(rows, n_resamples=4000, alpha=0.1, rng=0)
    assert list(res.columns) == ["observed", "low", "high", "p_positive", "p_negative", "reject"]
    for k in range(2):
        one = bz.bootstrap_f1_difference(*_documents(rows[k]), n_resamples=4000, alpha=0.1, rng=k + 10)
        assert res.loc[k, "low"] == pytest.approx(one.interval[0], abs=0.004)
        assert res.loc[k, "high"] == pytest.approx(one.interval[1], abs=0.004)
        assert res.loc[k, "p_positive"] == pytest.approx(one.p_positive, abs=0.03)


def test_f1_test_holds_its_size_and_coverage_at_a_large_test_set():
    """Theory: the percentile interval of a smooth statistic is first-order correct, so
    at 20,000 documents (5,000 positives) the size is near alpha and the coverage near
    1 - alpha. Tolerance: 4 Monte Carlo standard errors (400 repetitions)."""
    pop = np.array([2500, 60, 40, 200, 300, 150, 100, 6650.])
    real = bz.f1_test_check(pop, 20_000, repetitions=400, n_resamples=800, rng=3)
    assert real.true_difference == pytest.approx(bz.f1_difference(pop))
    assert abs(real.coverage - 0.95) <= 4 * np.sqrt(0.95 * 0.05 / 400)
    assert real.coverage_se == pytest.approx(np.sqrt(real.coverage * (1 - real.coverage) / 400))
    tie = bz.f1_test_check(bz.null_population(pop), 20_000, repetitions=400, n_resamples=800, rng=4)
    assert tie.true_difference == 0.0
    assert abs(tie.rejection - 0.05) <= 4 * np.sqrt(0.95 * 0.05 / 400)
    assert tie.rejection + tie.coverage == pytest.approx(1.0)
    # an 50% interval covers about half the time: the check can tell levels apart
    half = bz.f1_test_check(pop, 20_000, repetitions=400, n_resamples=800, alpha=0.5, rng=5)
    assert abs(half.coverage - 0.5) <= 4 * np.sqrt(0.25 / 400)


def test_tie_confidence_is_uniform_on_half_to_one():
    """Under dF1 = 0 the stated confidence in the observed winner is 1 minus a one-sided
    p-value, uniform on [0.5, 1] for a calibrated test (checked by Kolmogorov–Smirnov)."""
    tie = bz.f1_test_check(bz.null_population([2500, 60, 40, 200, 300, 150, 100, 6650]), 8000,
                           repetitions=500, n_resamples=1000, rng=7)
    assert stats.kstest(tie.confidence, stats.uniform(loc=0.5, scale=0.5).cdf).pvalue > 0.001
    assert tie.confidence.mean() == pytest.approx(0.75, abs=0.03)


def test_f1_test_check_against_a_document_loop():
    """The vectorised Monte Carlo against a plain loop: draw documents, run the
    documented test (index resampling) on each. Rates agree within 4 combined SEs."""
    pop = np.array([30, 5, 3, 10, 3, 5, 4, 140.])
    p = pop / pop.sum()
    rng = np.random.default_rng(11)
    true_d = float(bz.f1_difference(p))
    covered = []
    for _ in range(150):
        y, a, b = _documents(rng.multinomial(400, p))
        if not y.any():
            continue
        r = bz.bootstrap_f1_difference(y, a, b, n_resamples=500, rng=rng, method="index")
        covered.append(r.interval[0] <= true_d <= r.interval[1])
    loop = np.mean(covered)
    fast = bz.f1_test_check(pop, 400, repetitions=600, n_resamples=500, rng=12)
    se = np.sqrt(loop * (1 - loop) / len(covered) + fast.coverage_se ** 2)
    assert abs(fast.coverage - loop) <= 4 * se


@pytest.mark.parametrize("call,match", [
    (lambda: bz.null_population([1, 2, 3]), "8 counts"),
    (lambda: bz.null_population([0, 0, 0, 0, 1, 1, 1, 1]), "positive"),
    (lambda: bz.f1_test_check(TOY_EVENTS, 0), "n_test"),
    (lambda: bz.f1_test_check(TOY_EVENTS, 100, repetitions=1), "repetitions"),
    (lambda: bz.f1_test_check(TOY_EVENTS, 100, alpha=1.5), "alpha"),
    (lambda: bz.f1_test_check(TOY_EVENTS, 100, rng=-1), "rng"),
    (lambda: bz.f1_percentile_intervals([1.5, 1, 1, 1, 1, 1, 1, 1]), "whole counts"),
    (lambda: bz.f1_percentile_intervals([0] * 8), "at least one"),
    (lambda: bz.f1_percentile_intervals(TOY_EVENTS, n_resamples=0), "n_resamples"),
])
def test_size_coverage_bad_input(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_dcf_with_both_costs_zero_is_refused_not_nan():
    # Both costs 0 make every DCF 0, so the z of eqs. (8)-(9) would be 0/0: a clear error instead
    y = np.array([1, 1, 0, 0, 1, 0])
    a = np.array([1, 0, 0, 1, 1, 0])
    b = np.array([1, 1, 0, 0, 0, 1])
    for call in (lambda: bz.dcf(y, a, cost_fn=0, cost_fp=0),
                 lambda: bz.dcf_test(y, a, b, cost_fn=0.0, cost_fp=0.0)):
        with pytest.raises(ValueError, match="cost_fn and cost_fp cannot both be 0"):
            call()
    assert bz.dcf(y, a, cost_fn=0, cost_fp=1, prior_pos=0.5) == pytest.approx(0.5 * 1 / 3)  # 1 false positive of 3 negatives
