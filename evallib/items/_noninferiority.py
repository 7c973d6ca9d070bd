"""No worse than, or equivalent: two models' paired mean item scores against a margin.

Design 4 (per-item evaluation). The question a release asks is not "do the models differ?"
but "is the new model ``a`` no worse than the old one ``b`` by more than ``margin``?". With
``d = mean(a_i) - mean(b_i)`` over the items (item means first, as in
:func:`evallib.items.paired_item_difference`) and scores where higher is better:

* **non-inferiority**: H0 ``d <= -margin`` against H1 ``d > -margin``, the one-sided test of
  ``(d_hat + margin) / se`` on the reference distribution of ``paired_item_difference``
  (CR2 with Bell–McCaffrey degrees of freedom when the items cluster, the paired t-test
  when they do not);
* **equivalence**: H0 ``|d| >= margin``, Schuirmann's two one-sided tests (TOST), each at
  level ``alpha``; unclustered, it is ``statsmodels.stats.weightstats.ttost_paired``.

For one 0/1 score per item and no clusters, ``method="auto"`` uses Tango's (1998) score test
on the discordant items (:func:`evallib.onetestset.tango_test`) instead.

The estimate, standard error and degrees of freedom come from
:func:`evallib.items.paired_item_difference` (one implementation of CR2); the statistic,
p-value and interval from evallib's t/z core (:mod:`evallib._inference`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._format import format_p
from .._inference import t_inference
from .._paired import _check_margin
from .._results import IntervalMixin
from .._validate import align_items, check_choice, check_names
from ..onetestset import MARGIN_HYPOTHESES, tango_test
from ._means import _LABELS, _check_scores, _item_means, _where, paired_item_difference

__all__ = ["MARGIN_ITEM_METHODS", "PairedItemMarginTest", "paired_item_margin_test"]

#: Methods of :func:`paired_item_margin_test` (``"auto"`` picks ``"tango"`` or ``"cr2"``).
MARGIN_ITEM_METHODS = ("auto", "t", "cr1", "cr2", "tango")

_TANGO_LABEL = "Tango score test on the discordant items"


@dataclass(frozen=True)
class PairedItemMarginTest(IntervalMixin):
    """Whether model ``a`` is no worse than ``b`` (or equivalent) up to a margin, over the same items.

    Attributes
    ----------
    estimate : ``mean(a_i) - mean(b_i)`` over the analysed items.
    se : its standard error under ``method`` (as in :class:`PairedItemDifference`; for
        ``"tango"`` the item-level ``s_d / sqrt(n)``, which the score test does not use).
    low, high : the interval the test inverts, inside [-1, 1]: for ``"noninferiority"`` the
        one-sided ``1 - alpha`` interval (``[low, 1]`` when higher is better, ``[-1, high]``
        when lower is better); for ``"equivalence"`` the two-sided ``1 - 2 alpha`` interval.
    statistic : the test statistic at the margin, signed so that large values favour the
        alternative (for ``"equivalence"`` the smaller of the two one-sided statistics).
    pvalue : the one-sided p-value (``"equivalence"``: the larger of the two).
    reject : ``pvalue <= alpha``: non-inferiority (or equivalence) shown.
    margin : the margin, > 0, on the scale of the scores.
    hypothesis : ``"noninferiority"`` or ``"equivalence"``.
    higher_is_better : the direction of the scores; "worse" is lower when ``True``.
    alpha : the level of each one-sided test.
    df : degrees of freedom of the t reference (``inf`` for ``"tango"``).
    method : the method used (``"auto"`` resolved to ``"tango"`` or ``"cr2"``).
    n_items, n_clusters, n_dropped : as in :class:`PairedItemDifference`.
    note : anything the reader should know (dropped items, one cluster, ...).
    """

    estimate: float
    se: float
    low: float
    high: float
    statistic: float
    pvalue: float
    reject: bool
    margin: float
    hypothesis: str
    higher_is_better: bool
    alpha: float
    df: float
    method: str
    n_items: int
    n_clusters: int
    n_dropped: int
    note: str = ""

    def describe(self, names: tuple[str, str] | None = None) -> str:
        """One sentence: what was shown or not, the bound against the margin, the test and the design.

        Parameters
        ----------
        names : pair of str, optional
            What to call the two models in the sentence, ``a`` (the candidate) first; by default
            ``("a", "b")``, the arguments of :func:`paired_item_margin_test`.

        Returns
        -------
        str
            The claim and whether it was shown at ``alpha``, then ``a - b`` over the items (and
            clusters), the one-sided bound against the margin (non-inferiority) or the
            ``1 - 2 alpha`` interval against ``[-margin, +margin]`` (equivalence), the statistic
            and p-value, and the test used; followed by ``note`` when there is one.

        Examples
        --------
        >>> res = paired_item_margin_test([0.8, 0.6, 0.9, 0.7, 0.75, 0.85], [0.82, 0.6, 0.88, 0.72, 0.74, 0.86],
        ...                               margin=0.05)
        >>> print(res.describe())  # doctest: +NORMALIZE_WHITESPACE
        a is no worse than b by more than 0.05 (non-inferiority shown at alpha = 0.05): a - b = -0.003
        over 6 items, one-sided 95% lower bound -0.017 lies above -0.05, t = 7.00, p = 0.00046
        (CR2 cluster-robust SE, Bell–McCaffrey t with 5.0 df).
        >>> print(res.describe(names=("new", "old")))  # doctest: +ELLIPSIS
        new is no worse than old by more than 0.05 (...): new - old = -0.003 over 6 items, ...

        Raises
        ------
        TypeError, ValueError
            ``names`` is not a pair of two different non-empty strings.
        """
        a, b = check_names(names)
        clustered = self.n_clusters < self.n_items
        where = _where(self.n_items, self.n_clusters, clustered)
        m = f"{self.margin:.3g}"
        if self.method == "tango":
            label = _TANGO_LABEL
            test = f"z = {self.statistic:.2f}, {format_p(self.pvalue)}"
        else:
            label = _LABELS["t" if self.method == "t" else self.method].format(
                df=self.df if math.isfinite(self.df) else 0.0)
            test = f"{'z' if math.isinf(self.df) else 't'} = {self.statistic:.2f}, {format_p(self.pvalue)}"
        level = f"{100 * (1 - self.alpha):g}%"
        if self.hypothesis == "equivalence":
            claim = f"{a} and {b} are within {m} of each other"
            bound = (f"{100 * (1 - 2 * self.alpha):g}% CI [{self.low:+.3f}, {self.high:+.3f}] "
                     f"{'lies inside' if self.reject else 'does not lie inside'} [-{m}, +{m}]")
            shown = "equivalence shown" if self.reject else "equivalence not shown"
        else:
            worse = "lower" if self.higher_is_better else "higher"
            claim = f"{a} is no worse than {b} by more than {m}"
            side, value, limit = (("lower", self.low, f"-{m}") if self.higher_is_better
                                  else ("upper", self.high, f"+{m}"))
            rel = "above" if self.reject == self.higher_is_better else "below"
            bound = f"one-sided {level} {side} bound {value:+.3f} lies {rel} {limit}"
            shown = "non-inferiority shown" if self.reject else "non-inferiority not shown"
        head = (claim + f" ({shown} at alpha = {self.alpha:g})" if self.reject else
                f"Not shown that {claim} ({shown} at alpha = {self.alpha:g}; the data do not rule out "
                + ("a difference of the margin or more" if self.hypothesis == "equivalence"
                   else f"that {a} scores {worse} by the margin or more") + ")")
        text = f"{head}: {a} - {b} = {self.estimate:+.3f} over {where}, {bound}, {test} ({label})"
        return text + "." + (f" {self.note}" if self.note else "")

    __str__ = describe


def _tango_counts(a: Any, b: Any, missing: str) -> tuple[int, int, int]:
    """(n10, n01, n) of the items both models scored: a right only, b right only, items."""
    ya, _ = _item_means(_check_scores(a, "a"))
    yb, _ = _item_means(_check_scores(b, "b"))
    keep = ~(np.isnan(ya) | np.isnan(yb)) if missing == "drop" else np.ones(ya.shape[0], dtype=bool)
    ya, yb = ya[keep], yb[keep]
    return (int(np.count_nonzero((ya == 1) & (yb == 0))), int(np.count_nonzero((ya == 0) & (yb == 1))),
            int(ya.shape[0]))


def paired_item_margin_test(
    a: Any,
    b: Any,
    *,
    margin: float,
    hypothesis: str = "noninferiority",
    higher_is_better: bool = True,
    clusters: Any = None,
    alpha: float = 0.05,
    method: str = "auto",
    missing: str = "raise",
) -> PairedItemMarginTest:
    """Is model ``a`` no worse than ``b`` by more than ``margin`` (or equivalent) on the same items?

    The paired difference ``d = mean(a_i) - mean(b_i)`` and its standard error come from
    :func:`paired_item_difference` (items x samples reduced to item means first; CR2 with
    Bell–McCaffrey df when the items cluster). With scores where higher is better:

    ``"noninferiority"`` (default)
        H0: ``d <= -margin`` (``a`` worse by the margin or more) against H1: ``d > -margin``;
        statistic ``(d_hat + margin) / se``, one-sided p-value on t(``df``). With
        ``higher_is_better=False`` (losses, error rates) H0 is ``d >= margin`` and the
        statistic ``(margin - d_hat) / se``.
    ``"equivalence"``
        H0: ``|d| >= margin`` against H1: ``|d| < margin``: Schuirmann's two one-sided tests,
        each at level ``alpha``, p-value the larger of the two. Unclustered (``method="t"``)
        it is ``statsmodels.stats.weightstats.ttost_paired(a, b, -margin, margin)``.

    ``method="auto"``: ``"tango"`` for one 0/1 score per item from each model and no clusters
    -- Tango's score test on the discordant items (:func:`evallib.onetestset.tango_test`, with
    the error rates ``1 - score``, or the scores themselves when lower is better) -- and
    ``"cr2"`` otherwise, which without clusters is the paired t-test on ``n - 1`` df.

    Parameters
    ----------
    a, b : array-like, shape (items,) or (items, samples)
        The two models' scores in [0, 1] on the same items, as in :func:`paired_item_difference`;
        ``a`` is the model that must be shown no worse (the candidate), ``b`` the reference.
    margin : float
        In (0, 1), on the scale of the scores: how much worse ``a`` may be and still count as
        no worse (``"equivalence"``: the largest difference either way).
    hypothesis : {"noninferiority", "equivalence"}
    higher_is_better : bool
        ``True`` for accuracies and pass rates (worse is lower), ``False`` for losses and error
        rates (worse is higher). Equivalence does not depend on it.
    clusters : sequence, optional
        One cluster label per item, as in :func:`paired_item_difference`.
    alpha : float
        Level of each one-sided test, in (0, 0.5).
    method : {"auto", "t", "cr1", "cr2", "tango"}
        :data:`MARGIN_ITEM_METHODS`; ``"t"`` takes the items as independent, ``"cr1"`` and
        ``"cr2"`` are the cluster-robust standard errors of :func:`paired_item_difference`.
    missing : {"raise", "drop"}
        As in :func:`paired_item_difference`.

    Returns
    -------
    PairedItemMarginTest
        ``estimate``, ``se``, ``low``, ``high``, ``statistic``, ``pvalue``, ``reject``,
        ``margin``, ``hypothesis``, ``higher_is_better``, ``alpha``, ``df``, ``method``,
        ``n_items``, ``n_clusters``, ``n_dropped``, ``note``; ``describe()`` says it in a sentence.

    Notes
    -----
    A test that fails to show non-inferiority has not shown that ``a`` is worse: the interval
    still reaches past the margin, which is all it says. With every item in one cluster the
    cluster-robust standard error is infinite and nothing is shown (``p = 1``). With a zero
    standard error (every item shows the same difference) the t/z core's rule applies: the
    statistic is infinite and the p-value 0 or 1, as the difference lies inside or outside
    the margin.

    References
    ----------
    .. [1] Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the
       power approach for assessing the equivalence of average bioavailability. *Journal of
       Pharmacokinetics and Biopharmaceutics* 15, 657-680.
    .. [2] Wellek, S. (2010). *Testing Statistical Hypotheses of Equivalence and
       Noninferiority*, 2nd ed. CRC Press.
    .. [3] Bell, R. M. & McCaffrey, D. F. (2002). *Survey Methodology* 28(2), 169-181.
    .. [4] Tango, T. (1998). *Statistics in Medicine* 17, 891-908.

    Examples
    --------
    Six items scored in [0, 1]; the candidate ``a`` trails ``b`` by 0.02 / 6 = 0.0033 on average,
    with per-item differences of standard deviation 0.01633 (``se = 0.01633 / sqrt(6) = 0.00667``).
    No worse by more than 0.05: ``t = (-0.00333 + 0.05) / 0.00667 = 7.0`` on 5 df.

    >>> from evallib import paired_item_margin_test
    >>> a = [0.8, 0.6, 0.9, 0.7, 0.75, 0.85]
    >>> b = [0.82, 0.6, 0.88, 0.72, 0.74, 0.86]
    >>> res = paired_item_margin_test(a, b, margin=0.05)
    >>> res.method, round(res.estimate, 3), round(res.statistic, 2), res.reject
    ('cr2', -0.003, 7.0, True)
    """
    hypothesis = check_choice(hypothesis, "hypothesis", MARGIN_HYPOTHESES)
    method = check_choice(method, "method", MARGIN_ITEM_METHODS)
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    margin, alpha = _check_margin(margin, alpha)
    inner = {"auto": "auto", "tango": "mcnemar"}.get(method, method)
    a, b, clusters = align_items([("a", a), ("b", b), ("clusters", clusters)])   # Tango's counts pair them too
    diff = paired_item_difference(a, b, clusters=clusters, alpha=alpha, method=inner, missing=missing)
    if diff.method == "mcnemar":
        method = "tango"
    elif method == "auto":
        method = diff.method
    est, se, df = diff.estimate, diff.se, diff.df
    note = diff.note
    if method == "tango":
        n10, n01, n = _tango_counts(a, b, missing)
        # errors of a only and of b only: a's 0 against b's 1 when higher is better
        err_a, err_b = (n01, n10) if higher_is_better else (n10, n01)
        res = tango_test(err_a, err_b, n, margin=margin, hypothesis=hypothesis, alpha=alpha)
        # tango_test's interval is for the excess "badness" of a; turn it into a - b
        low, high = ((-res.high, -res.low) if higher_is_better else (res.low, res.high))
        statistic, pvalue = res.statistic, res.pvalue
    elif not math.isfinite(se):   # one cluster: nothing is known about the variation between clusters
        low, high, statistic, pvalue = -1.0, 1.0, 0.0, 1.0
    else:
        # the candidate's advantage over the "worse by the margin" null, and the other side's
        up = t_inference(est, se, df=df, null=-margin, alternative="greater", alpha=alpha)
        dn = t_inference(est, se, df=df, null=margin, alternative="less", alpha=alpha)
        if hypothesis == "equivalence":
            binding = up if up.pvalue >= dn.pvalue else dn
            statistic = binding.statistic if binding is up else -binding.statistic
            pvalue, low, high = binding.pvalue, up.low, dn.high
        elif higher_is_better:
            statistic, pvalue, low, high = up.statistic, up.pvalue, up.low, 1.0
        else:
            statistic, pvalue, low, high = -dn.statistic, dn.pvalue, -1.0, dn.high
        low, high = float(np.clip(low, -1.0, 1.0)), float(np.clip(high, -1.0, 1.0))
    return PairedItemMarginTest(
        estimate=float(est), se=float(se), low=float(low), high=float(high), statistic=float(statistic),
        pvalue=float(pvalue), reject=bool(pvalue <= alpha), margin=margin, hypothesis=hypothesis,
        higher_is_better=bool(higher_is_better), alpha=alpha, df=float(df), method=method,
        n_items=diff.n_items, n_clusters=diff.n_clusters, n_dropped=diff.n_dropped, note=note)
