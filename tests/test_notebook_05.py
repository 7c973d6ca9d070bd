"""Notebook 05 (t-tests over cross-validation) as papermill and a reader's sliders meet it.

nbval executes the saved notebook and compares the cells tagged ``nbval-check-output``;
tests/test_notebooks.py checks its house style. Here: the corrected confidence limits
against an independent computation, a papermill run with non-default parameters, and a
live kernel in which the sliders are moved; the controls' ranges are a unit test of
evallib.lessons.rejection_study_controls (tests/test_lessons_cvtests.py).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats
from _nbtools import (
    NOTEBOOK_DIR,
    prose_problems,
    injected_cells,
    load_notebook,
    outputs_text,
    widget_views,
)

NOTEBOOK = NOTEBOOK_DIR / "05_cv_ttests.ipynb"


def test_notebook_05_is_saved_with_its_key_outputs():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    assert "DT-NN: mean difference +0.0295, t = +0.731, df = 9, p = 0.4835 (book: 0.4833)" in joined
    assert "1000 data sets of 100 cases, 10 x 10-fold CV, alpha = 0.05" in joined
    assert "rejection rates at alpha = 0.05, 1000 data sets per row" in joined
    assert "size (no difference) and power (true difference 0.1), 1000 data sets each" in joined
    assert not widget_views(nb), "strip widget views"


def test_notebook_05_uses_tags_not_comments():
    nb = load_notebook(NOTEBOOK)
    sources = ["".join(c["source"]) for c in nb["cells"]]
    assert not any("NBVAL_CHECK_OUTPUT" in s for s in sources)
    assert sum("nbval-check-output" in c["metadata"].get("tags", []) for c in nb["cells"]) >= 8
    assert not any("tests/" in s for s in sources[:-2]), "no test-suite talk in the lesson"


def test_notebook_05_keeps_one_sign_convention():
    """Issue 13: accuracy throughout, so the signs of the differences do not flip between sections."""
    nb = load_notebook(NOTEBOOK)
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert r"d_i = \mathrm{acc}(M_1)_i - \mathrm{acc}(M_2)_i" in text
    assert r"\mathrm{err}(M_1)_i -" not in text and "fold error rates" not in text


def _saved_limits(nb: dict) -> dict[str, tuple[float, float]]:
    found = re.findall(r"^  (naive paired t, all folds|corrected resampled t)\s+\[([+-][\d.]+), ([+-][\d.]+)\]",
                       outputs_text(nb), flags=re.M)
    return {name: (float(lo), float(hi)) for name, lo, hi in found}


@pytest.mark.slow
def test_notebook_05_corrected_limits_match_an_independent_computation():
    """Logistic regression vs 5-NN, 10 x 10-fold: redo the cross-validation with scikit-learn's
    RepeatedStratifiedKFold and cross_val_score, and the limits with scipy's t quantile.

    The corrected interval (Nadeau & Bengio, as Bouckaert & Frank): mean(d) -/+ t_{0.975, J-1}
    sqrt((1/J + n_test/n_train) var(d)) with J = 100 fold differences; it contains 0 and the
    naive interval (1/J instead) does not: the notebook's lesson.
    """
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    splits = list(cv.split(X, y))
    lr = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear", random_state=0))
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))
    d = cross_val_score(lr, X, y, cv=splits) - cross_val_score(knn, X, y, cv=splits)
    ratio = np.mean([len(te) / len(tr) for tr, te in splits])
    q = stats.t.ppf(0.975, d.size - 1)
    corrected = d.mean() + np.array([-1, 1]) * q * np.sqrt((1 / d.size + ratio) * d.var(ddof=1))
    naive = d.mean() + np.array([-1, 1]) * q * np.sqrt(d.var(ddof=1) / d.size)
    saved = _saved_limits(load_notebook(NOTEBOOK))
    assert saved["corrected resampled t"] == pytest.approx(tuple(corrected), abs=6e-5)
    assert saved["naive paired t, all folds"] == pytest.approx(tuple(naive), abs=6e-5)
    assert corrected[0] < 0 < corrected[1] and naive[0] > 0


@pytest.mark.slow
def test_notebook_05_runs_with_other_parameters(notebook_runs):
    params = dict(seed=1, folds=5, repeats=3, alpha=0.1, n_samples=60, n_datasets=12, bayes_error=0.3,
                  difference=0.05)
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "n_datasets = 12" in "".join(injected[0]["source"])
    joined = outputs_text(nb)
    assert "accuracy per round (3 rounds of 5-fold cross-validation):" in joined
    assert "12 data sets of 60 cases, 3 x 5-fold CV, alpha = 0.1" in joined
    assert "90% limits" in joined and "reject at 0.1" in joined and "90% confidence limits" in joined
    assert "power (true difference 0.05), 12 data sets each" in joined
    assert "rejection rates at alpha = 0.1, 12 data sets per row (defaults: 60 cases, 3 x 5-fold)" in joined
    # Two degrees of freedom for the textbook's test on three rounds.
    assert ", df = 2, " in joined


@pytest.mark.slow
def test_notebook_05_sliders_drive_the_study(notebook_runs):
    """Move each control in a live kernel: each move must redraw the study of its setting.

    The callback looks up ``rejection_study`` in the notebook's namespace when it
    runs, so wrapping that name records every call a control triggers. The explorer
    offers the settings simulated above (the default and the sweeps): no move may
    simulate again, every one is answered from the simulation cache.
    """
    probe = '''
import evallib.resampling._cvtests
calls = []
_study = rejection_study
def rejection_study(*args, **kwargs):
    calls.append((args, kwargs))
    return _study(*args, **kwargs)
options = [value for label, value in controls["setting"].options]
assert options[0] == (40, 5, 2) and "(default)" in controls["setting"].options[0][0], options
for wanted in [(40, 5, 1), (40, 5, 20), (40, 10, 2), (400, 5, 2)]:     # one of each sweep
    assert wanted in options, (wanted, options)
misses = evallib.resampling._cvtests._cached_simulation.cache_info().misses
controls["setting"].value = (40, 5, 20)
controls["setting"].value = (400, 5, 2)
controls["alpha"].value = 0.1
info = evallib.resampling._cvtests._cached_simulation.cache_info()
assert [c[0] for c in calls] == [(40, 5, 20, 0.05), (400, 5, 2, 0.05), (400, 5, 2, 0.1)], calls
assert all(c[1]["n_datasets"] == 9 for c in calls)  # the study's own data sets
assert info.misses == misses, info
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(folds=5, repeats=2, n_samples=40, n_datasets=9))
    assert any("sliders ok" in o.get("text", "") for o in out), out


def test_notebook_05_builds_its_controls_from_rejection_study_controls():
    """The explorer's drop-down and slider take their options, values and ranges from
    evallib.lessons.rejection_study_controls (tests/test_lessons_cvtests.py: every range holds the
    run's parameters), with nothing of their own that could clamp them."""
    nb = load_notebook(NOTEBOOK)
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    widget_cell = next(c for c in cells if "live_output(show_study, controls" in c)
    assert ("rejection_study_controls(sweeps, n_samples=n_samples, folds=folds, repeats=repeats, alpha=alpha)"
            in widget_cell)
    assert 'widgets.Dropdown(**spec["setting"], description=' in widget_cell
    assert 'widgets.FloatSlider(**spec["alpha"], description=' in widget_cell
    assert not re.search(r"\b(min|max|step|value|options)=", widget_cell.split("spec = ")[1].split("live_output(")[0])


def test_notebook_05_names_its_null_and_scipys_default():
    """Section 2 does not call Welch's df scipy's choice (ttest_ind's default is the pooled test,
    equal_var=True), and section 3 names the null hypothesis its simulation tests (the unconditional
    one: equal expected accuracy over training sets from the population) where it is set up and
    where its size is read."""
    nb = load_notebook(NOTEBOOK)
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    text = "\n".join(cells)
    assert "scipy's choice" not in text
    assert "`equal_var=True`: the pooled-variance t-test" in text
    named = [c for c in cells if "unconditional" in c]
    assert len(named) >= 2, "name the null where the simulation is introduced and where its size is read"
    assert any("conditional" in c.replace("unconditional", "") and "**Which null hypothesis?**" in c for c in named)
    joined = outputs_text(nb)
    # scipy's two variants, printed beside the textbook's: pooled (default) and Welch
    assert re.search(r"ttest_ind\(equal_var=True \) \(pooled, scipy's default\): t = [+-][\d.]+, df = 18\.0", joined)
    assert "ttest_ind(equal_var=False) (Welch)" in joined


def test_notebook_05_prose_has_no_repeated_or_cut_off_paragraph():
    """Each markdown cell ends a sentence, and no paragraph starts like another."""
    assert prose_problems(load_notebook(NOTEBOOK)) == []
