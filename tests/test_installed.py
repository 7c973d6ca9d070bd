"""A non-editable install outside the repository reads every shipped data file and runs the report.

``pip install --no-deps --target`` builds a real wheel of this checkout and unpacks it in
a temporary folder; a fresh interpreter whose working directory is another temporary
folder imports evallib from there and runs every function that reads shipped data.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT


PROBE = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import evallib, evallib.studies.textsim as ts
from evallib.studies import data
from evallib.manydatasets import ranktests
from evallib.onetestset import nullbest
from evallib._resources import data_dir

def _refuse(*args):
    raise AssertionError("computed instead of reading the shipped grid")

ts._compute = _refuse
t2 = data.paper_table2()
cv = nullbest.load_critical_values()
fl = ranktests.flach_example_12_4()
ex = ts.build_experiment("Z", prior_pos=0.25, label_noise=0.02, n_train=7982, n_pool=20_000, n_true=60_000, rng=0)
print(json.dumps(dict(
    package=evallib.__file__, data=str(data_dir()),
    table2=len(t2), critical_values=len(cv), flach=list(fl.shape),
    n_pool=int(ex.y_pool.size), n_true=int(ex.true_events.sum()),
)))
'''


@pytest.mark.slow
def test_wheel_outside_the_repository_reads_the_shipped_data(tmp_path):
    site, cwd = tmp_path / "site", tmp_path / "elsewhere"
    cwd.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(ROOT)],
                   check=True, cwd=cwd, capture_output=True, text=True)
    out = subprocess.run([sys.executable, "-c", PROBE, str(site)], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["package"].startswith(str(site)) and got["data"].startswith(str(site))
    # sizes documented in data/README.md: Table 2's ten pairs, Flach's 10 folds x 3 algorithms
    assert got["table2"] == 10 and got["flach"] == [10, 3]
    assert got["critical_values"] > 1000
    assert got["n_pool"] == 20_000 and got["n_true"] == 60_000


@pytest.mark.slow
def test_wheel_outside_the_repository_runs_the_report(tmp_path):
    """The report's template ships in the wheel: `python -m evallib report` runs outside the
    checkout (the kernel imports evallib from the wheel through PYTHONPATH)."""
    import os

    site, cwd = tmp_path / "site", tmp_path / "elsewhere"
    cwd.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(ROOT)],
                   check=True, cwd=cwd, capture_output=True, text=True)
    template = site / "evallib" / "_notebooks" / "report.ipynb"
    assert template.is_file() and not list((site / "evallib" / "_notebooks").glob("0*.ipynb"))
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-m", "evallib", "report",
                          str(site / "evallib" / "_data" / "example_predictions.csv"),
                          "-o", str(cwd / "r.html"), "--positive-label", "ER-", "-q"],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    html = (cwd / "r.html").read_text(encoding="utf-8")
    assert "Summary" in html and "dlda30" in html


def test_every_subpackage_is_listed_for_the_wheel():
    """pyproject.toml lists the packages explicitly (data/ is mapped onto evallib._data, which
    setuptools' find cannot combine with), so a new subpackage must be added to that list or
    a wheel would lack it."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.relative_to(ROOT).parent.parts) for p in (ROOT / "evallib").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    mapped = {"evallib._data", "evallib._notebooks"}  # data/ and notebooks/report.ipynb, mapped by package-dir
    assert found | mapped == listed, f"pyproject.toml [tool.setuptools] packages must be {sorted(found | mapped)}"
