"""Every notebook reads without a kernel (GitHub, nbviewer): no saved widget state or views, no stray output.

A saved notebook must not hold widget views (``application/vnd.jupyter.widget-view+json``,
which render as nothing without a kernel) or widget state (``metadata.widgets``), no
stderr streams (warnings), no error outputs, and no object reprs in place of a
result (``<Figure size ...>``, ``<matplotlib...>``, ``VBox(children=...)``, ``Output()``).
Where a widget's output would be, a static figure or table is saved: every cell that
wires sliders with ``interactive_output`` follows, at most a few code cells later, a
cell whose saved output is a figure, a table or printed text.
"""

from __future__ import annotations

import re

import pytest

from _nbtools import NOTEBOOK_DIR, WIDGET_VIEW, load_notebook

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
REPR = re.compile(r"^(<Figure size|<matplotlib\.|<Axes|Output\(\)|[A-Z]\w*\(children=|interactive\(|"
                  r"[A-Z]\w*(Slider|Dropdown|Text|Textarea)\()")
STATIC = ("image/png", "image/svg+xml", "text/html")
#: code cells before a widget cell that may hold its static stand-in
LOOKBACK = 3


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def stray_outputs(nb: dict) -> list[str]:
    """One line per problem that keeps ``nb`` from reading well without a kernel."""
    problems = []
    if "widgets" in nb.get("metadata", {}):
        problems.append("notebook metadata holds widget state")
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for i, cell in enumerate(code):
        where = f"code cell {i} ({_text(cell['source'])[:40]!r})"
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if WIDGET_VIEW in data:
                problems.append(f"{where}: saved widget view")
            if o["output_type"] == "stream" and o.get("name") == "stderr":
                problems.append(f"{where}: stderr stream {_text(o.get('text', ''))[:60]!r}")
            if o["output_type"] == "error":
                problems.append(f"{where}: error output {o.get('ename')}")
            plain = _text(data.get("text/plain", ""))
            if set(data) <= {"text/plain"} and plain and REPR.match(plain):
                problems.append(f"{where}: object repr {plain[:40]!r}")
        if "interactive_output" in _text(cell["source"]):
            before = code[max(0, i - LOOKBACK): i + 1]
            if not any(_has_static(c) for c in before):
                problems.append(f"{where}: widgets without a static figure or table before them")
    return problems


def _has_static(cell: dict) -> bool:
    for o in cell.get("outputs", []):
        if any(k in o.get("data", {}) for k in STATIC):
            return True
        if o["output_type"] == "stream" and o.get("name") == "stdout" and _text(o.get("text", "")).strip():
            return True
    return False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_reads_without_a_kernel(path):
    problems = stray_outputs(load_notebook(path))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def _nb(*cells, metadata=None):
    return {"metadata": metadata or {}, "cells": list(cells)}


def _code(source, *outputs):
    return {"cell_type": "code", "source": source, "metadata": {}, "outputs": list(outputs)}


def test_checker_passes_a_clean_notebook():
    fig = {"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": "<Figure size 640x480 with 1 Axes>"}}
    nb = _nb(_code("plot()", fig), _code("display(widgets.HBox(...), widgets.interactive_output(f, c))"))
    assert stray_outputs(nb) == []


@pytest.mark.parametrize("bad, expected", [
    ({"output_type": "display_data", "data": {WIDGET_VIEW: {"model_id": "x"}, "text/plain": "IntSlider(value=1)"}},
     "saved widget view"),
    ({"output_type": "stream", "name": "stderr", "text": "UserWarning: careful"}, "stderr stream"),
    ({"output_type": "execute_result", "data": {"text/plain": "<Figure size 640x480 with 1 Axes>"}}, "object repr"),
    ({"output_type": "display_data", "data": {"text/plain": "VBox(children=(IntSlider(value=3),))"}}, "object repr"),
    ({"output_type": "display_data", "data": {"text/plain": "Output()"}}, "object repr"),
    ({"output_type": "error", "ename": "ValueError", "evalue": "", "traceback": []}, "error output"),
])
def test_checker_flags_stray_output(bad, expected):
    problems = stray_outputs(_nb(_code("x", bad)))
    assert len(problems) == 1 and expected in problems[0]


def test_checker_flags_widget_state_and_widgets_without_a_static_stand_in():
    assert stray_outputs(_nb(metadata={"widgets": {}})) == ["notebook metadata holds widget state"]
    problems = stray_outputs(_nb(_code("display(widgets.interactive_output(f, c))")))
    assert len(problems) == 1 and "without a static figure" in problems[0]
