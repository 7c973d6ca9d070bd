"""The report's runner: papermill executes the template, nbconvert writes the HTML page."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._compat import renamed_keywords
from .._extras import MissingExtraError, check_extra, require
from .._resources import report_notebook
from .._validate import check_alpha, check_choice, check_count, sklearn_random_state
from . import htmlexport
from ._inputs import PRED_PREFIX, SCORE_PREFIX, ReportInputError, load_predictions
from ._sections import REPORT_ADJUSTMENTS, check_min_difference

#: The report notebook: the repository's notebooks/report.ipynb (shipped in the wheel too).
REPORT_NOTEBOOK: Path = report_notebook()

# ----------------------------------------------------------------------- runner
@dataclass(frozen=True)
class ReportFiles:
    """The files :func:`run_report` wrote: the HTML page, the executed notebook, and the folder
    with every table as a CSV file (``<name>_tables`` beside the page).

    Attributes
    ----------
    html : pathlib.Path
        The report page, the ``output`` it was asked for (resolved to an absolute path).
    notebook : pathlib.Path
        The executed notebook beside it: the same name with ``.ipynb``; it records the
        parameters and the seed of the run.
    tables : pathlib.Path or None
        The folder ``<name>_tables`` with one CSV file per table of the report, or None
        when the run wrote no tables.
    """

    html: Path
    notebook: Path
    tables: Path | None = None


class ReportExecutionError(RuntimeError):
    """The report notebook failed; the message is the notebook's error in one sentence."""


def _check_notebook_tools() -> None:
    """Stop with one sentence naming ``pip install 'evallib[report]'`` when a package of the
    ``report`` extra (papermill, nbconvert, the kernel's packages, ...) is not installed."""
    try:
        check_extra("report", "The report")
    except MissingExtraError as err:
        raise ReportExecutionError(str(err)) from None


def _kernel_manager_class(folder: Path, started: list):
    """:class:`evallib.report.PatientKernelManager` for one report run.

    Its connection file (it holds the kernel's key) lives in ``folder``, which the runner
    removes however the run ends -- not in the system's temporary folder, where
    jupyter_client puts it by default and where an interrupted run would leave it. The
    kernel's own log goes nowhere (its lines would follow the report's one-sentence error
    on the terminal), and every manager is appended to ``started`` so that
    :func:`_stop_kernels` can end a kernel that a Ctrl-C left starting up (it would write its
    connection file again after the folder was removed).
    """
    import subprocess
    import uuid

    require("jupyter_client", "The report")
    from traitlets import default

    # evallib.report._kernel subclasses jupyter_client's classes when it is imported: it is the heavy
    # optional dependency, so it is imported here (tests/test_import_layout.py exempts it by name).
    from ._kernel import PatientKernelManager

    class ReportKernelManager(PatientKernelManager):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            started.append(self)

        @default("connection_file")
        def _connection_file_default(self) -> str:
            return str(folder / f"kernel-{uuid.uuid4()}.json")

        async def start_kernel(self, **kw: Any) -> None:
            kw.setdefault("stdout", subprocess.DEVNULL)
            kw.setdefault("stderr", subprocess.DEVNULL)
            await super().start_kernel(**kw)

    return ReportKernelManager


def _quiet_interrupted_loop() -> None:
    """After Ctrl-C: the cell the interrupt cut short ends later with an error nobody reads,
    and asyncio would log it (a page of traceback) after the one-sentence message; the event
    loop papermill ran on is told to keep such leftovers to itself."""
    try:
        from jupyter_core.utils import ensure_event_loop

        ensure_event_loop().set_exception_handler(lambda loop, context: None)
    except Exception:  # noqa: BLE001 - without that loop there is nothing to quiet
        pass


def _stop_kernels(started: list) -> None:
    """End the kernel processes of ``started`` that still run (after a failure or a Ctrl-C)."""
    for km in started:
        process = getattr(getattr(km, "provisioner", None), "process", None)
        if process is not None and process.poll() is None:
            process.kill()
            try:
                process.wait(timeout=10)
            except Exception:  # noqa: BLE001 - nothing more can be done about it here
                pass


def _progress(enabled: bool, message: str) -> None:
    if enabled:
        print(message, file=sys.stderr, flush=True)


# The lab template without its scripts from a CDN (require.js for widgets, MathJax, Mermaid):
# the report has no widgets, TeX or diagrams, so the page works offline; CSS and figures
# are inline.
def _html_exporter():
    """The HTML exporter for the report: no code, no prompts, no opening cell, offline maths.

    :class:`evallib.report.htmlexport.OfflineHTMLExporter` (nbconvert's lab template with every
    formula turned into MathML and no script loaded from a CDN), so the page renders its
    mathematics without network access; figures and CSS are inline.
    """
    require("nbconvert", "The report")
    from nbconvert.preprocessors import TagRemovePreprocessor

    exporter = htmlexport.OfflineHTMLExporter(exclude_input=True, exclude_input_prompt=True,
                                   exclude_output_prompt=True)
    # The notebook's opening cell explains how to run it; the page starts with the title.
    exporter.register_preprocessor(
        TagRemovePreprocessor(remove_cell_tags={"report-hide"}, enabled=True), enabled=True)
    return exporter


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _write_text(path: Path, text: str) -> None:
    """Write the HTML page (a seam for the tests' full-disk case)."""
    path.write_text(text, encoding="utf-8")


def _os_sentence(exc: OSError, folder: Path) -> str:
    """One sentence for a failure to write the report."""
    import errno

    if exc.errno == errno.ENOSPC or exc.errno == errno.EDQUOT:
        return f"The disk holding {str(folder)!r} is full, so the report could not be written."
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"The output folder {str(folder)!r} is not writable, so the report could not be written."
    return f"The report could not be written to {str(folder)!r} ({exc.strerror or _first_line(exc)})."


def _prepare_output(out_html: Path, out_nb: Path, given: str) -> Path | None:
    """Check the output paths; create the folder. Returns the topmost folder created, if any."""
    for path in (out_html, out_nb):
        if path.is_dir():
            raise ReportInputError(
                f"The output path {str(path)!r} is a directory; give a file name ending in .html "
                "(-o/--output).")
    folder = out_html.parent
    created = None
    if not folder.exists():
        created = folder
        while not created.parent.exists():
            created = created.parent
    elif not folder.is_dir():
        raise ReportInputError(f"The output folder {str(folder)!r} is a file, not a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportInputError(_os_sentence(exc, folder)) from None
    return created


def _remove_created(created: Path, folder: Path) -> None:
    """Remove the empty folders this run created, from ``folder`` up to ``created``."""
    path = folder
    while True:
        try:
            path.rmdir()
        except OSError:
            return
        if path == created:
            return
        path = path.parent


def execute_template(
    notebook: Path, params: dict[str, Any], out_html: Path, *, title: str, given: str | None = None,
    progress: bool = True, timeout: int = 600, what: str = "", tables: bool = False,
) -> ReportFiles:
    """Execute a report template with papermill and write its HTML page and executed notebook.

    The machinery of the three reports. Everything is written in a
    temporary folder beside ``out_html`` and moved into place only when the page exists; the
    kernel's connection file lives in that folder (:func:`_kernel_manager_class`). On any
    failure, Ctrl-C included, nothing is left: the moved files, the temporary folder, a kernel
    still starting, and the empty folders this run created.

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
    given : str, optional
        The output path as the user wrote it, for messages (default: ``out_html``).
    progress : bool
        Print the steps and papermill's progress bar on stderr.
    timeout : int
        Seconds allowed per notebook cell.
    what : str
        Words for the progress line, e.g. ``"4 classifiers, 14 data sets"``.
    tables : bool
        The notebook also writes CSV tables into the folder named by its ``tables_dir``
        parameter (set here); they go to ``<report>_tables`` beside the page, replacing an
        earlier run's, and are removed with the rest on a failure.

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
    _check_notebook_tools()
    require("nbformat", "The report")
    require("papermill", "The report")
    import nbformat
    import papermill

    if not notebook.is_file():
        raise ReportExecutionError(
            f"The report notebook {notebook} is missing: reinstall evallib "
            "(a wheel ships it; an editable install reads the clone's notebooks/ folder).")
    out_nb = out_html.with_suffix(".ipynb")
    out_tables = out_html.with_name(out_html.stem + "_tables") if tables else None
    if out_tables is not None and out_tables.exists() and not out_tables.is_dir():
        raise ReportInputError(
            f"The tables folder {str(out_tables)!r} beside the report is a file; move it or choose another "
            "name for the report (-o/--output).")
    created = _prepare_output(out_html, out_nb, str(out_html) if given is None else given)
    tmp_dir = None
    started: list = []
    moved: list[Path] = []
    try:
        tmp_dir = Path(tempfile.mkdtemp(prefix=f".{out_html.stem}.", dir=out_html.parent))
        tmp_nb = tmp_dir / out_nb.name
        kernel_dir = tmp_dir / "kernel"
        kernel_dir.mkdir(mode=0o700)
        if tables:
            params = {**params, "tables_dir": str(tmp_dir / "tables")}
        _progress(progress, f"[2/3] running the report notebook{f' ({what})' if what else ''}")
        try:
            papermill.execute_notebook(
                str(notebook), str(tmp_nb), parameters=params, cwd=str(notebook.parent),
                kernel_name="python3", progress_bar=progress, execution_timeout=timeout,
                log_output=False, kernel_manager_class=_kernel_manager_class(kernel_dir, started),
            )
        except papermill.PapermillExecutionError as exc:
            message = (exc.evalue or exc.ename).strip().splitlines()[0]
            if exc.ename == "KeyboardInterrupt":  # Ctrl-C reached the kernel first
                raise KeyboardInterrupt from None
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
        if out_tables is not None:
            if out_tables.is_dir():  # an earlier run's tables: into the folder that is removed below
                os.replace(out_tables, tmp_dir / "earlier_tables")
            os.replace(tmp_dir / "tables", out_tables)
            moved.append(out_tables)
    except OSError as exc:
        _remove(moved)
        raise ReportInputError(_os_sentence(exc, out_html.parent)) from None
    except KeyboardInterrupt:
        _remove(moved)
        _quiet_interrupted_loop()
        raise
    except BaseException:
        _remove(moved)
        raise
    finally:
        _stop_kernels(started)
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)
        # the folders this run made, if they hold nothing now (empty subfolders count as nothing)
        if created is not None and not any(p.is_file() for p in created.rglob("*")):
            _remove_created(created, out_html.parent)
    _progress(progress, f"done: {out_html} (executed notebook: {out_nb}"
                        + (f"; tables: {out_tables})" if out_tables is not None else ")"))
    return ReportFiles(html=out_html, notebook=out_nb, tables=out_tables)


@renamed_keywords(positive_label="pos_label")
def run_report(
    predictions: str | os.PathLike,
    output: str | os.PathLike,
    *,
    label_column: str = "label",
    pos_label: Any = None,
    fold_column: str = "fold",
    pred_prefix: str = PRED_PREFIX,
    score_prefix: str = SCORE_PREFIX,
    sheet: str | None = None,
    case_column: str | None = None,
    repeat_column: str | None = None,
    alpha: float = 0.05,
    adjust: str = "holm",
    interval: str = "bonett_price",
    classifiers_tried: int | None = None,
    min_difference: float | None = None,
    title: str | None = None,
    rng: Any = None,
    progress: bool = True,
    timeout: int = 600,
) -> ReportFiles:
    """Execute ``notebooks/report.ipynb`` on a predictions file and write the HTML report.

    Steps (each announced on stderr when ``progress``): the input is checked with
    :func:`load_predictions` (so bad input fails in a second, before any kernel starts);
    papermill executes the notebook with the parameters (with a progress bar over the
    cells); nbconvert writes a self-contained HTML page without code cells. Both files are
    written under temporary names in the output folder and moved into place only when
    everything succeeded, so a failed run leaves no file that looks like a finished report.

    Every table of the report is also written as a CSV file into the folder
    ``<name>_tables`` beside the page (full precision, one file per table, named after its
    section: ``2_measures.csv``, ``3_pairs.csv``, ...); it replaces the folder of an earlier
    run only when the whole report succeeded.

    Parameters
    ----------
    predictions : path
        The predictions file (see :func:`load_predictions`).
    output : path
        The HTML file to write, ending in ``.html`` or ``.htm``; the executed notebook goes
        beside it (same name, ``.ipynb``).
    label_column, pos_label, fold_column, pred_prefix, score_prefix, sheet, case_column, repeat_column
        The column roles and the Excel sheet, see :func:`load_predictions` (``positive_label=``,
        0.1.0's name of ``pos_label``, still works until 0.3.0, with a ``DeprecationWarning``).
    alpha : float, default 0.05
        Significance level, in (0, 1).
    adjust : {"holm", "bonferroni", "bh", "by", "none"}, default "holm"
        Multiple-testing adjustment of the pairwise tests (sections 3 and 4). Holm and
        Bonferroni control the family-wise error rate and come with joint (Bonferroni)
        intervals; ``"bh"`` (Benjamini–Hochberg) and ``"by"`` (Benjamini–Yekutieli) control
        the false discovery rate, and the intervals shown beside them are unadjusted.
    interval : str, default "bonett_price"
        The pairwise interval (:func:`evallib.onetestset.paired_difference_interval`):
        ``"bonett_price"`` (the default), ``"tango"``, ``"newcombe"``, ``"agresti_min"``,
        ``"wald"``, ``"wald_cc"``, or ``"qh"`` for Berrar & Lozano's Quesenberry–Hurst
        interval.
    classifiers_tried : int, optional
        Forman & Cohen's C, the number of classifiers tried before these were chosen; at
        least the number of classifiers in the file, which is the default (``None``).
    min_difference : float, optional
        The smallest difference in accuracy (error rate, balanced accuracy) that matters, as
        a proportion (0.02 = 2 percentage points); every interval of a difference is then
        read against it.
    title : str, optional
        Report title; default "Classifier comparison: <file name>".
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        Randomness of the bootstrap (section 5), as everywhere in evallib. The notebook
        receives one integer, its ``seed`` parameter: ``rng`` itself when it is an int,
        otherwise one drawn from it (:func:`evallib._validate.sklearn_random_state`), so
        the executed notebook beside the HTML records the seed that reproduces the run.
    progress : bool, default True
        Print the steps and papermill's progress bar on stderr.
    timeout : int, default 600
        Seconds allowed per notebook cell.

    Returns
    -------
    ReportFiles
        ``html`` (the page), ``notebook`` (the executed notebook) and ``tables`` (the
        folder of CSV files).

    Raises
    ------
    ReportInputError
        Bad input, with one sentence (nothing is written).
    ReportExecutionError
        The notebook failed for another reason (nothing is written).
    """
    pred_path = Path(predictions).expanduser().resolve()
    out_html = Path(output).expanduser().resolve()
    if out_html.suffix.lower() not in (".html", ".htm"):
        raise ReportInputError(f"The output file {str(output)!r} must end in .html.")
    alpha = check_alpha(alpha)
    adjust = check_choice(adjust, "adjust", REPORT_ADJUSTMENTS)
    interval = check_choice(interval, "interval", ("bonett_price", "tango", "newcombe", "agresti_min",
                                                   "wald", "wald_cc", "qh"))
    if classifiers_tried is not None:
        classifiers_tried = check_count(classifiers_tried, "classifiers_tried", minimum=1)
    min_difference = check_min_difference(min_difference)
    seed = sklearn_random_state(rng)

    _progress(progress, f"[1/3] checking {predictions}")
    roles = dict(label_column=label_column, fold_column=fold_column, pred_prefix=pred_prefix,
                 score_prefix=score_prefix, case_column=case_column, repeat_column=repeat_column)
    data = load_predictions(Path(predictions).expanduser(), pos_label=pos_label, sheet=sheet,
                            **roles)
    if classifiers_tried is not None and classifiers_tried < len(data.classifiers):
        raise ReportInputError(
            f"classifiers_tried must be at least the {len(data.classifiers)} classifiers in the "
            f"file, got {classifiers_tried}."
        )
    params = dict(
        predictions=str(pred_path), **roles,
        pos_label=None if pos_label is None else str(pos_label), sheet=sheet,
        alpha=alpha, adjust=adjust, interval=interval, classifiers_tried=classifiers_tried,
        min_difference=min_difference,
        title=title or f"Classifier comparison: {pred_path.name}", seed=seed,
    )
    what = f"{len(data.classifiers)} classifiers, {data.n} test cases" + (
        f", {data.n_rows} rows" if data.repeated else "")
    return execute_template(REPORT_NOTEBOOK, params, out_html, title=params["title"], given=str(output),
                            progress=progress, timeout=timeout, what=what, tables=True)


def _remove(paths: list[Path]) -> None:
    """Remove what a failed run had already moved into place (files and the tables folder)."""
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)

