"""Notebook 04 (Flach, chapter 12) under papermill and in a live kernel.

nbval (run by the whole suite) executes the notebook and compares the cells tagged
``nbval-check-output``; tests/test_notebooks.py checks its house style. Here:
papermill runs it with non-default parameters, and a live kernel moves its sliders
and checks that each move re-runs the evallib function it drives.
"""

from __future__ import annotations

import re

import pytest
from _nbtools import (NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text, prose_problems)

from evallib.lessons.live import freeze_widget_outputs

NOTEBOOK = NOTEBOOK_DIR / "04_flach_experiments.ipynb"


def test_notebook_04_saved_outputs_reproduce_the_book():
    """The saved outputs of the check cells hold the book's numbers (nbval re-checks them)."""
    joined = outputs_text(load_notebook(NOTEBOOK))
    for expected in (
        "sum of ranks: positive 8, negative 47",
        "critical value for n = 10 at alpha = 0.05: 8",
        "Friedman statistic 2.60",
        "q = 2.3437 (book 2.343), CD = 1.0481 (book 1.047)",
        "q = 2.2414 (book 2.241)",
        "= 1.9732e-09",
        "exact 6.2",
        # Wilson first, as the default; the book's normal interval last
        " wilson: [0.711, 0.867]",
        " normal: [0.722, 0.878]",
    ):
        assert expected in joined, expected


def test_notebook_04_coverage_numbers_are_exact_binomial_sums():
    """The printed coverages of the 95% intervals at n = 100 against statsmodels' intervals summed over
    the binomial distribution (an enumeration independent of evallib's interval code)."""
    import re

    import numpy as np
    from scipy import stats
    from statsmodels.stats.proportion import proportion_confint

    joined = outputs_text(load_notebook(NOTEBOOK))
    k = np.arange(101)
    even = np.linspace(0.5, 0.999, 500)
    grid = np.unique(np.r_[even, 1 - np.linspace(0.01, 10, 1000) / 100])
    grid = grid[(grid >= 0.5) & (grid < 1)]

    def coverage(lo, hi, at):
        pmf = stats.binom.pmf(k[None, :], 100, at[:, None])
        return (pmf * ((lo <= at[:, None] + 1e-12) & (at[:, None] <= hi + 1e-12))).sum(axis=1)

    for method, sm in (("normal", "normal"), ("wilson", "wilson"), ("exact", "beta")):
        lo, hi = proportion_confint(k, 100, alpha=0.05, method=sm)
        m = re.search(rf"{method}: mean coverage ([\d.]+), lowest ([\d.]+)", joined)
        assert m, method
        assert (float(m.group(1)), float(m.group(2))) == pytest.approx(
            (coverage(lo, hi, even).mean(), coverage(lo, hi, grid).min()), abs=6e-4)
    # Wilson's dip next to 1 is in the study (Brown, Cai & DasGupta 2001): below 0.85, just below a = 0.999
    m = re.search(r"wilson: mean coverage [\d.]+, lowest ([\d.]+) at a = ([\d.]+)", joined)
    assert float(m.group(1)) < 0.85 and 0.997 < float(m.group(2)) < 0.999


def test_notebook_04_the_books_sentence_is_computed_true():
    """The book's 'correct reading' (P(0.72 <= measurement <= 0.88 | a = 0.8) = 0.95) is true of the
    sampling distribution: the saved number against scipy's binomial cdf."""
    from scipy import stats

    joined = outputs_text(load_notebook(NOTEBOOK))
    m = re.search(r"P\(0.72 <= measured accuracy <= 0.88 \| a = 0.80, n = 100\) = ([\d.]+)", joined)
    assert m and float(m.group(1)) == pytest.approx(stats.binom.cdf(88, 100, 0.8) - stats.binom.cdf(71, 100, 0.8),
                                                    abs=6e-5)


def test_notebook_04_uses_tags_and_teaches_the_corrections():
    nb = load_notebook(NOTEBOOK)
    sources = ["".join(c["source"]) for c in nb["cells"]]
    assert not any("NBVAL_CHECK_OUTPUT" in s for s in sources)
    assert sum("nbval-check-output" in c["metadata"].get("tags", []) for c in nb["cells"]) >= 10
    text = "\n".join(s for s, c in zip(sources, nb["cells"]) if c["cell_type"] == "markdown")
    for needle in ("Brown, Cai & DasGupta", "Benavoli, Corani & Mangili", "coverage", "only $k - 1$ of them are free"):
        assert needle in text, needle
    assert "test suite" not in text


@pytest.mark.slow
def test_notebook_04_runs_with_other_parameters(notebook_runs):
    params = dict(alpha=0.1, correct=40, n_test=50, true_negatives=100, control="Naive Bayes")
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "n_test = 50" in "".join(injected[0]["source"])
    joined = outputs_text(freeze_widget_outputs(nb))       # the sliders' outputs, as a saved lesson shows them
    # the parameter-driven interval cell follows the new result and level
    assert "â = 40/50 = 0.800" in joined and "90% intervals" in joined
    assert "90% intervals, n = 50 test cases" in joined            # the coverage study follows n_test and alpha
    # the cells that reproduce the book do not move
    assert "sum of ranks: positive 8, negative 47" in joined


@pytest.mark.slow
def test_notebook_04_sliders_drive_the_examples(notebook_runs):
    """Move sliders in a live kernel: each move must re-run what it drives.

    The callbacks look up evallib's functions in the notebook's namespace when they
    run, so wrapping those names records every call a slider triggers.
    """
    probe = '''
calls = []
def _wrap(name):
    original = globals()[name]
    def wrapper(*args, **kwargs):
        calls.append((name, args, kwargs))
        return original(*args, **kwargs)
    globals()[name] = wrapper
for _name in ("accuracy_at_pos", "measures_table", "describe_accuracy_interval",
              "critical_difference_table", "rank_analysis"):
    _wrap(_name)

def made(name):
    return [(a, k) for n, a, k in calls if n == name]

# live_output prints what a callback returns (and a ValueError's message): record stdout.
import sys
printed = []
class _Tee:
    def __init__(self, stream):
        self.stream = stream
    def write(self, text):
        printed.append(text)
        return self.stream.write(text)
    def __getattr__(self, name):
        return getattr(self.stream, name)
sys.stdout = _Tee(sys.stdout)
def _last_output():
    """What was printed since the last call."""
    text = "".join(printed)
    printed.clear()
    return text

controls["pos"].value = 0.3
assert [a[1] for a, k in made("accuracy_at_pos")] == [0.3], calls

controls["tn"].value = 50
assert [list(a[0]) for a, k in made("measures_table")] == [["TN = 50"]], calls
assert "TN = 50" in _last_output()

controls["correct"].value = 9
controls["n"].value = 10
controls["alpha_ci"].value = 0.2
assert [a[:2] for a, k in made("describe_accuracy_interval")] == [(9, 100), (9, 10), (9, 10)], calls
assert made("describe_accuracy_interval")[-1][1]["alpha"] == 0.2
_last_output()
controls["correct"].value = 11                      # more correct than test cases: evallib's message
assert "correct must lie in [0, n] = [0, 10], got 11" in _last_output(), _last_output()

calls.clear()
controls["cd_k"].value = 5
controls["cd_alpha"].value = 0.1
assert [(a, k["alpha"]) for a, k in made("critical_difference_table")] == [((5, 10), 0.05), ((5, 10), 0.1)], calls

calls.clear()
_last_output()
controls["table"].value = "set, A, B, C\\n1, 0.9, 0.8, 0.7\\n2, 0.7, 0.6, 0.5\\n3, 0.8, 0.5, 0.6"
text, = made("rank_analysis")[0][0]
assert text.startswith("set, A, B, C"), text
assert "average ranks (1 = best): A 1.00, B 2.33, C 2.67" in _last_output(), _last_output()
controls["table_test"].value = "bonferroni-dunn"
assert made("rank_analysis")[-1][1]["test"] == "bonferroni-dunn"
# the default control (Decision tree) is not in this table: the learner is told, not overruled
assert "control must be one of the algorithms ['A', 'B', 'C']" in _last_output(), _last_output()
controls["table_control"].value = ""
assert "control: A (none given: the best average rank)" in _last_output(), _last_output()
controls["table_control"].value = "C"
assert made("rank_analysis")[-1][1]["control"] == "C"
assert "control: C\\n" in _last_output(), _last_output()
sys.stdout = sys.stdout.stream
print("sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe)
    assert any("sliders ok" in o.get("text", "") for o in out), out


@pytest.mark.slow
def test_notebook_04_sliders_start_at_parameters_outside_their_usual_ranges(notebook_runs):
    """ipywidgets clamps a value outside [min, max] (IntSlider(value=600, max=500).value == 500), so a
    papermill run with a large test set or an unusual alpha would open its explorers at another setting
    than the one its printed cells used. Every range must include the run's parameters."""
    params = dict(correct=550, n_test=600, alpha=0.005, true_negatives=12_000)
    probe = '''
wanted = {"tn": 12000, "correct": 550, "n": 600, "alpha_ci": 0.005, "cd_alpha": 0.005, "table_alpha": 0.005}
got = {name: controls[name].value for name in wanted}
assert got == wanted, got
print("ranges ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, params)
    assert any("ranges ok" in o.get("text", "") for o in out), out


def test_notebook_04_prose_has_no_repeated_or_cut_off_paragraph():
    """Each markdown cell ends a sentence (or a table row), and no paragraph starts like another: an
    earlier version repeated the coverage paragraph, the first copy cut off mid-sentence ("... and found")."""
    assert prose_problems(load_notebook(NOTEBOOK)) == []
