"""Exported HTML for the classroom (evallib.report.htmlexport and the ``evallib`` nbconvert template).

Issue 13: exported HTML (``jupyter nbconvert --to html`` and the report) renders its
mathematics without network access. Checked here: every formula of every notebook
converts to MathML, the exported page loads nothing over the network (no script or
stylesheet from http(s), the widget manager's CDN script included) and leaves no TeX for
MathJax, the cells tagged ``solutions`` sit in a closed ``<details>`` (input and
output), every figure has alt text of its own (not nbconvert's "No description has been
provided for this image"), and a plain nbconvert run picks up the repository's settings
and template.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import nbformat
import pytest

from _nbtools import NOTEBOOK_DIR, ROOT
from evallib.report import htmlexport as htmlexport
from evallib.report.htmlexport import (
    NBCONVERT_CONFIG, check_notebook_math, export_html, latex_to_mathml, markdown_to_html,
)

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CONFIG_FILE = ROOT / "etc" / "jupyter" / "jupyter_nbconvert_config.json"
TEMPLATE_FILE = ROOT / "etc" / "share" / "jupyter" / "nbconvert" / "templates" / "evallib" / "index.html.j2"
MATHML = "{http://www.w3.org/1998/Math/MathML}"
NBCONVERT_DEFAULT_ALT = "No description has been provided for this image"
SUMMARY = "Solutions (click to show)"
#: A 1x1 PNG, for figures in the small notebooks.
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360f8ffff3f0005fe02fea7d6a4a50000000049454e44ae426082")).decode()


def _remote_scripts(page: str) -> list[str]:
    return [s for s in htmlexport._script_sources(page) if re.match(r"\s*(https?:)?//", s)]


class _Page(HTMLParser):
    """What a page loads (src of any element, href of <link>, URLs in inline scripts), its
    images' alt attributes, and the solutions blocks (the cells inside each <details>)."""

    def __init__(self, page: str):
        super().__init__()
        self.loads, self.alts, self.details = [], [], []
        self._script, self._summary, self._depth = False, False, 0
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("src") is not None:
            self.loads.append(attrs["src"])
        if tag == "link" and attrs.get("href") is not None:
            self.loads.append(attrs["href"])
        if tag == "img":
            self.alts.append(attrs.get("alt"))
        self._script = tag == "script"
        self._summary = tag == "summary"
        if tag == "details":
            self.details.append({"summary": "", "cells": [], "class": attrs.get("class")})
            self._depth += 1
        elif self._depth and tag == "div" and "jp-Cell " in (attrs.get("class") or "") + " ":
            self.details[-1]["cells"].append(attrs.get("class"))

    def handle_endtag(self, tag):
        if tag == "details":
            self._depth -= 1
        self._script = self._summary = False

    def handle_data(self, data):
        if self._script:
            self.loads += re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s'\"]*", data)
        if self._depth and self._summary:
            self.details[-1]["summary"] += data

    def network(self) -> list[str]:
        """The loaded URLs that reach the network (http, https or protocol-relative)."""
        return [u for u in self.loads if re.match(r"\s*(https?:)?//", u, flags=re.I)]


def _tagged(nb, tag: str) -> int:
    return sum(tag in cell.get("metadata", {}).get("tags", []) for cell in nb["cells"])


def _classroom_notebook():
    """Solutions with output, figures with and without alt text, a saved widget view."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0, "state": {}}}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Title\n\n## 2. The $F_1$ *figure*"),
        nbformat.v4.new_code_cell("plot()", outputs=[
            nbformat.v4.new_output("display_data", data={"image/png": PNG}),
            nbformat.v4.new_output("display_data", data={"image/png": PNG},
                                   metadata={"image/png": {"alt": "Power against n, own words"}}),
            nbformat.v4.new_output("display_data", data={
                "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2, "version_minor": 0},
                "text/plain": "IntSlider(value=3)"}),
        ]),
        nbformat.v4.new_code_cell("answer = 42\nprint(answer)", metadata={"tags": ["solutions"]}, outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="SOLUTION-OUTPUT 42\n")]),
        nbformat.v4.new_code_cell("plot_more()", outputs=[
            nbformat.v4.new_output("display_data", data={"image/png": PNG}),
            nbformat.v4.new_output("display_data", data={"image/png": PNG})]),
    ]
    return nb


def _check_classroom_page(page: str) -> None:
    parsed = _Page(page)
    assert not parsed.network(), f"the page loads {parsed.network()}"
    assert "unpkg" not in page and "html-manager" not in page, "the widget manager's CDN script is there"
    assert parsed.alts == ["Figure 1 in section “2. The F_1 figure”", "Power against n, own words",
                           "Figure 2 in section “2. The F_1 figure”", "Figure 3 in section “2. The F_1 figure”"]
    assert len(parsed.details) == 1 and parsed.details[0]["summary"] == SUMMARY
    [cell] = parsed.details[0]["cells"]
    assert "jp-CodeCell" in cell and "celltag_solutions" in cell, "the solutions cell, and only it, is in the <details>"
    inside = page[page.index("<details"):page.index("</details>")]
    assert "SOLUTION-OUTPUT 42" in inside and "answer" in inside, "input and output are both in the <details>"
    assert "SOLUTION-OUTPUT" not in page.replace(inside, ""), "the solution shows outside its <details>"
    assert "<details open" not in page


def _small_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("Inline $\\hat a \\pm z\\sqrt{\\hat a(1-\\hat a)/n}$ and *text* with a_b_c.\n\n"
                                      "$$CD = q_\\alpha\\sqrt{\\frac{k(k+1)}{6n}}$$\n\nNo maths in `$x$` code."),
        nbformat.v4.new_code_cell("print(1)", outputs=[
            nbformat.v4.new_output("display_data", data={"text/latex": "$$\\frac{1}{2}$$", "text/plain": "1/2"}),
            nbformat.v4.new_output("display_data", data={"text/markdown": "the mean is $\\bar d = 0.5$"}),
        ]),
    ]
    return nb


def test_latex_to_mathml_is_well_formed_mathml():
    root = ET.fromstring(latex_to_mathml(r"\frac{a}{b} + \sqrt{x}", display=True))
    assert root.tag == MATHML + "math" and root.get("display") == "block"
    assert root.find(f".//{MATHML}mfrac") is not None and root.find(f".//{MATHML}msqrt") is not None
    assert ET.fromstring(latex_to_mathml("x^2")).get("display") == "inline"


def test_latex_environments_become_aligned_blocks():
    root = ET.fromstring(latex_to_mathml(r"\begin{gather} a = b \\ c = d \end{gather}"))
    assert root.get("display") == "block" and root.find(f".//{MATHML}mtable") is not None


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="cannot convert the formula"):
        latex_to_mathml("a^")
    with pytest.raises(TypeError, match="tex must be a string"):
        latex_to_mathml(3)
    with pytest.raises(ValueError, match="no file"):
        export_html("no/such.ipynb", "out.html")
    with pytest.raises(TypeError, match="notebook must be"):
        export_html(42, "out.html")


def test_markdown_math_is_split_as_jupyter_splits_it():
    page = markdown_to_html("Text $a_1$ but `$b$` is code, and *c*.")
    assert page.count("<math") == 1 and "<code>$b$</code>" in page and "<em>c</em>" in page


def test_export_html_has_mathml_and_no_remote_script(tmp_path):
    out = export_html(_small_notebook(), tmp_path / "small.html")
    page = out.read_text(encoding="utf-8")
    assert page.count("<math") == 4            # two in the Markdown cell, one per output
    assert "$$" not in page and "\\sqrt" not in page and "\\frac" not in page
    assert not _remote_scripts(page) and "<script src" not in page
    assert "mathjax" not in page.lower()
    hidden = export_html(_small_notebook(), tmp_path / "hidden.html", exclude_input=True).read_text(encoding="utf-8")
    assert page.count("jp-InputArea-editor") > hidden.count("jp-InputArea-editor")   # the code is gone


def test_export_html_folds_solutions_gives_alt_text_and_loads_nothing(tmp_path):
    _check_classroom_page(export_html(_classroom_notebook(), tmp_path / "c.html").read_text(encoding="utf-8"))


def test_alt_text_is_the_outputs_own_or_names_the_section():
    nb = _classroom_notebook()
    nb.cells.insert(0, nbformat.v4.new_code_cell("first()", outputs=[
        nbformat.v4.new_output("display_data", data={"image/jpeg": PNG}, metadata={"alt": "top-level alt"}),
        nbformat.v4.new_output("display_data", data={"image/svg+xml": "<svg/>"})]))
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("```python\n# a comment, not a heading\n```"))
    alts = [alt for _, _, _, alt in htmlexport._figure_alt_texts(nb)]
    assert alts == ["top-level alt", "Figure of the notebook", "Figure 1 in section “2. The F_1 figure”",
                    "Power against n, own words", "Figure 2 in section “2. The F_1 figure”",
                    "Figure 3 in section “2. The F_1 figure”"]


#: make check exports the first lesson (figures, formulas, a solutions cell); make test all of them
#: (each export takes several seconds, most of the export tests' time)
_EXPORTS = [pytest.param(p, marks=() if i == 0 else pytest.mark.slow) for i, p in enumerate(NOTEBOOKS)]


@pytest.mark.parametrize("path", _EXPORTS, ids=lambda p: p.stem)
def test_every_notebook_exports_offline(path, tmp_path):
    formulas = check_notebook_math(path)                 # raises on a formula latex2mathml cannot convert
    page = export_html(path, tmp_path / "nb.html").read_text(encoding="utf-8")
    assert not _remote_scripts(page)
    assert page.count("<math") >= formulas
    assert not re.search(r"\$\$|\\\(|\\\[", page.split("</style>")[-1]), "TeX left for MathJax"
    parsed, nb = _Page(page), nbformat.read(path, as_version=4)
    assert not parsed.network(), f"the page loads {parsed.network()}"
    figures = sum(any(m in out.get("data", {}) for m in ("image/png", "image/jpeg", "image/svg+xml"))
                  for cell in nb.cells for out in cell.get("outputs", []))
    assert len(parsed.alts) >= figures
    assert all(alt and alt != NBCONVERT_DEFAULT_ALT for alt in parsed.alts), parsed.alts
    assert [d["summary"] for d in parsed.details] == [SUMMARY] * _tagged(nb, "solutions")


def test_the_repository_config_is_the_modules():
    assert json.loads(CONFIG_FILE.read_text(encoding="utf-8")) == NBCONVERT_CONFIG
    assert TEMPLATE_FILE.read_text(encoding="utf-8") == htmlexport._TEMPLATE


@pytest.mark.slow
def test_plain_nbconvert_writes_the_classroom_page(tmp_path):
    """``jupyter nbconvert --to html`` as a student types it, with the repository's settings and template.

    ``make venv`` (and Binder's postBuild) copy etc/jupyter and etc/share into the environment, whose
    config and data folders nbconvert always reads; here the repository's folders are put
    on Jupyter's paths instead (ahead of the environment's), so the test checks this
    checkout's files. A real notebook (figures, a solutions cell) and a small one (widgets,
    alt text in the metadata, a solution with output) are converted in one run.
    """
    small = tmp_path / "small.ipynb"
    nbformat.write(_small_notebook(), small)
    classroom = tmp_path / "classroom.ipynb"
    nbformat.write(_classroom_notebook(), classroom)
    real = NOTEBOOK_DIR / "00_start_here.ipynb"
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(CONFIG_FILE.parent), JUPYTER_PATH=str(ROOT / "etc" / "share" / "jupyter"),
               PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html", "--output-dir", str(tmp_path),
                    str(small), str(classroom), str(real)], check=True, env=env, cwd=tmp_path, capture_output=True)
    html = (tmp_path / "small.html").read_text(encoding="utf-8")
    assert not _remote_scripts(html) and html.count("<math") == 4
    _check_classroom_page((tmp_path / "classroom.html").read_text(encoding="utf-8"))
    page = (tmp_path / "00_start_here.html").read_text(encoding="utf-8")
    parsed, nb = _Page(page), nbformat.read(real, as_version=4)
    assert not parsed.network(), f"the page loads {parsed.network()}"
    assert "<script" not in page, "the page runs no script at all"
    assert parsed.alts and all(alt and alt != NBCONVERT_DEFAULT_ALT for alt in parsed.alts), parsed.alts
    assert [d["summary"] for d in parsed.details] == [SUMMARY] * _tagged(nb, "solutions") == [SUMMARY]


def test_unconvertible_output_is_refused_not_written():
    # latex2mathml writes a bare "&" outside a table environment: not well-formed, so refused
    with pytest.raises(ValueError, match="cannot convert"):
        latex_to_mathml(r"\begin{aligned} a &= b \end{aligned}")
