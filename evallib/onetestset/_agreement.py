"""Agreement beyond chance on one test set: Cohen's kappa with its large-sample interval.

Two classifiers labelling the same test cases, or one classifier and the truth, give a
``K x K`` table of counts ``n_ij`` (rows: the first labelling, columns: the second).
Cohen's (1960) kappa is the share of agreement left once the agreement expected by
chance from the two margins is taken out,

``kappa = (p_o - p_e) / (1 - p_e)``, ``p_o = sum_i p_ii``, ``p_e = sum_i p_i. p_.i``,

with ``p_ij = n_ij / N``. Against the truth it is the chance-corrected accuracy: a
classifier that copies the class distribution without looking at the case scores about
0, whatever its accuracy. Between two classifiers it says how alike their predictions
are, which McNemar's test (:mod:`.pairwise`) does not: two classifiers with the same
error rate can agree on every case or on none.

The standard error is the large-sample one of Fleiss, Cohen & Everitt (1969), the one
SAS's PROC FREQ prints as the ASE and statsmodels' ``cohens_kappa`` computes, with the
separate standard error under ``kappa = 0`` for the test.

References
----------
J. Cohen (1960). A coefficient of agreement for nominal scales. *Educational and
Psychological Measurement* 20, 37-46.

J. L. Fleiss, J. Cohen and B. S. Everitt (1969). Large sample standard errors of kappa
and weighted kappa. *Psychological Bulletin* 72(5), 323-327.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._compat import renamed_fields
from .._inference import se_from_variance, t_inference
from .._results import IntervalMixin
from .._validate import align_items, check_alpha, check_count, check_labels

__all__ = ["KappaResult", "cohen_kappa", "cohen_kappa_table"]


@renamed_fields(std_error="se", std_error_null="se_null")
@dataclass(frozen=True)
class KappaResult(IntervalMixin):
    """Cohen's kappa with its Fleiss–Cohen-Everitt standard errors, interval and test.

    Attributes
    ----------
    estimate : kappa, ``(p_o - p_e)/(1 - p_e)``; NaN when undefined (see ``note``).
    se : the large-sample standard error of kappa (Fleiss, Cohen & Everitt 1969,
        eq. 13; SAS's ASE).
    low, high : ``estimate -/+ z_{alpha/2} se``, clipped to [-1, 1].
    se_null : the standard error when ``kappa = 0`` (FCE 1969, eq. 14), used by the test.
    statistic : ``z = estimate / se_null``.
    pvalue : two-sided, ``2 P(Z >= |z|)``, for H0: agreement no better than chance.
    reject : ``pvalue <= alpha``.
    alpha : the level; the interval has nominal coverage ``1 - alpha``.
    observed_agreement : ``p_o``, the share of cases on which the two labellings agree.
    expected_agreement : ``p_e``, the agreement expected by chance from the margins.
    n : number of cases ``N``.
    method : ``"Cohen's kappa"``.
    note : empty, or one sentence on a degenerate table.
    """

    estimate: float
    se: float
    low: float
    high: float
    se_null: float
    statistic: float
    pvalue: float
    reject: bool
    alpha: float
    observed_agreement: float
    expected_agreement: float
    n: int
    method: str = "Cohen's kappa"
    note: str = ""


def _check_table(table: Any) -> np.ndarray:
    if isinstance(table, (str, bytes)) or np.isscalar(table):
        raise TypeError(f"table must be a square K x K table of counts, got {type(table).__name__}")
    try:
        arr = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("table must be a square K x K table of counts (whole numbers >= 0)") from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] == 0:
        raise ValueError(f"table must be a square K x K table of counts with K >= 1, got shape {arr.shape}")
    for (i, j), v in np.ndenumerate(arr):
        check_count(v, f"table[{i}, {j}]")
    if arr.sum() == 0:
        raise ValueError("table must hold at least one case: all its counts are 0")
    return arr


def cohen_kappa_table(table: Sequence[Sequence[int]], *, alpha: float = 0.05) -> KappaResult:
    """Cohen's kappa of a ``K x K`` table of counts, with its large-sample interval and test.

    With ``p_ij = n_ij / N``, margins ``p_i.`` (rows) and ``p_.j`` (columns),
    ``p_o = sum_i p_ii`` and ``p_e = sum_i p_i. p_.i``, kappa is
    ``(p_o - p_e)/(1 - p_e)`` (Cohen 1960) and its large-sample variance (Fleiss, Cohen &
    Everitt 1969, eq. 13) is

    ``Var = [A + B - C] / ((1 - p_e)^2 N)`` with
    ``A = sum_i p_ii [1 - (p_i. + p_.i)(1 - kappa)]^2``,
    ``B = (1 - kappa)^2 sum_{i != j} p_ij (p_.i + p_j.)^2`` and
    ``C = [kappa - p_e (1 - kappa)]^2``;

    under H0: ``kappa = 0`` it is (their eq. 14)
    ``Var_0 = [p_e + p_e^2 - sum_i p_i. p_.i (p_i. + p_.i)] / ((1 - p_e)^2 N)``.
    The interval is ``kappa -/+ z sqrt(Var)`` (clipped to [-1, 1]) and the test refers
    ``kappa / sqrt(Var_0)`` to the standard normal, as SAS's PROC FREQ does.

    Parameters
    ----------
    table : K x K counts
        ``table[i][j]``: cases labelled ``i`` by the first labelling and ``j`` by the
        second (the same K categories in the same order on both sides), whole numbers
        >= 0, at least one case.
    alpha : float
        In (0, 1).

    Returns
    -------
    KappaResult

    Raises
    ------
    TypeError, ValueError
        When ``table`` is not a non-empty square table of whole numbers >= 0 (the message
        names the offending cell), or holds no case.

    Notes
    -----
    Degenerate tables get a defined answer:

    - both labellings put every case in the same single category: ``p_e = 1`` and
      kappa is 0/0, undefined; ``estimate``, the standard errors, the bounds, the
      statistic and the p-value are NaN, ``reject`` is False and ``note`` says why;
    - only one labelling is constant (a classifier that always predicts one class):
      then ``p_o = p_e`` and kappa is exactly 0, both variances vanish, and the result
      is ``estimate = 0``, ``se = se_null = 0``, the interval ``[0, 0]``,
      ``statistic = 0`` and ``pvalue = 1``, with a note;
    - perfect agreement (``p_o = 1``, ``p_e < 1``): kappa is 1 and its variance is 0,
      so the interval is the single point ``[1, 1]``; the test still has
      ``Var_0 > 0`` and rejects when N is not tiny.

    References
    ----------
    .. [1] Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and
       Psychological Measurement* 20, 37-46.
    .. [2] Fleiss, J. L., Cohen, J. & Everitt, B. S. (1969). Large sample standard errors of
       kappa and weighted kappa. *Psychological Bulletin* 72, 323-327.

    Examples
    --------
    The SAS PROC FREQ printout of simple kappa for the table
    ``[[0, 4, 1], [0, 8, 0], [0, 1, 5]]`` (reproduced in statsmodels' tests): kappa
    0.4842, ASE 0.1380, 95% limits 0.2137 and 0.7547, ASE under H0 0.1484, Z 3.2626,
    two-sided p 0.0011.

    >>> from evallib.onetestset import cohen_kappa_table
    >>> res = cohen_kappa_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]])
    >>> [round(v, 4) for v in (res.estimate, res.se, res.low, res.high)]
    [0.4842, 0.138, 0.2137, 0.7547]
    >>> round(res.se_null, 4), round(res.statistic, 4), round(res.pvalue, 4)
    (0.1484, 3.2626, 0.0011)
    """
    t = _check_table(table)
    alpha = check_alpha(alpha)
    n = int(t.sum())
    p = t / n
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    p_o = float(np.trace(p))
    p_e = float(rows @ cols)
    if p_e >= 1.0 - 1e-15:
        nan = float("nan")
        return KappaResult(estimate=nan, se=nan, low=nan, high=nan, se_null=nan, statistic=nan,
                           pvalue=nan, reject=False, alpha=alpha, observed_agreement=p_o, expected_agreement=p_e,
                           n=n, note="both labellings put every case in the same category: chance agreement "
                                     "is 1 and kappa is 0/0, undefined")
    kappa = (p_o - p_e) / (1.0 - p_e)
    diag = np.diag(p)
    a = float(np.sum(diag * (1.0 - (rows + cols) * (1.0 - kappa)) ** 2))
    cross = (cols[:, None] + rows[None, :]) ** 2           # (p_.i + p_j.)^2 at cell (i, j)
    off = p * cross
    b = float((1.0 - kappa) ** 2 * (off.sum() - np.trace(off)))
    c = (kappa - p_e * (1.0 - kappa)) ** 2
    scale = (1.0 - p_e) ** 2 * n
    # both variances are differences: round-off (kappa = 1, or a constant labelling) is judged
    # against the terms subtracted, by evallib's zero-variance rule (evallib._inference)
    se = se_from_variance((a + b - c) / scale, (a + b) / scale)
    se0 = se_from_variance((p_e + p_e ** 2 - float(np.sum(rows * cols * (rows + cols)))) / scale,
                           (p_e + p_e ** 2) / scale)
    note = ""
    if se0 == 0.0:
        note = ("one labelling puts every case in the same category: kappa is 0 and its standard errors "
                "vanish; there is no agreement beyond chance to measure")
    test = t_inference(kappa, se0)          # the test uses the standard error under H0 ...
    kappa = test.estimate
    ci = t_inference(kappa, se, alpha=alpha)  # ... the interval the one under the estimate
    pval = test.pvalue
    return KappaResult(estimate=float(kappa), se=se, low=float(max(-1.0, ci.low)),
                       high=float(min(1.0, ci.high)), se_null=se0, statistic=test.statistic, pvalue=pval,
                       reject=bool(pval <= alpha), alpha=alpha, observed_agreement=p_o, expected_agreement=p_e, n=n,
                       note=note)


def cohen_kappa(y1: Sequence[Any], y2: Sequence[Any], *, labels: Sequence[Any] | None = None,
                alpha: float = 0.05) -> KappaResult:
    """Cohen's kappa of two labellings of the same cases, with its interval and test.

    ``y1`` and ``y2`` are two classifiers' predictions on one test set (how alike are
    they, beyond what their class frequencies make likely?), or the true labels and
    one classifier's predictions (its chance-corrected accuracy). The table of
    :func:`cohen_kappa_table` is built from them: rows ``y1``, columns ``y2``, over the
    categories ``labels`` (by default every label seen in either, sorted).

    Parameters
    ----------
    y1, y2 : sequences of labels
        The same number of cases, no missing labels; any number of classes.
    labels : sequence, optional
        The categories, in order; must include every label in ``y1`` and ``y2`` (a
        category nobody used adds a row and a column of zeros, which changes nothing).
    alpha : float
        In (0, 1).

    Returns
    -------
    KappaResult
        As :func:`cohen_kappa_table`, whose Notes give the answers for degenerate
        labellings (a constant classifier gives kappa = 0 exactly).

    Raises
    ------
    ValueError
        On sequences of different lengths, empty or 2-D input, missing labels, or a
        label absent from ``labels``.

    Examples
    --------
    Two classifiers agreeing on 6 of 8 cases (``p_o = 0.75``) with chance agreement
    ``p_e = 17/32`` from their margins: ``kappa = (0.75 - 17/32)/(15/32) = 7/15``, the value
    scikit-learn's ``cohen_kappa_score`` gives too.

    >>> from evallib.onetestset import cohen_kappa
    >>> res = cohen_kappa([0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1, 1, 1])
    >>> round(res.estimate, 4), res.observed_agreement
    (0.4667, 0.75)
    """
    y1, y2 = align_items([("y1", y1), ("y2", y2)])
    a = check_labels(y1, "y1")
    b = check_labels(y2, "y2")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"y1 and y2 must label the same cases: y1 has {a.shape[0]} labels, y2 has {b.shape[0]}")
    values_a, values_b = a.tolist(), b.tolist()
    if labels is None:
        seen = set(values_a) | set(values_b)
        try:
            cats = sorted(seen)
        except TypeError:   # labels of mixed types: a fixed order all the same
            cats = sorted(seen, key=repr)
    else:
        if isinstance(labels, (str, bytes)) or np.isscalar(labels):
            raise TypeError(f"labels must be a sequence of categories, got {type(labels).__name__}")
        cats = [v.item() if isinstance(v, np.generic) else v for v in labels]
        if not cats or len(set(cats)) != len(cats):
            raise ValueError("labels must be a non-empty sequence of distinct categories")
    index = {c: i for i, c in enumerate(cats)}
    missing = sorted({repr(v) for v in values_a + values_b if v not in index})
    if missing:
        raise ValueError(f"labels must include every label of y1 and y2; missing {', '.join(missing[:5])}")
    k = len(cats)
    ia = np.fromiter((index[v] for v in values_a), dtype=np.intp, count=len(values_a))
    ib = np.fromiter((index[v] for v in values_b), dtype=np.intp, count=len(values_b))
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (ia, ib), 1)
    return cohen_kappa_table(table, alpha=alpha)
