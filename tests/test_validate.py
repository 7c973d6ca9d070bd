"""The general checks of evallib._validate that several modules share."""

import numpy as np
import pandas as pd
import pytest

from evallib._validate import check_array, check_choices, check_columns, check_real, check_score_matrix

OPEN01 = dict(low=0, high=1, low_open=True, high_open=True)


@pytest.mark.parametrize("value, kwargs, expected", [
    (0.5, OPEN01, 0.5),
    (np.float32(0.25), OPEN01, 0.25),
    (0, dict(low=0), 0.0),
    (1, dict(low=0, high=1), 1.0),
    (0, dict(low=0, high=0.5, high_open=True), 0.0),
    (-3.5, {}, -3.5),
])
def test_check_real_accepts_and_returns_float(value, kwargs, expected):
    out = check_real(value, "x", **kwargs)
    assert type(out) is float and out == expected


@pytest.mark.parametrize("value, kwargs, match", [
    (1.0, OPEN01, r"x must lie in the open interval \(0, 1\), got 1.0"),
    (0.0, OPEN01, r"x must lie in the open interval \(0, 1\), got 0.0"),
    (1.2, dict(low=0, high=1), r"x must lie in \[0, 1\], got 1.2"),
    (0.5, dict(low=0, high=0.5, high_open=True), r"x must lie in \[0, 0.5\), got 0.5"),
    (-1, dict(low=0), r"x must be a finite number >= 0, got -1.0"),
    (0, dict(low=0, low_open=True), r"x must be a finite number > 0, got 0.0"),
    (2, dict(high=1), r"x must be a finite number <= 1, got 2.0"),
    (np.inf, dict(low=0, note="n_test / n_train"), r"x must be a finite number >= 0 \(n_test / n_train\), got inf"),
    (np.nan, dict(low=0, high=1), r"x must lie in \[0, 1\], got nan"),
    (-np.inf, {}, r"x must be a finite number, got -inf"),
])
def test_check_real_range_errors_name_argument_and_range(value, kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_real(value, "x", **kwargs)


@pytest.mark.parametrize("value", [True, np.bool_(False), "0.5", None, [0.5], 1 + 0j])
def test_check_real_rejects_non_reals(value):
    with pytest.raises(TypeError, match=r"x must be a number in the open interval \(0, 1\)"):
        check_real(value, "x", **OPEN01)


@pytest.mark.parametrize("values", [[1, 2, 3], (1.5, 2.5), np.arange(3), pd.Series([0.1, 0.2])])
def test_check_array_accepts_sequences(values):
    out = check_array(values, "v", minimum=2)
    assert out.dtype == float and out.ndim == 1
    assert np.array_equal(out, np.asarray(values, dtype=float))


@pytest.mark.parametrize("values, exc, match", [
    (0.5, TypeError, r"v must be a sequence of scores \(one per fold\), got float"),
    ("ab", TypeError, r"v must be a sequence of scores"),
    (["a", "b"], TypeError, r"v must be a sequence of numbers \(one per fold\)"),
    ([[1.0, 2.0]], ValueError, r"v must be one-dimensional \(one per fold\), got shape \(1, 2\)"),
    ([1.0], ValueError, r"v must hold at least 2 scores \(one per fold\), got 1"),
    ([1.0, np.nan], ValueError, "v must not contain NaN or infinite scores"),
    ([1.0, np.inf], ValueError, "v must not contain NaN or infinite scores"),
])
def test_check_array_errors_name_argument(values, exc, match):
    with pytest.raises(exc, match=match):
        check_array(values, "v", minimum=2, what="scores", each="one per fold")



@pytest.mark.parametrize("values, ndim, shape", [
    ([[1, 2], [3, 4], [5, 6]], 2, (3, 2)),
    (pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}), 2, (2, 2)),
    ([1, 2, 3, 4], (1, 2), (4,)),
    (np.ones((2, 2)), (1, 2), (2, 2)),
])
def test_check_array_accepts_the_allowed_dimensions(values, ndim, shape):
    out = check_array(values, "t", ndim=ndim)
    assert out.dtype == float and out.shape == shape
    assert np.array_equal(out, np.asarray(values, dtype=float))


@pytest.mark.parametrize("values, ndim, exc, match", [
    (0.5, 2, TypeError, r"^t must be a table of scores \(data sets x folds\), got float$"),
    ([["a", "b"]], 2, TypeError, r"^t must be a table of numbers \(data sets x folds\)$"),
    ([1.0, 2.0], 2, ValueError, r"^t must be two-dimensional \(data sets x folds\), got shape \(2,\)$"),
    (np.ones((2, 2, 2)), (1, 2), ValueError, r"^t must be one- or two-dimensional \(data sets x folds\), got shape"),
    ("ab", (1, 2), TypeError, r"^t must be a sequence or a table of scores \(data sets x folds\), got str$"),
    ([[1.0, np.nan]], 2, ValueError, r"^t must not contain NaN or infinite scores$"),
])
def test_check_array_names_the_argument_and_the_allowed_shape(values, ndim, exc, match):
    with pytest.raises(exc, match=match):
        check_array(values, "t", ndim=ndim, what="scores", each="data sets x folds")

ABC = ("a", "b", "c")


@pytest.mark.parametrize("values, expected", [
    ("b", ("b",)),
    (["c", "a"], ("c", "a")),
    (("a", "b", "a"), ("a", "b")),
])
def test_check_choices_keeps_the_order_given_once_each(values, expected):
    assert check_choices(values, "methods", ABC) == expected


@pytest.mark.parametrize("values, match", [
    ((), r"methods must be a non-empty sequence of \('a', 'b', 'c'\)"),
    (3, r"methods must be a non-empty sequence of"),
    (["a", "z"], r"methods must hold only 'a', 'b', 'c', got 'z'"),
    ("z", r"methods must hold only 'a', 'b', 'c', got 'z'"),
])
def test_check_choices_errors_name_argument_and_choices(values, match):
    with pytest.raises(ValueError, match=match):
        check_choices(values, "methods", ABC)


@pytest.mark.parametrize("values, names", [
    (pd.DataFrame({"A": [1, 0], "B": [0, 0]}), ["A", "B"]),
    ({"A": [1, 0], 3: [1, 1]}, ["A", "3"]),
    (np.array([[1, 0, 1], [0, 0, 1]]), ["0", "1", "2"]),
])
def test_check_columns_reads_every_form(values, names):
    got, cols = check_columns(values, "correct")
    assert got == names and [c.tolist() for c in cols] == np.asarray(pd.DataFrame(values)).T.tolist()


@pytest.mark.parametrize("values, one_column, exc, match", [
    ("abc", None, TypeError, r"^correct must be a 2-D array \(cases x classifiers\), a mapping name -> column or a "
                             r"DataFrame, got str$"),
    ([1, 0, 1], None, ValueError, r"^correct must be two-dimensional \(cases x classifiers\), got shape \(3,\)$"),
    (0.5, "score", TypeError, r"^correct must be a sequence of numbers, a 2-D array"),
    (np.ones((2, 2, 2)), "score", ValueError, r"^correct must be one- or two-dimensional"),
])
def test_check_columns_names_the_argument_and_the_forms(values, one_column, exc, match):
    with pytest.raises(exc, match=match):
        check_columns(values, "correct", one_column=one_column)


def test_check_score_matrix_takes_the_length_of_the_first_column():
    names, mat = check_score_matrix([0.25, 0.5, 1.0])
    assert names == ["score"] and mat.shape == (3, 1) and mat.dtype == np.float64
    with pytest.raises(ValueError, match=r"^scores\['B'\] must hold one score per case \(2\), got shape \(3,\)$"):
        check_score_matrix({"A": [0.1, 0.2], "B": [0.1, 0.2, 0.3]})
    with pytest.raises(ValueError, match=r"^scores\['B'\] must not contain NaN or infinite scores$"):
        check_score_matrix({"A": [0.1, 0.2], "B": [0.1, np.inf]}, 2)
    with pytest.raises(TypeError, match=r"^scores\['A'\] must hold numbers$"):
        check_score_matrix({"A": ["x", "y"]}, 2)
