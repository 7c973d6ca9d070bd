"""Intervals for the difference of two correlated error rates on one test set.

The Quesenberry–Hurst / May–Johnson interval of Berrar & Lozano (2013, eqs. 4-5;
:func:`qh_interval`) and the eight intervals for the signed difference Fagerland, Lydersen &
Laake (2014) compare (:func:`paired_difference_interval`). Notation as in :mod:`._mcnemar`:
the difference of the error rates is ``(b - c) / n``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scipy import stats

from .._paired import _interval_bounds, _qh_bounds
from .._results import IntervalMixin
from .._validate import (
    check_alpha,
    check_choice,
    check_count,
)
from ._mcnemar import Contingency, _check_bc

__all__ = ['QHInterval', 'qh_interval', 'PAIRED_INTERVAL_METHODS', 'PairedInterval', 'paired_difference_interval']


# ------------------------------------------------------------------ eqs. (4)-(5)
@dataclass(frozen=True)
class QHInterval(IntervalMixin):
    """A Quesenberry–Hurst / May–Johnson confidence interval, eqs. (4)-(5).

    Attributes
    ----------
    low, high : the bounds delta_LB and delta_UB.
    centre : ``n * D / (n + chi2)``, the midpoint of the interval, where ``D`` is
        the estimate (the observed difference shrunk towards 0).
    estimate : the observed difference, ``|p_b - p_c|`` (or ``p_b - p_c`` if signed).
    alpha : the level; the interval has nominal coverage ``1 - alpha``.
    chi2_crit : the chi-square critical value with 1 df used.
    """

    low: float
    high: float
    centre: float
    estimate: float
    alpha: float
    chi2_crit: float


def qh_interval(b: int, c: int, n: int, *, alpha: float = 0.05, signed: bool = False) -> QHInterval:
    """Confidence interval for the difference of two correlated error rates.

    Eqs. (4)-(5) of Berrar & Lozano (derived in their appendix, eqs. A1-A3, after
    Quesenberry & Hurst 1964 and May & Johnson 1997): with ``chi2`` the
    ``1 - alpha`` quantile of the chi-square distribution with 1 df,

    ``delta = n|p_b - p_c|/(n + chi2) -/+ sqrt(chi2 [(p_b + p_c)(n + chi2) - n (p_b - p_c)^2]) / (n + chi2)``.

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Number of test cases, ``n >= 1`` and ``b + c <= n``.
    alpha : float
        In (0, 1); the interval has nominal coverage ``1 - alpha``.
    signed : bool
        ``False`` (the paper): the interval for the effect size
        ``|tau_A - tau_B|`` centred on ``n|p_b - p_c|/(n + chi2)``. ``True``: the
        same interval for ``tau_A - tau_B`` with its sign kept (centre
        ``n(p_b - p_c)/(n + chi2)``, same half-width), positive when A makes more
        errors.

    Returns
    -------
    QHInterval
        ``low``, ``high``, ``centre``, ``estimate``, ``alpha``, ``chi2_crit``.

    Notes
    -----
    The lower bound can be negative: the interval then contains the null value and
    the difference is not significant at level ``alpha``. With ``b + c = 0`` the
    formula gives the degenerate interval ``[0, 0]`` (the radicand vanishes): the
    models never disagreed, so the plug-in variance is zero. This is the method's
    documented answer, not a claim of certainty; see the notebook for its coverage.

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] May, W. L. & Johnson, W. D. (1997). Confidence intervals for differences in correlated
       binary proportions. *Statistics in Medicine*, 16, 2127-2136.
    .. [3] Quesenberry, C. P. & Hurst, D. C. (1964). Large sample simultaneous confidence
       intervals for multinomial proportions. *Technometrics*, 6, 191-195.

    Examples
    --------
    Section 8, comparison (1, 2) (b = 0, c = 2, n = 50) at its Holm level 0.05/3: the paper
    prints the point estimate 0.04 and the 95%-CI [-0.03, 0.10].

    >>> from evallib import qh_interval
    >>> ci = qh_interval(0, 2, 50, alpha=0.05 / 3)
    >>> round(ci.estimate, 2), round(ci.low, 2), round(ci.high, 2)
    (0.04, -0.03, 0.1)
    """
    b, c = _check_bc(b, c)
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n: got b + c = {b + c} > n = {n}")
    alpha = check_alpha(alpha)
    crit = float(stats.chi2.isf(alpha, df=1))
    low, high, centre, est = _qh_bounds(b, c, n, crit, signed)
    return QHInterval(float(low), float(high), float(centre), float(est), alpha, crit)


# ------------------------------------------ paired intervals (Fagerland et al. 2014)
PAIRED_INTERVAL_METHODS = ("wald", "wald_cc", "agresti_min", "bonett_price", "newcombe", "tango", "qh",
                           "wald_cc_fagerland")


_FOUR_CELL = ("newcombe",)  # the methods that need a and d, not only b, c and n


@dataclass(frozen=True)
class PairedInterval(IntervalMixin):
    """A confidence interval for ``error_A - error_B = (b - c)/n``.

    Attributes
    ----------
    low, high : the bounds, inside [-1, 1].
    estimate : the observed difference ``(b - c)/n`` (positive: A errs more).
    method : one of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : the nominal coverage is ``1 - alpha``.
    """

    low: float
    high: float
    estimate: float
    method: str
    alpha: float


def _check_table(table: Any) -> Contingency:
    if not isinstance(table, Contingency):
        raise TypeError(
            "table must be an evallib.onetestset.Contingency (e.g. contingency(y_true, pred_a, pred_b) "
            f"or Contingency(a, b, c, d, n)), got {type(table).__name__}"
        )
    a, b, c, d = (check_count(getattr(table, k), f"table.{k}") for k in "abcd")
    n = check_count(table.n, "table.n", minimum=1)
    if a + b + c + d != n:
        raise ValueError(f"table.a + table.b + table.c + table.d must equal table.n: {a + b + c + d} != {n}")
    return table


def paired_difference_interval(
    table: Contingency, *, method: str = "bonett_price", alpha: float = 0.05
) -> PairedInterval:
    """Confidence interval for the difference of two correlated error rates.

    The parameter is ``error_A - error_B = p_b - p_c``, estimated by ``(b - c)/n``
    (positive when A makes more errors). Formulas as collected by Fagerland,
    Lydersen & Laake (2014; their n12 is ``b``, n21 is ``c``), with
    ``z`` the ``1 - alpha/2`` normal quantile:

    ``"wald"`` (the textbook Wald interval)
        ``(b - c)/n +- z/n sqrt(b + c - (b - c)^2/n)``.
    ``"wald_cc"`` (the textbook continuity correction, Fleiss, Levin & Paik 2003,
        section 13.1)
        the Wald interval widened by ``1/n`` on each side:
        ``(b - c)/n +- (z/n sqrt(b + c - (b - c)^2/n) + 1/n)``. Kept as it was for
        compatibility.
    ``"wald_cc_fagerland"`` (the correction as Fagerland, Lydersen & Laake's R package
        ``contingencytables`` computes it, ``Wald_CI_diff_CC_paired_2x2``)
        the correction inside the standard error, not added to the half-width:
        ``(b - c)/n +- z/n sqrt(b + c - (|b - c| - 1)^2/n)``. Only slightly wider
        than the Wald interval (Cavo et al.'s table: -0.1186 to -0.0057 against the
        Wald interval's -0.1184 to -0.0058), where ``"wald_cc"`` is ``2/n`` wider.
    ``"agresti_min"`` (Agresti & Min 2005)
        the Wald interval after adding 1/2 to each of the four cells (``n + 2``).
    ``"bonett_price"`` (Bonett & Price 2012)
        ``p_b' - p_c' +- z sqrt((p_b' + p_c' - (p_b' - p_c')^2)/(n + 2))`` with
        ``p_b' = (b + 1)/(n + 2)``, ``p_c' = (c + 1)/(n + 2)``. The default: a
        closed formula whose exact coverage stays close to the nominal level even
        when the classifiers rarely disagree (see :func:`interval_coverage`).
    ``"newcombe"`` (Newcombe 1998, method 10)
        square-and-add of the Wilson intervals ``[l1, u1]`` for A's error rate
        ``(b + d)/n`` and ``[l2, u2]`` for B's ``(c + d)/n``:
        ``low = est - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)``,
        ``high = est + sqrt((u1 - p1)^2 - 2 phi (u1 - p1)(p2 - l2) + (p2 - l2)^2)``,
        with ``phi = A/sqrt((b + d)(a + c)(c + d)(a + b))`` the phi coefficient of
        the 2x2 table of errors, its numerator ``A = ad - bc`` continuity-corrected
        as Newcombe prescribes: ``A - n/2`` when ``A > n/2``, 0 when
        ``0 <= A <= n/2``, ``A`` itself when negative. It needs the whole table.
        When a margin is 0 the denominator vanishes and ``phi`` is set to 0
        (Newcombe's rule).
    ``"tango"`` (Tango 1998)
        the asymptotic score interval: all ``delta`` with ``|T(delta)| <= z``,
        ``T = (b - c - n delta)/sqrt(n (2 q + delta (1 - delta)))`` and ``q`` the
        restricted maximum-likelihood estimate of ``p_c`` under ``delta``; the
        two bounds are found by bisection to machine precision.
    ``"qh"`` (Berrar & Lozano eqs. 4-5, after Quesenberry & Hurst 1964 and May &
        Johnson 1997)
        the paper's interval oriented by the sign of ``b - c``, as
        ``qh_interval(b, c, n, signed=True)``.

    Parameters
    ----------
    table : Contingency
        The joint errors (``a``, ``b``, ``c``, ``d``, ``n``), e.g. from
        :func:`contingency`.
    method : str
        One of :data:`PAIRED_INTERVAL_METHODS`.
    alpha : float
        In (0, 1); nominal coverage ``1 - alpha``.

    Returns
    -------
    PairedInterval
        ``low``, ``high``, ``estimate``, ``method``, ``alpha``.

    Notes
    -----
    Bounds are clipped to [-1, 1] (Wald-type intervals can overshoot). Degenerate
    tables: with ``b = c = 0`` the Wald and QH intervals are the single point
    ``[0, 0]`` (their plug-in variance is 0), the continuity-corrected Wald
    interval is ``[-1/n, 1/n]``, and the other methods give an interval of
    positive width around 0 (Tango's is ``+-z^2/(n + z^2)``). With ``b + c = n``
    every method returns a proper interval inside [-1, 1]; with ``b = n`` (A wrong
    on every case, B on none) the upper bound is 1, the Wald interval is the point
    ``[1, 1]`` and the continuity-corrected one ``[1 - 1/n, 1]``. Fagerland's
    continuity-corrected interval is the point ``[0, 0]`` when ``b = c = 0`` (its
    radicand ``-1/n`` is set to 0, as the R code sets the NaN standard error to 0). Swapping ``b`` and
    ``c`` mirrors every interval about 0.

    References
    ----------
    Fagerland, M. W., Lydersen, S. & Laake, P. (2014). Recommended tests and
    confidence intervals for paired binomial proportions. Statistics in Medicine
    33, 2850-2875.
    Newcombe, R. G. (1998). Improved confidence intervals for the difference between
    binomial proportions based on paired data. Statistics in Medicine 17, 2635-2650.
    Tango, T. (1998). Equivalence test and confidence interval for the difference
    in proportions for the paired-sample design. Statistics in Medicine 17, 891-908.
    Agresti, A. & Min, Y. (2005). Simple improved confidence intervals for comparing
    matched proportions. Statistics in Medicine 24, 729-740.
    Bonett, D. G. & Price, R. M. (2012). Adjusted Wald confidence interval for a
    difference of binomial proportions based on paired data. Journal of Educational
    and Behavioral Statistics 37, 479-488.
    Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for Rates and
    Proportions, 3rd ed., Wiley, section 13.1.
    Fagerland, M. W., Lydersen, S. & Laake, P. (2017). Statistical Analysis of
    Contingency Tables, CRC Press, chapter 8; R package contingencytables,
    ``Wald_CI_diff_CC_paired_2x2``.

    Examples
    --------
    Cavo et al.'s (2012) table as in Fagerland et al. (a = 80, b = 6, c = 16, d = 59):
    Newcombe's interval is printed there as -0.0621 (-0.1186 to -0.0046).

    >>> from evallib.onetestset import Contingency, paired_difference_interval
    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="newcombe")
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (-0.0621, -0.1186, -0.0046)

    The package contingencytables prints the continuity-corrected Wald interval of the
    same table as -0.0621 (95% CI -0.1186 to -0.0057):

    >>> ci = paired_difference_interval(Contingency(80, 6, 16, 59, 161), method="wald_cc_fagerland")
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1186, -0.0057)
    """
    table = _check_table(table)
    method = check_choice(method, "method", PAIRED_INTERVAL_METHODS)
    alpha = check_alpha(alpha)
    low, high = _interval_bounds(method, table.a, table.b, table.c, table.d, table.n, alpha)
    return PairedInterval(float(low), float(high), (table.b - table.c) / table.n, method, alpha)
