"""Notebook 07 (many data sets, post-hoc p-values, Bayesian tests) as saved and as papermill runs it.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py checks its house style. Here: the key numbers in the saved
outputs, a papermill run with other parameters, the exercises' solutions, and the
sliders moved in a live kernel.
"""

from __future__ import annotations

import re

import pytest
from _nbtools import (
    NOTEBOOK_DIR,
    injected_cells,
    load_notebook,
    outputs_text,
    run_papermill,
    run_with_probe,
    widget_views,
)

NOTEBOOK = NOTEBOOK_DIR / "07_many_datasets.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_notebook_07_is_saved_with_its_key_outputs():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    assert "9.28" in joined and "3.69" in joined and "10.23" in joined and "4.19" in joined
    assert "sign test (normal): 11 wins of 14, p = 0.0325, rejects at 0.05" in joined
    assert "sign test (exact): 11 wins of 14, p = 0.0574, does not reject at 0.05" in joined
    assert "frequentist reading: Wilcoxon signed-rank p = " in joined
    assert "corrected t-test (notebook 05)" in joined
    assert not widget_views(nb), "strip widget views"
    assert "widgets" not in nb["metadata"]
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 5 and not any("NBVAL_CHECK_OUTPUT" in _src(c) for c in nb["cells"])


def test_notebook_07_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    assert _src(exercises).startswith("## Exercises")
    assert 2 <= len(re.findall(r"^\d+\. ", _src(exercises), flags=re.M)) <= 4
    assert "conceptual" in _src(exercises).lower()
    assert "solutions" in solutions["metadata"].get("tags", []) and _src(solutions).startswith("if show_solutions:")
    assert "solutions ok" not in outputs_text(nb) and not solutions.get("outputs")


@pytest.mark.slow
def test_notebook_07_runs_with_other_parameters_and_solutions(tmp_path):
    params = dict(seed=1, alpha=0.1, rope=0.02, n_samples=3000, show_solutions=True,
                  pair=["naive Bayes", "5-NN"])
    nb = run_papermill(NOTEBOOK, tmp_path / "07_out.ipynb", params)
    injected = injected_cells(nb)
    assert injected and "rope = 0.02" in _src(injected[0])
    joined = outputs_text(nb)
    assert "naive Bayes vs 5-NN, ROPE ±0.02, 3,000 posterior samples:" in joined
    markdown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                       for o in c.get("outputs", []))
    assert "All pairs: at alpha = 0.1 " in markdown and "Against C4.5: at alpha = 0.1 " in markdown
    assert "90% credible interval" in joined
    assert "solutions ok" in joined


@pytest.mark.slow
def test_notebook_07_sliders_redraw_with_evallib_callbacks():
    probe = '''
import evallib
calls = []
_plot = plot_bayesian_signed_rank
def plot_bayesian_signed_rank(*args, **kwargs):
    calls.append(kwargs["rope"])
    return _plot(*args, **kwargs)
_posthoc = plot_posthoc
def plot_posthoc(*args, **kwargs):
    calls.append((kwargs["method"], kwargs["alpha"]))
    return _posthoc(*args, **kwargs)
controls["rope"].value = 0.02
controls["method"].value = "bergmann"
controls["alpha"].value = 0.1
assert calls == [0.02, ("bergmann", 0.05), ("bergmann", 0.1)], calls
print("sliders ok")
'''
    out = run_with_probe(NOTEBOOK, probe, parameters=dict(n_samples=2000))
    assert any("sliders ok" in o.get("text", "") for o in out), out
