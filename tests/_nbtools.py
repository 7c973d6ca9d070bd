"""Helpers shared by the notebook tests (tests/test_notebooks.py, test_notebook_0N.py, ...).

A plain module, not a test file: pytest's default ``prepend`` import mode puts
``tests/`` on ``sys.path`` when it imports a test module from there, so the test
files import it as ``from _nbtools import ...``.

Every execution here (papermill, nbclient) runs with a per-cell timeout of
:data:`EXECUTION_TIMEOUT` seconds, so that a hung kernel fails its test with a
``CellTimeoutError`` naming the cell well before pytest-timeout's 15 minutes, and
with :class:`evallib.report._kernel.PatientKernelManager`, so that a kernel reply whose ZMQ
wake-up the event loop missed is picked up within half a second instead of at the
end of that timeout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evallib.report._kernel import PatientKernelManager

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"

#: seconds one cell may run before nbclient/papermill give up on it.
EXECUTION_TIMEOUT = 600

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def load_notebook(path: Path) -> dict:
    """The notebook at ``path`` as plain JSON (a dict), as saved."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _joined(text: Any) -> str:
    return text if isinstance(text, str) else "".join(text)


def outputs_text(nb: dict) -> str:
    """All printed text of a notebook's outputs: stream text and ``text/plain`` results."""
    texts = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            texts.append(_joined(o.get("text", "")))
            texts.append(_joined(o.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def injected_cells(nb: dict) -> list[dict]:
    """The cells papermill injected (tagged ``injected-parameters``)."""
    return [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]


def widget_views(nb: dict) -> list[dict]:
    """The outputs that hold a widget view (they must be stripped before saving)."""
    return [o for cell in nb["cells"] for o in cell.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]


def run_papermill(notebook: Path, out: Path, parameters: dict | None = None) -> dict:
    """Execute ``notebook`` with papermill and ``parameters`` into ``out``; return the result's JSON.

    Runs in the notebook's folder with the ``python3`` kernel, no progress bar and the
    per-cell timeout :data:`EXECUTION_TIMEOUT`. A failing cell raises papermill's
    ``PapermillExecutionError``. Skips the test when papermill is not installed.
    """
    papermill = pytest.importorskip("papermill")
    papermill.execute_notebook(
        str(notebook), str(out), parameters=parameters or {}, cwd=str(Path(notebook).parent),
        kernel_name="python3", progress_bar=False, execution_timeout=EXECUTION_TIMEOUT,
        kernel_manager_class=PatientKernelManager,
    )
    return load_notebook(out)


def run_with_probe(notebook: Path, probe: str, *, parameters: dict | None = None) -> list[dict]:
    """Run ``notebook`` plus an appended ``probe`` cell in a live kernel; return the probe's outputs.

    ``parameters`` (``name = value!r`` lines) are appended to the cell tagged
    ``parameters``, as papermill would override them. The kernel keeps the notebook's
    namespace, so the probe can move its widgets (``controls[...].value = ...``) and
    check what they re-ran. Runs in the notebook's folder with the per-cell timeout
    :data:`EXECUTION_TIMEOUT`. Skips the test when nbformat or nbclient is missing.
    """
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(notebook, as_version=4)
    if parameters:
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        cell.source += "\n" + "\n".join(f"{k} = {v!r}" for k, v in parameters.items())
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=EXECUTION_TIMEOUT,
                                     kernel_manager_class=PatientKernelManager,
                                     resources={"metadata": {"path": str(Path(notebook).parent)}})
    client.execute()
    return nb.cells[-1]["outputs"]


def prose_problems(nb: dict) -> list[tuple]:
    """Markdown cells that do not end a sentence (or a table row), and paragraphs that start
    like an earlier one (their first 100 characters): a cut or a repeated paragraph."""
    import re

    problems, seen = [], {}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"]).strip()
        if text[-1] not in ".:?!)|`":
            problems.append(("cut", i, text[-60:]))
        for paragraph in re.split(r"\n\s*\n", text):
            words = " ".join(paragraph.split())
            if len(words) >= 100:
                if words[:100] in seen:
                    problems.append(("repeated", i, seen[words[:100]], words[:100]))
                seen[words[:100]] = i
    return problems
