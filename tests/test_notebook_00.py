"""Notebook 00 (start here) as a reader, papermill and a reader's sliders meet it.

nbval executes the saved notebook and compares its cells tagged ``nbval-check-output``;
tests/test_notebooks.py and tests/test_readable.py check its house style. Here: the saved
key outputs, a papermill run with other parameters, the exercises' solutions, and a live
kernel in which the sliders are moved.
"""

from __future__ import annotations

import re

import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text

NOTEBOOK = NOTEBOOK_DIR / "00_start_here.ipynb"


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_notebook_00_is_saved_with_the_running_example():
    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb)
    # scikit-learn's breast-cancer data, 40% stratified test split (seed 0): 228 cases
    assert "test set: 228 cases" in joined
    assert "A wrong, B right: b = 11;  A right, B wrong: c = 4" in joined
    # the mid-p test is reported (notebook 01's recommendation): 2 P(X <= 4) - P(X = 4), X ~ Binomial(15, 1/2)
    from scipy import stats
    midp = 2 * stats.binom.cdf(4, 15, 0.5) - stats.binom.pmf(4, 15, 0.5)
    exact = stats.binomtest(4, 15, 0.5).pvalue
    # two significant digits, the conventions page's rule for a printed p-value (review nb0006e: 0.0768 and 0.1185
    # beside the write-up's 0.077)
    assert f"McNemar's mid-p test: b = 11, c = 4, p = {midp:#.2g}" in joined and f"{midp:#.2g}" == "0.077"
    assert f"(the exact test, for comparison: p = {exact:#.2g})" in joined and f"{exact:#.2g}" == "0.12"
    md = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    for design in ("one test set, paired per case", "resampling on one data set", "many data sets"):
        assert design in md
    # notebook 02 (best of C against chance) is not taught as "paired per case"
    design_row = next(line for line in md.splitlines() if line.startswith("| **1. one test set"))
    assert design_row.rstrip().endswith("| 01, 03 |")
    for nb_name in ("01_berrar_lozano", "02_forman_cohen", "03_bizarre_measures", "04_flach_experiments",
                    "05_cv_ttests", "06_planning", "07_many_datasets"):
        assert nb_name in md
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 3


def test_notebook_00_example_of_interval_and_test_disagreeing():
    """Section 2c's example, found by the notebook at alpha = 0.05 among 100 cases: b = 5, c = 0.
    Bonett–Price written out (Fagerland et al. 2014) and the mid-p value from scipy's binomial."""
    import math

    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    p12, p21, z = 6 / 102, 1 / 102, stats.norm.isf(0.025)
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / 102)
    low, high = p12 - p21 - half, p12 - p21 + half
    p = 2 * stats.binom.cdf(0, 5, 0.5) - stats.binom.pmf(0, 5, 0.5)
    assert low < 0 < high and p < 0.05       # the interval contains 0, the mid-p test rejects
    assert (f"b = 5, c = 0 among 100 cases: the 95% Bonett–Price interval [{low:+.3f}, {high:+.3f}] contains 0, "
            f"while the mid-p test gives p = {p:#.2g} (rejects)") in joined
    # no table with fewer disagreements disagrees: 1 to 4 disagreements all one way never reject
    assert all(2 * 0.5 ** m - 0.5 ** m > 0.05 for m in range(1, 5))


def test_notebook_00_plans_with_the_power_of_the_test_it_reports():
    """Section 2d: power, test cases and detectable difference of the mid-p test, each checked
    against brute-force enumeration of every table (scipy's multinomial), Connor's labelled as such."""
    from scipy import stats

    nb = load_notebook(NOTEBOOK)
    joined = outputs_text(nb) + write_up_text(nb)
    n, b, c = 228, 11, 4

    def midp(b_, c_):
        m, k = b_ + c_, min(b_, c_)
        if m == 0:
            return 1.0
        return min(1.0, 2 * stats.binom.cdf(k, m, 0.5) - stats.binom.pmf(k, m, 0.5)) if b_ != c_ else \
            1 - stats.binom.pmf(k, m, 0.5) / 2

    # given m discordant cases the test rejects on a fixed set of b (enumerated once for the three powers)
    rejected = [[b_ for b_ in range(m + 1) if midp(b_, m - b_) <= 0.05] for m in range(120)]

    def power(n_, p_b, p_c):
        # the count m of discordant cases is Binomial(n, psi)
        psi, total = p_b + p_c, 0.0
        for m in range(0, 120):
            rej = stats.binom.pmf(rejected[m], m, p_b / psi).sum()
            total += stats.binom.pmf(m, n_, psi) * rej
        return total

    assert f"if the observed rates were true: {power(n, b / n, c / n):.2f} (mid-p test, exact;" in joined
    line = next(s for s in joined.splitlines() if s.startswith("with 228 cases and this disagreement rate"))
    mdd = float(line.split("80% power is ")[1].split()[0])
    psi = 15 / n
    # the printed difference (3 decimals, rounded up) is detected with 80% power by the enumerated power, 0.001
    # less is not (rounded to the nearest it read 0.045, where the power is 0.79)
    assert power(n, (psi + mdd) / 2, (psi - mdd) / 2) >= 0.8
    assert power(n, (psi + mdd - 0.001) / 2, (psi - mdd + 0.001) / 2) < 0.8
    # Connor's minimum detectable difference, 0.0473 by his formula (n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2), rounded up
    assert "Connor's formula: 0.048" in line
    # the plan is for the difference set in advance (smallest_difference = 0.03), at the observed disagreement rate;
    # the exact size is the smallest n whose enumerated power reaches 80% and stays there up to ceil(1.1 n)
    import math
    d = 0.03
    plan = next(s for s in joined.splitlines() if s.startswith("plan for the smallest difference that matters, 0.03"))
    need = int(re.search(r"test cases for 80% power: (\d+) \(mid-p test, exact power\)", plan).group(1))
    q_b, q_c = (psi + d) / 2, (psi - d) / 2

    def holds(n_):
        return all(power(k, q_b, q_c) >= 0.8 for k in range(n_, math.ceil(1.1 * n_) + 1))

    assert holds(need) and not holds(need - 1)
    assert f"Connor's formula says {connor_n(d, psi)}; this test set (n = 228) has power {power(n, q_b, q_c):.2f}" in plan
    # the observed difference only as an illustration, with the ends of the interval (Bonett–Price written out)
    low, high = bonett_price(b, c, n)
    # ... computed at this test set's disagreement rate (the Connor numbers below use psi = 15 / 228), as it says
    assert (f"illustration only, not a plan (at this test set's disagreement rate {psi:.3f}, or at the difference "
            "itself where that is larger)" in joined
            and "the observed difference +0.031 would need" in joined
            and f"the interval allows {low:+.3f}, which would need more than 20,000 cases (the exact search stops there; "
                f"Connor: {connor_n(abs(low), psi)})" in joined
            and f"up to {high:+.3f}, which would need" in joined and f"(Connor: {connor_n(high, psi)})" in joined)
    assert connor_n(abs(low), psi) > 20_000 / 1.1
    write_up = next(s for s in joined.splitlines() if s.startswith("- **Power**"))
    assert f"a plan for the smallest difference that matters, 0.03 (set in advance), needs {need} cases" in write_up
    assert "of the observed size" not in write_up and "no difference" not in joined
    assert "the error rates are not shown to differ at alpha = 0.05" in joined


def write_up_text(nb) -> str:
    """The Markdown the notebook displays (the write-up), which outputs_text leaves out."""
    return "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"] for o in c.get("outputs", []))


def connor_n(d, psi, alpha=0.05, power=0.8):
    """Connor (1987): n = [z_{alpha/2} sqrt(psi) + z_beta sqrt(psi - d^2)]^2 / d^2, rounded up."""
    import math

    from scipy import stats
    z_a, z_b = stats.norm.isf(alpha / 2), stats.norm.ppf(power)
    return math.ceil((z_a * math.sqrt(psi) + z_b * math.sqrt(psi - d ** 2)) ** 2 / d ** 2)


def bonett_price(b, c, n, alpha=0.05):
    """Bonett & Price (2012) as Fagerland, Lydersen & Laake (2014) give it."""
    import math

    from scipy import stats
    p12, p21, z = (b + 1) / (n + 2), (c + 1) / (n + 2), stats.norm.isf(alpha / 2)
    half = z * math.sqrt((p12 + p21 - (p12 - p21) ** 2) / (n + 2))
    return p12 - p21 - half, p12 - p21 + half


def test_notebook_00_ends_with_exercises_and_a_guarded_solutions_cell():
    nb = load_notebook(NOTEBOOK)
    exercises, solutions = nb["cells"][-2:]
    assert _src(exercises).count("## Exercises") == 1 and "(Explain)" in _src(exercises)
    assert "solutions" in solutions["metadata"].get("tags", [])
    assert _src(solutions).startswith("if show_solutions:") and not solutions.get("outputs")


@pytest.mark.slow
def _midp_p(b, c):
    """McNemar's mid-p value written out from scipy's binomial: 2 P(X <= min) - P(X = min), X ~ Binomial(b + c, 1/2)."""
    from scipy import stats
    m, k = b + c, min(b, c)
    if m == 0:
        return 1.0
    return min(1.0, 2 * stats.binom.cdf(k, m, 0.5) - stats.binom.pmf(k, m, 0.5))


def _midp_power_by_hand(n, p_b, p_c, alpha):
    """The mid-p test's exact power: s ~ Binomial(n, p_b + p_c) disagreements, b ~ Binomial(s, p_b / (p_b + p_c))."""
    from scipy import stats
    psi = p_b + p_c
    if psi == 0:
        return 0.0
    total = 0.0
    for s in range(1, n + 1):
        j = [k for k in range(s + 1) if _midp_p(k, s - k) <= alpha]
        if j:
            total += stats.binom.pmf(s, n, psi) * sum(stats.binom.pmf(j, s, p_b / psi))
    return total


def test_notebook_00_runs_with_other_parameters_and_its_solutions_check_out(notebook_runs):
    params = dict(seed=3, test_size=0.25, alpha=0.1, power=0.9, show_solutions=True)
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "test_size = 0.25" in "".join(injected[0]["source"])
    joined = outputs_text(nb) + write_up_text(nb)
    assert "test set: 143 cases" in joined
    assert "90% interval for err_A - err_B" in joined
    assert re.search(r"(compatible with these data|not compatible with equal error rates) at level alpha = 0\.1\n", joined)
    assert "at alpha = 0.1 it" in joined
    assert re.search(r"the error rates (differ|are not shown to differ) at alpha = 0\.1 \(it", joined)
    assert "(set in advance), needs " in joined and "of the observed size" not in joined
    assert "with 90% power" in joined
    assert "solutions ok" in joined and "3. " in joined
    # exercise 3: the minimum detectable difference does not move when the disagreements split evenly
    three = next(line for line in joined.splitlines() if line.startswith("3. "))
    mdd = re.search(r"only differences of at least ([\d.]+)", three)
    assert mdd and f"the minimum detectable difference stays {mdd.group(1)} (it depends on n and b + c only" in three
    # this run's b = 7, c = 1 (8 disagreements) split evenly are b = c = 4, and the interval moves
    counts = re.search(r"A wrong, B right: b = (\d+);  A right, B wrong: c = (\d+)", joined)
    b, c = int(counts.group(1)), int(counts.group(2))
    assert abs(b - c) > 1 and (b + c) % 2 == 0
    assert f". Split evenly (b = {(b + c) // 2}, c = {(b + c) // 2}) the minimum detectable difference stays" in three
    # exercise 2 is answered at the sliders' starting values, the numbers the reader sees in the title
    assert "2. at the sliders' start" in joined and "power of McNemar's mid-p test" in joined
    # exercise 3: the largest 'observed power' among the splits of these b + c disagreements the mid-p test does not
    # reject, by enumeration with scipy (review nb0006d item 8: the solution typed "about one half or less")
    n = int(re.search(r"test set: (\d+) cases", joined).group(1))
    m = b + c
    calm = {k: _midp_power_by_hand(n, k / n, (m - k) / n, 0.1) for k in range(m + 1) if _midp_p(k, m - k) > 0.1}
    top_b = max(calm)                                   # the largest b the test does not reject ...
    top_power = calm[top_b]
    assert top_power >= max(calm.values()) - 1e-12      # ... has the largest 'observed power' of those splits
    assert (f"among the splits of these b + c = {m} disagreements over n = {n} cases that the test does not reject, "
            f"that 'observed power' is largest at b = {top_b}, c = {m - top_b}, where it is {top_power:.2f}") in three
    assert "about one half or less" not in joined


@pytest.mark.slow
def test_notebook_00_sliders_drive_the_plan(notebook_runs):
    """Move each slider in a live kernel: each move must redraw with the new value.

    The callback is evallib's ``plot_interval_and_power`` itself; what it drew is read
    back from the titles and texts matplotlib was given.
    """
    probe = '''
from pytest import approx as pytest_approx
import matplotlib.axes
drawn = []
_title, _text = matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text
matplotlib.axes.Axes.set_title = lambda self, label, *a, **k: (drawn.append(label), _title(self, label, *a, **k))[1]
matplotlib.axes.Axes.text = lambda self, x, y, s, *a, **k: (drawn.append(s), _text(self, x, y, s, *a, **k))[1]
import matplotlib.text
_set_text = matplotlib.text.Text.set_text
matplotlib.text.Text.set_text = lambda self, s: (drawn.append(str(s)) if "no such pair" in str(s) else None,
                                                 _set_text(self, s))[1]
for name, w in controls.items():
    assert w.min + round((w.value - w.min) / w.step) * w.step == pytest_approx(w.value), name   # on its grid
controls["difference"].value = 0.05
controls["discordance"].value = 0.2
controls["n"].value = 500
controls["discordance"].value = 0.04
matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.text = _title, _text
matplotlib.text.Text.set_text = _set_text
lines = [d.splitlines()[0] for d in drawn if d]
assert lines[:3] == ["difference +0.050, disagreement 0.07, n = 230:",
                     "difference +0.050, disagreement 0.20, n = 230:",
                     "difference +0.050, disagreement 0.20, n = 500:"], drawn
assert any(d.startswith("no such pair of classifiers") for d in drawn[3:]), drawn
assert "power of the mid-p test" in drawn[0]
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe)
    assert any("sliders ok" in o.get("text", "") for o in out), out


def test_notebook_00_sends_readers_to_functions_the_notebooks_use():
    """Each row of "Where next" names a notebook and its main functions: every function named
    must be exported by evallib and appear in that notebook's cells (a map that names a function
    the lesson never shows sends the reader looking for it in vain)."""
    import re

    import evallib

    nb = load_notebook(NOTEBOOK)
    where = next(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown" and "## Where next" in _src(c))
    rows = [line for line in where.splitlines() if re.search(r"`\d\d_\w+\.ipynb`", line)]
    assert len(rows) == 9, rows          # one row per lesson, 01-09
    for row in rows:
        target = re.search(r"`(\d\d_\w+\.ipynb)`", row).group(1)
        named = re.findall(r"`([a-z_0-9]+)`", row.split(target)[1])
        assert named, row
        text = "\n".join(_src(c) for c in load_notebook(NOTEBOOK_DIR / target)["cells"])
        for name in named:
            assert hasattr(evallib, name), (target, name)
            assert re.search(rf"\b{name}\b", text), f"{target} never shows {name}"


def test_observed_power_of_a_non_rejection_is_at_most_about_one_half():
    """Exercise 3's solution says the power at the observed difference only restates the p-value (and computes
    its largest value over the non-rejecting splits of its run); the general bound it once typed:
    whenever the mid-p test does not reject, it comes out at about one half or less. Checked by
    enumeration with scipy for every table with up to 40 disagreements, at n = 50 and n = 228."""
    import numpy as np
    from scipy import stats

    def rejects(m):
        k = np.arange(m + 1)
        low = np.minimum(k, m - k)
        p = 2 * stats.binom.cdf(low, m, 0.5) - stats.binom.pmf(low, m, 0.5)
        p = np.where(k == m - k, 1 - stats.binom.pmf(low, m, 0.5) / 2, p)
        return p <= 0.05

    for n in (50, 228):
        rej = [rejects(m) for m in range(n + 1)]
        # The rejections of s disagreements are the two tails j <= edge[s] and j >= s - edge[s]
        # (edge -1: none), checked here, so P(reject | s) is one binomial cdf plus one sf.
        edge = np.array([np.flatnonzero(r[:s // 2 + 1]).max(initial=-1) for s, r in enumerate(rej)])
        for s, r in enumerate(rej):
            j = np.arange(s + 1)
            assert np.array_equal(r, (j <= edge[s]) | (j >= s - edge[s])), s
        s_all = np.arange(n + 1)
        worst = 0.0
        for m in range(1, 41):
            b = np.flatnonzero(~rej[m])  # the tables with m disagreements the test does not reject
            share = (b / m)[:, None]  # pb / (pb + pc) with pb = b / n, pc = (m - b) / n
            # power at the observed (pb, pc): s ~ Binomial(n, pb + pc), then the test's tails given s
            given_s = stats.binom.cdf(edge, s_all, share) + stats.binom.sf(s_all - edge - 1, s_all, share)
            power = given_s @ stats.binom.pmf(s_all, n, m / n)
            worst = max(worst, power.max())
        assert worst <= 0.5, (n, worst)


def test_notebook_00_says_the_agreeing_cases_matter_outside_the_conditional_test():
    """Issue 33: "only the cases where they disagree carry information" holds for McNemar's conditional test only."""
    import json

    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    markdown = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "only the cases where they disagree carry information" not in markdown
    assert "Only the `b + c` cases on which the two classifiers disagree can tell them apart" not in markdown
    assert "conditions on the number of disagreements" in markdown


def test_design_map_places_notebook_02_as_the_table_does():
    """Issue 33: the table puts notebook 02 in no design's row; the design map said "02" under design 1."""
    import matplotlib

    matplotlib.use("Agg")
    from evallib.lessons import plot_design_map

    texts = [t.get_text() for t in plot_design_map().texts]
    design_1 = [t for t in texts if "evallib.onetestset" in t]
    assert design_1 == ["evallib.onetestset\nnotebooks 01, 03 (plan: 06)"]
    assert sum("02" in t for t in texts) == 1
    assert any(t.startswith("In no column: notebook 02") for t in texts)


def test_notebook_00_gives_the_post_hoc_power_caveat_before_the_power():
    """Issue 33: the power at the observed rates was printed a cell before its caveat."""
    nb = load_notebook(NOTEBOOK)
    cells = nb["cells"]
    first_power = next(i for i, c in enumerate(cells) if c["cell_type"] == "code"
                       and "if the observed rates were true" in _src(c))
    caveat = next(i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and "post-hoc power" in _src(c))
    assert caveat < first_power
    printed = "".join("".join(o.get("text", "")) for o in cells[first_power].get("outputs", []))
    assert "post-hoc power of this test set" in printed and "adds nothing to it" in printed
    # the power at the observed rates is not a planning figure: cell 17 says the observed difference is no basis
    # for a plan (review nb0006c)
    assert "planning figure" not in printed and "planning figure" not in _src(cells[caveat])


def test_exercise_3_asks_what_the_post_hoc_power_box_does_not_say():
    """Issue 33: exercise 3 ended on "Why not the power for a difference of the observed size?", which section 2d's
    bold box answers word for word. It now asks which of its two numbers depends on how the disagreements split, and
    the solution computes both for an even split."""
    nb = load_notebook(NOTEBOOK)
    cells = nb["cells"]
    exercises, solutions = _src(cells[-2]), _src(cells[-1])
    box = next(_src(c) for c in cells if c["cell_type"] == "markdown" and "Read this before the numbers below" in _src(c))
    assert "for a difference of the observed size" not in exercises
    assert "split evenly between the two classifiers" in exercises and "split" not in box
    assert "Contingency(table.a, b_even, c_even, table.d, n)" in solutions
    assert '". Split {split} (b = {b_even}, c = {c_even})' in solutions and "already split {split}" in solutions


@pytest.mark.slow
def test_exercise_3_says_an_even_split_is_already_there(notebook_runs):
    """Issue 33: with |b - c| <= 1 the solution printed "the interval moves from [x] to [x]", the same interval
    twice. Seed 52 (default test size) gives b = 6, c = 5: the 11 disagreements are already split as evenly as
    possible, and the solution says so with the run's numbers instead of comparing the interval with itself. Section
    2d's exact sample-size search passes its limit at this b - c = 1 and says so instead of raising."""
    nb = notebook_runs.executed(NOTEBOOK, dict(seed=52, show_solutions=True))
    joined = outputs_text(nb)
    assert "solutions ok" in joined
    counts = re.search(r"A wrong, B right: b = (\d+);  A right, B wrong: c = (\d+)", joined)
    b, c = int(counts.group(1)), int(counts.group(2))
    assert abs(b - c) <= 1 and (b + c) % 2 == 1          # the branch and the odd wording are both exercised
    interval = re.search(r"interval for err_A - err_B \(Bonett–Price\): (\[[-+][\d.]+, [-+][\d.]+\])", joined)
    three = next(line for line in joined.splitlines() if line.startswith("3. "))
    mdd = re.search(r"only differences of at least ([\d.]+)", three)
    reach = mdd.group(1) if mdd else "out of reach"
    assert (f"Here the b + c = {b + c} disagreements are already split as evenly as possible (b = {b}, c = {c}): "
            f"the minimum detectable difference, {reach}, would stay the same under any other split") in three
    assert f"while the interval {interval.group(1)} would move with b - c (it describes the result)" in three
    assert "moves from" not in three and "Split evenly" not in three
    # section 2d at b - c = 1: the exact search for the test cases stops at 20,000 (the cell raised there); Connor's
    # formula (Connor 1987) written out
    import math

    from scipy import stats
    n = int(re.search(r"test set: (\d+) cases", joined).group(1))
    psi, delta = (b + c) / n, (b - c) / n
    connor = (stats.norm.isf(0.025) * math.sqrt(psi) + stats.norm.ppf(0.8) * math.sqrt(psi - delta ** 2)) ** 2 / delta ** 2
    assert connor > 20_000 / 1.1     # the search confirms an n only if the power holds up to 1.1 n <= 20,000
    assert (f"the observed difference {delta:+.3f} would need more than 20,000 cases (the exact search stops there; "
            f"Connor: {math.ceil(connor)})") in joined
    # the plan itself is for smallest_difference (0.03) at this disagreement rate, Connor's beside it
    assert (f"plan for the smallest difference that matters, 0.03 (set in advance), at this test set's disagreement "
            f"rate {psi:.3f}: test cases for 80% power: ") in joined
    assert f"Connor's formula says {connor_n(0.03, psi)};" in joined


# ------------------------------------------------------------------ a lecturer's cold reading
def test_the_interval_verdict_names_its_level():
    """Section 2b: "compatible with these data" said at which level. The default run's Bonett–Price interval,
    written out from b = 11, c = 4, n = 228 (Fagerland, Lydersen & Laake 2014), contains 0."""
    import math

    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    q_b, q_c, z = 12 / 230, 5 / 230, stats.norm.isf(0.025)
    half = z * math.sqrt((q_b + q_c - (q_b - q_c) ** 2) / 230)
    assert q_b - q_c - half < 0 < q_b - q_c + half
    assert "it contains 0: a difference of zero is compatible with these data at level alpha = 0.05" in joined


def test_post_hoc_power_is_said_to_come_from_the_p_values_counts():
    """Post-hoc power is determined by the same counts that determine the p-value, which is why it adds nothing; the
    notebook says that rather than "a function of the p-value"."""
    nb = load_notebook(NOTEBOOK)
    text = "\n".join(_src(c) for c in nb["cells"]) + outputs_text(nb)
    assert "a function of it" not in text and "function of the p-value" not in text
    assert "restate" not in text
    box = next(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown" and "Read this before the numbers" in _src(c))
    assert ("for a given `n` and number of disagreements `b + c` it is a monotone function of `|b - c|`, and so of p"
            in box)
    assert "same counts" not in text       # p depends on b and c only; the post-hoc power on n too (review nb0006e)
    assert "two approximations" not in text   # the mid-p test's size is computed exactly (section 2c)


def _midp_power_by_enumeration(n, p_b, p_c, alpha):
    """Exact power of McNemar's mid-p test by enumerating every table (scipy's multinomial), independent of evallib."""
    import numpy as np
    from scipy import stats

    total = 0.0
    for m in range(n + 1):
        k = np.arange(m + 1)
        low = np.minimum(k, m - k)
        midp = 2 * stats.binom.cdf(low, m, 0.5) - stats.binom.pmf(low, m, 0.5)
        midp = np.where(k == m - k, 1 - stats.binom.pmf(low, m, 0.5) / 2 if m else 1.0, midp)
        reject = midp <= alpha
        if reject.any():
            probs = stats.multinomial.pmf(np.stack([k, m - k, n - m + 0 * k], axis=1), n, [p_b, p_c, 1 - p_b - p_c])
            total += float(probs[reject].sum())
    return total


def test_post_hoc_power_is_a_monotone_function_of_b_minus_c_at_fixed_n_and_disagreements():
    """Review nb0006e: section 2d says the power at the observed rates is, for a given n and b + c, a monotone
    function of |b - c|, and so of p. Checked by brute force (every table enumerated with scipy) over every split of
    b + c = m disagreements among n cases: as |b - c| grows the mid-p value falls and the power rises. A set where p
    depends on b, c only and the power changes with n at the same b, c shows why n had to be named."""
    from scipy import stats

    for n, m in ((30, 7), (30, 12), (60, 9), (60, 16)):
        powers, pvalues = [], []
        for b in range((m + 1) // 2, m + 1):          # |b - c| = 2b - m, increasing
            c = m - b
            low = min(b, c)
            p = 1.0 if b == c else 2 * stats.binom.cdf(low, m, 0.5) - stats.binom.pmf(low, m, 0.5)
            pvalues.append(p)
            powers.append(_midp_power_by_enumeration(n, b / n, c / n, 0.05))
        assert all(x > y for x, y in zip(pvalues, pvalues[1:]))
        assert all(x <= y + 1e-12 for x, y in zip(powers, powers[1:])) and powers[-1] > powers[0]
    # the same b = 6, c = 1 (the same p) among 8 and among 60 cases: different post-hoc power (0.471 and 0.443)
    assert _midp_power_by_enumeration(8, 6 / 8, 1 / 8, 0.05) - _midp_power_by_enumeration(60, 6 / 60, 1 / 60, 0.05) > 0.02


def test_the_width_is_named_as_the_width_at_the_expected_counts():
    """The figure's width is the Bonett–Price interval at the expected counts b = n p_b, c = n p_c (planning's
    expected_interval_width), not the mean width over test sets: the notebook says so everywhere it names it."""
    nb = load_notebook(NOTEBOOK)
    text = "\n".join(_src(c) for c in nb["cells"]) + json_alt_texts(nb) + outputs_text(nb)
    assert "expected width" not in text
    assert "width of the Bonett–Price interval at the expected counts" in text
    assert "width of the 95% interval at the expected counts 0.071" in text   # the saved figure's alt text


def json_alt_texts(nb) -> str:
    return "\n".join(o.get("metadata", {}).get("image/png", {}).get("alt", "") for c in nb["cells"]
                     for o in c.get("outputs", []) if isinstance(o.get("metadata", {}).get("image/png"), dict))


@pytest.mark.slow
def test_the_sliders_open_on_a_possible_setting_when_c_is_zero(notebook_runs):
    """Seed 9 gives b = 12, c = 0 on 228 cases: a difference of 0.0526 on a disagreement rate of 0.0526. Rounded
    to their nearest steps the sliders opened at a difference of 0.055 and a disagreement of 0.05, "no such pair of
    classifiers". The disagreement rate is now rounded up. Expected opening values written out by hand."""
    import math

    probe = '''
print("counts", b, c, n)
print("start", repr(controls["difference"].value), repr(controls["discordance"].value), controls["n"].value)
print("title", plan_ax.get_title().splitlines()[0] if plan_ax.get_title() else "")
print("said", " | ".join(t.get_text() for t in plan_ax.texts if t.get_visible()))
print("high", repr(iv.high), "needs", at(iv.high))
'''
    out = "".join(o.get("text", "") for o in notebook_runs.probe(NOTEBOOK, probe, dict(seed=9)))
    b, c, n = map(int, re.search(r"counts (\d+) (\d+) (\d+)", out).groups())
    assert c == 0 and b > 0, out              # the case of the finding: every disagreement one way
    difference, discordance, size = re.search(r"start (\S+) (\S+) (\d+)", out).groups()
    want_difference = round(b / n / 0.005) * 0.005            # 12 / 228 = 0.0526 -> 0.055
    want_discordance = math.ceil(100 * b / n) / 100           # 0.0526 rounded up -> 0.06
    assert float(difference) == pytest.approx(want_difference) and float(discordance) == pytest.approx(want_discordance)
    assert abs(float(difference)) <= float(discordance)
    assert int(size) == 230
    assert f"title difference {want_difference:+.3f}, disagreement {want_discordance:.2f}, n = 230:" in out, out
    assert "no such pair" not in out
    # the interval's upper end exceeds the disagreement rate b / n: the illustration plans it at a rate equal to
    # itself (all disagreements one way), where Connor's formula has psi = d
    high = float(re.search(r"high (\S+) needs", out).group(1))
    assert high == pytest.approx(bonett_price(b, c, n)[1]) and high > b / n
    assert f"(Connor: {connor_n(high, high)})" in out, out


@pytest.mark.slow
def test_notebook_00_at_a_zero_difference_with_no_disagreement(notebook_runs):
    """test_size 0.05, seed 4: 29 test cases on which A and B agree everywhere (b = c = 0), at alpha = 0.2.
    The plan for smallest_difference (0.03) assumes the smallest disagreement rate that difference allows, 0.03 itself
    (all disagreements one way); the mid-p test then rejects with m disagreements exactly when 0.5^m <= alpha, so its
    power is P(M >= m*) with M ~ Binomial(n, 0.03), from scipy. Exercise 2 at a zero difference: the power stays at
    the test's size, no ratio of two near-zero powers and no "grows towards 1"."""
    import math

    from scipy import stats

    nb = notebook_runs.executed(NOTEBOOK, dict(seed=4, test_size=0.05, alpha=0.2, show_solutions=True))
    joined = outputs_text(nb) + write_up_text(nb)
    assert "test set: 29 cases" in joined and "A wrong, B right: b = 0;  A right, B wrong: c = 0" in joined
    m_star = next(m for m in range(1, 50) if 0.5 ** m <= 0.2)

    def holds(n_):
        return all(stats.binom.sf(m_star - 1, k, 0.03) >= 0.8 for k in range(n_, math.ceil(1.1 * n_) + 1))

    need = next(n_ for n_ in range(1, 2000) if holds(n_))
    assert ("plan for the smallest difference that matters, 0.03 (set in advance), at a disagreement rate of 0.030, "
            "the difference itself (this test set's, 0.000, is smaller") in joined
    assert f"test cases for 80% power: {need} (mid-p test, exact power); Connor's formula says {connor_n(0.03, 0.03, 0.2)}" \
        in joined
    assert f"needs {need} cases at a disagreement rate of 0.030" in joined            # the write-up
    assert "no discordant case, so the test cannot reject on this test set whatever the true difference" in joined
    assert "A and B agree on every test case: no discordant case, so the mid-p test cannot reject" in joined
    assert "with no disagreement the test cannot reject, and that 'observed power' is 0" in joined
    assert "the observed difference +0.000 would need no test set (a difference of 0 is not detectable)" in joined
    assert "no difference" not in joined and "at this disagreement rate no" not in joined
    # exercise 2 at the sliders' start, difference 0: the power stays at the test's rejection rate
    two = joined[joined.index("2. at the sliders' start"):joined.index("\n3. ")]
    assert "difference +0.000" in two and "at a true difference of 0 the power is the test's rejection rate" in two
    assert "ratio" not in two.split("Power")[1] and "grows towards 1" not in two
    ratio = float(re.search(r"width ratio ([\d.]+)", two).group(1))
    assert ("it does not halve" if ratio > 0.5 else "it halves or more") in two and "pseudo-counts" in two
    # section 2c's example at alpha = 0.2, found by enumeration here: fewest disagreements first, then the largest b;
    # its lower end is within 0.0005 of 0, so it is printed with the digits that show its sign
    mid_p = lambda b_, c_: 2 * stats.binom.cdf(min(b_, c_), b_ + c_, 0.5) - stats.binom.pmf(min(b_, c_), b_ + c_, 0.5) \
        if b_ != c_ else 1 - stats.binom.pmf(b_, 2 * b_, 0.5) / 2
    found = next((b_, m - b_) for m in range(1, 101) for b_ in range(m, (m - 1) // 2, -1)
                 if (min(1, mid_p(b_, m - b_)) <= 0.2) == (bonett_price(b_, m - b_, 100, 0.2)[0] <= 0
                                                             <= bonett_price(b_, m - b_, 100, 0.2)[1]))
    low, high = bonett_price(*found, 100, 0.2)
    digits = next(k for k in range(3, 7) if round(low, k) != 0 and round(high, k) != 0)
    assert digits > 3, low
    assert f"b = {found[0]}, c = {found[1]} among 100 cases: the 80% Bonett–Price interval [{low:+.{digits}f}, " \
           f"{high:+.{digits}f}]" in joined


def test_the_write_up_rejects_a_smallest_difference_outside_0_1():
    from evallib.lessons import comparison_write_up
    for bad in (0, -0.1, 1.5):
        with pytest.raises(ValueError, match="smallest_difference"):
            comparison_write_up(11, 4, 228, smallest_difference=bad)


def test_the_write_up_says_when_the_plan_sends_every_disagreement_one_way():
    """Review nb0006d item 7: when the smallest difference is at least this test set's disagreement rate
    (b + c) / n, the plan's rate is the difference itself, p_c = (rate - difference) / 2 = 0, and the write-up says
    so; below it (p_c > 0 by hand) it does not."""
    from evallib.lessons import comparison_write_up
    note = "(the smallest possible rate for this difference: all disagreements one way)"
    for b, c, n, smallest in ((11, 4, 228, 0.1), (11, 4, 228, 0.03), (10, 5, 100, 0.15), (3, 0, 300, 0.5)):
        rate = max((b + c) / n, smallest)
        one_way = (rate - smallest) / 2 == 0
        text = comparison_write_up(b, c, n, smallest_difference=smallest, test="mid-p")
        assert (f"at a disagreement rate of {rate:.3f} {note}." in text) == one_way, (b, c, n, smallest)
        assert (note in text) == one_way
    assert note not in comparison_write_up(11, 4, 228, smallest_difference=0.03)


# --------------------------------------------------------------------------- cold read n06 (helper h2/n06)
def _midp_rule_by_hand(p_b, p_c, power, alpha, stop=3000):
    """The workbook's sample-size rule for the mid-p test, recomputed: the smallest n whose exact power (scipy's
    binomials, every table) reaches `power` at every n' from n to 1.1 n."""
    import math

    import numpy as np
    from scipy import stats

    psi, theta = p_b + p_c, p_b / (p_b + p_c)
    given_m = [0.0]                     # P(reject | m disagreements), extended only as far as the search goes
    cache = {}

    def power_at(n):
        for m in range(len(given_m), n + 1):
            k = np.arange(m + 1)
            low = np.minimum(k, m - k)
            p = np.minimum(1.0, 2 * stats.binom.cdf(low, m, 0.5) - stats.binom.pmf(low, m, 0.5))
            given_m.append(stats.binom.pmf(k, m, theta)[p <= alpha].sum())
        if n not in cache:
            cache[n] = float(np.sum(stats.binom.pmf(np.arange(n + 1), n, psi) * np.asarray(given_m[:n + 1])))
        return cache[n]

    return next(n for n in range(1, stop) if all(power_at(j) >= power for j in range(n, math.ceil(1.1 * n) + 1)))


def test_the_plan_is_repeated_at_the_ends_of_the_disagreement_rates_interval():
    """Cold read n06, finding 6: the plan (557 cases) rests on a disagreement rate estimated from 15 of 228 cases;
    the notebook plans again at the ends of its Wilson interval (statsmodels) and gives the 557-case plan's power
    there, both recomputed here by enumeration with scipy."""
    from statsmodels.stats.proportion import proportion_confint

    joined = outputs_text(load_notebook(NOTEBOOK))
    counts = re.search(r"A wrong, B right: b = (\d+);  A right, B wrong: c = (\d+)", joined)
    n = int(re.search(r"test set: (\d+) cases", joined).group(1))
    m = int(counts.group(1)) + int(counts.group(2))
    plan = int(re.search(r"test cases for 80% power: (\d+) \(mid-p test", joined).group(1))
    low, high = proportion_confint(m, n, alpha=0.05, method="wilson")
    assert 0.03 < low        # the default run plans at the ends themselves, not at the difference
    parts = []
    for psi in (low, high):
        p_b, p_c = (psi + 0.03) / 2, (psi - 0.03) / 2
        need = _midp_rule_by_hand(p_b, p_c, 0.8, 0.05)
        parts.append(f"{need} cases at {psi:.3f}, where the {plan}-case plan has power "
                     f"{_midp_power_by_enumeration(plan, p_b, p_c, 0.05):.2f}")
    assert (f"that disagreement rate is an estimate from {m} of {n} cases, 95% Wilson interval [{low:.3f}, {high:.3f}]; "
            f"planned at its ends the plan for 0.03 needs {parts[0]}, and {parts[1]} (mid-p test, exact power)") in joined


def test_exercises_1_and_3_are_not_answered_above_them():
    """Cold read h3, 00-1: section 1's warnings said why a t-test over cross-validation rounds is too confident (the
    answer to exercise 1), and section 2d's closing sentence read the minimum detectable difference for this test set
    (the answer to exercise 3). The warnings now send the reader to exercise 1, and exercise 3 adds a reading that no
    text above answers: 'smaller than X' (X the minimum detectable difference)."""
    nb = load_notebook(NOTEBOOK)
    cells = nb["cells"]
    before = "\n".join(_src(c) for c in cells[:-2] if c["cell_type"] == "markdown")
    before = before[:before.index("## Exercises")] if "## Exercises" in before else before
    flat = " ".join(before.split())
    assert "far too confident" not in flat and "the training sets share most of their cases" not in flat
    assert "exercise 1 asks what that does to a t-test over the rounds" in flat
    assert "has the target power only against differences at least as large" not in flat
    exercises = " ".join(_src(cells[-2]).split())
    assert '"so the difference between them is smaller than X"' in exercises
    assert '"so the difference is at least X"' in exercises


def _second_reading_expected(line, iv_low, iv_high, significant):
    """Exercise 3's second reading judged from the printed interval and X: the words the solution must print."""
    mdd = re.search(r"only differences of at least ([\d.]+)", line)
    if not mdd:
        return ", and here there is no X"
    x = float(mdd.group(1))
    if not significant:
        largest = max(abs(iv_low), abs(iv_high))
        return (f", and the interval reaches {largest:.3f}, beyond X = " if largest > x else
                "; here the interval happens to lie within ±X = ")
    smallest = 0.0 if iv_low <= 0 <= iv_high else min(abs(iv_low), abs(iv_high))
    return (f", and the interval allows {smallest:.3f}, below X = " if smallest < x else
            "; here the interval happens to lie beyond ±X = ")


@pytest.mark.slow
def test_exercise_3_judges_the_second_reading_by_the_interval(notebook_runs):
    """Cold read h3, 00-1: the solution of exercise 3 answers 'smaller than X' (or 'at least X') from the run's own
    interval and X, as read here from the printed numbers (the interval's ends and X are checked by hand elsewhere)."""
    params = dict(seed=3, test_size=0.25, alpha=0.1, power=0.9, show_solutions=True)
    joined = outputs_text(notebook_runs.executed(NOTEBOOK, params))
    three = next(line for line in joined.splitlines() if line.startswith("3. "))
    ends = re.search(r"interval for err_A - err_B \(Bonett–Price\): \[([-+][\d.]+), ([-+][\d.]+)\]", joined)
    significant = "at alpha = 0.1 it rejects" in joined
    assert _second_reading_expected(three, float(ends.group(1)), float(ends.group(2)), significant) in three
    assert ("Not 'at least X' either" if significant else "Not 'smaller than X' either") in three


@pytest.mark.slow
def test_exercise_3_prints_x_as_section_2d_does(notebook_runs):
    """Cold read h3, 00-1: the solution of exercise 3 printed X = 0.045 with '{:.3f}' where section 2d prints 0.046
    (rounded up, threshold_text); the mid-p test's exact power (scipy, written out) at the default run's disagreement
    rate 15 / 228 is below 0.8 at a difference of 0.045 and reaches it at 0.046, so only 0.046 is X."""
    psi = 15 / 228
    low, high = (_midp_power_by_hand(228, (psi + d) / 2, (psi - d) / 2, 0.05) for d in (0.045, 0.046))
    assert low < 0.8 <= high
    joined = outputs_text(notebook_runs.executed(NOTEBOOK, dict(show_solutions=True)))
    assert "the smallest difference the mid-p test detects with 80% power is 0.046" in joined
    three = next(line for line in joined.splitlines() if line.startswith("3. "))
    assert "only differences of at least 0.046" in three and "beyond X = 0.046" in three
    assert "the minimum detectable difference stays 0.046" in three
