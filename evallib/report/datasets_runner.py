"""The many-data-sets report's runner: papermill executes ``notebooks/report_datasets.ipynb`` on a
results table, nbconvert writes the HTML page.

:func:`execute_template` is the predictions report's machinery (:mod:`evallib.report.runner`)
made independent of the template: both files are written under temporary names in the output
folder and moved into place only when everything succeeded, so a failed or interrupted run
leaves no file that looks like a finished report, and folders it created are removed again.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from .._validate import sklearn_random_state
from .datasets_inputs import load_results
from .datasets_sections import check_options
from .inputs import ReportInputError
from .runner import (
    ReportExecutionError,
    ReportFiles,
    _first_line,
    _html_exporter,
    _os_sentence,
    _prepare_output,
    _progress,
    _remove_created,
    _write_text,
)

__all__ = ["DATASETS_NOTEBOOK", "datasets_report_notebook", "execute_template", "run_datasets_report"]


def datasets_report_notebook() -> Path:
    """The many-data-sets report's template notebook, ``notebooks/report_datasets.ipynb``.

    A wheel ships it as ``evallib/_notebooks/report_datasets.ipynb`` (pyproject.toml maps the
    repository's ``notebooks/`` onto ``evallib._notebooks``); an editable install reads the
    checkout's copy, as :func:`evallib._resources.report_notebook` does for the predictions
    report.
    """
    try:
        return Path(str(resources.files("evallib._notebooks") / "report_datasets.ipynb"))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "notebooks" / "report_datasets.ipynb"


#: The many-data-sets report notebook.
DATASETS_NOTEBOOK: Path = datasets_report_notebook()


def execute_template(
    notebook: Path, params: dict[str, Any], out_html: Path, *, title: str, progress: bool = True,
    timeout: int = 600, what: str = "",
) -> ReportFiles:
    """Execute a report template with papermill and write its HTML page and executed notebook.

    Parameters
    ----------
    notebook : Path
        The template (its ``parameters`` cell receives ``params``).
    params : dict
        The notebook's parameters.
    out_html : Path
        The HTML file to write (resolved, ending in ``.html``); the executed notebook goes beside
        it with the suffix ``.ipynb``.
    title : str
        The page's title (the HTML ``<title>``, escaped by nbconvert).
    progress : bool
        Print the steps and papermill's progress bar on stderr.
    timeout : int
        Seconds allowed per notebook cell.
    what : str
        Words for the progress line, e.g. ``"4 classifiers, 14 data sets"``.

    Returns
    -------
    ReportFiles

    Raises
    ------
    ReportInputError
        A ``ReportInputError`` raised inside the notebook, or a file that could not be written
        (one sentence; nothing is left behind).
    ReportExecutionError
        The notebook failed for another reason (nothing is left behind).
    """
    import nbformat
    import papermill

    from .._kernel import PatientKernelManager

    if not notebook.is_file():
        raise ReportExecutionError(
            f"The report notebook {notebook} is missing: reinstall evallib "
            "(a wheel ships it; an editable install reads the clone's notebooks/ folder).")
    out_nb = out_html.with_suffix(".ipynb")
    created = _prepare_output(out_html, out_nb, str(out_html))
    tmp_dir = None
    moved: list[Path] = []
    try:
        tmp_dir = Path(tempfile.mkdtemp(prefix=f".{out_html.stem}.", dir=out_html.parent))
        tmp_nb = tmp_dir / out_nb.name
        _progress(progress, f"[2/3] running the report notebook{f' ({what})' if what else ''}")
        try:
            papermill.execute_notebook(
                str(notebook), str(tmp_nb), parameters=params, cwd=str(notebook.parent),
                kernel_name="python3", progress_bar=progress, execution_timeout=timeout,
                log_output=False, kernel_manager_class=PatientKernelManager,
            )
        except papermill.PapermillExecutionError as exc:
            message = (exc.evalue or exc.ename).strip().splitlines()[0]
            if exc.ename == "ReportInputError":
                raise ReportInputError(message) from None
            raise ReportExecutionError(f"The report notebook failed: {exc.ename}: {message}") from None
        except Exception as exc:  # nbclient's CellTimeoutError, DeadKernelError, ...
            name = type(exc).__name__
            if isinstance(exc, OSError) and not isinstance(exc, TimeoutError):
                raise  # a file could not be written: the sentence comes below
            if "Timeout" in name or isinstance(exc, TimeoutError):
                raise ReportExecutionError(
                    f"A cell of the report notebook ran longer than the {timeout} s allowed per cell "
                    "(timeout=), so the report was stopped.") from None
            if name == "DeadKernelError":
                raise ReportExecutionError(
                    "The report notebook's kernel died (often: not enough memory for this file).") from None
            raise ReportExecutionError(f"The report notebook failed: {name}: {_first_line(exc)}") from None
        _progress(progress, f"[3/3] writing {out_html}")
        nb = nbformat.read(tmp_nb, as_version=4)
        body, _ = _html_exporter().from_notebook_node(nb, resources={"metadata": {"name": title}})
        tmp_html = tmp_dir / out_html.name
        _write_text(tmp_html, body)
        os.replace(tmp_nb, out_nb)
        moved.append(out_nb)
        os.replace(tmp_html, out_html)
        moved.append(out_html)
    except OSError as exc:
        for path in moved:
            path.unlink(missing_ok=True)
        raise ReportInputError(_os_sentence(exc, out_html.parent)) from None
    except BaseException:
        for path in moved:
            path.unlink(missing_ok=True)
        raise
    finally:
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)
        if created is not None:  # the empty folders this run created, deepest first (rmdir keeps a full one)
            _remove_created(created, out_html.parent)
    _progress(progress, f"done: {out_html} (executed notebook: {out_nb})")
    return ReportFiles(html=out_html, notebook=out_nb)


def run_datasets_report(
    results: str | os.PathLike,
    output: str | os.PathLike,
    *,
    dataset_column: str | None = None,
    higher_is_better: bool = True,
    sheet: str | None = None,
    alpha: float = 0.05,
    posthoc: str = "nemenyi",
    control: str | None = None,
    control_method: str = "holm",
    rope: float | None = None,
    title: str | None = None,
    rng: Any = 0,
    progress: bool = True,
    timeout: int = 600,
) -> ReportFiles:
    """Execute ``notebooks/report_datasets.ipynb`` on a results table and write the HTML report.

    The table (one row per data set, one column per classifier) and the options are checked
    first (:func:`evallib.report.datasets_inputs.load_results`,
    :func:`evallib.report.datasets_sections.check_options`), so bad input fails with one
    sentence before any kernel starts; then papermill executes the notebook and nbconvert
    writes a self-contained HTML page without code cells (:func:`execute_template`).

    Parameters
    ----------
    results : path
        The results table (CSV/TSV with the separator, decimal mark and encoding detected,
        ``.xlsx``, ``.parquet``, ...).
    output : path
        The HTML file to write; the executed notebook goes beside it (same name, ``.ipynb``).
    dataset_column : str, optional
        The column naming the data sets; None: found by its name (``dataset``, ``data set``,
        ``data_set``, ``task``, ...).
    higher_is_better : bool
        False for error rates and losses.
    sheet : str, optional
        The Excel sheet (default: the first).
    alpha : float
        Family-wise significance level, in (0, 1).
    posthoc : {"nemenyi", "holm", "shaffer", "bergmann", "bonferroni"}
        The all-pairs procedure.
    control : str, optional
        A classifier to compare every other one with.
    control_method : {"holm", "bonferroni-dunn", "hochberg", "finner", "li"}
        The procedure against the control.
    rope : float, optional
        Half-width of the region of practical equivalence of the Bayesian test, in the scores'
        units; None: 0.01 for scores between 0 and 1, otherwise that section is skipped.
    title : str, optional
        Report title; default "Classifier comparison over data sets: <file name>".
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness of the Bayesian test's posterior draws. The notebook receives one integer,
        its ``seed`` parameter (``rng`` itself when it is an int), recorded in the executed
        notebook beside the HTML.
    progress : bool
        Print the steps and papermill's progress bar.
    timeout : int
        Seconds allowed per notebook cell.

    Returns
    -------
    ReportFiles

    Raises
    ------
    ReportInputError
        Bad input, with one sentence (nothing is written).
    ReportExecutionError
        The notebook failed for another reason (nothing is written).

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30.
    """
    path = Path(results).expanduser()
    out_html = Path(output).expanduser().resolve()
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise ReportInputError(f"The output file {str(output)!r} must end in .html.")
    seed = sklearn_random_state(rng)
    _progress(progress, f"[1/3] checking {results}")
    table = load_results(path, dataset_column=dataset_column, higher_is_better=higher_is_better, sheet=sheet)
    opts = check_options(table, alpha=alpha, posthoc=posthoc, control=control, control_method=control_method,
                         rope=rope)
    resolved = path.resolve()
    title = title or f"Classifier comparison over data sets: {resolved.name}"
    params = dict(
        results=str(resolved), dataset_column=dataset_column, higher_is_better=table.higher_is_better,
        sheet=sheet, title=title, seed=seed, **opts,
    )
    return execute_template(DATASETS_NOTEBOOK, params, out_html, title=title, progress=progress, timeout=timeout,
                            what=f"{table.n_classifiers} classifiers, {table.n_datasets} data sets")
