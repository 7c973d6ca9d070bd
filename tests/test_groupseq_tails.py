"""The O'Brien–Fleming-type spending in the far tail: many looks spend amounts at the first looks that
``2 - 2 Phi(.)`` rounds to 0 (a first boundary of inf from 14 looks on). The references are written out
on the log scale with scipy's ``log_ndtr`` and solved with ``brentq``, never through ``norm.isf``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, special

from evallib import alpha_spent, group_sequential_design


def _log_spent(t: float, alpha: float) -> float:
    """log f(t) a side, f(t) = 2 - 2 Phi(z_{1 - alpha/4} / sqrt t) = 2 Phi(-z / sqrt t), with z from log_ndtr."""
    z = optimize.brentq(lambda c: special.log_ndtr(-c) - math.log(alpha / 4), 0.0, 40.0, xtol=1e-14)
    return math.log(2.0) + float(special.log_ndtr(-z / math.sqrt(t)))


def _z_for_log_tail(log_p: float) -> float:
    """The c with log P(Z >= c) = log_p, on the log scale (no isf)."""
    return optimize.brentq(lambda c: special.log_ndtr(-c) - log_p, 0.0, 60.0, xtol=1e-13)


@pytest.mark.parametrize("looks", [13, 14, 20])
def test_first_boundaries_of_many_looks_are_finite_and_lan_demets(looks):
    alpha = 0.05
    d = group_sequential_design(1191, looks, alpha=alpha, spending="obrien-fleming")
    assert np.all(np.isfinite(d.boundary)) and np.all(np.diff(d.boundary) < 0)
    # look 1: nothing before it, so P(Z_1 >= c_1) is exactly the share spent a side
    log_first = _log_spent(1 / looks, alpha)
    assert d.boundary[0] == pytest.approx(_z_for_log_tail(log_first), abs=1e-6)
    assert d.nominal_alpha[0] == pytest.approx(2 * math.exp(log_first), rel=1e-5)
    # look 2: the first boundary is (almost) never crossed (P < 1e-15), so c_2 spends f(t_2) - f(t_1) on its own
    increment = math.exp(_log_spent(2 / looks, alpha)) - math.exp(log_first)
    assert d.boundary[1] == pytest.approx(_z_for_log_tail(math.log(increment)), abs=1e-5)
    assert d.alpha_spent[-1] == pytest.approx(alpha, abs=1e-7)


def test_twenty_looks_by_hand():
    """At 20 looks and alpha = 0.05: z_{1 - 0.0125} = 2.2414, so c_1 solves Phi(-c_1) = 2 Phi(-2.2414 sqrt 20),
    about 9.955, a nominal two-sided p of about 2.4e-23 (not inf and 0)."""
    d = group_sequential_design(1191, 20)
    assert 9.9 < d.boundary[0] < 10.0
    assert 2.0e-23 < d.nominal_alpha[0] < 2.8e-23
    spent = alpha_spent([0.05, 1.0], 0.025)
    assert spent[0] > 0 and spent[0] == pytest.approx(math.exp(_log_spent(0.05, 0.05)), rel=1e-9)
