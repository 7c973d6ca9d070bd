"""The shipped example predictions file (the breast-cancer case study's five models)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._resources import data_path
from .._validate import sklearn_random_state
from ..studies import DLDA, load_gse4335, run_case_study, swap_labels

#: The shipped example predictions file.
EXAMPLE_PATH: Path = data_path("example_predictions.csv")

# ------------------------------------------------------------------ the example
def make_example_predictions(*, rng: Any = None) -> pd.DataFrame:
    """The shipped example: the five case-study models on their test set.

    Runs :func:`evallib.studies.run_case_study` on GSE4335 (loaded from the SurvSet
    package) with its defaults and one integer seed (``rng`` itself when it is an int, as
    for the shipped file, ``rng=0``; otherwise one drawn from it), so that the corrupted
    labels can be redrawn exactly, and stores, per test case, the true ER status
    (``"ER+"``/``"ER-"``) and each model's prediction; models #1-#3 (DLDA) also get a
    score, ``dlda(x, ER+) - dlda(x, ER-)`` of eq. (6), higher meaning closer to ER-, the
    less frequent class, which the report's example run names as the positive class. The DLDA models are
    refitted on the study's learning set (model #3 on the same corrupted labels, redrawn
    from the same seed) so that their scores can be stored; the test suite checks that the
    refitted models predict exactly what the study's did.

    Parameters
    ----------
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        Seeds the whole run with one integer (through
        ``evallib._validate.sklearn_random_state``): an int ``>= 0`` is used as given
        (the shipped file is ``rng=0``); anything else first draws that int, so ``None``
        gives a different test set and corrupted labels at each call.

    Returns
    -------
    pandas.DataFrame
        Columns ``label``, ``pred_<m>`` for the five models and ``score_<m>`` for the
        three DLDA models (scores rounded to 6 decimals); no expression data.
    """
    X, y = load_gse4335()
    seed = sklearn_random_state(rng)
    study = run_case_study(X, y, rng=seed)
    Xa, ya = X.to_numpy(dtype=float), y.to_numpy()
    learn, test = study.learn_idx, study.test_idx
    y_learn = ya[learn]
    _, g_swap, _, _ = np.random.default_rng(seed).spawn(4)
    y_corrupt = swap_labels(y_learn, 5, rng=g_swap)
    cols = {name: i for i, name in enumerate(X.columns)}
    names = {1: "dlda30", 2: "dlda10", 3: "dlda30_swapped", 4: "coin", 5: "prior"}
    er = np.array(["ER-", "ER+"], dtype=object)  # y: 1 = ER+
    frame = pd.DataFrame({"label": er[ya[test]]})
    for m, name in names.items():
        frame[f"pred_{name}"] = er[np.asarray(study.predictions[m], dtype=int)]
    for m, labels in ((1, y_learn), (2, y_learn), (3, y_corrupt)):
        genes = [cols[g] for g in study.genes[m]]
        model = DLDA().fit(Xa[np.ix_(learn, genes)], labels)
        dist = model.discriminant(Xa[np.ix_(test, genes)])
        frame[f"score_{names[m]}"] = np.round(dist[:, 1] - dist[:, 0], 6)
    return frame
