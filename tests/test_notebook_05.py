"""Notebook 05 (t-tests over cross-validation) as papermill and a reader's sliders meet it.

nbval executes the saved notebook and compares its ``# NBVAL_CHECK_OUTPUT`` cells;
tests/test_notebooks.py checks its house style. Here: a papermill run with
non-default parameters, and a live kernel in which the sliders are moved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "05_cv_ttests.ipynb"


def _texts(nb: dict) -> str:
    texts = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            text = o.get("text", "")
            texts.append(text if isinstance(text, str) else "".join(text))
            plain = o.get("data", {}).get("text/plain", "")
            texts.append(plain if isinstance(plain, str) else "".join(plain))
    return "\n".join(texts)


def test_notebook_05_is_saved_with_its_key_outputs():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    joined = _texts(nb)
    assert "DT-NN: mean difference +0.0295, t = +0.731, df = 9, p = 0.4835 (book: 0.4833)" in joined
    assert "100 data sets of 100 cases, 10 x 10-fold CV, alpha = 0.05" in joined
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            assert "application/vnd.jupyter.widget-view+json" not in o.get("data", {}), "strip widget views"


@pytest.mark.slow
def test_notebook_05_runs_with_other_parameters(tmp_path):
    papermill = pytest.importorskip("papermill")
    out = tmp_path / "05_out.ipynb"
    params = dict(seed=1, folds=5, repeats=3, alpha=0.1, n_samples=60, n_datasets=12, bayes_error=0.3)
    papermill.execute_notebook(
        str(NOTEBOOK), str(out), parameters=params, cwd=str(NOTEBOOK.parent),
        kernel_name="python3", progress_bar=False,
    )
    nb = json.loads(out.read_text(encoding="utf-8"))
    injected = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    assert injected and "n_datasets = 12" in "".join(injected[0]["source"])
    joined = _texts(nb)
    assert "error rate per round (3 rounds of 5-fold cross-validation):" in joined
    assert "12 data sets of 60 cases, 3 x 5-fold CV, alpha = 0.1" in joined
    assert "90% limits" in joined and "reject at 0.1" in joined
    # Two degrees of freedom for the textbook's test on three rounds.
    assert ", df = 2, " in joined


@pytest.mark.slow
def test_notebook_05_sliders_drive_the_study():
    """Move each slider in a live kernel: each move must re-run the study with it.

    The callback looks up ``rejection_study`` in the notebook's namespace when it
    runs, so wrapping that name records every call a slider triggers. Moving only
    alpha must be answered from the simulation cache.
    """
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])][0]
    params.source += "\nfolds, repeats, n_samples, n_datasets = 5, 2, 40, 6\n"
    probe = '''
import evallib.cvtests
calls = []
_study = rejection_study
def rejection_study(*args, **kwargs):
    calls.append((args, kwargs))
    return _study(*args, **kwargs)
controls["n_samples"].value = 60
controls["folds"].value = 3
controls["repeats"].value = 4
hits = evallib.cvtests._cached_simulation.cache_info().hits
misses = evallib.cvtests._cached_simulation.cache_info().misses
controls["alpha"].value = 0.1
info = evallib.cvtests._cached_simulation.cache_info()
assert [c[0] for c in calls] == [(60, 5, 2, 0.05), (60, 3, 2, 0.05), (60, 3, 4, 0.05), (60, 3, 4, 0.1)], calls
assert all(c[1]["n_datasets"] == 6 for c in calls)
assert info.hits == hits + 1 and info.misses == misses, info
print("sliders ok")
'''
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    out = nb.cells[-1]["outputs"]
    assert any("sliders ok" in o.get("text", "") for o in out), out
