"""Tests of evallib.studies._textsim: the synthetic task, the learners and the section 5 studies.

Independent references: numpy's corrcoef and f1 via scikit-learn for the summary
figures, index subsampling of an explicit Dtrue for the multinomial shortcut (a
seeded two-sample test), and the analytic behaviour of the percentile test under
a tie (the stated confidence in the observed winner is then about uniform on
[0.5, 1], mean 0.75, while the frequency on Dtrue is 0.5).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score

from evallib.onetestset import _bizarre as bz
from evallib.studies import _textsim as ts

SMALL = dict(n_train=1500, n_pool=3000, n_true=6000, rng=1)


def _arguments(sizes: dict) -> dict:
    """build_experiment's keyword arguments for a dict shaped as GRID_SIZES (whose seed is rng)."""
    return {("rng" if k == "seed" else k): v for k, v in sizes.items()}


def _hand_experiment(probs, n_pool=20_000, n_true=400_000, seed=0):
    """An Experiment with known event probabilities (no learners involved)."""
    rng = np.random.default_rng(seed)
    probs = np.asarray(probs, float) / np.sum(probs)
    codes = rng.choice(8, n_pool, p=probs)
    y = (codes < 4).astype(np.int8)
    a = np.isin(codes, (0, 2, 4, 6)).astype(np.int8)
    b = np.isin(codes, (0, 1, 4, 5)).astype(np.int8)
    return ts.Experiment(population=ts.TextPopulation(ts.SETTINGS["Y"]), n_train=0, y_pool=y,
                         pred_a_pool=a, pred_b_pool=b, true_events=rng.multinomial(n_true, probs), rng=seed)


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
    learners = ts.fit_learners(X, y, rng=0)
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
    run = ts.run_setting(exp, n_test=2000, n_resamples=2000, n_subsamples=500, rng=0)
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
    study = ts.calibration_study([exp], test_sizes=(1000,), repetitions=150, n_resamples=1000, rng=2)
    assert len(study) == 150
    summary = ts.calibration_summary(study)
    assert summary.loc[0, "on Dtrue"] == pytest.approx(0.5, abs=0.05)
    assert summary.loc[0, "stated"] == pytest.approx(0.75, abs=0.05)
    assert summary.loc[0, "gap"] == pytest.approx(summary.loc[0, "stated"] - summary.loc[0, "on Dtrue"])
    bins = ts.calibration_bins(study)
    assert bins["count"].sum() == 150


def test_calibration_with_a_clear_winner_is_confident_and_right():
    exp = _hand_experiment([30, 12, 2, 10, 3, 2, 8, 133])
    study = ts.calibration_study([exp], test_sizes=(2000,), repetitions=30, n_resamples=1000, rng=0)
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
    table = ts.dcf_comparison(exp, n_test=8000, n_resamples=4000, n_subsamples=2000, rng=0).set_index("method")
    truth = table.loc["Dtrue subsamples (truth)", "se"]
    assert table.loc["independent, eq. (8)", "se"] > 1.5 * truth
    assert table.loc["bootstrap (stratified)", "se"] == pytest.approx(truth, rel=0.15)
    assert table.loc["paired, eq. (9)", "se"] == pytest.approx(truth, rel=0.25)
    assert table.loc["paired, eq. (9)", "difference"] == table.loc["independent, eq. (8)", "difference"]


def test_plots_return_axes():
    import matplotlib.pyplot as plt

    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138], n_pool=3000, n_true=50_000)
    run = ts.run_setting(exp, n_test=1000, n_resamples=500, n_subsamples=200, rng=0)
    ax = ts.plot_replicates(run)
    assert ax.get_xlabel().startswith("dF1")
    study = ts.calibration_study([exp], test_sizes=(300, 1000), repetitions=10, n_resamples=300, rng=0)
    fig, ax2 = plt.subplots()
    assert ts.plot_calibration(study, ax=ax2) is ax2
    assert len(ax2.get_lines()) == 3
    plt.close("all")


def test_paper_constants():
    assert ts.PAPER_SIZES["n_true"] == 790_900 and ts.PAPER_SIZES["n_test"] == 7909
    assert ts.PAPER_TABLE3["bootstrap confidence"].tolist() == [0.956, 0.542, 0.965]


# ------------------------------------------------------- the precomputed grid
# The shipped data/textsim_grid.npz lets notebook 03's population sliders answer at once.
# These tests recompute sampled entries (the test that fails when the file goes stale),
# check its keys and sizes, and check when build_experiment reads it and when it computes.

GRID_KEYS = {(s, p, q) for s in ts.SETTINGS for p in ts.GRID_PRIORS for q in ts.GRID_NOISES}


def _shipped_grid():
    # shipped with the checkout (no skip when absent: build_experiment would then fall back
    # to computing, and the notebook's sliders would be slow again)
    assert ts.GRID_PATH.is_file(), f"{ts.GRID_PATH} is missing: run make textsim-grid"
    with np.load(ts.GRID_PATH, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def _shipped_entry(grid, setting, prior, noise):
    hits = np.flatnonzero((grid["settings"] == setting) & np.isclose(grid["priors"], prior, rtol=0, atol=1e-12)
                          & np.isclose(grid["noises"], noise, rtol=0, atol=1e-12))
    assert hits.size == 1, (setting, prior, noise, hits)
    return grid["codes"][hits[0]], grid["true_events"][hits[0]]


@pytest.fixture
def fresh_grid_cache(monkeypatch):
    """Forget the loaded grid (and computed experiments) before and after the test."""
    monkeypatch.setattr(ts, "_GRID_FILES", {})
    ts._build.cache_clear()
    yield
    ts._build.cache_clear()


def test_grid_constants_and_file_cover_the_grid():
    assert ts.GRID_PRIORS == pytest.approx(np.arange(1, 11) * 0.05) and len(ts.GRID_PRIORS) == 10
    assert ts.GRID_NOISES == (0.0, 0.01, 0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20)
    assert ts.GRID_SIZES == dict(n_train=7982, n_pool=20_000, n_true=60_000, seed=0)
    grid = _shipped_grid()
    assert {k: int(grid[k]) for k in ts.GRID_SIZES} == ts.GRID_SIZES and int(grid["chunk"]) == ts.GRID_CHUNK
    keys = list(zip(grid["settings"].tolist(), grid["priors"].tolist(), grid["noises"].tolist()))
    assert len(keys) == len(set(keys)) == 270 and set(keys) == GRID_KEYS
    assert grid["codes"].dtype == np.uint8 and grid["codes"].shape == (270, ts.GRID_SIZES["n_pool"])
    assert grid["codes"].max() <= 7
    assert grid["true_events"].shape == (270, 8)
    assert np.all(grid["true_events"].sum(axis=1) == ts.GRID_SIZES["n_true"])
    assert ts.GRID_PATH.stat().st_size < 3e6          # about 1 MB: one entry deflates to ~3.5 KB


@pytest.mark.slow
def test_grid_entries_equal_a_recomputation():
    """Recompute the notebook's default entry and one drawn with a fixed seed among the
    small priors and high noises; compare with the shipped file.

    The learners' decision values pass through BLAS (Nystroem's SVD and kernel products),
    whose last bits can differ between CPUs and thread counts; a document on a decision
    boundary may then change event. So the codes must agree on 99.9 % of the pool and
    the Dtrue counts move by at most 0.1 % of Dtrue in total (on the machine that wrote
    the file they agree exactly).
    """
    pick = np.random.default_rng(20240607)
    other = (str(pick.choice(list(ts.SETTINGS))), float(pick.choice(ts.GRID_PRIORS[:3])),
             float(pick.choice(ts.GRID_NOISES[-3:])))
    grid = _shipped_grid()
    for setting, prior, noise in [("Y", 0.25, 0.02), other]:
        e = ts.build_experiment(setting, prior_pos=prior, label_noise=noise, precomputed=False, **_arguments(ts.GRID_SIZES))
        codes, events = _shipped_entry(grid, setting, prior, noise)
        agree = np.mean(e.pool_codes == codes)
        assert agree >= 0.999, (setting, prior, noise, agree)
        moved = np.abs(e.true_events - events).sum()
        assert moved <= 0.001 * ts.GRID_SIZES["n_true"], (setting, prior, noise, e.true_events, events)


def _forbid_compute(monkeypatch):
    def refuse(*args):
        raise AssertionError(f"computed {args} instead of reading the grid")
    monkeypatch.setattr(ts, "_compute", refuse)


def test_grid_point_is_read_not_computed(monkeypatch, fresh_grid_cache):
    _forbid_compute(monkeypatch)
    grid = _shipped_grid()
    # a FloatSlider's 0.15000000000000002 is the grid's 0.15
    e = ts.build_experiment("Z", prior_pos=0.05 * 3, label_noise=0.1, **_arguments(ts.GRID_SIZES))
    codes, events = _shipped_entry(grid, "Z", 0.15, 0.10)
    assert np.array_equal(e.pool_codes, codes) and np.array_equal(e.true_events, events)
    assert e.population.prior_pos == 0.15 and e.population.label_noise == 0.1
    assert e.population.setting is ts.SETTINGS["Z"] and e.n_train == 7982 and e.rng == 0
    assert e.n_true == 60_000 and e.y_pool.dtype == np.int8 and e.pred_b_pool.dtype == np.int8
    # the rebuilt arrays are what bizarre's own coding gives back
    assert np.array_equal(bz.joint_events(e.y_pool, e.pred_a_pool, e.pred_b_pool), np.bincount(codes, minlength=8))
    assert ts.build_experiment("Z", prior_pos=0.15, label_noise=0.1, **_arguments(ts.GRID_SIZES)) is e      # cached


@pytest.mark.parametrize("change", [
    dict(prior_pos=0.27),                                  # off the grid
    dict(label_noise=0.04),                                # off the grid
    dict(prior_pos=0.25 + 1e-6),                           # beyond the 1e-9 match
    dict(n_true=50_000),                                   # other sizes
    dict(rng=1),
    dict(chunk=20_000),
    dict(precomputed=False),                               # asked to compute
])
def test_other_arguments_compute(monkeypatch, fresh_grid_cache, change):
    calls = []
    # record the call and skip the real work: only the switch is tested here
    monkeypatch.setattr(ts, "_compute", lambda *args: calls.append(args) or "computed")
    args = dict(prior_pos=0.25, label_noise=0.02, **_arguments(ts.GRID_SIZES))
    args.update(change)
    assert ts.build_experiment("Y", **args) == "computed"
    assert len(calls) == 1


def test_missing_grid_file_falls_back_to_computing(monkeypatch, tmp_path, fresh_grid_cache):
    monkeypatch.setattr(ts, "GRID_PATH", tmp_path / "absent.npz")
    calls = []
    monkeypatch.setattr(ts, "_compute", lambda *args: calls.append(args) or "computed")
    assert ts.build_experiment("Y", prior_pos=0.25, label_noise=0.02, **_arguments(ts.GRID_SIZES)) == "computed"
    assert len(calls) == 1


def test_precomputed_must_be_a_bool():
    with pytest.raises(TypeError, match="precomputed"):
        ts.build_experiment("Y", precomputed="yes", **SMALL)


TINY = dict(n_train=300, n_pool=500, n_true=3000, seed=3)   # shaped as GRID_SIZES


@pytest.fixture
def tiny_grid(monkeypatch, fresh_grid_cache):
    """A two-entry grid at small sizes, so the writer can be run in a test."""
    monkeypatch.setattr(ts, "SETTINGS", {"X": ts.SETTINGS["X"]})
    monkeypatch.setattr(ts, "GRID_PRIORS", (0.3,))
    monkeypatch.setattr(ts, "GRID_NOISES", (0.0, 0.05))
    monkeypatch.setattr(ts, "GRID_SIZES", dict(TINY))


def test_writer_round_trip_and_determinism(tmp_path, monkeypatch, tiny_grid):
    # both cores, as make textsim-grid runs it (the workers get the sizes as arguments)
    path = ts.write_experiment_grid(tmp_path / "g.npz", n_jobs=2, progress=False)
    again = ts.write_experiment_grid(tmp_path / "g2.npz", n_jobs=2, progress=False)
    with np.load(path) as a, np.load(again) as b:
        assert sorted(a.files) == sorted(b.files)
        for k in a.files:
            assert np.array_equal(a[k], b[k]), k                    # a rerun writes identical arrays
        assert a["codes"].shape == (2, TINY["n_pool"]) and int(a["n_true"]) == TINY["n_true"]
        assert a["settings"].tolist() == ["X", "X"] and a["noises"].tolist() == [0.0, 0.05]
    # read back through build_experiment: the computed experiment (in this process, whose
    # BLAS may use more threads than a worker's: see test_grid_entries_equal_a_recomputation)
    monkeypatch.setattr(ts, "GRID_PATH", path)
    computed = ts.build_experiment("X", prior_pos=0.3, label_noise=0.05, precomputed=False, **_arguments(TINY))
    _forbid_compute(monkeypatch)
    read = ts.build_experiment("X", prior_pos=0.3, label_noise=0.05, **_arguments(TINY))
    assert read is not computed and read.population == computed.population
    for field in ("y_pool", "pred_a_pool", "pred_b_pool", "true_events"):
        assert getattr(read, field).dtype == getattr(computed, field).dtype, field
    assert np.array_equal(read.y_pool, computed.y_pool)       # labels do not depend on BLAS
    assert np.mean(read.pool_codes == computed.pool_codes) >= 0.999
    assert np.abs(read.true_events - computed.true_events).sum() <= 0.001 * TINY["n_true"]


def test_writer_serial_run_equals_the_computation(tmp_path, monkeypatch, tiny_grid):
    path = ts.write_experiment_grid(tmp_path / "g.npz", n_jobs=1, progress=False)
    monkeypatch.setattr(ts, "GRID_PATH", path)
    computed = ts.build_experiment("X", prior_pos=0.3, label_noise=0.0, precomputed=False, **_arguments(TINY))
    _forbid_compute(monkeypatch)
    read = ts.build_experiment("X", prior_pos=0.3, label_noise=0.0, **_arguments(TINY))
    for field in ("y_pool", "pred_a_pool", "pred_b_pool", "true_events"):
        assert np.array_equal(getattr(read, field), getattr(computed, field)), field


@pytest.mark.parametrize("kw,err,match", [
    (dict(path="no/such/folder/g.npz"), ValueError, "existing folder"),
    (dict(path="g.csv"), ValueError, ".npz"),
    (dict(path=3), TypeError, "path"),
    (dict(n_jobs=0), ValueError, "n_jobs"),
    (dict(n_jobs=1.5), ValueError, "n_jobs"),
    (dict(n_jobs="2"), TypeError, "n_jobs"),
])
def test_writer_bad_input(tmp_path, monkeypatch, kw, err, match):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(ts, "_compute", lambda *a: pytest.fail("the writer must check its input first"))
    kw = dict(dict(path="g.npz"), **kw)
    with pytest.raises(err, match=match):
        ts.write_experiment_grid(kw.pop("path"), progress=False, **kw)


# ------------------------------------------------ size and coverage (section 6)
def test_size_coverage_study_rates_and_layout():
    """Rates near their nominal values at a large test set (tolerance 4 Monte Carlo
    SEs), dF1 against scikit-learn on Dtrue's documents, one row per setting x size."""
    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138], n_pool=3000, n_true=400_000)
    table = ts.size_coverage_study([exp, exp], test_sizes=(300, 20_000), repetitions=300, n_resamples=600, rng=0)
    assert list(table.columns) == ["setting", "test_size", "dF1", "coverage", "coverage_se", "rejects",
                                   "rejects_se", "size", "size_se", "repetitions"]
    assert len(table) == 4 and table["test_size"].tolist() == [300, 20_000, 300, 20_000]
    ev = exp.true_events
    codes = np.repeat(np.arange(8), ev)
    y, a, b = codes < 4, np.isin(codes, (0, 2, 4, 6)), np.isin(codes, (0, 1, 4, 5))
    assert table.loc[0, "dF1"] == pytest.approx(f1_score(y, b) - f1_score(y, a))
    big = table[table["test_size"] == 20_000]
    tol = 4 * np.sqrt(0.05 * 0.95 / 300)
    assert (abs(big["coverage"] - 0.95) <= tol).all()
    assert (abs(big["size"] - 0.05) <= tol).all()
    # a real difference of about 0.05 in F1 is found at 20,000 documents nearly always
    assert (big["rejects"] > 0.9).all()
    assert np.allclose(table["size_se"], np.sqrt(table["size"] * (1 - table["size"]) / 300))


@pytest.mark.parametrize("kw,match", [
    (dict(repetitions=1), "repetitions"),
    (dict(test_sizes=()), "test_sizes"),
    (dict(test_sizes=(5,)), "test_sizes"),
    (dict(alpha=1.0), "alpha"),
    (dict(rng="x"), "rng"),
])
def test_size_coverage_study_bad_input(kw, match):
    exp = _hand_experiment([30, 5, 5, 10, 3, 5, 5, 137], n_pool=2000, n_true=10_000)
    with pytest.raises((TypeError, ValueError), match=match):
        ts.size_coverage_study([exp], **kw)


def test_size_coverage_plots_return_axes():
    import matplotlib.pyplot as plt

    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138], n_pool=3000, n_true=50_000)
    table = ts.size_coverage_study([exp], test_sizes=(300, 1000), repetitions=20, n_resamples=100, rng=0)
    fig, ax = plt.subplots()
    assert ts.plot_size_coverage(table, ax=ax) is ax
    assert ax.get_yscale() == "linear" and ax.get_xscale() == "log"
    ax2 = ts.plot_size_coverage(table, what="size")
    assert "dF1 = 0" in ax2.get_ylabel()
    with pytest.raises(ValueError, match="what"):
        ts.plot_size_coverage(table, what="power")
    ax3 = ts.plot_tie_confidence(np.linspace(0.5, 1, 50))
    assert ax3.get_xlim() == (0.5, 1.0)
    with pytest.raises(ValueError, match="confidence"):
        ts.plot_tie_confidence([])
    plt.close("all")


def test_experiment_describe_against_scikit_learn_and_corrcoef():
    """The explorer's summary line: F1 of both models and the mistake correlation on
    Dtrue, checked against scikit-learn's f1_score and numpy's corrcoef on the explicit
    Dtrue rebuilt from the eight counts (e1..e8: A right on e1, e3, e6, e8; B on e1, e2, e7, e8)."""
    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138], n_true=40_000)
    codes = np.repeat(np.arange(8), exp.true_events)
    y = (codes < 4).astype(int)
    a = np.isin(codes, (0, 2, 4, 6)).astype(int)
    b = np.isin(codes, (0, 1, 4, 5)).astype(int)
    corr = np.corrcoef(a != y, b != y)[0, 1]
    assert exp.describe() == (f"F1 on Dtrue: A {f1_score(y, a):.4f}, B {f1_score(y, b):.4f}; "
                              f"mistake correlation {corr:.2f}")


def test_format_table3_prints_shares_as_percent_and_differences_signed():
    exp = _hand_experiment([30, 6, 3, 10, 3, 4, 6, 138])
    run = ts.run_setting(exp, n_test=2000, n_resamples=2000, n_subsamples=500, rng=0)
    text = ts.format_table3(ts.table3([run]))
    header, row = text.splitlines()
    assert header.split()[:3] == ["experiment", "bootstrap", "confidence"]
    b = run.bootstrap
    fields = row.split()
    assert fields[1] == f"{100 * b.confidence:.1f}%" and fields[5] == f"{100 * run.dtrue_frequency:.1f}%"
    assert fields[6:] == [f"{v:+.4f}" for v in (b.observed, *b.interval, run.true_difference)]
    paper = ts.format_table3(ts.PAPER_TABLE3)       # the paper's printed values
    assert [ln.split()[1] for ln in paper.splitlines()[1:]] == ["95.6%", "54.2%", "96.5%"]
    assert [ln.split()[-1] for ln in paper.splitlines()[1:]] == ["92.4%", "69.1%", "82.5%"]
    with pytest.raises(TypeError, match="table"):
        ts.format_table3([run])


def test_size_coverage_summary_flags_against_the_nominal_standard_error():
    """Hand-made rates at 1,000 repetitions: the nominal SEs are sqrt(.05 x .95 / 1000) =
    0.00689 for both size and coverage, so two SEs are 0.0138. Size 0.063 (+0.013) is not
    flagged, 0.066 (+0.016) is; coverage 0.937 (-0.013) is not, 0.934 is. A rate of 0 (SE 0
    if estimated from itself) is judged at the nominal SE. Expected flags by chance: 8
    checks x the exact binomial chance that a nominal rate lands more than two SEs out,
    summed here term by term with math.comb (4.96%, not the normal law's 4.55%)."""
    import math
    study = pd.DataFrame({
        "setting": ["X", "X", "Y", "Y"], "test_size": [500, 8000, 500, 8000],
        "coverage": [0.937, 0.934, 0.95, 0.97], "size": [0.063, 0.066, 0.0, 0.05],
        "rejects": [0.10, 0.92, 0.06, 0.07], "repetitions": [1000] * 4,
    })
    se = np.sqrt(0.05 * 0.95 / 1000)
    assert 2 * se < 0.0137 + 1e-4 and 0.066 - 0.05 > 2 * se > 0.063 - 0.05
    lines = ts.size_coverage_summary(study).splitlines()
    assert len(lines) == 4
    assert "between 0.0% and 6.6% over the 4 combinations" in lines[0]
    assert "(too many false alarms): X at 8,000 (6.6%); below (conservative): Y at 500 (0.0%)." in lines[0]
    assert "(interval too narrow): X at 8,000 (93.4%); above: Y at 8,000 (97.0%)." in lines[1]
    half = 2 * math.sqrt(1000 * 0.05 * 0.95)
    p_flag = sum(math.comb(1000, j) * 0.05 ** j * 0.95 ** (1000 - j) for j in range(1001) if abs(j - 50) > half)
    assert 0.049 < p_flag < 0.050 and abs(p_flag - 2 * stats.norm.sf(2)) > 0.003
    assert f"among 8 checks about {8 * p_flag:.1f} flags" in lines[2] and f"{p_flag:.2%} of cases" in lines[2]
    assert lines[3].endswith("6%–10% at 500 documents, 7%–92% at 8,000.")
    # three standard errors flag less
    assert "none; below (conservative): Y at 500" in ts.size_coverage_summary(study, k=3)
    with pytest.raises(ValueError, match="missing"):
        ts.size_coverage_summary(study.drop(columns="repetitions"))
    with pytest.raises(TypeError, match="study"):
        ts.size_coverage_summary(study.to_dict())
    with pytest.raises((TypeError, ValueError), match="k"):
        ts.size_coverage_summary(study, k=0)


def test_size_coverage_verdict_pools_each_test_size_and_counts_flags_by_brute_force():
    """A study whose coverage is 92% at 500 documents (3 settings x 1,000 repetitions)
    fails there: the pooled standard error of a nominal 95% is sqrt(0.95 x 0.05 / 3000) =
    0.40%, so 3 points short is 7.5 of them; at 8,000 documents it holds. Each 92% row
    is 4.35 nominal SEs out, so 3 of the 12 checks are flagged; the chance of 3 or more
    for a perfect test is summed here from the binomial terms with math.comb, each check's
    chance itself the exact binomial tail of a nominal rate beyond two SEs (both sums by
    brute force), and checked against a Monte Carlo of perfect tests."""
    import math

    study = pd.DataFrame({"setting": list("XYZ") * 2, "test_size": [500] * 3 + [8000] * 3,
                          "coverage": [0.92] * 3 + [0.95] * 3, "size": [0.05] * 3 + [0.062] * 3,
                          "repetitions": [1000] * 6})
    lines = ts.size_coverage_verdict(study).splitlines()
    assert lines[0].startswith("- **Coverage**: the 95% interval under-covers at 500 documents")
    assert "92.0% ± 0.4%, 3.0 points = 7.5 standard errors short of 95%" in lines[0]
    assert "it holds at 8,000 (95.0%)" in lines[0]
    # size 6.2% at 8,000: pooled SE sqrt(0.05 x 0.95 / 3000) = 0.398%, 1.2 points = 3.0 SE above
    assert "has too many false alarms at 8,000 documents" in lines[1] and "3.0 standard errors above 5%" in lines[1]
    assert "it holds at 500 (5.0%)" in lines[1]
    # per row: 6.2% is 1.2 / 0.689 = 1.74 SE out (not flagged); 92% is flagged three times
    half = 2 * math.sqrt(1000 * 0.05 * 0.95)
    p = sum(math.comb(1000, j) * 0.05 ** j * 0.95 ** (1000 - j) for j in range(1001) if abs(j - 50) > half)
    # a Monte Carlo of perfect tests: 200,000 binomial rates, tolerance four standard errors
    draws = np.random.default_rng(7).binomial(1000, 0.05, size=200_000)
    mc = np.mean(np.abs(draws / 1000 - 0.05) > 2 * np.sqrt(0.05 * 0.95 / 1000))
    assert abs(mc - p) < 4 * np.sqrt(p * (1 - p) / 200_000)
    at_least_3 = sum(math.comb(12, j) * p ** j * (1 - p) ** (12 - j) for j in range(3, 13))
    assert "3 of the 12 checks" in lines[2] and f"probability {at_least_3:.2g}" in lines[2]
    assert "more than chance explains" in lines[2]
    # four pooled checks (coverage and size at two sizes): the bar for all of them together is
    # the k_4 at which a perfect test's four independent z's cross it anywhere with the single
    # check's chance 2 (1 - Phi(2)); found here by a Monte Carlo of 400,000 x 4 normals
    import re

    z = np.abs(np.random.default_rng(11).standard_normal((400_000, 4))).max(axis=1)
    k4 = float(re.search(r"beyond (\d\.\d\d), the bar for 4 checks together: firm", lines[0]).group(1))
    single = 2 * stats.norm.sf(2)
    assert abs(np.mean(z > k4) - single) < 4 * np.sqrt(single / 400_000) + 0.0015   # k4 printed to 0.01
    assert "beyond" in lines[1] and "firm" in lines[1]               # 3.0 SE is beyond k4 = 2.52
    weak = study.assign(size=[0.05] * 3 + [0.059] * 3)                # 0.9 / 0.398 = 2.26 SE: over 2, under k4
    weak_size = ts.size_coverage_verdict(weak).splitlines()[1]
    assert "2.3 standard errors above 5%; short of 2.52, the bar for 4 checks together: it may be chance" in weak_size
    good = study.assign(coverage=0.95, size=0.05)
    assert "holds at every test size" in ts.size_coverage_verdict(good).splitlines()[0]
    assert "0 of the 12 checks" in ts.size_coverage_verdict(good) and "no more than chance" in ts.size_coverage_verdict(good)
    with pytest.raises(ValueError, match="repetitions"):
        ts.size_coverage_verdict(study.drop(columns="repetitions"))
    with pytest.raises(ValueError, match="k"):
        ts.size_coverage_verdict(study, k=0)


def test_summary_and_verdict_name_a_level_that_is_not_a_whole_percent():
    """alpha = 0.025: the nominal size is 2.5% and the coverage 97.5% (":.0%" said 2% and 98%)."""
    from evallib import size_coverage_summary, size_coverage_verdict

    study = pd.DataFrame({"setting": ["X", "X"], "test_size": [500, 8000], "coverage": [0.96, 0.975],
                          "size": [0.03, 0.025], "rejects": [0.1, 0.9], "repetitions": [1000, 1000]})
    summary = size_coverage_summary(study, alpha=0.025)
    assert "(nominal 2.5%)" in summary and "(nominal 97.5%)" in summary and "below 97.5%" in summary
    verdict = size_coverage_verdict(study, alpha=0.025)
    assert "the 97.5% interval" in verdict and "2.5%" in verdict
