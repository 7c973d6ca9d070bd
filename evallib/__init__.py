"""evallib: tested implementations behind the classifier-comparison workbook.

Each module holds the formulas of one source; see the README for the map.

- :mod:`evallib.onetestset.pairwise` -- Berrar & Lozano (2013): McNemar's test, the
  Quesenberry-Hurst interval, Holm's adjustment, Table 2 and Figure 4.
- :mod:`evallib.studies.models` -- the five models of their breast-cancer case study.
- :mod:`evallib.studies.data` -- the data sets the notebooks use.
- :mod:`evallib.studies.casestudy` -- the case study of section 7, end to end.
- :mod:`evallib.onetestset.nullbest`, :mod:`evallib.onetestset.nullbest_plots` -- Forman & Cohen (2005):
  exact best-of-C critical values, the Monte Carlo, Figures 1-7.
- :mod:`evallib.onetestset.bizarre` -- Keller, Bengio & Wong: proportion, disagreement and DCF
  tests, the eight joint events, the F1 bootstrap; :mod:`evallib.studies.textsim` -- their
  section 5 re-run on a synthetic text task.
- :mod:`evallib.onetestset.measures`, :mod:`evallib.manydatasets.ranktests` -- Flach (2012), chapter 12.
- :mod:`evallib.resampling.cvtests` -- t-tests over cross-validation (textbook, Nadeau & Bengio,
  Dietterich) and the equal-learners simulation.
- :mod:`evallib.report` -- the analyst's "compare my classifiers" report.
"""

# Every name in a module's __all__ is importable from evallib itself (tests/test_exports.py
# checks it): one block per module, ``from .module import (...)`` and ``__all__ += [...]``;
# a new module adds its block at the end.

__version__ = "0.1.0"

__all__: list[str] = []

# Berrar & Lozano (2013): McNemar (Yates, exact, mid-p), the Quesenberry-Hurst interval and the recommended paired-difference intervals with their exact coverage, Holm, Table 2, Figure 4
from .onetestset.pairwise import (
    Contingency,
    McNemarResult,
    QHInterval,
    contingency,
    mcnemar,
    qh_interval,
    qh_coverage,
    holm_alphas,
    adjusted_alphas,
    pairwise_table,
    compare_pairwise,
    format_table,
    pair_label,
    plot_intervals,
    plot_pvalue_vs_interval,
    describe_comparison,
    ADJUSTMENTS,
    PAIRED_INTERVAL_METHODS,
    TEST_METHODS,
    PairedInterval,
    IntervalCoverage,
    TestSize,
    paired_difference_interval,
    interval_coverage,
    coverage_map,
    test_size,
    plot_coverage,
    plot_coverage_map,
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
    "PAIRED_INTERVAL_METHODS",
    "TEST_METHODS",
    "PairedInterval",
    "IntervalCoverage",
    "TestSize",
    "paired_difference_interval",
    "interval_coverage",
    "coverage_map",
    "test_size",
    "plot_coverage",
    "plot_coverage_map",
]

# the five models of their breast-cancer case study
from .studies.models import (
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
from .studies.data import (
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
from .studies.casestudy import (
    CaseStudy,
    MODEL_NAMES,
    run_case_study,
    case_study_table,
    plot_case_study,
)

__all__ += [
    "CaseStudy",
    "MODEL_NAMES",
    "run_case_study",
    "case_study_table",
    "plot_case_study",
]

# Forman & Cohen (2005): best-of-C critical values and the Monte Carlo
from .onetestset.nullbest import (
    best_over_thresholds,
    auc_normal_critical,
    METRICS,
    NullCDF,
    null_cdf,
    critical_value,
    best_of_pvalue,
    mc_repetitions,
    simulate_null,
    critical_value_table,
    tail_probability,
    write_critical_values,
    PAPER_GRID,
    Verdict,
    judge_winner,
    simulate_scores,
    load_critical_values,
)

__all__ += [
    "best_over_thresholds",
    "auc_normal_critical",
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

# Forman & Cohen (2005): Figures 1-7 and the tail plots
from .onetestset.nullbest_plots import (
    plot_null_cdfs,
    critical_value_grid,
    plot_critical_surface,
    plot_critical_contours,
    plot_contour_panels,
    plot_mc_convergence,
    mc_cdf_distance,
    plot_null_tail,
    plot_mc_tail,
)

__all__ += [
    "plot_null_cdfs",
    "critical_value_grid",
    "plot_critical_surface",
    "plot_critical_contours",
    "plot_contour_panels",
    "plot_mc_convergence",
    "mc_cdf_distance",
    "plot_null_tail",
    "plot_mc_tail",
]

# Keller, Bengio & Wong: proportion, disagreement and DCF tests, the F1 bootstrap, its size and coverage
from .onetestset.bizarre import (
    EVENT_NAMES,
    ZTest,
    F1Bootstrap,
    DCFBootstrap,
    proportion_test,
    disagreement_test,
    dcf,
    dcf_test,
    joint_events,
    event_codes,
    f1_scores,
    f1_difference,
    printed_eq12,
    resample_events,
    bootstrap_f1_difference,
    dcf_difference,
    bootstrap_dcf_difference,
    F1TestCheck,
    null_population,
    f1_percentile_intervals,
    f1_test_check,
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
    "F1TestCheck",
    "null_population",
    "f1_percentile_intervals",
    "f1_test_check",
]

# Keller, Bengio & Wong, section 5 re-run on a synthetic text task
from .studies.textsim import (
    PAPER_SIZES,
    PAPER_TABLE3,
    SETTINGS,
    GRID_PRIORS,
    GRID_NOISES,
    GRID_SIZES,
    GRID_PATH,
    TextSetting,
    TextPopulation,
    Learners,
    Experiment,
    SettingRun,
    fit_learners,
    build_experiment,
    write_experiment_grid,
    mistake_correlation,
    dtrue_replicates,
    run_setting,
    table3,
    format_table3,
    calibration_study,
    calibration_summary,
    calibration_bins,
    size_coverage_study,
    size_coverage_summary,
    plot_size_coverage,
    plot_tie_confidence,
    dcf_comparison,
    plot_replicates,
    plot_calibration,
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
    "format_table3",
    "calibration_study",
    "calibration_summary",
    "calibration_bins",
    "size_coverage_study",
    "size_coverage_summary",
    "plot_size_coverage",
    "plot_tie_confidence",
    "dcf_comparison",
    "plot_replicates",
    "plot_calibration",
]

# Flach (2012), chapter 12: measures and intervals (12.1-12.5)
from .onetestset.measures import (
    Measures,
    AccuracyInterval,
    AccuracyTest,
    ACCURACY_INTERVAL_METHODS,
    measures,
    measures_table,
    accuracy_at_pos,
    expected_accuracy_from_auc,
    accuracy_interval,
    accuracy_ztest,
    describe_accuracy_interval,
    plot_accuracy_vs_pos,
    plot_measures_vs_tn,
    plot_accuracy_interval,
    accuracy_interval_coverage,
    plot_interval_coverage,
)

__all__ += [
    "Measures",
    "AccuracyInterval",
    "AccuracyTest",
    "ACCURACY_INTERVAL_METHODS",
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
    "accuracy_interval_coverage",
    "plot_interval_coverage",
]

# Flach (2012), chapter 12 and Demsar (2006): rank tests and CD diagrams
from .manydatasets.ranktests import (
    demsar_table_6,
    WilcoxonResult,
    FriedmanResult,
    CriticalDifference,
    CD_TESTS,
    flach_example_12_4,
    signed_rank_null,
    wilcoxon_critical_value,
    wilcoxon_signed_rank,
    SignTestResult,
    sign_test,
    snap_ties,
    TIE_RTOL,
    friedman,
    friedman_null_distribution,
    friedman_critical_value,
    critical_difference,
    rank_differences,
    cd_cliques,
    scores_from_text,
    critical_difference_table,
    OFFLINE_DATASETS,
    OFFLINE_LEARNERS,
    offline_benchmark,
    offline_benchmark_scores,
)

__all__ += [
    "demsar_table_6",
    "WilcoxonResult",
    "FriedmanResult",
    "CriticalDifference",
    "CD_TESTS",
    "flach_example_12_4",
    "signed_rank_null",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
    "SignTestResult",
    "sign_test",
    "snap_ties",
    "TIE_RTOL",
    "friedman",
    "friedman_null_distribution",
    "friedman_critical_value",
    "critical_difference",
    "rank_differences",
    "cd_cliques",
    "scores_from_text",
    "critical_difference_table",
    "OFFLINE_DATASETS",
    "OFFLINE_LEARNERS",
    "offline_benchmark",
    "offline_benchmark_scores",
]

# t-tests over cross-validation (textbook, Flach 12.6, Nadeau & Bengio, Dietterich, Alpaydin) and the simulations
from .resampling.cvtests import (
    CVTTestResult,
    cv_ttest,
    corrected_resampled_ttest,
    dietterich_5x2cv,
    CombinedFTestResult,
    combined_5x2cv_ftest,
    cross_validate_scores,
    paired_scores,
    compare_cv_scores,
    equal_learners_data,
    stratified_test_folds,
    simulate_equal_learners,
    rejection_rates,
    plot_rejection_rates,
    unequal_learners_data,
    simulate_unequal_learners,
    power_by_repeats,
    plot_power_by_repeats,
    rejection_study,
    rejection_sweep,
    SWEEP_PARAMETERS,
    SIMULATED_TESTS,
)

__all__ += [
    "CVTTestResult",
    "cv_ttest",
    "corrected_resampled_ttest",
    "dietterich_5x2cv",
    "CombinedFTestResult",
    "combined_5x2cv_ftest",
    "cross_validate_scores",
    "paired_scores",
    "compare_cv_scores",
    "equal_learners_data",
    "stratified_test_folds",
    "simulate_equal_learners",
    "rejection_rates",
    "plot_rejection_rates",
    "unequal_learners_data",
    "simulate_unequal_learners",
    "power_by_repeats",
    "plot_power_by_repeats",
    "rejection_study",
    "rejection_sweep",
    "SWEEP_PARAMETERS",
    "SIMULATED_TESTS",
]

# post-hoc tests with adjusted p-values after Friedman (Garcia & Herrera 2008; Demsar 2006)
from .manydatasets.posthoc import (
    ALL_PAIRS_METHODS,
    CONTROL_METHODS,
    CONTROL_ONLY_METHODS,
    posthoc_friedman,
    adjust_pvalues,
    shaffer_counts,
    exhaustive_sets,
    posthoc_cliques,
    posthoc_summary,
    describe_posthoc_summary,
    plot_posthoc,
    posthoc_view,
    mean_rank_dependence,
    plot_cd_diagram,
    RankAnalysis,
    rank_analysis,
    describe_rank_analysis,
)

__all__ += [
    "ALL_PAIRS_METHODS",
    "CONTROL_METHODS",
    "CONTROL_ONLY_METHODS",
    "posthoc_friedman",
    "adjust_pvalues",
    "shaffer_counts",
    "exhaustive_sets",
    "posthoc_cliques",
    "posthoc_summary",
    "describe_posthoc_summary",
    "plot_posthoc",
    "posthoc_view",
    "mean_rank_dependence",
    "plot_cd_diagram",
    "RankAnalysis",
    "rank_analysis",
    "describe_rank_analysis",
]

# Bayesian tests with a ROPE (Benavoli, Corani, Demsar & Zaffalon 2017)
from .resampling.bayesian import (
    CorrelatedTTestResult,
    bayesian_correlated_ttest,
    plot_correlated_posterior,
)
from .manydatasets.bayesian import (
    SignedRankResult,
    bayesian_signed_rank,
    plot_simplex,
    plot_bayesian_signed_rank,
    REGIONS,
)

__all__ += [
    "CorrelatedTTestResult",
    "SignedRankResult",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank",
    "plot_correlated_posterior",
    "plot_simplex",
    "plot_bayesian_signed_rank",
    "REGIONS",
]

# scores as results: DeLong AUC intervals and paired tests, Brier score, log-loss, ROC curves
from .onetestset.scoring import (
    DeLong,
    AUCInterval,
    AUCComparison,
    LossComparison,
    LOG_LOSS_EPS,
    positive_mask,
    delong_covariance,
    delong_auc,
    auc_table,
    delong_test,
    delong_pairwise,
    check_probabilities,
    per_case_loss,
    brier_score,
    log_loss,
    loss_table,
    loss_test,
    loss_pairwise,
    plot_roc_curves,
    roc_points,
    format_pvalue,
    format_auc_table,
    format_auc_pairwise,
    format_loss_table,
    format_loss_pairwise,
)

__all__ += [
    "DeLong",
    "AUCInterval",
    "AUCComparison",
    "LossComparison",
    "LOG_LOSS_EPS",
    "positive_mask",
    "delong_covariance",
    "delong_auc",
    "auc_table",
    "delong_test",
    "delong_pairwise",
    "check_probabilities",
    "per_case_loss",
    "brier_score",
    "log_loss",
    "loss_table",
    "loss_test",
    "loss_pairwise",
    "plot_roc_curves",
    "roc_points",
    "format_pvalue",
    "format_auc_table",
    "format_auc_pairwise",
    "format_loss_table",
    "format_loss_pairwise",
]

# Cochran's Q for k classifiers on one test set
from .onetestset.cochran import (
    CochranQ,
    cochran_q,
    cochran_q_predictions,
    correct_matrix,
)

__all__ += [
    "CochranQ",
    "cochran_q",
    "cochran_q_predictions",
    "correct_matrix",
]

# K-class measures, per-class tables and the macro-F1 paired bootstrap
from .onetestset.multiclass import (
    MulticlassMeasures,
    MacroF1Bootstrap,
    encode_labels,
    confusion_counts,
    joint_table,
    multiclass_measures,
    per_class_table,
    multiclass_table,
    format_multiclass_table,
    macro_f1_from_confusion,
    bootstrap_macro_f1_difference,
    plot_confusion_matrix,
)

__all__ += [
    "MulticlassMeasures",
    "MacroF1Bootstrap",
    "encode_labels",
    "confusion_counts",
    "joint_table",
    "multiclass_measures",
    "per_class_table",
    "multiclass_table",
    "format_multiclass_table",
    "macro_f1_from_confusion",
    "bootstrap_macro_f1_difference",
    "plot_confusion_matrix",
]

# power and sample size (McNemar, F1 bootstrap, CV t-tests, Nemenyi) and the design map of notebook 00
from .planning import (
    F1Power,
    POWER_METHODS,
    comparison_write_up,
    cv_power_curve,
    cv_ttest_power,
    discordant_probabilities,
    expected_interval_width,
    f1_bootstrap_power,
    f1_power_curve,
    interval_and_power_summary,
    mcnemar_power,
    mcnemar_power_curve,
    mcnemar_sample_size,
    minimum_detectable_difference,
    nemenyi_datasets,
    plot_design_map,
    plot_cv_power,
    plot_f1_power,
    plot_interval_and_power,
    plot_mcnemar_power,
    plot_minimum_detectable_difference,
    plot_nemenyi_datasets,
    plot_sample_size,
    sample_size_summary,
)

__all__ += [
    "F1Power",
    "POWER_METHODS",
    "comparison_write_up",
    "cv_power_curve",
    "cv_ttest_power",
    "discordant_probabilities",
    "expected_interval_width",
    "f1_bootstrap_power",
    "f1_power_curve",
    "interval_and_power_summary",
    "mcnemar_power",
    "mcnemar_power_curve",
    "mcnemar_sample_size",
    "minimum_detectable_difference",
    "nemenyi_datasets",
    "plot_design_map",
    "plot_cv_power",
    "plot_f1_power",
    "plot_interval_and_power",
    "plot_mcnemar_power",
    "plot_minimum_detectable_difference",
    "plot_nemenyi_datasets",
    "plot_sample_size",
    "sample_size_summary",
]

# notebooks as HTML whose maths renders offline (MathML)
from .htmlexport import (
    NBCONVERT_CONFIG,
    check_notebook_math,
    export_html,
    latex_to_mathml,
    markdown_to_html,
)

__all__ += [
    "NBCONVERT_CONFIG",
    "check_notebook_math",
    "export_html",
    "latex_to_mathml",
    "markdown_to_html",
]

# the analyst's "compare my classifiers" report
from .report import (
    ReportInputError,
    ReportExecutionError,
    Predictions,
    Skipped,
    DataSummary,
    load_predictions,
    summarise_data,
    classifier_measures,
    format_measures,
    pairwise_comparison,
    format_pairwise,
    summary_text,
    FoldAnalysis,
    fold_analysis,
    ChanceCheck,
    chance_check,
    F1Comparison,
    top_two_bootstrap,
    run_report,
    ReportFiles,
    make_example_predictions,
    EXAMPLE_PATH,
    REPORT_NOTEBOOK,
    PRED_PREFIX,
    SCORE_PREFIX,
    P_FLOOR,
    format_p,
    plot_pair_intervals,
    adjusted_pvalues,
    data_notes,
    majority_baseline,
    score_warnings,
    ScoreComparison,
    omnibus_test,
    per_class_tables,
    score_comparison,
)

__all__ += [
    "ReportInputError",
    "ReportExecutionError",
    "Predictions",
    "Skipped",
    "DataSummary",
    "load_predictions",
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
    "ReportFiles",
    "make_example_predictions",
    "EXAMPLE_PATH",
    "REPORT_NOTEBOOK",
    "PRED_PREFIX",
    "SCORE_PREFIX",
    "P_FLOOR",
    "format_p",
    "plot_pair_intervals",
    "adjusted_pvalues",
    "data_notes",
    "majority_baseline",
    "score_warnings",
    "ScoreComparison",
    "omnibus_test",
    "per_class_tables",
    "score_comparison",
]
