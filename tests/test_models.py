"""Tests for evallib.studies._models: Welch selection, DLDA (eq. 6) and models #3-#5.

Independent references: statsmodels' per-gene Welch test, scikit-learn's
NearestCentroid on features scaled by a pooled SD computed here with pandas,
hand-computed toy examples, and the paper's numbers (20/69 x 50 = 14).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.neighbors import NearestCentroid
from statsmodels.stats.weightstats import ttest_ind as sm_ttest_ind

from evallib.studies._data import load_gse4335, stratified_split
from evallib.studies._models import (
    DLDA,
    class_prior_model,
    fair_coin,
    fit_dlda_top_genes,
    predict_top_genes,
    swap_labels,
    welch_pvalues,
    welch_select,
)


def random_problem(seed: int, n0: int = 12, n1: int = 18, p: int = 40, signal: int = 8):
    """Two Gaussian classes with unequal variances; the first `signal` genes differ."""
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.array([0] * n0 + [1] * n1))
    scale = rng.uniform(0.5, 3.0, size=p)
    X = rng.normal(size=(n0 + n1, p)) * scale
    X[y == 1, :signal] += rng.uniform(0.5, 2.0, size=signal) * scale[:signal]
    X[y == 1] *= rng.uniform(0.7, 1.5, size=p)  # unequal class variances
    return X, y


def pooled_sd(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pooled within-class SD, computed independently with pandas groupby."""
    df = pd.DataFrame(X)
    centred = df - df.groupby(y).transform("mean")
    ss = (centred**2).sum(axis=0)
    return np.sqrt((ss / (len(y) - df.groupby(y).ngroups)).to_numpy())


def nearest_centroid_scaled(X_learn, y_learn, X_test):
    sd = pooled_sd(X_learn, y_learn)
    nc = NearestCentroid().fit(X_learn / sd, y_learn)
    return nc.predict(X_test / sd)


# ---------------------------------------------------------------------------
# Welch selection
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_welch_matches_statsmodels_loop(seed):
    X, y = random_problem(seed)
    ref = np.array(
        [
            sm_ttest_ind(X[y == 0, j], X[y == 1, j], usevar="unequal")[1]
            for j in range(X.shape[1])
        ]
    )
    assert np.allclose(welch_pvalues(X, y), ref, rtol=1e-9, atol=0)
    k = 10
    assert np.array_equal(welch_select(X, y, k), np.argsort(ref, kind="stable")[:k])


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_welch_select_ties_and_constant_genes():
    X, y = random_problem(0, p=6, signal=3)
    X = np.column_stack([np.full(len(y), 2.0), X[:, 0], X[:, 0], X[:, 1:]])
    # column 0 constant (NaN p-value, ranked last); columns 1 and 2 identical
    order = welch_select(X, y, X.shape[1])
    assert order[-1] == 0
    assert list(order).index(1) + 1 == list(order).index(2)  # tie -> lower position first


def test_welch_select_accepts_dataframe_and_returns_positions():
    X, y = random_problem(1)
    df = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    assert np.array_equal(welch_select(df, pd.Series(y), 5), welch_select(X, y, 5))


@pytest.mark.parametrize("k, exc", [(0, ValueError), (41, ValueError), (2.0, TypeError)])
def test_welch_select_rejects_bad_k(k, exc):
    X, y = random_problem(0)
    with pytest.raises(exc, match=r"k must be an int in \[1, 40\]"):
        welch_select(X, y, k)


def test_welch_select_rejects_bad_labels():
    X, _ = random_problem(0)
    with pytest.raises(ValueError, match="y must contain exactly 2 classes"):
        welch_select(X, np.zeros(len(X)), 3)
    with pytest.raises(ValueError, match="same number of samples"):
        welch_select(X, np.array([0, 1] * 3), 3)


# ---------------------------------------------------------------------------
# DLDA
# ---------------------------------------------------------------------------


def test_dlda_hand_example_and_tie_rule():
    # Class means 1 and 5; pooled variance (1+1+1+1)/(4-2) = 2.
    X = np.array([[0.0], [2.0], [4.0], [6.0]])
    y = np.array([0, 0, 1, 1])
    m = DLDA().fit(X, y)
    assert np.allclose(m.means_, [[1.0], [5.0]])
    assert np.allclose(m.var_, [2.0])
    # x = 2.9: (1.9^2)/2 = 1.805 vs (2.1^2)/2 = 2.205 -> class 0
    assert np.allclose(m.discriminant([[2.9]]), [[1.805, 2.205]])
    assert list(m.predict([[2.9], [3.1], [3.0]])) == [0, 1, 0]  # 3.0 is a tie -> first class


def test_dlda_has_no_prior_term():
    # One case of class "a" at 0, nine of "b" with mean 2; pooled variance
    # 2 * (0.16 + 0.09 + 0.04 + 0.01) / (10 - 2) = 0.075. For x = 0.95:
    # eq. (6) gives 0.95^2/0.075 = 12.0 for "a" and 1.05^2/0.075 = 14.7 for
    # "b", so "a". With LDA's prior term -2 log(prior) the scores would be
    # 12.0 + 4.6 = 16.6 and 14.7 + 0.2 = 14.9, i.e. "b".
    X = np.array([[0.0], [1.6], [1.7], [1.8], [1.9], [2.0], [2.1], [2.2], [2.3], [2.4]])
    y = np.array(["a"] + ["b"] * 9)
    m = DLDA().fit(X, y)
    assert m.var_[0] == pytest.approx(0.075)
    assert np.allclose(m.discriminant([[0.95]]), [[0.95**2 / 0.075, 1.05**2 / 0.075]])
    assert m.predict([[0.95]])[0] == "a"


@pytest.mark.parametrize("seed", range(8))
def test_dlda_equals_nearest_centroid_on_scaled_features(seed):
    X, y = random_problem(seed, n0=15, n1=25, p=12)
    rng = np.random.default_rng(100 + seed)
    X_new = rng.normal(size=(200, X.shape[1])) * X.std(axis=0) + X.mean(axis=0)
    ours = DLDA().fit(X, y).predict(X_new)
    assert np.array_equal(ours, nearest_centroid_scaled(X, y, X_new))
    # both classes are actually predicted, so the comparison is not trivial
    assert 0 < ours.mean() < 1


def test_dlda_parameters_match_independent_estimates():
    X, y = random_problem(3)
    m = DLDA().fit(X, y)
    assert np.allclose(m.var_, pooled_sd(X, y) ** 2)
    assert np.allclose(m.means_, pd.DataFrame(X).groupby(y).mean().to_numpy())


def test_dlda_drops_zero_variance_features():
    X, y = random_problem(4, p=5, signal=3)
    X_const = np.column_stack([X, np.full(len(y), 3.0)])
    X_new = np.random.default_rng(0).normal(size=(50, 6))
    a = DLDA().fit(X, y).predict(X_new[:, :5])
    with np.errstate(all="raise"):
        b = DLDA().fit(X_const, y).predict(X_new)
    assert np.array_equal(a, b)


def test_dlda_accepts_dataframes():
    X, y = random_problem(5)
    df = pd.DataFrame(X)
    a = DLDA().fit(df, pd.Series(y)).predict(df)
    b = DLDA().fit(X, y).predict(X)
    assert np.array_equal(a, b)


def test_dlda_errors():
    X, y = random_problem(0)
    with pytest.raises(RuntimeError, match="not fitted"):
        DLDA().predict(X)
    with pytest.raises(ValueError, match="X must have 40 features"):
        DLDA().fit(X, y).predict(X[:, :3])
    with pytest.raises(ValueError, match="X must contain only finite values"):
        DLDA().fit(np.where(np.eye(len(y), 40) == 1, np.nan, X), y)


def test_fit_dlda_top_genes_uses_selected_genes_only():
    X, y = random_problem(6, p=60)
    model, genes = fit_dlda_top_genes(X, y, 7)
    assert np.array_equal(genes, welch_select(X, y, 7))
    X_new = np.random.default_rng(1).normal(size=(30, 60)) * 2
    expected = nearest_centroid_scaled(X[:, genes], y, X_new[:, genes])
    assert np.array_equal(predict_top_genes(model, genes, X_new), expected)
    # DataFrame input selects by position as well
    df = pd.DataFrame(X_new, columns=[f"g{j}" for j in range(60)])
    assert np.array_equal(predict_top_genes(model, genes, df), expected)


@pytest.fixture(scope="module")
def gse4335():
    pytest.importorskip("SurvSet", reason="SurvSet==0.2.11 provides the GSE4335 data")
    return load_gse4335()


def test_dlda_equals_nearest_centroid_on_real_top_genes(gse4335):
    X, y = gse4335
    learn, test = stratified_split(y, 47, rng=np.random.default_rng(0))
    Xl, yl = X.iloc[learn], y.iloc[learn].to_numpy()
    model, genes = fit_dlda_top_genes(Xl, yl, 30)
    ours = predict_top_genes(model, genes, X.iloc[test])
    ref = nearest_centroid_scaled(
        Xl.iloc[:, genes].to_numpy(), yl, X.iloc[test, genes].to_numpy()
    )
    assert np.array_equal(ours, ref)
    assert 0 < ours.mean() < 1


# ---------------------------------------------------------------------------
# Model #3: label swap
# ---------------------------------------------------------------------------


def test_swap_labels_flips_exactly_n_per_class():
    y = np.random.default_rng(0).permutation([0] * 20 + [1] * 49)
    for n in (0, 1, 5, 20):
        z = swap_labels(y, n, rng=np.random.default_rng(n))
        assert np.sum((y == 0) & (z == 1)) == n
        assert np.sum((y == 1) & (z == 0)) == n
        assert np.sum(z == 0) == 20  # class sizes unchanged
    assert np.array_equal(swap_labels(y, 0, rng=np.random.default_rng(0)), y)


def test_swap_labels_reproducible_and_leaves_input_alone():
    y = np.array(["neg"] * 8 + ["pos"] * 12)
    y_copy = y.copy()
    a = swap_labels(y, 3, rng=np.random.default_rng(5))
    b = swap_labels(y, 3, rng=np.random.default_rng(5))
    c = swap_labels(y, 3, rng=np.random.default_rng(6))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.array_equal(y, y_copy)


@pytest.mark.parametrize("n, exc", [(-1, ValueError), (9, ValueError), (2.5, TypeError)])
def test_swap_labels_rejects_bad_n(n, exc):
    y = np.array([0] * 8 + [1] * 12)
    with pytest.raises(exc, match=r"n_per_class must be an int in \[0, 8\]"):
        swap_labels(y, n, rng=np.random.default_rng(0))


def test_swap_labels_rejects_what_is_not_an_rng():
    with pytest.raises(TypeError, match="rng must be None, an int >= 0, a numpy.random.SeedSequence or a numpy.random.Generator"):
        swap_labels(np.array([0, 1, 0, 1]), 1, rng=4.2)
    y = np.array([0, 1, 0, 1])
    assert np.array_equal(swap_labels(y, 1, rng=42), swap_labels(y, 1, rng=np.random.default_rng(42)))


# ---------------------------------------------------------------------------
# Model #4: fair coin
# ---------------------------------------------------------------------------


def test_fair_coin_reproducible_and_uses_classes():
    a = fair_coin(50, rng=np.random.default_rng(0))
    assert np.array_equal(a, fair_coin(50, rng=np.random.default_rng(0)))
    assert not np.array_equal(a, fair_coin(50, rng=np.random.default_rng(1)))
    assert set(np.unique(a)) <= {0, 1}
    b = fair_coin(20, classes=("ER-", "ER+"), rng=np.random.default_rng(0))
    assert set(b) <= {"ER-", "ER+"} and len(b) == 20
    assert fair_coin(0, rng=np.random.default_rng(0)).size == 0


def test_fair_coin_is_fair():
    # 200,000 flips: an exact binomial test of p = 0.5 must not reject at
    # 0.001, and the share of heads must be within 0.005 of 0.5 (4.5 SD).
    n = 200_000
    heads = int(fair_coin(n, rng=np.random.default_rng(2024)).sum())
    assert stats.binomtest(heads, n, 0.5).pvalue > 1e-3
    assert abs(heads / n - 0.5) < 0.005


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"n": -1}, ValueError, "n must be an int >= 0"),
        ({"n": 3.0}, TypeError, "n must be an int >= 0"),
        ({"n": 3, "classes": (1, 1)}, ValueError, "classes must hold exactly 2 distinct"),
        ({"n": 3, "classes": (0, 1, 2)}, ValueError, "classes must hold exactly 2 distinct"),
    ],
)
def test_fair_coin_rejects_bad_input(kwargs, exc, message):
    with pytest.raises(exc, match=message):
        fair_coin(rng=np.random.default_rng(0), **kwargs)


# ---------------------------------------------------------------------------
# Model #5: class prior
# ---------------------------------------------------------------------------


def test_class_prior_model_paper_counts():
    # Section 7: 20 of 69 learning cases are ER-; 20/69 x 50 = 14 ER-, 36 ER+.
    y_learn = np.array([0] * 20 + [1] * 49)
    pred = class_prior_model(y_learn, 50, rng=np.random.default_rng(0))
    assert len(pred) == 50 and np.sum(pred == 0) == 14 and np.sum(pred == 1) == 36


@pytest.mark.parametrize(
    "n0, n1, n_test, expected_minority",
    [
        (18, 48, 47, 13),  # 47 * 18/66 = 12.82
        (1, 3, 2, 1),  # 2 * 1/4 = 0.5 -> 1 (half up)
        (5, 95, 10, 1),  # 0.5 -> 1
        (5, 95, 0, 0),
    ],
)
def test_class_prior_model_counts(n0, n1, n_test, expected_minority):
    y_learn = np.array(["ER-"] * n0 + ["ER+"] * n1)
    pred = class_prior_model(y_learn, n_test, rng=np.random.default_rng(0))
    assert len(pred) == n_test
    assert np.sum(pred == "ER-") == expected_minority
    assert np.sum(pred == "ER+") == n_test - expected_minority


def test_class_prior_model_random_assignment():
    y_learn = np.array([0] * 20 + [1] * 49)
    a = class_prior_model(y_learn, 50, rng=np.random.default_rng(1))
    b = class_prior_model(y_learn, 50, rng=np.random.default_rng(1))
    c = class_prior_model(y_learn, 50, rng=np.random.default_rng(2))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    # each test position is ER- with probability 14/50 over many draws
    rng = np.random.default_rng(3)
    share = np.mean([class_prior_model(y_learn, 50, rng=rng) == 0 for _ in range(3000)], axis=0)
    # SD of each share: sqrt(0.28 * 0.72 / 3000) = 0.0082; 0.045 is 5.5 SD
    assert np.all(np.abs(share - 0.28) < 0.045)


def test_class_prior_model_rejects_bad_input():
    with pytest.raises(ValueError, match="y_learn must contain exactly 2 classes"):
        class_prior_model(np.zeros(5), 3, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="n_test must be an int >= 0"):
        class_prior_model(np.array([0, 1]), -2, rng=np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng must be None, an int"):
        class_prior_model(np.array([0, 1]), 2, rng="x")
