"""evallib: tested implementations behind the classifier-comparison workbook.

Three layers, imports running only downwards:

1. **The statistics library** -- this namespace. It depends on numpy, scipy, pandas and
   matplotlib (and tqdm for progress bars) only, and is laid out by *design*, the question
   of notebook 00 "what varies between the numbers you compare?":

   - :mod:`evallib.onetestset` -- one test set, two or more classifiers (notebooks 01-04):
     McNemar and paired intervals, best-of-C critical values, DCF and F1, measures, AUC and
     losses, Cochran's Q, K-class measures.
   - :mod:`evallib.resampling` -- two algorithms compared by cross-validation on one data
     set (notebooks 05, 07): the CV t-tests, the Bayesian correlated t-test, the per-case
     statistics of repeated cross-validation.
   - :mod:`evallib.manydatasets` -- algorithms compared over many data sets (notebooks 04,
     07): rank tests, post-hoc procedures, the CD diagram, the Bayesian signed-rank test.
   - :mod:`evallib.items` -- per-item evaluation (notebook 08): items in clusters, K
     samples per item, pass@k, leaderboards.
   - :mod:`evallib.planning` -- power and sample size for every design (notebook 06).

   Shared private helpers: multiplicity (:mod:`evallib._multitest`), the t/z core and its
   zero-variance rule (:mod:`evallib._inference`), argument checks (:mod:`evallib._validate`,
   where ``rng`` is normalised), result objects (:mod:`evallib._results`), deprecations
   (:mod:`evallib._compat`), optional packages (:mod:`evallib._extras`), the p-value format
   (:mod:`evallib._format`).
2. **The lessons' support and the papers' studies** -- :mod:`evallib.lessons` (the sliders'
   plumbing and callbacks, the design map, the write-ups; extra ``notebooks``) and
   :mod:`evallib.studies` (the sources' experiments re-run, with their data; extra
   ``studies``).
3. **The report application** -- :mod:`evallib.report` (the three reports, the HTML export,
   the kernel glue) and ``python -m evallib`` (extra ``report``). Its entry points and the
   readers of logs and tables are exported here too (:data:`REPORT_ENTRY_POINTS`), loaded on
   first use, so that ``import evallib`` needs no extra.

Implementation modules are private (``evallib.onetestset._pairwise``); the names are public
in their design's namespace and here. The names and module paths of 0.1.0 that moved still
work until 0.3.0, with a DeprecationWarning naming their new home (``CHANGELOG.md``).
"""

from importlib import import_module as _import_module

from . import _compat
from ._legacy import MOVED_MODULES as _MOVED_MODULES
from ._legacy import MOVED_NAMES as _MOVED_NAMES

__version__ = "0.2.0"

# Design 1, one test set: McNemar, paired intervals and their coverage (Berrar & Lozano);
# best-of-C critical values (Forman & Cohen); DCF, F1 and the bootstrap (Keller, Bengio &
# Wong); Flach's measures; DeLong AUCs, Brier and log loss; Cochran's Q; K classes.
from . import onetestset as _onetestset
from .onetestset import *  # noqa: F401,F403,E402

# Design 2, resampling one data set: CV t-tests (textbook, Nadeau & Bengio, Dietterich)
# with their equal-learners study; the Bayesian correlated t-test; per-case statistics.
from . import resampling as _resampling  # noqa: E402
from .resampling import *  # noqa: F401,F403,E402

# Design 3, many data sets: Wilcoxon, sign, Friedman, critical differences (Flach,
# Demšar); post-hoc adjusted p-values (García & Herrera); the Bayesian signed-rank test.
from . import manydatasets as _manydatasets  # noqa: E402
from .manydatasets import *  # noqa: F401,F403,E402

# Design 4, per-item evaluation: items in clusters, K samples per item, pass@k,
# leaderboards (Miller 2024; Chen et al. 2021).
from . import items as _items  # noqa: E402
from .items import *  # noqa: F401,F403,E402

# Design 5, sequential comparisons: confidence sequences and always-valid p-values, alpha-spending.
from . import sequential as _sequential  # noqa: E402
from .sequential import *  # noqa: F401,F403,E402

# Across the designs: power and sample size.
from . import planning as _planning  # noqa: E402
from .planning import *  # noqa: F401,F403,E402

#: The report application's entry points and readers, exported here and loaded from
#: :mod:`evallib.report` on first use (the ``report`` extra).
REPORT_ENTRY_POINTS = ("run_report", "run_items_report", "run_datasets_report", "load_predictions",
                       "load_item_scores", "load_items", "load_results", "read_inspect_logs",
                       "read_lm_eval_samples")

__all__: list[str] = list(dict.fromkeys([
    *_onetestset.__all__, *_resampling.__all__, *_manydatasets.__all__, *_items.__all__,
    *_sequential.__all__, *_planning.__all__, "REPORT_ENTRY_POINTS", *REPORT_ENTRY_POINTS,
]))

_compat.moved_modules(_MOVED_MODULES)


def __getattr__(name: str):
    """The report's entry points (loaded on first use), and the 0.1.0 names that moved (with a
    DeprecationWarning naming the new home)."""
    if name in REPORT_ENTRY_POINTS:
        return getattr(_import_module("evallib.report"), name)
    target = _MOVED_NAMES.get(name)
    if target is None:
        raise AttributeError(f"module 'evallib' has no attribute {name!r}")
    home, _, attr = target.partition(":")
    if not _compat._import_probe():
        _compat.deprecated(f"evallib.{name}", _compat._home(home, attr))
    return getattr(_import_module(home), attr)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
