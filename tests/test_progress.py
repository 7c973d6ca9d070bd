"""The optional ``progress`` bars of the long computations: shown when asked, results unchanged.

Outside a notebook ``tqdm.auto`` falls back to the text bar on stderr, so the tests read
the bar's final ``done/total`` count there; the results with and without the bar must
be identical (the bar must not touch the random streams).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from evallib.studies import _textsim as textsim
from evallib.resampling import _cvtests as cvtests
from evallib.onetestset import _nullbest as nullbest


def _bar_total(err: str) -> str:
    """The last ``n/total`` count that a tqdm text bar printed."""
    counts = re.findall(r"(\d+)/(\d+)", err)
    assert counts, f"no progress bar on stderr: {err!r}"
    done, total = counts[-1]
    assert done == total, f"bar did not finish: {done}/{total}"
    return total


def test_simulate_null_progress(capsys):
    quiet = nullbest.simulate_null("auc", 5, 7, 3000, rng=1, n_jobs=1)
    assert capsys.readouterr().err == ""
    shown = nullbest.simulate_null("auc", 5, 7, 3000, rng=1, n_jobs=1, progress=True)
    assert _bar_total(capsys.readouterr().err) == "3000"
    np.testing.assert_array_equal(quiet, shown)


def test_simulate_scores_and_montecarlo_critical_value_progress(capsys):
    quiet = nullbest.simulate_scores(5, 7, 2000, metrics=("auc", "f1"), rng=2, n_jobs=2)
    shown = nullbest.simulate_scores(5, 7, 2000, metrics=("auc", "f1"), rng=2, n_jobs=2, progress=True)
    assert _bar_total(capsys.readouterr().err) == "2000"
    for m in ("auc", "f1"):
        np.testing.assert_array_equal(quiet[m], shown[m])
    kw = dict(C=10, alpha=0.05, method="montecarlo", n_resamples=4000, rng=3, n_jobs=1)
    assert nullbest.critical_value("accuracy", 5, 7, **kw) == nullbest.critical_value(
        "accuracy", 5, 7, progress=True, **kw)
    assert _bar_total(capsys.readouterr().err) == "4000"


def test_critical_value_table_progress(capsys):
    quiet = nullbest.critical_value_table(("auc",), Ps=(3, 4), Ns=(5,), Cs=(1,), alphas=(0.05,))
    shown = nullbest.critical_value_table(("auc",), Ps=(3, 4), Ns=(5,), Cs=(1,), alphas=(0.05,), progress=True)
    assert _bar_total(capsys.readouterr().err) == "2"   # two (metric, P, N) cells
    pd.testing.assert_frame_equal(quiet, shown)


def test_simulate_equal_learners_and_rejection_study_progress(capsys):
    kw = dict(folds=3, repeats=2, n_datasets=3, rng=4)
    quiet = cvtests.simulate_equal_learners(30, **kw)
    assert capsys.readouterr().err == ""
    shown = cvtests.simulate_equal_learners(30, progress=True, **kw)
    assert _bar_total(capsys.readouterr().err) == "3"
    pd.testing.assert_frame_equal(quiet, shown)
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    rates = cvtests.rejection_study(32, 3, 2, 0.05, n_datasets=2, rng=11, ax=ax, progress=True)
    plt.close(fig)
    assert _bar_total(capsys.readouterr().err) == "2"
    assert len(rates) == 4
    sweep = dict(n_samples=24, repeats=2, n_datasets=2, rng=1)
    quiet = cvtests.rejection_sweep("folds", [2, 3, 4], **sweep)
    assert capsys.readouterr().err == ""
    shown = cvtests.rejection_sweep("folds", [2, 3, 4], progress=True, **sweep)
    assert _bar_total(capsys.readouterr().err) == "3"     # one step per value
    pd.testing.assert_frame_equal(quiet, shown)


SMALL = dict(n_train=400, n_pool=1200, n_true=3000, rng=0)


def test_calibration_study_progress(capsys):
    exp = textsim.build_experiment("X", **SMALL)
    kw = dict(test_sizes=(100, 200), repetitions=3, n_resamples=50, n_subsamples=20, rng=5)
    quiet = textsim.calibration_study([exp], **kw)
    assert capsys.readouterr().err == ""
    shown = textsim.calibration_study([exp], progress=True, **kw)
    assert _bar_total(capsys.readouterr().err) == "6"   # 1 experiment x 2 sizes x 3 repetitions
    pd.testing.assert_frame_equal(quiet, shown)
