"""Real classifiers evaluated on pupils in classes: the clustered evaluation of notebook 08.

R's ``MASS::nlschools`` (:func:`evallib.studies.load_nlschools`) holds 2,287 Dutch
eighth-graders in 133 classes. :func:`evaluate_pupils` asks a classification question of
it -- does a pupil score above the median of the language test? -- trains real
scikit-learn classifiers on the pupils of a random half of the classes and scores them on
the pupils of the other half. The classes are split, not the pupils, so no test class was
seen in training, and the test pupils come in clusters: pupils of one class share a
teacher, a classroom and a class size, so a classifier's mistakes on them are correlated.

The result is what a per-item evaluation file holds: one row per item (a test pupil), the
item's cluster (its class), one 0/1 column per classifier (right or wrong), a real score
per classifier (the probability it gave the true outcome), and for one stochastic learner
(a small random forest refitted with ``samples`` seeds) ``samples`` answers per item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._extras import require
from .._validate import check_count, check_rng
from ._data import load_nlschools

__all__ = ["PUPIL_FEATURES", "PupilEvaluation", "evaluate_pupils"]

#: The pupil-level columns the classifiers see: verbal IQ and the family's SES. The class
#: size and the multi-grade flag are class-level and left out, so that what a class shares
#: beyond its pupils' IQ and SES stays in the mistakes (as it does in real benchmarks, where
#: the items of one passage share what no feature describes).
PUPIL_FEATURES = ("IQ", "SES")


@dataclass(frozen=True, eq=False)
class PupilEvaluation:
    """Classifiers trained on some classes of ``nlschools`` and scored on the others.

    Attributes
    ----------
    pupils : pandas.DataFrame
        The test pupils (index ``pupil``): ``class`` (the cluster), ``lang`` and
        ``passed`` (1 when ``lang`` is above ``threshold``: the label).
    correct : pandas.DataFrame
        Test pupils x classifiers (``logistic``, ``boosting``, ``knn``, ``forest``), 1 where
        the classifier's prediction is right; ``forest`` is the first of its ``samples`` runs.
    probability : pandas.DataFrame
        The probability each classifier gave the pupil's true outcome, a score in [0, 1]
        (``forest``: the mean over its runs).
    samples : pandas.DataFrame
        Test pupils x ``samples`` runs of the random forest (seeds differ), 1 where right.
    threshold : float
        The median ``lang`` of the training pupils.
    n_train, train_classes, test_classes : int
        Training pupils, and classes on each side of the split.
    """

    pupils: pd.DataFrame = field(repr=False)
    correct: pd.DataFrame = field(repr=False)
    probability: pd.DataFrame = field(repr=False)
    samples: pd.DataFrame = field(repr=False)
    threshold: float
    n_train: int
    train_classes: int
    test_classes: int

    def describe(self) -> str:
        """One sentence: what was trained on what, and each classifier's accuracy.

        Returns
        -------
        str
            The test pupils and classes, the training pupils and classes, the label's
            threshold, and each classifier's accuracy (mean of ``correct``) to three
            decimals.
        """
        acc = ", ".join(f"{m} {v:.3f}" for m, v in self.correct.mean().items())
        return (f"{len(self.pupils)} test pupils in {self.test_classes} classes (trained on "
                f"{self.n_train} pupils in {self.train_classes} other classes; label: language "
                f"score above {self.threshold:g}); accuracy {acc}.")


def _learners(seed: int) -> dict[str, Any]:
    require("sklearn", "evaluate_pupils")
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        # no penalty: the maximum-likelihood logistic regression (the tests refit it with statsmodels)
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=np.inf)),
        "boosting": HistGradientBoostingClassifier(max_iter=100, random_state=seed),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=25)),
    }


def evaluate_pupils(*, samples: int = 5, rng: Any = None) -> PupilEvaluation:
    """Train four classifiers on half of the classes of ``nlschools``; score them on the rest.

    1. The 133 classes are split at random into halves (``rng``); the pupils of the first
       half train, those of the second are the test items.
    2. The label is ``lang > threshold``, the median language score of the training
       pupils; the features are :data:`PUPIL_FEATURES` (verbal IQ, SES).
    3. Logistic regression (maximum likelihood), gradient boosting (scikit-learn's
       ``HistGradientBoostingClassifier``), 25-nearest neighbours, and a small random
       forest (25 trees, one feature per split, leaves of at least 5) fitted ``samples``
       times with different seeds: a stochastic learner answering each item ``samples``
       times, as a language model sampled at a temperature does.

    Parameters
    ----------
    samples : int, default 5
        Runs of the random forest, at least 1.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The split of the classes and the learners' seeds.

    Returns
    -------
    PupilEvaluation

    References
    ----------
    T. A. B. Snijders and R. J. Bosker (1999), *Multilevel Analysis*, Sage (the data);
    E. Miller (2024), Adding error bars to evals, arXiv:2411.00640 (items in clusters,
    several answers per item).

    Examples
    --------
    >>> from evallib.studies import evaluate_pupils
    >>> ev = evaluate_pupils(samples=2, rng=0)
    >>> ev.pupils.shape[0] + ev.n_train, ev.train_classes + ev.test_classes
    (2287, 133)
    >>> list(ev.correct.columns), ev.samples.shape[1]
    (['logistic', 'boosting', 'knn', 'forest'], 2)
    """
    samples = check_count(samples, "samples", minimum=1)
    gen = check_rng(rng)
    require("sklearn", "evaluate_pupils")
    from sklearn.ensemble import RandomForestClassifier

    data = load_nlschools()
    classes = np.sort(data["class"].unique())
    train_classes = gen.choice(classes, size=len(classes) // 2, replace=False)
    train = data["class"].isin(train_classes).to_numpy()
    threshold = float(data.loc[train, "lang"].median())
    y = (data["lang"].to_numpy() > threshold).astype(int)
    X = data[list(PUPIL_FEATURES)].to_numpy(dtype=float)
    seeds = gen.integers(2**31 - 1, size=samples + 1)
    test_y = y[~train]

    correct, probability = {}, {}
    for name, model in _learners(int(seeds[0])).items():
        model.fit(X[train], y[train])
        p1 = model.predict_proba(X[~train])[:, 1]
        correct[name] = ((p1 > 0.5).astype(int) == test_y).astype(int)
        probability[name] = np.where(test_y == 1, p1, 1.0 - p1)
    runs, run_prob = [], []
    for seed in seeds[1:]:
        forest = RandomForestClassifier(n_estimators=25, max_features=1, min_samples_leaf=5,
                                        random_state=int(seed)).fit(X[train], y[train])
        p1 = forest.predict_proba(X[~train])[:, 1]
        runs.append(((p1 > 0.5).astype(int) == test_y).astype(int))
        run_prob.append(np.where(test_y == 1, p1, 1.0 - p1))
    correct["forest"] = runs[0]
    probability["forest"] = np.mean(run_prob, axis=0)

    index = data.index[~train]
    pupils = pd.DataFrame({"class": data.loc[~train, "class"].to_numpy(),
                           "lang": data.loc[~train, "lang"].to_numpy(), "passed": test_y}, index=index)
    sample_table = pd.DataFrame(np.column_stack(runs), index=index,
                                columns=pd.Index(range(1, samples + 1), name="run"))
    return PupilEvaluation(
        pupils=pupils,
        correct=pd.DataFrame(correct, index=index),
        probability=pd.DataFrame(probability, index=index),
        samples=sample_table,
        threshold=threshold,
        n_train=int(train.sum()),
        train_classes=int(len(train_classes)),
        test_classes=int(pupils["class"].nunique()),
    )
