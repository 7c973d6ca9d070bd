"""Notebook 09 (peeking, stopping and shipping) as saved, as papermill runs it, and with its sliders moved.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py, test_readable.py, test_exercises.py and test_live.py check its house style.
Here: the saved key numbers against independent computations (the stream's counts with numpy, the
peeking rates against Armitage, McPherson & Rowe's table and their binomial MC errors, the exact one-look
rate over all label swaps as a binomial tail written out with scipy, the CR2
one-sided bound written out with scipy's t, the O'Brien–Fleming-type first boundary from Lan &
DeMets' spending function), the computed sentences against the tables they read, the exercises, a
papermill run with other parameters and the solutions, and a live kernel in which every slider moves.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text, widget_views
from scipy import optimize, stats

NOTEBOOK = NOTEBOOK_DIR / "09_peeking_stopping_shipping.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _markdown_outputs(nb) -> str:
    return "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                     for o in c.get("outputs", []))


def _markdown_cell(nb, start: str) -> str:
    return next(" ".join(_src(c).split()) for c in nb["cells"] if c["cell_type"] == "markdown"
                and _src(c).startswith(start))


def _share_words(share: float, n: int) -> str:
    """A simulated share as the notebook words it, rebuilt independently: from 10 events and non-events on the MC SE
    sqrt(r (1 - r) / n) by hand; below, the count and statsmodels' exact (Clopper–Pearson) 95% interval."""
    from statsmodels.stats.proportion import proportion_confint

    k = round(share * n)
    low, high = proportion_confint(k, n, alpha=0.05, method="beta")
    if min(k, n - k) >= 10:
        return f"{100 * share:.1f}% (MC SE {100 * np.sqrt(share * (1 - share) / n):.1f} percentage points)"
    if k == 0:
        return f"none of {n:,} (Clopper–Pearson 95% upper bound {100 * high:.2f}%)"
    if k == n:
        return f"all {n:,} (Clopper–Pearson 95% lower bound {100 * low:.2f}%)"
    return f"{100 * share:.2f}% ({k:,} of {n:,}; Clopper–Pearson 95% interval {100 * low:.2f}% to {100 * high:.2f}%)"


def _cr2_se(d, classes) -> float:
    """CR2 over clusters for a mean, by hand: V = sum_g e_g^2 / (1 - n_g / N) / N^2."""
    _, codes = np.unique(classes, return_inverse=True)
    e = np.bincount(codes, weights=d - d.mean())
    sizes = np.bincount(codes)
    return float(np.sqrt((e ** 2 / (1 - sizes / len(d))).sum()) / len(d))


@pytest.fixture(scope="module")
def stream():
    """The default run's stream (seed 0), rebuilt here: forest and logistic on the test pupils, classes in order."""
    from evallib.studies import evaluate_pupils

    ev = evaluate_pupils(rng=0)
    classes = ev.pupils["class"].to_numpy()
    order = np.random.default_rng([0, 9]).permutation(pd.unique(classes))
    arrival = np.concatenate([np.flatnonzero(classes == g) for g in order])
    return (ev.correct["forest"].to_numpy(float)[arrival], ev.correct["logistic"].to_numpy(float)[arrival],
            classes[arrival])


@pytest.fixture(scope="module")
def cost_study(stream):
    """The default run's cost-table simulation at the positive true difference (seed 0, 10 looks, n_sim = 2000)."""
    from evallib import peeking_study

    x, y, _ = stream
    disc = float(np.mean(x != y))
    effect = float(np.round(min(0.04, disc / 2), 3))
    return peeking_study(effect, looks=10, n_max=len(x), discordance=disc, alpha=0.05, n_resamples=2000, rng=0)


def _fixed_vs_design_streams(study) -> tuple[np.ndarray, np.ndarray]:
    """Which streams the fixed-n test and the alpha-spending design reject, recomputed by hand: the same uniforms
    (numpy's default_rng(0), as peeking_study draws them), the paired z test at each look with numpy's sample SD,
    scipy's normal quantile for the fixed-n test and the O'Brien–Fleming-type boundaries of the design."""
    from evallib import group_sequential_design

    n_max, looks, disc, effect = study.n_max, study.looks, study.discordance, study.effect
    u = np.random.default_rng(0).random((study.n_resamples, n_max))
    d = np.where(u < (disc + effect) / 2, 1.0, 0.0) - np.where(u >= 1 - (disc - effect) / 2, 1.0, 0.0)
    at = np.round(np.arange(1, looks + 1) / looks * n_max).astype(int)
    sd = np.column_stack([d[:, :n].std(axis=1, ddof=1) for n in at])
    mean = np.column_stack([d[:, :n].mean(axis=1) for n in at])
    z = np.divide(mean, sd / np.sqrt(at), out=np.zeros_like(mean), where=sd > 0)
    fixed = np.abs(z[:, -1]) >= stats.norm.isf(0.025)
    design = (np.abs(z) >= group_sequential_design(n_max, looks, alpha=0.05).boundary).any(axis=1)
    return fixed, design


def _mcnemar_words(only_a: int, only_b: int, n: int, alpha: float, rule_a: str, rule_b: str) -> str:
    """The exact McNemar comparison of two rules in words, from scipy's binomtest on the discordant counts; below
    2 * 0.5^m > alpha (m discordant) no split could reject, written out by hand."""
    m = only_a + only_b
    counts = (f"of the {n:,} streams, {only_a:,} {'was' if only_a == 1 else 'were'} rejected by {rule_a} alone and "
              f"{only_b:,} by {rule_b} alone")
    if m == 0 or 2 * 0.5 ** m > alpha:
        return (f"{counts}; with {m:,} discordant stream{'s' if m != 1 else ''} not even the most lopsided split could "
                f"give an exact (McNemar) p ≤ α = {alpha:g}, so the simulation is too small to judge")
    p = stats.binomtest(only_a, m, 0.5).pvalue
    shown = "the two rates differ" if p <= alpha else "the rates are not shown to differ"
    # docs/conventions.md: two significant digits, never 0 nor rounded up to 1.0
    words = ("p < 1e-15" if p < 1e-15 else "p > 0.999" if 0.9995 <= p < 1 else
             f"p = {p:.3f}" if p < 1 and f"{p:#.2g}" == "1.0" else f"p = {p:#.2g}")
    return (f"{counts}; the exact (McNemar) binomial test on these {m:,} discordant streams gives {words}: "
            f"{shown} at α = {alpha:g}")


def test_notebook_09_is_saved_with_its_key_outputs():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    assert "1191 test pupils in 67 classes" in joined
    assert not widget_views(nb) and "widgets" not in nb["metadata"]
    source = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert source.count("live_output(") == 3 and "interactive_output" not in source
    # one output per widget: the figure (with alt text) and the text under it, nothing else
    for cell in (c for c in nb["cells"] if "live_output(" in _src(c)):
        assert [o["output_type"] for o in cell["outputs"]] == ["display_data", "stream"], _src(cell)[:80]
        alt = cell["outputs"][0]["metadata"]["image/png"]["alt"]
        assert len(alt) > 80
    # each slider redraws through a tested evallib callback
    assert source.count("plot_peeking_rates(") == 2 and source.count("plot_margin_decision(") == 1
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 4
    assert all("author" in c["metadata"].get("tags", []) for c in nb["cells"]
               if c["cell_type"] == "markdown" and "papermill" in _src(c))


def test_stream_counts_match_the_data(stream):
    x, y, _ = stream
    d = x - y
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert (f"difference {d.mean():+.4f}; the two disagree on {np.mean(d != 0):.4f} of the pupils "
            f"({int((d == 1).sum())} forest only right, {int((d == -1).sum())} logistic only right)") in joined


def test_peeking_table_keeps_its_promises_and_armitages_numbers(stream):
    """The swapped-label rates: MC SE = sqrt(r (1 - r) / n_sim); the one-look exact rate over all 2^m swaps of the m
    discordant pupils is a binomial tail (written out here with scipy); every simulated rate within 3 SEs (+ rounding)
    of its exact rate, and the gap columns their difference in SEs (the swapped streams' and peeking_study's); 5, 10,
    20 looks within 3 SEs (+ 0.01 for 0/1 items and a z test) of Armitage, McPherson & Rowe's 0.142, 0.193, 0.248,
    and the normal-mean column (their case, 200,000 Brownian paths) within 4 of its SEs (+ their rounding)."""
    x, y, _ = stream
    n, m = len(x), int(np.sum(x != y))
    signs = 2 * np.arange(m + 1) - m                      # the sum of the discordant pupils' swapped signs
    sd = np.sqrt((m - signs ** 2 / n) / (n - 1))
    z = (signs / n) / (sd / np.sqrt(n))
    exact_one = stats.binom.pmf(np.arange(m + 1), m, 0.5)[2 * stats.norm.sf(np.abs(z)) <= 0.05].sum()
    joined = outputs_text(load_notebook(NOTEBOOK))
    rows = _peeking_rows(joined)
    assert set(rows) == {1, 2, 5, 10, 20}
    assert rows[1][2] == pytest.approx(exact_one, abs=6e-5)
    for k, (r, se, exact, gap, ps, ps_se, ps_gap, normal) in rows.items():
        assert se == pytest.approx(np.sqrt(r * (1 - r) / 2000), abs=6e-4), k
        assert ps_se == pytest.approx(np.sqrt(ps * (1 - ps) / 2000), abs=6e-4), k
        assert abs(r - exact) < 3 * se + 0.0005 and abs(ps - exact) < 3 * ps_se + 0.01, k
        assert gap == pytest.approx((r - exact) / se, abs=0.15), k
        assert ps_gap == pytest.approx((ps - exact) / ps_se, abs=0.15), k
    assert rows[1][7] == pytest.approx(0.05, abs=4 * np.sqrt(0.05 * 0.95 / 200_000) + 5e-4)
    for k, published in ((5, 0.142), (10, 0.193), (20, 0.248)):
        for value in (rows[k][0], rows[k][2], rows[k][4]):          # simulated, exact, peeking_study
            assert abs(value - published) < 3 * rows[k][1] + 0.01, (k, rows[k])
        assert abs(rows[k][7] - published) < 4 * np.sqrt(published * (1 - published) / 200_000) + 0.001, k
    md = " ".join(_markdown_outputs(load_notebook(NOTEBOOK)).split())
    assert (f"ends \"significant\" in {100 * rows[10][2]:.1f}% of all the label swaps (exactly), "
            f"{rows[10][2] / 0.05:.1f} times the promised 5%; the simulation of the swapped real streams gives "
            f"{_share_words(rows[10][0], 2000)}, ") in md
    assert (f"gives {_share_words(rows[10][4], 2000)} at 10 looks, {abs(rows[10][6]):.1f} SEs apart from the exact rate: a difference between "
            "two estimands, not a check of the simulation (the exact rate conditions on which pupils disagree and at "
            "which looks they arrive, the discordant count at each look, while `peeking_study` draws the discordant "
            "items anew in each comparison; at this run's number of simulations "
            + ("the two are resolved apart" if abs(rows[10][6]) > 2 else "they are not resolved apart") + ")") in md
    assert "slightly different things" not in md
    # the one-look reason: the exact size from the binomial of S (written out above), on the side of alpha it lies
    assert (f"Even the one-look rate is not exactly 5%: the z statistic takes only the values set by the sum S of the "
            f"m = {m:,} discordant signs") in md
    assert (f"has the exact probability of a set of those values: {100 * exact_one:.2f}% here, "
            f"{'above' if exact_one > 0.05 else 'below'} α = 5%") in md
    assert "every one of the 5 rows lies within two Monte Carlo SEs" in md or " rows lie more than two" in md \
        or "1 of the 5 rows lies more than two Monte Carlo SEs from its exact rate" in md
    intro = _markdown_cell(load_notebook(NOTEBOOK), "Armitage, McPherson & Rowe (1969) computed")
    assert "at a nominal 5% (α = 0.05 only)" in intro and "recomputes their case at this run's α and looks" in intro
    assert (f"With one look the simulation gives {_share_words(rows[1][0], 2000)} "
            f"against the exact {100 * exact_one:.2f}%") in md


def _peeking_rows(joined: str) -> dict:
    """Section 2's table: looks -> (swapped rate, its SE, exact, gap, peeking_study, its SE, its gap, normal mean)."""
    return {int(k): tuple(map(float, v)) for k, *v in re.findall(
        r"^(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+([\d.]+)$",
        joined, flags=re.M)}


def test_sequence_and_design_numbers(stream):
    """The fixed-n width at n recomputed with scipy's t; the design's first boundary from Lan & DeMets' O'Brien–Fleming-
    type spending function, 2 - 2 Phi(z_{1-alpha/4} / sqrt(t)) a side, at the planned fraction t = 1 / 10 (gsDesign's sfLDOF)."""
    x, y, _ = stream
    d = x - y
    joined = outputs_text(load_notebook(NOTEBOOK))
    for n in (100, 1191):
        width = 2 * stats.t.isf(0.025, n - 1) * d[:n].std(ddof=1) / np.sqrt(n)
        row = re.search(rf"^{n}\s+[-\d.]+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", joined, flags=re.M)
        assert row and float(row.group(1)) == pytest.approx(width, abs=6e-5), n
        assert float(row.group(2)) > float(row.group(1))          # the sequence is the wider one
    spent = 2 * (2 - 2 * stats.norm.cdf(stats.norm.isf(0.0125) / np.sqrt(1 / 10)))   # alpha / 2 a side, t = 1 / looks
    first = re.search(r"^\s+119\s+([\d.]+)\s", joined, flags=re.M)
    assert first and float(first.group(1)) == pytest.approx(stats.norm.isf(spent / 2), abs=6e-4)
    # the verdict says what the boundaries assume, and the fixed-n p-value names its test: the paired z statistic at
    # all items, mean / (s_d / sqrt(n)), on the normal
    z = d.mean() / (d.std(ddof=1) / np.sqrt(len(d)))
    assert "its boundaries assume independent increments between the looks, that is independent items" in joined
    assert (f"the fixed-n p-value at {len(d)} items (two-sided paired z-test, normal approximation, items taken as "
            f"independent) was {2 * stats.norm.sf(abs(z)):.3f}") in joined
    intro = _markdown_cell(load_notebook(NOTEBOOK), "## 3. The remedies")
    assert "increments between looks are **independent**" in intro and "with one look the design *is* the fixed-n" in intro
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    # by look 5 of 10 (t = 1/2) the O'Brien–Fleming-type function has spent 2 (2 - 2 Phi(z_{1 - alpha/4} / sqrt(1/2)))
    half = 2 * (2 - 2 * stats.norm.cdf(stats.norm.isf(0.0125) / np.sqrt(0.5)))
    assert f"by look 5 of 10 (596 items) it has spent {100 * half / 0.05:.2g}% of its alpha" in md
    # the last boundary with decimals enough to show it above the fixed-n critical value
    last_b = float(re.search(r"^\s+1191\s+([\d.]+)\s", joined, flags=re.M).group(1))
    assert f"at the last {last_b:.4f} (" in md and f"against {stats.norm.isf(0.025):.4f} for one planned look" in md
    last = re.search(r"^1191\s+[-\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)$", joined, flags=re.M)
    assert f"the confidence sequence is {last.group(2)} times as wide" in md
    # the betting sequence's ends are rounded outwards on a grid 2% apart: its widths and ratios carry two
    # significant digits, no more
    for row in re.findall(r"^\d+\s+[-\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)$", joined, flags=re.M):
        assert all(len(v.replace(".", "").lstrip("0")) == 2 for v in row), row


def test_the_clusters_sentence_says_only_what_its_numbers_show(stream):
    """Each model's own accuracy: its CR2 SE over classes (by hand) over s / sqrt(n). The sentence reports the ratios
    as point estimates, in every run: no branch on thresholds of them but one clause on whether the paired ratio is
    above 1 (what positive clustering would make it), and no claim of why they differ."""
    x, y, classes = stream
    ratios = {name: _cr2_se(v, classes) / (v.std(ddof=1) / np.sqrt(len(v))) for name, v in (("forest", x), ("logistic", y))}
    d = x - y
    paired = _cr2_se(d, classes) / (d.std(ddof=1) / np.sqrt(len(d)))
    nb = load_notebook(NOTEBOOK)
    md = _markdown_outputs(nb)
    assert f"the paired CR2 standard error over the 67 classes is {paired:.2f} times the one that takes" in md
    assert f"the same ratio is {ratios['forest']:.2f} for forest and {ratios['logistic']:.2f} for logistic" in md
    # the one computed clause: whether the paired ratio (by hand above) lies above 1, as positive clustering makes it
    clause = ("the paired ratio is above 1, as positive correlation of the differences within a class makes it, so this "
              "run's paired differences show positive clustering by this point estimate" if paired > 1 else
              "the paired ratio is not above 1, so this run's paired differences do not show positive clustering by "
              "this point estimate")
    assert (f"point estimates from 67 classes, reported as they are: {clause}; they say nothing about why the ratios "
            "differ") in md
    cell = next(_src(c) for c in nb["cells"] if "own_ratio" in _src(c))
    for causal in ("cancel", "widens", "narrows", "barely changes", "> 1.1", "< 0.9", "shared class effect"):
        assert causal not in cell and causal not in md, causal
    prose = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "cancel" not in prose


def test_noninferiority_bound_is_the_cr2_bound_written_out(stream):
    """CR2 over classes, by hand: V = sum_g e_g^2 / (1 - n_g / N) / N^2; bound = estimate - t_{0.95, df} se, with the
    Bell–McCaffrey df the notebook prints."""
    x, y, classes = stream
    d = x - y
    _, codes = np.unique(classes, return_inverse=True)
    e = np.bincount(codes, weights=d - d.mean())
    sizes = np.bincount(codes)
    se = np.sqrt((e ** 2 / (1 - sizes / len(d))).sum()) / len(d)
    joined = outputs_text(load_notebook(NOTEBOOK))
    df = float(re.search(r"fixed-n CR2 [-+\d.]+ \(df ([\d.]+)\)", joined).group(1))
    low = d.mean() - stats.t.isf(0.05, df) * se
    assert f"fixed-n CR2 {low:+.4f}" in joined
    assert "Not shown that forest is no worse than logistic by more than 0.02" in joined
    assert "a is no worse than b" not in joined and "a - b" not in joined
    assert f"the smallest margin this evaluation shows at a fixed n: {-low:.4f}" in joined
    assert ("non-inferiority not shown" if low < -0.02 else "non-inferiority shown") in joined
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    assert f"any margin above {-low:.3f} would be shown" in md
    # the margin is part of the plan: said where it is introduced, beside the smallest margin and in the sentence
    nb = load_notebook(NOTEBOOK)
    assert "The margin $\\delta$ must be fixed before the data are seen" in _markdown_cell(nb, "## 4. Shipping")
    assert "(a description of these data, not a margin to choose now: δ is fixed before the data are seen)" in joined
    assert "provided that margin was the one fixed in the plan" in md


def test_the_upper_bound_and_the_three_way_verdict(stream):
    """Whether the candidate is worse is a separate question from "not shown no worse": the one-sided CR2 upper bound
    estimate + t_{0.95, df} se (by hand, the df printed), and the verdict from both bounds against -margin. The
    take-away no longer reads "not shown" as "cannot tell yet, never worse"."""
    x, y, classes = stream
    d = x - y
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    df = float(re.search(r"fixed-n CR2 [-+\d.]+ \(df ([\d.]+)\)", joined).group(1))
    q = stats.t.isf(0.05, df)
    low, high = d.mean() - q * _cr2_se(d, classes), d.mean() + q * _cr2_se(d, classes)
    md = " ".join(_markdown_outputs(nb).split())
    assert f"its one-sided 95% upper bound is {high:+.4f}, so forest is " + (
        "shown worse than logistic" if high < 0 else "not shown worse than logistic") in md
    verdict = ("non-inferior" if low > -0.02 else "inferior by more than δ" if high < -0.02 else "inconclusive")
    assert f"lower bound {low:+.4f} and upper bound {high:+.4f} against -0.020, the three-way verdict is: {verdict}" in md
    take = " ".join(_src(next(c for c in nb["cells"] if _src(c).startswith("## What to take away"))).split())
    assert "cannot tell yet" not in take and '"not shown" is not by itself evidence of "worse"' in take
    assert "the upper bound (or the two-sided interval)" in take
    params = _src(next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", [])))
    assert "0.015" not in params
    assert "`n_sim` sets the size of every simulation" not in " ".join(_src(nb["cells"][1]).split())


def test_tangos_score_test_is_shown_beside_cr2_and_is_tangos(stream):
    """Tango's (1998) score statistic written out: the restricted maximum-likelihood p_c under p_b - p_c = delta found
    by scipy's bounded optimiser on the trinomial likelihood (not Tango's closed form), T(delta) =
    (b - c - n delta) / sqrt(n (2 q + delta (1 - delta))), p = Phi(T(margin)); the bound is the delta with
    Phi(T(delta)) = alpha (brentq), on the error rates, so the accuracy bound is its negative."""
    x, y, _ = stream
    b, c, n = int(((x == 0) & (y == 1)).sum()), int(((x == 1) & (y == 0)).sum()), len(x)

    def score(delta):
        def nll(q):
            return -(b * np.log(q + delta) + c * np.log(q) + (n - b - c) * np.log(1 - 2 * q - delta))
        q = optimize.minimize_scalar(nll, bounds=(max(0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12), method="bounded",
                                     options={"xatol": 1e-13}).x
        return (b - c - n * delta) / np.sqrt(n * (2 * q + delta * (1 - delta)))

    pvalue = stats.norm.cdf(score(0.02))
    low = -optimize.brentq(lambda delta: score(delta) + stats.norm.isf(0.05), 0.0, 0.5, xtol=1e-12)
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert (f"one-sided 95% lower bound {low:+.3f} lies below -0.02, z = {-score(0.02):.2f}, p = {pvalue:.2f} "
            "(Tango score test on the discordant items)") in joined
    assert f"one-sided 95% lower bounds: Tango {low:+.4f} (pupils independent)" in joined
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    assert f"Tango's score test gives the lower bound {low:+.4f} (p = {pvalue:#.2g})" in md
    intro = _markdown_cell(load_notebook(NOTEBOOK), "The CR2 test treats the pupils as clustered")
    assert "Tango's for paired 0/1 outcomes on independent items, CR2 when the items come in clusters" in intro


def test_the_designs_power_loss_is_computed_and_its_resolution_said(stream, cost_study):
    """The design's power against the fixed-n test's, for a normal z statistic, written out with scipy: the fixed-n
    power is Phi(theta - c) + Phi(-theta - c); the design's is 1 - P(|Z_k| < b_k for every k), a multivariate normal
    rectangle with corr(Z_j, Z_k) = sqrt(t_j / t_k) and means theta sqrt(t_k) (scipy's Genz integration). The
    notebook's paired Brownian paths must agree within their Monte Carlo error, and it says the simulated difference
    is judged by the exact McNemar test on the discordant streams (the streams recomputed here by hand from the same
    uniforms, the p-value from scipy's binomtest), and how that verdict relates to the normal statistic's difference."""
    from evallib import group_sequential_design

    x, y, _ = stream
    disc = float(np.mean(x != y))
    effect = float(np.round(min(0.04, disc / 2), 3))
    theta = effect * np.sqrt(len(x) / (disc - effect ** 2))
    c = stats.norm.isf(0.025)
    fixed = stats.norm.sf(c - theta) + stats.norm.cdf(-c - theta)
    design = group_sequential_design(len(x), 10, alpha=0.05, spending="obrien-fleming")
    t = np.asarray(design.fractions)
    corr = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
    b = np.asarray(design.boundary)
    inside = stats.multivariate_normal(mean=theta * np.sqrt(t), cov=corr, abseps=1e-7, maxpts=2_000_000).cdf(
        b, lower_limit=-b)
    power = 1 - inside
    md = " ".join(_markdown_outputs(load_notebook(NOTEBOOK)).split())
    found = re.search(r"the fixed-n test's power is ([\d.]+) and the design's ([\d.]+): the design gives up ([\d.]+) "
                      r"percentage points \(Monte Carlo SE ([\d.]+) over 200,000 paired paths\)", md)
    assert found, md
    tol = 4 * np.sqrt(fixed * (1 - fixed) / 200_000) + 1e-4
    assert float(found.group(1)) == pytest.approx(fixed, abs=tol)
    assert float(found.group(2)) == pytest.approx(power, abs=tol + 2e-4)
    assert float(found.group(3)) / 100 == pytest.approx(fixed - power, abs=4 * float(found.group(4)) / 100 + 5e-5)
    hit_fixed, hit_design = _fixed_vs_design_streams(cost_study)
    i, j = cost_study.rules.index("fixed-n"), cost_study.rules.index("alpha-spending")
    assert np.array_equal(hit_fixed, cost_study.rejected[i]) and np.array_equal(hit_design, cost_study.rejected[j])
    only_fixed, only_design = int(np.sum(hit_fixed & ~hit_design)), int(np.sum(hit_design & ~hit_fixed))
    words = _mcnemar_words(only_fixed, only_design, 2000, 0.05, "fixed-n", "alpha-spending")
    assert (f"In the simulation above the two powers are {100 * (only_fixed - only_design) / 2000:+.1f} percentage points "
            f"apart (fixed-n minus design); {words}") in md
    p = stats.binomtest(only_fixed, only_fixed + only_design, 0.5).pvalue
    assert p > 0.05                                    # the default run: not shown to differ
    loss = float(found.group(3)) / 100
    assert (f"not shown to differ at α = 0.05; so at n_sim = 2,000 the simulation does not show the difference the normal "
            f"z statistic gives ({100 * loss:+.2f} percentage points).") in md
    assert "resolvable" not in md and "paired_noise" not in md
    nb = load_notebook(NOTEBOOK)
    prose = " ".join("\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown").split())
    assert "costs a little power" not in prose and "slightly larger maximum n" not in prose
    assert "do the two rates differ at α in the simulation, with `slider_sim` comparisons" in prose
    assert "resolvable" not in prose
    cell = next(_src(c) for c in nb["cells"] if "design_vs = rule_difference(" in _src(c))
    assert 'rule_difference(cost_study[cost_effect], "fixed-n", "alpha-spending")' in cell
    assert "paired_noise" not in cell and "no_discordant" not in cell and ".difference(" not in cell
    assert "all {n_items:,} items;" in cell and "with all 1,191 items" in md


def test_the_whisker_not_the_bar_is_read_against_alpha():
    text = " ".join(_src(load_notebook(NOTEBOOK)["cells"][21]).split())
    assert "does each bar's whisker (± two Monte Carlo SEs) include α" in text and "at or below the dashed line" not in text


def test_the_sequence_is_the_running_intersection_and_its_width_is_compared_in_this_run(stream):
    """The reported sequence is np.maximum.accumulate of its lows (evallib._confseq); whether it ends wider than the
    fixed-n bound is read from the two bounds printed, and the sentence must take that side."""
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    md = " ".join(_markdown_outputs(nb).split())
    fixed, seq = map(float, re.search(r"fixed-n CR2 ([-+\d.]+) \(df [\d.]+\), clustered confidence sequence ([-+\d.]+)",
                                      joined).groups())
    assert "The confidence sequence reported is the running intersection (each lower bound the largest so far)" in md
    assert f"its lower bound {seq:+.4f} against the fixed-n {fixed:+.4f} makes it" in md
    wider = "wider than the fixed-n one at this planned n, as it typically is"
    assert (wider in md) == (seq < fixed) and (("holds only typically, not in this run" in md) == (seq >= fixed))
    take = " ".join(_src(next(c for c in nb["cells"] if _src(c).startswith("## What to take away"))).split())
    assert "costs width" not in take and "the reported sequence is the running intersection" in take


def test_the_smallest_margin_and_the_sliders_range():
    """The smallest margin is said against the margin slider's range, and exercise (a) asks to find the flip only
    where it lies in that range (the negative smallest margin of another run: the slow papermill test)."""
    nb = load_notebook(NOTEBOOK)
    md = " ".join(_markdown_outputs(nb).split())
    slider = next(_src(c) for c in nb["cells"] if "ni_controls = {" in _src(c))
    assert "min=margin_range[0], max=margin_range[1]" in slider
    low = float(re.search(r"fixed-n CR2 ([-+\d.]+) \(df", outputs_text(nb)).group(1))
    lo, hi = map(float, re.search(r"margin_range = \(([\d.]+), ([\d.]+)\)", "".join(_src(c) for c in nb["cells"])).groups())
    assert lo <= -low <= hi and f"The smallest fixed-n margin, {-low:.4f}, lies in the margin slider's range" in md
    ask = " ".join(_src(next(c for c in nb["cells"] if _src(c).startswith("**Predict before each move, then check.** (a) With all"))).split())
    assert "if the smallest fixed-n margin printed above lies in the slider's range" in ask
    assert "If it lies outside the range, which decision does every position give" in ask


def test_prose_types_no_result_of_the_run():
    nb = load_notebook(NOTEBOOK)
    prose = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    for typed in ("1191", "0.108", "18.9", "0.024", "1.58", "67 classes", "6.99", "5.23", "6.1%", "19.7", "0.92",
                  "margin 0.02", "Set 10 looks", "difference of 0.03", "with 10 looks"):
        assert typed not in prose, typed
    # the fixed-n critical value is named as the default alpha's, not as a constant of the method
    assert all("1.96 at the default α = 0.05" in " ".join(cell.split()) for cell in prose.split("\n\n") if "1.96" in cell)


def test_the_betting_sequences_assumptions_are_said_where_it_is_introduced():
    nb = load_notebook(NOTEBOOK)
    intro = next(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown" and "## 3. The remedies" in _src(c))
    for words in ("bounded", "a common conditional mean**", "common-conditional-mean condition", "order of the stream",
                  "clustered items",
                  "clusters=", "section 4"):
        assert words in intro, words


def test_no_zero_width_monte_carlo_error_is_printed():
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert "± 0.0)" not in joined
    assert "(200 of 200; Clopper–Pearson 95% CI 98.2 to 100)" in joined   # 0.025 ** (1 / 200) = 0.9817
    assert "simulated comparisons at alpha = 0.05 (± two Monte Carlo SEs)" in joined
    intro = _markdown_cell(load_notebook(NOTEBOOK), "Armitage, McPherson & Rowe (1969) computed")
    assert "the ± printed under the figure, are two Monte Carlo standard errors" in intro and "Clopper–Pearson" in intro


def test_notebook_09_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    text = _src(exercises)
    assert text.startswith("## Exercises") and len(re.findall(r"^\d+\. ", text, flags=re.M)) == 3
    assert len(re.findall(r"\((Predict|Decide), then (simulate|check|compute)\)", text)) == 3
    assert "solutions" in solutions["metadata"]["tags"] and _src(solutions).startswith("if show_solutions:")
    assert _src(solutions).count("assert ") >= 7 and 'print("solutions ok")' in _src(solutions)
    # no exercise quotes an answer the notebook prints (a rate in per cent, Armitage's table)
    assert not re.search(r"\d%", text) and "24.8" not in text and "Bonferroni" in text
    assert not solutions.get("outputs") and "solutions ok" not in outputs_text(nb)
    params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    assert "show_solutions = False" in _src(params)


def test_no_exercise_is_answered_by_an_earlier_output(stream):
    """Exercise 2 asks for the first boundary of a design with looks + 1 looks, whose first fraction 1 / (looks + 1)
    is no fraction k / looks of section 3's design; its nominal p (Lan & DeMets' function, scipy) is printed nowhere.
    Exercise 3 asks for the smallest margin after the first half of the classes: the CR2 bound there, by hand (with
    the Bell–McCaffrey df of evallib.bell_mccaffrey_df, tested against clubSandwich elsewhere), is printed nowhere."""
    from evallib import bell_mccaffrey_df

    nb = load_notebook(NOTEBOOK)
    text = " ".join(_src(nb["cells"][-2]).split())
    joined = outputs_text(nb) + _markdown_outputs(nb)
    assert "`looks + 1` equally spaced looks" in text and "`group_sequential_design(n_items, looks + 1)`" in text
    first_p = 2 * (2 - 2 * stats.norm.cdf(stats.norm.isf(0.05 / 4) / np.sqrt(1 / 11)))
    assert f"{first_p:.2g}" not in joined and f"{first_p:.1e}" not in joined
    x, y, classes = stream
    assert "after the first half of the classes (`n_classes // 2` of them" in text
    ends = np.flatnonzero(np.r_[classes[1:] != classes[:-1], True]) + 1
    n_half = int(ends[len(ends) // 2 - 1])
    d, g = (x - y)[:n_half], classes[:n_half]
    low = d.mean() - stats.t.isf(0.05, bell_mccaffrey_df(np.unique(g, return_counts=True)[1])) * _cr2_se(d, g)
    for shown in (f"{-low:.3f}", f"{low:+.3f}", f"{-low:.4f}", f"{low:+.4f}"):
        assert shown not in joined, shown


def test_every_normal_quantile_is_written_as_the_upper_quantile():
    """z_{1 - a} is the upper a quantile; z_{a} would be the lower one (negative), wrong in every formula here."""
    prose = "\n".join(_src(c) for c in load_notebook(NOTEBOOK)["cells"] if c["cell_type"] == "markdown")
    subscripts = re.findall(r"z_\{([^}]*)\}", prose)
    assert subscripts and all(sub.replace(" ", "").startswith("1-") for sub in subscripts), subscripts



def test_the_smallest_margin_sentence_says_it_in_words():
    """Point 1 of the third reading: the sentence on the smallest fixed-n margin goes through smallest_margin (so a
    bound above 0 reads "none needed", not a negative margin), and "lies above 0 too" is gone (the sequence's bound
    can lie above 0 when the fixed-n one does not)."""
    nb = load_notebook(NOTEBOOK)
    cell = next(_src(c) for c in nb["cells"] if "margin_range = (" in _src(c))
    assert "smallest_margin(ni.low)" in cell and "{smallest:.4f}" not in cell and " too" not in cell


def test_the_sequence_in_the_cost_table_is_read_at_the_looks_only():
    """Point 2: the cost table's confidence sequence is read at the planned looks, as the notebook now says. With one
    look it can stop only at n_max, whatever it rejects (read after every item, a large difference would stop it
    early)."""
    from evallib import PEEKING_RULES, peeking_study

    s = peeking_study(0.3, looks=1, n_max=200, discordance=0.5, n_resamples=100, rng=0)
    i = PEEKING_RULES.index("confidence sequence")
    assert s.rejection_rate[i] > 0.5 and s.mean_n[i] == 200
    nb = load_notebook(NOTEBOOK)
    assert "Every rule is read at the same `looks` equally spaced looks, the confidence sequence included" in \
        _markdown_cell(nb, "What the remedies cost in items")
    assert "every rule, the confidence sequence included, read at the same 10 looks" in outputs_text(nb)
    assert "(read, like the design, at the same 10 looks: never after every item)" in " ".join(
        _markdown_outputs(nb).split())


def test_only_the_betting_sequence_needs_no_plan():
    """Point 3: the asymptotic sequence cannot be computed without n_opt (its tuning, fixed in advance); the betting
    one takes none. The take-away says so."""
    from evallib import confidence_sequence

    z = np.random.default_rng(0).random(100)
    with pytest.raises(ValueError):
        confidence_sequence(z, method="asymptotic")
    with pytest.raises(ValueError):
        confidence_sequence(z, method="betting", n_opt=50)
    take = " ".join(_src(next(c for c in load_notebook(NOTEBOOK)["cells"]
                              if _src(c).startswith("## What to take away"))).split())
    assert "a confidence sequence needs no plan at all" not in take
    assert "the betting confidence sequence needs no plan at all, while the asymptotic one (section 4) needs its " \
        "tuning fixed in advance" in take and "`n_opt`" in take and "`min_n`" in take


def test_the_slider_question_compares_two_rates_on_the_same_streams():
    """Point 4: exercise (b) of section 3's slider compares two rates read on the same streams, so the comparison is
    paired (the discordant streams, rule_difference's exact McNemar test), never the two ± nor sqrt(se_1^2 + se_2^2)."""
    nb = load_notebook(NOTEBOOK)
    text = " ".join(_src(nb["cells"][21]).split())
    assert "is the difference larger than the ± under the figure" not in text
    assert "\\mathrm{SE}_2^2" not in text and "as if independent" not in text
    assert ("the rules see the same simulated streams, so their rejections are correlated and the comparison must be "
            "paired, stream by stream") in text
    assert '`rule_difference(study(looks, effect), "fixed-n", "alpha-spending")`' in text
    solutions = _src(nb["cells"][-1])
    assert 'rule_difference(s80, "fixed-n", "alpha-spending")' in solutions and "{vs80.text}" in solutions
    assert "paired_noise" not in solutions and "no_discordant" not in solutions and "np.hypot" not in solutions
    code = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert "def paired_noise" not in code and "def no_discordant" not in code


def test_the_sequences_price_in_power_is_decided_by_the_exact_mcnemar_test_on_the_streams(cost_study):
    """Point 5 (round 3): the price in power of the sequence is decided on the discordant streams (one rule rejects,
    the other not) by the exact binomial (McNemar) test, counted here from the study's 0/1 outcomes and tested with
    scipy's binomtest; a gap of two SEs is not the decision (it called 4 discordant streams of 20 a price)."""
    nb = load_notebook(NOTEBOOK)
    cell = next(_src(c) for c in nb["cells"] if "cs_vs = rule_difference(" in _src(c))
    assert 'rule_difference(cost_study[cost_effect], "fixed-n", "confidence sequence")' in cell
    assert "abs(cs_gap) <= 2 * cs_se" not in cell and "more than {cs_error}" not in cell
    joined = outputs_text(nb)
    block = joined.split("\n0.04 ")[-1]
    rows = {r: (float(v), float(e)) for r, v, e in
            re.findall(r"^\s*(fixed-n|confidence sequence)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+$", block, flags=re.M)}
    gap = rows["fixed-n"][0] - rows["confidence sequence"][0]
    i, j = cost_study.rules.index("fixed-n"), cost_study.rules.index("confidence sequence")
    fixed, seq = cost_study.rejected[i], cost_study.rejected[j]
    only_fixed, only_seq = int(np.sum(fixed & ~seq)), int(np.sum(seq & ~fixed))
    assert (only_fixed - only_seq) / 2000 == pytest.approx(gap, abs=1e-3)    # the saved table is this simulation
    p = stats.binomtest(only_seq, only_fixed + only_seq, 0.5).pvalue
    assert p <= 0.05 and only_fixed > only_seq                     # the default run: a price, at alpha = 0.05
    md = " ".join(_markdown_outputs(nb).split())
    assert (f"in power at a fixed maximum n: {100 * gap:.1f} percentage points below the fixed-n test; of the 2,000 "
            f"streams, {only_fixed:,} {'was' if only_fixed == 1 else 'were'} rejected by fixed-n alone and {only_seq:,} by confidence sequence alone; the "
            f"exact (McNemar) binomial test on these {only_fixed + only_seq:,} discordant streams gives p ") in md
    assert "the two rates differ at α = 0.05" in md


def test_the_null_rates_each_carry_their_own_mc_error(stream):
    """Point 1 (round 3): under the null each rule's rate has its own Monte Carlo SE, sqrt(r (1 - r) / n_sim)
    (or, below 10 rejections, its exact interval: _share_words), recomputed here from a rerun of the study, not the
    largest SE of the table after two rates it does not belong to."""
    nb = load_notebook(NOTEBOOK)
    md = " ".join(_markdown_outputs(nb).split())
    assert "Monte Carlo SE at most" not in md.split("under the null the alpha-spending design")[-1][:300]
    from evallib import peeking_study
    x, y, _ = stream
    s = peeking_study(0.0, looks=10, n_max=len(x), discordance=float(np.mean(x != y)), alpha=0.05, n_resamples=2000,
                      rng=0)
    words = []
    for rule in ("alpha-spending", "confidence sequence", "every look"):
        r = s.rejection_rate[s.rules.index(rule)]
        words.append(_share_words(r, 2000))
    assert (f"under the null the alpha-spending design rejects in {words[0]} and the confidence sequence in "
            f"{words[1]}, against {words[2]} for peeking.") in md


def test_differences_of_rates_are_in_percentage_points_and_never_combined_as_if_independent():
    """docs/conventions.md's spellings: a difference of rates (and a rate's SE) in "percentage points", never
    "points" alone; "±", never "±"; and no SE of a difference from two rates' SEs combined as if independent."""
    nb = load_notebook(NOTEBOOK)
    shown = outputs_text(nb) + _markdown_outputs(nb)
    code = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    everything = shown + "\n".join(_src(c) for c in nb["cells"])
    assert " points" in shown and not re.findall(r"(?<!percentage) points\b", " ".join(shown.split()))
    assert not re.findall(r"(?<!percentage) points\b", " ".join(code.split()))
    assert "+/-" not in everything and "as if independent" not in everything and "np.hypot" not in code


def test_the_peeking_intro_does_not_answer_the_level_off_question():
    """Point 6: the text before section 2's slider quotes Armitage's table and the figure's opening position, not
    where the rate goes as the looks multiply (exercise (a) asks whether the bar levels off)."""
    intro = _markdown_cell(load_notebook(NOTEBOOK), "Armitage, McPherson & Rowe (1969) computed")
    assert "towards 1" not in intro and "keeps growing" not in intro
    assert "The figure opens at `looks` looks and a true difference of 0" in intro
    assert "does the red bar level off?" in _markdown_cell(load_notebook(NOTEBOOK), "**Predict before each move, then "
                                                           "check.** (a) At a true difference of 0, move the looks")


def test_tangos_size_at_the_margin_is_computed_and_is_the_exact_trinomial_sum(stream):
    """Point 7: the size is measured here, not quoted: Tango's statistic with the restricted MLE in closed form (the
    positive root of 2 n q^2 - B q - c delta (1 - delta) = 0, B = b (1 + delta) + c (1 - delta) - 2 n delta, derived
    from the trinomial likelihood), summed over every table (b, c) with scipy's log-factorials, at p_b - p_c = margin
    and p_b + p_c the stream's discordance."""
    from scipy import special

    x, y, _ = stream
    n, margin = len(x), 0.02
    disc = float(np.mean(x != y))
    pb, pc = (disc + margin) / 2, (disc - margin) / 2
    b, c = (v.ravel().astype(float) for v in np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"))
    b, c = b[b + c <= n], c[b + c <= n]
    B = b * (1 + margin) + c * (1 - margin) - 2 * n * margin
    q = (B + np.sqrt(B ** 2 + 8 * n * c * margin * (1 - margin))) / (4 * n)
    t = (b - c - n * margin) / np.sqrt(n * (2 * q + margin * (1 - margin)))
    logp = (special.gammaln(n + 1) - special.gammaln(b + 1) - special.gammaln(c + 1) - special.gammaln(n - b - c + 1)
            + special.xlogy(b, pb) + special.xlogy(c, pc) + special.xlogy(n - b - c, 1 - pb - pc))
    size = float(np.exp(logp)[stats.norm.cdf(t) <= 0.05].sum())
    nb = load_notebook(NOTEBOOK)
    md = " ".join(_markdown_outputs(nb).split())
    found = re.search(r"at a discordance of ([\d.]+) \(the pupils'\), is ([\d.]+) against the nominal 0.05", md)
    assert found and float(found.group(1)) == pytest.approx(disc, abs=5e-4)
    assert float(found.group(2)) == pytest.approx(size, abs=6e-5)
    intro = _markdown_cell(nb, "The CR2 test treats the pupils as clustered")
    assert "found its size close to the nominal level" not in intro and "is computed below, exactly" in intro

@pytest.mark.slow
def test_notebook_09_runs_with_other_parameters_and_its_solutions_check_out(notebook_runs):
    # seed 1, logistic against forest: the CR2 lower bound lies above 0 (a negative "smallest margin")
    params = dict(seed=1, candidate="logistic", reference="forest", margin=0.03, alpha=0.1, looks=1, n_sim=400,
                  slider_sim=100, show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    assert injected_cells(nb) and 'candidate = "logistic"' in _src(injected_cells(nb)[0])
    joined = outputs_text(nb)
    assert "1191 test pupils in 67 classes" not in joined          # another split
    assert "logistic - forest, 90% intervals" in joined and "(400 streams)" in joined
    low = float(re.search(r"fixed-n CR2 ([-+\d.]+) \(df", joined).group(1))
    assert low > 0 and f"the smallest margin this evaluation shows at a fixed n: none needed (the lower bound {low:+.4f} " \
        "lies above 0: logistic is shown better than forest, so non-inferiority is shown at every margin ≥ 0)" in joined
    md_run = " ".join(_markdown_outputs(nb).split())
    assert "any margin ≥ 0 would be shown by this planned, single look" in md_run and "any margin above -" not in md_run
    # the smallest margin in words (smallest_margin), never the raw negative -low
    assert (f"The smallest fixed-n margin: none needed (the lower bound {low:+.4f} lies above 0: logistic is shown better "
            "than forest") in md_run and f"The smallest fixed-n margin, {-low:.4f}" not in md_run
    assert "so every position of the margin slider below (0.005 to 0.06) shows non-inferiority at a fixed n" in md_run
    # slider (b)'s solution compares the two rates by the exact McNemar test on the discordant streams (below)
    assert "section 3's slider (b): at a true difference of" in joined and "against two SEs of the difference" not in joined
    assert "With one look the design is the fixed-n test and gives up no power." in md_run
    assert "1 look up to" in joined and "solutions ok" in joined
    md = _markdown_outputs(nb)
    assert "In this run" in md
    # one look: the alpha-spending design is the fixed-n test, and the notebook says so instead of "spends little early"
    assert f"With one look the alpha-spending design is the fixed-n test: its one boundary is |z| = {stats.norm.isf(0.05):.4f}" in md
    assert "it has spent" not in md
    # section 2's peeking_study and normal-mean columns are at this run's alpha = 0.1 (one look: the rate is alpha for a
    # normal mean), not at the default 0.05
    rows = _peeking_rows(joined)
    assert set(rows) == {1, 2, 5}
    for k, (r, se, exact, gap, ps, ps_se, ps_gap, normal) in rows.items():
        assert abs(ps - exact) < 4 * ps_se + 0.01, (k, rows[k])
    assert abs(rows[1][4] - 0.1) < 4 * np.sqrt(0.1 * 0.9 / 400) and abs(rows[1][7] - 0.1) < 0.003
    # exercise 1 with one look is degenerate and says so; exercise 3's half-stream bound lies above 0: no margin needed
    assert "with one look there is nothing to correct: the every-look rule is the fixed-n test" in joined
    half = re.search(r"^3\. first \d+ classes \(\d+ pupils\): at margin 0\.03 non-inferiority is (shown|not shown); "
                     r"smallest margin(.*)\(bound ([-+\d.]+) = ", joined, flags=re.M)
    assert half and float(half.group(3)) > 0 and "on the grid" not in half.group(2)
    assert half.group(1) == "shown"                                 # the bound lies above 0 > -0.03
    assert half.group(2).startswith(f": none needed (the lower bound {half.group(3)} lies above 0")
    # slider (b) at one look: the design is the fixed-n test, so no stream is discordant and no split could reject
    assert ("percentage points (fixed-n minus design) with slider_sim = 100; "
            + _mcnemar_words(0, 0, 100, 0.1, "fixed-n", "alpha-spending") + "; the design stops after") in joined
    assert "(read, like the design, at the same 1 look: never after every item)" in md_run
    assert "read at the same 1 look\n" in joined


@pytest.mark.slow
def test_notebook_09_at_many_looks_a_small_alpha_and_a_worse_candidate(notebook_runs):
    """The cold reader's runs A and C in one: 20 looks (the O'Brien–Fleming-type spending far in the tail), alpha 0.01
    (section 2's columns at alpha), seed 7 with knn against logistic (worse, by less than the default margin but more
    than this one), a margin of 0.005 and n_sim 500 (both rules of section 3 reject on the same streams)."""
    params = dict(seed=7, candidate="knn", looks=20, alpha=0.01, margin=0.005, n_sim=500, slider_sim=100,
                  show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    joined = outputs_text(nb)
    md = " ".join(_markdown_outputs(nb).split())
    assert "solutions ok" in joined and " inf " not in joined
    # section 2 at alpha = 0.01: one look is the fixed-n test (a normal mean rejects in alpha), two looks of a normal
    # mean by scipy's bivariate normal with corr sqrt(1/2)
    rows = _peeking_rows(joined)
    assert set(rows) == {1, 2, 5, 20, 40}
    c = stats.norm.isf(0.005)
    two = 1 - stats.multivariate_normal(mean=[0, 0], cov=[[1, np.sqrt(0.5)], [np.sqrt(0.5), 1]]).cdf(
        [c, c], lower_limit=[-c, -c])
    for k, normal_k in ((1, 0.01), (2, two)):
        assert abs(rows[k][7] - normal_k) < 4 * np.sqrt(normal_k / 200_000) + 5e-4, k
        assert abs(rows[k][4] - normal_k) < 4 * np.sqrt(normal_k / 500) + 0.005, k     # peeking_study at alpha too
    assert (f"ends \"significant\" in {100 * rows[20][2]:.1f}% of all the label swaps (exactly), "
            f"{rows[20][2] / 0.01:.1f} times the promised 1%") in md
    # the design: Lan & DeMets' first boundary at t = 1/20, 2 Phi(-z / sqrt t) a side with z_{1 - alpha/4}
    first = re.search(r"^\s+\d+\s+([\d.]+)\s+(\S+)\s+-?[\d.]+$", joined.split("two-sided alpha = 0.01")[1], flags=re.M)
    spent = 2 * stats.norm.sf(stats.norm.isf(0.01 / 4) * np.sqrt(20))
    assert float(first.group(1)) == pytest.approx(stats.norm.isf(spent), abs=6e-5)
    assert float(first.group(2)) == pytest.approx(2 * spent, rel=0.05)
    assert f"against {stats.norm.isf(0.005):.4f} for one planned look" in md
    assert "every rule, the confidence sequence included, read at the same 20 looks" in joined
    # section 3: fixed-n against the design by the exact McNemar test on the printed discordant counts (scipy's
    # binomtest, or too few for any split to reach alpha), the gap their difference over the 500 streams
    found = re.search(r"In the simulation above the two powers are ([-+][\d.]+) percentage points apart \(fixed-n minus "
                      r"design\); of the 500 streams, (\d+) (?:was|were) rejected by fixed-n alone and (\d+) by alpha-spending alone", md)
    assert found, md
    a, b = int(found.group(2)), int(found.group(3))
    assert float(found.group(1)) == pytest.approx(100 * (a - b) / 500, abs=0.05)
    assert _mcnemar_words(a, b, 500, 0.01, "fixed-n", "alpha-spending") in md and "resolvable" not in md
    # section 4: knn is shown worse (the upper bound below 0) and inferior by more than 0.005; the upper bound is the
    # mirror of the lower one about the estimate (a symmetric t interval), from the printed stream difference
    estimate = float(re.search(r"difference ([-+][\d.]+); the two disagree", joined).group(1))
    low = float(re.search(r"fixed-n CR2 ([-+\d.]+) \(df", joined).group(1))
    high = float(re.search(r"its one-sided 99% upper bound is ([-+\d.]+),", md).group(1))
    assert high == pytest.approx(2 * estimate - low, abs=2e-4)
    assert high < -0.005 and "so knn is shown worse than logistic" in md
    assert "the three-way verdict is: inferior by more than δ = 0.005" in md
    # exercise 2 at 21 looks: the first boundary by Lan & DeMets, no assertion error
    ex2 = re.search(r"^2\. 21 looks, the first at \d+ items: boundary \|z\| = ([\d.]+)", joined, flags=re.M)
    assert float(ex2.group(1)) == pytest.approx(stats.norm.isf(2 * stats.norm.sf(stats.norm.isf(0.0025) * np.sqrt(21))),
                                                abs=6e-4)


@pytest.mark.slow
def test_notebook_09_sliders_redraw_through_evallib(notebook_runs):
    """Move every slider in a live kernel: each move simulates (or tests) the new setting, redraws the one figure
    in place, and a position shown before costs nothing (the caches). Timings are printed; speed is judged by
    benchmarks/bench_sliders.py."""
    probe = r'''
import json, time
calls = []
_study = peeking_study
def spy(effect, **kw):
    calls.append((effect, kw["looks"]))
    return _study(effect, **kw)
peeking_study = spy
moves = {}
for name, box, ctl, key, value in [("peek looks", peek_box, peek_controls, "looks", 3),
                                   ("peek effect", peek_box, peek_controls, "effect", 0.02),
                                   ("remedy looks", remedy_box, remedy_controls, "looks", 7),
                                   ("remedy effect", remedy_box, remedy_controls, "effect", 0.01)]:
    before = len(calls)
    t = time.perf_counter()
    ctl[key].value = value
    moves[name] = time.perf_counter() - t
    assert len(calls) == before + 1, name
    s = study(*(ctl[k].value for k in ("looks", "effect")))
    ax = peek_ax if box is peek_box else remedy_ax
    assert [p.get_height() for p in ax.patches] == list(s.rejection_rate[:len(ax.patches)]), name
remedy(3, 0.02)                       # a position the first panel showed: cached, nothing simulated
assert len(calls) == 4
assert len(peek_ax.patches) == 2 and len(remedy_ax.patches) == 4
for margin, seen in ((0.04, n_classes), (0.04, 20)):
    t = time.perf_counter()
    ni_controls["margin"].value, ni_controls["seen"].value = margin, seen
    moves[f"margin {margin}, {seen} classes"] = time.perf_counter() - t
    res, low_seq = decision(margin, seen)
    assert res.n_items == class_ends[seen - 1] and ni_ax.lines[0].get_xdata()[0] == -margin
    assert ni_ax.get_title(loc="left").startswith("non-inferiority " + ("shown" if res.reject else "not shown"))
assert all(len(b.children) == 2 for b in (peek_box, remedy_box, ni_box))
print(json.dumps(moves))
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(n_sim=200))
    text = "".join(o.get("text", "") for o in out)
    assert "sliders ok" in text, out
    print("\nnotebook 09 slider moves (s):", json.loads(text.splitlines()[0]))


@pytest.mark.slow
def test_notebook_09_solutions_at_one_look_and_few_simulations_do_not_crash(notebook_runs):
    """The cold reader's crash: one look, n_sim = 20, alpha = 0.01. Exercise 1's every-look rate at Pocock's level can be
    0 of 20 (SE 0); its check uses the binomial SE at alpha itself, and the line prints the Clopper–Pearson bound, here
    scipy's beta quantile, where all or none rejected."""
    params = dict(looks=1, n_sim=20, alpha=0.01, show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    joined = outputs_text(nb)
    assert "solutions ok" in joined
    line = re.search(r"^1\. 1 look: .*at which the every-look rule rejects in (.*?) \(with one look", joined, flags=re.M)
    assert line, joined
    upper = 1 - stats.beta.ppf(0.025, 20, 1)                      # 0 of 20: the exact 95% upper bound
    shown = line.group(1)
    assert shown == (f"none of 20 (Clopper–Pearson 95% upper bound {100 * upper:.2f}%)" if shown.startswith("none")
                     else _share_words(float(shown.split("%")[0]) / 100, 20)), shown
