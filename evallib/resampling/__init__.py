"""Design 2: resampling on one data set, two learning algorithms compared by cross-validation.

The unit of comparison is the learning algorithm, not a fitted classifier: the scores
are those of repeated train/test splits of one data set, and the splits overlap, so
the rounds are not independent.

- :mod:`.cvtests` -- the textbook's paired t-test over the rounds of cross-validation
  (Flach 2012, Example 12.6), Nadeau & Bengio's (2003) corrected resampled t-test,
  Dietterich's (1998) 5x2cv test, shared-partition cross-validation and the
  equal-learners study of each test's size (notebook 05).
- :mod:`.bayesian` -- Corani & Benavoli's (2015) Bayesian correlated t-test, with a
  region of practical equivalence (notebook 07; Benavoli et al. 2017).
- :mod:`.percase` -- the statistics of a repeated cross-validation's predictions with each
  test case weighing 1: Cochran's Q on per-case rates, the case-weighted AUC and DeLong
  covariance, the case bootstrap of the F1 difference (the report's sections on repeats).

Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from . import _bayesian as _bayesian
from . import _cvtests as _cvtests
from . import _percase as _percase
from ._bayesian import *  # noqa: F401,F403
from ._cvtests import *  # noqa: F401,F403
from ._percase import *  # noqa: F401,F403

__all__ = [*_cvtests.__all__, *_bayesian.__all__, *_percase.__all__]
