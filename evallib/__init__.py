"""evallib: tested implementations behind the classifier-comparison workbook.

The package is laid out by *design*, the question of notebook 00 "what varies between the
numbers you compare?"; each subpackage says which sources it follows and which notebook
teaches it:

- :mod:`evallib.onetestset` -- one test set, two or more classifiers (notebooks 01-04):
  McNemar and paired intervals, best-of-C critical values, DCF and F1, measures, AUC and
  losses, Cochran's Q, K-class measures.
- :mod:`evallib.resampling` -- two algorithms compared by cross-validation on one data
  set (notebooks 05, 07): the CV t-tests and the Bayesian correlated t-test.
- :mod:`evallib.manydatasets` -- algorithms compared over many data sets (notebooks 04,
  07): rank tests, post-hoc procedures, the CD diagram, the Bayesian signed-rank test.
- :mod:`evallib.studies` -- the sources' experiments re-run, and their data.
- :mod:`evallib.planning` -- power and sample size for every design (notebook 06) and
  notebook 00's design map; :mod:`evallib.report` -- the analyst's report;
  :mod:`evallib.htmlexport` -- notebooks as HTML with offline maths.

Every public name of every module is importable from ``evallib`` itself
(``tests/test_exports.py`` checks it); the lists live once, in each module's ``__all__``.
"""

__version__ = "0.1.0"

# Each block re-exports one subpackage or top-level module (its __all__ is the list).
# A new module joins its subpackage's __init__, not this file.

# Design 1, one test set: McNemar, paired intervals and their coverage (Berrar & Lozano);
# best-of-C critical values (Forman & Cohen); DCF, F1 and the bootstrap (Keller, Bengio &
# Wong); Flach's measures; DeLong AUCs, Brier and log loss; Cochran's Q; K classes.
from . import onetestset as _onetestset
from .onetestset import *  # noqa: F401,F403

# Design 2, resampling one data set: CV t-tests (textbook, Nadeau & Bengio, Dietterich)
# with their equal-learners study; the Bayesian correlated t-test.
from . import resampling as _resampling
from .resampling import *  # noqa: F401,F403

# Design 3, many data sets: Wilcoxon, sign, Friedman, critical differences (Flach,
# Demšar); post-hoc adjusted p-values (García & Herrera); the Bayesian signed-rank test.
from . import manydatasets as _manydatasets
from .manydatasets import *  # noqa: F401,F403

# Design 4, per-item evaluation: items in clusters, K samples per item, pass@k,
# leaderboards (Miller 2024; Chen et al. 2021).
from . import items as _items
from .items import *  # noqa: F401,F403

# The sources' experiments re-run: Berrar & Lozano's case study and its data, Keller,
# Bengio & Wong's section 5 on a synthetic text task.
from . import studies as _studies
from .studies import *  # noqa: F401,F403

# Across the designs: power and sample size, and notebook 00's design map.
from . import planning as _planning
from .planning import *  # noqa: F401,F403

# Notebooks as HTML whose maths renders offline (MathML).
from . import htmlexport as _htmlexport
from .htmlexport import *  # noqa: F401,F403

# The analyst's "compare my classifiers" report.
from . import report as _report
from .report import *  # noqa: F401,F403

# The report's prose internals that 0.1.0 exported here still import, with a warning.
from ._compat import moved_names as _moved_names

__getattr__ = _moved_names(__name__, _report._MOVED)

__all__: list[str] = [
    *_onetestset.__all__,
    *_resampling.__all__,
    *_manydatasets.__all__,
    *_items.__all__,
    *_studies.__all__,
    *_planning.__all__,
    *_htmlexport.__all__,
    *_report.__all__,
]
