"""What the two Bayesian tests share: the ROPE, the three regions, the paired scores.

Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change".

"Time for a change" (JMLR 18(77), 1-36) argues that a p-value answers the wrong
question: it is the probability of data at least as extreme *if the two
classifiers were equal*, not the probability that they are. The Bayesian tests
here answer "how probable is it that A is practically better than B, that they
are practically equivalent, or that B is better?" directly.

**The ROPE** (region of practical equivalence) is the interval ``[-rope, rope]``
of differences too small to matter: e.g. ``rope = 0.01`` for accuracies, "within
one percentage point is the same to me". It is a choice about the application,
made *before* seeing the results (as alpha is): a difference of 0.5 points may
matter for a production fraud detector and be noise for a benchmark. With
``rope = 0`` the tests reduce to "which one is better", and the posterior
probability of the smaller side is close to a one-sided p-value; the ROPE is what
lets the data support *equivalence*, which a null-hypothesis test can never do.

Conventions follow baycomp (the authors' package): ``x`` and ``y`` are the two
classifiers' scores (higher is better), the differences are ``y - x``, and
``left`` = ``x`` practically better (difference < -rope), ``rope`` = practically
equivalent, ``right`` = ``y`` practically better (difference > rope).

The tests themselves: :mod:`evallib.resampling._bayesian` (correlated t, one data set)
and :mod:`evallib.manydatasets._bayesian` (signed rank, many data sets).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validate import align_items, check_array, check_real

#: The three regions of the posterior, in the order of every probability triple.
REGIONS = ("left", "rope", "right")


def _check_pair(x: Any, y: Any, *, minimum: int, each: str) -> tuple[np.ndarray, np.ndarray]:
    x, y = align_items([("x", x), ("y", y)])
    a = check_array(x, "x", minimum=minimum, what="scores", each=each)
    b = check_array(y, "y", minimum=minimum, what="scores", each=each)
    if a.size != b.size:
        raise ValueError(f"x has {a.size} scores but y has {b.size}; the scores must be paired")
    return a, b


def _check_rope(rope: Any) -> float:
    return check_real(rope, "rope", low=0)
