"""Cold read of the per-item report, third round: the few-units warning's own numbers, the paired t-test's
size past 20 items, one rule for the effective sample size's cap, the source list, the bootstrap's redrawn
resamples. Every reference value is recomputed here independently: by hand, by enumeration or by Monte Carlo
with a stated seed and tolerance."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "notebooks" / "report_items.ipynb"


def _markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


# ------------------------------------------------------------------ I4: the source list
def test_every_author_the_template_cites_is_in_its_source_list():
    """The opening cell's "The source it follows" lists the sources; every author the template's text
    cites by name (``X et al.``, ``X and Y``, ``X's design effect``) must be in it."""
    cells = _markdown(TEMPLATE)
    opening = cells[0]
    sources = opening[opening.index("**The source it follows**"):]
    text = "\n".join(cells[1:])
    cited = set(re.findall(r"\b([A-Z][a-z]+) et al\.", text))
    cited |= {a for pair in re.findall(r"\b([A-Z][a-z]+) and ([A-Z][a-z]+)\b", text) for a in pair}
    cited |= set(re.findall(r"\b([A-Z][a-z]+)'s design effect", text))
    cited -= {"Wilson", "The", "Section"}
    assert {"Yao", "Kish"} <= cited
    missing = sorted(name for name in cited if name not in sources)
    assert not missing, f"cited in the template but not in its source list: {missing}"


def test_korn_graubard_are_not_credited_with_wilsons_interval():
    """Korn and Graubard (1998) put the effective sample size into a modified Clopper-Pearson interval;
    Wilson's interval on it is the form Dean and Pagano (2015) evaluate (evallib._inference.wilson_effective's
    own docstring says so)."""
    opening = _markdown(TEMPLATE)[0]
    flat = " ".join(opening.split())
    assert "Graubard (1998) for Wilson's" not in flat
    assert "Dean and M. Pagano (2015) for Wilson's interval" in flat


# ------------------------------------------------------------------ I2: the paired t-test's size past 20 items
def _mc_size(n: int, q: float, reps: int, seed: int) -> tuple[float, float]:
    """Rejection rate of scipy's one-sample t-test at 0.05 on ``n`` differences that are +1 or -1 with
    probability ``q / 2`` each and 0 otherwise (no spread and a mean other than 0 rejects, as in
    leaderboard_pairs), by Monte Carlo: the share and its binomial standard error."""
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, reps, 20_000):
        u = rng.random((min(20_000, reps - start), n))
        d = np.where(u < q / 2, 1.0, np.where(u < q, -1.0, 0.0))
        spread = d.std(axis=1) > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            p = stats.ttest_1samp(d, 0.0, axis=1).pvalue
        hits += int(np.count_nonzero(np.where(spread, p <= 0.05, d.mean(axis=1) != 0)))
    share = hits / reps
    return share, float(np.sqrt(share * (1 - share) / reps))


@pytest.mark.parametrize("n", [21, 49, 59, 99, 104, 194, 204])
def test_the_size_past_20_items_is_what_the_manual_says(n):
    """The smallest and largest exact sizes of each range the manual gives (at 21 and 49, 59 and 99, 104 and
    194, 204), checked by Monte Carlo of scipy's t-test at the share the enumeration finds worst: 200,000 runs,
    seed n, within 4 MC SE; each of them exceeds 0.05 by more than 4 MC SE."""
    from evallib.report._items_sections import _paired_t_size

    size, q = _paired_t_size(n, 0.05)
    mc, se = _mc_size(n, q, 200_000, n)
    assert abs(mc - size) < 4 * se
    assert mc - 4 * se > 0.05


def test_the_manual_states_the_measured_range_and_the_warning_goes_past_20_items():
    """From 20 to 49 items the enumeration's sizes run from 0.054 to 0.078: the manual says so instead of
    implying that the problem ends at 20, and a file of 21 independent 0/1 items (exact size 0.078, Monte
    Carlo above) is warned of; one of 200 is not."""
    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import FEW_TEST_UNITS, _paired_t_size, summarise_items

    sizes = [_paired_t_size(n, 0.05)[0] for n in range(20, 50)]
    assert (round(min(sizes), 3), round(max(sizes), 3)) == (0.054, 0.078)
    manual = " ".join((ROOT / "docs" / "report" / "items.md").read_text(encoding="utf-8").split())
    assert "does not end at 20 items: at alpha 0.05 the exact size on independent 0/1 items is 0.054 to 0.078 " \
           "from 20 to 49 items, 0.053 to 0.067 from 50 to 99, 0.053 to 0.062 from 100 to 199, and still 0.052 " \
           "to 0.058 from 200 to 1,000" in manual
    assert f"On fewer than {FEW_TEST_UNITS} items" in manual
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(21)], "a": rng.integers(0, 2, 21),
                          "b": rng.integers(0, 2, 21)})
    text = " ".join(summarise_items(load_item_scores(frame, item_column="item")).warnings)
    assert "on this file's 21 items the paired t-test of section 3" in text
    assert "probability up to 0.078, not 0.05" in text
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(200)], "a": rng.integers(0, 2, 200),
                          "b": rng.integers(0, 2, 200)})
    assert "level on few" not in " ".join(summarise_items(load_item_scores(frame, item_column="item")).warnings)


# ------------------------------------------------------------------ I1: the clustered warning's own numbers
def _cr2_se(d: np.ndarray, codes: np.ndarray) -> float:
    """CR2 standard error of the mean of ``d`` from the matrices themselves (Bell & McCaffrey 2002):
    residuals adjusted by ``(I - H_gg)^(-1/2)`` of the intercept-only hat matrix, by scipy.linalg.sqrtm."""
    from scipy import linalg

    n = d.size
    e = d - d.mean()
    total = 0.0
    for g in np.unique(codes):
        m = codes == g
        h = np.full((m.sum(), m.sum()), 1.0 / n)
        adj = np.real(linalg.inv(linalg.sqrtm(np.eye(m.sum()) - h)))
        total += float(np.sum(adj @ e[m])) ** 2
    return float(np.sqrt(total)) / n


def test_the_few_clusters_warning_gives_the_files_clusters_items_and_its_own_size():
    """Six equal clusters of 5 items (df = 5): the warning names the file's 6 clusters and 30 items, and the
    size of section 3's unadjusted test on the file's own differences, which is checked against the exact
    sign-flip size, all 2^6 = 64 flips of the clusters tested by hand (CR2 by matrices, the items-independent
    standard error where the CR2 one is below 0.8 times it, as section 3 does on fewer than 30 clusters),
    within 4 MC SE of the 2,000 draws."""
    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import summarise_items

    rng = np.random.default_rng(29)
    n, groups = 30, 6
    codes = np.arange(n) // 5
    a = (rng.random(n) < 0.6).astype(float)
    b = (rng.random(n) < 0.5).astype(float)
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(n)], "cluster": [f"c{c}" for c in codes],
                          "a": a, "b": b})
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    d = a - b
    hits = 0
    for bits in range(2 ** groups):
        signs = np.array([1.0 if bits >> g & 1 else -1.0 for g in range(groups)])
        f = d * signs[codes]
        se = _cr2_se(f, codes)
        independent = f.std(ddof=1) / np.sqrt(n)
        if se < 0.8 * independent:
            se = independent
        p = 2 * stats.t.sf(abs(f.mean()) / se, groups - 1) if se > 0 else float(f.mean() != 0)
        hits += p <= 0.05
    exact = hits / 2 ** groups
    text = " ".join(summarise_items(data).warnings)
    assert "on this file's 6 clusters, which hold its 30 items (5 per cluster)" in text
    assert "at most 5 degrees of freedom" in text
    share = float(re.search(r"rejects at alpha = 0.05 in a share ([0-9.]+) of the draws", text).group(1))
    mc_se = float(re.search(r"\(Monte Carlo SE ([0-9.]+)\)", text).group(1))
    assert exact > 0.05
    assert abs(share - exact) < 4 * np.sqrt(exact * (1 - exact) / 2000) + 0.0005
    assert mc_se == pytest.approx(np.sqrt(share * (1 - share) / 2000), abs=0.0005)
    assert "not computed here" not in text


# ------------------------------------------------------------------ I5: the bootstrap's redrawn resamples
def test_the_rank_bootstrap_counts_and_says_the_empty_resamples_it_drew_again():
    """Three clusters: a Poisson resample draws none of them with chance exp(-3) = 0.0498, so 2,000 kept
    resamples need about 2,000 * 0.0498 / (1 - 0.0498) = 105 redrawn ones (a negative binomial count, SD
    sqrt(2,000 * 0.0498) / (1 - 0.0498), checked within 5 SD); the report's sentence gives the count and the
    total drawn."""
    from evallib.report._items_inputs import load_item_scores
    from evallib.report._items_sections import leaderboard, rank_redraw_note

    rng = np.random.default_rng(0)
    n = 30
    frame = pd.DataFrame({"item": [f"q{i}" for i in range(n)], "cluster": [f"c{i % 3}" for i in range(n)],
                          "a": rng.integers(0, 2, n), "b": rng.integers(0, 2, n)})
    data = load_item_scores(frame, item_column="item", cluster_column="cluster")
    ranks = leaderboard(data, rng=0).ranks
    redrawn = ranks.attrs["redrawn"]
    p0 = np.exp(-3.0)
    expected = 2000 * p0 / (1 - p0)
    sd = np.sqrt(2000 * p0) / (1 - p0)
    assert abs(redrawn - expected) < 5 * sd and redrawn > 0
    text = rank_redraw_note(ranks)
    assert (f"Of the resamples drawn, {redrawn:,} drew none of the 3 clusters (every Poisson weight 0, a chance "
            f"of 0.05 each) and were drawn again") in text
    assert f"{2000 + redrawn:,} drawn in all" in text


def test_the_report_prints_the_redraw_sentence_in_section_5():
    cells = json.loads(TEMPLATE.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "print(rank_redraw_note(board.ranks))" in code
    assert "a replicate that draws nothing (every weight 0) is drawn again" in " ".join(
        "\n".join(_markdown(TEMPLATE)).split())


def test_a_resample_without_a_models_items_is_counted():
    """Model b scored only the items of cluster c0 (missing="drop"): a resample that draws no weight on c0
    gives b its observed mean. Its count is the number of replicates whose c0 weight is 0, which a replay of
    the weights' generator cannot give independently; the Poisson(1) chance of a zero weight, exp(-1) = 0.368,
    conditioned on the resample not being empty, gives the reference: within 5 binomial SD of 2,000 draws."""
    from evallib.items import rank_intervals

    rng = np.random.default_rng(4)
    scores = pd.DataFrame({"a": rng.random(12), "b": np.r_[rng.random(4), np.full(8, np.nan)],
                           "c": rng.random(12)})
    clusters = np.repeat(["c0", "c1", "c2"], 4)
    ranks = rank_intervals(scores, clusters=clusters, n_resamples=2000, rng=1, missing="drop")
    p = (np.exp(-1.0) - np.exp(-3.0)) / (1 - np.exp(-3.0))
    k = ranks.attrs["unscored"]["b"]
    assert abs(k - 2000 * p) < 5 * np.sqrt(2000 * p * (1 - p))
    assert ranks.attrs["unscored"]["a"] == 0 == ranks.attrs["unscored"]["c"]
