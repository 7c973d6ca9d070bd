"""Design 3: many data sets, several learning algorithms, one score per data set each.

The data sets are the independent units; the scores of the algorithms on one data set
are paired, and rank tests avoid comparing scores across data sets.

- :mod:`.ranktests` -- Flach (2012), chapter 12, after Demšar (2006): Wilcoxon's
  signed-rank test with its exact null distribution, the sign test, the Friedman test
  (chi-square, Iman–Davenport, exact), the Nemenyi and Bonferroni–Dunn critical
  differences (notebooks 04 and 07). The tables they are shown on (Flach's Example 12.4,
  Demšar's Table 6) and the offline benchmark are in :mod:`evallib.studies`.
- :mod:`.posthoc` -- García & Herrera (2008): post-hoc procedures after Friedman with
  adjusted p-values (Nemenyi, Holm, Shaffer, Bergmann–Hommel, Finner, Li, Holland, Rom,
  Benjamini–Hochberg and -Yekutieli, ...), the
  critical-difference diagram with its cliques, and the rank analysis behind notebook
  04's table editor (notebook 07).
- :mod:`.omnibus` -- Friedman's alternatives: the aligned-ranks test (Hodges & Lehmann;
  García et al. 2010) and Quade's test (1979) with their post-hoc comparisons, and
  Skillings & Mack (1981) for tables with missing runs.
- :mod:`.ranksums` -- Eisinga et al. (2017): exact p-values for the difference of two
  Friedman rank sums.
- :mod:`.bayesian` -- Benavoli et al. (2014, 2017): the Bayesian signed-rank and sign tests
  with a region of practical equivalence, and their simplex plot (notebook 07).
- :mod:`.hierarchical` -- Corani et al. (2017): the Bayesian hierarchical model over the
  folds of many data sets, sampled with NumPy (no Stan).

Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from .._compat import moved_names as _moved_names
from . import _bayesian as _bayesian
from . import _hierarchical as _hierarchical
from . import _omnibus as _omnibus
from . import _posthoc as _posthoc
from . import _ranksums as _ranksums
from . import _ranktests as _ranktests
from ._bayesian import *  # noqa: F401,F403
from ._hierarchical import *  # noqa: F401,F403
from ._omnibus import *  # noqa: F401,F403
from ._posthoc import *  # noqa: F401,F403
from ._ranksums import *  # noqa: F401,F403
from ._ranktests import *  # noqa: F401,F403

__all__ = [*_ranktests.__all__, *_posthoc.__all__, *_bayesian.__all__, *_omnibus.__all__, *_ranksums.__all__, *_hierarchical.__all__]

# Moved in 0.2.0: the books' tables and the offline benchmark are paper artefacts (evallib.studies).
__getattr__ = _moved_names(__name__, {
    **{n: f"evallib.studies._tables:{n}" for n in ("demsar_table_6", "flach_example_12_4")},
    **{n: f"evallib.studies._benchmark:{n}" for n in ("OFFLINE_DATASETS", "OFFLINE_LEARNERS", "offline_benchmark",
                                                      "offline_benchmark_scores")}})
