"""``import evallib`` stays light: the heavy dependencies load only where they are used.

A fresh interpreter imports evallib and reports which heavy modules came with it;
benchmarks/bench_import.py measures the time (target: within 1.3x numpy + scipy.stats +
pandas), this test keeps the cause from coming back.
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
