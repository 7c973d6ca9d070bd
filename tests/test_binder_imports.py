"""Binder is complete on its own: every package the notebooks and evallib import is in binder/environment.yml.

The imports are read with :mod:`ast` from the code cells of every ``notebooks/*.ipynb``
(IPython magics and shell lines dropped) and from every module of ``evallib/`` and its
subpackages.
Each top-level name is either the standard library (``sys.stdlib_module_names``),
evallib itself (binder/postBuild installs it), or a third-party module. A
third-party module must be provided by a distribution that binder/environment.yml
lists, directly or as a dependency of one it lists: the import name is mapped to
its distribution with ``importlib.metadata.packages_distributions()`` (so
``sklearn`` -> ``scikit-learn``, ``yaml`` -> ``pyyaml``, ``SurvSet`` -> ``survset``),
and the dependency closure of the listed packages is read from the installed
metadata of the venv.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata as md
import json
import re
import sys
from pathlib import Path

import yaml
from _requirements import extra_requirements
from conftest import ROOT

BINDER_ENV = ROOT / "binder" / "environment.yml"
OWN_PACKAGES = {"evallib"}
#: Imports of optional readers Binder leaves out on purpose (import name: why).
OPTIONAL_IMPORTS = {
    "inspect_ai": "evallib[inspect]: the per-item report reads inspect_ai logs only when asked, "
                  "and says how to install it",
}
# conda-forge names that are not the distribution's name on PyPI
CONDA_TO_PYPI = {"python": None, "pip": None}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


#: the fields of a node that hold statements: an import is a statement, so the walk below visits
#: every import of a module (in functions, classes, branches, handlers, match cases) and skips
#: the expressions, most of the tree
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree: ast.AST):
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for field in _STATEMENT_FIELDS:
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(child for child in children if isinstance(child, ast.AST))


def top_level_imports(source: str) -> set[str]:
    """Top-level module names imported by ``source`` (absolute imports only)."""
    names = set()
    for node in _statements(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def notebook_code(path: Path) -> str:
    """The code cells of a notebook as one Python source, magics and shell lines dropped."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    lines = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        lines += [ln for ln in src.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


@functools.cache
def imports_by_file() -> dict[str, set[str]]:
    """``{relative path: top-level imports}`` for every notebook and evallib module."""
    out = {}
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        out[str(nb.relative_to(ROOT))] = top_level_imports(notebook_code(nb))
    for mod in sorted((ROOT / "evallib").rglob("*.py")):
        out[str(mod.relative_to(ROOT))] = top_level_imports(mod.read_text(encoding="utf-8"))
    return out


def binder_packages(path: Path = BINDER_ENV) -> set[str]:
    """Normalised names of the conda and pip packages binder/environment.yml lists."""
    env = yaml.safe_load(path.read_text(encoding="utf-8"))
    names = set()

    def add(spec: str) -> None:
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec).group(1)
        name = CONDA_TO_PYPI.get(name, name)
        if name:
            names.add(_norm(name))

    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            for spec in dep.get("pip", []):
                add(spec)
        else:
            add(dep)
    return names


@functools.cache
def _packages_distributions() -> dict[str, list[str]]:
    """``importlib.metadata.packages_distributions()``, read once (it scans every installed package)."""
    return md.packages_distributions()


@functools.cache
def _binder_closure() -> frozenset[str]:
    """The distributions binder/environment.yml provides, read once for the checks that use it."""
    return frozenset(dependency_closure(binder_packages()))


def dependency_closure(names: set[str]) -> set[str]:
    """``names`` plus every installed distribution they require, recursively (no extras)."""
    from packaging.requirements import Requirement

    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = md.requires(name) or []
        except md.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(_norm(req.name))
    return seen


def missing_from_binder(imports: dict[str, set[str]], provided: set[str]) -> dict[str, list[str]]:
    """``{import name: [files]}`` of the third-party imports no provided distribution supplies.

    An import is fine when it is in the standard library, is evallib, or maps
    (``packages_distributions``) to at least one distribution in ``provided``.
    An import no installed distribution supplies is missing too.
    """
    to_dist = _packages_distributions()
    missing: dict[str, list[str]] = {}
    for file, names in imports.items():
        for name in names:
            if name in sys.stdlib_module_names or name in OWN_PACKAGES or name == "__future__" \
                    or name in OPTIONAL_IMPORTS:
                continue
            dists = {_norm(d) for d in to_dist.get(name, [])}
            if not dists & provided:
                missing.setdefault(name, []).append(file)
    return missing


def test_every_import_is_provided_by_binder_environment():
    provided = _binder_closure()
    missing = missing_from_binder(imports_by_file(), provided)
    assert not missing, f"imported but not provided by binder/environment.yml: {missing}"


def test_binder_lists_peer_libraries_only_when_imported():
    """A package Binder lists beyond the core and evallib[notebooks] (with the studies and report
    layers it names) is imported by a notebook or evallib."""
    base = set(extra_requirements((ROOT / "pyproject.toml").read_text(encoding="utf-8"), "notebooks"))
    imported = set().union(*imports_by_file().values())
    to_dist = _packages_distributions()
    used = {_norm(d) for name in imported for d in to_dist.get(name, [])}
    unused = sorted(binder_packages() - base - used)
    assert not unused, f"binder/environment.yml lists packages no notebook or evallib module imports: {unused}"


def test_the_notebooks_and_evallib_do_import_third_party_packages():
    # guards against a parser that silently finds nothing
    found = set().union(*imports_by_file().values())
    assert {"numpy", "scipy", "pandas", "matplotlib", "ipywidgets", "sklearn"} <= found


def test_import_names_map_to_their_distributions():
    to_dist = _packages_distributions()
    assert "scikit-learn" in {_norm(d) for d in to_dist["sklearn"]}
    assert "pyyaml" in {_norm(d) for d in to_dist["yaml"]}


def test_checker_flags_an_import_binder_lacks(tmp_path):
    provided = _binder_closure()
    fake = {"notebooks/fake.ipynb": {"numpy", "os", "evallib", "no_such_package_xyz"}}
    assert missing_from_binder(fake, provided) == {"no_such_package_xyz": ["notebooks/fake.ipynb"]}
    # an installed package that binder/environment.yml does not list is caught as well
    env = tmp_path / "environment.yml"
    env.write_text("dependencies:\n  - python=3.11\n  - numpy>=1.26\n", encoding="utf-8")
    narrow = dependency_closure(binder_packages(env))
    assert missing_from_binder({"x.py": {"numpy", "sklearn"}}, narrow) == {"sklearn": ["x.py"]}


def test_checker_reads_notebook_imports_past_magics(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": ["%matplotlib inline\n", "import yaml as y\n",
                                                      "from sklearn.metrics import f1_score\n"]},
                    {"cell_type": "markdown", "source": "import notthis"}]}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert top_level_imports(notebook_code(path)) == {"yaml", "sklearn"}


def test_pip_section_of_binder_environment_is_read():
    assert "survset" in binder_packages()
