"""Notebook 03 (Keller, Bengio & Wong) under papermill and with its sliders in a live kernel.

nbval runs the notebook itself with its defaults (its ``# NBVAL_CHECK_OUTPUT`` cells);
the house style is checked by tests/test_notebooks.py.
"""

from __future__ import annotations

import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text, run_papermill, run_with_probe

NOTEBOOK = NOTEBOOK_DIR / "03_bizarre_measures.ipynb"

# Small sizes so that the notebook runs in seconds under the tests.
SMALL = dict(n_true=20_000, n_pool=6000, n_test=3000, reps=2000, n_subsamples=300,
             test_sizes=[400, 1500], repetitions=8, cal_reps=500)


def test_notebook_closing_note_reports_the_calibration_in_numbers():
    nb = load_notebook(NOTEBOOK)
    # the closing note comes just before the exercises (tests/test_exercises.py checks those)
    closing = next("".join(c["source"]) for c in nb["cells"]
                   if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("## What to take away"))
    assert "over-confident by 21 to 26 percentage points" in closing
    assert "%" in closing and "7,909" in closing


@pytest.mark.slow
def test_bizarre_notebook_runs_with_other_parameters(tmp_path):
    params = dict(SMALL, seed=2, label_noise=0.05, prior_pos=0.3, cost_fn=5.0, dcf_prior=0.2)
    nb = run_papermill(NOTEBOOK, tmp_path / "03_out.ipynb", params)
    injected = injected_cells(nb)
    assert injected and "cost_fn = 5.0" in "".join(injected[0]["source"])
    text = outputs_text(nb)
    assert "Dte = 3,000, Dtrue = 20,000, 2,000 replicates, 300 subsamples" in text
    assert "Cost(fn) = 5.0, Cost(fp) = 1.0, P(p) = 0.2" in text
    # the calibration table has the requested sizes and repetitions
    assert "      X        400" in text and "      Z       1500" in text
    assert "          8" in text


@pytest.mark.slow
def test_bizarre_sliders_drive_the_experiment():
    """Move each slider in a live kernel: it must re-run what it drives, with its value.

    The population sliders' positions must all be points of the precomputed grid
    (:data:`evallib.textsim.GRID_PRIORS`, :data:`evallib.textsim.GRID_NOISES`), so that
    at the default sizes every move reads ``data/textsim_grid.npz``.

    The callbacks look up ``build_experiment``, ``run_setting`` and ``dcf_comparison`` in
    the notebook's namespace when they run, so wrapping those names records every call.
    """
    probe = '''
calls = []
_build, _run, _dcf = build_experiment, run_setting, dcf_comparison
def build_experiment(*args, **kwargs):
    calls.append(("build", args, kwargs))
    return _build(*args, **kwargs)
def run_setting(*args, **kwargs):
    calls.append(("run", args, kwargs))
    return _run(*args, **kwargs)
def dcf_comparison(*args, **kwargs):
    calls.append(("dcf", args, kwargs))
    return _dcf(*args, **kwargs)
controls["n_test"].value = 1000
controls["reps"].value = 1500
controls["label_noise"].value = 0.05
controls["prior_pos"].value = 0.3
controls["setting"].value = "Z"
dcf_controls["cost_fn"].value = 4.0
dcf_controls["dcf_prior"].value = 0.2
kinds = [c[0] for c in calls]
assert kinds == ["build", "run"] * 5 + ["build", "dcf"] * 2, kinds
assert calls[1][2]["n_test"] == 1000
assert calls[3][2]["reps"] == 1500
assert calls[4][2]["label_noise"] == 0.05
assert calls[6][2]["prior_pos"] == 0.3
assert calls[8][1][0] == "Z"
assert calls[11][2]["cost_fn"] == 4.0 and calls[11][2]["n_test"] == 1000
assert calls[13][2]["prior_pos"] == 0.2
# the noise slider really retrained: a different experiment from the default one
assert _build("Z", prior_pos=0.3, label_noise=0.05, n_train=n_train, n_pool=n_pool, n_true=n_true,
              rng=seed) is not experiments["Z"]
# every position of the two population sliders is a point of the precomputed grid
from evallib.textsim import GRID_NOISES, GRID_PRIORS
noise = controls["label_noise"]
assert [v for _, v in noise.options] == list(GRID_NOISES), noise.options
assert [lab for lab, _ in noise.options][:3] == ["0%", "1%", "2%"]
prior = controls["prior_pos"]
positions = [prior.min + k * prior.step for k in range(round((prior.max - prior.min) / prior.step) + 1)]
assert len(positions) == len(GRID_PRIORS)
assert all(abs(p - g) <= 1e-9 for p, g in zip(positions, GRID_PRIORS)), positions
assert not noise.continuous_update and not prior.continuous_update
print("sliders ok")
'''
    out = run_with_probe(NOTEBOOK, probe, parameters=SMALL)
    assert any("sliders ok" in o.get("text", "") for o in out), out


@pytest.mark.slow
def test_bizarre_population_sliders_read_the_grid_at_default_sizes():
    """At the notebook's default sizes every move of the prior and noise sliders is a
    lookup in data/textsim_grid.npz: computing is forbidden in the kernel after the run
    (the teaching cells built their experiments live, with precomputed=False)."""
    probe = '''
import evallib.textsim as _ts
from evallib.textsim import GRID_SIZES
assert dict(n_train=n_train, n_pool=n_pool, n_true=n_true, seed=seed) == GRID_SIZES
def _refuse(*args):
    raise AssertionError(f"computed {args[:3]} instead of reading the grid")
_ts._compute = _refuse
seen = []
_build = build_experiment
def build_experiment(*args, **kwargs):
    exp = _build(*args, **kwargs)
    seen.append((args[0], exp.population.prior_pos, exp.population.label_noise))
    return exp
controls["prior_pos"].value = controls["prior_pos"].min + 2 * controls["prior_pos"].step   # 0.15000000000000002
controls["label_noise"].value = 0.2
controls["setting"].value = "X"
dcf_controls["cost_fn"].value = 3.0
assert seen == [("Y", 0.15, 0.02), ("Y", 0.15, 0.2), ("X", 0.15, 0.2), ("X", 0.15, 0.2)], seen
print("grid ok")
'''
    out = run_with_probe(NOTEBOOK, probe)
    assert any("grid ok" in o.get("text", "") for o in out), out
