"""The many-data-sets report with 2 classifiers: one question, one exact test.

With k = 2 "do the classifiers all perform alike?" and "does the one pair differ?" are the same
question, so section 2's verdict and the pair's verdict take the same exact sign test, tied data
sets dropped. References: ``scipy.stats.binomtest`` on the win/loss counts written by hand, and
the signed-rank test's smallest two-sided p-value ``2 / 2**n`` for ``n`` non-zero differences.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.report._datasets_inputs import load_results
from evallib.report._datasets_sections import (
    PICKED_PAIR,
    assumptions,
    bayesian_top_two,
    describe_results,
    friedman_test,
    posthoc_tests,
)
from evallib.report._datasets_text import results_summary
from evallib.report._prose import format_p

#: The cold reader's input E: 5 wins for C4.5+m, 1 data set where the two tie.
E = pd.DataFrame({"C4.5": [0.763, 0.954, 0.628, 0.882, 0.775, 0.619],
                  "C4.5+m": [0.793, 0.994, 0.678, 0.942, 0.845, 0.619]},
                 index=pd.Index(["adult (sample)", "breast cancer wisconsin", "cmc", "ionosphere",
                                 "lymphography", "rheum"], name="data set"))
#: No ties: 7 wins and 1 loss for b.
UNTIED = pd.DataFrame({"a": [0.70, 0.71, 0.72, 0.73, 0.74, 0.75, 0.76, 0.80],
                       "b": [0.75, 0.76, 0.77, 0.78, 0.79, 0.80, 0.81, 0.78]},
                      index=pd.Index([f"d{i}" for i in range(8)], name="data set"))


def _load(tmp_path: Path, frame: pd.DataFrame):
    path = tmp_path / "t.csv"
    frame.to_csv(path)
    return load_results(path)


@pytest.mark.parametrize("frame, wins, n", [(E, 5, 5), (UNTIED, 7, 8)])
def test_omnibus_and_pair_take_the_same_exact_sign_test(tmp_path, frame, wins, n):
    res = _load(tmp_path, frame)
    ref = stats.binomtest(wins, n, 0.5, alternative="two-sided").pvalue
    fs = friedman_test(res)
    assert fs.sign_test and fs.decided_by == "exact"
    assert fs.pvalue == pytest.approx(ref, rel=1e-12)
    assert fs.reject == (ref <= 0.05)
    ph = posthoc_tests(res, friedman_rejects=fs.reject)
    assert ph.pairs.attrs["exact_two"] == pytest.approx(ref, rel=1e-12)
    assert bool(ph.verdict_reject.iloc[0]) == fs.reject  # one question, one answer
    assert "exact sign test" in fs.text() and "verdict (the exact sign test" in fs.text()


def test_e_is_not_shown_to_differ_although_iman_davenport_rejects(tmp_path):
    res = _load(tmp_path, E)
    fs = friedman_test(res)
    assert fs.result.f_pvalue < 0.05 < fs.pvalue  # the approximation would have said the opposite
    summary = results_summary(res, overview=describe_results(res), friedman=fs,
                              posthoc=posthoc_tests(res, friedman_rejects=fs.reject))
    line = next(s for s in summary.splitlines() if "Kendall's W" in s)
    assert "exact sign test" in line and "not shown to differ" in line and "do not all perform alike" not in line


def test_no_picked_pair_warning_with_one_pair(tmp_path):
    res = _load(tmp_path, E)
    bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
    assert not bayes.picked and PICKED_PAIR not in bayes.text()
    fs = friedman_test(res)
    summary = results_summary(res, overview=describe_results(res), friedman=fs,
                              posthoc=posthoc_tests(res, friedman_rejects=fs.reject), bayes=bayes)
    assert "picked from the data" not in summary and "biased upward" not in summary
    three = _load(tmp_path, E.assign(c=E["C4.5"] - 0.01))
    assert PICKED_PAIR in bayesian_top_two(three, n_resamples=2000, rng=0).text()


def test_signed_rank_reachability_counts_non_zero_differences(tmp_path):
    # E: 6 data sets but 5 non-zero differences; 2 / 2**5 > 0.05 >= 2 / 2**6
    assert 2 / 2 ** 5 > 0.05 >= 2 / 2 ** 6
    res = _load(tmp_path, E)
    note = [s for s in assumptions(res) if "the exact signed-rank test of section 3 cannot reach" in s]
    assert len(note) == 1 and "5 non-zero differences" in note[0]
    untied = _load(tmp_path, UNTIED)  # 8 non-zero differences: reachable
    assert not [s for s in assumptions(untied) if "the exact signed-rank test of section 3 cannot reach" in s]


def test_one_pair_reads_in_the_singular(tmp_path):
    res = _load(tmp_path, E)
    ph = posthoc_tests(res, control="C4.5")
    text = ph.text()
    assert "= 1 comparisons" not in text and "all 1 pairs" not in text and "the 1 pair (the verdict family):" in text
    assert "smaller family can declare" not in text  # both families are one comparison
    fs = friedman_test(res)
    summary = results_summary(res, overview=describe_results(res), friedman=fs, posthoc=ph)
    assert "none of the 1 pair" not in summary and "the one pair is not shown to differ" in summary


def test_summary_record_and_mean_difference_by_hand(tmp_path):
    res = _load(tmp_path, E)
    d = E["C4.5+m"] - E["C4.5"]
    wins, losses, ties = int((d > 1e-12).sum()), int((d < -1e-12).sum()), int((d.abs() <= 1e-12).sum())
    bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
    fs = friedman_test(res)
    summary = results_summary(res, overview=describe_results(res), friedman=fs, posthoc=posthoc_tests(res),
                              bayes=bayes)
    assert (f"wins {wins}, loses {losses}, ties {ties}; its mean advantage over all 6 data sets is "
            f"{d.mean():+.4f}") in summary
    assert "Friedman's test and the mean-rank tests count a small win like a large one" in summary


def test_summary_says_when_the_bayesian_section_is_skipped(tmp_path):
    res = _load(tmp_path, E * 100)  # percentages: no default ROPE
    bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
    summary = results_summary(res, overview=describe_results(res), friedman=friedman_test(res),
                              posthoc=posthoc_tests(res), bayes=bayes)
    line = next(s for s in summary.splitlines() if "Section 4" in s)
    assert "skipped" in line and "--rope" in line


def test_diagram_note_says_the_sign_test_decided(tmp_path):
    res = _load(tmp_path, E)
    ph = posthoc_tests(res)
    ref = stats.binomtest(5, 5, 0.5).pvalue  # 0.0625 > 0.05: joined
    note = ph.diagram_note
    assert "exact sign test" in note and "the line joins them" in note and ref > 0.05
    assert f"rank difference {5 / 6:.3f}" in note  # by hand: 5 data sets 1 apart, 1 tied
    assert posthoc_tests(_load(tmp_path, E.assign(c=E["C4.5"]))).diagram_note == ""


def test_edge_range_verdict_at_both_ends(tmp_path):
    from evallib._resources import data_path
    bayes = bayesian_top_two(load_results(data_path("example_results.csv")), rng=0)
    assert bayes.on_edge
    ends = [next((w for w, p in zip(("best", "equivalent", "second"), probs) if p > 0.95), None)
            for probs in bayes.edge_range]
    same = ends[0] == ends[1]
    assert ("the verdict is the same at both ends" in bayes.edge_text) == same
    assert ("the verdict depends on it" in bayes.edge_text) == (not same)


# ------------------------------------------- what the deciding test can reach at all (rep-ds6)
#: 8 wins of b and no tie: the exact sign test can reject (2 * 0.5**8 = 0.0078 <= 0.05).
EIGHT = pd.DataFrame({"a": [0.70, 0.71, 0.72, 0.73, 0.74, 0.75, 0.76, 0.77],
                      "b": [0.75, 0.77, 0.79, 0.81, 0.83, 0.85, 0.87, 0.89]},
                     index=pd.Index([f"d{i}" for i in range(8)], name="data set"))


@pytest.mark.parametrize("m", range(0, 13))
def test_smallest_sign_test_p_is_binomtests_all_one_way_p(m):
    from evallib.report._datasets_sections import smallest_sign_test_p
    ref = 1.0 if m == 0 else stats.binomtest(m, m, 0.5, alternative="two-sided").pvalue
    assert smallest_sign_test_p(m) == pytest.approx(ref, rel=1e-12)


def test_smallest_sign_test_p_rejects_a_negative_count():
    from evallib.report._datasets_sections import smallest_sign_test_p
    with pytest.raises(ValueError, match="m"):
        smallest_sign_test_p(-1)


@pytest.mark.parametrize("k, n", [(3, 2), (3, 3), (4, 2)])
def test_smallest_exact_friedman_p_by_brute_force(k, n):
    import itertools
    import math

    import numpy as np

    from evallib.report._datasets_sections import smallest_friedman_exact_p
    orders = list(itertools.permutations(range(1, k + 1)))
    stats_all = []
    for rows in itertools.product(orders, repeat=n):
        sums = np.sum(rows, axis=0)
        stats_all.append(12.0 / (n * k * (k + 1)) * float(np.sum(sums ** 2)) - 3.0 * n * (k + 1))
    stats_all = np.array(stats_all)
    ref = float(np.mean(stats_all >= stats_all.max() - 1e-9))
    assert ref == pytest.approx(math.factorial(k) / math.factorial(k) ** n)  # by hand: one order on all n
    assert smallest_friedman_exact_p(k, n) == pytest.approx(ref, rel=1e-12)


def test_e_says_the_deciding_sign_test_cannot_reject_by_construction(tmp_path):
    res = _load(tmp_path, E)
    notes = " ".join(assumptions(res))
    smallest = stats.binomtest(5, 5, 0.5).pvalue  # 0.0625
    assert "exact sign test of the pair" in notes and "'not shown to differ' by construction too" in notes
    assert f"= {smallest:g}, above alpha = 0.05" in notes and "0.0625" in notes


def test_eight_wins_the_sign_test_can_reject_and_no_floor_sentence(tmp_path):
    res = _load(tmp_path, EIGHT)
    fs = friedman_test(res)
    assert fs.reject and fs.pvalue == pytest.approx(stats.binomtest(8, 8, 0.5).pvalue)
    notes = " ".join(assumptions(res))
    assert "by construction" not in notes


def _summary(res, rope=0.01):
    fs = friedman_test(res)
    return results_summary(res, overview=describe_results(res), friedman=fs,
                           posthoc=posthoc_tests(res, friedman_rejects=fs.reject),
                           bayes=bayesian_top_two(res, rope=rope, rng=0))


def test_decisive_posterior_beside_not_shown_to_differ_is_reconciled(tmp_path):
    res = _load(tmp_path, E)
    bayes = bayesian_top_two(res, rope=0.01, rng=0)
    assert bayes.decision == "best"  # the posterior decides ...
    assert not friedman_test(res).reject  # ... where the sign test cannot
    text = _summary(res)
    assert "is not a contradiction" in text and "answers a different question" in text
    assert "min(1, 2 × 0.5^5) = 0.0625" in text


def test_no_reconciling_sentence_when_the_sign_test_can_reject(tmp_path):
    res = _load(tmp_path, EIGHT)
    assert bayesian_top_two(res, rope=0.01, rng=0).decision == "best"
    text = _summary(res)
    assert "is not a contradiction" not in text


def test_an_exact_0_0625_is_never_printed_as_0_062(tmp_path):
    import re
    res = _load(tmp_path, E)
    fs = friedman_test(res)
    ph = posthoc_tests(res, control="C4.5", friedman_rejects=fs.reject)
    texts = [fs.text(), _summary(res), ph.diagram_note, " ".join(assumptions(res))]
    for text in texts:
        assert not re.search(r"0\.062(?!5)", text), text
    assert "p = 0.0625" in fs.text() and "p = 0.0625" in ph.diagram_note


def test_k2_disagreement_note_names_the_two_procedures(tmp_path):
    res = _load(tmp_path, E)
    text = posthoc_tests(res, control="C4.5", verdict="wilcoxon").disagreement_text()
    assert "the exact sign test" in text and "Wilcoxon's signed-rank test" in text
    assert "counts only the signs" in text and "ranks their sizes" in text
    assert "different procedures can still disagree" not in text


# ------------------------------------------- k = 2: the exact sign test leads (rep-ds7)
#: 8 wins of b, no loss, 10 ties: the exact sign test rejects (2 * 0.5**8), the z test (ties counted) does not.
TIED = pd.DataFrame({"a": [0.70 + 0.01 * i for i in range(8)] + [0.5] * 10,
                     "b": [0.75 + 0.01 * i for i in range(8)] + [0.5] * 10},
                    index=pd.Index([f"d{i}" for i in range(18)], name="data set"))


def test_k2_pair_sentence_leads_with_the_exact_p_and_its_verdict(tmp_path):
    res = _load(tmp_path, E)
    ref = stats.binomtest(5, 5, 0.5).pvalue  # 0.0625
    z = 2 * stats.norm.sf((5 / 6) / (1 / 6) ** 0.5)  # rank difference 5/6, se sqrt(2 * 3 / (6 * 6)): 0.041
    fs = friedman_test(res)
    summary = _summary(res)
    line = next(s for s in summary.splitlines() if "pairs' verdict" in s)
    assert "finds none that differs" not in line
    assert f"exact sign test (tied data sets dropped): p = {ref:g}, so C4.5+m and C4.5 are not shown to differ" in line
    assert f"gives p = {z:.3f}, its normal approximation, which the report does not use" in line
    assert line.index(f"{ref:g}") < line.index(f"{z:.3f}")
    ph = posthoc_tests(res, control="C4.5", friedman_rejects=fs.reject)
    ctrl = next(s for s in results_summary(res, overview=describe_results(res), friedman=fs,
                                           posthoc=ph).splitlines() if "Against the control" in s)
    assert f"p = {ref:g}, so C4.5+m is not shown to differ from it" in ctrl
    assert ctrl.index(f"{ref:g}") < ctrl.index(f"{z:.3f}") and "does not use" in ctrl


def test_k2_exact_sign_test_alone_decides_the_pair(tmp_path):
    res = _load(tmp_path, TIED)
    ref = stats.binomtest(8, 8, 0.5).pvalue
    z = 2 * stats.norm.sf((8 / 18) / (1 / 18) ** 0.5)
    assert ref <= 0.05 < z  # by hand: the z test (ties counted in N) would not reject
    fs = friedman_test(res)
    ph = posthoc_tests(res, control="a", friedman_rejects=fs.reject)
    assert fs.reject and bool(ph.verdict_reject.iloc[0]) and bool(ph.control_table["reject"].iloc[0])
    assert "so b and a differ at alpha = 0.05" in _summary(res)


def test_small_n_posterior_is_described_not_decided(tmp_path):
    res = _load(tmp_path, E)  # 6 data sets, 5 differences beyond the ROPE of 0.01, one tie
    d = E["C4.5+m"] - E["C4.5"]
    assert len(d) < 10 and ((d.abs() > 0.01) | (d == 0)).all()
    text = _summary(res)
    assert "C4.5+m is practically better" not in text
    assert "the posterior under the test's prior puts more than 0.95 on C4.5+m being practically better" in text
    assert ("with 6 data sets (fewer than 10, this report's rule, not part of Benavoli et al.'s method) a probability above 0.95 describes these data sets and is not a "
            "decision about new ones: the posterior rests on the 6 differences of these data sets and the prior's "
            "pseudo-observation at 0 (weight 0.5, against 1 for each data set)") in text
    assert "the prior carries much of it" not in text and "all but automatic" not in text
    big = _load(tmp_path, pd.concat([E.assign(k=i) for i in range(2)]).reset_index(drop=True)
                .rename_axis("data set").drop(columns="k").rename(index=lambda i: f"d{i}"))
    assert "is not a decision about new ones" not in _summary(big)  # 12 data sets


def _reference_pull(frame, rope, region):
    """The prior's pull by an independent run: the same test with prior 0 (baycomp's ``prior`` is the
    pseudo-observation's weight; 1e-6 as 0, which its Dirichlet draws refuse) on other draws, against the
    default prior 0.5."""
    import baycomp
    x, y = frame.iloc[:, 0].to_numpy(), frame.iloc[:, 1].to_numpy()
    with_prior = baycomp.SignedRankTest.probs(x, y, rope=rope, prior=0.5, nsamples=50_000, random_state=1)
    without = baycomp.SignedRankTest.probs(x, y, rope=rope, prior=1e-6, nsamples=50_000, random_state=2)
    return without[region] - with_prior[region]


#: 6 data sets, four differences inside a ROPE of 0.01 and two just beyond: the posterior decides "equivalent".
EQUIVALENT = pd.DataFrame({"a": [0.70, 0.71, 0.72, 0.73, 0.74, 0.75],
                           "b": [0.701, 0.722, 0.719, 0.732, 0.751, 0.748]},
                          index=pd.Index([f"d{i}" for i in range(6)], name="data set"))


#: 6 data sets with larger differences than EQUIVALENT's: no probability above 0.95, "equivalent" the largest.
UNDECIDED = EQUIVALENT.assign(b=[0.703, 0.728, 0.712, 0.744, 0.757, 0.745])


@pytest.mark.parametrize("frame, region, words", [
    (E, 2, "so the prior pulls away from C4.5+m being practically better, not toward it"),
    (EQUIVALENT, 1, "so the prior pulls toward equivalence"),
    # after "the data do not decide" there is no reading to pull toward: the sentence names the region
    (UNDECIDED, 1, "so the data do not decide; "),
])
def test_small_n_sentence_computes_the_direction_of_the_priors_pull(tmp_path, frame, region, words):
    pull = _reference_pull(frame, 0.01, region)
    assert abs(pull) > 0.002  # far beyond the Monte Carlo error of the two runs (about 0.0005)
    text = _summary(_load(tmp_path, frame))
    assert words in text
    assert "this reading" not in text
    name = "equivalence" if region == 1 else f"{frame.columns[1]} being practically better"
    # the pseudo-observation at 0 lies inside the ROPE: without it P(equivalent) falls (pull < 0), and
    # the sentence says the prior pulls toward equivalence; a region it pulls away from is named too
    assert (f"pulls away from {name}" in text) == (pull > 0)
    assert (f"pulls toward {name}" in text) == (pull < 0)


def test_default_rope_is_named_in_the_scores_units(tmp_path):
    bayes = bayesian_top_two(_load(tmp_path, E), n_resamples=2000, rng=0)  # scores on [0, 1]
    assert "percentage point" not in bayes.text() and "0.01 in the scores' own units" in bayes.text()


def test_notebook_does_not_call_posterior_probabilities_effect_sizes():
    import json
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_datasets.ipynb").read_text())
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("\n", " ")
    assert "mean advantages, posterior probabilities)" not in text
    assert "and the Bayesian test's posterior probabilities come first" in text


# ------------------------------------------- k = 2: the verdict's source is named (rep-ds8)
@pytest.mark.parametrize("frame", [E, UNTIED])
def test_k2_pair_sentence_names_the_exact_sign_test_as_the_verdicts_source(tmp_path, frame):
    res = _load(tmp_path, frame)
    line = next(s for s in _summary(res).splitlines() if "pairs' verdict comes from" in s)
    assert "The pairs' verdict comes from Nemenyi," not in line
    assert "The pairs' verdict comes from the exact sign test of the pair" in line
    fs = friedman_test(res)
    three = _load(tmp_path, frame.assign(c=frame.iloc[:, 0] - 0.01))  # k = 3: Nemenyi's z test decides
    line3 = next(s for s in _summary(three).splitlines() if "pairs' verdict comes from" in s)
    assert ("The pairs' verdict comes from Nemenyi (the mean-rank z tests with Nemenyi's adjustment), the family "
            "set by") in line3
    from evallib.report._datasets_text import _posthoc_sentence
    wil = _posthoc_sentence(posthoc_tests(res, friedman_rejects=fs.reject, verdict="wilcoxon"))
    assert wil.startswith("The pairs' verdict comes from Wilcoxon–Holm (the Wilcoxon signed-rank tests with Holm's "
                          "adjustment), the family set by")


def _brute_smallest_signed_rank_p(d):
    """The exact two-sided signed-rank p of ``d`` over all 2**n sign flips (zeros dropped, tied
    absolute values at their average rank), by enumeration."""
    import itertools
    import numpy as np
    d = np.asarray([x for x in d if x != 0], dtype=float)
    r = stats.rankdata(np.abs(d))
    total = r.sum()
    t_obs = min(r[d > 0].sum(), r[d < 0].sum())
    ts = [min(s := sum(ri for ri, f in zip(r, flips) if f), total - s)
          for flips in itertools.product([0, 1], repeat=len(r))]
    return sum(t <= t_obs + 1e-9 for t in ts) / len(ts)


@pytest.mark.parametrize("frame", [E, pd.DataFrame({"a": [0.70, 0.70, 0.70, 0.70, 0.70, 0.70],
                                                    "b": [0.71, 0.71, 0.72, 0.72, 0.73, 0.70]},
                                                   index=pd.Index([f"d{i}" for i in range(6)], name="data set"))])
def test_signed_rank_floor_is_the_exact_tests_smallest_p_with_or_without_tied_ranks(tmp_path, frame):
    res = _load(tmp_path, frame)
    d = (frame.iloc[:, 1] - frame.iloc[:, 0]).round(9)
    ref = _brute_smallest_signed_rank_p(d)  # all five non-zero differences positive: the most extreme pattern
    assert ref == pytest.approx(2 / 2 ** 5)
    if d.abs().nunique() == d.abs().size:
        assert stats.wilcoxon(d[d != 0], method="exact").pvalue == pytest.approx(ref)
    note = next(s for s in assumptions(res) if "signed-rank test of section 3" in s)
    assert "no two-sided signed-rank test" not in note
    assert f"min(1, 2 × 0.5^5) = {ref:g}" in note and "cannot reach p <= 0.05" in note


# ------------------------------------------- words that say what is computed (rep-ds8)
def test_default_rope_docstrings_name_the_scores_units_not_percentage_points():
    from evallib.report._datasets_sections import default_rope
    for f in (default_rope, bayesian_top_two):
        assert "percentage point" not in f.__doc__ and "0.01 in the scores' own units" in f.__doc__


def test_ranking_sentence_names_the_mean_rank_it_computes(tmp_path):
    import itertools
    import numpy as np
    k = 3
    frame = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.6], "b": [0.8, 0.9, 0.6, 0.7], "c": [0.7, 0.7, 0.8, 0.5]},
                         index=pd.Index([f"d{i}" for i in range(4)], name="data set"))
    # a classifier's expected rank when every order of the k ranks is equally likely, by enumeration
    expected = np.mean([perm[0] for perm in itertools.permutations(range(1, k + 1))])
    text = _summary(_load(tmp_path, frame))
    assert "would average" not in text
    assert f"the mean of the ranks 1 to {k}, {expected:g}, is each classifier's expected average rank" in text


def test_descriptive_note_names_section_2s_test_and_its_p(tmp_path):
    t3 = pd.DataFrame({"A": [0.80, 0.70, 0.90], "B": [0.75, 0.66, 0.87]},
                      index=pd.Index(["d1", "d2", "d3"], name="data set"))
    ref = stats.binomtest(3, 3, 0.5).pvalue  # 0.25
    text = _summary(_load(tmp_path, t3))
    assert f"Section 2's test, the exact sign test of the pair, did not reject (p = {ref:g})" in text
    assert "Friedman's test did not reject" not in text
    # k = 3 with a tied data set (a and b on d4): the exact law given the ties decides, not the F
    tied = pd.DataFrame({"a": [0.9, 0.8, 0.7, 0.6, 0.5], "b": [0.8, 0.9, 0.6, 0.7, 0.5],
                         "c": [0.7, 0.7, 0.8, 0.8, 0.4]},
                        index=pd.Index([f"d{i}" for i in range(5)], name="data set"))
    p = _brute_conditional_p(tied.to_numpy())
    assert p > 0.05
    text = _summary(_load(tmp_path, tied))
    assert (f"Section 2's test, the exact permutation test of Friedman's statistic given the ties, did not reject "
            f"({format_p(p, exact=True)})" in text)
    # N = 11 > 10 data sets and k = 7 > 6 classifiers: no exact law, no Monte Carlo, Iman–Davenport's F decides
    # (by hand from scipy's chi-square)
    rng = np.random.default_rng(4)
    wide = pd.DataFrame(np.round(rng.random((11, 7)), 3), columns=list("abcdefg"),
                        index=pd.Index([f"d{i}" for i in range(11)], name="data set"))
    chi2 = stats.friedmanchisquare(*wide.to_numpy().T).statistic
    n, k = wide.shape
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    p = stats.f.sf(f, k - 1, (k - 1) * (n - 1))
    assert p > 0.05
    text = _summary(_load(tmp_path, wide))
    assert (f"Section 2's test, Friedman's test in Iman–Davenport's F form, did not reject (p = {p:#.2g})"
            in text)


def _brute_conditional_p(scores) -> float:
    """``P(chi2_F >= observed)`` over every distinct arrangement of each data set's own ranks (higher
    score = rank 1, ties at their average rank), the statistic by scipy's friedmanchisquare."""
    ranks = stats.rankdata(-np.asarray(scores, dtype=float), axis=1)
    observed = stats.friedmanchisquare(*ranks.T).statistic
    rows = [sorted(set(itertools.permutations(r))) for r in ranks.tolist()]
    hits = total = 0
    for table in itertools.product(*rows):
        total += 1
        hits += stats.friedmanchisquare(*np.array(table).T).statistic >= observed - 1e-9
    return hits / total


def test_bergmann_hommel_is_spelled_with_an_en_dash_in_the_notebook_and_the_page():
    import json
    root = Path(__file__).parents[1]
    nb = json.loads((root / "notebooks" / "report_datasets.ipynb").read_text())
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("\n", " ")
    assert "Bergmann and Hommel" not in text and "Bergmann–Hommel's procedures" in text
    assert '"Bergmann–Hommel"' in (root / "docs" / "conventions.md").read_text(encoding="utf-8")


def test_k2_under_the_wilcoxon_verdict_the_sign_test_is_the_secondary_reading(tmp_path):
    """With --verdict wilcoxon, Wilcoxon–Holm decides the one pair: the sign test's sentence is the
    secondary family's, never "the one pair is decided by the exact sign test". The p is scipy's
    binomtest of the wins among the non-zero differences."""
    from evallib.report._datasets_text import _posthoc_sentence

    x = [0.61, 0.72, 0.65, 0.80, 0.70, 0.66, 0.75, 0.69, 0.81, 0.77, 0.64, 0.73]
    y = [v + d for v, d in zip(x, [0.02, 0.01, -0.01, 0.03, 0.02, 0.01, 0.02, -0.02, 0.01, 0.03, 0.02, 0.01])]
    path = tmp_path / "k2.csv"
    pd.DataFrame({"dataset": [f"d{i}" for i in range(12)], "x": x, "y": [round(v, 3) for v in y]}).to_csv(path, index=False)
    res = load_results(path)
    p = stats.binomtest(10, 12).pvalue
    wil = _posthoc_sentence(posthoc_tests(res, verdict="wilcoxon"))
    assert ("Secondary, shown beside it and not a second chance to differ: the exact sign test (the exact sign "
            "test of the one pair, no adjustment for one comparison): with 2 classifiers the mean-rank "
            "family tests the one pair by the exact sign test") in wil
    assert "the one pair is decided by" not in wil and f"p = {p:.2g}" in wil
    ranks = _posthoc_sentence(posthoc_tests(res, verdict="mean-ranks"))
    assert "with 2 classifiers the one pair is decided by the exact sign test" in ranks


def test_section_4_markdown_and_summary_agree_on_when_p_above_the_level_is_a_decision():
    """Both say: P above DECISION_LEVEL is read as a decision only with at least SMALL_N data sets."""
    import json
    from evallib.report._datasets_sections import DECISION_LEVEL
    from evallib.report._datasets_text import SMALL_N
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_datasets.ipynb").read_text())
    md = next("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"
              and "".join(c["source"]).startswith("## 4.")).replace("\n", " ")
    assert (f"a probability above {DECISION_LEVEL:g} is read as a decision only with at least {SMALL_N} data "
            "sets; with fewer it describes these data sets and is not a decision about new ones") in md
    assert f"above {DECISION_LEVEL:g} is read as a decision." not in md


def test_k2_table_headers_and_titles_name_the_sign_test_and_show_its_p_first(tmp_path):
    """At k = 2 the exact sign test decides: no label, header or title names Nemenyi (or the control's
    Holm) beside the z test's 0.041; the z test's p is shown only as the unused normal approximation."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from evallib.report._datasets_sections import plot_posthoc_diagram
    from evallib.report._datasets_text import format_control, format_pairs
    res = _load(tmp_path, E)
    ref = stats.binomtest(5, 5, 0.5).pvalue  # 0.0625
    z = 2 * stats.norm.sf((5 / 6) / (1 / 6) ** 0.5)  # 0.041
    ph = posthoc_tests(res, control="C4.5", friedman_rejects=False)
    for table in (format_pairs(ph), format_control(ph)):
        headers = list(table.columns)
        assert not any("Nemenyi" in h or "Holm; mean-rank" in h for h in headers), headers
        exact = next(i for i, h in enumerate(headers) if h.startswith("p (exact sign test"))
        normal = next(i for i, h in enumerate(headers) if "normal approximation; not used" in h)
        assert exact < normal
        assert table.iloc[0, exact] == f"{ref:g}" and table.iloc[0, normal] == f"{z:.3f}"
    assert "verdict (exact sign test of the one pair, no adjustment for one comparison)" in format_pairs(ph).columns
    assert format_pairs(ph)["adjusted p (Holm; Wilcoxon signed-rank test)"].iloc[0] == f"{ref:g}"  # exact, 0.0625
    first = ph.text().splitlines()[0]
    assert first.startswith(f"the 1 pair (the verdict family): the exact sign test (tied data sets dropped), p = {ref:g}")
    assert first.index(f"{ref:g}") < first.index(f"{z:.3f}") and "not used" in first
    for against in (False, True):
        ax = plot_posthoc_diagram(ph, against_control=against)
        title = ax.get_title()
        plt.close(ax.figure)
        assert f"the exact sign test, p = {ref:g}" in title and "Nemenyi" not in title and "Holm" not in title
    three = _load(tmp_path, E.assign(c=E["C4.5"] - 0.01))
    ph3 = posthoc_tests(three)
    assert "verdict (mean-rank z tests with Nemenyi's adjustment)" in format_pairs(ph3).columns and "Nemenyi" in plot_posthoc_diagram(ph3).get_title()
    plt.close("all")


def test_k2_control_needs_no_chosen_in_advance_caveat(tmp_path):
    """With one pair the control changes nothing: the two-sided p is the same whichever is the control
    (checked by computing it both ways), so no 'chosen before looking' family language."""
    from evallib.report._datasets_sections import CONTROL_CAVEAT
    res = _load(tmp_path, E)
    one = posthoc_tests(res, control="C4.5")
    other = posthoc_tests(res, control="C4.5+m")
    assert one.pairs.attrs["exact_two"] == other.pairs.attrs["exact_two"]
    assert one.control_table["pvalue_adj"].iloc[0] == pytest.approx(other.control_table["pvalue_adj"].iloc[0])
    fs = friedman_test(res)
    summary = results_summary(res, overview=describe_results(res), friedman=fs, posthoc=one)
    for text in (summary, one.text()):
        assert CONTROL_CAVEAT not in text and "chosen before" not in text
        assert "the same p whichever of the two is the control" in text
    three = _load(tmp_path, E.assign(c=E["C4.5"] - 0.01))
    assert CONTROL_CAVEAT in posthoc_tests(three, control="C4.5").text()


def test_a_zero_mean_difference_prints_0_not_plus_0_0000(tmp_path):
    """Differences +0.02, -0.02, +0.03, -0.03 and 0.3 - (0.1 + 0.2) (-5.6e-17, a tie): by hand the mean
    and the median are 0."""
    frame = pd.DataFrame({"a": [0.51, 0.53, 0.60, 0.63, 0.3], "b": [0.53, 0.51, 0.63, 0.60, 0.1 + 0.2]},
                         index=pd.Index([f"d{i}" for i in range(5)], name="data set"))
    res = _load(tmp_path, frame)
    bayes = bayesian_top_two(res, n_resamples=2000, rng=0)
    assert (bayes.mean_advantage, bayes.median_advantage) == (0.0, 0.0)
    text = _summary(res) + bayes.text()
    assert "+0.000" not in text and "-0.000" not in text
    assert "over all 5 data sets is 0 (median 0;" in text and "mean advantage 0, median 0" in text


def test_wilcoxon_holm_rejection_prints_its_exact_p_exactly(tmp_path):
    """6 data sets, b ahead on all: Wilcoxon's exact two-sided p is 2 / 2**6 = 0.03125 by hand (Holm
    over the one pair leaves it), printed as it is in the table and the sentence, never 0.031."""
    import re
    from evallib.report._datasets_text import format_pairs
    frame = pd.DataFrame({"a": [0.70, 0.71, 0.72, 0.73, 0.74, 0.75], "b": [0.72, 0.74, 0.76, 0.78, 0.80, 0.82]},
                         index=pd.Index([f"d{i}" for i in range(6)], name="data set"))
    res = _load(tmp_path, frame)
    ph = posthoc_tests(res, verdict="wilcoxon")
    assert ph.pairs["wilcoxon_pvalue_adj"].iloc[0] == pytest.approx(2 / 2 ** 6, rel=1e-12)
    fs = friedman_test(res)
    summary = results_summary(res, overview=describe_results(res), friedman=fs, posthoc=ph)
    assert "b vs a, adjusted p = 0.03125 (Holm)" in summary and not re.search(r"0\.031(?!25)", summary)
    assert format_pairs(ph)["adjusted p (Holm; Wilcoxon signed-rank test)"].iloc[0] == "0.03125"


# ------------------------------------- cold read r8: rounding near 0 and 1, the edge sentence at small N
#: The reader's E.csv: A ahead of B by 0.025 to 0.04 on each of 6 data sets.
SIX_WINS = pd.DataFrame({"A": [0.850, 0.910, 0.720, 0.780, 0.650, 0.930],
                         "B": [0.820, 0.880, 0.690, 0.740, 0.625, 0.905]},
                        index=pd.Index([f"d{i}" for i in range(1, 7)], name="data set"))
#: The reader's three.csv: 3 data sets, 3 classifiers; 3 of the 10 pair means of A - B lie on the ROPE's edge.
THREE_ROWS = pd.DataFrame({"A": [0.810, 0.880, 0.700], "B": [0.790, 0.860, 0.690], "C": [0.770, 0.870, 0.650]},
                          index=pd.Index(["d1", "d2", "d3"], name="data set"))


def test_a_share_near_0_or_1_never_prints_beyond_an_exact_one(tmp_path):
    """The posterior share 0.99986 printed "1.000" while the exact 1 beside it printed "> 0.999", so the
    prior seemed to raise it. A share that rounds to 0.000 (1.000) without being 0 (1) prints as the
    bound too. Reference: 1 - 0.99986 = 7 of 50,000 draws, so the with-prior share is below 1."""
    res = _load(tmp_path, SIX_WINS)
    bayes = bayesian_top_two(res, rope=0.01, rng=0)
    assert 0.9995 <= bayes.p_best < 1.0 and bayes.result.without_prior[2] == 1.0
    assert [bayes.prob_text(p) for p in (0.0, 0.00014, 0.0005, 0.9994, 0.99986, 1.0)] == [
        "< 0.001", "< 0.001", "= 0.001", "= 0.999", "> 0.999", "> 0.999"]
    text = _summary(res)
    assert "= 1.000" not in text and "= 0.000" not in text
    assert ("without that pseudo-observation P(A practically better) > 0.999 (against > 0.999 with it), so at "
            "this precision the prior does not move it") in text


def test_the_edge_sentence_keeps_the_small_n_rule(tmp_path):
    """With 3 data sets the edge's range reaches 0.963 (the reader's own simulation: 0.9653): the sentence
    must not call that a verdict ("A is practically better"), as the report's rule reads a probability above
    0.95 as a decision only from SMALL_N data sets on."""
    from evallib.report._datasets_text import SMALL_N
    res = _load(tmp_path, THREE_ROWS)
    bayes = bayesian_top_two(res, rope=0.01, rng=0)
    assert bayes.result.n == 3 < SMALL_N and bayes.on_edge == 3
    (ib, _, _), (sb, _, _) = bayes.edge_range
    assert min(ib, sb) < 0.95 < max(ib, sb)
    edge = bayes.edge_text
    assert "A is practically better" not in edge and "the verdict depends" not in edge
    assert ("the reading depends on it: with the edge inside the ROPE no probability is above 0.95, with it beyond "
            "P(A practically better) is above 0.95 (with 3 data sets, fewer than 10, a probability above 0.95 "
            "describes these data sets and is not a decision)") in edge


def test_no_decision_at_small_n_says_what_holds_the_probability_down(tmp_path):
    """three.csv: A wins all 3 data sets; without the prior's pseudo-observation every pair mean of A - B
    is at or beyond the ROPE (by hand: differences 0.02, 0.02, 0.01 with rope 0.01), so P(A better) is 1 on
    every draw, and it is the pseudo-observation at 0 that holds the posterior at 0.883. The summary must say
    so, and that at N = 3 no probability would be a decision anyway (cold read r9)."""
    res = _load(tmp_path, THREE_ROWS)
    bayes = bayesian_top_two(res, rope=0.01, rng=0)
    assert bayes.decision is None and bayes.result.without_prior[2] == 1.0
    text = _summary(res)
    assert ("with 3 data sets (fewer than 10, this report's rule, not part of Benavoli et al.'s method) no "
            "probability would be read as a decision about new data sets anyway") in text
    assert (f"without that pseudo-observation P(A practically better) > 0.999 (against {bayes.p_best:.3f} with "
            "it), so the prior's pseudo-observation is what holds it at or below 0.95") in text


def test_the_triangle_labels_print_shares_by_the_reports_rule(tmp_path):
    """plot_simplex's corner labels: 0.99986 (7 of 50,000 draws short of 1) reads '> 0.999' as in the text,
    never '1.000'."""
    import matplotlib
    matplotlib.use("Agg")
    from evallib.manydatasets import plot_simplex
    bayes = bayesian_top_two(_load(tmp_path, SIX_WINS), rope=0.01, rng=0)
    ax = plot_simplex(bayes.result, names=("B", "A"))
    labels = [t.get_text() for t in ax.texts]
    assert "A practically better\n> 0.999" in labels and "practically equivalent (ROPE)\n< 0.001" in labels
    assert not any("1.000" in t or "0.000" in t for t in labels)


def test_one_spelling_of_the_three_regions_in_the_text_and_the_triangle(tmp_path):
    """'P(equivalent)' in the summary and edge sentence beside 'P(practically equivalent)' in section 4 and
    'equivalent (ROPE)' in the triangle: the regions are spelled one way, "practically equivalent" and
    "X practically better", wherever they are printed."""
    import re

    import matplotlib
    matplotlib.use("Agg")
    from evallib.manydatasets import plot_simplex
    for frame in (EQUIVALENT, UNDECIDED, SIX_WINS):
        res = _load(tmp_path, frame)
        bayes = bayesian_top_two(res, rope=0.01, rng=0)
        texts = [_summary(res), bayes.text(), bayes.edge_text]
        for text in texts:
            assert "P(equivalent)" not in text
            assert not re.search(r"P\([^)]* better\)", text.replace("practically better)", ""))
        assert "P(practically equivalent)" in texts[0] and "P(practically equivalent)" in texts[1]
        labels = [t.get_text() for t in plot_simplex(bayes.result, names=(bayes.second, bayes.best)).texts]
        assert any(t.startswith("practically equivalent (ROPE)\n") for t in labels)
        assert any(t.startswith(f"{bayes.best} practically better\n") for t in labels)
        assert not any(re.match(r"(equivalent|.* (?<!practically )better)\n", t) for t in labels)


def test_lower_is_better_mean_advantage_is_named_so(tmp_path):
    """Cold read r10 (err25.csv): on an error table "its mean difference is +0.0062" read as the better one's
    error minus the other's; it is the advantage (the other's error minus its own), and says so."""
    errors = pd.DataFrame({"good": [0.10, 0.12, 0.15, 0.20, 0.11, 0.13, 0.16, 0.18],
                           "bad": [0.12, 0.15, 0.16, 0.24, 0.12, 0.16, 0.20, 0.19]},
                          index=pd.Index([f"d{i}" for i in range(8)], name="data set"))
    path = tmp_path / "err.csv"
    errors.to_csv(path)
    res = load_results(path, higher_is_better=False)
    text = _summary(res)
    adv = (errors["bad"] - errors["good"]).mean()   # by hand: good's error is lower by this much
    assert adv > 0 and f"its mean advantage over all 8 data sets is {adv:+.3f}" in text   # 2-decimal scores: 3
    assert "positive when good is the better, whichever way the scores run" in text
    assert "its mean difference" not in text


def test_the_edge_range_prints_shares_by_the_one_rule():
    """Cold read r10 (ties22.csv): the edge range printed 0.0001 as "0.000" and 0.9999 as "1.000"."""
    from types import SimpleNamespace

    from evallib.report._datasets_sections import TopTwoBayes
    fake = SimpleNamespace(on_edge=57, pair_means=276, rope=0.01, best="D", second="A",
                           edge_range=((0.0001, 0.9999, 0.0), (0.02332, 0.97666, 2e-05)),
                           result=SimpleNamespace(n=22, n_resamples=50_000), _decision_of=TopTwoBayes._decision_of)
    fake._share = lambda p: TopTwoBayes._share(fake, p)
    fake.prob_text = lambda p: TopTwoBayes.prob_text(fake, p)
    edge = TopTwoBayes.edge_text.fget(fake)
    assert "ranges from < 0.001 to 0.023 and P(practically equivalent) from 0.977 to > 0.999" in edge
    assert "0.000" not in edge and "1.000" not in edge


def test_one_tie_keeps_the_exact_friedman_test_conditional_on_it(tmp_path):
    """k = 3, N = 3, one data set tying two classifiers: the exact permutation law given the tie
    (3! x 3! x 3 = 108 tables, enumerated here) decides section 2, as the exact law does without
    ties, and the floor sentence of section 5 reads that law's smallest p-value."""
    from evallib.report._datasets_sections import smallest_friedman_exact_p
    t = pd.DataFrame({"A": [0.9, 0.8, 0.9], "B": [0.8, 0.8, 0.7], "C": [0.7, 0.6, 0.8]},
                     index=pd.Index(["d1", "d2", "d3"], name="data set"))
    res = _load(tmp_path, t)
    fs = friedman_test(res)
    p = _brute_conditional_p(t.to_numpy())
    assert fs.tied and fs.decided_by == "exact"
    assert fs.exact_pvalue == pytest.approx(p, rel=1e-12)
    assert f"exact permutation test of Friedman's statistic given the ties" in fs.text()
    # the smallest p-value given the tie, by enumeration: the share of tables at the largest statistic
    ranks = stats.rankdata(-t.to_numpy(), axis=1)
    tables = list(itertools.product(*[sorted(set(itertools.permutations(r))) for r in ranks.tolist()]))
    assert len(tables) == 6 * 6 * 3
    values = np.array([stats.friedmanchisquare(*np.array(x).T).statistic for x in tables])
    smallest = float(np.mean(values >= values.max() - 1e-9))
    assert smallest_friedman_exact_p(3, 3, ranks) == pytest.approx(smallest, rel=1e-12)
    floor = [s for s in assumptions(res, fs) if s.startswith("The verdict of section 2 rests on")]
    assert floor and f"is {format_p(smallest, exact=True)[4:]}, above alpha = 0.05" in floor[0]
    assert "given the ties" in floor[0]
    # without the tie the same law is the untied one: the report's exact p by enumeration of 6^3 tables
    untied = t.assign(B=[0.8, 0.75, 0.7])
    assert friedman_test(_load(tmp_path, untied)).exact_pvalue == pytest.approx(
        _brute_conditional_p(untied.to_numpy()), rel=1e-12)


def test_boilerplate_that_does_not_apply_is_not_printed(tmp_path):
    """The template printed, whatever the table, the k = 2 paragraph of section 2 (at k >= 3 too), "for the
    shipped example" (on the user's files too) and Shaffer's and Bergmann–Hommel's procedures as if they had
    run. The k = 2 note is now printed by section 2's cell only with 2 classifiers; the example's control
    line prints itself (example_control_note); the procedures are named as options of --posthoc."""
    import json

    from evallib.report._datasets_sections import TWO_CLASSIFIERS_NOTE
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "report_datasets.ipynb").read_text())
    md = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").replace("\n", " ")
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "With two classifiers the question is the one pair's" not in md
    assert "For the shipped example" not in md
    assert "`--posthoc` can choose instead Holm's, Bonferroni's, or Shaffer's and Bergmann–Hommel's procedures" in md
    assert "if omnibus.two_note:\n    print()\n    print(omnibus.two_note)" in code
    two = friedman_test(_load(tmp_path, E))
    three = friedman_test(_load(tmp_path, E.assign(C=E.iloc[:, 0] - 0.01)))
    assert two.sign_test and two.two_note == TWO_CLASSIFIERS_NOTE and "exact sign test" in two.two_note
    assert not three.sign_test and three.two_note == ""
