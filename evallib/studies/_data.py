"""Data for the case study: the breast-cancer expression set and the split.

Berrar & Lozano (2013), section 7, used 119 breast-cancer microarrays
(Sotiriou et al. 2006; 34 ER-negative, 85 ER-positive), log2-transformed and
median-centred, split by stratified random sampling into a learning set of
69 samples (20 ER-, 49 ER+) and a test set of 50 samples (14 ER-, 36 ER+).

That data set is not redistributable here, so the workbook substitutes a
public breast-cancer expression set with ER status, GSE4335 as packaged by
the ``SurvSet`` package (GPL-licensed). It is loaded at run time from the
installed package and is never copied into this repository.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._extras import find, require
from .._resources import data_dir
from .._validate import check_binary_labels, check_rng

__all__ = [
    "DATA_DIR",
    "PAPER_TEST_FRACTION",
    "load_gse4335",
    "load_nlschools",
    "paper_table2",
    "paper_test_size",
    "stratified_split",
]

#: Share of the paper's samples that went into the test set: 50 of 119.
PAPER_TEST_FRACTION: float = 50 / 119

#: The folder of the shipped data files: the repository's ``data/``, installed as the
#: package ``evallib._data`` and found through ``importlib.resources`` (so also in a wheel).
DATA_DIR: Path = data_dir()

_GENE_PREFIX = "num_HS_"
_ER_COLUMN = "fac_er_status"


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def paper_table2() -> pd.DataFrame:
    """Table 2 of Berrar & Lozano (2013) exactly as printed, in the printed order.

    Columns ``i, j`` (the pair of models), ``b, c`` (discordant counts on the test
    set of n = 50), and the printed ``X2``, ``alpha`` (Holm level), ``chi2``
    (critical value), ``p`` and ``p_exact``. The printed ">0.99" of pair (3, 5) is
    stored as 0.99. Read from ``data/berrar_lozano_table2.csv``.

    Returns
    -------
    pandas.DataFrame
        The 10 pairs of the five models, one row each in the printed order, with the
        columns ``i, j, b, c, X2, alpha, chi2, p, p_exact`` (the paper's own names, not
        evallib's result fields).

    Raises
    ------
    FileNotFoundError
        The shipped CSV file is missing (the message says how to reinstall).

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.

    Examples
    --------
    The first row: models 1 and 4, b = 3, c = 21, X2 = 12.0.

    >>> from evallib.studies import paper_table2
    >>> row = paper_table2().iloc[0]
    >>> int(row["b"]), int(row["c"]), float(row["X2"])
    (3, 21, 12.0)
    """
    path = DATA_DIR / "berrar_lozano_table2.csv"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: paper_table2 reads the data shipped with evallib; reinstall "
            "evallib (`pip install .`, or `make venv` in a clone of the repository)."
        )
    return pd.read_csv(path)


@functools.lru_cache(maxsize=2)
def _load_cached(centre: bool) -> tuple[pd.DataFrame, pd.Series]:
    require("SurvSet.data", "load_gse4335")
    from SurvSet.data import SurvLoader

    with warnings.catch_warnings():
        # SurvSet's pickles reference numpy.core, which numpy 2 reports as
        # deprecated; the warning is about SurvSet, not about this code.
        warnings.filterwarnings("ignore", message=r"numpy\.core", category=DeprecationWarning)
        df = SurvLoader().load_dataset("gse4335")["df"]
    er = df[_ER_COLUMN].astype(str)
    keep = er.isin(["0", "1"]).to_numpy()
    df = df.loc[keep]
    genes = [c for c in df.columns if c.startswith(_GENE_PREFIX)]
    index = pd.Index(df["pid"].astype(str).to_numpy(), name="pid")

    X = pd.DataFrame(
        df[genes].to_numpy(dtype=float, copy=True), index=index, columns=genes
    )
    y = pd.Series(
        (er[keep] == "1").to_numpy().astype(int), index=index, name="er_positive"
    )
    if centre:
        # Median-centring of every gene over all samples (section 7). It does
        # not use the labels, so, as in the paper, it is done on the whole set.
        X = X - X.median(axis=0)
    return X, y


def load_gse4335(*, centre: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """Load the GSE4335 breast-cancer expression set with ER status.

    The substitute for the paper's data set (section 7): samples whose ER
    status is known (113 of 115: 31 ER-negative, 82 ER-positive) and their
    12,793 gene-expression columns (``num_HS_*``; the clinical columns
    ``num_age`` and ``num_grade`` are excluded).

    Parameters
    ----------
    centre : bool, default True
        Median-centre every gene (subtract its median over all 113 samples),
        the paper's pre-processing. The centring uses no labels, so doing it
        on the whole set before splitting leaks nothing about the test labels.

    Returns
    -------
    X : pandas.DataFrame
        Samples x genes, float, indexed by the patient id ``pid``.
    y : pandas.Series
        ``er_positive``: 1 for ER+, 0 for ER-, same index as ``X``.

    Raises
    ------
    ImportError
        If the ``SurvSet`` package is not installed.

    Notes
    -----
    The data are loaded from the installed ``SurvSet`` package (GPL) on each
    first call and cached in memory; each call returns fresh copies, so
    callers may modify them.
    """
    X, y = _load_cached(bool(centre))
    return X.copy(), y.copy()


# ---------------------------------------------------------------------------
# Pupils in classes: a clustered data set (notebook 08)
# ---------------------------------------------------------------------------

#: Where the ``pydataset`` package keeps R's ``MASS::nlschools`` inside its bundled archive.
_NLSCHOOLS_MEMBER = "resources/rdata/csv/MASS/nlschools.csv"
_NLSCHOOLS_COLUMNS = ["lang", "IQ", "class", "GS", "SES", "COMB"]


@functools.lru_cache(maxsize=1)
def _nlschools_cached() -> pd.DataFrame:
    import tarfile

    # find locates the package without importing it: importing pydataset copies its
    # whole archive into ~/.pydataset, which a loader has no business doing.
    spec = find("pydataset", "load_nlschools")
    if not spec.submodule_search_locations:  # pragma: no cover - a damaged install
        raise ImportError(f"the pydataset install at {spec.origin} is not a package")
    archive = Path(next(iter(spec.submodule_search_locations))) / "resources.tar.gz"
    with tarfile.open(archive, mode="r:gz") as tar:
        member = tar.extractfile(_NLSCHOOLS_MEMBER)
        if member is None:  # pragma: no cover - a damaged install
            raise ImportError(f"the pydataset archive {archive} has no {_NLSCHOOLS_MEMBER}")
        table = pd.read_csv(member)
    table = table[_NLSCHOOLS_COLUMNS].copy()
    table.index = pd.RangeIndex(1, len(table) + 1, name="pupil")
    return table


def load_nlschools() -> pd.DataFrame:
    """Load 2,287 Dutch eighth-grade pupils in 133 classes (``MASS::nlschools``).

    The running example of Snijders & Bosker (1999): one row per pupil, with the
    language test score ``lang``, verbal ``IQ``, the ``class`` id, the class size ``GS``,
    the family's socio-economic status ``SES`` and ``COMB`` (1 for a multi-grade class).
    Pupils of one class share a teacher and a classroom, so their outcomes are
    correlated: notebook 08 trains two classifiers on some classes and evaluates them on
    the pupils of the others, where the class is the cluster.

    Returns
    -------
    pandas.DataFrame
        2,287 rows indexed by ``pupil`` (1-2287, the order of R's data frame) with the
        columns ``lang, IQ, class, GS, SES, COMB``.

    Raises
    ------
    ImportError
        If the ``pydataset`` package (MIT; the data are R's, from the MASS package) is
        not installed.

    Notes
    -----
    Read from the archive the installed ``pydataset`` package ships, without importing
    that package, cached in memory; each call returns a fresh copy. R's documentation
    counts "132 classes in 131 schools"; the data frame holds 133 class ids.

    References
    ----------
    T. A. B. Snijders and R. J. Bosker (1999), *Multilevel Analysis*, Sage; W. N. Venables
    and B. D. Ripley (2002), *Modern Applied Statistics with S*, 4th ed., Springer
    (the ``MASS`` package).

    Examples
    --------
    >>> from evallib.studies import load_nlschools
    >>> pupils = load_nlschools()
    >>> pupils.shape, pupils["class"].nunique()
    ((2287, 6), 133)
    """
    return _nlschools_cached().copy()


# ---------------------------------------------------------------------------
# Splitting
# ---------------------------------------------------------------------------


def paper_test_size(n_samples: int) -> int:
    """Test-set size with the paper's proportion, ``round(n * 50/119)``.

    Section 7 split 119 samples into 69 for learning and 50 for testing.

    Parameters
    ----------
    n_samples : int
        Number of samples available (at least 1).

    Returns
    -------
    int
        ``round(n_samples * 50 / 119)``; e.g. 50 for 119, 47 for 113.
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral):
        raise TypeError(
            f"n_samples must be an int >= 1, got {type(n_samples).__name__}"
        )
    if n_samples < 1:
        raise ValueError(f"n_samples must be an int >= 1, got {n_samples}")
    # n * 50 / 119 is never exactly k + 1/2 (119 is odd), so no tie rule is needed.
    return int(round(int(n_samples) * 50 / 119))


def _round_half_up(numerator: int, denominator: int) -> int:
    """``round(numerator / denominator)`` with halves rounded up, exactly."""
    return (2 * numerator + denominator) // (2 * denominator)


def _apportion(total: int, class_counts: np.ndarray) -> np.ndarray:
    """Split ``total`` over classes in proportion to ``class_counts``.

    Each class gets ``round(total * n_c / n)`` (halves rounded up, computed
    exactly in integers); the largest class (the first one if several are
    equally large) absorbs the rounding difference so the parts sum to
    ``total``.
    """
    counts = np.asarray(class_counts, dtype=np.int64)
    n = int(counts.sum())
    parts = np.array([_round_half_up(total * int(c), n) for c in counts])
    largest = int(np.argmax(counts))
    parts[largest] += total - int(parts.sum())
    return parts


def _test_count(test_size: object, n: int) -> int:
    hi = n - 2
    allowed = (
        f"test_size must be an int in [1, {hi}] (n_samples - 2) "
        "or a float fraction in (0, 1)"
    )
    if isinstance(test_size, bool) or not isinstance(
        test_size, (numbers.Integral, numbers.Real)
    ):
        raise TypeError(f"{allowed}; got {type(test_size).__name__}")
    if isinstance(test_size, numbers.Integral):
        count = int(test_size)
        if not 1 <= count <= hi:
            raise ValueError(f"{allowed}; got {count}")
        return count
    frac = float(test_size)
    if not 0.0 < frac < 1.0:  # also rejects NaN
        raise ValueError(f"{allowed}; got {frac}")
    count = int(np.floor(frac * n + 0.5))
    if not 1 <= count <= hi:
        raise ValueError(
            f"{allowed}; the fraction {frac} of {n} samples gives {count} test "
            f"cases, outside [1, {hi}]"
        )
    return count


def stratified_split(
    y: object,
    test_size: int | float,
    *,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Stratified random split into a learning and a test set (section 7).

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels; exactly two classes, no missing values.
    test_size : int or float
        Number of test cases, an int in ``[1, n - 2]``, or a fraction of
        ``n`` in ``(0, 1)`` (rounded to the nearest count, halves up; the
        count must then lie in ``[1, n - 2]``).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Source of all randomness, normalised by ``check_rng`` (an int makes the
        split reproducible; ``None`` draws fresh entropy).

    Returns
    -------
    learn_idx : numpy.ndarray of int
        Sorted integer positions into ``y`` of the learning set.
    test_idx : numpy.ndarray of int
        Sorted integer positions of the test set; disjoint from ``learn_idx``, the two
        together are ``0..n-1``.

    Notes
    -----
    Class ``c`` with ``n_c`` of the ``n`` cases gets
    ``round(test_count * n_c / n)`` test cases (halves up); the largest class
    absorbs the rounding difference, so the total is exactly the requested
    count. Every class then keeps at least one case in the learning set and,
    when the test set has at least two cases and the class at least two
    members, at least one case in the test set (the other class gives up a
    case where needed). With the paper's 119 samples (34 ER-, 85 ER+) and 50
    test cases this gives 14 ER- and 36 ER+ test cases, as in section 7.
    Within each class (in sorted label order) the test cases are drawn
    without replacement with ``rng``.
    """
    labels = check_binary_labels(y, "y")
    rng = check_rng(rng)
    n = labels.size
    if n < 3:
        raise ValueError(f"y must have at least 3 samples to split, got {n}")
    count = _test_count(test_size, n)

    classes, inverse, class_counts = np.unique(
        labels, return_inverse=True, return_counts=True
    )
    k = len(classes)
    per_class = _apportion(count, class_counts)

    # Bounds per class: at least one case stays in the learning set; at least
    # one goes to the test set when the test size (and class size) allow.
    upper = class_counts - 1
    lower = np.where((count >= k) & (class_counts >= 2), 1, 0)
    # With two classes, fix the smaller class's count within the bounds that
    # both classes impose, and give the rest to the other class.
    small = int(np.argmin(class_counts))
    other = 1 - small
    lo = max(int(lower[small]), count - int(upper[other]))
    hi = min(int(upper[small]), count - int(lower[other]))
    per_class[small] = min(max(int(per_class[small]), lo), hi)
    per_class[other] = count - per_class[small]

    test_parts = []
    for c in range(k):
        members = np.flatnonzero(inverse == c)
        test_parts.append(rng.choice(members, size=int(per_class[c]), replace=False))
    test_idx = np.sort(np.concatenate(test_parts)).astype(np.intp)
    is_test = np.zeros(n, dtype=bool)
    is_test[test_idx] = True
    learn_idx = np.flatnonzero(~is_test).astype(np.intp)
    return learn_idx, test_idx
