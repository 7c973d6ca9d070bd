"""The sources' experiments, re-run, and their tables: the case studies behind notebooks 01, 03,
05 and 08, and the printed tables and the benchmark of notebooks 04 and 07.

Not a design of its own: each module rebuilds an experiment a source ran, so that the
notebooks can vary what the paper held fixed, and loads the data it needs.

- :mod:`.casestudy`, :mod:`.models` -- Berrar & Lozano (2013), sections 7-8: the five
  models (diagonal LDA on Welch-selected genes, the corrupted labels, the fair coin,
  the class prior), the split, Table 2 and Figure 4 of one run (notebook 01).
- :mod:`.data` -- the data sets the notebooks load: the GSE4335 breast-cancer set
  (through the ``SurvSet`` package), the printed Table 2, the shipped tables of
  ``data/`` (notebooks 01 and 05).
- :mod:`.textsim` -- Keller, Bengio & Wong, section 5, re-run on a synthetic
  text-categorisation population with two real learners: Table 3, the size and
  coverage of the F1 test, and the precomputed grid behind the sliders (notebook 03).
- :mod:`.tables` -- the tables the sources printed and the library's examples compute on:
  Flach's Example 12.4 (notebook 04), Demšar's Table 6 (notebook 07), Forman & Cohen's grid
  of critical-value conditions (the grid of the table notebook 02 loads).
- :mod:`.benchmark` -- an offline multi-data-set benchmark: five scikit-learn learners on ten
  data sets that ship with scikit-learn, and its stored result (notebook 07).
- :mod:`.pupils` -- real classifiers trained on some classes of Dutch pupils
  (``MASS::nlschools``) and scored on the pupils of the others: a per-item evaluation
  with clusters and repeated answers (notebook 08).

The names are public here only, not in ``evallib``'s namespace (``from evallib.studies import
demsar_table_6``); the 0.1.0 names that moved here still import from ``evallib`` until 0.3.0,
with a DeprecationWarning.
"""

# The submodules under private names first: a star import may bind a function of the same
# name over the module attribute.
from . import _benchmark as _benchmark
from . import _casestudy as _casestudy
from . import _data as _data
from . import _models as _models
from . import _pupils as _pupils
from . import _tables as _tables
from . import _textsim as _textsim
from ._benchmark import *  # noqa: F401,F403
from ._casestudy import *  # noqa: F401,F403
from ._data import *  # noqa: F401,F403
from ._models import *  # noqa: F401,F403
from ._pupils import *  # noqa: F401,F403
from ._tables import *  # noqa: F401,F403
from ._textsim import *  # noqa: F401,F403

__all__ = [*_casestudy.__all__, *_models.__all__, *_data.__all__, *_textsim.__all__, *_pupils.__all__,
           *_tables.__all__, *_benchmark.__all__]
