"""Intra-package imports stand at module level, so the import graph shows the real dependencies.

An AST scan of every module of ``evallib/``: an ``import evallib...`` or a relative import
inside a function (or a method, or a function nested in one) is reported as ``file:line``.
Only heavy optional packages (scikit-learn, nbconvert, IPython, ...; never evallib) may be
imported inside functions, and each such import is preceded in its function by
:func:`evallib._extras.require` (or :func:`~evallib._extras.find`) of that package, so that a
missing one gets the sentence naming its ``pip install`` command. The report's own modules
(``evallib/report/``) are scanned apart (``-k report`` runs them alone). One evallib module
counts as a heavy optional package, by name: :data:`HEAVY_OWN_MODULES`.

One home per name: no module imports a private helper (a name with a leading underscore) from
another subpackage's private module; the shared private modules ``evallib/_*.py`` and a
subpackage's own modules are the places to import private helpers from.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from conftest import ROOT

from evallib._extras import OPTIONAL_MODULES

PACKAGE = ROOT / "evallib"
REPORT = PACKAGE / "report"
#: evallib modules that may be imported inside a function, by dotted name (wherever the import is).
#: evallib.report._kernel subclasses jupyter_client's classes when it is imported, so importing it is
#: importing that heavy optional package (the report extra): the report's runner imports it
#: inside the function that builds its kernel manager, after checking the extra.
HEAVY_OWN_MODULES = {"evallib.report._kernel"}


_FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)


@functools.cache
def _statements(source: str) -> tuple[tuple[ast.AST, tuple[ast.AST, ...]], ...]:
    """Every import statement and call of ``source``, each with the functions (outermost first)
    it stands inside: one walk of the parsed module, shared by the scans (a function's
    ``ast.walk`` holds exactly the nodes that list it)."""
    found = []

    def visit(node: ast.AST, functions: tuple[ast.AST, ...]) -> None:
        if isinstance(node, _FUNCTION):
            functions = functions + (node,)
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Call)):
            found.append((node, functions))
        for child in ast.iter_child_nodes(node):
            visit(child, functions)

    visit(ast.parse(source), ())
    return tuple(found)


def _own(node: ast.AST) -> bool:
    """An import of evallib itself: relative, or absolute from ``evallib``."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "evallib"
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "evallib" for a in node.names)
    return False


def _package(name: str) -> list[str]:
    """The dotted package of the module at path ``name`` (``evallib/report/runner.py`` ->
    ``["evallib", "report"]``), against which its relative imports are resolved."""
    parts = list(Path(name).with_suffix("").parts)
    return parts[:-1]


def _targets(node: ast.AST, package: list[str]) -> list[str]:
    """The dotted names of the modules (or the modules' names) an import statement imports."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = package[:len(package) - node.level + 1] if node.level else []
    if node.module:
        return [".".join(base + node.module.split("."))]
    return [".".join(base + [a.name]) for a in node.names]


def _exempt(node: ast.AST, package: list[str]) -> bool:
    return all(target in HEAVY_OWN_MODULES for target in _targets(node, package))


def function_local_own_imports(source: str, name: str) -> list[str]:
    """``name:line: statement`` of every intra-package import inside a function of ``source``,
    except those of :data:`HEAVY_OWN_MODULES`."""
    package = _package(name)
    found = {(node.lineno, ast.unparse(node)) for node, functions in _statements(source)
             if functions and _own(node) and not _exempt(node, package)}
    return [f"{name}:{line}: {text}" for line, text in sorted(found)]


def _optional_top(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        names = [node.module]
    else:
        return []
    return [n.split(".")[0] for n in names if n.split(".")[0] in OPTIONAL_MODULES]


def _required(call: ast.AST) -> str | None:
    """The package a ``require("pkg...", ...)`` or ``find("pkg", ...)`` call names, else None."""
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in {"require", "find"} \
            and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value.split(".")[0]
    return None


def unguarded_optional_imports(source: str, name: str) -> list[str]:
    """``name:line: statement`` of every import of an optional package inside a function that no
    earlier ``require``/``find`` of that package in the same function guards."""
    within: dict[int, list[ast.AST]] = {}      # id of a function -> the statements inside it
    for node, functions in _statements(source):
        for fn in functions:
            within.setdefault(id(fn), []).append(node)
    problems = set()
    for nodes in within.values():
        guarded = {(node.lineno, pkg) for node in nodes if (pkg := _required(node))}
        for node in nodes:
            for top in _optional_top(node):
                if not any(pkg == top and line < node.lineno for line, pkg in guarded):
                    problems.add((node.lineno, ast.unparse(node)))
    return [f"{name}:{line}: {text}" for line, text in sorted(problems)]


def _modules(report: bool) -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts and (REPORT in p.parents) == report)


def _scan(check, report: bool) -> list[str]:
    return [hit for path in _modules(report)
            for hit in check(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]


PARTS = [pytest.param(False, id="library"), pytest.param(True, id="report")]


@pytest.mark.parametrize("report", PARTS)
def test_no_function_local_intra_package_import(report):
    hits = _scan(function_local_own_imports, report)
    assert not hits, "intra-package imports inside functions (move them to module level):\n  " + "\n  ".join(hits)


@pytest.mark.parametrize("report", PARTS)
def test_every_optional_import_says_which_extra_it_needs(report):
    hits = _scan(unguarded_optional_imports, report)
    assert not hits, ("imports of optional packages without require()/find() of evallib._extras before them:\n  "
                      + "\n  ".join(hits))


def test_the_scan_reads_every_module():
    assert len(_modules(False)) > 40 and len(_modules(True)) > 10


# The checks can fail: planted examples.
_PLANTED = '''
from . import fine
import numpy as np

def f():
    from .means import x
    import evallib.planning
    import scipy.stats

class C:
    def method(self):
        def inner():
            from ..onetestset import pairwise
        return inner
'''


def test_the_scan_finds_function_local_intra_package_imports():
    assert function_local_own_imports(_PLANTED, "m.py") == [
        "m.py:6: from .means import x",
        "m.py:7: import evallib.planning",
        "m.py:13: from ..onetestset import pairwise",
    ]


def test_only_the_named_heavy_module_is_exempt():
    source = '''
def kernel():
    from ._kernel import PatientKernelManager
    from . import _kernel
    import evallib.report._kernel
    from ._kernel import x, y

def other():
    from .._results import freeze_arrays
    from . import _kernel, _prose
    from .. import _kernel
'''
    assert function_local_own_imports(source, "evallib/report/_runner.py") == [
        "evallib/report/_runner.py:9: from .._results import freeze_arrays",
        "evallib/report/_runner.py:10: from . import _kernel, _prose",
        "evallib/report/_runner.py:11: from .. import _kernel",  # evallib._kernel: not the heavy module
    ]
    # the same relative import one package lower names another module
    assert function_local_own_imports("def f():\n    from ._kernel import K\n", "evallib/report/sub/m.py") == [
        "evallib/report/sub/m.py:2: from ._kernel import K"]


def test_the_scan_finds_an_unguarded_optional_import():
    source = '''
def guarded():
    require("sklearn", "guarded")
    from sklearn.base import clone

def late():
    from sklearn.base import clone
    require("sklearn", "late")

def other_package():
    require("IPython", "other")
    import ipywidgets
'''
    assert unguarded_optional_imports(source, "m.py") == [
        "m.py:7: from sklearn.base import clone",
        "m.py:12: import ipywidgets",
    ]


# One home per name: a private helper is imported only where it lives. A module may import a
# private name (leading underscore) from the top-level shared private modules (evallib/_*.py) and
# from the modules of its own subpackage; never from another subpackage's private module. A
# helper two subpackages need moves to a shared module evallib/_*.py (or becomes public).
#: Modules outside a subpackage that belong to one: the command line is the report application's.
OWNERS = {"evallib/__main__.py": "report"}


def _subpackage(name: str) -> str | None:
    """The subpackage that owns the module at path ``name`` (``evallib/report/_inputs.py`` ->
    ``"report"``), or None for a top-level module of ``evallib``."""
    if name in OWNERS:
        return OWNERS[name]
    parts = Path(name).parts
    return parts[1] if len(parts) > 2 else None


def cross_subpackage_private_imports(source: str, name: str) -> list[str]:
    """``name:line: module._name`` of every private name that the module at path ``name`` imports
    from a private module of a subpackage other than its own."""
    own = _subpackage(name)
    package = _package(name)
    hits = set()
    for node, _ in _statements(source):
        if not (isinstance(node, ast.ImportFrom) and _own(node) and node.module):
            continue
        module = _targets(node, package)[0].split(".")
        if len(module) < 3 or module[1] == own or not any(part.startswith("_") for part in module[2:]):
            continue  # evallib itself, a top-level module, the own subpackage, or a public namespace
        for alias in node.names:
            if alias.name.startswith("_"):
                hits.add((node.lineno, f"{'.'.join(module)}.{alias.name}"))
    return [f"{name}:{line}: {text}" for line, text in sorted(hits)]


def test_no_module_imports_another_subpackages_private_helper():
    hits = [hit for path in _modules(False) + _modules(True)
            for hit in cross_subpackage_private_imports(path.read_text(encoding="utf-8"),
                                                        str(path.relative_to(ROOT)))]
    assert not hits, ("private helpers imported from another subpackage's private module (move the helper to a "
                      "shared evallib/_*.py module, or make it public):\n  " + "\n  ".join(hits))


def test_the_scan_finds_a_private_helper_imported_across_subpackages():
    source = '''
from .._validate import check_rng, _bound
from .._paired import _interval_bounds
from ._means import _wilson
from ..onetestset import mcnemar, _scoring
from ..onetestset._scoring import _paired_t, positive_mask
from evallib.planning._onetestset import (
    _check_margin_plan,
    mcnemar_power,
)
from ..report._inputs import _read_table

def f():
    from ..onetestset._cochran import _check_correct
'''
    assert cross_subpackage_private_imports(source, "evallib/items/_x.py") == [
        "evallib/items/_x.py:6: evallib.onetestset._scoring._paired_t",
        "evallib/items/_x.py:7: evallib.planning._onetestset._check_margin_plan",
        "evallib/items/_x.py:11: evallib.report._inputs._read_table",
        "evallib/items/_x.py:14: evallib.onetestset._cochran._check_correct",
    ]
    # the same imports from inside onetestset: only the other subpackages' helpers
    assert [h.split(": ")[1] for h in cross_subpackage_private_imports(source, "evallib/onetestset/_x.py")] == [
        "evallib.planning._onetestset._check_margin_plan", "evallib.report._inputs._read_table"]
    # a top-level module has no subpackage of its own; the command line is the report's
    assert cross_subpackage_private_imports("from .report._inputs import _read_table\n", "evallib/__main__.py") == []
    assert cross_subpackage_private_imports("from .report._inputs import _read_table\n", "evallib/_x.py") == [
        "evallib/_x.py:1: evallib.report._inputs._read_table"]


# --------------------------------------------------------------------------- no import circle


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module-level intra-package imports, ``{module: {module it imports}}``, from
    ``{dotted name: (source, is_package)}``. ``from . import x`` points at the submodule ``x``
    when there is one; a module's import of its own parent package is no edge (the package is
    being initialised when its submodules load)."""
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for name, (source, is_package) in sources.items():
        package = name.split(".") if is_package else name.split(".")[:-1]
        for node in ast.parse(source).body:
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in sources]
                targets = subs or [target]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                if target in sources and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_import_circle():
    """Imports only run downwards (issue 31): no two modules of evallib import each other,
    directly or through others, at module level."""
    sources = {_module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
               for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}
    assert len(sources) > 50
    assert import_circles(import_graph(sources)) == []


def test_the_circle_scan_finds_a_circle_through_a_module_import():
    sources = {"pkg": ("", True), "pkg.a": ("from . import b\n", False), "pkg.b": ("from .c import f\n", False),
               "pkg.c": ("from .a import g\n", False), "pkg.d": ("from . import a\nfrom pkg import c\n", False)}
    assert import_circles(import_graph(sources)) == [["pkg.a", "pkg.b", "pkg.c"]]
