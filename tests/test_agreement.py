"""Tests of evallib.onetestset._agreement (Cohen's kappa) against independent references.

References: the SAS PROC FREQ printout of simple kappa for the table
``[[0, 4, 1], [0, 8, 0], [0, 1, 5]]`` (kappa 0.4842, ASE 0.1380, 95% limits 0.2137 and
0.7547, ASE under H0 0.1484, Z 3.2626, one-sided p 0.0006, two-sided 0.0011), as
reproduced in statsmodels' test_inter_rater.py; statsmodels' ``cohens_kappa`` and
scikit-learn's ``cohen_kappa_score`` on random tables and labels; and the delta-method
variance of kappa under multinomial sampling computed here by numerical differentiation
(the large-sample variance Fleiss, Cohen & Everitt derive in closed form).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

from evallib.onetestset._agreement import KappaResult, cohen_kappa, cohen_kappa_table

SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]


def test_sas_printout():
    res = cohen_kappa_table(SAS_TABLE)
    assert isinstance(res, KappaResult)
    got = [res.estimate, res.se, res.low, res.high, res.se_null, res.statistic, res.pvalue]
    assert [round(v, 4) for v in got] == [0.4842, 0.1380, 0.2137, 0.7547, 0.1484, 3.2626, 0.0011]
    assert res.n == 19 and res.reject


@pytest.mark.parametrize("k, seed", [(2, 0), (3, 1), (4, 2), (6, 3)])
def test_matches_statsmodels_on_random_tables(k, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, 30, size=(k, k)) + np.diag(rng.integers(10, 60, size=k))
    ours = cohen_kappa_table(table)
    ref = cohens_kappa(table)   # its limits are at 95% (one-sided 0.025 each)
    assert ours.estimate == pytest.approx(ref.kappa, rel=1e-12)
    assert ours.se == pytest.approx(ref.std_kappa, rel=1e-10)
    assert ours.se_null == pytest.approx(ref.std_kappa0, rel=1e-10)
    assert ours.statistic == pytest.approx(ref.z_value, rel=1e-10)
    assert ours.pvalue == pytest.approx(ref.pvalue_two_sided, rel=1e-9)
    assert (ours.low, ours.high) == pytest.approx((ref.kappa_low, ref.kappa_upp), rel=1e-10)


def _kappa_of(p):
    p = p / p.sum()
    po, pe = np.trace(p), p.sum(axis=1) @ p.sum(axis=0)
    return (po - pe) / (1 - pe)


@pytest.mark.parametrize("seed", [4, 5])
def test_variance_is_the_delta_method_variance(seed):
    """Var(kappa_hat) ~ (sum g_ij^2 p_ij - (sum g_ij p_ij)^2)/N, g the gradient of kappa in the
    cell probabilities, here by central differences."""
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 40, size=(3, 3)) + np.diag([50, 40, 30])
    n = table.sum()
    p = table / n
    g = np.zeros_like(p)
    h = 1e-6
    for i in range(3):
        for j in range(3):
            up, down = p.copy(), p.copy()
            up[i, j] += h
            down[i, j] -= h
            g[i, j] = (_kappa_of(up) - _kappa_of(down)) / (2 * h)   # kappa_of renormalises
    var = (np.sum(g * g * p) - np.sum(g * p) ** 2) / n
    assert cohen_kappa_table(table).se == pytest.approx(np.sqrt(var), rel=1e-6)


def test_from_labels_matches_scikit_learn_and_the_table():
    rng = np.random.default_rng(8)
    truth = rng.choice(["cat", "dog", "eel"], size=300)
    pred = np.where(rng.random(300) < 0.7, truth, rng.choice(["cat", "dog", "eel"], size=300))
    res = cohen_kappa(truth, pred)
    assert res.estimate == pytest.approx(cohen_kappa_score(truth, pred), rel=1e-12)
    assert res.observed_agreement == pytest.approx(np.mean(truth == pred))
    cats = ["cat", "dog", "eel"]
    table = [[int(np.sum((truth == r) & (pred == c))) for c in cats] for r in cats]
    assert res == cohen_kappa_table(table)
    # an unused category changes nothing; the order of labels does not either
    assert cohen_kappa(truth, pred, labels=["eel", "dog", "cat", "fox"]).estimate == pytest.approx(res.estimate)


def test_agreement_of_two_classifiers_against_sklearn():
    rng = np.random.default_rng(9)
    a = rng.integers(0, 2, 500)
    b = np.where(rng.random(500) < 0.8, a, 1 - a)
    assert cohen_kappa(a, b).estimate == pytest.approx(cohen_kappa_score(a, b), rel=1e-12)


def test_degenerate_tables_have_documented_answers():
    undefined = cohen_kappa([1, 1, 1], [1, 1, 1])
    assert np.isnan(undefined.estimate) and np.isnan(undefined.pvalue) and not undefined.reject
    assert "undefined" in undefined.note
    constant = cohen_kappa([0, 0, 0, 0], [0, 1, 0, 1])   # one classifier always says 0
    assert (constant.estimate, constant.se, constant.se_null) == (0.0, 0.0, 0.0)
    assert (constant.low, constant.high, constant.statistic, constant.pvalue) == (0.0, 0.0, 0.0, 1.0)
    assert constant.note
    perfect = cohen_kappa([0, 1, 0, 1, 1, 0, 1, 0], [0, 1, 0, 1, 1, 0, 1, 0])
    assert (perfect.estimate, perfect.se, perfect.low, perfect.high) == (1.0, 0.0, 1.0, 1.0)
    assert perfect.se_null > 0 and perfect.note == ""
    # systematic disagreement: kappa -1, the interval stays inside [-1, 1]
    opposite = cohen_kappa([0, 1] * 10, [1, 0] * 10)
    assert opposite.estimate == pytest.approx(-1.0) and opposite.low >= -1.0


@pytest.mark.parametrize("call, exc, words", [
    (lambda: cohen_kappa_table([[1, 2, 3], [4, 5, 6]]), ValueError, "table must be a square"),
    (lambda: cohen_kappa_table([[1, -2], [3, 4]]), ValueError, "table[0, 1] must be a whole number >= 0"),
    (lambda: cohen_kappa_table([[1, 2.5], [3, 4]]), ValueError, "table[0, 1]"),
    (lambda: cohen_kappa_table([[0, 0], [0, 0]]), ValueError, "at least one case"),
    (lambda: cohen_kappa_table("ab"), TypeError, "table must be"),
    (lambda: cohen_kappa_table(SAS_TABLE, alpha=0), ValueError, "alpha must lie in the open interval"),
    (lambda: cohen_kappa([1, 2, 3], [1, 2]), ValueError, "y1 and y2 must label the same cases"),
    (lambda: cohen_kappa([], []), ValueError, "y1 must contain at least one label"),
    (lambda: cohen_kappa([1, None], [1, 2]), ValueError, "y1 must not contain NaN"),
    (lambda: cohen_kappa([1, 2], [1, 3], labels=[1, 2]), ValueError, "labels must include every label"),
    (lambda: cohen_kappa([1, 2], [1, 2], labels=[1, 1, 2]), ValueError, "distinct categories"),
    (lambda: cohen_kappa([1, 2], [1, 2], labels=3), TypeError, "labels must be a sequence"),
])
def test_bad_input_names_the_argument(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words in str(info.value)
