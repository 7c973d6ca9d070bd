"""Planning design 2, resampling one data set: the power of the CV t-tests for two
learners that truly differ, beside their type I error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._plotting import get_axes
from .._validate import check_alpha, check_count, check_real, check_rng
from ..resampling import simulate_unequal_learners

__all__ = ['cv_power_curve', 'cv_ttest_power', 'plot_cv_power']


# -------------------------------------------------------------- cross-validation
def cv_ttest_power(n_samples: int, difference: float, *, folds: int = 10, repeats: int = 10,
                   alpha: float = 0.05, n_datasets: int = 500, bayes_error: float = 0.25,
                   rng: Any = None, return_rejections: bool = False):
    """Power of the cross-validation t-tests for two learners that truly differ, beside their size.

    Runs :func:`evallib.simulate_unequal_learners` (learner A's Bayes accuracy higher by
    ``difference``) and, on the same random numbers, the same study with ``difference = 0``
    (equal learners). A test rejects when ``pvalue <= alpha``; the rejection rate is its
    power in the first study and its type I error rate (size) in the second. The naive
    paired t-test over all folds "wins" on power only because its size is far above
    ``alpha`` (the training sets overlap); the corrected resampled t-test of Nadeau &
    Bengio (2003) and Dietterich's 5x2cv keep their size near ``alpha`` and pay in power.

    Parameters
    ----------
    n_samples : int
        Cases per simulated data set (see :func:`evallib.simulate_unequal_learners`).
    difference : float
        A's Bayes accuracy minus B's, in ``[0, 0.5 - bayes_error)``.
    folds, repeats : int
        The repeated cross-validation (``repeats`` x ``folds``-fold).
    alpha : float
        Level, in (0, 1).
    n_datasets : int
        Simulated data sets per study; Monte Carlo SE at most ``0.5 / sqrt(n_datasets)``.
    bayes_error : float
        Learner A's Bayes error, in (0, 0.5).
    rng : None, int, SeedSequence or Generator
        One integer seed is drawn from it and shared by the two studies (common random
        numbers).
    return_rejections : bool, default False
        Also return the power study's rejections per simulated data set, so that two
        tests' powers can be compared paired (on the same data sets).

    Returns
    -------
    pandas.DataFrame
        One row per test: ``n_samples, test, power, power_mcse, size, size_mcse``.
        With ``return_rejections``, the pair ``(table, rejections)``: ``rejections`` is a
        boolean DataFrame, one row per simulated data set of the power study (index
        ``dataset``), one column per test.

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. *Machine
    Learning* 52, 239-281.
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. *Neural Computation* 10, 1895-1923.
    Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD.

    Examples
    --------
    With equal learners (``difference = 0``) power and size are the same numbers:

    >>> t = cv_ttest_power(40, 0.0, folds=5, repeats=2, n_datasets=20, rng=0)
    >>> bool((t["power"] == t["size"]).all())
    True
    """
    alpha = check_alpha(alpha)
    difference = check_real(difference, "difference", low=0.0, high=0.5)
    seed = int(check_rng(rng).integers(2**31 - 1))
    settings = dict(bayes_error=bayes_error, folds=folds, repeats=repeats, n_datasets=n_datasets, rng=seed)
    out, per_dataset = {}, None
    for name, delta in (("power", difference), ("size", 0.0)):
        sim = simulate_unequal_learners(n_samples, difference=delta, **settings)
        rejected = sim["pvalue"] <= alpha
        if per_dataset is None:
            tests = list(dict.fromkeys(sim["test"]))
            per_dataset = (pd.DataFrame({"dataset": sim["dataset"], "test": sim["test"], "reject": rejected})
                           .pivot(index="dataset", columns="test", values="reject")[tests].astype(bool))
            per_dataset.columns.name = None
        rej = rejected.groupby(sim["test"], sort=False)
        rate, count = rej.mean(), rej.size()
        out[name] = rate
        out[f"{name}_mcse"] = np.sqrt(rate * (1 - rate) / count)
    table = pd.DataFrame(out).rename_axis("test").reset_index()
    table.insert(0, "n_samples", check_count(n_samples, "n_samples"))
    return (table, per_dataset) if return_rejections else table


def cv_power_curve(ns: Any, difference: float, *, folds: int = 10, repeats: int = 10, alpha: float = 0.05,
                   n_datasets: int = 500, bayes_error: float = 0.25, rng: Any = None,
                   return_rejections: bool = False):
    """:func:`cv_ttest_power` at each data-set size in ``ns`` (one table, tidy).

    Parameters
    ----------
    ns : int or sequence of int >= 1
        Data-set sizes (cases).
    difference : float
        The true difference in accuracy between the two learners.
    folds, repeats : int, default 10
        The cross-validation design (``repeats`` times ``folds``-fold).
    alpha : float in (0, 1), default 0.05
        The level of the tests.
    n_datasets : int >= 1, default 500
        Simulated data sets per size.
    bayes_error : float, default 0.25
        The error rate of the better learner's Bayes rule, as in :func:`cv_ttest_power`.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Randomness, normalised by ``check_rng``; one generator serves every size.
    return_rejections : bool, default False
        Also return the power study's rejections per simulated data set.

    Returns
    -------
    pandas.DataFrame
        :func:`cv_ttest_power`'s rows for every size: ``n_samples, test, power,
        power_mcse, size, size_mcse``. With ``return_rejections``, the pair
        ``(table, rejections)``: ``rejections`` is a boolean DataFrame indexed by
        ``(n_samples, dataset)``, one column per test (the power study's rejections).
    """
    gen = check_rng(rng)
    ns = [check_count(v, "ns", minimum=1) for v in np.atleast_1d(np.asarray(ns)).ravel()]
    if not ns:
        raise ValueError("ns must hold at least one data-set size")
    runs = [cv_ttest_power(v, difference, folds=folds, repeats=repeats, alpha=alpha, n_datasets=n_datasets,
                           bayes_error=bayes_error, rng=gen, return_rejections=True) for v in ns]
    table = pd.concat([t for t, _ in runs], ignore_index=True)
    if not return_rejections:
        return table
    return table, pd.concat({v: r for v, (_, r) in zip(ns, runs)}, names=["n_samples", "dataset"])


def plot_cv_power(table: pd.DataFrame, *, alpha: float | None = None, ax=None):
    """Power (solid, ± 2 MC SE) and size (dotted) of each CV t-test against the data-set size.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`cv_power_curve`'s output.
    alpha : float in (0, 1), optional
        The nominal level to mark as a horizontal line; None marks none.
    ax : matplotlib.axes.Axes, optional
        Draws on ``ax``, or on a new figure when None.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.
    """
    need = {"n_samples", "test", "power", "power_mcse", "size"}
    missing = need - set(getattr(table, "columns", []))
    if missing:
        raise ValueError(f"table must be cv_power_curve's output; missing columns {sorted(missing)}")
    ax = get_axes(ax, figsize=(8.5, 3.8))
    for i, (test, part) in enumerate(table.groupby("test", sort=False)):
        ax.errorbar(part["n_samples"], part["power"], yerr=2 * part["power_mcse"], color=f"C{i}", marker="o",
                    ms=3, capsize=2, label=f"{test}: power")
        ax.plot(part["n_samples"], part["size"], color=f"C{i}", ls=":", lw=1)
    if alpha is not None:
        ax.axhline(check_alpha(alpha), color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("cases per data set")
    ax.set_ylabel("rejection rate (solid: power, dotted: size)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax
