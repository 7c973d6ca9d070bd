"""The report's text: tables formatted for reading and the plain-language summary."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from .inputs import SMALL_TEST_SET, Predictions


def _fmt(v: Any, spec: str) -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA else format(v, spec)


def format_measures(table: pd.DataFrame) -> pd.DataFrame:
    """Section 2's table as text: counts, three decimals, the interval as ``[low, high]``."""
    alpha = table.attrs.get("alpha", 0.05)
    out = pd.DataFrame(index=table.index)
    for c in ("TP", "FN", "FP", "TN"):
        out[c] = [_fmt(v, "d") if v is not pd.NA else "-" for v in table[c]]
    out["accuracy"] = [_fmt(v, ".3f") for v in table["accuracy"]]
    out[f"{100 * (1 - alpha):g}% interval"] = [
        "-" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
        for lo, hi in zip(table["acc_low"], table["acc_high"])
    ]
    for c, label in (("avg_recall", "avg recall"), ("precision", "precision"),
                     ("recall", "recall"), ("F1", "F1"), ("AUC", "AUC")):
        out[label] = [_fmt(v, ".3f") for v in table[c]]
    return out


def format_pairwise(table: pd.DataFrame) -> pd.DataFrame:
    """Section 3's table as text, in the order of ``table`` (largest effect first)."""
    from ..pairwise import format_table

    out = format_table(table)
    out.index = pd.Index([f"{i} vs {j}" for i, j in table["pair"]], name="pair")
    out.insert(0, "fewer errors", list(table["better"]))
    out.insert(3, "error rate A - B [interval]", [
        f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        for d, lo, hi in zip(table["diff"], table["diff_low"], table["diff_high"])
    ])
    return out


# --------------------------------------------------------------------- section 7
def _pct(v: float) -> str:
    return f"{100 * v + 0.0:.1f}"  # + 0.0 turns -0.0 into 0.0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_text(
    data: Predictions,
    *,
    measures: pd.DataFrame,
    pairwise: Any = None,
    chance: Any = None,
    bootstrap: Any = None,
    folds: Any = None,
    alpha: float = 0.05,
) -> str:
    """Section 7: the findings in plain sentences, effect sizes and intervals first.

    In the spirit of Berrar & Lozano (2013, section 8): each statement gives the size of
    an effect and its interval, and only then the p-value. Sections that were skipped
    (or not passed) are left out.

    Parameters
    ----------
    data : Predictions
    measures : DataFrame from :func:`classifier_measures`
    pairwise, chance, bootstrap, folds : results of sections 3-6, or Skipped/None
    alpha : float
        The level the results were computed at.

    Returns
    -------
    str
        Markdown bullet points.
    """
    level = f"{100 * (1 - alpha):g}%"
    out: list[str] = []
    lab = measures.dropna(subset=["accuracy"])
    if len(lab):
        best = lab["accuracy"].astype(float).idxmax()
        r = lab.loc[best]
        out.append(
            f"**{best}** has the highest accuracy, {_pct(r.accuracy)}% ({level} interval "
            f"{_pct(r.acc_low)}% to {_pct(r.acc_high)}%) on {data.n} test cases; its average "
            f"recall is {_pct(r.avg_recall)}% and its F-measure {r.F1:.3f}."
        )
    aucs = measures["AUC"].dropna()
    if len(aucs):
        best = aucs.astype(float).idxmax()
        out.append(f"The best ranking by AUC is **{best}**'s, AUC = {aucs[best]:.3f}.")
    if isinstance(pairwise, pd.DataFrame) and len(pairwise):
        wr = pairwise.attrs.get("error_rates", {})
        ranked = sorted(wr, key=lambda k: wr[k])
        if len(ranked) >= 2:
            a, b = ranked[0], ranked[1]
            row = pairwise[pairwise["pair"].map(lambda p: set(p) == {a, b})].iloc[0]
            if row["pair"][0] == a:  # diff is the first's error rate minus the second's
                adv, lo, hi = 0.0 - row["diff"], 0.0 - row["diff_high"], 0.0 - row["diff_low"]
            else:
                adv, lo, hi = row["diff"], row["diff_low"], row["diff_high"]
            verdict = ("the interval includes zero, so the data cannot tell them apart"
                       if lo <= 0 <= hi else "the interval excludes zero")
            who = (f"{a} makes {_pct(adv)} percentage points fewer errors" if adv > 0 else
                   f"they make the same number of errors, disagreeing on {row['b'] + row['c']} cases")
            out.append(
                f"The two classifiers with the fewest errors, {a} and {b}: {who} ({level} interval "
                f"{_pct(lo)} to {_pct(hi)} points); {verdict}. McNemar's test gives "
                f"p = {row['p']:.2g} (exact p = {row['p_exact']:.2g})."
            )
        top = pairwise.iloc[0]
        i, j = top["pair"]
        adj = pairwise.attrs.get("adjust", "holm")
        adjusted = {"holm": "Holm-adjusted", "bonferroni": "Bonferroni-adjusted"}.get(adj)
        out.append(
            f"The largest difference is between {i} and {j}: {_pct(top['estimate'])} percentage "
            f"points in error rate, {level} interval {_pct(top['ci_low'])} to {_pct(top['ci_high'])} "
            f"points" + (f" ({adjusted}: {_pct(top['ci_adj_low'])} to {_pct(top['ci_adj_high'])})"
                         if adjusted and len(pairwise) > 1 else "")
            + f"; p = {top['p']:.2g}."
        )
        rejected = [f"{i} vs {j}" for (i, j), rej in zip(pairwise["pair"], pairwise["reject"]) if rej]
        m = len(pairwise)
        lead = (f"With {adjusted[:-9]}'s adjustment for {_plural(m, 'comparison')}" if adjusted
                else f"Without adjustment for {'the ' if m > 1 else ''}{_plural(m, 'comparison')}")
        if rejected:
            out.append(
                f"{lead}, {len(rejected)} of the pairwise differences "
                f"{'is' if len(rejected) == 1 else 'are'} significant at alpha = {alpha:g}: "
                f"{', '.join(rejected)}."
            )
        else:
            out.append(f"{lead}, none of the pairwise differences is significant at alpha = {alpha:g}.")
    for extra in (chance, bootstrap, folds):
        sentence = getattr(extra, "summary", None)
        if callable(sentence):
            out.append(sentence())
    if len(data.labels) and data.n < SMALL_TEST_SET:
        out.append(
            f"With only {data.n} test cases every interval above is wide; more test cases, not more "
            "tests, would sharpen these conclusions."
        )
    return "\n".join(f"- {s}" for s in out)

