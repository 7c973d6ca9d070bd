"""The case study of Berrar & Lozano (2013), sections 7 and 8, in one call.

:func:`run_case_study` splits the data, builds the paper's five models on
the learning set, predicts the test set and compares all ten pairs of
models with McNemar's test and confidence intervals (Table 2, Figure 4);
:func:`case_study_table` and :func:`plot_case_study` show one run as that table and figure.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from .._results import freeze_arrays
from .._validate import check_binary_labels, check_int, check_rng
from ..onetestset import compare_pairwise, format_table, plot_intervals
from ._data import paper_test_size, stratified_split
from ._models import (
    DLDA,
    _rank_pvalues,
    class_prior_model,
    fair_coin,
    swap_labels,
    welch_pvalues,
)

__all__ = ["CaseStudy", "MODEL_NAMES", "run_case_study", "case_study_runner", "case_study_table",
           "plot_case_study"]

#: Short descriptions of the paper's models #1-#5 (section 7).
MODEL_NAMES: dict[int, str] = {
    1: "DLDA, top 30 genes",
    2: "DLDA, top 10 genes",
    3: "DLDA, top 30 genes, corrupted labels",
    4: "fair coin",
    5: "class prior",
}


@dataclass(frozen=True, eq=False)
class CaseStudy:
    """Result of :func:`run_case_study`.

    Attributes
    ----------
    y_test : numpy.ndarray
        True labels of the test set.
    predictions : dict[int, numpy.ndarray]
        Test-set predictions of models 1-5 (the paper's numbering).
    error_rates : pandas.Series
        Test-set error rate of each model, indexed 1-5.
    table : pandas.DataFrame
        Pairwise comparisons from :func:`evallib.onetestset.compare_pairwise`
        (one row per pair, ranked like the paper's Table 2).
    learn_idx, test_idx : numpy.ndarray of int
        Sorted positions of the learning and test samples in ``X``/``y``.
    genes : dict[int, list[str]]
        Genes selected for models 1-3, best first.
    """

    y_test: np.ndarray
    predictions: dict[int, np.ndarray]
    error_rates: pd.Series
    table: pd.DataFrame
    learn_idx: np.ndarray
    test_idx: np.ndarray
    genes: dict[int, list[str]]

    def __post_init__(self) -> None:
        freeze_arrays(self)


def run_case_study(
    X: pd.DataFrame | np.ndarray,
    y: pd.Series | np.ndarray,
    *,
    test_size: int | float | None = None,
    n_genes_1: int = 30,
    n_genes_2: int = 10,
    n_swap: int = 5,
    alpha: float = 0.05,
    adjust: str = "holm",
    rng: Any = None,
) -> CaseStudy:
    """Run the whole experiment of section 7 and compare the five models.

    1. Stratified random split (:func:`evallib.studies.stratified_split`);
       ``test_size=None`` uses the paper's proportion, 50 of 119.
    2. Model #1: DLDA (eq. 6) on the ``n_genes_1`` genes with the smallest
       Welch p-values in the learning set; model #2: the same with
       ``n_genes_2`` genes.
    3. Model #3: ``n_swap`` learning labels of each class swapped, then
       ``n_genes_1`` genes selected on the corrupted labels, then DLDA.
    4. Model #4: a fair coin; model #5: the learning set's class prior.
    5. All ten pairs compared with
       :func:`evallib.onetestset.compare_pairwise`.

    Parameters
    ----------
    X : pandas.DataFrame or numpy.ndarray of shape (n_samples, n_genes)
        Expression data (e.g. from :func:`evallib.studies.load_gse4335`).
        Without column names, genes are named by their column position.
    y : pandas.Series or numpy.ndarray of shape (n_samples,)
        Two-class labels.
    test_size : int, float or None, default None
        Test-set size (count or fraction); ``None`` means
        ``paper_test_size(len(y))``.
    n_genes_1, n_genes_2 : int, default 30 and 10
        Genes used by models #1/#3 and by model #2.
    n_swap : int, default 5
        Labels swapped per class for model #3; at most the size of the
        smaller class in the learning set.
    alpha : float, default 0.05
        Family-wise significance level, passed to ``compare_pairwise``.
    adjust : str, default "holm"
        Multiple-testing adjustment, passed to ``compare_pairwise``.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, default None
        The randomness, normalised by ``check_rng`` (an int is reproducible).
        Four independent child generators are spawned from it, in this fixed order: split, label
        swap (#3), coin (#4), prior assignment (#5). So each model's
        randomness is reproducible, and changing e.g. ``n_swap`` does not
        change the split or the coin.

    Returns
    -------
    CaseStudy
    """
    Xa, ya, names = _prepare(X, y)
    n_genes_1, n_genes_2 = _check_genes(Xa, n_genes_1, n_genes_2)
    g_split, g_swap, g_coin, g_prior = check_rng(rng).spawn(4)
    split = _split_stage(Xa, ya, test_size, g_split)
    n_swap = _check_swap(split, n_swap)
    corrupt = _swap_stage(Xa, ya, split, n_swap, g_swap)
    return _assemble(Xa, ya, names, split, corrupt, n_genes_1, n_genes_2, g_coin, g_prior,
                     alpha, adjust)


# The stages of run_case_study, shared with case_study_runner (which caches them).
@dataclass(frozen=True)
class _Split:
    learn_idx: np.ndarray
    test_idx: np.ndarray
    order: np.ndarray          # genes by increasing Welch p-value on the learning set (stable)
    classes: np.ndarray
    min_class: int             # size of the learning set's smaller class


def _prepare(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, Any]:
    if isinstance(X, pd.DataFrame):
        names = X.columns
        Xa = X.to_numpy(dtype=float)
    else:
        Xa = np.asarray(X, dtype=float)
        if Xa.ndim != 2:
            raise ValueError(f"X must be 2-dimensional (samples x genes), got shape {Xa.shape}")
        names = None             # genes are named by their column position
    ya = check_binary_labels(y, "y")
    if Xa.shape[0] != ya.size:
        raise ValueError(
            f"X and y must have the same number of samples, got {Xa.shape[0]} and {ya.size}"
        )
    return Xa, ya, names


def _check_genes(Xa: np.ndarray, n_genes_1: Any, n_genes_2: Any) -> tuple[int, int]:
    n_features = Xa.shape[1]
    return (check_int(n_genes_1, "n_genes_1", 1, n_features),
            check_int(n_genes_2, "n_genes_2", 1, n_features))


def _split_stage(Xa: np.ndarray, ya: np.ndarray, test_size: Any, g_split) -> _Split:
    if test_size is None:
        test_size = paper_test_size(ya.size)
    learn_idx, test_idx = stratified_split(ya, test_size, rng=g_split)
    y_learn = ya[learn_idx]
    classes, learn_counts = np.unique(y_learn, return_counts=True)
    # Models #1 and #2 share one Welch ranking of the learning set; a stable sort of all
    # genes once, so the top k for any k is a prefix (= _rank_pvalues(p, k)).
    order = _rank_pvalues(welch_pvalues(Xa[learn_idx], y_learn), Xa.shape[1])
    return _Split(learn_idx, test_idx, order, classes, int(learn_counts.min()))


def _check_swap(split: _Split, n_swap: Any) -> int:
    return check_int(n_swap, "n_swap", 0, split.min_class)


def _swap_stage(Xa: np.ndarray, ya: np.ndarray, split: _Split, n_swap: int,
                g_swap) -> tuple[np.ndarray, np.ndarray]:
    # Model #3: corrupt the learning labels, then select on them.
    y_corrupt = swap_labels(ya[split.learn_idx], n_swap, rng=g_swap)
    order = _rank_pvalues(welch_pvalues(Xa[split.learn_idx], y_corrupt), Xa.shape[1])
    return y_corrupt, order


def _assemble(Xa, ya, names, split: _Split, corrupt, n_genes_1: int, n_genes_2: int,
              g_coin, g_prior, alpha, adjust) -> CaseStudy:
    learn_idx, test_idx = split.learn_idx, split.test_idx
    y_learn, y_test = ya[learn_idx], ya[test_idx]
    y_corrupt, order_3 = corrupt
    genes_1, genes_2, genes_3 = split.order[:n_genes_1], split.order[:n_genes_2], order_3[:n_genes_1]

    def dlda_on(genes: np.ndarray, labels: np.ndarray) -> np.ndarray:
        model = DLDA().fit(Xa[np.ix_(learn_idx, genes)], labels)
        return model.predict(Xa[np.ix_(test_idx, genes)])

    predictions = {
        1: dlda_on(genes_1, y_learn),
        2: dlda_on(genes_2, y_learn),
        3: dlda_on(genes_3, y_corrupt),
        4: fair_coin(len(test_idx), classes=tuple(split.classes), rng=g_coin),
        5: class_prior_model(y_learn, len(test_idx), rng=g_prior),
    }
    error_rates = pd.Series(
        {m: float(np.mean(pred != y_test)) for m, pred in predictions.items()},
        name="error_rate",
    )
    error_rates.index.name = "model"

    def named(genes: np.ndarray) -> list[str]:
        return [str(names[g]) if names is not None else str(g) for g in genes]

    table = compare_pairwise(y_test, predictions, alpha=alpha, adjust=adjust)
    return CaseStudy(
        y_test=y_test,
        predictions=predictions,
        error_rates=error_rates,
        table=table,
        learn_idx=learn_idx,
        test_idx=test_idx,
        genes={1: named(genes_1), 2: named(genes_2), 3: named(genes_3)},
    )


def case_study_runner(X: pd.DataFrame | np.ndarray, y: pd.Series | np.ndarray, *,
                      maxsize: int = 128) -> Callable[..., CaseStudy]:
    """:func:`run_case_study` on fixed data, with its stages cached: for sliders.

    Returns a function ``run(*, test_size=None, n_genes_1=30, n_genes_2=10, n_swap=5,
    alpha=0.05, adjust="holm", seed=0)`` whose result equals
    ``run_case_study(X, y, ..., rng=seed)`` for an int ``seed >= 0``. What a new setting
    does not change is not recomputed: the split and the Welch ranking of the learning set
    are kept per ``(test_size, seed)``, model #3's corrupted labels and their ranking per
    ``(test_size, seed, n_swap)``, and whole results per setting (the ``maxsize`` most
    recent of each). Moving a gene count then costs two small DLDA fits and the ten
    comparisons, instead of two Welch tests on every gene.

    Parameters
    ----------
    X, y
        As for :func:`run_case_study`; validated once, here, and ``X`` copied once (as
        floats), so changing it afterwards does not reach the cached results.
    maxsize : int, default 128
        Settings kept per cache (a split's entry holds two index arrays and one gene
        order, about 0.1 MB for 12,793 genes).

    Returns
    -------
    callable
        ``run(**settings)`` returning a :class:`CaseStudy`; a seed must be an int >= 0
        (a reproducible split is what makes caching possible).

    Examples
    --------
    >>> import numpy as np
    >>> from evallib.studies import case_study_runner, run_case_study
    >>> gen = np.random.default_rng(1)
    >>> y = np.repeat([0, 1], 20)
    >>> X = gen.normal(size=(40, 12)) + y[:, None]
    >>> run = case_study_runner(X, y)
    >>> a = run(test_size=20, n_genes_1=6, n_genes_2=3, n_swap=2, seed=0)
    >>> b = run_case_study(X, y, test_size=20, n_genes_1=6, n_genes_2=3, n_swap=2, rng=0)
    >>> a.error_rates.equals(b.error_rates), a.genes == b.genes
    (True, True)
    """
    Xa, ya, names = _prepare(X, y)
    Xa = np.array(Xa)                 # a private copy: the caches must not see later changes to X
    Xa.setflags(write=False)
    maxsize = check_int(maxsize, "maxsize", 1, 1_000_000)

    def streams(seed: int):
        return check_rng(seed, "seed").spawn(4)

    @lru_cache(maxsize=maxsize)
    def split_for(test_size, seed):
        return _split_stage(Xa, ya, test_size, streams(seed)[0])

    @lru_cache(maxsize=maxsize)
    def corrupt_for(test_size, seed, n_swap):
        split = split_for(test_size, seed)
        return _swap_stage(Xa, ya, split, _check_swap(split, n_swap), streams(seed)[1])

    @lru_cache(maxsize=maxsize)
    def result_for(test_size, n_genes_1, n_genes_2, n_swap, alpha, adjust, seed):
        n1, n2 = _check_genes(Xa, n_genes_1, n_genes_2)
        _, _, g_coin, g_prior = streams(seed)
        return _assemble(Xa, ya, names, split_for(test_size, seed), corrupt_for(test_size, seed, n_swap),
                         n1, n2, g_coin, g_prior, alpha, adjust)

    def run(*, test_size=None, n_genes_1=30, n_genes_2=10, n_swap=5, alpha=0.05, adjust="holm",
            seed=0) -> CaseStudy:
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an int >= 0, got {type(seed).__name__}")
        check_rng(seed, "seed")                      # ValueError for a negative seed
        return result_for(test_size, n_genes_1, n_genes_2, n_swap, alpha, adjust, int(seed))

    return run


# ------------------------------------------- one run as Table 2 and Figure 4
def _check_study(study: Any):
    if not isinstance(study, CaseStudy):
        raise TypeError(f"study must be a CaseStudy from evallib.run_case_study, got {type(study).__name__}")
    return study


def case_study_table(study: Any) -> pd.DataFrame:
    """One run of the case study as one readable table: Table 2 with the models' error rates.

    The table a re-run of Berrar & Lozano's section 7 shows (the sliders of notebook 01):
    :func:`format_table` of ``study.table`` with, in front, the observed test-set error
    rates of the two models of each pair, so that ``b``, ``c`` and the interval can be read
    against them (the difference of the two error rates is ``(b - c) / n``).

    Parameters
    ----------
    study : CaseStudy
        A result of :func:`evallib.studies.run_case_study`.

    Returns
    -------
    pandas.DataFrame
        Strings, indexed by pair ``(i, j)`` in Table 2's order (increasing p-value):
        ``error i`` and ``error j`` (error rates, three decimals), then the columns of
        :func:`format_table` (``b``, ``c``, ``X2``, ``p``, ``exact p``, ``alpha``,
        ``chi2 crit``, ``|pb - pc|``, ``CI``, ``adjusted CI``, ``reject H0``).
        ``attrs`` keeps ``n`` (test cases), ``alpha`` and ``adjust`` of the run; the
        numbers themselves stay unrounded in ``study.table``.

    References
    ----------
    D. Berrar and J. A. Lozano (2013), Significance tests or confidence intervals: which
    are preferable for the comparison of classifiers? J. Exp. Theor. Artif. Intell.
    25(2), 189-206, section 7 and Table 2.

    Examples
    --------
    Five models on a small synthetic two-class data set (40 samples, 12 genes):

    >>> import numpy as np
    >>> from evallib.studies import case_study_table, run_case_study
    >>> gen = np.random.default_rng(1)
    >>> y = np.repeat([0, 1], 20)
    >>> X = gen.normal(size=(40, 12)) + y[:, None]
    >>> study = run_case_study(X, y, test_size=20, n_genes_1=6, n_genes_2=3, n_swap=2, rng=0)
    >>> t = case_study_table(study)
    >>> t.shape, t.attrs["n"], list(t.columns[:4])
    ((10, 13), 20, ['error i', 'error j', 'b', 'c'])
    """
    study = _check_study(study)
    table = study.table
    rates = study.error_rates
    out = format_table(table)
    out.insert(0, "error j", [f"{rates[j]:.3f}" for _, j in table["pair"]])
    out.insert(0, "error i", [f"{rates[i]:.3f}" for i, _ in table["pair"]])
    out.attrs.update(n=int(len(study.y_test)), alpha=table.attrs.get("alpha"),
                     adjust=table.attrs.get("adjust"))
    return out


def plot_case_study(study: Any, ax=None):
    """Figure 4 of one run of the case study, its title saying what the grey intervals are.

    :func:`plot_intervals` of ``study.table``, titled with the number of test cases, the
    confidence level and the adjustment: with Holm's levels the grey intervals are not
    joint intervals (Holm's step-down controls the tests, not the intervals), with
    Bonferroni's they hold jointly, and without adjustment they coincide with the
    unadjusted ones.

    Parameters
    ----------
    study : CaseStudy
        A result of :func:`evallib.studies.run_case_study`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if ``None``.

    Returns
    -------
    matplotlib.axes.Axes

    References
    ----------
    D. Berrar and J. A. Lozano (2013), J. Exp. Theor. Artif. Intell. 25(2), 189-206,
    Figure 4; S. Holm (1979), A simple sequentially rejective multiple test procedure,
    Scand. J. Statist. 6, 65-70.

    Examples
    --------
    >>> import numpy as np
    >>> from evallib.studies import plot_case_study, run_case_study
    >>> gen = np.random.default_rng(1)
    >>> y = np.repeat([0, 1], 20)
    >>> X = gen.normal(size=(40, 12)) + y[:, None]
    >>> study = run_case_study(X, y, test_size=20, n_genes_1=6, n_genes_2=3, n_swap=2, rng=0)
    >>> plot_case_study(study).get_title()
    '20 test cases: 95% intervals (grey: at Holm levels, not joint intervals)'
    """
    study = _check_study(study)
    table = study.table
    alpha = table.attrs.get("alpha", 0.05)
    adjust = table.attrs.get("adjust", "holm")
    grey = {"holm": "grey: at Holm levels, not joint intervals",
            "bonferroni": "grey: at Bonferroni levels, jointly valid",
            "bh": "BH controls the FDR, no joint intervals: grey = unadjusted",
            "by": "BY controls the FDR, no joint intervals: grey = unadjusted",
            "none": "no adjustment: grey = unadjusted"}[adjust]
    title = f"{len(study.y_test)} test cases: {100 * (1 - alpha):g}% intervals ({grey})"
    return plot_intervals(table, ax=ax, title=title)
