"""The many-data-sets report's text: its tables formatted for reading and its summary.

Every name that comes from the user's file or options (classifiers, data sets, the title)
goes through :func:`~evallib.report._prose.escape` before it enters Markdown, so that the HTML page shows it as
text and never as markup. Tables are returned as DataFrames of text, which pandas escapes
when it renders them.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from .._compat import moved_names
from ._datasets_inputs import Results
from ._datasets_sections import (
    CONTROL_CAVEAT,
    CONTROL_TWO,
    DECISION_LEVEL,
    METHOD_NAMES,
    SMALL_N,
    FriedmanSection,
    PosthocSection,
    ResultsOverview,
    TopTwoBayes,
    derived_decimals,
    score_decimals,
    smallest_sign_test_p,
    wilcoxon_variant,
)
from ._sections import Skipped
from ._prose import (
    LISTED,
    adjusted_p_header,
    escape,
    format_adjusted_p,
    format_p,
    join_names,
    plural,
    pvalue_cell,
    signed,
    tie_groups,
)

__all__ = [
    "format_overview",
    "format_scores",
    "format_pairs",
    "format_control",
    "results_summary",
]


def _b(name: Any) -> str:
    return f"**{escape(name)}**"




def _num(v: float, decimals: int) -> str:
    """A mean, median or mean difference of scores, with ``decimals`` (``-0`` printed as ``0``)."""
    return f"{float(v) + 0.0:.{decimals}f}"


def format_overview(overview: ResultsOverview) -> pd.DataFrame:
    """Section 1's table as text: mean and median score, average rank, data sets best on.

    Means and medians get one decimal more than the scores were written with
    (:func:`~evallib.report._datasets_sections.derived_decimals`), the same in every row."""
    t = overview.table
    n = overview.n_datasets
    d = derived_decimals(overview.decimals)
    return pd.DataFrame({
        "mean score": [_num(v, d) for v in t["mean"]],
        "median score": [_num(v, d) for v in t["median"]],
        "average rank": [f"{v:.3f}" for v in t["average rank"]],
        "best on": [f"{int(v)} of {n}" for v in t["best on"]],
    }, index=t.index)


def format_scores(results: Results, overview: ResultsOverview) -> pd.DataFrame:
    """The results table as read, each score followed by its rank on that data set in parentheses
    (the layout of Demšar's Table 6), and the average ranks as the last row.

    Every score has the decimals the table was written with
    (:func:`~evallib.report._datasets_sections.score_decimals`): Demšar's Table 6, printed with
    three decimals, reads ``1.000 (2.5)`` and ``0.590 (3)`` as printed."""
    ranks = overview.ranks
    d = score_decimals(results.scores)
    out = pd.DataFrame({c: [f"{v:.{d}f} ({r:g})" for v, r in zip(results.scores[c], ranks[c])]
                        for c in results.classifiers}, index=results.scores.index)
    avg = pd.DataFrame([{c: f"({ranks[c].mean():.3f})" for c in results.classifiers}],
                       index=pd.Index(["average rank"], name=out.index.name))
    return pd.concat([out, avg])


def _verdict(primary: bool) -> str:
    return "differ" if primary else "not shown to differ"


#: With 2 classifiers, the header of the exact sign test's p (the mean-rank family's deciding test).
SIGN_TEST_HEADER = "p (exact sign test, tied data sets dropped; decides with 2 classifiers)"
#: With 2 classifiers, the header of the mean-rank z test's p: its normal approximation, not used.
NORMAL_APPROXIMATION_HEADER = "p (mean-rank z test, the normal approximation; not used with 2 classifiers)"


def _mean_rank_columns(table: pd.DataFrame, exact: float | None, header: str,
                       alpha: float | None = None) -> dict[str, list[str]]:
    """The mean-rank family's p-value column(s): ``header`` over the z test's adjusted p-values, or with
    2 classifiers (``exact``, the sign test's p) the exact sign test's p first and the z test's only as its unused normal approximation
    (the sign test's p is Friedman's exact permutation law at k = 2). The p-values that decide are printed
    on their side of ``alpha`` (:func:`~evallib.report._prose.format_p`)."""
    if exact is None:
        return {header: [pvalue_cell(p, alpha=alpha) for p in table["pvalue_adj"]]}
    return {SIGN_TEST_HEADER: [pvalue_cell(exact, exact=True, alpha=alpha)] * len(table),
            NORMAL_APPROXIMATION_HEADER: [pvalue_cell(p) for p in table["pvalue_adj"]]}


def format_pairs(posthoc: PosthocSection) -> pd.DataFrame:
    """Section 3's pairs as text, largest rank difference first; every pair is a row."""
    t = posthoc.pairs
    name = METHOD_NAMES[posthoc.adjust]
    dec = derived_decimals(t.attrs.get("decimals", 3))
    out = pd.DataFrame({
        "average ranks": [f"{ra:.3f} / {rb:.3f}" for ra, rb in zip(t["rank_a"], t["rank_b"])],
        "rank difference": [f"{v:.3f}" for v in t["rank_difference"]],
        "wins / ties / losses": [f"{w} / {d} / {lo}" for w, d, lo in zip(t["wins"], t["ties"], t["losses"])],
        "mean advantage": [_num(v, dec) for v in t["mean_advantage"]],
        **_mean_rank_columns(t, t.attrs.get("exact_two"), adjusted_p_header(name, "mean-rank z test"), posthoc.alpha),
        adjusted_p_header("Holm", "Wilcoxon signed-rank test"): [pvalue_cell(p, exact=m == "exact", alpha=posthoc.alpha)
                                                                 for p, m in
                                                                 zip(t["wilcoxon_pvalue_adj"], t["wilcoxon_method"])],
        f"verdict ({posthoc.verdict_words})": [_verdict(r) for r in posthoc.verdict_reject],
        f"secondary ({posthoc.secondary_words})": [_verdict(r) for r in posthoc.secondary_reject],
    })
    out.index = pd.Index([f"{a} vs {b}" for a, b in zip(t["a"], t["b"])], name="A vs B (A ranked better)")
    return out


#: The control table's rank-difference column, its sign said: rank 1 is the best, so a classifier that ranks
#: better than the control has the smaller average rank and a negative difference.
CONTROL_RANK_DIFFERENCE = "rank difference (its rank minus the control's; negative: it ranks better)"


def format_control(posthoc: PosthocSection) -> pd.DataFrame | None:
    """Section 3's comparisons with the control as text, or None without a control."""
    t = posthoc.control_table
    if t is None:
        return None
    name = METHOD_NAMES[posthoc.control_adjust]
    dec = derived_decimals(t.attrs.get("decimals", 3))
    out = pd.DataFrame({
        "average rank": [f"{v:.3f}" for v in t["rank_b"]],
        # rank_difference = rank_b - rank_a: the row's average rank minus the control's (1 = best)
        CONTROL_RANK_DIFFERENCE: [f"{v:+.3f}" for v in t["rank_difference"]],
        "control's wins / ties / losses": [f"{w} / {d} / {lo}" for w, d, lo in zip(t["wins"], t["ties"], t["losses"])],
        "control's mean advantage": [_num(v, dec) for v in t["mean_advantage"]],
        "|z|": [f"{abs(v):.3f}" for v in t["z"]],
        **({} if posthoc.two else {adjusted_p_header(None, "mean-rank z test"): [pvalue_cell(p) for p in t["pvalue"]]}),
        **_mean_rank_columns(t, posthoc.pairs.attrs.get("exact_two"), adjusted_p_header(name, "mean-rank z test"),
                             posthoc.alpha),
        "verdict": ["differs" if r else "not shown to differ" for r in t["reject"]],
    })
    out.index = pd.Index(list(t["b"]), name=f"against {posthoc.control} (rank {t['rank_a'].iloc[0]:.3f})")
    return out


# ----------------------------------------------------------------------- summary
def _ranking_sentence(results: Results, overview: ResultsOverview) -> str:
    """Who ranks best, then every other place; classifiers with equal average ranks share a
    place and the sentence says so (``"C, D and E share the average rank 2.500"``), never an order the
    columns made."""
    t = overview.table
    best = t.index[0]
    k, n = overview.n_classifiers, overview.n_datasets
    d = derived_decimals(overview.decimals)
    places = tie_groups([(c, float(t.loc[c, "average rank"])) for c in t.index], higher_is_better=False)
    tied = places[0]
    top = float(t.loc[tied[0], "average rank"])
    gap = (f", a lead of {float(t.loc[places[1][0], 'average rank']) - top:.3f} in average rank over the next" if len(places) > 1 else "")
    lead = (f"{_b(best)} has the best average rank, {top:.3f}{gap}" if len(tied) == 1 else
            f"{join_names([_b(c) for c in tied], limit=LISTED)} share the best average rank, {top:.3f}")
    others = [f"{escape(g[0])} {t.loc[g[0], 'average rank']:.3f}" if len(g) == 1 else
              f"{join_names([escape(c) for c in g], limit=LISTED)} share the average rank {t.loc[g[0], 'average rank']:.3f}"
              for g in places[1:]]
    if any(len(g) > 1 for g in places[1:]):  # names inside a place are joined by "and": places by "; then"
        rest = "; then " + "; then ".join(others[:LISTED]) + (
            f"; then {len(others) - LISTED} more places" if len(others) > LISTED else "")
    else:
        rest = f"; then {join_names(others, limit=LISTED)}" if others else ""
    better = "higher" if results.higher_is_better else "lower"
    if len(tied) == 1:
        best_on = int(t.iloc[0]["best on"])
        alone = int((overview.ranks[best] == 1).sum())  # a rank of exactly 1: no other classifier tied
        ties = f" (alone on {alone}, tied for the best score on {best_on - alone})" if alone < best_on else ""
        scores = (f"Its mean score is {_num(t.iloc[0]['mean'], d)} ({better} is better), and it is best on "
                  f"{best_on} of the {n} data sets{ties}.")
    else:
        scores = (f"Their mean scores are {join_names([_num(t.loc[c, 'mean'], d) for c in tied], limit=LISTED)} "
                  f"({better} is better).")
    return (f"Over {n} data sets, {lead} (1 = best, {k} = worst; the mean of the ranks 1 to {k}, "
            f"{(k + 1) / 2:g}, is each classifier's expected average rank if they all perform alike){rest}. {scores}")


def _friedman_sentence(fs: FriedmanSection) -> str:
    fr = fs.result
    f_text = "infinite" if math.isinf(fr.iman_davenport) else f"{fr.iman_davenport:.2f}"
    a = fs.alpha  # every p-value of the sentence is read against the verdict's level: printed on its side of it
    iman = f"Iman–Davenport F = {f_text} ({fr.f_df[0]} and {fr.f_df[1]} df), {format_p(fr.f_pvalue, alpha=a)}"
    chi = f"Friedman's chi-square = {fr.statistic:.2f} ({fr.df} df), {format_p(fr.pvalue, alpha=a)}"
    if fs.sign_test:
        tests = (f"with 2 classifiers this is the one pair's question, and the verdict uses the exact sign "
                 f"test that the pair's mean-rank verdict takes too, tied data sets dropped (the exact law of "
                 f"Friedman's statistic given the ties): {format_p(fs.exact_pvalue, exact=True, alpha=a)}; the large-sample forms are "
                 f"not quoted for the verdict ({chi}; {iman}; the F approximation breaks down as W nears 1, "
                 f"F = (N - 1) W / (1 - W), infinite at W = 1)")
    elif fs.decided_by == "exact":
        given = (" given the ties (each data set's own ranks, ties included, permuted across the classifiers)"
                 if fs.tied else "")
        tests = (f"the exact permutation test of Friedman's statistic{given} gives "
                 f"{format_p(fs.exact_pvalue, exact=True, alpha=a)} ({chi}; {iman})")
    elif fs.decided_by == "monte-carlo":
        given = " given the ties" if fs.tied else ""
        tests = (f"with N = {fr.n} data sets the verdict uses the permutation law of each data set's own ranks"
                 f"{', ties included,' if fs.tied else ''} rather than the F approximation, and that law is too "
                 f"large to enumerate here, so the Monte Carlo permutation test of Friedman's statistic{given} "
                 f"gives {fs.monte_carlo_text} ({chi}; {iman})")
    else:
        tests = f"{iman} ({chi})"
    verdict = ("the classifiers do not all perform alike" if fs.reject else
               "the classifiers are not shown to differ")
    return (f"Kendall's W, the concordance of the data sets' rankings, is {fs.kendall_w:.3f} (W = 1: every data "
            f"set ranks the classifiers in the same order; W = 0: the average ranks are all equal); "
            f"{tests}: {verdict} at alpha = {fs.alpha:g}.")


#: What the normal approximation beside a Wilcoxon rejection is, and how it differs from Demšar's.
NORMAL_FORM = ("The normal approximation drops zero differences, as the exact test does, takes the variance "
               "from the ranks as given (tie-corrected) and uses no continuity correction; Demšar's 2006 large-sample z instead splits each zero difference's rank between the "
               "two signs.")


def _wilcoxon_sentence(ph: PosthocSection) -> str:
    """Wilcoxon–Holm's verdicts, the version of the test named from what was run
    (:func:`~evallib.report._datasets_sections.wilcoxon_variant`)."""
    t = ph.pairs
    wil = t[t["wilcoxon_reject"]]
    normal = [("wilcoxon_normal_pvalue_adj" in t and r.wilcoxon_normal_pvalue_adj > ph.alpha) for r in wil.itertuples()]
    found = [f"{escape(r.a)} vs {escape(r.b)}, "
             f"{format_adjusted_p(r.wilcoxon_pvalue_adj, 'Holm', exact=r.wilcoxon_method == 'exact', alpha=ph.alpha)}"
             + (f", or {format_adjusted_p(r.wilcoxon_normal_pvalue_adj, 'Holm', alpha=ph.alpha)} with the normal "
                "approximation "
                "of the same statistic" if late else "")
             for r, late in zip(wil.itertuples(), normal)]
    shown = found[:LISTED] + ([f"{len(found) - LISTED} more"] if len(found) > LISTED else [])
    return (f"Wilcoxon's signed-rank test ({escape(wilcoxon_variant(t))}) with Holm's adjustment finds "
            + (f"{plural(len(wil), 'pair')} that {'differs' if len(wil) == 1 else 'differ'}: {'; '.join(shown)}"
               + (". " + NORMAL_FORM[:-1] if any(normal[:LISTED]) else "")
               if found else ("no pair that differs: none of the "
                              f"{plural(len(t), 'pair')} is shown to differ" if len(t) > 1 else
                              "that the one pair is not shown to differ")))


def _posthoc_sentence(ph: PosthocSection, friedman: FriedmanSection | None = None) -> str:
    if ph.verdict == "wilcoxon":
        head = _wilcoxon_sentence(ph)
        second = _mean_rank_sentence(ph)
    else:
        head = _mean_rank_sentence(ph)
        second = _wilcoxon_sentence(ph)
    if ph.friedman_rejects:
        note = ""
    elif friedman is None:
        note = " Friedman's test did not reject, so read these comparisons as descriptive."
    else:  # name section 2's deciding test and its p
        note = (f" Section 2's test, {friedman.deciding_test}, did not reject "
                f"({format_p(friedman.pvalue, exact=friedman.decided_by == 'exact', alpha=friedman.alpha)}), so read "
                "these comparisons "
                "as descriptive.")
    default = " (the default)" if ph.verdict == "mean-ranks" else ""
    if ph.verdict == "mean-ranks" and ph.pairs.attrs.get("exact_two") is not None:
        # with 2 classifiers the exact sign test, not adjust's z test, decides the mean-rank family
        source = (f"the exact sign test of the pair, which with 2 classifiers decides the mean-rank family "
                  f"(in place of {METHOD_NAMES[ph.adjust]}'s z test) set by the report's option "
                  f"--verdict {ph.verdict}{default} before it ran")
    else:
        source = (f"{ph.verdict_name} (the {ph.verdict_words}), the family set by the report's option "
                  f"--verdict {ph.verdict}{default} before it ran")
    return (f"The pairs' verdict comes from {source}: {head}. "
            f"Secondary, shown beside it and not a second chance to differ: {ph.secondary_name} (the "
            f"{ph.secondary_words}): {second}.{note}")


def _exact_two_sentence(ph: PosthocSection, exact_two: float) -> str:
    """With 2 classifiers: the exact sign test's p and verdict first; the mean-rank z test's p only as
    the normal approximation the report does not use."""
    t = ph.pairs
    top = t.iloc[0]
    verdict = (f"{escape(top['a'])} and {escape(top['b'])} differ" if exact_two <= ph.alpha else
               f"{escape(top['a'])} and {escape(top['b'])} are not shown to differ")
    # under --verdict wilcoxon this family is the secondary reading: Wilcoxon's test decides the pair
    role = ("the mean-rank family tests the one pair by" if ph.verdict == "wilcoxon"
            else "the one pair is decided by")
    return (f"with 2 classifiers {role} the exact sign test (tied data sets dropped): "
            f"{format_p(exact_two, exact=True, alpha=ph.alpha)}, so {verdict} at alpha = {ph.alpha:g}; the mean-rank z test "
            f"of {METHOD_NAMES[ph.adjust]}'s procedure (rank difference {float(top['rank_difference']):.3f}) gives "
            f"{format_p(float(top['pvalue']), alpha=ph.alpha)}, its normal approximation, which the report does not use because "
            f"with 2 classifiers the exact law of the statistic is the sign test's and is computed exactly")


def _mean_rank_sentence(ph: PosthocSection) -> str:
    t = ph.pairs
    exact_two = t.attrs.get("exact_two")
    if exact_two is not None:
        return _exact_two_sentence(ph, exact_two)
    name = METHOD_NAMES[ph.adjust]
    m = len(t)
    hits = t[t["reject"]]
    if len(hits):
        named = [f"{escape(r.a)} vs {escape(r.b)} (rank difference {r.rank_difference:.3f}, "
                 f"adjusted {format_p(r.pvalue_adj, alpha=ph.alpha)})" for r in hits.itertuples()]
        head = (f"{name}'s procedure over the {plural(m, 'pair')} finds {len(hits)} that "
                f"{'differs' if len(hits) == 1 else 'differ'} at alpha = "
                f"{ph.alpha:g}: {join_names(named, limit=LISTED)}")
    else:
        top = t.iloc[0]
        cd = (f", {'below' if float(top['rank_difference']) < ph.cd.cd else 'not below'} the critical "
              f"difference {ph.cd.cd:.3f}" if ph.adjust == "nemenyi" else "")
        largest = tie_groups(zip(range(m), t["rank_difference"].astype(float)))[0]  # pairs sharing it
        between = join_names([f"between {escape(t.iloc[i]['a'])} and {escape(t.iloc[i]['b'])}" for i in largest],
                             limit=LISTED)
        has = (f"has adjusted {format_p(top['pvalue_adj'], alpha=ph.alpha)}" if len(largest) == 1 else
               f"shared by {len(largest)} pairs, has adjusted "
               f"{join_names(sorted({format_p(t.iloc[i]['pvalue_adj'], alpha=ph.alpha) for i in largest}))}")
        head = (f"{name}'s procedure over the {plural(m, 'pair')} finds none that differs at alpha = {ph.alpha:g}; "
                f"the largest rank difference, {top['rank_difference']:.3f} {between}{cd}, {has}")
    return head


def _control_sentence(ph: PosthocSection) -> str:
    t = ph.control_table
    name = METHOD_NAMES[ph.control_adjust]
    exact_two = ph.pairs.attrs.get("exact_two")
    if exact_two is not None:
        r = t.iloc[0]
        said = ("differs from it" if exact_two <= ph.alpha else "is not shown to differ from it")
        return (f"Against the control {_b(ph.control)} (average rank {r.rank_a:.3f}; alpha = {ph.alpha:g}): with 2 "
                f"classifiers the exact sign test decides (tied data sets dropped), "
                f"{format_p(exact_two, exact=True, alpha=ph.alpha)}, so {escape(r.b)} {said}; {name}'s z test gives "
                f"{format_p(r.pvalue_adj, alpha=ph.alpha)}, its normal "
                f"approximation, which the report does not use because the exact test is available; "
                f"{CONTROL_TWO}. "
                + _capital_ours(ph.disagreement_text(name=escape, explain=False)) + ".")
    differ = [f"{escape(r.b)} (rank {r.rank_b:.3f}, {'ahead of' if r.rank_b < r.rank_a else 'behind'} it; "
              f"adjusted {format_p(r.pvalue_adj, alpha=ph.alpha)})" for r in t.itertuples() if r.reject]
    same = [f"{escape(r.b)} (adjusted {format_p(r.pvalue_adj, alpha=ph.alpha)})" for r in t.itertuples() if not r.reject]
    parts = []
    if differ:
        parts.append(f"{join_names(differ, limit=LISTED)} {'differs' if len(differ) == 1 else 'differ'} from it")
    if same:
        parts.append(f"{join_names(same, limit=LISTED)} {'is' if len(same) == 1 else 'are'} not shown to differ")
    return (f"Against the control {_b(ph.control)} (average rank {t['rank_a'].iloc[0]:.3f}; {name}'s procedure, "
            f"alpha = {ph.alpha:g}): " + "; ".join(parts) + f". These comparisons hold only if {CONTROL_CAVEAT}"
            + (f"; {ph.control_rank_text(name=escape)}" if ph.control_rank_text() else "") + ". "
            + _capital_ours(ph.disagreement_text(name=escape, explain=False)) + ".")


def _capital_ours(sentence: str) -> str:
    """``sentence`` with its first letter upper-cased: only for the report's own words (a sentence
    that starts with a user-given name is restructured instead, never capitalised)."""
    return sentence[:1].upper() + sentence[1:]


def _bayes_reconciled(bayes: TopTwoBayes, alpha: float, two: bool) -> str:
    """When the posterior decides a difference that the pair's exact frequentist tests cannot reach
    at ``alpha`` by construction (``2 * 0.5**m > alpha`` for ``m`` non-zero differences), the
    sentence that says why the two are no contradiction; else ``""``."""
    m = bayes.wins + bayes.losses
    smallest = smallest_sign_test_p(m)
    if bayes.decision not in ("best", "second") or smallest <= alpha:
        return ""
    tests = ("neither the exact sign test, which decides section 2, nor Wilcoxon's signed-rank test" if two else
             "Wilcoxon's signed-rank test")
    verb = "can" if two else "cannot"
    return (f" With {plural(m, 'non-zero difference')} {tests} of this pair {verb} reach p <= {alpha:g} "
            f"(the smallest two-sided p-value is "
            f"{'1' if m == 0 else f'min(1, 2 × 0.5^{m}) = {smallest:g}'}), so they say 'not shown to differ' "
            "whatever the scores; the Bayesian signed-rank test answers a different question, the posterior "
            "probability under its prior that the difference lies beyond the ROPE, so a decisive posterior beside "
            "'not shown to differ' is not a contradiction.")




def _prior_pull(bayes: TopTwoBayes) -> str:
    """What the decided probability (with no decision, the largest) rests on with fewer than
    :data:`SMALL_N` data sets, and the direction of the prior's pull, computed: the same posterior
    draws without the prior's pseudo-observation at 0
    (:attr:`evallib.manydatasets.SignedRankResult.without_prior`)."""
    r = bayes.result
    region = bayes.decision
    if region is None:
        probs = {"best": bayes.p_best, "equivalent": bayes.p_equivalent, "second": bayes.p_second}
        region = max(probs, key=probs.get)
    n = r.n
    rests = (f"the posterior rests on the {plural(n, 'difference')} of these data sets and the prior's "
             f"pseudo-observation at 0 (weight {r.prior:g}, against 1 for each data set)")
    if not r.without_prior:
        return rests
    name = {"best": f"{escape(bayes.best)} practically better", "equivalent": "practically equivalent",
            "second": f"{escape(bayes.second)} practically better"}[region]
    with_p = {"best": bayes.p_best, "equivalent": bayes.p_equivalent, "second": bayes.p_second}[region]
    left, rope, right = r.without_prior  # x = second, y = best
    without = {"best": right, "equivalent": rope, "second": left}[region]
    shown, shown_without = bayes.prob_text(with_p), bayes.prob_text(without)
    # what the probability is of, by name: "this reading" after "the data do not decide" names nothing
    target = {"best": f"{escape(bayes.best)} being practically better", "equivalent": "equivalence",
              "second": f"{escape(bayes.second)} being practically better"}[region]
    if shown == shown_without:
        pull = "so at this precision the prior does not move it"
    elif without > with_p:
        pull = (f"so the prior pulls away from {target}, not toward it" if bayes.decision is not None else
                f"so the prior's pseudo-observation is what holds it at or below {DECISION_LEVEL:g}"
                if without > DECISION_LEVEL else
                f"so the prior pulls it down, away from {target}, though not across the level")
    else:
        pull = f"so the prior pulls toward {target}"
    return (f"{rests}; on the same draws without that pseudo-observation P({name}) {shown_without} "
            f"(against {shown.removeprefix('= ')} with it), {pull}")


def _bayes_sentence(bayes: TopTwoBayes, alpha: float | None = None, two: bool = False) -> str:
    n = bayes.result.n
    tie = f"; {escape(bayes.tie)}" if bayes.tie else ""  # the clause may start with a user's name: not capitalised
    head = (f"The Bayesian signed-rank test compares the leading pair picked from the data, the two best average "
            f"ranks{tie}: {bayes.selection_text}" if bayes.picked else
            "The Bayesian signed-rank test compares the two classifiers, the table's only pair")
    ahead = (f"Against {_b(bayes.second)}, {_b(bayes.best)} wins {bayes.wins}, loses {bayes.losses}, ties "
             f"{bayes.ties}; its mean advantage over all {n} data sets is "
             f"{signed(bayes.mean_advantage, bayes.decimals)} (median "
             f"{signed(bayes.median_advantage, bayes.decimals)}; positive when {escape(bayes.best)} is the better, "
             "whichever way the scores run)")
    edge = f" {_capital_ours(escape(bayes.edge_text))}." if bayes.on_edge else ""
    probs = (f"counting a mean of two differences within ±{bayes.rope:g} as practical equivalence, and one "
             f"exactly at ±{bayes.rope:g} as half inside the ROPE and half beyond it (Benavoli et al. 2017, "
             f"as baycomp does), the test "
             f"gives P({escape(bayes.best)} practically better) {bayes.prob_text(bayes.p_best)}, P(practically equivalent) "
             f"{bayes.prob_text(bayes.p_equivalent)}, P({escape(bayes.second)} practically better) "
             f"{bayes.prob_text(bayes.p_second)} "
             f"(Monte Carlo standard error of each at most {bayes.mc_bound_text}, from "
             f"{bayes.result.n_resamples:,} posterior draws: {bayes.mc_bound_words})")
    over = f"the posterior under the test's prior puts more than {DECISION_LEVEL:g} on "
    decision = {
        "best": over + f"{escape(bayes.best)} being practically better",
        "equivalent": over + "the two being practically equivalent",
        "second": over + f"{escape(bayes.second)} being practically better",
        None: f"no probability exceeds {DECISION_LEVEL:g}, so the data do not decide",
    }[bayes.decision]
    if bayes.decision is None and n < SMALL_N:
        decision += (f"; with {plural(n, 'data set')} (fewer than {SMALL_N}, this report's rule, not part of "
                     f"Benavoli et al.'s method) no probability would be read as a decision about new data sets "
                     "anyway: " + _prior_pull(bayes))
    if bayes.decision is not None and n < SMALL_N:
        decision += (f"; with {plural(n, 'data set')} (fewer than {SMALL_N}, this report's rule, not part of "
                     f"Benavoli et al.'s method) a probability above "
                     f"{DECISION_LEVEL:g} describes these data sets and is not a decision about new ones: "
                     + _prior_pull(bayes))
    return (f"{head}. {ahead}; {probs}: {decision} (Wilcoxon's test on the same pair, which ignores the ROPE: "
            f"unadjusted {format_p(bayes.result.pvalue, exact=True)}).{edge}"
            + ("" if alpha is None else _bayes_reconciled(bayes, alpha, two)))


def results_summary(
    results: Results, *, overview: ResultsOverview, friedman: FriedmanSection, posthoc: PosthocSection,
    bayes: Any = None,
) -> str:
    """The findings in plain sentences, one bullet per question, effect sizes before p-values.

    The questions: which classifier ranks best and by how much (average ranks, mean score);
    do the classifiers differ at all (Kendall's W, then Friedman and Iman–Davenport); which
    pairs differ (the all-pairs procedure and Wilcoxon–Holm); how the others compare with
    the control, when one is named; whether the top two differ by more than the ROPE
    (Bayesian signed-rank test); and what all of this assumes.

    Parameters
    ----------
    results : Results
    overview, friedman, posthoc : sections 1-3
    bayes : TopTwoBayes, Skipped or None
        Section 4 (left out unless a TopTwoBayes).

    Returns
    -------
    str
        Markdown bullet points; every name from the file is escaped (:func:`~evallib.report._prose.escape`).

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
       *JMLR* 7, 1-30.
    .. [2] Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a change.
       *JMLR* 18(77), 1-36.
    """
    out = [_ranking_sentence(results, overview), _friedman_sentence(friedman), _posthoc_sentence(posthoc, friedman)]
    if posthoc.control is not None:
        out.append(_control_sentence(posthoc))
    if isinstance(bayes, TopTwoBayes):
        out.append(_bayes_sentence(bayes, friedman.alpha, results.n_classifiers == 2))
    elif isinstance(bayes, Skipped):
        out.append("Section 4, the Bayesian test of whether the two best differ by more than the smallest "
                   f"difference that matters, was skipped (it needs --rope here): {escape(bayes.reason)}")
    out.append(f"These verdicts treat the {results.n_datasets} data sets as independent draws from the problems "
               "they are meant for, and Friedman's test and the mean-rank tests count a small win like a large "
               "one (section 5).")
    return "\n".join(f"- {s}" for s in out)


#: Escapers of 0.1.0 that live in :mod:`evallib.report._prose` now (DeprecationWarning until 0.3.0).
__getattr__ = moved_names(__name__, {"md_escape": "evallib.report._prose:escape"})
