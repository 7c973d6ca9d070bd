"""The notebooks as a reader and as papermill meet them.

nbval (configured in pyproject.toml, ``--nbval-lax``) executes every notebook and
compares the cells marked ``# NBVAL_CHECK_OUTPUT``; this module checks the house
style of each notebook and drives the Berrar-Lozano notebook with papermill under
non-default parameters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_house_style(path):
    nb = _load(path)
    meta = nb["metadata"]
    assert meta.get("kernelspec", {}).get("name") == "python3", "kernel must be python3"
    assert "widgets" not in meta, "saved widget state in the metadata: strip it"
    cells = nb["cells"]
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, "exactly one cell must be tagged 'parameters' (papermill)"
    opening = "".join(cells[0]["source"])
    for heading in ("What you will learn", "What you need", "The source it follows"):
        assert heading in opening, f"the first cell must say '{heading}'"
    source = "\n".join("".join(c["source"]) for c in cells)
    assert not re.search(r"sys\.path\.(insert|append)", source), "install evallib, do not edit sys.path"
    assert "NBVAL_CHECK_OUTPUT" in source, "key reproduced numbers must be checked by nbval"
    for cell in cells:
        if cell["cell_type"] == "code":
            for out in cell.get("outputs", []):
                assert out.get("output_type") != "error", f"saved error output in {path.name}"


@pytest.mark.slow
def test_berrar_lozano_runs_with_other_parameters(tmp_path):
    papermill = pytest.importorskip("papermill")
    out = tmp_path / "01_out.ipynb"
    params = dict(seed=3, test_size=40, n_genes_1=20, n_genes_2=5, n_swap=8, alpha=0.1, adjust="bonferroni")
    papermill.execute_notebook(
        str(NOTEBOOK_DIR / "01_berrar_lozano.ipynb"), str(out), parameters=params,
        cwd=str(NOTEBOOK_DIR), kernel_name="python3", progress_bar=False,
    )
    nb = _load(out)
    injected = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
    assert injected and "test_size = 40" in "".join(injected[0]["source"])
    texts = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            texts.append(o.get("text", "") if isinstance(o.get("text", ""), str) else "".join(o["text"]))
            texts.append("".join(o.get("data", {}).get("text/plain", "")))
    joined = "\n".join(texts)
    assert "test set: 40 cases" in joined
    # The Bonferroni level for 10 comparisons at alpha = 0.1 appears in the real-data table.
    assert "0.010" in joined
