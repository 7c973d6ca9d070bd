"""Tests of evallib.textsim: the synthetic task, the learners and the section 5 studies.

Independent references: numpy's corrcoef and f1 via scikit-learn for the summary
figures, index subsampling of an explicit Dtrue for the multinomial shortcut (a
seeded two-sample test), and the analytic behaviour of the percentile test under
a tie (the stated confidence in the observed winner is then about uniform on
[0.5, 1], mean 0.75, while the frequency on Dtrue is 0.5).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score

from evallib import bizarre as bz
from evallib import textsim as ts

SMALL = dict(n_train=1500, n_pool=3000, n_true=6000, seed=1)


def _hand_experiment(probs, n_pool=20_000, n_true=400_000, seed=0):
    """An Experiment with known event probabilities (no learners involved)."""
    rng = np.random.default_rng(seed)
    probs = np.asarray(probs, float) / np.sum(probs)
    codes = rng.choice(8, n_pool, p=probs)
    y = (codes < 4).astype(np.int8)
    a = np.isin(codes, (0, 2, 4, 6)).astype(np.int8)
    b = np.isin(codes, (0, 1, 4, 5)).astype(np.int8)
    return ts.Experiment(population=ts.TextPopulation(ts.SETTINGS["Y"]), n_train=0, y_pool=y,
                         pred_a_pool=a, pred_b_pool=b, true_events=rng.multinomial(n_true, probs), seed=seed)


# --------------------------------------------------------------- population
def test_population_prior_noise_and_reproducibility():
    pop = ts.TextPopulation(ts.SETTINGS["X"], prior_pos=0.3, label_noise=0.0)
    X, y = pop.sample(20_000, np.random.default_rng(0))
    assert X.shape == (20_000, pop.vocab_size)
    assert y.mean() == pytest.approx(0.3, abs=0.015)              # 4.6 standard errors
    lengths = np.asarray(X.sum(axis=1)).ravel()
    assert lengths.min() >= 5 and lengths.mean() == pytest.approx(pop.mean_length, rel=0.02)
    X2, y2 = pop.sample(20_000, np.random.default_rng(0))
    assert np.array_equal(y, y2) and (X != X2).nnz == 0
    # label noise flips labels whatever the words: the positive share moves towards 1/2
    noisy = ts.TextPopulation(ts.SETTINGS["X"], prior_pos=0.3, label_noise=0.2)
    _, yn = noisy.sample(20_000, np.random.default_rng(0))
    assert yn.mean() == pytest.approx(0.3 * 0.8 + 0.7 * 0.2, abs=0.015)


@pytest.mark.parametrize("kw,match", [
    (dict(prior_pos=0.0), "prior_pos"),
    (dict(prior_pos=1.2), "prior_pos"),
    (dict(label_noise=0.5), "label_noise"),
    (dict(vocab_size=10), "vocab_size"),
])
def test_population_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        ts.TextPopulation(ts.SETTINGS["X"], **kw)


def test_learners_learn_and_kernel_wins_on_conjunctions():
    """With many negatives mixing both sub-topics, only the kernel SVM can reject them."""
    setting = ts.TextSetting("X", "strong conjunction", 40, 0.35, 0.3)
    pop = ts.TextPopulation(setting, prior_pos=0.3, label_noise=0.0)
    rng = np.random.default_rng(0)
    X, y = pop.sample(3000, rng)
    learners = ts.fit_learners(X, y)
    Xt, yt = pop.sample(5000, rng)
    a, b = learners.predict(Xt)
    assert set(np.unique(a)) <= {0, 1} and set(np.unique(b)) <= {0, 1}
    assert f1_score(yt, b) > f1_score(yt, a) + 0.05
    assert f1_score(yt, a) > 0.3           # far better than guessing at a 30% prior


def test_fit_learners_needs_both_classes():
    pop = ts.TextPopulation(ts.SETTINGS["X"])
    X, _ = pop.sample(50, np.random.default_rng(0))
    with pytest.raises(ValueError, match="both classes"):
        ts.fit_learners(X, np.zeros(50))


# --------------------------------------------------------------- experiment
def test_build_experiment_is_cached_and_consistent():
    e1 = ts.build_experiment("Z", **SMALL)
    e2 = ts.build_experiment("Z", **SMALL)
    assert e1 is e2                                   # the cache: no refit
    assert e1.n_true == SMALL["n_true"] and e1.y_pool.size == SMALL["n_pool"]
    y, a, b = e1.test_set(500)
    assert np.array_equal(y, e1.y_pool[:500])
    assert np.array_equal(np.bincount(e1.pool_codes, minlength=8), bz.joint_events(e1.y_pool, e1.pred_a_pool, e1.pred_b_pool))
    f1a, f1b = e1.true_f1
    assert 0 < f1a < 1 and 0 < f1b < 1
    with pytest.raises(ValueError, match="n_test"):
        e1.test_set(SMALL["n_pool"] + 1)


@pytest.mark.parametrize("kw,err", [
    (dict(setting="W"), ValueError),
    (dict(prior_pos=1.5), ValueError),
    (dict(prior_pos="0.2"), TypeError),
    (dict(label_noise=-0.1), ValueError),
    (dict(n_train=5), ValueError),
])
def test_build_experiment_bad_input(kw, err):
    args = dict(SMALL, **kw)
    setting = args.pop("setting", "X")
    with pytest.raises(err):
        ts.build_experiment(setting, **args)


def test_mistake_correlation_matches_corrcoef():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 3000)
    shared = rng.random(3000) < 0.1
    a = np.where(shared | (rng.random(3000) < 0.1), 1 - y, y)
    b = np.where(shared | (rng.random(3000) < 0.15), 1 - y, y)
    expected = np.corrcoef(a != y, b != y)[0, 1]
    assert ts.mistake_correlation(bz.joint_events(y, a, b)) == pytest.approx(expected)


def test_dtrue_subsamples_equal_index_subsampling_in_distribution():
    exp = _hand_experiment([30, 4, 6, 10, 3, 5, 4, 138], n_true=50_000)
    codes = np.repeat(np.arange(8), exp.true_events)           # the explicit Dtrue
    rng = np.random.default_rng(0)
    multi = ts.dtrue_replicates(exp, 1000, 3000, rng)
    idx = rng.integers(0, codes.size, size=(3000, 1000))
    index = bz.f1_difference(np.stack([np.bincount(row, minlength=8) for row in codes[idx]]))
    assert stats.ks_2samp(multi, index).pvalue > 0.01


# --------------------------------------------------------------- section 5
def test_run_setting_and_table3():
    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138])        # B better: more TP, fewer FP
    run = ts.run_setting(exp, n_test=2000, reps=2000, n_subsamples=500, seed=0)
    y, a, b = exp.test_set(2000)
    assert run.bootstrap.observed == pytest.approx(f1_score(y, b) - f1_score(y, a))
    assert run.dtrue_frequency == pytest.approx(np.mean(run.truth > 0) if run.bootstrap.winner == "B"
                                                else np.mean(run.truth < 0))
    t = ts.table3([run])
    assert list(t.columns[:4]) == ["experiment", "bootstrap confidence", "direction", "percentage on Dtrue"]
    assert t.loc[0, "direction"] == "F1*B > F1*A"
    assert t.loc[0, "dF1 on Dtrue"] == pytest.approx(bz.f1_difference(exp.true_events))


def test_calibration_under_a_tie_shows_the_overconfidence():
    """A and B symmetric (e2 ~ e3, e6 ~ e7): on Dtrue each wins half the time, while the
    stated confidence in the observed winner is about uniform on [0.5, 1] (mean 0.75).
    Monte Carlo tolerances: 0.05 on means of 150 repetitions."""
    exp = _hand_experiment([30, 5, 5, 10, 3, 5, 5, 137], n_true=2_000_000)
    # make the tie exact in the "truth"
    ev = exp.true_events.copy(); ev[1] = ev[2]; ev[5] = ev[6]
    exp = ts.Experiment(exp.population, 0, exp.y_pool, exp.pred_a_pool, exp.pred_b_pool, ev, 0)
    study = ts.calibration_study([exp], test_sizes=(1000,), repetitions=150, reps=1000, seed=2)
    assert len(study) == 150
    summary = ts.calibration_summary(study)
    assert summary.loc[0, "on Dtrue"] == pytest.approx(0.5, abs=0.05)
    assert summary.loc[0, "stated"] == pytest.approx(0.75, abs=0.05)
    assert summary.loc[0, "gap"] == pytest.approx(summary.loc[0, "stated"] - summary.loc[0, "on Dtrue"])
    bins = ts.calibration_bins(study)
    assert bins["count"].sum() == 150


def test_calibration_with_a_clear_winner_is_confident_and_right():
    exp = _hand_experiment([30, 12, 2, 10, 3, 2, 8, 133])
    study = ts.calibration_study([exp], test_sizes=(2000,), repetitions=30, reps=1000, seed=0)
    assert study["correct"].all() and study["significant"].all()
    assert study["confidence"].min() > 0.99 and study["dtrue_frequency"].min() > 0.99


@pytest.mark.parametrize("kw,match", [
    (dict(repetitions=0), "repetitions"),
    (dict(test_sizes=()), "test_sizes"),
    (dict(test_sizes=(50_000,)), "pool size"),
    (dict(alpha=0.0), "alpha"),
])
def test_calibration_bad_input(kw, match):
    exp = _hand_experiment([30, 5, 5, 10, 3, 5, 5, 137], n_pool=2000, n_true=10_000)
    with pytest.raises(ValueError, match=match):
        ts.calibration_study([exp], **kw)


def test_calibration_bins_bad_edges():
    with pytest.raises(ValueError, match="edges"):
        ts.calibration_bins(pd.DataFrame({"confidence": [0.6]}), edges=(0.9, 0.5))


def test_dcf_comparison_eq9_and_bootstrap_track_the_truth():
    # B errs on a subset of A's errors mostly: positively correlated mistakes, so the
    # independent eq. (8) overstates the spread and eq. (9) / the bootstrap do not.
    exp = _hand_experiment([40, 2, 1, 8, 4, 1, 2, 142], n_pool=8000, n_true=1_000_000)
    table = ts.dcf_comparison(exp, n_test=8000, reps=4000, n_subsamples=2000, seed=0).set_index("method")
    truth = table.loc["Dtrue subsamples (truth)", "sd"]
    assert table.loc["independent, eq. (8)", "sd"] > 1.5 * truth
    assert table.loc["bootstrap (stratified)", "sd"] == pytest.approx(truth, rel=0.15)
    assert table.loc["paired, eq. (9)", "sd"] == pytest.approx(truth, rel=0.25)
    assert table.loc["paired, eq. (9)", "difference"] == table.loc["independent, eq. (8)", "difference"]


def test_plots_return_axes():
    import matplotlib.pyplot as plt

    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138], n_pool=3000, n_true=50_000)
    run = ts.run_setting(exp, n_test=1000, reps=500, n_subsamples=200, seed=0)
    ax = ts.plot_replicates(run)
    assert ax.get_xlabel().startswith("dF1")
    study = ts.calibration_study([exp], test_sizes=(300, 1000), repetitions=10, reps=300, seed=0)
    fig, ax2 = plt.subplots()
    assert ts.plot_calibration(study, ax=ax2) is ax2
    assert len(ax2.get_lines()) == 3
    plt.close("all")


def test_paper_constants():
    assert ts.PAPER_SIZES["n_true"] == 790_900 and ts.PAPER_SIZES["n_test"] == 7909
    assert ts.PAPER_TABLE3["bootstrap confidence"].tolist() == [0.956, 0.542, 0.965]
