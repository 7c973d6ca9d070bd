"""The report's text: tables formatted for reading, the figure of the pairwise intervals, and
the plain-language summary (effect sizes and intervals first, p-values second)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .inputs import SMALL_TEST_SET, Predictions

#: p-values below this are printed as ``p < 1e-15``: double precision resolves a tail
#: probability next to 1 only to about this, and no finite test set supports more digits.
P_FLOOR = 1e-15


def _p_text(p: float, floor: float = P_FLOOR) -> str:
    """``"= 0.034"``, ``"= 2.1e-05"`` or ``"< 1e-15"``: a p-value never printed as 0.

    >>> _p_text(0.0), _p_text(0.0342), _p_text(2.1e-5), _p_text(0.004, floor=1e-4)
    ('< 1e-15', '= 0.034', '= 2.1e-05', '= 0.004')
    >>> _p_text(3e-5, floor=1e-4)
    '< 1e-04'

    """
    p = float(p)
    if not p >= floor:  # also NaN-safe for p = 0
        return f"< {floor:.0e}"
    return f"= {p:.2g}"


def format_p(p: float, floor: float = P_FLOOR) -> str:
    """A p-value as text, ``"p = 0.034"`` or ``"p < 1e-15"``."""
    return "p " + _p_text(p, floor)


def _distinct_digits(lo: float, hi: float, digits: int, *, scale: float = 1.0, most: int = 8) -> int:
    """The fewest decimals, at least ``digits``, that print ``lo`` and ``hi`` differently
    (``most`` at most), so that an interval of non-zero width never reads "0.1 to 0.1".

    >>> _distinct_digits(0.0011, 0.0014, 1, scale=100), _distinct_digits(0.2, 0.5, 1, scale=100)
    (2, 1)
    """
    d = digits
    while d < most and f"{scale * lo + 0.0:.{d}f}" == f"{scale * hi + 0.0:.{d}f}":
        d += 1
    return d


def _bounds(lo: float, hi: float, digits: int = 3) -> str:
    """An interval as ``[low, high]`` with enough decimals to tell the bounds apart."""
    d = _distinct_digits(lo, hi, digits) if lo != hi else digits
    return f"[{lo + 0.0:.{d}f}, {hi + 0.0:.{d}f}]"


def _interval_points(lo: float, hi: float) -> str:
    """A difference's interval in percentage points, ``"0.12 to 0.15"``: one decimal, more
    when the bounds would otherwise print alike (the caller explains a zero width)."""
    d = _distinct_digits(lo, hi, 1, scale=100.0) if lo != hi else 1
    return f"{100 * lo + 0.0:.{d}f} to {100 * hi + 0.0:.{d}f}"


def _fmt(v: Any, spec: str) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA else format(v, spec)


def format_measures(table: pd.DataFrame) -> pd.DataFrame:
    """Section 2's table as text: counts, three decimals, the interval as ``[low, high]``.

    The majority-class baseline (``table.attrs["baseline"]``, from
    :func:`evallib.report.sections.majority_baseline`) is the last row.
    """
    alpha = table.attrs.get("alpha", 0.05)
    base = table.attrs.get("baseline")
    whole = not table.attrs.get("repeated", False)
    if base is not None:
        row = pd.DataFrame([{k: v for k, v in base.items() if k not in ("name", "code")}],
                           index=pd.Index([f"baseline: {base['name']}"], name=table.index.name))
        table = pd.concat([table.astype(object), row.astype(object)])
    out = pd.DataFrame(index=table.index)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = ["-" if v is pd.NA or v is None or (isinstance(v, float) and math.isnan(v))
                  else (f"{int(round(float(v))):d}" if whole else f"{float(v):.1f}") for v in table[c]]
    out["accuracy"] = [_fmt(float(v), ".3f") for v in table["accuracy"]]
    out[f"{100 * (1 - alpha):g}% interval"] = [
        "-" if math.isnan(float(lo)) else _bounds(float(lo), float(hi))
        for lo, hi in zip(table["acc_low"], table["acc_high"])
    ]
    if table.attrs.get("multiclass") or (base is not None and math.isnan(float(base.get("AUC", 0.5)))):
        out = out[["accuracy", f"{100 * (1 - alpha):g}% interval"]]
        out["balanced accuracy"] = [_fmt(float(v), ".3f") for v in table["avg_recall"]]
        out["macro-F1"] = [_fmt(float(v), ".3f") for v in table["F1"]]
        return out
    for c, label in (("avg_recall", "avg recall"), ("precision", "precision"),
                     ("recall", "recall"), ("F1", "F1"), ("AUC", "AUC")):
        out[label] = [_fmt(float(v), ".3f") for v in table[c]]
    return out


def _interval_text(lo: float, hi: float) -> str:
    if lo == hi:
        return "zero width (no disagreements)"
    return _interval_points(lo, hi)


def format_pairwise(table: pd.DataFrame) -> pd.DataFrame:
    """Section 3's slim table as text, in the order of ``table`` (largest effect first).

    Per pair: the classifier with fewer errors, the difference in error rate (first minus
    second, percentage points), its interval, the joint (Bonferroni) interval, the adjusted
    p-value of McNemar's mid-p test and the verdict; ``b + c`` (the cases on which the two
    disagree), flagged when few.
    """
    alpha = table.attrs.get("alpha", 0.05)
    adjust = table.attrs.get("adjust", "holm")
    level = f"{100 * (1 - alpha):g}%"
    adj_name = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "unadjusted"}[adjust]
    joint = "joint interval (Bonferroni)" if adjust != "none" else "interval (unadjusted)"
    out = pd.DataFrame({
        "fewer errors": list(table["better"]),
        "error A - B (points)": [f"{100 * d + 0.0:+.1f}" for d in table["diff"]],
        f"{level} interval": [_interval_text(lo, hi) for lo, hi in zip(table["diff_low"], table["diff_high"])],
        joint: [_interval_text(lo, hi) for lo, hi in zip(table["adj_low"], table["adj_high"])],
        f"{adj_name} p ({table.attrs.get('test_short', 'mid-p test')})": [
            _p_text(p).lstrip("= ") if p >= P_FLOOR else _p_text(p) for p in table["p_adj"]],
        "disagreements b + c": [f"{b + c}" + (" (few)" if few else "")
                                for b, c, few in zip(table["b"], table["c"], table["few"])],
        "verdict": list(table["verdict"]),
    })
    out.index = pd.Index([f"{i} vs {j}" for i, j in table["pair"]], name="pair A vs B")
    return out


def plot_pair_intervals(table: pd.DataFrame, ax=None, *, title: str | None = None):
    """The pairwise intervals, one row per pair, labels on the left so they never overlap.

    Parameters
    ----------
    table : DataFrame from :func:`evallib.report.sections.pairwise_comparison`
        Draws, per pair ``A vs B``, the difference in error rate ``A - B`` (points), its
        interval (thick) and the joint Bonferroni interval (thin), and the line of no
        difference.
    ax : matplotlib Axes, optional
        A new figure, sized to the number of pairs, if None.
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    from .._plotting import get_axes

    k = len(table)
    ax = get_axes(ax, figsize=(7.5, 2.4 + 0.42 * k))
    yy = np.arange(k)[::-1]
    pts = 100.0
    ax.hlines(yy, pts * table["adj_low"], pts * table["adj_high"], colors="0.55", linewidth=1.2,
              label="joint interval" if table.attrs.get("adjust", "holm") != "none" else "interval")
    ax.hlines(yy, pts * table["diff_low"], pts * table["diff_high"], colors="C0", linewidth=5,
              label="interval")
    ax.plot(pts * table["diff"], yy, "o", color="k", markersize=4, label="observed difference")
    ax.axvline(0.0, color="C3", linewidth=1, linestyle="--", label="no difference")
    ax.set_yticks(yy)
    ax.set_yticklabels([f"{i} vs {j}" for i, j in table["pair"]])
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlabel("error rate of A minus error rate of B (percentage points)")
    level = table.attrs.get("alpha", 0.05)
    ax.set_title(title or f"{100 * (1 - level):g}% intervals ({table.attrs.get('method', '')})")
    # below the x label: about 0.6 inch under the axes, whose height grows with the pairs
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.65 / (0.42 * k + 0.9)), ncol=4,
              fontsize="small", frameon=False)
    ax.figure.tight_layout()
    return ax


# --------------------------------------------------------------------- the summary
def _pct(v: float) -> str:
    return f"{100 * v + 0.0:.1f}"  # + 0.0 turns -0.0 into 0.0


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def _names(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pair_row(pairwise: pd.DataFrame, a: str, b: str):
    return pairwise[pairwise["pair"].map(lambda p: set(p) == {a, b})].iloc[0]


def _advantage(row, a: str) -> tuple[float, float, float]:
    """a's advantage (error rate of the other minus a's) with its interval, from a pair row."""
    if row["pair"][0] == a:  # diff is the first's error rate minus the second's
        return 0.0 - row["diff"], 0.0 - row["diff_high"], 0.0 - row["diff_low"]
    return row["diff"], row["diff_low"], row["diff_high"]


def summary_text(
    data: Predictions,
    *,
    measures: pd.DataFrame,
    pairwise: Any = None,
    chance: Any = None,
    bootstrap: Any = None,
    folds: Any = None,
    scores: Any = None,
    omnibus: Any = None,
    warnings: tuple[str, ...] = (),
    alpha: float = 0.05,
) -> str:
    """The findings in plain sentences: one verdict per question, effect sizes first.

    In the spirit of Berrar & Lozano (2013, section 8): each statement gives the size of
    an effect and its interval, and only then the p-value. Warnings (reversed scores, a
    classifier below the majority-class baseline) come first. Where two procedures
    disagree (the interval excludes 0 but the adjusted test does not reject; the F1
    bootstrap and McNemar's test reach different verdicts on one pair), one sentence says
    why. Ties are named, p-values have a floor (``p < 1e-15``), and a zero-width interval
    (two classifiers that never disagree) is explained. Sections that were skipped (or
    not passed) are left out.

    Parameters
    ----------
    data : Predictions
    measures : DataFrame from :func:`evallib.report.sections.classifier_measures`
    pairwise, chance, bootstrap, folds : results of those sections, or Skipped/None
    scores : :class:`evallib.report.sections.ScoreComparison` (AUC with DeLong intervals,
        losses), or Skipped/None
    omnibus : :class:`evallib.onetestset.cochran.CochranQ` over all classifiers, or Skipped/None
    warnings : sentences from :func:`evallib.report.sections.score_warnings`
    alpha : float
        The level the results were computed at.

    Returns
    -------
    str
        Markdown bullet points.
    """
    level = f"{100 * (1 - alpha):g}%"
    out: list[str] = [f"**Warning:** {w}" for w in warnings]
    base = measures.attrs.get("baseline")
    lab = measures.dropna(subset=["accuracy"])
    if len(lab):
        acc = lab["accuracy"].astype(float)
        top = acc.max()
        leaders = [n for n, v in acc.items() if v == top]
        r = lab.loc[leaders[0]]
        who = (f"**{leaders[0]}** has the highest accuracy" if len(leaders) == 1 else
               f"**{_names(leaders)}** tie for the highest accuracy")
        base_text = ""
        if base is not None:
            gap = top - base["accuracy"]
            base_text = (f"; always predicting the majority class would score {_pct(base['accuracy'])}%, "
                         + (f"{_pct(gap)} points less" if gap > 0 else
                            ("the same" if gap == 0 else f"{_pct(-gap)} points more")))
            if gap > 0 and r.acc_low <= base["accuracy"]:
                base_text += (f", a margin inside the interval: this test set does not show that "
                              f"{'it' if len(leaders) == 1 else 'they'} beat{'s' if len(leaders) == 1 else ''} "
                              "the majority class")
        out.append(
            f"{who}: {_pct(r.accuracy)}% ({level} interval {_pct(r.acc_low)}% to {_pct(r.acc_high)}%) "
            f"on {data.n:,} test cases{base_text}."
        )
    if omnibus is not None and callable(getattr(omnibus, "text", None)):
        verdict = ("the classifiers' accuracies differ" if omnibus.reject else
                   "no evidence that the classifiers' accuracies differ")
        out.append(f"Over all {omnibus.k} classifiers with predicted labels, Cochran's Q gives "
                   f"{format_p(omnibus.pvalue)}: {verdict} (the omnibus test; the pairs below say which).")
    if isinstance(pairwise, pd.DataFrame) and len(pairwise):
        out.extend(_pairwise_sentences(pairwise, alpha, level))
    aucs = measures["AUC"].dropna() if "AUC" in measures else pd.Series(dtype=float)
    if scores is not None and callable(getattr(scores, "summary", None)):
        out.append(scores.summary())
    elif len(aucs):
        best = aucs.astype(float).idxmax()
        out.append(f"The best ranking by AUC is **{best}**'s, AUC = {aucs[best]:.3f} (random scores: "
                   f"0.5); scores are read as evidence for {data.positive!r}.")
    if chance is not None and callable(getattr(chance, "summary", None)):
        out.append(chance.summary())
    if bootstrap is not None and callable(getattr(bootstrap, "summary", None)):
        out.append(bootstrap.summary())
        if isinstance(pairwise, pd.DataFrame) and len(pairwise):
            row = _pair_row(pairwise, bootstrap.best, bootstrap.second)
            mc = bool(row["reject"])
            if bootstrap.excludes_zero != mc:
                out.append(
                    f"The F1 bootstrap and McNemar's test disagree on {bootstrap.best} vs "
                    f"{bootstrap.second} ({'only the bootstrap' if bootstrap.excludes_zero else 'only McNemar'} "
                    "finds a difference): they measure different things, the F-measure weighs errors on "
                    f"{data.positive!r} and ignores true negatives, McNemar counts every error"
                    + ("" if pairwise.attrs.get("adjust") == "none" else
                       ", and McNemar's verdict is adjusted for the number of pairs") + ".")
    if folds is not None and callable(getattr(folds, "summary", None)):
        out.append(folds.summary())
    if len(data.predicted or data.labels) and data.n < SMALL_TEST_SET:
        out.append(
            f"With only {data.n} test cases every interval above is wide; more test cases, not more "
            "tests, would sharpen these conclusions."
        )
    return "\n".join(f"- {s}" for s in out)


def _pairwise_sentences(pairwise: pd.DataFrame, alpha: float, level: str) -> list[str]:
    out = []
    adj = pairwise.attrs.get("adjust", "holm")
    adj_name = {"holm": "Holm", "bonferroni": "Bonferroni"}.get(adj)
    m = len(pairwise)
    method = pairwise.attrs.get("method", "Quesenberry-Hurst")
    wr = pairwise.attrs.get("error_rates", {})
    ranked = sorted(wr, key=lambda k: wr[k])
    if len(ranked) >= 2:
        a, b = ranked[0], ranked[1]
        row = _pair_row(pairwise, a, b)
        adv, lo, hi = _advantage(row, a)
        n_dis = int(row["b"] + row["c"])
        p_adj = float(row["p_adj"])
        p_part = (f"{pairwise.attrs.get('test', 'McNemar' + chr(39) + 's mid-p test')} gives "
                  f"{'the adjusted ' if adj_name and m > 1 else ''}"
                  f"{format_p(p_adj if adj_name else row['p'])}")
        if n_dis == 0:
            out.append(
                f"The two classifiers with the fewest errors, {a} and {b}, make identical predictions on "
                "every test case: their error rates are equal, and the interval of the difference has "
                "zero width because there is no disagreement to measure, not because a difference is "
                "known precisely.")
        elif adv == 0:
            out.append(
                f"The two classifiers with the fewest errors, {a} and {b}, tie: the same number of "
                f"errors, disagreeing on {_plural(n_dis, 'case')} ({level} interval of the difference "
                f"{_pct(lo)} to {_pct(hi)} points; {p_part}).")
        else:
            verdict = ("the interval includes zero, so the data cannot tell them apart"
                       if lo <= 0 <= hi else "the interval excludes zero")
            out.append(
                f"The two classifiers with the fewest errors, {a} and {b}: {a} makes {_pct(adv)} "
                f"percentage points fewer errors ({level} {method} interval {_pct(lo)} to {_pct(hi)} "
                f"points, from {_plural(n_dis, 'disagreement')}); {verdict}. {p_part}.")
            excludes = not (lo <= 0 <= hi)
            if excludes != (float(row["p"]) <= alpha):
                out.append(
                    f"For {a} vs {b} the interval and the test (before adjustment) disagree: "
                    "an interval and a test are different procedures that agree only approximately "
                    "near the boundary, so read the difference as borderline.")
    if adj_name and m > 1:
        split = [f"{i} vs {j}" for (i, j), lo, hi, rej in zip(pairwise["pair"], pairwise["diff_low"],
                                                             pairwise["diff_high"], pairwise["reject"])
                 if not (lo <= 0 <= hi) and not rej]
        if split:
            out.append(
                f"For {_names(split)} the single {level} interval excludes zero but {adj_name}'s "
                f"adjustment for {_plural(m, 'comparison')} finds no significant difference: a single "
                "interval ignores the other comparisons made on the same data, which the adjusted "
                "test takes into account.")
    top = pairwise.iloc[0]
    i, j = top["pair"]
    if top["estimate"] > 0:
        winner = top["better"]
        adv, lo, hi = _advantage(top, winner)
        out.append(
            f"The largest difference is between {i} and {j}: {winner} makes {_pct(adv)} percentage "
            f"points fewer errors ({level} interval {_pct(lo)} to {_pct(hi)} points"
            + (f"; {adj_name}-adjusted {format_p(top['p_adj'])}" if adj_name and m > 1 else
               f"; {format_p(top['p'])}") + ").")
    rejected = [f"{i} vs {j}" for (i, j), rej in zip(pairwise["pair"], pairwise["reject"]) if rej]
    lead = (f"With {adj_name}'s adjustment for {_plural(m, 'comparison')}" if adj_name
            else f"Without adjustment for {'the ' if m > 1 else ''}{_plural(m, 'comparison')}")
    if rejected:
        out.append(
            f"{lead}, {len(rejected)} of the pairwise differences "
            f"{'is' if len(rejected) == 1 else 'are'} significant at alpha = {alpha:g}: "
            f"{', '.join(rejected)}.")
    else:
        out.append(f"{lead}, none of the pairwise differences is significant at alpha = {alpha:g}.")
    few = [f"{i} vs {j}" for (i, j), f, b, c in zip(pairwise["pair"], pairwise["few"], pairwise["b"],
                                                     pairwise["c"]) if f and b + c > 0]
    if few:
        if not pairwise.attrs.get("binary", True):
            caveat = "a t interval over so few differing cases is rough"
        elif method == "Quesenberry-Hurst":
            caveat = ("the Quesenberry-Hurst interval under-covers at such small counts (choose "
                      "--interval bonett_price)")
        else:
            caveat = (f"the {method} interval and the mid-p test are the ones recommended for such counts "
                      "(Fagerland, Lydersen & Laake 2013, 2014)")
        out.append(
            f"Few disagreements (b + c below 25) for {', '.join(few)}: these comparisons rest on few "
            f"cases, so their intervals are wide; {caveat}.")
    return out
