"""Post-hoc tests after the Friedman test, with adjusted p-values.

After a significant Friedman test, which algorithms differ? Demšar (2006,
section 3.2.2) compares average ranks ``R_i`` through

    ``z = (R_i - R_j) / sqrt(k (k + 1) / (6 N))``

(``k`` algorithms, ``N`` data sets), a standard normal under the null hypothesis,
and controls the family-wise error over the comparisons. García & Herrera (2008,
JMLR 9, 2677-2694) give every procedure as *adjusted p-values* (APVs): reject a
hypothesis exactly when its APV is ``<= alpha``, and the APV says at which level
it would just be rejected.

* All ``k(k-1)/2`` pairs: Nemenyi (studentized range, the test behind the CD
  diagram), Bonferroni, Holm, Shaffer's static procedure and Bergmann–Hommel.
* ``k - 1`` comparisons with a control: Bonferroni–Dunn, Holm, Hochberg,
  Finner and Li.

:func:`posthoc_friedman` returns a tidy table, one row per comparison;
:func:`posthoc_cliques` turns any of them into the groups a CD diagram draws. The
adjusted p-values come from :func:`evallib.adjust_pvalues` (:mod:`evallib._multitest`),
whose procedures are a superset of every pairwise table's ``adjust=`` menu.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .._compat import renamed_keywords
from .._format import format_p
from .._inference import t_inference
from .._multitest import (  # the procedures' one home; re-exported from their 0.1.0 home here
    BERGMANN_MAX_K,  # noqa: F401
    FDR_ADJUSTMENTS,
    adjust_pvalues,
    exhaustive_sets,
    rom_levels,
    shaffer_counts,
)
from .._plotting import get_axes
from .._validate import check_alpha, check_choice
from ._ranksums import rank_sum_difference_pvalue
from ._ranktests import (
    CD_TESTS,
    CriticalDifference,
    FriedmanResult,
    _cd_value,
    _check_avg_ranks,
    _check_scores,
    cd_cliques,
    critical_difference,
    friedman,
    rank_differences,
    scores_from_text,
    wilcoxon_signed_rank,
)

__all__ = [
    "ALL_PAIRS_METHODS",
    "CONTROL_METHODS",
    "CONTROL_ONLY_METHODS",
    "FDR_METHODS",
    "POSTHOC_DISTRIBUTIONS",
    "rom_levels",
    "posthoc_friedman",
    "adjust_pvalues",
    "shaffer_counts",
    "exhaustive_sets",
    "posthoc_cliques",
    "posthoc_summary",
    "describe_posthoc_summary",
    "plot_posthoc",
    "posthoc_view",
    "mean_rank_dependence",
    "plot_cd_diagram",
    "RankAnalysis",
    "rank_analysis",
    "describe_rank_analysis",
]

#: The procedures that control the false discovery rate (the expected share of false
#: rejections among the rejections), not the family-wise error: Benjamini & Hochberg (1995)
#: and Benjamini & Yekutieli (2001); the one set :data:`evallib.FDR_ADJUSTMENTS`, under its
#: 0.1.0 name here.
FDR_METHODS = FDR_ADJUSTMENTS
#: Procedures for all pairs and against a control (García & Herrera 2008; García et al.
#: 2010 for Holland and Rom), each list ending with the two FDR procedures.
ALL_PAIRS_METHODS = ("nemenyi", "bonferroni", "holm", "shaffer", "bergmann", *FDR_METHODS)
CONTROL_METHODS = ("bonferroni-dunn", "holm", "hochberg", "finner", "li", "holland", "rom", *FDR_METHODS)
#: The procedures that exist only against a control (Holm and the FDR procedures exist both ways).
CONTROL_ONLY_METHODS = tuple(m for m in CONTROL_METHODS if m not in ALL_PAIRS_METHODS)
#: What ``distribution=`` of :func:`posthoc_friedman` accepts.
POSTHOC_DISTRIBUTIONS = ("normal", "exact")


# ------------------------------------------------------------------ the tests
def _check_adjust(adjust: Any, control: Any, names: list) -> str:
    """``adjust`` checked against the menu that fits ``control`` (all pairs or against a control)."""
    if not isinstance(adjust, str):
        raise TypeError(f"adjust must be a string, got {adjust!r}")
    if control is None:
        return check_choice(adjust, "adjust", ALL_PAIRS_METHODS)
    if control not in names:
        raise ValueError(f"control must be one of the algorithms {names}, got {control!r}")
    if adjust not in CONTROL_METHODS:
        raise ValueError(f"adjust must be one of {list(CONTROL_METHODS)} with a control "
                         f"(all-pairs procedures: {list(ALL_PAIRS_METHODS)}), got {adjust!r}")
    return adjust


def _posthoc_table(avg: pd.Series, se: float, *, k: int, n: int, adjust: str, control: Any, alpha: float,
                   pvalue_of=None) -> pd.DataFrame:
    """The tidy comparison table shared by every rank-based post-hoc test.

    ``avg`` holds each algorithm's average (weighted, aligned) rank, lower = better;
    ``z = (avg_b - avg_a) / se``; ``pvalue_of(row)``, if given, replaces the two-sided
    normal p-value of ``z``. ``adjust`` was checked by :func:`_check_adjust`.
    """
    names = list(avg.index)
    if control is None:
        pairs = list(itertools.combinations(range(k), 2))
    else:
        c = names.index(control)
        pairs = [(c, j) for j in range(k) if j != c]
    rows = []
    for i, j in pairs:
        a, b = names[i], names[j]
        if control is None and avg[b] < avg[a]:
            a, b = b, a
        # evallib's z core and zero-variance rule (evallib._inference); the ranks lie in [1, k]
        res = t_inference(float(avg[b] - avg[a]), se, scale=float(k))
        row = dict(a=a, b=b, rank_a=float(avg[a]), rank_b=float(avg[b]), z=res.statistic, pvalue=res.pvalue)
        if pvalue_of is not None:
            row["pvalue"] = float(pvalue_of(row))
        rows.append(row)
    out = pd.DataFrame(rows)
    if adjust == "nemenyi":
        adj = np.array([float(stats.studentized_range.sf(math.sqrt(2.0) * abs(z), k, np.inf))
                        for z in out["z"]])
        adj = np.clip(adj, 0.0, 1.0)
    else:
        adj = adjust_pvalues(out["pvalue"].to_numpy(), adjust, k=k)
    out["pvalue_adj"] = adj
    out["reject"] = out["pvalue_adj"] <= alpha
    out = out.sort_values(["pvalue", "a", "b"], kind="stable").reset_index(drop=True)
    out.attrs.update(adjust=adjust, alpha=alpha, control=control, k=k, n=n, se=se)
    return out


@renamed_keywords(method="adjust")
def posthoc_friedman(
    scores: Any, *, adjust: str = "holm", control: Any = None, alpha: float = 0.05,
    higher_is_better: bool = True, distribution: str = "normal",
) -> pd.DataFrame:
    """Post-hoc comparisons after the Friedman test, with adjusted p-values.

    Each comparison uses Demšar's (2006, section 3.2.2) statistic
    ``z = (R_a - R_b) / sqrt(k (k + 1) / (6 N))`` of the average ranks and its
    two-sided normal p-value, or the exact p-value of the rank-sum difference
    ``N (R_a - R_b)`` (Eisinga et al. 2017); ``adjust`` adjusts the p-values for the
    number of comparisons (:func:`adjust_pvalues`; García & Herrera 2008).

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets (at least 2), columns algorithms (at least 2), as for
        :func:`evallib.friedman`.
    adjust : str
        The multiplicity adjustment (``method=`` is its deprecated name). Without a control (all pairs, :data:`ALL_PAIRS_METHODS`): ``"nemenyi"``
        (the studentized range of ``k`` means with infinite df at ``sqrt(2) |z|``,
        the test behind Demšar's CD), ``"bonferroni"``, ``"holm"``, ``"shaffer"``
        (Shaffer's static procedure), ``"bergmann"`` (Bergmann–Hommel, ``k <=
        10``), ``"bh"`` or ``"by"``. With a
        control (:data:`CONTROL_METHODS`): ``"bonferroni-dunn"``, ``"holm"``,
        ``"hochberg"``, ``"finner"``, ``"li"``, ``"holland"``, ``"rom"``,
        ``"bh"`` or ``"by"``. The two
        Benjamini procedures control the false discovery rate, not the
        family-wise error (:func:`adjust_pvalues`).
    control : name, optional
        An algorithm (column) to compare the others with.
    alpha : float
        Level in (0, 1) for the ``reject`` column (family-wise, or the false
        discovery rate for the Benjamini procedures).
    higher_is_better : bool
        As for :func:`evallib.friedman`.
    distribution : {"normal", "exact"}
        ``"normal"``: the two-sided normal p-value of ``z`` (Demšar; scmamp,
        autorank). ``"exact"``: the exact p-value of the rank-sum difference under
        the permutation null, by Eisinga et al.'s (2017) closed form
        (:func:`evallib.manydatasets.rank_sum_difference_pvalue`; ranks
        without ties; ``n (k - 1) <= 20,000``). Nemenyi's studentized range is a
        normal-theory adjustment and takes ``"normal"`` only.

    Returns
    -------
    pandas.DataFrame
        One row per comparison, ordered by unadjusted p-value: ``a``, ``b`` (``a``
        the better ranked, or the control), ``rank_a``, ``rank_b``, ``z`` (``(rank_b
        - rank_a) / SE``, positive when ``a`` ranks better), ``pvalue``
        (unadjusted), ``pvalue_adj``, ``reject`` (``pvalue_adj <= alpha``).
        ``attrs`` holds ``adjust``, ``alpha``, ``control``, ``k``, ``n``, ``se`` and
        ``distribution``.

    Raises
    ------
    ValueError
        Fewer than 2 data sets or algorithms, NaN scores, an unknown ``adjust`` or
        one that does not fit ``control`` (e.g. ``"shaffer"`` with a control), an
        unknown ``control`` or ``distribution``, ``"nemenyi"`` with ``"exact"``.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data
    sets. JMLR 7, 1-30.
    García, S. & Herrera, F. (2008). An extension on "Statistical comparisons of
    classifiers over multiple data sets" for all pairwise comparisons. JMLR 9,
    2677-2694.
    Eisinga, R., Heskes, T., Pelzer, B. & te Grotenhuis, M. (2017). Exact p-values
    for pairwise comparison of Friedman rank sums, with application to comparing
    classifiers. BMC Bioinformatics 18, 68.

    Examples
    --------
    Demšar's worked example (Table 6, C4.5 as the control; his printed ranks): he
    prints ``z = 2.416, 2.342, 0.512`` and ``p = 0.016, 0.019, 0.607`` (from ranks
    rounded to three decimals; unrounded: 2.415 and 0.608), and Holm rejects the
    first two.

    >>> from evallib.studies import demsar_table_6
    >>> res = posthoc_friedman(demsar_table_6(ranks=True), higher_is_better=False,
    ...                        adjust="holm", control="C4.5")
    >>> [(r.b, round(-r.z, 2), round(r.pvalue, 2), bool(r.reject)) for r in res.itertuples()]
    [('C4.5+m+cf', 2.42, 0.02, True), ('C4.5+m', 2.34, 0.02, True), ('C4.5+cf', 0.51, 0.61, False)]
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    distribution = check_choice(distribution, "distribution", POSTHOC_DISTRIBUTIONS)
    fr = friedman(table, higher_is_better=higher_is_better)
    avg = fr.avg_ranks
    k, n = fr.k, fr.n
    adjust = _check_adjust(adjust, control, list(avg.index))
    if adjust == "nemenyi" and distribution == "exact":
        raise ValueError("distribution must be 'normal' for adjust='nemenyi' (the studentized range "
                         "is a normal-theory adjustment), got 'exact'")
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    def exact_pvalue(row):
        return rank_sum_difference_pvalue(round(2 * n * (row["rank_b"] - row["rank_a"])) / 2, k, n)

    pvalue_of = exact_pvalue if distribution == "exact" else None

    out = _posthoc_table(avg, se, k=k, n=n, adjust=adjust, control=control, alpha=alpha, pvalue_of=pvalue_of)
    out.attrs["distribution"] = distribution
    return out


def _reject_map(posthoc: Any, alpha: float) -> tuple[dict, bool]:
    """{frozenset({a, b}): reject} from a posthoc table or a square p-value matrix."""
    if isinstance(posthoc, pd.DataFrame) and {"a", "b", "reject"} <= set(posthoc.columns):
        decided = {frozenset((r.a, r.b)): bool(r.reject) for r in posthoc.itertuples()}
        control = posthoc.attrs.get("control")
        if control is None:
            both = set(posthoc["a"]) | set(posthoc["b"])
            firsts = set(posthoc["a"])
            if len(firsts) == 1 and len(both) > 2 and len(decided) == len(both) - 1:
                control = next(iter(firsts))
        return decided, control is not None
    if not isinstance(posthoc, pd.DataFrame):
        raise TypeError("posthoc must be posthoc_friedman's table or a square DataFrame of p-values")
    if list(posthoc.index) != list(posthoc.columns):
        raise ValueError("posthoc: a p-value matrix must have the same algorithms as rows and columns")
    values = posthoc.to_numpy(dtype=float)
    if not np.allclose(values, values.T, equal_nan=True):
        raise ValueError("posthoc: the p-value matrix must be symmetric")
    decided = {}
    for a, b in itertools.combinations(posthoc.index, 2):
        p = float(posthoc.loc[a, b])
        if not math.isnan(p):
            decided[frozenset((a, b))] = p <= alpha
    return decided, False


def posthoc_cliques(avg_ranks: Any, posthoc: Any, *, alpha: float = 0.05) -> list[tuple]:
    """Groups of algorithms not declared different, for a CD diagram.

    Sort the algorithms by average rank; a group is a run of consecutively ranked
    algorithms none of whose pairs is rejected. Only maximal runs of two or more
    are returned (as :func:`evallib.cd_cliques` does for one critical difference).
    For comparisons with a control, the one group is the control with every
    algorithm it was not found different from.

    Parameters
    ----------
    avg_ranks : pandas.Series or mapping ``{name: average rank}``
    posthoc : pandas.DataFrame
        :func:`posthoc_friedman`'s table (its ``reject`` column), or a square,
        symmetric matrix of (adjusted) p-values indexed by algorithm (NaN: not tested).
    alpha : float
        Level for a p-value matrix (a table's ``reject`` column is used as is).

    Returns
    -------
    list of tuple
        Names from best to worst rank, groups ordered by their best rank.
    """
    s = _check_avg_ranks(avg_ranks).sort_values(kind="stable")
    alpha = check_alpha(alpha)
    names = list(s.index)
    decided, with_control = _reject_map(posthoc, alpha)
    unknown = {x for pair in decided for x in pair} - set(names)
    if unknown:
        raise ValueError(f"posthoc names algorithms {sorted(map(str, unknown))} that are not in avg_ranks")
    if with_control:
        control = (posthoc.attrs.get("control") if isinstance(posthoc, pd.DataFrame) else None)
        if control is None:
            control = next(iter(set(posthoc["a"])))
        group = [x for x in names if x == control or decided.get(frozenset((x, control))) is False]
        return [tuple(group)] if len(group) > 1 else []
    out, last_end = [], -1
    for i in range(len(names)):
        j = i
        while j + 1 < len(names) and not any(
                decided.get(frozenset((names[j + 1], names[t])), False) for t in range(i, j + 1)):
            j += 1
        if j > i and j > last_end:
            out.append(tuple(names[i:j + 1]))
            last_end = j
    return out


def posthoc_summary(scores: Any, *, alpha: float = 0.05, control: Any = None,
                    higher_is_better: bool = True) -> pd.DataFrame:
    """How many comparisons each family-wise procedure rejects, side by side.

    The Benjamini procedures (:data:`FDR_METHODS`) are left out: they control the
    false discovery rate, a different error, so counting their rejections beside
    the others' would compare unlike things.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets (at least 2), columns algorithms (at least 2), as for
        :func:`posthoc_friedman`.
    alpha : float
        Family-wise level in (0, 1) at which each procedure rejects (default 0.05).
    control : name, optional
        An algorithm (column): count the comparisons of the others with it under each of
        :data:`CONTROL_METHODS`; None (default): all pairs under each of
        :data:`ALL_PAIRS_METHODS`.
    higher_is_better : bool
        As for :func:`evallib.friedman` (default True).

    Returns
    -------
    pandas.DataFrame
        One row per method (all-pairs methods without a control, control methods
        with one): ``method``, ``comparisons``, ``rejected`` and ``pairs`` (the
        rejected comparisons as ``"a vs b"``, best-ranked first).
    """
    methods = ALL_PAIRS_METHODS if control is None else CONTROL_METHODS
    methods = tuple(m for m in methods if m not in FDR_METHODS)
    rows = []
    for m in methods:
        res = posthoc_friedman(scores, adjust=m, control=control, alpha=alpha,
                               higher_is_better=higher_is_better)
        rej = res[res["reject"]]
        rows.append(dict(method=m, comparisons=len(res), rejected=int(len(rej)),
                         pairs=", ".join(f"{r.a} vs {r.b}" for r in rej.itertuples())))
    return pd.DataFrame(rows)


def describe_posthoc_summary(summary: pd.DataFrame, *, alpha: float, label: str = "") -> str:
    """One sentence on how far the procedures of a :func:`posthoc_summary` table agree.

    Parameters
    ----------
    summary : DataFrame from :func:`posthoc_summary`
        Columns ``method``, ``comparisons`` and ``rejected``.
    alpha : float
        The level the summary was computed at (the table does not record it).
    label : str
        Prefix of the sentence, e.g. ``"All pairs"``.

    Returns
    -------
    str
        ``"<label>: at alpha = a every procedure declares the same r of m comparisons
        different."`` (``"... no procedure declares any of the m comparisons different."``
        when r = 0) or, when they disagree, the range of the numbers rejected and which
        procedures reject the most and the fewest.

    References
    ----------
    García, S. & Herrera, F. (2008). An extension on "Statistical comparisons of
    classifiers over multiple data sets" for all pairwise comparisons. JMLR 9, 2677-2694.

    Examples
    --------
    >>> from evallib.studies import demsar_table_6
    >>> ranks = demsar_table_6(ranks=True)
    >>> s = posthoc_summary(ranks, alpha=0.05, control="C4.5", higher_is_better=False)
    >>> describe_posthoc_summary(s, alpha=0.05, label="Against C4.5")
    'Against C4.5: at alpha = 0.05 the procedures declare between 1 and 2 of 3 comparisons different; most: holm, hochberg, finner, li, holland, rom; fewest: bonferroni-dunn.'
    """
    alpha = check_alpha(alpha)
    if not isinstance(summary, pd.DataFrame) or not {"method", "comparisons", "rejected"} <= set(summary.columns):
        raise TypeError("summary must be a DataFrame from posthoc_summary (columns method, comparisons, rejected)")
    if summary.empty:
        raise ValueError("summary must have at least one method")
    counts = dict(zip(summary["method"], summary["rejected"].astype(int)))
    most, fewest = max(counts.values()), min(counts.values())
    m = int(summary["comparisons"].iloc[0])
    head = f"{label}: at alpha = {alpha:g}" if label else f"At alpha = {alpha:g}"
    if most == fewest == 0:
        return f"{head} no procedure declares any of the {m} comparisons different."
    if most == fewest:
        return f"{head} every procedure declares the same {most} of {m} comparisons different."
    best = [k for k, c in counts.items() if c == most]
    worst = [k for k, c in counts.items() if c == fewest]
    return (f"{head} the procedures declare between {fewest} and {most} of {m} comparisons different; "
            f"most: {', '.join(best)}; fewest: {', '.join(worst)}.")


@renamed_keywords(method="adjust")
def plot_posthoc(
    scores: Any, *, adjust: str = "holm", alpha: float = 0.05, control: Any = None,
    higher_is_better: bool = True, ax=None,
):
    """A CD diagram whose groups come from a post-hoc procedure (the notebook's slider callback).

    Runs :func:`posthoc_friedman` with ``adjust``, ``alpha`` and ``control`` and
    draws :func:`evallib.plot_cd_diagram` with its groups; for ``"nemenyi"`` and
    ``"bonferroni-dunn"`` the critical difference bar is drawn as well (their
    decisions are exactly "rank difference >= CD"). ``method=`` is the deprecated name
    of ``adjust=``.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Rows data sets, columns algorithms, as for :func:`posthoc_friedman`.
    adjust : str
        The post-hoc procedure, one of :data:`ALL_PAIRS_METHODS` (without ``control``) or
        :data:`CONTROL_METHODS` (with it); default ``"holm"``.
    alpha : float
        Level in (0, 1) of the procedure and of the critical difference (default 0.05).
    control : name, optional
        An algorithm (column) the others are compared with; None (default): all pairs.
    higher_is_better : bool
        As for :func:`evallib.friedman` (default True).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; by default a new figure whose height grows with the number
        of algorithms.

    Returns
    -------
    matplotlib.axes.Axes
        The diagram: the average ranks, the groups the procedure does not declare
        different, and for Nemenyi and Bonferroni–Dunn the critical difference.
    """
    res = posthoc_friedman(scores, adjust=adjust, control=control, alpha=alpha,
                           higher_is_better=higher_is_better)
    fr = friedman(scores, higher_is_better=higher_is_better)
    cd = None
    if adjust == "nemenyi" or (adjust == "bonferroni-dunn" and control is not None):
        cd = critical_difference(fr.k, fr.n, alpha=alpha,
                                 test="nemenyi" if adjust == "nemenyi" else "bonferroni-dunn")
    if ax is None:
        ax = get_axes(None, figsize=(7, 2.2 + 0.3 * fr.k))
    return plot_cd_diagram(fr.avg_ranks, cd, posthoc=res, ax=ax)


@renamed_keywords(method="adjust")
def posthoc_view(
    scores: Any, *, adjust: str = "holm", alpha: float = 0.05, control: Any = None,
    higher_is_better: bool = True, decimals: int = 4, ax=None,
) -> pd.DataFrame:
    """One procedure drawn and tabled: the callback behind a notebook's procedure and alpha controls.

    Draws :func:`plot_posthoc` on ``ax`` and returns the comparisons of
    :func:`posthoc_friedman` rounded for reading. ``control`` is used by the
    procedures that exist only against a control (:data:`CONTROL_ONLY_METHODS`:
    Bonferroni–Dunn, Hochberg, Finner, Li); the all-pairs procedures, Holm among
    them, compare every pair whatever ``control`` says, so one menu of procedures
    can offer both kinds.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Data sets x algorithms, as for :func:`posthoc_friedman`.
    adjust : str
        One of :data:`ALL_PAIRS_METHODS` or :data:`CONTROL_ONLY_METHODS` (``method=`` is
        its deprecated name).
    alpha : float
        Family-wise level in (0, 1).
    control : name, optional
        The algorithm the control-only procedures compare with; required for them.
    higher_is_better : bool
    decimals : int
        Rounding of ``z`` and the p-values.
    ax : matplotlib Axes, optional

    Returns
    -------
    pandas.DataFrame
        ``a``, ``b``, ``z``, ``pvalue``, ``pvalue_adj``, ``reject``, ordered by
        unadjusted p-value. The diagram is drawn on ``ax`` (a new figure when None).

    References
    ----------
    García, S. & Herrera, F. (2008). JMLR 9, 2677-2694.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from evallib.studies import demsar_table_6
    >>> t = posthoc_view(demsar_table_6(ranks=True), adjust="li", control="C4.5", higher_is_better=False)
    >>> print(t[["b", "pvalue_adj", "reject"]].to_string(index=False))
            b  pvalue_adj  reject
    C4.5+m+cf      0.0386    True
       C4.5+m      0.0467    True
      C4.5+cf      0.6084   False
    """
    adjust = check_choice(adjust, "adjust", ALL_PAIRS_METHODS + CONTROL_ONLY_METHODS)
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative integer, got {decimals!r}")
    if adjust in CONTROL_ONLY_METHODS:
        if control is None:
            raise ValueError(f"control must name an algorithm for adjust={adjust!r}, got None")
    else:
        control = None
    res = posthoc_friedman(scores, adjust=adjust, control=control, alpha=alpha,
                           higher_is_better=higher_is_better)
    plot_posthoc(scores, adjust=adjust, alpha=alpha, control=control, higher_is_better=higher_is_better, ax=ax)
    return res[["a", "b", "z", "pvalue", "pvalue_adj", "reject"]].round(int(decimals)).reset_index(drop=True)


def mean_rank_dependence(scores: Any, *, alpha: float = 0.05, higher_is_better: bool = True) -> pd.DataFrame:
    """How the mean-rank test of each pair depends on the other algorithms in the study.

    For every pair ``(a, b)``, the unadjusted p-value of Demšar's mean-rank
    ``z = (R_a - R_b) / sqrt(k (k + 1) / (6 N))`` is computed in every study made of
    ``a``, ``b`` and at least one of the other algorithms (all subsets). A test of
    "a equals b" should not depend on which other algorithms were run; this one
    does (Benavoli, Corani & Mangili 2016). Beside it, Wilcoxon's signed-rank
    p-value of the pair, which uses only the pair's own scores.

    Parameters
    ----------
    scores : pandas.DataFrame or 2-D array
        Data sets x algorithms, at least 3 algorithms.
    alpha : float
        Level for the ``verdict_depends`` column.
    higher_is_better : bool

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``a``, ``b``, ``studies`` (how many), ``p_min``, ``p_max``
        (the range of the unadjusted mean-rank p-value), ``verdict_depends``
        (``p_min <= alpha < p_max``), ``wilcoxon_p``.

    References
    ----------
    Benavoli, A., Corani, G. & Mangili, F. (2016). Should we really use post-hoc
    tests based on mean-ranks? JMLR 17(5), 1-10.
    """
    table = _check_scores(scores)
    alpha = check_alpha(alpha)
    names = list(table.columns)
    if len(names) < 3:
        raise ValueError(f"scores must have at least 3 algorithms for other learners to matter, got {len(names)}")
    rows = []
    for a, b in itertools.combinations(names, 2):
        others = [c for c in names if c not in (a, b)]
        ps = []
        for r in range(1, len(others) + 1):
            for extra in itertools.combinations(others, r):
                res = posthoc_friedman(table[[a, b, *extra]], adjust="holm", higher_is_better=higher_is_better)
                hit = res[((res["a"] == a) & (res["b"] == b)) | ((res["a"] == b) & (res["b"] == a))]
                ps.append(float(hit["pvalue"].iloc[0]))
        sign = 1.0 if higher_is_better else -1.0
        d = sign * (table[a] - table[b]).to_numpy()
        try:
            wp = wilcoxon_signed_rank(d).pvalue
        except ValueError:  # the pair never differs
            wp = 1.0
        rows.append(dict(a=a, b=b, studies=len(ps), p_min=min(ps), p_max=max(ps),
                         verdict_depends=bool(min(ps) <= alpha < max(ps)), wilcoxon_p=float(wp)))
    return pd.DataFrame(rows)


# ------------------------------------------- the critical-difference diagram
def plot_cd_diagram(avg_ranks: Any, cd: Any = None, *, control: Any = None, posthoc: Any = None,
                    alpha: float = 0.05, ax=None, title: str | None = None):
    """A critical-difference diagram (Flach, Figure 12.1; Demšar 2006).

    The average ranks are marked on an axis running from 1 (best, left) to ``k``;
    each algorithm's name hangs from its rank, the better half on the left. A bar
    above the axis shows the length ``CD``. Without a control (Nemenyi), thick lines
    join the groups of algorithms that are not significantly different
    (:func:`cd_cliques`). With a ``control`` (Bonferroni–Dunn), the interval
    ``rank(control) -/+ CD`` is drawn around it instead; algorithms outside it
    differ significantly from the control.

    Parameters
    ----------
    avg_ranks : pandas.Series or mapping ``{name: average rank}``
        e.g. ``friedman(scores).avg_ranks``.
    cd : float or CriticalDifference, optional
        Needed unless ``posthoc`` is given (then the CD bar is drawn only if given).
    control : name, optional
    posthoc : pandas.DataFrame, optional
        The groups come from any post-hoc procedure instead of one CD:
        :func:`evallib.posthoc_friedman`'s table or a square matrix of (adjusted)
        p-values (:func:`evallib.posthoc_cliques`). Thick lines join algorithms
        that the procedure does not declare different.
    alpha : float
        Level for a p-value matrix given as ``posthoc``.
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    s = _check_avg_ranks(avg_ranks).sort_values(kind="stable")
    if cd is None and posthoc is None:
        raise ValueError("cd must be given (a critical difference) unless posthoc is given")
    cd_val = _cd_value(cd) if cd is not None else None
    if control is not None and control not in s.index:
        raise ValueError(f"control must be one of the algorithms {list(s.index)}, got {control!r}")
    k = s.size
    if posthoc is not None:
        cliques = posthoc_cliques(s, posthoc, alpha=alpha)
        if control is None and isinstance(posthoc, pd.DataFrame):
            control = posthoc.attrs.get("control")
    else:
        cliques = [] if control is not None else cd_cliques(s, cd_val)
    left = list(s.index[: (k + 1) // 2])
    right = list(s.index[(k + 1) // 2:])
    n_rows = max(len(left), len(right))
    ax = get_axes(ax, figsize=(7, 1.6 + 0.32 * (n_rows + len(cliques))))
    lo, hi = 1.0, float(k)
    # the axis, ticks and the CD bar
    ax.plot([lo, hi], [0, 0], color="k", linewidth=1)
    for t in range(1, k + 1):
        ax.plot([t, t], [0, 0.1], color="k", linewidth=1)
        ax.text(t, 0.16, str(t), ha="center", va="bottom", fontsize="small")
        if t < k:
            ax.plot([t + 0.5, t + 0.5], [0, 0.05], color="k", linewidth=0.7)
    if cd_val is not None:
        ax.plot([lo, lo + cd_val], [0.65, 0.65], color="k", linewidth=1.5, label="CD")
        ax.plot([lo, lo], [0.6, 0.7], color="k", linewidth=1.5)
        ax.plot([lo + cd_val, lo + cd_val], [0.6, 0.7], color="k", linewidth=1.5)
        ax.text(lo + cd_val / 2, 0.72, f"CD = {cd_val:.3f}", ha="center", va="bottom", fontsize="small")
    # clique lines, just below the axis
    y_clique = [-0.18 - 0.13 * i for i in range(len(cliques))]
    for y, group in zip(y_clique, cliques):
        ax.plot([s[group[0]] - 0.03, s[group[-1]] + 0.03], [y, y], color="k", linewidth=3.5,
                solid_capstyle="round")
    top = (y_clique[-1] if y_clique else -0.05) - 0.25
    # names on elbow lines
    for i, name in enumerate(left):
        y = top - 0.3 * i
        ax.plot([s[name], s[name], lo - 0.1], [0, y, y], color="0.3", linewidth=0.8)
        weight = "bold" if name == control else "normal"
        ax.text(lo - 0.15, y, f"{name} ({s[name]:.2f})", ha="right", va="center", fontsize="small",
                fontweight=weight)
    for i, name in enumerate(reversed(right)):
        y = top - 0.3 * i
        ax.plot([s[name], s[name], hi + 0.1], [0, y, y], color="0.3", linewidth=0.8)
        weight = "bold" if name == control else "normal"
        ax.text(hi + 0.15, y, f"({s[name]:.2f}) {name}", ha="left", va="center", fontsize="small",
                fontweight=weight)
    if control is not None and cd_val is not None and posthoc is None:
        rc = float(s[control])
        ax.plot([max(rc - cd_val, lo), min(rc + cd_val, hi)], [-0.18, -0.18], color="C3",
                linewidth=3.5, solid_capstyle="butt", label="control ± CD")
        ax.plot([rc], [-0.18], "o", color="C3")
    bottom = top - 0.3 * (n_rows - 1) - 0.25
    ax.set_xlim(lo - 0.2 - 0.09 * max(len(str(n)) for n in s.index) - 0.35,
                hi + 0.2 + 0.09 * max(len(str(n)) for n in s.index) + 0.35)
    ax.set_ylim(bottom, 1.0)
    ax.axis("off")
    if title is None:
        if posthoc is not None:
            adjust = posthoc.attrs.get("adjust", "p-values") if isinstance(posthoc, pd.DataFrame) else "p-values"
            kind = f"{adjust}, alpha = {posthoc.attrs.get('alpha', alpha):g}"
            if control is not None:
                kind += f", control {control}"
            title = f"Groups not declared different ({kind})"
        else:
            kind = "Bonferroni–Dunn, control " + str(control) if control is not None else "Nemenyi"
            title = f"Critical-difference diagram ({kind})"
    ax.set_title(title, fontsize="medium")
    return ax


# ------------------------------------------------- the analysis notebook 05 runs
@dataclass(frozen=True, eq=False)
class RankAnalysis:
    """The Friedman test and one post-hoc critical difference for a results table.

    Returned by :func:`rank_analysis`; ``str()`` gives :meth:`describe`.

    Attributes
    ----------
    scores : pandas.DataFrame, the table analysed (rows data sets, columns algorithms).
    friedman : FriedmanResult of the table.
    cd : CriticalDifference for ``test`` at ``alpha``.
    differences : pandas.DataFrame, the post-hoc comparisons
        (:func:`rank_differences`: all pairs, or each algorithm against ``control``).
    alpha : the level of the Friedman test and of the critical difference.
    test : ``"nemenyi"`` or ``"bonferroni-dunn"``.
    control : the control algorithm (Bonferroni–Dunn), else None.
    control_chosen : True when no control was given and the best-ranked algorithm
        was taken.
    """

    scores: pd.DataFrame
    friedman: FriedmanResult
    cd: CriticalDifference
    differences: pd.DataFrame
    alpha: float
    test: str
    control: Any = None
    control_chosen: bool = False

    @property
    def significant(self) -> pd.DataFrame:
        """The rows of :attr:`differences` that reach the critical difference."""
        return self.differences[self.differences["significant"]]

    def describe(self) -> str:
        """Average ranks, the Friedman test, the critical difference and the pairs that reach it.

        Returns
        -------
        str
            One line each: the algorithms, data sets and average ranks (1 = best); the
            Friedman statistic and the Iman–Davenport F with their p-values and whether
            they reject at ``alpha``; the test's ``q`` and ``CD``; the control (for
            Bonferroni–Dunn); then one line per pair whose rank difference reaches the CD
            (or that none does), and a warning when such a pair follows a Friedman test
            that does not reject.
        """
        fr, cd = self.friedman, self.cd
        verdict = "rejects" if fr.pvalue <= self.alpha else "does not reject"
        ranks = ", ".join(f"{name} {r:.2f}" for name, r in fr.avg_ranks.sort_values(kind="stable").items())
        lines = [
            f"k = {fr.k} algorithms, n = {fr.n} data sets; average ranks (1 = best): {ranks}",
            f"Friedman statistic {fr.statistic:.3f}, {format_p(fr.pvalue)} (chi-square, {fr.df} df); "
            f"Iman–Davenport F = {fr.iman_davenport:.3f}, {format_p(fr.f_pvalue)}: "
            f"{verdict} 'all perform equally' at alpha = {self.alpha:g}",
            f"{self.test}: q = {cd.q_alpha:.3f}, CD = {cd.cd:.3f}",
        ]
        if self.control is not None:
            how = " (none given: the best average rank)" if self.control_chosen else ""
            lines.append(f"control: {self.control}{how}")
        sig = self.significant
        if sig.empty:
            lines.append("no difference of average ranks reaches the critical difference")
        for row in sig.itertuples():
            lines.append(f"  {row.a} vs {row.b}: |difference| {abs(row.difference):.3f} >= CD")
        if fr.pvalue > self.alpha and not sig.empty:
            lines.append("(the post-hoc test is meant to follow a significant Friedman test)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def plot(self, *, ax=None, title: str | None = None):
        """The critical-difference diagram of this analysis (:func:`plot_cd_diagram`); returns the Axes.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            The Axes to draw on; by default a new figure.
        title : str, optional
            The diagram's title; by default one naming the test (and the control).

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn on.
        """
        return plot_cd_diagram(self.friedman.avg_ranks, self.cd, control=self.control, ax=ax, title=title)


def rank_analysis(
    scores: Any, *, alpha: float = 0.05, test: str = "nemenyi", control: Any = None,
    higher_is_better: bool = True,
) -> RankAnalysis:
    """Friedman test and post-hoc critical difference for a results table.

    The computation behind notebook 04's editable table: parse the table if it is
    text, rank the algorithms on each data set (Example 12.8), compute the critical
    difference of eq. (12.1) for ``test`` and the comparisons that reach it.

    Parameters
    ----------
    scores : pandas.DataFrame, 2-D array or str
        Rows data sets, columns algorithms; a string is read by
        :func:`scores_from_text` (a header line, then one line per data set).
    alpha : float
        Level of the Friedman test and of the critical difference, in (0, 1).
    test : {"nemenyi", "bonferroni-dunn"}
        All pairs, or each algorithm against ``control``.
    control : algorithm name, optional
        Used by ``"bonferroni-dunn"`` only (ignored for Nemenyi). None or a blank
        string takes the algorithm with the best average rank; any other name must
        be one of the table's algorithms.
    higher_is_better : bool
        Whether larger scores are better (accuracies) or worse (error rates).

    Returns
    -------
    RankAnalysis

    Raises
    ------
    TypeError, ValueError
        From :func:`scores_from_text` and :func:`friedman` for a malformed table; a
        ValueError naming ``control`` when it is not one of the algorithms.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning*. Cambridge University Press, Example 12.8
       and eq. (12.1).
    .. [2] Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30.

    Examples
    --------
    Example 12.8's table as text: the Friedman statistic 2.6 and the Nemenyi CD 1.048
    (the book prints 1.047).

    >>> from evallib import rank_analysis
    >>> from evallib.studies import flach_example_12_4
    >>> text = flach_example_12_4().set_axis(["NB", "DT", "NN"], axis=1).to_csv()
    >>> text.splitlines()[:2]      # comma-separated text, as typed into notebook 04's box
    ['fold,NB,DT,NN', '1,0.6809,0.7524,0.7164']
    >>> res = rank_analysis(text)
    >>> round(res.friedman.statistic, 3), round(res.cd.cd, 3), res.significant.empty
    (2.6, 1.048, True)
    >>> rank_analysis(text, test="bonferroni-dunn").control
    'DT'
    """
    if isinstance(scores, str):
        scores = scores_from_text(scores)
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", CD_TESTS)
    table = _check_scores(scores)
    fr = friedman(table, higher_is_better=higher_is_better)
    cd = critical_difference(fr.k, fr.n, alpha=alpha, test=test)
    chosen = False
    if test != "bonferroni-dunn":
        control = None
    else:
        if isinstance(control, str):
            control = control.strip() or None
        if control is None:
            control, chosen = fr.avg_ranks.sort_values(kind="stable").index[0], True
        elif control not in fr.avg_ranks.index:
            raise ValueError(f"control must be one of the algorithms {list(fr.avg_ranks.index)}, got {control!r}")
    return RankAnalysis(scores=table, friedman=fr, cd=cd,
                        differences=rank_differences(fr.avg_ranks, cd, control=control),
                        alpha=alpha, test=test, control=control, control_chosen=chosen)


def describe_rank_analysis(
    scores: Any, *, alpha: float = 0.05, test: str = "nemenyi", control: Any = None,
    higher_is_better: bool = True,
) -> str:
    """:func:`rank_analysis` as plain text (its :meth:`RankAnalysis.describe`).

    Parameters
    ----------
    scores, alpha, test, control, higher_is_better
        As for :func:`rank_analysis` (a string ``scores`` is read by
        :func:`scores_from_text`); so are the errors raised.

    Returns
    -------
    str
        :meth:`RankAnalysis.describe` of the analysis: average ranks, the Friedman test,
        the critical difference and the pairs that reach it, one per line.

    References
    ----------
    .. [1] Flach, P. (2012). *Machine Learning*. Cambridge University Press, Example 12.8
       and eq. (12.1).
    .. [2] Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *Journal of Machine Learning Research*, 7, 1-30.

    Examples
    --------
    >>> from evallib import describe_rank_analysis
    >>> from evallib.studies import flach_example_12_4
    >>> print(describe_rank_analysis(flach_example_12_4()).splitlines()[2])
    nemenyi: q = 2.344, CD = 1.048
    """
    return rank_analysis(scores, alpha=alpha, test=test, control=control,
                         higher_is_better=higher_is_better).describe()
