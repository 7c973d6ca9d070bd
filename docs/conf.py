"""Sphinx configuration of the workbook's site (``make docs`` -> docs/_build/html).

The site is built offline and executes nothing: the lessons are the committed notebooks
with their saved outputs (MyST-NB, ``nb_execution_mode = "off"``), the API reference is
generated from the public namespace at every build (``_ext/evallib_site.py``), MathJax is
a local copy (sphinx-mathjax-offline) and the theme loads no font or script from a CDN.
``make docs`` runs ``sphinx-build -W --keep-going -n``: every warning, a broken
cross-reference included, fails the build.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import evallib  # noqa: E402

project = "The classifier-comparison workbook"
author = "the evallib authors"
copyright = "the evallib authors, MIT licence"
release = version = evallib.__version__
language = "en"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx.ext.mathjax",
    "evallib_site",  # also: MathJax from the sphinx-mathjax-offline package, copied locally
]

# Sources: Markdown pages (MyST), the lesson notebooks (generated copies, see evallib_site),
# reStructuredText for the generated API pages.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_extra", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
root_doc = "index"
nitpicky = True

# Private modules and helpers (evallib._validate, onetestset._mcnemar, ...) have no page by
# design: the reference documents the public namespace. Other projects' objects (numpy,
# scipy, pandas, matplotlib, scikit-learn, the standard library) have none here either: the
# build is offline, so there is no intersphinx inventory to link them to. Any other target
# that does not resolve -- a public evallib name that does not exist -- fails the build.
nitpick_ignore_regex = [
    (r"py:.*", r"^~?(.*\.)?_[A-Za-z]\w*(\..*)?$"),
    (r"py:.*", r"^~?(numpy|np|scipy|pandas|pd|matplotlib|sklearn|statsmodels|baycomp|IPython|ipywidgets"
               r"|nbformat|nbconvert|papermill|latex2mathml|inspect_ai|mistune)(\..*)?$"),
    (r"py:.*", r"^(int|float|str|bool|bytes|dict|list|tuple|set|frozenset|object|callable|type|None"
               r"|Path|pathlib\..*|os\..*|collections\..*|typing\..*|dataclasses\..*|io\..*|datetime\..*"
               r"|Hashable|Mapping|Sequence|Iterable|Iterator|Callable|Any|Literal)$"),
]

# MyST-NB: the saved outputs, never executed; no widget JavaScript (the notebooks store no
# widget state, and MyST-NB's default would load require.js and the widget manager from a CDN).
nb_execution_mode = "off"
nb_ipywidgets_js = {}
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # the notebooks' headings start at H1 and may skip a level

# autodoc + numpydoc: signatures without annotations (their numpy / pandas types would be
# cross-references to other projects), parameter types as written, no member tables of
# results (their fields are documented in the class docstring). Validation is the
# docstring test's job (tests), not the build's.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_inherit_docstrings = False
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

html_theme = "pydata_sphinx_theme"
html_title = "Classifier-comparison workbook"
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_js_files = ["site.js"]
html_extra_path = ["_extra"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "collapse_navigation": True,
    "navbar_align": "left",
    "header_links_before_dropdown": 7,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    # no icon links, no version switcher, no announcement: each would fetch or link elsewhere
    "icon_links": [],
    "use_edit_page_button": False,
}
html_sidebars = {"index": [], "speed": [], "cite": [], "conventions": []}
