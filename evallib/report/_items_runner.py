"""The per-item report's runner: check the input, execute ``notebooks/report_items.ipynb``, write HTML.

The same machinery as :func:`evallib.report.run_report` (papermill with
:class:`evallib.report.PatientKernelManager`, the offline HTML exporter without code
cells, a temporary folder beside the output, atomic moves, nothing left behind on
failure), on the per-item template: :func:`run_items_report`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from .._compat import renamed_keywords
from .._validate import check_alpha, check_choice, check_count, sklearn_random_state
from ..items import LEADERBOARD_ADJUSTMENTS
from ._inputs import ReportInputError
from ._items_inputs import ITEM_SOURCE_FORMATS, load_items
from ._runner import ReportFiles, _progress, execute_template
from ._sections import check_min_difference

__all__ = ["ITEMS_NOTEBOOK", "items_notebook", "run_items_report"]


def items_notebook() -> Path:
    """The per-item report's template, ``notebooks/report_items.ipynb``.

    A wheel ships it as ``evallib/_notebooks/report_items.ipynb`` (as it ships
    ``report.ipynb``); an editable install reads the checkout's copy.
    """
    try:
        return Path(str(resources.files("evallib._notebooks") / "report_items.ipynb"))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "notebooks" / "report_items.ipynb"


#: The per-item report notebook.
ITEMS_NOTEBOOK: Path = items_notebook()


def _source_parameter(source: Any, source_format: str) -> Any:
    """The source as the notebook's JSON parameter: absolute paths (the kernel runs elsewhere)."""
    def absolute(p: Any) -> str:
        if not isinstance(p, (str, os.PathLike)):
            raise ReportInputError(f"A {source_format} source must be given as file paths, got {p!r}.")
        return str(Path(p).expanduser().resolve())

    if source_format == "table":
        return absolute(source)
    if source_format == "lm-eval":
        if not isinstance(source, Mapping):
            raise ReportInputError("lm-eval samples files must be given per model, as {model name: file}.")
        return {str(k): ([absolute(v)] if isinstance(v, (str, os.PathLike)) else [absolute(p) for p in v])
                for k, v in source.items()}
    if isinstance(source, Mapping):  # {model: log or [logs]} names the logs (NAME=FILE)
        return {str(k): ([absolute(v)] if isinstance(v, (str, os.PathLike)) else [absolute(p) for p in v])
                for k, v in source.items()}
    if isinstance(source, (str, os.PathLike)):
        return [absolute(source)]
    return [absolute(p) for p in source]


@renamed_keywords(n_boot="n_resamples")
def run_items_report(
    source: Any,
    output: str | os.PathLike,
    *,
    source_format: str = "table",
    item_column: str = "item",
    cluster_column: str | None = None,
    sample_column: str | None = None,
    model_column: str | None = None,
    score_column: str | None = None,
    score_prefix: str | None = None,
    sheet: str | int | None = None,
    metric: str | None = None,
    filter: str | None = None,  # noqa: A002 - lm-eval's name
    scorer: str | None = None,
    cluster_key: str | None = None,
    failed_samples: str | None = None,
    alpha: float = 0.05,
    adjust: str = "holm",
    n_resamples: int = 2000,
    min_difference: float | None = None,
    title: str | None = None,
    rng: Any = None,
    progress: bool = True,
    timeout: int = 600,
) -> ReportFiles:
    """Run the per-item report on a benchmark file or harness logs; write HTML and the executed notebook.

    The input is read and checked first (:func:`evallib.report.load_items`),
    so bad input stops with one sentence before anything is written; then
    ``notebooks/report_items.ipynb`` runs with papermill and the page is written without
    code cells, with the executed notebook beside it (same name, ``.ipynb``).

    Parameters
    ----------
    source : path, mapping or sequence
        ``source_format="table"``: the per-item file (wide or long, see
        :func:`~evallib.report.load_item_scores`); ``"lm-eval"``:
        ``{model: samples file or [files]}``; ``"inspect"``: the logs, or
        ``{model: log or [logs]}`` to name them (two prompts of one model).
    output : path
        The HTML file to write.
    source_format : {"table", "lm-eval", "inspect"}
    item_column, cluster_column, sample_column, model_column, score_column, score_prefix, sheet
        The table's column roles (see :func:`~evallib.report.load_item_scores`).
    metric, filter, scorer, cluster_key, failed_samples
        The harness logs' options (see :func:`~evallib.report.read_lm_eval_samples`
        and :func:`~evallib.report.read_inspect_logs`).
    alpha : float
        Significance level, in (0, 1).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}
        Multiple-testing adjustment of the pairwise differences (and of the leader's not-separated group).
    n_resamples : int
        Bootstrap replicates of the rank intervals.
    min_difference : float, optional
        The smallest difference of mean scores that matters, in (0, 1): the planning section
        gives the items needed to detect it with power 0.8 at ``alpha``.
    title : str, optional
        Report title; default "Per-item comparison: <file name>".
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness of the rank bootstrap; the notebook receives one integer seed (``rng``
        itself when an int), recorded in the executed notebook.
    progress : bool
        Print the steps and papermill's progress bar.
    timeout : int
        Seconds allowed per notebook cell.

    Returns
    -------
    evallib.report.ReportFiles

    Raises
    ------
    ReportInputError
        Bad input or options, with one sentence (nothing is written).
    ReportExecutionError
        The notebook failed for another reason (nothing is written).
    """
    out_html = Path(output).expanduser().resolve()
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise ReportInputError(f"The output file {str(output)!r} must end in .html.")
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", LEADERBOARD_ADJUSTMENTS)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    min_difference = check_min_difference(min_difference)
    timeout = check_count(timeout, "timeout", minimum=1)
    if source_format not in ITEM_SOURCE_FORMATS:
        raise ReportInputError(f"The source format must be one of 'table', 'lm-eval' and 'inspect', got "
                               f"{source_format!r}.")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a text, got {type(title).__name__}")
    seed = sklearn_random_state(rng)
    options = dict(item_column=item_column, cluster_column=cluster_column, sample_column=sample_column,
                   model_column=model_column, score_column=score_column, score_prefix=score_prefix, sheet=sheet,
                   metric=metric, filter=filter, scorer=scorer, cluster_key=cluster_key, failed_samples=failed_samples)
    _progress(progress, "[1/3] checking the per-item input")
    data = load_items(source, source_format=source_format, **options)
    parameter = _source_parameter(source, source_format)
    name = Path(parameter).name if isinstance(parameter, str) else f"{data.n_models} models"
    params = dict(source=parameter, source_format=source_format, **options, alpha=alpha, adjust=adjust,
                  n_resamples=n_resamples, min_difference=min_difference, title=title or f"Per-item comparison: {name}", seed=seed)
    what = f"{data.n_models} models, {data.n_items:,} items"
    del data  # the kernel reads the input again: do not hold it twice while the notebook runs
    return execute_template(ITEMS_NOTEBOOK, params, out_html, given=str(output), title=params["title"], what=what,
                    progress=progress, timeout=timeout)
