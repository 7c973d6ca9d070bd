"""McNemar's test for two classifiers on one test set (Berrar & Lozano 2013, eq. 2).

For models A and B on ``n`` test cases, ``a`` cases are misclassified by neither, ``b`` by A
only, ``c`` by B only and ``d`` by both (:func:`contingency`). McNemar's test uses the
discordant counts: Yates' corrected chi-square, the plain chi-square, the exact binomial (sign)
test and the mid-p test Fagerland, Lydersen & Laake (2013) recommend (:func:`mcnemar`). The
exact unconditional test and the interval compatible with the exact test are in
:mod:`._mcnemar_exact`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._compat import renamed_flags
from .._inference import check_alternative
from .._validate import (
    align_items,
    check_choice,
    check_count,
    check_labels,
)

__all__ = ['Contingency', 'McNemarResult', 'contingency', 'mcnemar', 'TEST_METHODS']


# --------------------------------------------------------------------------- Table 1
@dataclass(frozen=True)
class Contingency:
    """The paper's Table 1: joint errors of models A and B on one test set.

    Attributes
    ----------
    a : cases misclassified by neither model.
    b : cases misclassified by A but not by B.
    c : cases misclassified by B but not by A.
    d : cases misclassified by both.
    n : number of test cases, ``a + b + c + d``.
    """

    a: int
    b: int
    c: int
    d: int
    n: int

    @property
    def error_a(self) -> float:
        """Observed error rate of A, ``(b + d) / n``."""
        return (self.b + self.d) / self.n

    @property
    def error_b(self) -> float:
        """Observed error rate of B, ``(c + d) / n``."""
        return (self.c + self.d) / self.n


def _check_predictions(
    y_true: Any, preds: Mapping[Hashable, Any], *, keys_are_argnames: bool = False,
    binary: bool = True,
) -> tuple[np.ndarray, dict]:
    """Validate true labels and a mapping of predictions; return arrays.

    Error messages name ``predictions[name]``, or the key itself when the keys are
    the caller's argument names (``pred_a``, ``pred_b``). With ``binary=False`` any
    labels are accepted (only right/wrong is counted), but the lengths, emptiness
    and missing labels are still checked.
    """
    y = check_labels(y_true, "y_true")
    classes = np.unique(y)
    if binary and classes.size > 2:
        raise ValueError(
            f"y_true must hold at most two classes (a binary task), found {classes.size}: "
            f"{classes[:5].tolist()}"
        )
    out = {}
    for name, pred in preds.items():
        label = str(name) if keys_are_argnames else f"predictions[{name!r}]"
        p = check_labels(pred, label)
        if p.shape[0] != y.shape[0]:
            raise ValueError(
                f"{label} has {p.shape[0]} labels but y_true has {y.shape[0]}; "
                "every classifier must predict every test case"
            )
        out[name] = p
        if not binary:
            continue
        unknown = np.setdiff1d(np.unique(p), classes)
        if unknown.size and classes.size == 2:
            raise ValueError(
                f"{label} contains labels {unknown[:5].tolist()} that are not among "
                f"y_true's two classes {classes.tolist()}"
            )
        if unknown.size and unknown.size + classes.size > 2:
            raise ValueError(
                f"{label} contains labels {unknown[:5].tolist()}; together with y_true's "
                f"{classes.tolist()} that is more than two classes"
            )
    return y, out


def contingency(y_true: Sequence[Any], pred_a: Sequence[Any], pred_b: Sequence[Any]) -> Contingency:
    """Count the joint errors of two classifiers on the same test set (Table 1).

    The table only records which cases each classifier got right, so the labels
    may be anything comparable: two classes, many classes, or a prediction that
    is not among ``y_true``'s classes at all (it is simply wrong).

    Parameters
    ----------
    y_true : sequence of labels
        The true classes of the ``n`` test cases; any number of classes.
    pred_a, pred_b : sequence of labels
        The predictions of models A and B, same length as ``y_true``.

    Returns
    -------
    Contingency
        ``a`` (neither wrong), ``b`` (A only wrong), ``c`` (B only wrong),
        ``d`` (both wrong) and ``n``.

    Raises
    ------
    ValueError
        On arrays of different lengths, empty input or NaN/None labels.

    Examples
    --------
    mlxtend's three-class test of ``mcnemar_table``, whose table
    ``[[a, c], [b, d]]`` is ``[[4, 2], [1, 3]]``:

    >>> t = contingency([0, 0, 0, 0, 0, 2, 1, 1, 1, 1], [0, 5, 0, 0, 0, 2, 1, 0, 0, 0],
    ...                 [0, 0, 1, 3, 0, 2, 1, 0, 0, 0])
    >>> (t.a, t.c, t.b, t.d)
    (4, 2, 1, 3)
    """
    y_true, pred_a, pred_b = align_items([("y_true", y_true), ("pred_a", pred_a), ("pred_b", pred_b)])
    y, preds = _check_predictions(y_true, {"pred_a": pred_a, "pred_b": pred_b}, keys_are_argnames=True,
                                  binary=False)
    wrong_a = preds["pred_a"] != y
    wrong_b = preds["pred_b"] != y
    b = int(np.sum(wrong_a & ~wrong_b))
    c = int(np.sum(~wrong_a & wrong_b))
    d = int(np.sum(wrong_a & wrong_b))
    n = int(y.shape[0])
    return Contingency(a=n - b - c - d, b=b, c=c, d=d, n=n)


# ----------------------------------------------------------------------- eq. (2)
@dataclass(frozen=True)
class McNemarResult:
    """Result of McNemar's test.

    Attributes
    ----------
    statistic : X^2 of eq. (2) (chi-square methods) or ``min(b, c)`` (exact and
        mid-p methods), whatever the alternative.
    pvalue : p-value for ``alternative`` (two-sided by default).
    method : ``"chi2-yates"``, ``"chi2"``, ``"exact"`` or ``"mid-p"``.
    alternative : ``"two-sided"``, ``"greater"`` (H1: ``p_b > p_c``, A errs more often
        than B) or ``"less"``.
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str = "two-sided"


def _check_bc(b: Any, c: Any) -> tuple[int, int]:
    return check_count(b, "b"), check_count(c, "c")


def _mcnemar_pvalues(b, c, method: str, alternative: str = "two-sided") -> np.ndarray:
    """Vectorised p-values of McNemar's tests for arrays of ``b`` and ``c``.

    One-sided (``"greater"``: H1 ``p_b > p_c``): the binomial tail of ``b`` given
    ``m = b + c`` (exact ``P(X >= b)``, mid-p ``P(X > b) + P(X = b)/2``), and for the
    chi-square forms the normal tail of the signed ``z = (b - c -/+ 1)/sqrt(m)`` (the
    ``1`` with Yates' correction only, towards the null).
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    m = b + c
    k = np.minimum(b, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        if alternative != "two-sided":
            sign = 1.0 if alternative == "greater" else -1.0
            if method in ("chi2-yates", "chi2"):
                shift = 1.0 if method == "chi2-yates" else 0.0
                z = (sign * (b - c) - shift) / np.sqrt(np.where(m > 0, m, 1.0))
                p = stats.norm.sf(z)
            else:
                x = b if alternative == "greater" else c   # the count H1 makes large
                point = stats.binom.pmf(x, m, 0.5)
                p = stats.binom.sf(x - 1, m, 0.5) - (0.5 * point if method == "mid-p" else 0.0)
        elif method in ("chi2-yates", "chi2"):
            diff = np.abs(b - c)
            if method == "chi2-yates":
                diff = np.maximum(diff - 1.0, 0.0)
            x2 = np.where(m > 0, diff * diff / np.where(m > 0, m, 1.0), 0.0)
            p = stats.chi2.sf(x2, df=1)
        elif method == "exact":
            p = np.minimum(1.0, 2.0 * stats.binom.cdf(k, m, 0.5))
        else:  # mid-p, Fagerland, Lydersen & Laake (2013), eq. (2) of their supplement
            point = stats.binom.pmf(k, m, 0.5)
            p = np.where(b == c, 1.0 - 0.5 * point, 2.0 * stats.binom.cdf(k, m, 0.5) - point)
    return np.where(m > 0, p, 1.0)


#: McNemar's tests, the choices of :func:`mcnemar`'s ``method=`` (and of :func:`evallib.onetestset.test_size`).
TEST_METHODS = ("chi2-yates", "chi2", "exact", "mid-p")


#: 0.1.0's flags ``(correction, exact, mid_p)``: each combination it accepted, and the method it meant.
_FLAGS = {(True, False, False): "chi2-yates", (False, False, False): "chi2",
          (True, True, False): "exact", (False, True, False): "exact",
          (True, False, True): "mid-p", (False, False, True): "mid-p"}


@renamed_flags("method", {"correction": True, "exact": False, "mid_p": False}, _FLAGS)
def mcnemar(b: int, c: int, *, method: str = "chi2-yates", alternative: str = "two-sided") -> McNemarResult:
    """McNemar's test for two classifiers on the same test set, eq. (2).

    ``method`` chooses the version:

    * ``"chi2-yates"`` (the default, the paper's): ``X^2 = (|b - c| - 1)^2 / (b + c)``, with
      Yates' continuity correction, referred to the chi-square distribution with one degree
      of freedom;
    * ``"chi2"``: the same without the correction, ``X^2 = (b - c)^2 / (b + c)``;
    * ``"exact"``: the exact binomial version (the sign test, Sheskin 2007): under H0
      ``b ~ Binomial(b + c, 1/2)`` and the two-sided p-value is ``min(1, 2 P(X <= min(b, c)))``;
    * ``"mid-p"``: the mid-p version (Fagerland, Lydersen & Laake 2013, eq. 2 of their
      supplement): the exact conditional p-value minus the point probability of the
      observed table, ``2 P(X <= k) - P(X = k)`` with ``k = min(b, c)``, and
      ``1 - P(X = k)/2`` when ``b = c``.

    Fagerland et al. found the mid-p test keeps the nominal level in all 9,595 settings they
    studied while being almost as powerful as the uncorrected asymptotic test; the exact and
    the Yates-corrected tests are conservative.

    Parameters
    ----------
    b, c : int
        Discordant counts of Table 1 (errors of A only, errors of B only), >= 0.
    method : {"chi2-yates", "chi2", "exact", "mid-p"}
        The version of the test (:data:`TEST_METHODS`). The flags of 0.1.0 still work until
        0.3.0, with a ``DeprecationWarning``: ``correction=False`` is ``"chi2"``,
        ``exact=True`` is ``"exact"`` and ``mid_p=True`` is ``"mid-p"``. ``exact=True`` with
        ``mid_p=True``, or a flag beside ``method=``, is a ``ValueError``.
    alternative : {"two-sided", "greater", "less"}
        H1: ``p_b != p_c`` (default); ``"greater"``: ``p_b > p_c`` (A errs more often than
        B); ``"less"``: ``p_b < p_c``. One-sided, the exact test is the binomial test of
        ``b`` out of ``b + c`` (``scipy.stats.binomtest(b, b + c, 0.5, alternative=...)``),
        the mid-p test its mid-p version (``P(X > b) + P(X = b)/2`` for ``"greater"``), and
        the chi-square tests refer the signed ``z = (b - c - 1)/sqrt(b + c)`` (``"greater"``;
        ``(b - c + 1)`` for ``"less"``; no ``1`` for ``"chi2"``) to the normal.
        The statistic stays ``X^2`` or ``min(b, c)``.

    Returns
    -------
    McNemarResult

    Notes
    -----
    Degenerate input: with ``b + c = 0`` the models never disagree, there is no
    evidence of a difference, and the result is ``statistic = 0, pvalue = 1``.
    With the correction, ``|b - c| - 1`` is floored at 0, so ``b = c`` gives
    ``X^2 = 0`` and ``p = 1`` (the unfloored formula would give ``1/(b + c)``;
    statsmodels' ``mcnemar`` does that, which differs only when ``b = c``).

    References
    ----------
    .. [1] Berrar, D. & Lozano, J. A. (2013). Significance tests or confidence intervals: which are
       preferable for the comparison of classifiers? *Journal of Experimental & Theoretical
       Artificial Intelligence*, 25(2), 189-206.
    .. [2] McNemar, Q. (1947). Note on the sampling error of the difference between correlated
       proportions or percentages. *Psychometrika*, 12, 153-157.
    .. [3] Fagerland, M. W., Lydersen, S. & Laake, P. (2013). The McNemar test for binary
       matched-pairs data: mid-p and asymptotic are better than exact conditional.
       *BMC Medical Research Methodology*, 13, 91.

    Examples
    --------
    Table 2's first row, models 1 and 4 (b = 3, c = 21): printed X2 = 12.0 and exact p = 2.8e-4.

    >>> from evallib import mcnemar
    >>> round(mcnemar(3, 21).statistic, 1)
    12.0
    >>> f"{mcnemar(3, 21, method='exact').pvalue:.1e}"
    '2.8e-04'

    Bentur et al.'s airway hyper-responsiveness data (b = 1, c = 7), as printed by
    Fagerland et al. (2013): exact p = 0.070, mid-p = 0.039, asymptotic p = 0.034.

    >>> round(mcnemar(1, 7, method="exact").pvalue, 3), round(mcnemar(1, 7, method="mid-p").pvalue, 3)
    (0.07, 0.039)
    >>> round(mcnemar(1, 7, method="chi2").pvalue, 3)
    0.034

    One-sided: B errs more often than A (``c > b``), the exact test is the binomial tail
    ``P(X <= 1) = 9/256`` of ``X ~ Binomial(8, 1/2)``:

    >>> mcnemar(1, 7, method="exact", alternative="less").pvalue == 9 / 256
    True
    """
    b, c = _check_bc(b, c)
    method = check_choice(method, "method", TEST_METHODS)
    alternative = check_alternative(alternative)
    m = b + c
    if m == 0:
        return McNemarResult(0.0, 1.0, method, alternative)
    if method in ("exact", "mid-p"):
        return McNemarResult(float(min(b, c)), float(_mcnemar_pvalues(b, c, method, alternative)), method,
                             alternative)
    diff = abs(b - c)
    if method == "chi2-yates":
        diff = max(diff - 1, 0)
    x2 = diff * diff / m
    p = stats.chi2.sf(x2, df=1) if alternative == "two-sided" else _mcnemar_pvalues(b, c, method, alternative)
    return McNemarResult(float(x2), float(p), method, alternative)
