"""A multi-data-set benchmark that runs offline: notebook 07's study of five learners on ten data sets.

Demšar (2006) compares algorithms over many data sets; notebook 07 needs such a table that
anyone can recompute without a download. :func:`offline_benchmark` cross-validates five
scikit-learn learners (:data:`OFFLINE_LEARNERS`) on the data sets that ship with
scikit-learn (:data:`OFFLINE_DATASETS`); :func:`offline_benchmark_scores` reads its stored
result (``data/offline_benchmark.csv``). The tests of :mod:`evallib.manydatasets` take any
such table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._extras import require
from .._resources import data_path
from .._validate import check_int, check_rng, sklearn_random_state

__all__ = ["OFFLINE_DATASETS", "OFFLINE_LEARNERS", "offline_benchmark", "offline_benchmark_scores"]

#: The data sets of :func:`offline_benchmark`: scikit-learn's bundled sets and binary tasks cut from them.
OFFLINE_DATASETS = (
    "iris", "wine", "breast cancer", "digits", "diabetes > median", "iris versicolor/virginica",
    "wine 1/2", "digits 3/8", "digits 1/7", "digits 4/9",
)
OFFLINE_LEARNERS = ("naive Bayes", "logistic regression", "5-NN", "decision tree", "LDA")


def _offline_dataset(name: str):
    require("sklearn", "offline_benchmark")
    from sklearn import datasets

    if name.startswith("iris"):
        X, y = datasets.load_iris(return_X_y=True)
        if name != "iris":
            keep = y > 0
            X, y = X[keep], y[keep]
    elif name.startswith("wine"):
        X, y = datasets.load_wine(return_X_y=True)
        if name != "wine":
            keep = y < 2
            X, y = X[keep], y[keep]
    elif name == "breast cancer":
        X, y = datasets.load_breast_cancer(return_X_y=True)
    elif name == "diabetes > median":
        X, target = datasets.load_diabetes(return_X_y=True)
        y = (target > np.median(target)).astype(int)
    else:
        X, y = datasets.load_digits(return_X_y=True)
        if name != "digits":
            a, b = (int(c) for c in name.split()[1].split("/"))
            keep = (y == a) | (y == b)
            X, y = X[keep], y[keep]
    return X, y


def _offline_learners(seed: int) -> dict:
    require("sklearn", "offline_benchmark")
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    return {
        "naive Bayes": GaussianNB(),
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "5-NN": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
        "decision tree": DecisionTreeClassifier(min_samples_leaf=3, random_state=seed),
        "LDA": LinearDiscriminantAnalysis(),
    }


def offline_benchmark_scores() -> pd.DataFrame:
    """The stored result of ``offline_benchmark(folds=10, rng=0)`` (``data/offline_benchmark.csv``).

    Running the benchmark fits 500 models (about a minute on a busy machine); the
    notebook reads this table, and the test suite recomputes part of it.

    Returns
    -------
    pandas.DataFrame
        As :func:`offline_benchmark`.
    """
    return pd.read_csv(data_path("offline_benchmark.csv"))


def offline_benchmark(*, folds: int = 10, rng: Any = None, datasets: Sequence[str] | None = None) -> pd.DataFrame:
    """Accuracy of five scikit-learn learners on ten data sets that ship with scikit-learn.

    A small multi-data-set study that runs anywhere without a download (notebook
    07): naive Bayes, logistic regression, 5-nearest-neighbours (both on
    standardised features), a decision tree and linear discriminant analysis, each
    evaluated by the same stratified ``folds``-fold cross-validation on
    :data:`OFFLINE_DATASETS` (iris, wine, breast cancer, digits, the diabetes
    progression above its median, and binary tasks cut from iris, wine and digits).

    The binary tasks are not independent of the multi-class sets they are cut
    from; a real study would draw its data sets from a wider population
    (Demšar 2006, section 2). They keep the example small and offline.

    Parameters
    ----------
    folds : int
        Folds of the stratified cross-validation, 2 to 20.
    rng : None, int, SeedSequence or Generator
        Seeds the partitions (one per data set) and the tree.
    datasets : sequence of str, optional
        A subset of :data:`OFFLINE_DATASETS` (default: all).

    Returns
    -------
    pandas.DataFrame
        Tidy: one row per data set, learner and fold, columns ``data set``,
        ``learner``, ``fold``, ``accuracy``, ``n_test``, ``n_train``.
    """
    require("sklearn", "offline_benchmark")
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold

    folds = check_int(folds, "folds", 2, 20)
    gen = check_rng(rng)
    if datasets is None:
        names = list(OFFLINE_DATASETS)
    else:
        if isinstance(datasets, str):
            raise TypeError("datasets must be a sequence of names, not a single string")
        names = list(datasets)
        bad = [d for d in names if d not in OFFLINE_DATASETS]
        if bad or not names:
            raise ValueError(f"datasets must be names among {list(OFFLINE_DATASETS)}, got {bad or names}")
    seed = sklearn_random_state(gen)
    # one partition seed per data set of the full list, so that a subset gets the same partitions
    split_seeds = dict(zip(OFFLINE_DATASETS, (sklearn_random_state(gen) for _ in OFFLINE_DATASETS)))
    learners = _offline_learners(seed)
    rows = []
    for name in names:
        X, y = _offline_dataset(name)
        splitter = StratifiedKFold(folds, shuffle=True, random_state=split_seeds[name])
        for f, (train, test) in enumerate(splitter.split(X, y), start=1):
            for lname, est in learners.items():
                model = clone(est).fit(X[train], y[train])
                acc = float(np.mean(model.predict(X[test]) == y[test]))
                rows.append({"data set": name, "learner": lname, "fold": f, "accuracy": acc,
                             "n_test": int(test.size), "n_train": int(train.size)})
    return pd.DataFrame(rows)
