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
    pairwise_table,
    plot_intervals,
    plot_pvalue_vs_interval,
    qh_coverage,
    qh_interval,
)

__version__ = "0.1.0"

__all__ = [
    "ADJUSTMENTS",
    "Contingency",
    "McNemarResult",
    "QHInterval",
    "adjusted_alphas",
    "compare_pairwise",
    "contingency",
    "describe_comparison",
    "format_table",
    "holm_alphas",
    "mcnemar",
    "pairwise_table",
    "plot_intervals",
    "plot_pvalue_vs_interval",
    "qh_coverage",
    "qh_interval",
]

# Each further module appends its own block below: one ``from .module import (...)``
# and one ``__all__ += [...]``, so that every public function is importable from
# ``evallib`` itself.

# t-tests over cross-validation (textbook section, Flach 12.6, Nadeau & Bengio, Dietterich)
from .cvtests import (
    CVTTestResult,
    SIMULATED_TESTS,
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
    "SIMULATED_TESTS",
    "compare_cv_scores",
    "corrected_resampled_ttest",
    "cross_validate_scores",
    "cv_ttest",
    "dietterich_5x2cv",
    "equal_learners_data",
    "paired_scores",
    "plot_rejection_rates",
    "rejection_rates",
    "rejection_study",
    "rejection_sweep",
    "stratified_test_folds",
    "simulate_equal_learners",
]

# Flach (2012), chapter 12: measures and intervals (12.1-12.5), rank tests and CD diagrams (12.7-12.8)
from .measures import (
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
from .ranktests import (
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
    "AccuracyInterval",
    "AccuracyTest",
    "Measures",
    "accuracy_at_pos",
    "accuracy_interval",
    "accuracy_ztest",
    "describe_accuracy_interval",
    "expected_accuracy_from_auc",
    "measures",
    "measures_table",
    "plot_accuracy_interval",
    "plot_accuracy_vs_pos",
    "plot_measures_vs_tn",
    "CriticalDifference",
    "FriedmanResult",
    "WilcoxonResult",
    "cd_cliques",
    "critical_difference",
    "describe_rank_analysis",
    "flach_example_12_4",
    "friedman",
    "friedman_critical_value",
    "friedman_null_distribution",
    "plot_cd_diagram",
    "rank_differences",
    "scores_from_text",
    "signed_rank_null",
    "wilcoxon_critical_value",
    "wilcoxon_signed_rank",
]

from .nullbest import (
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
)
from .nullbest_plots import (
    plot_contour_panels,
    plot_critical_contours,
    plot_critical_surface,
    plot_mc_convergence,
    plot_null_cdfs,
)

__all__ += [
    "NullCDF",
    "Verdict",
    "best_of_pvalue",
    "critical_value",
    "critical_value_table",
    "judge_winner",
    "load_critical_values",
    "mc_repetitions",
    "null_cdf",
    "plot_contour_panels",
    "plot_critical_contours",
    "plot_critical_surface",
    "plot_mc_convergence",
    "plot_null_cdfs",
    "simulate_null",
    "simulate_scores",
    "tail_probability",
]

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
from .textsim import (
    TextPopulation,
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
)

__all__ += [
    "EVENT_NAMES",
    "DCFBootstrap",
    "F1Bootstrap",
    "ZTest",
    "bootstrap_dcf_difference",
    "bootstrap_f1_difference",
    "dcf",
    "dcf_difference",
    "dcf_test",
    "disagreement_test",
    "event_codes",
    "f1_difference",
    "f1_scores",
    "joint_events",
    "printed_eq12",
    "proportion_test",
    "resample_events",
    "TextPopulation",
    "build_experiment",
    "calibration_bins",
    "calibration_study",
    "calibration_summary",
    "dcf_comparison",
    "dtrue_replicates",
    "fit_learners",
    "mistake_correlation",
    "plot_calibration",
    "plot_replicates",
    "run_setting",
    "table3",
]

from .report import (
    ChanceCheck,
    DataSummary,
    F1Comparison,
    FoldAnalysis,
    Predictions,
    ReportFiles,
    ReportInputError,
    Skipped,
    chance_check,
    classifier_measures,
    fold_analysis,
    load_predictions,
    pairwise_comparison,
    run_report,
    summarise_data,
    summary_text,
    top_two_bootstrap,
)

__all__ += [
    "ChanceCheck",
    "DataSummary",
    "F1Comparison",
    "FoldAnalysis",
    "Predictions",
    "ReportFiles",
    "ReportInputError",
    "Skipped",
    "chance_check",
    "classifier_measures",
    "fold_analysis",
    "load_predictions",
    "pairwise_comparison",
    "run_report",
    "summarise_data",
    "summary_text",
    "top_two_bootstrap",
]

# Planning: power and sample size (McNemar, F1 bootstrap, Nemenyi), the design map of notebook 00
from .planning import (
    POWER_METHODS,
    F1Power,
    comparison_write_up,
    discordant_probabilities,
    expected_interval_width,
    f1_bootstrap_power,
    f1_power_curve,
    mcnemar_power,
    mcnemar_power_curve,
    mcnemar_sample_size,
    minimum_detectable_difference,
    nemenyi_datasets,
    plot_design_map,
    plot_f1_power,
    plot_interval_and_power,
    plot_mcnemar_power,
    plot_minimum_detectable_difference,
    plot_nemenyi_datasets,
)

__all__ += [
    "POWER_METHODS",
    "F1Power",
    "comparison_write_up",
    "discordant_probabilities",
    "expected_interval_width",
    "f1_bootstrap_power",
    "f1_power_curve",
    "mcnemar_power",
    "mcnemar_power_curve",
    "mcnemar_sample_size",
    "minimum_detectable_difference",
    "nemenyi_datasets",
    "plot_design_map",
    "plot_f1_power",
    "plot_interval_and_power",
    "plot_mcnemar_power",
    "plot_minimum_detectable_difference",
    "plot_nemenyi_datasets",
]
