"""evallib: tested implementations behind the classifier-comparison workbook.

Each module holds the formulas of one source; see the README for the map.

- :mod:`evallib.pairwise` -- Berrar & Lozano (2013): McNemar's test, the
  Quesenberry-Hurst interval, Holm's adjustment, Table 2 and Figure 4.
- :mod:`evallib.models` -- the five models of their breast-cancer case study.
- :mod:`evallib.data` -- the data sets the notebooks use.
- :mod:`evallib.casestudy` -- the case study of section 7, end to end.
- :mod:`evallib.nullbest`, :mod:`evallib.nullbest_plots` -- Forman & Cohen (2005):
  exact best-of-C critical values, the Monte Carlo, Figures 1-7.
- :mod:`evallib.bizarre` -- Keller, Bengio & Wong: proportion, disagreement and DCF
  tests, the eight joint events, the F1 bootstrap; :mod:`evallib.textsim` -- their
  section 5 re-run on a synthetic text task.
- :mod:`evallib.measures`, :mod:`evallib.ranktests` -- Flach (2012), chapter 12.
- :mod:`evallib.cvtests` -- t-tests over cross-validation (textbook, Nadeau & Bengio,
  Dietterich) and the equal-learners simulation.
- :mod:`evallib.report` -- the analyst's "compare my classifiers" report.
"""


# Every name in a module's __all__ is importable from evallib itself (tests/test_exports.py
# checks it). A further module appends its own block at the END of this file: one
# ``from .module import (...)`` and one ``__all__ += [...]``.

__version__ = "0.1.0"

__all__: list[str] = []

# Berrar & Lozano (2013): McNemar, the Quesenberry-Hurst interval, Holm, Table 2, Figure 4
from .pairwise import (
    ADJUSTMENTS,
    Contingency,
    McNemarResult,
    QHInterval,
    adjusted_alphas,
    compare_pairwise,
    contingency,
    describe_comparison,
    format_table,
    holm_alphas,
    mcnemar,
    pair_label,
    pairwise_table,
    plot_intervals,
    plot_pvalue_vs_interval,
    qh_coverage,
    qh_interval,
)

__all__ += [
    "Contingency",
    "McNemarResult",
    "QHInterval",
    "contingency",
    "mcnemar",
    "qh_interval",
    "qh_coverage",
    "holm_alphas",
    "adjusted_alphas",
    "pairwise_table",
    "compare_pairwise",
    "format_table",
    "pair_label",
    "plot_intervals",
    "plot_pvalue_vs_interval",
    "describe_comparison",
    "ADJUSTMENTS",
]

# the five models of their breast-cancer case study
from .models import (
    DLDA,
    class_prior_model,
    fair_coin,
    fit_dlda_top_genes,
    predict_top_genes,
    swap_labels,
    welch_pvalues,
    welch_select,
)

__all__ += [
    "DLDA",
    "class_prior_model",
    "fair_coin",
    "fit_dlda_top_genes",
    "predict_top_genes",
    "swap_labels",
    "welch_pvalues",
    "welch_select",
]

# the data sets the notebooks use
from .data import (
    DATA_DIR,
    PAPER_TEST_FRACTION,
    load_gse4335,
    paper_table2,
    paper_test_size,
    stratified_split,
)

__all__ += [
    "DATA_DIR",
    "PAPER_TEST_FRACTION",
    "load_gse4335",
    "paper_table2",
    "paper_test_size",
    "stratified_split",
]

# their section 7 case study, end to end
from .casestudy import (
    MODEL_NAMES,
    CaseStudy,
    run_case_study,
)

__all__ += [
    "CaseStudy",
    "MODEL_NAMES",
    "run_case_study",
]

# Flach (2012), chapter 12: measures and intervals (12.1-12.5)
from .measures import (
    INTERVAL_METHODS,
    AccuracyInterval,
    AccuracyTest,
    Measures,
    accuracy_at_pos,
    accuracy_interval,
    accuracy_ztest,
    describe_accuracy_interval,
    expected_accuracy_from_auc,
    measures,
    measures_table,
    plot_accuracy_interval,
    plot_accuracy_vs_pos,
    plot_measures_vs_tn,
)

__all__ += [
    "Measures",
    "AccuracyInterval",
    "AccuracyTest",
    "INTERVAL_METHODS",
    "measures",
    "measures_table",
    "accuracy_at_pos",
    "expected_accuracy_from_auc",
    "accuracy_interval",
    "accuracy_ztest",
    "describe_accuracy_interval",
    "plot_accuracy_vs_pos",
    "plot_measures_vs_tn",
    "plot_accuracy_interval",
]

# Flach (2012), chapter 12: rank tests and CD diagrams (12.7-12.8)
from .ranktests import (
    CD_TESTS,
    CriticalDifference,
    FriedmanResult,
    WilcoxonResult,
    cd_cliques,
    critical_difference,
    describe_rank_analysis,
    flach_example_12_4,
    friedman,
    friedman_critical_value,
    friedman_null_distribution,
    plot_cd_diagram,
    rank_differences,
    scores_from_text,
    signed_rank_null,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
)

__all__ += [
    "WilcoxonResult",
    "FriedmanResult",
    "CriticalDifference",
    "CD_TESTS",
    "flach_example_12_4",
    "signed_rank_null",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
    "friedman",
    "friedman_null_distribution",
    "friedman_critical_value",
    "critical_difference",
    "rank_differences",
    "cd_cliques",
    "plot_cd_diagram",
    "scores_from_text",
    "describe_rank_analysis",
]

# Forman & Cohen (2005): best-of-C critical values and the Monte Carlo
from .nullbest import (
    METRICS,
    PAPER_GRID,
    NullCDF,
    Verdict,
    best_of_pvalue,
    critical_value,
    critical_value_table,
    judge_winner,
    load_critical_values,
    mc_repetitions,
    null_cdf,
    simulate_null,
    simulate_scores,
    tail_probability,
    write_critical_values,
)

__all__ += [
    "METRICS",
    "NullCDF",
    "null_cdf",
    "critical_value",
    "best_of_pvalue",
    "mc_repetitions",
    "simulate_null",
    "critical_value_table",
    "tail_probability",
    "write_critical_values",
    "PAPER_GRID",
    "Verdict",
    "judge_winner",
    "simulate_scores",
    "load_critical_values",
]

# Forman & Cohen (2005): Figures 1-7
from .nullbest_plots import (
    critical_value_grid,
    mc_cdf_distance,
    plot_contour_panels,
    plot_critical_contours,
    plot_critical_surface,
    plot_mc_convergence,
    plot_null_cdfs,
)

__all__ += [
    "plot_null_cdfs",
    "critical_value_grid",
    "plot_critical_surface",
    "plot_critical_contours",
    "plot_contour_panels",
    "plot_mc_convergence",
    "mc_cdf_distance",
]

# Keller, Bengio & Wong: proportion, disagreement and DCF tests, the F1 bootstrap
from .bizarre import (
    EVENT_NAMES,
    DCFBootstrap,
    F1Bootstrap,
    ZTest,
    bootstrap_dcf_difference,
    bootstrap_f1_difference,
    dcf,
    dcf_difference,
    dcf_test,
    disagreement_test,
    event_codes,
    f1_difference,
    f1_scores,
    joint_events,
    printed_eq12,
    proportion_test,
    resample_events,
)

__all__ += [
    "EVENT_NAMES",
    "ZTest",
    "F1Bootstrap",
    "DCFBootstrap",
    "proportion_test",
    "disagreement_test",
    "dcf",
    "dcf_test",
    "joint_events",
    "event_codes",
    "f1_scores",
    "f1_difference",
    "printed_eq12",
    "resample_events",
    "bootstrap_f1_difference",
    "dcf_difference",
    "bootstrap_dcf_difference",
]

# Keller, Bengio & Wong, section 5 re-run on a synthetic text task
from .textsim import (
    GRID_NOISES,
    GRID_PATH,
    GRID_PRIORS,
    GRID_SIZES,
    PAPER_SIZES,
    PAPER_TABLE3,
    SETTINGS,
    Experiment,
    Learners,
    SettingRun,
    TextPopulation,
    TextSetting,
    build_experiment,
    calibration_bins,
    calibration_study,
    calibration_summary,
    dcf_comparison,
    dtrue_replicates,
    fit_learners,
    mistake_correlation,
    plot_calibration,
    plot_replicates,
    run_setting,
    table3,
    write_experiment_grid,
)

__all__ += [
    "PAPER_SIZES",
    "PAPER_TABLE3",
    "SETTINGS",
    "GRID_PRIORS",
    "GRID_NOISES",
    "GRID_SIZES",
    "GRID_PATH",
    "TextSetting",
    "TextPopulation",
    "Learners",
    "Experiment",
    "SettingRun",
    "fit_learners",
    "build_experiment",
    "write_experiment_grid",
    "mistake_correlation",
    "dtrue_replicates",
    "run_setting",
    "table3",
    "calibration_study",
    "calibration_summary",
    "calibration_bins",
    "dcf_comparison",
    "plot_replicates",
    "plot_calibration",
]

# t-tests over cross-validation (textbook, Flach 12.6, Nadeau & Bengio, Dietterich) and the simulation
from .cvtests import (
    SIMULATED_TESTS,
    SWEEP_PARAMETERS,
    CVTTestResult,
    compare_cv_scores,
    corrected_resampled_ttest,
    cross_validate_scores,
    cv_ttest,
    dietterich_5x2cv,
    equal_learners_data,
    paired_scores,
    plot_rejection_rates,
    rejection_rates,
    rejection_study,
    rejection_sweep,
    simulate_equal_learners,
    stratified_test_folds,
)

__all__ += [
    "CVTTestResult",
    "cv_ttest",
    "corrected_resampled_ttest",
    "dietterich_5x2cv",
    "cross_validate_scores",
    "paired_scores",
    "compare_cv_scores",
    "equal_learners_data",
    "stratified_test_folds",
    "simulate_equal_learners",
    "rejection_rates",
    "plot_rejection_rates",
    "rejection_study",
    "rejection_sweep",
    "SWEEP_PARAMETERS",
    "SIMULATED_TESTS",
]

from .nullbest import auc_normal_critical, best_over_thresholds  # moved from the report
from .report import (
    ChanceCheck,
    DataSummary,
    EXAMPLE_PATH,
    F1Comparison,
    FoldAnalysis,
    PRED_PREFIX,
    P_FLOOR,
    Predictions,
    REPORT_NOTEBOOK,
    ReportExecutionError,
    ReportFiles,
    ReportInputError,
    SCORE_PREFIX,
    ScoreComparison,
    Skipped,
    adjusted_pvalues,
    chance_check,
    classifier_measures,
    data_notes,
    fold_analysis,
    format_measures,
    format_p,
    format_pairwise,
    load_predictions,
    majority_baseline,
    make_example_predictions,
    omnibus_test,
    pairwise_comparison,
    per_class_tables,
    plot_pair_intervals,
    run_report,
    score_comparison,
    score_warnings,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

__all__ += [
    "ChanceCheck",
    "DataSummary",
    "EXAMPLE_PATH",
    "F1Comparison",
    "FoldAnalysis",
    "PRED_PREFIX",
    "P_FLOOR",
    "Predictions",
    "REPORT_NOTEBOOK",
    "ReportExecutionError",
    "ReportFiles",
    "ReportInputError",
    "SCORE_PREFIX",
    "ScoreComparison",
    "Skipped",
    "adjusted_pvalues",
    "chance_check",
    "classifier_measures",
    "data_notes",
    "fold_analysis",
    "format_measures",
    "format_p",
    "format_pairwise",
    "load_predictions",
    "majority_baseline",
    "make_example_predictions",
    "omnibus_test",
    "pairwise_comparison",
    "per_class_tables",
    "plot_pair_intervals",
    "run_report",
    "score_comparison",
    "score_warnings",
    "summarise_data",
    "summary_text",
    "top_two_bootstrap",
]
__all__ += ["auc_normal_critical", "best_over_thresholds"]

from .pairwise import (
    INTERVAL_METHODS,
    TEST_METHODS,
    IntervalCoverage,
    PairedInterval,
    TestSize,
    coverage_map,
    interval_coverage,
    paired_difference_interval,
    plot_coverage,
    plot_coverage_map,
    test_size,
)

__all__ += [
    "INTERVAL_METHODS",
    "TEST_METHODS",
    "IntervalCoverage",
    "PairedInterval",
    "TestSize",
    "coverage_map",
    "interval_coverage",
    "paired_difference_interval",
    "plot_coverage",
    "plot_coverage_map",
    "test_size",
]

from .scoring import (
    AUCComparison,
    AUCInterval,
    DeLong,
    LossComparison,
    auc_table,
    brier_score,
    check_probabilities,
    delong_auc,
    delong_covariance,
    delong_pairwise,
    delong_test,
    format_auc_pairwise,
    format_auc_table,
    format_loss_pairwise,
    format_loss_table,
    format_pvalue,
    log_loss,
    loss_pairwise,
    loss_table,
    loss_test,
    per_case_loss,
    plot_roc_curves,
    positive_mask,
    roc_points,
)
from .cochran import CochranQ, cochran_q, cochran_q_predictions, correct_matrix
from .multiclass import (
    MacroF1Bootstrap,
    MulticlassMeasures,
    bootstrap_macro_f1_difference,
    format_multiclass_table,
    joint_table,
    macro_f1_from_confusion,
    multiclass_measures,
    multiclass_table,
    per_class_table,
    plot_confusion_matrix,
)

__all__ += [
    "AUCComparison",
    "AUCInterval",
    "DeLong",
    "LossComparison",
    "auc_table",
    "brier_score",
    "check_probabilities",
    "delong_auc",
    "delong_covariance",
    "delong_pairwise",
    "delong_test",
    "format_auc_pairwise",
    "format_auc_table",
    "format_loss_pairwise",
    "format_loss_table",
    "format_pvalue",
    "log_loss",
    "loss_pairwise",
    "loss_table",
    "loss_test",
    "per_case_loss",
    "plot_roc_curves",
    "positive_mask",
    "roc_points",
    "CochranQ",
    "cochran_q",
    "cochran_q_predictions",
    "correct_matrix",
    "MacroF1Bootstrap",
    "MulticlassMeasures",
    "bootstrap_macro_f1_difference",
    "format_multiclass_table",
    "joint_table",
    "macro_f1_from_confusion",
    "multiclass_measures",
    "multiclass_table",
    "per_class_table",
    "plot_confusion_matrix",
]

from .htmlexport import (
    NBCONVERT_CONFIG,
    check_notebook_math,
    export_html,
    latex_to_mathml,
    markdown_to_html,
)
from .measures import accuracy_interval_coverage, plot_interval_coverage
from .cvtests import (
    plot_power_by_repeats,
    power_by_repeats,
    simulate_unequal_learners,
    unequal_learners_data,
)

__all__ += [
    "plot_power_by_repeats",
    "power_by_repeats",
    "simulate_unequal_learners",
    "unequal_learners_data",
    "accuracy_interval_coverage",
    "plot_interval_coverage",
    "NBCONVERT_CONFIG",
    "check_notebook_math",
    "export_html",
    "latex_to_mathml",
    "markdown_to_html",
]
