"""Significance tests for "bizarre" measures: DCF and F1.

Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests* ("bizarre
measures", IDIAP):

* eqs. (1)-(4) -- the proportion test, which (wrongly) treats the error rates of
  the two models as independent (:func:`proportion_test`);
* eqs. (5)-(6) -- the test on the examples where A and B disagree
  (:func:`disagreement_test`);
* eq. (7) -- the Detection Cost Function (:func:`dcf`);
* eqs. (8)-(9) -- its adapted proportion tests, independent or paired
  (:func:`dcf_test`), and a bootstrap of the DCF difference to set beside them
  (:func:`bootstrap_dcf_difference`);
* Table 1 -- the eight joint events e1...e8 of the two models (:func:`joint_events`);
* eq. (12) -- dF1 = F1_B - F1_A written in the eight event counts
  (:func:`f1_difference`);
* eqs. (13)-(14) -- the bootstrap percentile test of section 4
  (:func:`bootstrap_f1_difference`).

Labels are ``{0, 1}`` or the paper's ``{-1, 1}``; the positive class (clients in
person authentication, "belongs to the category" in text categorisation) is ``1``.

The eight events (Table 1 and its illustration, Table 2)::

    positive documents          negative documents
              TP_A  FN_A                  FP_A  TN_A
        TP_B   e1    e2             FP_B   e5    e6
        FN_B   e3    e4             TN_B   e7    e8

so ``TP_A = e1 + e3``, ``FN_A = e2 + e4``, ``FP_A = e5 + e7``, ``TN_A = e6 + e8`` and
``TP_B = e1 + e2``, ``FN_B = e3 + e4``, ``FP_B = e5 + e6``, ``TN_B = e7 + e8``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._compat import renamed_fields, renamed_keywords
from .._inference import t_inference
from .._results import freeze_arrays
from .._validate import align_items, check_alpha, check_choice, check_count, check_labels, check_real, check_rng

__all__ = [
    "EVENT_NAMES",
    "ZTest",
    "F1Bootstrap",
    "DCFBootstrap",
    "proportion_test",
    "disagreement_test",
    "dcf",
    "dcf_test",
    "joint_events",
    "event_codes",
    "f1_scores",
    "f1_difference",
    "resample_events",
    "bootstrap_f1_difference",
    "dcf_difference",
    "bootstrap_dcf_difference",
    "F1TestCheck",
    "null_population",
    "f1_percentile_intervals",
    "f1_test_check",
]

EVENT_NAMES = ("e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8")

# Boolean masks over the eight events: which events make up each count of A and B.
_TP_A = np.array([1, 0, 1, 0, 0, 0, 0, 0], bool)
_TP_B = np.array([1, 1, 0, 0, 0, 0, 0, 0], bool)
_FN_A = np.array([0, 1, 0, 1, 0, 0, 0, 0], bool)
_FN_B = np.array([0, 0, 1, 1, 0, 0, 0, 0], bool)
_FP_A = np.array([0, 0, 0, 0, 1, 0, 1, 0], bool)
_FP_B = np.array([0, 0, 0, 0, 1, 1, 0, 0], bool)
_POS = np.array([1, 1, 1, 1, 0, 0, 0, 0], bool)


# ----------------------------------------------------------------------- results
@renamed_fields(sd="se", z="statistic")
@dataclass(frozen=True)
class ZTest:
    """A difference, its standard deviation under the null hypothesis, z and p.

    Attributes
    ----------
    difference : the observed difference (``C_A - C_B`` or ``DCF_A - DCF_B``).
    se : its standard deviation under the null hypothesis (the equation named by
        ``method``): the standard error of ``difference`` under the null.
    statistic : ``z = difference / se``; defined as 0 when ``se == 0`` (then the
        difference is 0 too: both models made the same errors).
    pvalue : two-sided p-value of the standard normal, ``2 * (1 - Phi(|z|))``.
    method : which equation gave ``se``.
    """

    difference: float
    se: float
    statistic: float
    pvalue: float
    method: str


@dataclass(frozen=True, eq=False)
class F1Bootstrap:
    """The bootstrap percentile test for dF1 = F1_B - F1_A (section 4).

    Attributes
    ----------
    observed : dF1 on the test set, eq. (12).
    f1_a, f1_b : F1 of models A and B on the test set, eq. (11).
    replicates : the ``reps`` bootstrap replicates dF1*.
    p_positive : eq. (13), the share of replicates with dF1* > 0 (B better).
    p_negative : the share with dF1* < 0 (A better); ties make up the rest.
    low, high : eq. (14), the central ``1 - alpha`` percentile interval ``[a, b]``
        (also as the pair :attr:`interval`).
    alpha : one minus the interval's level.
    n : number of test documents.
    events : the eight event counts of the test set (Table 1).
    method : ``"multinomial"`` (resample the eight counts) or ``"index"``
        (resample documents).
    """

    observed: float
    f1_a: float
    f1_b: float
    replicates: np.ndarray
    p_positive: float
    p_negative: float
    low: float
    high: float
    alpha: float
    n: int
    events: np.ndarray
    method: str

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def winner(self) -> str:
        """``"B"`` if dF1 > 0 on the test set, ``"A"`` if < 0, ``"tie"`` if 0."""
        return "B" if self.observed > 0 else "A" if self.observed < 0 else "tie"

    @property
    def confidence(self) -> float:
        """The test's confidence in the observed winner, as in Table 3.

        ``p_positive`` when B won on the test set, ``p_negative`` when A won, and the
        larger of the two for a tie.
        """
        if self.observed > 0:
            return self.p_positive
        if self.observed < 0:
            return self.p_negative
        return max(self.p_positive, self.p_negative)

    @property
    def interval(self) -> tuple[float, float]:
        """``(low, high)``, the percentile interval of eq. (14)."""
        return self.low, self.high

    @property
    def reject(self) -> bool:
        """The models differ: 0 lies outside ``[low, high]`` (the section 4 decision).

        The paper's rule is on the interval, not on a p-value: at level ``alpha`` it
        rejects when ``min(p_positive, p_negative) < alpha / 2`` up to how the quantile
        is interpolated.
        """
        return not (self.low <= 0.0 <= self.high)


@renamed_fields(sd="se")
@dataclass(frozen=True, eq=False)
class DCFBootstrap:
    """A class-stratified bootstrap of ``DCF_A - DCF_B`` (set beside eq. (9)).

    Attributes
    ----------
    observed : ``DCF_A - DCF_B`` on the test set.
    replicates : the bootstrap replicates.
    se : standard deviation of the replicates (the bootstrap standard error).
    low, high : central ``1 - alpha`` percentile interval (also as :attr:`interval`).
    p_positive : share of replicates > 0 (B has the lower cost).
    alpha : one minus the interval's level.
    """

    observed: float
    replicates: np.ndarray
    se: float
    low: float
    high: float
    p_positive: float
    alpha: float

    def __post_init__(self) -> None:
        freeze_arrays(self)

    @property
    def interval(self) -> tuple[float, float]:
        """``(low, high)``."""
        return self.low, self.high


# ------------------------------------------------------------------ validation
def _check_binary_predictions(y_true: Any, pred_a: Any, pred_b: Any,
                              names: tuple[str, str, str] = ("y_true", "pred_a", "pred_b")) -> tuple[np.ndarray, ...]:
    """Return ``y, a, b`` as boolean arrays (True = positive class ``1``).

    All three must have the same length and take values in ``{0, 1}`` or all in
    ``{-1, 1}`` (the paper's convention); predictions must use y_true's coding.
    """
    y_true, pred_a, pred_b = align_items(zip(names, (y_true, pred_a, pred_b)))
    arrays = {}
    for name, values in zip(names, (y_true, pred_a, pred_b)):
        arr = check_labels(values, name)
        if arr.dtype == bool:
            arr = arr.astype(int)
        if not np.issubdtype(arr.dtype, np.number):
            raise ValueError(
                f"{name} must hold numeric labels 0/1 or -1/1 (1 = positive class), "
                f"got values of type {arr.dtype}"
            )
        arrays[name] = arr
    y_name, a_name, b_name = names
    n = arrays[y_name].shape[0]
    for name in (a_name, b_name):
        if arrays[name].shape[0] != n:
            raise ValueError(
                f"{name} has {arrays[name].shape[0]} labels but {y_name} has {n}; "
                "every model must classify every test example"
            )
    y_vals = set(np.unique(arrays[y_name]).tolist())
    if y_vals <= {0, 1}:
        coding = {0, 1}
    elif y_vals <= {-1, 1}:
        coding = {-1, 1}
    else:
        raise ValueError(
            f"{y_name} must hold labels in {{0, 1}} or in {{-1, 1}} (1 = positive class), "
            f"got {sorted(y_vals)[:5]}"
        )
    if y_vals == {1}:
        # All positive: the coding cannot be read off y_true; take it from the predictions.
        pred_vals = set(np.unique(arrays[a_name]).tolist()) | set(np.unique(arrays[b_name]).tolist())
        coding = {-1, 1} if -1 in pred_vals else {0, 1}
    for name in (a_name, b_name):
        vals = set(np.unique(arrays[name]).tolist())
        if not vals <= coding:
            raise ValueError(
                f"{name} contains labels {sorted(vals - coding)[:5]} outside {y_name}'s classes "
                f"{sorted(coding)} (1 = positive class)"
            )
    return tuple(arrays[k] == 1 for k in names)


def _check_dcf_args(cost_fn: Any, cost_fp: Any, prior_pos: Any) -> tuple[float, float, float]:
    out = (
        check_real(cost_fn, "cost_fn", low=0),
        check_real(cost_fp, "cost_fp", low=0),
        check_real(prior_pos, "prior_pos", low=0, high=1, low_open=True, high_open=True),
    )
    if out[0] == 0 and out[1] == 0:
        raise ValueError("cost_fn and cost_fp cannot both be 0: the DCF would be 0 for every classifier, "
                         "and the tests of a difference would divide 0 by 0; give one a cost > 0")
    return out


def _check_events(events: Any) -> np.ndarray:
    arr = np.asarray(events)
    if arr.ndim == 0 or arr.shape[-1] != 8:
        raise ValueError(f"events must hold the 8 counts e1..e8 (last axis of length 8), got shape {arr.shape}")
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"events must be numeric counts, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError("events must be finite counts >= 0, got NaN or infinity")
    if np.any(arr < 0):
        raise ValueError("events must be counts >= 0, got a negative count")
    return arr


def _z_result(difference: float, sd: float, method: str) -> ZTest:
    # evallib's z core and zero-variance rule (evallib._inference); the rates lie in [0, 1]
    res = t_inference(float(difference), float(sd))
    return ZTest(difference=res.estimate, se=res.se, statistic=res.statistic, pvalue=res.pvalue, method=method)


# ---------------------------------------------------------------- eqs. (1)-(6)
def proportion_test(errors_a: int, errors_b: int, n: int) -> ZTest:
    """The proportion test, eqs. (1)-(4).

    ``C = N_e / N`` (eq. 1), ``D = C_A - C_B`` (eq. 2) and, assuming (wrongly: the two
    models are tested on the same examples) that ``C_A`` and ``C_B`` are independent
    binomial proportions, ``sigma_D = sqrt(2 Cbar (1 - Cbar) / N)`` (eq. 4) with
    ``Cbar = (C_A + C_B) / 2``. The extracted text prints ``Cbar = (C_A - C_B)/2``; the
    "average classification error" is the sum over two, rebuilt here.
    ``z = D / sigma_D`` and the two-sided p-value gives delta of eq. (3).

    Parameters
    ----------
    errors_a, errors_b : int
        Number of errors of models A and B, each in ``[0, n]``.
    n : int
        Number of test examples, ``>= 1``.

    Returns
    -------
    ZTest
        ``difference = C_A - C_B``, ``sd = sigma_D``; when both models make no error
        or both err on every example, ``sd = 0`` and ``z = 0``, ``p = 1``.
    """
    n = check_count(n, "n", minimum=1)
    ea = check_count(errors_a, "errors_a")
    eb = check_count(errors_b, "errors_b")
    for name, e in (("errors_a", ea), ("errors_b", eb)):
        if e > n:
            raise ValueError(f"{name} must be a count in [0, n] = [0, {n}], got {e}")
    ca, cb = ea / n, eb / n
    cbar = (ca + cb) / 2.0
    sd = np.sqrt(2.0 * cbar * (1.0 - cbar) / n)
    return _z_result(ca - cb, sd, "proportion test, eq. (4)")


def disagreement_test(y_true: Any, pred_a: Any, pred_b: Any) -> ZTest:
    """The test on the examples where A and B disagree, eqs. (5)-(6).

    Only the ``N_AB`` examples on which the two models give different decisions carry
    information about their difference. The extracted eq. (5) reads ``D = N_AB / N``,
    which cannot be a signed difference; rebuilt from its definition it is
    ``D = C_A - C_B = (N_{A wrong, B right} - N_{A right, B wrong}) / N`` (the
    examples both get right or both get wrong cancel). Under the null hypothesis each
    disagreement goes either way with probability 1/2, so the numerator is a sum of
    ``N_AB`` independent +-1 terms and ``sigma_D = sqrt(N_AB) / N`` (eq. 6). ``z^2`` is
    McNemar's statistic without continuity correction.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequences of labels in ``{0, 1}`` or ``{-1, 1}``, same length.

    Returns
    -------
    ZTest
        ``difference = C_A - C_B`` and ``sd`` of eq. (6); with no disagreement,
        ``sd = 0``, ``z = 0`` and ``p = 1``.
    """
    y, a, b = _check_binary_predictions(y_true, pred_a, pred_b)
    wrong_a, wrong_b = a != y, b != y
    only_a = int(np.sum(wrong_a & ~wrong_b))
    only_b = int(np.sum(~wrong_a & wrong_b))
    n = y.shape[0]
    return _z_result((only_a - only_b) / n, np.sqrt(only_a + only_b) / n, "disagreement test, eq. (6)")


# -------------------------------------------------------------------- eq. (7)
def _rates(y: np.ndarray, pred: np.ndarray) -> tuple[int, int, int, int]:
    """Return ``N_fn, N_p, N_fp, N_n``."""
    pos = y
    return int(np.sum(pos & ~pred)), int(np.sum(pos)), int(np.sum(~pos & pred)), int(np.sum(~pos))


def _require_both_classes(y: np.ndarray, what: str) -> None:
    n_pos = int(np.sum(y))
    if n_pos == 0 or n_pos == y.shape[0]:
        missing = "positive (1)" if n_pos == 0 else "negative (0 or -1)"
        raise ValueError(
            f"y_true has no {missing} example, so {what} is undefined: it needs the error "
            "rate of each class"
        )


def dcf(y_true: Any, y_pred: Any, *, cost_fn: float = 1.0, cost_fp: float = 1.0,
        prior_pos: float = 0.5) -> float:
    """The Detection Cost Function, eq. (7).

    ``DCF = Cost(fn) P(p) N_fn / (N_fn + N_tp) + Cost(fp) P(n) N_fp / (N_fp + N_tn)``
    with ``P(n) = 1 - P(p)``: the cost-weighted miss rate on the positive (client)
    examples plus the cost-weighted false-alarm rate on the negative (impostor) ones.

    Parameters
    ----------
    y_true, y_pred : sequences of labels in ``{0, 1}`` or ``{-1, 1}`` (1 = positive).
        ``y_true`` must contain both classes.
    cost_fn, cost_fp : float
        Costs of a false negative (rejecting a client) and a false positive
        (accepting an impostor), finite and ``>= 0``.
    prior_pos : float
        Prior probability of a positive access ``P(p)``, in the open interval (0, 1).

    Returns
    -------
    float
        The DCF, at least 0.
    """
    cost_fn, cost_fp, prior_pos = _check_dcf_args(cost_fn, cost_fp, prior_pos)
    y, p, _ = _check_binary_predictions(y_true, y_pred, y_pred, names=("y_true", "y_pred", "y_pred"))
    _require_both_classes(y, "the DCF")
    fn, n_pos, fp, n_neg = _rates(y, p)
    return float(cost_fn * prior_pos * fn / n_pos + cost_fp * (1.0 - prior_pos) * fp / n_neg)


def dcf_test(y_true: Any, pred_a: Any, pred_b: Any, *, cost_fn: float = 1.0, cost_fp: float = 1.0,
             prior_pos: float = 0.5, paired: bool = True) -> ZTest:
    """Adapted proportion tests for ``DCF_A - DCF_B``, eq. (8) or eq. (9).

    The two terms of eq. (7) are proportions over two disjoint sets of examples
    (positives, ``N_p`` of them, and negatives, ``N_n``), so their variances add.

    * ``paired=False``, eq. (8), treating the two models as independent: with
      ``Nbar_fn = (N_fn,A + N_fn,B)/2`` and ``Nbar_fp`` likewise,
      ``sigma^2 = 2 [Cost(fn)^2 P(p)^2 Nbar_fn/N_p^2 (1 - Nbar_fn/N_p)
      + Cost(fp)^2 P(n)^2 Nbar_fp/N_n^2 (1 - Nbar_fp/N_n)]``. The factor 2 (two
      independent binomial proportions with a common rate, as in eq. 4) sits outside
      the bracket; the extraction scattered the square root and the fractions.
    * ``paired=True``, eq. (9), counting only the ``N_p,AB`` positive and ``N_n,AB``
      negative examples on which the models disagree, each disagreement +-1 with
      probability 1/2 under the null hypothesis:
      ``sigma^2 = Cost(fn)^2 P(p)^2 N_p,AB / N_p^2 + Cost(fp)^2 P(n)^2 N_n,AB / N_n^2``.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequences of labels in ``{0, 1}`` or ``{-1, 1}``, same
        length; ``y_true`` must contain both classes.
    cost_fn, cost_fp, prior_pos : as in :func:`dcf`.
    paired : bool
        Eq. (9) (default) or eq. (8).

    Returns
    -------
    ZTest
        ``difference = DCF_A - DCF_B``; when ``sd = 0`` (no disagreement for eq. 9,
        all-or-nothing error counts for eq. 8) the difference is 0, ``z = 0``, ``p = 1``.
    """
    cost_fn, cost_fp, prior_pos = _check_dcf_args(cost_fn, cost_fp, prior_pos)
    if not isinstance(paired, (bool, np.bool_)):
        raise TypeError(f"paired must be True (eq. 9) or False (eq. 8), got {paired!r}")
    y, a, b = _check_binary_predictions(y_true, pred_a, pred_b)
    _require_both_classes(y, "the DCF")
    fn_a, n_pos, fp_a, n_neg = _rates(y, a)
    fn_b, _, fp_b, _ = _rates(y, b)
    wp, wn = cost_fn * prior_pos, cost_fp * (1.0 - prior_pos)
    diff = wp * (fn_a - fn_b) / n_pos + wn * (fp_a - fp_b) / n_neg
    if paired:
        n_p_ab = int(np.sum(y & (a != b)))
        n_n_ab = int(np.sum(~y & (a != b)))
        var = wp**2 * n_p_ab / n_pos**2 + wn**2 * n_n_ab / n_neg**2
        method = "paired, eq. (9)"
    else:
        mfn, mfp = (fn_a + fn_b) / 2.0, (fp_a + fp_b) / 2.0
        var = 2.0 * (wp**2 * mfn / n_pos**2 * (1.0 - mfn / n_pos) + wn**2 * mfp / n_neg**2 * (1.0 - mfp / n_neg))
        method = "independent, eq. (8)"
    return _z_result(diff, np.sqrt(var), method)


# ---------------------------------------------------------- Table 1, eq. (12)
def event_codes(y_true: Any, pred_a: Any, pred_b: Any) -> np.ndarray:
    """The event (0 for e1 ... 7 for e8) of each example, Table 1 (int8 array).

    This is the sample S0 of section 4: one event per test document.

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of shape (n,)
        Labels in ``{0, 1}`` or ``{-1, 1}`` (1 = positive): the truth and the two
        classifiers' predictions.

    Returns
    -------
    numpy.ndarray
        The ``n`` event codes, int8, 0 for e1 ... 7 for e8.
    """
    y, a, b = _check_binary_predictions(y_true, pred_a, pred_b)
    return _codes(y, a, b)


def _codes(y: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # positives: e1 (A+, B+) e2 (A-, B+) e3 (A+, B-) e4 (A-, B-)
    # negatives: e5 (A+, B+) e6 (A-, B+) e7 (A+, B-) e8 (A-, B-)
    return ((~y).astype(np.int8) * 4 + (~a).astype(np.int8) + (~b).astype(np.int8) * 2).astype(np.int8)


def joint_events(y_true: Any, pred_a: Any, pred_b: Any) -> np.ndarray:
    """Count the eight joint events e1...e8 of Table 1.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequences of labels in ``{0, 1}`` or ``{-1, 1}``, same length.

    Returns
    -------
    numpy.ndarray
        Eight integer counts ``[N_e1, ..., N_e8]`` summing to the number of examples
        (see the module docstring for which event is which).
    """
    return np.bincount(event_codes(y_true, pred_a, pred_b), minlength=8).astype(np.int64)


def _f1(tp: np.ndarray, fn_plus_fp: np.ndarray, zero_division: float) -> np.ndarray:
    num = 2.0 * tp
    den = 2.0 * tp + fn_plus_fp
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), zero_division)
    return out


def _check_zero_division(zero_division: Any) -> float:
    if isinstance(zero_division, (bool, np.bool_)) or zero_division not in (0, 1):
        raise ValueError(f"zero_division must be 0.0 or 1.0, got {zero_division!r}")
    return float(zero_division)


def f1_scores(events: Any, *, zero_division: float = 0.0) -> tuple[Any, Any]:
    """F1 of A and of B from the eight event counts, eq. (11).

    ``F1 = 2 N_tp / (2 N_tp + N_fn + N_fp)`` with ``N_tp,A = e1 + e3``,
    ``N_fn,A = e2 + e4``, ``N_fp,A = e5 + e7`` and ``N_tp,B = e1 + e2``,
    ``N_fn,B = e3 + e4``, ``N_fp,B = e5 + e6``. A 0/0 F1 (no positive example and no
    positive prediction) is ``zero_division`` (0.0 by default, as scikit-learn's
    ``f1_score``; 1.0 is the other common convention). ``events`` may have leading
    axes (one row of eight counts per replicate).

    Parameters
    ----------
    events : array of shape ``(8,)`` or ``(..., 8)``
        Event counts, for example from :func:`joint_events` or :func:`resample_events`.
    zero_division : {0.0, 1.0}, default 0.0
        Value of a 0/0 F1.

    Returns
    -------
    f1_a : float or numpy.ndarray
        F1 of A (a float for one row of counts, an array over the leading axes
        otherwise).
    f1_b : float or numpy.ndarray
        F1 of B, alike.
    """
    zd = _check_zero_division(zero_division)
    ev = _check_events(events)
    f1a = _f1(ev[..., _TP_A].sum(-1), ev[..., _FN_A | _FP_A].sum(-1), zd)
    f1b = _f1(ev[..., _TP_B].sum(-1), ev[..., _FN_B | _FP_B].sum(-1), zd)
    if ev.ndim == 1:
        return float(f1a), float(f1b)
    return f1a, f1b


def f1_difference(events: Any, *, zero_division: float = 0.0) -> Any:
    """dF1 = F1_B - F1_A from the eight event counts, eq. (12).

    Rebuilt from eq. (11) and Table 1 (``N_p = e1 + e2 + e3 + e4``):

    ``dF1 = 2 [ (e1 + e2) / (N_p + e1 + e2 + e5 + e6) - (e1 + e3) / (N_p + e1 + e3 + e5 + e7) ]``.

    The printed eq. (12) (see :func:`evallib.studies.printed_eq12`) has ``e4``/``e6`` and
    ``e4``/``e5`` in the denominators and the two terms in the order A, B; since
    ``N_p`` already counts e4 (both models miss) and the false positives of A are e5
    and e7, it contradicts the paper's own Table 1 and eq. (11). The test suite checks
    this version against scikit-learn's ``f1_score``.

    Parameters
    ----------
    events : array of shape ``(8,)`` or ``(..., 8)``
        Event counts, for example from :func:`joint_events` or :func:`resample_events`.
    zero_division : float
        Value of a 0/0 F1 (see :func:`f1_scores`).

    Returns
    -------
    float or numpy.ndarray
        dF1 (one value per row of eight counts).
    """
    f1a, f1b = f1_scores(events, zero_division=zero_division)
    return f1b - f1a


# ------------------------------------------------------------------ bootstrap
@renamed_keywords(reps="n_resamples")
def resample_events(events: Any, n_resamples: int, rng: Any = None, *, method: str = "multinomial",
                    codes: np.ndarray | None = None, chunk: int = 256) -> np.ndarray:
    """Bootstrap replicates of the eight event counts, shape ``(n_resamples, 8)``.

    Drawing ``N`` documents with replacement from S0 (Table 2) and counting their
    events gives, for each replicate, counts distributed Multinomial(N, counts / N):
    ``method="multinomial"`` draws those counts directly (8 numbers per replicate);
    ``method="index"`` resamples the ``N`` documents' event ``codes`` (as returned by
    :func:`event_codes`; rebuilt from the counts if not given) and counts them, the
    plain bootstrap of section 4 at ``N`` times the cost. ``rng`` is None, an int, a
    SeedSequence or a Generator (normalised by ``check_rng``).

    Parameters
    ----------
    events : array of shape ``(8,)``
        The observed event counts (:func:`joint_events`).
    n_resamples : int >= 1
        Number of bootstrap replicates.
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Randomness, normalised by ``check_rng``.
    method : {"multinomial", "index"}, default "multinomial"
        Draw the counts directly, or resample the documents' event codes.
    codes : numpy.ndarray, optional
        The documents' event codes for ``method="index"`` (:func:`event_codes`);
        rebuilt from ``events`` when None.
    chunk : int >= 1, default 256
        Replicates drawn at a time by ``method="index"`` (bounds the memory).

    Returns
    -------
    numpy.ndarray
        Integer counts of shape ``(n_resamples, 8)``, each row summing to ``N``.
    """
    ev = _check_events(events)
    rng = check_rng(rng)
    if ev.ndim != 1:
        raise ValueError(f"events must be one row of 8 counts, got shape {ev.shape}")
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    check_choice(method, "method", ("multinomial", "index"))
    n = int(ev.sum())
    if n < 1:
        raise ValueError("events must count at least one example")
    if method == "multinomial":
        return rng.multinomial(n, ev / n, size=n_resamples)
    if codes is None:
        codes = np.repeat(np.arange(8, dtype=np.int8), ev.astype(np.int64))
    out = np.empty((n_resamples, 8), dtype=np.int64)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        flat = codes[idx].astype(np.int64) + 8 * np.arange(stop - start)[:, None]
        out[start:stop] = np.bincount(flat.ravel(), minlength=8 * (stop - start)).reshape(-1, 8)
    return out


def _percentile_interval(values: np.ndarray, alpha: float) -> tuple[float, float]:
    lo, hi = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0])
    return float(lo), float(hi)


@renamed_keywords(reps="n_resamples")
def bootstrap_f1_difference(y_true: Any, pred_a: Any, pred_b: Any, *, n_resamples: int = 10_000,
                            alpha: float = 0.05, rng: Any = None, method: str = "multinomial",
                            zero_division: float = 0.0) -> F1Bootstrap:
    """The bootstrap percentile test for dF1 = F1_B - F1_A, section 4, eqs. (12)-(14).

    The test set becomes S0, one event e1...e8 per document (Table 1). Each bootstrap
    sample draws N documents with replacement (Table 2) and gives a replicate dF1*
    by eq. (12). Because dF1 depends on a sample only through its eight event
    counts, a replicate is drawn as one Multinomial(N, counts/N) vector
    (``method="multinomial"``, the default), which is the same distribution as
    resampling documents (``method="index"``) at a fraction of the cost.

    Then eq. (13): ``p(dF1 > 0) = #{dF1* > 0} / M``; and eq. (14) with ``a``, ``b`` the
    ``alpha/2`` and ``1 - alpha/2`` quantiles of the replicates (the paper's interval
    holding 95% of the values, "centered around the mean"); the models are called
    different when 0 lies outside ``[a, b]``.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequences of labels in ``{0, 1}`` or ``{-1, 1}``, same
        length; ``y_true`` must contain at least one positive example (otherwise F1 is
        undefined).
    n_resamples : int
        Number of bootstrap replicates M, ``>= 1``.
    alpha : float
        The interval has level ``1 - alpha``, in (0, 1).
    rng : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The replicates' randomness, normalised by ``check_rng`` (an int is
        reproducible; a Generator is used as given and advances).
    method : ``"multinomial"`` or ``"index"``
        How replicates are drawn (same distribution; see :func:`resample_events`).
    zero_division : float
        F1 of a replicate with neither positives nor positive predictions (0/0),
        0.0 (default) or 1.0.

    Returns
    -------
    F1Bootstrap
    """
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    zd = _check_zero_division(zero_division)
    check_choice(method, "method", ("multinomial", "index"))
    rng = check_rng(rng)
    y, a, b = _check_binary_predictions(y_true, pred_a, pred_b)
    if not np.any(y):
        raise ValueError("y_true has no positive (1) example, so F1 is undefined (no recall)")
    codes = _codes(y, a, b)
    events = np.bincount(codes, minlength=8).astype(np.int64)
    f1a, f1b = f1_scores(events, zero_division=zd)
    boot = resample_events(events, n_resamples, rng, method=method, codes=codes)
    reps_d = f1_difference(boot, zero_division=zd)
    lo, hi = _percentile_interval(reps_d, alpha)
    return F1Bootstrap(
        observed=float(f1b - f1a), f1_a=f1a, f1_b=f1b, replicates=reps_d,
        p_positive=float(np.mean(reps_d > 0)), p_negative=float(np.mean(reps_d < 0)),
        low=lo, high=hi, alpha=alpha, n=int(y.shape[0]),
        events=events, method=method,
    )


def dcf_difference(events: Any, *, cost_fn: float = 1.0, cost_fp: float = 1.0, prior_pos: float = 0.5) -> Any:
    """``DCF_A - DCF_B`` (eq. 7 for each model) from the eight event counts.

    ``N_fn,A - N_fn,B = e2 - e3`` and ``N_fp,A - N_fp,B = e7 - e6``, so
    ``DCF_A - DCF_B = Cost(fn) P(p) (e2 - e3) / N_p + Cost(fp) P(n) (e7 - e6) / N_n``.
    Both classes must be present in every row.

    Parameters
    ----------
    events : array of shape ``(8,)`` or ``(..., 8)``
        Event counts, for example from :func:`joint_events` or :func:`resample_events`.
    cost_fn, cost_fp : float, default 1.0
        Costs of a false negative and a false positive, finite and ``>= 0``.
    prior_pos : float, default 0.5
        Prior probability of a positive, in the open interval (0, 1).

    Returns
    -------
    float or numpy.ndarray
        ``DCF_A - DCF_B``, one value per row of eight counts.
    """
    cost_fn, cost_fp, prior_pos = _check_dcf_args(cost_fn, cost_fp, prior_pos)
    ev = _check_events(events).astype(float)
    n_pos = ev[..., _POS].sum(-1)
    n_neg = ev[..., ~_POS].sum(-1)
    if np.any(n_pos == 0) or np.any(n_neg == 0):
        raise ValueError("events must count both classes (e1..e4 positives, e5..e8 negatives): DCF needs both")
    return (cost_fn * prior_pos * (ev[..., 1] - ev[..., 2]) / n_pos
            + cost_fp * (1.0 - prior_pos) * (ev[..., 6] - ev[..., 5]) / n_neg)


@renamed_keywords(reps="n_resamples")
def bootstrap_dcf_difference(y_true: Any, pred_a: Any, pred_b: Any, *, cost_fn: float = 1.0,
                             cost_fp: float = 1.0, prior_pos: float = 0.5, n_resamples: int = 10_000,
                             alpha: float = 0.05, rng: Any = None) -> DCFBootstrap:
    """A bootstrap of ``DCF_A - DCF_B``, to set beside the analytic eq. (9).

    Stratified by class, as the DCF itself is (eq. 7 is one proportion per class, and
    eqs. (8)-(9) hold ``N_p`` and ``N_n`` fixed): each replicate draws the four positive
    events as Multinomial(N_p, .) and the four negative ones as Multinomial(N_n, .),
    which is resampling positives and negatives separately with replacement; so no
    replicate lacks a class. The paper gives no bootstrap for DCF; this is the section 4
    procedure carried over, and the notebook compares its standard deviation with
    eqs. (8) and (9).

    Parameters
    ----------
    y_true, pred_a, pred_b : labels as in :func:`dcf_test`; both classes present.
    cost_fn, cost_fp, prior_pos : as in :func:`dcf`.
    n_resamples, alpha, rng : as in :func:`bootstrap_f1_difference`.

    Returns
    -------
    DCFBootstrap
        The observed difference, the replicates, their standard deviation, the
        percentile interval and the share of positive replicates.
    """
    cost_fn, cost_fp, prior_pos = _check_dcf_args(cost_fn, cost_fp, prior_pos)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    rng = check_rng(rng)
    y, a, b = _check_binary_predictions(y_true, pred_a, pred_b)
    _require_both_classes(y, "the DCF")
    events = np.bincount(_codes(y, a, b), minlength=8).astype(np.int64)
    n_pos, n_neg = int(events[:4].sum()), int(events[4:].sum())
    boot = np.hstack([rng.multinomial(n_pos, events[:4] / n_pos, size=n_resamples),
                      rng.multinomial(n_neg, events[4:] / n_neg, size=n_resamples)])
    kw = dict(cost_fn=cost_fn, cost_fp=cost_fp, prior_pos=prior_pos)
    values = dcf_difference(boot, **kw)
    lo, hi = _percentile_interval(values, alpha)
    return DCFBootstrap(observed=float(dcf_difference(events, **kw)), replicates=values,
                        se=float(np.std(values, ddof=1)) if n_resamples > 1 else 0.0, low=lo, high=hi,
                        p_positive=float(np.mean(values > 0)), alpha=alpha)


# ------------------------------------------------- the test's size and coverage
@renamed_fields(reps="n_resamples")
@dataclass(frozen=True, eq=False)
class F1TestCheck:
    """How the bootstrap percentile test for dF1 behaves on repeated test sets.

    Attributes
    ----------
    n_test : size of each simulated test set.
    true_difference : dF1 of the population the test sets are drawn from (eq. 12
        applied to its event probabilities), the value the interval should cover.
    coverage : share of the repetitions whose ``1 - alpha`` percentile interval (eq. 14)
        contains ``true_difference``.
    coverage_se : its Monte Carlo standard error, ``sqrt(c (1 - c) / repetitions)``.
    rejection : share of the repetitions with 0 outside the interval (the section 4
        decision "A and B differ"). When ``true_difference == 0`` this is the test's
        size, to be compared with ``alpha``; otherwise its power.
    rejection_se : its Monte Carlo standard error.
    confidence : per repetition, the test's stated confidence in the model that won on
        that test set (eq. 13 in the winner's direction, as in Table 3).
    repetitions, n_resamples, alpha : the simulation's settings (simulated test sets, bootstrap
        replicates per test set, level).
    """

    n_test: int
    true_difference: float
    coverage: float
    coverage_se: float
    rejection: float
    rejection_se: float
    confidence: np.ndarray
    repetitions: int
    n_resamples: int
    alpha: float

    def __post_init__(self) -> None:
        freeze_arrays(self)


def _check_population(events: Any) -> np.ndarray:
    ev = _check_events(events).astype(float)
    if ev.ndim != 1:
        raise ValueError(f"population must be one row of 8 event counts or probabilities, got shape {ev.shape}")
    total = ev.sum()
    if total <= 0:
        raise ValueError("population must have a positive total (counts or probabilities of e1..e8)")
    if ev[:4].sum() <= 0:
        raise ValueError("population must give positive documents (e1..e4) a positive probability: "
                         "F1 needs positives")
    return ev / total


def null_population(events: Any) -> np.ndarray:
    """The population's twin in which A and B have exactly the same F1 (dF1 = 0).

    Averages the two discordant events of each class, ``e2, e3 -> (e2 + e3)/2`` and
    ``e6, e7 -> (e6 + e7)/2``: then ``TP_A = TP_B``, ``FN_A = FN_B`` and ``FP_A = FP_B``
    (module docstring), so eq. (12) is 0, while the class prior, the events on which
    the two models agree (their shared mistakes) and the rate of disagreement stay as
    they were. Test sets drawn from it measure the percentile test's size.

    Parameters
    ----------
    events : eight event counts or probabilities (e.g. Dtrue's counts).

    Returns
    -------
    numpy.ndarray
        Eight probabilities summing to 1.

    References
    ----------
    Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests*, IDIAP, Table 1
    and eq. (12).

    Examples
    --------
    >>> from evallib.onetestset import null_population, f1_difference
    >>> p = null_population([266, 9, 15, 13, 51, 33, 21, 592])   # the events of notebook 03
    >>> float(f1_difference(p))
    0.0
    """
    p = _check_population(events).copy()
    p[[1, 2]] = p[[1, 2]].mean()
    p[[5, 6]] = p[[5, 6]].mean()
    return p


@renamed_keywords(reps="n_resamples")
def f1_percentile_intervals(events: Any, *, n_resamples: int = 2000, alpha: float = 0.05, rng: Any = None,
                            zero_division: float = 0.0) -> pd.DataFrame:
    """The bootstrap percentile test (eqs. 12-14) of many test sets at once.

    ``events`` holds one row of eight event counts per test set; each row gets ``n_resamples``
    bootstrap replicates drawn as Multinomial(N, counts / N) (the same distribution as
    resampling its N documents with replacement, see :func:`resample_events`), and the
    central ``1 - alpha`` percentile interval of the replicates' dF1 (eq. 14, quantiles
    as in :func:`bootstrap_f1_difference`).

    Parameters
    ----------
    events : array of shape ``(k, 8)`` (or ``(8,)`` for one test set) of counts.
    n_resamples : int
        Bootstrap replicates per test set, ``>= 1``.
    alpha : float
        The interval has level ``1 - alpha``, in (0, 1).
    rng : None, int, SeedSequence or numpy.random.Generator
        Source of the resamples (see :func:`evallib._validate.check_rng`).
    zero_division : float
        F1 of a 0/0 replicate, as in :func:`f1_scores`.

    Returns
    -------
    pandas.DataFrame
        One row per test set: ``observed`` (dF1), ``low``, ``high`` (the interval),
        ``p_positive`` (eq. 13), ``p_negative`` and ``reject`` (0 outside the interval).

    References
    ----------
    Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests*, IDIAP,
    section 4, eqs. (12)-(14).

    Examples
    --------
    Notebook 03's toy test set (section 3) prints dF1 = -0.0259 (``N = 1000``):

    >>> from evallib.onetestset import f1_percentile_intervals
    >>> row = f1_percentile_intervals([266, 9, 15, 13, 51, 33, 21, 592], rng=1).iloc[0]
    >>> round(float(row["observed"]), 4)
    -0.0259
    """

    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    zd = _check_zero_division(zero_division)
    gen = check_rng(rng)
    ev = _check_events(events)
    ev = np.atleast_2d(ev)
    if ev.ndim != 2:
        raise ValueError(f"events must have shape (k, 8) or (8,), got shape {np.shape(events)}")
    if not np.all(ev == np.floor(ev)):
        raise ValueError("events must be whole counts (one row of e1..e8 counts per test set)")
    ev = ev.astype(np.int64)
    n = ev.sum(axis=1)
    if np.any(n < 1):
        raise ValueError("every row of events must count at least one document")
    low = np.empty(ev.shape[0])
    high = np.empty(ev.shape[0])
    p_pos = np.empty(ev.shape[0])
    p_neg = np.empty(ev.shape[0])
    # chunk the rows so that one block of replicates stays near 2 million draws
    step = max(1, 2_000_000 // n_resamples)
    for start in range(0, ev.shape[0], step):
        rows = slice(start, min(ev.shape[0], start + step))
        block = ev[rows]
        boot = gen.multinomial(n[rows], block / n[rows, None], size=(n_resamples, block.shape[0]))
        d = f1_difference(boot, zero_division=zd)          # shape (n_resamples, rows)
        low[rows], high[rows] = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
        p_pos[rows] = np.mean(d > 0, axis=0)
        p_neg[rows] = np.mean(d < 0, axis=0)
    observed = np.atleast_1d(f1_difference(ev, zero_division=zd))
    return pd.DataFrame({"observed": observed, "low": low, "high": high, "p_positive": p_pos,
                         "p_negative": p_neg, "reject": ~((low <= 0.0) & (0.0 <= high))})


@renamed_keywords(reps="n_resamples")
def f1_test_check(population: Any, n_test: int, *, repetitions: int = 500, n_resamples: int = 1000,
                  alpha: float = 0.05, rng: Any = None) -> F1TestCheck:
    """Size or power, and coverage, of the F1 bootstrap percentile test by Monte Carlo.

    Draws ``repetitions`` test sets of ``n_test`` documents from ``population`` (each
    one Multinomial(n_test, p) vector of event counts: documents drawn independently
    from the population), runs the percentile test of section 4 on each
    (:func:`f1_percentile_intervals`, ``n_resamples`` replicates) and counts how often

    * its interval contains the population's dF1 (coverage; nominal ``1 - alpha``), and
    * it declares the models different (0 outside the interval). For the population
      of :func:`null_population`, where dF1 = 0, that is the test's size (nominal
      ``alpha``); the two are then complementary.

    This answers the paper's question "is the percentile test reliable?" (section 5)
    with the two numbers a test is judged by, each with its Monte Carlo standard error.

    Parameters
    ----------
    population : eight event counts or probabilities (e.g. Dtrue's counts); positive
        documents must have a positive probability.
    n_test : int
        Test-set size, ``>= 1``.
    repetitions : int
        Simulated test sets, ``>= 2``.
    n_resamples : int
        Bootstrap replicates per test set, ``>= 1``.
    alpha : float
        One minus the interval's level, in (0, 1).
    rng : None, int, SeedSequence or numpy.random.Generator

    Returns
    -------
    F1TestCheck
        A test set without a positive document has dF1 = 0 by the ``zero_division``
        convention (F1 = 0 for both models) and is counted like any other.

    References
    ----------
    Keller, Bengio & Wong, *Benchmarking non-parametric statistical tests*, IDIAP,
    sections 4-5; the Monte Carlo standard error of a rate r over R repetitions is
    ``sqrt(r (1 - r) / R)``.

    Examples
    --------
    Under the null twin of notebook 03's toy events the population dF1 is exactly 0:

    >>> from evallib.onetestset import f1_test_check, null_population
    >>> check = f1_test_check(null_population([266, 9, 15, 13, 51, 33, 21, 592]), 1000,
    ...                       repetitions=50, n_resamples=200, rng=0)
    >>> check.true_difference, check.rejection + check.coverage
    (0.0, 1.0)
    """

    p = _check_population(population)
    n_test = check_count(n_test, "n_test", minimum=1)
    repetitions = check_count(repetitions, "repetitions", minimum=2)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    alpha = check_alpha(alpha)
    gen = check_rng(rng)
    true_d = float(f1_difference(p))
    tests = gen.multinomial(n_test, p, size=repetitions)
    res = f1_percentile_intervals(tests, n_resamples=n_resamples, alpha=alpha, rng=gen)
    covered = (res["low"].to_numpy() <= true_d) & (true_d <= res["high"].to_numpy())
    reject = res["reject"].to_numpy()
    obs = res["observed"].to_numpy()
    conf = np.where(obs > 0, res["p_positive"], np.where(obs < 0, res["p_negative"],
                                                         np.maximum(res["p_positive"], res["p_negative"])))

    def se(rate: float) -> float:
        return float(np.sqrt(rate * (1.0 - rate) / repetitions))

    cov, rej = float(covered.mean()), float(reject.mean())
    return F1TestCheck(n_test=n_test, true_difference=true_d, coverage=cov, coverage_se=se(cov),
                       rejection=rej, rejection_se=se(rej), confidence=np.asarray(conf, float),
                       repetitions=repetitions, n_resamples=n_resamples, alpha=alpha)
