"""Result vocabulary shared by the evallib modules.

Every interval result is a frozen dataclass with ``low`` and ``high`` fields; it inherits
:class:`IntervalMixin` for the two things every interval answers the same way.

Result objects that hold arrays follow one rule:

- **They compare by identity.** A result dataclass with a numpy array or a pandas object
  among its fields (directly, or as the values of a ``dict`` field) is declared
  ``@dataclass(frozen=True, eq=False)``: ``r1 == r2`` is ``r1 is r2`` and ``hash(r)`` is
  the object's identity, so neither raises (the generated ``__eq__`` would compare arrays
  element-wise and fail, and the generated ``__hash__`` would hash an array). Result
  dataclasses made of numbers, strings and tuples keep the default comparison by value.
- **Their stored arrays are read-only.** Their ``__post_init__`` calls
  :func:`freeze_arrays`, which stores a read-only copy of every writeable ndarray field (and
  of every writeable ndarray value of a ``dict`` field), so ``r.replicates[0] = 99`` raises
  ``ValueError`` and the caller's own arrays are neither frozen nor shared. An array that is
  already read-only is kept as it is. pandas objects cannot be made read-only; they are
  stored as given.

``tests/test_result_objects.py`` checks the rule on every public result class.

Tables carry what describes them (the level, the multiplicity adjustment, ...) in
``DataFrame.attrs``. A formatter, describer or plotter that needs such metadata reads it
with :func:`table_metadata`, which refuses a table lacking it (a table read back from a
CSV file has no ``attrs``) instead of assuming a default such as ``alpha = 0.05`` or
Holm's adjustment and mislabelling the table. Metadata whose absence only leaves a label
out (an optional title part) may still be read with ``attrs.get``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["IntervalMixin", "freeze_arrays", "table_metadata"]


class IntervalMixin:
    """``width`` and ``contains`` for a result with ``low`` and ``high`` attributes."""

    low: float
    high: float

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    def contains(self, value: float = 0.0) -> bool:
        """Whether ``value`` (by default the null value 0) lies in the closed interval."""
        return self.low <= value <= self.high


def _read_only(value: Any) -> Any:
    """``value`` itself if it is not a writeable ndarray, else a read-only copy of it."""
    if isinstance(value, np.ndarray) and value.flags.writeable:
        value = value.copy()
        value.flags.writeable = False
    return value


def freeze_arrays(result: Any) -> None:
    """Make the ndarray fields of the dataclass instance ``result`` read-only, in place.

    Every field holding a writeable ndarray is replaced by a read-only copy (a copy, so that
    the caller's array, or the array it is a view of, stays writeable, and the result does
    not change when the caller writes into it). A ``dict`` field whose values include
    writeable ndarrays is replaced by a new ``dict`` holding read-only copies of them. Other
    fields, and arrays that are already read-only, are left as they are. Call it from the
    dataclass's ``__post_init__``.

    Parameters
    ----------
    result : dataclass instance
        The result object; it may be frozen (fields are set with ``object.__setattr__``).

    Returns
    -------
    None

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> import numpy as np
    >>> @dataclass(frozen=True, eq=False)
    ... class Draws:
    ...     values: np.ndarray
    ...     def __post_init__(self):
    ...         freeze_arrays(self)
    >>> mine = np.arange(3.0)
    >>> r = Draws(mine)
    >>> r.values.flags.writeable, mine.flags.writeable
    (False, True)
    >>> r.values[0] = 99.0
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    """
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, dict):
            if any(isinstance(v, np.ndarray) and v.flags.writeable for v in value.values()):
                object.__setattr__(result, f.name, {k: _read_only(v) for k, v in value.items()})
        elif isinstance(value, np.ndarray) and value.flags.writeable:
            object.__setattr__(result, f.name, _read_only(value))


def table_metadata(table: Any, *keys: str, made_by: str) -> Any:
    """The values of ``keys`` in ``table.attrs``, refusing a table that lacks any of them.

    Parameters
    ----------
    table : pandas.DataFrame
        A table returned by an evallib function, which stores its metadata in ``attrs``.
    *keys : str
        The metadata the caller needs.
    made_by : str
        The function(s) whose tables carry it, named in the error message
        (e.g. ``"pairwise_table or compare_pairwise"``).

    Returns
    -------
    object or tuple
        ``table.attrs[key]`` for one key; a tuple of the values, in the order of
        ``keys``, for several.

    Raises
    ------
    TypeError
        If ``table`` is not a DataFrame.
    ValueError
        If a key is missing from ``table.attrs``: the message names the missing keys,
        why a table loses them and how to get a table that has them.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"p": [0.01]})
    >>> t.attrs["adjust"] = "bh"
    >>> table_metadata(t, "adjust", made_by="pairwise_table")
    'bh'
    >>> table_metadata(pd.DataFrame({"p": [0.01]}), "adjust", "alpha", made_by="pairwise_table")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: this table has no 'adjust', 'alpha' in .attrs (a table read back from CSV, ...
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"table must be a pandas DataFrame from {made_by}, got {type(table).__name__}")
    missing = [k for k in keys if k not in table.attrs]
    if missing:
        raise ValueError(
            f"this table has no {', '.join(map(repr, missing))} in .attrs (a table read back from CSV, or "
            f"rebuilt by pandas operations that drop .attrs, loses them); pass the table {made_by} returned, "
            f"or set {', '.join(f'table.attrs[{k!r}]' for k in missing)} yourself")
    values = tuple(table.attrs[k] for k in keys)
    return values[0] if len(values) == 1 else values
