"""The report's laws scale (issue 14, section 4): log space above the exact-integer size.

References: exact big-integer binomials (``math.comb``) computed here, and a Monte Carlo
of the best accuracy of random rankings with a stated tolerance.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from evallib.onetestset import _nullbest as nb
from evallib.report import classifier_measures, load_predictions
from evallib.report._sections import chance_check


@pytest.mark.parametrize("P, N", [(1500, 1200), (700, 2500)])
def test_log_space_accuracy_law_against_exact_integers(P, N):
    assert P + N > nb._ACCURACY_EXACT_MAX  # the log-space branch
    values, cdf, sf = nb._accuracy_law(P, N)
    total = math.comb(P + N, P)
    d = np.arange(max(0, P - N), P + 1)
    exact = np.array([math.comb(P + N, N + x + 1) / total if x + 1 <= P else 0.0 for x in d])
    np.testing.assert_allclose(values, (N + d) / (P + N))
    keep = exact > 1e-300
    np.testing.assert_allclose(sf[keep], exact[keep], rtol=1e-9)
    np.testing.assert_allclose(cdf, 1.0 - exact, atol=1e-12)


def test_log_space_law_against_monte_carlo():
    """P(best accuracy of one random ranking >= v) at P = 1000, N = 1500, 4,000 rankings."""
    P, N = 1000, 1500
    values, _, sf = nb._accuracy_law(P, N)
    rng = np.random.default_rng(5)
    reps = 4000
    best = np.empty(reps)
    for r in range(reps):
        y = np.zeros(P + N, bool)
        y[rng.choice(P + N, P, replace=False)] = True
        walk = np.cumsum(np.where(y, 1, -1))
        best[r] = (N + max(0, walk.max())) / (P + N)
    idx = np.searchsorted(values, np.quantile(best, 0.9)) - 1  # a value in the upper tail
    mc = np.mean(best > values[idx])
    se = math.sqrt(sf[idx] * (1 - sf[idx]) / reps)
    assert abs(mc - sf[idx]) < 4 * se  # 4 Monte Carlo standard errors


def test_million_row_chance_check_names_its_laws():
    rng = np.random.default_rng(0)
    n = 1_000_000
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({"label": y.astype(int), "score_a": rng.normal(size=n) + 0.5 * y,
                          "score_b": rng.normal(size=n)})
    data = load_predictions(frame)
    res = chance_check(data, classifier_measures(data))
    assert set(res.table["law"]) == {"normal approximation", "exact, in log space"}
    assert res.table.loc["best accuracy", "beats_chance"] and res.table.loc["AUC", "beats_chance"]
    assert len(res.notes) == 1 and "not judged" in res.notes[0]  # best F1: said in one sentence
