"""Command line: ``python -m evallib COMMAND``.

- ``report predictions.csv -o report.html`` runs ``notebooks/report.ipynb`` on an analyst's
  predictions file with papermill and writes an HTML page without code cells, with the
  executed notebook beside it (see :func:`evallib.report.run_report`); the same command runs
  the per-item report (``notebooks/report_items.ipynb``) on a per-item file given
  ``--item-column`` or on harness logs (``--lm-eval``, ``--inspect-log``), and the
  many-data-sets report (``notebooks/report_datasets.ipynb``) on a results table (a
  data-set column, given or found by name, and no label column);
- ``gate BASELINE [CANDIDATE] --margin 0.01`` is the release gate: is the candidate no worse
  than the baseline by more than the margin? It reads the files the reports read (a per-item
  file, a predictions file, or harness logs with ``--lm-eval`` / ``--inspect-log``): two files,
  one model each (or named with ``--baseline-model`` / ``--candidate-model``), paired by item id,
  or one file holding both models, named with those flags (harness logs: the first model given is
  the baseline, the second the candidate, unless named). It prints one sentence and exits 0 (no
  worse), 3 (worse by more than the margin) or 4 (cannot tell yet), and ``--json PATH`` writes the
  verdict for CI (see :func:`evallib.report.release_gate`, :data:`~evallib.report.GATE_EXIT_CODES`);
- ``critical-values [PATH]`` regenerates Forman & Cohen's table of exact critical values
  (:func:`evallib.onetestset.write_critical_values`, ``make critical-values``);
- ``textsim-grid [PATH]`` regenerates the 270 precomputed experiments behind notebook 03's
  population sliders (:func:`evallib.studies.write_experiment_grid`, ``make textsim-grid``).

Bad input stops the run with one sentence on stderr and exit status 1 (so does an option the
chosen report does not read, see :data:`REPORT_OPTIONS`); usage errors exit
with status 2 (argparse's convention); Ctrl-C stops the report with one sentence and exit
status 130 (128 + SIGINT, the shell's convention), leaving no file behind.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Modules, not their functions, for the runners and writers: a test replaces a runner on its
# module and the command line calls the replacement.
from ._compat import REMOVAL
from ._extras import MissingExtraError, check_extra
from ._multitest import ADJUSTMENTS
from .onetestset import _nullbest as nullbest
from .report import GATE_EXIT_CODES, ReportExecutionError, ReportInputError, release_gate, run_report, write_verdict
from .report import _datasets_runner as datasets_runner
from .report import _items_runner as items_runner
from .report._datasets_inputs import is_results_table
from .report._datasets_sections import VERDICT_FAMILIES
from .report._inputs import _read_table
from .studies import _textsim as textsim


def _whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number ``>= minimum``, else one sentence saying so."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number >= {minimum}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be a whole number >= {minimum}, got {value}")
        return value
    return parse


_positive_int = _whole_number(1)
_seed = _whole_number(0)


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text}")
    return value


def _fraction(text: str) -> float:
    """An argparse ``type``: a proportion strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a proportion in (0, 1) such as 0.02, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be a proportion in (0, 1) such as 0.02 (2 points), got {text}")
    return value


class _RenamedFlag(argparse.Action):
    """A flag that was renamed: it still sets the new flag's value, and says once on stderr what replaced it."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, new: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"note: {option_string} is deprecated and will be removed in evallib {REMOVAL}; use {self.new} "
              "instead.", file=sys.stderr)
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m evallib`` argument parser (subcommands ``report``, ``gate``, ``critical-values``,
    ``textsim-grid``).

    Each subcommand is added by one function of :data:`SUBCOMMANDS`, which also sets its
    handler (``set_defaults(handler=...)``, a function of the parsed arguments that returns
    the exit status); a new report is one more such function.
    """
    parser = argparse.ArgumentParser(
        prog="python -m evallib",
        description="evallib: the classifier-comparison workbook's command line.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def _add_report(sub) -> None:
    """The ``report`` subcommand: the predictions report (:func:`evallib.report.run_report`)."""
    rep = sub.add_parser(
        "report",
        help="compare the classifiers of a predictions file in an HTML report",
        description=(
            "Compare classifiers from a predictions file: one row per test case, a label column, "
            "and per classifier a pred_<name> column (predicted labels) and/or a score_<name> "
            "column (higher = more likely positive); optionally a fold column, and for a repeated "
            "cross-validation a case-id column and a repeat column (each case then counts once). Writes an HTML "
            "report without code and the executed notebook beside it."
        ),
    )
    rep.add_argument("predictions", nargs="?", default=None,
                     help="the predictions file (or a per-item file, or a results table): CSV/TSV (separator, decimal comma and encoding are "
                          "detected), .xlsx, .parquet, or another table pandas reads")
    rep.add_argument("-o", "--output", default="report.html",
                     help="HTML file to write (default: report.html); the notebook goes beside it")
    rep.add_argument("--label-column", default="label", help="column with the true classes (default: label)")
    rep.add_argument("--fold-column", default="fold",
                     help="column of cross-validation folds, if any (default: fold)")
    rep.add_argument("--case-column", default=None,
                     help="column of case ids; a case predicted several times (repeated cross-validation) "
                          "counts once (default: case_id or case if present; '' for none)")
    rep.add_argument("--repeat-column", default=None,
                     help="column numbering the repeats of a repeated cross-validation (default: repeat or "
                          "repetition if present, else inferred from the folds when case ids recur; '' for none)")
    rep.add_argument("--pred-prefix", default="pred_",
                     help="prefix of the predicted-label columns (default: pred_)")
    rep.add_argument("--score-prefix", default=None,
                     help="prefix of the score columns (default: score_; a per-item wide file: none, every "
                          "column but the item, cluster and sample columns is a model)")
    rep.add_argument("--pos-label", default=None,
                     help="the positive class, the one scores and F-measure are about (required unless the "
                          "classes are 0/1 or False/True)")
    rep.add_argument("--positive-label", dest="pos_label", action=_RenamedFlag, new="--pos-label",
                     help=argparse.SUPPRESS)
    rep.add_argument("--sheet", default=None, help="the sheet of an Excel workbook (default: the first)")
    rep.add_argument("--alpha", type=_level, default=0.05, help="significance level (default: 0.05)")
    rep.add_argument("--adjust", choices=ADJUSTMENTS, default="holm",
                     help="multiple-testing adjustment of the pairwise tests (default: holm; holm and bonferroni "
                          "control the family-wise error rate; bh (Benjamini–Hochberg) and by "
                          "(Benjamini–Yekutieli) control the false discovery rate)")
    rep.add_argument("--interval", default="bonett_price",
                     choices=("bonett_price", "tango", "newcombe", "agresti_min", "wald", "wald_cc", "qh"),
                     help="interval for the difference of two error rates (default: bonett_price, as "
                          "Fagerland et al. 2014 recommend; qh: Berrar & Lozano's Quesenberry–Hurst)")
    rep.add_argument("--classifiers-tried", type=_positive_int, default=None,
                     help="how many classifiers were tried before these (Forman & Cohen's C; "
                          "default: the number in the file)")
    rep.add_argument("--min-difference", type=_fraction, default=None,
                     help="smallest difference that matters, as a proportion (0.02 = 2 percentage points): in "
                          "the predictions report, of accuracy, each interval of a difference (the joint one "
                          "under holm and bonferroni) read against it; "
                          "in the per-item report, of mean score, the planning section gives the items needed "
                          "to detect it")
    rep.add_argument("--title", default=None, help="report title")
    rep.add_argument("--seed", type=_seed, default=0, help="seed of the bootstrap (default: 0)")
    rep.add_argument("--timeout", type=_positive_int, default=600,
                     help="seconds allowed per notebook cell before the report is stopped (default: 600)")
    rep.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    _add_table_report_options(rep)
    rep.set_defaults(handler=_report)


def _add_table_report_options(rep: argparse.ArgumentParser) -> None:
    """The options of the per-item report and of the many-data-sets report (same subcommand)."""
    g = rep.add_argument_group("per-item files (a file given --item-column is a per-item file)")
    g.add_argument("--item-column", default=None,
                   help="column of item ids: FILE is a per-item file (wide: one column per model; long: item, "
                        "model, score)")
    g.add_argument("--cluster-column", default=None,
                   help="each item's cluster (passage, source, school); default: a column named 'cluster' if "
                        "present; without one the items are taken as independent")
    g.add_argument("--sample-column", default=None,
                   help="which answer of the item a row holds, for repeated answers; default: a column named "
                        "'sample' if present")
    g.add_argument("--model-column", default=None, help="long per-item file: the model column (default: model)")
    g.add_argument("--score-column", default=None, help="long per-item file: the score column (default: score)")
    g.add_argument("--lm-eval", action="append", metavar="MODEL=FILE", default=None,
                   help="an lm-evaluation-harness --log_samples file of MODEL; repeat per model, repeat MODEL "
                        "for its repeated runs")
    g.add_argument("--inspect-log", action="append", metavar="[NAME=]FILE", default=None,
                   help="an inspect_ai log, one per model and task; NAME=FILE names its model (two prompts or "
                        "solvers of one model; repeat NAME for its logs of other tasks) (needs pip install "
                        "'evallib[inspect]')")
    g.add_argument("--failed-samples", choices=("refuse", "drop", "zero"), default=None,
                   help="inspect: samples that errored -- refuse the log (default), drop them (each item is scored "
                        "on its other epochs) or score them 0 (wrong); the counts are reported")
    g.add_argument("--metric", default=None,
                   help="lm-eval: the metric key (acc, exact_match, ...); inspect: the key of a dict-valued score")
    g.add_argument("--filter", default=None, help="lm-eval: the filter when the files hold several")
    g.add_argument("--scorer", default=None, help="inspect: the scorer when the samples have several")
    g.add_argument("--cluster-key", default=None,
                   help="lm-eval: a field of doc; inspect: a key of the sample metadata, holding the cluster; "
                        "'task': the task, when the files hold several")
    g.add_argument("--bootstrap-reps", type=_positive_int, default=2000,
                   help="bootstrap replicates of the rank intervals (default: 2000)")
    d = rep.add_argument_group("results tables (one row per data set, one column per classifier)")
    d.add_argument("--dataset-column", default=None,
                   help="column naming the data sets; default: found by name (dataset, data set, data_set, "
                        "task, ...) when there is no label column")
    d.add_argument("--lower-is-better", action="store_true",
                   help="lower scores are better (error rates, losses)")
    d.add_argument("--posthoc", choices=("nemenyi", "holm", "shaffer", "bergmann", "bonferroni"),
                   default="nemenyi", help="all-pairs procedure (default: nemenyi)")
    d.add_argument("--control", default=None, help="compare every classifier with this one")
    d.add_argument("--control-method", choices=("holm", "bonferroni-dunn", "hochberg", "finner", "li"),
                   default="holm", help="procedure against the control (default: holm)")
    d.add_argument("--rope", type=float, default=None,
                   help="smallest difference that matters, in the scores' units (default: 0.01 for scores "
                        "in [0, 1])")
    d.add_argument("--verdict", choices=VERDICT_FAMILIES, default="mean-ranks",
                   help="the family whose rejections are the pairs' verdict, chosen before the report runs: "
                        "mean-ranks (the --posthoc procedure on the average ranks, Demšar's; the default) or "
                        "wilcoxon (Wilcoxon's signed-rank test per pair, Holm-adjusted); the other is shown "
                        "beside it as secondary and never turns a verdict into 'differ'")


def _lm_eval_sources(pairs: Sequence[str]) -> dict[str, list[str]]:
    """``MODEL=FILE`` pairs as ``{model: [files]}``; one sentence when a pair has no ``=``."""
    out: dict[str, list[str]] = {}
    for pair in pairs:
        model, sep, path = pair.partition("=")
        if not sep or not model.strip() or not path.strip():
            raise ValueError(f"--lm-eval takes MODEL=FILE, got {pair!r}.")
        out.setdefault(model.strip(), []).append(path.strip())
    return out


def _inspect_sources(given: Sequence[str]) -> list[str] | dict[str, list[str]]:
    """``--inspect-log`` values: FILE (the log names its model) or NAME=FILE; all of one kind.

    A value is NAME=FILE when it has a ``=`` and is not itself an existing file. Mixing the
    two kinds is refused: a log without a name would be paired with named ones by its
    model's name, which is no choice the command line made.
    """
    named = [v for v in given if "=" in v and not Path(v).expanduser().is_file()]
    if not named:
        return list(given)
    if len(named) != len(given):
        plain = next(v for v in given if v not in named)
        raise ValueError(f"give every --inspect-log as NAME=FILE once one is named, got {plain!r} without a name.")
    out: dict[str, list[str]] = {}
    for value in named:
        model, _, path = value.partition("=")
        if not model.strip() or not path.strip():
            raise ValueError(f"--inspect-log takes FILE or NAME=FILE, got {value!r}.")
        out.setdefault(model.strip(), []).append(path.strip())
    return out


#: The options only some reports read (every report reads the file, -o, --alpha, --title, --seed,
#: --timeout, -q and --sheet). An option given for a report that does not read it is an error:
#: silently ignoring it would let an analyst believe, e.g., that --interval shaped a results table.
REPORT_OPTIONS: dict[str, set[str]] = {
    "predictions": {"label_column", "fold_column", "case_column", "repeat_column", "pred_prefix", "score_prefix",
                    "pos_label", "adjust", "interval", "classifiers_tried", "min_difference"},
    "per-item": {"item_column", "cluster_column", "sample_column", "model_column", "score_column", "score_prefix",
                 "lm_eval", "inspect_log", "metric", "filter", "scorer", "cluster_key", "failed_samples",
                 "bootstrap_reps", "adjust", "min_difference"},
    "many-data-sets": {"dataset_column", "lower_is_better", "posthoc", "control", "control_method", "rope",
                       "verdict"},
}


def _check_applies(args: argparse.Namespace, report: str, what: str, hint: str = "") -> None:
    """One sentence if an option that ``report`` does not read was given (set off its default);
    ``hint``, when given, is a clause appended to it (how to reach the report that reads it)."""
    defaults = vars(build_parser().parse_args(["report"]))
    others = set().union(*REPORT_OPTIONS.values()) - REPORT_OPTIONS[report]
    given = sorted(d for d in others if getattr(args, d, None) != defaults[d])
    if given:
        flags = ", ".join("--" + d.replace("_", "-") for d in given)
        readers = sorted({r for d in given for r, opts in REPORT_OPTIONS.items() if d in opts})
        raise ValueError(
            f"{flags} {'does' if len(given) == 1 else 'do'} not apply to the {report} report, which this input "
            f"gets ({what}); {'it is' if len(given) == 1 else 'they are'} read by the {' and '.join(readers)} "
            f"report{'s' if len(readers) > 1 else ''}{hint} (see python -m evallib report --help).")


def _table_report(args: argparse.Namespace):
    """Run the per-item or the many-data-sets report when the arguments ask for one; else None."""
    common = dict(alpha=args.alpha, title=args.title or None, rng=args.seed, progress=not args.quiet,
                  timeout=args.timeout)
    if args.lm_eval or args.inspect_log or args.item_column:
        if args.lm_eval and args.inspect_log:
            raise ValueError("give --lm-eval files or --inspect-log files, not both.")
        if args.lm_eval or args.inspect_log:
            if args.predictions is not None:
                raise ValueError("harness logs are given with --lm-eval or --inspect-log, not as a file "
                                 f"argument ({args.predictions!r}).")
            source = _lm_eval_sources(args.lm_eval) if args.lm_eval else _inspect_sources(args.inspect_log)
            fmt, table = ("lm-eval" if args.lm_eval else "inspect"), {}
            if args.failed_samples is not None:
                if args.lm_eval:
                    raise ValueError("--failed-samples applies to --inspect-log files (lm-eval writes no errored "
                                     "samples).")
                table = dict(failed_samples=args.failed_samples)
        else:
            if args.predictions is None:
                raise ValueError("--item-column needs the per-item file as the file argument.")
            source, fmt = args.predictions, "table"
            table = dict(item_column=args.item_column, cluster_column=args.cluster_column,
                         sample_column=args.sample_column, model_column=args.model_column,
                         score_column=args.score_column, score_prefix=args.score_prefix, sheet=args.sheet)
        _check_applies(args, "per-item", "harness logs" if args.lm_eval or args.inspect_log
                       else "a per-item file, given --item-column")
        return items_runner.run_items_report(source, args.output, source_format=fmt, metric=args.metric,
                                             filter=args.filter, scorer=args.scorer, cluster_key=args.cluster_key,
                                             adjust=args.adjust, n_resamples=args.bootstrap_reps,
                                             min_difference=args.min_difference, **table, **common)
    if args.predictions is None:
        raise ValueError("give the file to report on (or harness logs with --lm-eval / --inspect-log).")
    wants_datasets = args.dataset_column is not None
    if not wants_datasets:
        try:
            header = list(_read_table(Path(args.predictions).expanduser(), args.sheet)[0].columns)
        except Exception:  # unreadable here: the predictions report names the problem in one sentence
            header = None
        wants_datasets = header is not None and is_results_table(header, label_column=args.label_column)
    if not wants_datasets:
        label = str(args.label_column).strip()
        if header is None or label in [str(c).strip() for c in header]:
            _check_applies(args, "predictions", "a file with a label column, not a results table")
        else:  # neither a label column nor a data-set column: the two readings the file could have
            _check_applies(args, "predictions",
                           "a file with no column named like a data-set column (dataset, data set, task, ...), "
                           f"read as a predictions file although it has no label column {label!r} "
                           "either",
                           hint="; if the file is a results table (one row per data set, one column per "
                                "classifier), name its data-set column with --dataset-column")
        return None
    _check_applies(args, "many-data-sets", "a results table: one row per data set, one column per classifier")
    return datasets_runner.run_datasets_report(args.predictions, args.output, dataset_column=args.dataset_column,
                                               higher_is_better=not args.lower_is_better, sheet=args.sheet,
                                               posthoc=args.posthoc, control=args.control,
                                               control_adjust=args.control_method, rope=args.rope,
                                               verdict=args.verdict, **common)


def _add_writers(sub) -> None:
    """The data writers ``critical-values`` and ``textsim-grid``."""
    for name, default, what in (
        ("critical-values", "data/critical_values.csv",
         "regenerate Forman & Cohen's exact critical values (the paper's lost appendix)"),
        ("textsim-grid", "data/textsim_grid.npz",
         "regenerate the precomputed experiments behind notebook 03's population sliders"),
    ):
        cmd = sub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        cmd.add_argument("path", nargs="?", default=default, help=f"file to write (default: {default})")
        cmd.add_argument("--n-jobs", type=_positive_int, default=2, help="worker processes (default: 2)")
        cmd.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
        cmd.set_defaults(handler=_writer)


def _writer(args: argparse.Namespace) -> int:
    """A data writer subcommand; returns the exit status."""
    try:
        print(_write_data(args.command, args.path, args.n_jobs, progress=not args.quiet))
    except (ValueError, TypeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


def _write_data(command: str, path: str, n_jobs: int, progress: bool) -> str:
    """Run one of the data writers; return the sentence that reports what was written."""
    import time

    start = time.perf_counter()
    if command == "critical-values":
        table = nullbest.write_critical_values(path, n_jobs=n_jobs, progress=progress)
        return f"wrote {len(table)} rows to {path} in {time.perf_counter() - start:.1f} s"
    out = textsim.write_experiment_grid(path, n_jobs=n_jobs, progress=progress)
    return f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) in {time.perf_counter() - start:.1f} s"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (130 after Ctrl-C, with one sentence).

    After a Ctrl-C it ignores further interrupts (SIGINT) in this process, which is about to
    exit: a second one during the shutdown would end it by SIGINT instead of status 130.
    """
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        # The run is over: a second interrupt (one the first left pending, or Ctrl-C pressed
        # again) must not turn the exit status 130 into death by SIGINT during the shutdown.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print(f"error: the {args.command} run was interrupted (Ctrl-C), so nothing was written.", file=sys.stderr)
        return 130


def _report(args: argparse.Namespace) -> int:
    """The ``report`` subcommand; returns the exit status.

    Without the packages of the ``report`` extra it writes one sentence naming
    ``pip install 'evallib[report]'`` and returns 1, before reading any input.
    """
    try:
        check_extra("report", "python -m evallib report")
    except MissingExtraError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    try:
        files = _table_report(args)
        if files is None:
            files = run_report(
            args.predictions, args.output, label_column=args.label_column,
            pos_label=args.pos_label, fold_column=args.fold_column,
            pred_prefix=args.pred_prefix, score_prefix=args.score_prefix or "score_", sheet=args.sheet,
            case_column=args.case_column, repeat_column=args.repeat_column,
            alpha=args.alpha,
            adjust=args.adjust, interval=args.interval,
            classifiers_tried=args.classifiers_tried, min_difference=args.min_difference,
            title=args.title or None, rng=args.seed,
            progress=not args.quiet, timeout=args.timeout,
        )
    except (ReportInputError, ReportExecutionError, ValueError, TypeError) as err:
        print(f"error: {err} No report was written.", file=sys.stderr)
        return 1
    if args.quiet:
        print(files.html)
    return 0



def _add_gate(sub) -> None:
    """The ``gate`` subcommand: the release gate (:func:`evallib.report.release_gate`)."""
    codes = GATE_EXIT_CODES
    gate = sub.add_parser(
        "gate",
        help="is the candidate model no worse than the baseline by more than a margin?",
        description=(
            "The release gate: is the candidate no worse than the baseline by more than --margin? Give two files "
            "(BASELINE CANDIDATE, one model each, or named with --baseline-model/--candidate-model), paired by "
            "item id, or one file holding both models and name them; or harness logs with --lm-eval/--inspect-log "
            "(the first model given is the baseline, the second the candidate, unless named). Per-item files and "
            "predictions files (a label column and pred_<name> columns: each case right or wrong) are read as the "
            "reports read them. Prints one sentence: the estimate, its interval against the margin, the number "
            "of items and the method (fixed n: Tango's score test for one 0/1 outcome per item, else the "
            "one-sided paired t-test, CR2 with clusters; --sequential: the anytime-valid confidence sequence)."
        ),
        epilog=(f"Exit status: {codes['no-worse']} no worse than the margin, {codes['worse']} worse by more than "
                f"the margin, {codes['cannot-tell']} cannot tell yet (the interval contains the margin), 1 bad "
                "input (one sentence on stderr: an unreadable file, one model where two are needed, files with no "
                "item in common or naming their models alike, ...), 2 usage error (a missing or malformed option, "
                "such as a margin outside (0, 1)), 130 interrupted; after 1, 2 or 130 nothing is written to --json "
                "PATH."),
    )
    gate.add_argument("baseline", nargs="?", default=None, help="the baseline's file (or the one file holding both)")
    gate.add_argument("candidate", nargs="?", default=None, help="the candidate's file, paired item by item")
    gate.add_argument("--margin", type=_fraction, required=True,
                      help="how much worse the candidate may be and still pass, in the scores' units (0.01 = "
                           "one point of accuracy)")
    gate.add_argument("--baseline-model", default=None, help="the baseline model's name, where a file holds several")
    gate.add_argument("--candidate-model", default=None, help="the candidate model's name, where a file holds several")
    gate.add_argument("--alpha", type=_level, default=0.05,
                      help="level of each one-sided decision (default: 0.05; the interval is 1 - 2 alpha)")
    gate.add_argument("--sequential", action="store_true",
                      help="anytime-valid: a confidence sequence over the items in the candidate file's order, "
                           "valid at every look (a run may be checked after each batch)")
    gate.add_argument("--n-opt", type=_positive_int, default=None,
                      help="--sequential with clusters: the planned number of clusters, where the asymptotic "
                           "sequence is tightest")
    gate.add_argument("--lower-is-better", action="store_true", help="lower scores are better (losses, error rates)")
    gate.add_argument("--json", default=None, metavar="PATH", help="write the verdict as JSON to PATH (for CI)")
    r = gate.add_argument_group("reading the files (as python -m evallib report reads them)")
    for flag, what in (("--item-column", "per-item file: the item ids (default: item)"),
                       ("--cluster-column", "per-item file: each item's cluster (default: 'cluster' if present)"),
                       ("--sample-column", "per-item file: which answer a row holds (default: 'sample' if present)"),
                       ("--model-column", "long per-item file: the model column (default: model)"),
                       ("--score-column", "long per-item file: the score column (default: score)"),
                       ("--score-prefix", "wide per-item file: the models' columns are PREFIX<model>"),
                       ("--label-column", "predictions file: the true classes (default: label; a file with it is "
                                          "a predictions file)"),
                       ("--pos-label", "predictions file: the positive class (correctness does not depend on it)"),
                       ("--pred-prefix", "predictions file: prefix of the predicted-label columns (default: pred_)"),
                       ("--case-column", "predictions file: the case ids (default: case_id or case if present)"),
                       ("--repeat-column", "predictions file: the repeats of a repeated cross-validation"),
                       ("--sheet", "the sheet of an Excel workbook (default: the first)"),
                       ("--metric", "lm-eval: the metric key; inspect: the key of a dict-valued score"),
                       ("--filter", "lm-eval: the filter when the files hold several"),
                       ("--scorer", "inspect: the scorer when the samples have several"),
                       ("--cluster-key", "lm-eval: a field of doc; inspect: a metadata key; 'task': the task")):
        r.add_argument(flag, default=None, help=what)
    r.add_argument("--lm-eval", action="append", metavar="MODEL=FILE", default=None,
                   help="an lm-evaluation-harness --log_samples file of MODEL; repeat per model")
    r.add_argument("--inspect-log", action="append", metavar="[NAME=]FILE", default=None,
                   help="an inspect_ai log, one per model and task (needs pip install 'evallib[inspect]')")
    r.add_argument("--failed-samples", choices=("refuse", "drop", "zero"), default=None,
                   help="inspect: samples that errored -- refuse the log (default), drop them or score them 0")
    gate.set_defaults(handler=_gate)


_GATE_READERS = ("item_column", "cluster_column", "sample_column", "model_column", "score_column", "score_prefix",
                 "label_column", "pos_label", "pred_prefix", "case_column", "repeat_column", "sheet", "metric",
                 "filter", "scorer", "cluster_key", "failed_samples")


def _gate(args: argparse.Namespace) -> int:
    """The ``gate`` subcommand: one sentence on stdout, the exit status of the verdict; on bad input
    one sentence on stderr, status 1, and no JSON file."""
    try:
        options = {k: getattr(args, k) for k in _GATE_READERS if getattr(args, k) is not None}
        if args.lm_eval or args.inspect_log:
            if args.lm_eval and args.inspect_log:
                raise ValueError("give --lm-eval files or --inspect-log files, not both.")
            if args.baseline is not None:
                raise ValueError("harness logs are given with --lm-eval or --inspect-log, not as file arguments "
                                 f"({args.baseline!r}).")
            source = _lm_eval_sources(args.lm_eval) if args.lm_eval else _inspect_sources(args.inspect_log)
            fmt = "lm-eval" if args.lm_eval else "inspect"
        else:
            if args.baseline is None:
                raise ValueError("give the baseline's and the candidate's files (or one file holding both, or "
                                 "harness logs with --lm-eval / --inspect-log).")
            source, fmt = args.baseline, "table"
        verdict = release_gate(source, args.candidate, margin=args.margin, baseline_model=args.baseline_model,
                               candidate_model=args.candidate_model, alpha=args.alpha, sequential=args.sequential,
                               n_opt=args.n_opt, higher_is_better=not args.lower_is_better, source_format=fmt,
                               **options)
        if args.json is not None:
            write_verdict(verdict, args.json)
    except (ReportInputError, ValueError, TypeError, OSError) as err:
        print(f"error: {err} No verdict was written.", file=sys.stderr)
        return 1
    print(verdict.sentence())
    print("Assumes: " + " ".join(verdict.assumptions))
    if verdict.note:
        print("Read: " + verdict.note)
    return verdict.exit_code


#: The subcommands, each added to the parser by its function (in this order in --help).
SUBCOMMANDS: list[Callable[[Any], None]] = [_add_report, _add_gate, _add_writers]


if __name__ == "__main__":
    sys.exit(main())
