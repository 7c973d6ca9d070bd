"""Notebook 00's design map, notebook 06's write-up of a planned comparison, and the variance
parts of a per-item plan estimated from a pilot (notebook 06, section 7), and the paired comparison
of the CV t-tests' power (notebook 06, section 5).
"""

from __future__ import annotations

import math

import numpy as np

from .._format import format_p, signed_interval, signed_number, threshold_text
from .._plotting import get_axes
from .._power import _TEST_NAMES, _check_power, _check_test
from .._validate import check_count
from ..onetestset import Contingency, mcnemar, paired_difference_interval
from ..planning import discordant_probabilities, mcnemar_sample_size, minimum_detectable_difference

__all__ = ['comparison_write_up', 'cv_power_difference_lines', 'pilot_item_variance', 'plot_design_map']


def plot_design_map(ax=None):
    """The decision figure of notebook 00: which design, which estimand, which function.

    Four boxes, one per design (one test set, resampling on one data set, many data
    sets, per-item evaluation), each with what varies, what is fixed, the evallib
    functions, the subpackage that holds them and the notebooks that teach it; left of the
    question, a note that notebook 02 (the best of many classifiers against chance) sits in
    no column, as in notebook 00's table; right of it, a box for any of them when you will
    look more than once (a stream, an A/B test, a release gate: ``evallib.sequential`` and
    the non-inferiority tests, notebook 09). Drawn with matplotlib patches; returns the Axes.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on (its limits are set and its axis turned off); by default a
        new 12.5 x 5.8 inch figure.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.

    Examples
    --------
    >>> from evallib.lessons import plot_design_map
    >>> ax = plot_design_map()
    >>> sum("evallib.items" in t.get_text() for t in ax.texts)
    1
    >>> sum("evallib.sequential" in t.get_text() for t in ax.texts)
    1
    """
    from matplotlib.patches import FancyBboxPatch

    ax = get_axes(ax, figsize=(12.5, 5.8))
    ax.set_xlim(0, 16)
    ax.set_ylim(-0.15, 7)
    ax.axis("off")

    def box(x, y, w, h, text, color, size=8.5, weight="normal"):
        ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.08", fc=color, ec="0.3", lw=0.8))
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size, weight=weight, wrap=True)

    box(4.5, 5.9, 7.0, 0.9, "What do your repeated results come from?\n(what varies between the numbers you compare)",
        "#eeeeee", size=10, weight="bold")
    # notebook 02 is in no design's column, as in the notebook's table: its question is not a paired comparison
    box(0.1, 5.9, 4.0, 0.9, "In no column: notebook 02 (Forman & Cohen),\nthe best of C classifiers on one test set\n"
        "against the best of C random ones", "white", size=7.5)
    designs = [
        ("1. One test set,\npaired per case", "#dbe9f6",
         "varies: the test cases\nfixed: the trained models\nestimand: err_A - err_B on\nthe population of cases",
         "contingency, mcnemar,\npaired_difference_interval,\nbootstrap_f1_difference\nplan: mcnemar_sample_size,\nf1_bootstrap_power",
         "evallib.onetestset\nnotebooks 01, 03 (plan: 06)"),
        ("2. Resampling on\none data set", "#e2f0d9",
         "varies: training and test splits\n(they overlap)\nfixed: the data set\nestimand: expected difference\nof the learners at this size",
         "cross_validate_scores,\ncorrected_resampled_ttest,\ndietterich_5x2cv\nplan: cv_ttest_power",
         "evallib.resampling\nnotebooks 04, 05, 07 (plan: 06)"),
        ("3. Many data sets", "#fbe5d6",
         "varies: the data sets\nfixed: the learners\nestimand: which learner ranks\nbetter across tasks",
         "friedman, critical_difference,\nwilcoxon_signed_rank,\nplot_cd_diagram\nplan: nemenyi_datasets",
         "evallib.manydatasets\nnotebooks 04, 07 (plan: 06)"),
        ("4. Per-item evaluation\n(items, clusters, samples)", "#ede2f6",
         "varies: the items, their clusters,\nthe answers (K per item)\nfixed: the trained models\nestimand: the difference of mean\nscores on the population of items",
         "item_mean, paired_item_difference,\nvariance_components, pass_at_k,\ntie_group, rank_intervals\nplan: item_sample_size",
         "evallib.items\nnotebook 08 (plan: 06)"),
    ]
    for i, (title, color, what, funcs, where) in enumerate(designs):
        x = 0.1 + 4.0 * i
        ax.annotate("", xy=(x + 1.8, 5.0), xytext=(8.0, 5.85),
                    arrowprops=dict(arrowstyle="->", color="0.3", lw=1.0))
        box(x, 4.3, 3.6, 0.7, title, color, size=9.5, weight="bold")
        box(x, 2.45, 3.6, 1.6, what, color, size=8)
        box(x, 1.05, 3.6, 1.2, funcs, "white", size=7.5)
        box(x, 0.05, 3.6, 0.75, where, "white", size=8.5, weight="bold")
    # any design, when you will look more than once
    ax.annotate("", xy=(12.05, 6.35), xytext=(11.6, 6.35), arrowprops=dict(arrowstyle="->", color="0.3", lw=1.0))
    box(12.15, 5.75, 3.65, 1.15, "When you will look more than once\n(a stream, an A/B test, a release gate):\n"
        "evallib.sequential, paired_item_margin_test\nnotebook 09", "#fff2cc", size=7.5)
    return ax


# --------------------------------------------------------------------- write-up
def _sentence(text: str) -> str:
    text = str(text).strip()
    return text + "." if text and text[-1] not in ".!?" else text


def comparison_write_up(b: int, c: int, n: int, *, alpha: float = 0.05, power: float = 0.8,
                        names: tuple[str, str] = ("A", "B"), tried: str = "", test: str = "exact",
                        smallest_difference: float | None = None) -> str:
    """A reporting template for two classifiers on one test set, filled in (Markdown).

    Effect size (difference of error rates), its Bonett–Price interval (the interval
    Fagerland, Lydersen & Laake 2014 recommend and the report uses; it needs only b, c
    and n, see :func:`evallib.paired_difference_interval`), McNemar's test (``test``:
    the exact conditional test of Berrar & Lozano eq. 2, or its mid-p version, which
    Fagerland, Lydersen & Laake 2013 recommend), the test-set size, the minimum
    difference this test set detects with ``power`` and the test cases the plan needs
    (for ``smallest_difference``, a difference set in advance, or, without it, for a
    difference of the observed size, labelled as an illustration), both from the exact
    power *of the test reported*
    (:func:`minimum_detectable_difference` and :func:`mcnemar_sample_size` with
    ``method=test``; Connor's 1987 formula is the approximation to them), and what was
    tried.

    Parameters
    ----------
    b, c : int
        Discordant counts: A wrong and B right, A right and B wrong.
    n : int
        Test-set size, ``b + c <= n``.
    alpha, power : float
        Level and target power, in (0, 1) (defaults 0.05 and 0.8).
    names : two strings
        The classifiers' names (default ``("A", "B")``).
    tried : str
        What was tried before this comparison (models, settings, test sets): the reader
        needs it to judge multiplicity. Empty (the default) leaves a prompt to say it.
    test : {"exact", "mid-p"}
        The version of McNemar's test reported, and whose power the planning numbers use
        (default ``"exact"``).
    smallest_difference : float, optional
        The smallest difference of error rates that matters, set before the data were
        seen, in (0, 1]. The **Power** item then plans the test cases for it, at this
        test set's disagreement rate ``(b + c) / n`` (an estimate) or at the difference
        itself when that is larger. Without it, the cases a difference of the observed
        size would need are given as an illustration only.

    Returns
    -------
    str
        A Markdown list of six items: **Effect size**, **Interval**, **Test** (p-value and
        whether it rejects at ``alpha``), **n** (with the discordant cases), **Power** (the
        minimum detectable difference, and the planned test cases) and **What was tried**.
    """
    method = _check_test(test)
    test = mcnemar(b, c, method=method)  # checks b and c
    n = check_count(n, "n", minimum=max(1, b + c))
    # Bonett–Price uses only b, c and n: how the concordant cases split does not matter
    iv = paired_difference_interval(Contingency(a=n - b - c, b=b, c=c, d=0, n=n), alpha=alpha)
    target = _check_power(power)
    a_name, b_name = (str(x) for x in names)
    diff = (b - c) / n
    psi = (b + c) / n
    mdd = (minimum_detectable_difference(n, psi, power=target, alpha=alpha, method=method)
           if psi > 0 else math.inf)
    name = _TEST_NAMES[method]
    if psi == 0:
        power_text = (f"- **Power** (exact power of the {name} test): no discordant case, so the test cannot reject "
                      "on this test set whatever the true difference")
    elif math.isfinite(mdd):
        power_text = (f"- **Power** (exact power of the {name} test): with this disagreement rate, {n} cases "
                      f"detect a difference of {threshold_text(mdd)} with {100 * target:g}% power (rounded up: the power "
                      "reaches it there)")
    else:
        power_text = (f"- **Power** (exact power of the {name} test): at this disagreement rate ({psi:.3f}) even a "
                      "difference as large as the disagreement rate (all disagreements one way) is not detected "
                      f"with {100 * target:g}% power")
    max_n = 20_000   # mcnemar_sample_size's default limit of the exact search
    if smallest_difference is not None:
        smallest = float(smallest_difference)
        if not 0 < smallest <= 1:
            raise ValueError(f"smallest_difference must be in (0, 1], got {smallest_difference!r}")
        psi_plan = max(psi, smallest)
        q_b, q_c = discordant_probabilities(smallest, psi_plan)
        try:
            need = mcnemar_sample_size(q_b, q_c, power=target, alpha=alpha, method=method, max_n=max_n)
            need_text = f"{need}"
        except ValueError:   # the exact search passed its limit
            need_text = f"more than {max_n:,}"
        power_text += (f"; a plan for the smallest difference that matters, {smallest:g} (set in advance), needs "
                       f"{need_text} cases at a disagreement rate of {psi_plan:.3f}"
                       + (" (the smallest possible rate for this difference: all disagreements one way)"
                          if q_c == 0 else "") + ".")
    else:
        try:
            need = (mcnemar_sample_size(b / n, c / n, power=target, alpha=alpha, method=method, max_n=max_n)
                    if b != c else None)
        except ValueError:   # the exact search passed its limit: a tiny difference
            need = None
        power_text += (f"; only as an illustration (the interval allows other differences), a difference of the "
                       f"observed size needs about {need} cases." if need else ".")
    verdict = (f"the error rates differ at alpha = {alpha:g} (it rejects equal error rates)" if test.pvalue <= alpha
               else f"the error rates are not shown to differ at alpha = {alpha:g} (it does not reject equal error "
                    "rates)")
    rejects, contains = test.pvalue <= alpha, bool(iv.low <= 0 <= iv.high)
    clash = ("" if rejects != contains else
             f"; it {'contains' if contains else 'excludes'} 0 although the test "
             f"{'rejects' if rejects else 'does not reject'}: the interval and the test are different procedures "
             "that agree only approximately near the boundary, so read the difference as borderline")
    lines = [
        f"- **Effect size**: error rate of {a_name} minus {b_name} = {signed_number(diff)} "
        f"({b} cases only {a_name} got wrong, {c} only {b_name} got wrong).",
        f"- **Interval**: {100 * (1 - alpha):g}% Bonett–Price interval {signed_interval(iv.low, iv.high)}{clash}.",
        f"- **Test**: McNemar's {name} test, {format_p(test.pvalue)}; {verdict}.",
        f"- **n**: {n} test cases, of which {b + c} discordant ({100 * psi:.1f}%).",
        power_text,
        f"- **What was tried**: {_sentence(tried) or 'say which models, settings and test sets were tried before this one.'}",
    ]
    return "\n".join(lines)


# --------------------------------------------------------------------- pilot
def pilot_item_variance(a, b, *, cluster_size: int = 1, samples: int) -> dict:
    """The variance parts of :func:`evallib.item_sample_size`, estimated from a pilot's 0/1 answers.

    A pilot observes answers, not the expected item scores. From each item's shares
    ``a_i``, ``b_i`` of ``K = samples`` correct 0/1 answers (the two models on the same
    items, in whole clusters of ``m = cluster_size`` consecutive items), by the method of
    moments (the answers independent given the item):

    - within-item variance of one answer: ``within_sd_a^2 = K/(K-1) mean(a_i (1 - a_i))``
      (the unbiased Bernoulli variance within each item, averaged);
    - variance of the expected scores: ``sd_a^2 = var(a_i) - within_sd_a^2 / K``, and
      their ``correlation = cov(a_i, b_i) / (sd_a sd_b)`` (the answer noise of the two
      models is independent, so the covariance of the shares is that of the expected scores);
    - ``icc`` of the expected differences: one-way analysis of variance of ``d_i = a_i - b_i``
      by cluster, ``(MSB - MSW) / m`` over ``omega^2 = sd_a^2 + sd_b^2 - 2 cov`` (the answer
      noise does not cluster, so the between-cluster variance of ``d`` is that of the expected
      differences), truncated at 0.

    Each part is an estimate with its own sampling error, which a plan inherits: a pilot of
    few clusters estimates ``icc`` poorly (notebook 06 shows how much).

    Parameters
    ----------
    a, b : array-like of float, shape (n_items,)
        Each item's share of correct answers, a multiple of ``1 / samples`` in [0, 1].
    cluster_size : int
        Items per cluster (default 1: independent items, ``icc`` 0); ``n_items`` must be a
        multiple of it, with at least two clusters.
    samples : int
        Answers per item by each model, ``>= 2`` (one answer leaves the within-item variance
        unidentified).

    Returns
    -------
    dict
        ``sd_a``, ``sd_b``, ``correlation``, ``within_sd_a``, ``within_sd_b`` and ``icc``, the
        keywords of :func:`evallib.item_sample_size` and :func:`evallib.item_power`.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length, hold values outside [0, 1], ``samples < 2``, the
        items do not fill whole clusters, or an estimated variance of the expected scores is
        not positive (the pilot is too small to plan from).

    Examples
    --------
    Four items in two clusters, each answered twice: ``within_sd_a^2 = 2 mean(a (1 - a)) =
    0.25``, ``var(a) = 1/12`` (``ddof=1``), so ``sd_a^2 = 1/12 - 0.25/2 < 0``: too small a pilot.
    Six independent items: ``within_sd_a^2 = 2 * 0.25/6 = 0.0833``, ``var(a) = 0.2417``, so
    ``sd_a^2 = 0.2417 - 0.0833/2 = 0.2``:

    >>> from evallib.lessons import pilot_item_variance
    >>> pilot_item_variance([1, 0.5, 0.5, 1], [0, 0.5, 1, 0.5], cluster_size=2, samples=2)
    Traceback (most recent call last):
    ...
    ValueError: the pilot's variance of model a's expected scores is not positive (-0.0417): too few items to plan from
    >>> parts = pilot_item_variance([1, 1, 0, 0, 0.5, 1], [1, 0.5, 0, 0, 0, 1], samples=2)
    >>> round(parts["within_sd_a"] ** 2, 4), round(parts["sd_a"] ** 2, 4)
    (0.0833, 0.2)
    """
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"a and b must hold one share per item each; got {a.size} and {b.size}")
    for name, x in (("a", a), ("b", b)):
        if not np.all((x >= 0) & (x <= 1)):
            raise ValueError(f"{name} must hold shares of correct answers in [0, 1]")
    K = check_count(samples, "samples", minimum=2)
    m = check_count(cluster_size, "cluster_size", minimum=1)
    if a.size % m or a.size // m < 2:
        raise ValueError(f"the {a.size} items must fill at least two whole clusters of cluster_size={m}")
    within = {name: float(np.mean(x * (1 - x)) * K / (K - 1)) for name, x in (("a", a), ("b", b))}
    var = {name: float(x.var(ddof=1)) - within[name] / K for name, x in (("a", a), ("b", b))}
    for name, v in var.items():
        if not v > 0:
            raise ValueError(f"the pilot's variance of model {name}'s expected scores is not positive ({v:.3g}): "
                             "too few items to plan from")
    cov = float(np.cov(a, b)[0, 1])
    omega2 = var["a"] + var["b"] - 2 * cov
    icc = 0.0
    if m > 1 and omega2 > 0:
        d = (a - b).reshape(-1, m)
        J = d.shape[0]
        msb = m * float(d.mean(axis=1).var(ddof=1))
        msw = float(((d - d.mean(axis=1, keepdims=True)) ** 2).sum()) / (J * (m - 1))
        icc = max(0.0, (msb - msw) / m / omega2)
    return dict(sd_a=math.sqrt(var["a"]), sd_b=math.sqrt(var["b"]),
                correlation=max(-1.0, min(1.0, cov / math.sqrt(var["a"] * var["b"]))),
                within_sd_a=math.sqrt(within["a"]), within_sd_b=math.sqrt(within["b"]), icc=min(icc, 1.0))


# ------------------------------------------------------- CV power, paired
def cv_power_difference_lines(rejections, tests) -> list:
    """Compare the power of each pair of ``tests``, paired on the same simulated data sets (notebook 06, section 5).

    For tests A and B at each data-set size n, the power difference is the mean over the power
    study's data sets of ``reject_A - reject_B``, and its Monte Carlo SE is the sample SD of those
    per-data-set differences over the square root of their count (paired: both tests ran on the
    same data sets). A pair is called different at n when the difference exceeds two SE. Where no
    data set has one test rejecting and the other not (both never reject, say), the line says "no
    discordant data sets (SE not estimable)" at that n, and the pair is not shown to differ there.

    Parameters
    ----------
    rejections : pandas.DataFrame
        The ``rejections`` of ``cv_power_curve(..., return_rejections=True)``: boolean, indexed
        by ``(n_samples, dataset)``, one column per test.
    tests : sequence of str
        The tests to compare (e.g. those whose size is not shown to exceed alpha); every pair
        is compared, in the order given.

    Returns
    -------
    list of str
        One line per pair; empty when fewer than two tests are given.
    """
    import pandas as pd

    if not isinstance(rejections, pd.DataFrame) or rejections.index.nlevels != 2:
        raise ValueError("rejections must be cv_power_curve(..., return_rejections=True)'s second value")
    tests = list(tests)
    missing = [t for t in tests if t not in rejections.columns]
    if missing:
        raise ValueError(f"tests must be columns of rejections; not found: {missing}")
    lines = []
    for i, first in enumerate(tests):
        for second in tests[i + 1:]:
            rows = []
            for n, part in rejections.groupby(level=0, sort=True):
                d = part[first].astype(float).to_numpy() - part[second].astype(float).to_numpy()
                se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else float("inf")
                rows.append((int(n), float(d.mean()), se, bool(d.any())))
            # where neither test rejects without the other on any data set (e.g. both never reject), every
            # difference is 0 and their SD gives no Monte Carlo SE: the line says so instead of "+0.000 ± 0.000"
            shown = ", ".join(f"{d:+.3f} ± {se:.3f} at n = {n}" if discordant else
                              f"no discordant data sets (SE not estimable) at n = {n}"
                              for n, d, se, discordant in rows)
            higher = [n for n, d, se, _ in rows if d > 2 * se]
            lower = [n for n, d, se, _ in rows if d < -2 * se]
            open_ = [n for n, d, se, _ in rows if abs(d) <= 2 * se]
            head = f"'{first}' minus '{second}', power (paired on the same data sets; ± 1 MC SE): {shown}: "
            if len(higher) == len(rows):
                verdict = f"'{first}' higher at every simulated size by more than 2 MC SE"
            elif len(lower) == len(rows):
                verdict = f"'{second}' higher at every simulated size by more than 2 MC SE"
            else:
                parts = []
                if higher:
                    parts.append(f"'{first}' higher by more than 2 MC SE at n = {', '.join(map(str, higher))}")
                if lower:
                    parts.append(f"'{second}' higher by more than 2 MC SE at n = {', '.join(map(str, lower))}")
                parts.append(f"not shown to differ at n = {', '.join(map(str, open_))}")
                verdict = "; ".join(parts)
            lines.append(head + verdict)
    return lines
