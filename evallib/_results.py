"""Result vocabulary shared by the evallib modules.

Every interval result is a frozen dataclass with ``low`` and ``high`` fields; it inherits
:class:`IntervalMixin` for the two things every interval answers the same way.
"""

from __future__ import annotations

__all__ = ["IntervalMixin"]


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
