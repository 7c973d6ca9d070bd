"""``import evallib`` stays light: the heavy dependencies load only where they are used.

A fresh interpreter imports evallib and reports which heavy modules came with it;
benchmarks/bench_import.py measures the time (target: within 1.1x numpy + scipy.stats +
pandas), this test keeps the cause from coming back. Nor does ``import evallib`` import any
package of an extra (evallib/_extras.py): the core install has none of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("matplotlib", "matplotlib.pyplot", "sklearn", "statsmodels", "joblib", "tqdm", "SurvSet",
         "papermill", "nbformat", "ipywidgets")
FLOOR = "numpy, scipy.stats, pandas"


@pytest.fixture(scope="module")
def traces():
    """One fresh interpreter records, in order: the top-level packages numpy, scipy.stats and
    pandas bring (``floor``); the modules present after ``import evallib`` (``imported``); after
    a plot function has run (``plotted``); after evallib has required scikit-learn (``required``).
    Each check below reads its own stage, so each can still fail on its own; the floor is imported
    before evallib, which only adds modules that ``import evallib`` would bring anyway."""
    code = (f"import json, sys; import {FLOOR}; floor = sorted({{m.split('.')[0] for m in sys.modules}}); "
            "import evallib; from evallib._extras import OPTIONAL_MODULES; imported = sorted(sys.modules); "
            "evallib.plot_intervals(evallib.compare_pairwise("
            "[0, 1, 0, 1], {'a': [0, 1, 1, 1], 'b': [0, 0, 0, 1]})); plotted = sorted(sys.modules); "
            "evallib._extras.require('sklearn.base'); required = sorted(sys.modules); "
            "print(json.dumps(dict(floor=floor, imported=imported, plotted=plotted, required=required, "
            "optional=sorted(OPTIONAL_MODULES))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "MPLBACKEND": "Agg", "PATH": ""})
    return json.loads(out.stdout)


def _new_packages(modules, floor):
    return sorted({m.split(".")[0] for m in modules} - set(floor))


def test_import_evallib_loads_no_heavy_module(traces):
    assert [m for m in HEAVY if m in traces["imported"]] == []


def test_the_check_sees_a_heavy_import(traces):
    """The same probe does see pyplot once a plot function has run (the test can fail)."""
    assert "matplotlib.pyplot" in traces["plotted"]


def test_import_evallib_adds_only_the_standard_library(traces):
    """Beyond what numpy, scipy.stats and pandas import themselves (pandas imports pyarrow when it
    is installed), ``import evallib`` loads only the standard library and evallib: no optional
    package, so it works in a core install."""
    new = _new_packages(traces["imported"], traces["floor"])
    assert sorted(set(traces["optional"]) & set(new)) == []
    assert [m for m in new if m != "evallib" and m not in sys.stdlib_module_names] == []


def test_the_probe_sees_an_optional_package(traces):
    """The same probe does see scikit-learn once evallib has imported it (the test can fail)."""
    assert "sklearn" in _new_packages(traces["required"], traces["floor"])
