"""Notebook 06 (planning) as a reader, papermill and a reader's sliders meet it.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py and tests/test_readable.py check its house style. Here: the saved
key outputs, the exercises, a papermill run with other parameters (and the solutions),
and a live kernel in which the sliders are moved.
"""

from __future__ import annotations

import math
import re

import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text

NOTEBOOK = NOTEBOOK_DIR / "06_planning.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_notebook_06_is_saved_with_its_key_outputs():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    # Connor's formula, difference 0.03, disagreement 0.10, 80% power: 870 cases
    # ((1.96 sqrt(0.1) + 0.8416 sqrt(0.1 - 0.0009))^2 / 0.0009 = 869.6)
    assert "Connor's n = 870" in joined
    assert "power at n = 870: 0.800 (Connor's approximation, at least the target by construction" in joined
    assert "k = 5, gap 1: N = 38 data sets" in joined
    assert "p_b = 0.7, p_c = 0.3: exact power first reaches 0.8 at n = 49" in joined
    assert "mcse" in joined
    assert "size (rejection rate with equal learners):" in joined
    # the small test set of section 2 (b = 5, c = 2, n = 100): Bonett & Price (2012) written out,
    # adjusted proportions (b + 1)/(n + 2); the prose reads it as "about -3 to +9 percentage points"
    import math
    p12, p21, z = 6 / 102, 3 / 102, 1.959963984540054
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 102)
    low, high = p12 - p21 - half, p12 - p21 + half
    assert f"95% Bonett–Price interval [{low:+.3f}, {high:+.3f}]" in joined
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert f"from about {round(100 * low):+d} to {round(100 * high):+d} percentage points" in joined
    assert "about −3 to +9" not in md and "1 to 8 per cent" not in md
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 5
    # the F1 bootstrap's size beside its power, and the Nemenyi test's power beside its CD floor
    assert "size over all 5 sizes: " in joined and "size mcse" in joined
    assert "at the critical-difference floor N = 38: power " in joined and "the simulated power reaches 0.8 from N = " in joined
    # one output per slider: the frozen default render, no second static copy of plot_sample_size
    assert "plot_sample_size(difference" not in "".join(_src(c) for c in nb["cells"])
    live = [c for c in nb["cells"] if "live_output(" in _src(c)]
    assert len(live) == 2 and all(any("image/png" in o.get("data", {}) for o in c["outputs"]) for c in live)
    assert all("alt=" in _src(c) for c in live)


def _mcnemar_level(n, psi, alpha, mid):
    """Actual level of McNemar's exact (or mid-p) test with no difference, by enumeration with scipy.

    The number of discordant cases is Binomial(n, psi) (psi = 1: fixed at n); given m of them, b is
    Binomial(m, 1/2) and the test rejects when min(b, m - b) <= k_m, the largest count whose two-sided
    (mid-)p-value is at most alpha.
    """
    import numpy as np
    from scipy import stats

    total = 0.0
    ms = np.arange(n + 1)
    weights = stats.binom.pmf(ms, n, psi) if psi < 1 else (ms == n).astype(float)
    for m, w in zip(ms, weights):
        if w < 1e-15:
            continue
        counts = np.arange(m // 2 + 1)
        cdf = stats.binom.cdf(counts, m, 0.5)
        pvalue = 2 * (cdf - 0.5 * stats.binom.pmf(counts, m, 0.5)) if mid else np.minimum(1.0, 2 * cdf)
        ok = counts[pvalue <= alpha]
        if ok.size:
            k = ok.max()
            total += w * 2 * stats.binom.cdf(k, m, 0.5) if 2 * k < m else w
    return total


def test_notebook_06_measures_the_level_of_the_exact_and_mid_p_tests():
    """The prose no longer asserts mid-p's level: the saved outputs measure it, and scipy agrees."""
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    exact, mid = _mcnemar_level(870, 0.1, 0.05, False), _mcnemar_level(870, 0.1, 0.05, True)
    assert exact < 0.05 and mid < 0.05
    assert (f"actual level at n = 870 (no difference, disagreement 0.100): {exact:.4f} (exact), "
            f"{mid:.4f} (mid-p); nominal alpha = 0.05") in joined
    # every case discordant: the mid-p test's level exceeds alpha at many sizes
    levels = [_mcnemar_level(m, 1.0, 0.05, True) for m in range(10, 121)]
    worst = max(range(len(levels)), key=levels.__getitem__)
    above = sum(level > 0.05 for level in levels)
    assert max(levels) > 0.07 and above > 20
    assert (f"level up to {max(levels):.3f} (at m = {10 + worst}), above alpha = 0.05 at {above} of 111 sizes"
            in joined)
    assert all(_mcnemar_level(m, 1.0, 0.05, False) <= 0.05 for m in range(10, 121))
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "its level stays close to" not in md
    # the Nemenyi normal approximation's fit is printed, not asserted
    assert "largest difference between the simulated power and the normal approximation" in joined
    assert "it agrees with the simulation" not in md


def test_notebook_06_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    assert _src(exercises).startswith("## Exercises") or "## Exercises" in _src(exercises)
    text = _src(exercises)
    # predict, explain or decide before computing: at least three such exercises
    assert sum(text.count(f"({w})") for w in ("Predict", "Explain", "Decide")) >= 3
    assert "solutions" in solutions["metadata"].get("tags", [])
    assert solutions["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    # no exercise's answer printed outside the solutions: exercise 4's N (k = 8, gap 2) is not in the outputs,
    # and exercise 4 no longer asks for the power at the floor, which section 6 prints
    assert "k = 8" not in outputs_text(nb)
    assert "Predict the power of the Nemenyi test at that" not in text
    assert _src(solutions).startswith("if show_solutions:") and not solutions.get("outputs")
    params = next(c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", []))
    assert "show_solutions = False" in _src(params)


@pytest.mark.slow
def test_notebook_06_runs_with_other_parameters_and_its_solutions_check_out(notebook_runs):
    params = dict(difference=0.05, discordance=0.2, alpha=0.1, power=0.9, seed=4, n_sim=60, reps=200,
                  k=4, rank_gap=1.5, cv_difference=0.15, cv_datasets=40, nemenyi_sim=300, item_sim=200,
                  show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "discordance = 0.2" in "".join(injected[0]["source"])
    joined = outputs_text(nb)
    assert "test cases for 90% power at alpha = 0.1" in joined
    assert "difference +0.050, disagreement 0.200: Connor's n = " in joined
    assert "(200 replicates, 60 simulated test sets per n" in joined
    assert "k = 4, gap 1.5: N = " in joined
    # the prose's example of the exact test needing fewer cases than Connor's formula (alpha 0.1, power 0.9)
    assert "0.05                 168   " in joined and "0.05                 158   " in joined
    assert "true accuracy difference 0.15, 10 x 10-fold CV, alpha = 0.1, 40 simulated data sets per size" in joined
    # section 7's exercise (issue 33; cold read n06: which ICC doubles the plan, more than twice the pilot's)
    assert "5. ICC " in joined and ("times the pilot's estimate: V" in joined or "5. ICC 0.000 -> " in joined)
    assert "solutions ok" in joined
    # review item 3: at alpha 0.1 and power 0.9 the exact test needs fewer cases than Connor's formula somewhere and
    # more elsewhere; the sentence says so with signed words (Connor's table by hand, the exact table as printed)
    connor, exact = _check_size_tables_and_examples(joined, 0.9, 0.1)     # cold read round 2, items 1 and 5
    _check_f1_and_cv_verdicts(joined, 0.1, 60, 40)                          # round 2, items 3, 4, 6, 7
    assert exact[0.05, 0.05] == _exact_rule(0.05, 0.0, 0.9, 0.1, 100, 200) < connor[0.05, 0.05]
    span = _expected_span(connor, exact)
    assert "fewer and" in span and f"the exact test needs {span}" in joined
    assert "% more cases" not in joined.split("exact / Connor")[1].split("fewer")[0]
    # review item 1: exercise 3's solution, X by Connor's equation solved here and the interval written out
    import math

    from scipy import stats

    x = _connor_mdd(150, 0.08, 0.8, 0.05)
    p12, p21, z = 9 / 152, 5 / 152, stats.norm.isf(0.025)
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 152)
    assert (f"3. X = {x:.3f} ({100 * x:.1f} percentage points; Connor's approximation): a property of the design, "
            "not a bound on the difference") in joined
    assert f"interval for 8 to 4 disagreements is [{p12 - p21 - half:+.3f}, {p12 - p21 + half:+.3f}]" in joined
    assert f"up to {100 * (p12 - p21 + half - x):.1f} percentage points beyond X" in joined


@pytest.mark.slow
def test_notebook_06_sliders_drive_the_power_plot(notebook_runs):
    """Move each slider in a live kernel: each move must redraw with the new value.

    The callback updates one figure in place (its curves from evallib's ``mcnemar_power_curve``,
    its title from ``sample_size_summary``); what it drew is read back from the titles and
    texts matplotlib was given.
    """
    probe = '''
import matplotlib.axes
drawn = []
_title, _text = matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text
matplotlib.axes.Axes.set_title = lambda self, label, *a, **k: (drawn.append(label), _title(self, label, *a, **k))[1]
matplotlib.axes.Axes.text = lambda self, x, y, s, *a, **k: (drawn.append(s), _text(self, x, y, s, *a, **k))[1]
controls["difference"].value = 0.05
controls["discordance"].value = 0.3
controls["discordance"].value = 0.04
matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text = _title, _text
final = [d for d in drawn if d.startswith(("difference", "no such"))]
assert [d.splitlines()[0] for d in final[:2]] == [
    "difference +0.050, disagreement 0.10 (p_b = 0.075, p_c = 0.025), alpha = 0.05:",
    "difference +0.050, disagreement 0.30 (p_b = 0.175, p_c = 0.125), alpha = 0.05:"], drawn
assert final[2].startswith("no such pair of classifiers"), drawn
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, dict(n_sim=20, reps=100, cv_datasets=20, nemenyi_sim=100,
                                                                        item_sim=50))
    assert any("sliders ok" in o.get("text", "") for o in out), out


def test_notebook_06_item_plan_matches_scipy_noncentral_t():
    """Section 7's clustered plan (1910 items in 191 clusters of 10, K = 4, correlation 0.5, ICC 0.1): its power
    by the paired t-test on the cluster means, recomputed from Miller's variance and scipy's noncentral t."""
    import math

    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    sd, within, rho, K, m, icc, gap = 0.30, 0.30, 0.5, 4, 10, 0.1, 0.03
    variance = (2 * sd ** 2 - 2 * rho * sd * sd) * (1 + (m - 1) * icc) + 2 * within ** 2 / K   # per item
    unclustered = (2 * sd ** 2 - 2 * rho * sd * sd) + 2 * within ** 2 / K
    # issue 33: the design effect 1.9 multiplies only omega^2; the plan's variance inflation is V / V(ICC 0) = 1.60
    assert (f"variance per item {variance:.3f}, {variance / unclustered:.2f} times the {unclustered:.3f} without clusters "
            f"(the plan's variance inflation: the design effect {1 + (m - 1) * icc:.1f} multiplies only") in joined
    assert f"{variance / unclustered:.2f}" == "1.60" and "design effect 1.9." not in joined

    def power(clusters):
        ncp = gap / math.sqrt(variance / (clusters * m))
        crit = stats.t.ppf(0.975, clusters - 1)
        return stats.nct.sf(crit, clusters - 1, ncp) + stats.nct.cdf(-crit, clusters - 1, ncp)

    clusters = next(g for g in range(2, 1000) if power(g) >= 0.8)
    assert f"{clusters * m} items in {clusters} clusters of 10" in joined
    assert f"with power {power(clusters):.3f} (target 0.8)" in joined


def test_notebook_06_item_plan_holds_with_binary_answers():
    """Section 7's check by simulation: the pilot's variance parts against scipy's bivariate normal (the probit
    model's closed form), and the simulated power and size within 3 Monte Carlo SE of the plan and of alpha."""
    import math
    import re

    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    parts = dict(re.findall(r"(sd_a|sd_b|within_sd_a|within_sd_b) (\d\.\d{3})",
                            joined.split("variance parts of the model: ")[1].splitlines()[0]))
    for key, mean in (("a", 0.70), ("b", 0.67)):
        # p = Phi(c + Z) with c = Phi^-1(mean) sqrt(2): E p^2 = Phi_2(h, h; 1/2), h = c / sqrt 2 = Phi^-1(mean)
        h = stats.norm.ppf(mean)
        second = stats.multivariate_normal(mean=[0, 0], cov=[[1, 0.5], [0.5, 1]]).cdf([h, h])
        assert abs(float(parts[f"sd_{key}"]) - math.sqrt(second - mean ** 2)) < 0.004
        assert abs(float(parts[f"within_sd_{key}"]) - math.sqrt(mean - second)) < 0.004
    found = re.search(r"power (\d\.\d+) \(Monte Carlo SE (\d\.\d+); the true parts give (\d\.\d+), the pilot promised "
                      r"(\d\.\d+)\), size (\d\.\d+) \(Monte Carlo SE (\d\.\d+) at the simulated rate; nominal 0.05\)",
                      joined)
    power, power_se, true_power, planned, size, size_se = map(float, found.groups())
    assert planned >= 0.8 and abs(power - true_power) <= 3 * power_se
    assert abs(size - 0.05) <= 3 * max(size_se, math.sqrt(0.05 * 0.95 / 1000))


def test_notebook_06_more_answers_save_the_same_items_at_every_correlation():
    """Issue 33: "more answers per item help more at higher correlation" holds only in relative terms. From K = 1
    to K = 16 Miller's n falls by (z_a + z_b)^2 (2 w^2)(1 - 1/16) / delta^2 whatever the correlation (scipy's quantiles)."""
    import math

    from scipy import stats

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    z = stats.norm.isf(0.025) + stats.norm.isf(0.2)
    need = {(rho, K): math.ceil(z ** 2 * (2 * 0.09 * (1 - rho) + 2 * 0.09 / K) / 0.03 ** 2)
            for rho in (0.0, 0.5, 0.8) for K in (1, 16)}
    saved = [need[rho, 1] - need[rho, 16] for rho in (0.0, 0.5, 0.8)]
    assert max(saved) - min(saved) <= 1 and abs(min(saved) - z ** 2 * 0.18 * 15 / 16 / 0.03 ** 2) < 1
    assert f"from K = 1 to K = 16: {min(saved):,} to {max(saved):,} fewer items at every correlation" in joined
    # the range differs by the rounding up of each plan to whole items, and the sentence says so (review nb0006e)
    assert "(the same number up to rounding to whole items: K shrinks" in joined
    alt = " ".join(o.get("metadata", {}).get("image/png", {}).get("alt", "") if isinstance(o.get("metadata"), dict)
                   else "" for c in nb["cells"] for o in c.get("outputs", []))
    assert "help more the higher it is" not in alt + joined


def test_notebook_06_plans_from_a_simulated_pilot_and_shows_the_icc_sensitivity():
    """Issue 33: the plan's parts come from a pilot's answers, not from the true expected scores, and the plan's power
    is shown for larger ICCs. The 1790-item plan's power at ICC 0.15 and 0.20, recomputed with scipy's noncentral t
    from the printed true parts: 0.72 and 0.67."""
    import math
    import re

    from scipy import stats

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    line = joined.split("variance parts of the model: ")[1].splitlines()[0]
    parts = {k: float(v) for k, v in re.findall(r"(\w+) (-?\d\.\d{3})", line)}
    assert "a pilot of 40 clusters (400 items, K = 4) estimates: " in joined
    assert "with these true parts, which no pilot observes, the plan would be 1790 items" in joined

    def power(n, icc):
        omega2 = parts["sd_a"] ** 2 + parts["sd_b"] ** 2 - 2 * parts["correlation"] * parts["sd_a"] * parts["sd_b"]
        v = omega2 * (1 + 9 * icc) + (parts["within_sd_a"] ** 2 + parts["within_sd_b"] ** 2) / 4
        J = n // 10
        ncp, crit = 0.03 / math.sqrt(v / n), stats.t.ppf(0.975, J - 1)
        return stats.nct.sf(crit, J - 1, ncp) + stats.nct.cdf(-crit, J - 1, ncp)

    assert abs(power(1790, 0.15) - 0.72) < 0.01 and abs(power(1790, 0.20) - 0.67) < 0.01
    md = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "If the ICC is 0.15 instead of 0.086, the 1790-item plan has power 0.72; at 0.2, 0.67." in md
    assert re.search(r"across 200 simulated pilots of 40 clusters, the estimated ICC runs from", md)


def test_pilot_item_variance_recovers_the_probit_models_parts():
    """A large pilot's method-of-moments parts against the probit model's closed forms (scipy's bivariate normal):
    p = Phi(c + Z), Z ~ N(0, 1) (spread 1), corr(Z_a, Z_b) = rho, so E p_a p_b = Phi_2(h_a, h_b; rho / 2) with
    h = Phi^-1(mean); and an ICC of 0 when the difficulty has no cluster part."""
    import math

    import numpy as np
    from scipy import stats

    from evallib.lessons import pilot_item_variance, simulate_paired_items

    rho, means = 0.5, {"a": 0.7, "b": 0.6}
    a, b, _ = simulate_paired_items(n_items=200_000, cluster_size=10, samples=4, mean_a=means["a"], mean_b=means["b"],
                                    spread=1.0, correlation=rho, icc=0.0, n_resamples=1, rng=5)
    est = pilot_item_variance(a[0], b[0], cluster_size=10, samples=4)
    h = {k: stats.norm.ppf(v) for k, v in means.items()}
    second = {k: stats.multivariate_normal(mean=[0, 0], cov=[[1, 0.5], [0.5, 1]]).cdf([h[k], h[k]]) for k in h}
    cross = stats.multivariate_normal(mean=[0, 0], cov=[[1, rho / 2], [rho / 2, 1]]).cdf([h["a"], h["b"]])
    for k in "ab":
        assert abs(est[f"sd_{k}"] - math.sqrt(second[k] - means[k] ** 2)) < 0.005
        assert abs(est[f"within_sd_{k}"] - math.sqrt(means[k] - second[k])) < 0.005
    sd = {k: math.sqrt(second[k] - means[k] ** 2) for k in "ab"}
    assert abs(est["correlation"] - (cross - means["a"] * means["b"]) / (sd["a"] * sd["b"])) < 0.01
    assert est["icc"] < 0.01
    with pytest.raises(ValueError, match="whole clusters"):
        pilot_item_variance(np.full(15, 0.5), np.full(15, 0.5), cluster_size=10, samples=4)
    with pytest.raises(ValueError, match="samples"):
        pilot_item_variance(a[0][:20], b[0][:20], samples=1)


def test_one_pilot_bounds_its_own_icc_and_the_latent_icc_is_named_apart():
    """Issue 33: "plan for an ICC at the upper end of what the pilot allows" is shown from the pilot's own data
    (a cluster bootstrap), and the model's latent ICC is not called the ICC the plan uses."""
    import re

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    md = "\n".join("".join(o["data"]["text/markdown"]) for c in nb["cells"] for o in c.get("outputs", [])
                   if "text/markdown" in o.get("data", {}))
    assert "Plan for an ICC at the upper end" not in md
    found = re.search(r"resampling its 40 clusters ([\d,]+) times \(a cluster bootstrap\), the 95th percentile of the "
                      r"re-estimated ICCs is (\d\.\d{3}) .*?against its estimate (\d\.\d{3})\. Planned with that ICC and "
                      r"the pilot's other parts, the plan asks for ([\d,]+) items", md)
    assert found, md
    assert float(found.group(2)) > float(found.group(3))
    pilot_plan = int(re.search(r"planned from the pilot: (\d+) items", joined).group(1))
    assert int(found.group(4).replace(",", "")) > pilot_plan      # a larger ICC asks for more items
    assert "the model's latent ICC is 0.1" in joined
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "# pilot clusters: 200,000 items" not in source


def test_the_items_slider_names_the_icc_it_sets():
    """Issue 33: section 7's slider was labelled "ICC in a cluster", which a reader of the next cell (the model's latent
    ICC) cannot place; it sets the ICC of the expected differences of the formula, and says so in its label, its alt
    text and the prose above it."""
    nb = load_notebook(NOTEBOOK)
    slider = next(c for c in nb["cells"] if 'controls["item_icc"]' in _src(c))
    assert 'description="ICC of differences"' in _src(slider) and "ICC in a cluster" not in _src(slider)
    assert "with an ICC of the expected" in _src(slider) and "differences of {icc:g}" in _src(slider)
    prose = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "The slider *ICC of differences* sets the ICC of the formula above" in prose
    assert "it is not the latent ICC of the simulation below" in prose


# --------------------------------------------------------------------------- the lecturer's review (nb06)
def _exact_power(ns, p_b, p_c, alpha):
    """Exact power of McNemar's exact conditional test at each n, by enumeration with scipy.

    m ~ Binomial(n, p_b + p_c) discordant cases; given m, b ~ Binomial(m, p_b / (p_b + p_c)) and the test
    rejects when min(b, m - b) <= k_m, the largest count with 2 P(Bin(m, 1/2) <= k_m) <= alpha.
    """
    import numpy as np
    from scipy import stats

    psi, q = p_b + p_c, p_b / (p_b + p_c)
    top = int(max(ns))
    reject = np.zeros(top + 1)
    for m in range(1, top + 1):
        counts = np.arange(m // 2 + 1)
        ok = counts[2 * stats.binom.cdf(counts, m, 0.5) <= alpha]
        if ok.size:
            k = ok.max()
            reject[m] = stats.binom.cdf(k, m, q) + stats.binom.sf(m - k - 1, m, q)
    return np.array([np.sum(stats.binom.pmf(np.arange(n + 1), n, psi) * reject[:n + 1]) for n in ns])


def _exact_rule(p_b, p_c, power, alpha, start, stop):
    """The workbook's rule, recomputed: the smallest n whose exact power reaches `power` for every n' up to 1.1 n."""
    import math

    ns = list(range(start, math.ceil(1.1 * stop) + 2))
    reached = dict(zip(ns, _exact_power(ns, p_b, p_c, alpha) >= power))
    return next(n for n in range(start, stop) if all(reached[m] for m in range(n, math.ceil(1.1 * n) + 1)))


def _connor_n(p_b, p_c, power, alpha):
    """Connor's (1987) formula written out with scipy's normal quantiles."""
    import math

    from scipy import stats

    psi, delta = p_b + p_c, p_b - p_c
    za, zb = stats.norm.isf(alpha / 2), stats.norm.ppf(power)
    return math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - delta ** 2)) ** 2 / delta ** 2)


def _connor_mdd(n, psi, power, alpha):
    """Connor's equation solved for delta by scipy's root finder."""
    import math

    from scipy import optimize, stats

    za, zb = stats.norm.isf(alpha / 2), stats.norm.ppf(power)
    return optimize.brentq(lambda d: math.sqrt(n) * d - za * math.sqrt(psi) - zb * math.sqrt(psi - d * d), 1e-9, psi)


def _size_tables(joined):
    """The two printed tables of section 1 (Connor's, then the exact test's), as {(difference, disagreement): n}."""
    block = joined.split("(Connor's formula / exact test)\n")[1].split("\nexact / Connor")[0]
    tables = []
    for part in block.strip().split("\n\n"):
        rows = part.splitlines()
        psis = [float(x) for x in rows[0].split()[1:]]
        table = {}
        for row in rows[2:]:
            delta, *cells = row.split()
            table.update({(float(delta), psi): int(v) for psi, v in zip(psis, cells) if v != "impossible"})
        tables.append(table)
    return tables


def _expected_span(connor, exact):
    """The signed wording the review asked for, built here from the two tables."""
    change = [100 * (exact[key] / connor[key] - 1) for key in connor]
    low, high = round(min(change)), round(max(change))
    if low > 0:
        return f"between {low}% and {high}% more cases than Connor's formula"
    if high < 0:
        return f"between {-high}% and {-low}% fewer cases than Connor's formula"
    return f"between {-low}% fewer and {high}% more cases than Connor's formula"


def test_notebook_06_compares_exact_and_connor_sizes_in_signed_words():
    """Review item 3 (default run): Connor's table against the formula by hand, and the sentence's range from it."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    connor, exact = _size_tables(joined)
    assert connor == {key: _connor_n((key[0] + key[1]) / 2, (key[1] - key[0]) / 2, 0.8, 0.05) for key in connor}
    assert exact[0.1, 0.1] == _exact_rule(0.1, 0.0, 0.8, 0.05, 60, 100)     # p_c = 0: the smallest table, brute force
    assert f"the exact test needs {_expected_span(connor, exact)}" in joined
    assert "per cent more cases" not in joined
    # cell 5's and cell 7's numbers are computed: Connor's worked example (p_b 0.45, p_c 0.05 -> 23 pairs) and the
    # example where the exact test needs fewer cases (p_c = 0: it rejects when b >= 5, so P(Bin(n, 0.05) >= 5) >= 0.9)
    from scipy import stats

    assert f"mcnemar_sample_size gives {_connor_n(0.45, 0.05, 0.8, 0.05)} pairs (the paper: 23)" in joined
    exact_example = next(n for n in range(50, 400) if stats.binom.sf(4, n, 0.05) >= 0.9)
    connor_example = _connor_n(0.05, 0.0, 0.9, 0.1)
    assert exact_example < connor_example
    assert (f"the exact test needs {exact_example} cases, Connor's formula {connor_example}") in joined
    md = "\n".join(_src(c) for c in load_notebook(NOTEBOOK)["cells"] if c["cell_type"] == "markdown")
    assert "returns 23" not in md and "158 cases" not in md


def test_notebook_06_names_the_method_beside_each_mcnemar_sample_size():
    """Review item 4: the F1 section's McNemar n is Connor's (489 by hand), the exact test needs more (brute force)."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    p_b, p_c = 0.06 + 0.01, 0.01 + 0.02          # e2 + e7, e3 + e6
    connor = _connor_n(p_b, p_c, 0.8, 0.05)
    exact = _exact_rule(p_b, p_c, 0.8, 0.05, connor, 2 * connor)
    assert connor == 489 and exact > connor
    assert (f"McNemar's test needs {connor} test cases by Connor's normal approximation, {exact} by the exact "
            "test's power") in joined


def test_notebook_06_says_which_method_its_minimum_detectable_difference_uses():
    """Review item 5: the MDD table is Connor's approximation (by hand), and the exact test's value beside it is the
    true difference at which the exact power (brute force) crosses the target."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert "by Connor's normal approximation of the chi-square test's power" in joined
    d = _connor_mdd(100, 0.1, 0.8, 0.05)
    # "below" a threshold rounded down, so that the claim holds at every difference below the printed number
    assert f"a true difference below {math.floor(d * 1000) / 1000:.3f} is detected with less than 80% power" in joined
    import re

    # the exact test's crossing rounded up: its power reaches 80% at the printed difference, not 0.001 below it
    exact = float(re.search(r"reaches 80% there at a true difference of (\d\.\d{3})", joined).group(1))
    below, above = (_exact_power([100], 0.05 + x / 2, 0.05 - x / 2, 0.05)[0] for x in (exact - 0.001, exact))
    assert below < 0.8 <= above


def test_notebook_06_exercise_3_treats_the_mdd_as_a_property_of_the_design():
    """Review item 1: the solution no longer reads the MDD as a bound; it gives the interval, which reaches beyond it."""
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = (_src(c) for c in nb["cells"][-2:])
    assert "cannot be excluded" not in solutions and "cannot be excluded" not in exercises
    assert "not shown to" in exercises or "were not shown to differ" in exercises
    assert "a property of the design, not a" in solutions and "Bonett–Price" in solutions
    # the exercise's numbers (150 cases, 12 disagreements split 8 to 4): exact p and the interval by hand
    import math

    from scipy import stats

    assert abs(2 * stats.binom.cdf(4, 12, 0.5) - 0.39) < 0.005
    p12, p21, z = 9 / 152, 5 / 152, stats.norm.isf(0.025)
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 152)
    assert p12 - p21 + half > _connor_mdd(150, 0.08, 0.8, 0.05)       # the interval reaches beyond X
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "It is not a bound on the true difference, nor on the observed one" in md


def test_notebook_06_reads_a_simulated_size_as_consistent_not_as_holding_its_level():
    """Review item 2: the size within two MC SEs is 'consistent with alpha', with the MC SE (by hand) and an upper
    limit (Wilson's, written out), and not 'holds its level'."""
    import math
    import re

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    size = float(re.search(r"size (\d\.\d{3}) \(Monte Carlo SE", joined).group(1))
    se = math.sqrt(0.05 * 0.95 / 1000)
    line = next(s for s in joined.splitlines() if s.startswith("the simulated size "))
    assert f"the simulated size {size:.3f} (Monte Carlo SE {se:.3f} under the null, if the true size were 0.05)" in line
    if abs(size - 0.05) <= 2 * se:
        assert "consistent with alpha at this precision, which does not show that the size is at most 0.05" in line
    z, k = 1.959963984540054, round(size * 1000)
    p, n = k / 1000, 1000
    high = (p + z * z / (2 * n) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
    assert f"sizes up to {high:.3f} possible (95% Wilson upper limit from 1000 benchmarks)" in line
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "holds its level" not in md and "holds its level" not in joined
    assert "Consistent is not proven" in md


def test_notebook_06_gives_the_monte_carlo_range_of_the_nemenyi_n():
    """Review item 5: the N with the target power (61) is stated with the range of N the Monte Carlo error allows."""
    import math
    import re

    joined = outputs_text(load_notebook(NOTEBOOK))
    found = re.search(r"the simulated power reaches 0\.8 from N = (\d+) data sets on, [\d.]+ times the floor \(power there "
                      r"(\d\.\d{3}), mcse (\d\.\d{3}),", joined)
    n80, p, se = int(found.group(1)), float(found.group(2)), float(found.group(3))
    assert abs(se - math.sqrt(p * (1 - p) / 2000)) <= 0.0006          # binomial MC SE of 2000 simulated studies
    low, high = map(int, re.search(r"within two Monte Carlo standard errors of 0.8: N = (\d+) to (\d+)",
                                   joined).groups())
    assert low <= n80 <= high and low < high


def _wilson_high(k, n, z=1.959963984540054):
    """Wilson's upper limit written out."""
    import math

    p = k / n
    return (p + z * z / (2 * n) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)


def _fewer_line(connor, exact):
    """Round-2 item 1: the entries where the exact test needs fewer cases, each with its p_c by hand."""
    fewer = [key for key in sorted(connor) if exact[key] < connor[key]]
    return ("entries where the exact test needs fewer cases than Connor's formula: "
            + ("; ".join(f"difference {d:g}, disagreement {psi:g} (p_c = {(psi - d) / 2:.3f}, "
                         f"{100 * (psi + d) / (2 * psi):.0f}% of the disagreements one way): {exact[d, psi]} "
                         f"against {connor[d, psi]}" for d, psi in fewer) if fewer else "none"))


def _check_size_tables_and_examples(joined, power, alpha):
    """Round-2 items 1 and 5: the listing of the exact test's cheaper entries, the one-way example and the small
    differences below the sliders, against Connor's formula by hand."""
    connor, exact = _size_tables(joined)
    assert connor == {key: _connor_n((key[0] + key[1]) / 2, (key[1] - key[0]) / 2, power, alpha) for key in connor}
    assert _fewer_line(connor, exact) in joined
    assert (f"the exact test needs {_exact_rule(0.05, 0.0, 0.9, 0.1, 100, 200)} cases, Connor's formula "
            f"{_connor_n(0.05, 0.0, 0.9, 0.1)}") in joined
    wide, narrow = _connor_n(0.205, 0.195, power, alpha), _connor_n(0.015, 0.005, power, alpha)
    assert (f"difference 0.01 needs {wide:,} cases at disagreement 0.4 and {narrow:,} at disagreement 0.02 "
            f"(Connor's formula, alpha = {alpha:g}, power {power:g})") in joined
    return connor, exact


def _check_f1_and_cv_verdicts(joined, alpha, n_sim, cv_datasets):
    """Round-2 items 3, 4, 6, 7: per-size F1 size flags, McNemar's exact level beside them, and each CV test's
    size verdict with its Wilson upper limit, all by hand."""
    import math
    import re

    null_se = math.sqrt(alpha * (1 - alpha) / n_sim)
    block = joined.split("size mcse size vs alpha\n")[1].split("\nsize over all")[0]
    rows = [line.split() for line in block.splitlines()]
    flags = {int(r[0]): ("above" if float(r[3]) - 2 * null_se > alpha else
                         "below" if float(r[3]) + 2 * null_se < alpha else "consistent") for r in rows}
    assert flags == {int(r[0]): r[5] for r in rows}
    above = [str(n) for n, f in flags.items() if f == "above"]
    assert f"above alpha at n = {', '.join(above) if above else 'none'}" in joined
    pooled_line = next(s for s in joined.splitlines() if s.startswith("size over all"))
    liberal = bool(above) or "above the nominal" in pooled_line
    n_exact = int(re.search(r"(\d+) by the exact test's power", joined).group(1))
    level = _mcnemar_level(n_exact, 0.10, alpha, False)
    assert f"McNemar's exact test at n = {n_exact} has level {level:.4f}" in joined and level <= alpha
    assert ("its n is not comparable with McNemar's" in joined) == liberal
    cv_se = math.sqrt(alpha * (1 - alpha) / cv_datasets)
    assert f"(MC SE {cv_se:.3f} if the true size were {alpha:g}; 95% Wilson" in joined
    lines = [s for s in joined.splitlines() if re.match(r"  '.*': (above alpha|not shown to exceed)", s)]
    assert len(lines) == 4
    for line in lines:
        size = float(re.search(r"(?:up to|largest size) (\d\.\d{3})", line).group(1))
        if "not shown to exceed alpha" in line:
            assert size - 2 * cv_se <= alpha + 1e-12
            high = _wilson_high(round(size * cv_datasets), cv_datasets)
            assert f"upper limit {high:.3f})" in line and "first simulated size with power at least" in line
        else:
            assert size - 2 * cv_se > alpha
    return lines


def test_notebook_06_round_2_computes_its_verdicts_and_examples():
    """Cold read round 2 (default run): items 1, 3-8 and 10 against by-hand references."""
    import re

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    _check_size_tables_and_examples(joined, 0.8, 0.05)
    lines = _check_f1_and_cv_verdicts(joined, 0.05, 400, 300)
    assert sum("not shown to exceed alpha" in s for s in lines) == 2      # the corrected t-test and 5x2cv
    assert "power at n = 870: 0.800 (Connor's approximation, at least the target by construction" in joined
    assert "(asymptotic)" not in joined
    # item 10: the what-if table's row at the true ICC reproduces the true parts' plan (ICC unrounded)
    plan = int(re.search(r"with these true parts, which no pilot observes, the plan would be (\d+) items",
                         joined).group(1))
    table = joined.split("the pilot's estimate ")[1].split("\n\n")[0].splitlines()[2:]
    true_icc = float(re.search(r"true ICC (\d\.\d{3})", joined).group(1))
    row = next(r.split() for r in table if float(r.split()[0]) == true_icc)
    assert int(row[-1]) == plan
    src = "\n".join(_src(c) for c in nb["cells"])
    assert 'round(truth["icc"], 3)' not in src
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    for typed in ("about 50% power", "about half the time", "tens of thousands", "only a handful of",
                  "the ICC worst of all", "can be read off the table", "Among the tests that keep their level",
                  "can be separated", "follows smaller", "depends on the model only"):
        assert typed not in md, typed


def test_cv_power_difference_lines_compares_paired_rejections():
    """Review nb0006c: cell 26 asserted a power ranking; the builder computes it. The reference values are worked by
    hand: with 4 data sets, differences (1, 1, 0, 0) have mean 0.5 and SD sqrt(1/3), so SE = sqrt(1/3)/2 = 0.289;
    (1, 1, 1, 1) has mean 1 and SE 0."""
    import pandas as pd

    from evallib.lessons import cv_power_difference_lines

    index = pd.MultiIndex.from_product([[100, 200], range(4)], names=["n_samples", "dataset"])
    rej = pd.DataFrame({"A": [1, 1, 0, 0, 1, 1, 1, 1], "B": [0, 0, 0, 0, 0, 0, 0, 0],
                        "C": [0, 0, 0, 0, 0, 0, 0, 0]}, index=index).astype(bool)
    lines = cv_power_difference_lines(rej, ["A", "B"])
    assert len(lines) == 1
    assert "+0.500 ± 0.289 at n = 100" in lines[0] and "+1.000 ± 0.000 at n = 200" in lines[0]
    assert lines[0].endswith("'A' higher by more than 2 MC SE at n = 200; not shown to differ at n = 100")
    # every pair, in the order given; a pair always equal is not shown to differ anywhere
    lines = cv_power_difference_lines(rej, ["B", "C", "A"])
    assert len(lines) == 3 and lines[0].endswith("not shown to differ at n = 100, 200")
    # B and C never reject: no data set where they disagree, so no SE to estimate (not "+0.000 ± 0.000")
    assert ("no discordant data sets (SE not estimable) at n = 100, no discordant data sets (SE not estimable) "
            "at n = 200: not shown to differ at n = 100, 200") in lines[0]
    assert "± 0.000" not in lines[0] and "-1.000 ± 0.000 at n = 200" in lines[1]
    everywhere = rej.copy()
    everywhere.loc[(100, 2), "A"] = everywhere.loc[(100, 3), "A"] = True
    assert cv_power_difference_lines(everywhere, ["B", "A"])[0].endswith(
        "'A' higher at every simulated size by more than 2 MC SE")
    assert cv_power_difference_lines(rej, ["A"]) == []
    with pytest.raises(ValueError, match="tests"):
        cv_power_difference_lines(rej, ["A", "D"])
    with pytest.raises(ValueError, match="rejections"):
        cv_power_difference_lines(rej.droplevel(0), ["A", "B"])


def test_notebook_06_computes_its_cv_power_ranking_instead_of_typing_it():
    """Review nb0006c: cell 26 typed "the corrected test is the more powerful in the default run". The saved line now
    computes it; its differences are checked against the saved power table (corrected minus 5x2cv, by hand)."""
    import re

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    table = joined.split("per size (mcse at most")[1].split("size (rejection rate")[0].strip().splitlines()[3:]
    power = {int(r.split()[0]): [float(x) for x in r.split()[1:]] for r in table if r.strip()}
    line = next(s for s in joined.splitlines() if s.strip().startswith("'corrected resampled t' minus '5x2cv t'"))
    shown = {int(n): float(d) for d, n in re.findall(r"([+-]\d\.\d{3}) ± \d\.\d{3} at n = (\d+)", line)}
    assert sorted(shown) == sorted(power) == [100, 200, 400, 800]
    for n, (five_by_two, corrected, *_) in power.items():     # columns: 5x2cv, corrected, naive, naive (rounded)
        assert shown[n] == pytest.approx(corrected - five_by_two, abs=0.006)
    assert line.endswith("'corrected resampled t' higher at every simulated size by more than 2 MC SE")
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    for typed in ("the corrected test is the more powerful", "in the default run the corrected resampled",
                  "roughly half the target power"):
        assert typed not in md, typed


# --------------------------------------------------------------------------- a lecturer's cold reading (nb0006e)
def test_the_pilots_least_precise_part_is_computed_not_asserted():
    """Review nb0006e: "the ICC ... usually least precisely" stood in the prose with no number behind it. The pilot
    simulation now prints each part's 10th-90th percentile over the simulated pilots and that range as a share of the
    true value, and names the widest from those numbers; the prose no longer asserts which part it is."""
    import re

    nb = load_notebook(NOTEBOOK)
    md = "\n".join("".join(o["data"]["text/markdown"]) for c in nb["cells"] for o in c.get("outputs", [])
                   if "text/markdown" in o.get("data", {}))
    prose = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "usually least precisely" not in prose and "usually knows it least" not in prose
    block = md.split("Each variance part's estimate over these pilots")[1].split("least precisely")[0]
    rows = re.findall(r"(\w+) (\d\.\d{3}) to (\d\.\d{3}) \(true (-?\d\.\d{3}), (\d+)%\)", block)
    assert {r[0] for r in rows} == {"sd_a", "sd_b", "correlation", "within_sd_a", "within_sd_b", "icc"}
    shares = {}
    for key, lo, hi, true, share in rows:
        lo, hi, true = float(lo), float(hi), float(true)
        assert lo <= hi
        assert abs(100 * (hi - lo) / abs(true) - int(share)) <= 1 + 100 * 0.001 / abs(true)   # 3-decimal rounding
        shares[key] = (hi - lo) / abs(true)
    named = re.search(r"a pilot of this size estimates (\w+) least precisely", md).group(1)
    assert named == max(shares, key=shares.get)


def test_the_bootstrap_limit_is_an_approximate_upper_limit_not_a_bound():
    """Review nb0006e: "One pilot can bound its own ICC" and "narrows that bound" read as a guarantee; the limit is a
    percentile bootstrap's, approximate."""
    nb = load_notebook(NOTEBOOK)
    md = "\n".join("".join(o["data"]["text/markdown"]) for c in nb["cells"] for o in c.get("outputs", [])
                   if "text/markdown" in o.get("data", {}))
    assert "can bound" not in md and "narrows that bound" not in md
    assert "One pilot gives an approximate upper limit for its own ICC" in md
    assert "A larger pilot brings that limit closer to the truth." in md


def test_the_simulated_size_names_both_monte_carlo_standard_errors():
    """Review nb0006e: "(mcse 0.008 ...)" then "(MC SE 0.007 if the true size were 0.05)": one spelling, and which
    rate each is computed at. The two by hand from the printed size and 1000 benchmarks."""
    import math
    import re

    joined = outputs_text(load_notebook(NOTEBOOK))
    found = re.search(r"size (\d\.\d{3}) \(Monte Carlo SE (\d\.\d{3}) at the simulated rate; nominal 0.05\)", joined)
    size, se = float(found.group(1)), float(found.group(2))
    assert abs(se - math.sqrt(size * (1 - size) / 1000)) <= 0.0006
    assert f"(Monte Carlo SE {math.sqrt(0.05 * 0.95 / 1000):.3f} under the null, if the true size were 0.05)" in joined
    pilot_cell = next(c for c in load_notebook(NOTEBOOK)["cells"] if "def item_rejection" in _src(c))
    printed = "".join("".join(o.get("text", "")) for o in pilot_cell.get("outputs", []))
    assert "mcse" not in printed and "MC SE" not in printed


def test_the_answers_per_item_lever_and_its_slider():
    """Review nb0006e: the gain from K is bounded by the noise part (not "stops"), and the items-per-cluster slider
    opens at 10, where the ICC slider has an effect (at 1 the design effect 1 + (m - 1) ICC is 1 whatever the ICC)."""
    nb = load_notebook(NOTEBOOK)
    prose = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "gain stops" not in prose
    assert "the gain from more answers per item ($K$) is bounded by the noise part" in prose
    slider = next(c for c in nb["cells"] if 'controls["item_cluster"]' in _src(c))
    assert 'controls["item_cluster"] = widgets.IntSlider(value=10,' in _src(slider)


# --------------------------------------------------------------------------- cold read n06 (helper h2/n06)
def _markdown(nb) -> str:
    return "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_one_way_power_at_100_cases_is_given_for_each_test():
    """Cold read n06, finding 1: 'even if all 7% of disagreements went one way, the power would stay below 80%' is
    Connor's approximation (and the exact test's), not the mid-p test's: recomputed with scipy's binomials."""
    import math

    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    # every disagreement one way: b = m ~ Binomial(100, 0.07); a test rejects when m reaches its smallest one-way m
    exact_m = next(m for m in range(1, 100) if 2 * 0.5 ** m <= 0.05)
    midp_m = next(m for m in range(1, 100) if 2 * (0.5 ** m - 0.5 * 0.5 ** m) <= 0.05)
    exact, midp = (stats.binom.sf(m - 1, 100, 0.07) for m in (exact_m, midp_m))
    za, psi = stats.norm.isf(0.025), 0.07
    connor = stats.norm.cdf((psi * math.sqrt(100) - za * math.sqrt(psi)) / math.sqrt(psi - psi ** 2))
    assert connor < 0.8 <= midp and exact < 0.8
    assert "the power would stay below 80%" not in joined
    assert (f"by Connor's approximation: none - even if all 7% of disagreements went one way, its power would be "
            f"{connor:.2f}, below 80%") in joined
    assert (f"the exact power is {exact:.3f} for the exact test and {midp:.3f} for the mid-p test: the mid-p test "
            "reaches 80% there") in joined


def test_the_nemenyi_floor_is_not_said_to_have_power_one_half_for_every_gap():
    """Cold read n06, finding 2: near the largest gap k - 1 the power at the critical-difference floor is far above
    one half (a numpy simulation of Friedman ranks, k = 3, gap 1.9, q from scipy's studentized range), so the prose
    may not say 'at which the power is only about one half' for every k and gap."""
    import math

    import numpy as np
    from scipy import optimize, stats

    k, gap = 3, 1.9
    q = stats.studentized_range.ppf(0.95, k, np.inf) / math.sqrt(2)
    n = math.ceil(q ** 2 * k * (k + 1) / (6 * gap ** 2))
    cd = q * math.sqrt(k * (k + 1) / (6 * n))

    def expected_gap(s):
        mu = np.arange(k) / (k - 1) * s
        win = stats.norm.cdf((mu[None, :] - mu[:, None]) / math.sqrt(2))
        np.fill_diagonal(win, 0)
        return win.sum(axis=1)[0] - win.sum(axis=1)[-1]

    spacing = optimize.brentq(lambda s: expected_gap(s) - gap, 0, 50)
    scores = np.arange(k) / (k - 1) * spacing + np.random.default_rng(5).standard_normal((4000, n, k))
    ranks = stats.rankdata(-scores, axis=2)
    power = np.mean(np.abs(ranks[..., 0].mean(axis=1) - ranks[..., -1].mean(axis=1)) >= cd - 1e-12)
    assert power > 0.8          # about 0.95 (MC SE about 0.004)
    prose = _markdown(load_notebook(NOTEBOOK))
    assert "at which the power is only about one half" not in prose
    assert "only roughly half the time" not in prose
    assert "about one half in the default run" in prose and "well above one half" in prose


def test_simulated_powers_are_read_against_the_target_with_their_mc_se():
    """Cold read n06, finding 3: 'first simulated size with power at least 0.8: 400 cases' read a power of 0.82
    (MC SE 0.022) as reaching the target; each such line now gives the MC SE and whether the estimate is separated
    from the target by two MC SE, recomputed here from the printed power and the number of simulated data sets."""
    import math

    joined = outputs_text(load_notebook(NOTEBOOK))
    line = next(s for s in joined.splitlines() if s.startswith("  'corrected resampled t': not shown"))
    found = re.search(r"first simulated size with power at least 0.8: (\d+) cases \(power (\d\.\d{3}), MC SE "
                      r"(\d\.\d{3}): ([^)]*)\)", line)
    assert found, line
    power = float(found.group(2))
    se = math.sqrt(power * (1 - power) / 300)
    assert found.group(3) == f"{se:.3f}"
    separated = power - 2 * se >= 0.8
    assert found.group(4).startswith("above 0.8" if separated else "within two Monte Carlo standard errors of 0.8")
    f1 = re.search(r"F1 bootstrap's simulated power is at least 0.8: n = (\d+) \(power (\d\.\d{3}), mcse "
                   r"(\d\.\d{3}): (above|within|below)", joined)
    assert f1 and (float(f1.group(2)) - 2 * float(f1.group(3)) >= 0.8) == (f1.group(4) == "above")


def test_exercise_5_is_not_answered_by_the_table_above_it():
    """Cold read n06, finding 4: the ICC table of section 7 already showed that the items grow by less than the ICC,
    which the old exercise 5 asked to predict. The new one asks which ICC doubles the pilot's plan: from the pilot's
    printed parts, V(ICC') = 2 V(ICC) gives an ICC' more than twice the pilot's, a number no output prints."""
    nb = load_notebook(NOTEBOOK)
    exercises = _src(nb["cells"][-2])
    assert "does the number of items the plan needs double, grow by less, or by more" not in exercises
    assert "which ICC would *double* the number of items" in exercises
    joined = outputs_text(nb)
    pilot = dict(re.findall(r"(sd_a|sd_b|correlation|within_sd_a|within_sd_b|icc) (\d\.\d{3})",
                            joined.split("estimates: ")[1].splitlines()[0]))
    p = {key: float(v) for key, v in pilot.items()}
    omega2 = p["sd_a"] ** 2 + p["sd_b"] ** 2 - 2 * p["correlation"] * p["sd_a"] * p["sd_b"]
    v0 = omega2 * (1 + 9 * p["icc"]) + (p["within_sd_a"] ** 2 + p["within_sd_b"] ** 2) / 4
    doubling = p["icc"] + v0 / (9 * omega2)
    assert 2 * p["icc"] < doubling <= 1
    assert f"{doubling:.3f}" not in joined and f"{doubling:.2f}" not in joined


def test_the_items_sliders_open_on_the_clustered_plan_not_on_the_static_figure():
    """Cold read n06, finding 5: the items widget opened at ICC 0 in clusters of 10, i.e. the static figure above it
    again (its counts rounded to whole clusters); it opens at the ICC 0.1 of the printed clustered plan."""
    nb = load_notebook(NOTEBOOK)
    slider = next(c for c in nb["cells"] if 'controls["item_icc"]' in _src(c))
    assert 'controls["item_icc"] = widgets.FloatSlider(value=0.1,' in _src(slider)
    alts = [o["metadata"]["image/png"]["alt"] for o in slider["outputs"] if "image/png" in o.get("data", {})]
    assert len(alts) == 1 and "in clusters of 10 with an ICC of the expected differences of 0.1;" in alts[0]
    assert "1910 items in 191 clusters of 10" in outputs_text(nb)       # the plan the sliders open on
    assert "They open on\nthe clustered design of the plan printed above" in _markdown(nb)


def test_the_simulated_power_is_read_against_the_pilots_promise_too():
    """Cold read r12: the pilot's plan is judged against the power it promised, not only against the true parts'
    (the promise is what a planner acts on). The verdict is recomputed from the printed numbers: the simulated
    power against the promise, two binomial Monte Carlo standard errors at the promised power."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    found = re.search(r"(\d+) simulated benchmarks of \d+ items with 0/1 answers: power (\d\.\d+) \(Monte Carlo SE "
                      r"\d\.\d+; the true parts give \d\.\d+, the pilot promised (\d\.\d+)\)", joined)
    sims, simulated, promised = int(found.group(1)), float(found.group(2)), float(found.group(3))
    se = math.sqrt(promised * (1 - promised) / sims)
    verdict = ("falls short of the" if simulated + 2 * se < promised else
               "exceeds the" if simulated - 2 * se > promised else "is within two Monte Carlo standard errors")
    line = next(s for s in joined.splitlines() if s.startswith("the simulated power is "))
    assert f", and {verdict}" in line and f"{promised:.3f} the pilot promised" in line


def _midp_or_exact_power(ns, p_b, p_c, alpha, mid):
    """Exact power of McNemar's exact conditional (``mid=False``) or mid-p (``mid=True``) test at each n, by
    enumeration with scipy, as :func:`_exact_power` (the mid-p value of min(b, m - b) = k is
    2 P(Bin(m, 1/2) <= k) - P(Bin(m, 1/2) = k))."""
    import numpy as np
    from scipy import stats

    psi, q = p_b + p_c, p_b / (p_b + p_c)
    top = int(max(ns))
    reject = np.zeros(top + 1)
    for m in range(1, top + 1):
        counts = np.arange(m // 2 + 1)
        pvalue = 2 * stats.binom.cdf(counts, m, 0.5) - (stats.binom.pmf(counts, m, 0.5) if mid else 0)
        ok = counts[(pvalue <= alpha) & (2 * counts < m)]
        if ok.size:
            k = ok.max()
            reject[m] = stats.binom.cdf(k, m, q) + stats.binom.sf(m - k - 1, m, q)
    return np.array([np.sum(stats.binom.pmf(np.arange(n + 1), n, psi) * reject[:n + 1]) for n in ns])


def test_the_exact_tests_extra_cases_are_measured_against_the_mid_p_test():
    """Cold read h3, 06-4: "mainly because it is conservative" was asserted. The cell now prints the exact and the mid-p
    test's sample sizes beside Connor's; recomputed here by enumeration (scipy's binomials) with the workbook's rule
    (power at least the target on every n' in [n, ceil(1.1 n)]) and Connor's formula written out."""
    import math

    import numpy as np

    nb = load_notebook(NOTEBOOK)
    assert "mainly because it is conservative" not in _markdown(nb)
    p_b, p_c = 0.065, 0.035            # difference 0.03, disagreement 0.10
    ns = np.arange(700, 1200)
    sizes = {}
    for name, mid in (("exact", False), ("mid-p", True)):
        reached = dict(zip(ns.tolist(), _midp_or_exact_power(ns, p_b, p_c, 0.05, mid) >= 0.8))
        sizes[name] = next(n for n in range(700, 1050)
                           if all(reached[m] for m in range(n, math.ceil(1.1 * n) + 1)))
    connor = _connor_n(p_b, p_c, 0.8, 0.05)
    e, m, c = sizes["exact"], sizes["mid-p"], connor
    assert e > c > m                   # 920 > 870 > 862: the mid-p test does without all of the excess
    joined = outputs_text(nb)
    assert (f"exact {e}, mid-p {m}, Connor's formula {c}: the exact test needs {e - c} more than Connor's formula; "
            f"the mid-p test needs {e - m} fewer than the exact test, all of that excess and {c - m} more") in joined


def test_the_nemenyi_n_with_the_target_power_is_read_with_its_monte_carlo_error():
    """Cold read h3, 06-3: "80% power from N = 61" stood for a simulated power of 0.807 with MC SE 0.009, within one
    MC SE of the target. The line now gives the distance in MC SE and the two-MC-SE verdict, and the N from which the
    simulation shows the power above the target; recomputed from the printed power (binomial MC SE of 2000 studies)."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    assert "80% power from N = " not in joined
    found = re.search(r"the simulated power reaches 0\.8 from N = (\d+) data sets on, [\d.]+ times the floor \(power "
                      r"there (\d\.\d{3}), mcse (\d\.\d{3}), (\d+\.\d) Monte Carlo standard errors (above|below) 0\.8: "
                      r"([^;]*)\)", joined)
    assert found, joined
    p, se = float(found.group(2)), float(found.group(3))
    assert abs(se - math.sqrt(p * (1 - p) / 2000)) <= 0.0006
    assert abs(float(found.group(4)) - (p - 0.8) / se) <= 0.1 + 0.0005 / se * 2   # printed numbers are rounded
    verdict = found.group(6)
    if p - 2 * se >= 0.8 + 0.001:
        assert verdict.startswith("above 0.8 by more than two")
    elif abs(p - 0.8) <= 2 * se - 0.001:
        assert verdict.startswith("within two Monte Carlo standard errors of 0.8: not separated")
    clear = re.search(r"the simulated power is above 0\.8 by more than two Monte Carlo standard errors from N = (\d+) "
                      r"on \(power there (\d\.\d{3}), mcse (\d\.\d{3})\)", joined)
    assert clear, joined
    n_clear, p2, se2 = int(clear.group(1)), float(clear.group(2)), float(clear.group(3))
    assert p2 - 2 * se2 >= 0.8 - 0.001 and abs(se2 - math.sqrt(p2 * (1 - p2) / 2000)) <= 0.0006
    high = int(re.search(r"within two Monte Carlo standard errors of 0.8: N = \d+ to (\d+)", joined).group(1))
    assert n_clear > high >= int(found.group(1))


def test_the_pilots_shares_carry_their_monte_carlo_error():
    """Cold read h3, 06-1: "10% of the pilots" and "14% of this pilot's resamples" estimate ICC = 0 were Monte Carlo
    shares printed without their error; each now carries the binomial MC SE, recomputed here from the printed share
    and the number of pilots (resamples) the sentence gives."""
    nb = load_notebook(NOTEBOOK)
    md = "\n".join("".join(o["data"]["text/markdown"]) for c in nb["cells"] for o in c.get("outputs", [])
                   if "text/markdown" in o.get("data", {}))
    pilots = int(re.search(r"across (\d+) simulated pilots", md).group(1))
    resamples = int(re.search(r"resampling its \d+ clusters ([\d,]+) times", md).group(1).replace(",", ""))
    share = r"(\d+\.\d)% \(MC SE (\d+\.\d) percentage points\)"
    first = re.search(share + r" of the pilots estimate it at 0", md)
    second = re.search(r"0: " + share + r" of the simulated pilots and " + share + r" of this pilot's resamples", md)
    assert first and second, md
    for (pct, se), n in (((first.group(1), first.group(2)), pilots), ((second.group(1), second.group(2)), pilots),
                         ((second.group(3), second.group(4)), resamples)):
        p = float(pct) / 100
        assert abs(float(se) - 100 * math.sqrt(p * (1 - p) / n)) <= 0.051 + 100 * 0.0005 / math.sqrt(n)
    assert re.search(r"\d% of the (simulated )?pilots", md.replace("(MC SE", "")) is None


def test_exercise_2_asks_what_section_1s_rule_does_not_say():
    """Cold read h3, 06-2: exercise 2 asked whether four times the cases give half, a quarter or a sixteenth of the
    minimum detectable difference, which section 1 says ("half the difference, four times the cases"). It now asks on
    which side of one half Connor's ratio lies: solved here with scipy's root finder, a little more than half (0.5004),
    a number no output prints."""
    nb = load_notebook(NOTEBOOK)
    exercises = _src(nb["cells"][-2])
    assert "a half, a quarter or a sixteenth" not in exercises
    assert "exactly half\n   of that, a little more than half or a little less" in exercises
    assert "half the difference, four times the cases" in _markdown(nb)
    ratio = _connor_mdd(4000, 0.1, 0.8, 0.05) / _connor_mdd(1000, 0.1, 0.8, 0.05)
    assert 0.5 < ratio < 0.501
    assert f"{ratio:.4f}" not in outputs_text(nb)
