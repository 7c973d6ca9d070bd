"""Argument checks shared by the evallib modules.

Every check raises ``TypeError`` (wrong kind of value) or ``ValueError`` (right kind,
outside the allowed range) with a message that names the argument and what is allowed,
so that a student sees one plain sentence instead of a numpy traceback or a silent NaN.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["check_count", "check_alpha", "check_labels", "check_choice"]


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


def _has_nan(arr: np.ndarray) -> bool:
    if arr.dtype.kind in "fc":
        return bool(np.isnan(arr).any())
    if arr.dtype.kind == "O":
        return any(v is None or (isinstance(v, float) and np.isnan(v)) for v in arr)
    return False


def check_labels(values: Any, name: str) -> np.ndarray:
    """Return a one-dimensional label array, rejecting NaN/None, empty and 2-D input."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a one-dimensional sequence of labels, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must contain at least one label, got an empty sequence")
    if _has_nan(arr):
        raise ValueError(f"{name} contains NaN or None; every test case needs a label")
    return arr
