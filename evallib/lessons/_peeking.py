"""Notebook 09's sliders: what peeking costs, what the remedies cost, and a decision against a margin.

The statistics are :func:`evallib.peeking_study` and :func:`evallib.paired_item_margin_test`;
these functions only draw and word their results, so that each slider of the notebook is a thin
widget over a tested ``plot_...(..., ax=None)`` function:

- :func:`plot_peeking_rates` -- the share of simulated comparisons that each stopping rule ends
  with a rejection (whiskers of two Monte Carlo SEs, a dashed line at ``alpha``), with the mean
  number of items at the stop under each bar; :func:`describe_peeking` prints the same numbers.
  Where every comparison or none rejected, the binomial SE is 0 and says nothing about the
  Monte Carlo error: both show the exact (Clopper–Pearson) 95% interval instead, and say so, ``[0.025^(1/n), 1]``
  or ``[0, 1 - 0.025^(1/n)]`` for ``n`` comparisons; :func:`describe_rate` words one rule's rate as
  :func:`evallib.lessons.describe_mc_share` words every simulated share of the lessons;
- :func:`plot_margin_decision` -- a non-inferiority decision: the one-sided lower bound of the
  paired difference against ``-margin``, optionally beside the anytime-valid lower bound of a
  one-sided confidence sequence.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .._format import format_p
from .._plotting import clear_artists, get_axes
from .._validate import check_names
from ..items import PairedItemMarginTest
from ..onetestset import mcnemar
from ..sequential import PeekingStudy, peeking_signflip_rate
from ._items import _clopper_pearson, describe_mc_share

__all__ = ["plot_peeking_rates", "describe_peeking", "describe_rate", "RuleDifference",
           "one_look_reason", "rule_difference",
           "plot_margin_decision"]

_COLORS = {"fixed-n": "#4c72b0", "every look": "#c44e52", "alpha-spending": "#55a868",
           "confidence sequence": "#8172b2"}


def _rules(study: PeekingStudy, rules: Any) -> list[int]:
    if not isinstance(study, PeekingStudy):
        raise TypeError(f"study must be a PeekingStudy (from evallib.peeking_study), got {type(study).__name__}")
    if rules is None:
        return list(range(len(study.rules)))
    names = [rules] if isinstance(rules, str) else list(rules)
    unknown = [r for r in names if r not in study.rules]
    if unknown or not names:
        raise ValueError(f"rules must be a non-empty selection of {study.rules}, got {rules!r}")
    return [study.rules.index(r) for r in names]


def _rate_interval(study: PeekingStudy, idx: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The ends of each rate's Monte Carlo interval: ± two SEs, or the exact 95% binomial
    (Clopper–Pearson) interval where all or none of the comparisons rejected (SE 0)."""
    rate, se = study.rejection_rate[idx], study.se[idx]
    exact_low, exact_high = _clopper_pearson(rate * study.n_resamples, study.n_resamples)
    low = np.where(rate == 1.0, exact_low, rate - 2.0 * se)
    high = np.where(rate == 0.0, exact_high, rate + 2.0 * se)
    return low, high


def plot_peeking_rates(study: PeekingStudy, *, rules: Any = None, ax: Any = None):
    """Bars of how often each stopping rule of a peeking study rejected ``H0: no difference``.

    One bar per rule (its rejection rate: the type I error when the study's ``effect`` is 0, the
    power otherwise) with whiskers of two Monte Carlo standard errors (the exact 95% binomial
    interval where every or no comparison rejected), a dashed line at the
    study's ``alpha``, and under each bar the mean number of items at which the rule stopped.
    Given an ``ax`` that holds an earlier drawing, it replaces that drawing in place (for a slider).

    Parameters
    ----------
    study : PeekingStudy
        From :func:`evallib.peeking_study`.
    rules : sequence of str, optional
        The rules to draw, a selection of ``study.rules`` in the order given (default: all).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new 6.4 x 3.4 inch figure.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        ``study`` is not a :class:`~evallib.sequential.PeekingStudy`.
    ValueError
        A rule that the study does not hold.

    Examples
    --------
    >>> from evallib import peeking_study
    >>> s = peeking_study(0.0, looks=10, n_resamples=4000, rng=0)
    >>> ax = plot_peeking_rates(s, rules=("fixed-n", "every look"))
    >>> [float(round(p.get_height(), 3)) for p in ax.patches]
    [0.055, 0.207]
    """
    from matplotlib.ticker import MaxNLocator

    idx = _rules(study, rules)
    ax = get_axes(ax, figsize=(6.4, 3.4))
    clear_artists(ax)
    x = np.arange(len(idx))
    rate = study.rejection_rate[idx]
    low, high = _rate_interval(study, idx)
    ax.bar(x, rate, width=0.6, color=[_COLORS.get(study.rules[i], "0.5") for i in idx],
           yerr=np.vstack([rate - low, high - rate]), capsize=4, error_kw=dict(lw=1, ecolor="0.2"))
    ax.axhline(study.alpha, ls="--", color="0.3", lw=1)
    ax.text(len(idx) - 0.5, study.alpha, f"alpha = {study.alpha:g}", ha="right", va="bottom", fontsize=8, color="0.3")
    ax.set_xticks(x)
    ax.set_xticklabels([f"{study.rules[i]}\nmean n = {study.mean_n[i]:,.0f}" for i in idx], fontsize=8.5)
    ax.set_xlim(-0.5, len(idx) - 0.5)
    top = float(np.max(high))
    ax.set_ylim(0, max(1.15 * top, 2 * study.alpha, 0.1))
    # at most four intervals on the rate axis: a slider's every move renders each tick label again,
    # and text is most of a render (the rates themselves are printed under the figure)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]))
    what = "false finds (type I error)" if study.effect == 0 else f"power at true difference {study.effect:+g}"
    ax.set_ylabel(f"share rejecting H0\n{what}", fontsize=9)
    return ax


def describe_peeking(study: PeekingStudy, *, rules: Any = None) -> str:
    """The numbers behind :func:`plot_peeking_rates`, one line per rule.

    Parameters
    ----------
    study : PeekingStudy
    rules : sequence of str, optional
        As in :func:`plot_peeking_rates`.

    Returns
    -------
    str
        A header naming the design (looks, items, true difference, simulated comparisons) and
        what the ``±`` means, then per rule its rejection rate with two Monte Carlo SEs in
        percentage points (``± 2.9``) and its mean number of items at the stop. Where every or
        no comparison rejected, the SE is 0: the count and the exact (Clopper–Pearson) 95%
        binomial interval stand in its place.

    Examples
    --------
    >>> from evallib import peeking_study
    >>> print(describe_peeking(peeking_study(0.0, looks=5, n_resamples=2000, rng=1), rules=("fixed-n",)))
    5 looks up to 1,000 items, true difference +0, 2,000 simulated comparisons at alpha = 0.05 (± two Monte Carlo SEs)
    fixed-n              rejects in  5.0% (± 1.0)   mean n at the stop 1,000
    >>> print(describe_peeking(peeking_study(0.2, looks=5, n_resamples=200, rng=1), rules=("every look",)))
    5 looks up to 1,000 items, true difference +0.2, 200 simulated comparisons at alpha = 0.05
    every look           rejects in 100.0% (200 of 200; Clopper–Pearson 95% CI 98.2 to 100)   mean n at the stop 200
    """
    idx = _rules(study, rules)
    spread_se = any(study.rejection_rate[i] not in (0.0, 1.0) for i in idx)
    lines = [f"{study.looks} look{'s' if study.looks != 1 else ''} up to {study.n_max:,} items, true difference "
             f"{study.effect:+g}, {study.n_resamples:,} simulated comparisons at alpha = {study.alpha:g}"
             + (" (± two Monte Carlo SEs)" if spread_se else "")]
    low, high = _rate_interval(study, idx)
    for k, i in enumerate(idx):
        rate = study.rejection_rate[i]
        if rate in (0.0, 1.0):     # no spread among the comparisons: the count and the exact interval
            ends = (f"{100 * v:.1f}".removesuffix(".0") for v in (low[k], high[k]))
            spread = f"{round(rate * study.n_resamples):,} of {study.n_resamples:,}; Clopper–Pearson 95% CI {' to '.join(ends)}"
        else:
            spread = f"± {200 * study.se[i]:.1f}"
        lines.append(f"{study.rules[i]:<20} rejects in {100 * rate:4.1f}% ({spread})   "
                     f"mean n at the stop {study.mean_n[i]:,.0f}")
    return "\n".join(lines)


def describe_rate(study: PeekingStudy, rule: str) -> str:
    """One rule's rejection rate in words, with its own Monte Carlo error, as :func:`describe_mc_share` words it.

    ``"5.0% (MC SE 0.5 percentage points)"`` from :data:`~evallib.lessons.EXACT_BELOW` (10)
    rejecting and non-rejecting comparisons on; below that the count and the exact
    (Clopper–Pearson) 95% interval, and where none or every comparison rejected (an SE of 0,
    which says nothing) its one bound: ``"none of 20 (Clopper–Pearson 95% upper bound 16.84%)"``.

    Parameters
    ----------
    study : PeekingStudy
        A study of :func:`evallib.peeking_study`.
    rule : str
        One of ``study.rules``.

    Returns
    -------
    str

    Raises
    ------
    TypeError, ValueError
        As :func:`describe_peeking`: not a study, or a rule it does not hold.

    Examples
    --------
    >>> from evallib import peeking_study
    >>> describe_rate(peeking_study(0.0, looks=5, n_resamples=2000, rng=1), "fixed-n")
    '5.1% (MC SE 0.5 percentage points)'
    """
    if not isinstance(rule, str):
        raise ValueError(f"rule must be one of {getattr(study, 'rules', ())}, got {rule!r}")
    i = _rules(study, rule)[0]
    return describe_mc_share(float(study.rejection_rate[i]), study.n_resamples)


def one_look_reason(n_items: int, discordant: int, *, alpha: float = 0.05, spread: int = 3) -> str:
    """Why the one-look z test on ``n_items`` 0/1 paired items is not exactly of level ``alpha``.

    Under label swaps only the ``discordant`` items' signs move, so the sum ``S`` of their ``m``
    signs is all the z statistic depends on: ``S`` takes the ``m + 1`` values ``-m, -m + 2, ...,
    m`` (the parity of ``m``), and the rule ``|z| >= z_{1-alpha/2}`` has the exact probability of a
    set of those values, :func:`evallib.peeking_signflip_rate` at one look. The sentence gives
    that probability and, for the discordant counts ``m - spread`` to ``m + spread`` at the same
    ``n_items`` (computed the same way), the range it spans, saying on which side of ``alpha``
    each end lies.

    Parameters
    ----------
    n_items : int
        The paired items (``>= 2``).
    discordant : int
        The discordant items among them, in ``[1, n_items]``.
    alpha : float, default 0.05
        The two-sided level of the z test, in (0, 1).
    spread : int, default 3
        How many discordant counts either side of ``discordant`` the range covers (``>= 0``).

    Returns
    -------
    str
        The reason in words, with the exact probability and its range over nearby counts.

    Raises
    ------
    ValueError
        ``n_items`` below 2, ``discordant`` outside ``[1, n_items]``, ``spread`` negative, or
        ``alpha`` not in (0, 1) (from :func:`evallib.peeking_signflip_rate`).

    Examples
    --------
    >>> print(one_look_reason(100, 11, alpha=0.05)[:60])
    the z statistic takes only the values set by the sum S of th
    """
    for name, v, lo in (("n_items", n_items, 2), ("discordant", discordant, 1), ("spread", spread, 0)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ValueError(f"{name} must be an integer >= {lo}, got {v!r}")
    if discordant > n_items:
        raise ValueError(f"discordant must be at most n_items = {n_items}, got {discordant}")

    def exact(m):
        x = np.zeros(n_items)
        x[:m] = 1.0
        return peeking_signflip_rate(x, np.zeros(n_items), looks=1, alpha=alpha)

    m = int(discordant)
    here = exact(m)
    near = {k: exact(k) for k in range(max(1, m - spread), min(n_items, m + spread) + 1)}
    lo_k, hi_k = min(near, key=near.get), max(near, key=near.get)

    def side(v):
        return "above" if v > alpha else "below" if v < alpha else "at"

    parity = "odd" if m % 2 else "even"
    return (f"the z statistic takes only the values set by the sum S of the m = {m:,} discordant signs (an {parity} "
            f"number from −{m:,} to {m:,} in steps of 2), so the rule \"|z| ≥ z_(1−α/2)\" has the exact probability "
            f"of a set of those values: {100 * here:.2f}% here, {side(here)} α = {100 * alpha:g}%. "
            + ("It can fall on either side of α: at" if near[lo_k] < alpha < near[hi_k] else
               "Nearby counts do not cross α here: at")
            + f" the same {n_items:,} items, over {min(near):,} to {max(near):,} discordant items "
            f"it runs from {100 * near[lo_k]:.2f}% (m = {lo_k:,}, {side(near[lo_k])} α) to {100 * near[hi_k]:.2f}% "
            f"(m = {hi_k:,}, {side(near[hi_k])} α)")


class RuleDifference(NamedTuple):
    """Two rules' rejections compared stream by stream (:func:`rule_difference`).

    Attributes
    ----------
    gap : float
        ``rule_a``'s rejection rate minus ``rule_b``'s.
    only_a, only_b : int
        The streams that one rule rejected and the other did not.
    pvalue : float
        The exact (binomial) McNemar p-value on ``only_a`` and ``only_b``.
    verdict : str
        ``"a higher"``, ``"b higher"``, ``"not shown"`` or ``"too small"``.
    text : str
        The comparison in words.
    """

    gap: float          #: rule_a's rate minus rule_b's
    only_a: int         #: streams that rule_a rejected and rule_b did not
    only_b: int         #: streams that rule_b rejected and rule_a did not
    pvalue: float       #: exact (binomial) McNemar test on only_a, only_b
    verdict: str        #: "a higher", "b higher", "not shown" or "too small"
    text: str           #: the comparison in words


def rule_difference(study: PeekingStudy, rule_a: str, rule_b: str) -> RuleDifference:
    """Do two rules of one peeking study reject at different rates? McNemar's exact test.

    Both rules were read on the same simulated streams, so the question is paired: only the
    *discordant* streams (one rule rejects, the other not) carry information, and under "the
    two rates are equal" the streams rejected by ``rule_a`` alone are ``Binomial(m, 1/2)`` of
    the ``m`` discordant ones. :func:`evallib.mcnemar` (``method="exact"``) gives the p-value,
    compared with the study's ``alpha``. With so few discordant streams that even the most
    lopsided split has ``2 · 0.5^m > alpha``, no split could show a difference: the verdict is
    ``"too small"`` and the text says the simulation is too small to judge.

    Parameters
    ----------
    study : PeekingStudy
        A study of :func:`evallib.peeking_study`; both rules were read on its streams.
    rule_a, rule_b : str
        Two different rules of ``study.rules``.

    Returns
    -------
    RuleDifference
        The gap, the two discordant counts, the exact p-value, the verdict and a sentence.

    Raises
    ------
    TypeError, ValueError
        Not a study, a rule it does not hold, or the same rule twice.

    Examples
    --------
    >>> from evallib import peeking_study
    >>> r = rule_difference(peeking_study(0.0, looks=5, n_resamples=2000, rng=1), "every look", "fixed-n")
    >>> r.verdict, r.only_b
    ('a higher', 0)
    """
    if not isinstance(rule_a, str) or not isinstance(rule_b, str):
        raise ValueError(f"rule_a and rule_b must be rules of the study, got {rule_a!r}, {rule_b!r}")
    i, j = _rules(study, rule_a)[0], _rules(study, rule_b)[0]
    if i == j:
        raise ValueError(f"rule_a and rule_b must be two different rules, got {rule_a!r} twice")
    hit_a, hit_b = np.asarray(study.rejected[i], bool), np.asarray(study.rejected[j], bool)
    only_a, only_b = int(np.sum(hit_a & ~hit_b)), int(np.sum(hit_b & ~hit_a))
    m, n, alpha = only_a + only_b, study.n_resamples, study.alpha
    gap = float(study.rejection_rate[i] - study.rejection_rate[j])
    pvalue = float(mcnemar(only_a, only_b, method="exact").pvalue)
    counts = (f"of the {n:,} streams, {only_a:,} {'was' if only_a == 1 else 'were'} rejected by {rule_a} alone "
              f"and {only_b:,} by {rule_b} alone")
    if m == 0 or 2 * 0.5 ** m > alpha:
        verdict = "too small"
        text = (f"{counts}; with {m:,} discordant stream{'s' if m != 1 else ''} not even the most lopsided split "
                f"could give an exact (McNemar) p ≤ α = {alpha:g}, so the simulation is too small to judge")
    elif pvalue <= alpha:
        verdict = "a higher" if only_a > only_b else "b higher"
        text = (f"{counts}; the exact (McNemar) binomial test on these {m:,} discordant streams gives "
                f"{format_p(pvalue)}: the two rates differ at α = {alpha:g}")
    else:
        verdict = "not shown"
        text = (f"{counts}; the exact (McNemar) binomial test on these {m:,} discordant streams gives "
                f"{format_p(pvalue)}: the rates are not shown to differ at α = {alpha:g}")
    return RuleDifference(gap, only_a, only_b, pvalue, verdict, text)


def plot_margin_decision(result: PairedItemMarginTest, *, sequential_low: float | None = None,
                         names: tuple[str, str] | None = None, ax: Any = None):
    """A non-inferiority decision drawn: the lower bound of ``a - b`` against ``-margin``.

    The estimate of the paired difference (a dot), the one-sided ``1 - alpha`` interval
    ``[low, +1]`` the test inverts (a bar from ``low`` rightwards), the margin ``-margin`` (a red
    dashed line, the region "worse by the margin or more" shaded) and 0 (a grey line). With
    ``sequential_low``, a second bar: the lower bound of a one-sided confidence sequence at the
    same number of items (valid however often one looked). Given an ``ax`` with an earlier
    drawing, it replaces it in place.

    Parameters
    ----------
    result : PairedItemMarginTest
        From :func:`evallib.paired_item_margin_test` with ``hypothesis="noninferiority"`` and
        ``higher_is_better=True``.
    sequential_low : float, optional
        The anytime-valid lower bound to draw beside it, in ``[-1, 1]``.
    names : pair of str, optional
        The two models' names for the axis label, the candidate first (default ``("a", "b")``,
        as in :meth:`~evallib.items.PairedItemMarginTest.describe`).
    ax : matplotlib.axes.Axes, optional
        By default a new 6.4 x 2.6 inch figure.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        ``result`` is not a :class:`~evallib.items.PairedItemMarginTest`.
    ValueError
        An equivalence test, a lower-is-better test, ``sequential_low`` outside ``[-1, 1]``, or
        ``names`` not two different non-empty strings.

    Examples
    --------
    >>> from evallib import paired_item_margin_test
    >>> res = paired_item_margin_test([0.8, 0.6, 0.9, 0.7, 0.75, 0.85], [0.82, 0.6, 0.88, 0.72, 0.74, 0.86],
    ...                               margin=0.05)
    >>> ax = plot_margin_decision(res)
    >>> float(round(ax.lines[0].get_xdata()[0], 3)), ax.get_title(loc="left")
    (-0.05, 'non-inferiority shown at alpha = 0.05')
    """
    if not isinstance(result, PairedItemMarginTest):
        raise TypeError(f"result must be a PairedItemMarginTest (from evallib.paired_item_margin_test), "
                        f"got {type(result).__name__}")
    if result.hypothesis != "noninferiority" or not result.higher_is_better:
        raise ValueError("result must be a non-inferiority test with higher_is_better=True "
                         f"(got hypothesis={result.hypothesis!r}, higher_is_better={result.higher_is_better})")
    if sequential_low is not None:
        sequential_low = float(sequential_low)
        if not -1.0 <= sequential_low <= 1.0:
            raise ValueError(f"sequential_low must be in [-1, 1], got {sequential_low!r}")
    a, b = check_names(names)
    ax = get_axes(ax, figsize=(6.4, 2.6))
    clear_artists(ax)
    lows = [result.low] + ([sequential_low] if sequential_low is not None else [])
    left = min(min(lows), -result.margin)
    right = max(result.estimate, 0.0)
    pad = 0.25 * max(right - left, result.margin)
    lo_x, hi_x = left - pad, right + pad
    ax.axvline(-result.margin, color="#c44e52", ls="--", lw=1.2)
    ax.axvspan(lo_x, -result.margin, color="#c44e52", alpha=0.08, lw=0)
    ax.axvline(0.0, color="0.5", lw=0.8)
    level = f"{100 * (1 - result.alpha):g}%"
    rows = [(f"fixed-n one-sided {level}", result.low, "#4c72b0")]
    if sequential_low is not None:
        rows.append((f"confidence sequence {level}", sequential_low, "#8172b2"))
    for k, (label, low, color) in enumerate(rows):
        y = len(rows) - 1 - k
        ax.plot([low, hi_x], [y, y], color=color, lw=5, solid_capstyle="butt", alpha=0.6)
        ax.plot([low], [y], marker="|", ms=14, mew=2, color=color)
        ax.text(low, y + 0.28, f"{label} lower bound {low:+.3f}", fontsize=8, ha="left", va="bottom", color=color)
    ax.plot([result.estimate] * len(rows), list(range(len(rows))), "o", color="k", ms=5)
    ax.text(-result.margin, len(rows) - 0.45, f" -margin = {-result.margin:+.3g}", fontsize=8, color="#c44e52",
            ha="left", va="bottom")
    ax.set_xlim(lo_x, hi_x)
    ax.set_ylim(-0.6, len(rows) - 0.2)
    ax.set_yticks([])
    ax.set_xlabel(f"{a} - {b} over {result.n_items:,} items (dot: estimate {result.estimate:+.3f})", fontsize=9)
    shown = "shown" if result.reject else "not shown"
    ax.set_title(f"non-inferiority {shown} at alpha = {result.alpha:g}", loc="left", fontsize=9.5)
    if not math.isfinite(result.low):
        ax.text(0.5, 0.5, "no finite lower bound", transform=ax.transAxes, ha="center")
    return ax
