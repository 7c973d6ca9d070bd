"""The exact permutation p-value of Friedman's statistic, for the two reports that decide with it.

The many-data-sets report's section 2 (:mod:`evallib.report._datasets_sections`) and the
predictions report's fold analysis (:mod:`evallib.report._sections`) both read Friedman's
statistic against the permutation law of each block's own ranks, conditional on the ties
(:func:`evallib.manydatasets.friedman_null_distribution`). The rule lives here, below both, so
that neither report imports the other.
"""

from __future__ import annotations

from ..manydatasets import FriedmanResult, friedman_null_distribution

#: Most classifiers for which the exact law of Friedman's statistic is tried (its enumeration
#: starts from all k! orders: 720 for k = 6, 3.6 million for k = 10).
EXACT_MAX_CLASSIFIERS = 6


def exact_friedman_p(fr: FriedmanResult) -> float | None:
    """Exact p-value of Friedman's statistic under the permutation law of each data set's own ranks
    (conditional on the ties when there are some), None for tables too large to enumerate."""
    if fr.k > EXACT_MAX_CLASSIFIERS:
        return None
    try:
        null = friedman_null_distribution(fr.k, fr.n, ranks=fr.ranks.to_numpy())
    except ValueError:  # too large for the enumeration budget
        return None
    values = null.index.to_numpy(dtype=float)
    return float(min(1.0, null.to_numpy()[values >= fr.statistic - 1e-9].sum()))
