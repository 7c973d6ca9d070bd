"""Notebook 05's explorer: what the controls of the rejection-rate study offer.

The statistics are :func:`evallib.rejection_study` and :func:`evallib.rejection_sweep`; this
module only computes the explorer's controls from the run's parameters, so that what the widget
cell shows is a tested function of them (the widgets themselves are made in the notebook):

- :func:`rejection_study_controls` -- the settings of the drop-down (the run's own first, then
  each other setting of the sweeps once) and the range of the α slider, which always holds the
  run's level on its grid: ipywidgets clamps a value outside ``[min, max]``, and a value between
  two steps is shown rounded, so a range that missed the run's level would open the explorer at
  another level than the one it computed.
"""

from __future__ import annotations

import math
from typing import Any

from .._validate import check_alpha, check_count

__all__ = ["rejection_study_controls"]

#: the settings of the study a sweep may vary, in the order of a setting tuple.
_SETTING = ("n_samples", "folds", "repeats")
#: the α slider: its step, and the range it spans at least (widened to hold the run's level).
_ALPHA_STEP, _ALPHA_LOW, _ALPHA_HIGH = 0.01, 0.01, 0.2


def _alpha_range(alpha: float) -> dict[str, Any]:
    """``value``, ``min``, ``max``, ``step`` and ``readout_format`` of a FloatSlider for ``alpha``."""
    step = _ALPHA_STEP
    # the grid min + k * step goes through alpha and starts at or below _ALPHA_LOW, above 0
    below = max(0, math.ceil(round((alpha - _ALPHA_LOW) / step, 9)))
    low = round(alpha - below * step, 12)
    above = math.ceil(round((max(_ALPHA_HIGH, alpha) - low) / step, 9))
    high = round(low + above * step, 12)
    decimals = next((d for d in range(2, 13) if round(alpha, d) == alpha and round(low, d) == low), 12)
    return dict(value=alpha, min=low, max=high, step=step, readout_format=f".{decimals}f")


def rejection_study_controls(sweeps: Any, *, n_samples: int, folds: int, repeats: int,
                             alpha: float) -> dict[str, dict[str, Any]]:
    """The controls of notebook 05's rejection-rate explorer, computed from the run's parameters.

    The explorer shows :func:`evallib.rejection_study` at one simulated setting ``(n_samples,
    folds, repeats)`` and one level. Its drop-down offers the run's own setting first (labelled
    "(default)": the setting of the parameters cell) and then each setting the sweeps simulated
    (one of ``n_samples``, ``folds``, ``repeats`` changed, the others the run's), each once, in
    the sweeps' order; its α slider opens at the run's ``alpha``, on a grid of steps of 0.01 that
    spans at least 0.01 to 0.2 and goes through ``alpha`` (so a level such as 0.025 or 0.25 is
    neither clamped nor shown rounded).

    Parameters
    ----------
    sweeps : pandas.DataFrame or None
        Rows of :func:`evallib.rejection_sweep` (its columns ``parameter`` and ``value`` are read),
        for example several sweeps concatenated; ``None`` offers the run's setting only.
    n_samples, folds, repeats : int
        The run's setting (whole numbers >= 1).
    alpha : float
        The run's level, in (0, 1).

    Returns
    -------
    dict
        ``{"setting": ..., "alpha": ...}``: keyword arguments of ``ipywidgets.Dropdown``
        (``options``, a list of ``(label, (n_samples, folds, repeats))``, and ``value``, the
        run's setting) and of ``ipywidgets.FloatSlider`` (``value``, ``min``, ``max``, ``step``,
        ``readout_format``: as many decimals as ``alpha`` and the grid need, at least 2).

    Raises
    ------
    TypeError
        ``sweeps`` is not a DataFrame with the columns ``parameter`` and ``value`` (or None).
    ValueError
        A sweep's ``parameter`` is not one of ``n_samples``, ``folds``, ``repeats``; a setting that
        is not a whole number >= 1; ``alpha`` outside (0, 1).

    Examples
    --------
    >>> import pandas as pd
    >>> sweeps = pd.DataFrame({"parameter": ["repeats", "repeats", "folds"], "value": [1, 10, 5]})
    >>> spec = rejection_study_controls(sweeps, n_samples=100, folds=10, repeats=10, alpha=0.05)
    >>> [label for label, setting in spec["setting"]["options"]]
    ['100 cases, 10 × 10-fold (default)', '100 cases, 1 × 10-fold', '100 cases, 10 × 5-fold']
    >>> spec["alpha"]
    {'value': 0.05, 'min': 0.01, 'max': 0.2, 'step': 0.01, 'readout_format': '.2f'}
    >>> rejection_study_controls(None, n_samples=100, folds=10, repeats=10, alpha=0.025)["alpha"]
    {'value': 0.025, 'min': 0.005, 'max': 0.205, 'step': 0.01, 'readout_format': '.3f'}
    """
    import pandas as pd

    run = dict(n_samples=check_count(n_samples, "n_samples", minimum=1), folds=check_count(folds, "folds", minimum=1),
               repeats=check_count(repeats, "repeats", minimum=1))
    alpha = check_alpha(alpha)
    rows: list[tuple[str, Any]] = []
    if sweeps is not None:
        if not isinstance(sweeps, pd.DataFrame) or not {"parameter", "value"} <= set(sweeps.columns):
            raise TypeError("sweeps must be a DataFrame of rejection_sweep (with the columns parameter and value) "
                            f"or None, got {type(sweeps).__name__}")
        rows = list(sweeps[["parameter", "value"]].itertuples(index=False, name=None))
    settings = [tuple(run[name] for name in _SETTING)]
    for parameter, value in rows:
        if parameter not in _SETTING:
            raise ValueError(f"sweeps' parameter must be one of {', '.join(_SETTING)}, got {parameter!r}")
        changed = run | {parameter: check_count(value, f"sweeps' value of {parameter}", minimum=1)}
        setting = tuple(changed[name] for name in _SETTING)
        if setting not in settings:
            settings.append(setting)
    options = [(f"{n} cases, {r} × {k}-fold" + (" (default)" if i == 0 else ""), (n, k, r))
               for i, (n, k, r) in enumerate(settings)]
    return {"setting": dict(options=options, value=settings[0]), "alpha": _alpha_range(alpha)}
