"""The many-data-sets report words the scores' units from the data, never assuming percent (cold read
D2), and its verdicts do not change with the units: the same table in other units, with the ROPE
scaled alike, gives the same verdicts and probabilities."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from evallib.report._datasets_inputs import load_results
from evallib.report._datasets_sections import assumptions, bayesian_top_two, friedman_test, posthoc_tests
from evallib.studies import demsar_table_6

ROOT = Path(__file__).resolve().parents[1]


def test_the_template_does_not_call_the_default_rope_a_percentage_point():
    """Scores between 0 and 1 may be AUCs: 0.01 is 0.01 on their scale, not 'one percentage point'."""
    cells = json.loads((ROOT / "notebooks" / "report_datasets.ipynb").read_text(encoding="utf-8"))["cells"]
    markdown = " ".join(" ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")
    assert "percentage point" not in markdown and "percent" not in markdown
    assert "by default 0.01 on the scores' own scale for scores between 0 and 1" in markdown


@pytest.mark.parametrize("scale", [1, 100])
def test_section_5_sizes_of_a_win_come_from_the_table_in_its_units(scale):
    """The smallest and the largest non-zero difference between two classifiers on one data set, found by
    brute force over every pair and data set of Demšar's Table 6 (three decimals), in the table's units;
    no 'point' is assumed."""
    frame = demsar_table_6() * scale
    res = load_results(frame)
    gaps = sorted({round(abs(frame.iloc[i][a] - frame.iloc[i][b]), 9)
                   for i in range(len(frame)) for a, b in itertools.combinations(frame.columns, 2)} - {0.0})
    dec = 3 if scale == 1 else 1
    sentence = [s for s in assumptions(res, friedman_test(res, rng=0)) if s.startswith("Ranks make scores")][0]
    assert f"a win by {gaps[0]:.{dec}f} counts as much as a win by {gaps[-1]:.{dec}f}" in sentence
    assert "point" not in sentence


def test_section_5_with_every_pair_tied_names_no_size():
    frame = pd.DataFrame({"dataset": ["a", "b", "c"], "x": [0.5, 0.6, 0.7], "y": [0.5, 0.6, 0.7]})
    res = load_results(frame)
    sentence = [s for s in assumptions(res, friedman_test(res, rng=0)) if s.startswith("Ranks make scores")][0]
    assert "a win by a small margin would count as much as a win by a large one" in sentence


@pytest.mark.parametrize("scale", [100, 0.01])
def test_verdicts_do_not_change_with_the_units(scale):
    """The same scores in other units, the ROPE scaled alike: same Friedman p, same pairs' verdicts in both
    families, same Bayesian probabilities from the same seed."""
    base = load_results(demsar_table_6())
    other = load_results(demsar_table_6() * scale)
    assert friedman_test(other, rng=0).pvalue == pytest.approx(friedman_test(base, rng=0).pvalue, rel=1e-12)
    for verdict in ("mean-ranks", "wilcoxon"):
        a, b = posthoc_tests(base, verdict=verdict), posthoc_tests(other, verdict=verdict)
        assert list(a.verdict_reject) == list(b.verdict_reject)
        assert list(a.secondary_reject) == list(b.secondary_reject)
    x, y = bayesian_top_two(base, rope=0.01, rng=3), bayesian_top_two(other, rope=0.01 * scale, rng=3)
    assert (x.best, x.second, x.on_edge) == (y.best, y.second, y.on_edge)
    for p, q in zip((x.result.p_left, x.result.p_rope, x.result.p_right),
                    (y.result.p_left, y.result.p_rope, y.result.p_right)):
        assert p == pytest.approx(q, abs=1e-12)


def _table(n: int, k: int) -> pd.DataFrame:
    rng = np.random.default_rng(n * 10 + k)
    scores = np.round(rng.uniform(0.6, 0.9, size=(n, k)), 3)
    frame = pd.DataFrame(scores, columns=[f"c{j}" for j in range(k)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(n)])
    return frame


@pytest.mark.parametrize("n, k, alpha", [(10, 4, 0.05), (5, 3, 0.1), (10, 7, 0.05)])
def test_nemenyi_with_few_data_sets_says_its_critical_difference_is_asymptotic(n, k, alpha):
    """D4: with N <= 10 data sets (Demšar's 2006 rule of thumb asks for N > 10 before the large-sample law of
    the rank statistic), section 5 says Nemenyi's critical difference takes q from the asymptotic studentized
    range, with the file's N and the CD recomputed from scipy's studentized range (df = infinity) and
    Demšar's formula CD = q sqrt(k(k+1)/(6N))."""
    res = load_results(_table(n, k))
    caveats = assumptions(res, friedman_test(res, alpha=alpha, rng=0), alpha=alpha)
    hit = [s for s in caveats if "asymptotic studentized range" in s]
    assert len(hit) == 1
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    cd = q * np.sqrt(k * (k + 1) / (6 * n))
    assert f"N = {n} data sets is not more than 10" in hit[0]
    assert f"Nemenyi's critical difference ({cd:.3f} = q √(k(k + 1)/(6N))" in hit[0]
    assert f"q = {q:.3f}" in hit[0] and f"k = {k} means" in hit[0] and f"alpha = {alpha:g}" in hit[0]


@pytest.mark.parametrize("n, k", [(11, 4), (10, 2)])
def test_no_small_n_caveat_for_nemenyi_past_ten_data_sets_or_with_two_classifiers(n, k):
    res = load_results(_table(n, k))
    assert not [s for s in assumptions(res, friedman_test(res, rng=0)) if "asymptotic studentized range" in s]
