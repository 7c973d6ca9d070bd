"""The many-data-sets report's runner: papermill executes ``notebooks/report_datasets.ipynb`` on a
results table, nbconvert writes the HTML page.

:func:`evallib.report.execute_template`, shared with the per-item report, writes both
files under temporary names in the output folder and moves them into place only when everything
succeeded, so a failed or interrupted run (Ctrl-C included) leaves no file that looks like a
finished report, no kernel connection file, and no folder it created.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from .._compat import renamed_keywords
from .._validate import sklearn_random_state
from ._datasets_inputs import load_results
from ._datasets_sections import check_options
from ._inputs import ReportInputError
from ._runner import ReportFiles, _progress, execute_template

__all__ = ["DATASETS_NOTEBOOK", "datasets_report_notebook", "run_datasets_report"]


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


@renamed_keywords(control_method="control_adjust")
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
    control_adjust: str = "holm",
    rope: float | None = None,
    verdict: str = "mean-ranks",
    title: str | None = None,
    rng: Any = None,
    progress: bool = True,
    timeout: int = 600,
) -> ReportFiles:
    """Execute ``notebooks/report_datasets.ipynb`` on a results table and write the HTML report.

    The table (one row per data set, one column per classifier) and the options are checked
    first (:func:`evallib.report.load_results`,
    :func:`evallib.report.check_options`), so bad input fails with one
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
    control_adjust : {"holm", "bonferroni-dunn", "hochberg", "finner", "li"}
        The multiple-testing procedure against the control (0.1.0's ``control_method=``).
    rope : float, optional
        Half-width of the region of practical equivalence of the Bayesian test, in the scores'
        units; None: 0.01 for scores between 0 and 1, otherwise that section is skipped.
    verdict : {"mean-ranks", "wilcoxon"}
        The family whose rejections are the pairs' verdict, chosen before the report runs: the
        ``posthoc`` procedure on the average ranks, or Wilcoxon–Holm; the other is secondary.
    title : str, optional
        Report title; default "Classifier comparison over data sets: <file name>".
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness of the Bayesian test's posterior draws and of section 2's Monte Carlo
        permutation p-value (computed only when it decides). The notebook receives one integer,
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
    opts = check_options(table, alpha=alpha, posthoc=posthoc, control=control, control_adjust=control_adjust,
                         rope=rope, verdict=verdict)
    resolved = path.resolve()
    title = title or f"Classifier comparison over data sets: {resolved.name}"
    params = dict(
        results=str(resolved), dataset_column=dataset_column, higher_is_better=table.higher_is_better,
        sheet=sheet, title=title, seed=seed, **opts,
    )
    return execute_template(DATASETS_NOTEBOOK, params, out_html, title=title, progress=progress, timeout=timeout,
                            what=f"{table.n_classifiers} classifiers, {table.n_datasets} data sets")
