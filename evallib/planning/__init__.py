"""Planning a comparison: power and sample size for the tests of the workbook.

How many test cases does a comparison need to show a difference of the size one cares
about, and what does a "non-significant" result on a small test set rule out?

* McNemar's test (Berrar & Lozano 2013, eq. 2): its power by exact enumeration of the
  trinomial (b, c, the rest) with the exact conditional test or its mid-p version, and
  by Connor's (1987) normal approximation (:func:`mcnemar_power`); the sample size
  (:func:`mcnemar_sample_size`) and the minimum detectable difference
  (:func:`minimum_detectable_difference`).
* "No worse than" (non-inferiority) and equivalence against a margin: the power of Tango's
  score test by exact enumeration or Nam's (1997) approximation (:func:`tango_power`) and
  Nam's sample size (:func:`tango_sample_size`); per item, the one-sided (TOST) power and
  items needed for :func:`evallib.items.paired_item_margin_test` (:func:`item_margin_power`,
  :func:`item_margin_sample_size`).
* The F1 paired bootstrap of Keller, Bengio & Wong (eqs. 12-14): its power by
  simulation over the eight joint events (:func:`f1_bootstrap_power`).
* Cross-validation: the power of the CV t-tests for two learners that truly differ,
  beside their type I error (:func:`cv_ttest_power`, on
  :func:`evallib.simulate_unequal_learners`).
* Many data sets: how many data sets the Nemenyi test needs before a given difference
  of average ranks exceeds the critical difference (Demšar 2006, Flach eq. 12.1;
  :func:`nemenyi_datasets`), and its power against the number of data sets by
  simulation, with a normal approximation beside it (:func:`nemenyi_power_curve`,
  :func:`nemenyi_power_datasets`).
* Per-item evaluation (design 4: benchmark and LLM evals that score items 0/1 or in
  [0, 1], items in clusters, K answers per item): the variance of the paired difference
  of two models' mean scores (:func:`item_difference_variance`: between-item variance
  from the two models' item-score SDs and correlation, within-item noise shrinking as
  1/K, Kish's design effect for clusters), the items needed (:func:`item_sample_size`),
  the power (:func:`item_power`) and the minimum detectable difference
  (:func:`item_minimum_detectable_difference`) of Miller's (2024, arXiv:2411.00640)
  power analysis, and the items needed against the correlation
  (:func:`plot_item_sample_size`).
* The sliders of notebooks 00 and 06 call :func:`plot_interval_and_power` (power and the
  expected interval width at a test-set size; its sentence: :func:`interval_and_power_summary`)
  and :func:`plot_sample_size` (the power curves and Connor's n; :func:`sample_size_summary`).

Notation. For two classifiers A and B on the same test set of ``n`` cases,
``p_b = P(A wrong, B right)`` and ``p_c = P(A right, B wrong)`` are the discordant
probabilities, ``discordance = p_b + p_c`` is how often they disagree and
``difference = p_b - p_c = err_A - err_B`` is the difference of their error rates.

One module per design: :mod:`._onetestset` (McNemar and the F1 bootstrap),
:mod:`._resampling` (the CV t-tests), :mod:`._manydatasets` (Nemenyi), :mod:`._items`
(per-item evaluation); :mod:`evallib._power` holds their shared checks. Notebook 00's design map
and notebook 06's write-up are lessons' support (:mod:`evallib.lessons`).
"""

from .._compat import moved_names as _moved_names
from . import _items, _manydatasets, _onetestset, _resampling
from ._items import *  # noqa: F401,F403
from ._manydatasets import *  # noqa: F401,F403
from ._onetestset import *  # noqa: F401,F403
from ._resampling import *  # noqa: F401,F403

__all__ = [*_onetestset.__all__, *_resampling.__all__, *_manydatasets.__all__, *_items.__all__]

# Notebook 00's design map and notebook 06's write-up moved to the lessons' support in 0.2.0.
__getattr__ = _moved_names(__name__, {n: f"evallib.lessons._planning:{n}"
                                      for n in ("plot_design_map", "comparison_write_up")})
