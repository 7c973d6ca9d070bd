"""Non-inferiority and equivalence of two classifiers on one test set: Tango's score test.

Notation as in :mod:`._mcnemar`: of ``n`` test cases, ``b`` are misclassified by A only and
``c`` by B only; the parameter is the difference of the error rates,
``error_A - error_B = p_b - p_c``, estimated by ``(b - c) / n``. "Worse" means more errors,
so "A is no worse than B by more than ``margin``" is ``p_b - p_c < margin``.

Tango's (1998) score statistic for H0: ``p_b - p_c = delta`` (Nam 1997 derived the same test),

``T(delta) = (b - c - n delta) / sqrt(n (2 q + delta (1 - delta)))``,

with ``q`` the maximum-likelihood estimate of ``p_c`` under H0, is the statistic behind
Tango's score interval (:func:`evallib.onetestset.paired_difference_interval`,
``method="tango"``); this module tests against a margin with the same code, so that the
test rejects exactly when the matching interval excludes the margin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._paired import _check_margin, _tango_bounds, _tango_margin_pvalues
from .._results import IntervalMixin
from .._validate import check_choice, check_count
from ._mcnemar import _check_bc

__all__ = ["MARGIN_HYPOTHESES", "TangoTest", "tango_test"]

#: What a margin test shows when it rejects: non-inferiority (one-sided) or equivalence (two one-sided tests).
MARGIN_HYPOTHESES = ("noninferiority", "equivalence")


@dataclass(frozen=True)
class TangoTest(IntervalMixin):
    """Tango's score test of ``error_A - error_B`` against a margin.

    Attributes
    ----------
    estimate : ``(b - c) / n``, the observed difference of the error rates (positive: A errs more).
    low, high : the interval the test inverts: for ``"noninferiority"`` the one-sided
        ``1 - alpha`` interval ``[-1, high]``; for ``"equivalence"`` the two-sided
        ``1 - 2 alpha`` Tango interval. Both are Tango score intervals.
    statistic : the score statistic at the margin, signed so that large values favour the
        alternative: ``-T(margin)`` for ``"noninferiority"``; for ``"equivalence"`` the smaller of
        ``-T(margin)`` and ``T(-margin)`` (the binding one-sided test).
    pvalue : ``1 - Phi(statistic)``: the one-sided p-value, or the larger of the two for
        ``"equivalence"``.
    reject : ``pvalue <= alpha``: A shown no worse than B by ``margin`` (``"noninferiority"``),
        or the two shown within ``margin`` of each other (``"equivalence"``).
    margin : the margin ``delta > 0``.
    hypothesis : ``"noninferiority"`` or ``"equivalence"``.
    alpha : the level of each one-sided test.
    n : the number of test cases.
    """

    estimate: float
    low: float
    high: float
    statistic: float
    pvalue: float
    reject: bool
    margin: float
    hypothesis: str
    alpha: float
    n: int


def tango_test(b: int, c: int, n: int, *, margin: float, hypothesis: str = "noninferiority",
               alpha: float = 0.05) -> TangoTest:
    """Tango's score test that classifier A is no worse than B, or equivalent, up to ``margin``.

    The parameter is ``error_A - error_B = p_b - p_c`` (positive when A errs more), and the
    hypotheses are

    ``"noninferiority"`` (default)
        H0: ``p_b - p_c >= margin`` (A worse by the margin or more) against
        H1: ``p_b - p_c < margin``. Rejects when ``T(margin) <= -z_alpha``, with
        Tango's (1998) score statistic ``T(delta) = (b - c - n delta) / sqrt(n (2 q + delta (1 - delta)))``
        and ``q`` the restricted maximum-likelihood estimate of ``p_c`` under
        ``p_b - p_c = delta``. The p-value is ``Phi(T(margin))``.
    ``"equivalence"``
        H0: ``|p_b - p_c| >= margin`` against H1: ``|p_b - p_c| < margin``, by two one-sided
        score tests at level ``alpha`` each (Schuirmann's TOST); the p-value is the larger
        of the two.

    The test is the dual of Tango's score interval: it rejects exactly when the one-sided
    ``1 - alpha`` interval (``"noninferiority"``) or the two-sided ``1 - 2 alpha`` interval
    (``"equivalence"``) lies inside the margin, and the result carries that interval.
    Unlike McNemar-type tests it needs no discordant case: with ``b = c = 0`` it can still
    show non-inferiority, as Tango designed it to.

    For two classifiers' predictions, count the table first:
    ``t = contingency(y_true, pred_a, pred_b)`` and ``tango_test(t.b, t.c, t.n, margin=...)``;
    :func:`evallib.items.paired_item_margin_test` takes the two 0/1 score vectors directly.

    Parameters
    ----------
    b, c : int
        Discordant counts (errors of A only, errors of B only), >= 0.
    n : int
        Number of test cases, ``n >= 1`` and ``b + c <= n``.
    margin : float
        The margin ``delta``, in (0, 1): the largest excess error rate of A that still
        counts as "no worse" (``"equivalence"``: the largest difference either way).
    hypothesis : {"noninferiority", "equivalence"}
        What a rejection shows (:data:`MARGIN_HYPOTHESES`).
    alpha : float
        Level of each one-sided test, in (0, 0.5).

    Returns
    -------
    TangoTest
        ``estimate``, ``low``, ``high``, ``statistic``, ``pvalue``, ``reject``, ``margin``,
        ``hypothesis``, ``alpha``, ``n``.

    Notes
    -----
    The test is asymptotic. Its exact size at the margin, by enumerating the trinomial
    ``(b, c, n - b - c)``, is :func:`evallib.planning.tango_power` with ``method="exact"``
    and ``p_b - p_c = margin``; Tango (1998) and Liu et al. (2002) found it close to the
    nominal level from a few dozen cases on.

    References
    ----------
    .. [1] Tango, T. (1998). Equivalence test and confidence interval for the difference in
       proportions for the paired-sample design. *Statistics in Medicine* 17, 891-908.
    .. [2] Nam, J. (1997). Establishing equivalence of two treatments and sample size
       requirements in matched-pairs design. *Biometrics* 53, 1422-1430.
    .. [3] Liu, J.-p., Hsueh, H.-m., Hsieh, E. & Chen, J. J. (2002). Tests for equivalence or
       non-inferiority for paired binary data. *Statistics in Medicine* 21, 231-245.
    .. [4] Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the
       power approach for assessing the equivalence of average bioavailability. *Journal of
       Pharmacokinetics and Biopharmaceutics* 15, 657-680.

    Examples
    --------
    Tango's (1998) example: 44 cases, the new procedure misses one case that the standard
    one finds (``b = 1``, ``c = 0``). The 90% score interval printed for it is
    ``(-0.037, 0.096)`` for the new minus the standard procedure's miss rate (its mirror
    image ``(-0.096, 0.037)`` for the standard minus the new), so at ``alpha = 0.05`` the
    new one is shown no worse by 0.10: the one-sided 95% upper bound 0.096 lies below it.

    >>> from evallib import tango_test
    >>> res = tango_test(1, 0, 44, margin=0.10)
    >>> round(res.high, 3), res.reject, round(res.pvalue, 3)
    (0.096, True, 0.044)
    """
    b, c = _check_bc(b, c)
    n = check_count(n, "n", minimum=1)
    if b + c > n:
        raise ValueError(f"b + c must not exceed n: got b + c = {b + c} > n = {n}")
    margin, alpha = _check_margin(margin, alpha)
    hypothesis = check_choice(hypothesis, "hypothesis", MARGIN_HYPOTHESES)
    statistic, pvalue = _tango_margin_pvalues(b, c, n, margin, hypothesis)
    z = float(stats.norm.isf(alpha))
    low, high = _tango_bounds(np.array([float(b)]), np.array([float(c)]), float(n), z)
    low, high = float(np.clip(low[0], -1.0, 1.0)), float(np.clip(high[0], -1.0, 1.0))
    if hypothesis == "noninferiority":
        low = -1.0
    pvalue = float(pvalue)
    return TangoTest(estimate=(b - c) / n, low=low, high=high, statistic=float(statistic), pvalue=pvalue,
                     reject=bool(pvalue <= alpha), margin=margin, hypothesis=hypothesis, alpha=alpha, n=n)
