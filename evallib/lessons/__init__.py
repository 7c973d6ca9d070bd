"""The lessons' support: what the notebooks need beside the statistics library.

Not a design of its own, and not needed to compute anything: the statistics are in the
design subpackages, which this package only calls. It holds

- :mod:`evallib.lessons.live` -- the sliders' plumbing: one output per widget, figures
  updated in place, saved lessons frozen without widget state (``python -m
  evallib.lessons.live NOTEBOOK``, used by ``make execute``);
- :mod:`._pairwise` -- notebook 01, section 7: one comparison read as a p-value and as an
  interval (:func:`describe_comparison`, :func:`plot_pvalue_vs_interval`);
- :mod:`._planning` -- notebook 00's design map (:func:`plot_design_map`) and notebook 06's
  write-up of a planned comparison (:func:`comparison_write_up`) and paired comparison of the CV
  t-tests' power (:func:`cv_power_difference_lines`);
- :mod:`._items` -- notebook 08's explorer: two models on the same clustered items answered
  K times, the coverage of the paired interval beside the unpaired one
  (:func:`simulate_paired_items`, :func:`paired_item_coverage`,
  :func:`plot_paired_item_coverage`, :func:`describe_paired_item_coverage`), and the
  colours of every coverage bar: a measured coverage against its promise and its Monte Carlo
  error (:func:`coverage_verdicts`, :func:`mark_coverage_verdicts`);
- :mod:`._cvtests` -- notebook 05's explorer: the settings and the level its controls offer,
  computed from the run's parameters (:func:`rejection_study_controls`);
- :mod:`._peeking` -- notebook 09's sliders: the stopping rules of a peeking study
  (:func:`plot_peeking_rates`, :func:`describe_peeking`) and a non-inferiority decision
  against a margin (:func:`plot_margin_decision`).

The widgets themselves need the ``notebooks`` extra (``pip install 'evallib[notebooks]'``);
the callbacks above are plain functions with their own tests.
"""

from . import _cvtests, _items, _pairwise, _peeking, _planning, live
from ._cvtests import *  # noqa: F401,F403
from ._items import *  # noqa: F401,F403
from ._pairwise import *  # noqa: F401,F403
from ._peeking import *  # noqa: F401,F403
from ._planning import *  # noqa: F401,F403
from .live import *  # noqa: F401,F403

__all__ = [*_pairwise.__all__, *_cvtests.__all__, *_planning.__all__, *_items.__all__, *_peeking.__all__, *live.__all__]
