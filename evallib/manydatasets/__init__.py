"""Design 3: many data sets, several learning algorithms, one score per data set each.

The data sets are the independent units; the scores of the algorithms on one data set
are paired, and rank tests avoid comparing scores across data sets.

- :mod:`.ranktests` -- Flach (2012), chapter 12, after Demšar (2006): Wilcoxon's
  signed-rank test with its exact null distribution, the sign test, the Friedman test
  (chi-square, Iman-Davenport, exact), the Nemenyi and Bonferroni-Dunn critical
  differences, and an offline benchmark to run them on (notebooks 04 and 07).
- :mod:`.posthoc` -- García & Herrera (2008): post-hoc procedures after Friedman with
  adjusted p-values (Nemenyi, Holm, Shaffer, Bergmann-Hommel, Finner, Li, ...), the
  critical-difference diagram with its cliques, and the rank analysis behind notebook
  04's table editor (notebook 07).
- :mod:`.bayesian` -- Benavoli et al. (2014, 2017): the Bayesian signed-rank test with a
  region of practical equivalence, and its simplex plot (notebook 07).

Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from . import bayesian as _bayesian
from . import posthoc as _posthoc
from . import ranktests as _ranktests
from .bayesian import *  # noqa: F401,F403
from .posthoc import *  # noqa: F401,F403
from .ranktests import *  # noqa: F401,F403

__all__ = [*_ranktests.__all__, *_posthoc.__all__, *_bayesian.__all__]
