"""Private checks shared by the power calculations: ``evallib.planning`` and the lessons' planning sliders."""

from __future__ import annotations

from typing import Any

from ._compat import MID_P, renamed_choice
from ._validate import check_choice, check_real

__all__ = []


def _check_power(power: Any) -> float:
    return check_real(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)


#: the McNemar tests whose power the planning sentences and plots can show, with their names.
_TEST_NAMES = {"exact": "exact", "mid-p": "mid-p"}


def _check_test(test: Any) -> str:
    return check_choice(renamed_choice(test, "test", MID_P, stacklevel=5), "test", tuple(_TEST_NAMES))
