"""The published tables and grids that the many-data-sets tests and the critical values are shown on.

Paper artefacts, not methods: the rank tests of :mod:`evallib.manydatasets` and the critical
values of :mod:`evallib.onetestset` take any table; these are the ones the sources printed.

- :func:`flach_example_12_4` -- Flach (2012), Example 12.4: accuracies of three learners in
  10-fold cross-validation (notebook 04; Examples 12.6-12.8 reuse it).
- :func:`demsar_table_6` -- Demšar (2006), Table 6: AUCs of four variants of C4.5 on 14 UCI
  data sets, and the ranks he printed (notebook 07).
- :data:`PAPER_GRID` -- Forman & Cohen (2005): the conditions of the critical-value tables, the
  grid of the shipped ``data/critical_values.csv`` (notebook 02).
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd

from .._resources import data_path
from ..onetestset import critical_value_table

__all__ = ["flach_example_12_4", "demsar_table_6", "PAPER_GRID"]


def flach_example_12_4() -> pd.DataFrame:
    """Example 12.4's table: accuracies of three learners in 10-fold cross-validation.

    Typed from Flach (2012), p. 351; read from ``data/flach_example_12_4.csv``.
    Example 12.8 reuses it as if the ten rows were ten data sets.

    Returns
    -------
    pandas.DataFrame
        Index ``fold`` (1-10), columns ``Naive Bayes``, ``Decision tree``,
        ``Nearest neighbour``, accuracies to four decimals as printed.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning: The Art and Science of Algorithms that Make Sense
       of Data*. Cambridge University Press, chapter 12.

    Examples
    --------
    The book's "avg" line: 0.6937, 0.7902 and 0.7606.

    >>> from evallib.studies import flach_example_12_4
    >>> flach_example_12_4().mean().round(4).tolist()
    [0.6937, 0.7902, 0.7606]
    """
    return pd.read_csv(data_path("flach_example_12_4.csv"), index_col="fold")


_DEMSAR_DATA_SETS = (
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
    "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum",
    "voting", "wine",
)
_DEMSAR_AUC = (
    (0.763, 0.768, 0.771, 0.798), (0.599, 0.591, 0.590, 0.569), (0.954, 0.971, 0.968, 0.967),
    (0.628, 0.661, 0.654, 0.657), (0.882, 0.888, 0.886, 0.898), (0.936, 0.931, 0.916, 0.931),
    (0.661, 0.668, 0.609, 0.685), (0.583, 0.583, 0.563, 0.625), (0.775, 0.838, 0.866, 0.875),
    (1.000, 1.000, 1.000, 1.000), (0.940, 0.962, 0.965, 0.962), (0.619, 0.666, 0.614, 0.669),
    (0.972, 0.981, 0.975, 0.975), (0.957, 0.978, 0.946, 0.970),
)
_DEMSAR_RANKS = (
    (4, 3, 2, 1), (1, 2, 3, 4), (4, 1, 2, 3), (4, 1, 3, 2), (4, 2, 3, 1), (1, 2.5, 4, 2.5),
    (3, 2, 4, 1), (2.5, 2.5, 4, 1), (4, 3, 2, 1), (2.5, 2.5, 2.5, 2.5), (4, 2.5, 1, 2.5),
    (3, 2, 4, 1), (4, 1, 2, 3), (3, 1, 4, 2),
)


def demsar_table_6(*, ranks: bool = False) -> pd.DataFrame:
    """Demšar (2006), Table 6: AUC of four variants of C4.5 on 14 UCI data sets.

    C4.5 with ``m = 0`` and ``cf = 0.25``; C4.5+m, with ``m`` tuned by internal
    5-fold cross-validation; C4.5+cf, with ``cf`` tuned; C4.5+m+cf, both tuned.
    The first two columns are his Table 2.

    Parameters
    ----------
    ranks : bool
        ``False``: the AUCs as printed (three decimals). ``True``: the ranks printed
        in parentheses (1 = best). They follow the AUCs except on *voting*, where
        the two printed 0.975s are ranked 2 (C4.5+cf) and 3 (C4.5+m+cf), presumably
        from the unrounded AUCs. Demšar's average ranks 3.143, 2.000, 2.893, 1.964
        and his chi-square 9.28 come from these ranks; the printed AUCs tie on
        voting and give 2.929 and 1.929 for the last two.

    Returns
    -------
    pandas.DataFrame
        Index ``data set``, columns ``C4.5``, ``C4.5+m``, ``C4.5+cf``, ``C4.5+m+cf``.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data
    sets. JMLR 7, 1-30, Tables 2 and 6.

    Examples
    --------
    >>> demsar_table_6(ranks=True).mean().round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]
    """
    if not isinstance(ranks, (bool, np.bool_)):
        raise TypeError(f"ranks must be True or False, got {ranks!r}")
    values = _DEMSAR_RANKS if ranks else _DEMSAR_AUC
    return pd.DataFrame([list(map(float, row)) for row in values],
                        index=pd.Index(_DEMSAR_DATA_SETS, name="data set"),
                        columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"])


_TABLE_DEFAULTS = inspect.signature(critical_value_table).parameters

#: Forman & Cohen's conditions (Table 1) extended to alpha = 0.05: the four metrics, 35 sizes
#: (``Ps``, used for both P and N: 34 log-spaced over 2..1000, and the 10, 100 and 300 that the
#: paper quotes), C = 10, 100, 1000 and alpha = 0.01, 0.05. The grid of the shipped
#: ``data/critical_values.csv``. It is read from the defaults of
#: :func:`evallib.onetestset.critical_value_table`, which computes on it, so that the grid is
#: written once.
PAPER_GRID = {name: _TABLE_DEFAULTS[name].default for name in ("metrics", "Ps", "Cs", "alphas")}
