"""Design 4: per-item evaluation -- items scored 0/1 or in [0, 1], in clusters, sampled K times.

Benchmark and LLM evaluations score *items* with no label of their own; items come in
clusters (questions on one passage, pupils in one school), each item may be answered
several times, and many models are ranked on the same items. The unit of analysis is the
item (or its cluster), never the row: a verdict must not change with how many times an
item was written down.

Sources: E. Miller (2024), "Adding error bars to evals: a statistical approach to language
model evaluations", arXiv:2411.00640; M. Chen et al. (2021), "Evaluating large language
models trained on code", arXiv:2107.03374 (pass@k); the cluster-robust variance of
Liang & Zeger (1986) with the small-sample corrections of Bell & McCaffrey (2002).
Notebook 08 teaches it.

- :mod:`._means` -- the mean score of one model (:func:`item_mean`) and the paired difference
  of two on the same items (:func:`paired_item_difference`), items x samples reduced to item
  means first, with cluster-robust errors (CR1, CR2 with Bell–McCaffrey degrees of freedom,
  the wild cluster bootstrap) and Wilson intervals on the effective sample size near 0 or 1;
  :func:`variance_components` splits between- from within-item variance.
- :mod:`._noninferiority` -- is model a no worse than b by more than a margin, or are the two
  equivalent (:func:`paired_item_margin_test`: one-sided tests and TOST on the paired
  difference with the CR2 errors above, Tango's score test for one 0/1 score per item)?
- :mod:`._coverage` -- the coverage of those intervals, by simulation or exact enumeration
  (:func:`item_interval_coverage`, :func:`plot_item_interval_coverage`).
- :mod:`._passk` -- the unbiased pass@k of Chen et al. (2021) and pass^k, averaged over
  items with their intervals (:func:`pass_at_k`).
- :mod:`._leaderboard` -- many models on the same items: every paired difference with Holm
  and Benjamini–Hochberg (:func:`leaderboard_pairs`), the leader's tie group
  (:func:`tie_group`), bootstrap rank intervals and the share of resamples ranked first from per-cluster sums
  (:func:`rank_intervals`, :func:`plot_rank_intervals`).


Every public name is importable from ``evallib`` itself.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from .._compat import moved_names as _moved_names
from . import _coverage as _coverage
from . import _leaderboard as _leaderboard
from . import _means as _means
from . import _noninferiority as _noninferiority
from . import _passk as _passk
from ._coverage import *  # noqa: F401,F403
from ._leaderboard import *  # noqa: F401,F403
from ._means import *  # noqa: F401,F403
from ._noninferiority import *  # noqa: F401,F403
from ._passk import *  # noqa: F401,F403

__all__ = [*_means.__all__, *_noninferiority.__all__, *_coverage.__all__, *_passk.__all__, *_leaderboard.__all__]

# Notebook 08's explorer (0.1.0's evallib.items.lesson) moved to the lessons' support in 0.2.0.
__getattr__ = _moved_names(__name__, {n: f"evallib.lessons._items:{n}" for n in (
    "PAIRED_COVERAGE_METHODS", "describe_paired_item_coverage", "paired_item_coverage",
    "plot_paired_item_coverage", "simulate_paired_items")})
