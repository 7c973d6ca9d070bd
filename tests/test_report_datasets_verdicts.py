"""The many-data-sets report read cold: one verdict per pair, picked pairs said to be picked,
Monte Carlo bounds rounded up, published numbers placed, user names left as written.

References come from outside the report's code: average ranks from ``scipy.stats.rankdata``,
Holm's step-down over the control's z tests from ``statsmodels``' ``multipletests``, Nemenyi's
critical difference from ``scipy.stats.studentized_range``, Iman and Davenport's F from its
formula on Demšar's printed chi-square, and the posterior's Monte Carlo bound from
``0.5 / sqrt(draws)`` rounded up by hand.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from evallib.report._datasets_inputs import load_results
from evallib.report._datasets_sections import (
    bayesian_top_two,
    describe_results,
    friedman_test,
    posthoc_tests,
    published_note,
)
from evallib.report._datasets_text import results_summary
from evallib.report._prose import format_p
from evallib.studies import demsar_table_6

ALPHA = 0.05


def _t6(tmp_path: Path, frame: pd.DataFrame | None = None):
    frame = demsar_table_6() if frame is None else frame
    path = tmp_path / "t6.csv"
    frame.to_csv(path)
    return load_results(path)


def _by_hand(frame: pd.DataFrame, control: str) -> tuple[set[str], set[str]]:
    """The classifiers that Holm's procedure against ``control`` and Nemenyi's over all pairs
    declare different from ``control``, from scipy and statsmodels."""
    n, k = frame.shape
    ranks = pd.DataFrame([stats.rankdata(-row) for row in np.round(frame.to_numpy(), 9)], columns=frame.columns)
    avg = ranks.mean()
    se = math.sqrt(k * (k + 1) / (6 * n))
    others = [c for c in frame.columns if c != control]
    p = [2 * stats.norm.sf(abs(avg[control] - avg[c]) / se) for c in others]
    holm = {c for c, r in zip(others, multipletests(p, alpha=ALPHA, method="holm")[0]) if r}
    cd = stats.studentized_range.ppf(1 - ALPHA, k, np.inf) / math.sqrt(2) * se
    nemenyi = {c for c in others if abs(avg[control] - avg[c]) > cd}
    return holm, nemenyi


def _summary(res, ph, bayes=None):
    return results_summary(res, overview=describe_results(res), friedman=friedman_test(res), posthoc=ph, bayes=bayes)


@pytest.mark.parametrize("control", ["C4.5", "C4.5+cf"])
def test_control_and_all_pairs_disagreements_are_named(tmp_path, control):
    res = _t6(tmp_path)
    holm, nemenyi = _by_hand(demsar_table_6(), control)
    expected = holm ^ nemenyi
    if control == "C4.5":
        assert expected  # Demšar's example: Holm finds two, Nemenyi none
    ph = posthoc_tests(res, control=control, control_adjust="holm", adjust="nemenyi")
    assert {b for b, _, _ in ph.disagreements} == expected
    assert all(c == (b in holm) and v == (b in nemenyi) for b, c, v in ph.disagreements)
    text, summary = ph.text(), _summary(res, ph)
    # the why is said once, in section 3; the summary names the disagreements and refers to it
    assert "k - 1 = 3 comparisons with the control" in text and "k(k - 1)/2 = 6 pairs" in text
    assert f"hold only if {control} was chosen before seeing the results" in text
    assert "k - 1 = 3 comparisons with the control" not in summary
    assert "section 3 says why two families can disagree" in summary
    for where in (text, summary):
        if expected:
            assert f"disagree on {len(expected)} pairs with {control}" in where
            assert all(b in where.split("disagree on", 1)[1] for b in expected)
        else:
            assert f"agree on every pair that includes {control}" in where


def test_bonferroni_dunn_cd_is_not_holms_rule(tmp_path):
    res = _t6(tmp_path)
    holm = posthoc_tests(res, control="C4.5", control_adjust="holm").text()
    assert "Bonferroni–Dunn's critical difference would be" in holm and "not the rule Holm's verdict used" in holm
    bd = posthoc_tests(res, control="C4.5", control_adjust="bonferroni-dunn").text()
    assert "not the rule" not in bd and "the rule of this verdict" in bd


@pytest.mark.parametrize("draws, bound", [(50_000, "0.0023"), (1_000, "0.016"), (40_000, "0.0025")])
def test_bayes_pair_is_said_to_be_picked_and_its_mc_bound_is_rounded_up(tmp_path, draws, bound):
    # by hand: 0.5 / sqrt(50000) = 0.002236 -> 0.0023; 0.5 / sqrt(1000) = 0.01581 -> 0.016; 0.5 / 200 = 0.0025
    assert math.ceil(0.5 / math.sqrt(draws) * 10 ** (4 if draws > 1_000 else 3)) / 10 ** (4 if draws > 1_000 else 3) \
        == float(bound)
    res = _t6(tmp_path)
    bayes = bayesian_top_two(res, n_resamples=draws, rng=0)
    text = bayes.text()
    summary = _summary(res, posthoc_tests(res), bayes)
    said = f"the bound 0.5/√{draws:,} rounded up, which holds whatever the probability"
    assert f"at most {bound}: {said}" in text
    assert f"Monte Carlo standard error of each at most {bound}, from {draws:,} posterior draws: {said}" in summary
    for where in (text, summary):
        assert "picked from the data" in where and "its advantage over the second is biased upward" in where
        assert "optimistic" not in where
        assert "unadjusted p = " in where


def test_user_names_are_not_capitalised_in_the_tie_clause(tmp_path):
    rows = [[0.9, 0.8, 0.7, 0.6], [0.9, 0.7, 0.8, 0.6]] * 4  # knn and tree have the same average rank, second
    frame = pd.DataFrame(rows, columns=["svm", "knn", "tree", "nb"],
                         index=pd.Index([f"d{i}" for i in range(8)], name="dataset"))
    res = _t6(tmp_path, frame)
    bayes = bayesian_top_two(res, n_resamples=2_000, rng=0)
    assert bayes.tie.startswith("knn and tree have the same average rank")
    summary = _summary(res, posthoc_tests(res), bayes)
    for where in (summary, bayes.text()):
        assert "knn and tree have the same average rank" in where and "in second place" in where
        assert "Knn" not in where


def test_non_rejections_read_not_shown_to_differ(tmp_path):
    # every order of three classifiers once: equal average ranks, so nothing can reject
    rows = [[3 - r for r in perm] for perm in __import__("itertools").permutations(range(3))]
    frame = pd.DataFrame(np.array(rows, dtype=float) / 10, columns=["a", "b", "c"],
                         index=pd.Index([f"d{i}" for i in range(6)], name="dataset"))
    assert stats.friedmanchisquare(*frame.to_numpy().T).pvalue > ALPHA  # scipy: Friedman does not reject
    res = _t6(tmp_path, frame)
    ph = posthoc_tests(res)
    summary = _summary(res, ph)
    assert "the classifiers are not shown to differ at alpha = 0.05" in summary
    assert "(none of the 3 is shown to differ)" not in summary and "none of the 3 pairs is shown to differ" in summary
    for banned in ("no evidence", "no difference", "are tied", "perform the same", "perform differently"):
        assert banned not in summary.split("These verdicts treat")[0]


def test_verdict_family_is_the_reports_option(tmp_path):
    res = _t6(tmp_path)
    summary = _summary(res, posthoc_tests(res, verdict="wilcoxon"))
    assert "the family set by the report's option --verdict wilcoxon before it ran" in summary
    assert "the family chosen before the report ran" not in summary
    assert "(the default)" not in summary


def test_papers_iman_davenport_f_is_placed_against_ours(tmp_path):
    res = _t6(tmp_path)
    n, k = demsar_table_6().shape
    chi2_printed = 9.28  # Demšar (2006), section 3.2.4, as printed; he prints F_F = 3.69
    ranks = demsar_table_6(ranks=True).to_numpy()
    chi2_ranks = 12 * n / (k * (k + 1)) * (np.sum(ranks.mean(axis=0) ** 2) - k * (k + 1) ** 2 / 4)  # his eq. 3
    assert round(chi2_ranks, 2) == chi2_printed
    f_paper = (n - 1) * chi2_ranks / (n * (k - 1) - chi2_ranks)
    assert round(f_paper, 2) == 3.69
    chi2_ours = stats.friedmanchisquare(*demsar_table_6().to_numpy().T).statistic
    f_ours = (n - 1) * chi2_ours / (n * (k - 1) - chi2_ours)
    note = published_note(res)
    assert f"The paper's Iman–Davenport F = {f_paper:.2f}" in note and f"({k - 1} and {(k - 1) * (n - 1)} df)" in note
    assert f"the report's F is {f_ours:.2f} from the tie-corrected chi-square" in note
    assert "larger than the paper's" in note and f_ours > f_paper
    # the table has ties, and the exact law given them decides: the note says so, not that the F does
    fs = friedman_test(res)
    assert fs.tied and fs.decided_by == "exact"
    assert note.endswith("the report's verdict uses neither F but the exact permutation test of Friedman's "
                         f"statistic given the ties ({format_p(fs.pvalue, exact=True)}).")
    text = friedman_test(res).text()
    assert (f"(N - 1) chi-square / (N (k - 1) - chi-square) = {f_ours:.2f}, df = (k - 1, (k - 1)(N - 1)) = "
            f"({k - 1}, {(k - 1) * (n - 1)})") in text


def test_example_control_sentence_only_for_the_example(tmp_path):
    import json

    from evallib.report._datasets_sections import example_control_note

    root = Path(__file__).resolve().parents[1]
    cells = json.loads((root / "notebooks" / "report_datasets.ipynb").read_text(encoding="utf-8"))["cells"]
    markdown = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "C4.5 is the control" not in markdown  # no static claim about whatever table is given
    t6 = _t6(tmp_path)
    note = example_control_note(t6, "C4.5")
    assert note is not None and "its variants" in note
    ranks = demsar_table_6().rank(axis=1, ascending=False).mean()
    assert ("it does rank last here" in note) == (ranks.idxmax() == "C4.5")
    assert example_control_note(t6, "C4.5+m") is None and example_control_note(t6, None) is None
    other = demsar_table_6().rename(columns={"C4.5": "C4.5", "C4.5+m": "mine"})
    assert example_control_note(_t6(tmp_path, other), "C4.5") is None


@pytest.mark.parametrize("verdict, secondary", [("mean-ranks", "Wilcoxon–Holm"), ("wilcoxon", "Nemenyi")])
def test_the_secondary_family_is_named_and_said_secondary_everywhere(tmp_path, verdict, secondary):
    from evallib.report._datasets_text import format_pairs
    res = _t6(tmp_path)
    ph = posthoc_tests(res, verdict=verdict)
    summary = _summary(res, ph)
    assert f"Secondary, shown beside it and not a second chance to differ: {secondary} (the " in summary
    lines = ph.text().splitlines()
    mean_role, wil_role = ("the verdict family", "secondary") if verdict == "mean-ranks" else ("secondary", "the verdict family")
    assert lines[0].startswith(f"all 6 pairs ({mean_role}): Nemenyi's procedure")
    assert lines[1].startswith(f"Wilcoxon–Holm ({wil_role}): Wilcoxon signed-rank test per pair")
    assert f"secondary ({ph.secondary_words})" in format_pairs(ph).columns


@pytest.mark.parametrize("posthoc", ["holm", "nemenyi", "shaffer"])
def test_verdict_and_secondary_family_each_named_by_test_and_adjustment(tmp_path, posthoc):
    """D1: with --posthoc holm --verdict wilcoxon both families use Holm's adjustment, so "Holm is secondary"
    does not say which family is meant; each is named by its test and its adjustment, in the summary, the
    procedures' text and the table's headers, and the two descriptions differ."""
    from evallib.report._datasets_text import format_pairs
    res = _t6(tmp_path)
    name = {"holm": "Holm", "nemenyi": "Nemenyi", "shaffer": "Shaffer"}[posthoc]
    mean_rank = f"mean-rank z tests with {name}'s adjustment"
    wilcoxon = "Wilcoxon signed-rank tests with Holm's adjustment"
    for verdict, (first, second) in (("wilcoxon", (wilcoxon, mean_rank)), ("mean-ranks", (mean_rank, wilcoxon))):
        ph = posthoc_tests(res, adjust=posthoc, verdict=verdict)
        summary = _summary(res, ph)
        assert f"(the {first}), the family set by the report's option --verdict {verdict}" in summary
        assert f"not a second chance to differ: {ph.secondary_name} (the {second}):" in summary
        last = [line for line in ph.text().splitlines() if line.startswith("verdict: ")][0]
        assert f"({first}); secondary, shown beside it: {ph.secondary_name} ({second})" in last
        assert f"{name} is secondary" not in ph.text()
        columns = list(format_pairs(ph).columns)
        assert f"verdict ({first})" in columns and f"secondary ({second})" in columns


def _normal_wilcoxon_holm(frame: pd.DataFrame) -> dict[frozenset, float]:
    """Wilcoxon's normal approximation per pair (zero differences dropped, no continuity correction),
    Holm-adjusted, from scipy and statsmodels."""
    pairs = [(a, b) for i, a in enumerate(frame.columns) for b in frame.columns[i + 1:]]
    p = [stats.wilcoxon(frame[a], frame[b], zero_method="wilcox", correction=False, method="approx").pvalue
         for a, b in pairs]
    return dict(zip(map(frozenset, pairs), multipletests(p, method="holm")[1]))


def test_p_values_beside_a_verdict_are_printed_on_their_side_of_alpha(tmp_path):
    """At alpha = 0.1 the Wilcoxon rejection C4.5+m+cf vs C4.5+cf has, by scipy and statsmodels, a
    normal-approximation Holm p of 0.1013, which does not reject: printed "0.10" it would read as
    rejecting (p <= alpha). At alpha = 0.17 Nemenyi's p of C4.5+m+cf vs C4.5+cf is 0.1701
    (scipy's studentized range), which does not reject either: its cell must not read 0.17."""
    from evallib.report._datasets_text import format_pairs
    t6 = demsar_table_6()
    normal = _normal_wilcoxon_holm(t6)[frozenset({"C4.5+m+cf", "C4.5+cf"})]
    assert 0.1 < normal < 0.105
    res = _t6(tmp_path)
    ph = posthoc_tests(res, alpha=0.1)
    summary = results_summary(res, overview=describe_results(res), friedman=friedman_test(res, alpha=0.1), posthoc=ph)
    said = summary.split("C4.5+m+cf vs C4.5+cf, adjusted p = ")[1]
    shown = float(said.split("or adjusted p = ")[1].split(" ")[0])
    assert shown > 0.1 and abs(shown - normal) < 0.001
    se = math.sqrt(4 * 5 / (6 * 14))
    ranks = pd.DataFrame([stats.rankdata(-row) for row in t6.to_numpy()], columns=t6.columns).mean()
    nemenyi = stats.studentized_range.sf(abs(ranks["C4.5+m+cf"] - ranks["C4.5+cf"]) / se * math.sqrt(2), 4, np.inf)
    assert 0.17 < nemenyi < 0.1705
    for alpha in (0.1, 0.17):
        table = format_pairs(posthoc_tests(res, alpha=alpha))
        verdict = [c for c in table.columns if c.startswith("verdict")][0]
        secondary = [c for c in table.columns if c.startswith("secondary")][0]
        mean_rank = [c for c in table.columns if c.startswith("adjusted p (Nemenyi")][0]
        wilcoxon = [c for c in table.columns if c.startswith("adjusted p (Holm; Wilcoxon")][0]
        for p_col, v_col in ((mean_rank, verdict), (wilcoxon, secondary)):
            for cell, said in zip(table[p_col], table[v_col]):
                assert (float(cell.lstrip("<> ")) <= alpha) == (said == "differ"), (alpha, cell, said)


def test_selection_sentence_is_true_of_how_the_pair_was_ordered(tmp_path):
    """"The best was put first because it came out ahead in average rank" is false when the two
    compared share the average rank (scipy's rankdata says so here): then the first came first by
    its mean score, or, with equal means too, by the file's column order, which picks no direction."""
    idx = pd.Index([f"d{i}" for i in range(6)], name="data set")
    tied = pd.DataFrame({c: [0.8] * 6 for c in ("A", "B", "C")}, index=idx)
    by_mean = pd.DataFrame({"A": [0.70, 0.90, 0.70, 0.90, 0.70, 0.90], "B": [0.75, 0.88, 0.75, 0.88, 0.75, 0.88],
                            "C": [0.60] * 6}, index=idx)
    for frame, first, phrase in ((tied, "A", "column order"), (by_mean, "B", "its mean score came out ahead")):
        ranks = pd.DataFrame([stats.rankdata(-row) for row in frame.to_numpy()], columns=frame.columns).mean()
        assert ranks["A"] == ranks["B"]
        res = _t6(tmp_path, frame)
        bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
        assert bayes.best == first
        summary = _summary(res, posthoc_tests(res), bayes)
        for text in (summary, bayes.text()):
            assert "came out ahead in average rank" not in text and phrase in text
    res = _t6(tmp_path)
    assert "came out ahead in average rank" in bayesian_top_two(res, n_resamples=2000, rng=0).text()


@pytest.mark.parametrize("control, place", [("C4.5", "worst"), ("C4.5+m+cf", "best"), ("C4.5+m", None)])
def test_a_control_at_the_top_or_bottom_is_said_to_be_there(tmp_path, control, place):
    """The "chosen before looking" caveat names, computed, a control that ranks first or last (scipy's
    rankdata: C4.5 3.143 is the worst, C4.5+m+cf 1.929 the best, C4.5+m 2.000 neither)."""
    t6 = demsar_table_6()
    ranks = pd.DataFrame([stats.rankdata(-row) for row in t6.to_numpy()], columns=t6.columns).mean()
    expected = "best" if ranks[control] == ranks.min() else "worst" if ranks[control] == ranks.max() else None
    assert expected == place
    res = _t6(tmp_path)
    ph = posthoc_tests(res, control=control)
    summary, text = _summary(res, ph), ph.text()
    for said in (summary, text):
        if place is None:
            assert "average rank of the 4 classifiers here" not in said
        else:
            assert f"has the {place} average rank of the 4 classifiers here ({ranks[control]:.3f})" in said


def test_demsars_printed_holm_example_is_placed_beside_the_reports(tmp_path):
    """Demšar (2006), section 3.2.4, prints z = 2.416, 2.342, 0.512 and p = 0.016, 0.019, 0.607 for
    C4.5 against C4.5+m+cf, C4.5+m and C4.5+cf; the printed AUCs (scipy's rankdata, voting shared)
    give z = 2.489, 2.342, 0.439 (p = 0.013, 0.019, 0.66), and statsmodels' Holm rejects the first
    two in both. The control's note must name both sets and say the verdicts agree."""
    from evallib.report._datasets_sections import example_control_note
    t6 = demsar_table_6()
    ranks = pd.DataFrame([stats.rankdata(-row) for row in t6.to_numpy()], columns=t6.columns).mean()
    se = math.sqrt(4 * 5 / (6 * 14))
    others = ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    z = [abs(ranks["C4.5"] - ranks[c]) / se for c in others]
    p = [2 * stats.norm.sf(v) for v in z]
    printed_p = [0.016, 0.019, 0.607]
    assert list(multipletests(p, method="holm")[0]) == list(multipletests(printed_p, method="holm")[0]) \
        == [True, True, False]
    note = example_control_note(_t6(tmp_path), "C4.5")
    assert "z = 2.416, 2.342, 0.512 and unadjusted p = 0.016, 0.019, 0.607" in note
    assert f"z = {', '.join(f'{v:.3f}' for v in z)}" in note
    assert f"p = {', '.join(format_p(v)[4:] for v in p)} here" in note
    assert "rejects the same 2 comparisons on both (C4.5+m and C4.5+m+cf)" in note


def test_a_monte_carlo_verdict_within_its_error_of_alpha_says_so(tmp_path):
    """With 10 data sets and 6 classifiers section 2's p is a Monte Carlo one (100,000 draws). At an
    alpha 0.001 from it (within 3 standard errors, sqrt(p (1 - p) / 100000) by hand) the verdict
    could go the other way with another seed, and the report must say so; at alpha = p +- 0.05 not."""
    rng = np.random.default_rng(1)
    t6 = demsar_table_6().iloc[:10]
    frame = t6.assign(X=(t6["C4.5"] + rng.normal(0, 0.02, 10)).round(3).clip(0, 1),
                      Y=(t6["C4.5+m"] + rng.normal(0, 0.02, 10)).round(3).clip(0, 1))
    res = _t6(tmp_path, frame)
    base = friedman_test(res, alpha=0.05, rng=0)
    assert base.decided_by == "monte-carlo"
    p = base.pvalue
    se = math.sqrt(p * (1 - p) / 100_000)
    assert 0.001 < 3 * se < 0.05
    for alpha, close in ((p + 0.001, True), (p - 0.001, True), (min(p + 0.05, 0.99), False)):
        fs = friedman_test(res, alpha=alpha, rng=0)
        assert ("within Monte Carlo error of the level" in fs.text()) == close
        assert ("within Monte Carlo error of the level" in _summary_at(res, fs)) == close


def _summary_at(res, fs):
    return results_summary(res, overview=describe_results(res), friedman=fs,
                           posthoc=posthoc_tests(res, alpha=fs.alpha, friedman_rejects=fs.reject))


@pytest.mark.parametrize("k", [2, 3])
def test_a_table_of_ties_says_there_is_nothing_to_rank(tmp_path, k):
    """Every score equal: no pair has a non-zero difference, so section 5 says there is nothing to rank
    (not "no pair has more than 0 non-zero differences ... tied absolute differences do not change it")."""
    from evallib.report._datasets_sections import assumptions
    frame = pd.DataFrame({c: [0.8] * 6 for c in "ABC"[:k]}, index=pd.Index([f"d{i}" for i in range(6)], name="data set"))
    assert (frame.diff(axis=1).iloc[:, 1:] == 0).all().all()
    res = _t6(tmp_path, frame)
    said = " ".join(assumptions(res, friedman_test(res)))
    assert "more than 0 non-zero" not in said and "0 non-zero differences" not in said
    assert "no non-zero difference to rank" in said and "by construction" in said
