"""The "compare my classifiers" report: an analyst's predictions in, an honest comparison out.

The analyst's file has one row per test case: the true class in a label column, and per
classifier a predicted-label column ``pred_<name>``, a score column ``score_<name>`` (higher
means more likely the positive class), or both; optionally a ``fold`` column when the rows
are the out-of-fold predictions of a cross-validation. :func:`load_predictions` reads and
checks it; one function per section of ``notebooks/report.ipynb`` computes that section's
numbers; :func:`summary_text` turns them into plain sentences, effect sizes and intervals
first, p-values second, as Berrar & Lozano (2013, section 8) recommend; :func:`run_report`
executes the notebook with papermill and writes an HTML page without code cells.

One module per job: :mod:`~evallib.report._inputs` (reading and checking the file),
:mod:`~evallib.report._sections` (the sections' computations), :mod:`~evallib.report._percase`
(the report's view of the cases, each counted once however often it was predicted; the
statistics themselves are :mod:`evallib.resampling._percase`), :mod:`~evallib.report._text`
(formatted tables and the summary's sentences), :mod:`~evallib.report._runner` (papermill and
nbconvert) and :mod:`~evallib.report._example` (the shipped example). The many-data-sets report
(:func:`run_datasets_report`, read by :func:`load_results`) and the per-item report
(:func:`run_items_report`, read by :func:`load_items`, :func:`load_item_scores`,
:func:`read_lm_eval_samples` and :func:`read_inspect_logs`) have their own ``datasets_*`` and
``items_*`` modules. The release gate (:func:`release_gate`, ``python -m evallib gate``) reads
the same files and says whether a candidate model is no worse than a baseline by more than a
margin (:mod:`~evallib.report._gate`). All three write their prose with :mod:`evallib.report._prose`: one
escape for text from the user's file, one p-value format, one level, plural and list helper.

Sections and their sources (the summary, :func:`summary_text`, comes first):

1. :func:`summarise_data` -- sizes, class balance, classifiers, how the file was read, which
   class is positive and what the scores are for, warnings.
2. :func:`classifier_measures` -- Flach (2012), ch. 12: contingency table, accuracy with its
   Wilson interval, average recall, precision, recall, F-measure, AUC, beside the
   majority-class baseline (:func:`majority_baseline`); for K classes accuracy, balanced
   accuracy and macro-F1 (:mod:`evallib.onetestset._multiclass`) with :func:`per_class_tables`;
   :func:`score_warnings` for reversed scores and classifiers below the baseline.
3. :func:`omnibus_test` (Cochran's Q) and :func:`pairwise_comparison` -- Berrar & Lozano
   (2013) with the intervals and the mid-p McNemar test Fagerland, Lydersen & Laake
   recommend (:func:`evallib.onetestset.paired_difference_interval`), Holm's adjustment
   by default (Bonferroni's, or Benjamini–Hochberg's and Benjamini–Yekutieli's false-discovery-rate
   control, :data:`~evallib.report.REPORT_ADJUSTMENTS`).
4. :func:`score_comparison` -- DeLong AUC intervals and paired tests, Brier score and
   log-loss (:mod:`evallib.onetestset._scoring`).
5. :func:`chance_check` -- Forman & Cohen (2005): is the winner better than the best of
   ``C`` random rankings? (:func:`evallib.onetestset.judge_winner`, log-space laws, a normal
   law for the AUC of large test sets).
6. :func:`top_two_bootstrap` -- Keller, Bengio & Wong: paired bootstrap of the F1 (K
   classes: macro-F1) difference.
7. :func:`fold_analysis` -- per-fold accuracy, the corrected resampled t-test, Friedman's
   test and the critical-difference diagram (Flach 2012, ch. 12).

A file may hold each test case once (one test set, or one run of cross-validation) or
several times (a repeated cross-validation: a case-id column and a repeat column, or
repeats inferred from the folds). Every section works on cases: a case predicted ten
times is one case whose correctness rate is the share of its ten predictions that are
right, so the verdicts do not change with the number of repeats.

Every section function returns :class:`Skipped` with a one-line reason when its input is
absent (no scores, no fold column, fewer than two classifiers with predicted labels, more than
two classes for the sections that need one positive class).
"""
from __future__ import annotations

from .._compat import moved_names
from ._datasets_inputs import load_results
from ._datasets_runner import run_datasets_report
from ._example import EXAMPLE_PATH, make_example_predictions
from ._inputs import (
    PRED_PREFIX,
    SCORE_PREFIX,
    Predictions,
    ReportInputError,
    load_predictions,
)
from ._gate import GATE_EXIT_CODES, GATE_SCHEMA, GateVerdict, release_gate, write_verdict
from ._items_inputs import (
    load_item_scores,
    load_items,
    read_inspect_logs,
    read_lm_eval_samples,
)
from ._items_runner import run_items_report
from ._runner import REPORT_NOTEBOOK, ReportExecutionError, ReportFiles, run_report
from ._sections import (
    ChanceCheck,
    ClassScoreComparison,
    DataSummary,
    F1Comparison,
    FoldAnalysis,
    ScoreComparison,
    Skipped,
    adjusted_pvalues,
    balanced_accuracy_comparison,
    chance_check,
    class_score_comparison,
    classifier_measures,
    data_notes,
    fold_analysis,
    majority_baseline,
    omnibus_test,
    pairwise_comparison,
    per_class_tables,
    score_comparison,
    score_warnings,
    summarise_data,
    top_two_bootstrap,
)
from ._text import (
    format_balanced_pairs,
    format_auc,
    format_auc_pairs,
    format_class_auc,
    format_measures,
    format_pairwise,
    plot_pair_intervals,
    report_tables,
    summary_text,
    write_tables,
)

__all__ = [
    "ReportInputError",
    "ReportExecutionError",
    "Predictions",
    "Skipped",
    "DataSummary",
    "load_predictions",
    "load_results",
    "load_item_scores",
    "load_items",
    "read_inspect_logs",
    "read_lm_eval_samples",
    "summarise_data",
    "classifier_measures",
    "format_measures",
    "pairwise_comparison",
    "format_pairwise",
    "summary_text",
    "FoldAnalysis",
    "fold_analysis",
    "ChanceCheck",
    "chance_check",
    "F1Comparison",
    "top_two_bootstrap",
    "run_report",
    "run_items_report",
    "run_datasets_report",
    "ReportFiles",
    "make_example_predictions",
    "EXAMPLE_PATH",
    "REPORT_NOTEBOOK",
    "PRED_PREFIX",
    "SCORE_PREFIX",
    "plot_pair_intervals",
    "adjusted_pvalues",
    "data_notes",
    "majority_baseline",
    "score_warnings",
    "ScoreComparison",
    "omnibus_test",
    "per_class_tables",
    "score_comparison",
    "balanced_accuracy_comparison",
    "format_balanced_pairs",
    "format_auc",
    "format_auc_pairs",
    "format_class_auc",
    "ClassScoreComparison",
    "class_score_comparison",
    "report_tables",
    "write_tables",
    "release_gate",
    "GateVerdict",
    "GATE_EXIT_CODES",
    "GATE_SCHEMA",
    "write_verdict",
]

#: The report's prose internals that 0.1.0 exported here (and from ``evallib``): they still
#: import, with a DeprecationWarning naming their one home, until 0.3.0.
_MOVED = {
    "md": "evallib.report._prose:escape",
    "format_p": "evallib.report._prose:format_p",
    "P_FLOOR": "evallib.report._prose:P_FLOOR",
    "relevance": "evallib.report._prose:relevance",
    "pairwise_method_line": "evallib.report._text:pairwise_method_line",
}

__getattr__ = moved_names(__name__, _MOVED)
