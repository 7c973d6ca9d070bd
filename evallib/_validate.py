"""Argument checks shared by the evallib modules.

Every check raises ``TypeError`` (wrong kind of value) or ``ValueError`` (right kind,
outside the allowed range) with a message that names the argument and what is allowed,
so that a student sees one plain sentence instead of a numpy traceback or a silent NaN.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "align_columns", "align_items", "check_alpha", "check_array", "check_binary_labels", "check_choice",
    "check_choices", "check_cluster_size", "check_columns", "check_count", "check_int", "check_item_index",
    "check_labels", "check_names", "check_real", "check_rng", "sklearn_random_state",
]


def check_count(value: Any, name: str, *, minimum: int = 0) -> int:
    """Return ``value`` as an ``int`` if it is a whole number ``>= minimum``.

    Accepts Python and numpy integers, and floats that are whole numbers (``3.0``);
    rejects booleans, NaN, fractions and negative values.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a whole number >= {minimum}, got a boolean {value!r}")
    if isinstance(value, numbers.Integral):
        result = int(value)
    elif isinstance(value, numbers.Real):
        if not np.isfinite(value) or float(value) != int(value):
            raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
        result = int(value)
    else:
        raise TypeError(f"{name} must be a whole number >= {minimum}, got {type(value).__name__}")
    if result < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {result}")
    return result


def check_alpha(alpha: Any, name: str = "alpha") -> float:
    """Return ``alpha`` as a float if it lies strictly between 0 and 1."""
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"{name} must be a number in the open interval (0, 1), got {alpha!r}")
    alpha = float(alpha)
    if not (0.0 < alpha < 1.0):  # also rejects NaN
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {alpha!r}")
    return alpha


def check_choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the ``allowed`` strings."""
    if not isinstance(value, str) or value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_choices(values: Any, name: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """Return a non-empty selection of the ``allowed`` strings, in the order given, once each.

    ``values`` is one of them or a sequence of them (a string counts as one choice).
    An empty or non-sequence value, or one that is not allowed, raises ``ValueError``
    naming the argument and the allowed strings.
    """
    if isinstance(values, str):
        values = (values,)
    if not isinstance(values, Sequence) or len(values) == 0:
        raise ValueError(f"{name} must be a non-empty sequence of {allowed}")
    for v in values:
        if v not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            raise ValueError(f"{name} must hold only {choices}, got {v!r}")
    return tuple(dict.fromkeys(values))


def check_labels(values: Any, name: str) -> np.ndarray:
    """Return a one-dimensional label array, rejecting NaN/None, empty and 2-D input."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional sequence of labels, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must contain at least one label, got an empty sequence")
    if pd.isna(arr).any():
        raise ValueError(f"{name} must not contain NaN or missing labels; every case needs a label")
    return arr


def check_binary_labels(values: Any, name: str) -> np.ndarray:
    """As :func:`check_labels`, and require exactly two distinct classes."""
    arr = check_labels(values, name)
    n_classes = len(np.unique(arr))
    if n_classes != 2:
        raise ValueError(f"{name} must contain exactly 2 classes, got {n_classes}")
    return arr


def check_int(value: Any, name: str, lo: int, hi: int) -> int:
    """Return ``value`` as an ``int`` if it is an integer in ``[lo, hi]`` (bool rejected)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int in [{lo}, {hi}], got {type(value).__name__}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be an int in [{lo}, {hi}], got {int(value)}")
    return int(value)


def check_names(names: Any, name: str = "names") -> tuple[str, str]:
    """Return the two models' names for a sentence or a label: ``("a", "b")`` for ``None``, else
    ``names`` if it is a pair (tuple or list) of two different non-empty strings."""
    if names is None:
        return "a", "b"
    if isinstance(names, str) or not isinstance(names, (tuple, list)) or len(names) != 2:
        raise TypeError(f"{name} must be a pair of strings (the candidate's, then the reference's), got {names!r}")
    if not all(isinstance(n, str) and n.strip() for n in names) or names[0] == names[1]:
        raise ValueError(f"{name} must be two different non-empty strings, got {tuple(names)!r}")
    return names[0], names[1]


def check_rng(rng: Any = None, name: str = "rng") -> np.random.Generator:
    """Normalise ``rng`` to a ``numpy.random.Generator`` (scientific Python's SPEC 7).

    The one place evallib turns a user's randomness argument into a Generator:

    - ``None``: a fresh Generator seeded from the operating system (not reproducible);
    - an ``int >= 0`` or a ``numpy.random.SeedSequence``: ``numpy.random.default_rng(rng)``,
      so the same value always gives the same stream;
    - a ``numpy.random.Generator``: used as given (its state advances).

    Anything else (a bool, a negative int, a float, the legacy ``RandomState``) raises
    ``TypeError``/``ValueError`` naming the argument. The global random state is never used.

    Examples
    --------
    >>> from evallib._validate import check_rng
    >>> check_rng(0).integers(10, size=3).tolist() == check_rng(0).integers(10, size=3).tolist()
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    allowed = ("None, an int >= 0, a numpy.random.SeedSequence or a numpy.random.Generator "
               "(e.g. numpy.random.default_rng(0))")
    if rng is None or isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, (bool, np.bool_)) or not isinstance(rng, numbers.Integral):
        raise TypeError(f"{name} must be {allowed}, got {type(rng).__name__}")
    if int(rng) < 0:
        raise ValueError(f"{name} must be {allowed}, got {int(rng)}")
    return np.random.default_rng(int(rng))


def sklearn_random_state(rng: Any = None, name: str = "rng") -> int:
    """The one place evallib derives scikit-learn's integer ``random_state`` from ``rng``.

    An ``int`` is passed through (so ``rng=3`` and ``random_state=3`` mean the same split);
    otherwise one integer in ``[0, 2**31 - 1)`` is drawn from :func:`check_rng`'s Generator.
    """
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        check_rng(rng, name)
        return int(rng) % (2**32)
    return int(check_rng(rng, name).integers(2**31 - 1))


def _bound(x: float) -> str:
    """A bound as printed in a message: ``0``, ``0.5``, ``1``."""
    return f"{x:g}"


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    note: str = "",
) -> float:
    """Return ``value`` as a ``float`` if it is a finite real number in the given range.

    Parameters
    ----------
    value : the argument to check. Python and numpy reals are accepted; booleans,
        strings and other types raise ``TypeError``; NaN, infinities and values
        outside the range raise ``ValueError``.
    name : the argument's name, used in the message.
    low, high : the bounds of the range; ``None`` leaves that side unbounded.
    low_open, high_open : whether the bound itself is excluded (``(0, 1)``) or
        allowed (``[0, 1]``).
    note : a short gloss appended in parentheses, e.g. ``"n_test / n_train"``.

    The message names the argument and the range, e.g. ``"prior_pos must lie in the
    open interval (0, 1), got 1.0"``, ``"label_noise must lie in [0, 0.5), got 0.7"``,
    ``"cost_fn must be a finite number >= 0, got -1.0"``.
    """
    gloss = f" ({note})" if note else ""
    if low is not None and high is not None:
        interval = (f"{'(' if low_open else '['}{_bound(low)}, "
                    f"{_bound(high)}{')' if high_open else ']'}")
        if low_open and high_open:
            interval = "the open interval " + interval
        kind_msg = f"{name} must be a number in {interval}{gloss}, got {value!r}"
        range_msg = f"{name} must lie in {interval}{gloss}, got {{value!r}}"
    else:
        if low is not None:
            rule = f" {'>' if low_open else '>='} {_bound(low)}"
        elif high is not None:
            rule = f" {'<' if high_open else '<='} {_bound(high)}"
        else:
            rule = ""
        kind_msg = f"{name} must be a finite number{rule}{gloss}, got {value!r}"
        range_msg = f"{name} must be a finite number{rule}{gloss}, got {{value!r}}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(kind_msg)
    value = float(value)
    ok = np.isfinite(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        raise ValueError(range_msg.format(value=value))
    return value


_DIMENSIONS = {1: "one-dimensional", 2: "two-dimensional"}
_CONTAINERS = {1: "a sequence", 2: "a table"}


def check_array(
    values: Any, name: str, *, ndim: int | tuple[int, ...] = 1, minimum: int = 1, what: str = "values",
    each: str = "",
) -> np.ndarray:
    """Return a float array of ``ndim`` dimensions holding at least ``minimum`` finite numbers.

    Parameters
    ----------
    values : a sequence of numbers (list, tuple, 1-D array, Series) for ``ndim=1``; a table
        (nested lists, 2-D array, DataFrame) for ``ndim=2``.
    name : the argument's name, used in the message.
    ndim : the number of dimensions, 1 or 2, or a tuple of the allowed ones (``(1, 2)``).
    minimum : the fewest values allowed (all cells counted).
    what : what the values are, in the plural (``"scores"``), for the messages.
    each : a short gloss of the shape, e.g. ``"one per fold"`` or ``"data sets x folds"``,
        for the messages.

    A scalar, a string or a non-numeric sequence raises ``TypeError``; the wrong number
    of dimensions, too few values, NaN or infinities raise ``ValueError``. Each message
    names the argument and the allowed shape.

    Examples
    --------
    >>> check_array([[0.8, 0.7], [0.9, 0.6]], "scores", ndim=2).shape
    (2, 2)
    >>> check_array([0.8, 0.7], "scores", ndim=2, each="data sets x folds")
    Traceback (most recent call last):
    ...
    ValueError: scores must be two-dimensional (data sets x folds), got shape (2,)
    """
    dims = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    gloss = f" ({each})" if each else ""
    container = " or ".join(_CONTAINERS[d] for d in dims)
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"{name} must be {container} of {what}{gloss}, got {type(values).__name__}")
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be {container} of numbers{gloss}") from None
    if arr.ndim not in dims:
        shape = " or ".join(_DIMENSIONS[d] for d in dims).replace("-dimensional or ", "- or ")
        raise ValueError(f"{name} must be {shape}{gloss}, got shape {arr.shape}")
    if arr.size < minimum:
        raise ValueError(f"{name} must hold at least {minimum} {what}{gloss}, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite {what}")
    return arr


def check_columns(values: Any, name: str, *, one_column: str | None = None) -> tuple[list[str], list[np.ndarray]]:
    """Names and columns of a table of per-case values, one column per classifier.

    ``values`` is a DataFrame, a mapping ``name -> column`` or a 2-D array (cases x
    classifiers, columns named ``"0"``, ``"1"``, ...); with ``one_column``, a 1-D sequence
    is one column of that name. The columns come back as arrays, not yet checked: the
    caller checks their length and values. A scalar or a string raises ``TypeError``, an
    array of another dimension ``ValueError``, each naming the argument and the allowed forms.

    Examples
    --------
    >>> check_columns({"A": [1, 0], "B": [1, 1]}, "correct")[0]
    ['A', 'B']
    >>> check_columns([0.2, 0.9], "scores", one_column="score")[0]
    ['score']
    """
    if isinstance(values, pd.DataFrame):
        return [str(c) for c in values.columns], [values[c].to_numpy() for c in values.columns]
    if isinstance(values, Mapping):
        return [str(k) for k in values], [np.asarray(v) for v in values.values()]
    forms = ("a sequence of numbers, " if one_column is not None else "") + \
        "a 2-D array (cases x classifiers), a mapping name -> column or a DataFrame"
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise TypeError(f"{name} must be {forms}, got {type(values).__name__}")
    arr = np.asarray(values)
    if arr.ndim == 1 and one_column is not None:
        return [one_column], [arr]
    if arr.ndim != 2:
        dims = "one- or two-dimensional" if one_column is not None else "two-dimensional"
        raise ValueError(f"{name} must be {dims} (cases x classifiers), got shape {arr.shape}")
    return [str(j) for j in range(arr.shape[1])], list(arr.T)


def check_score_matrix(scores: Any, n: int | None = None, name: str = "scores") -> tuple[list[str], np.ndarray]:
    """Names and an ``(n, k)`` float64 matrix of finite numbers from one or several score columns.

    ``scores`` is a 1-D sequence (one column, named ``"score"``) or any table that
    :func:`check_columns` reads. ``n`` is the number of cases every column must hold
    (``None``: as many as the first column). Missing, non-numeric, NaN or infinite
    scores, a column of the wrong length and duplicate names raise an error naming the
    column.

    Examples
    --------
    >>> names, mat = check_score_matrix({"A": [0.1, 0.8], "B": [0.4, 0.6]})
    >>> names, mat.shape
    (['A', 'B'], (2, 2))
    """
    names, cols = check_columns(scores, name, one_column="score")
    if not cols:
        raise ValueError(f"{name} must hold at least one score column, got none")
    if len(set(names)) != len(names):
        raise ValueError(f"{name} has duplicate column names: {names}")
    if n is None:
        n = len(np.atleast_1d(cols[0]))
    out = np.empty((n, len(cols)), dtype=np.float64, order="F")  # columns contiguous
    for j, (nm, col) in enumerate(zip(names, cols)):
        col = np.asarray(col)
        if col.dtype == object and pd.isna(col).any():
            raise ValueError(f"{name}[{nm!r}] must not contain NaN or missing scores")
        if col.ndim != 1 or col.shape[0] != n:
            raise ValueError(f"{name}[{nm!r}] must hold one score per case ({n}), got shape {col.shape}")
        try:
            out[:, j] = col
        except (TypeError, ValueError):
            raise TypeError(f"{name}[{nm!r}] must hold numbers") from None
    bad = ~np.isfinite(out)
    if bad.any():
        j = int(np.nonzero(bad.any(axis=0))[0][0])
        raise ValueError(f"{name}[{names[j]!r}] must not contain NaN or infinite scores")
    return names, out


def check_cluster_size(n_items: int, cluster_size: Any) -> np.ndarray:
    """Sizes of the simulated clusters of ``n_items`` items: equal blocks of ``cluster_size`` (the last
    takes the rest), or the sizes as given (a sequence summing to ``n_items``); at least two."""
    if isinstance(cluster_size, (str, bytes)):
        raise TypeError("cluster_size must be a whole number >= 1 or a sequence of cluster sizes")
    if np.isscalar(cluster_size):
        size = check_count(cluster_size, "cluster_size", minimum=1)
        full, rest = divmod(n_items, size)
        sizes = np.array([size] * full + ([rest] if rest else []), dtype=np.int64)
    else:
        sizes = np.array([check_count(s, "cluster_size", minimum=1) for s in cluster_size], dtype=np.int64)
        if sizes.sum() != n_items:
            raise ValueError(f"cluster_size, given as a sequence of sizes, must sum to n_items = {n_items}, "
                             f"got {int(sizes.sum())}")
    if sizes.size < 2:
        raise ValueError(f"n_items = {n_items} in clusters of {int(sizes[0])} make one cluster; the cluster-robust "
                         "intervals need at least 2 (n_items >= 2 * cluster_size)")
    return sizes


def check_item_index(index: pd.Index, name: str) -> None:
    """Refuse an index that names an item twice: a pairing by label needs each label once."""
    dup = index[index.duplicated()].unique()
    if len(dup):
        raise ValueError(
            f"{name} has {len(dup)} item ids that appear more than once in its index (e.g. {dup[0]!r}); "
            "the unit is the item, so give each item one row (average its repeated answers first, "
            "e.g. with .groupby(level=0).mean())")


def align_items(named: Any) -> list[Any]:
    """Put paired inputs in one item order: pandas objects are matched by their index, never by position.

    The one alignment rule of every function that pairs two (or more) inputs item by item
    (case by case): a pandas Series or DataFrame carries its items' labels in its index, so
    a shuffled Series with the same labels is the same data, not a different pairing.

    - The first pandas value is the reference. Every pandas value must name each item once
      (:func:`check_item_index`) and name the same set of items as the reference; it is then
      reordered to the reference's order.
    - Any other value (a list, an array) is positional: it is taken to be in the reference's
      order. That is refused as ambiguous when the pandas values come in different orders
      (which order would it follow?).

    Parameters
    ----------
    named : sequence of (name, value)
        The arguments as the caller calls them (``("a", a)``, ``("b", b)``,
        ``("clusters", clusters)``); ``None`` values are skipped.

    Returns
    -------
    list
        The values in the given order, the pandas ones reordered (still pandas objects).

    Raises
    ------
    ValueError
        Duplicated labels, different label sets (with how many and an example), or a
        positional value beside pandas values in different orders; each names the arguments.

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.Series([1, 0, 1], index=["q1", "q2", "q3"])
    >>> b = pd.Series([0, 1, 1], index=["q3", "q1", "q2"])
    >>> _, b2 = align_items([("a", a), ("b", b)])
    >>> b2.tolist()
    [1, 1, 0]
    """
    named = list(named)
    pandas = [(i, name, value) for i, (name, value) in enumerate(named)
              if isinstance(value, (pd.Series, pd.DataFrame))]
    out = [value for _, value in named]
    if len(pandas) < 2:
        return out
    _, ref_name, ref = pandas[0]
    check_item_index(ref.index, ref_name)
    reordered = []
    for i, name, value in pandas[1:]:
        check_item_index(value.index, name)
        if value.index.equals(ref.index):
            continue
        lacking = ref.index.difference(value.index, sort=False)
        extra = value.index.difference(ref.index, sort=False)
        if len(lacking):
            raise ValueError(f"{name} lacks {len(lacking)} of the {len(ref.index)} items scored by {ref_name} "
                             f"(e.g. {lacking[0]!r}); pandas inputs are paired by their index, so give both the "
                             "same items (or pass .to_numpy() to pair by position)")
        if len(extra):
            raise ValueError(f"{name} scores {len(extra)} items that {ref_name} does not (e.g. {extra[0]!r}); "
                             "pandas inputs are paired by their index, so give both the same items (or pass "
                             ".to_numpy() to pair by position)")
        out[i] = value.reindex(ref.index)
        reordered.append(name)
    if reordered:
        plain = [name for name, value in named if value is not None
                 and not isinstance(value, (pd.Series, pd.DataFrame, str, bytes)) and np.ndim(value) > 0]
        if plain:
            raise ValueError(f"{plain[0]} is a plain sequence, paired by position, but {reordered[0]} lists its items "
                             f"in another order than {ref_name}, so the position of an item is ambiguous; give "
                             f"{plain[0]} as a pandas Series with the items as its index, or put "
                             f"{reordered[0]} in {ref_name}'s order")
    return out


def align_columns(leading: Any, columns: Any, name: str) -> tuple[list[Any], Any]:
    """:func:`align_items` for a table of columns beside the per-case arguments (``y_true``, ...).

    ``columns`` is a mapping ``name -> column`` (each pandas column is aligned on its own,
    named ``name[key]``), or one value aligned as a whole: a DataFrame or Series by its
    index, an array by position (returned as given).

    Parameters
    ----------
    leading : sequence of (name, value)
        The arguments that come before the columns, as :func:`align_items` takes them.
    columns : mapping, DataFrame, Series or array
        The score or prediction columns.
    name : str
        The argument's name in messages (``"scores"``, ``"preds"``).

    Returns
    -------
    tuple
        The leading values (list, pandas ones reordered) and the columns, of the same kind as
        given, reordered to the same item order.

    Raises
    ------
    ValueError
        As :func:`align_items`.

    Examples
    --------
    >>> import pandas as pd
    >>> y = pd.Series([1, 0, 1], index=["q1", "q2", "q3"])
    >>> (y2,), cols = align_columns([("y_true", y)], {"A": pd.Series([0, 1, 1], index=["q3", "q1", "q2"])}, "scores")
    >>> cols["A"].tolist()
    [1, 1, 0]
    """
    leading = list(leading)
    if isinstance(columns, Mapping):
        values = align_items([*leading, *((f"{name}[{key!r}]", value) for key, value in columns.items())])
        return values[:len(leading)], dict(zip(columns, values[len(leading):]))
    *out, columns = align_items([*leading, (name, columns)])
    return out, columns
