"""Offline maths in exported HTML (evallib.htmlexport).

Issue 13: exported HTML (``jupyter nbconvert --to html`` and the report) renders its
mathematics without network access. Checked here: every formula of every notebook
converts to MathML, the exported page has no script loaded from http(s) and no TeX left
for MathJax, and a plain nbconvert run picks up the repository's configuration.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest

from _nbtools import NOTEBOOK_DIR, ROOT
from evallib import htmlexport
from evallib.htmlexport import (
    NBCONVERT_CONFIG, check_notebook_math, export_html, latex_to_mathml, markdown_to_html,
)

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CONFIG_FILE = ROOT / "etc" / "jupyter" / "jupyter_nbconvert_config.json"
MATHML = "{http://www.w3.org/1998/Math/MathML}"


def _remote_scripts(page: str) -> list[str]:
    return [s for s in htmlexport._script_sources(page) if re.match(r"\s*(https?:)?//", s)]


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_exports_offline(path, tmp_path):
    formulas = check_notebook_math(path)                 # raises on a formula latex2mathml cannot convert
    page = export_html(path, tmp_path / "nb.html").read_text(encoding="utf-8")
    assert not _remote_scripts(page)
    assert page.count("<math") >= formulas
    assert not re.search(r"\$\$|\\\(|\\\[", page.split("</style>")[-1]), "TeX left for MathJax"


def test_the_repository_config_is_the_modules():
    assert json.loads(CONFIG_FILE.read_text(encoding="utf-8")) == NBCONVERT_CONFIG


@pytest.mark.slow
def test_plain_nbconvert_writes_offline_html(tmp_path):
    """``jupyter nbconvert --to html`` as a student types it writes MathML and no CDN script.

    ``make venv`` (and Binder's postBuild) copy etc/jupyter's settings into the environment's
    own config folder, which nbconvert always reads; elsewhere the repository's etc/jupyter
    is put on Jupyter's config path, as the README says.
    """
    nb_path = tmp_path / "small.ipynb"
    nbformat.write(_small_notebook(), nb_path)
    installed = Path(sys.prefix, "etc", "jupyter", CONFIG_FILE.name)
    env = dict(os.environ)
    if installed.is_file():
        assert installed.read_text(encoding="utf-8") == CONFIG_FILE.read_text(encoding="utf-8"), \
            "the environment's nbconvert settings are stale: run make venv"
    else:
        env["JUPYTER_CONFIG_PATH"] = str(CONFIG_FILE.parent)
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "html", str(nb_path)], check=True,
                   env=env, cwd=tmp_path, capture_output=True)
    html = (tmp_path / "small.html").read_text(encoding="utf-8")
    assert not _remote_scripts(html) and html.count("<math") == 4


def test_unconvertible_output_is_refused_not_written():
    # latex2mathml writes a bare "&" outside a table environment: not well-formed, so refused
    with pytest.raises(ValueError, match="cannot convert"):
        latex_to_mathml(r"\begin{aligned} a &= b \end{aligned}")
