"""Notebook 08 (error bars for evals) as saved, as papermill runs it, and with its sliders moved.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py and tests/test_readable.py check its house style. Here: the saved
key outputs against independent computations, the prose's computed sentences against
the tables they read, the exercises and the guarded solutions cell, a papermill run with
other parameters (and the solutions), and a live kernel in which each of the five
sliders is moved: each move must redraw through evallib's ``plot_paired_item_coverage``
with the new value, and that callback must answer within 0.1 s.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from _nbtools import (
    NOTEBOOK_DIR,
    injected_cells,
    load_notebook,
    outputs_text,
    widget_views,
)
from scipy import stats

NOTEBOOK = NOTEBOOK_DIR / "08_error_bars_for_evals.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _markdown_outputs(nb) -> str:
    return "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                     for o in c.get("outputs", []))


def _prose(nb) -> str:
    return "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_notebook_08_imports_only_public_evallib_names():
    """A lesson shows the reader what to import: evallib's public names, never a private module (evallib.x._y)."""
    code = "\n".join(_src(c) for c in load_notebook(NOTEBOOK)["cells"] if c["cell_type"] == "code")
    imports = re.findall(r"^\s*(?:from|import)\s+(evallib[\w.]*)", code, flags=re.M)
    assert imports and not [m for m in imports if any(part.startswith("_") for part in m.split("."))], imports


def test_notebook_08_is_saved_with_its_key_outputs():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    # the real evaluation of the default run (seed 0): the split of MASS::nlschools's 133 classes
    assert "1191 test pupils in 67 classes (trained on 1096 pupils in 66 other classes" in joined
    assert "0/1 correct: clustered / naive SE from 0.91 to 0.99" in joined
    assert "p(truth): clustered / naive SE from 1.05 to 1.17" in joined
    assert "Holm over all 6 pairs" in joined and "boosting is separated from it" in joined
    assert "coverage of 95% pass@k intervals over 2,000 repeated evaluations" in joined
    assert ("Holm over all 10 pairs (tie_group): share of 2,000 null leaderboards in which an equal model was separated "
            "from the leader: ") in joined
    assert not widget_views(nb), "strip widget views"
    # one output per widget: the explorer is one live output, and no static copy of it is drawn beside it
    source = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert "interactive_output" not in source and source.count("live_output(") == 1
    assert "plot_paired_item_coverage(**explorer" not in source
    explorer_cell = next(c for c in nb["cells"] if "live_output(" in _src(c))
    assert [o["output_type"] for o in explorer_cell["outputs"]] == ["display_data", "stream"]
    assert "image/png" in explorer_cell["outputs"][0]["data"] and explorer_cell["outputs"][0]["metadata"]["image/png"]["alt"]
    printed = "".join(explorer_cell["outputs"][1]["text"])
    assert "paired, CR2 + Bell–McCaffrey" in printed and "600 items in 30 clusters, latent ICC 0.3" in printed
    # author-only notes are tagged for Voila to drop
    assert all("author" in c["metadata"].get("tags", []) for c in nb["cells"] if "papermill" in _src(c)
               and c["cell_type"] == "markdown")
    assert "widgets" not in nb["metadata"]
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 10 and not any("NBVAL_CHECK_OUTPUT" in _src(c) for c in nb["cells"])


def test_exact_small_sample_coverage_matches_an_independent_sum():
    """Section 3's exact table: the CLT and Wilson intervals' coverage at mean 0.9, summed over k ~ Binomial(n, 0.9)
    with the intervals written out (Wilson from statsmodels)."""
    proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    z = stats.norm.isf(0.025)
    for n in (10, 20, 50, 100, 200, 500):
        k = np.arange(n + 1)
        pmf = stats.binom.pmf(k, n, 0.9)
        p = k / n
        half = z * np.sqrt(p * (1 - p) / n)
        naive = pmf @ ((p - half <= 0.9) & (0.9 <= p + half))
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        wilson = pmf @ ((low <= 0.9) & (0.9 <= high))
        row = re.search(rf"^{n:<5d}\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", joined, flags=re.M)
        assert row, n
        assert float(row.group(1)) == pytest.approx(naive, abs=5e-4)
        assert float(row.group(3)) == pytest.approx(wilson, abs=5e-4)


def test_pairing_table_obeys_the_variance_identity():
    """Section 4: paired / unpaired SE is sqrt(1 - 2 r s_a s_b / (s_a^2 + s_b^2)), recomputed from the data."""
    from evallib import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)          # the default run's evaluation
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    for a, b in (("logistic", "boosting"), ("boosting", "forest")):
        xa, xb = ev.correct[a].to_numpy(float), ev.correct[b].to_numpy(float)
        sa, sb, r = xa.std(ddof=1), xb.std(ddof=1), np.corrcoef(xa, xb)[0, 1]
        ratio = np.sqrt(1 - 2 * r * sa * sb / (sa ** 2 + sb ** 2))
        line = next(line for line in joined.splitlines() if line.strip().startswith(f"{a} - {b}"))
        assert f"{r:.4f}" in line and f"{ratio:.4f}" in line, line


def test_computed_sentences_read_their_tables():
    """The prose's numbers come from the tables printed above them (no typed numbers)."""
    nb = load_notebook(NOTEBOOK)
    joined, md = outputs_text(nb), _markdown_outputs(nb)
    cover = re.search(r"^0\.20\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", joined, flags=re.M)
    said = re.search(r"naive 95% interval contains the true mean in ([\d.]+)%", md)
    assert cover and said and abs(float(said.group(1)) - 100 * float(cover.group(2))) <= 0.05 + 1e-9
    forest = re.search(r"^\s+1\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+[\d.]+$", joined, flags=re.M)
    said = re.search(r"within-item variance makes up ([\d.]+)%", md)
    assert forest and said and abs(float(said.group(1)) - 100 * float(forest.group(1))) <= 0.05 + 1e-3
    passk = re.findall(r"^\s+(\d+)\s+(clustered \(CR2\)|clusters ignored)\s+([\d.]+)\s+[\d.]+$", joined, flags=re.M)
    assert len(passk) == 4
    for k, how, value in passk:
        if how.startswith("clustered"):
            assert f"{100 * float(value):.1f}% at k = {k}" in md
    # the markdown cells type no result of the run: each number they hold is a fixed setting or arithmetic
    prose = _prose(nb)
    for typed in ("0.91", "1.17", "67 classes", "1191", "9.1%", "4.3%", "62.2", "0.743"):
        assert typed not in prose, typed


def test_notebook_08_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    text = _src(exercises)
    assert text.startswith("## Exercises")
    assert 3 <= len(re.findall(r"^\d+\. ", text, flags=re.M)) <= 5
    assert len(re.findall(r"\((Predict|Decide), then (simulate|check|compute)\)", text)) >= 3
    # no cross-check of an API in the exercises (those live in the unit tests)
    assert "by hand" not in text and "the identity" not in text
    assert "solutions" in solutions["metadata"].get("tags", []) and _src(solutions).startswith("if show_solutions:")
    assert _src(solutions).count("assert ") >= 8 and 'print("solutions ok")' in _src(solutions)
    assert "solutions ok" not in outputs_text(nb) and not solutions.get("outputs")
    params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    assert "show_solutions = False" in _src(params)


def test_opening_states_what_the_house_style_asks():
    nb = load_notebook(NOTEBOOK)
    opening = _src(nb["cells"][0])
    for source in ("arXiv:2411.00640", "arXiv:2107.03374", "arXiv:2406.12045", "arXiv:2503.01747", "McCaffrey", "Kish",
                   "Eldridge", "Yekutieli", "Mogstad"):
        assert source in opening, source
    assert "Yao et al.'s (2024)" in opening and "paired CR2" in opening
    assert re.search(r"^- \*\*Reading time:\*\* about \d+ minutes to read and run, and \d+ more for the exercises",
                     opening, flags=re.M)


@pytest.mark.slow
def test_notebook_08_runs_with_other_parameters_and_its_solutions_check_out(notebook_runs):
    params = dict(seed=3, samples=3, n_answers=6, alpha=0.1, n_sim=300, slider_sim=100, show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "n_answers = 6" in _src(injected[0])
    joined = outputs_text(nb)
    assert "coverage of 90% intervals," in joined and "300 simulations each" in joined
    assert "6 answers per pupil, 90% intervals clustered by class" in joined
    assert re.search(r"^\s+6\s+0\.\d+", joined, flags=re.M)          # pass@k at k = n_answers
    assert "the forest gives the same answer in all 3 refits" in joined
    # 3 refits leave the refit effect 2 degrees of freedom: its upper bound is nearly empty, so no factor is read from it
    assert "has 2 degrees of freedom" in _markdown_outputs(nb)
    if "negligible here even at that bound" not in _markdown_outputs(nb):
        assert "the data bound the refit share hardly at all" in _markdown_outputs(nb)
        assert "understate the standard error by up to a factor" not in _markdown_outputs(nb)
    assert "over 300 repeated evaluations" in joined and "of 300 null leaderboards" in joined
    assert "at alpha = 0.1" in joined
    assert "1191 test pupils" not in joined                           # another split of the classes
    md = _markdown_outputs(nb)
    assert "In this run" in md and "at ICC 0.2" in md
    assert "solutions ok" in joined


@pytest.mark.slow
def test_notebook_08_sliders_redraw_through_evallib_in_place(notebook_runs):
    """Move each of the five sliders in a live kernel.

    The notebook's cached ``explorer_table`` looks ``paired_item_coverage`` up in the notebook's
    namespace, so a spy there records the settings each move simulated (and that a move back
    simulates nothing); the bars, updated in place, show that table, and the text printed under
    the figure names the design. The callback's CPU and wall time, the PNG render's CPU time
    and each move's wall and CPU time in the kernel are printed for the record; speed is
    judged by benchmarks/bench_sliders.py (0.1 s a move), not by this test.
    """
    probe = r'''
import json, time
from evallib.lessons.live import render_png
calls, moves, moves_cpu, texts = [], {}, {}, []
_coverage = paired_item_coverage
def spy(**kwargs):
    calls.append(kwargs)
    return _coverage(**kwargs)
paired_item_coverage = spy              # explorer_table looks it up in the notebook's namespace
bars = list(explorer_ax.patches)
steps = [("items", "n_items", 1000), ("cluster_size", "cluster_size", 1), ("icc", "icc", 0.6),
         ("samples", "samples", 16), ("correlation", "correlation", 0.95), ("cluster_size", "cluster_size", 40)]
for control, arg, value in steps:
    before = len(calls)
    t, c = time.perf_counter(), time.process_time()
    controls[control].value = value
    moves[f"{control}={value}"] = time.perf_counter() - t
    moves_cpu[f"{control}={value}"] = time.process_time() - c
    assert len(calls) == before + 1 and calls[-1][arg] == value, (control, calls[-1:])
    # the bars show the table just simulated
    table = explorer_table(*(controls[k].value for k in ("items", "cluster_size", "icc", "samples", "correlation")))
    assert [p.get_height() for p in explorer_ax.patches] == list(table["coverage"]), control
    texts.append(explore(*(controls[k].value for k in ("items", "cluster_size", "icc", "samples", "correlation")))[1])
assert list(explorer_ax.patches) == bars, "a move updates the bars in place"
assert len(explorer_box.children) == 2, "one panel, one output"
end = ", true difference +0.02"
assert [t.splitlines()[-2] for t in texts] == [
    "1000 items in 50 clusters, latent ICC 0.3, K = 1 answer, difficulty correlation 0.8" + end,
    "1000 items in 1000 clusters, latent ICC 0.3, K = 1 answer, difficulty correlation 0.8" + end,
    "1000 items in 1000 clusters, latent ICC 0.6, K = 1 answer, difficulty correlation 0.8" + end,
    "1000 items in 1000 clusters, latent ICC 0.6, K = 16 answers, difficulty correlation 0.8" + end,
    "1000 items in 1000 clusters, latent ICC 0.6, K = 16 answers, difficulty correlation 0.95" + end,
    "1000 items in 25 clusters, latent ICC 0.6, K = 16 answers, difficulty correlation 0.95" + end,
], texts
assert all(c["n_resamples"] == slider_sim and c["rng"] == seed for c in calls)
# moving back to a position already shown simulates nothing (the cache)
controls["cluster_size"].value = 1
controls["cluster_size"].value = 40
assert len(calls) == len(steps)
paired_item_coverage = _coverage
callback, callback_wall, render = {}, {}, {}
for kwargs, (name, _, _) in zip(calls, steps):
    cpu, wall, png = [], [], []
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        table = paired_item_coverage(**kwargs)
        plot_paired_item_coverage(**{k: kwargs[k] for k in ("n_items", "cluster_size", "icc", "samples", "correlation")},
                                  alpha=alpha, table=table, ax=explorer_ax, reuse=True, annotate=False)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
        c = time.process_time()
        render_png(explorer_fig)
        png.append(time.process_time() - c)
    key = f"{name}={kwargs[name if name != 'items' else 'n_items']}"
    callback[key], callback_wall[key], render[key] = min(cpu), min(wall), min(png)
controls["items"].value = 40          # 40 items in clusters of 40: one cluster, a sentence instead of bars
assert any("make one cluster" in t.get_text() for t in explorer_ax.texts if t.get_visible())
controls["cluster_size"].value = 30   # 40 items in clusters of 30 are two clusters, 30 and 10: bars, not "one cluster"
assert all(p.get_visible() for p in explorer_ax.patches)
assert not any("one cluster" in t.get_text() for t in explorer_ax.texts if t.get_visible())
assert "40 items in 2 clusters" in explore(40, 30, *(controls[k].value for k in ("icc", "samples", "correlation")))[1]
print(json.dumps({"callback_cpu": callback, "callback_wall": callback_wall, "render_cpu": render, "move_wall": moves,
                  "move_cpu": moves_cpu}))
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(n_sim=200))
    text = "".join(o.get("text", "") for o in out)
    assert "sliders ok" in text, out
    timings = json.loads(text.splitlines()[0])
    print("\nnotebook 08 slider timings (s):", timings)


def test_rank_sets_and_bh_read_the_pairwise_table():
    """Section 8: the guaranteed rank sets recomputed from Bonferroni intervals of an independent CR2 computation,
    the BH-only pairs named, and the prose that qualifies BH and the bootstrap ranks."""
    from evallib import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    nb = load_notebook(NOTEBOOK)
    joined, prose = outputs_text(nb), _prose(nb)
    x = ev.correct.to_numpy(float)
    means = x.mean(axis=0)
    names = list(ev.correct.columns)
    cl = ev.pupils["class"].to_numpy()
    _, codes = np.unique(cl, return_inverse=True)
    n, m = len(cl), len(names)
    sizes = np.bincount(codes)
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    above, below = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
    for i, j in pairs:
        hi, lo = (i, j) if means[i] >= means[j] else (j, i)
        d = x[:, hi] - x[:, lo]
        e = np.bincount(codes, weights=d - d.mean())
        se = np.sqrt((e ** 2 / (1 - sizes / n)).sum()) / n
        # Bell–McCaffrey df of the intercept is the same for every pair (it depends on the design only)
        df = float(re.search(r"Bell–McCaffrey t with ([\d.]+) df", joined).group(1))
        if d.mean() - stats.t.isf(0.05 / len(pairs) / 2, df) * se > 0:
            above[names[lo]] += 1
            below[names[hi]] += 1
    for name in names:
        assert re.search(rf"^\s*{name}: rank {1 + above[name]} to {m - below[name]}$", joined, flags=re.M), name
    assert "pairs BH would declare different but Holm does not: knn - boosting" in joined
    assert "Hall & Miller 2009" in prose and "Mogstad, Romano, Shaikh & Wilhelm 2024" in prose
    assert "no coverage guarantee" in prose and "reweights classes (Poisson weights" in prose
    assert "Holm needs no assumption about the dependence" in prose
    assert "gets no confidence interval with a" not in prose
    assert "strictly concave for $k \\ge 2$" in prose
    assert "(Kish 1965 for equal clusters" in prose and "\\widehat{\\operatorname{Var}}(\\bar d)" in prose


def test_cell_11_and_16_explain_their_numbers():
    nb = load_notebook(NOTEBOOK)
    joined, prose = outputs_text(nb), _prose(nb)
    # default run: the clustered SE of the best 0/1 score is below the naive one, so the effective n is capped
    assert "The effective sample size is capped at the number of scores, 1,191" in joined
    assert f"10/10 correct has probability {0.9 ** 10:.2f}" in joined
    assert "Wilson below the CLT interval at none of these N" in joined
    assert "fall furthest below the promise" not in prose and "Brown, Cai & DasGupta 2001" in prose


def test_exercise_4_asks_for_the_size_of_the_plug_in_bias():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = _src(nb["cells"][-2]), _src(nb["cells"][-1])
    assert "how far below it the plug-in" in exercises and "too high or too low" not in exercises
    assert "for n in (5, 20)" in solutions
    # the answer, independently: E[1 - (1 - c/n)^3] for c ~ Binomial(n, 0.3)
    for n, expected in ((5, 0.572), (20, 0.635)):
        c = np.arange(n + 1)
        assert stats.binom.pmf(c, n, 0.3) @ (1 - (1 - c / n) ** 3) == pytest.approx(expected, abs=5e-4)
    # exercise 3's answer is not printed by section 6
    assert "a thousand refits" not in outputs_text(nb) + _markdown_outputs(nb)


def test_every_saved_figure_has_alt_text_and_the_prose_points_only_to_what_is_drawn():
    """Each PNG in the saved notebook carries alt text naming its numbers; the explorer's figure has no title
    and no labels over its bars (its numbers are printed under it), so the prose must not send readers there."""
    nb = load_notebook(NOTEBOOK)
    images = [(i, o) for i, c in enumerate(nb["cells"]) for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert len(images) == 3
    for i, o in images:
        alt = o.get("metadata", {}).get("image/png", {}).get("alt", "")
        assert len(alt) > 80, (i, alt)
    alts = " ".join(o["metadata"]["image/png"]["alt"] for _, o in images)
    assert "naive 75.2%" in alts and ("logistic rank 1 (interval 1 to 3; share of resamples in which it ranks first: 79.7% (MC SE 0.9 percentage "
                                 "points))") in alts
    prose = _prose(nb)
    assert "The title gives" not in prose and "in the title" not in prose and "Above each bar" not in prose
    assert "keeps its level near 0 and 1" not in prose
    assert "if each keeps its own level" in prose


def test_refit_wide_variance_matches_a_two_way_anova():
    """Section 6's refit-wide variance component, recomputed with statsmodels' two-way ANOVA (pupils x refits)."""
    sm = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    import pandas as pd

    from evallib import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    s = ev.samples.to_numpy(float)
    n, k = s.shape
    # the design is balanced, so the item effects are absorbed by centring each pupil's answers (the refits' sum
    # of squares is unchanged); the residual degrees of freedom are then (n - 1)(k - 1), not statsmodels' n k - k
    centred = s - s.mean(axis=1, keepdims=True)
    long = pd.DataFrame({"y": centred.ravel(), "refit": np.tile(np.arange(k), n)})
    table = anova_lm(sm.ols("y ~ C(refit)", data=long).fit())
    ms_refit = table.loc["C(refit)", "sum_sq"] / (k - 1)
    ms_resid = table.loc["Residual", "sum_sq"] / ((n - 1) * (k - 1))
    sigma_r2 = max(0.0, (ms_refit - ms_resid) / n)
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    said = re.search(r"puts \$\\sigma_r\^2\$ at ([^,]+), ([\d.]+)% of the variance of the mean", md)
    assert said, md
    assert float(said.group(1)) == pytest.approx(sigma_r2, rel=0.05)
    acc = s.mean(axis=0)
    assert f"from {acc.min():.3f} to {acc.max():.3f}" in md
    # the one-way variance of the mean with 5 refits, (between + within / K) / N, from the same data
    within = s.var(axis=1, ddof=1).mean()
    between = s.mean(axis=1).var(ddof=1) - within / k
    share = (sigma_r2 / k) / ((between + within / k) / n + sigma_r2 / k)
    assert float(said.group(2)) == pytest.approx(100 * share, abs=0.06)
    # a point estimate on k - 1 df is no evidence of absence: the F test of the refit effect (scipy's F distribution
    # on statsmodels' sums of squares) and an upper 95% bound on sigma_r^2, here by the chi-square route on the
    # refits' mean square alone, (k - 1) MS_refit / chi2_{0.05}(k - 1), treating MS_resid (1,190 x 4 df) as known
    f_stat = ms_refit / ms_resid
    pvalue = stats.f.sf(f_stat, k - 1, (n - 1) * (k - 1))
    tested = re.search(r"F = ([\d.]+) on (\d+) and ([\d,]+) df, p = ([\d.e-]+)\)", md)
    assert tested, md
    assert float(tested.group(1)) == pytest.approx(f_stat, abs=0.006)
    assert (int(tested.group(2)), int(tested.group(3).replace(",", ""))) == (k - 1, (n - 1) * (k - 1))
    assert float(tested.group(4)) == pytest.approx(pvalue, rel=0.02)
    assert ("is not shown to matter" in md) == (pvalue > 0.05)
    high = max(0.0, ((k - 1) * ms_refit / stats.chi2.ppf(0.05, k - 1) - ms_resid) / n)
    share_high = (high / k) / ((between + within / k) / n + high / k)
    bound = re.search(r"would make it up to ([\d.]+)% of the variance of the mean", md)
    assert bound, md
    assert float(bound.group(1)) == pytest.approx(100 * share_high, abs=0.15)
    assert share_high > 0.05 and "negligible" not in md   # this run's bound is above the 5% line
    assert "cannot rule out a share above 5%" in md


def test_rank_sets_coverage_is_measured_and_read_with_its_monte_carlo_error():
    """Section 8 measures the rank sets' joint coverage for tied models instead of asserting the guarantee; the
    printed verdict must follow from the printed coverage and its binomial Monte Carlo SE."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    m = re.search(r"share of ([\d,]+) simulated leaderboards on which all true ranks held: ([\d.]+)% \(MC SE ([\d.]+) "
                  r"percentage points\), promised at least (\d+)%: (.+)$", joined, flags=re.M)
    assert m, "rank-set coverage line missing"
    held, n_sim, promised = float(m.group(2)) / 100, int(m.group(1).replace(",", "")), float(m.group(4)) / 100
    se = np.sqrt(held * (1 - held) / n_sim)
    assert min(held, 1 - held) * n_sim >= 10          # this run is read by its MC SE, not the exact interval
    assert float(m.group(3)) == pytest.approx(100 * se, abs=0.051)
    expected = ("short of its promise" if held + 2 * se < promised else
                "above its promise" if held - 2 * se > promised else "not shown to differ from its promise")
    assert m.group(5).startswith(expected)
    # with four tied models a rank set misses only if some pair is declared different: at most 1 - held of them,
    # so a Bonferroni family over 6 pairs at 5% cannot miss much more than 5% (with CR2 intervals near their level)
    assert held >= promised - 3 * se


# ------------------------------------------------------------------ issue 33: the lesson's last overstatements
def test_exercise_3s_answer_is_not_printed_outside_the_solutions():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb) + _markdown_outputs(nb)
    assert "no number of samples per item can bring it below" not in joined
    assert "samples per item would give" not in joined
    forest = joined.split("forest, 5 refits per pupil: ")[1].split("the forest gives the same answer")[0]
    rows = [line.split() for line in forest.splitlines() if line.split() and line.split()[0].isdigit()]
    assert [int(row[0]) for row in rows] == [1, 2, 5]   # K observed at most (the table's rows, however the streams split)


def test_a_screen_within_its_noise_is_read_as_absence_of_evidence():
    """knn's p(truth) ratio 1.1654 (implied ICC 0.019, design effect 1.36) is within 1 +- 2 / sqrt(2 df): the text must
    say the screen cannot rule that out, with the chance it passes unflagged, recomputed here from the printed ratio
    and df (normal approximation, relative SE 1 / sqrt(2 df))."""
    nb = load_notebook(NOTEBOOK)
    joined, md = outputs_text(nb), _markdown_outputs(nb)
    row = re.search(r"p\(truth\)\s+knn\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+([\d.]+)", joined)
    ratio, df = map(float, row.groups())
    noise = 1 / np.sqrt(2 * df)
    missed = stats.norm.cdf((1 + 2 * noise - ratio) / (ratio * noise))
    assert 0.5 < missed < 0.7
    assert "absence of evidence, not evidence of no clustering" in md and "cannot rule it out either" in md
    assert f"The largest ratio, knn's {ratio:.2f}" in md and f"design effect of {ratio ** 2:.2f}" in md
    assert f"pass this screen unflagged with probability about {missed:.2f}" in md
    assert f"from about {(ratio / (1 + 2 * noise)) ** 2:.2f} to {(ratio / (1 - 2 * noise)) ** 2:.2f}" in md
    # the 0/1 score's ratios, read from the saved SE table: none above 1, so there is no clustering seen to tell from
    # none, and the screen says only that it cannot rule clustering out
    ratios01 = [float(r) for r in re.findall(r"0/1 correct\s+\w+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s+[\d.]+", joined)]
    assert len(ratios01) == 4 and max(ratios01) <= 1
    reading01 = re.search(r"\*\*0/1 correct\*\*: (.*?)(?:; \*\*p\(truth\)|$)", md, flags=re.S).group(1)
    assert "the screen cannot rule out clustering." in reading01
    assert "cannot tell this much clustering from none" not in reading01


def test_overlap_is_said_to_be_about_root_two_stricter_than_the_unpaired_test():
    nb = load_notebook(NOTEBOOK)
    prose, joined = _prose(nb), outputs_text(nb)
    assert "Two separate error bars (or an unpaired" not in prose
    assert "two separate error bars combined" not in prose
    assert "stricter still" in prose and "\\sqrt 2" in prose
    se = {m: float(re.search(rf"0/1 correct\s+{m}\s+[\d.]+\s+[\d.]+\s+([\d.]+)", joined).group(1))
          for m in ("logistic", "boosting")}
    said = float(re.search(r"the unpaired test on the same CR2 SEs needs t sqrt\(SE_a\^2 \+ SE_b\^2\) = t x [\d.]+, a "
                           r"difference ([\d.]+) times as large", joined).group(1))
    assert said == pytest.approx(np.hypot(se["logistic"], se["boosting"]) / (se["logistic"] + se["boosting"]), abs=0.01)
    assert said == pytest.approx(1 / np.sqrt(2), abs=0.01)
    # up to sqrt 2, exactly sqrt 2 only for equal SEs: (a + b) / sqrt(a^2 + b^2) <= sqrt 2 by Cauchy–Schwarz
    assert "up to $\\sqrt 2$ times" in prose and "exactly $\\sqrt 2$ when the two SEs are equal" in prose
    assert "about $\\sqrt 2$ stricter" not in prose
    section4 = next(_src(c) for c in nb["cells"] if _src(c).startswith("## 4. Two models on the same items"))
    assert section4.count("exactly $\\sqrt 2$ when the two") == 1   # said once, not twice in one sentence
    # exercise 2 asks for the all-pairs adjustment section 8 taught
    exercises = next(_src(c) for c in nb["cells"] if _src(c).startswith("## Exercises"))
    assert "Holm's adjustment over all pairs" in exercises
    solutions = _src(nb["cells"][-1])
    assert "leaderboard_pairs(ev.correct" in solutions and "row.pvalue_adj <= alpha" in solutions


def test_coverage_figures_colour_by_the_monte_carlo_interval_and_mark_the_cut_axis():
    nb = load_notebook(NOTEBOOK)
    source = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert "mark_coverage_verdicts(plot_item_interval_coverage(" in source
    alts = " ".join(o.get("metadata", {}).get("image/png", {}).get("alt", "") for c in nb["cells"]
                    for o in c.get("outputs", []) if o.get("output_type") == "display_data")
    assert "marked with a break" in alts and "is consistent with the promise" in alts
    assert "bars drawn red when even the upper whisker" not in alts
    explorer_cell = next(c for c in nb["cells"] if "live_output(" in _src(c))
    printed = "".join(explorer_cell["outputs"][1]["text"])
    assert "bar colour: its ±2 MC SE interval" in printed
    assert "red marks a bar whose whisker" not in _prose(nb)


def test_the_independent_items_design_effect_is_flagged_as_monte_carlo_noise():
    """The first lever row's design effect (independent items, truly 1) came out 1.093 on seed 0; the notebook must say
    it is that seed's noise, averaged over 8 seeds, and the average must be within 3 MC errors of 1."""
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    said = re.search(r"The first row's design effect, ([\d.]+), should be 1.*?averages ([\d.]+) \(from", md, flags=re.S)
    assert said
    first, mean8 = map(float, said.groups())
    assert first == pytest.approx(1.093, abs=0.0005)
    assert abs(mean8 - 1) < 3 * np.sqrt(2 / 2000) / np.sqrt(8)
    assert "Over seeds 0 to 7" in md
    # the mean of 8 independent seeds has MC SE sqrt(2 / n_sim) / sqrt(8), by hand; the mean is read against it
    m = re.search(r"with a Monte Carlo SE of ([\d.]+) .*?the mean is ([-+][\d.]+) of its Monte Carlo SEs from 1, "
                  r"(within|beyond) two", md, flags=re.S)
    assert m, md
    se8 = np.sqrt(2 / 2000) / np.sqrt(8)
    assert float(m.group(1)) == pytest.approx(se8, abs=0.0006)
    assert float(m.group(2)) == pytest.approx((mean8 - 1) / se8, abs=0.06)   # mean8 is printed to 3 decimals
    assert m.group(3) == ("within" if abs(float(m.group(2))) <= 2 else "beyond")   # the verdict reads the printed distance
    assert "the noise of this one seed" not in md


def test_wording_of_the_opening_the_solutions_and_the_coverage_figure():
    """The pass@k study simulates the answers on the real design; the solutions spell ±; the coverage figure's alt
    text says that a bar within its Monte Carlo band is not evidence of meeting the promise and points to the pooled
    reading."""
    nb = load_notebook(NOTEBOOK)
    opening = _src(nb["cells"][0])
    assert "measured on the real pupils' design and probabilities, with simulated answers" in opening
    assert "+-" not in _src(nb["cells"][-1]) and "±1.96" in _src(nb["cells"][-1])
    alts = " ".join(o.get("metadata", {}).get("image/png", {}).get("alt", "") for c in nb["cells"]
                    for o in c.get("outputs", []) if o.get("output_type") == "display_data")
    assert "is not evidence that the interval keeps its promise; for CR2, read the pooled coverage" in alts


def test_the_intervals_say_they_leave_out_retraining_variance():
    nb = load_notebook(NOTEBOOK)
    md, prose = _markdown_outputs(nb), _prose(nb)
    assert "holds the four *trained* models fixed" in md and "Retraining variance" in md
    assert "leaves out the variance of\n  training again" in prose


def test_icc_names_one_quantity_and_the_others_have_their_own_names():
    nb = load_notebook(NOTEBOOK)
    joined, prose = outputs_text(nb), _prose(nb)
    assert not re.search(r"\(ICC \d", joined)              # the variance components' between-item share
    assert "between-item share" in joined and "**latent ICC**" in prose and "**between-item share**" in prose
    source = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "code")
    assert 'description="latent ICC"' in source and "ICC (difficulty)" not in source
    assert "clusters of 20, latent ICC 0.3, K = 1" in joined


def test_cr2_is_judged_pooled_over_the_larger_iccs_and_the_leaders_lead_is_bounded():
    """Issue 33's cold reading: CR2 falls short at every ICC >= 0.05 pooled (a bar inside its Monte Carlo band
    is no evidence of holding the promise); P(best) carries its Monte Carlo SE; "not separated from the leader"
    comes with how far ahead the leader could be."""
    nb = load_notebook(NOTEBOOK)
    joined, md = outputs_text(nb), _markdown_outputs(nb)
    # the printed coverage table: pool CR2 over ICC 0.05, 0.1, 0.2 (2,000 simulations each) by hand
    rows = {float(m.group(1)): float(m.group(2)) for m in
            re.finditer(r"^(0\.\d\d)\s+\d\.\d{3}\s+\d\.\d{3}\s+\d\.\d{3}\s+(\d\.\d{3})", joined, flags=re.M)}
    cr2 = [rows[icc] for icc in (0.05, 0.1, 0.2)]
    pooled = float(np.mean(cr2))
    se = np.sqrt(pooled * (1 - pooled) / 6000)
    found = re.search(r"Pooled over these 3 settings \(6,000 simulations\) CR2 covers (\d+\.\d\d)% "
                      r"\(Monte Carlo SE (\d\.\d\d) percentage points\), (\d\.\d) Monte Carlo SEs below 95%: "
                      r"its ±2 MC SE interval lies below the promise", md)
    assert found, md
    assert abs(float(found.group(1)) / 100 - pooled) < 0.0006          # the table rounds each coverage to 0.001
    assert abs(float(found.group(2)) / 100 - se) < 0.0001
    assert (0.95 - pooled) / se > 2
    assert "is not evidence that the interval keeps its level" in md
    # P(best) from 2,000 replicates: binomial MC SE sqrt(p (1 - p) / 2000)
    assert f"{np.sqrt(0.797 * 0.203 / 2000):.3f}" == "0.009" and "at most 0.009 here" in joined
    # the joint (Bonferroni) intervals' upper ends, as the cold reader recomputed them
    assert "logistic - forest from -0.015 to +0.033" in joined and "logistic - knn from -0.012 to +0.034" in joined
    # the quantile of the CR2 intervals is a t quantile, and item_mean's printed design effect is capped
    assert "with t the Bell–McCaffrey t quantile" in joined and "= z (SE_a + SE_b)" not in joined
    assert "is floored at 1" in joined


# ------------------------------------------------------------------ issue 33, a third cold reading
def _cr2_by_hand(x, codes):
    """Mean, CR2 SE (Bell & McCaffrey 2002, written out) and naive SE of one score vector."""
    n = len(x)
    e = np.bincount(codes, weights=x - x.mean())
    sizes = np.bincount(codes)
    return x.mean(), np.sqrt((e ** 2 / (1 - sizes / n)).sum()) / n, x.std(ddof=1) / np.sqrt(n)


def test_the_clustered_error_bars_cost_is_the_ratio_of_the_interval_widths():
    """"Costs at most 17% more width" counted the SE ratio only; the CR2 interval also takes a t quantile on the
    Bell–McCaffrey df where the naive one takes z, so the width ratio is the SE ratio times t_df / z (about 1.19)."""
    from evallib.studies import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    nb = load_notebook(NOTEBOOK)
    joined, md = outputs_text(nb), _markdown_outputs(nb)
    df = float(re.search(r"Bell–McCaffrey t with ([\d.]+) df", joined).group(1))
    _, codes = np.unique(ev.pupils["class"].to_numpy(), return_inverse=True)
    t_over_z = stats.t.isf(0.025, df) / stats.norm.isf(0.025)
    ratios = {}
    for model in ev.probability.columns:
        _, se, naive = _cr2_by_hand(ev.probability[model].to_numpy(float), codes)
        ratios[model] = se / naive
    widest = max(ratios, key=ratios.get)
    wide = ratios[widest] * t_over_z
    assert 1.15 < wide < 1.25
    # which interval against which: each model's CR2 interval of its mean against the naive CLT interval of that mean
    assert (f"at a cost in width here: over the 4 models, the CR2 95% interval "
            f"(Bell–McCaffrey t) of a model's mean p(truth) score is at most {wide:.2f} times as wide as the naive CLT "
            "interval (z) of the same model's mean") in md
    assert "at most 17% more width" not in md and "times as wide as the naive one" not in md
    # the 0/1 scores: CR2 intervals narrower than the naive ones are counted (SE ratio times t / z below 1)
    narrower = sum(se * t_over_z < naive for se, naive in
                   (_cr2_by_hand(ev.correct[m].to_numpy(float), codes)[1:] for m in ev.correct.columns))
    assert narrower > 0
    assert (f"at a cost in width for {4 - narrower} of the 4 models: over the 4 models, the CR2 95% interval "
            f"(Bell–McCaffrey t) of a model's mean 0/1 correct score") in md
    # and which CR2 interval that is: the t interval, not the Wilson interval item_mean reports by default
    assert (f"and this CR2 t interval (not the Wilson interval item_mean reports by default) is narrower than the naive "
            f"one for {narrower} of the 4 models") in md
    # the factors of the product are printed, so that the reader can check it (issue 33)
    assert (f"the widest is {widest}'s, its SE ratio times t({df:.1f} df) / z, {ratios[widest]:.2f} × {t_over_z:.3f} = "
            f"{wide:.2f}" in md)


def test_icc_bonferroni_and_not_separated_are_each_said_exactly():
    nb = load_notebook(NOTEBOOK)
    prose = _prose(nb)
    # the between-item share is an intraclass correlation (items as the classes), only not section 2's ICC
    assert "not an ICC (" not in prose and "not the ICC of section 2" in prose
    assert "the intraclass correlation of the answers with the items as the classes" in prose
    # low > 0 is Bonferroni's rule; reject and the not-separated group follow Holm
    assert "so a pair is significant\nwhen `low > 0`" not in prose
    assert "Bonferroni-significant\nwhen `low > 0`" in prose and "follow Holm" in prose
    # prose says "not-separated group"; the function keeps its name
    assert "tie group" not in prose and "not-separated group" in prose and "All four are tied" not in prose


def test_not_separated_prints_both_ends_of_the_joint_intervals():
    """The leader's joint (Bonferroni over 6 pairs) CR2 intervals against forest and knn, recomputed by hand: both
    ends are printed, how far behind and how far ahead the leader may be."""
    from evallib.studies import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    joined = outputs_text(load_notebook(NOTEBOOK))
    df = float(re.search(r"Bell–McCaffrey t with ([\d.]+) df", joined).group(1))
    _, codes = np.unique(ev.pupils["class"].to_numpy(), return_inverse=True)
    q = stats.t.isf(0.05 / 6 / 2, df)
    for other in ("forest", "knn"):
        d = (ev.correct["logistic"] - ev.correct[other]).to_numpy(float)
        mean, se, _ = _cr2_by_hand(d, codes)
        low, high = mean - q * se, mean + q * se
        assert low < 0 < high
        assert (f"logistic - {other} from {low:+.3f} to {high:+.3f} (logistic behind by up to {-low:.3f}, "
                f"ahead by up to {high:.3f})") in joined


def test_exercise_1s_design_effect_is_not_one_the_coverage_table_shows():
    """Exercise 1's design effect was 2.8 with naive coverage about 0.76, next to the table's 2.93 and 0.752: the
    answer was printed. Its setting now gives a design effect near 1.6 and a naive coverage the table does not show."""
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    exercise = next(_src(c) for c in nb["cells"] if _src(c).startswith("## Exercises")).split("\n2. ")[0]
    setting = re.search(r"([\d,]+) questions on (\d+) passages of\s+(\d+) questions.*?intra-cluster\s+correlation "
                        r"([\d.]+)\.", exercise, flags=re.S)
    assert setting, exercise
    n_q, passages, m, icc = (float(g.replace(",", "")) for g in setting.groups())
    assert n_q == passages * m
    deff = 1 + (m - 1) * icc
    naive = 2 * stats.norm.cdf(stats.norm.isf(0.025) / np.sqrt(deff)) - 1
    table = [tuple(map(float, r)) for r in
             re.findall(r"^0\.\d\d\s+(\d\.\d{3})\s+(\d\.\d{3})\s+\d\.\d{3}\s+\d\.\d{3}\s+\d\.\d{3}$", joined, flags=re.M)]
    assert len(table) == 6
    assert 1.5 < deff < 1.7
    assert min(abs(deff - d) for d, _ in table) > 0.2 and min(abs(naive - c) for _, c in table) > 0.015
    solutions = _src(nb["cells"][-1])
    assert f"icc={icc:g}, mean=0.7" in solutions and f"deff = 1 + (10 - 1) * {icc:g}" in solutions


# ------------------------------------------------------------------ a lecturer's cold reading
def test_cr2_is_not_called_the_right_interval_and_its_measured_coverage_is_printed():
    """Section 5 called CR2 "the right interval when items cluster", while section 3 measures it short of its level;
    the explorer's reading now prints section 3's pooled measurement, the same numbers as there."""
    nb = load_notebook(NOTEBOOK)
    prose, md = _prose(nb), _markdown_outputs(nb)
    assert "right interval" not in prose and "right interval" not in md
    assert "close to\n  its level, not exact" not in prose and "comes to its level is measured, not assumed" in prose
    pooled = re.search(r"Pooled over these 3 settings \(6,000 simulations\) CR2 covers (\d+\.\d\d)% "
                       r"\(Monte Carlo SE (\d\.\d\d) percentage points\), (\d\.\d) Monte Carlo SEs below 95%", md)
    assert pooled, md
    assert (f"section 3 measured CR2 at {pooled.group(1)}% (Monte Carlo SE {pooled.group(2)} percentage points) pooled "
            f"over ICCs from 0.05 up, {pooled.group(3)} Monte Carlo SEs below 95%: pooled, it falls short of its 95%") in md


def test_simulated_rejection_rates_carry_their_monte_carlo_se():
    """Section 5's "excludes 0 in 8% ... 17%" had no Monte Carlo SE; each rate now carries its binomial SE,
    sqrt(p (1 - p) / n) written out here, from the printed rate and number of benchmarks."""
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    # each share is given as ± two MC SEs (in percentage points), as the coverages beside it
    assert "each share ± two Monte Carlo standard errors, in percentage points" in md
    m = re.search(r"excludes 0 \(the true difference is 0\.02\) in ([\d.]+)% \(±([\d.]+)\) of "
                  r"the ([\d,]+) benchmarks, the paired interval in ([\d.]+)% \(±([\d.]+)\)", md)
    assert m, md
    n = int(m.group(3).replace(",", ""))
    for rate, band in ((m.group(1), m.group(2)), (m.group(4), m.group(5))):
        p = float(rate) / 100
        assert float(band) == pytest.approx(200 * np.sqrt(p * (1 - p) / n), abs=0.051)
    assert float(m.group(4)) > float(m.group(1)) + float(m.group(2)) + float(m.group(5))   # pairing's power


def test_retraining_beyond_the_seed_is_said_to_be_unmeasured():
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    assert "would move them further" not in md
    assert "That is the seed's part of the retraining variance only; what another training split adds is not measured" in md


def test_the_rank_sets_slack_is_measured_not_asserted():
    """Section 8 said the rank sets beat their promise because "Bonferroni is conservative". The notebook now counts
    the pairs declared on the same leaderboards and splits the gap: promise minus miss rate = (promise minus the sum of
    the pairs' error rates) + (that sum minus the miss rate), Bonferroni's union bound being the second part."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert "Bonferroni is conservative" not in joined
    held = float(re.search(r"on which all true ranks held: ([\d.]+)%", joined).group(1))
    m = re.search(r"some pair was declared different in ([\d.]+)%, and ([\d.]+) of the (\d+) pairs per leaderboard on "
                  r"average \(MC SE ([\d.]+)\): ([\d.]+)% per pair on average, against the ([\d.]+)% that Bonferroni "
                  r"allows each\. The ([-+][\d.]+) percentage points \(MC SE [\d.]+\) between the promised 5% and the "
                  r"measured ([\d.]+)% split exactly into the pairwise intervals' part \(their error rates sum to ([\d.]+)%, "
                  r"not 5%\) and the slack of Bonferroni's union bound \(leaderboards on which several pairs were declared "
                  r"together\): measured against their Monte Carlo SEs, the pairwise intervals (?:contribute|are not shown to "
                  r"contribute) \(([-+][\d.]+) percentage points, MC SE ([\d.]+)[^;]*; the union bound's slack "
                  r"(?:contributes|is not shown to contribute) \(([-+][\d.]+) percentage points, MC SE ([\d.]+)", joined)
    assert m, joined
    missed, per_board, n_pairs = float(m.group(1)), float(m.group(2)), int(m.group(3))
    assert n_pairs == 6 and missed == pytest.approx(100 - held, abs=0.051) and float(m.group(8)) == missed
    assert float(m.group(5)) == pytest.approx(100 * per_board / 6, abs=0.006)
    assert float(m.group(6)) == pytest.approx(5 / 6, abs=0.006)
    assert float(m.group(9)) == pytest.approx(100 * per_board, abs=0.006)
    gap, intervals, union = float(m.group(7)), float(m.group(10)), float(m.group(12))
    assert gap == pytest.approx(5 - missed, abs=0.006) and intervals == pytest.approx(5 - 100 * per_board, abs=0.006)
    assert union == pytest.approx(100 * per_board - missed, abs=0.006) and union >= 0     # P(any) <= E[count]
    assert gap == pytest.approx(intervals + union, abs=0.011)
    # the intervals' part is alpha minus the mean count per board: its MC SE is the count's, printed above
    assert float(m.group(11)) == pytest.approx(100 * float(m.group(4)), abs=0.006)
    # each contribution is said once, with its MC SE, not first in prose and again in a parenthesis
    assert "come from the pairwise intervals" not in joined and joined.count(f"({intervals:+.2f} percentage points") == 1


def test_the_furthest_pair_is_read_by_its_holm_adjusted_p_value():
    """Section 4 picks the pair furthest apart, so its raw p-value is no valid test of it: the notebook gives Holm's
    adjusted one over all 6 pairs. Recomputed here: each pair's CR2 t-test by hand (Bell–McCaffrey df as printed) and
    Holm's step-down adjustment by statsmodels."""
    from itertools import combinations

    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    from evallib.studies import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    joined = outputs_text(load_notebook(NOTEBOOK))
    df = float(re.search(r"Bell–McCaffrey t with ([\d.]+) df", joined).group(1))
    _, codes = np.unique(ev.pupils["class"].to_numpy(), return_inverse=True)
    pairs, gaps, pvalues = [], [], []
    for a, b in combinations(ev.correct.columns, 2):
        d = ev.correct[a].to_numpy(float) - ev.correct[b].to_numpy(float)
        mean, se, _ = _cr2_by_hand(d, codes)
        pairs.append((a, b))
        gaps.append(abs(mean))
        pvalues.append(2 * stats.t.sf(abs(mean / se), df))
    adjusted = multipletests(pvalues, method="holm")[1]
    top = int(np.argmax(gaps))
    assert sum(np.isclose(gaps, max(gaps))) == 1 and "is shared by" not in joined   # no tie in this run
    a, b = pairs[top]
    said = re.search(rf"paired 95% interval of {a} - {b} is \[[^\]]+\], p = ([\d.e-]+)\n"
                     r"this pair was picked because it is furthest apart of all 6, so its raw p-value is not a valid "
                     r"test; Holm's adjustment over all 6 pairs gives p = ([\d.e-]+): (.*)", joined)
    assert said, joined
    assert float(said.group(1)) == pytest.approx(pvalues[top], rel=0.03)
    assert float(said.group(2)) == pytest.approx(adjusted[top], rel=0.03)
    assert adjusted[top] > pvalues[top]
    assert said.group(3).startswith("the two differ at level 0.05 after the adjustment too") == (adjusted[top] <= 0.05)


def test_the_leader_only_shortcut_is_read_against_its_monte_carlo_error():
    """Section 8's simulation: each false-separation rate is judged against its promise alpha with ±2 binomial MC SEs,
    or, below 10 events or non-events, by the exact Clopper–Pearson 95% interval (statsmodels), from the printed
    shares."""
    from statsmodels.stats.proportion import proportion_confint

    joined = outputs_text(load_notebook(NOTEBOOK))
    lines = re.findall(r"(Holm over [^:]+): share of ([\d,]+) null leaderboards in which an equal model was separated "
                       r"from the leader: ([^;]+(?:; Clopper[^)]+\))?); promised at most 5%: ([^\n]+)", joined)
    assert len(lines) == 2, joined
    for _, n, said, verdict in lines:
        n = int(n.replace(",", ""))
        if said.startswith("none of"):
            count = 0
        else:
            count = round(float(re.match(r"([\d.]+)%", said).group(1)) / 100 * n)
            exact_count = re.search(r"\((\d+) of ", said)
            count = int(exact_count.group(1)) if exact_count else count
        p = count / n
        if min(count, n - count) < 10:
            low, high = proportion_confint(count, n, alpha=0.05, method="beta")
            assert "Clopper–Pearson" in said and "MC SE" not in said
        else:
            mc_se = np.sqrt(p * (1 - p) / n)
            low, high = p - 2 * mc_se, p + 2 * mc_se
            assert float(re.search(r"MC SE ([\d.]+)", said).group(1)) == pytest.approx(100 * mc_se, abs=0.051)
        expected = ("exceeds its promise beyond its Monte Carlo error" if low > 0.05 else
                    "below its promise beyond its Monte Carlo error" if high < 0.05 else
                    "not shown to exceed it at this n_sim")
        assert verdict == expected
    assert lines[0][3] == "exceeds its promise beyond its Monte Carlo error"


# ------------------------------------------------------------------ cold read n8
def test_a_design_effect_beyond_its_monte_carlo_error_is_not_called_consistent_with_it():
    """Seed 0's first lever row gave 1.093, +2.9 relative MC errors sqrt(2 / 2000) from its true 1: beyond two, so the
    text may not call it "consistent with its Monte Carlo error"; how rare such a draw is comes from the normal tail."""
    md = _markdown_outputs(load_notebook(NOTEBOOK))
    m = re.search(r"The first row's design effect, ([\d.]+), should be 1:.*?It is ([-+][\d.]+) relative Monte Carlo "
                  r"errors \(([\d.]+)% each\) from 1, (within|beyond) two of them", md, flags=re.S)
    assert m, md
    first, z = float(m.group(1)), float(m.group(2))
    assert z == pytest.approx((first - 1) / np.sqrt(2 / 2000), abs=0.06)
    assert m.group(4) == ("within" if abs(z) <= 2 else "beyond")
    if abs(z) > 2:
        assert "consistent with its Monte Carlo error" not in md and "distance from 1 is within its Monte" not in md
        rare = re.search(r"comes up on about one seed in ([\d,]+) \(normal tail\)", md)
        assert rare and int(rare.group(1).replace(",", "")) == pytest.approx(1 / (2 * stats.norm.sf(abs(z))), rel=0.01)


def test_section_3s_monte_carlo_numbers_carry_their_se_and_a_bar_is_not_said_blind():
    """The naive interval's coverage at ICC 0.01 is a Monte Carlo number and carries its MC SE; the pooled CR2 reading
    says how often one bar of 2,000 simulations flags the pooled shortfall (an exact binomial sum written out here)
    rather than "cannot tell it from none", and how many of the bars did."""
    nb = load_notebook(NOTEBOOK)
    md = _markdown_outputs(nb)
    m = re.search(r"at ICC 0\.01 the naive interval covers (\d+\.\d)% \((\d\.\d)\)", md)
    assert m, md
    c = float(m.group(1)) / 100
    assert float(m.group(2)) == pytest.approx(100 * np.sqrt(c * (1 - c) / 2000), abs=0.06)
    assert "cannot tell a shortfall" not in md
    p = re.search(r"CR2 covers (\d+\.\d\d)% \(Monte Carlo SE [\d.]+ percentage points\), [\d.]+ Monte Carlo SEs below.*?"
                  r"were the true shortfall the pooled estimate, ([\d.]+) percentage points \(Monte Carlo SE ([\d.]+)\), a bar "
                  r"of 2,000 simulations would flag it with probability about (0\.\d\d), .*?\(here (\d|none) of the 3 bars "
                  r"did\)", md, flags=re.S)
    assert p, md
    pooled = float(p.group(1)) / 100
    k = np.arange(2001)
    share = k / 2000
    flagged = share + 2 * np.sqrt(share * (1 - share) / 2000) < 0.95
    assert float(p.group(4)) == pytest.approx(stats.binom.pmf(k[flagged], 2000, pooled).sum(), abs=0.02)
    # the bars themselves: 'short' is coverage + 2 MC SE < 95%, read off the printed table
    joined = outputs_text(nb)
    cr2 = [float(r.group(1)) for r in re.finditer(r"^0\.(?:05|10|20)\s+\d\.\d{3}\s+\d\.\d{3}\s+\d\.\d{3}\s+(\d\.\d{3})",
                                                      joined, flags=re.M)]
    assert len(cr2) == 3
    short = sum(x + 2 * np.sqrt(x * (1 - x) / 2000) < 0.95 for x in cr2)
    assert p.group(5) == (str(short) if short else "none")


def test_section_4s_table_says_its_p_values_are_unadjusted():
    """Six pairs' p-values printed side by side invite reading each against alpha (boosting - knn's 0.018); the column
    says they are raw, as the next cell and section 8 (Holm over all pairs: 0.074) treat them."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    header = next(line for line in joined.splitlines() if "paired CR2 SE" in line and "sqrt(1 - r)" in line)
    assert header.rstrip().endswith("raw p (CR2)"), header


def test_the_seeds_mean_is_not_read_as_ruling_out_an_offset():
    """Cold read r12: a mean within two Monte Carlo SEs of 1 shows no offset; it does not show there is none."""
    nb = load_notebook(NOTEBOOK)
    prose = _prose(nb) + "\n" + _markdown_outputs(nb)
    assert "not an offset" not in prose
    if "a draw that far from 1 comes up on about one seed in" in prose:
        assert "cannot rule out a small one" in prose


# ------------------------------------------------------------------ cold read h3 (08-1, 08-2)
def test_the_pooled_shortfall_carries_its_monte_carlo_se_wherever_it_is_said():
    """08-1: "falls short by 1.02 percentage points" is a Monte Carlo estimate, pooled over 6,000 simulations: each time
    it is said, its MC SE sqrt(p (1 - p) / 6000) follows (recomputed here from the printed coverage table), and "falls
    short" is said only when the shortfall is beyond two of those SEs."""
    nb = load_notebook(NOTEBOOK)
    md, joined = _markdown_outputs(nb), outputs_text(nb)
    cr2 = [float(r.group(1)) for r in re.finditer(r"^0\.(?:05|10|20)\s+\d\.\d{3}\s+\d\.\d{3}\s+\d\.\d{3}\s+(\d\.\d{3})",
                                                      joined, flags=re.M)]
    assert len(cr2) == 3
    pooled = float(np.mean(cr2))
    se = np.sqrt(pooled * (1 - pooled) / 6000)
    said = re.findall(r"pooled, (?:CR2|it) (falls short of its 95%|is not shown to fall short of its 95%|covers more than "
                      r"its 95%)(.{0,160})", md)
    assert len(said) == 2, said          # section 3 and section 5
    for verdict, rest in said:
        if verdict.startswith("falls short"):
            assert (0.95 - pooled) > 2 * se
            m = re.match(r", by an estimated ([\d.]+) percentage points \(Monte Carlo SE ([\d.]+); beyond two Monte Carlo "
                         r"SEs, ([\d.]+)\)", rest)
            assert m, rest
            assert float(m.group(1)) == pytest.approx(100 * (0.95 - pooled), abs=0.06)
            assert float(m.group(2)) == pytest.approx(100 * se, abs=0.006)
            assert float(m.group(3)) == pytest.approx(200 * se, abs=0.012)
        else:
            assert (0.95 - pooled) <= 2 * se + 0.0006


def test_the_overlap_sentence_and_the_pairs_table_name_their_two_unpaired_ses():
    """08-2: the overlap sentence reads the two separate CR2 intervals, so its unpaired test uses their CR2 SEs
    (0.0172 for logistic - boosting); section 4's table prints the naive unpaired SE (0.0183). Both are said, each
    recomputed here by hand from the data (CR2 of Bell & McCaffrey written out; s with ddof 1)."""
    from evallib.studies import evaluate_pupils

    ev = evaluate_pupils(samples=5, rng=0)
    joined = outputs_text(load_notebook(NOTEBOOK))
    m = re.search(r"the unpaired test on the same CR2 SEs needs t sqrt\(SE_a\^2 \+ SE_b\^2\) = t x ([\d.]+), a difference "
                  r"([\d.]+) times as large; the paired CR2 test needs t x ([\d.]+).*?All three use CR2 SEs.*?The table above "
                  r"prints another unpaired SE for this pair, ([\d.]+): it ignores the classes as well as the pairing",
                  joined, flags=re.S)
    assert m, joined
    _, codes = np.unique(ev.pupils["class"].to_numpy(), return_inverse=True)
    a, b = (ev.correct[k].to_numpy(float) for k in ("logistic", "boosting"))
    (_, se_a, naive_a), (_, se_b, naive_b) = _cr2_by_hand(a, codes), _cr2_by_hand(b, codes)
    assert float(m.group(1)) == pytest.approx(np.hypot(se_a, se_b), abs=6e-5)
    assert float(m.group(2)) == pytest.approx(np.hypot(se_a, se_b) / (se_a + se_b), abs=0.006)
    assert float(m.group(3)) == pytest.approx(_cr2_by_hand(a - b, codes)[1], abs=6e-5)
    assert float(m.group(4)) == pytest.approx(np.hypot(naive_a, naive_b), abs=6e-5)
    row = re.search(r"logistic - boosting\s+[\d.]+\s+([\d.]+)", joined)
    assert row and float(row.group(1)) == float(m.group(4))


def test_a_ratio_within_its_noise_is_not_read_as_its_cause():
    """Cold read h3 (further reading): "a ratio a little below 1 is within that wobble, not clustering making the
    estimate more precise" read a cause out of a ratio within its noise. Within the noise is no evidence either way;
    and "a little" is the band the screen prints (twice the relative error of the clustered SE)."""
    nb = load_notebook(NOTEBOOK)
    prose = _prose(nb)
    assert "not clustering making the estimate more precise" not in prose
    assert ("below 1 by less than about twice that error is within that wobble: it is no evidence that clustering makes "
            "the\nestimate more precise") in prose
    # the band the sentence names is the one the screen prints: 2 / sqrt(2 df), here 0.19
    md = _markdown_outputs(nb)
    df = float(re.search(r"Bell–McCaffrey t with ([\d.]+) df", outputs_text(nb)).group(1))
    assert f"all within 1 ± {2 / np.sqrt(2 * df):.2f}, twice the noise of the clustered SE itself" in md
