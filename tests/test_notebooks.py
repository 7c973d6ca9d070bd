"""The notebooks as a reader and as papermill meet them.

nbval (configured in pyproject.toml, ``--nbval-lax``) executes every notebook and
compares the outputs of the cells tagged ``nbval-check-output`` (cell metadata, so that
students do not see test machinery in the code); this module checks the house
style of each notebook. Each lesson's own runs under other parameters are in its
``test_notebook_NN.py``.
"""

from __future__ import annotations

import re

import pytest
from _nbtools import NOTEBOOK_DIR, load_notebook

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_house_style(path):
    nb = load_notebook(path)
    meta = nb["metadata"]
    assert meta.get("kernelspec", {}).get("name") == "python3", "kernel must be python3"
    assert "widgets" not in meta, "saved widget state in the metadata: strip it"
    cells = nb["cells"]
    tagged = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, "exactly one cell must be tagged 'parameters' (papermill)"
    opening = "".join(cells[0]["source"])
    for heading in ("What you will learn", "What you need", "The source it follows"):
        assert heading in opening, f"the first cell must say '{heading}'"
    # one shape for the reading time; the lessons also give the time of their exercises
    shape = (r"^- \*\*Reading time:\*\* about \d+ minutes"
             + (r" to read and run, and \d+ more for the exercises" if path.name[:2].isdigit() else ""))
    assert re.search(shape, opening, flags=re.M), (
        "the opening states the reading time as '- **Reading time:** about N minutes to read and run, "
        "and M more for the exercises'")
    source = "\n".join("".join(c["source"]) for c in cells)
    assert not re.search(r"sys\.path\.(insert|append)", source), "install evallib, do not edit sys.path"
    checked = [c for c in cells if c["cell_type"] == "code"
               and "nbval-check-output" in c.get("metadata", {}).get("tags", [])]
    assert checked, "key reproduced numbers must be checked by nbval: tag their cells 'nbval-check-output'"
    assert "NBVAL_CHECK_OUTPUT" not in source, (
        "move '# NBVAL_CHECK_OUTPUT' out of the source into the cell tag 'nbval-check-output' "
        "(students must not see test machinery)")
    for cell in cells:
        if cell["cell_type"] == "code":
            for out in cell.get("outputs", []):
                assert out.get("output_type") != "error", f"saved error output in {path.name}"


