"""Helpers shared by the notebook tests (tests/test_notebooks.py, test_notebook_0N.py, ...).

A plain module, not a test file: pytest's default ``prepend`` import mode puts
``tests/`` on ``sys.path`` when it imports a test module from there, so the test
files import it as ``from _nbtools import ...``.

Every execution here (papermill, nbclient) runs with a per-cell timeout of
:data:`EXECUTION_TIMEOUT` seconds, so that a hung kernel fails its test with a
``CellTimeoutError`` naming the cell well before pytest-timeout's 15 minutes, and
with :class:`evallib.report._kernel.PatientKernelManager`, so that a kernel reply whose ZMQ
wake-up the event loop missed is picked up within half a second instead of at the
end of that timeout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evallib.report._kernel import PatientKernelManager

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"

#: seconds one cell may run before nbclient/papermill give up on it.
EXECUTION_TIMEOUT = 600

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def load_notebook(path: Path) -> dict:
    """The notebook at ``path`` as plain JSON (a dict), as saved."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _joined(text: Any) -> str:
    return text if isinstance(text, str) else "".join(text)


def outputs_text(nb: dict) -> str:
    """All printed text of a notebook's outputs: stream text and ``text/plain`` results."""
    texts = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            texts.append(_joined(o.get("text", "")))
            texts.append(_joined(o.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def injected_cells(nb: dict) -> list[dict]:
    """The cells papermill injected (tagged ``injected-parameters``)."""
    return [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]


def widget_views(nb: dict) -> list[dict]:
    """The outputs that hold a widget view (they must be stripped before saving)."""
    return [o for cell in nb["cells"] for o in cell.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]


def run_papermill(notebook: Path, out: Path, parameters: dict | None = None) -> dict:
    """Execute ``notebook`` with papermill and ``parameters`` into ``out``; return the result's JSON.

    Runs in the notebook's folder with the ``python3`` kernel, no progress bar and the
    per-cell timeout :data:`EXECUTION_TIMEOUT`. A failing cell raises papermill's
    ``PapermillExecutionError``. Skips the test when papermill is not installed.
    """
    papermill = pytest.importorskip("papermill")
    papermill.execute_notebook(
        str(notebook), str(out), parameters=parameters or {}, cwd=str(Path(notebook).parent),
        kernel_name="python3", progress_bar=False, execution_timeout=EXECUTION_TIMEOUT,
        kernel_manager_class=PatientKernelManager,
    )
    return load_notebook(out)


def run_with_probe(notebook: Path, probe: str, *, parameters: dict | None = None) -> list[dict]:
    """Run ``notebook`` plus an appended ``probe`` cell in a live kernel; return the probe's outputs.

    ``parameters`` (``name = value!r`` lines) are appended to the cell tagged
    ``parameters``, as papermill would override them. The kernel keeps the notebook's
    namespace, so the probe can move its widgets (``controls[...].value = ...``) and
    check what they re-ran. Runs in the notebook's folder with the per-cell timeout
    :data:`EXECUTION_TIMEOUT`. Skips the test when nbformat or nbclient is missing.
    """
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(notebook, as_version=4)
    if parameters:
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        cell.source += "\n" + "\n".join(f"{k} = {v!r}" for k, v in parameters.items())
    nb.cells.append(nbformat.v4.new_code_cell(probe))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=EXECUTION_TIMEOUT,
                                     kernel_manager_class=PatientKernelManager,
                                     resources={"metadata": {"path": str(Path(notebook).parent)}})
    try:
        client.execute()
    finally:
        record_execution(notebook, parameters, "run_with_probe")
    return nb.cells[-1]["outputs"]


def prose_problems(nb: dict) -> list[tuple]:
    """Markdown cells that do not end a sentence (or a table row), and paragraphs that start
    like an earlier one (their first 100 characters): a cut or a repeated paragraph."""
    import re

    problems, seen = [], {}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"]).strip()
        if text[-1] not in ".:?!)|`":
            problems.append(("cut", i, text[-60:]))
        for paragraph in re.split(r"\n\s*\n", text):
            words = " ".join(paragraph.split())
            if len(words) >= 100:
                if words[:100] in seen:
                    problems.append(("repeated", i, seen[words[:100]], words[:100]))
                seen[words[:100]] = i
    return problems


# --------------------------------------------------------------------------- shared runs
#
# Each notebook runs once per parameter set in a test run. tests/conftest.py makes one
# folder that every pytest-xdist worker sees (passed to the workers in ``workerinput`` and
# published in the environment variable RUNS_ENV); :class:`NotebookRuns` keeps there, per
# (notebook, parameters), the executed notebook, written by the one process that executed
# it under a file lock, so that another worker reads it instead of executing again. Every
# execution of a notebook in the suite (these runs, nbval's, the browser's run-all in
# JupyterLab and its Voila page, every papermill run: the report's and run_papermill's)
# appends one line to EXECUTIONS_LOG; the controller prints the counts at the end of the
# run and fails the run when a notebook ran more often than the budget allows
# (conftest's pytest_sessionfinish and pytest_terminal_summary, with
# :func:`execution_budget_problems`).

#: the environment variable that names the folder shared by the workers.
RUNS_ENV = "EVALLIB_TEST_RUNS"
#: the log of executions, one JSON line each, in that folder.
EXECUTIONS_LOG = "executions.jsonl"
#: executions a run may make of one notebook with its default parameters: nbval's (which
#: checks the saved outputs) and the shared one (tests/_nbtools.NotebookRuns, probed live).
DEFAULT_RUNS_ALLOWED = 2
#: executions a run may make of one notebook with any other parameter set.
OTHER_RUNS_ALLOWED = 1


def parameters_label(parameters: dict | None) -> str:
    """A parameter set as the counter prints it: ``default`` or ``name=value, ...`` sorted."""
    if not parameters:
        return "default"
    return ", ".join(f"{k}={v!r}" for k, v in sorted(parameters.items()))


def record_execution(notebook: str | Path, parameters: dict | None, by: str, *, complete: bool = True) -> None:
    """Append one execution of ``notebook`` with ``parameters`` (run by ``by``) to the shared log.

    ``complete=False`` marks a run abandoned midway and replaced by another (a Voila page that
    stalled and was reloaded): it is printed, not counted against the budget. Does nothing
    outside a pytest run that set :data:`RUNS_ENV` (a test file run on its own still works,
    uncounted).
    """
    import fcntl
    import os

    folder = os.environ.get(RUNS_ENV)
    if not folder:
        return
    line = json.dumps({"notebook": Path(notebook).name, "parameters": parameters_label(parameters),
                       "by": by, "complete": bool(complete),
                       "worker": os.environ.get("PYTEST_XDIST_WORKER", "main")})
    with open(Path(folder) / EXECUTIONS_LOG, "a", encoding="utf-8") as log:
        fcntl.flock(log, fcntl.LOCK_EX)
        log.write(line + "\n")


def read_executions(folder: Path) -> list[dict]:
    """The executions logged in ``folder`` (see :func:`record_execution`)."""
    log = Path(folder) / EXECUTIONS_LOG
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def runs_allowed(parameters: str) -> int:
    """How many complete executions of one notebook the budget allows with ``parameters`` (a label)."""
    return DEFAULT_RUNS_ALLOWED if parameters == "default" else OTHER_RUNS_ALLOWED


def execution_counts(runs: list[dict]) -> dict[tuple[str, str], dict]:
    """Per (notebook, parameters label), sorted: ``n`` complete executions, ``partial`` abandoned
    ones, ``allowed`` (:func:`runs_allowed`) and ``by``, who ran it (a Counter of the ``by`` labels)."""
    from collections import Counter

    table: dict[tuple[str, str], dict] = {}
    for r in runs:
        key = (r["notebook"], r["parameters"])
        row = table.setdefault(key, dict(n=0, partial=0, allowed=runs_allowed(r["parameters"]), by=Counter()))
        complete = r.get("complete", True)
        row["n" if complete else "partial"] += 1
        row["by"][r["by"] if complete else f"{r['by']} (abandoned)"] += 1
    return dict(sorted(table.items()))


def execution_budget_problems(runs: list[dict]) -> list[str]:
    """One sentence per notebook and parameter set executed more often than the budget allows
    (:data:`DEFAULT_RUNS_ALLOWED` with the defaults, :data:`OTHER_RUNS_ALLOWED` otherwise);
    an empty list when every count is within it."""
    problems = []
    for (name, params), row in execution_counts(runs).items():
        if row["n"] > row["allowed"]:
            who = "; ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(row["by"].items()))
            problems.append(f"{name} [{params}] was executed {row['n']} times, at most {row['allowed']} allowed "
                            f"({who})")
    return problems


class _LiveRun:
    """One execution of a notebook with papermill's injected parameters, its kernel kept alive."""

    def __init__(self, notebook: Path, parameters: dict):
        import contextlib

        nbformat = pytest.importorskip("nbformat")
        nbclient = pytest.importorskip("nbclient")
        papermill = pytest.importorskip("papermill")
        nb = papermill.iorw.load_notebook_node(str(notebook))   # as papermill reads it (every cell tagged)
        # papermill's own injection (as execute_notebook, only when there are parameters): a cell
        # tagged injected-parameters after the parameters cell
        self.nb = nb if not parameters else papermill.parameterize.parameterize_notebook(
            nb, dict(parameters), kernel_name="python3", language="python", engine_name="nbclient")
        self.client = nbclient.NotebookClient(self.nb, kernel_name="python3", timeout=EXECUTION_TIMEOUT,
                                              kernel_manager_class=PatientKernelManager,
                                              resources={"metadata": {"path": str(Path(notebook).parent)}})
        self._stack = contextlib.ExitStack()
        self._stack.enter_context(self.client.setup_kernel())
        try:
            for index, cell in enumerate(self.nb.cells):
                self.client.execute_cell(cell, index)
            # as NotebookClient.execute does at the end: the widgets' state into the metadata, where
            # evallib.lessons.live.freeze_widget_outputs finds what each widget view showed
            self.client.set_widgets_metadata()
        except BaseException:
            self.close()
            raise
        self.executed = json.loads(nbformat.writes(self.nb))

    def probe(self, code: str) -> list[dict]:
        nbformat = pytest.importorskip("nbformat")
        cell = nbformat.v4.new_code_cell(code)
        self.nb.cells.append(cell)
        self.client.execute_cell(cell, len(self.nb.cells) - 1)
        return [dict(o) for o in cell["outputs"]]

    def close(self) -> None:
        self._stack.close()


class NotebookRuns:
    """The suite's notebook executions: each (notebook, parameters) once per test run.

    :meth:`executed` returns the executed notebook's JSON (as papermill saves it: the
    injected-parameters cell included). The first process to ask executes it under a file
    lock in the shared ``folder`` and saves it there; every later request, in any worker,
    reads that file. :meth:`probe` runs code in a live kernel that executed the notebook
    with those parameters, so that it can move the notebook's widgets; the kernel is kept
    for the other probes of the same parameters in this worker until :meth:`close_kernels`
    (conftest calls it when a test module is done). A probe whose parameters another
    worker already executed must execute again, so a parameter set probed in a test file
    is only used by that file (``--dist loadfile`` keeps a file on one worker).
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.live: dict[str, _LiveRun] = {}

    def _key(self, notebook: Path, parameters: dict | None) -> str:
        import hashlib

        text = Path(notebook).name + "\0" + json.dumps(parameters or {}, sort_keys=True, default=repr)
        return Path(notebook).stem + "-" + hashlib.sha1(text.encode()).hexdigest()[:12]

    def _execute(self, notebook: Path, parameters: dict | None, key: str) -> _LiveRun:
        try:
            run = _LiveRun(Path(notebook), parameters or {})
        finally:  # a failed execution was one too
            record_execution(notebook, parameters, "shared run")
        (self.folder / f"{key}.ipynb").write_text(json.dumps(run.executed), encoding="utf-8")
        return run

    def executed(self, notebook: Path, parameters: dict | None = None) -> dict:
        """The JSON of ``notebook`` executed with ``parameters``, executed at most once per run."""
        import fcntl

        key = self._key(notebook, parameters)
        if key in self.live:
            return self.live[key].executed
        saved = self.folder / f"{key}.ipynb"
        with open(self.folder / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not saved.exists():
                self.live[key] = self._execute(notebook, parameters, key)
                return self.live[key].executed
        return load_notebook(saved)

    def probe(self, notebook: Path, code: str, parameters: dict | None = None) -> list[dict]:
        """Run ``code`` as a further cell in a kernel that executed ``notebook`` with ``parameters``;
        return that cell's outputs (a failing probe raises nbclient's ``CellExecutionError``)."""
        import fcntl

        key = self._key(notebook, parameters)
        if key not in self.live:
            with open(self.folder / f"{key}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                self.live[key] = self._execute(notebook, parameters, key)
        return self.live[key].probe(code)

    def close_kernels(self) -> None:
        """Shut down the live kernels of this worker (their executed notebooks stay saved)."""
        while self.live:
            self.live.popitem()[1].close()
