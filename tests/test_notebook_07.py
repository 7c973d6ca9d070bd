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


def test_notebook_07_shows_the_post_hoc_diagram_without_a_kernel():
    """The procedure/alpha controls redraw a diagram that the saved notebook (and its HTML) already shows."""
    nb = load_notebook(NOTEBOOK)
    cell = next(c for c in nb["cells"] if "live_output(show_posthoc" in _src(c))
    kinds = [k for o in cell.get("outputs", []) for k in o.get("data", {})]
    assert "image/png" in kinds, "the default run's CD diagram must be saved as a static figure"
    assert "C4.5+m+cf    C4.5 2.4154  0.0157      0.0943   False" in outputs_text({"cells": [cell]})


def test_notebook_07_post_hoc_prose_numbers_hold():
    """Section 3 quotes Nemenyi against the step-down procedures on Demšar's ranks; recompute them."""
    import math

    import numpy as np
    from scipy import stats

    from evallib import posthoc_friedman
    from evallib.studies import demsar_table_6

    nb = load_notebook(NOTEBOOK)
    prose = next(_src(c) for c in nb["cells"] if _src(c).startswith("## 3. Which pairs differ?"))
    ranks = demsar_table_6(ranks=True)
    n, k = ranks.shape
    se = math.sqrt(k * (k + 1) / (6 * n))
    avg = ranks.mean()

    def nemenyi(a, b):  # scipy's studentized range, independent of evallib
        return stats.studentized_range.sf(math.sqrt(2) * abs(avg[a] - avg[b]) / se, k, np.inf)

    def apv(method, a, b):
        res = posthoc_friedman(ranks, adjust=method, higher_is_better=False)
        return float(res[(res["a"] == a) & (res["b"] == b)]["pvalue_adj"].iloc[0])

    assert f"{nemenyi('C4.5+m+cf', 'C4.5'):.3f}" == "0.074" and "C4.5+m+cf: 0.074" in prose
    for m in ("holm", "shaffer", "bergmann"):
        assert f"{apv(m, 'C4.5+m+cf', 'C4.5'):.3f}" == "0.094"
    assert "0.094 for Holm, Shaffer and" in prose
    assert f"{apv('bergmann', 'C4.5+m+cf', 'C4.5+cf'):.3f}" == "0.171"
    assert f"{nemenyi('C4.5+m+cf', 'C4.5+cf'):.3f}" == "0.227"
    assert "0.171 by" in prose and "0.227 by Nemenyi" in prose


def test_notebook_07_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    assert _src(exercises).startswith("## Exercises")
    assert 2 <= len(re.findall(r"^\d+\. ", _src(exercises), flags=re.M)) <= 4
    text = _src(exercises).lower()
    assert sum(text.count(f"({w})") for w in ("predict", "explain", "decide")) >= 3
    assert solutions["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert "solutions" in solutions["metadata"].get("tags", []) and _src(solutions).startswith("if show_solutions:")
    assert "solutions ok" not in outputs_text(nb) and not solutions.get("outputs")


@pytest.mark.slow
def test_notebook_07_runs_with_other_parameters_and_solutions(notebook_runs):
    params = dict(seed=1, alpha=0.1, rope=0.02, n_samples=3000, show_solutions=True,
                  pair=["naive Bayes", "5-NN"])
    nb = notebook_runs.executed(NOTEBOOK, params)
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
def test_notebook_07_sliders_redraw_with_evallib_callbacks(notebook_runs):
    probe = '''
import evallib
calls = []
_bsr = bayesian_signed_rank
def bayesian_signed_rank(*args, **kwargs):
    calls.append(kwargs["rope"])
    return _bsr(*args, **kwargs)
_posthoc = posthoc_view
def posthoc_view(*args, **kwargs):
    calls.append((kwargs["adjust"], kwargs["alpha"]))
    return _posthoc(*args, **kwargs)
controls["rope"].value = 0.02
controls["method"].value = "bergmann"
controls["alpha"].value = 0.1
assert calls == [0.02, ("bergmann", 0.05), ("bergmann", 0.1)], calls
assert ax_sr.get_title().startswith("ROPE ±0.02: share of posterior samples"), ax_sr.get_title()
controls["rope"].value = 0.02 + 0.0025
controls["rope"].value = 0.02          # back to a cached ROPE: no new posterior
assert calls.count(0.02) == 1, calls
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(n_samples=2000))
    assert any("sliders ok" in o.get("text", "") for o in out), out


@pytest.mark.slow
def test_notebook_07_controls_open_at_papermill_values_outside_their_usual_ranges(notebook_runs):
    """An alpha below the slider's usual 0.01 (or a ROPE above 0.05) must not be clamped.

    ipywidgets clamps a FloatSlider's value into [min, max]; before the fix the alpha
    slider opened at 0.01 when papermill set alpha = 0.005, so the live diagram showed
    another level than the run's.
    """
    probe = '''
print("opened at", controls["alpha"].value, controls["rope"].value)
assert controls["alpha"].value == alpha == 0.005, controls["alpha"].value
assert controls["rope"].value == rope == 0.08, controls["rope"].value
print("controls ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(alpha=0.005, rope=0.08, n_samples=2000))
    assert any("controls ok" in o.get("text", "") for o in out), out


def test_notebook_07_sources_and_posterior_labels():
    """The caveat on dependent data sets is computed, and the Bayesian numbers carry their right names."""
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    assert "data sets cut from one source (not independent): " in joined
    assert "digits: digits, digits 1/7, digits 3/8, digits 4/9" in joined
    assert "one data set per source (5: " in joined
    assert "P(practically equivalent)" not in joined
    assert "most probable in (share of samples)" in joined and "posterior mean of theta" in joined
    assert "the posterior probability that the next data set's mean difference lies in the ROPE" in joined


def test_friedman_statistic_of_demsar_by_his_eq_3():
    """Formerly exercise 1: eq. (3) from the printed average ranks gives 9.28; scipy gives the tie-corrected 10.23."""
    import numpy as np
    from scipy import stats

    from evallib import friedman
    from evallib.studies import demsar_table_6

    ranks = demsar_table_6(ranks=True)
    n, k = ranks.shape
    r = ranks.mean().to_numpy()
    chi2 = 12 * n / (k * (k + 1)) * ((r ** 2).sum() - k * (k + 1) ** 2 / 4)
    assert round(chi2, 2) == 9.28
    assert friedman(ranks, higher_is_better=False, tie_correction=False).statistic == pytest.approx(chi2)
    ref = stats.friedmanchisquare(*ranks.to_numpy().T).statistic
    assert round(ref, 2) == 10.23 and friedman(ranks, higher_is_better=False).statistic == pytest.approx(ref)
    assert np.isfinite(ref)


def test_notebook_07_prompts_do_not_answer_themselves_and_the_sources_are_named_right():
    """A prediction prompt is not followed by its answer; the benchmark's sources are described as they are."""
    import math

    from scipy import stats
    from sklearn import datasets

    from evallib.studies import OFFLINE_DATASETS, demsar_table_6

    nb = load_notebook(NOTEBOOK)
    md = " ".join(" ".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown").split())
    assert 'widen it and probability moves to "equivalent"' not in md
    assert "can Shaffer reject a pair that Holm keeps?" not in md
    # diabetes ships as a regression set (a continuous target): the prose says so and counts five sources
    target = datasets.load_diabetes().target
    assert len(set(target.tolist())) > 100
    assert "diabetes regression set cut at the median" in md and "Only five sources ship" not in md
    assert {name.split(" ")[0] for name in OFFLINE_DATASETS} == {"iris", "wine", "breast", "digits", "diabetes"}
    # exercise 1 is answerable from the printed unadjusted p-values: Holm against C4.5+m+cf (multipliers 3, 2, 1)
    # rejects its comparison with C4.5 at 0.05, Holm over all pairs (multiplier 6) does not
    ranks = demsar_table_6(ranks=True)
    n, k = ranks.shape
    avg = ranks.mean()
    p = sorted(2 * stats.norm.sf(abs(avg["C4.5+m+cf"] - avg[o]) / math.sqrt(k * (k + 1) / (6 * n)))
               for o in ranks.columns if o != "C4.5+m+cf")
    assert 3 * p[0] <= 0.05 < 6 * p[0] and 2 * p[1] > 0.05
    exercises = _src(nb["cells"][-2])
    assert "smallest by 3, the next by 2, the last by 1" in exercises
