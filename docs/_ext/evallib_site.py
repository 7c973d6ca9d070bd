"""The site's generated pages: the lessons and the API reference, written at every build.

Nothing here is committed output: at ``builder-inited`` (before Sphinx looks for its
sources) this extension writes

* ``docs/lessons/NN_name.ipynb`` -- each lesson ``notebooks/0*.ipynb`` as the site shows it:
  the cells tagged ``author`` left out (as Voila's ``TagRemovePreprocessor`` drops them,
  ``etc/jupyter/voila.json``), the cells tagged ``solutions`` folded into a closed dropdown
  (MyST-NB's ``hide-cell``), and a first cell with the "launch on Binder" and download links;
* ``docs/api/`` -- one page per public namespace (``evallib``, each design subpackage, the
  upper layers, the public modules), grouped by the private module a name comes from, and
  one page per public function, class and constant, with the lessons that use it (found by
  parsing the lessons' code cells for the names they import from ``evallib``).

The namespaces are discovered (every subpackage of ``evallib`` whose name has no leading
underscore, and every public module inside one that has an ``__all__``), so a new
subpackage or name gets its pages with no change here. A reference to a public name through
another namespace that exports it (``evallib.mcnemar``, ``evallib.lessons.live.figure``)
resolves to the name's page.

The Binder link is the one ``make binder-links`` prints (the Makefile passes its JupyterLab
address as ``EVALLIB_BINDER_URL``); without it (a clone with no GitHub remote and no
``BINDER_REPO=owner/name``) a lesson page says in one sentence how to get one.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

logger = logging.getLogger(__name__)

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS_OUT = DOCS / "lessons"
API_OUT = DOCS / "api"
REPORTS = DOCS / "_extra" / "reports"

#: the order of the namespaces on the reference's index: the designs as notebook 00 orders
#: them, planning, then any other library subpackage (alphabetical), then the upper layers.
DESIGNS = ("onetestset", "resampling", "manydatasets", "items", "planning")
UPPER = ("lessons", "studies", "report")
GROUP_TITLES = {
    "onetestset": "Design 1: one test set",
    "resampling": "Design 2: resampling one data set",
    "manydatasets": "Design 3: many data sets",
    "items": "Design 4: per-item evaluation",
    "planning": "Planning: power and sample size",
    "lessons": "The lessons' support",
    "studies": "The sources' studies",
    "report": "The report application",
}


# --------------------------------------------------------------------------- lessons


def lesson_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("0*.ipynb"))


def binder_sentence(name: str) -> str:
    base = os.environ.get("EVALLIB_BINDER_URL", "").strip()
    if base:
        return (f"[Launch on Binder]({base}?urlpath=lab/tree/notebooks/{name}) "
                f"(JupyterLab, the notebook live)")
    return ("No Binder link: this site was built from a clone without a GitHub address "
            "(build it with `make docs BINDER_REPO=owner/name` to add one)")


def site_notebook(path: Path) -> dict:
    """The lesson ``path`` as the site shows it (see the module docstring)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if "author" in tags:
            continue
        if "solutions" in tags:
            meta = cell.setdefault("metadata", {})
            meta["tags"] = [*tags, "hide-cell"]
            meta["mystnb"] = {"code_prompt_show": "Solutions (click to show)",
                              "code_prompt_hide": "Hide the solutions"}
        cells.append(cell)
    links = {
        "cell_type": "markdown", "metadata": {}, "id": "site-links",
        "source": (f"{binder_sentence(path.name)} · "
                   f"{{download}}`Download the notebook <../../notebooks/{path.name}>` "
                   f"(it runs with `evallib` installed: see [Set-up](../setup.md))\n"),
    }
    nb["cells"] = [links, *cells]
    return nb


def write_lessons() -> list[Path]:
    LESSONS_OUT.mkdir(exist_ok=True)
    for old in LESSONS_OUT.glob("0*.ipynb"):
        old.unlink()
    written = []
    for path in lesson_paths():
        out = LESSONS_OUT / path.name
        out.write_text(json.dumps(site_notebook(path), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(out)
    return written


def names_used(path: Path) -> set[str]:
    """The public names a notebook's code cells take from ``evallib``.

    ``from evallib[.sub] import a, b as c`` gives ``a`` and ``b``; ``import evallib[.sub] as
    ev`` gives every ``ev.x`` the cells read. Lines of IPython magics are skipped.
    """
    nb = json.loads(path.read_text(encoding="utf-8"))
    used: set[str] = set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        source = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        aliases: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "evallib":
                used.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                aliases.update(a.asname or a.name for a in node.names if a.name.split(".")[0] == "evallib")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                chain = []
                cur = node
                while isinstance(cur, ast.Attribute):
                    chain.append(cur.attr)
                    cur = cur.value
                if isinstance(cur, ast.Name) and cur.id in aliases:
                    used.update(chain)
    return used


def lesson_title(path: Path) -> str:
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


# --------------------------------------------------------------------------- the namespace


@dataclass
class Entry:
    """One public name at its home: the first namespace (in page order) that exports it."""

    name: str
    home: str  # the namespace, e.g. "evallib.onetestset"
    obj: object
    kind: str  # "function", "class" or "data"
    source: str | None = None  # the private module it is defined in
    aliases: list[str] = field(default_factory=list)

    @property
    def qualified(self) -> str:
        return f"{self.home}.{self.name}"


def namespaces() -> list[str]:
    """Every public namespace, in the reference's order (see :data:`DESIGNS`)."""
    import evallib

    subs = sorted(m.name for m in pkgutil.iter_modules(evallib.__path__) if m.ispkg and not m.name.startswith("_"))
    library = [s for s in DESIGNS if s in subs] + [s for s in subs if s not in DESIGNS and s not in UPPER]
    upper = [s for s in UPPER if s in subs]
    order = []
    for sub in [*library, *upper]:
        order.append(f"evallib.{sub}")
        pkg = importlib.import_module(f"evallib.{sub}")
        for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if not m.name.startswith("_") and not m.ispkg:
                mod = importlib.import_module(f"evallib.{sub}.{m.name}")
                if hasattr(mod, "__all__"):
                    order.append(mod.__name__)
    return order


def kind_of(obj) -> str:
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "data"


def defining_module(package: str, name: str, obj) -> str | None:
    """The module below ``package`` that defines ``name`` (a function's or class's
    ``__module__``; for a constant, the module whose source assigns it)."""
    if kind_of(obj) != "data":
        return getattr(obj, "__module__", None)
    pkg = importlib.import_module(package)
    candidates = [package]
    if hasattr(pkg, "__path__"):
        candidates += [f"{package}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)]
    pattern = re.compile(rf"^{re.escape(name)}\s*(:[^=\n]*)?=", re.M)
    for modname in candidates:
        mod = importlib.import_module(modname)
        if vars(mod).get(name) is obj and pattern.search(inspect.getsource(mod)):
            return modname
    return None


def collect() -> tuple[list[str], dict[str, Entry], dict[str, list[str]]]:
    """The namespaces, every public name's entry keyed by its qualified home name, and
    each namespace's names (qualified homes, in ``__all__`` order)."""
    import evallib

    spaces = namespaces()
    entries: dict[str, Entry] = {}
    by_object: dict[tuple[str, int], str] = {}
    members: dict[str, list[str]] = {}
    for space in spaces:
        mod = importlib.import_module(space)
        members[space] = []
        for name in mod.__all__:
            obj = getattr(mod, name)
            key = (name, id(obj))
            if key in by_object:  # re-exported (lessons.live's names in lessons)
                entries[by_object[key]].aliases.append(f"{space}.{name}")
                members[space].append(by_object[key])
                continue
            entry = Entry(name, space, obj, kind_of(obj), defining_module(space, name, obj))
            entries[entry.qualified] = entry
            by_object[key] = entry.qualified
            members[space].append(entry.qualified)
    # evallib's own namespace: the designs' names and the report's entry points, plus its own
    members["evallib"] = []
    for name in evallib.__all__:
        obj = getattr(evallib, name)
        key = (name, id(obj))
        if key in by_object:
            entries[by_object[key]].aliases.append(f"evallib.{name}")
            members["evallib"].append(by_object[key])
        else:
            entry = Entry(name, "evallib", obj, kind_of(obj), defining_module("evallib", name, obj))
            entries[entry.qualified] = entry
            by_object[key] = entry.qualified
            members["evallib"].append(entry.qualified)
    return ["evallib", *spaces], entries, members


# --------------------------------------------------------------------------- API pages

KIND_WORDS = {"function": "A function.", "class": "A class.", "data": "A constant."}


def first_paragraph(doc: str | None) -> str:
    doc = inspect.cleandoc(doc or "")
    return doc.split("\n\n")[0].replace("\n", " ").strip()


#: words whose full stop does not end a sentence
ABBREVIATIONS = {"eq", "eqs", "e.g", "i.e", "al", "cf", "fig", "figs", "vs", "no", "sec", "ch", "approx", "resp"}


def first_line(doc: str | None) -> str:
    """The first sentence of a docstring (a full stop inside ``literal`` text does not end it)."""
    text = first_paragraph(doc)
    for match in re.finditer(r"\.(\s|$)", text):
        before = text[:match.start()]
        word = before.rsplit(None, 1)[-1] if before.split() else ""
        if before.count("``") % 2 or word.lower().strip("(") in ABBREVIATIONS or len(word.strip("(")) == 1:
            continue  # inside a literal, or "eq. 2", "e.g. x", "J. Smith"
        return before
    return text


def rst_heading(text: str, char: str) -> str:
    return f"{text}\n{char * len(text)}\n"


#: qualified name -> page (docs/api/generated/...), set by write_api
PAGES: dict[str, str] = {}


def page_names(qualified: list[str]) -> dict[str, str]:
    """One page per name; a class whose name differs from a function's only in case
    (``Contingency``, ``contingency``) gets ``-class`` appended, so that no two files
    differ only in case (case-insensitive file systems, and Sphinx's labels)."""
    lower = {}
    for q in qualified:
        lower.setdefault(q.lower(), []).append(q)
    pages = {}
    for q in qualified:
        clash = len(lower[q.lower()]) > 1 and q.rsplit(".", 1)[-1][:1].isupper()
        pages[q] = f"generated/{q}-class" if clash else f"generated/{q}"
    return pages


def page_name(qualified: str) -> str:
    return PAGES[qualified]


def constant_doc(entry: Entry) -> list[str]:
    """The ``#:`` comment above a constant's assignment in the module that defines it."""
    if entry.source is None:
        return []
    try:
        docs = ModuleAnalyzer.for_module(entry.source).find_attr_docs()
    except Exception:  # pragma: no cover - a module Sphinx cannot parse
        return []
    return list(docs.get(("", entry.name), []))


def entry_page(entry: Entry, lessons: dict[str, tuple[str, str]], uses: dict[str, set[str]]) -> str:
    title = entry.name
    lines = [rst_heading(title, "="), f".. currentmodule:: {entry.home}", ""]
    if entry.kind == "function":
        lines += [f".. autofunction:: {entry.qualified}", ""]
    elif entry.kind == "class":
        lines += [f".. autoclass:: {entry.qualified}", "   :members:", ""]
    else:
        value = repr(entry.obj)
        if len(value) > 300:
            value = value[:297] + "..."
        lines += [f".. py:data:: {entry.name}", ""]
        doc = constant_doc(entry)
        lines += [f"   {line}" for line in doc] or ["   A constant of the public namespace."]
        lines += ["", f"   A ``{type(entry.obj).__name__}``; its value::", ""]
        lines += [f"      {line}" for line in value.splitlines()] + [""]
    lines += [rst_heading("Where it is taught", "-")]
    taught = [stem for stem, used in uses.items() if entry.name in used]
    if taught:
        lines += [f"- :doc:`/lessons/{stem}` ({lessons[stem][0]})" for stem in taught]
    else:
        lines += ["No lesson imports it; the reference above is its documentation."]
    lines += [""]
    if entry.aliases:
        lines += [rst_heading("Also importable as", "-")]
        lines += [f"- ``{alias}``" for alias in entry.aliases] + [""]
    return "\n".join(lines)


def namespace_page(space: str, members: list[str], entries: dict[str, Entry]) -> str:
    mod = importlib.import_module(space)
    short = space.rsplit(".", 1)[-1]
    title = space if space == "evallib" else f"{space}: {GROUP_TITLES.get(short, first_line(mod.__doc__))}"
    if space.count(".") == 2:  # a public module
        title = f"{space}: {first_line(mod.__doc__)}"
    lines = [rst_heading(title, "="), f".. py:module:: {space}", ""]
    lines += [first_paragraph(mod.__doc__), ""]
    own = [q for q in members if entries[q].home == space]
    elsewhere = [q for q in members if entries[q].home != space]
    groups: dict[str, list[str]] = {}
    for q in own:
        groups.setdefault(entries[q].source or space, []).append(q)
    for source, names in groups.items():
        heading = "Defined here" if source == space else first_line(importlib.import_module(source).__doc__)
        lines += [rst_heading(heading or source, "-"), ".. list-table::", "   :widths: 35 65", ""]
        for q in names:
            e = entries[q]
            summary = first_line(" ".join(constant_doc(e)) if e.kind == "data" else e.obj.__doc__)
            lines += [f"   * - :doc:`{e.name} <{page_name(q)}>`", f"     - {summary or KIND_WORDS[e.kind]}"]
        lines += [""]
    if elsewhere:
        homes: dict[str, list[str]] = {}
        for q in elsewhere:
            homes.setdefault(entries[q].home, []).append(q)
        lines += [rst_heading("Exported here from their home namespace", "-")]
        for home, names in homes.items():
            refs = ", ".join(f":doc:`{entries[q].name} <{page_name(q)}>`" for q in names)
            lines += [f"- from :doc:`{home} <{home}>`: {refs}", ""]
    if own:
        lines += [".. toctree::", "   :hidden:", "", *[f"   {page_name(q)}" for q in own], ""]
    return "\n".join(lines)


def write_api() -> tuple[dict[str, str], dict[str, type]]:
    """Write docs/api/ afresh; returns the alias -> qualified home map and the public
    classes by qualified home."""
    spaces, entries, members = collect()
    if API_OUT.exists():
        shutil.rmtree(API_OUT)
    (API_OUT / "generated").mkdir(parents=True)
    PAGES.clear()
    PAGES.update(page_names(list(entries)))
    lessons = {p.stem: (lesson_title(p), p.name) for p in lesson_paths()}
    uses = {p.stem: names_used(p) for p in lesson_paths()}
    for e in entries.values():
        (API_OUT / f"{page_name(e.qualified)}.rst").write_text(entry_page(e, lessons, uses), encoding="utf-8")
    for space in spaces:
        (API_OUT / f"{space}.rst").write_text(namespace_page(space, members[space], entries), encoding="utf-8")
    index = [rst_heading("API reference", "="),
             "Generated at every build from the public namespace: each namespace's ``__all__``, every",
             "subpackage of ``evallib`` without a leading underscore and every public module in one.",
             f"It lists {len(entries)} public names: {sum(e.kind == 'function' for e in entries.values())} functions, "
             f"{sum(e.kind == 'class' for e in entries.values())} classes and "
             f"{sum(e.kind == 'data' for e in entries.values())} constants. Each page says which lessons use the name.",
             "The statistics library is laid out by design (notebook 00); the spellings follow",
             ":doc:`/conventions`.", "",
             ".. toctree::", "   :maxdepth: 1", "", *[f"   {space}" for space in spaces], "",
             ]
    (API_OUT / "index.rst").write_text("\n".join(index), encoding="utf-8")
    aliases = {}
    for q, e in entries.items():
        for alias in e.aliases:
            aliases[alias] = q
    classes = {q: e.obj for q, e in entries.items() if e.kind == "class"}
    return aliases, classes


# --------------------------------------------------------------------------- the example reports


def check_reports() -> None:
    """The committed example reports (``make docs-reports``) match their inputs: each
    input's SHA-256 recorded when the report was made equals the file's now."""
    manifest = REPORTS / "manifest.json"
    if not manifest.exists():
        raise ExtensionError(f"{manifest} is missing: run `make docs-reports`")
    for report in json.loads(manifest.read_text(encoding="utf-8"))["reports"]:
        page = REPORTS / report["html"]
        if not page.exists():
            raise ExtensionError(f"{page} is missing: run `make docs-reports`")
        data = ROOT / report["input"]
        digest = hashlib.sha256(data.read_bytes()).hexdigest()
        if digest != report["sha256"]:
            logger.warning(f"{report['html']} was made from another version of {report['input']}: "
                           "run `make docs-reports`", type="evallib", subtype="reports")


# --------------------------------------------------------------------------- MathJax, offline

#: the parts of MathJax 3 that its ``tex-chtml.js`` component loads, on a page or on demand
#: (fonts, TeX extensions by autoload, the menu, the accessibility explorer and its speech
#: rule engine); the other combined components (SVG output, MathML input) are not copied.
MATHJAX_PARTS = ("tex-chtml.js", "output/chtml", "input/tex/extensions", "ui", "a11y", "sre", "adaptors")


def mathjax_source() -> Path:
    """The MathJax copy of the ``sphinx-mathjax-offline`` package (the ``docs`` extra)."""
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or spec.origin is None:
        raise ExtensionError("the docs need the sphinx-mathjax-offline package (pip install -e '.[docs]')")
    return Path(spec.origin).parent / "static" / "mathjax"


def copy_mathjax(app: Sphinx, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    source, target = mathjax_source(), Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        src = source / part
        if src.is_dir():
            shutil.copytree(src, target / part, dirs_exist_ok=True)
        else:
            (target / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / part)


# --------------------------------------------------------------------------- wiring


def builder_inited(app: Sphinx) -> None:
    write_lessons()
    aliases, classes = write_api()
    app.env.evallib_aliases = aliases  # type: ignore[attr-defined]
    app.env.evallib_classes = classes  # type: ignore[attr-defined]
    app.env.evallib_attributes = _all_module_attributes()  # type: ignore[attr-defined]
    check_reports()


def _all_module_attributes() -> dict[str, set[str]]:
    """Every module of evallib (private ones included) -> the names it binds."""
    import evallib

    found: dict[str, set[str]] = {"evallib": set(vars(evallib))}
    for info in pkgutil.walk_packages(evallib.__path__, "evallib."):
        if info.name.endswith("__main__"):
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception:  # pragma: no cover - an optional package missing
            continue
        found[info.name] = set(vars(mod))
    return found


def _public_class(env, dotted: str):
    """The qualified home of the public class ``dotted`` names (alias or home), or None."""
    home = env.evallib_aliases.get(dotted, dotted)
    return home if home in env.evallib_classes else None


def missing_reference(app, env, node, contnode):
    """Resolve what the docstrings name the way a reader of ``evallib`` would.

    1. A name through another namespace that exports it (``evallib.mcnemar``,
       ``evallib.CVTTestResult.interval``) -> the name's page at its home.
    2. A bare name that is not in the current namespace but is a public name of ``evallib``
       (``format_table`` in a studies docstring) -> its page.
    3. A field of a public result class (``:attr:`n_resamples``` in its docstring,
       ``F1TestCheck.confidence``) -> the class's page, where its fields are listed.
    4. A name that exists in evallib but is not public (a private helper or constant)
       -> plain text, no link: private names have no page by design.

    Anything else -- a name that exists nowhere -- stays a broken reference, and ``-W``
    fails the build.
    """
    if node.get("refdomain") != "py":
        return None
    aliases: dict[str, str] = getattr(env, "evallib_aliases", {})
    target = node.get("reftarget", "").lstrip("~").lstrip(".")
    domain = env.get_domain("py")

    def resolve(new_target: str, reftype: str | None = None):
        new = node.deepcopy()
        new["reftarget"] = new_target
        return domain.resolve_xref(env, node.get("refdoc"), app.builder, reftype or node.get("reftype"),
                                   new_target, new, contnode)

    # 1. alias prefix -> home
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in aliases:
            hit = resolve(".".join([aliases[prefix], *parts[cut:]]))
            if hit is not None:
                return hit
            break
    # 2. a bare public name of evallib
    if len(parts) == 1 and f"evallib.{target}" in aliases:
        hit = resolve(aliases[f"evallib.{target}"])
        if hit is not None:
            return hit
    # 3. a field of a public class -> the class's page
    if node.get("reftype") in ("attr", "meth", "obj"):
        owner = None
        if len(parts) > 1:
            owner = ".".join(parts[:-1])
            owner = _public_class(env, owner) or _public_class(env, f"{node.get('py:module')}.{owner}") \
                or _public_class(env, f"evallib.{owner}")
        elif node.get("py:class"):
            owner = _public_class(env, f"{node.get('py:module')}.{node.get('py:class')}")
        if owner is not None and hasattr(env.evallib_classes[owner], parts[-1]) or (
                owner is not None and parts[-1] in getattr(env.evallib_classes[owner], "__dataclass_fields__", {})):
            hit = resolve(owner, "class")
            if hit is not None:
                return hit
    # 4. exists in evallib, not public -> unlinked text
    attrs = env.evallib_attributes
    module, _, name = target.rpartition(".")
    if (module and name in attrs.get(module, ())) or (not module and any(name in names for names in attrs.values())):
        return contnode
    if target in attrs:  # a private module
        return contnode
    if module in attrs and any(name in names for mod, names in attrs.items() if mod.startswith(f"{module}._")):
        return contnode  # a private helper of that package, named through the package
    return None


def citation_roles(app, pagename, templatename, context, doctree) -> None:
    """docutils writes a References section's entries as ``role="doc-biblioentry"`` inside a
    ``role="list"``, which lacks the list items the role requires (axe-core's
    aria-required-children, critical): make each entry a ``listitem``."""
    if "body" in context:
        context["body"] = context["body"].replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", citation_roles)
    app.connect("build-finished", copy_mathjax)
    mathjax_source()
    app.config.mathjax_path = "mathjax/tex-chtml.js"
    app.connect("builder-inited", builder_inited)
    app.connect("missing-reference", missing_reference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
