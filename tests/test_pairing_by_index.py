"""Every public function that pairs inputs case by case (item by item, fold by fold, data set by
data set) pairs pandas inputs by their index (evallib._validate.align_items).

For each function: a shuffled Series (or DataFrame) with the same labels gives the result of the
ordered one; the same shuffled values passed by position give another result (so the check can
fail: without the alignment the shuffle would pair other cases); and a label set that differs is
a ValueError naming the argument.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

import evallib
from evallib.resampling import paired_scores

N = 60
RNG = np.random.default_rng(20240533)
IDS = pd.Index([f"case{i:02d}" for i in range(N)])
Y = RNG.integers(0, 2, N)
PA = np.where(RNG.random(N) < 0.8, Y, 1 - Y)
PB = np.where(RNG.random(N) < 0.65, Y, 1 - Y)
SA = np.round(Y * 0.8 + RNG.random(N), 3)
SB = np.round(Y * 0.4 + RNG.random(N), 3)
Y3 = RNG.integers(0, 3, N)
P3A = np.where(RNG.random(N) < 0.75, Y3, (Y3 + 1) % 3)
P3B = np.where(RNG.random(N) < 0.55, Y3, (Y3 + 2) % 3)
CASES = np.repeat(np.arange(N // 2), 2)                 # two rows (predictions) per case
FOLD_A = np.round(0.80 + 0.05 * RNG.standard_normal(10), 4)
FOLD_B = np.round(FOLD_A - 0.02 + 0.03 * RNG.standard_normal(10), 4)
SETS_A = np.round(0.75 + 0.1 * RNG.random(12), 4)
SETS_B = np.round(SETS_A + 0.02 * RNG.standard_normal(12), 4)
N_SAMPLES = RNG.integers(3, 9, N)
C_CORRECT = np.minimum(N_SAMPLES, RNG.integers(0, 9, N))
GROUPS = np.repeat(np.arange(N // 5), 5)
ITEM_A = (RNG.random(N) < 0.8).astype(float)
ITEM_B = np.where(RNG.random(N) < 0.85, ITEM_A, 1 - ITEM_A)     # paired: mostly the same answers
Y_CASE = np.repeat(Y[:N // 2], 2)                        # one class per case, on both of its rows


def s(values, ids=None):
    ids = IDS[:len(values)] if ids is None else ids
    return pd.Series(np.asarray(values), index=ids)


def frame(columns, ids=None):
    first = next(iter(columns.values()))
    ids = IDS[:len(first)] if ids is None else ids
    return pd.DataFrame({k: np.asarray(v) for k, v in columns.items()}, index=ids)


def numbers(result):
    """The numeric content of a result (dataclass, table, tuple, array) as one float vector."""
    if isinstance(result, pd.DataFrame):
        return np.concatenate([pd.to_numeric(result[c], errors="coerce").to_numpy(dtype=float)
                               for c in result.columns if result[c].dtype != object])
    if dataclasses.is_dataclass(result):
        out = []
        for f in dataclasses.fields(result):
            v = getattr(result, f.name)
            if isinstance(v, (bool, np.bool_, str)) or v is None:
                continue
            try:
                out.append(np.ravel(np.asarray(v, dtype=float)))
            except (TypeError, ValueError):
                continue
        return np.concatenate(out)
    if isinstance(result, tuple):
        return np.concatenate([np.ravel(np.asarray(r, dtype=float)) for r in result])
    return np.ravel(np.asarray(result, dtype=float))


def five_by_two(values):
    return pd.DataFrame(np.asarray(values).reshape(5, 2), index=[f"rep{i}" for i in range(5)], columns=["f1", "f2"])


# name: (function of the inputs, {argument: pandas value}, the argument to shuffle)
CASES_TABLE = {
    "contingency": (lambda y_true, pred_a, pred_b: dataclasses.astuple(evallib.contingency(y_true, pred_a, pred_b)),
                    {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_b"),
    "compare_pairwise": (lambda y_true, predictions: evallib.compare_pairwise(y_true, predictions),
                         {"y_true": s(Y), "predictions": {"A": s(PA), "B": s(PB)}}, "predictions['B']"),
    "disagreement_test": (evallib.disagreement_test, {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_b"),
    "dcf_test": (evallib.dcf_test, {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_a"),
    "joint_events": (evallib.joint_events, {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_b"),
    "bootstrap_f1_difference": (
        lambda **kw: evallib.bootstrap_f1_difference(**kw, n_resamples=300, rng=1),
        {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_b"),
    "bootstrap_dcf_difference": (
        lambda **kw: evallib.bootstrap_dcf_difference(**kw, n_resamples=300, rng=1),
        {"y_true": s(Y), "pred_a": s(PA), "pred_b": s(PB)}, "pred_b"),
    "joint_table": (lambda **kw: evallib.joint_table(**kw)[1], {"y_true": s(Y3), "pred_a": s(P3A), "pred_b": s(P3B)},
                    "pred_a"),
    "bootstrap_macro_f1_difference": (
        lambda **kw: evallib.bootstrap_macro_f1_difference(**kw, n_resamples=300, rng=1),
        {"y_true": s(Y3), "pred_a": s(P3A), "pred_b": s(P3B)}, "pred_b"),
    "cohen_kappa": (evallib.cohen_kappa, {"y1": s(P3A), "y2": s(P3B)}, "y2"),
    "cochran_q_predictions": (evallib.cochran_q_predictions,
                              {"y_true": s(Y), "preds": frame({"A": PA, "B": PB, "C": 1 - PB})}, "preds"),
    "delong_test": (evallib.delong_test, {"y_true": s(Y), "score_a": s(SA), "score_b": s(SB)}, "score_b"),
    "delong_pairwise": (evallib.delong_pairwise, {"y_true": s(Y), "scores": frame({"A": SA, "B": SB})}, "scores"),
    "loss_test": (evallib.loss_test, {"y_true": s(Y), "prob_a": s(SA / 2), "prob_b": s(SB / 2)}, "prob_b"),
    "auc_cases": (evallib.auc_cases, {"y_true": s(Y_CASE), "score": s(SA), "cases": s(CASES)}, "score"),
    "delong_cases": (evallib.delong_cases, {"y_true": s(Y_CASE), "scores": frame({"A": SA, "B": SB}), "cases": s(CASES)},
                     "cases"),
    "bootstrap_f1_cases": (
        lambda **kw: evallib.bootstrap_f1_cases(**kw, n_resamples=300, rng=1),
        {"y_true": s(Y_CASE), "pred_a": s(PA), "pred_b": s(PB), "cases": s(CASES)}, "pred_b"),
    "cochran_q_cases": (evallib.cochran_q_cases,
                        {"correct": frame({"A": PA == Y, "B": PB == Y, "C": PB != Y}), "cases": s(CASES)}, "cases"),
    "cv_ttest": (evallib.cv_ttest, {"scores_1": s(FOLD_A), "scores_2": s(FOLD_B)}, "scores_2"),
    "corrected_resampled_ttest": (lambda **kw: evallib.corrected_resampled_ttest(**kw, test_train_ratio=0.25),
                                  {"scores_1": s(FOLD_A), "scores_2": s(FOLD_B)}, "scores_2"),
    "dietterich_5x2cv": (evallib.dietterich_5x2cv,
                         {"scores_1": five_by_two(FOLD_A), "scores_2": five_by_two(FOLD_B)}, "scores_2"),
    "combined_5x2cv_ftest": (evallib.combined_5x2cv_ftest,
                             {"scores_1": five_by_two(FOLD_A), "scores_2": five_by_two(FOLD_B)}, "scores_2"),
    "bayesian_correlated_ttest": (lambda **kw: evallib.bayesian_correlated_ttest(**kw, test_train_ratio=0.25),
                                  {"x": s(FOLD_A), "y": s(FOLD_B)}, "y"),
    "bayesian_signed_rank": (lambda **kw: evallib.bayesian_signed_rank(**kw, n_resamples=2000, rng=1),
                             {"x": s(SETS_A), "y": s(SETS_B)}, "y"),
    "bayesian_sign_test": (lambda **kw: evallib.bayesian_sign_test(**kw, n_resamples=2000, rng=1),
                           {"x": s(SETS_A), "y": s(SETS_B)}, "y"),
    "pass_at_k": (lambda **kw: evallib.pass_at_k(**kw, k=2), {"n": s(N_SAMPLES), "c": s(C_CORRECT),
                                                              "clusters": s(GROUPS)}, "c"),
    "paired_item_margin_test": (lambda **kw: evallib.paired_item_margin_test(**kw, margin=0.1),
                                {"a": s(ITEM_A), "b": s(ITEM_B)}, "b"),
}


def _shuffle(value, seed=7):
    return value.sample(frac=1, random_state=seed)


def _with(inputs, target, transform):
    out = dict(inputs)
    if "[" in target:                                   # a column of a mapping argument
        arg, key = target.split("[")
        key = key.strip("]'")
        out[arg] = {**out[arg], key: transform(out[arg][key])}
    else:
        out[target] = transform(out[target])
    return out


@pytest.mark.parametrize("name", sorted(CASES_TABLE))
def test_a_shuffled_pandas_input_with_the_same_labels_gives_the_ordered_result(name):
    func, inputs, target = CASES_TABLE[name]
    ordered = numbers(func(**inputs))
    shuffled = numbers(func(**_with(inputs, target, _shuffle)))
    np.testing.assert_allclose(shuffled, ordered, rtol=1e-12, atol=0, equal_nan=True)
    # the same values by position pair other cases: another result (or a refusal, when the
    # mispaired rows contradict each other), so the check above can fail
    plain = {k: (v.to_numpy() if isinstance(v, (pd.Series, pd.DataFrame)) else v) for k, v in inputs.items()
             if k != target.split("[")[0]}
    try:
        positional = numbers(func(**_with(inputs, target, lambda v: _shuffle(v).to_numpy()) | plain))
    except ValueError:
        return
    assert positional.shape != ordered.shape or not np.allclose(positional, ordered, equal_nan=True)


def _relabel(value):
    index = value.index.tolist()
    index[3] = "not-a-case"
    return value.set_axis(index, axis=0)


@pytest.mark.parametrize("name", sorted(CASES_TABLE))
def test_pandas_inputs_with_different_labels_are_refused_naming_the_argument(name):
    func, inputs, target = CASES_TABLE[name]
    with pytest.raises(ValueError, match="^" + re.escape(target) + " (lacks 1 of|scores 1 items)"):
        func(**_with(inputs, target, _relabel))


def test_hierarchical_test_pairs_data_sets_by_index():
    x = pd.DataFrame(np.round(0.8 + 0.05 * RNG.random((6, 4)), 4), index=[f"set{i}" for i in range(6)])
    y = x - 0.01 + pd.DataFrame(np.round(0.02 * RNG.standard_normal((6, 4)), 4), index=x.index)
    kw = dict(n_resamples=200, chains=1, burn_in=100, rng=3)
    ordered = evallib.hierarchical_test(x, y, **kw)
    shuffled = evallib.hierarchical_test(x, _shuffle(y), **kw)
    np.testing.assert_allclose(numbers(shuffled), numbers(ordered), rtol=1e-12)
    with pytest.raises(ValueError, match=r"^y lacks 1 of the 6 items scored by x"):
        evallib.hierarchical_test(x, _relabel(y), **kw)


def test_paired_scores_pairs_folds_by_repeat_and_fold():
    """paired_scores pairs the long table's rows by (repeat, fold), whatever their order."""
    table = pd.DataFrame({"learner": ["a"] * 10 + ["b"] * 10, "repeat": np.tile(np.repeat([0, 1], 5), 2),
                          "fold": np.tile(np.arange(5), 4), "score": np.concatenate([FOLD_A, FOLD_B])})
    ordered = paired_scores(table, "a", "b")
    shuffled = paired_scores(_shuffle(table), "a", "b")
    np.testing.assert_array_equal(np.asarray(shuffled), np.asarray(ordered))
    np.testing.assert_array_equal(ordered[1], FOLD_B)
    with pytest.raises(ValueError, match=r"^learner_1 = 'a' and learner_2 = 'b' were not scored on the same"):
        paired_scores(table.drop(index=12), "a", "b")
