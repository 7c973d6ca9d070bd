"""``import evallib`` stays light: the heavy dependencies load only where they are used.

A fresh interpreter imports evallib and reports which heavy modules came with it;
benchmarks/bench_import.py measures the time (target: within 1.1x numpy + scipy.stats +
pandas), this test keeps the cause from coming back. Nor does ``import evallib`` import any
package of an extra (evallib/_extras.py): the core install has none of them.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("matplotlib", "matplotlib.pyplot", "sklearn", "statsmodels", "joblib", "tqdm", "SurvSet",
         "papermill", "nbformat", "ipywidgets")


def test_import_evallib_loads_no_heavy_module():
    code = ("import json, sys, evallib; "
            f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_the_check_sees_a_heavy_import():
    """The same probe does see pyplot once a plot function has run (the test can fail)."""
    code = ("import json, sys, evallib; evallib.plot_intervals(evallib.compare_pairwise("
            "[0, 1, 0, 1], {'a': [0, 1, 1, 1], 'b': [0, 0, 0, 1]})); "
            "print(json.dumps('matplotlib.pyplot' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"MPLBACKEND": "Agg", "PATH": ""})
    assert json.loads(out.stdout) is True


FLOOR = "numpy, scipy.stats, pandas"


def test_import_evallib_adds_only_the_standard_library():
    """Beyond what numpy, scipy.stats and pandas import themselves (pandas imports pyarrow when it
    is installed), ``import evallib`` loads only the standard library and evallib: no optional
    package, so it works in a core install."""
    code = (f"import json, sys; import {FLOOR}; floor = {{m.split('.')[0] for m in sys.modules}}; "
            "import evallib; from evallib._extras import OPTIONAL_MODULES; "
            "new = sorted({m.split('.')[0] for m in sys.modules} - floor); "
            "print(json.dumps(dict(new=new, optional=sorted(set(OPTIONAL_MODULES) & set(new)))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["optional"] == []
    assert [m for m in got["new"] if m != "evallib" and m not in sys.stdlib_module_names] == []


def test_the_probe_sees_an_optional_package():
    """The same probe does see scikit-learn once evallib has imported it (the test can fail)."""
    code = (f"import json, sys; import {FLOOR}; floor = {{m.split('.')[0] for m in sys.modules}}; "
            "import evallib; evallib._extras.require('sklearn.base'); "
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} - floor)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "sklearn" in json.loads(out.stdout)
