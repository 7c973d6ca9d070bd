"""Notebook 01, section 7: one comparison read as a p-value and as an interval.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._format import format_p, pvalue_cell
from ..onetestset import mcnemar, qh_interval

__all__ = ['plot_pvalue_vs_interval', 'describe_comparison']


# --------------------------------------------------- p-value versus interval
def describe_comparison(b: int, c: int, n: int, *, alpha: float = 0.05) -> str:
    """One paragraph: what McNemar's p-value says, and what the interval says.

    The paper's point in plain words: the p-value gives a yes/no about the null
    hypothesis; the interval gives the size of the difference and its precision. The
    interval (the signed Quesenberry–Hurst interval of :func:`qh_interval`) is read in
    percentage points of error rate, as the differences the data are compatible with;
    with no disagreement (``b = c = 0``) it collapses to the single point 0, which is
    said as such rather than read as a precise result.

    Parameters
    ----------
    b, c : int
        Discordant counts: cases only A gets wrong, cases only B gets wrong.
    n : int
        Test-set size.
    alpha : float, default 0.05
        Level of the test; the interval is at confidence ``1 - alpha``.

    Returns
    -------
    str
        Two lines, ``"Test: ..."`` (Yates-corrected and exact p-values) and
        ``"Interval: ..."``.

    References
    ----------
    D. Berrar and J. A. Lozano (2013), J. Exp. Theor. Artif. Intell. 25(2), 189-206,
    eqs. (2), (4)-(5) and section 8.

    Examples
    --------
    The paper's comparison (1, 2):

    >>> from evallib.lessons import describe_comparison
    >>> print(describe_comparison(0, 2, 50).splitlines()[1])  # doctest: +ELLIPSIS
    Interval: ... [-0.090, +0.015] ... up to 9.0 percentage points below or up to 1.5 percentage points above B's.
    """
    test = mcnemar(b, c)
    exact = mcnemar(b, c, method="exact")
    ci = qh_interval(b, c, n, alpha=alpha, signed=True)
    level = f"{100 * (1 - alpha):g}%"
    verdict = "significant" if test.pvalue <= alpha else "not significant"
    def points(v: float) -> str:   # a difference of two rates, in percentage points
        return f"{100 * v:.1f} percentage points"

    if ci.low > 0:
        who = (f"the data are compatible with A's error rate being between {100 * ci.low:.1f} and "
               f"{points(ci.high)} above B's")
    elif ci.high < 0:
        who = (f"the data are compatible with A's error rate being between {-100 * ci.high:.1f} and "
               f"{points(-ci.low)} below B's")
    elif b + c == 0:   # the interval [0, 0]: degenerate, not precise
        who = ("with no disagreement the interval collapses to the single point 0; it says nothing "
               "about how large the difference could be")
    else:
        who = (f"the data are compatible with A's error rate being up to {points(-ci.low)} below "
               f"or up to {points(ci.high)} above B's")
    return (
        f"Test: X^2 = {test.statistic:.2f}, {format_p(test.pvalue)} (exact {format_p(exact.pvalue)}): "
        f"{verdict} at alpha = {alpha:g}.\n"
        f"Interval: the observed difference of error rates A - B is {(b - c) / n:+.3f}; "
        f"the {level} interval is [{ci.low:+.3f}, {ci.high:+.3f}] (width {ci.width:.3f}): {who}."
    )


def plot_pvalue_vs_interval(b: int, c: int, n: int, *, alpha: float = 0.05, axes=None):
    """Side by side, for one comparison: what the p-value says and what the interval says.

    Left: the null distribution of ``b`` given ``b + c`` disagreements (Binomial
    with p = 1/2), one step per outcome; the outcomes "as extreme as or more extreme
    than" the one observed, which all enter the exact p-value although they did not
    happen (section 8), are shaded red. Right: the signed interval of eqs. (4)-(5) for
    ``tau_A - tau_B`` with the null value.

    Called again with ``axes`` it drew on before, it updates that drawing in place
    (the steps, the marks, the titles) instead of drawing anew: a slider's callback
    then costs one computation and one rendering.

    Parameters
    ----------
    b, c, n : int
        Discordant counts and test-set size, as in :func:`qh_interval`.
    alpha : float
        In (0, 1).
    axes : sequence of two matplotlib Axes, optional
        Where to draw; a new figure with two panels if ``None``.

    Returns
    -------
    numpy.ndarray of two Axes
        The left Axes holds two ``StepPatch`` artists (grey: the other outcomes, red:
        the extreme ones), whose ``get_data()`` give each outcome's probability.
    """
    test = mcnemar(b, c)
    exact = mcnemar(b, c, method="exact")
    ci = qh_interval(b, c, n, alpha=alpha, signed=True)
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [3, 2]},
                               layout="constrained")
    ax_p, ax_ci = axes
    m = b + c
    k = np.arange(m + 1)
    pmf = stats.binom.pmf(k, m, 0.5) if m else np.ones(1)
    extreme = np.abs(k - m / 2) >= abs(b - m / 2)
    edges = np.arange(m + 2) - 0.5
    grey_h, red_h = np.where(extreme, 0.0, pmf), np.where(extreme, pmf, 0.0)
    diff = (b - c) / n
    bound = max(0.1, abs(ci.low), abs(ci.high)) * 1.15
    p_title = f"p-value: Yates {pvalue_cell(test.pvalue)}, exact {pvalue_cell(exact.pvalue)}"
    ci_title = f"{100 * (1 - alpha):g}% interval [{ci.low:+.3f}, {ci.high:+.3f}]"
    drawn = getattr(ax_p, "_evallib_pvalue_interval", None)
    if drawn is None:
        grey = ax_p.stairs(grey_h, edges, fill=True, color="0.8", label="other outcomes")
        red = ax_p.stairs(red_h, edges, fill=True, color="C3", label="as or more extreme")
        observed = ax_p.axvline(b, color="k", linewidth=1, label="observed b")
        ax_p.set_ylabel("probability")
        ax_p.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
        bar = ax_ci.errorbar([0], [diff], yerr=[[diff - ci.low], [ci.high - diff]],
                             fmt="o", color="C0", capsize=6, linewidth=2)
        ax_ci.axhline(0.0, color="C3", linestyle="--", linewidth=1)
        ax_ci.set_xticks([])
        ax_ci.set_xlim(-1, 1)
        ax_ci.set_ylabel(r"$\tau_A - \tau_B$")
        ax_p._evallib_pvalue_interval = {"grey": grey, "red": red, "observed": observed, "bar": bar}
    else:
        drawn["grey"].set_data(grey_h, edges)
        drawn["red"].set_data(red_h, edges)
        drawn["observed"].set_xdata([b, b])
        point, caps, (segments,) = drawn["bar"].lines
        point.set_data([0], [diff])
        caps[0].set_data([0], [ci.low])
        caps[1].set_data([0], [ci.high])
        segments.set_segments([[(0, ci.low), (0, ci.high)]])
    ax_p.set_xlim(-0.5, m + 0.5)
    ax_p.set_ylim(0, 1.08 * float(pmf.max()))
    ax_p.set_xlabel("b (errors of A only) under H0, given b + c = %d" % m)
    ax_p.set_title(p_title)
    ax_ci.set_ylim(-bound, bound)
    ax_ci.set_title(ci_title)
    return np.asarray(axes)
