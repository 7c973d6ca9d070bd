"""Design 1: one test set, two or more classifiers scored on the same test cases.

Every case is an independent draw and carries one prediction per classifier; the
comparisons are paired through the cases the classifiers share.

- :mod:`._mcnemar`, :mod:`._exactpaired` -- the McNemar family: McNemar's test (Yates,
  exact, mid-p; Berrar & Lozano 2013, eq. 2), the exact unconditional test (Fagerland,
  Lydersen & Laake 2013) and the interval that agrees with the exact test (Fay & Lumbard 2021).
- :mod:`._paired_intervals` -- the Quesenberry–Hurst interval and the recommended intervals
  for the difference of two correlated error rates (notebook 01).
- :mod:`._noninferiority` -- Tango's (1998) score test that A is no worse than B, or
  equivalent, up to a margin (the dual of Tango's score interval).
- :mod:`._coverage` -- their exact coverage and the tests' exact size, by enumeration.
- :mod:`._pairwise` -- every pair of k classifiers: tests and intervals adjusted for
  multiplicity (:mod:`evallib._multitest`), Table 2 and Figure 4.
- :mod:`._nullbest`, :mod:`._nullbest_plots` -- Forman & Cohen (2005): is the best of C
  classifiers better than chance?  Exact best-of-C critical values, the Monte Carlo,
  Figures 1-7 (notebook 02).
- :mod:`._bizarre` -- Keller, Bengio & Wong: tests for measures that are not sums over
  cases (DCF, F1) and the F1 bootstrap (notebook 03).
- :mod:`._measures` -- Flach (2012), chapter 12: measures from a contingency table and the
  accuracy interval (notebook 04).
- :mod:`._scoring` -- DeLong, DeLong & Clarke-Pearson (1988), Sun & Xu (2014): paired AUCs;
  Brier (1950) and the log loss as per-case losses (the report, section 4).
- :mod:`._cochran` -- Cochran (1950): Q for k classifiers on one test set.
- :mod:`._multiclass` -- Flach's measures for K classes and the macro-F1 bootstrap.
- :mod:`._agreement` -- Cohen's kappa with its interval (Fleiss, Cohen & Everitt 1969).

The modules are private; every public name is importable from here and from ``evallib``.
"""

# The submodules under private names first: a star import may bind a function of the same
# name (measures.measures) over the module attribute.
from .._compat import moved_names as _moved_names
from . import (_agreement, _bizarre, _cochran, _coverage, _exactpaired, _mcnemar, _measures, _multiclass,
               _noninferiority, _nullbest, _nullbest_plots, _paired_intervals, _pairwise, _scoring)
from ._agreement import *  # noqa: F401,F403
from ._bizarre import *  # noqa: F401,F403
from ._cochran import *  # noqa: F401,F403
from ._coverage import *  # noqa: F401,F403
from ._exactpaired import *  # noqa: F401,F403
from ._mcnemar import *  # noqa: F401,F403
from ._measures import *  # noqa: F401,F403
from ._multiclass import *  # noqa: F401,F403
from ._noninferiority import *  # noqa: F401,F403
from ._nullbest import *  # noqa: F401,F403
from ._nullbest_plots import *  # noqa: F401,F403
from ._paired_intervals import *  # noqa: F401,F403
from ._pairwise import *  # noqa: F401,F403
from ._scoring import *  # noqa: F401,F403

__all__ = [*_mcnemar.__all__, *_exactpaired.__all__, *_paired_intervals.__all__, *_noninferiority.__all__, *_coverage.__all__, *_pairwise.__all__,
           *_nullbest.__all__, *_nullbest_plots.__all__, *_bizarre.__all__, *_measures.__all__, *_scoring.__all__, *_cochran.__all__, *_multiclass.__all__, *_agreement.__all__]

# Moved in 0.2.0: notebook 01's section-7 callbacks to the lessons' support, the printed (wrong)
# eq. (12) of Keller, Bengio & Wong and Forman & Cohen's grid to the studies.
__getattr__ = _moved_names(__name__, {
    **{n: f"evallib.lessons._pairwise:{n}" for n in ("describe_comparison", "plot_pvalue_vs_interval")},
    "printed_eq12": "evallib.studies._textsim:printed_eq12",
    "PAPER_GRID": "evallib.studies._tables:PAPER_GRID"})
