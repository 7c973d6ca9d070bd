"""Set-up shared by the test files: the repository root, a headless matplotlib, and the public names.

pytest imports this file before any test module, so the Agg backend is chosen before
anything imports pyplot (no window, the same figures on every machine), and test files
take the repository root from here (``from conftest import ROOT``) or from the
``repo_root`` fixture instead of each computing it. The walk over the public namespace
(``public_modules``, ``public_objects``) lives here too, so that the conventions test and
the docstring test check the same names.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import pkgutil
import warnings
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

#: The repository checkout the tests run in.
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (the folder holding pyproject.toml)."""
    return ROOT


def public_modules() -> list[Any]:
    """``evallib`` and every module whose dotted name has no private part, at any depth."""
    import evallib
    names = ["evallib"] + sorted(m.name for m in pkgutil.walk_packages(evallib.__path__, "evallib.")
                                 if not any(part.startswith("_") for part in m.name.split(".")))
    return [importlib.import_module(n) for n in names]


def public_objects() -> dict[str, Any]:
    """``module.name`` of each public object (first home found), one entry per object."""
    seen: dict[int, tuple[str, Any]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for module in public_modules():
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name, None)
                if obj is not None:
                    seen.setdefault(id(obj), (f"{module.__name__}.{name}", obj))
    return dict(seen.values())


# ------------------------------------------------------------------ notebook executions
#
# One folder shared by the controller and every pytest-xdist worker holds the shared runs
# of tests/_nbtools.NotebookRuns and the log of every notebook execution; the controller
# makes it, hands it to the workers in ``workerinput``, prints the counts at the end and
# fails the run when a notebook ran more often than tests/_nbtools' budget allows (twice
# with its defaults: nbval's run and the shared one; once per other parameter set).

_RUNS_KEY = "evallib_runs_dir"
_RUNS_DIR = pytest.StashKey[str]()
_OWN_RUNS = pytest.StashKey[str]()
_LIVE_RUNS = pytest.StashKey[object]()
_OVER_BUDGET = pytest.StashKey[list]()


class _NbvalExecutions:
    """Counts nbval's executions: nbval runs each notebook file it collected in one kernel, cell
    by cell (one test item per cell), and the file's run is counted once, when the set-up of its
    first cell has started that kernel (``IPyNbFile.setup``).

    A plugin object registered in pytest_configure, not a hook of this file: pytest calls a
    conftest's runtest hooks only for the items under the conftest's folder, and nbval's items
    are under notebooks/.
    """

    def __init__(self, notebook_file: type):
        self.notebook_file = notebook_file
        self.counted: set[str] = set()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item):
        try:
            return (yield)
        finally:
            parent = item.parent
            if (isinstance(parent, self.notebook_file) and getattr(parent, "kernel", None) is not None
                    and parent.nodeid not in self.counted):
                from _nbtools import record_execution

                self.counted.add(parent.nodeid)
                record_execution(parent.path, None, "nbval")


def _one_thread_per_library():
    """BLAS and OpenMP in this process compute on one thread: pytest-xdist already runs one
    worker per core (``make check``, ``make test``), and a scikit-learn fit or a matrix
    product that starts a thread per core in each worker oversubscribes the machine (the
    breast-cancer cross-validations of the report tests took five to twenty times longer).
    threadpoolctl limits only the libraries loaded so far, so numpy's and scipy's OpenBLAS and
    scikit-learn's OpenMP runtime are loaded first (the tests import them anyway), and each
    module's start limits again whatever else a fixture loaded since. Kernels and
    subprocesses are not affected."""
    try:
        import sklearn  # noqa: F401
        from threadpoolctl import threadpool_limits  # scikit-learn's dependency
    except ImportError:  # the core install: no scikit-learn, nothing threaded to limit
        return
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    threadpool_limits(1)


def pytest_configure(config):
    import os
    import tempfile

    from _nbtools import RUNS_ENV

    _one_thread_per_library()
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        folder = workerinput[_RUNS_KEY]
    else:
        folder = tempfile.mkdtemp(prefix="evallib-test-runs-")
        config.stash[_OWN_RUNS] = folder
    config.stash[_RUNS_DIR] = folder
    os.environ[RUNS_ENV] = folder
    try:
        from nbval.plugin import IPyNbFile
    except ImportError:  # no nbval: nothing of its to count
        return
    config.pluginmanager.register(_NbvalExecutions(IPyNbFile), "evallib-nbval-executions")


if importlib.util.find_spec("xdist") is not None:
    def pytest_configure_node(node):
        node.workerinput[_RUNS_KEY] = node.config.stash[_RUNS_DIR]


def pytest_unconfigure(config):
    import shutil

    own = config.stash.get(_OWN_RUNS, None)
    if own:
        shutil.rmtree(own, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    """Every test that executes a lesson (through the shared runs) is marked slow, so that
    ``make check`` (``-m "not slow"``) leaves it out whether or not its file says so."""
    for item in items:
        if "notebook_runs" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _count_report_runs():
    """Every papermill run in this process (the report runners', tests/_nbtools.run_papermill's) is counted."""
    try:
        import papermill
    except ImportError:
        yield
        return
    from _nbtools import record_execution

    original = papermill.execute_notebook

    def counted(input_path, output_path, *args, parameters=None, **kwargs):
        try:
            return original(input_path, output_path, *args, parameters=parameters, **kwargs)
        finally:
            record_execution(input_path, parameters, "papermill")

    papermill.execute_notebook = counted
    yield
    papermill.execute_notebook = original


@pytest.fixture(scope="session")
def notebook_runs(request):
    """The shared executions of the lessons (tests/_nbtools.NotebookRuns): each notebook once per
    parameter set in the whole run, whichever test and worker asks first."""
    from _nbtools import NotebookRuns

    runs = NotebookRuns(Path(request.config.stash[_RUNS_DIR]))
    request.config.stash[_LIVE_RUNS] = runs
    yield runs
    runs.close_kernels()



def _freeze_the_heap():
    """Collect the garbage, then move every surviving object to the collector's permanent
    generation (``gc.freeze``), so that a full ``gc.collect()`` later scans only what was made
    since. statsmodels' ``multipletests`` (Holm) calls ``gc.collect()`` at every call, which in a
    worker holding a few thousand collected tests took about a second a call."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    _freeze_the_heap()


@pytest.fixture(scope="module", autouse=True)
def _close_live_kernels(request):
    """A module's live kernels are shut down when the module is done (the next file has its own);
    what the module left behind is collected and frozen (``_freeze_the_heap``). BLAS and OpenMP
    libraries loaded since the last module are held to one thread too (``_one_thread_per_library``)."""
    _one_thread_per_library()
    yield
    runs = request.config.stash.get(_LIVE_RUNS, None)
    if runs is not None:
        runs.close_kernels()
    _freeze_the_heap()


def pytest_sessionfinish(session, exitstatus):
    """On the controller (or a run without workers), once every worker is done: a notebook
    executed more often than the budget allows fails the run (pytest_terminal_summary says which)."""
    config = session.config
    if getattr(config, "workerinput", None) is not None:
        return
    from _nbtools import execution_budget_problems, read_executions

    problems = execution_budget_problems(read_executions(Path(config.stash[_RUNS_DIR])))
    config.stash[_OVER_BUDGET] = problems
    if problems and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    """On the controller (or a run without workers): executions per notebook per parameter set,
    and the budget's verdict."""
    if getattr(config, "workerinput", None) is not None:
        return
    from _nbtools import (
        DEFAULT_RUNS_ALLOWED,
        OTHER_RUNS_ALLOWED,
        execution_counts,
        read_executions,
    )

    runs = read_executions(Path(config.stash[_RUNS_DIR]))
    if not runs:
        return
    tr = terminalreporter
    tr.section("notebook executions (per notebook and parameter set)")
    complete = 0
    for (name, params), row in execution_counts(runs).items():
        who = "; ".join(f"{k} x{v}" if v > 1 else k for k, v in sorted(row["by"].items()))
        over = row["n"] > row["allowed"]
        tr.write_line(f"{row['n']:3d}  {name}  [{params[:90]}]  {who}"
                      + (f"  OVER BUDGET (at most {row['allowed']})" if over else ""), red=over)
        complete += row["n"]
    tr.write_line(f"{complete} executions of {len({r['notebook'] for r in runs})} notebooks"
                  f" (budget: {DEFAULT_RUNS_ALLOWED} per notebook with its defaults, {OTHER_RUNS_ALLOWED} per other"
                  " parameter set)")
    problems = config.stash.get(_OVER_BUDGET, [])
    if problems:
        tr.write_line("notebook execution budget exceeded, so the run fails:", red=True, bold=True)
        for problem in problems:
            tr.write_line(f"  {problem}", red=True)


# ------------------------------------------------------------------ report helpers


def write_csv(frame, path: Path) -> Path:
    """Write ``frame`` (a pandas DataFrame) to ``path`` as CSV without its index; return the path."""
    frame.to_csv(path, index=False)
    return path


def run_cli(tmp_path: Path, predictions: Path, *args: str) -> tuple[str, dict]:
    """``python -m evallib report PREDICTIONS -o tmp_path/report/out.html ARGS``, in this process
    (``evallib.__main__.main``; tests/test_cli_reports.py runs the real command once): it must
    succeed, announce its steps and write the page, the executed notebook and the tables' folder,
    nothing else. Returns the page's HTML and the executed notebook's JSON."""
    import contextlib
    import io

    from evallib.__main__ import main

    out = tmp_path / "report" / "out.html"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["report", str(predictions), "-o", str(out), *args])
    stderr = err.getvalue()
    assert status == 0, stderr[-2000:]
    assert "[3/3] writing" in stderr  # the steps are announced
    nb = json.loads(out.with_suffix(".ipynb").read_text())
    leftovers = [p.name for p in out.parent.iterdir() if p.name not in ("out.html", "out.ipynb", "out_tables")]
    assert leftovers == []  # the page, the executed notebook and the tables' folder, nothing else
    assert (out.parent / "out_tables" / "2_measures.csv").is_file()
    return out.read_text(encoding="utf-8"), nb


def run_main(args, cwd: Path | None = None, env: dict | None = None):
    """``python -m evallib ARGS`` in this process: ``evallib.__main__.main(argv)`` with its stdout
    and stderr captured, in ``cwd`` and with ``env`` as os.environ (both restored afterwards).

    Returns a ``subprocess.CompletedProcess`` (``returncode`` is main's status, or argparse's
    SystemExit code), so a test reads it as it read the subprocess. The real command line,
    from a fresh interpreter, is run once in tests/test_cli_reports.py.
    """
    import contextlib
    import io
    import os
    import subprocess

    from evallib.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in args])
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(saved_cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)
    return subprocess.CompletedProcess(["python", "-m", "evallib", *map(str, args)], status,
                                       out.getvalue(), err.getvalue())


def dispatch_report(monkeypatch, argv):
    """``main(["report", *argv, "-q"])`` in process with the three report runners replaced by
    recorders: returns the exit status and the options the chosen runner was called with."""
    import evallib.__main__ as cli
    from evallib.report import _datasets_runner as datasets_runner
    from evallib.report import _items_runner as items_runner
    from evallib.report import _runner as runner

    seen = {}

    def recorder(name):
        def run(source, output, **kwargs):
            seen.update(report=name, source=source, output=output, **kwargs)
            return runner.ReportFiles(html=output, notebook=output) if hasattr(runner, "ReportFiles") else None
        return run

    monkeypatch.setattr(items_runner, "run_items_report", recorder("items"))
    monkeypatch.setattr(datasets_runner, "run_datasets_report", recorder("datasets"))
    monkeypatch.setattr(cli, "run_report", recorder("predictions"), raising=False)
    import evallib.report as rep
    monkeypatch.setattr(rep, "run_report", recorder("predictions"))
    status = cli.main(["report", *argv, "-q"])
    return status, seen


# ------------------------------------------------------------------ harness files, as the harnesses write them
# lm-evaluation-harness: the schema of ``lm_eval/loggers/evaluation_tracker.py`` (``save_results_samples``),
# described in tests/test_report_harness.py; inspect_ai: its own API.
MMLU = {"mmlu_abstract_algebra": 100, "mmlu_anatomy": 135, "mmlu_astronomy": 152}
DATE = "2025-03-14T09-26-53.589793"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_lm_eval_task(folder: Path, task: str, n_docs: int, accuracy: float, *, rng: np.random.Generator,
                       date: str = DATE, name: str | None = None, filters=("none",), hashes: bool = True) -> Path:
    """One task's ``--log_samples`` file, as lm-eval's EvaluationTracker writes it."""
    subject = task.removeprefix("mmlu_")
    lines = []
    right = rng.random(n_docs) < accuracy
    for f in filters:
        for doc_id in range(n_docs):
            doc = {"question": f"{subject} question {doc_id}?", "subject": subject,
                   "choices": ["A", "B", "C", "D"], "answer": int(doc_id % 4)}
            prompt = f"The following are multiple choice questions about {subject}.\n\n{doc['question']}\nAnswer:"
            # save_results_samples writes target as str(target) and resps, filtered_resps through
            # sanitize_list, which turns every inner value into text ((loglikelihood, is_greedy) pairs)
            record = {"doc_id": doc_id, "doc": doc, "target": str(doc["answer"]),
                      "arguments": {f"gen_args_{j}": {"arg_0": prompt, "arg_1": f" {c}"}
                                    for j, c in enumerate(doc["choices"])},
                      "resps": [[["-1.2", "False"]] for _ in doc["choices"]],
                      "filtered_resps": [["-1.2", "False"] for _ in doc["choices"]],
                      "filter": f, "metrics": ["acc"],
                      "acc": float(right[doc_id])}
            if hashes:
                record.update(doc_hash=_sha(json.dumps(doc, indent=2, ensure_ascii=False)), prompt_hash=_sha(prompt),
                              target_hash=_sha(str(doc["answer"])))
            lines.append(json.dumps(record, ensure_ascii=False))
    path = folder / (name or f"samples_{task}_{date}.jsonl")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_inspect(path: Path, model: str, right: np.ndarray, *, task: str = "quiz", reducer: str = "mean",
                  errored: tuple = (), inputs=None, status: str = "success") -> Path:
    """A log written with inspect_ai's own API: items x epochs of C/I, and inspect's own reduced accuracy.

    The results are what inspect_ai computes: its epochs reducer (``max_score()`` for "max",
    ``mean_score()`` for "mean") over each sample's epochs, then its ``accuracy()`` metric.
    ``errored``: (item, epoch) pairs written as samples that errored (no score, ``error`` set).
    """
    from inspect_ai.log import EvalDataset, EvalLog, EvalMetric, EvalResults, EvalSample, EvalScore, EvalSpec, write_eval_log
    from inspect_ai.log._log import EvalConfig, EvalError
    from inspect_ai.scorer import SampleScore, Score, accuracy, max_score, mean_score

    n_items, n_epochs = right.shape
    samples, per_item = [], []
    for i in range(n_items):
        scores = []
        for e in range(n_epochs):
            text = inputs[i] if inputs is not None else f"Question {i}?"
            if (i, e + 1) in errored:
                samples.append(EvalSample(id=i + 1, epoch=e + 1, input=text, target="yes",
                                          error=EvalError(message="RuntimeError: the sandbox timed out",
                                                          traceback="", traceback_ansi="")))
                continue
            score = Score(value="C" if right[i, e] else "I")
            scores.append(score)
            samples.append(EvalSample(id=i + 1, epoch=e + 1, input=text, target="yes", scores={"match": score},
                                      metadata={"passage": i // 4}))
        if scores:
            per_item.append(SampleScore(score=(max_score() if reducer == "max" else mean_score())(scores),
                                        sample_id=i + 1))
    value = accuracy()(per_item)
    results = EvalResults(total_samples=len(samples), completed_samples=len(samples), scores=[
        EvalScore(name="match", scorer="match", reducer=reducer if reducer != "mean" else None,
                  metrics={"accuracy": EvalMetric(name="accuracy", value=float(value))})])
    spec = EvalSpec(created="2025-01-01T00:00:00+00:00", task=task, dataset=EvalDataset(name="quiz"), model=model,
                    config=EvalConfig(epochs=n_epochs, epochs_reducer=[reducer]))
    write_eval_log(EvalLog(eval=spec, samples=samples, results=results, status=status), str(path))
    return path


def predictions_summary(data: Any, *, alpha: float = 0.05, adjust: str = "holm", min_difference: float | None = None,
                        n_resamples: int = 500) -> tuple[str, dict]:
    """The predictions report's summary of ``data`` (an ``evallib.report.Predictions``), computed
    as notebooks/report.ipynb computes it, and the sections it was made from (for the report's
    cold-read tests; the F-measure bootstrap seeded with 0)."""
    from evallib import report as rp

    m = rp.classifier_measures(data, alpha=alpha)
    parts = dict(
        measures=m,
        pairwise=rp.pairwise_comparison(data, alpha=alpha, adjust=adjust, min_difference=min_difference),
        balanced=rp.balanced_accuracy_comparison(data, alpha=alpha, adjust=adjust, min_difference=min_difference),
        omnibus=rp.omnibus_test(data, alpha=alpha),
        scores=rp.score_comparison(data, alpha=alpha, adjust=adjust),
        chance=rp.chance_check(data, m, alpha=alpha),
        bootstrap=rp.top_two_bootstrap(data, m, n_resamples=n_resamples, alpha=alpha, rng=0),
        folds=rp.fold_analysis(data, alpha=alpha, min_difference=min_difference),
    )
    return rp.summary_text(data, alpha=alpha, **parts), parts
