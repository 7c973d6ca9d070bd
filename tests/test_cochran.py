"""Tests of evallib.onetestset._cochran against statsmodels' and mlxtend's ``cochrans_q``.

Further references: McNemar's chi-square without continuity correction (statsmodels)
for k = 2, where the two tests coincide, and invariance under added all-right or
all-wrong cases, which follows from Cochran's formula.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
from statsmodels.stats.contingency_tables import mcnemar

from evallib.onetestset._cochran import cochran_q, cochran_q_predictions, correct_matrix


def _correct(n, k, rng):
    ease = rng.random(n)
    return (rng.random((n, k)) < (0.4 + 0.5 * ease[:, None]) * np.linspace(0.8, 1.0, k)).astype(int)


@pytest.mark.parametrize("n, k, seed", [(30, 3, 0), (200, 5, 1), (1000, 8, 2)])
def test_matches_statsmodels(n, k, seed):
    x = _correct(n, k, np.random.default_rng(seed))
    ref = sm_cochrans_q(x)
    res = cochran_q(x)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.df == ref.df == k - 1
    assert res.accuracy == pytest.approx(tuple(x.mean(axis=0)))


def test_matches_mlxtend_with_three_classes():
    from mlxtend.evaluate import cochrans_q as mlx_cochrans_q

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 300)
    preds = {name: np.where(rng.random(300) < acc, y, rng.integers(0, 3, 300))
             for name, acc in [("A", 0.7), ("B", 0.6), ("C", 0.65), ("D", 0.5)]}
    q, p = mlx_cochrans_q(y, *preds.values())
    res = cochran_q_predictions(y, preds)
    assert res.statistic == pytest.approx(q, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-10)
    assert res.names == ("A", "B", "C", "D")
    assert res.reject == (res.pvalue <= 0.05)


def test_two_classifiers_is_mcnemar_without_correction():
    x = _correct(150, 2, np.random.default_rng(4))
    b = int(np.sum((x[:, 0] == 1) & (x[:, 1] == 0)))
    c = int(np.sum((x[:, 0] == 0) & (x[:, 1] == 1)))
    ref = mcnemar([[0, b], [c, 0]], exact=False, correction=False)
    res = cochran_q(pd.DataFrame(x, columns=["a", "b"]))
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_unanimous_cases_change_nothing_and_all_equal_rows_are_defined():
    x = _correct(60, 4, np.random.default_rng(5))
    more = np.vstack([x, np.ones((40, 4), int), np.zeros((25, 4), int)])
    assert cochran_q(more).statistic == pytest.approx(cochran_q(x).statistic, rel=1e-12)
    assert cochran_q(more).n_informative == cochran_q(x).n_informative
    flat = cochran_q(np.vstack([np.ones((5, 3), int), np.zeros((4, 3), int)]))
    assert (flat.statistic, flat.pvalue, flat.reject, flat.n_informative) == (0.0, 1.0, False, 0)
    assert "undefined" in flat.note and "undefined" in flat.text()


def test_permutation_for_two_classifiers_is_mcnemar_exact():
    # For k = 2 the shuffles are sign flips of the b + c discordant cases, so the
    # permutation p-value estimates McNemar's exact (binomial) p. Tolerance: 4 Monte
    # Carlo standard errors plus the 1/(reps + 1) of the (1 + hits) convention.
    x = np.array([[1, 0]] * 9 + [[0, 1]] * 2 + [[1, 1]] * 30 + [[0, 0]] * 5)
    ref = mcnemar([[30, 9], [2, 5]], exact=True).pvalue
    res = cochran_q(x, method="permutation", n_resamples=20_000, rng=0)
    assert res.pvalue == pytest.approx(ref, abs=4 * res.mc_se + 1 / 20_001)
    assert res.method == "permutation" and res.n_resamples == 20_000 and "permutations" in res.text()


def test_permutation_matches_brute_force_enumeration():
    # 6 informative cases, k = 3: each row's right answers can sit in C(3, r) = 3 ways,
    # so the exact permutation law has 3**6 = 729 equally likely tables.
    import itertools

    x = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 1], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 1, 1]])
    q_obs = cochran_q(x).statistic
    inf = x[(x.sum(1) > 0) & (x.sum(1) < 3)]
    choices = [[np.roll(row, s) for s in range(3)] for row in inf]  # the 3 placements of each row
    qs = [sm_cochrans_q(np.array(rows)).statistic for rows in itertools.product(*choices)]
    exact = np.mean(np.array(qs) >= q_obs - 1e-9)
    res = cochran_q(x, method="permutation", n_resamples=20_000, rng=1)
    assert res.pvalue == pytest.approx(exact, abs=4 * res.mc_se + 1 / 20_001)
    assert res.statistic == q_obs


def test_small_table_note():
    res = cochran_q([[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    assert "informative" in res.note and "permutation" in res.note
    with pytest.raises(ValueError, match="method"):
        cochran_q([[1, 0], [0, 1]], method="exact")


def test_correct_matrix_any_labels():
    table = correct_matrix(["x", "y", "z"], {"A": ["x", "z", "z"], "B": ["y", "y", "z"]})
    assert table.to_numpy().tolist() == [[True, False], [False, True], [True, True]]


@pytest.mark.parametrize("bad, exc, match", [
    ([[1], [0]], ValueError, "at least 2 classifiers"),
    ([[1, 2], [0, 1]], ValueError, "only 0/1"),
    ([[1, np.nan], [0, 1]], ValueError, "only 0/1"),
    ([1, 0, 1], ValueError, "two-dimensional"),
    ("abc", TypeError, "2-D array"),
    ([["a", "b"], ["c", "d"]], TypeError, "0/1 or True/False"),
])
def test_bad_input(bad, exc, match):
    with pytest.raises(exc, match=match):
        cochran_q(bad)
    with pytest.raises(ValueError, match="alpha"):
        cochran_q([[1, 0], [0, 1]], alpha=1.5)


def test_predictions_bad_input():
    with pytest.raises(ValueError, match="one label per case"):
        cochran_q_predictions([0, 1, 1], {"A": [0, 1], "B": [0, 1, 1]})
    with pytest.raises(ValueError, match="missing"):
        cochran_q_predictions([0, 1, 1], {"A": [0, None, 1], "B": [0, 1, 1]})
