"""Tests of evallib.onetestset._exactpaired against independent references.

References:

* Fagerland, Lydersen & Laake (2013), BMC Med. Res. Methodol. 13:91, Bentur et al.'s
  table (b = 1, c = 7, n = 21): printed exact unconditional p-value 0.035.
* The R package contingencytables 3.0.0 (Fagerland's code): its test file
  tests/testthat/test-ch8.R prints ``P = 0.542071`` for ``floor(cavo_2012 / 10)``
  (b = 0, c = 1, n = 14); the other p-values below were printed by running its
  ``McNemar_exact_unconditional_test_paired_2x2`` (1000 grid points, gamma = 1e-4 and 0)
  in R 4.2.2.
* The R package exact2x2 1.7.0 (Fay & Lumbard's code): ``mcnemarExactDP``'s help example
  (Bentur et al.) prints p = 0.07031 and the interval -0.54549962 to 0.02044939; the
  other intervals below were printed by running ``mcnemarExactDP(x, m, n)`` in R 4.2.2.
  R stops ``uniroot`` at about 1e-4, hence the tolerance of those comparisons.
* Written here: a brute-force enumeration of every trinomial table with
  ``scipy.stats.multinomial`` maximised over a fine grid, the exact size of the test by
  enumeration, a Monte Carlo version of the melded confidence distribution, the exact
  coverage of the interval by enumeration, and its compatibility with
  ``mcnemar(exact=True)``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from evallib.onetestset._exactpaired import (
    ExactPairedInterval,
    UnconditionalMcNemarResult,
    fay_lumbard_interval,
    mcnemar_unconditional,
)
from evallib.onetestset._mcnemar import mcnemar


# ------------------------------------------------------------------ published numbers
def test_unconditional_bentur_as_printed_by_fagerland_2013():
    res = mcnemar_unconditional(1, 7, 21)
    assert isinstance(res, UnconditionalMcNemarResult)
    assert round(res.pvalue, 3) == 0.035
    assert res.statistic == pytest.approx(36 / 8)
    assert res.method == "exact-unconditional" and res.gamma == 1e-4


def test_unconditional_contingencytables_test_file():
    # test-ch8.R: McNemar_exact_unconditional_test_paired_2x2(floor(cavo_2012 / 10)) -> 0.542071
    assert mcnemar_unconditional(0, 1, 14).pvalue == pytest.approx(0.542071, abs=5e-6)


# (b, c, n, R with gamma = 1e-4, R with gamma = 0): contingencytables 3.0.0 in R 4.2.2
R_UNCONDITIONAL = [
    (1, 7, 21, 0.03541601, 0.03531602),    # Bentur et al. 2009
    (6, 16, 161, 0.03405319, 0.03420389),  # Cavo et al. 2012
    (0, 1, 14, 0.54207085, 0.54196998),
    (3, 10, 100, 0.05449376, 0.05688793),
    (4, 4, 20, 1.0, 1.0),
    (0, 9, 10, 0.00250120, 0.00240119),
    (2, 9, 50, 0.04050945, 0.04040943),
]


@pytest.mark.parametrize("b, c, n, p_bb, p_full", R_UNCONDITIONAL)
def test_unconditional_matches_fagerlands_r_code(b, c, n, p_bb, p_full):
    # R maximises over 1000 grid points; the refined maximum is never below the grid's
    # and exceeds it by at most a few 1e-6 here.
    for gamma, ref in ((1e-4, p_bb), (0.0, p_full)):
        p = mcnemar_unconditional(b, c, n, gamma=gamma).pvalue
        assert ref - 1e-8 <= p <= ref + 5e-6, (gamma, p, ref)


def _brute_force_unconditional(b, c, n, grid):
    """Every trinomial table (x_b, x_c, rest), scipy's multinomial pmf, maximum over grid."""
    tobs = (b - c) ** 2 / (b + c)
    tables = [(xb, xc) for xb in range(n + 1) for xc in range(n + 1 - xb) if xb + xc > 0
              and (xb - xc) ** 2 / (xb + xc) >= tobs - 1e-12]
    counts = np.array([[xb, xc, n - xb - xc] for xb, xc in tables])
    best = 0.0
    for pi in grid:  # one multinomial call per grid point, over every table
        total = stats.multinomial.pmf(counts, n, [pi / 2, pi / 2, 1 - pi]).sum()
        best = max(best, total)
    return best


@pytest.mark.parametrize("b, c, n", [(1, 6, 12), (0, 4, 9), (3, 3, 10), (2, 8, 12)])
def test_unconditional_equals_brute_force_enumeration(b, c, n):
    grid = np.linspace(0.0, 1.0, 401)
    brute = _brute_force_unconditional(b, c, n, grid)
    ours = mcnemar_unconditional(b, c, n, gamma=0.0, points=2000).pvalue
    assert brute - 1e-12 <= ours <= brute + 2e-4


def test_unconditional_keeps_its_level_by_enumeration():
    """The exact size of the test at alpha = 0.05, n = 18: the probability, summed over every
    trinomial table, that its p-value is <= 0.05, for discordance probabilities on a grid."""
    n, alpha = 18, 0.05
    rejected = [(xb, xc) for xb in range(n + 1) for xc in range(n + 1 - xb)
                if mcnemar_unconditional(xb, xc, n).pvalue <= alpha]
    assert rejected  # the test can reject at n = 18
    counts = np.array([[xb, xc, n - xb - xc] for xb, xc in rejected])
    for pi in np.linspace(0.02, 1.0, 50):
        size = stats.multinomial.pmf(counts, n, [pi / 2, pi / 2, 1 - pi]).sum()
        assert size <= alpha + 1e-9, (pi, size)


def test_unconditional_degenerate_and_symmetric():
    none = mcnemar_unconditional(0, 0, 30)
    assert (none.statistic, none.pvalue) == (0.0, 1.0) and np.isnan(none.nuisance)
    tie = mcnemar_unconditional(5, 5, 30)
    assert tie.statistic == 0.0 and tie.pvalue > 0.99
    assert mcnemar_unconditional(3, 11, 40).pvalue == mcnemar_unconditional(11, 3, 40).pvalue
    # more power than the conditional exact test on Bentur's table, as Fagerland et al. report
    assert mcnemar_unconditional(1, 7, 21).pvalue < mcnemar(1, 7, method="exact").pvalue


@pytest.mark.parametrize("call, exc, words", [
    (lambda: mcnemar_unconditional(-1, 2, 10), ValueError, "b must be a whole number >= 0"),
    (lambda: mcnemar_unconditional(1, 2.5, 10), ValueError, "c must be a whole number"),
    (lambda: mcnemar_unconditional(6, 6, 10), ValueError, "b + c must not exceed n"),
    (lambda: mcnemar_unconditional(1, 1, 0), ValueError, "n must be a whole number >= 1"),
    (lambda: mcnemar_unconditional(1, 1, 5, gamma=0.7), ValueError, "gamma must lie in [0, 0.5)"),
    (lambda: mcnemar_unconditional(1, 1, 5, points=3), ValueError, "points must be a whole number >= 10"),
    (lambda: fay_lumbard_interval(1, 1, 5, alpha=1.5), ValueError, "alpha must lie in the open interval"),
    (lambda: fay_lumbard_interval(4, 2, 5), ValueError, "b + c must not exceed n"),
    (lambda: fay_lumbard_interval("3", 2, 5), TypeError, "b must be a whole number"),
])
def test_bad_input_names_the_argument(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words in str(info.value)


# ------------------------------------------------------------- Fay–Lumbard interval
def test_fay_lumbard_bentur_help_example():
    ci = fay_lumbard_interval(1, 7, 21)
    assert isinstance(ci, ExactPairedInterval) and ci.method == "fay_lumbard"
    assert ci.estimate == pytest.approx(-6 / 21)
    assert ci.low == pytest.approx(-0.54549962, abs=1e-4)
    assert ci.high == pytest.approx(0.02044939, abs=1e-4)
    assert ci.pvalue == pytest.approx(0.0703125, abs=1e-10)


# (x = b, m = b + c, n, lower, upper): exact2x2 1.7.0 mcnemarExactDP(x, m, n) in R 4.2.2
R_DP = [
    (6, 22, 161, -0.1268133073, 0.0006079654),
    (16, 22, 161, -0.0006079654, 0.1268133073),
    (0, 0, 20, -0.1684334710, 0.1684334710),
    (0, 5, 20, -0.4910456575, 0.0111000964),
    (20, 20, 20, 0.6209050047, 1.0),
    (0, 20, 20, -1.0, -0.6209050047),
    (3, 10, 50, -0.2260981111, 0.0659542003),
    (40, 120, 500, -0.1244724395, -0.0352392915),
    (0, 1, 14, -0.3386861896, 0.1926571947),
    (2, 3, 30, -0.1297934882, 0.1998087468),
    (7, 7, 10, 0.1040390041, 0.9332309576),
]


@pytest.mark.parametrize("x, m, n, low, high", R_DP)
def test_fay_lumbard_matches_exact2x2(x, m, n, low, high):
    ci = fay_lumbard_interval(x, m - x, n)
    assert ci.low == pytest.approx(low, abs=1e-4)
    assert ci.high == pytest.approx(high, abs=1e-4)


def test_fay_lumbard_ninety_percent_matches_exact2x2():
    ci = fay_lumbard_interval(3, 7, 50, alpha=0.10)   # R: -0.2038044346 0.0446907559
    assert (ci.low, ci.high) == pytest.approx((-0.2038044346, 0.0446907559), abs=1e-4)


def test_fay_lumbard_no_disagreement_closed_form():
    ci = fay_lumbard_interval(0, 0, 20)
    edge = 1 - 0.025 ** (1 / 20)   # the 0.975 quantile of Beta(1, 20)
    assert (ci.low, ci.high, ci.pvalue) == pytest.approx((-edge, edge, 1.0), abs=1e-12)


def test_fay_lumbard_compatible_with_exact_mcnemar():
    """The interval excludes 0 exactly when the exact McNemar test rejects (every table, n = 14)."""
    n = 14
    for b in range(n + 1):
        for c in range(n + 1 - b):
            ci = fay_lumbard_interval(b, c, n)
            p = mcnemar(b, c, method="exact").pvalue
            assert ci.pvalue == pytest.approx(p, abs=1e-12)
            assert (ci.low > 0 or ci.high < 0) == (p <= 0.05), (b, c, ci, p)


def test_fay_lumbard_mirror():
    a, b = fay_lumbard_interval(3, 9, 40), fay_lumbard_interval(9, 3, 40)
    assert (a.low, a.high) == pytest.approx((-b.high, -b.low), abs=1e-10)


def test_fay_lumbard_bounds_are_quantiles_of_the_melded_distribution():
    """Monte Carlo version of the melding (exact2x2's nmc option), written here: the lower
    bound is the smaller alpha/2 quantile of T (2 B_L - 1) over T in {T_L, T_U}."""
    rng = np.random.default_rng(7)
    b, c, n, draws = 5, 12, 60, 400_000
    m = b + c
    t_l, t_u = rng.beta(m, n - m + 1, draws), rng.beta(m + 1, n - m, draws)
    b_l, b_u = rng.beta(b, c + 1, draws), rng.beta(b + 1, c, draws)
    low = min(np.quantile(t_l * (2 * b_l - 1), 0.025), np.quantile(t_u * (2 * b_l - 1), 0.025))
    high = max(np.quantile(t_l * (2 * b_u - 1), 0.975), np.quantile(t_u * (2 * b_u - 1), 0.975))
    ci = fay_lumbard_interval(b, c, n)
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=3e-3)


def test_fay_lumbard_coverage_by_enumeration():
    """Exact coverage at n = 9 over a grid of (theta, beta), as Fay & Lumbard's numerical
    check: every table (m discordant, x of them A's errors) has probability
    Binomial(m; n, theta) Binomial(x; m, beta); each tail error stays <= alpha/2."""
    n = 9
    bounds = {(x, m): fay_lumbard_interval(x, m - x, n) for m in range(n + 1) for x in range(m + 1)}
    x, m = np.array(list(bounds)).T
    low = np.array([ci.low for ci in bounds.values()])
    high = np.array([ci.high for ci in bounds.values()])
    worst = 0.0
    for theta in np.linspace(0.0, 1.0, 21):
        pm = stats.binom.pmf(m, n, theta)
        for beta in np.linspace(0.0, 1.0, 21):  # every table's probability in one scipy call
            delta = theta * (2 * beta - 1)
            pr = pm * stats.binom.pmf(x, m, beta)
            low_err = (pr * (low > delta + 1e-12)).sum()
            high_err = (pr * (high < delta - 1e-12)).sum()
            worst = max(worst, low_err, high_err)
    assert worst <= 0.025 + 1e-9
