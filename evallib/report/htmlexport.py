"""Notebooks as HTML whose mathematics renders without network access.

``jupyter nbconvert --to html`` leaves every ``$...$`` of a Markdown cell as TeX and
adds a ``<script>`` that loads MathJax from a CDN (and require.js, and Mermaid when a
diagram is present): offline, or behind a proxy, a reader sees raw TeX. This module
converts the TeX to MathML when the HTML is written, with the ``latex2mathml``
package, and drops the CDN scripts. Browsers render MathML natively (MathML Core:
Firefox, Safari, and Chromium since version 109), so the page needs no script at all.

Why MathML rather than a packaged MathJax: MathJax is a JavaScript distribution (the
CDN's ``latest.js`` pulls in tens of files), which no well-kept Python package ships;
inlining it would add megabytes to every page, and its fonts would still have to be
embedded. latex2mathml is a small pure-Python package, and its output is plain markup
that also survives e-mail, archiving and printing. Its TeX coverage is smaller than
MathJax's; :func:`check_notebook_math` finds every formula it cannot convert (the test
suite runs it on every notebook of the workbook).

Two entry points:

* :func:`export_html` (and the exporter class ``OfflineHTMLExporter``) for code,
  e.g. the report runner;
* :data:`NBCONVERT_CONFIG`, the settings of nbconvert's own ``HTMLExporter`` that do the
  same for a plain ``jupyter nbconvert --to html``. The repository ships them as
  ``etc/jupyter/jupyter_nbconvert_config.json``; Jupyter reads that file when it lies in
  a folder of ``jupyter --paths`` (config), such as ``<venv>/etc/jupyter``, or when
  ``JUPYTER_CONFIG_PATH`` names its folder. They name the template ``evallib``, shipped
  as ``etc/share/jupyter/nbconvert/templates/evallib`` (installed to ``PREFIX/share/jupyter/...``; found in a data folder of
  ``jupyter --paths``, such as ``<venv>/share/jupyter``, or through ``JUPYTER_PATH``);
  ``make venv`` and ``binder/postBuild`` copy both folders into the environment.

Both write the same page, made for a classroom: no script from a CDN (the widget
manager included), the cells tagged ``solutions`` (input and output) inside a closed
``<details>`` element the reader opens on purpose ("Solutions (click to show)"), and
alt text on every figure: the output's own (``{"image/png": {"alt": ...}}`` in its
metadata, as ``IPython.display.Image(alt=...)`` writes it), otherwise one naming the
section the figure is in (:class:`ImageAltPreprocessor`).
"""

from __future__ import annotations

import functools
import html
import os
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from .._extras import require

# OfflineHTMLExporter (nbconvert's exporter, built on first use) is reached as
# evallib.report.htmlexport.OfflineHTMLExporter; it is not in __all__, so that `import evallib`
# never imports nbconvert.
__all__ = [
    "NBCONVERT_CONFIG",
    "check_notebook_math",
    "export_html",
    "latex_to_mathml",
    "markdown_to_html",
]

#: nbconvert settings for offline maths and the classroom template: MathML filter and
#: preprocessor, alt text for figures, the ``evallib`` template, and no CDN script URLs (in
#: case another template is chosen on the command line; Mermaid's URLs are not settable,
#: the template leaves its script out). nbconvert's exporters built on the
#: HTML exporter (slides, PDF through a browser or Qt) read ``HTMLExporter``'s settings too,
#: so their own templates are named again. Same content as
#: ``etc/jupyter/jupyter_nbconvert_config.json``.
NBCONVERT_CONFIG: dict[str, dict[str, Any]] = {
    "HTMLExporter": {
        "template_name": "evallib",
        "filters": {"markdown2html": "evallib.report.htmlexport.markdown2html_filter"},
        "preprocessors": [
            "evallib.report.htmlexport.LatexOutputPreprocessor",
            "evallib.report.htmlexport.ImageAltPreprocessor",
        ],
        "mathjax_url": "",
        "require_js_url": "",
        "jquery_url": "",
        "jupyter_widgets_base_url": "",
    },
    "SlidesExporter": {"template_name": "reveal"},
    "WebPDFExporter": {"template_name": "webpdf"},
    "QtExporter": {"template_name": "lab"},
}

# The ``evallib`` template (nbconvert's lab template without the scripts it loads from a
# CDN, with the solutions folded and alt text on figures). The repository ships the same
# text as etc/share/jupyter/nbconvert/templates/evallib/index.html.j2 for a plain `jupyter
# nbconvert --to html`; here it serves OfflineHTMLExporter, which must work from a wheel.
_TEMPLATE = r"""{#- evallib's HTML template: nbconvert's lab template for a page that needs no network,
    hides the solutions until the reader opens them and gives every figure alt text.
    Shipped as etc/share/jupyter/nbconvert/templates/evallib/index.html.j2 (template_name
    "evallib" in etc/jupyter/jupyter_nbconvert_config.json) and used by
    evallib.report.htmlexport.OfflineHTMLExporter; the two copies are the same text. -#}
{%- extends 'lab/index.html.j2' -%}

{#- No script from a CDN: maths is MathML (evallib.report.htmlexport), and require.js, MathJax,
    Mermaid and the widget manager are not loaded. -#}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}

{% block extra_css %}
<style type="text/css">
details.evallib-solutions { margin: 0.5em 0; }
details.evallib-solutions > summary { cursor: pointer; font-weight: bold; padding: 0.25em 0; }
</style>
{% endblock extra_css %}

{#- Cells tagged "solutions": input and output inside a closed <details>. -#}
{% block any_cell scoped %}
{%- if 'solutions' in cell.metadata.get('tags', []) -%}
<details class="evallib-solutions"><summary>Solutions (click to show)</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{% endblock any_cell %}

{#- Figures: the lab template's image blocks (one macro for PNG and JPEG) with an alt attribute,
    from the output's metadata
    ({"image/png": {"alt": ...}}, as IPython's Image(alt=...) writes it), which
    evallib.report.htmlexport.ImageAltPreprocessor fills in where it is missing. -#}
{%- macro rendered_image(output, mime, extra_class) -%}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
{%- if mime in output.metadata.get('filenames', {}) %}
<img src="{{ output.metadata.filenames[mime] | posix_path | escape_html }}"
{%- else %}
<img src="data:{{ mime }};base64,{{ output.data[mime] | escape_html }}"
{%- endif %}
{%- set alt=output | get_metadata('alt', mime) -%}
{%- if alt %}
alt="{{ alt | escape_html }}"
{%- endif %}
{%- set width=output | get_metadata('width', mime) -%}
{%- if width is not none %}
width={{ width | escape_html }}
{%- endif %}
{%- set height=output | get_metadata('height', mime) -%}
{%- if height is not none %}
height={{ height | escape_html }}
{%- endif %}
class="
{%- if output | get_metadata('unconfined', mime) %}
unconfined
{%- endif %}
{%- if output | get_metadata('needs_background', mime) == 'light' %}
jp-needs-light-background
{%- endif %}
{%- if output | get_metadata('needs_background', mime) == 'dark' %}
jp-needs-dark-background
{%- endif %}
"
>
</div>
{%- endmacro %}

{% block data_png scoped %}
{{ rendered_image(output, 'image/png', extra_class) }}
{%- endblock data_png %}

{% block data_jpg scoped %}
{{ rendered_image(output, 'image/jpeg', extra_class) }}
{%- endblock data_jpg %}

{% block data_svg scoped -%}
{%- set alt=output | get_metadata('alt', 'image/svg+xml') -%}
<div class="jp-RenderedSVG jp-OutputArea-output {{ extra_class }}" data-mime-type="image/svg+xml">
{%- if output.svg_filename %}
<img src="{{ output.svg_filename | posix_path | escape_html }}"{% if alt %} alt="{{ alt | escape_html }}"{% endif %}>
{%- elif resources.should_not_encode_svg %}
{{ output.data['image/svg+xml'].encode("utf-8") | clean_html }}
{%- else %}
<img src="data:image/svg+xml;base64,{{ output.data['image/svg+xml'] | text_base64 | escape_html }}"{% if alt %} alt="{{ alt | escape_html }}"{% endif %}>
{%- endif %}
</div>
{%- endblock data_svg %}
"""

_ENVIRONMENT = re.compile(r"^\\begin\{(equation|align|gather|multline)(\*?)\}(.*)\\end\{\1\2\}$", re.S)


def latex_to_mathml(tex: str, *, display: bool = False) -> str:
    """The MathML of one TeX formula (the text between the ``$`` signs).

    Parameters
    ----------
    tex : str
        A formula in TeX, without its delimiters.
    display : bool
        Block (``$$...$$``) rather than inline (``$...$``) maths.

    Returns
    -------
    str
        A ``<math>`` element. ``equation`` environments become display maths of their
        body; ``gather`` and ``multline`` are converted as ``align*``.

    Raises
    ------
    ValueError
        The formula cannot be converted (the message quotes it).

    Examples
    --------
    >>> mathml = latex_to_mathml(r"\\hat a \\pm z\\sqrt{\\hat a(1-\\hat a)/n}")
    >>> mathml.startswith("<math") and mathml.count("<msqrt>")
    1
    """
    require("latex2mathml", "evallib.report.htmlexport")
    from latex2mathml.converter import convert

    if not isinstance(tex, str):
        raise TypeError(f"tex must be a string, got {type(tex).__name__}")
    body = tex.strip()
    env = _ENVIRONMENT.match(body)
    if env:
        display = True
        body = env.group(3) if env.group(1) == "equation" else r"\begin{align*}" + env.group(3) + r"\end{align*}"
    try:
        mathml = convert(body, display="block" if display else "inline")
        ElementTree.fromstring(mathml)     # latex2mathml can emit a bare "&" for what it does not know
    except Exception as err:  # latex2mathml raises its own exception types, and IndexError/KeyError
        raise ValueError(f"cannot convert the formula {tex!r} to MathML: {type(err).__name__}: {err}") from err
    return mathml


@functools.cache
def _renderer_class():
    require("nbconvert", "evallib.report.htmlexport")
    from nbconvert.filters.markdown_mistune import IPythonRenderer

    class MathMLRenderer(IPythonRenderer):
        """nbconvert's Markdown renderer with the maths written as MathML instead of TeX."""

        def block_math(self, body: str) -> str:
            return latex_to_mathml(body, display=True)

        def inline_math(self, body: str) -> str:
            return latex_to_mathml(body)

        def latex_environment(self, name: str, body: str) -> str:
            return latex_to_mathml(rf"\begin{{{name}}}{body}\end{{{name}}}", display=True)

        def multiline_math(self, text: str) -> str:  # mistune 2 only
            return text

    return MathMLRenderer


def markdown_to_html(source: str, *, attachments: dict | None = None, path: str = "") -> str:
    """Markdown to HTML as nbconvert renders it, with every formula as MathML.

    nbconvert's own parser finds the formulas (``$...$``, ``$$...$$``, ``\\(...\\)``,
    ``\\[...\\]`` and ``\\begin{...}`` environments, not inside code), so the split
    between text and maths is exactly Jupyter's.

    Parameters
    ----------
    source : str
        The Markdown text of one cell.
    attachments : dict, optional
        The cell's attachments, ``{name: {mime type: base64 data}}`` as a notebook stores
        them; an image ``attachment:<name>`` is embedded from them as a ``data:`` URL
        (SVG before PNG before JPEG). Default: none.
    path : str, default ""
        The notebook's folder, which nbconvert's renderer takes as the base of relative
        image paths; images are not embedded from files here, so links stay as written.

    Returns
    -------
    str
        The cell as HTML, each formula a ``<math>`` element (``display="block"`` for
        display maths).

    Raises
    ------
    ValueError
        A formula that latex2mathml cannot convert (the message quotes it).

    Examples
    --------
    >>> html = markdown_to_html("Accuracy $a = 0.8$ of *one* run")
    >>> "<math" in html and "$" not in html and "<em>one</em>" in html
    True
    """
    require("nbconvert", "evallib.report.htmlexport")
    from nbconvert.filters.markdown_mistune import MarkdownWithMath

    renderer = _renderer_class()(escape=False, attachments=attachments, path=path)
    return MarkdownWithMath(renderer=renderer).render(source)


def _markdown2html_filter():
    import jinja2

    @jinja2.pass_context
    def markdown2html_filter(context, source):
        cell = context.get("cell", {})
        path = context.get("resources", {}).get("metadata", {}).get("path", "")
        return markdown_to_html(source, attachments=cell.get("attachments", {}), path=path)

    return markdown2html_filter


def __getattr__(name: str):
    # nbconvert imports these by name from NBCONVERT_CONFIG; built lazily so that
    # `import evallib` does not import nbconvert or jinja2.
    if name == "markdown2html_filter":
        return _markdown2html_filter()
    if name == "LatexOutputPreprocessor":
        return _preprocessor_class()
    if name == "ImageAltPreprocessor":
        return _alt_preprocessor_class()
    if name == "OfflineHTMLExporter":
        return _exporter_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_LATEX_OUTPUT = re.compile(r"^\s*(\$\$?)(.*?)\1\s*$", re.S)


def _latex_output_to_html(latex: str) -> str:
    """``text/latex`` output (e.g. a sympy result, ``$$...$$``) as MathML."""
    m = _LATEX_OUTPUT.match(latex)
    if m:
        return latex_to_mathml(m.group(2), display=m.group(1) == "$$")
    return latex_to_mathml(latex, display=True)


@functools.cache
def _preprocessor_class():
    require("nbconvert", "evallib.report.htmlexport")
    from nbconvert.preprocessors import Preprocessor

    class LatexOutputPreprocessor(Preprocessor):
        """Give every ``text/latex`` output without HTML a ``text/html`` MathML twin.

        The HTML exporter prefers ``text/html`` to ``text/latex``, so the output shows
        as MathML instead of TeX left for MathJax.
        """

        def preprocess_cell(self, cell, resources, index):
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if "text/latex" in data and "text/html" not in data:
                    latex = data["text/latex"]
                    data["text/html"] = _latex_output_to_html(latex if isinstance(latex, str) else "".join(latex))
            return cell, resources

    return LatexOutputPreprocessor


_IMAGE_TYPES = ("image/png", "image/jpeg", "image/svg+xml")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
_FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.M | re.S)     # a fenced code block


def _plain_heading(text: str) -> str:
    """A Markdown heading as plain text: maths kept without its ``$``, no emphasis, code or link marks.

    Examples
    --------
    >>> _plain_heading("4. Figure 1, as a tail: $P = 10$, *N* = `1000` [here](#x)")
    '4. Figure 1, as a tail: P = 10, N = 1000 here'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)   # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)                          # inline HTML tags
    text = re.sub(r"\$+([^$]*)\$+", r"\1", text)                # maths without its delimiters
    text = re.sub(r"(\*\*|__|\*|`)", "", text)                   # emphasis and code marks
    return re.sub(r"\s+", " ", text).strip()


def _figure_alt_texts(nb) -> list[tuple[int, int, str, str]]:
    """The alt text the HTML page gives each figure output of a notebook.

    A figure (``image/png``, ``image/jpeg`` or ``image/svg+xml`` output) keeps the alt text
    of its output metadata (``{"image/png": {"alt": ...}}``, or a top-level ``"alt"``). One
    without gets "Figure in section “<heading>”", the last Markdown heading before it (in a
    Markdown cell or a Markdown output), numbered ("Figure 2 in section ...") when the
    section has several figures without alt text.

    Returns
    -------
    list of (cell index, output index, MIME type, alt text)
    """
    found, section, count = [], "", {}
    for i, cell in enumerate(nb.cells):
        texts = [cell.source] if cell.cell_type == "markdown" else []
        for j, out in enumerate(cell.get("outputs", [])):
            data, meta = out.get("data", {}), out.get("metadata", {})
            for mime in _IMAGE_TYPES:
                if mime in data:
                    own = (meta.get(mime) or {}).get("alt") or meta.get("alt")
                    if own:
                        found.append((i, j, mime, str(own)))
                    else:
                        count[section] = count.get(section, 0) + 1
                        found.append((i, j, mime, (section, count[section])))
                    break
            md = data.get("text/markdown")
            if md:
                texts.append(md)
        for text in texts:
            text = _FENCE.sub("", text if isinstance(text, str) else "".join(text))
            for m in _HEADING.finditer(text):
                section = _plain_heading(m.group(2))
    result = []
    for i, j, mime, alt in found:
        if isinstance(alt, tuple):
            where, k = alt
            name = "Figure" if count[where] == 1 else f"Figure {k}"
            alt = f"{name} in section “{where}”" if where else f"{name} of the notebook"
        result.append((i, j, mime, alt))
    return result


@functools.cache
def _alt_preprocessor_class():
    require("nbconvert", "evallib.report.htmlexport")
    from nbconvert.preprocessors import Preprocessor

    class ImageAltPreprocessor(Preprocessor):
        """Give every figure output without alt text one (``_figure_alt_texts``).

        The text goes into the output's metadata (``{"image/png": {"alt": ...}}``), where
        the ``evallib`` template reads it for the ``<img alt>``.
        """

        def preprocess(self, nb, resources):
            for i, j, mime, alt in _figure_alt_texts(nb):
                meta = nb.cells[i].outputs[j].setdefault("metadata", {})
                entry = meta.setdefault(mime, {})
                if not entry.get("alt"):
                    entry["alt"] = alt
            return nb, resources

    return ImageAltPreprocessor


@functools.cache
def _exporter_class():
    require("nbconvert", "evallib.report.htmlexport")
    from nbconvert.exporters import HTMLExporter

    class OfflineHTMLExporter(HTMLExporter):
        """nbconvert's HTML exporter with the ``evallib`` template: MathML maths, no CDN scripts.

        The page is the one a plain ``jupyter nbconvert --to html`` writes with the
        repository's settings (:data:`NBCONVERT_CONFIG`): the solutions folded, alt text on
        every figure.

        ``evallib.report.htmlexport.OfflineHTMLExporter`` is built on first use, so that importing
        evallib does not import nbconvert; its keyword arguments are the exporter's traits,
        e.g. ``exclude_input=True``. Also usable as
        ``jupyter nbconvert --to evallib.report.htmlexport.OfflineHTMLExporter``.
        """

        export_from_notebook = "HTML (offline maths)"

        def __init__(self, **kw):
            super().__init__(**kw)
            for key, value in NBCONVERT_CONFIG["HTMLExporter"].items():
                if key.endswith("_url"):
                    setattr(self, key, value)
            self.register_preprocessor(_preprocessor_class(), enabled=True)
            self.register_preprocessor(_alt_preprocessor_class(), enabled=True)
            self.raw_template = _TEMPLATE

        def default_filters(self):
            yield from super().default_filters()
            yield ("markdown2html", self._markdown2html_mathml)

        def _markdown2html_mathml(self, source):
            return markdown_to_html(source)

    return OfflineHTMLExporter


def _read_notebook(notebook: Any):
    require("nbformat", "evallib.report.htmlexport")
    import nbformat

    if isinstance(notebook, (str, os.PathLike)):
        path = Path(notebook)
        if not path.is_file():
            raise ValueError(f"notebook must be an .ipynb file or a notebook object, no file {path}")
        return nbformat.read(path, as_version=4), str(path.parent)
    if isinstance(notebook, dict) and "cells" in notebook:
        return nbformat.from_dict(notebook), ""
    raise TypeError(f"notebook must be a path or a notebook (nbformat.NotebookNode), got {type(notebook).__name__}")


def export_html(notebook: Any, output_path: Any, *, exclude_input: bool = False) -> Path:
    """Write ``notebook`` as HTML whose mathematics renders without network access.

    The page is nbconvert's ``lab`` HTML with every formula of the Markdown cells (and
    of Markdown and LaTeX outputs) converted to MathML (:func:`latex_to_mathml`), and
    without the scripts nbconvert loads from a CDN (MathJax, require.js, Mermaid, the
    widget manager). Images are embedded as nbconvert embeds them (base64 outputs), each
    with alt text; the cells tagged ``solutions`` are folded into a closed ``<details>``.

    Parameters
    ----------
    notebook : path or nbformat.NotebookNode
        An ``.ipynb`` file or a notebook object (e.g. papermill's result).
    output_path : path
        Where to write the HTML; its folder must exist.
    exclude_input : bool
        Leave out the code cells' input (a report for readers who do not read code).

    Returns
    -------
    pathlib.Path
        ``output_path``.

    Raises
    ------
    ValueError
        A formula latex2mathml cannot convert, or a missing notebook file or output folder.
    """
    if not isinstance(exclude_input, (bool,)):
        raise TypeError(f"exclude_input must be True or False, got {exclude_input!r}")
    nb, folder = _read_notebook(notebook)
    out = Path(output_path)
    if not out.parent.is_dir():
        raise ValueError(f"output_path's folder {out.parent} does not exist")
    exporter = _exporter_class()(exclude_input=exclude_input, exclude_input_prompt=exclude_input)
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"path": folder}})
    out.write_text(body, encoding="utf-8")
    return out


def check_notebook_math(notebook: Any) -> int:
    """Convert every formula of a notebook's Markdown cells; return how many there are.

    Parameters
    ----------
    notebook : str, os.PathLike or nbformat.NotebookNode
        An ``.ipynb`` file or a notebook object (a dict with ``cells``).

    Returns
    -------
    int
        The number of ``<math>`` elements the Markdown cells give (0 for none).

    Raises
    ------
    ValueError
        Naming the cell and the first formula that latex2mathml cannot convert, or a
        path that is not a file.
    TypeError
        ``notebook`` is neither a path nor a notebook.
    """
    nb, _ = _read_notebook(notebook)
    count = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        try:
            count += markdown_to_html(cell.source).count("<math")
        except ValueError as err:
            raise ValueError(f"cell {i}: {err}") from err
    return count


def _script_sources(page: str) -> list[str]:
    """The ``src`` of every ``<script>`` of an HTML page (for the tests)."""
    return [html.unescape(s) for s in re.findall(r"<script[^>]*\bsrc\s*=\s*[\"']([^\"']*)", page, flags=re.I)]
