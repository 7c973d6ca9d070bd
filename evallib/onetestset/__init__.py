"""Design 1: one test set, two or more classifiers scored on the same test cases.

Every case is an independent draw and carries one prediction per classifier; the
comparisons are paired through the cases the classifiers share.

- :mod:`.pairwise` -- Berrar & Lozano (2013): McNemar's test (Yates, exact, mid-p), the
  Quesenberry-Hurst interval and the recommended paired-difference intervals with their
  exact coverage and size, Holm's and Bonferroni's adjustments, Table 2 and Figure 4
  (notebook 01).
- :mod:`.nullbest`, :mod:`.nullbest_plots` -- Forman & Cohen (2005): is the best of C
  classifiers better than chance?  Exact best-of-C critical values, the Monte Carlo,
  Figures 1-7 (notebook 02).
- :mod:`.bizarre` -- Keller, Bengio & Wong: tests for measures that are not sums over
  cases (DCF, F1) and the F1 bootstrap (notebook 03).
- :mod:`.measures` -- Flach (2012), chapter 12: measures from a contingency table and the
  accuracy interval (notebook 04).
- :mod:`.scoring` -- DeLong, DeLong & Clarke-Pearson (1988), Sun & Xu (2014): paired AUCs;
  Brier (1950) and the log loss as per-case losses (the report, section 4).
- :mod:`.cochran` -- Cochran (1950): Q for k classifiers on one test set.
- :mod:`.multiclass` -- Flach's measures for K classes and the macro-F1 bootstrap.
- :mod:`.agreement` -- Cohen's kappa with its interval (Fleiss, Cohen & Everitt 1969).
- :mod:`.exactpaired` -- the exact unconditional McNemar test (Fagerland, Lydersen & Laake
  2013) and the interval that agrees with the exact McNemar test (Fay & Lumbard 2021).

Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name (measures.measures) over the module attribute.
from . import agreement as _agreement
from . import bizarre as _bizarre
from . import cochran as _cochran
from . import exactpaired as _exactpaired
from . import measures as _measures
from . import multiclass as _multiclass
from . import nullbest as _nullbest
from . import nullbest_plots as _nullbest_plots
from . import pairwise as _pairwise
from . import scoring as _scoring
from .agreement import *  # noqa: F401,F403
from .bizarre import *  # noqa: F401,F403
from .cochran import *  # noqa: F401,F403
from .exactpaired import *  # noqa: F401,F403
from .measures import *  # noqa: F401,F403
from .multiclass import *  # noqa: F401,F403
from .nullbest import *  # noqa: F401,F403
from .nullbest_plots import *  # noqa: F401,F403
from .pairwise import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403

__all__ = [*_pairwise.__all__, *_nullbest.__all__, *_nullbest_plots.__all__, *_bizarre.__all__,
           *_measures.__all__, *_scoring.__all__, *_cochran.__all__, *_multiclass.__all__,
           *_agreement.__all__, *_exactpaired.__all__]
