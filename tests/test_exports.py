"""One home per name: the curated namespaces of 0.2.0, and the 0.1.0 surface that still works.

- Every module below ``evallib`` is private (``_name``) except the namespaces: the design
  subpackages, ``planning``, ``lessons`` (with its public module ``live``), ``studies`` and
  ``report`` (with its public module ``htmlexport``).
- A design's namespace exports the public names of its private modules, and ``evallib``
  exports every design's and planning's names, as the same objects; ``lessons``, ``studies``
  and the report internals are not at the top level.
- Every public name and module path of 0.1.0 (``tests/data/api_0_1_0.json``, recorded from
  the 0.1.0 tree) still imports; those that moved warn with a DeprecationWarning naming the
  new home, and give the same object as the new home.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import warnings
from pathlib import Path

import pytest

import evallib

API = json.loads((Path(__file__).parent / "data" / "api_0_1_0.json").read_text())
DESIGNS = ["onetestset", "resampling", "manydatasets", "items", "sequential", "planning"]
NAMESPACES = {*DESIGNS, "lessons", "lessons.live", "studies", "report", "report.htmlexport"}


def _public_modules() -> set[str]:
    return {m.name.removeprefix("evallib.") for m in pkgutil.walk_packages(evallib.__path__, "evallib.")
            if not any(part.startswith("_") for part in m.name.split("."))}


def test_implementation_modules_are_private():
    assert _public_modules() == NAMESPACES


def _missing(namespace: str, names=None) -> list[str]:
    module = importlib.import_module(f"evallib.{namespace}")
    names = module.__all__ if names is None else names
    return [n for n in names if n not in evallib.__all__ or getattr(evallib, n) is not getattr(module, n)]


@pytest.mark.parametrize("namespace", DESIGNS)
def test_every_design_name_is_exported_from_evallib(namespace):
    module = importlib.import_module(f"evallib.{namespace}")
    private = [m.name for m in pkgutil.iter_modules(module.__path__) if m.name.startswith("_")]
    for name in private:  # each private module's public names reach the namespace
        sub = importlib.import_module(f"evallib.{namespace}.{name}")
        assert [n for n in getattr(sub, "__all__", []) if getattr(module, n, None) is not getattr(sub, n)] == []
    assert _missing(namespace) == []


#: names the design test files used to check one by one (four copies of the same test, merged here)
NAMED = ["measures", "expected_accuracy_from_auc", "accuracy_interval", "accuracy_ztest",       # test_measures
         "posthoc_friedman", "posthoc_cliques", "adjust_pvalues",                              # test_posthoc
         "wilcoxon_signed_rank", "friedman", "critical_difference", "plot_cd_diagram",         # test_ranktests
         "bayesian_signed_rank", "bayesian_correlated_ttest"]                                  # test_bayesian


@pytest.mark.parametrize("name", NAMED)
def test_a_named_function_is_exported_from_evallib_and_its_design(name):
    homes = [ns for ns in DESIGNS if name in importlib.import_module(f"evallib.{ns}").__all__]
    assert name in evallib.__all__ and homes, name
    assert all(getattr(evallib, name) is getattr(importlib.import_module(f"evallib.{ns}"), name) for ns in homes)


def test_all_has_no_duplicates_and_every_name_exists():
    assert len(evallib.__all__) == len(set(evallib.__all__))
    assert [n for n in evallib.__all__ if not hasattr(evallib, n)] == []


def test_the_check_sees_a_missing_name(monkeypatch):
    """Drop one name from evallib.__all__: the check must report it (the test can fail)."""
    monkeypatch.setattr(evallib, "__all__", [n for n in evallib.__all__ if n != "mcnemar"])
    assert _missing("onetestset") == ["mcnemar"]


def test_studies_lessons_and_report_internals_are_not_at_the_top_level():
    for namespace in ("studies", "lessons"):
        assert set(importlib.import_module(f"evallib.{namespace}").__all__).isdisjoint(evallib.__all__)
    assert {"md", "relevance", "P_FLOOR", "printed_eq12", "paper_table2", "live_output"}.isdisjoint(evallib.__all__)


def test_the_report_entry_points_are_exported():
    import evallib.report as report
    for name in evallib.REPORT_ENTRY_POINTS:
        assert name in evallib.__all__
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert getattr(evallib, name) is getattr(report, name)


def _import_warns(statement: str) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(statement, {})
    return [w for w in caught if issubclass(w.category, DeprecationWarning)]


@pytest.mark.parametrize("name", sorted(API["names"]))
def test_every_0_1_0_name_still_imports_from_evallib(name):
    caught = _import_warns(f"from evallib import {name}")
    if name in evallib.__all__:
        assert caught == []
    else:
        assert len(caught) == 1 and "evallib." + name in str(caught[0].message)
        assert "instead" in str(caught[0].message)


@pytest.mark.parametrize("module", sorted(set(API["modules"]) | set(API["legacy_modules"])))
def test_every_0_1_0_module_path_still_imports_its_names(module):
    names = API["modules"][module] if module in API["modules"] else API["legacy_modules"][module]
    if module == "evallib.measures":  # the function evallib.measures: no module path in 0.1.0 either
        pytest.skip("evallib.measures is the function measures, as in 0.1.0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        mod = importlib.import_module(module)
        missing = [n for n in names if not hasattr(mod, n)]
    assert missing == []


def test_an_old_module_path_warns_once_at_the_importing_line(tmp_path):
    import subprocess
    import sys
    code = "import warnings; warnings.simplefilter('always')\nimport evallib.ranktests\nfrom evallib.cvtests import cv_ttest\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stderr
    assert out.count("DeprecationWarning") == 2
    assert "<string>:2: DeprecationWarning: the module evallib.ranktests" in out
    # its names now live in the design's namespace and (the books' tables, the offline benchmark) the studies
    assert "use evallib.manydatasets or evallib.studies instead" in out


#: The paper artefacts that left the statistics library in 0.2.0, by their 0.1.0 design namespace.
PAPER_ARTEFACTS = {
    "evallib.manydatasets": ("demsar_table_6", "flach_example_12_4", "OFFLINE_DATASETS", "OFFLINE_LEARNERS",
                             "offline_benchmark", "offline_benchmark_scores"),
    "evallib.onetestset": ("PAPER_GRID",),
}


@pytest.mark.parametrize("module, name", [(m, n) for m, names in PAPER_ARTEFACTS.items() for n in names])
def test_paper_artefacts_live_in_the_studies_and_their_old_homes_warn(module, name):
    import evallib.studies as studies

    design = importlib.import_module(module)
    assert name in studies.__all__ and name not in design.__all__ and name not in evallib.__all__
    for old in (f"from {module} import {name}", f"from evallib import {name}"):
        caught = _import_warns(old)
        assert len(caught) == 1 and f"use evallib.studies.{name} instead" in str(caught[0].message), old
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert getattr(design, name) is getattr(studies, name) is getattr(evallib, name)


#: The statistics library: the design namespaces (planning among them) and the private shared helpers.
LIBRARY = DESIGNS
UPPER = ("evallib.studies", "evallib.lessons", "evallib.report")


def upward_imports(source: str, name: str) -> list[str]:
    """``name:line: statement`` of every import in ``source`` (a module at path ``name``) of an
    upper layer: :data:`UPPER`, absolute or relative."""
    import ast

    package = list(Path(name).with_suffix("").parts)[:-1]
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            targets = ([".".join(base + node.module.split("."))] if node.module
                       else [".".join(base + [a.name]) for a in node.names])
        else:
            continue
        if any(t == up or t.startswith(up + ".") for t in targets for up in UPPER):
            hits.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return hits


def test_the_statistics_library_imports_no_upper_layer():
    root = Path(evallib.__file__).parent
    # the designs, planning, evallib/__init__.py and the shared helpers (not __main__.py: the CLI is the report's)
    files = [p for d in LIBRARY for p in (root / d).rglob("*.py")] + [root / "__init__.py"] + \
        [p for p in root.glob("_*.py") if not p.name.startswith("__")]
    assert len(files) > 40
    hits = [h for p in files if "__pycache__" not in p.parts
            for h in upward_imports(p.read_text(encoding="utf-8"), str(p.relative_to(root.parent)))]
    assert hits == []


def test_the_upward_scan_finds_a_planted_import():
    source = "from ..studies import demsar_table_6\nfrom .. import studies\nimport evallib.report\nfrom .._compat import x\n"
    assert upward_imports(source, "evallib/manydatasets/_ranktests.py") == [
        "evallib/manydatasets/_ranktests.py:1: from ..studies import demsar_table_6",
        "evallib/manydatasets/_ranktests.py:2: from .. import studies",
        "evallib/manydatasets/_ranktests.py:3: import evallib.report",
    ]


def test_importing_an_old_module_path_leaves_the_function_of_that_name():
    """``evallib.onetestset.measures`` is a function and a 0.1.0 module path: importing the path
    must not rebind the package's name to the module (the site's API test once found it so)."""
    import subprocess
    import sys
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "import evallib, evallib.onetestset as o\n"
            "import evallib.onetestset.measures\n"
            "from evallib.onetestset.measures import measures as m\n"
            "assert o.measures is evallib.measures is m, o.measures\n"
            "assert callable(evallib.onetestset.measures)\n"
            "o.extra = 1; assert o.extra == 1\n")
    subprocess.run([sys.executable, "-c", code], check=True)
