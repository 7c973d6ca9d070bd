"""evallib.studies._pupils: real classifiers scored on pupils in classes (notebook 08).

References: the logistic regression is refitted with statsmodels' Logit (maximum
likelihood, an independent implementation) on the same split; the split and the label
are recomputed here from load_nlschools."""

from __future__ import annotations

import numpy as np
import pytest

from evallib import evaluate_pupils, load_nlschools


@pytest.fixture(scope="module")
def ev():
    return evaluate_pupils(samples=3, rng=4)


def test_classes_are_split_not_pupils(ev):
    data = load_nlschools()
    test_classes = set(ev.pupils["class"])
    train = data[~data["class"].isin(test_classes)]
    assert len(train) == ev.n_train and len(ev.pupils) + ev.n_train == len(data)
    assert ev.train_classes == train["class"].nunique() and ev.test_classes == len(test_classes)
    assert ev.train_classes + ev.test_classes == data["class"].nunique()
    assert ev.threshold == train["lang"].median()
    assert (ev.pupils["passed"] == (ev.pupils["lang"] > ev.threshold)).all()


def test_logistic_correctness_agrees_with_statsmodels_logit(ev):
    sm = pytest.importorskip("statsmodels.api")
    data = load_nlschools()
    train = data[~data["class"].isin(set(ev.pupils["class"]))]
    test = data.loc[ev.pupils.index]
    fit = sm.Logit((train["lang"] > ev.threshold).astype(int),
                   sm.add_constant(train[["IQ", "SES"]].astype(float))).fit(disp=0)
    p1 = fit.predict(sm.add_constant(test[["IQ", "SES"]].astype(float)))
    right = ((p1 > 0.5).astype(int).to_numpy() == ev.pupils["passed"].to_numpy()).astype(int)
    assert np.mean(right == ev.correct["logistic"].to_numpy()) >= 0.995
    prob_true = np.where(ev.pupils["passed"] == 1, p1, 1 - p1)
    assert np.max(np.abs(prob_true - ev.probability["logistic"].to_numpy())) < 1e-3


def test_scores_are_in_range_and_runs_differ(ev):
    assert set(np.unique(ev.correct.to_numpy())) <= {0, 1}
    assert ((ev.probability >= 0) & (ev.probability <= 1)).all().all()
    assert ev.samples.shape == (len(ev.pupils), 3)
    assert (ev.samples.iloc[:, 0] == ev.correct["forest"]).all()
    assert (ev.samples.nunique(axis=1) > 1).any()  # the forest's runs disagree on some pupils
    assert "test pupils in" in ev.describe()


def test_same_rng_same_evaluation_other_rng_other_split():
    a, b, c = evaluate_pupils(samples=1, rng=7), evaluate_pupils(samples=1, rng=7), evaluate_pupils(samples=1, rng=8)
    assert a.correct.equals(b.correct) and a.pupils.index.equals(b.pupils.index)
    assert not a.pupils.index.equals(c.pupils.index)


@pytest.mark.parametrize("bad, error", [(0, ValueError), (1.5, ValueError), ("3", TypeError)])
def test_bad_samples_named(bad, error):
    with pytest.raises(error, match="samples"):
        evaluate_pupils(samples=bad)
