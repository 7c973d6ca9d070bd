"""The notebook execution counter and its budget (tests/_nbtools, tests/conftest.py).

A run may execute each notebook twice with its defaults (nbval's run and the shared one) and
once per other parameter set. The check is first fed planted logs directly, then run for real:
a pytest run in a temporary folder with this suite's conftest.py and _nbtools.py (in one
process, and on two pytest-xdist workers), whose tests plant executions in the shared log. One planted execution too
many must make that run fail and name the notebook; within the budget it passes and prints the
counts, aggregated across the workers.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _nbtools import (
    DEFAULT_RUNS_ALLOWED,
    OTHER_RUNS_ALLOWED,
    RUNS_ENV,
    execution_budget_problems,
    execution_counts,
    parameters_label,
)

HERE = Path(__file__).resolve().parent


def _runs(*rows):
    return [dict(notebook=nb, parameters=parameters_label(params), by=by, complete=complete, worker="gw0")
            for nb, params, by, complete in rows]


def test_the_budget_is_two_default_runs_and_one_per_other_parameter_set():
    assert (DEFAULT_RUNS_ALLOWED, OTHER_RUNS_ALLOWED) == (2, 1)


def test_within_the_budget_nothing_is_reported():
    runs = _runs(("a.ipynb", None, "nbval", True), ("a.ipynb", None, "shared run", True),
                 ("a.ipynb", {"seed": 1}, "browser: JupyterLab", True), ("a.ipynb", {"seed": 2}, "shared run", True),
                 ("b.ipynb", {}, "nbval", True))
    assert execution_budget_problems(runs) == []
    counts = execution_counts(runs)
    assert {key: row["n"] for key, row in counts.items()} == {
        ("a.ipynb", "default"): 2, ("a.ipynb", "seed=1"): 1, ("a.ipynb", "seed=2"): 1, ("b.ipynb", "default"): 1}


def test_a_third_default_run_is_reported():
    runs = _runs(("a.ipynb", None, "nbval", True), ("a.ipynb", None, "shared run", True),
                 ("a.ipynb", {}, "browser: JupyterLab", True))
    assert execution_budget_problems(runs) == [
        "a.ipynb [default] was executed 3 times, at most 2 allowed (browser: JupyterLab; nbval; shared run)"]


def test_a_second_run_of_another_parameter_set_is_reported_whatever_the_order_of_its_names():
    runs = _runs(("a.ipynb", {"seed": 1, "alpha": 0.1}, "shared run", True),
                 ("a.ipynb", {"alpha": 0.1, "seed": 1}, "shared run", True))
    assert execution_budget_problems(runs) == [
        "a.ipynb [alpha=0.1, seed=1] was executed 2 times, at most 1 allowed (shared run x2)"]


def test_an_abandoned_run_is_shown_but_not_counted():
    runs = _runs(("a.ipynb", {"alpha": 0.01}, "browser: Voila", False),
                 ("a.ipynb", {"alpha": 0.01}, "browser: Voila", True))
    assert execution_budget_problems(runs) == []
    (row,) = execution_counts(runs).values()
    assert (row["n"], row["partial"], dict(row["by"])) == (1, 1, {"browser: Voila": 1, "browser: Voila (abandoned)": 1})


PLANTING = '''
from _nbtools import record_execution


def test_plants_{name}():
    for notebook, parameters, by in {rows!r}:
        record_execution(notebook, parameters, by)
'''


def _pytest_run(folder: Path, files: dict[str, list], *, workers: int) -> subprocess.CompletedProcess:
    for name in ("conftest.py", "_nbtools.py"):
        shutil.copy(HERE / name, folder / name)
    for name, rows in files.items():
        (folder / f"test_{name}.py").write_text(PLANTING.format(name=name, rows=rows), encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if k != RUNS_ENV and not k.startswith(("PYTEST_", "PYTHONPATH"))}
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    spread = ["-n", str(workers)] + (["--dist", "loadfile"] if workers else [])
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *spread,
                           "-o", "addopts=", str(folder)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow  # two pytest sessions in subprocesses, one on two workers: half a minute
@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="needs pytest-xdist")
def test_a_planted_run_over_the_budget_fails_the_session_and_one_within_passes(tmp_path):
    over, within = tmp_path / "over", tmp_path / "within"
    over.mkdir()
    within.mkdir()
    first = [("planted.ipynb", None, "nbval"), ("planted.ipynb", {"seed": 1}, "shared run")]
    second = [("planted.ipynb", None, "shared run"), ("other.ipynb", {"n": 3}, "papermill")]
    ok = _pytest_run(within, {"first": first, "second": second}, workers=0)     # one process
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-3000:]
    assert "2 passed" in ok.stdout
    assert "  2  planted.ipynb  [default]  nbval; shared run" in ok.stdout, ok.stdout[-3000:]
    assert "  1  planted.ipynb  [seed=1]  shared run" in ok.stdout
    assert "4 executions of 2 notebooks" in ok.stdout and "budget exceeded" not in ok.stdout

    # one file per worker (--dist loadfile): the counts are added up across the workers
    bad = _pytest_run(over, {"first": first, "second": second + [("planted.ipynb", {}, "browser: JupyterLab")]},
                      workers=2)
    assert bad.returncode == 1, bad.stdout[-3000:] + bad.stderr[-3000:]
    assert "2 passed" in bad.stdout                   # every test passed; the budget failed the run
    assert "notebook execution budget exceeded, so the run fails:" in bad.stdout
    assert ("planted.ipynb [default] was executed 3 times, at most 2 allowed "
            "(browser: JupyterLab; nbval; shared run)") in bad.stdout, bad.stdout[-3000:]
    assert "OVER BUDGET (at most 2)" in bad.stdout
