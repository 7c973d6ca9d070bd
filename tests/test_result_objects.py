"""Result objects (issue 31 item 6): comparable, hashable, and read-only where they hold arrays.

Every public result dataclass (each dataclass in ``evallib.__all__`` and in the studies' and lessons' namespaces) is built through the
public function that returns it (one small call per class, in :data:`BUILDERS`), and
checked against the rule of :mod:`evallib._results`: ``==`` and ``hash`` do not raise;
a class holding arrays compares by identity; writing into one of its ndarray fields raises
``ValueError``; the caller's own arrays are not frozen by it.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import evallib
import evallib.lessons
import evallib.report
import evallib.studies
from evallib._results import freeze_arrays
from evallib.report import _items_sections as items_sections
from evallib.report._items_inputs import load_item_scores

RNG = np.random.default_rng(20240531)
Y = np.array([1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0] * 3)
PRED_A = np.where(RNG.random(Y.size) < 0.8, Y, 1 - Y)
PRED_B = np.where(RNG.random(Y.size) < 0.7, Y, 1 - Y)
SCORES = pd.DataFrame(RNG.normal(size=(8, 3)) + [0.0, 0.3, 0.6], columns=["a", "b", "c"])
DIFFS = np.array([0.10, -0.02, 0.05, 0.07, 0.03, 0.04, -0.01, 0.09, 0.06, 0.08])
EVENTS = [2500, 60, 40, 200, 300, 150, 100, 6650]


def _draws(func, n: int) -> dict[str, int]:
    """``{name: n}`` for the draw-count keyword of ``func``, whichever spelling it has."""
    params = inspect.signature(func).parameters
    for name in ("n_resamples", "reps", "n_samples", "n_sim", "n_boot"):
        if name in params:
            return {name: n}
    return {}


def _predictions():
    """Two classes, three classifiers with labels and scores, five folds."""
    rng = np.random.default_rng(2)
    spam = rng.random(100) < 0.3
    frame = pd.DataFrame({"label": np.where(spam, "spam", "ham"), "fold": np.tile(np.arange(1, 6), 20)})
    for name, shift in (("svm", 2.0), ("bayes", 1.2), ("knn", 0.6)):
        score = rng.normal(size=100) + shift * spam
        frame[f"score_{name}"] = np.round(score, 4)
        frame[f"pred_{name}"] = np.where(score > shift / 2, "spam", "ham")
    return evallib.load_predictions(frame, pos_label="spam")


def _class_predictions():
    """Three classes, two classifiers with a probability column per class."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=90)
    classes = np.array(["cat", "dog", "owl"])
    frame = pd.DataFrame({"label": classes[y]})
    for name, sharp in (("knn", 2.0), ("tree", 1.0)):
        logits = rng.normal(size=(90, 3)) + sharp * np.eye(3)[y]
        prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        frame[f"pred_{name}"] = classes[prob.argmax(axis=1)]
        for k, c in enumerate(classes):
            frame[f"score_{name}_{c}"] = prob[:, k]
    return evallib.load_predictions(frame)


def _measures(data):
    return evallib.classifier_measures(data)


def _experiment():
    """An experiment of the shipped precomputed grid (looked up, not computed)."""
    sizes = dict(evallib.GRID_SIZES)
    return evallib.build_experiment("X", prior_pos=0.25, label_noise=0.02, rng=sizes.pop("seed"), **sizes)


def _learners():
    population = _experiment().population
    X, y = population.sample(300, rng=0)
    return evallib.fit_learners(X, y, n_components=20, rng=0)


def _case_study():
    X, y = evallib.load_gse4335()
    return evallib.run_case_study(X.iloc[:, :300].to_numpy(), y, n_genes_1=5, n_genes_2=3, rng=1)


#: One call per public result class, through the public function that returns it.
BUILDERS = {
    "Contingency": lambda: evallib.contingency(Y, PRED_A, PRED_B),
    "McNemarResult": lambda: evallib.mcnemar(6, 2),
    "QHInterval": lambda: evallib.qh_interval(6, 2, 36),
    "PairedInterval": lambda: evallib.paired_difference_interval(evallib.contingency(Y, PRED_A, PRED_B)),
    "TangoTest": lambda: evallib.tango_test(6, 2, 36, margin=0.1),
    "GateVerdict": lambda: evallib.report.release_gate({"standard": [1] * 44, "new": [1] * 43 + [0]},
                                                       baseline_model="standard", margin=0.1),
    "IntervalCoverage": lambda: evallib.interval_coverage("wald", 30, [0.5, 0.2, 0.1, 0.2]),
    "TestSize": lambda: evallib.test_size("chi2", 30, [0.5, 0.15, 0.15, 0.2]),
    "NullCDF": lambda: evallib.null_cdf("accuracy", 10, 12),
    "Verdict": lambda: evallib.judge_winner("accuracy", 0.8, 10, 12),
    "McTailCurves": lambda: evallib.mc_tail_curves("accuracy", 10, 12, [50], rng=0),
    "ZTest": lambda: evallib.proportion_test(9, 12, 36),
    "F1Bootstrap": lambda: evallib.bootstrap_f1_difference(
        Y, PRED_A, PRED_B, rng=0, **_draws(evallib.bootstrap_f1_difference, 200)),
    "DCFBootstrap": lambda: evallib.bootstrap_dcf_difference(
        Y, PRED_A, PRED_B, rng=0, **_draws(evallib.bootstrap_dcf_difference, 200)),
    "F1TestCheck": lambda: evallib.f1_test_check(EVENTS, 400, repetitions=20, rng=0,
                                                 **_draws(evallib.f1_test_check, 50)),
    "Measures": lambda: evallib.measures(8, 2, 3, 7),
    "AccuracyInterval": lambda: evallib.accuracy_interval(30, 40),
    "AccuracyTest": lambda: evallib.accuracy_ztest(30, 40),
    "DeLong": lambda: evallib.delong_covariance(Y, {"a": PRED_A + 0.1 * Y, "b": PRED_B + 0.0}),
    "AUCInterval": lambda: evallib.delong_auc(Y, PRED_A + 0.1 * Y),
    "AUCComparison": lambda: evallib.delong_test(Y, PRED_A + 0.1 * Y, PRED_B + 0.0),
    "UnpairedAUCComparison": lambda: evallib.delong_unpaired(Y, PRED_A + 0.1 * Y, Y, PRED_B + 0.0),
    "LossComparison": lambda: evallib.loss_test(Y, 0.2 + 0.6 * PRED_A, 0.3 + 0.4 * PRED_B),
    "CochranQ": lambda: evallib.cochran_q(np.column_stack([PRED_A == Y, PRED_B == Y, Y == 1])),
    "CaseF1Bootstrap": lambda: evallib.bootstrap_f1_cases(Y, PRED_A, PRED_B, pos_label=1, n_resamples=200, rng=0),
    "MulticlassMeasures": lambda: evallib.multiclass_measures(Y, PRED_A),
    "MacroF1Bootstrap": lambda: evallib.bootstrap_macro_f1_difference(
        Y, PRED_A, PRED_B, rng=0, **_draws(evallib.bootstrap_macro_f1_difference, 200)),
    "KappaResult": lambda: evallib.cohen_kappa(PRED_A, PRED_B),
    "UnconditionalMcNemarResult": lambda: evallib.mcnemar_unconditional(6, 2, 36, points=50),
    "ExactPairedInterval": lambda: evallib.fay_lumbard_interval(6, 2, 36),
    "CVTTestResult": lambda: evallib.corrected_resampled_ttest(DIFFS + 0.5, np.full(10, 0.5),
                                                               test_train_ratio=0.25),
    "CombinedFTestResult": lambda: evallib.combined_5x2cv_ftest(
        (DIFFS + 0.5).reshape(5, 2), np.full((5, 2), 0.5)),
    "CorrelatedTTestResult": lambda: evallib.bayesian_correlated_ttest(DIFFS + 0.5, np.full(10, 0.5),
                                                                       test_train_ratio=0.25),
    "WilcoxonResult": lambda: evallib.wilcoxon_signed_rank(DIFFS),
    "FriedmanResult": lambda: evallib.friedman(SCORES),
    "CriticalDifference": lambda: evallib.critical_difference(3, 8),
    "SignTestResult": lambda: evallib.sign_test(DIFFS),
    "RankAnalysis": lambda: evallib.rank_analysis(SCORES),
    "SignedRankResult": lambda: evallib.bayesian_signed_rank(
        DIFFS + 0.5, np.full(10, 0.5), rng=0, **_draws(evallib.bayesian_signed_rank, 500)),
    "SignTestPosterior": lambda: evallib.bayesian_sign_test(
        DIFFS + 0.5, np.full(10, 0.5), rng=0, **_draws(evallib.bayesian_sign_test, 500)),
    "AlignedRanksResult": lambda: evallib.aligned_ranks_test(SCORES),
    "QuadeResult": lambda: evallib.quade_test(SCORES),
    "SkillingsMackResult": lambda: evallib.skillings_mack_test(SCORES),
    "HierarchicalResult": lambda: evallib.hierarchical_test(
        RNG.normal(0.02, 0.05, size=(4, 10)) + 0.5, np.full((4, 10), 0.5), chains=2, burn_in=100, rng=0,
        **_draws(evallib.hierarchical_test, 200)),
    "ItemMean": lambda: evallib.item_mean(Y),
    "PairedItemDifference": lambda: evallib.paired_item_difference(PRED_A == Y, PRED_B == Y),
    "PairedItemMarginTest": lambda: evallib.paired_item_margin_test(PRED_A == Y, PRED_B == Y, margin=0.1),
    "VarianceComponents": lambda: evallib.variance_components(np.column_stack([PRED_A == Y, PRED_B == Y])),
    "PassInterval": lambda: evallib.pass_at_k([5] * 6, [0, 1, 2, 3, 4, 5], 2).pass_hat_k,
    "PassAtK": lambda: evallib.pass_at_k([5] * 6, [0, 1, 2, 3, 4, 5], 2),
    "ConfidenceSequence": lambda: evallib.confidence_sequence(PRED_A == Y, PRED_B == Y),
    "SequentialPValue": lambda: evallib.sequential_pvalue(PRED_A == Y, PRED_B == Y),
    "GroupSequentialDesign": lambda: evallib.group_sequential_design(36, 3),
    "GroupSequentialTest": lambda: evallib.group_sequential_test(
        PRED_A == Y, PRED_B == Y, evallib.group_sequential_design(36, 3)),
    "PeekingStudy": lambda: evallib.peeking_study(looks=3, n_max=60, n_resamples=20, rng=0),
    "TieGroup": lambda: evallib.tie_group(pd.DataFrame({"a": PRED_A == Y, "b": PRED_B == Y}).astype(float)),
    "CaseStudy": _case_study,
    "TextSetting": lambda: evallib.SETTINGS["X"],
    "TextPopulation": lambda: _experiment().population,
    "Learners": _learners,
    "Experiment": _experiment,
    "SettingRun": lambda: evallib.run_setting(_experiment(), n_test=400, n_subsamples=20, rng=0,
                                              **_draws(evallib.run_setting, 50)),
    "PupilEvaluation": lambda: evallib.evaluate_pupils(samples=2, rng=0),
    "F1Power": lambda: evallib.f1_bootstrap_power(200, EVENTS, rng=0, chunk=10,
                                                  **{**_draws(evallib.f1_bootstrap_power, 20), "n_sim": 10}
                                                  if "n_sim" in inspect.signature(evallib.f1_bootstrap_power).parameters
                                                  else _draws(evallib.f1_bootstrap_power, 20)),
    "ItemSampleSize": lambda: evallib.item_sample_size(0.05, sd_a=0.4, correlation=0.5),
    "Predictions": _predictions,
    "Skipped": lambda: evallib.Skipped("no scores"),
    "DataSummary": lambda: evallib.summarise_data(_predictions()),
    "FoldAnalysis": lambda: evallib.fold_analysis(_predictions()),
    "ChanceCheck": lambda: evallib.chance_check(_predictions(), _measures(_predictions())),
    "F1Comparison": lambda: evallib.top_two_bootstrap(_predictions(), _measures(_predictions()), rng=0,
                                                      **_draws(evallib.top_two_bootstrap, 200)),
    "ReportFiles": lambda: evallib.ReportFiles(Path("report.html"), Path("report.ipynb"), None),
    "ScoreComparison": lambda: evallib.score_comparison(_predictions()),
    "ClassScoreComparison": lambda: evallib.class_score_comparison(_class_predictions()),
}


#: Every public name of the library, the studies, the lessons and the report.
_PUBLIC = {n: getattr(ns, n) for ns in (evallib, evallib.studies, evallib.lessons, evallib.report) for n in ns.__all__}


def _public_result_classes() -> list[str]:
    return sorted(name for name in _PUBLIC
                  if isinstance(_PUBLIC[name], type) and dataclasses.is_dataclass(_PUBLIC[name]))


def _holds_arrays(result) -> bool:
    """Whether a field holds an ndarray or a pandas object, directly or as a dict value."""
    kinds = (np.ndarray, pd.DataFrame, pd.Series)
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, kinds) or (isinstance(value, dict) and any(isinstance(v, kinds)
                                                                        for v in value.values())):
            return True
    return False


def _array_fields(result) -> list[tuple[str, np.ndarray]]:
    """Every ndarray held by a field (directly, or as a dict value), with its field's name."""
    out = []
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, np.ndarray):
            out.append((f.name, value))
        elif isinstance(value, dict):
            out += [(f"{f.name}[{k!r}]", v) for k, v in value.items() if isinstance(v, np.ndarray)]
    return out


_BUILT: dict[str, object] = {}


def _build(name: str):
    if name not in _BUILT:
        _BUILT[name] = BUILDERS[name]()
    return _BUILT[name]


def test_every_public_result_class_has_a_builder():
    classes = _public_result_classes()
    assert len(classes) >= 60
    assert sorted(BUILDERS) == classes, "each public result dataclass needs one call in BUILDERS"


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_compare_and_hash(name):
    result = _build(name)
    assert type(result).__name__ == name
    assert result == result
    assert hash(result) == hash(result)
    assert (result == object()) is False
    if _holds_arrays(result):
        # identity: a field-by-field copy is another object
        twin = dataclasses.replace(result) if type(result).__dataclass_params__.init else None
        assert type(result).__dataclass_params__.eq is False
        if twin is not None:
            assert twin != result
            assert len({result, twin}) == 2


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_stored_arrays_are_read_only(name):
    result = _build(name)
    frozen = type(result).__dataclass_params__.frozen
    for field_name, array in _array_fields(result):
        if not frozen or array.size == 0:
            continue
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = array.flat[0]


def test_value_classes_still_compare_by_value():
    assert evallib.mcnemar(6, 2) == evallib.mcnemar(6, 2)
    assert evallib.mcnemar(6, 2) != evallib.mcnemar(6, 3)
    assert len({evallib.accuracy_interval(30, 40), evallib.accuracy_interval(30, 40)}) == 1


def test_freeze_arrays_copies_the_callers_arrays():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Held:
        owned: np.ndarray
        view: np.ndarray
        by_key: dict
        fixed: np.ndarray

        def __post_init__(self):
            freeze_arrays(self)

    owned, base, mine = np.arange(4.0), np.arange(6.0), np.ones(2)
    fixed = np.zeros(3)
    fixed.flags.writeable = False
    held = Held(owned, base[1:4], {"a": mine, "b": "text"}, fixed)
    for array in (owned, base, mine):
        assert array.flags.writeable
    owned[0] = base[1] = mine[0] = 99.0
    assert held.owned[0] == 0.0 and held.view[0] == 1.0 and held.by_key["a"][0] == 1.0
    assert held.by_key["b"] == "text"
    assert held.fixed is fixed
    for array in (held.owned, held.view, held.by_key["a"]):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1.0


def test_a_public_result_does_not_freeze_the_callers_array():
    scores = {"a": np.array([0.1, 0.4, 0.35, 0.8]), "b": np.array([0.2, 0.3, 0.6, 0.7])}
    frame = pd.DataFrame({"label": [0, 0, 1, 1], "pred_a": [0, 0, 1, 1], "score_a": scores["a"],
                          "pred_b": [0, 1, 1, 1], "score_b": scores["b"]})
    data = evallib.load_predictions(frame)
    assert not data.y.flags.writeable
    y = np.array([0, 0, 1, 1])
    fit = evallib.delong_covariance(y, scores)
    assert y.flags.writeable and scores["a"].flags.writeable
    with pytest.raises(ValueError):
        fit.covariance[0, 0] = 1.0


#: The result fields renamed to the conventions (old name -> new name), by class.
RENAMED_FIELDS = {
    "AccuracyInterval": {"std_error": "se"},
    "KappaResult": {"std_error": "se", "std_error_null": "se_null"},
    "CVTTestResult": {"std_error": "se"},
    "ItemMean": {"std_error": "se", "unclustered_std_error": "unclustered_se"},
    "PairedItemDifference": {"std_error": "se", "unclustered_std_error": "unclustered_se",
                             "unpaired_std_error": "unpaired_se"},
    "VarianceComponents": {"std_error": "se"},
    "PassInterval": {"std_error": "se"},
    "PassAtK": {"std_error": "se"},
    "ZTest": {"sd": "se", "z": "statistic"},
    "DCFBootstrap": {"sd": "se"},
    "CochranQ": {"reps": "n_resamples"},
    "F1TestCheck": {"reps": "n_resamples"},
    "MacroF1Bootstrap": {"reps": "n_resamples", "difference": "estimate"},
    "F1Comparison": {"reps": "n_resamples"},
    "F1Power": {"n_sim": "repetitions", "reps": "n_resamples"},
    "SignedRankResult": {"n_samples": "n_resamples"},
    "SignTestPosterior": {"n_samples": "n_resamples"},
    "HierarchicalResult": {"n_samples": "n_resamples"},
}


@pytest.mark.parametrize("name", sorted(RENAMED_FIELDS))
def test_old_field_names_still_read_with_a_warning(name):
    result = _build(name)
    assert getattr(type(result), "__deprecated_fields__", {}) == RENAMED_FIELDS[name]
    fields = {f.name for f in dataclasses.fields(result)}
    for old, new in RENAMED_FIELDS[name].items():
        assert new in fields and old not in fields
        with pytest.warns(DeprecationWarning, match=rf"{name}\.{old} is deprecated.*use \.{new}"):
            value = getattr(result, old)
        assert value == getattr(result, new) or (np.isnan(value) and np.isnan(getattr(result, new)))


def test_no_result_field_keeps_an_old_spelling():
    old = {"std_error", "std_err", "std_error_null", "unclustered_std_error", "unpaired_std_error", "sd", "z",
           "reps", "n_sim", "n_boot"}
    for name in _public_result_classes():
        spelled = {f.name for f in dataclasses.fields(_PUBLIC[name])} & old
        assert not spelled, f"{name} has {sorted(spelled)}"


# --------------------------------------------------- formatters refuse tables without metadata
def _reloaded(table: pd.DataFrame, tmp_path: Path) -> pd.DataFrame:
    """The table written to CSV and read back: the same columns, no ``attrs``."""
    path = tmp_path / "table.csv"
    table.to_csv(path, index=False)
    return pd.read_csv(path)


def _items():
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"item": np.arange(60), "a": rng.random(60) < 0.7, "b": rng.random(60) < 0.6,
                          "c": rng.random(60) < 0.5}).astype({"a": int, "b": int, "c": int})
    return load_item_scores(frame)


def _plot(func):
    def draw(table):
        import matplotlib.pyplot as plt

        try:
            return func(table)
        finally:
            plt.close("all")
    return draw


_COUNTS = {(1, 2): (6, 2), (1, 3): (9, 1), (2, 3): (5, 4)}
_PROBS = {"a": 0.2 + 0.6 * (PRED_A == 1), "b": 0.3 + 0.4 * (PRED_B == 1)}

#: (table maker, consumer, the metadata the consumer needs); the consumer is called on the
#: table as made (it works) and on the table read back from CSV (it is refused).
NEEDS_ATTRS = {
    "format_table": (lambda: evallib.pairwise_table(_COUNTS, 36, adjust="bh"), evallib.format_table, "adjust"),
    "plot_intervals": (lambda: evallib.pairwise_table(_COUNTS, 36, adjust="bh"),
                       _plot(evallib.plot_intervals), "alpha"),
    "format_auc_pairwise": (lambda: evallib.delong_pairwise(Y, {"a": PRED_A + 0.1 * Y, "b": PRED_B + 0.0}),
                            evallib.format_auc_pairwise, "adjust"),
    "format_loss_pairwise": (lambda: evallib.loss_pairwise(Y, _PROBS, adjust="by"),
                             evallib.format_loss_pairwise, "adjust"),
    "plot_item_interval_coverage": (
        lambda: evallib.item_interval_coverage(n_items=30, cluster_size=1, exact=True),
        _plot(evallib.plot_item_interval_coverage), "alpha"),
    "plot_rejection_rates": (
        lambda: evallib.rejection_rates(evallib.simulate_equal_learners(
            60, folds=2, repeats=2, n_datasets=3, rng=0), 0.1),
        _plot(evallib.plot_rejection_rates), "alpha"),
    "pairwise_method_line": (lambda: evallib.pairwise_comparison(_predictions(), adjust="bonferroni"),
                             evallib.pairwise_method_line, "alpha"),
    "format_pairwise": (lambda: evallib.pairwise_comparison(_predictions(), adjust="bonferroni"),
                        evallib.format_pairwise, "alpha"),
    "plot_pair_intervals": (lambda: evallib.pairwise_comparison(_predictions(), adjust="bonferroni"),
                            _plot(evallib.plot_pair_intervals), "alpha"),
    "format_balanced_pairs": (lambda: evallib.balanced_accuracy_comparison(_predictions(), adjust="none"),
                              evallib.format_balanced_pairs, "alpha"),
    "format_measures": (lambda: evallib.classifier_measures(_predictions(), alpha=0.1),
                        evallib.format_measures, "alpha"),
    "format_item_means": (lambda: items_sections.model_means(_items(), alpha=0.1),
                          items_sections.format_item_means, "alpha"),
    "plot_item_means": (lambda: items_sections.model_means(_items(), alpha=0.1),
                        _plot(items_sections.plot_item_means), "alpha"),
    "format_item_pairs": (lambda: items_sections.pairwise_items(_items(), adjust="bh"),
                          items_sections.format_item_pairs, "alpha"),
}


@pytest.mark.parametrize("name", sorted(NEEDS_ATTRS))
def test_a_table_read_back_from_csv_is_refused(name, tmp_path):
    make, consumer, key = NEEDS_ATTRS[name]
    table = make()
    consumer(table)
    with pytest.raises(ValueError, match=rf"no .*'{key}'.* in \.attrs \(a table read back from CSV"):
        consumer(_reloaded(table, tmp_path))


def test_table_metadata_names_what_is_missing():
    from evallib._results import table_metadata

    table = pd.DataFrame({"p": [0.5]})
    table.attrs.update(alpha=0.1)
    assert table_metadata(table, "alpha", made_by="f") == 0.1
    with pytest.raises(ValueError, match=r"no 'adjust' in \.attrs.*pass the table f returned"):
        table_metadata(table, "alpha", "adjust", made_by="f")
    with pytest.raises(TypeError, match="DataFrame from f"):
        table_metadata([1, 2], "alpha", made_by="f")
