"""The shipped example per-item file: four real classifiers on 1,191 pupils in 67 classes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .._resources import data_path
from .._validate import check_count, sklearn_random_state
from ..studies import evaluate_pupils

__all__ = ["ITEMS_EXAMPLE_PATH", "make_example_items"]

#: The shipped example per-item file (long layout), the per-item report's default input.
ITEMS_EXAMPLE_PATH: Path = data_path("example_items.csv")


def make_example_items(*, samples: int = 5, rng: Any = None) -> pd.DataFrame:
    """The shipped example: :func:`evallib.evaluate_pupils` written as a long per-item file.

    The items are the test pupils of ``nlschools`` (the column ``item``), in their classes
    (``cluster``); each of four scikit-learn classifiers trained on the pupils of the other
    classes is right (1) or wrong (0) on each item (``score``). Logistic regression, gradient
    boosting and 25-nearest neighbours answer once (``sample`` 1); the random forest is
    refitted with ``samples`` seeds and answers ``samples`` times, as a language model
    sampled at a temperature does.

    Parameters
    ----------
    samples : int
        Runs of the random forest, at least 2.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The split of the classes and the learners' seeds, from one integer (``rng`` itself
        when it is an int, so the file can be regenerated exactly: the shipped one is
        ``rng=0``; otherwise one drawn from it).

    Returns
    -------
    pandas.DataFrame
        Columns ``item``, ``cluster``, ``model``, ``sample``, ``score``; one row per answer.
    """
    samples = check_count(samples, "samples", minimum=2)
    ev = evaluate_pupils(samples=samples, rng=sklearn_random_state(rng))
    cluster = ev.pupils["class"]
    parts = []
    for model in ("logistic", "boosting", "knn"):
        parts.append(pd.DataFrame({"item": ev.correct.index, "cluster": cluster.to_numpy(), "model": model,
                                   "sample": 1, "score": ev.correct[model].to_numpy()}))
    for run in ev.samples.columns:
        parts.append(pd.DataFrame({"item": ev.samples.index, "cluster": cluster.to_numpy(), "model": "forest",
                                   "sample": int(run), "score": ev.samples[run].to_numpy()}))
    return pd.concat(parts, ignore_index=True)
