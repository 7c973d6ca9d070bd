"""Notebook 01 (Berrar & Lozano): its parameters parse, its checked cells are tagged, and a
papermill run at another level labels every interval of the re-run with that level."""

from __future__ import annotations

import re

import pytest
from _nbtools import NOTEBOOK_DIR, injected_cells, load_notebook, outputs_text

NOTEBOOK = NOTEBOOK_DIR / "01_berrar_lozano.ipynb"
PARAMETERS = {"seed", "test_size", "n_genes_1", "n_genes_2", "n_swap", "alpha", "adjust", "show_solutions"}


def _source(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def test_papermill_reads_every_parameter():
    """A second "=" on a line of the parameters cell (one in a comment) made papermill skip
    that parameter ("Unable to parse line 2", "Passed unknown parameter: test_size")."""
    papermill = pytest.importorskip("papermill")
    found = papermill.inspect_notebook(str(NOTEBOOK))
    assert set(found) == PARAMETERS
    assert found["test_size"]["default"] == "None" and found["alpha"]["default"] == "0.05"


def test_checked_cells_are_tagged_not_commented():
    nb = load_notebook(NOTEBOOK)
    sources = [_source(c) for c in nb["cells"]]
    assert not any("NBVAL_CHECK_OUTPUT" in s for s in sources)
    tagged = [c for c in nb["cells"] if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert len(tagged) >= 6
    assert any("interval_coverage" in _source(c) for c in tagged)
    assert any("mcnemar_size" in _source(c) for c in tagged)


def _qh_coverages(alpha: float) -> tuple[float, float]:
    """Exact coverage at (pi_b, pi_c) = (0.01, 0.04), n = 50, of the paper's 1 - alpha interval for
    |delta| and of its signed form: every table enumerated with scipy's multinomial and eqs.
    (4)-(5) written out here."""
    import math

    from scipy import stats

    chi2 = stats.chi2.ppf(1 - alpha, 1)
    unsigned = signed = 0.0
    for b in range(51):
        for c in range(51 - b):
            w = stats.multinomial.pmf([b, c, 50 - b - c], 50, [0.01, 0.04, 0.95])
            pb, pc = b / 50, c / 50
            centre = 50 * (pb - pc) / (50 + chi2)
            half = math.sqrt(max(chi2 * ((pb + pc) * (50 + chi2) - 50 * (pb - pc) ** 2), 0.0)) / (50 + chi2)
            signed += w * (centre - half <= -0.03 <= centre + half)
            # the paper's interval for |delta|: centred on |pb - pc| shrunk, clipped at 0
            lo, hi = max(abs(centre) - half, 0.0), abs(centre) + half
            unsigned += w * (lo <= 0.03 <= hi)
    return unsigned, signed


def test_saved_run_shows_the_coverage_finding():
    """The saved default run: at (0.01, 0.04), n = 50, the signed form of the paper's interval covers
    86.7% and the paper's own |delta| interval 92.1%. Reference: every table enumerated here with
    scipy's multinomial and eqs. (4)-(5) written out."""
    nb = load_notebook(NOTEBOOK)
    text = outputs_text(nb)
    row = next(line for line in text.splitlines() if line.strip().startswith("few disagreements 0.010 0.040"))
    assert row.split()[4] == "0.867"
    markdown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                         for o in c.get("outputs", []))
    unsigned, signed = _qh_coverages(0.05)
    assert f"in **{unsigned:.1%}** of test sets" in markdown
    assert f"contains the true difference in **{signed:.1%}**" in markdown
    assert round(signed, 3) == 0.867 and round(unsigned, 2) == 0.92


@pytest.mark.slow
def test_alpha_01_coverage_verdict_names_the_form_that_falls_short(notebook_runs):
    """At alpha = 0.1 the |delta| interval covers above 90% at (0.01, 0.04) and its signed form
    below it (independent enumeration); the sentence used to say "both keep the promise".
    The same run sets every other parameter of the case study too, and they reach it."""
    unsigned, signed = _qh_coverages(0.1)
    assert unsigned >= 0.9 > signed
    params = dict(alpha=0.1, seed=3, test_size=40, n_genes_1=20, n_genes_2=5, n_swap=8, adjust="bonferroni")
    nb = notebook_runs.executed(NOTEBOOK, params)
    injected = injected_cells(nb)
    assert injected and "test_size = 40" in "".join(injected[0]["source"])
    joined = outputs_text(nb)
    assert "test set: 40 cases" in joined and "models #1 and #3 use 20 genes, #2 uses 5" in joined
    assert "0.010" in joined     # Bonferroni's level for 10 comparisons at alpha = 0.1, in the real-data table
    markdown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                         for o in c.get("outputs", []))
    assert f"in **{unsigned:.1%}** of test sets" in markdown and f"true difference in **{signed:.1%}**" in markdown
    assert "the |δ| form keeps the promise at this setting but the signed form does not" in markdown
    assert "both keep the promise" not in markdown


@pytest.mark.slow
def test_alpha_001_labels_every_rerun_interval_99(notebook_runs):
    nb = notebook_runs.executed(NOTEBOOK, {"alpha": 0.01, "show_solutions": True})
    text = outputs_text(nb)
    assert "solutions ok" in text
    # exercise 4 (Table 2 at 0.05, not the run's level): Bonferroni rejects where the Yates p-value,
    # written out with scipy, is at most 0.05 / 10; Holm rejects those six pairs with p < 0.01
    from scipy import stats
    from evallib.studies._data import paper_table2

    yates = {f"({int(r.i)}, {int(r.j)})": stats.chi2.sf(max(abs(r.b - r.c) - 1, 0) ** 2 / (r.b + r.c), 1)
             for r in paper_table2().itertuples()}
    ranked = sorted(yates, key=yates.get)
    kept = [k for k in ranked if yates[k] <= 0.005]
    lost = [k for k in ranked if 0.005 < yates[k] < 0.01]
    assert kept == ["(1, 4)", "(1, 3)", "(2, 4)", "(1, 5)"] and lost == ["(2, 3)", "(2, 5)"]
    assert f"still declares {', '.join(kept)} and loses {', '.join(lost)}" in text
    # the Benjamini–Yekutieli figure draws only what BH declares: at 0.01 the steps i * 0.001 keep four
    declared = max(i for i, k in enumerate(ranked, 1) if yates[k] <= i * 0.01 / 10)
    holm = next((i for i, k in enumerate(ranked) if yates[k] > 0.01 / (10 - i)), 10)
    assert (holm, declared) == (1, 4)
    assert f"alpha = 0.01: Holm declares {holm} of 10 pairs different, Benjamini–Hochberg {declared}" in text
    assert "Benjamini–Hochberg declares no pair" not in text
    rerun = [line for line in text.splitlines() if re.match(r"\s*(smallest p-value|narrowest interval):", line)]
    assert len(rerun) == 2
    assert all("99% interval" in line and "95%" not in line for line in rerun)
    assert "Exact coverage of the 99% intervals at n = 50 (nominal 0.99)" in text
    assert "nominal alpha = 0.01" in text
    markdown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                         for o in c.get("outputs", []))
    assert "$\\alpha$ = 0.01" in markdown and "99% interval is" in markdown
    assert "nominal 0.99" in markdown


@pytest.mark.slow
def test_coverage_sliders_redraw_with_their_values(notebook_runs):
    """The panel looks up plot_coverage in the notebook's namespace when it runs, so
    wrapping that name records each redraw a slider triggers."""
    probe = '''
calls = []
_plot = plot_coverage
def plot_coverage(*args, **kwargs):
    calls.append((args, kwargs))
    return _plot(*args, **kwargs)
cover["n"].value = 80
cover["discordance"].value = 0.2
assert [args[:2] for args, _ in calls] == [(80, 0.05), (80, 0.2)], calls
for panel in (cover, one, controls):       # every slider's default lies on its step grid
    for name, w in panel.items():
        if hasattr(w, "step") and w.step:
            k = round((w.value - w.min) / w.step)
            assert abs(w.min + k * w.step - w.value) < 1e-9, name
assert all(kw["alpha"] == alpha and "qh" in kw["methods"] for _, kw in calls)
print("coverage sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe)
    assert any("coverage sliders ok" in o.get("text", "") for o in out), out


@pytest.mark.slow
@pytest.mark.slow
def test_rerun_panel_tour_matches_fresh_runs_and_keeps_its_labels_inside(notebook_runs):
    """Section 9's panel at papermill values outside the sliders' usual ranges (seed 150,
    alpha 0.005): it starts at the run's parameters, and after every move of a tour (each
    control, each adjustment, other seeds and sizes) and back, its table is that of a fresh
    run_case_study(...) at the controls' values and its figure holds exactly what
    plot_case_study of that run draws, no artist is left over, and the y-axis
    label and the title lie inside the figure (the layout is frozen at the first render;
    the label used to slide off the left edge when wider tick labels such as "0.45" came).
    An impossible setting (more swaps than the smaller learning class holds) is a
    ValueError naming n_swap and that class's size, which live_output prints as a line."""
    probe = '''
import numpy as np
from evallib.lessons.live import figure as _figure
v0 = {k: w.value for k, w in controls.items()}
assert v0["seed"] == 150 and abs(v0["alpha"] - 0.005) < 1e-12, v0
assert v0["test_size"] == len(study.y_test) == paper_test_size(len(y)), v0

def marks(ax):
    segs = [np.round(np.concatenate(c.get_segments()), 9).tolist() for c in ax.collections if hasattr(c, "get_segments")]
    offs = [np.round(c.get_offsets(), 9).tolist() for c in ax.collections]
    return ([np.round(l.get_xydata(), 9).tolist() for l in ax.lines], segs, offs, len(ax.patches),
            len(ax.containers), len(ax.texts), ax.get_title(), [t.get_text() for t in ax.get_xticklabels()])

shown = []                       # each move shows its run's table (through evallib's case_study_table)
_table = case_study_table
def case_study_table(s):
    shown.append(s)
    return _table(s)

start = len(study_ax.get_children())
tour = [("adjust", "none"), ("adjust", "bh"), ("adjust", "by"), ("adjust", "bonferroni"), ("seed", 3),
        ("alpha", 0.105), ("test_size", 30), ("n_genes_1", 1), ("n_genes_2", 200), ("n_swap", 0),
        ("test_size", 80), ("seed", 150), ("test_size", v0["test_size"]), ("alpha", v0["alpha"]),
        ("n_genes_1", v0["n_genes_1"]), ("n_genes_2", v0["n_genes_2"]), ("n_swap", v0["n_swap"]),
        ("adjust", v0["adjust"])]
for k, (name, value) in enumerate(tour, 1):
    controls[name].value = value
    v = {k: w.value for k, w in controls.items()}
    ref = run_case_study(X, y, test_size=v["test_size"], n_genes_1=v["n_genes_1"], n_genes_2=v["n_genes_2"],
                         n_swap=v["n_swap"], alpha=v["alpha"], adjust=v["adjust"], rng=v["seed"])
    fresh = _figure((7.2, 3.4)).subplots()
    plot_case_study(ref, ax=fresh)
    fresh.get_legend().remove()
    assert marks(fresh) == marks(study_ax), (name, value)
    assert len(shown) == k, (name, value)   # one table per move
    assert shown[-1].error_rates.equals(ref.error_rates) and shown[-1].table.attrs == ref.table.attrs
    assert np.array_equal(shown[-1].test_idx, ref.test_idx), (name, value)
    assert len(study_ax.get_children()) == start, (name, value)
    study_fig.canvas.draw()
    renderer, box = study_fig.canvas.get_renderer(), study_fig.bbox
    for part in (study_ax.yaxis.label, study_ax.title):
        ext = part.get_window_extent(renderer)
        assert ext.x0 >= 0 and ext.x1 <= box.x1, (name, value, part.get_text(), ext)

learn = run_case_study(X, y, test_size=80, n_swap=0, rng=150).learn_idx
smaller = int(np.bincount(np.asarray(y)[learn]).min())
values = {k: w.value for k, w in controls.items()} | {"test_size": 80, "n_swap": smaller + 1}
try:
    rerun(**values)
except ValueError as err:
    message = str(err)
else:
    raise AssertionError("no error for more swaps than the smaller class holds")
assert "n_swap" in message and f"[0, {smaller}]" in message and "\\n" not in message, message
print("rerun panel tour ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe, {"seed": 150, "alpha": 0.005})
    assert any("rerun panel tour ok" in o.get("text", "") for o in out), out


@pytest.mark.slow
def test_one_comparison_sliders_redraw_with_their_values(notebook_runs):
    """Section 7's four controls (b, c, n, alpha) all reach the sentence and the figure;
    exercise 2's setting (15, 5) at n = 500 gives the chi-square tail of 9^2/20."""
    probe = '''
from scipy import stats
said, drawn = [], []
_describe, _plot = describe_comparison, plot_pvalue_vs_interval
def describe_comparison(b, c, n, *, alpha):
    said.append((b, c, n, alpha))
    return _describe(b, c, n, alpha=alpha)
def plot_pvalue_vs_interval(b, c, n, *, alpha, axes=None):
    drawn.append((b, c, n, alpha))
    return _plot(b, c, n, alpha=alpha, axes=axes)
one["n"].value = 500
one["b"].value = 15
one["c"].value = 5
one["alpha"].value = 0.1
assert said == drawn == [(0, 2, 500, alpha), (15, 2, 500, alpha), (15, 5, 500, alpha), (15, 5, 500, 0.1)], said
assert f"p = {stats.chi2.sf(9 ** 2 / 20, 1):#.2g}" in _describe(15, 5, 500, alpha=0.1)
print("comparison sliders ok")
'''
    out = notebook_runs.probe(NOTEBOOK, probe)
    assert any("comparison sliders ok" in o.get("text", "") for o in out), out


def test_author_notes_are_tagged_for_voila_to_drop():
    nb = load_notebook(NOTEBOOK)
    for cell in nb["cells"]:
        if "papermill" in _source(cell) and cell["cell_type"] == "markdown":
            assert "author" in cell["metadata"].get("tags", []), _source(cell)[:60]


def test_default_run_claims_of_section_8_match_its_outputs():
    """Section 8's static text speaks of the default run: model #3 worse than the coin in that split,
    the only Holm survivors against #3. The saved outputs must say the same, and the twenty-split
    paragraph must quote this split's model #3 as the run printed it."""
    nb = load_notebook(NOTEBOOK)
    text = outputs_text(nb)
    line = next(s for s in text.splitlines() if s.startswith("error rates on the test set: "))
    rates = {int(m): float(v) for m, v in re.findall(r"#(\d) ([\d.]+)%", line)}
    assert rates[3] > rates[4]                          # "does worse than the coin in this split"
    markdown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in nb["cells"]
                         for o in c.get("outputs", []))
    assert "Comparisons rejected after adjustment: (1, 3), (2, 3)." in markdown
    twenty = re.search(r"\*\*Twenty splits\*\*[^\n]*", markdown).group(0)
    assert f"This run (seed 0) gives model #3 {rates[3]:.0f}%" in twenty
    worse = int(re.search(r"worse than the coin in (\d+) of the 20 splits", twenty).group(1))
    assert 1 <= worse < 10                              # seed 0 is one of the few, not the rule
