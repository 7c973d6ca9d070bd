"""Tests of evallib.onetestset._multiclass against independent references.

References: scikit-learn's accuracy_score, balanced_accuracy_score, f1_score,
precision_recall_fscore_support and confusion_matrix; statsmodels' Wilson interval;
Flach's printed Examples 12.1-12.2 (in the doctests); and, for the multinomial
bootstrap of the macro-F1 difference, a bootstrap written here that resamples the cases
themselves, compared with a stated Monte Carlo tolerance.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    confusion_matrix,
    f1_score,
    precision_recall_fscore_support,
)
from statsmodels.stats.proportion import proportion_confint

from evallib.onetestset import _multiclass as mc


def _task(n, k, rng, acc_a=0.7, acc_b=0.6):
    y = rng.choice(k, n, p=np.arange(1, k + 1) / (k * (k + 1) / 2))
    shared = rng.random(n) < 0.15  # cases both get wrong the same way
    noise = rng.integers(0, k, n)
    a = np.where(shared, noise, np.where(rng.random(n) < acc_a, y, rng.integers(0, k, n)))
    b = np.where(shared, noise, np.where(rng.random(n) < acc_b, y, rng.integers(0, k, n)))
    return y, a, b


@pytest.mark.parametrize("k, seed", [(2, 0), (3, 1), (6, 2)])
def test_measures_match_scikit_learn(k, seed):
    rng = np.random.default_rng(seed)
    y, a, _ = _task(400, k, rng)
    names = np.array(["cat", "dog", "eel", "fox", "gnu", "hen"])[:k]
    ys, as_ = names[y], names[a]
    m = mc.multiclass_measures(ys, as_, alpha=0.1)
    assert m.accuracy == pytest.approx(accuracy_score(ys, as_), abs=1e-15)
    assert m.balanced_accuracy == pytest.approx(balanced_accuracy_score(ys, as_), rel=1e-12)
    assert m.macro_f1 == pytest.approx(f1_score(ys, as_, average="macro", zero_division=0), rel=1e-12)
    low, high = proportion_confint(int((ys == as_).sum()), 400, alpha=0.1, method="wilson")
    assert (m.low, m.high) == pytest.approx((low, high), rel=1e-12)
    assert m.majority_accuracy == pytest.approx(np.bincount(y).max() / 400)
    table = mc.per_class_table(ys, as_)
    p, r, f, s = precision_recall_fscore_support(ys, as_, zero_division=0)
    np.testing.assert_allclose(table["precision"], p, rtol=1e-12)
    np.testing.assert_allclose(table["recall"], r, rtol=1e-12)
    np.testing.assert_allclose(table["f1"], f, rtol=1e-12)
    np.testing.assert_array_equal(table["support"], s)
    assert list(table["label"]) == sorted(set(ys) | set(as_))


@pytest.mark.filterwarnings("ignore:y_pred contains classes not in y_true")
def test_class_never_predicted_and_class_never_true():
    y = [0, 0, 1, 1, 2, 2]
    pred = [0, 0, 0, 1, 3, 3]  # class 2 never predicted, class 3 never true
    m = mc.multiclass_measures(y, pred)
    assert m.macro_f1 == pytest.approx(f1_score(y, pred, average="macro", zero_division=0))
    assert m.balanced_accuracy == pytest.approx(balanced_accuracy_score(y, pred))
    np.testing.assert_array_equal(mc.confusion_counts(*mc.encode_labels(y, pred)[1], 4),
                                  confusion_matrix(y, pred, labels=[0, 1, 2, 3]))


def test_joint_table_counts_a_direct_loop():
    rng = np.random.default_rng(3)
    y, a, b = _task(300, 4, rng)
    labs, counts = mc.joint_table(y, a, b)
    direct = np.zeros((4, 4, 4), int)
    for t, i, j in zip(y, a, b):
        direct[t, i, j] += 1
    np.testing.assert_array_equal(counts, direct)
    assert labs.tolist() == [0, 1, 2, 3]


def _case_bootstrap(y, a, b, k, reps, rng):
    """Resample the cases; macro-F1 from scikit-learn-free bincounts."""
    n = len(y)
    out = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(0, n, n)
        fs = []
        for p in (a, b):
            conf = np.bincount(y[idx] * k + p[idx], minlength=k * k).reshape(k, k)
            tp = np.diag(conf)
            den = conf.sum(0) + conf.sum(1)
            fs.append(np.mean(np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0)))
        out[r] = fs[0] - fs[1]
    return out


def test_multinomial_bootstrap_matches_case_resampling():
    # Both bootstraps draw from the same distribution. With 4000 replicates each, the
    # standard error of a replicate mean is sd/sqrt(4000) (about 1.6% of sd), of the sd
    # about 1.1% and of a 2.5% quantile about 3.5% of sd; tolerances: means within
    # 0.1 sd, sds within 8%, quantiles within 0.2 sd (each over 4 combined errors).
    rng = np.random.default_rng(4)
    k = 4
    y, a, b = _task(500, k, rng)
    res = mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=4000, rng=5, alpha=0.05)
    ref = _case_bootstrap(y, a, b, k, 4000, np.random.default_rng(6))
    sd = ref.std(ddof=1)
    assert res.estimate == pytest.approx(f1_score(y, a, average="macro") - f1_score(y, b, average="macro"),
                                         abs=1e-12)
    assert res.replicates.mean() == pytest.approx(ref.mean(), abs=0.1 * sd)
    assert res.replicates.std(ddof=1) == pytest.approx(sd, rel=0.08)
    lo, hi = np.quantile(ref, [0.025, 0.975])
    assert res.low == pytest.approx(lo, abs=0.2 * sd)
    assert res.high == pytest.approx(hi, abs=0.2 * sd)
    assert res.share_a_better == pytest.approx(np.mean(ref > 0), abs=0.04)
    assert res.cells <= k ** 3 and res.n == 500


def _brute_multinomial_bootstrap(y, a, b, labels, n_resamples, seed):
    """The multinomial bootstrap written out by hand, one replicate at a time: the cells
    (true class, prediction of A, prediction of B) that occur, in lexicographic order of
    their label positions; each replicate one Multinomial(n, cell counts / n) draw of a
    Generator seeded ``seed``; each classifier's confusion table filled by a loop over
    the cells and macro-F1 as the plain mean over the classes of ``2 TP / (support +
    predicted)`` (0 for 0/0), averaged by numpy's mean. The same draws and the same floating-point operations as
    the library's vectorised sparse version, so the values must agree exactly."""
    pos = {c: i for i, c in enumerate(labels)}
    k = len(labels)
    tally = {}
    for t, i, j in zip(y, a, b):
        key = (pos[t], pos[i], pos[j])
        tally[key] = tally.get(key, 0) + 1
    cells = sorted(tally)
    n = len(y)
    counts = np.array([tally[c] for c in cells], dtype=float)

    def macro_f1(weights, which):
        conf = [[0.0] * k for _ in range(k)]
        for (t, i, j), w in zip(cells, weights):
            conf[t][(i, j)[which]] += w
        f1 = []
        for c in range(k):
            den = sum(conf[c]) + sum(conf[r][c] for r in range(k))
            f1.append(2.0 * conf[c][c] / den if den > 0 else 0.0)
        return float(np.mean(f1))

    gen = np.random.default_rng(seed)
    reps = []
    for _ in range(n_resamples):
        w = gen.multinomial(n, counts / counts.sum()).astype(float)
        d = macro_f1(w, 0) - macro_f1(w, 1)
        reps.append(0.0 if abs(d) < 1e-12 else d)
    return macro_f1(counts, 0), macro_f1(counts, 1), np.array(reps)


@pytest.mark.parametrize("k, n, labels", [(3, 40, None), (5, 300, ["c0", "c1", "c2", "c3", "c4", "c5"])])
def test_bootstrap_values_are_the_hand_written_multinomial_bootstraps(k, n, labels):
    # Exact equality: the shared resampling core (evallib._f1bootstrap) must keep the draws
    # and the arithmetic of the bootstrap it replaced.
    rng = np.random.default_rng(k)
    y, a, b = _task(n, k, rng)
    names = np.array([f"c{i}" for i in range(k)])
    y, a, b = names[y], names[a], names[b]
    res = mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=700, rng=9, alpha=0.1, labels=labels)
    f_a, f_b, reps = _brute_multinomial_bootstrap(y, a, b, labels or sorted(set(y) | set(a) | set(b)), 700, 9)
    assert (res.f1_a, res.f1_b) == (f_a, f_b)
    np.testing.assert_array_equal(res.replicates, reps)
    assert (res.low, res.high) == tuple(np.quantile(reps, [0.05, 0.95]))
    assert (res.share_a_better, res.share_tied) == (np.mean(reps > 0), np.mean(reps == 0))
    assert res.estimate == f_a - f_b and res.n == n


def test_old_field_name_difference_reads_estimate_with_a_warning():
    res = mc.bootstrap_macro_f1_difference([0, 1, 2, 2, 1], [0, 1, 2, 1, 1], [0, 2, 2, 2, 0], n_resamples=20, rng=0)
    with pytest.warns(DeprecationWarning, match=r"MacroF1Bootstrap\.difference is deprecated.*use \.estimate"):
        assert res.difference == res.estimate


def test_bootstrap_is_reproducible_and_rng_is_checked():
    rng = np.random.default_rng(7)
    y, a, b = _task(200, 3, rng)
    r1 = mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=300, rng=11)
    r2 = mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=300, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(r1.replicates, r2.replicates)
    with pytest.raises(TypeError, match="rng"):
        mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=10, rng=1.5)
    with pytest.raises(ValueError, match="n_resamples"):
        mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=0)


def test_identical_predictions_give_a_point_interval():
    res = mc.bootstrap_macro_f1_difference([0, 1, 2, 1, 0], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], n_resamples=200, rng=0)
    assert (res.estimate, res.low, res.high, res.share_tied) == (0.0, 0.0, 0.0, 1.0)
    assert not res.excludes_zero


@pytest.mark.parametrize("args, match", [
    (([0, 1, 2], [0, 1]), "pred must hold one label per case"),
    (([0, 1, None], [0, 1, 2]), "y_true must not contain NaN"),
    (([[0, 1]], [[0, 1]]), "one-dimensional"),
])
def test_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        mc.multiclass_measures(*args)


def test_labels_argument():
    with pytest.raises(ValueError, match="not in labels"):
        mc.multiclass_measures([0, 1, 2], [0, 1, 2], labels=[0, 1])
    m = mc.multiclass_measures([0, 1, 1], [0, 1, 0], labels=[0, 1, 2])
    assert m.macro_f1 == pytest.approx(f1_score([0, 1, 1], [0, 1, 0], labels=[0, 1, 2], average="macro",
                                                zero_division=0))


def test_plot_confusion_matrix():
    import matplotlib.pyplot as plt

    y = ["a", "b", "c", "a", "b"]
    pred = ["a", "c", "c", "a", "b"]
    ax = mc.plot_confusion_matrix(y, pred)
    np.testing.assert_array_equal(ax.get_images()[0].get_array(), confusion_matrix(y, pred))
    fig, ax2 = plt.subplots()
    assert mc.plot_confusion_matrix(y, pred, normalize="true", ax=ax2) is ax2
    with pytest.raises(ValueError, match="normalize"):
        mc.plot_confusion_matrix(y, pred, normalize="all")
    plt.close("all")


def test_multiclass_table_with_majority_baseline():
    rng = np.random.default_rng(8)
    y, a, b = _task(300, 3, rng)
    bad = np.full_like(y, 0)  # always the rarest class
    table = mc.multiclass_table(y, {"A": a, "B": b, "bad": bad}, alpha=0.05)
    assert list(table["name"]) == ["majority class", "A", "B", "bad"]
    majority = np.full_like(y, np.bincount(y).argmax())
    assert table["accuracy"][0] == pytest.approx(accuracy_score(y, majority))
    assert table["macro_f1"][0] == pytest.approx(f1_score(y, majority, labels=[0, 1, 2], average="macro",
                                                          zero_division=0))
    assert table["balanced_accuracy"][1] == pytest.approx(balanced_accuracy_score(y, a))
    assert table["below_baseline"].tolist() == [False, False, False, True]
    text = mc.format_multiclass_table(table)
    assert text.loc["bad", "note"] == "below the majority-class baseline"
    assert text.loc["A", "accuracy"] == f"{accuracy_score(y, a):.3f}"
    m = mc.multiclass_measures(y, a)
    assert f"{m.accuracy:.3f}" in m.text() and "Wilson" in m.text()
    res = mc.bootstrap_macro_f1_difference(y, a, b, n_resamples=200, rng=1)
    assert res.text("A", "B").startswith("macro-F1 of A: ")
    same = mc.bootstrap_macro_f1_difference(y, a, a, n_resamples=20, rng=1)
    assert "exactly 0" in same.text()
