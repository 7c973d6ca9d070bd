"""Notebook 00 (start here) as a reader, papermill and a reader's sliders meet it.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py and tests/test_readable.py check its house style. Here: the saved
key outputs, a papermill run with other parameters, the exercises' solutions, and a live
kernel in which the sliders are moved.
"""

from __future__ import annotations

import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text, run_papermill, run_with_probe

NOTEBOOK = NOTEBOOK_DIR / "00_start_here.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_notebook_00_is_saved_with_the_running_example():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    # scikit-learn's breast-cancer data, 40% stratified test split (seed 0): 228 cases
    assert "test set: 228 cases" in joined
    assert "A wrong, B right: b = 11;  A right, B wrong: c = 4" in joined
    # exact McNemar p for b = 11, c = 4: 2 P(Binomial(15, 1/2) <= 4) = 0.1185
    assert "p = 0.1185" in joined
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    for design in ("one test set, paired per case", "resampling on one data set", "many data sets"):
        assert design in md
    for nb_name in ("01_berrar_lozano", "02_forman_cohen", "03_bizarre_measures", "04_flach_experiments",
                    "05_cv_ttests", "06_planning", "07_many_datasets"):
        assert nb_name in md
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 3


def test_notebook_00_example_of_interval_and_test_disagreeing():
    """Section 2c's example: b = 9, c = 2, n = 100, Bonett-Price written out and scipy's binomial test."""
    import math

    from scipy import stats

    md = "\n".join(_src(c) for c in load_notebook(NOTEBOOK)["cells"] if c["cell_type"] == "markdown")
    p12, p21, z = 10 / 102, 3 / 102, stats.norm.isf(0.025)
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 102)
    low, high = p12 - p21 - half, p12 - p21 + half
    p = stats.binomtest(2, 11, 0.5).pvalue
    assert low > 0 and p > 0.05       # the interval excludes 0, the exact test does not reject
    assert f"[{low:+.3f}, {high:+.3f}], just excludes 0, while the exact test gives p = {p:.3f}" in md


def test_notebook_00_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    assert _src(exercises).count("## Exercises") == 1 and "(Conceptual)" in _src(exercises)
    assert "solutions" in solutions["metadata"].get("tags", [])
    assert _src(solutions).startswith("if show_solutions:") and not solutions.get("outputs")


@pytest.mark.slow
def test_notebook_00_runs_with_other_parameters_and_its_solutions_check_out(tmp_path):
    params = dict(seed=3, test_size=0.25, alpha=0.1, power=0.9, show_solutions=True)
    nb = run_papermill(NOTEBOOK, tmp_path / "00_out.ipynb", params)
    injected = injected_cells(nb)
    assert injected and "test_size = 0.25" in "".join(injected[0]["source"])
    joined = outputs_text(nb)
    assert "test set: 143 cases" in joined
    assert "90% interval for err_A - err_B" in joined
    assert "at alpha = 0.1 it" in joined
    assert "with 90% power" in joined
    assert "solutions ok" in joined


@pytest.mark.slow
def test_notebook_00_sliders_drive_the_plan():
    """Move each slider in a live kernel: each move must redraw with the new value.

    The callback is evallib's ``plot_interval_and_power`` itself; what it drew is read
    back from the titles and texts matplotlib was given.
    """
    probe = '''
import matplotlib.axes
drawn = []
_title, _text = matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text
matplotlib.axes.Axes.set_title = lambda self, label, *a, **k: (drawn.append(label), _title(self, label, *a, **k))[1]
matplotlib.axes.Axes.text = lambda self, x, y, s, *a, **k: (drawn.append(s), _text(self, x, y, s, *a, **k))[1]
controls["difference"].value = 0.05
controls["discordance"].value = 0.2
controls["n"].value = 500
controls["discordance"].value = 0.04
matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text = _title, _text
lines = [d.splitlines()[0] for d in drawn]
assert lines[:3] == ["difference +0.050, disagreement 0.07, n = 228:",
                     "difference +0.050, disagreement 0.20, n = 228:",
                     "difference +0.050, disagreement 0.20, n = 500:"], drawn
assert drawn[3].startswith("no such pair of classifiers"), drawn
print("sliders ok")
'''
    out = run_with_probe(NOTEBOOK, probe)
    assert any("sliders ok" in o.get("text", "") for o in out), out
