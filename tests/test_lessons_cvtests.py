"""Notebook 05's explorer controls (evallib.lessons._cvtests.rejection_study_controls).

The notebook's widget cell builds its drop-down and α slider from these keyword arguments, so
the checks build the same ipywidgets here: every range must hold the run's parameters (ipywidgets
clamps a value outside ``[min, max]``, shown first below), the level must lie on the slider's grid
and read out exactly, and the drop-down must offer the run's setting first and every setting the
sweeps simulated once. The references are the sweeps' own definitions and ipywidgets' behaviour.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from evallib import rejection_sweep
from evallib.lessons import rejection_study_controls

widgets = pytest.importorskip("ipywidgets")


def _build(spec):
    return (widgets.Dropdown(**spec["setting"], description="simulated setting"),
            widgets.FloatSlider(**spec["alpha"], description="α (level)", continuous_update=False))


def test_ipywidgets_clamps_a_value_outside_the_range_so_the_range_must_hold_it():
    """What the checks below guard against: the notebook's former fixed range (max 0.2) would open at 0.2 for 0.25."""
    assert widgets.FloatSlider(value=0.25, min=0.01, max=0.2, step=0.01).value == 0.2


@pytest.mark.parametrize("n_samples, folds, repeats, alpha", [
    (100, 10, 10, 0.05),       # the lesson's defaults
    (440, 4, 21, 0.25),        # settings and a level outside the usual ranges
    (40, 5, 2, 0.005),         # a level below the usual minimum
    (100, 10, 10, 0.025),      # a level between two steps of the usual grid
    (60, 3, 1, 0.0125),        # one needing four decimals
    (100, 10, 10, 0.9),
])
def test_the_controls_open_at_the_runs_parameters(n_samples, folds, repeats, alpha):
    spec = rejection_study_controls(None, n_samples=n_samples, folds=folds, repeats=repeats, alpha=alpha)
    setting, level = _build(spec)
    assert setting.value == (n_samples, folds, repeats)
    assert setting.options[0] == (f"{n_samples} cases, {repeats} × {folds}-fold (default)", (n_samples, folds, repeats))
    assert level.value == alpha
    assert level.min <= min(0.01, alpha) and level.max >= max(0.2, alpha) and level.min > 0
    assert level.step == 0.01
    steps = (alpha - level.min) / level.step
    assert steps == pytest.approx(round(steps), abs=1e-9), (alpha, level.min)       # alpha is on the grid
    assert (level.max - level.min) / level.step == pytest.approx(round((level.max - level.min) / level.step))
    assert float(format(alpha, level.readout_format)) == alpha                        # and reads out exactly
    assert float(format(level.min, level.readout_format)) == level.min


def test_the_lessons_default_level_keeps_the_usual_slider():
    spec = rejection_study_controls(None, n_samples=100, folds=10, repeats=10, alpha=0.05)["alpha"]
    assert spec == dict(value=0.05, min=0.01, max=0.2, step=0.01, readout_format=".2f")


def test_the_drop_down_offers_the_runs_setting_then_each_swept_setting_once():
    """The notebook's three sweeps as rows (a rejection_sweep row per value, level and test): each other
    value gives the run's setting with that one changed; the run's own value is not offered twice."""
    run = dict(n_samples=100, folds=10, repeats=10)
    sweeps = {"repeats": [1, 2, 3, 5, 10, 20], "folds": [2, 5, 10, 20], "n_samples": [40, 100, 400]}
    rows = pd.DataFrame([(p, v, a, t) for p, values in sweeps.items() for v in values
                         for a in (0.05, 0.1) for t in ("naive", "corrected")],
                        columns=["parameter", "value", "alpha", "test"])
    spec = rejection_study_controls(rows, alpha=0.05, **run)
    expected = [(100, 10, 10)] + [tuple((run | {p: v})[k] for k in ("n_samples", "folds", "repeats"))
                                  for p, values in sweeps.items() for v in values if v != run[p]]
    assert [setting for _, setting in spec["setting"]["options"]] == expected
    assert len(expected) == 1 + 5 + 3 + 2
    labels = [label for label, _ in spec["setting"]["options"]]
    assert labels[0] == "100 cases, 10 × 10-fold (default)" and labels[1] == "100 cases, 1 × 10-fold"
    assert sum("(default)" in label for label in labels) == 1
    assert _build(spec)[0].value == (100, 10, 10)


def test_a_real_sweep_frame_is_read_as_the_notebook_reads_it():
    """rejection_sweep's own frame (several levels and four tests per value, numpy integers)."""
    frame = pd.concat([
        rejection_sweep("repeats", [1, 2], n_samples=40, folds=5, repeats=2, alphas=[0.05, 0.1], n_datasets=3, rng=0),
        rejection_sweep("n_samples", [60], n_samples=40, folds=5, repeats=2, alphas=[0.05, 0.1], n_datasets=3, rng=0),
    ])
    spec = rejection_study_controls(frame, n_samples=40, folds=5, repeats=2, alpha=0.1)
    assert [setting for _, setting in spec["setting"]["options"]] == [(40, 5, 2), (40, 5, 1), (60, 5, 2)]
    assert all(type(x) is int for _, setting in spec["setting"]["options"] for x in setting)


@pytest.mark.parametrize("kwargs, exc, words", [
    (dict(sweeps=[("repeats", 1)]), TypeError, "sweeps must be a DataFrame"),
    (dict(sweeps=pd.DataFrame({"parameter": ["repeats"]})), TypeError, "parameter and value"),
    (dict(sweeps=pd.DataFrame({"parameter": ["alpha"], "value": [1]})), ValueError, "n_samples, folds, repeats"),
    (dict(sweeps=pd.DataFrame({"parameter": ["folds"], "value": [0]})), ValueError, "folds"),
    (dict(sweeps=pd.DataFrame({"parameter": ["folds"], "value": [2.5]})), ValueError, "folds"),
    (dict(folds=0), ValueError, "folds must be a whole number >= 1"),
    (dict(repeats=2.5), ValueError, "repeats"),
    (dict(alpha=0.0), ValueError, "alpha must lie in the open interval (0, 1)"),
    (dict(alpha=1.5), ValueError, "alpha"),
    (dict(alpha="0.05"), TypeError, "alpha"),
])
def test_bad_input_names_the_argument(kwargs, exc, words):
    args = dict(sweeps=None, n_samples=100, folds=10, repeats=10, alpha=0.05) | kwargs
    with pytest.raises(exc, match=words.replace("(", r"\(").replace(")", r"\)")):
        rejection_study_controls(args.pop("sweeps"), **args)


def test_any_level_gets_a_grid_through_it():
    """A sweep of levels: each lies on its slider's grid, which starts in (0, 0.01] and reaches 0.2."""
    for alpha in [i / 1000 for i in range(1, 1000, 7)]:
        spec = rejection_study_controls(None, n_samples=100, folds=10, repeats=10, alpha=alpha)["alpha"]
        assert 0 < spec["min"] <= 0.01 + 1e-12 and spec["max"] >= max(0.2, alpha), (alpha, spec)
        k = (alpha - spec["min"]) / spec["step"]
        assert math.isclose(k, round(k), abs_tol=1e-9), (alpha, spec)
